"""Measurement scripts fail clearly: one line on stderr, exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _refused_in_one_line(script: str, args: list[str], names: str) -> None:
    """``scripts/<script> ARGS`` exits 2 with one ``error:`` line on stderr naming ``names``, nothing on stdout."""
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args], capture_output=True, text=True, timeout=600
    )
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and names in lines[0], res.stderr
    assert res.stdout == ""


def test_vs_ceiling_without_the_c_source(tmp_path):
    _refused_in_one_line("vs_ceiling.py", ["--source", str(tmp_path / "missing.c")], "missing.c")


def test_learned_cost_refuses_a_bad_size():
    _refused_in_one_line("learned_cost.py", ["--repeats", "0"], "--repeats")


def test_ismcts_match_refuses_a_bad_size(tmp_path):
    for args in (["--deals", "0"], ["--sims", "0"], ["--jobs", "0"], ["--uct", "0"]):
        _refused_in_one_line("ismcts_match.py", [*args, "--out", str(tmp_path / "m.csv")], "--deals")
    assert not (tmp_path / "m.csv").exists()


def test_train_learned_refuses_to_overwrite_a_shipped_generation():
    """A new generation (--teacher) needs a file of its own: a shipped generation's file, or none, is refused
    before any work (the default generation's teacher would read the file it overwrites)."""
    from wizsim.players.learned_data import GENERATIONS

    before = {g: p.stat().st_mtime_ns for g, p in GENERATIONS.items()}
    for extra in ([], ["--out", str(GENERATIONS[3])], ["--out", str(GENERATIONS[1])]):
        res = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "train_learned.py"), "--teacher", "pimc(prune=0,gen=3)", *extra],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        assert "--out" in res.stderr.strip().splitlines()[-1]
    assert {g: p.stat().st_mtime_ns for g, p in GENERATIONS.items()} == before
