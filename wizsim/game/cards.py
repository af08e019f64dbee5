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

from ..engine.layout import (  # the one copy of the card codes
    BOMB,
    CLASS_JESTER,
    CLASS_SPECIAL,
    CLASS_SUIT,
    CLASS_WIZARD,
    CLOUD,
    CLOUD_AS,
    DRAGON,
    FAIRY,
    FIRST_SPECIAL,
    FLAG_BOMB,
    FLAG_CLOUD,
    FLAG_DRAGON,
    FLAG_FAIRY,
    FLAG_JUGGLER,
    JESTER,
    JUGGLER,
    JUGGLER_AS,
    M_ALWAYS,
    N_FORMS,
    N_TABLE_COLUMNS,
    N_TYPES,
    NO_SUIT,
    SHAPESHIFTER,
    SHAPESHIFTER_AS_JESTER,
    SHAPESHIFTER_AS_WIZARD,
    SPECIAL_NAMES,
    T_BASE_POWER,
    T_CARD,
    T_CLASS,
    T_FLAGS,
    T_LEADS,
    T_PSUIT,
    T_RANK,
    T_SUIT,
    WEREWOLF,
    WIZARD,
)
from ..engine.layout import FREE as FREE_LEAD
from ..errors import WizsimError

SUITS: tuple[str, ...] = ("B", "R", "G", "Y")
N_SUITS = 4
N_RANKS = 13

CARD_SUIT = np.full(N_FORMS, -1, dtype=np.int64)
CARD_RANK = np.zeros(N_FORMS, dtype=np.int64)
CARD_CLASS = np.full(N_FORMS, CLASS_SPECIAL, dtype=np.int64)
for _s in range(N_SUITS):
    for _r in range(1, N_RANKS + 1):
        _c = _s * N_RANKS + _r - 1
        CARD_SUIT[_c] = _s
        CARD_RANK[_c] = _r
        CARD_CLASS[_c] = CLASS_SUIT
    CARD_SUIT[JUGGLER_AS + _s] = _s
    CARD_SUIT[CLOUD_AS + _s] = _s
CARD_CLASS[WIZARD] = CLASS_WIZARD
CARD_CLASS[JESTER] = CLASS_JESTER

#: the card (hand type) a played form comes from
CARD_OF_FORM = np.arange(N_FORMS, dtype=np.int64)
CARD_OF_FORM[JUGGLER_AS : JUGGLER_AS + 4] = JUGGLER
CARD_OF_FORM[CLOUD_AS : CLOUD_AS + 4] = CLOUD
CARD_OF_FORM[SHAPESHIFTER_AS_WIZARD] = SHAPESHIFTER
CARD_OF_FORM[SHAPESHIFTER_AS_JESTER] = SHAPESHIFTER

#: Columns for the kernels' branch-free trick logic (see ``engine.game.trick``): the
#: suit a form counts in for trump/led comparisons (5 = none), its power before
#: the trump (+200) and led-suit (+100) bonuses, and the led state it sets on
#: an open trick (-1 nothing, 0-3 a suit, 4 free: a wizard-like card led).
#: Powers are 4 x value so that the Juggler (7.5) and Cloud (9.75) are integers.
#: Wizard-like 1000 (the first one keeps the trick: later equals do not beat it),
#: Dragon 3000, Jester-like 0, Fairy and Bomb -2 (they never take a trick of
#: Jesters; the Fairy's win over the Dragon is a trick flag).
CARD_PSUIT = np.where(CARD_SUIT >= 0, CARD_SUIT, NO_SUIT).astype(np.int64)
CARD_BASE_POWER = 4 * CARD_RANK
CARD_BASE_POWER[WIZARD] = 1000
CARD_BASE_POWER[JESTER] = 0
CARD_BASE_POWER[DRAGON] = 3000
CARD_BASE_POWER[FAIRY] = -2
CARD_BASE_POWER[BOMB] = -2
CARD_BASE_POWER[WEREWOLF] = 0  # only played when kept in hand: a Jester
CARD_BASE_POWER[JUGGLER_AS : JUGGLER_AS + 4] = 30
CARD_BASE_POWER[CLOUD_AS : CLOUD_AS + 4] = 39
CARD_BASE_POWER[SHAPESHIFTER_AS_WIZARD] = 1000
CARD_BASE_POWER[SHAPESHIFTER_AS_JESTER] = 0
CARD_LEADS = np.where(CARD_SUIT >= 0, CARD_SUIT, -1).astype(np.int64)
CARD_LEADS[WIZARD] = FREE_LEAD
CARD_LEADS[DRAGON] = FREE_LEAD
CARD_LEADS[SHAPESHIFTER_AS_WIZARD] = FREE_LEAD

#: trick flags a form raises (bit mask), for the rules that look at the whole trick
CARD_FLAGS = np.zeros(N_FORMS, dtype=np.int64)
CARD_FLAGS[DRAGON] = FLAG_DRAGON
CARD_FLAGS[FAIRY] = FLAG_FAIRY
CARD_FLAGS[BOMB] = FLAG_BOMB
CARD_FLAGS[JUGGLER_AS : JUGGLER_AS + 4] = FLAG_JUGGLER
CARD_FLAGS[CLOUD_AS : CLOUD_AS + 4] = FLAG_CLOUD

