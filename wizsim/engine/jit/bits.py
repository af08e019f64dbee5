"""Bit operations on 64-bit hand masks: LLVM intrinsics and the i-th set bit.

``WIZSIM_NO_PDEP=1`` turns off the BMI2 ``pdep`` fast path (it is also off
where the CPU lacks it or runs it in microcode); the switch is baked into the
machine code, so it is part of the cache fingerprint (:mod:`.config`).
"""

from __future__ import annotations

import os
import platform

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .config import hot

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM ctpop)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM cttz)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def highest_bit(typingctx, x):
    """Index of the highest set bit of a non-zero uint64 (63 - LLVM ctlz)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen


@intrinsic
def pdep(typingctx, src, mask):
    """Parallel bit deposit (x86 BMI2): scatter the low bits of ``src`` to the set bits of ``mask``."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


def _fast_pdep() -> bool:
    """True on x86-64 CPUs with BMI2 whose PDEP is not microcoded (AMD before Zen 3 is slow)."""
    if platform.machine().lower() not in ("x86_64", "amd64") or os.environ.get("WIZSIM_NO_PDEP"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read(20000)
    except OSError:
        return False
    flags = next((line for line in info.splitlines() if line.startswith("flags")), "")
    if " bmi2" not in flags:
        return False
    family = next((line.split(":")[1] for line in info.splitlines() if line.startswith("cpu family")), "0")
    return not ("AuthenticAMD" in info and int(family) < 25)


USE_PDEP = _fast_pdep()

if USE_PDEP:

    @hot
    def nth_bit(m, i):
        """Index of the i-th (0-based, from the low end) set bit of ``m`` (PDEP, branch-free)."""
        return np.int64(lowest_bit(pdep(ONE << U64(i), m)))

else:

    @hot
    def nth_bit(m, i):
        """Index of the i-th (0-based, from the low end) set bit of ``m``."""
        for _ in range(i):
            m &= m - ONE
        return np.int64(lowest_bit(m))
