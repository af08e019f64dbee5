"""The run options shared by the long commands (``simulate``, ``history``, ``tournament``, ``report``).

* every long command takes ``--jobs --backend --scheduler --checkpoint --quiet
  --no-numba-cache`` (one parser function, one :class:`wizsim.run.parallel.RunOptions`);
* bad combinations are one line ``wizsim: error: ...`` with exit status 2 and no
  output file (``--scheduler`` without ``--backend dask``, ``--jobs 0``,
  ``--checkpoint`` where a run cannot resume);
* ``history`` and ``tournament`` give the same output for ``--jobs 1`` and ``--jobs 2``;
* a checkpointed tournament resumes (after lost, damaged or all finished chunks) to
  the output of an uninterrupted run; a checkpoint of another tournament is refused;
* ``report`` shows which analysis runs, n of N and the elapsed time on stderr,
  ``--quiet`` silences it; it passes ``jobs`` (and ``backend``/``scheduler`` where
  an analysis takes them) to the analyses.

Commands run in this process (``wizsim.cli.main``) to keep the file fast; the
Dask backend of these commands is tested in ``test_parallel.py``.
"""

from __future__ import annotations

import argparse
import json
import textwrap

import pytest

from wizsim.cli import build_parser, main
from wizsim.errors import WizsimError
from wizsim.run import parallel
from wizsim.run.parallel import RunOptions, add_run_arguments
from wizsim.run.simulate import CHUNK_GAMES
from wizsim.tools.tournament import tournament

LONG_COMMANDS = {
    "simulate": ["simulate", "--players", "3", "--cards", "2", "--hands", "50", "--seed", "1"],
    "history": ["history", "--players", "3", "--cards", "2", "--hands", "50", "--seed", "1", "--out", "h.jsonl"],
    "tournament": ["tournament", "--players", "3", "--strategies", "heuristic,random", "--cards", "2", "--deals", "20"],
    "report": ["report", "--quick", "--only", "tiny"],
}
# three chunks of one-round games, 6 seatings: a tournament of well under a second
TOURNEY = ["tournament", "--players", "3", "--strategies", "heuristic,random", "--games", str(2 * CHUNK_GAMES + 10),
           "--schedule", "2", "--seed", "3", "--json"]  # fmt: skip


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    status = main(args)
    cap = capsys.readouterr()
    return status, cap.out, cap.err


# --------------------------------------------------------------------------- the options themselves


def test_every_long_command_takes_the_same_run_options():
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command in LONG_COMMANDS:
        flags = {f for a in sub.choices[command]._actions for f in a.option_strings}
        assert {"--jobs", "--backend", "--scheduler", "--checkpoint", "--quiet", "--no-numba-cache"} <= flags, command
    advise = {f for a in sub.choices["advise"]._actions for f in a.option_strings}
    assert "--checkpoint" not in advise


def test_run_options_from_the_command_line():
    p = argparse.ArgumentParser()
    add_run_arguments(p, checkpoint_help="resume")
    opts = RunOptions.from_args(p.parse_args([]))
    assert opts == RunOptions(progress=True)  # progress unless --quiet
    args = p.parse_args(["--jobs", "3", "--backend", "dask", "--scheduler", "tcp://h:1", "--checkpoint", "ck",
                         "--quiet", "--no-numba-cache"])  # fmt: skip
    opts = RunOptions.from_args(args)
    assert opts == RunOptions(3, "dask", "tcp://h:1", "ck", progress=False, numba_cache=False)
    assert RunOptions(**opts.kwargs()) == opts
    p = argparse.ArgumentParser()
    add_run_arguments(p, default_jobs=5)  # no --checkpoint
    assert RunOptions.from_args(p.parse_args([])).jobs == 5
    with pytest.raises(SystemExit):
        p.parse_args(["--checkpoint", "ck"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"jobs": 0}, "jobs must be >= 1, got 0"),
        ({"jobs": "two"}, "jobs must be a whole number"),
        ({"backend": "mpi"}, "unknown backend 'mpi'"),
        ({"scheduler": "tcp://127.0.0.1:1"}, "--scheduler goes with --backend dask"),
    ],
)
def test_bad_run_options_are_refused(kwargs, message):
    with pytest.raises(WizsimError, match=message):
        RunOptions(**kwargs)


