"""Every Numba on-disk cache the project creates is covered by the engine's cache fingerprint.

Numba keys a cached function by its own source file only. A kernel outside
``wizsim/engine`` that inlines engine helpers (``tests/heuristic_scan.py``
inlines the heuristic's, ``tests/test_simd.py`` the vector row sum) would load
stale machine code from its ``__pycache__`` after an edit to the engine: the
fingerprint check (``wizsim.engine.jit.config.check_cache``) drops the cached code
of the engine's own source files only (``engine_sources``). So a file here
may cache compiled code only if it is one of those; every other file compiles
in memory (``cache=False``).

The scan reads the code, not the text (``cache=True`` in a docstring is
fine), and finds every way to ask for an on-disk cache: a ``cache`` argument
or ``"cache"`` option that is not literally ``False``, the engine's options
``NJIT_OPTIONS`` unless ``"cache": False`` overrides them, and the engine's
caching decorators (``kernel``, ``inline``, ``jit``, ``hot`` of
``wizsim.engine.jit.config``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from wizsim.engine.jit import config

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("tests", "scripts", "analyses", "wizsim")
ENGINE = ROOT / "wizsim" / "engine"
CACHING_DECORATORS = {"kernel", "inline", "jit", "hot"}


def _is_false(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _is_options(node: ast.AST) -> bool:
    """A reference to the engine's Numba options (``NJIT_OPTIONS`` or ``config.NJIT_OPTIONS``)."""
    return (isinstance(node, ast.Name) and node.id == "NJIT_OPTIONS") or (
        isinstance(node, ast.Attribute) and node.attr == "NJIT_OPTIONS"
    )


def caching_lines(source: str) -> list[int]:
    """Line numbers of ``source`` that ask Numba for an on-disk cache (see the module docstring)."""
    tree = ast.parse(source)
    found: set[int] = set()
    overridden: set[int] = set()  # ids of NJIT_OPTIONS references followed by "cache": False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            unpacked = [k.value for k in node.keywords if k.arg is None]
            for k in node.keywords:
                if k.arg == "cache":
                    if _is_false(k.value):
                        overridden.update(id(u) for u in unpacked if _is_options(u))
                    else:
                        found.add(k.lineno)
        elif isinstance(node, ast.Dict):
            for i, (key, value) in enumerate(zip(node.keys, node.values, strict=True)):
                if isinstance(key, ast.Constant) and key.value == "cache":
                    if _is_false(value):  # overrides the options unpacked before it
                        overridden.update(
                            id(v) for k, v in zip(node.keys[:i], node.values[:i], strict=True) if k is None
                        )
                    else:
                        found.add(value.lineno)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("engine.jit.config"):
            if any(alias.name in CACHING_DECORATORS for alias in node.names):
                found.add(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in CACHING_DECORATORS:
            if isinstance(node.value, ast.Name) and node.value.id == "config":
                found.add(node.lineno)
    for node in ast.walk(tree):
        if _is_options(node) and id(node) not in overridden:
            found.add(node.lineno)
    return sorted(found)


def _python_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if ENGINE not in path.parents:
                files.append(path)
    return files


def test_every_cached_kernel_outside_the_engine_is_covered_by_the_fingerprint():
    covered = {p.resolve() for p in config.engine_sources()}
    files = _python_files()
    assert len(files) > 50  # the scan found the project's files
    stale = {
        str(path.relative_to(ROOT)): lines
        for path in files
        if path.resolve() not in covered and (lines := caching_lines(path.read_text()))
    }
    assert not stale, (
        f"on-disk Numba caches not covered by wizsim.engine.jit.config's fingerprint (file: lines): {stale}; "
        "compile these with cache=False, or have the fingerprint cover the file"
    )


@pytest.mark.parametrize(
    "source",
    [
        "from numba import njit\n@njit(cache=True)\ndef f(): pass",
        "import numba\nf = numba.njit(nogil=True, cache=True)(g)",
        "on = True\nf = njit(cache=on)(g)",
        "from wizsim.engine.jit.config import NJIT_OPTIONS\nf = njit(**NJIT_OPTIONS)(g)",
        "f = njit(**{**NJIT_OPTIONS, 'nogil': True})(g)",
        "f = njit(**{'cache': False, **NJIT_OPTIONS})(g)",  # the options come last and win
        "opts = {'cache': True}",
        "from wizsim.engine.jit.config import kernel\n@kernel\ndef f(): pass",
        "from ..engine.jit.config import hot",
        "from wizsim.engine import config\nf = config.jit(g)",
    ],
)
def test_the_scan_finds_each_way_to_ask_for_a_cache(source):
    assert caching_lines(source)


@pytest.mark.parametrize(
    "source",
    [
        '"""Kernels are compiled once (``cache=True``)."""\n# njit(cache=True)',
        "f = njit(cache=False)(g)",
        "f = njit(**{**NJIT_OPTIONS, 'cache': False})(g)",
        "from wizsim.engine.jit.config import engine_dispatchers, fingerprint",
        "import functools\n@functools.cache\ndef f(): pass",
    ],
)
def test_the_scan_leaves_uncached_code_alone(source):
    assert not caching_lines(source)
