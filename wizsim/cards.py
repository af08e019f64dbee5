"""Cards as small integer codes, and the lookup tables the kernels use.

Every card *type* has a code below 64, so a hand is a 64-bit mask of the types
it holds plus a count per type (only Wizards and Jesters come in several
copies). A special card is a row of these tables, not a branch in the kernels.

======  ===============================  ==========================
code    card                             notation
======  ===============================  ==========================
0-51    suit card, ``13 * suit + rank-1``  ``B13``, ``R1``, ``G7``, ``Y10``
52      Wizard (4 copies)                ``W``
53      Jester (4 copies)                ``J``
54-60   Dragon, Fairy, Bomb, Werewolf,   ``Dragon`` ... ``Shapeshifter``
        Juggler, Cloud, Shapeshifter
======  ===============================  ==========================

Suits are ordered Blue, Red, Green, Yellow (RULES.md section 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .errors import WizsimError

SUITS: tuple[str, ...] = ("B", "R", "G", "Y")
N_SUITS = 4
N_RANKS = 13
WIZARD = 52
JESTER = 53
SPECIAL_NAMES: tuple[str, ...] = (
    "Dragon",
    "Fairy",
    "Bomb",
    "Werewolf",
    "Juggler",
    "Cloud",
    "Shapeshifter",
)
FIRST_SPECIAL = 54
N_TYPES = FIRST_SPECIAL + len(SPECIAL_NAMES)  # 61

# Card classes (the CARD_CLASS table); specials get theirs with the special-cards work.
CLASS_SUIT = 0
CLASS_WIZARD = 1
CLASS_JESTER = 2
CLASS_SPECIAL = 3

CARD_SUIT = np.full(N_TYPES, -1, dtype=np.int64)
CARD_RANK = np.zeros(N_TYPES, dtype=np.int64)
CARD_CLASS = np.full(N_TYPES, CLASS_SPECIAL, dtype=np.int64)
for _s in range(N_SUITS):
    for _r in range(1, N_RANKS + 1):
        _c = _s * N_RANKS + _r - 1
        CARD_SUIT[_c] = _s
        CARD_RANK[_c] = _r
        CARD_CLASS[_c] = CLASS_SUIT
CARD_CLASS[WIZARD] = CLASS_WIZARD
CARD_CLASS[JESTER] = CLASS_JESTER

#: Columns for the kernels' branch-free trick logic (see ``_kernels``):
#: the suit a card counts in for trump/led comparisons (5 = none),
#: its power before trump/led bonuses, and the led state it sets on an open trick.
NO_SUIT = 5
FREE_LEAD = 4
CARD_PSUIT = np.where(CARD_SUIT >= 0, CARD_SUIT, NO_SUIT).astype(np.int64)
CARD_BASE_POWER = CARD_RANK.copy()
CARD_BASE_POWER[WIZARD] = 1000
CARD_BASE_POWER[JESTER] = 0
CARD_LEADS = np.where(CARD_CLASS == CLASS_SUIT, CARD_SUIT, -1).astype(np.int64)
CARD_LEADS[WIZARD] = FREE_LEAD

#: bit mask of the 13 cards of each suit
SUIT_MASKS = np.array([((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS)], dtype=np.uint64)
#: cards that may always be played, whatever was led (Wizard, Jester, all specials)
ALWAYS_PLAYABLE_MASK = np.uint64(((1 << N_TYPES) - 1) & ~((1 << 52) - 1))

CARD_NAMES: tuple[str, ...] = tuple(
    [f"{SUITS[c // N_RANKS]}{c % N_RANKS + 1}" for c in range(52)] + ["W", "J"] + list(SPECIAL_NAMES)
)
_LOOKUP = {name.upper(): code for code, name in enumerate(CARD_NAMES)}
_LOOKUP.update({"WIZARD": WIZARD, "Z": WIZARD, "JESTER": JESTER, "N": JESTER})

SUIT_LOOKUP = {"B": 0, "BLUE": 0, "R": 1, "RED": 1, "G": 2, "GREEN": 2, "Y": 3, "YELLOW": 3}

BASE_DECK_SIZE = 60


def card_code(name: str) -> int:
    """Return the type code of a card given in RULES.md notation (case-insensitive).

    Raises
    ------
    WizsimError
        If ``name`` is not a card.
    """
    key = str(name).strip().upper()
    if key in _LOOKUP:
        return _LOOKUP[key]
    raise WizsimError(
        f"unknown card {name!r}: use B1..B13, R1..R13, G1..G13, Y1..Y13, W, J"
        f" or a special card ({', '.join(SPECIAL_NAMES)})"
    )


def card_name(code: int) -> str:
    """Return the RULES.md notation of a card type code."""
    return CARD_NAMES[int(code)]


def suit_name(suit: int) -> str | None:
    """Return ``B``/``R``/``G``/``Y`` for a suit index, None for no trump (-1)."""
    return None if suit < 0 else SUITS[suit]


def parse_suit(text: str) -> int:
    """Parse a suit letter or name, or ``none`` for no trump (-1)."""
    key = str(text).strip().upper()
    if key in ("NONE", "NO", "-", "NOTRUMP", "NO_TRUMP"):
        return -1
    if key in SUIT_LOOKUP:
        return SUIT_LOOKUP[key]
    raise WizsimError(f"unknown suit {text!r}: use B, R, G, Y or none")


def build_deck(specials: Iterable[str] = (), cards: Sequence[str] | None = None) -> np.ndarray:
    """Return the deck as an array of type codes (Wizards and Jesters repeated).

    Parameters
    ----------
    specials
        Names of special cards to mix into the base deck.
    cards
        A custom (reduced) deck, e.g. for exact enumeration in tests; suit cards
        and specials may appear once, Wizards and Jesters up to four times.
    """
    if cards is None:
        codes = list(range(52)) + [WIZARD] * 4 + [JESTER] * 4
        codes += [card_code(s) for s in specials]
    else:
        codes = [card_code(c) for c in cards]
    counts = np.bincount(np.asarray(codes, dtype=np.int64), minlength=N_TYPES)
    for code, count in enumerate(counts):
        limit = 4 if code in (WIZARD, JESTER) else 1
        if count > limit:
            raise WizsimError(f"card {card_name(code)} appears {count} times in the deck; at most {limit} allowed")
    return np.asarray(codes, dtype=np.uint8)
