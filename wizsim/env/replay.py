"""One table whose external seats decide outside the engine: the engine replays the round (or game) to each decision.

The engine plays every round (:mod:`wizsim.engine.external`): the deal, the
built-in seats' decisions, the trick winners, the Werewolf, the Juggler's
passes, the Bomb, the Cloud and the scores are the same code as any
simulation. A :class:`Replay` keeps the actions its external seats have taken
in the order the engine asked for them. To find the next decision it runs the
recording kernel on the same seed with those actions: the engine stops at the
first external decision past them and records what it is, with every seat's
hand at that moment; everything played after that point is discarded. The
same seed deals the same cards and the built-in seats decide the same way each
time (dealing and decisions draw from their own streams), so each replay
repeats the last one up to the new decision.

The cost is one replay of the round so far per decision: a few microseconds of
engine time for built-in opponents, well below the Python around it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from ..engine import record_chunk
from ..errors import WizsimError
from ..game import cards as C
from ..game.records import RoundRecords
from ..players.bid_rules import rule_errors
from ..players.strategies import seat_strategies
from ..run.spec import RunSpec, make_spec
from .encoding import FORMS_OF, KIND_NAMES

EXTERNAL_STAND_IN = "heuristic"  # an external seat's strategy id in the kernels (never random's fast path)


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    b = 0
    while mask >> b:
        if (mask >> b) & 1:
            out.append(b)
        b += 1
    return out


@dataclass(frozen=True)
class Pending:
    """The decision the engine asks of an external seat: its kind, seat and legal engine actions, and the state.

    ``seat`` is the game seat, ``round_seat`` the seat in the round's numbering
    (they differ after an elimination); ``row`` the round (0 = first of the
    game); ``legal`` the legal actions as the engine takes them: bids, forms,
    suits, Werewolf codes (``WOLF_*``) or the card types to pass. ``hands``
    [round seat, card type] every seat's cards at this moment; ``bids`` the bids
    made so far (-1: not yet), ``won`` the tricks won so far, by round seat.
    """

    kind: int
    seat: int
    round_seat: int
    row: int
    legal: tuple[int, ...]
    trick: int
    position: int
    trump: int
    shown: int
    leader: int
    forbidden: int
    hands: np.ndarray
    bids: np.ndarray
    won: np.ndarray

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]


class Replay:
    """A table of ``players`` seats; ``seats[p]`` a built-in strategy (``"heuristic"``, ``"learned"``...) or None
    for an external seat. One round of ``cards`` cards, or a whole game (``cards=None``).

    :meth:`start` deals a seed's round or game; :meth:`pending` is the decision
    asked of an external seat (None when the item is over); :meth:`act` takes
    an engine action for it. :attr:`records` holds the rounds as far as played.
    """

    def __init__(
        self,
        players: int,
        cards: int | None,
        seats: list[str | None],
        specials: str | list[str] | None = None,
        rules: dict | list[str] | None = None,
    ) -> None:
        if len(seats) != players:
            raise WizsimError(f"give a strategy or None for each of the {players} seats, got {len(seats)}")
        self.external = [s is None for s in seats]
        strategy = [EXTERNAL_STAND_IN if s is None else s for s in seats]
        if cards is None:
            spec = make_spec(players, games=1, seed=0, strategy=strategy, rules=rules, specials=specials)
        else:
            spec = make_spec(players, cards=cards, hands=1, seed=0, strategy=strategy, rules=rules, specials=specials)
        spec.external_seats = tuple(p for p in range(players) if self.external[p])
        self.spec: RunSpec = spec
        self.seats = list(seats)
        self.players = players
        self.kmax = max(spec.schedule)
        self.rounds = len(spec.schedule)
        self._capacity = 0
        self._grow(64 * self.rounds * (self.kmax + 2))
        self.records = RoundRecords.empty(self.rounds, players, self.kmax)
        self.actions: list[int] = []
        self.seed = 0
        self._state = spec.chunk_range(0, 1).state[0]
        self._pending: Pending | None = None
        self._rows = 0
        self._first = 0
        self._table = C.kernel_tables()[0]
        self._asks: dict[tuple[int, str], tuple] = {}
        self._fixed: tuple | None = None  # start_fixed's preset info, the deck's copies, -, the deck as made
        self.bad_action = -1

    def _grow(self, capacity: int) -> None:
        """A script array for ``capacity`` actions, and the kernel bundles around it (built once per table)."""
        self._capacity = capacity
        self.script = np.zeros(L.X_ACTIONS + capacity, dtype=np.int64)
        self.spec.script = self.script
        self._setup, self._players = self.spec.kernel_args()
        self._schedule = self.spec.schedule_arrays()

    def card_of(self, form: int) -> int:
        """The card type a played form comes from (a Juggler in Red is the Juggler)."""
        return int(self._table[form, L.T_CARD]) if form >= L.JUGGLER_AS else int(form)

    # ------------------------------------------------------------------ playing
    def start(self, seed: int, dealer: int = 0, streams: np.ndarray | None = None) -> Pending | None:
        """Deal seed ``seed``'s round (or game) afresh; return the first external decision (None: nothing to ask).

        ``dealer``: the dealing seat of a one-round table (the seed's deck, dealt from that seat's left; a
        game's first dealer is always seat 0). ``streams``: the deal and decision streams' states to start
        from instead of the seed's (a round of :class:`.vec.VecWizardEnv`).
        """
        if not self.spec.games_mode and not 0 <= dealer < self.players:
            raise WizsimError(f"dealer must be a seat 0..{self.players - 1}, got {dealer!r}")
        if self.spec.games_mode and dealer != 0:
            raise WizsimError("a game's first dealer is seat 0: give dealer only for one-round tables")
        self._first = int(dealer)  # hands mode: item h is dealt by seat h % players, from the chunk's first streams
        self.seed = int(seed)
        self._state = dataclasses.replace(self.spec, seed=self.seed).chunk_range(0, 1).state[0]
        if streams is not None:
            self._state = np.asarray(streams, dtype=np.uint64).reshape(2).copy()
        if self._fixed is not None:  # back to the seed's deal: the deck as made, no preset
            self._fixed[0][L.PRE_ON] = 0
            self.spec.deck[:] = self._fixed[3]
        self.actions = []
        return self._replay()

    def start_fixed(
        self,
        hands: np.ndarray | None,
        indicator: int = -1,
        dealer: int = 0,
        seed: int = 0,
        actions: list[int] | None = None,
    ) -> Pending | None:
        """Deal the given hands (a one-round table) and take ``actions``; return the next external decision.

        ``hands[seat, type]``: copies of each card type dealt to each seat (``k`` each);
        ``indicator``: the card turned up (-1: none; read only where the round turns one up).
        ``hands=None`` replays the last fixed deal (dealer and seed too) with ``actions``.
        The cards neither dealt nor turned up are the undealt stock. ``seed`` seeds the decision
        streams (the built-in players' draws). ``actions`` are taken as given, in the order the
        engine asks: each is checked by the engine as it is read, and one that is not legal there
        is a WizsimError naming its index (:attr:`bad_action` holds it; nothing else changes).
        This is how the OpenSpiel game (:mod:`.openspiel`) deals its chance outcomes and builds
        the deals it resamples.
        """
        if self.spec.games_mode:
            raise WizsimError("a fixed deal is one round: give cards, not a whole game")
        if hands is None:  # the last fixed deal again, with other actions (the OpenSpiel game's states)
            if self._fixed is None or self.spec.preset is None or self._fixed[0][L.PRE_ON] == 0:
                raise WizsimError("no fixed deal to replay: give the hands")
            return self._replay_fixed(actions)
        k = int(self.spec.schedule[0])
        hands = np.asarray(hands, dtype=np.int64)
        if hands.shape != (self.players, 64) or (hands < 0).any() or (hands.sum(axis=1) != k).any():
            raise WizsimError(f"give {k} cards to each of the {self.players} seats (copies by card type)")
        if self._fixed is None:
            info = np.zeros(L.N_PRE, dtype=np.int64)
            original = np.asarray(self.spec.deck, dtype=np.uint8).copy()
            self.spec.deck = original.copy()
            self.spec.preset = (info, np.zeros(64, dtype=np.int64), np.full(self.players, -1, dtype=np.int64))
            self._fixed = (info, np.bincount(original, minlength=64), None, original)
            self._asks.clear()
            self._grow(self._capacity)  # the kernel bundles around the preset arrays, filled in place from now on
        info, full = self._fixed[0], self._fixed[1]
        stock = full.copy()
        stock -= hands.sum(axis=0)
        if indicator >= 0:
            stock[indicator] -= 1
        if (stock < 0).any():
            raise WizsimError("the hands and the turned-up card hold more copies of a card than the deck")
        deck = self.spec.deck
        if indicator >= 0:  # the deck in play holds every card: the turned-up one last (nothing deals it)
            stock[indicator] += 1
        deck[:] = np.concatenate([np.repeat(np.arange(64), row) for row in (*hands, stock)]).astype(np.uint8)
        info[[L.PRE_ON, L.PRE_SEAT, L.PRE_DEALER, L.PRE_INDICATOR, L.PRE_MASK, L.PRE_FIXED]] = [
            1, -1, dealer, indicator, 0, 1]  # fmt: skip
        self._first = int(dealer)
        self.seed = int(seed)
        self._state = dataclasses.replace(self.spec, seed=self.seed).chunk_range(0, 1).state[0]
        return self._replay_fixed(actions)

    def _replay_fixed(self, actions: list[int] | None) -> Pending | None:
        """Replay the fixed deal in place with ``actions``: the next decision, or a WizsimError if one is not legal."""
        self.actions = [int(a) for a in (actions or [])]
        if len(self.actions) > self._capacity:
            self._grow(2 * len(self.actions))
        try:
            pend = self._replay()
        except AssertionError:  # an action the deal could not take left the engine's count of them
            raise WizsimError("the actions given do not fit this deal") from None
        bad = int(self.script[L.X_BAD])
        self.bad_action = bad - 1
        if bad:
            raise WizsimError(f"action {bad - 1} ({self.actions[bad - 1]}) is not legal where the deal asks for it")
        return pend

    def act(self, action: int) -> Pending | None:
        """Take engine action ``action`` for the pending decision (it must be legal); return the next decision."""
        if self._pending is None:
            raise WizsimError("no decision is pending: the round or game is over; start a new one")
        if action not in self._pending.legal:
            raise WizsimError(f"action {action} is not legal here (legal: {list(self._pending.legal)})")
        self.actions.append(int(action))
        if len(self.actions) > self._capacity:
            self._grow(2 * self._capacity)
        return self._replay()

    @property
    def pending(self) -> Pending | None:
        return self._pending

    @property
    def rows(self) -> int:
        """Rounds recorded so far (the pending round included)."""
        return self._rows

    @property
    def done(self) -> bool:
        return self._pending is None

    def ask(self, strategy: str) -> int:
        """The engine action built-in player ``strategy`` takes at the pending decision, in that seat.

        The round is replayed with the pending seat played by ``strategy``: the
        seat's earlier decisions are the ones taken, and at this decision the
        player decides as in any simulation, reading what its seat may read (its
        own hand, the table's view; pimc samples the rest). Its random draws
        come from the round's decision stream at that point.
        """
        pend = self._pending
        if pend is None:
            raise WizsimError("no decision is pending: the round or game is over; start a new one")
        key = (pend.seat, strategy)
        if key not in self._asks:
            seats = [EXTERNAL_STAND_IN if s is None else s for s in self.seats]
            seats[pend.seat] = strategy
            spec = dataclasses.replace(self.spec, strategies=seat_strategies(seats, self.players))
            spec.script = np.zeros_like(self.script)
            setup, players = spec.kernel_args()
            rec = RoundRecords.empty(self.rounds, self.players, self.kmax)
            self._asks[key] = (spec, setup, players, rec)
        spec, setup, players, rec = self._asks[key]
        if spec.script.shape != self.script.shape:  # the table's script grew
            spec.script = np.zeros_like(self.script)
            setup, players = spec.kernel_args()
            self._asks[key] = (spec, setup, players, rec)
        x = self._run(spec, setup, players, rec, ask=pend.round_seat)
        if x[L.X_KIND] != pend.kind or x[L.X_SEAT] != pend.round_seat:
            raise AssertionError("the asked replay reached another decision")  # the engine is deterministic
        return int(x[L.X_ANSWER])

    def _run(self, spec: RunSpec, setup, players, rec: RoundRecords, ask: int = -1) -> np.ndarray:
        """Replay the item with the actions taken (``ask``: the round seat whose player takes the next decision)."""
        x = spec.script
        assert x is not None
        x[: L.X_ACTIONS] = 0
        x[L.X_ON] = 1
        x[L.X_ASK] = ask + 1
        x[L.X_LEN] = len(self.actions)
        x[L.X_ACTIONS : L.X_ACTIONS + len(self.actions)] = self.actions
        for a in rec.kernel_arrays():
            a.fill(0)
        rec.passes.fill(-1)
        with rule_errors(spec.bid_rules(), spec.play_rules()):
            record_chunk(self.players, self._schedule, self._first, 1, self._state, setup, players, rec.kernel_arrays())
        if x[L.X_CURSOR] != len(self.actions):
            raise AssertionError("the replay did not read back every action taken")  # the engine is deterministic
        return x

    def _replay(self) -> Pending | None:
        x = self._run(self.spec, self._setup, self._players, self.records)
        rec = self.records
        self._rows = int((rec.round_players > 0).sum())
        self._pending = self._read_pending() if x[L.X_KIND] != 0 else None
        return self._pending

    def _read_pending(self) -> Pending:
        x = self.script
        row = self._rows - 1
        na = int(self.records.round_players[row])
        kind = int(x[L.X_KIND])
        round_seat = int(x[L.X_SEAT])
        legal_bits = bits(int(x[L.X_LEGAL]) & ((1 << 64) - 1))
        if kind == L.DK_CARD:
            legal = tuple(f for c in legal_bits for f in FORMS_OF.get(c, (c,)))
        else:
            legal = tuple(legal_bits)
        hands = x[L.X_CNT : L.X_CNT + 64 * na].reshape(na, 64)[:, : L.N_TYPES].copy()
        return Pending(
            kind=kind,
            seat=int(self.records.seats[row, round_seat]),
            round_seat=round_seat,
            row=row,
            legal=legal,
            trick=int(x[L.X_TRICK]),
            position=int(x[L.X_POS]),
            trump=int(x[L.X_TRUMP]),
            shown=int(x[L.X_SHOWN]),
            leader=int(x[L.X_LEADER]),
            forbidden=int(x[L.X_FORBIDDEN]),
            hands=hands,
            bids=x[L.X_BIDS : L.X_BIDS + na].copy(),
            won=x[L.X_WON : L.X_WON + na].copy(),
        )
