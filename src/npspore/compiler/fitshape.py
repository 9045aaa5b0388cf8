"""A cotangent summed back to the shape of the operand it was broadcast from (differentiate's step after each
op's adjoint): the broadcast axes summed away, fixed from the shapes the compiler knows."""
from __future__ import annotations

from ..opdef import Aval
from .builder import BlockBuilder
from .ir import Loc


def _same_shape(a: tuple, b: tuple) -> bool:
    """Whether a value of shape ``a`` has shape ``b``, where a dynamic dim (``None``) of ``b`` matches any size
    (nothing can be broadcast to a size unknown until run time)."""
    return len(a) == len(b) and all(x == y or y is None for x, y in zip(a, b))


def fit_shape(builder: BlockBuilder, grad, target: Aval, loc: Loc, hint: str):
    """Sum a broadcast cotangent back to its operand's shape (fixed axes from known shapes)."""
    have, want = tuple(grad.aval.shape), tuple(target.shape)
    if _same_shape(have, want):
        return grad
    lead = len(have) - len(want)
    if lead >= 0:
        axes = list(range(lead))
        reducible = True
        for k, dim in enumerate(want):
            if dim == have[lead + k]:
                continue
            if dim == 1:
                axes.append(lead + k)
            else:
                reducible = False
        if reducible and None in want:
            # no reshape to a shape with dims known only at run time: the size-1 dims kept, then the leading summed
            kept = [axis for axis in axes if axis >= lead]
            if kept:
                grad = builder.apply("sum", (grad,), {"axis": tuple(kept), "keepdims": True}, loc=loc, hint=hint)
            if lead:
                grad = builder.apply("sum", (grad,), {"axis": tuple(range(lead)), "keepdims": False}, loc=loc,
                                     hint=hint)
            return grad
        if reducible:
            total = builder.apply("sum", (grad,), {"axis": tuple(axes), "keepdims": False}, loc=loc, hint=hint)
            if not _same_shape(tuple(total.aval.shape), want):
                total = builder.apply("reshape", (total,), {"shape": want}, loc=loc, hint=hint)
            return total
    return builder.apply("broadcast_to", (grad,), {"shape": want}, loc=loc, hint=hint)
