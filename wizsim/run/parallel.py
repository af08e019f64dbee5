"""The run layer: how the tasks of a long run reach worker processes, with checkpoints and progress.

Every long command (``simulate``, ``history``, ``tournament``, ``report``) and
the training of the bid table run through this module:

* :class:`RunOptions` carries the run options (``jobs``, ``backend``,
  ``scheduler``, ``checkpoint``, ``progress``, ``numba_cache``) from the
  command line (:func:`add_run_arguments`, :meth:`RunOptions.from_args`) or
  the Python API into the run, checked once.
* :func:`workers` is the one place where joblib and Dask are set up: its
  :meth:`Workers.map` runs tasks in worker processes and yields their results
  in task order or as they finish.

  - ``backend="loky"``: ``jobs`` local processes through joblib; each worker
    runs the serial kernels with thread pools capped at one thread (the caps
    and the Numba cache switch go to the workers' environment; the caller's
    environment is left alone). With one job the tasks run in this process.
  - ``backend="dask"``: the same tasks on a Dask cluster through joblib's Dask
    backend: an existing one (``scheduler="tcp://host:port"``) or, without an
    address, a local cluster on the loopback interface with ``jobs``
    processes.

* :class:`Checkpoint` keeps the integer sums of finished *blocks* of
  consecutive chunks in a folder (``block-<lo>-<hi>.npz`` next to
  ``manifest.json``, the run's identity); a rerun of the same run loads them
  and runs only the others. Sums of integers do not depend on the order in
  which blocks finish, so a resumed run gives the result of an uninterrupted
  one. The manifest is read strictly: anything but the very manifest this run
  writes is refused in one line naming the first fields that differ. A block
  carries the SHA-256 of its arrays; a block that cannot be read, or whose
  arrays do not match it, is run again (with a warning).
* :class:`Progress` is a line on stderr that appears once a run has taken 2 s.
* :func:`map_tasks` runs tasks of any kind in the same workers and returns
  their results in order: the analyses under ``analyses/`` use it.

:func:`run_counts` runs the chunks of a simulation: blocks (one task each,
``spec.run_block``) are summed as they finish, in any order, so the result
does not depend on the backend, the number of workers or the order of
completion, and at most a few block results are held in memory at once.
Checkpointed runs use blocks of :data:`BLOCK_CHUNKS` chunks whatever the
number of workers, so a run can be resumed with another ``jobs``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from joblib.parallel import LokyBackend

from ..errors import WizsimError
from .spec import Counts, RunSpec, as_int, run_block, version

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
CHECKPOINT_FORMAT = "wizsim-checkpoint/2"  # 2: blocks carry the SHA-256 of their arrays
BLOCK_DIGEST = "sha256"  # the member of a block file that holds it
DASK_CONNECT_TIMEOUT = 30  # seconds to reach an existing scheduler
PROGRESS_DELAY = 2.0  # seconds before a progress line appears
BAR_FORMAT = "{desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}{unit} [{elapsed}<{remaining}, {rate_fmt}]"


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class RunOptions:
    """How to run: worker processes, backend, checkpoint folder, progress, Numba cache.

    Parameters
    ----------
    jobs : int
        Local worker processes (``backend="loky"``, or the size of a local Dask
        cluster); results are the same for every value.
    backend : {"loky", "dask"}
        Local processes through joblib, or a Dask cluster.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:port``); only with
        ``backend="dask"``. Without it, ``backend="dask"`` starts a local cluster.
    checkpoint : str or path-like, optional
        Folder that keeps finished blocks, so that an interrupted run can be
        resumed (where the run takes it).
    progress : bool
        Show a progress line on stderr for runs longer than 2 s.
    numba_cache : bool, optional
        ``False`` switches Numba's on-disk cache off here and in the workers;
        ``None`` hands on this process's ``WIZSIM_NUMBA_CACHE``.

    Raises
    ------
    WizsimError
        For ``jobs < 1``, an unknown backend, or a scheduler without ``backend="dask"``.
    """

    jobs: int = 1
    backend: str = "loky"
    scheduler: str | None = None
    checkpoint: str | os.PathLike | None = None
    progress: bool = False
    numba_cache: bool | None = None

    def __post_init__(self) -> None:
        jobs = as_int("jobs", self.jobs)
        if jobs < 1:
            raise WizsimError(f"jobs must be >= 1, got {jobs}")
        object.__setattr__(self, "jobs", jobs)
        if self.backend not in BACKENDS:
            raise WizsimError(f"unknown backend {self.backend!r}: use one of {', '.join(BACKENDS)}")
        if self.scheduler is not None and self.backend != "dask":
            raise WizsimError("--scheduler goes with --backend dask")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunOptions:
        """The options given on a command line made with :func:`add_run_arguments`.

        Parameters
        ----------
        args : argparse.Namespace
            The parsed command line: ``jobs``, ``backend``, ``scheduler``, ``quiet``,
            ``no_numba_cache`` and, where the command has it, ``checkpoint``.

        Returns
        -------
        RunOptions
            The options (progress shown unless ``--quiet``; ``--no-numba-cache`` switches the cache off).
        """
        return cls(
            jobs=args.jobs,
            backend=args.backend or "loky",
            scheduler=args.scheduler,
            checkpoint=getattr(args, "checkpoint", None),
            progress=not args.quiet,
            numba_cache=False if args.no_numba_cache else None,
        )

    def kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments (``jobs=..., backend=..., ...``) of the Python API.

        Returns
        -------
        dict
            Every field of the options by name.
        """
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def refuse_checkpoint(self, what: str, why: str) -> None:
        """Raise a WizsimError if a checkpoint was asked for ``what``, which cannot resume (``why``).

        Parameters
        ----------
        what : str
            What is being run, as the error names it.
        why : str
            Why it cannot resume from a checkpoint, as the error says it.

        Raises
        ------
        WizsimError
            When ``checkpoint`` is set.
        """
        if self.checkpoint is not None:
            raise WizsimError(f"--checkpoint does not apply to {what}: {why}")


