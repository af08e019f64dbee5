"""A command killed outright while it works leaves no partial output (issue 29).

Each command is run in a child process that kills itself with SIGKILL at a
chosen point, the same point every time (no timing): ``_child`` installs a
wrapper around the function that runs or writes at that point, which calls
``os.kill(os.getpid(), SIGKILL)``. Children are forked from a multiprocessing
``forkserver`` that has imported wizsim and loaded its kernels
(``tests/_forkserver_warmup.py``: a child skips both; the pytest process itself,
which may hold threads, is never forked). The points,
per command:

* ``simulate --out`` (a ``.csv`` of rounds; a ``.parquet`` of games with its
  ``_games`` table): during the run (the engine's first block), during the
  write of a table (half of it written: the games table of the parquet run,
  after the first table was complete), during the provenance ``.json`` (half written);
* ``history --out FILE.jsonl``: during the run (the second chunk, after the
  first chunk's lines went out), during the write (the 300th line), and with
  the file complete, just before it is moved into place (there is no provenance
  file: every line carries the run's seed and options);
* ``report --out DIR`` (two stand-in analyses of two tables each): during the
  second analysis's run, during its first table, during its cache entry (the
  report's provenance of an analysis), during ``README.md``.

After the kill, in an empty folder no output exists; in a folder holding a
complete earlier output, every output is that earlier file byte for byte, or
(``report``, for an analysis that finished before the kill) the complete new
files together with their cache entry. What the kill leaves is hidden
temporaries ``.NAME.HOST.PID.*.part`` of the killed process; the next
complete run removes them (docs/decisions.md, "Output files").
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from wizsim.cli import main

CTX = multiprocessing.get_context("forkserver")
# the server imports wizsim and loads the kernels once (tests/_forkserver_warmup.py); every child is a fork of it
CTX.set_forkserver_preload(["wizsim.cli", "wizsim.report.report", "_forkserver_warmup"])
TIMEOUT = 600  # generous: beside the other test worker a cold compile takes minutes


@pytest.fixture(scope="module", autouse=True)
def forkserver():
    """Start the forkserver with tests/ on its PYTHONPATH, so that it finds _forkserver_warmup.

    Python 3.11's forkserver imports its preload modules before it takes the
    parent's ``sys.path``; it does take the environment. Started by another test
    before, it is used as it is (its children then load the kernels themselves).
    """
    import multiprocessing.forkserver

    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), *([old] if old else [])])
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    yield


# --------------------------------------------------------------------------- in the child


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _kill_at_call(owner, attr: str, n: int, before=None) -> None:
    """Replace ``owner.attr`` by a wrapper that, at its ``n``-th call, does ``before(*args)`` and dies."""
    original = getattr(owner, attr)
    calls = [0]

    def wrapper(*args, **kwargs):
        calls[0] += 1
        if calls[0] == n:
            if before is not None:
                before(original, *args, **kwargs)
            _die()
        return original(*args, **kwargs)

    setattr(owner, attr, wrapper)


def _half_table(original, df, path, *args, **kwargs) -> None:
    """Write the table to its temporary, then cut the file to half: a write cut short."""
    original(df, path, *args, **kwargs)
    size = Path(path).stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)


def _kill_in_write_text(prefix: str) -> None:
    """Kill half-way through ``Path.write_text`` of a temporary whose name starts with ``prefix``."""
    original = Path.write_text

    def write_text(self, data, *args, **kwargs):
        if self.name.startswith(prefix) and self.name.endswith(".part"):
            original(self, data[: len(data) // 2], *args, **kwargs)
            _die()
        return original(self, data, *args, **kwargs)

    Path.write_text = write_text  # type: ignore[method-assign]


def _kill_before_move(suffix: str) -> None:
    original = os.replace

    def replace(src, dst, *args, **kwargs):
        if str(dst).endswith(suffix):
            _die()
        return original(src, dst, *args, **kwargs)

    os.replace = replace


def _install(point: str) -> None:
    """Install the kill at ``point`` (``what:detail``) in this (child) process."""
    import pandas as pd

    import wizsim.run.history as history
    import wizsim.run.parallel as parallel

    what, _, detail = point.partition(":")
    if what == "run":  # the n-th block of the engine (simulate, report's analyses)
        _kill_at_call(parallel, "run_block", int(detail))
    elif what == "chunk":  # the n-th chunk a history records
        _kill_at_call(history, "record_chunk_arrays", int(detail))
    elif what == "csv":  # the n-th table written, cut half-way
        _kill_at_call(pd.DataFrame, "to_csv", int(detail), _half_table)
    elif what == "parquet":
        _kill_at_call(pd.DataFrame, "to_parquet", int(detail), _half_table)
    elif what == "line":  # the n-th history line
        import types

        fake = types.SimpleNamespace(dumps=history.json.dumps)
        _kill_at_call(fake, "dumps", int(detail))
        history.json = fake  # type: ignore[assignment]
    elif what == "text":  # Path.write_text of the temporary of the file named ``detail``
        _kill_in_write_text(f".{detail}.")
    elif what == "move":  # the complete file, just before it is moved into place
        _kill_before_move(detail)
    else:
        raise ValueError(point)


def _child(cwd: str, argv: list[str], point: str) -> None:
    os.chdir(cwd)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child ends with os._exit
    _install(point)
    status = main(argv)
    os._exit(100 + status)  # the kill point was not reached


# --------------------------------------------------------------------------- in the test


def killed(cwd: Path, argv: list[str], point: str) -> int:
    """Run ``wizsim argv`` in ``cwd`` in a child killed at ``point``; the child's pid."""
    proc = CTX.Process(target=_child, args=(str(cwd), argv, point))
    proc.start()
    proc.join(TIMEOUT)
    if proc.exitcode is None:
        proc.kill()
        proc.join()
    assert proc.exitcode == -signal.SIGKILL, f"{point}: exit code {proc.exitcode} (100 + status: not killed)"
    assert proc.pid is not None
    return proc.pid


