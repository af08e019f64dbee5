"""Atomic output: a run that fails or is interrupted leaves no half-written file.

Every output file is written to a hidden temporary beside it,
``.NAME.HOST.PID.RANDOM.part``, and moved into place (``os.replace``) only when
it is complete (:func:`atomic_path`). An exception, including
KeyboardInterrupt, removes the temporary; a process killed outright (SIGKILL,
power loss) leaves it behind, hidden, and the next write of the same ``NAME``
on this host removes those of processes that no longer run (docs/decisions.md,
"Output files"). Files that belong together (a table, its games table and its
provenance ``.json``; an analysis's tables, charts and cache entry) are written
in an :func:`output_group`: none is moved into place before all are complete.

Tables go through :func:`write_table`. Floats in a ``.csv`` are written at
full precision (they read back as the same numbers), except inside
:func:`csv_float_format`: ``wizsim report`` and the analysis scripts write
``results/`` under ``csv_float_format(RESULTS_FLOAT_FORMAT)``, 8 significant
digits, so the files are byte-identical across machines (the last digits of
a float sum can differ between CPUs and libraries) and still carry every
figure a headline reports.
"""

from __future__ import annotations

import contextlib
import glob
import os
import socket
import tempfile
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path

from ..errors import WizsimError

RESULTS_FLOAT_FORMAT = "%.8g"  # floats in results/*.csv: 8 significant digits
_FLOAT_FORMAT: ContextVar[str | None] = ContextVar("wizsim_csv_float_format", default=None)
# the open output group's (temporary, target) pairs, in the order written; None: no group
_GROUP: ContextVar[list[tuple[Path, Path]] | None] = ContextVar("wizsim_output_group", default=None)