def add_run_arguments(
    parser: argparse.ArgumentParser, *, default_jobs: int = 1, checkpoint_help: str | None = None
) -> None:
    """Add the run options to a command's parser: ``--jobs --backend --scheduler --checkpoint --quiet --no-numba-cache``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser; the options form its "run options" group.
    default_jobs : int
        Default of ``--jobs``.
    checkpoint_help : str, optional
        What ``--checkpoint`` does for this command; ``None``: no ``--checkpoint`` option.
    """
    group = parser.add_argument_group("run options")
    group.add_argument(
        "--jobs",
        type=int,
        default=default_jobs,
        metavar="J",
        help=f"worker processes (default {default_jobs}); the same results for any value",
    )
    group.add_argument(
        "--backend",
        choices=BACKENDS,
        help="loky: local processes (default); dask: a Dask cluster (--scheduler, else a local one of J processes)",
    )
    group.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT", help="address of a running Dask scheduler (with --backend dask)"
    )
    if checkpoint_help is not None:
        group.add_argument("--checkpoint", metavar="DIR", help=checkpoint_help)
    group.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    group.add_argument(
        "--no-numba-cache", action="store_true", help="do not use Numba's on-disk cache (here and in workers)"
    )


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

    from ..engine.jit.config import engine_dispatchers

    saved: list[tuple[Any, Any]] = []
    for obj in engine_dispatchers():
        dispatcher: Any = obj  # numba's dispatcher stubs leave out the private ``_cache`` swapped here
        if isinstance(obj, CPUDispatcher) and not isinstance(dispatcher._cache, NullCache):
            saved.append((dispatcher, dispatcher._cache))
            dispatcher._cache = NullCache()
    try:
        yield
    finally:
        for dispatcher, cache in saved:
            dispatcher._cache = cache


@contextlib.contextmanager
def numba_cache_off() -> Iterator[None]:
    """Numba's on-disk cache off in this process and in every process started inside the block.

    For code that starts worker processes of its own (the analyses under
    ``wizsim report``): ``WIZSIM_NUMBA_CACHE=0`` is set in this process's
    environment for the duration of the block (then restored).
    """
    old = os.environ.get("WIZSIM_NUMBA_CACHE")
    os.environ["WIZSIM_NUMBA_CACHE"] = "0"
    try:
        with numba_cache_disabled():
            yield
    finally:
        if old is None:
            os.environ.pop("WIZSIM_NUMBA_CACHE", None)
        else:
            os.environ["WIZSIM_NUMBA_CACHE"] = old


# --------------------------------------------------------------------------- workers


