"""``wizsim check``: every golden game is clean, and a corruption of each kind is caught and placed.

The checker is wizsim.tools.check over the reference rules (wizsim.game.reference, no Numba):
these tests compile nothing and run in about a second, plus three short CLI runs.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from wizsim.game import reference as R
from wizsim.tools.check import check

GOLDEN = Path(__file__).parent / "golden"
DATA = Path(__file__).parent / "data"
GAMES = sorted(GOLDEN.glob("*.jsonl"))


def _records(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def _write(tmp_path: Path, records: list[dict], name: str = "h.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in records))
    return p


@pytest.mark.parametrize("path", GAMES + sorted(DATA.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_golden_game_and_recorded_history_is_clean(path):
    result = check(path)
    assert result.violations == []
    assert result.rounds == len(path.read_text().splitlines())
    assert (result.games == 1) == (path.parent == GOLDEN)  # golden files are one game each; data/ holds hands


# --- corruptions: (golden file, what it breaks, the RULES.md section, the change) -------------------


def _card_twice(records):
    r = records[2]  # round 3 of 3 players: 3 cards each
    r["hands"][1][0] = r["hands"][0][0]
    return 2


def _indicator_in_hand(records):
    r = records[3]
    r["indicator"] = r["hands"][2][1]
    return 3


def _indicator_missing(records):
    r = records[3]
    r["indicator"] = None
    return 3


def _not_in_hand(records):
    r = records[4]
    held = {c for h in r["hands"] for c in h} | {r["indicator"]}
    stranger = next(c for c in (f"{s}{v}" for s in "BRGY" for v in range(1, 14)) if c not in held)
    r["tricks"][0]["cards"][1] = stranger
    return 4


def _winner(records):
    r = records[5]
    t = r["tricks"][0]
    t["winner"] = (t["winner"] + 1) % r["players"]
    return 5


def _canadian(records):
    r = records[4]  # standard_6p_canadian_progressive, round 5
    k, dealer = r["cards_per_player"], r["dealer"]
    others = sum(b for s, b in enumerate(r["bids"]) if s != dealer)
    if others > k:
        pytest.skip("the others already bid more than k")
    r["bids"][dealer] = k - others
    return 4


def _score(records):
    records[6]["scores"][0] += 10
    return 6


def _dealer(records):
    r = records[7]
    r["dealer"] = (r["dealer"] + 1) % r["players"]
    return 7


def _missing_round(records):
    del records[9]
    return 9  # the record after the gap is reported


def _trump(records):
    r = next(x for x in records if x["indicator"] and x["indicator"][0] in "BRGY" and x["indicator"][1:].isdigit())
    r["trump"] = next(s for s in "BRGY" if s != r["indicator"][0])
    return records.index(r)


def _must_follow(records):
    """Swap two of a seat's plays so that it shows out of the led suit while holding it."""
    for i, r in enumerate(records):
        n = r["players"]
        for a, ta in enumerate(r["tricks"]):
            led = ta["cards"][0]
            if led[0] not in "BRGY" or not led[1:].isdigit():
                continue
            for j in range(1, n):
                mine = ta["cards"][j]
                seat = (ta["leader"] + j) % n
                if not (mine[0] == led[0] and mine[1:].isdigit()):
                    continue
                for b in range(a + 1, len(r["tricks"])):
                    tb = r["tricks"][b]
                    jb = (seat - tb["leader"]) % n
                    other = tb["cards"][jb]
                    if other[0] in "BRGY" and other[0] != led[0] and other[1:].isdigit():
                        ta["cards"][j], tb["cards"][jb] = other, mine
                        return i
    raise AssertionError("no play to swap")


