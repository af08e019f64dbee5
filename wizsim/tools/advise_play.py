"""The card-play advisor: "which card should I play here?" (``wizsim advise --play``).

Method. The position is rebuilt from what the player saw: its hand, the trump
(or the turned-up card), everyone's bids, the tricks played so far and the cards
already in the current trick. Each trick is replayed by the engine's own trick
rules (who won it, who leads next, a Bomb, a Cloud, a Juggler), which also
checks the history: a card seen twice, a card the player could not legally
have played, a seat playing a suit it showed out of, a hand size that does not
fit the round.

The advice is pimc's evaluation at that position (:func:`..engine.players.pimc.pimc_play`):
the unseen cards are dealt ``samples`` times consistently with what the
player knows (the cards played, the suits the others showed out of, their
hand sizes, the card it passed after a Juggler trick), and every legal card
(a Juggler or Cloud in the suit that wins and the one that loses, a
Shapeshifter as Wizard and as Jester; equivalent neighbouring cards of a suit
once) is played out in every deal with the ``rollout`` policy for everyone.
The same deals for every card (common random numbers), so the differences
between cards are measured more precisely than each card's own mean. For
each card it reports the mean round score with a 95% interval, the share of
deals in which the bid was made (Wilson 95% interval) and the best card
(the highest mean). Same seed, same numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.bundles import Tables, Turn, View
from ..engine.game.trick import finish_trick, legal_mask, open_trick, trick_step
from ..engine.players.pimc_search import pimc_play
from ..errors import WizsimError
from ..game import cards as C
from ..game.cards import card_in, parse_cards
from ..game.notation import parse_whole_list, split_entries, split_passes, split_tricks
from ..game.rules import check_players, parse_rules, standard_last_round
from ..players.learned_data import available, rollout_net
from ..players.strategies import make_strategy, strategy_arrays
from ..run.header import deck_name, header_line
from ..run.spec import make_spec
from ..run.stats import wilson_ci

ROLLOUTS = {"heuristic": 0, "random": 1, "table": 2, "learned": 3}
MAX_PLAY_SAMPLES = 10**6
FLEXIBLE = (L.JUGGLER, L.CLOUD, L.SHAPESHIFTER)


@dataclass
class PlayAdvice:
    """The play advisor's answer for one position (see :func:`advise_play`).

    :func:`advise_play` makes it; each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    players : int
        Players at the table.
    position : int
        The player's position (1 = leads the first trick, ``players`` = dealer).
    cards_per_player : int
        The round's size.
    hand : list of str
        The cards the player still holds.
    trump : str or None
        The trump suit, or None for no trump.
    indicator : str or None
        The turned-up card, when one was given.
    bids : list of int
        Every position's bid, by position.
    tricks_won : list of int
        The tricks each position has won so far.
    trick : list of str
        The cards of the current trick so far, in their forms.
    samples : int
        The sampled deals.
    rollout : str
        How everyone played after the card (``heuristic``, ``table``, ``random`` or ``learned``).
    seed : int
        The seed of the deals.
    options : list of dict, optional
        One entry per candidate card, best first: ``card``, ``expected_score`` and
        ``expected_score_ci``, ``p_make`` (the bid made) and ``p_make_ci``, ``deals`` and
        ``stands_for`` (the legal cards it represents); a single legal card is not evaluated
        (``only_choice``).
    best : str, optional
        The card (form) to play.
    rules : dict, optional
        The rules in force (:meth:`~wizsim.game.rules.Rules.as_dict`).
    specials : list of str, optional
        The special cards in the deck.
    """

    players: int
    position: int
    cards_per_player: int
    hand: list[str]
    trump: str | None
    indicator: str | None
    bids: list[int]
    tricks_won: list[int]
    trick: list[str]
    samples: int
    rollout: str
    seed: int
    options: list[dict[str, Any]] = field(default_factory=list)
    best: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    specials: list[str] = field(default_factory=list)

    @property
    def deck(self) -> str:
        """The deck in words (:func:`wizsim.run.header.deck_name`)."""
        return deck_name(self.specials)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (what ``--json`` prints), with the ``deck`` in words.

        Returns
        -------
        dict
            Every field, plus ``deck``.
        """
        return dict(asdict(self), deck=self.deck)

    def text(self) -> str:
        """The human-readable table of ``wizsim advise --play``.

        Returns
        -------
        str
            The header line, the position, and one line per candidate card (expected score,
            chance of making the bid, their 95% intervals; the best one marked).
        """
        trump = self.trump or "none"
        fields = {"players": self.players, "cards": self.cards_per_player, "deck": self.deck,
                  "specials": self.specials, "rules": self.rules, "seed": self.seed,
                  "sample": f"{self.samples:,} sampled deals, {self.rollout} rollouts"}  # fmt: skip
        lines = [
            header_line(fields, "play advice"),
            f"{self.players} players, position {self.position}, round of {self.cards_per_player} cards,"
            f" trump {trump}; bids {self.bids} (by position), tricks won {self.tricks_won}",
            f"hand {' '.join(self.hand)}; in the trick: {' '.join(self.trick) or '(you lead)'}",
            f"{self.samples:,} sampled deals, played out with {self.rollout} rollouts (seed {self.seed})",
            "",
            f"{'card':>16}  {'expected score':>14}  {'95% interval':>17}  {'P(make bid)':>11}  {'95% interval':>15}",
        ]
        for o in self.options:
            mark = "  <- best" if o["card"] == self.best else ""
            lo, hi = o["expected_score_ci"]
            plo, phi = o["p_make_ci"]
            lines.append(
                f"{o['card']:>16}  {o['expected_score']:14.2f}  [{lo:7.2f}, {hi:7.2f}]  {o['p_make']:11.3f}"
                f"  [{plo:.3f}, {phi:.3f}]{mark}"
            )
        if len(self.options) > 1:
            lines.append("")
            lines.append(
                "Differences between cards are measured on the same deals; each card's own interval is wider"
                " than the interval of a difference."
            )
        return "\n".join(lines)


