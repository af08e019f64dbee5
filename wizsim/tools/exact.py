"""Exact probabilities of winning a one-card round, by seat position, indicator and card class.

In a round of one card per player play is forced, so whether a player takes
the trick is fixed by the deal: the n dealt cards in playing order (position
1 sits left of the dealer and leads, position n is the dealer) and the
indicator, the next card of the shuffled deck (RULES.md 3; a one-card round
is never the last round of the standard table, so a card is turned up
whenever one is left). The trump is the indicator's suit; a Jester turned up
means no trump; a Wizard turned up lets the dealer name trump before anyone
bids, and the ``heuristic`` dealer (``engine.players.heuristic.suit_strength``) names the
suit of its card, or Blue (suit 0, the first of equal scores) when it holds
a Wizard or a Jester; a ``random`` dealer names each suit with probability
1/4. Trick rules: RULES.md 6 (the first Wizard wins, then the highest trump,
then the highest card of the led suit, which the first non-Jester card sets;
all Jesters: the first Jester wins).

Every bidder sees the indicator (and the trump the dealer named), so counts
are kept by indicator class as well as by card class: a bidder's P(win)
differs between a suit card turned up and a Wizard turned up even for the
same card class (after a Wizard the dealer's card is known to be of the
named suit, or a Wizard or Jester).

:func:`one_card_counts` counts the deals exactly, for any number of players
and any base deck, without visiting them one by one: given my card, the
trump and the number of players before (``e``) and after (``a``) me, every
other card is only *dangerous* (a Wizard, a higher trump, a higher card of my
suit, or any trump when mine is not one), a *Jester*, a *lower card of my
suit* or *another suit*, and I win exactly when nobody holds a dangerous card
and, if my card is not a trump, the first non-Jester card before me (if any)
is of my suit. The number of ordered ways to fill the other seats from the
remaining cards then follows from falling factorials (see :func:`_wins`).
The indicator (and, after a Wizard is turned up, the dealer's card, which
fixes the trump) are enumerated card by card.

:func:`brute_force_one_card` visits every ordered deal instead and asks the
engine's own rule functions (``engine.game.trick.trick_result_checked`` and
``engine.players.heuristic.suit_strength``) who wins: an independent check for small cases
(3 players with the full deck: 11.7 million deals, about a second; 4 players:
655 million deals, about 20 seconds, too slow for the test suite, and equal,
by indicator class, when run on 2026-11-30).

Card classes (index, name): 0 ``Wizard``, 1 ``Jester``, 2-14 ``trump 1`` ..
``trump 13`` (a card of the trump suit), 15-27 ``off-suit 1`` ..
``off-suit 13`` (a suit card when another suit is trump), 28-40
``no-trump 1`` .. ``no-trump 13`` (a suit card when there is no trump: a
Jester turned up, or no card left to turn up).

Indicator classes (index, name): 0 ``suit card`` (its suit is trump: with a
suit card of my own suit turned up my card is a ``trump``, with one of
another suit an ``off-suit`` card), 1 ``Jester`` (no trump), 2 ``Wizard``
(the dealer names trump), 3 ``none`` (no card left to turn up: only decks
of exactly n cards, never the 60-card deck). Special cards are not
supported.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numba import njit

from ..engine.game.trick import trick_result_checked
from ..engine.jit.config import NJIT_OPTIONS
from ..engine.players.heuristic import suit_strength
from ..game import cards as C

N_CLASSES = 41
INDICATORS = ("suit card", "Jester", "Wizard", "none")
N_INDICATORS = len(INDICATORS)
IND_SUIT, IND_JESTER, IND_WIZARD, IND_NONE = range(N_INDICATORS)
W, J = C.WIZARD, C.JESTER
N_BASE = 54  # card types of the base game: 52 suit cards, Wizard, Jester
# categories of the other players' cards relative to mine (see the module doc)
DANGER, JEST, LOW, OTHER = range(4)
RULES = ("heuristic", "random")


def class_names() -> list[str]:
    """Names of the 41 card classes, by index."""
    names = ["Wizard", "Jester"]
    for kind in ("trump", "off-suit", "no-trump"):
        names += [f"{kind} {r}" for r in range(1, 14)]
    return names


def class_of(card: int, trump: int) -> int:
    """Class index of a base-game card given the trump (-1: none)."""
    if card == W:
        return 0
    if card == J:
        return 1
    suit, rank = divmod(card, 13)
    if trump < 0:
        return 28 + rank
    return (2 if suit == trump else 15) + rank


def _ff(x: int, k: int) -> int:
    """Falling factorial x (x-1) ... (x-k+1): ordered choices of k of x things (0 if k > x)."""
    out = 1
    for i in range(k):
        out *= x - i
    return out


def _category(x: int, mine: int, trump: int) -> int:
    """Category of another player's card ``x`` relative to my suit card ``mine`` under ``trump``."""
    if x == W:
        return DANGER
    if x == J:
        return JEST
    s, r = divmod(x, 13)
    ms, mr = divmod(mine, 13)
    if ms == trump:  # my card is a trump: only higher trumps (and Wizards) beat it, wherever they sit
        return DANGER if (s == trump and r > mr) else OTHER
    if trump >= 0 and s == trump:
        return DANGER
    if s == ms:
        return DANGER if r > mr else LOW
    return OTHER


