"""Your own card play as a player: a plain Python function that scores one legal card, run inside the engine.

A play rule is a function whose parameters are feature names; it returns a
score for one legal (card, form) pair, and the seat plays the highest-scoring
pair::

    def duck_when_made(made, wins, power):
        # bid made: the highest card that does not take the trick; else leave the card to the fallback
        if made:
            return -1000 if wins else power
        return ABSTAIN

:func:`wizsim.players.strategies.play_rule` makes it a strategy; on the
command line ``--strategy "play(path/to/file.py:func,bid=learned)"`` loads it.
wizsim compiles it with Numba as it does bid rules (nopython mode:
arithmetic, comparisons, ``if``, ``min``/``max``, ``math``) and calls it
inside the engine, so a rule runs at the engine's speed. The features a rule
reads are computed for it alone (``boss``, the costly one, makes the round
keep the view of the cards played).

Rules of the call:

* every parameter must be a feature of :data:`FEATURES`; all are integers;
* flexible cards are scored once per form: a Juggler or Cloud per suit it may
  name (``named_suit``), a Shapeshifter as Wizard and as Jester
  (``as_wizard``, ``as_jester``); the form chosen is the form played;
* ties go to the lowest form code (suit cards ``13 * suit + rank - 1`` in the
  suits blue, red, green, yellow, then Wizard, Jester, the special cards in
  the order Dragon, Fairy, Bomb, Werewolf, Juggler, Cloud, Shapeshifter,
  a Juggler's or Cloud's suits in that order, a Shapeshifter as Wizard first):
  the feature ``code``;
* a score of :data:`ABSTAIN` (``-inf``) means "not this card": when every
  legal pair scores it, the rule abstains and the fallback player chooses the
  card (``fallback``, the seat's built-in player); a NaN score stops the run
  with an error naming the rule;
* a seat with one legal card of one form plays it without asking the rule;
* bids, trump, the Werewolf, the passes after a Juggler trick are the
  built-in player's (``bid=``), or a bid rule's (``bid="rule(file.py:f)"``).

Every seat has the same public memory: the cards played this round and the
suits each seat has shown out of since the last passes (after a Juggler
trick's passes anyone may hold any suit again). ``boss`` is defined on that
view: the unseen cards are the deck in play less the cards played, the seat's
own hand and the face-up card, and the cards not yet dealt are among them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.players import play_features as pf
from ..errors import WizsimError
from .bid_rules import PLAY_SIGNATURE, BidRule, FeatureRow, one_line

#: the score that means "not this card" (a rule that gives it to every legal card abstains)
ABSTAIN = -math.inf

# Every play feature: name -> (what it describes: card or situation, meaning). The value of ``name`` is the
# engine's function ``pf_<name>`` (engine/players/play_features.py) of the situation and the candidate form.
FEATURES: dict[str, tuple[str, str]] = {
    # the candidate (card, form)
    "code": (
        "card",
        "the form's code (suit cards 13 * suit + rank - 1; 52 Wizard, 53 Jester, 54.. specials,"
        " 64.. Juggler/Cloud suits, 72/73 Shapeshifter as Wizard/Jester): the tie-break order",
    ),
    "rank": ("card", "rank 1..13 of a suit card, 0 for any other card (a Juggler or Cloud's suit has no rank)"),
    "suit": ("card", "suit 0..3 (blue, red, green, yellow) of a suit card or of a Juggler/Cloud form, -1 none"),
    "is_trump": ("card", "1 when it counts as trump (its suit, or a Juggler/Cloud naming it, is trump)"),
    "follows": ("card", "1 when it is of the suit led to this trick (0 on lead and when nothing is to follow)"),
    "other_suit": ("card", "1 for a suit card (or Juggler/Cloud form) of neither the trump nor the led suit"),
    "power": (
        "card",
        "the engine's trick power of the form played now: in this trick a higher power beats a"
        " lower one (the Fairy's and the Bomb's own rules aside)",
    ),
    "wins": (
        "card",
        "1 when the seat would take the trick if it ended after this card (the Bomb's void, the"
        " Fairy's rule included; a lone Fairy or Bomb takes nothing)",
    ),
    "boss": (
        "card",
        "1 when it wins now and no unseen card can beat it: no single unseen card (any form) that"
        " a later seat of this trick may hold (not shown void in its suit) takes the trick from it",
    ),
    "lowest_in_suit": ("card", "1 for a suit card with no lower card of its suit in the hand"),
    "highest_in_suit": ("card", "1 for a suit card with no higher card of its suit in the hand"),
    "wizard": ("card", "1 for a Wizard"),
    "jester": ("card", "1 for a Jester"),
    **{name.lower(): ("card", f"1 for the {name}") for name in L.SPECIAL_NAMES},
    "as_wizard": ("card", "1 for a Wizard, or the Shapeshifter played as a Wizard"),
    "as_jester": ("card", "1 for a Jester, or the Shapeshifter played as a Jester"),
    "named_suit": ("card", "the suit a Juggler or Cloud form names (0..3), -1 for any other card"),
    "fallback": (
        "card",
        "1 for the form the seat's fallback player would play here (it then chooses first, at its"
        " cost), else 0: a habit may change a strong player's card only where it applies",
    ),
    "heuristic": (
        "card",
        "1 for the form the heuristic player would play here (one form per decision), else 0:"
        " a rule may play as the heuristic except where it knows better",
    ),
    # the situation (the same for every card of the decision)
    "need": ("situation", "tricks still needed for the bid: bid - won (negative: already too many)"),
    "bid": ("situation", "the seat's bid"),
    "won": ("situation", "tricks the seat has taken this round"),
    "made": ("situation", "1 when the seat has taken exactly its bid so far"),
    "lost": ("situation", "1 when the bid can no longer be made: too many taken, or too few tricks left"),
    "tricks_left": ("situation", "tricks left in the round, this one included"),
    "trick": ("situation", "tricks played before this one (0 = the first trick)"),
    "cards": ("situation", "the round size (cards dealt to each seat)"),
    "players": ("situation", "players at the table"),
    "position": ("situation", "cards already in this trick (0 = leading)"),
    "cards_after": ("situation", "cards still to come in this trick after this seat's"),
    "leading": ("situation", "1 when the seat leads the trick"),
    "last": ("situation", "1 when the seat plays the trick's last card"),
    "no_trump": ("situation", "1 when the round has no trump"),
    "trumps_held": ("situation", "trump-suit cards in the hand (Wizards not counted)"),
    "legal_cards": ("situation", "legal cards in the hand (a flexible card counts once)"),
    "bids_cancelled": ("situation", "1 once the Bomb has cancelled the bids (bomb=cancel_bids: 10 points a trick)"),
}
assert all(hasattr(pf, f"pf_{name}") for name in FEATURES)


class PlayRule(BidRule):
    """A user's card-scoring function, checked and compiled for the engine (module docstring).

    Parameters
    ----------
    func : callable
        A function whose parameters are names of :data:`FEATURES`; it returns a score (a number).
    label : str, optional
        The rule's name in tables and histories (default: the function's name).
    origin : tuple[str, str], optional
        (file, function) when the rule was loaded from a file (worker processes load it again from its text).

    Raises
    ------
    WizsimError
        A parameter that is not a feature (nearest names suggested), a function that does not compile with Numba
        or returns something that is not a number, a score that is NaN in the probe situations.
    """

    KIND = "play rule"
    FEATURE_TABLE = FEATURES
    LISTING = "list them with 'wizsim features --play' (wizsim.players.play_rules.FEATURES)"

    def needs(self) -> int:
        """``layout.PLAY_NEEDS_*`` bits: ``boss`` makes the round keep the view of the cards played; ``fallback``
        makes the seat's player choose first."""
        return (L.PLAY_NEEDS_VIEW if "boss" in self.features else 0) | (
            L.PLAY_NEEDS_FALLBACK if "fallback" in self.features else 0)  # fmt: skip

    def compiled(self) -> Any:
        """The rule as a Numba function ``int64(int64[::1], int64[:, ::1])``: the situation and the card table to
        the form played (-1: abstain; ``-2 - form``: that form's score is NaN). Compiled once per process."""
        if self._compiled is None:
            from numba import njit

            args = ", ".join(f"pf.pf_{n}(ctx, table, f)" for n in self.features)
            src = (
                "def play_call(ctx, table):\n"
                "    ctx, table = borrow(ctx), borrow(table)  # no reference counts in the inlined features\n"
                "    bits = U64(ctx[PC_LEGAL])\n"
                "    best = -np.inf\n"
                "    best_f = np.int64(-1)\n"
                "    while bits != ZERO:\n"
                "        c = np.int64(lowest_bit(bits))\n"
                "        bits &= bits - ONE\n"
                "        f0, nf = pf.forms(c)\n"
                "        for f in range(f0, f0 + nf):\n"
                f"            v = np.float64(user_rule({args}))\n"
                "            if v != v:\n"
                "                return -2 - f\n"
                "            if v > best:  # strictly: a tie keeps the lower form code\n"
                "                best = v\n"
                "                best_f = f\n"
                "    return best_f\n"
            )
            from ..engine.jit.bits import ONE, U64, ZERO, lowest_bit
            from ..engine.jit.borrow import borrow

            namespace: dict[str, Any] = {"np": np, "pf": pf, "U64": U64, "ONE": ONE, "ZERO": ZERO, "borrow": borrow,
                                         "lowest_bit": lowest_bit, "PC_LEGAL": L.PC_LEGAL}  # fmt: skip
            try:
                namespace["user_rule"] = njit(cache=False)(self.func)
                exec(compile(src, f"<play rule {self.label}>", "exec"), namespace)  # noqa: S102 - our own wrapper
                self._compiled = njit(PLAY_SIGNATURE, cache=False)(namespace["play_call"])
            except Exception as exc:  # Numba's typing and lowering errors have many classes
                raise WizsimError(
                    f"play rule {self.label} does not compile with Numba (nopython mode): {one_line(exc)}"
                ) from None
            self._probe()
        return self._compiled

    def _probe(self) -> None:
        """Score the legal cards of a few fixed situations: a NaN score, or an error the rule raises, is refused
        before anything runs (a rule may still fail in a situation no probe reaches: the run then stops)."""
        from ..game import cards as C

        table, _ = C.kernel_tables()
        for ctx in _probe_situations():
            try:
                f = int(self._compiled(ctx, table))
            except Exception as exc:  # what the rule raises: a division by zero, an assert
                raise WizsimError(
                    f"play rule {self.label} fails on a probe situation: {type(exc).__name__}: {' '.join(str(exc).split())}"
                ) from None
            if f <= -2:
                raise WizsimError(
                    f"play rule {self.label} scores {C.card_name(-2 - f)} NaN in a probe situation: return a number"
                    " (or ABSTAIN, -inf, to leave the card to the fallback player)"
                )

    def __call__(self, **features: float) -> float:
        """The rule's score for the given feature values (plain Python: for tests and exploring)."""
        return float(self.func(**{n: features[n] for n in self.features}))