@contextlib.contextmanager
def csv_float_format(fmt: str | None) -> Iterator[None]:
    """Write the floats of every ``.csv`` table in this block with the ``%``-format ``fmt`` (None: full precision).

    Parameters
    ----------
    fmt
        A format such as :data:`RESULTS_FLOAT_FORMAT` (``"%.8g"``), passed to
        :meth:`pandas.DataFrame.to_csv` as ``float_format``.
    """
    token = _FLOAT_FORMAT.set(fmt)
    try:
        yield
    finally:
        _FLOAT_FORMAT.reset(token)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; move it into place only on success.

    The temporary is ``.NAME.HOST.PID.RANDOM.part`` (hidden; ``HOST`` and ``PID``
    name its writer). On any exception, including KeyboardInterrupt, it is
    removed and ``path`` is left as it was. Temporaries of ``path`` left by a
    process of this host that no longer runs (killed by SIGKILL) are removed
    first. Inside an :func:`output_group` the file is moved into place when the
    group ends, with the others.
    """
    target = Path(path)
    parent = _check_folder(target)
    prefix = _temp_prefix(target.name)
    sweep_temporaries(parent, target.name)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f"{prefix}{os.getpid()}.", suffix=".part", dir=parent)
    except OSError as exc:
        raise WizsimError(f"cannot write {target}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    # mkstemp makes the file private (0600); give it the mode a plain open() would
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    group = _GROUP.get()
    try:
        yield tmp
        if group is None:
            os.replace(tmp, target)
        else:
            group.append((tmp, target))
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise WizsimError(f"cannot write {target}: {exc.strerror or exc}") from None
        raise


def _temp_prefix(name: str) -> str:
    """``.NAME.HOST.``: the start of the temporaries of ``NAME`` written on this host."""
    host = socket.gethostname().replace(os.sep, "_") or "host"
    return f".{name}.{host}."


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (a zombie counts: its parent has not reaped it yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: another user's process
        return True
    return True


def sweep_temporaries(folder: str | os.PathLike, name: str) -> list[Path]:
    """Remove the temporaries of output ``name`` in ``folder`` whose writer on this host no longer runs.

    Such a file (``.NAME.HOST.PID.RANDOM.part``) is what a write cut short by
    SIGKILL leaves. Those of running processes (a concurrent write of the same
    file), of other hosts (a shared folder) and of other names are left alone.
    Returns the paths removed.
    """
    prefix = _temp_prefix(name)
    removed = []
    for stray in Path(folder).glob(glob.escape(prefix) + "*.part"):
        pid_text = stray.name[len(prefix) :].split(".", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid() or _running(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            stray.unlink()
            removed.append(stray)
    return removed


@contextlib.contextmanager
def output_group(stale: Iterable[str | os.PathLike] = ()) -> Iterator[None]:
    """Files written with :func:`atomic_path` (and :func:`write_table`) in this block appear together at its end.

    Each file is written to its temporary as usual; none is moved into place
    until the block ends without an exception (on an exception, or a kill,
    every target is left as it was). Then the files in ``stale`` are removed
    and, with two files or more, the previous version of the *last* file
    written; then the files are moved into place in the order written, the
    last one last. So the last file (a provenance ``.json``, a report's cache
    entry) exists only beside the very files it describes: a kill between two
    moves, a window of microseconds, leaves it missing, never stale. A group
    opened inside a group joins it.

    Parameters
    ----------
    stale : iterable of path-like
        Files that describe the group's targets and become wrong once they
        change (``wizsim report``'s README.md); removed just before the moves.
    """
    if _GROUP.get() is not None:
        yield
        return
    pending: list[tuple[Path, Path]] = []
    token = _GROUP.set(pending)
    try:
        yield
    except BaseException:
        _discard(pending)
        raise
    finally:
        _GROUP.reset(token)
    _commit(pending, [Path(p) for p in stale])


def _discard(pending: list[tuple[Path, Path]]) -> None:
    for tmp, _ in pending:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _commit(pending: list[tuple[Path, Path]], stale: list[Path]) -> None:
    """Move a group's temporaries into place (see :func:`output_group`)."""
    latest: dict[Path, Path] = {}  # target -> its last temporary, in the order of the last writes
    for tmp, target in pending:
        if target in latest:
            with contextlib.suppress(OSError):
                latest.pop(target).unlink()
        latest[target] = tmp
    if not latest:
        return
    moves = list(latest.items())
    target = moves[-1][0]
    try:
        for old in [*stale, *([target] if len(moves) > 1 else [])]:
            old.unlink(missing_ok=True)
        for target, tmp in moves:
            os.replace(tmp, target)
    except OSError as exc:
        _discard([(tmp, t) for t, tmp in moves])
        raise WizsimError(f"cannot write {target}: {exc.strerror or exc}") from None


def _check_folder(target: Path) -> Path:
    """The folder ``target`` goes into; a WizsimError if it is not an existing, writable folder."""
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.exists():
        raise WizsimError(f"cannot write {target}: folder {parent} does not exist")
    if not parent.is_dir():
        raise WizsimError(f"cannot write {target}: {parent} is not a folder")
    if target.is_dir():
        raise WizsimError(f"cannot write {target}: it is a folder; give a file name")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise WizsimError(f"cannot write {target}: folder {parent} is not writable")
    return parent


def check_output(path: str | os.PathLike, suffixes: tuple[str, ...]) -> Path:
    """Fail early (before any work) if ``path`` cannot be written: wrong suffix or missing folder."""
    target = Path(path)
    if target.suffix.lower() not in suffixes:
        raise WizsimError(f"cannot write {target}: use a file name ending in {' or '.join(suffixes)}")
    parent = _check_folder(target)
    # a real write probe: permissions, read-only file systems, immutable folders
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise WizsimError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def write_table(df, path: str | os.PathLike) -> None:
    """Write a DataFrame to ``.csv`` or ``.parquet`` atomically (provenance kept in parquet metadata).

    Floats in a ``.csv`` follow :func:`csv_float_format` (default: full
    precision); a ``.parquet`` keeps them exactly.
    """
    target = check_output(path, (".csv", ".parquet"))
    suffix = target.suffix.lower()
    with atomic_path(target) as tmp:
        if suffix == ".csv":
            df.to_csv(tmp, index=False, float_format=_FLOAT_FORMAT.get())
        else:
            df.to_parquet(tmp, index=False)
