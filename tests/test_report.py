"""``wizsim report``: README writing, caching and its invalidation (with a stand-in analysis)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from wizsim.errors import WizsimError
from wizsim.report import run_report

ANALYSIS = '''
"""A stand-in analysis: counts its runs in runs.txt next to the results."""
from pathlib import Path

NAME = "tiny"
QUESTION = "Does the report work?"
SIZES = {"quick": 1, "default": 2, "full": 3}


def run(size="default", seed=5, outdir=Path("results"), jobs=1):
    runs = outdir / "runs.txt"
    count = int(runs.read_text()) + 1 if runs.exists() else 1
    runs.write_text(str(count))
    (outdir / "tiny.csv").write_text("x,x_lo,x_hi\\n1,0,2\\n")
    return {
        "name": NAME, "question": QUESTION, "headline": f"x is 1 (95% CI 0-2), size {SIZES[size]}{MARK}",
        "sample": "1 thing", "seed": seed, "files": ["tiny.csv"],
        "command": f"python analyses/tiny.py --size {size} --seed {seed}",
    }
'''


def _write(folder: Path, mark: str = "") -> None:
    (folder / "tiny.py").write_text(textwrap.dedent(ANALYSIS).replace("{MARK}", mark))


def _runs(out: Path) -> int:
    return int((out / "runs.txt").read_text())


def test_report_writes_readme_and_caches(tmp_path, capsys):
    src, out = tmp_path / "analyses", tmp_path / "results"
    src.mkdir()
    _write(src)
    readme = run_report("quick", out, analyses=src)
    text = readme.read_text()
    assert "## Does the report work?" in text and "x is 1 (95% CI 0-2), size 1." in text
    assert "`python analyses/tiny.py --size quick --seed 5`" in text and "[tiny.csv](tiny.csv)" in text
    assert _runs(out) == 1
    run_report("quick", out, analyses=src)  # unchanged: cached
    assert _runs(out) == 1 and "(cached)" in capsys.readouterr().out
    assert readme.read_text() == text
    run_report("default", out, analyses=src)  # another size: runs
    assert _runs(out) == 2
    run_report("default", out, analyses=src, force=True)
    assert _runs(out) == 3
    _write(src, mark=" (edited)")  # the script changed: runs
    run_report("default", out, analyses=src)
    assert _runs(out) == 4 and "(edited)" in readme.read_text()
    (out / "tiny.csv").unlink()  # an output file went missing: runs
    run_report("default", out, analyses=src)
    assert _runs(out) == 5 and (out / "tiny.csv").exists()


def test_report_rejects_unknown_names_and_sizes(tmp_path):
    src = tmp_path / "analyses"
    src.mkdir()
    _write(src)
    with pytest.raises(WizsimError, match="unknown analysis nope; known: tiny"):
        run_report("quick", tmp_path / "r", only=["nope"], analyses=src)
    with pytest.raises(WizsimError, match="unknown report size"):
        run_report("huge", tmp_path / "r", analyses=src)