#: bit mask of the 13 cards of each suit
SUIT_MASKS = np.array([((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS)], dtype=np.uint64)
#: cards that may always be played, whatever was led (Wizard, Jester, all specials)
ALWAYS_PLAYABLE_MASK = np.uint64(((1 << N_TYPES) - 1) & ~((1 << 52) - 1))

CARD_NAMES: tuple[str, ...] = tuple(
    [f"{SUITS[c // N_RANKS]}{c % N_RANKS + 1}" for c in range(52)] + ["W", "J"] + list(SPECIAL_NAMES)
)
#: names of every played form (notation of a card in a trick)
FORM_NAMES: tuple[str, ...] = tuple(
    list(CARD_NAMES)
    + [f"?{i}" for i in range(N_TYPES, JUGGLER_AS)]
    + [f"Juggler:{s}" for s in SUITS]
    + [f"Cloud:{s}" for s in SUITS]
    + ["Shapeshifter:W", "Shapeshifter:J"]
    + [f"?{i}" for i in range(SHAPESHIFTER_AS_JESTER + 1, N_FORMS)]
)
_LOOKUP = {name.upper(): code for code, name in enumerate(CARD_NAMES)}
_LOOKUP.update({"WIZARD": WIZARD, "Z": WIZARD, "JESTER": JESTER, "N": JESTER})


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
    """Return the RULES.md notation of a card type code or played form (``Juggler:B``)."""
    return FORM_NAMES[int(code)]


def form_code(name: str) -> int:
    """Return the code of a played form (``Juggler:B``, ``Shapeshifter:W``) or of a plain card."""
    key = str(name).strip().lower()
    for code, form in enumerate(FORM_NAMES):
        if form.lower() == key and not form.startswith("?"):
            return code
    return card_code(name)


def card_in(name: str, where: str, form: bool = False) -> int:
    """The code of card ``name`` (a played form such as ``Juggler:B`` if ``form``); errors say ``where``."""
    try:
        return form_code(name) if form else card_code(name)
    except WizsimError as exc:
        raise WizsimError(f"{where}: {exc}") from None


def parse_cards(text: str | Sequence | None, what: str, example: str = "W,B13,R7") -> list[int]:
    """The card codes of a card list typed as ``W,B13,R7`` (commas or spaces); an empty entry is an error."""
    from .notation import split_entries

    return [card_in(c, f"{what} entry {i}") for i, c in enumerate(split_entries(text, what, example), 1)]


def special_code(name: str) -> int:
    """Return the code of a special card by name (case-insensitive)."""
    key = str(name).strip().lower()
    for i, special in enumerate(SPECIAL_NAMES):
        if special.lower() == key:
            return FIRST_SPECIAL + i
    raise WizsimError(f"unknown special card {name!r}; use any of {', '.join(SPECIAL_NAMES)} or all")


def parse_specials(text: str | Iterable[str] | None) -> list[str]:
    """Parse ``--specials`` (``dragon,fairy``, ``all`` or ``none``) into canonical names in table order."""
    if text is None:
        return []
    from .notation import split_entries

    parts = split_entries(text, "--specials", "dragon,fairy, all or none")
    if not parts:
        if isinstance(text, str):
            raise WizsimError("--specials is empty: give special cards like dragon,fairy, or all, or none")
        return []
    if len(parts) == 1 and parts[0].lower() in ("all", "none"):
        return list(SPECIAL_NAMES) if parts[0].lower() == "all" else []
    codes = sorted({special_code(p) for p in parts})
    if len(codes) != len(parts):
        raise WizsimError(f"a special card is named twice in {','.join(parts)!r}")
    return [CARD_NAMES[c] for c in codes]


def kernel_tables() -> tuple[np.ndarray, np.ndarray]:
    """The card table and masks the kernels read.

    ``table`` is int64[N_FORMS, 8], one row per played form: suit (-1 none),
    rank, class, suit for comparisons (5 = none), base power, led state it
    sets, trick flags, and the card (hand type) it comes from. ``masks`` is
    uint64[7]: index ``led + 1`` gives the cards that follow the led state
    (nothing for -1 and for a free trick), index 6 the always-playable cards.
    """
    table = np.zeros((N_FORMS, N_TABLE_COLUMNS), dtype=np.int64)
    for column, values in (
        (T_SUIT, CARD_SUIT),
        (T_RANK, CARD_RANK),
        (T_CLASS, CARD_CLASS),
        (T_PSUIT, CARD_PSUIT),
        (T_BASE_POWER, CARD_BASE_POWER),
        (T_LEADS, CARD_LEADS),
        (T_FLAGS, CARD_FLAGS),
        (T_CARD, CARD_OF_FORM),
    ):
        table[:, column] = values
    masks = np.zeros(M_ALWAYS + 1, dtype=np.uint64)
    masks[1:5] = SUIT_MASKS
    masks[M_ALWAYS] = ALWAYS_PLAYABLE_MASK
    return table, masks


def mono_decks(players: int) -> np.ndarray:
    """Mono (RULES.md 9): seat s owns suit s's 13 cards plus one Wizard and one Jester."""
    return np.array([list(range(13 * s, 13 * s + 13)) + [WIZARD, JESTER] for s in range(players)], dtype=np.uint8)


def suit_name(suit: int) -> str | None:
    """Return ``B``/``R``/``G``/``Y`` for a suit index, None for no trump (-1)."""
    return None if suit < 0 else SUITS[suit]


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
