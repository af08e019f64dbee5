"""A fix for Numba's inliner, applied before any kernel compiles: the first run compiles in ~2/3 of the time.

Numba inlines an ``inline="always"`` function by copying the callee's IR block
by block, each block with a fresh ``copy.deepcopy`` memo (``InlineWorker.inline_ir``,
its local ``copy_ir``). Every variable refers to the function's scope, which
holds every variable, so each block copies the whole scope again: the cost
grows with blocks x variables, and the round loop inlines large phases
(numba issue #8989, still open in 0.68). :func:`apply` recompiles that method
with one memo per IR copy; the copy then shares one scope between its blocks,
as the original IR does. The generated code is unchanged (the golden games and
outputs compare byte for byte); only the compiler's own time drops.

The patch is made from Numba's own source text and only when that text is
exactly as expected; on any other Numba it is skipped and compiling is merely
slower. ``WIZSIM_NUMBA_INLINE_FIX=0`` switches it off.
"""

from __future__ import annotations

import inspect
import os
import textwrap

_COPY = "    def copy_ir(the_ir):\n        kernel_copy = the_ir.copy()\n"
_BLOCK = "new_block = copy.deepcopy(the_ir.blocks[block_label])"
_applied = False


def apply() -> bool:
    """Patch ``InlineWorker.inline_ir`` once per process; return True if the patch is in place."""
    global _applied
    if _applied:
        return True
    if os.environ.get("WIZSIM_NUMBA_INLINE_FIX", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    try:
        from numba.core import inline_closurecall as ic

        src = textwrap.dedent(inspect.getsource(ic.InlineWorker.inline_ir))
    except (ImportError, AttributeError, OSError, TypeError):
        return False
    if src.count(_COPY) != 1 or src.count(_BLOCK) != 1:
        return False  # another Numba: leave it alone
    src = src.replace(_COPY, _COPY + "        memo = {}  # wizsim: one memo per IR copy\n")
    src = src.replace(_BLOCK, "new_block = copy.deepcopy(the_ir.blocks[block_label], memo)")
    namespace: dict = {}
    exec(compile(src, ic.__file__, "exec"), vars(ic), namespace)  # noqa: S102 - Numba's own method, one line changed
    ic.InlineWorker.inline_ir = namespace["inline_ir"]
    _applied = True
    return True