def _cards(text: str | list[str] | None, what: str) -> list[str]:
    """The cards of ``--hand``/``--trick`` (commas or spaces between them); an empty entry is an error."""
    return split_entries(text, what, 'W,B13,R7 or "R4 R11"')


def _tricks(tricks: str | list | None) -> list[list[str]]:
    """``B3 B9 B1 R2; W J G4 G5`` or a list of lists: the finished tricks, each from its leader."""
    return split_tricks(tricks, "--tricks")


def _form(name: str, where: str) -> int:
    code = card_in(name, where, form=True)
    if code in FLEXIBLE:
        example = "Shapeshifter:W or Shapeshifter:J" if code == L.SHAPESHIFTER else f"{C.card_name(code)}:B"
        raise WizsimError(f"{where}: say how {name} was played, e.g. {example}")
    return code


def _card_of(name: str) -> int:
    """The card of a played form (``Juggler:B`` -> Juggler)."""
    f = C.form_code(name)
    return int(C.CARD_OF_FORM[f])


def _equivalents(hand: list[int], legal: int, seen: int, shown: int, table: np.ndarray) -> dict[int, list[str]]:
    """Candidate form -> the legal cards it stands for (neighbours of a suit with nothing unseen between them
    are one candidate, the lowest: :func:`..engine.players.learned.candidate_forms`)."""
    held_or_gone = seen | sum(1 << c for c in set(hand))
    out: dict[int, list[str]] = {}
    rep = -1
    prev = -1
    for c in range(64):
        if not (legal >> c) & 1:
            continue
        if c < 52 and prev >= 0 and prev // 13 == c // 13:
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            if between & ~held_or_gone == 0:
                out[rep].append(C.card_name(c))
                prev = c
                continue
        prev = c if c < 52 else -1
        rep = c
        out[c] = [C.card_name(c)]
    return out


@dataclass(frozen=True)
class PlayOptions:
    """How :func:`advise_play` evaluates a position (its rarely changed arguments, grouped).

    Parameters
    ----------
    samples : int
        Sampled deals; every card is played out in each.
    rollout : str
        How everyone plays after the card: ``heuristic`` (pimc's default), ``table``, ``random`` or
        ``learned``.
    seed : int
        The same seed gives the same numbers.
    cards_per_player : int, optional
        The round's size, checked against the hand and the tricks played (the round has
        ``len(hand) + len(tricks)`` cards).
    """

    samples: int = 2000
    rollout: str = "heuristic"
    seed: int = 0
    cards_per_player: int | None = None


@dataclass
class _Position:
    """A position read from the player's view (seats: position i sits at seat i - 1, the dealer at n - 1)."""

    n: int
    me: int
    k: int
    hand_codes: list[int]
    done: list[list[str]]
    current: list[str]
    bids: list[int]
    deck: list[int]
    specials: Any  # the run's special cards (RunSpec.specials)
    rules: Any  # a wizsim.game.rules.Rules
    shown: int  # the turned-up card, -1 if none
    trump: int  # the suit in force, -1 for none
    passes: list[tuple[int, int]]


@dataclass
class _Replayed:
    """What the replay of the tricks leaves: the state pimc's evaluation starts from."""

    leader: int
    won: np.ndarray
    played: np.ndarray
    void: np.ndarray
    known: np.ndarray
    spmask: np.ndarray
    spwiz: np.ndarray
    seen: Any  # np.uint64, the cards seen
    cancelled: bool
    cloud_taker: int


class _CardsLeft:
    """The cards of the deck not yet seen: each card seen is taken once, so a card seen too often is refused."""

    def __init__(self, deck: list[int]):
        self.deck = deck
        self.remaining = Counter(deck)

    def take(self, code: int, where: str) -> None:
        """Count ``code`` as seen (``where`` names the place in the error message)."""
        deck, remaining = self.deck, self.remaining
        if remaining[code] == 0:
            name = C.card_name(code)
            if code not in deck:
                raise WizsimError(f"{where}: {name} is not in the deck (add it with --specials)")
            raise WizsimError(f"{where}: {name} is seen more often than the deck holds it ({deck.count(code)})")
        remaining[code] -= 1


def advise_play(
    players: int,
    position: int,
    hand: str | list[str],
    bids: str | list[int],
    tricks: str | list | None = None,
    trick: str | list[str] | None = None,
    indicator: str | None = None,
    trump: str | None = None,
    specials: str | list[str] | None = None,
    rules: Any = None,
    passed: str | list[str] | None = None,
    options: PlayOptions | None = None,
) -> PlayAdvice:
    """Expected round score and P(making the bid) of every card the player may play now.

    Parameters
    ----------
    players : int
        3 to 6.
    position : int
        The player's seat counted from the dealer's left: 1 leads the first trick, ``players`` is the dealer.
    hand : str or list of str
        The cards held now (RULES.md notation), e.g. ``"W,B13,R7"``.
    bids : str or list of int
        Everyone's bid, by position (``"1,0,2,1"``).
    tricks : str or list of lists, optional
        The finished tricks in order, each from its leader: ``"B3 B9 B1 R2; W J G4 G5"``. A played
        Juggler or Cloud is written with its suit (``Juggler:B``), a Shapeshifter with its role
        (``Shapeshifter:W``).
    trick : str or list of str, optional
        The cards already in the current trick, from its leader; it must be this player's turn.
    indicator, trump : str, optional
        The turned-up card, and the trump in force (``B``, ``R``, ``G``, ``Y`` or ``none``); the trump
        follows from a suit card or a Jester turned up, otherwise (a Wizard or a special card turned up,
        or no indicator) it must be given.
    specials, rules :
        As for :func:`wizsim.run.simulate.simulate`.
    passed : str or list of str, optional
        After each finished Juggler trick, the card this player passed to its left (the others'
        passes are hidden); one per Juggler trick.
    options : PlayOptions, optional
        Sampled deals, rollout policy, seed, and the round size to check (default ``PlayOptions()``:
        2,000 deals, heuristic rollouts, seed 0).

    Returns
    -------
    PlayAdvice
        One entry per candidate card (form), best first by expected score.

    Raises
    ------
    WizsimError
        On an impossible position, with one line that says what is wrong.
    """
    opts = PlayOptions() if options is None else options
    pos, cards_left = _read_position(players, position, hand, bids, tricks, trick, indicator, trump, specials, rules,
                                     passed, opts)  # fmt: skip
    table, masks = C.kernel_tables()
    rp = _replay(pos, cards_left.take, table, masks)
    form, values, legal = _pimc_values(pos, rp, opts, table, masks)
    stands_for = _equivalents(pos.hand_codes, legal, int(rp.seen), pos.shown, table)
    return PlayAdvice(
        pos.n, position, pos.k, [C.card_name(c) for c in pos.hand_codes],
        C.suit_name(pos.trump) if pos.trump >= 0 else None, indicator if indicator is None else C.card_name(pos.shown),
        pos.bids, [int(w) for w in rp.won], [C.card_name(_form(x, "the current trick")) for x in pos.current],
        int(opts.samples), opts.rollout, int(opts.seed), _card_options(values, form, stands_for), C.card_name(form),
        pos.rules.as_dict(), list(pos.specials),
    )  # fmt: skip


