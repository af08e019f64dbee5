"""Reading a hand history (``../shared/HISTORY.md``, JSON Lines) strictly: every line, key and value checked.

:func:`read_history` is the one reader of history files (``wizsim review``,
``wizsim check``). It refuses, with one :class:`wizsim.errors.WizsimError`
line naming the file, the line, the key and what the key must hold:

- a file that is missing, empty, not UTF-8, or has a blank line;
- a line that is not one complete JSON object (a truncated line), or repeats a key;
- a record with a missing or unknown key (a misspelled key is named with the key it resembles);
- a value of the wrong type or out of range for the record's table: ``players`` 3..6, a seat
  0..players-1, a list with one entry per seat (``hands``, ``bids``, ...), ``cards_per_player``
  cards in each hand, one trick per card, one card per seat in each trick, card names in
  RULES.md notation, option values of HISTORY.md's lists.

It checks the format only. Whether the record obeys the rules (the deal, the
plays, the winners, the scores) is :func:`wizsim.tools.check.check_records`' job.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import WizsimError

#: the keys HISTORY.md requires in every record, in its order
REQUIRED_KEYS = (
    "seed", "game", "players", "round", "cards_per_player", "dealer", "specials", "options", "strategies",
    "hands", "indicator", "werewolf", "trump", "bids", "tricks", "tricks_won", "final_bids", "scores",
)  # fmt: skip
#: keys wizsim writes in some runs: ``seats`` (elimination), ``deck`` (a custom deck), ``legal`` (``--legal``)
OPTIONAL_KEYS = ("seats", "deck", "legal")
OPTION_VALUES = {
    "scoring": ("standard", "progressive"),
    "bomb": ("void_trick", "cancel_bids"),
    "wizard_indicator": ("dealer_chooses", "no_trump"),
    "werewolf": ("must", "may"),
    "hidden_bids": ("off", "simultaneous", "secret"),
    "passive_indicator": ("dealer_chooses", "no_trump"),
}
REQUIRED_OPTIONS = ("canadian", "scoring", "bomb", "wizard_indicator", "werewolf", "variant", "hidden_bids")
VARIANT_PARTS = ("standard", "clairvoyance", "mono", "maximus", "elimination")
SPECIAL_NAMES = ("Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter")
TRUMPS = ("B", "R", "G", "Y")
TRICK_KEYS = ("leader", "cards", "winner", "next_leader")
MAX_SEED = 2**64 - 1
MAX_DECK = 67  # 60 cards and the seven specials


@dataclass(frozen=True)
class HistoryLine:
    """One record of a history file and the line it is on (1-based).

    Parameters
    ----------
    line : int
        The record's line in the file, 1-based.
    record : dict
        The record (one HISTORY.md round), as read from JSON.
    """

    line: int
    record: dict[str, Any]


class _Fail:
    """Raises the one-line error of a record: ``FILE line N, key K: what is wrong; what it must be``."""

    def __init__(self, name: str, line: int):
        self.name, self.line = name, line

    def __call__(self, key: str, message: str) -> WizsimError:
        return WizsimError(f"{self.name} line {self.line}, key {key!r}: {message} (HISTORY.md)")


def _shown(value: Any, limit: int = 50) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def read_history(path: str | Path) -> list[HistoryLine]:
    """Every record of the history file at ``path``, each checked against HISTORY.md.

    Parameters
    ----------
    path : str or Path
        A JSON Lines file, one round per line (e.g. written by ``wizsim history``). The last line may
        lack its newline.

    Returns
    -------
    list of HistoryLine
        The records with their line numbers, in file order (at least one).

    Raises
    ------
    WizsimError
        On the first problem, naming the line and the key and saying what it must hold.
    """
    p = Path(path)
    if not p.is_file():
        raise WizsimError(f"no history file {p}: give a JSON Lines file written by wizsim history")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise WizsimError(f"cannot read {p}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise WizsimError(
            f"{p} line {line}: byte {exc.start} is not UTF-8 ({data[exc.start : exc.start + 1]!r});"
            " a history is UTF-8 text: save the file as UTF-8"
        ) from None
    if not text.strip():
        raise WizsimError(f"{p} is empty: a history has one JSON object per line, one line per round")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    out = []
    for number, raw in enumerate(lines, 1):
        fail = _Fail(str(p), number)
        if not raw.strip():
            raise WizsimError(f"{p} line {number} is blank: every line is one round; remove the blank line")
        out.append(HistoryLine(number, check_record(_parse_line(raw, str(p), number), fail)))
    return out


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


class _DuplicateKey(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse_line(raw: str, name: str, number: int) -> dict[str, Any]:
    where = f"{name} line {number}"
    try:
        record = json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _DuplicateKey as exc:
        raise WizsimError(f"{where}: key {exc.args[0]!r} is given twice in one object; keep one") from None
    except json.JSONDecodeError as exc:
        raise WizsimError(
            f"{where}: not a complete JSON object ({exc.msg} at column {exc.colno}); a truncated or"
            " hand-edited line? Each line must be one whole round"
        ) from None
    except (ValueError, RecursionError) as exc:  # NaN, a number of over 4300 digits, absurd nesting
        raise WizsimError(f"{where}: not a valid JSON line ({str(exc)[:80]})") from None
    if not isinstance(record, dict):
        raise WizsimError(f"{where}: a line must be a JSON object {{...}}, got {type(record).__name__}")
    return record


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _whole(fail: _Fail, key: str, value: Any, lo: int, hi: int | None = None) -> int:
    if not _is_int(value) or value < lo or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise fail(key, f"is {_shown(value)}; it must be a whole number {span}")
    return int(value)


def _per_seat(fail: _Fail, key: str, value: Any, n: int, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        got = f"{len(value)} entries" if isinstance(value, list) else _shown(value)
        raise fail(key, f"has {got}; it must list {what} for each of the {n} seats")
    return value


def _card(fail: _Fail, key: str, value: Any, played: bool = False) -> str:
    from . import cards as C

    if not isinstance(value, str):
        raise fail(key, f"has {_shown(value)}, not a card name; write cards as in RULES.md 1 (B13, W, J, Dragon)")
    try:
        code = C.form_code(value) if played else C.card_code(value)
    except WizsimError:
        raise fail(key, f"has {value!r}, not a card; write cards as in RULES.md 1 (B13, W, J, Dragon)") from None
    if played and code in (C.JUGGLER, C.CLOUD, C.SHAPESHIFTER):
        how = "Shapeshifter:W or Shapeshifter:J" if code == C.SHAPESHIFTER else f"{value}:B (its suit)"
        raise fail(key, f"has {value!r} without how it was played; write {how}")
    if not played and code >= C.N_TYPES:
        raise fail(
            key, f"has the played form {value!r}; a hand holds the card itself ({C.card_name(C.CARD_OF_FORM[code])})"
        )
    return value


def _unknown(fail: _Fail, key: str, known: tuple[str, ...], where: str) -> WizsimError:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
    return fail(key, f"is not a key of {where}; {hint}")


def check_record(record: Any, fail: Callable[[str, str], WizsimError] | None = None) -> dict[str, Any]:
    """``record`` (one parsed line) if it has HISTORY.md's keys, types and table; else a WizsimError.

    ``fail(key, message)`` builds the error (:func:`read_history` names the file and the line).
    """
    f: Any = fail or _Fail("record", 0)
    if not isinstance(record, dict):
        raise WizsimError(f"a record must be a JSON object, got {type(record).__name__}")
    known = REQUIRED_KEYS + OPTIONAL_KEYS
    for key in record:
        if key not in known:
            raise _unknown(f, key, known, "a record")
    for key in REQUIRED_KEYS:
        if key not in record:
            raise f(key, "is missing; every record has " + ", ".join(REQUIRED_KEYS))
    _whole(f, "seed", record["seed"], 0, MAX_SEED)
    _whole(f, "game", record["game"], 0)
    n = _whole(f, "players", record["players"], 3, 6)
    _whole(f, "round", record["round"], 1)
    k = _whole(f, "cards_per_player", record["cards_per_player"], 1, MAX_DECK // n)
    _whole(f, "dealer", record["dealer"], 0, n - 1)
    _check_specials(f, record["specials"])
    _check_options(f, record["options"])
    for s in _per_seat(f, "strategies", record["strategies"], n, "a strategy name"):
        if not isinstance(s, str) or not s.strip():
            raise f("strategies", f"has {_shown(s)}; each seat's strategy is a name, like heuristic")
    for s, hand in enumerate(_per_seat(f, "hands", record["hands"], n, "the hand dealt")):
        if not isinstance(hand, list) or len(hand) != k:
            got = f"{len(hand)} cards" if isinstance(hand, list) else _shown(hand)
            raise f(f"hands[{s}]", f"has {got}; each hand is a list of cards_per_player = {k} cards")
        for card in hand:
            _card(f, f"hands[{s}]", card)
    if record["indicator"] is not None:
        _card(f, "indicator", record["indicator"])
    _check_werewolf(f, record["werewolf"], n)
    if record["trump"] is not None and record["trump"] not in TRUMPS:
        raise f("trump", f"is {_shown(record['trump'])}; it must be B, R, G, Y or null (no trump)")
    for key, lo, hi, what in (("bids", 0, k, "a bid"), ("tricks_won", 0, k, "the tricks won"),
                              ("final_bids", 0, k + 1, "the bid after a Cloud change")):  # fmt: skip
        for s, value in enumerate(_per_seat(f, key, record[key], n, what)):
            _whole(f, f"{key}[{s}]", value, lo, hi)
    for s, value in enumerate(_per_seat(f, "scores", record["scores"], n, "the round's points")):
        if not _is_int(value) or abs(value) > 10**6:
            raise f(f"scores[{s}]", f"has {_shown(value)}; each score is a whole number of points")
    _check_tricks(f, record["tricks"], n, k)
    _check_optional(f, record, n, k)
    return record


def _check_specials(f: Any, specials: Any) -> None:
    if not isinstance(specials, list):
        raise f("specials", f'is {_shown(specials)}; it must be a list of special cards, e.g. ["Dragon", "Fairy"]')
    for s in specials:
        if s not in SPECIAL_NAMES:
            raise f("specials", f"has {_shown(s)}; the special cards are {', '.join(SPECIAL_NAMES)}")
    if len(set(specials)) != len(specials):
        raise f("specials", "names a special card twice; the deck has one of each")


def _check_options(f: Any, options: Any) -> None:
    if not isinstance(options, dict):
        raise f("options", f"is {_shown(options)}; it must be an object of the rules in force")
    known = (*REQUIRED_OPTIONS, "passive_indicator", "rounds", "schedule")
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"known options: {', '.join(known)}"
            raise f("options", f"has the unknown rule {key!r}; {hint}")
    for key in REQUIRED_OPTIONS:
        if key not in options:
            raise f("options", f"has no {key!r}; it must give at least {', '.join(REQUIRED_OPTIONS)}")
    if not isinstance(options["canadian"], bool):
        raise f("options", f"has canadian {_shown(options['canadian'])}; it must be true or false")
    for key, values in OPTION_VALUES.items():
        if key in options and options[key] not in values:
            raise f("options", f"has {key} {_shown(options[key])}; it must be one of {', '.join(values)}")
    variant = options["variant"]
    if not isinstance(variant, str) or not all(part in VARIANT_PARTS for part in variant.split("+")):
        raise f("options", f"has variant {_shown(variant)}; use {', '.join(VARIANT_PARTS)} (or x+clairvoyance)")
    if "rounds" in options and not (_is_int(options["rounds"]) and 1 <= options["rounds"] <= 90):
        raise f("options", f"has rounds {_shown(options['rounds'])}; it must be a whole number of rounds >= 1")
    if "schedule" in options:
        sched = options["schedule"]
        if not isinstance(sched, list) or not sched or not all(_is_int(x) and 1 <= x <= 30 for x in sched):
            raise f("options", f"has schedule {_shown(sched)}; it must be a list of hand sizes, e.g. [1, 3, 5]")


def _check_werewolf(f: Any, wolf: Any, n: int) -> None:
    if wolf is None:
        return
    if not isinstance(wolf, dict) or set(wolf) != {"seat", "swapped"}:
        raise f("werewolf", f'is {_shown(wolf)}; it must be null or {{"seat": s, "swapped": true/false}}')
    _whole(f, "werewolf", wolf["seat"], 0, n - 1)
    if not isinstance(wolf["swapped"], bool):
        raise f("werewolf", f"has swapped {_shown(wolf['swapped'])}; it must be true or false")


def _check_tricks(f: Any, tricks: Any, n: int, k: int) -> None:
    if not isinstance(tricks, list) or len(tricks) != k:
        got = f"{len(tricks)} tricks" if isinstance(tricks, list) else _shown(tricks)
        raise f("tricks", f"has {got}; a round of {k} cards has {k} tricks, in order")
    for t, trick in enumerate(tricks, 1):
        key = f"tricks[{t}]"
        if not isinstance(trick, dict):
            raise f(key, f"is {_shown(trick)}; each trick is an object with {', '.join(TRICK_KEYS)}")
        for name in trick:
            if name not in (*TRICK_KEYS, "passes"):
                raise _unknown(f, f"{key}.{name}", (*TRICK_KEYS, "passes"), "a trick")
        for name in TRICK_KEYS:
            if name not in trick:
                raise f(key, f"has no {name!r}; each trick has {', '.join(TRICK_KEYS)}")
        _whole(f, f"{key}.leader", trick["leader"], 0, n - 1)
        _whole(f, f"{key}.next_leader", trick["next_leader"], 0, n - 1)
        if trick["winner"] is not None:
            _whole(f, f"{key}.winner", trick["winner"], 0, n - 1)
        for card in _per_seat(f, f"{key}.cards", trick["cards"], n, "the card played"):
            _card(f, f"{key}.cards", card, played=True)
        if "passes" in trick:
            for card in _per_seat(f, f"{key}.passes", trick["passes"], n, "the card passed"):
                _card(f, f"{key}.passes", card)


def _check_optional(f: Any, record: dict[str, Any], n: int, k: int) -> None:
    if "seats" in record:
        seats = _per_seat(f, "seats", record["seats"], n, "the game seat")
        for s in seats:
            _whole(f, "seats", s, 0, 5)
        if len(set(seats)) != n:
            raise f("seats", f"is {_shown(seats)}; each game seat appears once")
    if "deck" in record:
        deck = record["deck"]
        if not isinstance(deck, list) or not deck:
            raise f("deck", f"is {_shown(deck)}; it must be the list of the deck's cards")
        for card in deck:
            _card(f, "deck", card)
    if "legal" in record:
        legal = record["legal"]
        if not isinstance(legal, list) or len(legal) != k:
            raise f("legal", f"is {_shown(legal)}; it must list, per trick, per card, the legal cards")
        for per_trick in legal:
            for cards in _per_seat(f, "legal", per_trick, n, "the legal cards"):
                if not isinstance(cards, list) or not cards:
                    raise f("legal", f"has {_shown(cards)}; each entry is a non-empty list of cards")
                for card in cards:
                    _card(f, "legal", card)
