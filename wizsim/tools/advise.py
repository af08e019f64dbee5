"""The bid advisor: trick probabilities and the best bid for one concrete hand.

Method. The player's hand and what it can see (the turned-up indicator, or a
trump it was told, and the bids made before it) are fixed. The unseen cards
(the deck minus the hand and the indicator) are dealt at random to the other
players many times, and each deal is played out by the engine with the chosen
strategy at every seat. When earlier bids are given, a deal is kept only if
the earlier bidders' strategy makes exactly those bids on it (rejection
sampling), so the other hands are drawn from their distribution given the
bids, as far as the strategy describes how people bid; the advice reports
how many deals were tried and kept.

Two ways to score the bids (``method``):

``own``
    One play-out per deal, the player bidding as its strategy bids and playing
    to make that bid. ``P(tricks = t)`` is the share of deals in which it took
    ``t`` tricks, and the expected score of bid ``b`` is
    ``sum_t P(t) * score(b, t)``. Fast (one round per sample); it assumes the
    number of tricks does not depend on the bid, which is close for hands
    whose likely bids are close, and exact when play is forced (one card).
``per-bid``
    Every deal is played once per possible bid, the player playing to make
    that bid (common random numbers: the same deals for every bid). The
    expected score of each bid is measured directly, with its own interval,
    and ``P(tricks = t)`` is the distribution under the best bid. k + 1 times
    the work. Needed when the score is not a function of bid and tricks alone
    (a Cloud can change the bid; a Bomb with ``bomb=cancel_bids`` cancels them):
    ``auto`` (the default) picks ``per-bid`` then, ``own`` otherwise.

Seeding follows :mod:`wizsim.run.simulate`: the same seed gives the same numbers
for any ``jobs``. When earlier bids make deals rare, a pilot of ``samples``
deals measures the acceptance rate and a second run of enough deals (from the
same seed: the pilot's deals are its first ones) is played; the number of
accepted samples is then close to, not exactly, ``samples``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.game.score import round_score_checked
from ..errors import WizsimError
from ..game import cards as C
from ..game.cards import card_in, parse_cards
from ..game.notation import parse_whole_list
from ..game.rules import FROM_INDICATOR, check_players, parse_rules, standard_last_round
from ..players.strategies import Strategy, make_strategy, split_top_level
from ..run.header import deck_name, header_line
from ..run.parallel import run_counts
from ..run.spec import RunSpec, make_spec, strategy_label
from ..run.stats import mean_ci, wilson_ci

METHODS = ("auto", "own", "per-bid")
MAX_SAMPLES = 10**8
ATTEMPT_FACTOR = 200  # at most this many deals tried per requested sample when earlier bids must match


@dataclass
class Advice:
    """The advisor's answer for one hand (see :func:`advise`).

    :func:`advise` makes it; each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    players : int
        Players at the table.
    position : int
        The player's position (1 = leads, ``players`` = dealer).
    hand : list of str
        The player's cards; its length is the round size.
    indicator : str or None
        The turned-up card, when one was given.
    trump : str or None
        The trump suit given instead (``"none"`` for no trump), or None.
    bids : list of int
        The bids made before the player's, in order.
    strategy : list of str
        The strategy label of each position (1..players).
    method : {"own", "per-bid"}
        How the bids were scored (the module docstring).
    samples : int
        Deals accepted (those the earlier bids allow).
    attempts : int
        Deals tried.
    p_tricks : list of float
        ``P(tricks = t)`` for ``t = 0..cards`` (under the best bid for ``per-bid``).
    p_tricks_ci : list of list of float
        Their 95% Wilson intervals, ``[low, high]``.
    expected_score : dict of int to float or None
        The expected score of every bid (None for a bid the Canadian rule forbids).
    expected_score_ci : dict of int to list of float or None
        Its 95% interval, ``[low, high]``.
    best_bid : int
        The allowed bid with the highest expected score (ties: the lower bid).
    forbidden_bid : int or None
        The bid the Canadian rule forbids the player, if any.
    strategy_bids : dict of int to int
        How many accepted deals the player's strategy made each bid on.
    seed : int
        The seed of the deals.
    rules : dict
        The rules in force (:meth:`~wizsim.game.rules.Rules.as_dict`).
    specials : list of str
        The special cards in the deck.
    p_tricks_by_bid : dict of int to list of float, optional
        For ``per-bid``: ``P(tricks = t)`` when playing to each allowed bid; empty for ``own``.
    """

    players: int
    position: int
    hand: list[str]
    indicator: str | None
    trump: str | None
    bids: list[int]
    strategy: list[str]
    method: str
    samples: int
    attempts: int
    p_tricks: list[float]
    p_tricks_ci: list[list[float]]
    expected_score: dict[int, float | None]
    expected_score_ci: dict[int, list[float] | None]
    best_bid: int
    forbidden_bid: int | None
    strategy_bids: dict[int, int]
    seed: int
    rules: dict
    specials: list[str]
    p_tricks_by_bid: dict[int, list[float]] = field(default_factory=dict)

    def run_fields(self) -> dict[str, Any]:
        """The configuration fields of :mod:`wizsim.run.header` (players, cards, deck, rules, seats, seed, sample).

        Returns
        -------
        dict
            The fields by name, for :func:`wizsim.run.header.header_line`.
        """
        return {
            "players": self.players,
            "cards": len(self.hand),
            "deck": deck_name(self.specials),
            "specials": list(self.specials),
            "rules": self.rules,
            "strategies": list(self.strategy),
            "seed": self.seed,
            "sample": f"{self.samples:,} accepted deals",
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (bids as string keys).

        Returns
        -------
        dict
            Every field, plus ``cards``, ``acceptance`` (samples / attempts) and ``deck``.
        """
        out = {
            "players": self.players,
            "position": self.position,
            "cards": len(self.hand),
            "hand": self.hand,
            "indicator": self.indicator,
            "trump": self.trump,
            "bids": self.bids,
            "strategy": self.strategy,
            "method": self.method,
            "samples": self.samples,
            "attempts": self.attempts,
            "acceptance": self.samples / self.attempts if self.attempts else None,
            "p_tricks": self.p_tricks,
            "p_tricks_ci": self.p_tricks_ci,
            "expected_score": {str(b): v for b, v in self.expected_score.items()},
            "expected_score_ci": {str(b): v for b, v in self.expected_score_ci.items()},
            "best_bid": self.best_bid,
            "forbidden_bid": self.forbidden_bid,
            "strategy_bids": {str(b): v for b, v in self.strategy_bids.items()},
            "seed": self.seed,
            "rules": self.rules,
            "specials": self.specials,
            "deck": self.run_fields()["deck"],
        }
        if self.p_tricks_by_bid:
            out["p_tricks_by_bid"] = {str(b): v for b, v in self.p_tricks_by_bid.items()}
        return out

    def format(self) -> str:
        """A human-readable report.

        Returns
        -------
        str
            The header line, the hand and what was seen, the trick probabilities and the
            expected score of every bid.
        """
        k = len(self.hand)
        seen = f"indicator {self.indicator}" if self.indicator else f"trump {self.trump or 'none'}"
        if not self.indicator and self.trump is None:
            seen = "indicator unknown (drawn at random)"
        lines = [
            header_line(self.run_fields(), "bid advice"),
            f"hand {','.join(self.hand)} ({k} cards), {self.players} players, position {self.position}"
            f" (1 = leads, {self.players} = dealer), {seen}"
            + (f", earlier bids {','.join(map(str, self.bids))}" if self.bids else ""),
            f"players: {', '.join(sorted(set(self.strategy)))}; method {self.method}; seed {self.seed}",
            f"samples: {self.samples:,} accepted of {self.attempts:,} deals"
            + (f" ({100 * self.samples / self.attempts:.1f}%)" if self.bids else ""),
            "",
            "tricks  P(tricks)   95% interval" + ("    (under the best bid)" if self.method == "per-bid" else ""),
        ]
        for t in range(k + 1):
            lo, hi = self.p_tricks_ci[t]
            lines.append(f"{t:>6}  {100 * self.p_tricks[t]:8.2f}%   [{100 * lo:.2f}, {100 * hi:.2f}]")
        lines += ["", "bid  expected score   95% interval"]
        for b in range(k + 1):
            v, ci = self.expected_score[b], self.expected_score_ci[b]
            if v is None or ci is None:
                lines.append(f"{b:>3}  {'forbidden (Canadian rule)':>14}")
                continue
            lo, hi = ci
            mark = "  <- best" if b == self.best_bid else ""
            lines.append(f"{b:>3}  {v:14.2f}   [{lo:.2f}, {hi:.2f}]{mark}")
        own = ", ".join(f"{b} ({100 * c / max(self.samples, 1):.0f}%)" for b, c in sorted(self.strategy_bids.items()))
        lines += ["", f"best bid: {self.best_bid}", f"the strategy itself bids: {own}"]
        if self.method == "own":
            lines.append(
                "note: method own scores every bid with the tricks taken when playing to the strategy's own bid;"
                " --method per-bid plays every deal to make each bid (slower, measures each bid directly)"
            )
        return "\n".join(lines)


