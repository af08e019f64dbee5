"""Numba options shared by every kernel, and the cache fingerprint that keeps cached code honest.

* ``cache=True`` so that a second process (a test session, a joblib worker)
  loads the compiled machine code from disk instead of compiling again; set
  ``WIZSIM_NUMBA_CACHE=0`` to switch caching off (for example on a read-only
  install or a cluster whose workers share a network drive).
* ``fastmath`` stays off: every kernel works on integers, and results must not
  depend on the compiler's freedom to reassociate.
* ``error_model="numpy"`` avoids the Python-style zero-division checks that
  would otherwise sit in the inner loops.

The fingerprint. Numba keys a cached function by its own source file only: a
kernel in ``run.py`` that inlines a helper of ``trick.py`` would load stale
machine code after an edit to ``trick.py``, and so would a kernel compiled
under another value of an environment switch the engine reads at import time
(``WIZSIM_NO_PDEP``). :func:`check_cache` hashes every engine source file and
those switches; when the hash differs from the one stored beside the cache,
every cached engine function is deleted before anything is loaded.
``wizsim.engine`` calls it on import, before its kernel modules are defined.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba import njit

ENGINE_DIR = Path(__file__).resolve().parents[1]
#: environment switches whose value is baked into the machine code
BAKED_SWITCHES = ("WIZSIM_NO_PDEP",)
FINGERPRINT_FILE = "wizsim-engine.fingerprint"

CACHE: bool = os.environ.get("WIZSIM_NUMBA_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")

# ``_nrt`` set, not left to Numba: a function compiled on its own is otherwise compiled with the ``_nrt`` of
# the kernel that first calls it, and that one machine code then serves every later caller of the same types
NJIT_OPTIONS: dict = {"cache": CACHE, "fastmath": False, "error_model": "numpy", "nogil": True, "_nrt": True}
#: options of ``@overload`` implementations (compiled into their callers, which are cached); their ``_nrt`` is
#: their caller's (Numba keeps one implementation per caller's options)
OVERLOAD_OPTIONS: dict = {k: v for k, v in NJIT_OPTIONS.items() if k not in ("cache", "_nrt")}
#: no reference counting at all (Numba's ``_nrt=False``): for a kernel that allocates nothing and keeps no
#: array past its call. Numba then emits no NRT_incref/NRT_decref calls for the array views a kernel makes;
#: in the batched environment's step (a few views per table per decision) those calls, and the register
#: spills and reloads around them, cost about two thirds of the time (docs/architecture.md). An allocation in
#: such a kernel (or in a helper inlined into it) fails to compile; a function compiled on its own (``@jit``,
#: always with reference counts) may allocate.
NO_NRT_OPTIONS: dict = {"_nrt": False}


def switch_off(flag) -> bool:
    """True when a compile-time switch (a Numba type, see ``players/switches.py``) is off: a bool array (on: int8)."""
    from numba.core import types  # only while Numba compiles an overload

    return isinstance(flag, types.Array) and flag.dtype == types.boolean


def kernel(func):
    """Compile ``func`` with the project's Numba options (a function of its own)."""
    return njit(**NJIT_OPTIONS)(func)


def kernel_no_nrt(func):
    """Compile ``func`` as :func:`kernel` does, without reference counting (:data:`NO_NRT_OPTIONS`)."""
    return njit(**{**NJIT_OPTIONS, **NO_NRT_OPTIONS})(func)


def inline(func):
    """Compile ``func`` as a helper that Numba inlines into its callers."""
    return njit(inline="always", **NJIT_OPTIONS)(func)


def inline_generated(func):
    """Like :func:`inline` for code made at run time (a generated switch, a clone with other globals): it has no
    file of its own to cache under, and needs none, since it is only ever compiled into its (cached) callers."""
    return njit(inline="always", **OVERLOAD_OPTIONS)(func)


# ``jit``: a compiled function of its own; ``hot``: a helper Numba inlines into
# its callers (the round loop is one inlined function: calls in it cost speed, see
# docs/architecture.md; its arrays are borrowed views, see borrow.py).
jit = kernel
hot = inline


def engine_sources() -> list[Path]:
    """Every source file of the engine package (what the machine code is made of)."""
    return sorted(ENGINE_DIR.rglob("*.py"))


def fingerprint() -> str:
    """Hash of the engine's sources and of the baked-in environment switches."""
    h = hashlib.sha256()
    for path in engine_sources():
        h.update(path.relative_to(ENGINE_DIR).as_posix().encode())
        h.update(path.read_bytes())
    for name in BAKED_SWITCHES:
        h.update(f"{name}={os.environ.get(name, '')}".encode())
    return h.hexdigest()


def cache_dirs() -> list[Path]:
    """Where Numba keeps the engine's cached functions: ``__pycache__`` beside each source folder.

    With ``NUMBA_CACHE_DIR`` Numba (0.57 and later) keeps a folder's functions in
    ``<NUMBA_CACHE_DIR>/<folder name>_<sha1 of the folder's path>`` (its
    ``get_suitable_cache_subpath``); older releases mirrored the source path
    below it. Both are found.
    """
    folders = sorted({p.parent for p in engine_sources()})
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if not custom:
        return [f / "__pycache__" for f in folders]
    from numba.core.caching import _CacheLocator

    root = Path(custom)
    # the folder as Numba names it: from the module's file (abspath, as imported) or resolved
    names = {Path(_CacheLocator.get_suitable_cache_subpath(str(f / "x.py"))).name for f in folders}
    names |= {
        Path(_CacheLocator.get_suitable_cache_subpath(os.path.join(os.path.abspath(str(f)), "x.py"))).name
        for f in folders
    }
    found = {root / name for name in names}
    if root.is_dir():
        found |= {d for d in root.rglob("*") if d.is_dir() and any(d.as_posix().endswith(f.as_posix()) for f in folders)}
    return sorted(found)


def check_cache() -> bool:
    """Drop the engine's cached machine code if its fingerprint changed; return True if anything was dropped.

    Safe to call from several processes at once: each deletes what it finds
    and writes the same fingerprint. A cache folder that cannot be written is
    left alone (Numba then compiles in memory).
    """
    if not CACHE:
        return False
    want = fingerprint()
    stems = {p.stem for p in engine_sources()}
    dropped = False
    for folder in cache_dirs():
        stamp = folder / FINGERPRINT_FILE
        try:
            if stamp.exists() and stamp.read_text() == want:
                continue
            if folder.exists():
                for f in folder.iterdir():
                    if f.suffix in (".nbi", ".nbc") and f.name.split(".", 1)[0] in stems:
                        f.unlink(missing_ok=True)
                        dropped = True
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".{FINGERPRINT_FILE}.{os.getpid()}"
            tmp.write_text(want)
            os.replace(tmp, stamp)
        except OSError:
            continue
    return dropped


def engine_dispatchers() -> list:
    """Every compiled function of the engine package (Numba dispatchers), e.g. to switch their cache off."""
    import sys

    from numba.core.registry import CPUDispatcher

    out = []
    for name, module in list(sys.modules.items()):
        if name.startswith("wizsim.engine.") and module is not None:
            out.extend(obj for obj in vars(module).values() if isinstance(obj, CPUDispatcher))
    return list({id(d): d for d in out}.values())
