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


def _borrowed_value(context, builder, ty, value):
    """``value`` of Numba type ``ty`` with every array in it borrowed, nested tuples (bundles) included."""
    if isinstance(ty, types.Array):
        return _borrowed(context, builder, ty, value)
    if isinstance(ty, types.BaseTuple) and _has_array(ty):
        items = [_borrowed_value(context, builder, t, builder.extract_value(value, i)) for i, t in enumerate(ty.types)]
        return context.make_tuple(builder, ty, items)
    # anything else (the bid rules' function tuple, a number) is passed as it is: a new reference like any
    # returned value, which the caller will release
    context.nrt.incref(builder, ty, value)
    return value


def _has_array(ty) -> bool:
    """True if the Numba type ``ty`` is an array or a tuple holding one, at any depth."""
    if isinstance(ty, types.Array):
        return True
    return isinstance(ty, types.BaseTuple) and any(_has_array(t) for t in ty.types)


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` without an owner, or a bundle (a tuple, named or not, nested or not) with every array in it
    borrowed (module docstring)."""
    if not _has_array(arr):
        return None

    def codegen(context, builder, signature, args):
        return _borrowed_value(context, builder, signature.args[0], args[0])

    return arr(arr), codegen


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