def _parse_hand(hand: str | list[str]) -> list[int]:
    codes = parse_cards(hand, "--hand", "W,B13,R7,J")
    if not codes:
        raise WizsimError("the hand is empty: give its cards like --hand W,B13,R7,J")
    return codes


def _parse_bids(bids: str | list[int] | tuple[int, ...] | None) -> list[int]:
    return parse_whole_list(bids, "--bids", "1,0,2")


def _parse_trump(trump: str | None) -> int | None:
    if trump is None:
        return None
    key = str(trump).strip().upper()
    if key in ("NONE", "NO", "-"):
        return L.NO_TRUMP
    if key in C.SUITS:
        return C.SUITS.index(key)
    raise WizsimError(f"unknown trump {trump!r}: use B, R, G, Y or none")


def _score_matrix(k: int, scoring: int) -> np.ndarray:
    """score[b, t] of bidding b and taking t tricks (no Cloud, no cancelled bids)."""
    return np.array(
        [[round_score_checked(b, t, k, scoring) for t in range(k + 1)] for b in range(k + 1)], dtype=np.int64
    )


@dataclass
class _Setup:
    """A validated advisor request: what the kernel needs to play its deals."""

    n: int
    k: int
    position: int
    seed: int
    hand_codes: list[int]
    ind_code: int
    fixed: int | None
    earlier: list[int]
    forbidden: int | None
    by_position: list
    seat_strats: list
    rules: Any
    specials: list[str]
    unseen: np.ndarray
    pre_info: np.ndarray
    pre_cnt: np.ndarray
    pre_bids: np.ndarray
    method: str

    def spec(self, items: int, forced: int | None = None) -> RunSpec:
        """The run of ``items`` deals; ``forced``: the advised player's bid (None: its strategy's)."""
        pb = self.pre_bids.copy()
        if forced is not None:
            pb[0] = forced
        trumps = [FROM_INDICATOR if self.fixed is None else self.fixed]
        return RunSpec(
            self.n, [self.k], False, items, self.seed, self.seat_strats, self.rules, self.unseen, False,
            self.specials, trumps, preset=(self.pre_info, self.pre_cnt, pb),
        )  # fmt: skip