@functools.cache
def _category_matrix(mine: int, trump: int) -> np.ndarray:
    """int64 [4, 54]: row k marks the card types of category k relative to ``mine`` under ``trump``."""
    out = np.zeros((4, N_BASE), dtype=np.int64)
    for x in range(N_BASE):
        out[_category(x, mine, trump), x] = 1
    return out


def _beats_from_behind(x: int, mine: int, trump: int) -> bool:
    """Whether card ``x``, played after mine, takes the trick from me."""
    if mine == W:
        return False  # the first Wizard keeps the trick
    if mine == J:
        return x != J
    return _category(x, mine, trump) == DANGER


def _wins(mine: int, trump: int, pool: np.ndarray, e: int, a: int) -> tuple[int, int]:
    """(winning, all) ordered ways to give ``e`` players before me and ``a`` after me one card each of ``pool``.

    ``pool[t]`` is the number of cards of type ``t`` left.
    """
    n_left = int(pool.sum())
    total = _ff(n_left, e + a)
    if mine == W:
        w = int(pool[W])
        # nobody before me holds a Wizard; after me anything
        return _ff(n_left - w, e) * _ff(n_left - e, a), total
    if mine == J:
        # everybody holds a Jester and I lead: the first Jester wins
        return (_ff(int(pool[J]), e + a) if e == 0 else 0), total
    cat = _category_matrix(mine, trump) @ pool
    good = n_left - int(cat[DANGER])
    if mine // 13 == trump:
        return _ff(good, e + a), total
    j, low = int(cat[JEST]), int(cat[LOW])
    # before me: m Jesters, then (if anybody is left before me) a lower card of my suit
    # sets the led suit, then anything harmless; after me: anything harmless
    wins = _ff(j, e)
    for m in range(e):
        wins += _ff(j, m) * low * _ff(good - m - 1, e - m - 1)
    return wins * _ff(good - e, a), total


def _dealer_trump(card: int) -> int:
    """The suit the heuristic dealer names after a Wizard is turned up (``_suit_strength`` of a one-card hand)."""
    return card // 13 if card < 52 else 0


