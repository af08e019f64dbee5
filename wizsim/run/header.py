"""What was run, in one place: the configuration fields every command's header, ``--json`` and provenance carry.

A user who runs the same command with two decks, or two rule sets, and pastes
both outputs into an article must be able to tell them apart afterwards. Every
command therefore opens its text output with :func:`header_line` over the same
fields (``RunSpec.provenance``, ``Advice.run_fields``, ``Review.run``) that its ``--json`` output and its provenance
(``df.attrs``, the ``.json`` beside ``--out`` files, Parquet metadata) hold:

* ``players``; ``cards`` (round size) or ``games`` with ``schedule``;
* ``deck``: ``"standard"``, ``"standard + Dragon, Fairy"`` or ``"custom (N cards)"``,
  with ``specials`` (the list) beside it;
* ``rules`` (the options as set: the variant is among them);
* ``strategies`` per seat; ``seed``; ``sample`` (rounds, deals or samples).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..version import __version__


def deck_name(specials: Iterable[str] | None, custom_deck: list[str] | None = None) -> str:
    """The deck in words: ``standard``, ``standard + <special cards>`` or ``custom (<n> cards)``.

    Parameters
    ----------
    specials : iterable of str or None
        The special cards in play (their names as the run spells them).
    custom_deck : list of str, optional
        The cards of a custom deck, when one is used.

    Returns
    -------
    str
        The deck's name for headers and provenance (field ``deck``).
    """
    names = list(specials or [])
    if custom_deck:
        return f"custom ({len(custom_deck)} cards)" + (f" with {', '.join(names)}" if names else "")
    return "standard + " + ", ".join(names) if names else "standard"


def _rules_text(rules: Mapping[str, Any] | None) -> str:
    shown = {k: v for k, v in (rules or {}).items() if v is not None}
    return json.dumps(shown) if shown else "standard"


def _seats_text(strategies: list[str]) -> str:
    if strategies and all(s == strategies[0] for s in strategies):
        return f"{strategies[0]} in every seat"
    return ", ".join(strategies)


def header_line(fields: Mapping[str, Any], command: str = "") -> str:
    """One line naming the whole configuration (module docstring), from provenance-style ``fields``.

    Parameters
    ----------
    fields : mapping
        Provenance fields: ``players``, ``deck``, ``rules``, ``seed``, and whichever of ``cards``,
        ``games``/``schedule``, ``hands``, ``strategies``, ``sample``, ``wizsim_version`` apply.
    command : str, optional
        What ran (``"duplicate tournament"``, ``"bid advice"``, ...), after the version.

    Returns
    -------
    str
        ``wizsim <version> <command>: <players> players, <size>, deck <deck>, rules <rules>,
        seats <strategies>, seed <seed>, <sample>``.
    """
    parts = [f"{fields['players']} players"]
    if fields.get("games") is not None:
        sched = fields.get("schedule") or []
        parts.append(f"{fields['games']:,} games (schedule {','.join(map(str, sched))})")
    elif fields.get("hands") is not None:
        parts.append(f"{fields['hands']:,} deals of {fields.get('cards')} cards")
    elif fields.get("cards") is not None:
        parts.append(f"{fields['cards']} cards")
    parts.append(f"deck {fields['deck']}")
    parts.append(f"rules {_rules_text(fields.get('rules'))}")
    if fields.get("strategies"):
        parts.append(f"seats {_seats_text(list(fields['strategies']))}")
    parts.append(f"seed {fields.get('seed')}")
    if fields.get("sample"):
        parts.append(str(fields["sample"]))
    elif fields.get("rounds"):
        parts.append(f"{fields['rounds']:,} rounds")
    head = f"wizsim {fields.get('wizsim_version') or __version__}"
    return f"{head}{' ' + command if command else ''}: " + ", ".join(parts)