def prepare(
    players: int,
    position: int,
    hand: str | list[str],
    indicator: str | None = None,
    trump: str | None = None,
    bids: str | list[int] | None = None,
    specials: str | list[str] | None = None,
    rules: Any = None,
    strategy: str | Strategy | list[str | Strategy] = "learned",
    seed: int = 0,
    method: str = "auto",
) -> _Setup:
    """Validate an advisor request (the arguments of :func:`advise`); the advised player is seat 0."""
    n = check_players(int(players))
    rules_obj = parse_rules(rules)
    for v in ("mono", "maximus", "elimination", "clairvoyance"):
        if rules_obj.has(v):
            raise WizsimError(
                f"advise plays one round of the standard game; variant {v} is not supported:"
                f" drop --rule variant={rules_obj.variant}"
            )
    if method not in METHODS:
        raise WizsimError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    if indicator is not None and trump is not None:
        raise WizsimError("give either --indicator or --trump, not both")
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) or not 1 <= position <= n:
        raise WizsimError(f"position must be 1 (left of the dealer) to {n} (the dealer), got {position!r}")
    hand_codes = _parse_hand(hand)
    k = len(hand_codes)
    base = make_spec(n, cards=1, hands=1, seed=seed, strategy="random", rules=rules_obj, specials=specials)
    deck = [int(c) for c in base.deck]
    d = len(deck)
    if n * k > d:
        raise WizsimError(
            f"a hand of {k} cards is too large for {n} players: {n} x {k} > {d} cards in the deck"
            f" (at most {d // n} cards each)"
        )
    pool = Counter(deck)
    for c in hand_codes:
        if pool[c] == 0:
            name = C.card_name(c)
            if c >= C.FIRST_SPECIAL and c not in deck:
                raise WizsimError(f"the hand holds {name}, which is not in the deck: add it with --specials")
            have = hand_codes.count(c)
            raise WizsimError(
                f"{name} is {have} times in the hand but {deck.count(c)} times in the deck (a duplicate?)"
            )
        pool[c] -= 1
    ind_code = -1
    if indicator is not None:
        if n * k == d:
            raise WizsimError(f"with {n} x {k} = {d} cards dealt there is no indicator: drop --indicator")
        ind_code = card_in(indicator, "--indicator")
        if pool[ind_code] == 0:
            if ind_code in hand_codes:
                raise WizsimError(f"the indicator {C.card_name(ind_code)} is in the hand: a card cannot be both")
            raise WizsimError(f"the indicator {C.card_name(ind_code)} is not in the deck: add it with --specials")
        pool[ind_code] -= 1
    fixed = _parse_trump(trump)
    if k == standard_last_round(n):
        # the standard table's last round turns up no card and has no trump (RULES.md 2)
        if indicator is not None:
            raise WizsimError(
                f"a round of {k} cards with {n} players is the last round, which turns up no card: drop --indicator"
            )
        if fixed is not None and fixed != L.NO_TRUMP:
            raise WizsimError(
                f"a round of {k} cards with {n} players is the last round, played without trump: drop --trump"
            )
        fixed = L.NO_TRUMP
    earlier = _parse_bids(bids)
    if earlier and len(earlier) != position - 1:
        raise WizsimError(
            f"position {position} comes after {position - 1} bid(s), but --bids gives {len(earlier)}:"
            " give the bids of the players before this one, in order"
        )
    if earlier and rules_obj.hidden_bids != "off":
        raise WizsimError("with hidden bids the earlier bids are not known: drop --bids or hidden_bids")
    for b in earlier:
        if not 0 <= b <= k:
            raise WizsimError(f"bid {b} in --bids is impossible in a round of {k} cards: bids run from 0 to {k}")

    # seats: the advised player is seat 0; seat s sits at position (s - dealer - 1) % n + 1
    dealer = (-position) % n
    by_position = [make_strategy(s) for s in _split_strategies(strategy, n)]
    seat_strats = [by_position[(s - dealer - 1) % n] for s in range(n)]
    pre_bids = np.full(n, -1, dtype=np.int64)
    for i, b in enumerate(earlier):
        pre_bids[(dealer + 1 + i) % n] = b
    forbidden = None
    if rules_obj.canadian and position == n and 0 <= k - sum(earlier) <= k:
        forbidden = k - sum(earlier)
    pre_cnt = np.bincount(np.asarray(hand_codes, dtype=np.int64), minlength=64).astype(np.int64)
    mask = sum(1 << c for c in set(hand_codes))
    pre_info = np.zeros(L.N_PRE, dtype=np.int64)
    pre_info[[L.PRE_ON, L.PRE_SEAT, L.PRE_DEALER, L.PRE_INDICATOR, L.PRE_MASK]] = [1, 0, dealer, ind_code, mask]
    unseen = np.asarray(sorted(pool.elements()), dtype=np.uint8)
    special_names = base.specials
    if method == "auto":
        cloud = "Cloud" in special_names
        cancel = "Bomb" in special_names and rules_obj.bomb == "cancel_bids"
        method = "per-bid" if cloud or cancel else "own"
    return _Setup(
        n, k, position, int(seed), hand_codes, ind_code, fixed, earlier, forbidden, by_position, seat_strats,
        rules_obj, special_names, unseen, pre_info, pre_cnt, pre_bids, method,
    )  # fmt: skip


