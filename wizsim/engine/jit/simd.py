"""A vector instruction Numba does not emit on its own: adding rows of a 16-column matrix.

The learned player's network sums the rows of its first layer that a
decision's features pick (:func:`..players.learned.hidden_sum`). Written in
Numba, those 16 sums stay scalar (LLVM's SLP vectorizer does not combine the
accumulators): 16 adds per row, about 9 cycles. Here each row is one load and
add of a ``<16 x float>`` vector. Every lane adds the same numbers in the same
order as the scalar code, so the sums are bit for bit the same.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

WIDTH = 16  # columns of the matrix (the networks' hidden units)


@intrinsic
def add_rows(typingctx, w, start, idx, lo, m, acc):
    """``acc[:16] = start[:16] + w[idx[lo]] + ... + w[idx[m - 1]]``, row by row in that order.

    ``w``: a C-contiguous 2-d float array of 16 columns (not checked: the
    caller's shapes are); ``start``, ``acc``: 1-d arrays of the same dtype
    with at least 16 contiguous elements; ``idx``: row numbers (any integer dtype).
    """
    ok = (
        isinstance(w, types.Array)
        and w.ndim == 2
        and w.layout == "C"
        and isinstance(w.dtype, types.Float)
        and all(isinstance(a, types.Array) and a.ndim == 1 and a.dtype == w.dtype for a in (start, acc))
        and isinstance(idx, types.Array)
        and isinstance(idx.dtype, types.Integer)
    )
    if not ok:
        return None
    sig = types.void(w, start, idx, types.int64, types.int64, acc)

    def codegen(context, builder, signature, args):
        w_val, start_val, idx_val, lo_val, m_val, acc_val = args
        w_arr = context.make_array(signature.args[0])(context, builder, w_val)
        start_arr = context.make_array(signature.args[1])(context, builder, start_val)
        idx_arr = context.make_array(signature.args[2])(context, builder, idx_val)
        acc_arr = context.make_array(signature.args[5])(context, builder, acc_val)
        element = context.get_data_type(signature.args[0].dtype)
        vec_ptr = ir.VectorType(element, WIDTH).as_pointer()
        align = context.get_abi_sizeof(element)
        total = cgutils.alloca_once_value(builder, builder.load(builder.bitcast(start_arr.data, vec_ptr), align=align))
        with cgutils.for_range_slice(builder, lo_val, m_val, ir.Constant(ir.IntType(64), 1), inc=True) as (i, _):
            row = context.cast(
                builder, builder.load(builder.gep(idx_arr.data, [i])), signature.args[2].dtype, types.int64
            )
            row_ptr = builder.gep(w_arr.data, [builder.mul(row, ir.Constant(ir.IntType(64), WIDTH))])
            vec = builder.load(builder.bitcast(row_ptr, vec_ptr), align=align)
            builder.store(builder.fadd(builder.load(total), vec), total)
        builder.store(builder.load(total), builder.bitcast(acc_arr.data, vec_ptr), align=align)
        return context.get_dummy_value()

    return sig, codegen
