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


@intrinsic
def relu_dot(typingctx, h, w):
    """``sum(max(h[i], 0) * w[i])`` over 16 elements, added in the order of the scalar code it replaces.

    The products are paired as ``p[i] + p[i + 8]``, then neighbours are added,
    ``((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))``; ``max(x, 0)`` is
    ``0 if 0 > x else x`` (Python's ``max``), so the result is the same bits as
    that scalar code (no fused multiply-add: the default, fastmath off). One vector
    compare, select and multiply and three shuffle-adds instead of 16 scalar
    maxima, 16 products and 15 dependent adds.
    """
    ok = all(isinstance(a, types.Array) and a.ndim == 1 and isinstance(a.dtype, types.Float) for a in (h, w))
    if not ok or h.dtype != w.dtype:
        return None
    sig = h.dtype(h, w)

    def codegen(context, builder, signature, args):
        h_arr = context.make_array(signature.args[0])(context, builder, args[0])
        w_arr = context.make_array(signature.args[1])(context, builder, args[1])
        element = context.get_data_type(signature.args[0].dtype)
        vec_ptr = ir.VectorType(element, WIDTH).as_pointer()
        align = context.get_abi_sizeof(element)
        hv = builder.load(builder.bitcast(h_arr.data, vec_ptr), align=align)
        wv = builder.load(builder.bitcast(w_arr.data, vec_ptr), align=align)
        zero = ir.Constant(ir.VectorType(element, WIDTH), [ir.Constant(element, 0.0)] * WIDTH)
        relu = builder.select(builder.fcmp_ordered(">", zero, hv), zero, hv)
        p = builder.fmul(relu, wv)

        def pick(v, lanes):
            return builder.shuffle_vector(v, v, ir.Constant(ir.VectorType(ir.IntType(32), len(lanes)), lanes))

        s = builder.fadd(pick(p, list(range(8))), pick(p, list(range(8, 16))))  # s[i] = p[i] + p[i + 8]
        u = builder.fadd(pick(s, [0, 2, 4, 6]), pick(s, [1, 3, 5, 7]))  # s0 + s1, s2 + s3, ...
        v = builder.fadd(pick(u, [0, 2]), pick(u, [1, 3]))
        return builder.fadd(builder.extract_element(v, ir.Constant(ir.IntType(32), 0)),
                            builder.extract_element(v, ir.Constant(ir.IntType(32), 1)))  # fmt: skip

    return sig, codegen