# --------------------------------------------------------------------------- bad combinations

BAD = {
    "simulate scheduler without dask": (LONG_COMMANDS["simulate"], ["--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    "history scheduler without dask": (LONG_COMMANDS["history"], ["--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    "history jobs 0": (LONG_COMMANDS["history"], ["--jobs", "0"], "jobs must be >= 1"),
    "history checkpoint": (LONG_COMMANDS["history"], ["--checkpoint", "ck"], "--checkpoint does not apply to history"),
    "tournament scheduler without dask": (
        LONG_COMMANDS["tournament"],
        ["--scheduler", "tcp://127.0.0.1:1"],
        "--scheduler goes with --backend dask",
    ),  # fmt: skip
    "tournament jobs 0": (LONG_COMMANDS["tournament"], ["--jobs", "0"], "jobs must be >= 1"),
    "report jobs 0": (LONG_COMMANDS["report"], ["--jobs", "0"], "jobs must be >= 1"),
    "report scheduler without dask": (LONG_COMMANDS["report"], ["--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    "report checkpoint": (LONG_COMMANDS["report"], ["--checkpoint", "ck"], "--checkpoint does not apply to report"),
    "report dask for an analysis without backend": (
        LONG_COMMANDS["report"],
        ["--backend", "dask"],
        "analysis tiny runs on local processes only",
    ),  # fmt: skip
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_combinations_are_one_error_line(name, tmp_path, monkeypatch, capsys):
    args, extra, fragment = BAD[name]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "analyses").mkdir()
    (tmp_path / "analyses" / "tiny.py").write_text(_analysis(backend=False))
    status, out, err = run_cli([*args, *extra], capsys)
    assert status == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wizsim: error: ") and fragment in lines[0], err
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["analyses"], "bad input left files behind"


# --------------------------------------------------------------------------- history and tournament


def test_history_same_file_for_any_jobs_and_quiet(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    base = ["history", "--players", "3", "--games", str(2 * CHUNK_GAMES + 3), "--schedule", "1,2", "--seed", "8",
            "--strategy", "heuristic,random,random"]  # fmt: skip
    monkeypatch.setattr(parallel, "PROGRESS_DELAY", 0.0)  # a bar at once, unless --quiet
    assert run_cli([*base, "--out", "a.jsonl", "--jobs", "1", "--quiet"], capsys)[::2] == (0, "")
    status, _, err = run_cli([*base, "--out", "b.jsonl", "--jobs", "2"], capsys)
    assert status == 0 and "chunks 3/3" in err and "hands/s" in err
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert len((tmp_path / "a.jsonl").read_text().splitlines()) == (2 * CHUNK_GAMES + 3) * 2


def test_tournament_same_output_for_any_jobs_and_quiet(capsys, monkeypatch):
    monkeypatch.setattr(parallel, "PROGRESS_DELAY", 0.0)
    status, one, err = run_cli([*TOURNEY, "--jobs", "1", "--quiet"], capsys)
    assert status == 0 and err == ""
    status, two, err = run_cli([*TOURNEY, "--jobs", "2"], capsys)
    assert status == 0 and two == one
    assert "chunks 3/3" in err and "deals/s" in err  # progress on stderr, not stdout
    assert json.loads(one)["strategies"][0]["deals"] == 2 * CHUNK_GAMES + 10


def test_checkpointed_tournament_resumes_to_the_same_output(tmp_path, capsys):
    status, plain, _ = run_cli([*TOURNEY, "--quiet"], capsys)
    assert status == 0
    ck = tmp_path / "ck"
    status, first, _ = run_cli([*TOURNEY, "--quiet", "--checkpoint", str(ck)], capsys)
    assert status == 0 and first == plain
    chunks = ["block-0-1.npz", "block-1-2.npz", "block-2-3.npz"]
    assert sorted(p.name for p in ck.iterdir()) == sorted([*chunks, "manifest.json"])
    # one chunk lost, one damaged, a write cut short: those are run again (with 2 jobs), the kept one is read
    (ck / chunks[1]).unlink()
    (ck / chunks[2]).write_bytes(b"garbage")
    (ck / f".{chunks[1]}.x.part").write_bytes(b"left by kill -9")
    kept = (ck / chunks[0]).stat().st_mtime_ns
    status, resumed, _ = run_cli([*TOURNEY, "--quiet", "--checkpoint", str(ck), "--jobs", "2"], capsys)
    assert status == 0 and resumed == plain
    assert (ck / chunks[0]).stat().st_mtime_ns == kept
    assert sorted(p.name for p in ck.iterdir()) == sorted([*chunks, "manifest.json"])
    # all finished: nothing runs, the same numbers
    stamps = {p.name: p.stat().st_mtime_ns for p in ck.iterdir()}
    assert run_cli([*TOURNEY, "--quiet", "--checkpoint", str(ck)], capsys)[1] == plain
    assert {p.name: p.stat().st_mtime_ns for p in ck.iterdir()} == stamps
    # another tournament in the same folder: one line, exit 2
    other = [a if a != "heuristic,random" else "heuristic,table" for a in TOURNEY]
    status, out, err = run_cli([*other, "--checkpoint", str(ck)], capsys)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"wizsim: error: checkpoint {ck} was made by a different run: strategies")


def test_tournament_python_api_takes_the_run_options(tmp_path):
    kw = {"players": 3, "strategies": "heuristic,random", "games": CHUNK_GAMES + 1, "schedule": [1], "seed": 4}
    a = tournament(**kw)
    b = tournament(**kw, jobs=2, checkpoint=tmp_path / "ck", progress=False)
    assert list(a.sums) == list(b.sums) and (a.gram == b.gram).all()
    with pytest.raises(WizsimError, match="--scheduler goes with --backend dask"):
        tournament(**kw, scheduler="tcp://127.0.0.1:1")


# --------------------------------------------------------------------------- report


def _analysis(backend: bool) -> str:
    """A stand-in analysis that writes the run options it was given to options.json."""
    signature = "size, seed=5, outdir=Path('results'), jobs=1" + (", backend='loky', scheduler=None" if backend else "")
    given = "{'jobs': jobs" + (", 'backend': backend, 'scheduler': scheduler}" if backend else "}")
    return textwrap.dedent(f"""
        import json
        from pathlib import Path

        NAME = "tiny"
        QUESTION = "Does the report pass the run options on?"
        SIZES = {{"quick": 1, "default": 2, "full": 3}}


        def run({signature}):
            (outdir / "options.json").write_text(json.dumps({given}))
            return {{"name": NAME, "question": QUESTION, "headline": "x is 1", "sample": "1", "seed": seed,
                     "files": ["options.json"], "command": "python analyses/tiny.py"}}
    """)


@pytest.mark.parametrize("backend", [False, True], ids=["jobs only", "with backend"])
def test_report_passes_run_options_and_shows_progress(backend, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "analyses").mkdir()
    (tmp_path / "analyses" / "tiny.py").write_text(_analysis(backend))
    monkeypatch.setattr(parallel, "PROGRESS_DELAY", 0.0)
    status, out, err = run_cli(["report", "--quick", "--out", "r", "--jobs", "2"], capsys)
    assert status == 0, err
    assert "tiny: x is 1" in out and "wrote r/README.md" in out
    assert "analysis 1/1: tiny" in err and "[00:0" in err  # which one, n of N, elapsed time
    given = json.loads((tmp_path / "r" / "options.json").read_text())
    assert given == ({"jobs": 2, "backend": "loky", "scheduler": None} if backend else {"jobs": 2})
    status, out, err = run_cli(["report", "--quick", "--out", "r", "--force", "--quiet"], capsys)
    assert status == 0 and err == "" and "tiny: x is 1" in out
    if backend:  # dask reaches the analyses that take it (this one does not connect anywhere)
        status, _, err = run_cli(
            [
                "report",
                "--quick",
                "--out",
                "r",
                "--force",
                "--jobs",
                "1",
                "--backend",
                "dask",
                "--scheduler",
                "tcp://h:1",
            ],
            capsys,
        )
        assert status == 0, err
        given = json.loads((tmp_path / "r" / "options.json").read_text())
        assert given == {"jobs": 1, "backend": "dask", "scheduler": "tcp://h:1"}


def test_progress_waits_two_seconds_and_moves_on(capsys):
    with parallel.Progress(3, " things", True, desc="first") as bar:
        bar.update(1)
        bar.describe("second")
    assert capsys.readouterr().err == ""  # done in under 2 s: no line at all
    assert parallel.PROGRESS_DELAY == 2.0