class LokyWithEnv(LokyBackend):
    """joblib's loky backend, with extra environment variables for its workers.

    The variables go to loky's executor (not to ``os.environ`` of the caller);
    a pool started with another environment is replaced, not reused.
    """

    def __init__(self, env: dict[str, str] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self._extra_env = dict(env or {})

    def _prepare_worker_env(self, n_jobs: int) -> dict[str, str]:
        out = super()._prepare_worker_env(n_jobs)
        out.update(self._extra_env)
        return out


@contextlib.contextmanager
def dask_client(jobs: int, scheduler: str | None, env: dict[str, str]) -> Iterator[Any]:
    """A Dask client: of the cluster at ``scheduler``, or of a new local cluster of ``jobs`` processes with ``env``."""
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


def _indexed(fn: Callable[..., Any], index: int, task: tuple) -> tuple[int, Any]:
    """Run one task in a worker; the result comes back with the task's index."""
    return index, fn(*task)


class Workers:
    """The worker processes of one run (made by :func:`workers`)."""

    def __init__(self, options: RunOptions, stack: contextlib.ExitStack, resumable: bool):
        self.options = options
        self._stack = stack
        self._env = worker_env(options.numba_cache)
        self._client: Any = None
        self._resumable = resumable

    def client(self) -> Any:
        """The Dask client (connected, or its local cluster started, on first use)."""
        if self._client is None:
            self._client = self._stack.enter_context(dask_client(self.options.jobs, self.options.scheduler, self._env))
        return self._client

    @property
    def count(self) -> int:
        """How many tasks run at once: ``jobs``, or the worker threads of an existing Dask cluster."""
        if self.options.backend == "dask" and self.options.scheduler is not None:
            return max(1, sum(self.client().nthreads().values()))
        return self.options.jobs

    def map(
        self, fn: Callable[..., Any], tasks: Iterable[tuple], *, ordered: bool = True
    ) -> Iterator[tuple[tuple, Any]]:
        """Run ``fn(*task)`` for every task; yield ``(task, result)`` in task order, or as they finish.

        ``fn`` must be importable by the workers (a module-level function).
        With ``ordered`` only a few results are held ahead of the one awaited.
        A worker that dies ends the run with a WizsimError.
        """
        tasks = list(tasks)
        if not tasks:
            return
        opts = self.options
        try:
            if opts.backend == "loky" and (opts.jobs == 1 or len(tasks) == 1):
                for task in tasks:
                    yield task, fn(*task)
                return
            from joblib import Parallel, delayed

            calls = (delayed(_indexed)(fn, i, task) for i, task in enumerate(tasks))
            return_as = "generator" if ordered else "generator_unordered"
            if opts.backend == "loky":
                backend = LokyWithEnv(env=self._env, inner_max_num_threads=1)
                par = Parallel(n_jobs=min(opts.jobs, len(tasks)), backend=backend, batch_size=1, return_as=return_as)
                for i, result in par(calls):
                    yield tasks[i], result
            else:
                from joblib import parallel_config

                with parallel_config(backend="dask", client=self.client(), wait_for_workers_timeout=60):
                    par = Parallel(n_jobs=-1, batch_size=1, return_as=return_as)
                    for i, result in par(calls):
                        yield tasks[i], result
        except Exception as exc:
            if type(exc).__name__ in ("TerminatedWorkerError", "KilledWorker"):
                raise WizsimError(
                    f"a worker process died during the run ({type(exc).__name__}); {self._hint()}"
                ) from None
            raise

    def _hint(self) -> str:
        if self.options.checkpoint is not None:
            return f"finished blocks are kept in {self.options.checkpoint}: rerun the same command to resume"
        if self._resumable:
            return "rerun it (with --checkpoint DIR to keep finished work)"
        return "rerun it"


@contextlib.contextmanager
def workers(options: RunOptions, *, resumable: bool = True) -> Iterator[Workers]:
    """The worker processes of a run, for :meth:`Workers.map`; closed (and the Numba cache restored) at the end.

    Parameters
    ----------
    options : RunOptions
        Jobs, backend, scheduler and the Numba cache switch.
    resumable : bool
        Whether the run could have been resumed with ``--checkpoint`` (said when a worker dies).

    Yields
    ------
    Workers
        A Dask cluster is reached (or started) only when a task needs it.
    """
    with contextlib.ExitStack() as stack:
        if options.numba_cache is False:
            stack.enter_context(numba_cache_disabled())
        yield Workers(options, stack, resumable)


def map_tasks(fn: Callable[..., Any], tasks: Iterable[tuple], jobs: int = 1) -> list[Any]:
    """Run ``fn(*task)`` for every task in ``jobs`` local worker processes; return the results in task order.

    For code that cuts its work into tasks of its own (the analyses under
    ``analyses/``): the workers of :func:`workers`, as a simulation run gets
    them (loky processes with one thread per pool and this process's Numba
    cache switch; with one job, or one task, the tasks run in this process).
    ``fn`` and the tasks are pickled to the workers (cloudpickle): a function
    of a script the workers cannot import (an analysis loaded by ``wizsim
    report``, or run as ``__main__``) travels by value.

    Parameters
    ----------
    fn : callable
        Called as ``fn(*task)``.
    tasks : iterable of tuple
        The arguments of each call.
    jobs : int
        Worker processes; the results do not depend on it.

    Returns
    -------
    list
        ``fn(*task)`` of every task, in the order of ``tasks``.

    Raises
    ------
    WizsimError
        For ``jobs < 1``, or a worker that died.
    """
    with workers(RunOptions(jobs=jobs), resumable=False) as pool:
        return [result for _, result in pool.map(fn, tasks)]


# --------------------------------------------------------------------------- blocks


def block_ranges(n_chunks: int, block_chunks: int) -> list[tuple[int, int]]:
    """Consecutive ``(lo, hi)`` chunk ranges of ``block_chunks`` chunks (the last may be shorter)."""
    return [(lo, min(lo + block_chunks, n_chunks)) for lo in range(0, n_chunks, block_chunks)]


def _balanced_block_chunks(n_chunks: int, workers: int) -> int:
    """Block size of a run without checkpoint: about 4 blocks per worker, at most BLOCK_CHUNKS chunks."""
    if workers <= 1:
        return BLOCK_CHUNKS
    return max(1, min(BLOCK_CHUNKS, math.ceil(n_chunks / (4 * workers))))


def block_items(spec: RunSpec, lo: int, hi: int) -> int:
    """Items (rounds in hands mode, games in games mode) of chunks ``lo .. hi - 1``."""
    return min(hi * spec.chunk_size, spec.items) - lo * spec.chunk_size


def _block_rounds(spec: RunSpec, lo: int, hi: int) -> int:
    return block_items(spec, lo, hi) * len(spec.schedule)


# --------------------------------------------------------------------------- checkpoints


class Checkpoint:
    """A folder of the finished blocks of one run (``manifest.json`` + ``block-<lo>-<hi>.npz``).

    Parameters
    ----------
    folder : str or path-like
        Made if missing; refused if it holds another run's blocks or other files.
    run : dict
        The run's identity (its provenance): a folder made for another run is refused.
    n_chunks : int
        Chunks of the run.
    block_chunks : int
        Chunks per block.
    """

    def __init__(self, folder: str | os.PathLike, run: dict[str, Any], n_chunks: int, block_chunks: int = BLOCK_CHUNKS):
        self.folder = Path(folder)
        self.n_chunks = n_chunks
        self.block_chunks = block_chunks
        self.manifest = {
            "format": CHECKPOINT_FORMAT,
            "wizsim_version": version(),
            "run": run,
            "n_chunks": n_chunks,
            "block_chunks": block_chunks,
        }
        self._open()

    def _fail(self, why: str) -> WizsimError:
        return WizsimError(f"checkpoint {self.folder} {why}; use another folder or delete it")

    def _open(self) -> None:
        folder = self.folder
        if "\0" in str(folder):
            raise WizsimError(f"checkpoint {str(folder)!r}: a folder name cannot hold a NUL character")
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
            found = self._read_manifest(path)
            if _canonical(found) != _canonical(wanted):
                raise self._fail(f"was made by a different run: {_describe_difference(found, wanted)}")
            return
        if any(folder.iterdir()):
            raise WizsimError(
                f"checkpoint {folder} holds files but no manifest.json; use another folder or an empty one"
            )
        from .io import atomic_path

        with atomic_path(path) as tmp:
            tmp.write_text(json.dumps(wanted, indent=2) + "\n", encoding="utf-8")

    def _read_manifest(self, path: Path) -> dict[str, Any]:
        """The manifest's JSON object; a WizsimError if it is not one JSON object of UTF-8 text without repeated keys."""
        try:
            text = path.read_bytes().decode("utf-8")
            found = json.loads(text, object_pairs_hook=_no_repeated_keys, parse_int=_parse_int)
        except OSError as exc:
            raise self._fail(f"has an unreadable manifest.json ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise self._fail(f"has a manifest.json that is not UTF-8 text (byte {exc.start})") from None
        except RecursionError:
            raise self._fail("has a manifest.json nested too deeply to be one wizsim wrote") from None
        except ValueError as exc:
            raise self._fail(f"has an unreadable manifest.json ({_flat(exc)})") from None
        if not isinstance(found, dict):
            raise self._fail(f"has a manifest.json that is not a JSON object but {_short(found)}")
        return found

    def blocks(self) -> list[tuple[int, int]]:
        """The ``(lo, hi)`` chunk ranges of the blocks."""
        return block_ranges(self.n_chunks, self.block_chunks)

    def block_path(self, lo: int, hi: int) -> Path:
        return self.folder / f"block-{lo}-{hi}.npz"

    def load(self, lo: int, hi: int) -> dict[str, np.ndarray] | None:
        """The arrays of a finished block, or None if it is missing or damaged (then it is run again).

        A damaged block (not a readable ``.npz``, or arrays that do not match the
        SHA-256 it carries) is reported with a warning: see :meth:`damaged`.
        """
        path = self.block_path(lo, hi)
        if not path.exists():
            return None
        try:
            # the file opened here, so that it is closed when numpy fails half-way (np.load of a path leaks it)
            with open(path, "rb") as f, np.load(f, allow_pickle=False) as z:
                arrays = {name: z[name] for name in z.files}
        except Exception:  # numpy and zipfile raise many kinds for a damaged file
            self.damaged(lo, hi, "not a readable .npz file")
            return None
        if not all(isinstance(a, np.ndarray) for a in arrays.values()):  # a member that is not .npy: its bytes
            self.damaged(lo, hi, "it holds files that are not arrays")
            return None
        digest = arrays.pop(BLOCK_DIGEST, None)
        if digest is None or digest.shape != () or digest.dtype.kind != "U" or str(digest) != _digest(arrays):
            self.damaged(lo, hi, "its arrays do not match the checksum written with them")
            return None
        return arrays

    def damaged(self, lo: int, hi: int, why: str) -> None:
        """Warn that the block ``lo .. hi - 1`` is damaged (``why``): it is run again."""
        name = self.block_path(lo, hi).name
        warnings.warn(f"checkpoint {self.folder}: {name} is damaged ({why}); running it again", stacklevel=2)

    def save(self, lo: int, hi: int, arrays: dict[str, np.ndarray]) -> None:
        """Write a finished block's arrays and their SHA-256 atomically (and to disk)."""
        from .io import atomic_path

        if BLOCK_DIGEST in arrays:
            raise ValueError(f"a block's arrays may not be named {BLOCK_DIGEST!r}")
        with atomic_path(self.block_path(lo, hi)) as tmp, open(tmp, "wb") as f:
            np.savez(f, allow_pickle=False, **arrays, **{BLOCK_DIGEST: np.array(_digest(arrays))})
            f.flush()
            os.fsync(f.fileno())


def _digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of named arrays: names, dtypes, shapes and bytes, in name order."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(json.dumps([name, a.dtype.str, list(a.shape)]).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object hook: a key given twice is an error (which of the two would count?)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {_short(key)} is given twice")
        out[key] = value
    return out


class _HugeNumber(str):
    """A whole number too long for ``int`` (thousands of digits) in a manifest: kept as its digits."""


def _parse_int(text: str) -> int | _HugeNumber:
    return int(text) if len(text) <= 4000 else _HugeNumber(text)


def _canonical(value: Any) -> str:
    """JSON text that tells apart what ``==`` does not (``1``, ``1.0`` and ``true``); keys in order."""
    return json.dumps(value, sort_keys=True)


def _flat(exc: BaseException) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _short(value: Any) -> str:
    if isinstance(value, _HugeNumber):
        return f"a number of {len(value.lstrip('-'))} digits"
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


_MISSING = object()


def _field(found: dict, key: str) -> Any:
    return found.get(key, _MISSING)


def _show(value: Any) -> str:
    return "missing" if value is _MISSING else _short(value)


def _name(key: str, known: dict) -> str:
    """A field's name: as it is if this run writes it, else quoted (a found name may hold any character)."""
    return key if key in known else f"field {_short(key)}"


def _describe_difference(found: dict, wanted: dict) -> str:
    """'seed 7 (this run: 8), ...' for the first few fields that differ (a missing field: 'missing')."""

    def differ(a: Any, b: Any) -> bool:
        return a is _MISSING or b is _MISSING or _canonical(a) != _canonical(b)

    if differ(_field(found, "format"), wanted["format"]):
        return f"format {_show(_field(found, 'format'))} (this run: {wanted['format']})"
    diffs = []
    old_version = _field(found, "wizsim_version")
    version_differs = differ(old_version, wanted["wizsim_version"])
    if version_differs:
        plain = isinstance(old_version, str) and old_version.isprintable() and len(old_version) <= 60
        shown = old_version if plain else _show(old_version)
        diffs.append(f"wizsim {shown} (this run: {wanted['wizsim_version']})")
    old_run, new_run = _field(found, "run"), wanted["run"]
    if not isinstance(old_run, dict):
        diffs.append(f"run {_show(old_run)} (this run: an object of {len(new_run)} fields)")
        old_run = {}
    for key in sorted(set(old_run) | set(new_run)):
        if key == "wizsim_version" and version_differs:
            continue  # said above
        a, b = old_run.get(key, _MISSING), new_run.get(key, _MISSING)
        if differ(a, b):
            diffs.append(f"{_name(key, new_run)} {_show(a)} (this run: {_show(b)})")
    for key in sorted(set(found) | set(wanted)):
        if key in ("format", "wizsim_version", "run"):
            continue
        a, b = _field(found, key), wanted.get(key, _MISSING)
        if differ(a, b):
            diffs.append(f"{_name(key, wanted)} {_show(a)} (this run: {_show(b)})")
    if not diffs:
        diffs.append("its manifest.json differs")
    more = f" and {len(diffs) - 3} more" if len(diffs) > 3 else ""
    return ", ".join(diffs[:3]) + more


# --------------------------------------------------------------------------- progress


class Progress:
    """A progress line on stderr (tqdm) that appears once the run has taken 2 s, redrawn every second.

    Parameters
    ----------
    total : int
        Units of the whole run.
    unit : str
        Name of a unit (``" hands"``).
    enabled : bool
        ``False``: nothing is shown (``--quiet``).
    initial : int
        Units already done (a resumed run).
    desc : str
        Text before the bar.
    bar_format : str
        tqdm's ``bar_format``.
    """

    def __init__(
        self,
        total: int,
        unit: str,
        enabled: bool,
        *,
        initial: int = 0,
        desc: str = "",
        bar_format: str = BAR_FORMAT,
    ):
        from tqdm.auto import tqdm

        self.bar = tqdm(
            total=total,
            initial=initial,
            unit=unit,
            unit_scale=True,
            file=sys.stderr,
            delay=PROGRESS_DELAY,
            disable=not enabled,
            dynamic_ncols=True,
            smoothing=0.1,
            bar_format=bar_format,
        )
        self.bar.set_description_str(desc, refresh=False)
        self._start = time.monotonic()
        self._shown = False
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True) if enabled else None
        if self._ticker is not None:
            self._ticker.start()

    def _due(self) -> bool:
        return time.monotonic() - self._start >= PROGRESS_DELAY

    def _tick(self) -> None:
        """Redraw once a second after the delay: the elapsed time moves on while a long task runs."""
        while not self._stop.wait(1.0):
            if self._due():
                self._shown = True
                self.bar.refresh()

    def update(self, n: int = 1, desc: str | None = None) -> None:
        """Add ``n`` units done (and change the text before the bar)."""
        if desc is not None:
            self.describe(desc)
        self.bar.update(n)

    def describe(self, desc: str) -> None:
        """Change the text before the bar (redrawn at once if the line is shown)."""
        self.bar.set_description_str(desc, refresh=False)
        if not self.bar.disable and self._due():
            self._shown = True
            self.bar.refresh()

    def write(self, text: str) -> None:
        """Print a line on stdout without breaking the progress line."""
        if self._shown and not self.bar.disable:
            self.bar.write(text, file=sys.stdout)
        else:
            print(text)

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._shown and not self.bar.disable:
            # shown by a redraw (not by update): make tqdm finish the line
            self.bar.last_print_t = max(self.bar.last_print_t, self.bar.start_t + self.bar.delay)
        self.bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def chunks_done(done: int, total: int) -> str:
    """``chunks 3/10``: the text before a run's progress bar."""
    return f"chunks {done:,}/{total:,}"