CORRUPTIONS: list[tuple[str, str, str, Callable[[list[dict]], int]]] = [
    ("standard_3p", "a card dealt twice", "1", _card_twice),
    ("standard_3p", "the indicator also in a hand", "1", _indicator_in_hand),
    ("standard_3p", "no indicator with cards left", "3", _indicator_missing),
    ("standard_3p", "a card played that is not in the hand", "5", _not_in_hand),
    ("standard_3p", "not following suit", "5", _must_follow),
    ("standard_3p", "the wrong trick winner", "6", _winner),
    ("standard_3p", "a trump that is not the indicator's suit", "3", _trump),
    ("standard_6p_canadian_progressive", "bids adding up to k under the Canadian rule", "4", _canadian),
    ("standard_3p", "a wrong score", "8", _score),
    ("standard_3p", "the wrong dealer", "2", _dealer),
    ("standard_3p", "a round missing from the schedule", "2", _missing_round),
]


@pytest.mark.parametrize("name, what, section, corrupt", CORRUPTIONS, ids=[c[1] for c in CORRUPTIONS])
def test_a_corruption_of_each_kind_is_caught_with_its_place_and_rule(tmp_path, name, what, section, corrupt):
    records = _records(GOLDEN / f"{name}.jsonl")
    index = corrupt(records)
    result = check(_write(tmp_path, records))
    assert result.violations, what
    lines = {v.line for v in result.violations if v.section == section}
    assert index + 1 in lines, (what, [v.text("h") for v in result.violations])


def test_violations_name_the_trick_and_the_seat(tmp_path):
    records = _records(GOLDEN / "standard_3p.jsonl")
    _winner(records)
    (v,) = [v for v in check(_write(tmp_path, records)).violations if v.section == "6" and "winner" in v.message]
    assert (v.line, v.round, v.trick) == (6, 6, 1)
    text = v.text("h.jsonl")
    assert text.startswith("h.jsonl:6: round 6, trick 1: winner is") and text.endswith("[RULES.md 6]")
    records = _records(GOLDEN / "standard_3p.jsonl")
    _not_in_hand(records)
    found = [v for v in check(_write(tmp_path, records)).violations if "not in their hand" in v.message]
    assert found and found[0].seat == (records[4]["tricks"][0]["leader"] + 1) % 3 and found[0].trick == 1


def test_elimination_leaver_and_game_totals(tmp_path):
    records = _records(GOLDEN / "elimination_6p.jsonl")
    assert R.check_game(records) == []
    r10 = records[9]  # after round 10 one of six leaves: the one with the lowest total
    gone = (set(r10["seats"] if "seats" in r10 else range(6)) - set(records[10]["seats"])).pop()
    r10["scores"][r10.get("seats", list(range(6))).index(gone)] += 1000  # now it was not the lowest
    found = check(_write(tmp_path, records)).violations
    assert any(v.section == "8" and v.line == 10 for v in found)  # the round's score itself
    assert any(v.section == "9" and "lowest total" in v.message for v in found)  # and who left


def test_independent_rounds_are_checked_as_a_run(tmp_path):
    records = _records(DATA / "pimc_4x6.jsonl")
    assert check(_write(tmp_path, records)).games is None
    records[3]["dealer"] = (records[3]["dealer"] + 1) % 4
    records[5]["round"] = 99
    found = check(_write(tmp_path, copy.deepcopy(records))).violations
    assert any(v.line == 4 and v.section == "2" and "dealer" in v.message for v in found)
    assert any(v.line == 6 and "expected 6" in v.message for v in found)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wizsim.cli", *args], capture_output=True, text=True)


def test_cli_exit_status_0_clean_1_violations_2_unreadable(tmp_path):
    clean = _cli("check", str(GOLDEN / "juggler_4p.jsonl"))
    assert clean.returncode == 0, clean.stderr
    assert "clean" in clean.stdout
    records = _records(GOLDEN / "standard_3p.jsonl")
    _score(records)
    _winner(records)
    bad = _cli("check", str(_write(tmp_path, records)))
    assert bad.returncode == 1, bad.stderr
    assert "[RULES.md 8]" in bad.stdout and "[RULES.md 6]" in bad.stdout and "violation(s)" in bad.stdout
    broken = tmp_path / "t.jsonl"
    broken.write_text((GOLDEN / "standard_3p.jsonl").read_text()[:500])
    unreadable = _cli("check", str(broken))
    assert unreadable.returncode == 2
    assert unreadable.stderr.count("\n") == 1 and "line 1" in unreadable.stderr and "Traceback" not in unreadable.stderr
