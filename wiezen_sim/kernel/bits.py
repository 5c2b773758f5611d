"""Bit primitives for int64 card masks (numba intrinsics).

``popcount``, ``lowest_index`` (count trailing zeros) and ``highest_index`` compile
to single instructions through LLVM intrinsics. ``pext`` (parallel bit extract, used
to compress a hand to relative ranks) uses the BMI2 instruction when the host CPU has
it and a portable loop otherwise; the choice is made once at import time from the
host CPU features that numba itself compiles for.
"""

from __future__ import annotations

from llvmlite import binding as llvm_binding
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# one suit lane: ranks 2..14 → bits 2..14 of a 16-bit lane
LANE = 0x7FFC


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_index(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (64 for zero)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _clz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True, inline="always")
def highest_index(x):
    """Index of the highest set bit of a non-zero int64."""
    return 63 - _clz(x)


@intrinsic
def _pext_bmi2(typingctx, x, m):
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True)
def _pext_soft(x, m):
    out = 0
    k = 0
    while m:
        b = m & -m
        if x & b:
            out |= 1 << k
        k += 1
        m ^= b
    return out


def _host_has_bmi2() -> bool:
    try:
        return "+bmi2" in llvm_binding.get_host_cpu_features().flatten().split(",")
    except Exception:  # pragma: no cover - exotic platforms
        return False


HAS_BMI2 = _host_has_bmi2()

if HAS_BMI2:

    @njit(cache=True, inline="always")
    def pext(x, m):
        """Bits of ``x`` selected by ``m``, packed to the low end (BMI2 PEXT)."""
        return _pext_bmi2(x, m)

else:  # pragma: no cover - depends on the CPU

    @njit(cache=True, inline="always")
    def pext(x, m):
        """Bits of ``x`` selected by ``m``, packed to the low end (portable loop)."""
        return _pext_soft(x, m)


@intrinsic
def _pdep_bmi2(typingctx, x, m):
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True)
def _pdep_soft(x, m):
    out = 0
    k = 0
    while m:
        b = m & -m
        if (x >> k) & 1:
            out |= b
        k += 1
        m ^= b
    return out


if HAS_BMI2:

    @njit(cache=True, inline="always")
    def pdep(x, m):
        """Low bits of ``x`` deposited at the set bits of ``m`` (BMI2 PDEP)."""
        return _pdep_bmi2(x, m)

else:  # pragma: no cover - depends on the CPU

    @njit(cache=True, inline="always")
    def pdep(x, m):
        """Low bits of ``x`` deposited at the set bits of ``m`` (portable loop)."""
        return _pdep_soft(x, m)


@intrinsic
def address(typingctx, arr):
    """The address of a contiguous array's first element, as an int64.

    With :func:`int64_pointer` and ``numba.carray`` the kernel passes its state arrays
    down its recursive search as one integer each and views them there with shapes
    known to the compiler (:mod:`wiezen_sim.kernel.dd.layout`). The address is valid
    only while the array is alive, i.e. within the call that took it.
    """
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None
    sig = types.int64(arr)

    def codegen(context, builder, signature, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        return builder.ptrtoint(src.data, ir.IntType(64))

    return sig, codegen


@intrinsic
def int64_pointer(typingctx, addr):
    """An int64 pointer at ``addr`` (from :func:`address`), for ``numba.carray``: a view
    made from it has no owner (its meminfo is NULL), so numba counts no references to it."""
    sig = types.CPointer(types.int64)(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen
