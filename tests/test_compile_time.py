"""The inliner fix of ``wizsim.engine.jit.compile_time``: in place on this Numba, and the inliner still inlines.

That the generated code is unchanged is checked where it matters, byte for
byte: the golden games and outputs (tests/test_golden.py) are produced by
kernels compiled with the fix.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wizsim.engine.jit import compile_time


def test_fix_in_place():
    from numba.core import inline_closurecall as ic

    assert compile_time.apply()
    code = ic.InlineWorker.inline_ir.__code__
    nested = [c for c in code.co_consts if hasattr(c, "co_name") and c.co_name == "copy_ir"]
    assert len(nested) == 1 and "memo" in nested[0].co_varnames  # the patched copy_ir: one memo per copy


def test_inlined_helpers_still_compute_the_same():
    @njit(inline="always")
    def helper(a, i):
        s = 0
        for j in range(i):
            if a[j] > 2:
                s += a[j]
            else:
                s -= 1
        return s

    @njit
    def caller(a):
        return helper(a, a.shape[0]) + helper(a, 2) * 10

    a = np.arange(6, dtype=np.int64)
    expect = sum(x if x > 2 else -1 for x in a) + 10 * sum(x if x > 2 else -1 for x in a[:2])
    assert caller(a) == expect