@dataclass(frozen=True)
class BidOptions:
    """How :func:`advise` samples its deals (its rarely changed arguments, grouped).

    Parameters
    ----------
    samples : int
        Deals to play out (accepted deals when ``bids`` must match).
    seed : int
        The same seed gives the same advice for any ``jobs``.
    method : str
        ``auto``, ``own`` or ``per-bid`` (see the module docstring).
    jobs : int
        Local worker processes.
    """

    samples: int = 100_000
    seed: int = 0
    method: str = "auto"
    jobs: int = 1


def advise(
    players: int,
    position: int,
    hand: str | list[str],
    indicator: str | None = None,
    trump: str | None = None,
    bids: str | list[int] | None = None,
    specials: str | list[str] | None = None,
    rules: Any = None,
    strategy: str | Strategy | list[str | Strategy] = "learned",
    options: BidOptions | None = None,
) -> Advice:
    """Trick probabilities, expected score of every bid, and the best bid for one hand.

    Parameters
    ----------
    players
        3 to 6.
    position
        1 = left of the dealer (bids and leads first) ... ``players`` = dealer.
    hand
        The player's cards, ``"W,B13,R7,J"`` or a list; its length is the round size.
    indicator, trump
        What the player sees: the turned-up card (``"B5"``), or the trump
        (``"B"``, or ``"none"``) when it is known some other way. Neither: the
        indicator is unknown and drawn from the unseen cards.
    bids
        The bids already made by the players before this one, in order (all
        ``position - 1`` of them), or None: the other hands are then not
        conditioned on any bid.
    specials, rules
        As for :func:`wizsim.simulate`. Variants that change the whole game
        (mono, Maximus, elimination, clairvoyance) are refused.
    strategy
        The strategy of every seat, or one per position (1..players).
    options
        Deals, seed, method and worker processes (:class:`BidOptions`; default
        ``BidOptions()``: 100,000 deals, seed 0, method ``auto``, one process).

    Returns
    -------
    Advice
        ``p_tricks``/``p_tricks_ci`` (Wilson), ``expected_score`` and its 95%
        interval per bid (None for a bid the Canadian rule forbids),
        ``best_bid``, ``samples`` (accepted) and ``attempts``.
    """
    opts = BidOptions() if options is None else options
    samples = opts.samples
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= MAX_SAMPLES:
        raise WizsimError(f"samples must be a whole number from 1 to {MAX_SAMPLES:.0e}, got {samples!r}")
    su = prepare(players, position, hand, indicator, trump, bids, specials, rules, strategy, opts.seed, opts.method)
    joint, attempts, accepted = _accepted_deals(su, samples, opts.jobs)
    exp, exp_ci, by_bid = _bid_scores(su, joint, attempts, accepted, opts.jobs)
    allowed = [b for b in range(su.k + 1) if b != su.forbidden]
    best = max(allowed, key=lambda b: (exp[b], -b))  # ties: the lower bid
    tricks = joint.sum(axis=0) if su.method == "own" else by_bid[best]
    p, lo, hi = wilson_ci(tricks, accepted)
    return Advice(
        players=su.n,
        position=position,
        hand=[C.card_name(c) for c in su.hand_codes],
        indicator=C.card_name(su.ind_code) if su.ind_code >= 0 else None,
        trump=None if su.fixed is None else (C.suit_name(su.fixed) or "none"),
        bids=su.earlier,
        strategy=[strategy_label(s) for s in su.by_position],
        method=su.method,
        samples=accepted,
        attempts=attempts,
        p_tricks=[float(x) for x in p],
        p_tricks_ci=[[float(a), float(b)] for a, b in zip(lo, hi, strict=True)],
        expected_score=exp,
        expected_score_ci=exp_ci,
        best_bid=int(best),
        forbidden_bid=su.forbidden,
        strategy_bids={int(b): int(c) for b, c in enumerate(joint.sum(axis=1)) if c},
        seed=int(opts.seed),
        rules=su.rules.as_dict(),
        specials=list(su.specials),
        p_tricks_by_bid={b: [float(x) / accepted for x in v] for b, v in by_bid.items()},
    )