# --------------------------------------------------------------------------- a simulation run


def _load_counts(ckpt: Checkpoint, spec: RunSpec, lo: int, hi: int) -> Counts | None:
    """The counts of a finished block, or None if missing or unusable (then it is run again)."""
    arrays = ckpt.load(lo, hi)
    if arrays is None:
        return None
    if set(arrays) != {"joint", "aux", "game_acc"}:
        ckpt.damaged(lo, hi, f"it holds {sorted(arrays)}, not joint, aux and game_acc")
        return None
    got = Counts(arrays["joint"], arrays["aux"], arrays["game_acc"])
    want = Counts.zeros(spec.players, max(spec.schedule))
    for name in ("joint", "aux", "game_acc"):
        a, b = getattr(got, name), getattr(want, name)
        if a.dtype != b.dtype or a.shape != b.shape:
            ckpt.damaged(lo, hi, f"{name} is {a.dtype}{list(a.shape)}, not {b.dtype}{list(b.shape)}")
            return None
    if int(got.joint.sum()) != _block_rounds(spec, lo, hi) * spec.players or (got.joint < 0).any():
        ckpt.damaged(lo, hi, "its counts are not those of its rounds")
        return None
    return got


def run_counts(spec: RunSpec, options: RunOptions | None = None, **changes: Any) -> Counts:
    """Run every chunk of ``spec`` and return the summed counts (see the module docstring).

    The one entry point for a simulation's counts: ``run_counts(spec, options)``
    from a command line's :class:`RunOptions`, ``run_counts(spec, jobs=2)`` or
    ``run_counts(spec, backend="dask", scheduler=...)`` from Python.

    Parameters
    ----------
    spec : RunSpec
        The run.
    options : RunOptions, optional
        Workers, backend, checkpoint folder, progress and Numba cache switch
        (default ``RunOptions()``: one process, no checkpoint, no progress).
    **changes
        Fields of :class:`RunOptions` to set on ``options`` (``jobs``,
        ``backend``, ``scheduler``, ``checkpoint``, ``progress``, ``numba_cache``).

    Returns
    -------
    Counts
        Identical for every ``jobs`` and backend, and for a resumed run.

    Raises
    ------
    TypeError
        For an ``options`` that is not a :class:`RunOptions` (a number of jobs
        goes by keyword: ``jobs=2``) or a change that is not one of its fields.
    WizsimError
        For invalid options (see :class:`RunOptions`).
    """
    if options is None:
        options = RunOptions()
    elif not isinstance(options, RunOptions):
        raise TypeError(f"run_counts(spec, options): options must be a RunOptions, got {options!r} (use jobs=N)")
    if changes:
        options = replace(options, **changes)
    n_chunks = spec.n_chunks
    total = Counts.zeros(spec.players, max(spec.schedule))
    ckpt = Checkpoint(options.checkpoint, spec.provenance(), n_chunks) if options.checkpoint is not None else None
    done_chunks = done_rounds = 0
    todo = []
    if ckpt is not None:
        for lo, hi in ckpt.blocks():
            part = _load_counts(ckpt, spec, lo, hi)
            if part is None:
                todo.append((lo, hi))
            else:
                total += part
                done_chunks += hi - lo
                done_rounds += _block_rounds(spec, lo, hi)
    with workers(options) as pool:
        if ckpt is None:
            todo = block_ranges(n_chunks, _balanced_block_chunks(n_chunks, pool.count))
        if not todo:
            return total
        with Progress(
            spec.rounds, " hands", options.progress, initial=done_rounds, desc=chunks_done(done_chunks, n_chunks)
        ) as bar:
            for (_, lo, hi), part in pool.map(run_block, [(spec, lo, hi) for lo, hi in todo], ordered=False):
                if ckpt is not None:
                    ckpt.save(lo, hi, {"joint": part.joint, "aux": part.aux, "game_acc": part.game_acc})
                total += part
                done_chunks += hi - lo
                bar.update(_block_rounds(spec, lo, hi), desc=chunks_done(done_chunks, n_chunks))
    return total