def _read_position(
    players: int,
    position: int,
    hand: str | list[str],
    bids: str | list[int],
    tricks: str | list | None,
    trick: str | list[str] | None,
    indicator: str | None,
    trump: str | None,
    specials: str | list[str] | None,
    rules: Any,
    passed: str | list[str] | None,
    opts: PlayOptions,
) -> tuple[_Position, _CardsLeft]:
    """Check the arguments of :func:`advise_play` in the order a reader would; the position and the cards left.

    The hand and the indicator are taken from the deck here; the cards played are taken while the
    tricks are replayed (:func:`_replay`), which knows whose card each was.
    """
    n, rules_obj = _checked_request(players, position, rules, opts)
    hand_codes = parse_cards(hand, "--hand")
    if not hand_codes:
        raise WizsimError("the hand is empty: give the cards held now, like --hand W,B13,R7")
    done = _tricks(tricks)
    current = _cards(trick, "--trick")
    k = len(hand_codes) + len(done)
    cards_per_player = opts.cards_per_player
    if cards_per_player is not None and int(cards_per_player) != k:
        raise WizsimError(
            f"a round of {cards_per_player} cards leaves {int(cards_per_player) - len(done)} in hand after"
            f" {len(done)} trick(s), but the hand has {len(hand_codes)}"
        )
    base = make_spec(n, cards=1, hands=1, seed=opts.seed, strategy="random", rules=rules_obj, specials=specials)
    deck = [int(c) for c in base.deck]
    if n * k > len(deck):
        raise WizsimError(
            f"{len(hand_codes)} cards in hand after {len(done)} tricks make a round of {k} cards, too large for"
            f" {n} players and {len(deck)} cards"
        )
    bid_list = _bids(bids, n, k)
    cards_left = _CardsLeft(deck)
    for c in hand_codes:
        cards_left.take(c, "the hand")
    shown = -1
    if indicator is not None:
        shown = card_in(indicator, "--indicator")
        cards_left.take(shown, "the indicator")
    trump_code = _trump_code(trump, shown, n, k, len(deck))
    pos = _Position(n, position - 1, k, hand_codes, done, current, bid_list, deck, base.specials, rules_obj, shown,
                    trump_code, _passes(passed))  # fmt: skip
    return pos, cards_left