def one_card_counts(players: int, deck: Sequence[int] | None = None, dealer_rule: str = "heuristic") -> np.ndarray:
    """Exact counts of one-card deals, by position, indicator class, card class and outcome.

    Parameters
    ----------
    players
        Number of players, 3-6 (any number works if the deck is large enough).
    deck
        The deck as card codes (Wizards and Jesters repeated); default the
        60-card base deck. Specials are not supported.
    dealer_rule
        How the dealer names trump after a Wizard is turned up:
        ``"heuristic"`` (the engine's ``heuristic`` player) or ``"random"``
        (each suit with probability 1/4, the ``random`` player).

    Returns
    -------
    numpy.ndarray
        int64 ``[players, 4, 41, 2]``: ``[q, i, c, 0]`` deals where the
        player at position ``q + 1`` sees an indicator of class ``i`` and
        holds a card of class ``c``, ``[q, i, c, 1]`` those of them where
        that player takes the trick. A deal is an ordered choice of the
        dealt cards and the indicator (Wizards and Jesters are told apart),
        weighted 4 (a random dealer's four choices of trump weigh 1 each),
        so ratios are exact probabilities and
        ``counts[q, ..., 0].sum() == 4 * 60 * 59 * ... * (60 - players)``.
        Sum over axis 1 to pool the indicators.
    """
    if dealer_rule not in RULES:
        raise ValueError(f"dealer_rule must be one of {RULES}, got {dealer_rule!r}")
    codes = np.asarray(C.build_deck() if deck is None else deck, dtype=np.int64)
    if codes.size and codes.max() >= N_BASE:
        raise ValueError("one_card_counts covers the base deck only (no special cards)")
    full = np.bincount(codes, minlength=N_BASE).astype(np.int64)
    if codes.size < players:
        raise ValueError(f"{codes.size} cards cannot be dealt to {players} players")
    n = players
    acc = [[[[0, 0] for _ in range(N_CLASSES)] for _ in range(N_INDICATORS)] for _ in range(n)]

    def add(q: int, i: int, mine: int, trump: int, pool: np.ndarray, e: int, a: int, weight: int) -> None:
        wins, total = _wins(mine, trump, pool, e, a)
        cell = acc[q][i][class_of(mine, trump)]
        cell[0] += weight * total
        cell[1] += weight * wins

    for q in range(n):
        e, a = q, n - 1 - q  # players before and after position q + 1
        for mine in map(int, np.flatnonzero(full)):
            pool1 = full.copy()
            pool1[mine] -= 1
            w_mine = int(full[mine])
            if codes.size == n:  # no card left to turn up: no trump
                add(q, IND_NONE, mine, -1, pool1, e, a, 4 * w_mine)
                continue
            for ind in map(int, np.flatnonzero(pool1)):
                pool2 = pool1.copy()
                pool2[ind] -= 1
                weight = w_mine * int(pool1[ind])
                if ind < 52:
                    add(q, IND_SUIT, mine, ind // 13, pool2, e, a, 4 * weight)
                elif ind == J:
                    add(q, IND_JESTER, mine, -1, pool2, e, a, 4 * weight)
                elif dealer_rule == "random":
                    for trump in range(4):
                        add(q, IND_WIZARD, mine, trump, pool2, e, a, weight)
                elif q == n - 1:  # I deal and name the trump
                    add(q, IND_WIZARD, mine, _dealer_trump(mine), pool2, e, a, 4 * weight)
                else:
                    # the dealer (last to play, after me) names the trump from their card
                    for dealt in map(int, np.flatnonzero(pool2)):
                        trump = _dealer_trump(dealt)
                        pool3 = pool2.copy()
                        pool3[dealt] -= 1
                        w = 4 * weight * int(pool2[dealt])
                        if _beats_from_behind(dealt, mine, trump):
                            acc[q][IND_WIZARD][class_of(mine, trump)][0] += w * _ff(int(pool3.sum()), e + a - 1)
                        else:
                            add(q, IND_WIZARD, mine, trump, pool3, e, a - 1, w)
    return np.array(acc, dtype=np.int64)


@njit(**{**NJIT_OPTIONS, "cache": False})
def _brute_force(n, deck, table):  # pragma: no cover - compiled
    # Not cached on disk: it inlines engine kernels, and this file is outside the
    # engine's cache fingerprint (wizsim.engine.jit.config), so a stale copy could load.
    d = deck.shape[0]
    out = np.zeros((n, N_INDICATORS, N_CLASSES, 2), dtype=np.int64)
    depth = n + 1 if d > n else n
    idx = np.full(depth, -1, dtype=np.int64)
    used = np.zeros(d, dtype=np.bool_)
    forms = np.zeros(n, dtype=np.int64)
    level = 0
    while level >= 0:
        # advance the index at this level to the next unused card
        if idx[level] >= 0:
            used[idx[level]] = False
        nxt = idx[level] + 1
        while nxt < d and used[nxt]:
            nxt += 1
        if nxt >= d:
            idx[level] = -1
            level -= 1
            continue
        idx[level] = nxt
        used[nxt] = True
        if level < depth - 1:
            level += 1
            continue
        # a complete deal: positions 1..n in playing order, then the indicator
        for p in range(n):
            forms[p] = deck[idx[p]]
        trump = -1
        ic = IND_NONE
        if depth > n:
            ind = deck[idx[n]]
            if ind < 52:
                trump = ind // 13
                ic = IND_SUIT
            elif ind == 52:
                trump, _ = suit_strength(np.uint64(1) << np.uint64(forms[n - 1]))
                ic = IND_WIZARD
            else:
                ic = IND_JESTER
        winner, _ = trick_result_checked(forms, trump, table, True)
        for p in range(n):
            c = forms[p]
            if c == 52:
                cls = 0
            elif c == 53:
                cls = 1
            elif trump < 0:
                cls = 28 + c % 13
            elif c // 13 == trump:
                cls = 2 + c % 13
            else:
                cls = 15 + c % 13
            out[p, ic, cls, 0] += 4
            if winner == p:
                out[p, ic, cls, 1] += 4
    return out


def brute_force_one_card(players: int, deck: Sequence[int] | None = None) -> np.ndarray:
    """:func:`one_card_counts` (heuristic dealer) by visiting every ordered deal with the engine's rule functions.

    Slow for many players: 3 players and the full deck visit 11.7 million
    deals, 4 players 655 million. Same layout ``[players, 4, 41, 2]`` and
    weights (4 per deal).
    """
    codes = np.asarray(C.build_deck() if deck is None else deck, dtype=np.int64)
    table, _ = C.kernel_tables()
    return _brute_force(players, codes, table)