def completed(cwd: Path, argv: list[str], monkeypatch, capsys) -> None:
    monkeypatch.chdir(cwd)
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 0, err


def outputs(folder: Path) -> dict[str, bytes | dict]:
    """Every file below ``folder`` but temporaries; a report's cache entries without their timing."""
    out: dict[str, bytes | dict] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.endswith(".part"):
            key = str(path.relative_to(folder))
            if path.parent.name == ".cache":
                entry = json.loads(path.read_text())
                entry.pop("seconds")
                out[key] = entry
            else:
                out[key] = path.read_bytes()
    return out


def temporaries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.part"))


def assert_temporaries_of(folder: Path, pid: int) -> None:
    """What the kill left: hidden temporaries of the killed process, named after their target."""
    for tmp in temporaries(folder):
        assert tmp.name.startswith("."), tmp
        target = tmp.name[1:].split(f".{socket.gethostname()}.{pid}.")[0]
        assert f".{target}.{socket.gethostname()}.{pid}." in tmp.name, tmp
        assert (tmp.parent / target).suffix in (".csv", ".parquet", ".json", ".jsonl", ".md"), tmp


# --------------------------------------------------------------------------- simulate

SIMULATE = {
    # format: (selection, out, kill point in the write, files of a complete run)
    "csv": (["--cards", "3", "--hands", "200"], "a.csv", "csv:1", ["a.csv", "a.csv.json"]),
    "parquet": (
        ["--games", "300", "--schedule", "1,2"],
        "a.parquet",
        "parquet:2",
        ["a.parquet", "a.parquet.json", "a_games.parquet"],
    ),
}


def simulate_argv(fmt: str, seed: int) -> list[str]:
    sel, out, _, _ = SIMULATE[fmt]
    return ["simulate", "--players", "3", *sel, "--seed", str(seed), "--out", out, "--quiet"]


