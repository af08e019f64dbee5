"""``wizsim report``: README writing, caching and its invalidation (with a stand-in analysis).

Also the precision rule: tables written by ``wizsim report`` and by an
analysis script's command line give floats to 8 significant digits (the same
bytes on every machine); outside them (``simulate --out``) floats keep full
precision.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from wizsim.errors import WizsimError
from wizsim.report.report import PRECISION_NOTE, analysis_main, run_report
from wizsim.run.io import RESULTS_FLOAT_FORMAT, csv_float_format, write_table

ANALYSIS = '''
"""A stand-in analysis: counts its runs in runs.txt next to the results."""
from pathlib import Path

import pandas as pd

from wizsim.run.io import write_table

NAME = "tiny"
QUESTION = "Does the report work?"
SIZES = {"quick": 1, "default": 2, "full": 3}


def run(size="default", seed=5, outdir=Path("results"), jobs=1):
    runs = outdir / "runs.txt"
    count = int(runs.read_text()) + 1 if runs.exists() else 1
    runs.write_text(str(count))
    (outdir / "tiny.csv").write_text("x,x_lo,x_hi\\n1,0,2\\n")
    write_table(pd.DataFrame({FLOATS}), outdir / "tiny_floats.csv")
    return {
        "name": NAME, "question": QUESTION, "headline": f"x is 1 (95% CI 0-2), size {SIZES[size]}{MARK}",
        "sample": "1 thing", "seed": seed, "files": ["tiny.csv", "tiny_floats.csv"],
        "command": f"python analyses/tiny.py --size {size} --seed {seed}",
    }
'''


#: floats whose full-precision text has 16-17 significant digits, and the same at 8 (``%.8g``)
FLOATS = {
    "third": [1 / 3, 2e6 / 3, 1e-7 / 3, 0.1 + 0.2, 30.0, -7 / 9],
    "n": [1, 2, 3, 4, 5, 6],
}
FLOATS_8 = {
    "third": ["0.33333333", "666666.67", "3.3333333e-08", "0.3", "30", "-0.77777778"],
    "n": ["1", "2", "3", "4", "5", "6"],
}


def _write(folder: Path, mark: str = "") -> None:
    text = textwrap.dedent(ANALYSIS).replace("{MARK}", mark).replace("{FLOATS}", repr(FLOATS))
    (folder / "tiny.py").write_text(text)


def _significant_digits(field: str) -> int:
    """Significant digits of a number as written (``"0.0012345678"``: 8, ``"1.25e-05"``: 3)."""
    return len(field.lstrip("+-").lower().split("e")[0].replace(".", "").strip("0"))


def _columns(path: Path) -> dict[str, list[str]]:
    header, *rows = (line.split(",") for line in path.read_text().splitlines())
    return {name: [r[i] for r in rows] for i, name in enumerate(header)}


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


def test_report_writes_csv_floats_at_8_significant_digits(tmp_path):
    src, out = tmp_path / "analyses", tmp_path / "results"
    src.mkdir()
    _write(src)
    readme = run_report("quick", out, analyses=src)
    assert PRECISION_NOTE in readme.read_text()
    written = _columns(out / "tiny_floats.csv")
    assert written == FLOATS_8
    assert all(_significant_digits(f) <= 8 for f in written["third"])
    # read back, every figure agrees with the float it came from to 8 significant digits
    back = pd.read_csv(out / "tiny_floats.csv")
    assert back.third.to_numpy() == pytest.approx(FLOATS["third"], rel=1e-7)  # half a unit in the 8th digit


def test_analysis_command_line_writes_csv_floats_at_8_significant_digits(tmp_path, monkeypatch, capsys):
    def run(size, seed, outdir, jobs):
        write_table(pd.DataFrame(FLOATS), outdir / "t.csv")
        return {"headline": "done"}

    monkeypatch.setattr(sys, "argv", ["tiny.py", "--size", "quick", "--out", str(tmp_path)])
    analysis_main(run, "Does the command line work?", {"quick": 1})
    assert capsys.readouterr().out.strip() == "done"
    assert _columns(tmp_path / "t.csv") == FLOATS_8


def test_write_table_keeps_full_precision_outside_results(tmp_path):
    """``simulate --out`` writes outside the report: floats read back exactly."""
    write_table(pd.DataFrame(FLOATS), tmp_path / "full.csv")
    back = pd.read_csv(tmp_path / "full.csv")
    assert back.third.tolist() == FLOATS["third"]
    with csv_float_format(RESULTS_FLOAT_FORMAT):
        write_table(pd.DataFrame(FLOATS), tmp_path / "results.csv")
    write_table(pd.DataFrame(FLOATS), tmp_path / "full_again.csv")  # the setting ends with its block
    assert _columns(tmp_path / "results.csv") == FLOATS_8
    assert (tmp_path / "full_again.csv").read_text() == (tmp_path / "full.csv").read_text()


def test_source_digest_covers_the_sibling_analyses_a_script_uses(tmp_path):
    from wizsim.report.report import _source_digest

    (tmp_path / "user.py").write_text('USES = ("helper",)\nNAME = "user"\n')
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "other.py").write_text("Y = 1\n")
    before = _source_digest(tmp_path / "user.py")
    (tmp_path / "other.py").write_text("Y = 2\n")  # not used: same key
    assert _source_digest(tmp_path / "user.py") == before
    (tmp_path / "helper.py").write_text("X = 2\n")  # used: a new key, the cached result is not reused
    assert _source_digest(tmp_path / "user.py") != before


def test_readme_flags_each_disagreeing_headline_in_its_own_section(tmp_path):
    """player_robustness.csv names the analysis of each headline: the README says, in that analysis's section,
    how many of its headlines agree under pimc and names each that does not, with the robustness's verdict."""
    from wizsim.report.readme import write_readme

    table = pd.DataFrame({
        "headline": ["Wizard value", "Jester value", "maximus effect on the points"],
        "analysis": ["cards", "cards", "variants"], "unit": ["tricks"] * 3,
        "learned": [1.1, -0.14, 16.0], "learned_lo": [1.0, -0.16, 15.0], "learned_hi": [1.2, -0.12, 17.0],
        "pimc": [1.1, -0.10, 15.3], "pimc_lo": [1.0, -0.12, 14.3], "pimc_hi": [1.2, -0.08, 16.3],
        "diff": [0.0, 0.04, -0.7], "diff_lo": [-0.1, 0.01, -2.1], "diff_hi": [0.1, 0.07, 0.6],
        "agree": [True, False, True], "sample": ["s"] * 3,
    })  # fmt: skip
    table.to_csv(tmp_path / "player_robustness.csv", index=False)

    def section(name: str, **extra) -> dict:
        return {"name": name, "question": f"Q {name}?", "headline": f"H {name}", "sample": "n", "seed": 1,
                "files": [f"{name}.csv"], "command": "c", **extra}  # fmt: skip

    sections = [section("cards"), section("variants"), section("other"),
                section("player_robustness", trust="Learned stands, because it is stronger.")]  # fmt: skip
    text = write_readme(tmp_path, "default", sections).read_text()
    parts = {p.split("?")[0]: p for p in text.split("## Q ")[1:]}
    assert "1 of 2 agree" in parts["cards"]
    assert "**Jester value** (tricks): learned -0.14, pimc -0.10 (pimc - learned +0.04, 95% CI +0.01 to +0.07)" in (
        parts["cards"]
    )
    assert "Learned stands, because it is stronger." in parts["cards"]
    assert "1 of 1 agree" in parts["variants"] and "disagree" not in parts["variants"]
    assert "checked under pimc" not in parts["other"]
    # without the robustness section (e.g. ``--only``) or its table, no flags
    assert "checked under pimc" not in write_readme(tmp_path, "default", sections[:3]).read_text()


