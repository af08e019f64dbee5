"""The check tool (``wizsim check FILE.jsonl``): does a recorded history obey RULES.md?

The file is read by :func:`wizsim.game.history_file.read_history` (a file it
cannot read is refused: exit status 2). Every record is then replayed by
:mod:`wizsim.game.reference`, the pure-Python rules written from RULES.md alone
(it imports nothing of wizsim, so it shares no code with the Numba engine that
wrote the file): the deal (no card twice, hand sizes, the indicator), the
trump, the bids (Canadian rule), every play (in hand, following suit), every
trick's winner and next leader, Juggler passes, Cloud bid changes and the
scores. Consecutive records of one ``seed`` and ``game`` are then checked as a
game: one game's options, the schedule of hand sizes, the last round, the
dealer (seat 0 deals round 1, then clockwise), elimination leavers and the
running totals they depend on.

A file of independent rounds (``wizsim history --cards K --hands H``) has no
schedule: its rounds are checked one by one, and as a run (the same table and
round size throughout, rounds numbered 1, 2, ..., the deal passing clockwise).
``mode="auto"`` tells the two apart: a file is games unless every record has
the same ``cards_per_player`` and the standard schedule (no variant, rounds or
schedule option that fixes a game): a standard game always deals 1, 2, ... cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import WizsimError
from ..game import reference as R
from ..game.history_file import HistoryLine, read_history

MODES = ("auto", "games", "hands")


@dataclass(frozen=True)
class Violation:
    """One broken rule: where (line, round, trick, seat; None where it does not apply), the RULES.md section, what."""

    line: int
    round: int | None
    trick: int | None
    seat: int | None
    section: str | None
    message: str

    def text(self, name: str) -> str:
        """``FILE:LINE: round R, trick T, seat S: message (RULES.md N)``."""
        where = ", ".join(
            f"{label} {value}"
            for label, value in (("round", self.round), ("trick", self.trick), ("seat", self.seat))
            if value is not None
        )
        rule = f"RULES.md {self.section}" if self.section else "HISTORY.md"
        return f"{name}:{self.line}: {where + ': ' if where else ''}{self.message} [{rule}]"


@dataclass
class CheckResult:
    """What :func:`check` found in a file: the rounds, the games (None for independent rounds), the violations."""

    path: str
    rounds: int
    games: int | None
    violations: list[Violation]

    def text(self) -> str:
        """Every violation, one per line, then a summary line."""
        lines = [v.text(self.path) for v in self.violations]
        what = f"{self.rounds} rounds" + (f" in {self.games} game(s)" if self.games is not None else " (independent)")
        if self.violations:
            lines.append(f"{self.path}: {len(self.violations)} violation(s) of the rules in {what}")
        else:
            lines.append(f"{self.path}: clean: {what} follow RULES.md")
        return "\n".join(lines)


def check(path: str | Path, mode: str = "auto") -> CheckResult:
    """Check the history at ``path`` against RULES.md.

    Parameters
    ----------
    path : str or Path
        A JSON Lines history (HISTORY.md format).
    mode : str
        ``games`` (records of whole games), ``hands`` (independent rounds) or ``auto`` (decide from the
        records; see the module's docstring).

    Returns
    -------
    CheckResult
        Every violation found, in file order.

    Raises
    ------
    WizsimError
        If the file cannot be read as a history (missing, not UTF-8, a truncated line, a missing key, ...).
    """
    if mode not in MODES:
        raise WizsimError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    lines = read_history(path)
    games = _is_games(lines) if mode == "auto" else mode == "games"
    violations: list[Violation] = []
    for hl in lines:
        for f in R.replay(hl.record):
            violations.append(_violation(f, hl.line, hl.record.get("round")))
    groups = list(_groups(lines)) if games else [lines]
    for group in groups:
        violations += _game_level(group, games)
    violations.sort(key=lambda v: v.line)
    return CheckResult(str(path), len(lines), len(groups) if games else None, violations)


def _violation(f: str, line: int, round_number: Any) -> Violation:
    def attr(name: str) -> Any:
        return getattr(f, name, None)

    number, trick, message = attr("round") or round_number, attr("trick"), str(f)
    for label, value in (("round", number), ("trick", trick)):
        if value is not None and message.startswith(f"{label} {value}: "):
            message = message[len(f"{label} {value}: ") :]  # the place is printed before the message
    return Violation(line, number, trick, attr("seat"), attr("section"), message)


def _is_games(lines: list[HistoryLine]) -> bool:
    """Whole games, unless the records look like independent rounds (one round size, standard schedule)."""
    records = [hl.record for hl in lines]
    for r in records:
        options = r["options"]
        if R.game_variant(R.normalize_options(options)) != "standard" or "rounds" in options or "schedule" in options:
            return True
    return len({r["cards_per_player"] for r in records}) > 1


def _groups(lines: list[HistoryLine]) -> Iterator[list[HistoryLine]]:
    """Runs of consecutive records with the same seed and game index."""
    group: list[HistoryLine] = []
    for hl in lines:
        if group and (hl.record["seed"], hl.record["game"]) != (group[0].record["seed"], group[0].record["game"]):
            yield group
            group = []
        group.append(hl)
    if group:
        yield group


def _line_of(group: list[HistoryLine], round_number: int | None) -> int:
    for hl in group:
        if hl.record["round"] == round_number:
            return hl.line
    return group[0].line


def _game_level(group: list[HistoryLine], games: bool) -> list[Violation]:
    """The game checks of the reference (games), or the run checks of independent rounds (hands)."""
    records = [hl.record for hl in group]
    if games:
        found = R.check_game(records, rounds_checked=True)
        return [_violation(f, _line_of(group, getattr(f, "round", None)), getattr(f, "round", None)) for f in found]
    out = []
    first = records[0]
    for index, hl in enumerate(group):
        r = hl.record
        for key in ("seed", "players", "specials", "options", "strategies", "cards_per_player", "game"):
            if r[key] != first[key]:
                out.append(Violation(hl.line, r["round"], None, None, None,
                                     f"{key} is {r[key]!r}, but the run's first round has {first[key]!r}"))  # fmt: skip
        if r["round"] != index + 1:
            out.append(Violation(hl.line, r["round"], None, None, None,
                                 f"round is {r['round']}, expected {index + 1}: a run numbers its rounds 1, 2, ..."))  # fmt: skip
        expected = (r["round"] - 1) % r["players"]
        if r["dealer"] != expected:
            out.append(Violation(hl.line, r["round"], None, r["dealer"], "2",
                                 f"dealer is seat {r['dealer']}, expected seat {expected}"
                                 " (seat 0 deals round 1 and the deal passes clockwise every round)"))  # fmt: skip
    return out