@pytest.mark.parametrize("fmt", list(SIMULATE))
@pytest.mark.parametrize("when", ["run", "write", "provenance"])
def test_killed_simulate_leaves_no_partial_out(tmp_path, monkeypatch, capsys, fmt, when):
    _, out, write_point, files = SIMULATE[fmt]
    point = {"run": "run:1", "write": write_point, "provenance": f"text:{out}.json"}[when]
    fresh, prev = tmp_path / "fresh", tmp_path / "prev"
    fresh.mkdir()
    prev.mkdir()
    pid = killed(fresh, simulate_argv(fmt, 2), point)
    assert outputs(fresh) == {}  # no table without its provenance, no half table
    assert_temporaries_of(fresh, pid)
    if when != "run":
        assert temporaries(fresh)  # the write was cut short in its temporary
    completed(prev, simulate_argv(fmt, 1), monkeypatch, capsys)
    before = outputs(prev)
    assert sorted(before) == files
    pid = killed(prev, simulate_argv(fmt, 2), point)
    assert outputs(prev) == before  # the earlier complete files, byte for byte
    assert_temporaries_of(prev, pid)
    completed(prev, simulate_argv(fmt, 2), monkeypatch, capsys)
    after = outputs(prev)
    assert sorted(after) == files and all(after[f] != before[f] for f in files)
    assert temporaries(prev) == []  # the killed writer's temporaries were swept


# --------------------------------------------------------------------------- history


def history_argv(seed: int) -> list[str]:
    # 300 one-card games of 3 players: two chunks of 256 and 44 games
    return ["history", "--players", "3", "--games", "300", "--schedule", "1", "--seed", str(seed), "--out", "h.jsonl",
            "--quiet"]  # fmt: skip


@pytest.mark.parametrize("point", ["chunk:2", "line:300", "move:h.jsonl"])
def test_killed_history_leaves_no_partial_jsonl(tmp_path, monkeypatch, capsys, point):
    fresh, prev = tmp_path / "fresh", tmp_path / "prev"
    fresh.mkdir()
    prev.mkdir()
    pid = killed(fresh, history_argv(2), point)
    assert outputs(fresh) == {}  # the lines went to the temporary, never to h.jsonl
    left = temporaries(fresh)
    assert len(left) == 1 and left[0].stat().st_size > 0, left  # lines were written before the kill
    assert_temporaries_of(fresh, pid)
    completed(prev, history_argv(1), monkeypatch, capsys)
    before = outputs(prev)
    assert list(before) == ["h.jsonl"] and before["h.jsonl"].count(b"\n") == 300
    killed(prev, history_argv(2), point)
    assert outputs(prev) == before
    completed(prev, history_argv(2), monkeypatch, capsys)
    assert outputs(prev)["h.jsonl"] != before["h.jsonl"] and temporaries(prev) == []


# --------------------------------------------------------------------------- report

ANALYSIS = '''"""A stand-in analysis for tests/test_write_faults.py: one small run, two tables."""

from pathlib import Path

import wizsim
from wizsim.run.io import write_table

NAME = "{name}"
QUESTION = "What does stand-in {name} find?"
SIZES = {{"quick": 200, "default": 300, "full": 400}}


def run(size, seed=1, outdir=Path("results"), jobs=1):
    hands = SIZES[size]
    table = wizsim.simulate(3, cards=3, hands=hands, seed=seed)
    write_table(table, outdir / f"{{NAME}}.csv")
    write_table(table.head(2), outdir / f"{{NAME}}_head.csv")
    return {{"name": NAME, "question": QUESTION, "headline": f"{{len(table)}} rows from {{hands}} hands",
            "sample": f"{{hands}} hands", "seed": seed, "files": [f"{{NAME}}.csv", f"{{NAME}}_head.csv"],
            "command": "wizsim report"}}
'''
ANALYSES = ("a", "b")
REPORT_POINTS = {"run": "run:2", "write": "csv:3", "provenance": "text:b.json", "readme": "text:README.md"}


def analysis_files(name: str) -> list[str]:
    return [f".cache/{name}.json", f"{name}.csv", f"{name}_head.csv"]


def report_folder(root: Path) -> Path:
    root.mkdir()
    (root / "analyses").mkdir()
    for name in ANALYSES:
        (root / "analyses" / f"{name}.py").write_text(ANALYSIS.format(name=name))
    return root


def report_argv(size: str) -> list[str]:
    return ["report", *([f"--{size}"] if size != "default" else []), "--out", "res", "--jobs", "1", "--quiet"]


