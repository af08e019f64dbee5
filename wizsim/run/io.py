"""Atomic output: a run that fails or is interrupted leaves no half-written file.

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
import os
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from ..errors import WizsimError

RESULTS_FLOAT_FORMAT = "%.8g"  # floats in results/*.csv: 8 significant digits
_FLOAT_FORMAT: ContextVar[str | None] = ContextVar("wizsim_csv_float_format", default=None)


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

    On any exception, including KeyboardInterrupt, the temporary file is
    removed and ``path`` is left as it was.
    """
    target = Path(path)
    parent = _check_folder(target)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=parent)
    except OSError as exc:
        raise WizsimError(f"cannot write {target}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    # mkstemp makes the file private (0600); give it the mode a plain open() would
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise WizsimError(f"cannot write {target}: {exc.strerror or exc}") from None
        raise


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
