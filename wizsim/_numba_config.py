"""Numba options shared by every kernel in wizsim.

One place decides how kernels are compiled:

* ``cache=True`` so that a second process (a test session, a joblib worker)
  loads the compiled machine code from disk instead of compiling again;
  set ``WIZSIM_NUMBA_CACHE=0`` to switch caching off (for example on a
  read-only install or a cluster whose workers share a network drive).
* ``fastmath`` stays off: every kernel works on integers, and results must not
  depend on the compiler's freedom to reassociate.
* ``error_model="numpy"`` avoids the Python-style zero-division checks that
  would otherwise sit in the inner loops.
"""

from __future__ import annotations

import os

from numba import njit

CACHE: bool = os.environ.get("WIZSIM_NUMBA_CACHE", "1").strip().lower() not in (
    "0",
    "false",
    "no",
    "off",
)

NJIT_OPTIONS: dict = {"cache": CACHE, "fastmath": False, "error_model": "numpy", "nogil": True}


def kernel(func):
    """Compile ``func`` with the project's Numba options (a top-level kernel)."""
    return njit(**NJIT_OPTIONS)(func)


def inline(func):
    """Compile ``func`` as a helper that Numba inlines into its callers."""
    return njit(inline="always", **NJIT_OPTIONS)(func)
