"""Strict readers of what a user types: card lists, whole-number lists, tricks, passes.

Every reader either returns what the text says or raises a one-line
:class:`wizsim.errors.WizsimError` naming the option, the entry and how to
write it. Nothing is dropped silently: an empty entry between two commas
(``R7,,Y2``) or an empty trick between two semicolons (``B3 B9;;W J``) is an
error, not a shorter list. Cards are RULES.md section 1 notation (checked by
:func:`wizsim.game.cards.card_code` / :func:`~wizsim.game.cards.form_code`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..errors import WizsimError

#: the longest whole number a reader takes (digits); anything longer is certainly out of range
MAX_DIGITS = 18
_WHOLE = re.compile(r"[+-]?[0-9]+")


def _shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def split_entries(text: str | Iterable | None, what: str, example: str) -> list[str]:
    """The entries of a list typed as ``A,B,C`` (commas, and/or spaces between entries).

    Parameters
    ----------
    text : str, iterable or None
        The typed list, or an already split iterable (each item is one entry). None or a blank
        string is the empty list.
    what : str
        The option or field, for the error message (``--hand``).
    example : str
        A well-formed value, for the error message (``W,B13,R7``).

    Returns
    -------
    list of str
        The entries, stripped, in order.

    Raises
    ------
    WizsimError
        If an entry is empty: ``R7,,Y2``, ``,R7`` or ``R7,`` (a comma with nothing on one side).
    """
    if text is None:
        return []
    if not isinstance(text, str):
        items = [str(x).strip() for x in text]
        for i, item in enumerate(items, 1):
            if not item:
                raise WizsimError(f"{what}: entry {i} is empty; give every entry, like {example}")
        return items
    if not text.strip():
        return []
    out: list[str] = []
    for i, part in enumerate(text.split(","), 1):
        if not part.strip():
            raise WizsimError(
                f"{what} {_shown(text)}: entry {i} (between commas) is empty; remove the extra comma, like {example}"
            )
        out.extend(part.split())
    return out


def parse_whole(text: object, what: str) -> int:
    """A whole number written in ASCII digits (an optional sign), or a WizsimError naming ``what``.

    Python's ``int`` would also take ``1_000`` and non-ASCII digits; this does not.
    Longer than :data:`MAX_DIGITS` digits is refused as out of any range wizsim uses.
    """
    if isinstance(text, bool):
        raise WizsimError(f"{what} must be a whole number, got {text!r}")
    if isinstance(text, int):
        return int(text)
    s = str(text).strip()
    if not _WHOLE.fullmatch(s):
        raise WizsimError(f"{what}: {_shown(s)} is not a whole number; write digits, like 2")
    if len(s.lstrip("+-")) > MAX_DIGITS:
        raise WizsimError(f"{what}: {_shown(s)} is far too large; give a small whole number")
    return int(s)


def parse_whole_list(text: str | Sequence | None, what: str, example: str) -> list[int]:
    """Whole numbers typed as ``1,0,2`` (or a sequence of ints / digit strings); empty entries are errors."""
    if text is None:
        return []
    if not isinstance(text, str):
        return [parse_whole(x, f"{what} entry {i}") for i, x in enumerate(text, 1)]
    entries = split_entries(text, what, example)
    return [parse_whole(x, f"{what} entry {i} of {_shown(text)}") for i, x in enumerate(entries, 1)]


def split_tricks(text: str | Sequence | None, what: str = "--tricks") -> list[list[str]]:
    """Finished tricks typed as ``B3 B9 B1 R2; W J G4 G5`` (``;`` between tricks), or a list of lists.

    Raises
    ------
    WizsimError
        On an empty trick: ``;;``, a leading or a trailing ``;``, or a blank one in a list.
    """
    example = '"B3 B9 B1 R2; W J G4 G5"'
    if text is None:
        return []
    if isinstance(text, str):
        if not text.strip():
            return []
        parts: list = text.split(";")
    else:
        parts = list(text)
    out = []
    for t, part in enumerate(parts, 1):
        cards = split_entries(part, f"{what} trick {t}", example)
        if not cards:
            raise WizsimError(
                f"{what}: trick {t} is empty; give each finished trick's cards, ';' between tricks, like {example}"
            )
        out.append(cards)
    return out


def split_passes(text: str | Sequence | None, what: str = "--passed") -> list[tuple[str, str]]:
    """Juggler passes typed as ``B3/R7,G2/W`` (GAVE/GOT each): the (gave, got) card names, in order."""
    out = []
    for i, item in enumerate(split_entries(text, what, "B3/R7"), 1):
        gave_got = item.split("/")
        if len(gave_got) != 2 or not all(x.strip() for x in gave_got):
            raise WizsimError(f"{what} entry {i} {_shown(item)}: write each pass as GAVE/GOT, e.g. B3/R7")
        out.append((gave_got[0].strip(), gave_got[1].strip()))
    return out
