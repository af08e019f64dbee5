"""A seat with a single legal suit card, Wizard or Jester plays it without asking the heuristic.

``round.trick_phase`` skips :func:`heuristic_play` when only one card (code
below DRAGON) is legal. That is a pure speed-up only if ``heuristic_play``
returns exactly that card in every such position: this test asks it in 40,000
random positions (every need, lead state, best power, trick position, trump,
seen cards, trick flags, mono and both refinements of the ``table`` player).
Special cards from DRAGON up are not covered by the shortcut: the heuristic
can return a form that differs from the card there.
"""

from __future__ import annotations

import numpy as np

from wizsim.engine.layout import DRAGON, FAIRY, FLAG_BOMB, FLAG_DRAGON, FLAG_FAIRY, JESTER, JUGGLER, WIZARD
from wizsim.engine.players.heuristic import heuristic_play


def test_single_legal_card_is_returned_unchanged():
    rng = np.random.default_rng(20261201)
    checked = {WIZARD: 0, JESTER: 0, "suit": 0}
    for _ in range(40_000):
        card = int(rng.integers(0, DRAGON))
        others = rng.choice(np.arange(64), size=int(rng.integers(0, 12)), replace=False)
        hand = np.uint64(0)
        for c in [card, *others.tolist()]:
            hand |= np.uint64(1) << np.uint64(c)
        legal = np.uint64(1) << np.uint64(card)
        seen = np.uint64(0)
        for c in rng.choice(np.arange(64), size=int(rng.integers(0, 30)), replace=False).tolist():
            seen |= np.uint64(1) << np.uint64(c)
        n = int(rng.integers(3, 7))
        n_played = int(rng.integers(0, n))
        led = int(rng.integers(-1, 5))  # -1: nothing led, 0-3 a suit, 4: free (a Wizard led)
        best = int(rng.integers(-3, 3200)) if n_played > 0 else -1
        tflags = int(rng.choice([0, FLAG_BOMB, FLAG_DRAGON, FLAG_FAIRY, FLAG_DRAGON | FLAG_FAIRY]))
        got = heuristic_play(
            hand, legal, int(rng.integers(-3, 8)), led, best, n_played, n, int(rng.integers(-1, 4)), seen, tflags,
            bool(rng.integers(0, 2)), int(rng.integers(0, 4)),
        )  # fmt: skip
        assert got == card, (card, got)
        checked[card if card >= WIZARD else "suit"] += 1
    assert min(checked.values()) > 500, checked


def test_heuristic_always_returns_a_legal_card():
    """Every returned card is legal, specials without forms included (a voided trick with the Dragon
    and a lone Fairy once made it return -1: the Fairy was skipped as a winner though nobody wins)."""
    rng = np.random.default_rng(3)
    for _ in range(60_000):
        cards = rng.choice(np.arange(JUGGLER), size=int(rng.integers(1, 6)), replace=False).tolist()
        legal = np.uint64(0)
        for c in cards:
            legal |= np.uint64(1) << np.uint64(c)
        hand = legal
        for c in rng.choice(np.arange(JUGGLER), size=int(rng.integers(0, 8)), replace=False).tolist():
            hand |= np.uint64(1) << np.uint64(c)
        seen = np.uint64(0)
        for c in rng.choice(np.arange(JUGGLER), size=int(rng.integers(0, 30)), replace=False).tolist():
            seen |= np.uint64(1) << np.uint64(c)
        n = int(rng.integers(3, 7))
        n_played = int(rng.integers(0, n))
        best = int(rng.integers(-3, 3200)) if n_played > 0 else -1
        got = heuristic_play(
            hand, legal, int(rng.integers(-3, 8)), int(rng.integers(-1, 5)), best, n_played, n,
            int(rng.integers(-1, 4)), seen, int(rng.integers(0, 32)), bool(rng.integers(0, 2)), int(rng.integers(0, 4)),
        )  # fmt: skip
        assert got in cards, (cards, got)


def test_voided_trick_lone_fairy_after_the_dragon():
    """The position that returned -1: Dragon and Bomb in the trick, a lone Fairy, last to play, bid made."""
    fairy = np.uint64(1) << np.uint64(FAIRY)
    got = heuristic_play(fairy, fairy, 0, -1, 3000, 3, 4, 0, np.uint64(0), FLAG_DRAGON | FLAG_BOMB, False, 0)
    assert got == FAIRY
