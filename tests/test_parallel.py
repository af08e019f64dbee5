"""Running a run elsewhere: Dask clusters, checkpoints and resuming, progress, worker environment.

* a real Dask LocalCluster on loopback gives the very counts of ``jobs=1``
  (hands and games), and the CLI's ``--backend dask --scheduler`` the very CSV;
* a run killed with SIGKILL and rerun with the same ``--checkpoint`` gives the
  bytes of an uninterrupted run and does not redo finished blocks; a
  checkpoint may be finished with another ``jobs``; a damaged block is redone;
* a checkpoint of another run (seed, version) is refused with one line;
* the progress bar goes to stderr, ``--quiet`` silences it;
* history and tournament on a Dask cluster give what one job gives;
* worker processes get the thread caps and the Numba cache switch, the
  caller's environment stays as it was.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wizsim.errors import WizsimError
from wizsim.run.parallel import BLOCK_CHUNKS, LokyWithEnv, RunOptions, dask_client, run_counts, worker_env
from wizsim.run.simulate import CHUNK_GAMES, CHUNK_ROUNDS, make_spec

distributed = pytest.importorskip("distributed")

WIZSIM = [sys.executable, "-m", "wizsim.cli"]
TIMEOUT = 600  # generous: beside the other test worker a cold compile takes minutes

HANDS_SEL = dict(
    players=4, cards=3, hands=CHUNK_ROUNDS * 7 // 2, seed=2024, strategy="heuristic,random,random,heuristic"
)
GAMES_SEL = dict(players=5, games=CHUNK_GAMES * 7 // 2, seed=99, strategy="random,heuristic,random,random,random")
# two checkpoint blocks of short games: quick
TWO_BLOCKS = dict(players=3, games=BLOCK_CHUNKS * CHUNK_GAMES + 100, schedule=[1, 2], seed=5)


def assert_counts_equal(a, b) -> None:
    for name in ("joint", "aux", "game_acc"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        np.testing.assert_array_equal(x, y, err_msg=name)


def _run(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*WIZSIM, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, env=env)


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as c:
        yield c


# --------------------------------------------------------------------------- Dask


@pytest.mark.parametrize("sel", [HANDS_SEL, GAMES_SEL], ids=["hands", "games"])
def test_dask_cluster_gives_the_counts_of_one_job(sel, cluster):
    spec = make_spec(**sel)
    assert spec.n_chunks == 4
    one = run_counts(spec, jobs=1)
    dask = run_counts(spec, backend="dask", scheduler=cluster.scheduler_address)
    assert_counts_equal(one, dask)
    assert one.joint.sum() == spec.rounds * spec.players


def test_precision_sized_run_stops_at_the_same_chunk_on_a_dask_cluster(cluster):
    """--precision's stopping rule reads finished chunks in chunk order: a cluster's batches stop where one job does."""
    from wizsim.run.precision import run_to_precision
    from wizsim.run.simulate import hit_rate_half_width

    spec = make_spec(4, cards=3, hands=CHUNK_ROUNDS * 8, seed=11, strategy="random")
    one = run_to_precision(spec, 0.0021, hit_rate_half_width)
    dask = run_to_precision(
        spec, 0.0021, hit_rate_half_width, RunOptions(backend="dask", scheduler=cluster.scheduler_address)
    )
    assert one[0].items == dask[0].items == 3 * CHUNK_ROUNDS  # the stop falls inside a batch of the cluster's two
    assert_counts_equal(one[1], dask[1])


def test_cli_dask_scheduler_output_identical_to_one_job(cluster, tmp_path):
    sim = ["simulate", "--players", "4", "--games", str(CHUNK_GAMES * 5 // 2), "--seed", "31",
           "--strategy", "heuristic,random,random,random"]  # fmt: skip
    runs = {
        "a": [*sim, "--out", "a.csv", "--jobs", "1"],
        "b": [*sim, "--out", "b.csv", "--backend", "dask", "--scheduler", cluster.scheduler_address],
    }
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(runs, pool.map(lambda a: _run(a, tmp_path), runs.values()), strict=True))
    for name, res in results.items():
        assert res.returncode == 0, f"{name}: {res.stderr}"
    for suffix in (".csv", "_games.csv", ".csv.json"):
        assert (tmp_path / f"a{suffix}").read_bytes() == (tmp_path / f"b{suffix}").read_bytes(), suffix
    assert results["a"].stdout.replace("a.csv", "b.csv").replace("a_games", "b_games") == results["b"].stdout


def test_local_dask_cluster_workers_get_the_environment():
    env = worker_env(numba_cache=False)
    with dask_client(1, None, env) as client:
        got = client.run(lambda: {k: os.environ.get(k) for k in env})
    assert list(got.values()) == [env]
    assert env["WIZSIM_NUMBA_CACHE"] == "0" and env["NUMBA_NUM_THREADS"] == "1"


def test_unreachable_scheduler_is_one_clear_error():
    spec = make_spec(players=3, cards=1, hands=10, seed=1)
    with pytest.raises(WizsimError, match="cannot reach the Dask scheduler"):
        from wizsim.run import parallel

        old, parallel.DASK_CONNECT_TIMEOUT = parallel.DASK_CONNECT_TIMEOUT, 2
        try:
            run_counts(spec, backend="dask", scheduler="tcp://127.0.0.1:9")
        finally:
            parallel.DASK_CONNECT_TIMEOUT = old


# --------------------------------------------------------------------------- local workers


def test_loky_workers_get_the_environment_and_the_caller_keeps_its_own():
    from joblib import Parallel, delayed

    def getenv(name):  # defined here: pickled by value, runs in the worker
        import os

        return os.environ.get(name)

    before = dict(os.environ)
    env = worker_env(numba_cache=False)
    got = Parallel(n_jobs=2, backend=LokyWithEnv(env=env, inner_max_num_threads=1))(
        delayed(getenv)(k) for k in ("WIZSIM_NUMBA_CACHE", "OMP_NUM_THREADS", "NUMBA_NUM_THREADS")
    )
    assert got == ["0", "1", "1"]
    spec = make_spec(**HANDS_SEL)
    assert_counts_equal(run_counts(spec, jobs=2), run_counts(spec, jobs=1))
    assert dict(os.environ) == before


def test_numba_cache_switch_in_this_process_is_undone():
    from wizsim.engine.jit.config import engine_dispatchers
    from wizsim.engine.players.seats import _SWITCH
    from wizsim.run.parallel import numba_cache_disabled

    generated = {id(d) for d in _SWITCH.values()}  # inlined into cached kernels; no cache of their own
    kernels = {d.py_func.__module__ + "." + d.__name__: d for d in engine_dispatchers() if id(d) not in generated}
    caches = {name: type(obj._cache).__name__ for name, obj in kernels.items()}
    assert caches and "NullCache" not in caches.values()  # tests run with the cache on
    with numba_cache_disabled():
        assert all(type(kernels[name]._cache).__name__ == "NullCache" for name in caches)
    assert {name: type(kernels[name]._cache).__name__ for name in caches} == caches


def test_bad_choices_are_refused():
    spec = make_spec(players=3, cards=1, hands=10, seed=1)
    with pytest.raises(WizsimError, match="jobs must be >= 1"):
        run_counts(spec, jobs=0)
    with pytest.raises(WizsimError, match="unknown backend"):
        run_counts(spec, backend="mpi")
    with pytest.raises(WizsimError, match="--scheduler goes with --backend dask"):
        run_counts(spec, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(TypeError, match="use jobs=N"):
        run_counts(spec, 2)  # the old wizsim.run.simulate.run_counts(spec, jobs)
    with pytest.raises(TypeError):
        run_counts(spec, workers=2)


def test_one_run_counts_for_options_and_keywords():
    """``run_counts`` lives in the run layer only; options and keyword changes give the same counts."""
    import importlib

    from wizsim.run.parallel import RunOptions

    assert not hasattr(importlib.import_module("wizsim.run.simulate"), "run_counts")
    spec = make_spec(players=3, cards=2, hands=3 * CHUNK_ROUNDS, seed=4)
    ref = run_counts(spec)
    assert_counts_equal(run_counts(spec, RunOptions(jobs=2)), ref)
    assert_counts_equal(run_counts(spec, RunOptions(jobs=1, progress=False), jobs=2), ref)


# --------------------------------------------------------------------------- checkpoints


def test_checkpoint_finished_with_other_jobs_and_damaged_block_redone(tmp_path):
    spec = make_spec(**TWO_BLOCKS)
    assert spec.n_chunks == BLOCK_CHUNKS + 1
    ref = run_counts(spec, jobs=1)
    ckpt = tmp_path / "ck"
    assert_counts_equal(run_counts(spec, jobs=1, checkpoint=ckpt), ref)
    blocks = sorted(p.name for p in ckpt.iterdir())
    assert blocks == [f"block-0-{BLOCK_CHUNKS}.npz", f"block-{BLOCK_CHUNKS}-{BLOCK_CHUNKS + 1}.npz", "manifest.json"]
    manifest = json.loads((ckpt / "manifest.json").read_text())
    assert manifest["run"] == json.loads(json.dumps(spec.provenance()))
    assert manifest["block_chunks"] == BLOCK_CHUNKS
    # lose one block, damage the other: both are run again (with jobs=2), same counts
    (ckpt / f"block-0-{BLOCK_CHUNKS}.npz").unlink()
    (ckpt / f"block-{BLOCK_CHUNKS}-{BLOCK_CHUNKS + 1}.npz").write_bytes(b"garbage")
    (ckpt / ".block-0-64.npz.x.part").write_bytes(b"left by kill -9")
    assert_counts_equal(run_counts(spec, jobs=2, checkpoint=ckpt), ref)
    assert sorted(p.name for p in ckpt.iterdir()) == blocks
    # complete: nothing is run, the blocks are read
    stamps = {p.name: p.stat().st_mtime_ns for p in ckpt.iterdir()}
    assert_counts_equal(run_counts(spec, jobs=2, checkpoint=ckpt), ref)
    assert {p.name: p.stat().st_mtime_ns for p in ckpt.iterdir()} == stamps


def test_checkpoint_of_another_version_or_folder_with_other_files_is_refused(tmp_path):
    spec = make_spec(players=3, cards=1, hands=100, seed=1)
    ckpt = tmp_path / "ck"
    run_counts(spec, checkpoint=ckpt)
    manifest = json.loads((ckpt / "manifest.json").read_text())
    manifest["wizsim_version"] = manifest["run"]["wizsim_version"] = "0.0.1"
    (ckpt / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(WizsimError, match=r"was made by a different run: wizsim 0\.0\.1 .*use another folder"):
        run_counts(spec, checkpoint=ckpt)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(WizsimError, match="holds files but no manifest.json"):
        run_counts(spec, checkpoint=other)


def test_checkpoint_of_other_arguments_is_refused_by_the_cli(tmp_path):
    base = ["simulate", "--players", "4", "--cards", "5", "--hands", "2000", "--checkpoint", "ck", "--quiet"]
    first = _run([*base, "--seed", "1"], tmp_path)
    assert first.returncode == 0, first.stderr
    second = _run([*base, "--seed", "2", "--out", "b.csv"], tmp_path)
    assert second.returncode == 2
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1, second.stderr
    assert lines[0].startswith("wizsim: error: checkpoint ck was made by a different run: seed 1 (this run: 2)")
    assert lines[0].endswith("use another folder or delete it")
    assert not (tmp_path / "b.csv").exists()


def test_killed_run_resumes_to_the_bytes_of_an_uninterrupted_run_and_progress_goes_to_stderr(tmp_path):
    # 8 blocks of about 0.5 s each on one core (5-card random rounds: 1-card ones got too fast for the bar's 2 s)
    blocks = 8
    sel = ["simulate", "--players", "4", "--cards", "5", "--hands", str(blocks * BLOCK_CHUNKS * CHUNK_ROUNDS - 5000),
           "--seed", "77"]  # fmt: skip
    ckpt = tmp_path / "ck"
    proc = subprocess.Popen(
        [*WIZSIM, *sel, "--checkpoint", "ck", "--out", "a.csv", "--quiet"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + TIMEOUT
    try:
        while not list(ckpt.glob("block-*.npz")):
            assert proc.poll() is None, "the run ended before a block was written"
            assert time.monotonic() < deadline
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (tmp_path / "a.csv").exists()
    kept = {p.name: p.stat().st_mtime_ns for p in ckpt.glob("block-*.npz")}
    assert 1 <= len(kept) < blocks
    env = {**os.environ, "COLUMNS": "100"}
    with ThreadPoolExecutor(2) as pool:
        # the rest of the run takes several seconds: longer than the 2 s before a bar shows
        resumed = pool.submit(_run, [*sel, "--checkpoint", "ck", "--out", "a.csv", "--quiet"], tmp_path, env)
        plain = pool.submit(_run, [*sel, "--out", "b.csv"], tmp_path, env)
        resumed, plain = resumed.result(), plain.result()
    assert resumed.returncode == 0, resumed.stderr
    assert plain.returncode == 0, plain.stderr
    for suffix in (".csv", ".csv.json"):
        assert (tmp_path / f"a{suffix}").read_bytes() == (tmp_path / f"b{suffix}").read_bytes(), suffix
    # the blocks written before the kill were read, not run again
    assert {name: (ckpt / name).stat().st_mtime_ns for name in kept} == kept
    assert len(list(ckpt.glob("block-*.npz"))) == blocks
    assert not list(ckpt.glob(".*.part"))
    # progress: on stderr only, and none with --quiet
    assert resumed.stderr == ""
    n_chunks = blocks * BLOCK_CHUNKS
    assert f"chunks {n_chunks}/{n_chunks}" in plain.stderr and "hands/s" in plain.stderr, plain.stderr
    assert "hands/s" not in plain.stdout
    assert plain.stdout.replace("b.csv", "a.csv") == resumed.stdout


def test_history_with_two_jobs_writes_the_same_file(tmp_path):
    from wizsim.run.history import write_history
    from wizsim.run.simulate import CHUNK_GAMES, make_spec

    spec = make_spec(3, games=3 * CHUNK_GAMES - 7, seed=4, strategy="heuristic,random,random", specials="all")
    assert spec.n_chunks == 3
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert write_history(a, spec, jobs=1) == write_history(b, spec, jobs=2) == spec.rounds
    assert a.read_bytes() == b.read_bytes()


def test_python_api_takes_the_run_options(tmp_path):
    import wizsim

    one = wizsim.simulate(4, cards=3, hands=40_000, seed=2)
    ck = wizsim.simulate(4, cards=3, hands=40_000, seed=2, checkpoint=tmp_path / "ck", progress=False)
    pd.testing.assert_frame_equal(one, ck)
    assert (tmp_path / "ck" / "manifest.json").exists()


def test_history_and_tournament_on_a_dask_cluster_give_what_one_job_gives(cluster, tmp_path):
    from wizsim.run.history import write_history
    from wizsim.tools.tournament import tournament

    spec = make_spec(3, games=2 * CHUNK_GAMES + 3, schedule=[1, 2], seed=6, strategy="heuristic,random,random")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert write_history(a, spec) == write_history(b, spec, backend="dask", scheduler=cluster.scheduler_address)
    assert a.read_bytes() == b.read_bytes()
    kw = {"players": 3, "strategies": "heuristic,random", "games": 2 * CHUNK_GAMES + 3, "schedule": [2], "seed": 7}
    one = tournament(**kw)
    dask = tournament(**kw, backend="dask", scheduler=cluster.scheduler_address, checkpoint=tmp_path / "ck")
    assert list(one.sums) == list(dask.sums) and (one.gram == dask.gram).all()
    assert len(list((tmp_path / "ck").glob("block-*.npz"))) == 3


def test_map_tasks_gives_results_in_task_order_from_the_run_layers_workers(tmp_path):
    """``map_tasks`` (what the analyses use): task order, worker processes with the thread caps, script functions."""
    import os

    from wizsim.report.report import load_analysis
    from wizsim.run.parallel import map_tasks

    assert map_tasks(pow, [(2, i) for i in range(6)], 1) == [2**i for i in range(6)]
    script = tmp_path / "tasks.py"  # like an analysis: not importable in the workers, so sent by value
    script.write_text("import os\n\ndef square(x):\n    return x * x, os.getpid(), os.environ.get('OMP_NUM_THREADS')\n")
    got = map_tasks(load_analysis(script).square, [(i,) for i in range(6)], 2)
    assert [g[0] for g in got] == [i * i for i in range(6)]
    assert os.getpid() not in {g[1] for g in got}
    assert {g[2] for g in got} == {"1"}
    with pytest.raises(WizsimError, match="jobs must be >= 1"):
        map_tasks(pow, [(2, 1)], 0)