def test_source_digest_leaves_out_the_readme_wording_only(monkeypatch):
    """Rewording the README reruns no analysis; any other package source is part of every analysis's key.

    The files are "edited" by reading them with an extra line (nothing on disk changes)."""
    import wizsim.report.readme as readme
    from wizsim.report import report

    script = Path(__file__).resolve().parents[1] / "analyses" / "expected_tricks.py"
    key = report._source_digest(script)
    read_bytes = Path.read_bytes

    def edited(target: Path):
        return lambda self: read_bytes(self) + (b"\n# edited\n" if self.resolve() == target.resolve() else b"")

    monkeypatch.setattr(Path, "read_bytes", edited(Path(readme.__file__)))
    assert report._source_digest(script) == key
    monkeypatch.setattr(Path, "read_bytes", edited(Path(report.__file__).parents[1] / "errors.py"))
    assert report._source_digest(script) != key


def test_full_only_analyses_run_with_full_and_are_kept_by_the_main_job(tmp_path, capsys):
    """An analysis that declares FULL_ONLY runs with ``full`` (``wizsim report --full``), at quick size, or named by
    ``only``; the main job keeps its files and section (sections.json) and says so in the README, and runs it again
    only when they are missing or are no longer the bytes its section describes."""
    src, out = tmp_path / "analyses", tmp_path / "results"
    src.mkdir()

    def write(mark: str = "") -> None:
        _write(src, mark=mark)
        (src / "tiny.py").write_text((src / "tiny.py").read_text() + '\nFULL_ONLY = "a question for researchers"\n')

    write()
    run_report("default", out, analyses=src, full=True)
    assert _runs(out) == 1
    made = "a researchers' analysis (a question for researchers): `wizsim report --full` regenerates it"
    text = (out / "README.md").read_text()
    assert made in text and "x is 1 (95% CI 0-2), size 2." in text
    write(mark=" (edited)")  # even an edited script is kept by the main job: its section is the --full run's
    run_report("default", out, analyses=src)
    assert _runs(out) == 1 and "kept from the last report that ran it" in capsys.readouterr().out
    assert (out / "README.md").read_text() == text
    run_report("default", out, analyses=src, only=["tiny"])  # asked for by name: runs although it would be kept
    assert _runs(out) == 2 and "(edited)" in (out / "README.md").read_text()
    run_report("default", out, analyses=src, full=True)  # --full: cached now (same script, same size)
    assert _runs(out) == 2
    (out / "tiny.csv").unlink()  # a kept file went missing: the main job runs it
    run_report("default", out, analyses=src)
    assert _runs(out) == 3 and (out / "tiny.csv").exists()
    write(mark=" (again)")
    (out / "tiny.csv").write_text("x,x_lo,x_hi\n9,8,10\n")  # another run rewrote a file (its section is stale)
    run_report("default", out, analyses=src)
    assert _runs(out) == 4 and "(again)" in (out / "README.md").read_text()
    (out / "sections.json").unlink()  # no record: its report cache (same script, same size) stands in
    run_report("default", out, analyses=src)
    assert _runs(out) == 4 and made in (out / "README.md").read_text()
    (out / "sections.json").unlink()
    shutil.rmtree(out / ".cache")  # neither: the main job runs it
    run_report("default", out, analyses=src)
    assert _runs(out) == 5
    run_report("quick", out, analyses=src)  # the tests' size runs everything
    assert _runs(out) == 6
    run_report("default", out, analyses=src)  # the record is now a quick run's: the main job does not keep it
    assert _runs(out) == 7