def _probe_situations() -> list[np.ndarray]:
    """Situations of a 4-player, 5-card round: leading with every special card in hand, and following a led
    blue 7 with the lead winning, half-way through the round, bid made."""
    out = []
    for j, led, best, winner, hand, bid, won in (
        (0, -1, -1, 0, (1 << 61) - (1 << 52) + 0b1010101, 2, 0),
        (2, 0, 128, 0, (1 << 3) | (1 << 20) | (1 << 52) | (1 << 58) | (1 << 60), 1, 1),
    ):
        ctx = np.zeros(L.N_PLAY_CTX, dtype=np.int64)
        ctx[L.PC_P], ctx[L.PC_T], ctx[L.PC_J], ctx[L.PC_N], ctx[L.PC_K] = 2, 2, j, 4, 5
        ctx[L.PC_TRUMP], ctx[L.PC_LED], ctx[L.PC_LEADER] = 1, led, 0
        ctx[L.PC_BEST], ctx[L.PC_WINNER], ctx[L.PC_FAIRY] = best, winner, -1
        ctx[L.PC_HAND] = ctx[L.PC_LEGAL] = hand
        ctx[L.PC_BID], ctx[L.PC_WON], ctx[L.PC_BOMB_VOIDS] = bid, won, 1
        ctx[L.PC_UNSEEN] = ((1 << 61) - 1) & ~hand
        out.append(ctx)
    return out


def feature_rows() -> list[FeatureRow]:
    """Every feature a play rule may read, in the order of :data:`FEATURES` (``wizsim features --play``)."""
    return [FeatureRow(n, f"int ({group})", meaning) for n, (group, meaning) in FEATURES.items()]
