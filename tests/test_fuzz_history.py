"""Property-based tests (hypothesis) of the history reader and ``wizsim check`` (issue 29).

Mutations of valid records (a key deleted, renamed, duplicated, its value retyped,
out of range or huge; a list shortened or lengthened; a nested value replaced),
a small valid file truncated at every byte, invalid UTF-8 anywhere. Property: the
reader either accepts the file, and then ``wizsim check`` runs to its end (any
broken rule is a violation, never a crash), or it refuses it with one WizsimError
line naming the line. Pure Python: nothing is compiled.

Generated cases per parser:

====================================================  =====================
test                                                   cases
====================================================  =====================
record mutations (read_history + check)                200
nested value mutations (hands, tricks, options)        200
invalid UTF-8 inserted                                 100
a valid file truncated at every byte                   every byte of a
                                                       4-round file (~3,700)
====================================================  =====================

Plus a handful of CLI runs (subprocess, not hypothesis): ``review`` and ``check``
exit 2 with one line and no traceback on the issue's corrupted files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizsim.errors import WizsimError
from wizsim.game.history_file import REQUIRED_KEYS, read_history
from wizsim.tools.check import check

GOLDEN = Path(__file__).parent / "golden"
SMALL = GOLDEN / "schedule_1_3_5_3p_werewolf.jsonl"  # 4 short rounds
SOURCES = [SMALL, GOLDEN / "juggler_4p.jsonl", GOLDEN / "elimination_6p.jsonl", GOLDEN / "cloud_4p.jsonl"]
RECORDS = {p.name: [json.loads(x) for x in p.read_text().splitlines()] for p in SOURCES}

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def accepted_or_refused(path: Path) -> bool:
    """True if read, False if refused in one line naming a line; a check of a read file runs to the end."""
    try:
        lines = read_history(path)
    except WizsimError as exc:
        msg = str(exc)
        assert "\n" not in msg and msg, msg
        assert " line " in msg or " is empty" in msg, msg
        return False
    assert lines
    result = check(path)  # any exception but a WizsimError fails the test
    assert all("\n" not in v.message for v in result.violations)
    return True


def write_lines(tmp_path: Path, records: list, name: str = "m.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return p


@st.composite
def mutated_file(draw):
    name = draw(st.sampled_from(sorted(RECORDS)))
    records = json.loads(json.dumps(RECORDS[name]))
    i = draw(st.integers(0, len(records) - 1))
    record = records[i]
    key = draw(st.sampled_from(sorted(record)))
    how = draw(st.sampled_from(["delete", "rename", "retype", "range", "huge", "shorten", "lengthen", "duplicate"]))
    value = record[key]
    if how == "delete":
        del record[key]
    elif how == "rename":
        record[key + draw(st.sampled_from(["s", "_", "x"]))] = record.pop(key)
    elif how == "retype":
        record[key] = draw(JSON_VALUES)
    elif how == "range":
        record[key] = draw(st.sampled_from([-1, 0, 1, 2, 7, 99, 2**64]))
    elif how == "huge":
        text = json.dumps(record).replace(json.dumps(key) + ": " + json.dumps(value), f'"{key}": 1{"0" * 5000}', 1)
        records[i] = text
    elif how in ("shorten", "lengthen") and isinstance(value, list) and value:
        record[key] = value[:-1] if how == "shorten" else [*value, value[-1]]
    elif how == "duplicate":
        text = json.dumps(record)
        records[i] = text[:-1] + f', "{key}": {json.dumps(value)}' + "}"
    return records, (i, key, how)


@SETTINGS
@given(mutated_file())
def test_a_mutated_record_is_read_or_refused_never_a_crash(tmp_path, case):
    records, (i, key, how) = case
    path = write_lines(tmp_path, records)
    ok = accepted_or_refused(path)
    if how in ("delete", "rename", "duplicate", "huge") and key in REQUIRED_KEYS:
        assert not ok, (key, how)  # a missing, misspelled or repeated key is never accepted


@st.composite
def nested_mutation(draw):
    name = draw(st.sampled_from(sorted(RECORDS)))
    records = json.loads(json.dumps(RECORDS[name]))
    record = records[draw(st.integers(0, len(records) - 1))]
    target = draw(st.sampled_from(["hands", "tricks", "options", "bids", "werewolf", "scores"]))
    value = record[target]
    replacement = draw(JSON_VALUES)
    if isinstance(value, list) and value:
        j = draw(st.integers(0, len(value) - 1))
        inner = value[j]
        if isinstance(inner, dict) and inner:
            inner[draw(st.sampled_from(sorted(inner)))] = replacement
        elif isinstance(inner, list) and inner:
            inner[draw(st.integers(0, len(inner) - 1))] = replacement
        else:
            value[j] = replacement
    elif isinstance(value, dict) and value:
        value[draw(st.sampled_from(sorted(value)))] = replacement
    else:
        record[target] = replacement
    return records


@SETTINGS
@given(nested_mutation())
def test_a_mutated_nested_value_is_read_or_refused_never_a_crash(tmp_path, records):
    accepted_or_refused(write_lines(tmp_path, records))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, SMALL.stat().st_size), st.sampled_from([b"\xff", b"\xc3", b"\xe9", b"\x80\x80", b"\xed\xa0\x80"]))
def test_invalid_utf8_is_refused_with_its_line(tmp_path, at, junk):
    data = SMALL.read_bytes()
    p = tmp_path / "bad.jsonl"
    p.write_bytes(data[:at] + junk + data[at:])
    line = data.count(b"\n", 0, at) + 1
    with pytest.raises(WizsimError, match="not UTF-8") as exc:
        read_history(p)
    assert f"line {line}:" in str(exc.value)


def test_a_small_file_truncated_at_every_byte(tmp_path):
    data = SMALL.read_bytes()
    ends = {i + 1 for i, b in enumerate(data) if b == ord("\n")}
    p = tmp_path / "cut.jsonl"
    accepted = 0
    for cut in range(len(data) + 1):
        p.write_bytes(data[:cut])
        try:
            lines = read_history(p)
        except WizsimError as exc:
            assert "\n" not in str(exc)
            assert cut not in ends or cut == 0
            continue
        accepted += 1
        whole = data[:cut].count(b"\n") + (0 if cut in ends else 1)
        assert len(lines) == whole  # a cut just before a newline leaves whole lines: all read
        assert cut in ends or data[cut : cut + 1] == b"\n"
    assert accepted == len(ends) + len(ends)  # at each line's end, with or without its newline


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wizsim.cli", *args], capture_output=True, text=True)


def test_cli_refuses_the_issues_corrupted_histories_in_one_line(tmp_path):
    src = (GOLDEN / "standard_3p.jsonl").read_text().splitlines()
    first = json.loads(src[0])
    misspelled = dict(first)
    misspelled["bds"] = misspelled.pop("bids")
    wrong_players = dict(first, players=4)
    cases = {
        "misspelled.jsonl": (json.dumps(misspelled) + "\n").encode(),
        "players.jsonl": (json.dumps(wrong_players) + "\n").encode(),
        "latin1.jsonl": src[0].encode() + b"\n" + src[1].encode().replace(b'"seed"', b'"s\xe9ed"') + b"\n",
        "empty_object.jsonl": b"{}\n",
        "empty.jsonl": b"",
        "truncated.jsonl": src[0].encode() + b"\n" + src[1][:300].encode(),
    }
    expect = {"misspelled.jsonl": "'bds'", "players.jsonl": "4 seats", "latin1.jsonl": "not UTF-8",
              "empty_object.jsonl": "'seed'", "empty.jsonl": "is empty", "truncated.jsonl": "line 2"}  # fmt: skip
    for name, data in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        for cmd in (["review", str(p), "--seat", "0", "--samples", "10"], ["check", str(p)]):
            res = _cli(*cmd)
            assert res.returncode == 2, (name, cmd[0], res.stdout, res.stderr)
            assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
            assert expect[name] in res.stderr, (name, res.stderr)
            assert res.stdout == ""


def test_review_refuses_a_record_that_breaks_the_rules(tmp_path):
    records = RECORDS[SMALL.name]
    bad = json.loads(json.dumps(records))
    bad[1]["scores"][0] += 10
    res = _cli("review", str(write_lines(tmp_path, bad)), "--seat", "0", "--samples", "10")
    assert res.returncode == 2 and "line 2 breaks the rules (RULES.md 8)" in res.stderr, res.stderr