def test_report_only_keeps_the_other_sections_in_the_readme(tmp_path):
    """``--only NAME`` runs that analysis; the README still describes the others, from the record, in script order,
    while their files are the bytes their sections describe."""
    src, out = tmp_path / "analyses", tmp_path / "results"
    src.mkdir()
    _write(src)
    text = (src / "tiny.py").read_text()
    (src / "atiny.py").write_text(text.replace('NAME = "tiny"', 'NAME = "atiny"').replace("Does the report work?",
                                  "Does it work twice?").replace("tiny.csv", "atiny.csv").replace("tiny_floats", "atiny_floats"))  # fmt: skip
    run_report("default", out, analyses=src)
    full = (out / "README.md").read_text()
    assert full.index("Does it work twice?") < full.index("Does the report work?")
    run_report("default", out, analyses=src, only=["tiny"])
    assert (out / "README.md").read_text() == full
    (out / "atiny.csv").write_text("changed\n")  # no longer what its section describes: left out
    run_report("default", out, analyses=src, only=["tiny"])
    readme = (out / "README.md").read_text()
    assert "Does the report work?" in readme and "Does it work twice?" not in readme


LANE_ANALYSIS = '''
"""A stand-in analysis that finishes only if the other one runs at the same time (the report's lanes)."""
import json
import time
from pathlib import Path

NAME = "{NAME}"
QUESTION = "Do the lanes run side by side?"
SIZES = {{"quick": 1, "default": 2, "full": 3}}


def run(size="default", seed=5, outdir=Path("results"), jobs=1):
    if NAME == "boom":
        from wizsim.errors import WizsimError

        raise WizsimError("boom: a clear one-line error from a lane")
    (outdir / f"{{NAME}}.started").write_text("")
    deadline = time.monotonic() + 120
    while not (outdir / "{OTHER}.started").exists():
        if time.monotonic() > deadline:
            raise RuntimeError("{OTHER} never started: the analyses did not run side by side")
        time.sleep(0.05)
    (outdir / f"{{NAME}}.json").write_text(json.dumps({{"jobs": jobs}}))
    return {{"name": NAME, "question": QUESTION, "headline": f"{{NAME}} ran with jobs={{jobs}}", "sample": "1",
             "seed": seed, "files": [f"{{NAME}}.json"], "command": f"python analyses/{{NAME}}.py"}}
'''