def _checked_request(players: int, position: int, rules: Any, opts: PlayOptions) -> tuple[int, Any]:
    """The number of players and the rules, once the table, the position and the options are checked."""
    n = check_players(int(players))
    rules_obj = parse_rules(rules)
    for v in ("mono", "maximus", "clairvoyance"):
        if rules_obj.has(v):
            raise WizsimError(f"advise --play plays one round of the standard game; variant {v} is not supported")
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) or not 1 <= position <= n:
        raise WizsimError(f"position must be 1 (left of the dealer) to {n} (the dealer), got {position!r}")
    rollout, samples = opts.rollout, opts.samples
    if rollout not in ROLLOUTS:
        raise WizsimError(f"unknown rollout {rollout!r}; use one of {', '.join(ROLLOUTS)}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= MAX_PLAY_SAMPLES:
        raise WizsimError(f"samples must be a whole number from 1 to {MAX_PLAY_SAMPLES:,}, got {samples!r}")
    return n, rules_obj


def _bids(bids: str | list[int], n: int, k: int) -> list[int]:
    """Everyone's bid, by position: ``n`` of them, each possible in a round of ``k`` cards."""
    bid_list = parse_whole_list(bids, "--bids", "1,0,2,1")
    if len(bid_list) != n:
        raise WizsimError(f"give all {n} bids, by position (got {len(bid_list)})")
    for b in bid_list:
        if not 0 <= b <= k:
            raise WizsimError(f"bid {b} is impossible in a round of {k} cards: bids run from 0 to {k}")
    return bid_list


def _trump_code(trump: str | None, shown: int, n: int, k: int, deck_size: int) -> int:
    """The suit in force (-1: none): as given, else none in a last round that deals every card, else the indicator's."""
    fixed: int | None = None
    if trump is not None:
        key = str(trump).strip().upper()
        if key in ("NONE", "NO", "-"):
            fixed = -1
        elif key in C.SUITS:
            fixed = C.SUITS.index(key)
        else:
            raise WizsimError(f"unknown trump {trump!r}: use B, R, G, Y or none")
    if k == standard_last_round(n) and n * k == deck_size:
        fixed = -1 if fixed is None else fixed
    if fixed is None:
        if shown >= 0 and shown < 52:
            fixed = shown // 13
        elif shown == L.JESTER:
            fixed = -1
        else:
            raise WizsimError("the trump does not follow from the indicator: give --trump B, R, G, Y or none")
    return fixed


def _passes(passed: str | list[str] | None) -> list[tuple[int, int]]:
    """The passes after Juggler tricks: "gave/got" (the card passed left, the card received from the right)."""
    return [
        (card_in(gave, f"--passed entry {i}"), card_in(got, f"--passed entry {i}"))
        for i, (gave, got) in enumerate(split_passes(passed, "--passed"), 1)
    ]


def _replay(pos: _Position, take: Callable[[int, str], None], table: np.ndarray, masks: np.ndarray) -> _Replayed:
    """Replay the tricks by the engine's trick rules, checking every play; the state the evaluation starts from.

    Two passes: the first finds whose card is whose (the winner of a trick leads the next); the second
    checks each of the player's plays against its hand at the start of the round (its hand now, plus its
    cards played, with the passes undone) and the others' against the suits they showed out of, and
    takes every card played from the deck (``take``).
    """
    n, k, me, hand_codes, trump_code, passes = pos.n, pos.k, pos.me, pos.hand_codes, pos.trump, pos.passes
    bomb_voids = pos.rules.bomb != "cancel_bids"
    history = [(t, cards_, True) for t, cards_ in enumerate(pos.done)] + [(len(pos.done), pos.current, False)]
    # the player's hand at the start of the round: now, plus its cards played, plus the passes undone
    start_hand = Counter(hand_codes)
    seats: list[list[int]] = []  # the seat of each card played, found while replaying (the winners lead)
    won = np.zeros(n, dtype=np.int64)
    played = np.zeros(64, dtype=np.int64)
    void = np.zeros(n, dtype=np.int64)
    known = np.zeros((n, 64), dtype=np.int64)
    spmask = np.zeros(n, dtype=np.uint64)
    spwiz = np.zeros(n, dtype=np.int64)
    for replay in (0, 1):  # 0: find whose card is whose; 1: check every play against the player's hand
        if replay == 1:
            for t, cards_, _ in history:
                for i, name in enumerate(cards_):
                    if seats[t][i] == me:
                        start_hand[_card_of(name)] += 1
            for gave, got in passes:
                start_hand[gave] += 1
                start_hand[got] -= 1
                if start_hand[got] < 0:
                    raise WizsimError(f"you received {C.card_name(got)} in a pass but never held or played it")
        leader = 0
        won[:] = 0
        played[:] = 0
        void[:] = 0
        known[:] = 0
        spmask[:] = 0
        spwiz[:] = 0
        seen = np.uint64(0)
        cancelled = False
        cloud_taker = -1
        juggler_tricks = 0
        my_hand = Counter(start_hand)
        with_others: Counter = Counter()  # cards this player passed, not yet played by their receiver
        for t, cards_, finished in history:
            if finished and len(cards_) != n:
                raise WizsimError(f"trick {t + 1} has {len(cards_)} cards; a finished trick has one per player ({n})")
            if not finished and len(cards_) >= n:
                raise WizsimError(f"the current trick already has {len(cards_)} cards: it is finished")
            if replay == 0:
                seats.append([(leader + i) % n for i in range(len(cards_))])
            tstate = open_trick(leader, -1)
            for i, name in enumerate(cards_):
                q = (leader + i) % n
                led = int(tstate.led)
                where = f"trick {t + 1}, card {i + 1} ({name}, position {q + 1})"
                f = _form(name, where)
                c = _card_of(name)
                if replay == 1:
                    if q != me and with_others[c] > 0:
                        with_others[c] -= 1  # a card this player passed: counted when it was passed
                    else:
                        take(c, where)
                    if q == me:
                        bits = sum(1 << x for x, m in my_hand.items() if m > 0)
                        legal = int(legal_mask(np.uint64(bits), led, masks))
                        if not (legal >> c) & 1:
                            raise WizsimError(f"{where}: you could not play {name} there (you had to follow suit)")
                        my_hand[c] -= 1
                    elif c < 52 and (void[q] >> (c // 13)) & 1:
                        raise WizsimError(f"{where}: position {q + 1} showed out of this suit earlier")
                if c < 52 and 0 <= led < 4 and c // 13 != led:
                    void[q] |= 1 << led
                seen |= np.uint64(1) << np.uint64(c)
                played[c] += 1
                spmask[q] |= np.uint64(1) << np.uint64(c)
                spwiz[q] += int(c == L.WIZARD)
                if known[q, c] > 0:
                    known[q, c] -= 1
                tstate = trick_step(f, q, tstate, trump_code, table)
            if not finished:
                break
            _, next_leader, cancelled, cloud_taker = finish_trick(tstate, bomb_voids, cancelled, cloud_taker, won)
            leader = int(next_leader)
            if tstate.flags & L.FLAG_JUGGLER and t < k - 1:
                if juggler_tricks >= len(passes):
                    raise WizsimError(f"trick {t + 1} had a Juggler: give the pass after it (--passed GAVE/GOT)")
                gave, got = passes[juggler_tricks]
                juggler_tricks += 1
                if replay == 1:
                    take(gave, f"the pass after trick {t + 1}")
                    with_others[gave] += 1
                    if my_hand[gave] <= 0:
                        raise WizsimError(f"after trick {t + 1} you passed {C.card_name(gave)}, which you did not hold")
                    my_hand[gave] -= 1
                    my_hand[got] += 1
                void[:] = 0  # anyone may again hold a suit they showed out of
                known[:] = 0
                known[(me + 1) % n, gave] += 1
    _check_replayed(pos, leader, juggler_tricks, my_hand)
    return _Replayed(leader, won, played, void, known, spmask, spwiz, seen, cancelled, cloud_taker)


def _check_replayed(pos: _Position, leader: int, juggler_tricks: int, my_hand: Counter) -> None:
    """After the replay: one pass per Juggler trick, this player's turn, and its hand as the history leaves it."""
    n, current = pos.n, pos.current
    if juggler_tricks != len(pos.passes):
        raise WizsimError(f"--passed gives {len(pos.passes)} card(s) for {juggler_tricks} Juggler trick(s)")
    if (leader + len(current)) % n != pos.me:
        raise WizsimError(
            f"it is position {(leader + len(current)) % n + 1}'s turn, not position {pos.me + 1}'s:"
            " check the tricks and the current trick"
        )
    if sorted(my_hand.elements()) != sorted(pos.hand_codes):  # pragma: no cover - the start hand is built from it
        raise WizsimError("the hand does not match the history and the passes")


def _pimc_values(
    pos: _Position, rp: _Replayed, opts: PlayOptions, table: np.ndarray, masks: np.ndarray
) -> tuple[int, np.ndarray, int]:
    """pimc's evaluation of every candidate card now: (the card it plays, its values array, the legal cards).

    The arrays pimc reads hold the player's hand and, of the others, only their hand sizes; the cards
    already in the current trick are stepped through first.
    """
    me, n, k, trump_code, shown, current = pos.me, pos.n, pos.k, pos.trump, pos.shown, pos.current
    leader, won, seen, cancelled, cloud_taker = rp.leader, rp.won, rp.seen, rp.cancelled, rp.cloud_taker
    played, void, known, spmask, spwiz = rp.played, rp.void, rp.known, rp.spmask, rp.spwiz
    rollout = opts.rollout
    t_now = len(pos.done)
    j = len(current)
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    for q in range(n):
        size = k - t_now - (1 if (q - leader) % n < j else 0)
        if q == me:
            for c in pos.hand_codes:
                cnt[q, c] += 1
                hands[q] |= np.uint64(1) << np.uint64(c)
        else:
            cnt[q, 0] = size  # only the sizes of the other hands are read
    full = np.bincount(np.asarray(pos.deck, dtype=np.int64), minlength=64).astype(np.int64)
    strat = make_strategy(f"pimc(samples={int(opts.samples)},prune=0,rollout={ROLLOUTS[rollout]})")
    _, params = strategy_arrays([strat] * n)
    rules_arr = pos.rules.to_array(pos.specials)
    tstate = open_trick(leader, -1)
    for i, name in enumerate(current):
        tstate = trick_step(_form(name, "the current trick"), (leader + i) % n, tstate, trump_code, table)
    led = int(tstate.led)
    values = np.zeros((5, 2 * 64 + 1), dtype=np.int64)
    state = np.random.SeedSequence(int(opts.seed)).generate_state(1, dtype=np.uint64)[0]
    bids_arr = np.asarray(pos.bids, dtype=np.int64)
    turn = Turn(me, t_now, j, n, k, trump_code, shown, seen, cancelled, cloud_taker)
    no_know, no_work = np.zeros((1, 1, 1), dtype=np.int64), np.zeros(1, dtype=np.int64)  # pimc_play reads `known`
    view = View(played, void, full, no_know, spmask, spwiz, no_work, np.zeros(1))
    tables = Tables(np.asarray(pos.deck, dtype=np.uint8), np.zeros((n, 1), dtype=np.uint8), table, masks, rules_arr)
    net = rollout_net(n, full, rollout == "learned" or available())
    form, _ = pimc_play(turn, tstate, hands, cnt, bids_arr, won, view, known, tables, params, net, state, values)
    return int(form), values, int(legal_mask(hands[me], led, masks))


def _card_options(values: np.ndarray, form: int, stands_for: dict[int, list[str]]) -> list[dict[str, Any]]:
    """One entry per candidate from pimc's values (rows: form, score sum, deals, squares, made), best first."""
    nc = int(values[0, -1])
    options: list[dict[str, Any]] = []
    if nc == 0:  # one candidate: played at once, not evaluated
        options.append({"card": C.card_name(form), "expected_score": math.nan, "expected_score_ci": [math.nan] * 2,
                        "p_make": math.nan, "p_make_ci": [math.nan] * 2, "deals": 0, "only_choice": True})  # fmt: skip
    for ci in range(nc):
        deals = int(values[2, ci])
        mean = values[1, ci] / deals
        var = max(values[3, ci] / deals - mean * mean, 0.0) * deals / max(deals - 1, 1)
        half = 1.96 * math.sqrt(var / deals)
        made = int(values[4, ci])
        options.append(
            {
                "card": C.card_name(int(values[0, ci])),
                "expected_score": mean,
                "expected_score_ci": [mean - half, mean + half],
                "p_make": made / deals,
                "p_make_ci": [float(x) for x in wilson_ci(made, deals)[1:]],
                "deals": deals,
                "stands_for": stands_for.get(int(values[0, ci]), [C.card_name(int(values[0, ci]))]),
            }
        )
    if nc:
        options.sort(key=lambda o: -float(o["expected_score"]))
    return options
