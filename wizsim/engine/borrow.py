"""Borrowed array views: the same data with no owner, so that passing them around costs nothing.

Numba counts references to every array it passes to a function or copies into
a variable, with atomic instructions (``lock xadd``), and it keeps those counts
even in inlined code whenever a branch separates the increment from its
decrement. In the round loop those counts cost about 40% of the time.
:func:`borrow` returns a view of an array whose memory-info pointer is null:
Numba's increment and decrement are then a null test and nothing else.

The view does not keep its memory alive. A kernel may borrow only arrays that
outlive every use of the view (its own arguments, or arrays it allocates and
keeps in a variable of its own), and must never return or store a borrowed view.
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array


def _borrowed(context, builder, aryty, value):
    src = make_array(aryty)(context, builder, value=value)
    dst = make_array(aryty)(context, builder)
    for field in ("nitems", "itemsize", "data", "shape", "strides"):
        setattr(dst, field, getattr(src, field))
    dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
    dst.parent = cgutils.get_null_value(dst.parent.type)
    return dst._getvalue()


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` without an owner, or a tuple of views of a tuple of arrays (module docstring)."""
    if isinstance(arr, types.Array):

        def codegen(context, builder, signature, args):
            return _borrowed(context, builder, signature.args[0], args[0])

        return arr(arr), codegen
    if isinstance(arr, types.BaseTuple) and any(isinstance(t, types.Array) for t in arr.types):
        # arrays are borrowed; anything else (the bid rules' function tuple) is passed as it is

        def codegen_tuple(context, builder, signature, args):
            tupty = signature.args[0]
            items = []
            for i, t in enumerate(tupty.types):
                value = builder.extract_value(args[0], i)
                if isinstance(t, types.Array):
                    items.append(_borrowed(context, builder, t, value))
                else:  # a new reference like any returned value: the caller will release it
                    context.nrt.incref(builder, t, value)
                    items.append(value)
            return context.make_tuple(builder, tupty, items)

        return arr(arr), codegen_tuple
    return None


@intrinsic
def hold(typingctx, owners):
    """Keep ``owners`` (an array or a tuple) alive up to this point.

    Numba frees a variable after its last use in the code, not at the end of
    its scope; a kernel that borrows an array calls ``hold`` on the owner after
    the last use of the view.
    """

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(owners), codegen


@intrinsic
def stack_stream(typingctx, state):
    """A one-element uint64 array on the caller's stack holding ``state``: a random stream without an allocation.

    For functions that take a stream's state as a number (so that the play
    loop's own stream never escapes into a call) and need it as an array for
    :mod:`.rng`. The array lives in the calling function's frame: read the new
    state from it before returning, and never return or store the array.
    """
    if not isinstance(state, types.Integer):
        return None
    arrty = types.Array(types.uint64, 1, "C")

    def codegen(context, builder, signature, args):
        llty = context.get_value_type(types.uint64)
        slot = cgutils.alloca_once(builder, llty)  # in the entry block: one slot per call, not per loop pass
        val = context.cast(builder, args[0], signature.args[0], types.uint64)
        builder.store(val, slot)
        ary = make_array(arrty)(context, builder)
        intp = context.get_value_type(types.intp)
        context.populate_array(
            ary,
            data=slot,
            shape=cgutils.pack_array(builder, [intp(1)]),
            strides=cgutils.pack_array(builder, [intp(8)]),
            itemsize=intp(8),
            meminfo=None,
        )
        return ary._getvalue()

    return arrty(state), codegen
