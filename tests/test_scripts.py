"""Measurement scripts fail clearly: one line on stderr, exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_vs_ceiling_without_the_c_source(tmp_path):
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "vs_ceiling.py"), "--source", str(tmp_path / "missing.c")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "missing.c" in lines[0], res.stderr
    assert res.stdout == ""


def test_learned_cost_refuses_a_bad_size():
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "learned_cost.py"), "--repeats", "0"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "--repeats" in lines[0], res.stderr
    assert res.stdout == ""
