"""Wizard as an OpenSpiel Python game, ``python_wizsim``, played by the wizsim engine (extra ``wizsim[openspiel]``).

``pyspiel.load_game("python_wizsim", {"players": 4, "cards": 10, "specials": "all", "rules": "canadian=true"})``
after ``import wizsim.env.openspiel``. One round of ``cards`` cards for ``players`` (3-6) seats; ``specials`` and
``rules`` are written as for ``wizsim simulate`` (``"dragon,fairy"``; ``"werewolf=may,hidden_bids=secret"``);
``dealer`` is the dealer's seat.

Chance deals the cards one at a time, a card type per outcome with its copies
left in the deck as weight: the k x n cards round the table from the dealer's
left, then the card turned up (where the round turns one up). Every decision
after that is a player's: the actions are :class:`.encoding.Encoder`'s (bids,
cards in their forms, naming trump, the Werewolf, the Juggler passes), one
seat at a time; hidden and simultaneous decisions are hidden in the
information states. The returns are the round's scores (general sum).

The rules are the engine's: a state holds its deal and its actions, and the
engine replays them (:meth:`.replay.Replay.start_fixed`) to find the next
decision, its legal actions and the scores, as the PettingZoo environment does.

Information states are perfect recall: the seat's dealt hand, the card turned
up, every decision in order as the seat saw it (another seat's hidden bid or
Juggler pass as ``?``; a Werewolf kept under ``werewolf=may`` not at all),
then the seat's present observation (:meth:`.encoding.Encoder.observe`, which
shows the bids once the rules reveal them and the cards passed and received).
Observations are that present observation, as a string and as the encoder's
flat vector.

:meth:`WizsimState.resample_from_infostate` deals the cards a seat cannot see
consistently with what it saw, as the play advisor's sampler does: the suits
each seat showed out of (in each stretch between Juggler passes), the cards
played, the cards it knows are in a hand (the card it passed, the turned-up
card a Werewolf took), the hand sizes. The hidden decisions are drawn again
(another seat's hidden bid, the card it passed). The sampled deal is replayed
by the engine and kept only if every action is legal in it and the
information state is the seat's own; after ``MAX_TRIES`` failures the true
state is returned and counted in ``resample_fallbacks`` (the tests check it
stays 0).

Refused (one-line :class:`~wizsim.errors.WizsimError`): clairvoyance (a seat
sees the others' cards but not its own: the information states would have to
be built the other way round) and mono (each seat's own suit deck), both
whole-game variants.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..engine import layout as L
from ..errors import WizsimError
from ..game import cards as C
from ..game.rules import parse_rules
from .encoding import KIND_NAMES, Encoder
from .replay import Pending, Replay

MAX_TRIES = 200
_SHORT_NAME = "python_wizsim"
_DEFAULTS = {"players": 4, "cards": 10, "specials": "", "rules": "", "dealer": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="Wizard (wizsim engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)

#: the suit of each card type (-1: a card that may always be played)
SUIT_OF = np.where(np.arange(64) < 52, np.arange(64) // 13, -1)


def _rules_of(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


class WizsimGame(pyspiel.Game):
    """One round of Wizard for OpenSpiel (see the module docstring for the parameters)."""

    def __init__(self, params: dict | None = None) -> None:
        given: dict[str, Any] = dict(_DEFAULTS)
        given.update(params or {})
        n, k, dealer = int(given["players"]), int(given["cards"]), int(given["dealer"])
        specials = str(given["specials"]) or None
        rules = parse_rules(_rules_of(str(given["rules"])))
        for variant in ("clairvoyance", "mono"):
            if rules.has(variant):
                raise WizsimError(
                    f"python_wizsim plays one round of open hands: {variant} is refused (drop it from rules)"
                )
        if not 0 <= dealer < n:
            raise WizsimError(f"dealer {dealer} is not a seat: give 0..{n - 1}")
        table = Replay(n, k, [None] * n, specials=specials, rules=_rules_of(str(given["rules"])))
        rules_array = table.spec.rules.to_array(table.spec.specials)
        encoder = Encoder(n, k, rules_array, 1)
        decisions = n + n * k + 2 + n * k  # bids, plays, trump, Werewolf, passes (a bound)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoder.n_actions,
            max_chance_outcomes=64,
            num_players=n,
            min_utility=float(-5 * (k + 1) * (k + 2)),
            max_utility=float(20 + 20 * k),
            utility_sum=None,
            max_game_length=decisions,
        )
        super().__init__(GAME_TYPE, info, {key: given[key] for key in _DEFAULTS})
        self.core = Core(table, n, k, dealer, rules_array, encoder)
        self.core.game = self  # the states' game (a wrapper that keeps this object's attributes)
        _CORES[_key(self.get_parameters())] = self.core

    def new_initial_state(self) -> WizsimState:
        return WizsimState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> WizsimObserver:
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return WizsimObserver(core_of(self), perfect)


def _key(params: dict) -> tuple:
    return tuple(sorted((str(k), str(v)) for k, v in params.items()))


def core_of(game: Any) -> Core:
    """The :class:`Core` of a ``python_wizsim`` game. OpenSpiel may hand back a new Python wrapper of the same
    game without its attributes (a cloned state's game): the core is found again by the game's parameters."""
    core = getattr(game, "core", None)
    if core is None:
        core = _CORES.get(_key(game.get_parameters()))
        if core is None:
            core = WizsimGame(dict(game.get_parameters())).core
    return core


class Core:
    """What the states of one game share: the engine's table, the encoder, the deck, the rule switches.

    Never copied (OpenSpiel clones a state by deep-copying its attributes)."""

    def __init__(self, table: Replay, n: int, k: int, dealer: int, rules: np.ndarray, encoder: Encoder) -> None:
        spec = table.spec
        self.table = table
        self.n, self.k, self.dealer = n, k, dealer
        self.rules = rules
        self.encoder = encoder
        self.deck = np.bincount(np.asarray(spec.deck, dtype=np.int64), minlength=64)
        trumps = spec.trumps or [L.FROM_INDICATOR]
        self.turns_up = trumps[0] == L.FROM_INDICATOR and n * k < int(self.deck.sum())
        self.chance_length = n * k + int(self.turns_up)
        self.hidden_bids = int(rules[L.R_HIDDEN_BIDS])
        self.werewolf_may = int(rules[L.R_WEREWOLF]) == 1
        self.resample_fallbacks = 0
        self.resample_tries = 0
        self._deal_key: bytes | None = None
        self.game: Any = None

    def __deepcopy__(self, memo: dict) -> Core:
        return self

    def replay(self, hands: np.ndarray, indicator: int, actions: list[int]) -> tuple[Pending | None, np.ndarray]:
        """Replay a deal and its actions: the next decision and the script header (WizsimError: an action
        is not legal in this deal)."""
        key = hands.tobytes() + bytes([indicator & 0xFF])
        if key == self._deal_key:
            pend = self.table.start_fixed(None, actions=actions)
        else:
            self._deal_key = None
            pend = self.table.start_fixed(hands, indicator, self.dealer, 0, actions)
            self._deal_key = key
        return pend, self.table.script[: L.X_ACTIONS].copy()

    def scores(self) -> list[float]:
        """The last replayed round's scores by seat."""
        rec = self.table.records
        out = [0.0] * self.n
        for q in range(int(rec.round_players[0])):
            out[int(rec.seats[0, q])] = float(rec.scores[0, q])
        return out


_CORES: dict[tuple, Core] = {}


class _Now:
    """The engine's answer for a state: the pending decision and the script header (replaced, never changed)."""

    __slots__ = ("pend", "header")

    def __init__(self, pend: Pending | None, header: np.ndarray | None) -> None:
        self.pend, self.header = pend, header

    def __deepcopy__(self, memo: dict) -> _Now:
        return self


class WizsimState(pyspiel.State):
    """A round being dealt or played: its chance outcomes, its decisions, and the engine's view of the next one."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._g = core_of(game)
        self.dealt: list[int] = []  # chance outcomes: card types in deal order (then the turned-up card)
        self.hands = np.zeros((self._g.n, 64), dtype=np.int64)
        self.indicator = -1
        self.actions: list[int] = []  # engine actions in the order the engine asked
        self.log: list[tuple[int, int, int, int]] = []  # (seat, kind, engine action, trick) of each decision
        self._now = _Now(None, None)
        self._script: list[tuple[int, int, int, int]] | None = None  # while a resampled state is rebuilt
        self._returns = [0.0] * self._g.n
        self._over = False
        self.segment_voids: list[np.ndarray] = []  # voids shown between Juggler passes, one (n, 4) array per stretch

    @property
    def pend(self) -> Pending | None:
        """The engine's pending decision (None before the deal is complete and at the end)."""
        return self._now.pend

    @property
    def header(self) -> np.ndarray | None:
        """The script header of the last replay: what the observations are encoded from."""
        return self._now.header

    # ------------------------------------------------------------------ turns
    def current_player(self) -> int:
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        if len(self.dealt) < self._g.chance_length:
            return pyspiel.PlayerId.CHANCE
        if self._script is not None:
            return self._script[len(self.log)][0]
        assert self.pend is not None
        return int(self.pend.seat)

    def _legal_actions(self, player: int) -> list[int]:
        pend = self.pend
        if pend is None or self._over or player != pend.seat:
            return []
        return sorted(self._g.encoder.action(pend.kind, a) for a in pend.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._g.deck - self.hands.sum(axis=0)
        total = float(left.sum())
        return [(int(c), float(left[c]) / total) for c in np.flatnonzero(left)]

    def _apply_action(self, action: int) -> None:
        g = self._g
        if self.is_chance_node():
            seat = (g.dealer + 1 + len(self.dealt)) % g.n
            self.dealt.append(int(action))
            if len(self.dealt) <= g.n * g.k:
                self.hands[seat, action] += 1
            else:
                self.indicator = int(action)
            if len(self.dealt) == g.chance_length and self._script is None:
                self._advance()
            return
        if self._script is not None:  # rebuilding: the decision is known, the engine has replayed it
            entry = self._script[len(self.log)]
            self.actions.append(entry[2])
            self.log.append(entry)
            return
        pend = self.pend
        assert pend is not None
        a = g.encoder.engine_action(pend.kind, int(action))
        self.actions.append(a)
        self.log.append((pend.seat, pend.kind, a, pend.trick))
        self._advance()

    def _advance(self) -> None:
        g = self._g
        before = self.pend
        self._now = _Now(*g.replay(self.hands, self.indicator, self.actions))
        if self.pend is None:
            self._over = True
            self._returns = g.scores()
        elif self.pend.kind == L.DK_PASS and (before is None or before.kind != L.DK_PASS):
            self.segment_voids.append(self.voids())  # a pass phase begins: the stretch before it ends

    def voids(self) -> np.ndarray:
        """[seat, suit] 1 where the seat showed out of the suit since the last Juggler passes."""
        assert self.header is not None
        return self._g.encoder.observe(self.header, 0)["voids"].copy()

    def is_terminal(self) -> bool:
        return self._over

    def returns(self) -> list[float]:
        return list(self._returns)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {C.card_name(int(action))}"
        return self._g.encoder.action_name(int(action))

    def __str__(self) -> str:
        g = self._g
        rows = []
        for q in range(g.n):
            hand = " ".join(C.card_name(c) for c in range(64) for _ in range(int(self.hands[q, c])))
            rows.append(f"seat {q}: {hand}")
        if self.indicator >= 0:
            rows.append(f"turned up {C.card_name(self.indicator)}")
        rows.append("actions " + " ".join(str(a) for a in self.actions))
        return "\n".join(rows)

    # ------------------------------------------------------------------ what a seat knows
    def visible(self, p: int, i: int) -> bool:
        """Whether seat ``p`` saw the value of decision ``i`` of the log."""
        q, kind, _, _ = self.log[i]
        if q == p or kind in (L.DK_CARD, L.DK_TRUMP):
            return True
        if kind == L.DK_BID:
            if self._g.hidden_bids == 0 or self._over:
                return True
            if self._g.hidden_bids == 2:
                return False
            return self.pend is not None and self.pend.kind != L.DK_BID  # simultaneous: shown once all have bid
        if kind == L.DK_WEREWOLF:
            return True  # a swap is announced; a keep is not in the log as seen (see info_string)
        return False  # a Juggler pass

    def info_string(self, p: int) -> str:
        g = self._g
        hand = " ".join(C.card_name(c) for c in range(64) for _ in range(int(self.hands[p, c])))
        parts = [f"seat {p} of {g.n}, {g.k} cards, dealer {g.dealer}", f"dealt {hand}"]
        if len(self.dealt) < g.chance_length:
            parts.append(f"dealing {len(self.dealt)}")
            return "\n".join(parts)
        if self.indicator >= 0:
            parts.append(f"turned up {C.card_name(self.indicator)}")
        enc = g.encoder
        for i, (q, kind, a, _) in enumerate(self.log):
            if kind == L.DK_WEREWOLF and q != p and a == L.WOLF_KEEP:
                continue  # declined in silence: nobody else knows the seat holds it
            if self.visible(p, i):
                parts.append(f"{q} {enc.action_name(enc.action(kind, a))}")
            else:
                parts.append(f"{q} {KIND_NAMES[kind]} ?")
        parts.append(self.observation_text(p))
        return "\n".join(parts)

    def observation_text(self, p: int) -> str:
        g = self._g
        if self.header is None:
            hand = " ".join(C.card_name(c) for c in range(64) for _ in range(int(self.hands[p, c])))
            return f"seat {p}; dealing; hand {hand}"
        obs = g.encoder.observe(self.header, p)
        return " ".join(f"{name}=" + ",".join(str(int(v)) for v in obs[name].ravel()) for name in g.encoder.fields)

    def observation_vector(self, p: int) -> np.ndarray:
        g = self._g
        if self.header is None:
            out = np.zeros(g.encoder.vector_size, dtype=np.float32)
            out[: L.N_TYPES] = self.hands[p, : L.N_TYPES]
            return out
        return g.encoder.observe(self.header, p)["vector"]

    # ------------------------------------------------------------------ resampling
    def resample_from_infostate(self, player: int, probability_sampler: Any) -> WizsimState:
        """A state with ``player``'s information state, its hidden cards and decisions drawn consistently with it.

        ``probability_sampler()``, a uniform draw in [0, 1) (OpenSpiel's
        samplers), seeds the draw: a seeded sampler repeats the same states.
        """
        g = self._g
        rng = np.random.default_rng(int(probability_sampler() * 2**53))
        target = self.info_string(player)
        for _ in range(MAX_TRIES):
            g.resample_tries += 1
            state = _resampled(self, int(player), rng)
            if state is not None and state.info_string(player) == target:
                return state
        g.resample_fallbacks += 1
        return self.clone()


def _resampled(s: WizsimState, p: int, rng: np.random.Generator) -> WizsimState | None:
    """One try at a deal and hidden decisions that fit seat ``p``'s view of ``s`` (None: it did not fit)."""
    g = s._g
    n = g.n
    if len(s.dealt) < g.chance_length:
        return _resampled_deal(s, p, rng)
    assert s.header is not None
    pend = s.pend
    now = np.zeros((n, 64), dtype=np.int64)  # every seat's hand now: p's as it is, the others' drawn
    true_now = pend.hands if pend is not None else np.zeros((n, L.N_TYPES), dtype=np.int64)
    now[p, : L.N_TYPES] = true_now[p]
    sizes = true_now.sum(axis=1)
    log = list(s.log)
    actions = list(s.actions)
    played = np.zeros(64, dtype=np.int64)
    for _q, kind, a, _ in log:
        if kind == L.DK_CARD:
            played[int(C.CARD_OF_FORM[a])] += 1
    # the Werewolf: a swap is public (the holder took the turned-up card, the Werewolf lies face up)
    wolf_i = next((i for i, e in enumerate(log) if e[1] == L.DK_WEREWOLF), None)
    swapped = wolf_i is not None and log[wolf_i][2] != L.WOLF_KEEP
    face_up = L.WEREWOLF if swapped else s.indicator
    unseen = g.deck - now[p] - played
    if face_up >= 0:
        unseen[face_up] -= 1
    if (unseen < 0).any():
        return None
    wolf_passed = wolf_i is not None or (pend is not None and pend.kind not in (L.DK_TRUMP, L.DK_WEREWOLF))
    wolf_passed = wolf_passed or pend is None or any(e[1] == L.DK_BID for e in log)
    known = _known_cards(s, p, log, unseen, wolf_i, wolf_passed)
    current = s.voids().astype(bool)
    before_pass = s.segment_voids[0].astype(bool) if s.segment_voids else np.zeros((n, 4), dtype=bool)
    voids = (current | before_pass) if rng.random() < 0.75 else current
    if not _deal_unseen(now, unseen, known, sizes, voids, p, rng):
        return None
    hands = now.copy()
    if not _rewind(s, p, hands, log, actions, before_pass, rng):
        return None
    # the hidden bids drawn again: any bid the seat could make (hidden bids never combine with Canadian)
    for i, (q, kind, _a, t) in enumerate(log):
        if kind == L.DK_BID and not s.visible(p, i):
            b = int(rng.integers(0, g.k + 1))
            actions[i] = b
            log[i] = (q, kind, b, t)
    # a Werewolf kept in silence by another seat: the sampled holder decides, or nobody if it is in the stock
    if g.werewolf_may and s.indicator >= 0 and not swapped and wolf_passed:
        holder = next((q for q in range(n) if hands[q, L.WEREWOLF] > 0), None)
        if wolf_i is not None and log[wolf_i][0] != p:
            del actions[wolf_i], log[wolf_i]
            wolf_i = None
        if wolf_i is None and holder is not None and holder != p:
            at = 1 if log and log[0][1] == L.DK_TRUMP else 0
            actions.insert(at, L.WOLF_KEEP)
            log.insert(at, (holder, L.DK_WEREWOLF, L.WOLF_KEEP, -1))
    return _rebuilt(s, hands, log, actions, before_pass, rng)


def _known_cards(
    s: WizsimState, p: int, log: list, unseen: np.ndarray, wolf_i: int | None, wolf_passed: bool
) -> np.ndarray:
    """Where unseen cards are known to be now, for seat ``p`` (rows: seats; row n: the undealt stock)."""
    g = s._g
    n, pend = g.n, s.pend
    known = np.zeros((n + 1, 64), dtype=np.int64)
    phase = [i for i, e in enumerate(log) if e[1] == L.DK_PASS]  # the Juggler's passes (one Juggler: one phase)
    under_way = pend is not None and pend.kind == L.DK_PASS
    swapped = wolf_i is not None and log[wolf_i][2] != L.WOLF_KEEP
    if swapped and wolf_i is not None:
        w = log[wolf_i][0]
        taken_back = s.indicator in [int(C.CARD_OF_FORM[a]) for q, kind, a, _ in log if kind == L.DK_CARD and q == w]
        if w != p and not taken_back and (not phase or under_way):
            known[w, s.indicator] += 1
    if pend is not None and pend.kind == L.DK_WEREWOLF and pend.seat != p:
        known[pend.seat, L.WEREWOLF] = 1  # the seat asked holds it
    elif s.indicator >= 0 and not g.werewolf_may and wolf_i is None and wolf_passed and unseen[L.WEREWOLF] > 0:
        known[n, L.WEREWOLF] = unseen[L.WEREWOLF]  # a dealt Werewolf must swap: it was not dealt
    mine = [i for i in phase if log[i][0] == p]
    if mine and not under_way:  # the card p passed is in its left neighbour's hand unless played since
        i = mine[0]
        a, r = log[i][2], (p + 1) % n
        later = [int(C.CARD_OF_FORM[b]) for q, kind, b, _ in log[i:] if kind == L.DK_CARD and q == r]
        if a not in later and unseen[a] > known[:, a].sum():
            known[r, a] += 1
    return known


def _rewind(
    s: WizsimState,
    p: int,
    hands: np.ndarray,
    log: list,
    actions: list,
    before_pass: np.ndarray,
    rng: np.random.Generator,
) -> bool:
    """Turn ``hands`` (everyone's now) back into the deal: the plays taken back, the passes drawn and undone, the
    Werewolf's swap undone; the drawn passes written into ``log`` and ``actions`` (False: it did not fit)."""
    g = s._g
    n, k, pend = g.n, g.k, s.pend
    phase = [i for i, e in enumerate(log) if e[1] == L.DK_PASS]
    under_way = pend is not None and pend.kind == L.DK_PASS
    if under_way:  # the passes made so far are still in their seats' hands (all change hands at the end)
        for i in phase:
            q = log[i][0]
            if q != p:
                held = np.flatnonzero(hands[q, : L.N_TYPES] > 0)
                if held.size == 0:
                    return False
                c = int(rng.choice(held))
                actions[i] = c
                log[i] = (q, L.DK_PASS, c, log[i][3])
    for i in range(len(log) - 1, -1, -1):
        q, kind, a, t = log[i]
        if kind == L.DK_CARD:
            hands[q, int(C.CARD_OF_FORM[a])] += 1
        elif kind == L.DK_PASS and not under_way and i == phase[-1]:
            if len(phase) != n:
                return False
            chosen = {}
            for m in phase:
                q2, a2 = log[m][0], log[m][2]
                r = (q2 + 1) % n
                if q2 == p or r == p:
                    chosen[q2] = a2  # p knows what it passed and what it received
                    continue
                held = np.flatnonzero(hands[r, : L.N_TYPES] > 0)
                if held.size == 0:
                    return False
                fits = [c for c in held if SUIT_OF[c] < 0 or not before_pass[q2, SUIT_OF[c]]]
                chosen[q2] = int(rng.choice(fits if fits else held))
            for q2, c in chosen.items():
                hands[(q2 + 1) % n, c] -= 1
                hands[q2, c] += 1
            if (hands < 0).any():
                return False
            for m in phase:
                q2 = log[m][0]
                actions[m] = chosen[q2]
                log[m] = (q2, L.DK_PASS, chosen[q2], t)
    wolf_i = next((i for i, e in enumerate(log) if e[1] == L.DK_WEREWOLF), None)
    if wolf_i is not None and log[wolf_i][2] != L.WOLF_KEEP:
        w = log[wolf_i][0]
        if hands[w, s.indicator] <= 0:
            return False
        hands[w, s.indicator] -= 1
        hands[w, L.WEREWOLF] += 1
    return not ((hands < 0).any() or (hands.sum(axis=1) != k).any())


def _rebuilt(
    s: WizsimState,
    hands: np.ndarray,
    log: list,
    actions: list,
    before_pass: np.ndarray,
    rng: np.random.Generator,
) -> WizsimState | None:
    """The state the engine reaches from the drawn deal and decisions, with OpenSpiel's history (None: it differs
    from ``s`` in whose turn it is)."""
    g = s._g
    n, pend = g.n, s.pend
    out = WizsimState(g.game)
    try:
        out._now = _Now(*g.replay(hands, s.indicator, actions))
    except (WizsimError, AssertionError):
        return None
    if (out.pend is None) != (pend is None):
        return None
    if out.pend is not None and pend is not None and (out.pend.kind, out.pend.seat) != (pend.kind, pend.seat):
        return None
    holder = next((q for q in range(n) if hands[q, L.WEREWOLF] > 0), -1)  # the seat the engine asked
    log = [(holder if kind == L.DK_WEREWOLF else q, kind, a, t) for q, kind, a, t in log]
    # the state's history as OpenSpiel keeps it: the deal's outcomes, then the decisions (already replayed)
    answer = out._now
    out.hands = np.zeros_like(hands)
    out._script = log
    enc = g.encoder
    for c in _deal_order(hands, s.indicator, g, rng):
        out.apply_action(c)
    for _, kind, a, _ in log:
        out.apply_action(enc.action(kind, a))
    out._script = None
    out._now = answer
    out._over = s._over
    if out._over:
        out._returns = g.scores()
    if s.segment_voids:
        out.segment_voids = [before_pass.astype(s.segment_voids[0].dtype)]
    return out


def _deal_unseen(
    now: np.ndarray,
    unseen: np.ndarray,
    known: np.ndarray,
    sizes: np.ndarray,
    voids: np.ndarray,
    p: int,
    rng: np.random.Generator,
) -> bool:
    """Deal the ``unseen`` cards into ``now`` (the seats but ``p``, ``sizes`` each; the rest is the stock):
    the ``known`` ones where they are known to be, the others at random, keeping out of the ``voids``."""
    n = now.shape[0]
    room = np.array([0 if q == p else int(sizes[q]) for q in range(n)] + [0], dtype=np.int64)
    room[n] = int(unseen.sum()) - int(room[:n].sum())
    if room[n] < 0:
        return False
    for q in range(n + 1):
        for c in np.flatnonzero(known[q]):
            m = int(known[q, c])
            if q < n:
                now[q, c] += m
            room[q] -= m
    if (room < 0).any():
        return False
    rest = unseen - known.sum(axis=0)
    cards = np.repeat(np.arange(64), np.maximum(rest, 0))
    rng.shuffle(cards)
    # the most constrained cards first: a suit few seats can hold
    eligible = np.ones((len(cards), n + 1), dtype=bool)
    for i, c in enumerate(cards):
        if SUIT_OF[c] >= 0:
            eligible[i, :n] = ~voids[:, SUIT_OF[c]]
        eligible[i, p] = False
    order = np.argsort(eligible.sum(axis=1), kind="stable")
    for i in order:
        w = np.where(eligible[i], room, 0).astype(float)
        total = w.sum()
        if total <= 0:
            return False
        q = int(rng.choice(n + 1, p=w / total))
        room[q] -= 1
        if q < n:
            now[q, cards[i]] += 1
    return True


def _deal_order(hands: np.ndarray, indicator: int, g: Core, rng: np.random.Generator) -> list[int]:
    """Chance outcomes that deal ``hands``: each seat's cards in a random order, round the table from the dealer's
    left, then the turned-up card."""
    per = [list(rng.permutation(np.repeat(np.arange(64), hands[q]))) for q in range(g.n)]
    out = []
    for j in range(g.n * g.k):
        seat = (g.dealer + 1 + j) % g.n
        out.append(int(per[seat].pop()))
    if g.turns_up:
        out.append(int(indicator))
    return out


def _resampled_deal(s: WizsimState, p: int, rng: np.random.Generator) -> WizsimState:
    """While the cards are dealt: the others' cards so far drawn again from the cards p was not dealt."""
    g = s._g
    out = WizsimState(g.game)
    left = g.deck - s.hands[p]
    for j, c in enumerate(s.dealt):
        if (g.dealer + 1 + j) % g.n != p:
            c = int(rng.choice(np.repeat(np.arange(64), left)))
            left[c] -= 1
        out.apply_action(int(c))
    return out


def builtin_action(state: WizsimState, strategy: str) -> int:
    """The action built-in player ``strategy`` (``"pimc"``, ``"learned"``, ``"heuristic"``...) takes in ``state``.

    The engine replays the state's deal and actions with the current seat
    played by ``strategy``, which decides as in any simulation: from what its
    seat may see (pimc samples the rest), its random draws from the round's
    decision stream (seed 0).

    Parameters
    ----------
    state : WizsimState
        A state of ``python_wizsim`` at a player's decision.
    strategy : str
        The built-in player, as ``wizsim simulate --strategy`` names it.

    Returns
    -------
    int
        The OpenSpiel action it takes.

    Raises
    ------
    WizsimError
        When no decision is pending (a chance node, or the round is over).
    """
    g = state._g
    if state.pend is None:
        raise WizsimError("no decision is pending: the state is a chance node or the round is over")
    g.replay(state.hands, state.indicator, state.actions)
    return g.encoder.action(state.pend.kind, g.table.ask(strategy))


class WizsimBot(pyspiel.Bot):
    """A built-in wizsim player as an OpenSpiel bot (``WizsimBot("pimc")``): :func:`builtin_action`.

    Parameters
    ----------
    strategy : str
        The built-in player (``"pimc"``, ``"learned"``, ``"heuristic"``...).
    """

    def __init__(self, strategy: str) -> None:
        pyspiel.Bot.__init__(self)
        self.strategy = strategy

    def step(self, state: WizsimState) -> int:
        """The action the player takes in ``state`` (:func:`builtin_action`).

        Parameters
        ----------
        state : WizsimState
            A state at a player's decision.

        Returns
        -------
        int
            The OpenSpiel action.
        """
        return builtin_action(state, self.strategy)

    def restart_at(self, state: Any) -> None:
        """Start again from ``state``: nothing to do (every step replays the state).

        Parameters
        ----------
        state : pyspiel.State
            The state the game restarts at.
        """
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Hear of another player's action: nothing to do (every step replays the state).

        Parameters
        ----------
        state : pyspiel.State
            The state the action was taken in.
        player_id : int
            Who took it.
        action : int
            The action.
        """
        pass

    def provides_policy(self) -> bool:
        """Whether the bot gives a policy, not only actions.

        Returns
        -------
        bool
            False: it gives actions only.
        """
        return False


class WizsimObserver:
    """OpenSpiel's observer for ``python_wizsim``: the observation (string and the encoder's vector), or the
    perfect-recall information state (string only)."""

    def __init__(self, game: Core, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else game.encoder.vector_size
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: WizsimState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: WizsimState, player: int) -> str:
        return state.info_string(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(GAME_TYPE, WizsimGame)