@pytest.mark.parametrize("when", list(REPORT_POINTS))
def test_killed_report_leaves_no_partial_results(tmp_path, monkeypatch, capsys, when):
    point = REPORT_POINTS[when]
    ref = report_folder(tmp_path / "ref")  # what a complete default run writes
    completed(ref, report_argv("default"), monkeypatch, capsys)
    new = outputs(ref / "res")
    fresh, prev = report_folder(tmp_path / "fresh"), report_folder(tmp_path / "prev")
    completed(prev, report_argv("quick"), monkeypatch, capsys)
    old = outputs(prev / "res")
    assert old.keys() == new.keys() and all(old[f] != new[f] for f in old)
    finished = {"run": 1, "write": 1, "provenance": 1, "readme": 2}[when]  # analyses complete before the kill
    for folder, earlier in ((fresh, {}), (prev, old)):
        pid = killed(folder, report_argv("default"), point)
        got = outputs(folder / "res")
        for i, name in enumerate(ANALYSES):
            files = analysis_files(name)
            want = new if i < finished else earlier
            assert {f: got.get(f) for f in files} == {f: want.get(f) for f in files}, (name, sorted(got))
        assert "README.md" not in got  # it described the files that changed: removed, written at the end
        assert_temporaries_of(folder / "res", pid)
    completed(prev, report_argv("default"), monkeypatch, capsys)
    assert outputs(prev / "res") == new and temporaries(prev) == []


# --------------------------------------------------------------------------- the pieces (in this process)


def test_an_output_group_moves_nothing_until_it_ends_and_nothing_on_an_error(tmp_path):
    from wizsim.run.io import atomic_path, output_group

    a, b, meta = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "a.csv.json"
    for p in (a, b, meta):
        p.write_text("old")
    with pytest.raises(KeyboardInterrupt), output_group():
        with atomic_path(a) as tmp:
            tmp.write_text("new")
        assert a.read_text() == "old"  # complete, but not in place before the group ends
        with atomic_path(meta) as tmp:
            tmp.write_text("half")
            raise KeyboardInterrupt
    assert [p.read_text() for p in (a, b, meta)] == ["old"] * 3 and temporaries(tmp_path) == []
    stale = tmp_path / "README.md"
    stale.write_text("describes a and b")
    with output_group(stale=[stale]):
        for p, text in ((a, "first"), (b, "new"), (a, "second"), (meta, "new")):  # the last version of a counts
            with atomic_path(p) as tmp:
                tmp.write_text(text)
        with output_group(), atomic_path(tmp_path / "inner.csv") as tmp:  # a group inside a group joins it
            tmp.write_text("inner")
        assert not (tmp_path / "inner.csv").exists()
    assert [p.read_text() for p in (a, b, meta)] == ["second", "new", "new"]
    assert (tmp_path / "inner.csv").read_text() == "inner" and not stale.exists() and temporaries(tmp_path) == []


def test_sweeping_removes_only_temporaries_of_dead_writers_of_that_file_on_this_host(tmp_path):
    import subprocess

    from wizsim.run.io import atomic_path, sweep_temporaries

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, host = int(gone.stdout), socket.gethostname()
    names = {
        f".a.csv.{host}.{dead}.x1.part": False,  # a dead writer of a.csv here: swept
        f".a.csv.{host}.{os.getpid()}.x2.part": True,  # a running writer (this process)
        f".a.csv.{host}.1.x3.part": True,  # a running process (init)
        f".a.csv.otherhost.{dead}.x4.part": True,  # another host's writer: cannot tell
        f".a.csv.{host}.notapid.x5.part": True,
        f".b.csv.{host}.{dead}.x6.part": True,  # another file: its own next write sweeps it
        ".a.csv.x7.part": True,  # the unnamed temporaries of earlier versions: left alone
    }
    for name in names:
        (tmp_path / name).write_text("left by kill -9")
    assert sweep_temporaries(tmp_path, "a.csv") == [tmp_path / f".a.csv.{host}.{dead}.x1.part"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n for n, kept in names.items() if kept)
    (tmp_path / f".a.csv.{host}.{dead}.x8.part").write_text("left by kill -9")
    with atomic_path(tmp_path / "a.csv") as tmp:  # every write of a.csv sweeps first
        assert tmp.name.startswith(f".a.csv.{host}.{os.getpid()}.") and tmp.name.endswith(".part")
        tmp.write_text("a")
    assert not (tmp_path / f".a.csv.{host}.{dead}.x8.part").exists()