def test_report_runs_analyses_side_by_side_in_lanes(tmp_path):
    """With jobs=2 two analyses run at once (each waits for the other to start), each with jobs // lanes = 1
    worker; both are cached as usual, and an error in a lane reaches the caller as it is."""
    src, out = tmp_path / "analyses", tmp_path / "out"
    src.mkdir()
    for name, other in (("left", "right"), ("right", "left")):
        (src / f"{name}.py").write_text(textwrap.dedent(LANE_ANALYSIS.format(NAME=name, OTHER=other)))
    readme = run_report("quick", out, jobs=2, analyses=src).read_text()
    assert "left ran with jobs=1" in readme and "right ran with jobs=1" in readme
    assert (out / ".cache" / "left.json").is_file() and (out / ".cache" / "right.json").is_file()
    for f in out.glob("*.started"):
        f.unlink()
    run_report("quick", out, jobs=2, analyses=src)  # cached: neither runs (alone, each would wait in vain)
    assert not list(out.glob("*.started"))
    (src / "boom.py").write_text(textwrap.dedent(LANE_ANALYSIS.format(NAME="boom", OTHER="left")))
    for f in (out / ".cache").glob("*.json"):
        f.unlink()
    with pytest.raises(WizsimError, match="boom: a clear one-line error"):
        run_report("quick", out, jobs=2, analyses=src, force=True)
    # the other lanes finished first and are cached: a rerun would run only the failed one
    assert (out / ".cache" / "left.json").is_file() and (out / ".cache" / "right.json").is_file()


PLAIN_ANALYSIS = '''
"""A stand-in analysis that writes one small table."""
from pathlib import Path

from wizsim.run.io import write_table
import pandas as pd

NAME = "{NAME}"
QUESTION = "Are lanes and one-after-another the same?"
SIZES = {{"quick": 1, "default": 2, "full": 3}}


def run(size="default", seed=5, outdir=Path("results"), jobs=1):
    write_table(pd.DataFrame({{"x": [1 / 3, SIZES[size]]}}), outdir / f"{{NAME}}.csv")
    return {{"name": NAME, "question": QUESTION, "headline": f"{{NAME}}: x is 1/3", "sample": "2 rows",
             "seed": seed, "files": [f"{{NAME}}.csv"], "command": f"python analyses/{{NAME}}.py"}}
'''


def test_lanes_write_what_one_after_another_writes(tmp_path, monkeypatch):
    """The same README, record and tables with jobs=1 and jobs=3; and a relative output folder given after a
    chdir is the new folder's (joblib reuses lane workers, which keep the folder they started in)."""
    src = tmp_path / "analyses"
    src.mkdir()
    for name in ("one", "two", "three"):
        (src / f"{name}.py").write_text(textwrap.dedent(PLAIN_ANALYSIS.format(NAME=name)))
    run_report("quick", tmp_path / "serial", jobs=1, analyses=src)
    run_report("quick", tmp_path / "lanes", jobs=3, analyses=src)
    for f in ("README.md", "sections.json", "one.csv", "two.csv", "three.csv"):
        assert (tmp_path / "lanes" / f).read_bytes() == (tmp_path / "serial" / f).read_bytes(), f
    first, second = tmp_path / "d1", tmp_path / "d2"
    first.mkdir()
    second.mkdir()
    monkeypatch.chdir(first)
    run_report("quick", Path("r"), jobs=2, analyses=src)
    monkeypatch.chdir(second)
    run_report("quick", Path("r"), jobs=2, analyses=src)
    assert sorted(p.name for p in (second / "r").glob("*.csv")) == ["one.csv", "three.csv", "two.csv"]
    assert (second / "r" / ".cache" / "one.json").is_file()
