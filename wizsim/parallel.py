"""Running the chunks of a run: local processes, Dask clusters, checkpoints, progress.

A run's chunks are grouped into *blocks* of consecutive chunks; each block is
one task (``simulate._run_block``) that returns integer :class:`Counts`. Blocks
are summed as they finish, in any order, so the result does not depend on the
backend, the number of workers or the order of completion, and at most a few
block results are held in memory at once.

* ``backend="loky"``: ``jobs`` local processes through joblib; each worker runs
  the serial kernel with thread pools capped at one thread (the caps and the
  Numba cache switch are handed to the workers' environment, the caller's
  environment is left alone).
* ``backend="dask"``: the same blocks on a Dask cluster through joblib's Dask
  backend: an existing one (``scheduler="tcp://host:port"``) or, without an
  address, a local cluster on the loopback interface with ``jobs`` processes.
* ``checkpoint=DIR``: every finished block is written atomically to
  ``DIR/block-<lo>-<hi>.npz`` next to ``DIR/manifest.json`` (the run's
  identity); a rerun of the same run loads those blocks and runs only the
  others. Checkpointed runs use blocks of :data:`BLOCK_CHUNKS` chunks whatever
  the number of workers, so a run can be resumed with another ``jobs``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from joblib.parallel import LokyBackend

from .errors import WizsimError

if TYPE_CHECKING:
    from .simulate import Counts, RunSpec

BLOCK_CHUNKS = 64  # chunks per block of a checkpointed run (and at most, otherwise)
BACKENDS = ("loky", "dask")
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMBA_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
CHECKPOINT_FORMAT = "wizsim-checkpoint/1"
DASK_CONNECT_TIMEOUT = 30  # seconds to reach an existing scheduler


# --------------------------------------------------------------------------- worker environment


def worker_env(numba_cache: bool | None = None) -> dict[str, str]:
    """Environment for worker processes: one thread per pool; the Numba cache switch if given.

    ``numba_cache=None`` hands on this process's ``WIZSIM_NUMBA_CACHE`` (if set).
    """
    env = {var: "1" for var in THREAD_VARS}
    if numba_cache is None:
        if "WIZSIM_NUMBA_CACHE" in os.environ:
            env["WIZSIM_NUMBA_CACHE"] = os.environ["WIZSIM_NUMBA_CACHE"]
    else:
        env["WIZSIM_NUMBA_CACHE"] = "1" if numba_cache else "0"
    return env


@contextlib.contextmanager
def numba_cache_disabled() -> Iterator[None]:
    """Switch Numba's on-disk cache off for wizsim's kernels in this process (restored on exit).

    ``WIZSIM_NUMBA_CACHE`` is read when the kernels are defined, i.e. when
    wizsim is imported; this switches the cache of the already defined kernels
    off for the duration of a run.
    """
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from . import _kernels

    saved = []
    for obj in vars(_kernels).values():
        if isinstance(obj, CPUDispatcher) and not isinstance(obj._cache, NullCache):
            saved.append((obj, obj._cache))
            obj._cache = NullCache()
    try:
        yield
    finally:
        for obj, cache in saved:
            obj._cache = cache


# --------------------------------------------------------------------------- blocks


def block_ranges(n_chunks: int, block_chunks: int) -> list[tuple[int, int]]:
    """Consecutive ``(lo, hi)`` chunk ranges of ``block_chunks`` chunks (the last may be shorter)."""
    return [(lo, min(lo + block_chunks, n_chunks)) for lo in range(0, n_chunks, block_chunks)]


def _balanced_block_chunks(n_chunks: int, workers: int) -> int:
    """Block size of a run without checkpoint: about 4 blocks per worker, at most BLOCK_CHUNKS chunks."""
    if workers <= 1:
        return BLOCK_CHUNKS
    return max(1, min(BLOCK_CHUNKS, math.ceil(n_chunks / (4 * workers))))


def _block_rounds(spec: RunSpec, lo: int, hi: int) -> int:
    items = min(hi * spec.chunk_size, spec.items) - lo * spec.chunk_size
    return items * len(spec.schedule)


# --------------------------------------------------------------------------- checkpoints


class Checkpoint:
    """A folder of finished blocks of one run (``manifest.json`` + ``block-<lo>-<hi>.npz``)."""

    def __init__(self, folder: str | os.PathLike, spec: RunSpec, block_chunks: int = BLOCK_CHUNKS):
        from .simulate import _version

        self.folder = Path(folder)
        self.spec = spec
        self.block_chunks = block_chunks
        self.manifest = {
            "format": CHECKPOINT_FORMAT,
            "wizsim_version": _version(),
            "run": spec.provenance(),
            "n_chunks": spec.n_chunks,
            "block_chunks": block_chunks,
        }
        self._open()

    def _fail(self, why: str) -> WizsimError:
        return WizsimError(f"checkpoint {self.folder} {why}; use another folder or delete it")

    def _open(self) -> None:
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise WizsimError(f"checkpoint {folder} is not a folder; give a folder name")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WizsimError(f"cannot make checkpoint folder {folder}: {exc.strerror or exc}") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise WizsimError(f"cannot write checkpoint folder {folder}: not writable")
        # leftovers of atomic writes cut short by kill -9
        for stray in folder.glob(".*.part"):
            with contextlib.suppress(OSError):
                stray.unlink()
        path = folder / "manifest.json"
        wanted = json.loads(json.dumps(self.manifest))
        if path.exists():
            try:
                found = json.loads(path.read_text())
            except (OSError, ValueError) as exc:
                raise self._fail(f"has an unreadable manifest.json ({exc})") from None
            if found != wanted:
                raise self._fail(f"was made by a different run: {_describe_difference(found, wanted)}")
            return
        if any(folder.iterdir()):
            raise WizsimError(
                f"checkpoint {folder} holds files but no manifest.json; use another folder or an empty one"
            )
        from .io import atomic_path

        with atomic_path(path) as tmp:
            tmp.write_text(json.dumps(wanted, indent=2) + "\n")

    def block_path(self, lo: int, hi: int) -> Path:
        return self.folder / f"block-{lo}-{hi}.npz"

    def load(self, lo: int, hi: int) -> Counts | None:
        """The counts of a finished block, or None if it is missing (or unusable: then it is run again)."""
        from .simulate import Counts

        path = self.block_path(lo, hi)
        if not path.exists():
            return None
        want = Counts.zeros(self.spec.players, max(self.spec.schedule))
        try:
            with np.load(path, allow_pickle=False) as z:
                got = Counts(z["joint"], z["aux"], z["game_acc"])
        except Exception:  # a damaged file: run the block again
            return None
        for name in ("joint", "aux", "game_acc"):
            a, b = getattr(got, name), getattr(want, name)
            if a.dtype != b.dtype or a.shape != b.shape:
                return None
        if int(got.joint.sum()) != _block_rounds(self.spec, lo, hi) * self.spec.players:
            return None
        return got

    def save(self, lo: int, hi: int, counts: Counts) -> None:
        from .io import atomic_path

        with atomic_path(self.block_path(lo, hi)) as tmp, open(tmp, "wb") as f:
            np.savez(f, joint=counts.joint, aux=counts.aux, game_acc=counts.game_acc)
            f.flush()
            os.fsync(f.fileno())


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _describe_difference(found: dict, wanted: dict) -> str:
    """'seed 7 (this run: 8), ...' for the first few fields that differ."""
    diffs = []
    if found.get("format") != wanted["format"]:
        return f"format {_short(found.get('format'))} (this run: {wanted['format']})"
    if found.get("wizsim_version") != wanted["wizsim_version"]:
        diffs.append(f"wizsim {found.get('wizsim_version')} (this run: {wanted['wizsim_version']})")
    old_run, new_run = found.get("run") or {}, wanted["run"]
    for key in sorted(set(old_run) | set(new_run)):
        if key == "wizsim_version":
            continue
        if old_run.get(key) != new_run.get(key):
            diffs.append(f"{key} {_short(old_run.get(key))} (this run: {_short(new_run.get(key))})")
    for key in ("n_chunks", "block_chunks"):
        if found.get(key) != wanted[key] and not diffs:
            diffs.append(f"{key} {_short(found.get(key))} (this run: {wanted[key]})")
    if not diffs:
        diffs.append("its manifest.json differs")
    more = f" and {len(diffs) - 3} more" if len(diffs) > 3 else ""
    return ", ".join(diffs[:3]) + more


# --------------------------------------------------------------------------- progress


def progress_bar(spec: RunSpec, enabled: bool, initial_chunks: int = 0, initial_rounds: int = 0):
    """A tqdm bar on stderr (hands done, hands/s, time left; chunks in the postfix), shown after 2 s."""
    from tqdm.auto import tqdm

    bar = tqdm(
        total=spec.rounds,
        initial=initial_rounds,
        unit=" hands",
        unit_scale=True,
        file=sys.stderr,
        delay=2,
        disable=not enabled,
        dynamic_ncols=True,
        smoothing=0.1,
        bar_format="{desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}{unit} [{elapsed}<{remaining}, {rate_fmt}]",
    )
    bar.set_description_str(chunks_done(initial_chunks, spec.n_chunks), refresh=False)
    return bar


def chunks_done(done: int, total: int) -> str:
    return f"chunks {done:,}/{total:,}"


# --------------------------------------------------------------------------- running


def _check_choice(jobs: Any, backend: str, scheduler: str | None) -> int:
    from .simulate import _as_int

    jobs = _as_int("jobs", jobs)
    if jobs < 1:
        raise WizsimError(f"jobs must be >= 1, got {jobs}")
    if backend not in BACKENDS:
        raise WizsimError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise WizsimError("--scheduler goes with --backend dask")
    return jobs


@contextlib.contextmanager
def _dask_client(jobs: int, scheduler: str | None, env: dict[str, str]) -> Iterator[Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise WizsimError(
            "--backend dask needs dask.distributed: pip install 'wizsim[dask]' (or 'dask[distributed]')"
        ) from None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise WizsimError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        with client:
            yield client
        return
    import logging

    cluster = LocalCluster(
        n_workers=jobs,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # HTTP server on loopback, any free port
        silence_logs=logging.ERROR,
        env=env,
    )
    with cluster, Client(cluster, set_as_default=False) as client:
        yield client


def _results(spec: RunSpec, blocks: list[tuple[int, int]], jobs: int, backend: str, client: Any, env):
    """Yield ``((lo, hi), Counts)`` of every block as it finishes (any order)."""
    from .simulate import _run_block

    if backend == "loky" and (jobs == 1 or len(blocks) == 1):
        for lo, hi in blocks:
            yield (lo, hi), _run_block(spec, lo, hi)
        return
    from joblib import Parallel, delayed

    tasks = (delayed(_block_task)(spec, lo, hi) for lo, hi in blocks)
    if backend == "loky":
        par = Parallel(
            n_jobs=min(jobs, len(blocks)),
            backend=_LokyWithEnv(env=env, inner_max_num_threads=1),
            batch_size=1,
            return_as="generator_unordered",
        )
        yield from par(tasks)
    else:
        from joblib import parallel_config

        with parallel_config(backend="dask", client=client, wait_for_workers_timeout=60):
            par = Parallel(n_jobs=-1, batch_size=1, return_as="generator_unordered")
            yield from par(tasks)


def _block_task(spec: RunSpec, lo: int, hi: int) -> tuple[tuple[int, int], Counts]:
    from .simulate import _run_block

    return (lo, hi), _run_block(spec, lo, hi)


class _LokyWithEnv(LokyBackend):
    """joblib's loky backend, with extra environment variables for its workers.

    The variables go to loky's executor (not to ``os.environ`` of the caller);
    a pool started with another environment is replaced, not reused.
    """

    def __init__(self, env: dict[str, str] | None = None, **kwargs):
        super().__init__(**kwargs)
        self._extra_env = dict(env or {})

    def _prepare_worker_env(self, n_jobs):
        out = super()._prepare_worker_env(n_jobs)
        out.update(self._extra_env)
        return out


def run(
    spec: RunSpec,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: bool = False,
    numba_cache: bool | None = None,
) -> Counts:
    """Run every chunk of ``spec`` and return the summed counts (see the module docstring)."""
    from .simulate import Counts

    jobs = _check_choice(jobs, backend, scheduler)
    env = worker_env(numba_cache)
    n_chunks = spec.n_chunks
    total = Counts.zeros(spec.players, max(spec.schedule))
    ckpt = Checkpoint(checkpoint, spec) if checkpoint is not None else None
    done_chunks = done_rounds = 0
    todo = []
    if ckpt is not None:
        for lo, hi in block_ranges(n_chunks, ckpt.block_chunks):
            part = ckpt.load(lo, hi)
            if part is None:
                todo.append((lo, hi))
            else:
                total += part
                done_chunks += hi - lo
                done_rounds += _block_rounds(spec, lo, hi)
    with contextlib.ExitStack() as stack:
        if numba_cache is False:
            stack.enter_context(numba_cache_disabled())
        client = None
        if ckpt is None:
            workers = jobs
            if backend == "dask" and scheduler is not None:
                client = stack.enter_context(_dask_client(jobs, scheduler, env))
                workers = max(1, sum(client.nthreads().values()))
            todo = block_ranges(n_chunks, _balanced_block_chunks(n_chunks, workers))
        if not todo:
            return total
        if backend == "dask" and client is None:
            client = stack.enter_context(_dask_client(jobs, scheduler, env))
        bar = stack.enter_context(progress_bar(spec, progress, done_chunks, done_rounds))
        try:
            for (lo, hi), part in _results(spec, todo, jobs, backend, client, env):
                if ckpt is not None:
                    ckpt.save(lo, hi, part)
                total += part
                done_chunks += hi - lo
                bar.set_description_str(chunks_done(done_chunks, n_chunks), refresh=False)
                bar.update(_block_rounds(spec, lo, hi))
        except Exception as exc:
            if type(exc).__name__ in ("TerminatedWorkerError", "KilledWorker"):
                keep = (
                    f"finished blocks are kept in {ckpt.folder}: rerun the same command to resume"
                    if ckpt is not None
                    else "rerun it (with --checkpoint DIR to keep finished work)"
                )
                raise WizsimError(f"a worker process died during the run ({type(exc).__name__}); {keep}") from None
            raise
    return total