def _play(su: _Setup, items: int, forced: int | None, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    """Play ``items`` deals; the advised player's joint (bid, tricks) counts and its score sums."""
    counts = run_counts(su.spec(items, forced), jobs=jobs)
    pos = su.position - 1
    return counts.joint[su.k, 0, pos], counts.aux[su.k, 0, pos]


def _accepted_deals(su: _Setup, samples: int, jobs: int) -> tuple[np.ndarray, int, int]:
    """The joint counts of the deals the earlier bids accept, the deals tried, and how many were accepted.

    A pilot of ``samples`` deals; if earlier bids reject some, enough deals for ``samples`` accepted
    ones (from the same seed: the pilot's deals are their first ones), at most ATTEMPT_FACTOR per sample.
    """
    attempts = samples
    joint, _ = _play(su, attempts, None, jobs)
    accepted = int(joint.sum())
    if accepted < samples and su.earlier:
        cap = min(MAX_SAMPLES, ATTEMPT_FACTOR * samples)
        need = cap if accepted == 0 else min(cap, math.ceil(1.05 * samples * attempts / accepted))
        if need > attempts:
            attempts = need
            joint, _ = _play(su, attempts, None, jobs)
            accepted = int(joint.sum())
    if accepted == 0:
        raise WizsimError(
            f"none of {attempts:,} deals made the earlier bids {','.join(map(str, su.earlier))} with these players;"
            " check the bids, or advise without --bids"
        )
    return joint, attempts, accepted


def _bid_scores(
    su: _Setup, joint: np.ndarray, attempts: int, accepted: int, jobs: int
) -> tuple[dict[int, float | None], dict[int, list[float] | None], dict[int, np.ndarray]]:
    """Expected score and 95% interval of every allowed bid (None: forbidden); ``per-bid``: tricks per bid too.

    ``own`` scores each bid from the tricks taken playing to the strategy's own bid; ``per-bid``
    plays the same ``attempts`` deals once per bid (see the module docstring).
    """
    k = su.k
    allowed = [b for b in range(k + 1) if b != su.forbidden]
    scoring = su.rules.to_array(su.specials)[L.R_SCORING]
    exp: dict[int, float | None] = {b: None for b in range(k + 1)}
    exp_ci: dict[int, list[float] | None] = {b: None for b in range(k + 1)}
    by_bid: dict[int, np.ndarray] = {}
    if su.method == "own":
        tricks = joint.sum(axis=0)
        s = _score_matrix(k, scoring)
        for b in allowed:
            m, lo, hi = mean_ci((s[b] * tricks).sum(), (s[b] ** 2 * tricks).sum(), accepted)
            exp[b], exp_ci[b] = float(m), [float(lo), float(hi)]
    else:
        for b in allowed:
            jb, ab = _play(su, attempts, b, jobs)
            m, lo, hi = mean_ci(ab[0], ab[1], int(jb.sum()))
            exp[b], exp_ci[b] = float(m), [float(lo), float(hi)]
            by_bid[b] = jb.sum(axis=0)
    return exp, exp_ci, by_bid


def _split_strategies(strategy: str | Strategy | list[str | Strategy], n: int) -> list[str | Strategy]:
    parts: list[str | Strategy]
    if isinstance(strategy, str):
        parts = list(split_top_level(strategy))
    elif isinstance(strategy, Strategy):  # e.g. strategies.bid_rule(...)
        parts = [strategy]
    else:
        parts = list(strategy)
    if len(parts) == 1:
        return parts * n
    if len(parts) != n:
        raise WizsimError(f"give one strategy, or one per position (1..{n}): got {len(parts)}")
    return parts


__all__ = ["Advice", "BidOptions", "advise"]
