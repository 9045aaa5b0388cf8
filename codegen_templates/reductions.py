"""Reductions over ``axis`` (``None`` for all dims, an int, or a tuple) with ``keepdims``.

Result dtypes are MindSpore's: ``sum``/``prod`` of bool or int give int64, ``mean`` of an int is an
int (truncated), ``argmax``/``argmin`` give int64 indices. The gradient of ``max``/``min`` is split
equally among tied extrema; ``max_with_indices``/``min_with_indices`` (``ops.max(x, axis)``) send it
to the returned index only. Names of the class bodies shadow Python's ``sum``/``max``/``min``/``all``/
``any`` in this module: the rules below use none of those builtins.
"""
import numpy as np

from npspore import shape_rules as rules
from npspore.opdef import LINEAR, call, op

TANGENT = LINEAR   # sum and mean; the others have their own


def _extremum_adjoint(x, out, dout, *, axis=None, keepdims=False):
    """The adjoint of ``max``/``min``: the gradient split equally among the elements equal to the result."""
    axes = tuple(range(x.ndim)) if axis is None else axis
    kept = dout if keepdims else np.expand_dims(dout, axis=axes)
    hit = (x == (out if keepdims else np.expand_dims(out, axis=axes))).astype(dout.dtype)
    return kept * hit / np.sum(hit, axis=axes, keepdims=True)


def _indexed_extremum_adjoint(x, out, dout, *, axis=None, keepdims=False):
    """The adjoint of ``max_with_indices``/``min_with_indices``: the gradient goes to the returned index (along a dim
    known only when the kernel runs, where one_hot has no depth, found by comparing the positions there)."""
    if axis is None:
        return call("one_hot", out[1], dout[0], 0, depth=x.size).reshape(x.shape)
    index = np.squeeze(out[1], axis=axis) if keepdims else out[1]
    kept = dout[0] if keepdims else np.expand_dims(dout[0], axis=axis)
    if x.shape[axis] is None:
        at = call("dim_range", x, axis=axis).reshape(tuple([-1 if a == axis else 1 for a in range(x.ndim)]))
        return np.where(np.expand_dims(index, axis=axis) == at, kept, 0)
    return call("one_hot", index, kept, 0, depth=x.shape[axis], axis=axis)


def _extremum_tangent(x, out, dx, *, axis=None, keepdims=False):
    """The tangent of ``max``/``min``: the mean of the tangents of the elements equal to the result (the
    adjoint's equal split among ties, transposed)."""
    axes = tuple(range(x.ndim)) if axis is None else axis
    hit = (x == (out if keepdims else np.expand_dims(out, axis=axes))).astype(dx.dtype)
    return np.sum(dx * hit, axis=axes, keepdims=keepdims) / np.sum(hit, axis=axes, keepdims=keepdims)


def _indexed_extremum_tangent(x, out, dx, *, axis=None, keepdims=False):
    """The tangent of ``max_with_indices``/``min_with_indices``: the tangent at the returned index."""
    if axis is None:
        picked = call("one_hot", out[1], 1, 0, depth=x.size).reshape(x.shape)
        return np.sum(dx * picked, keepdims=keepdims), None
    index = np.squeeze(out[1], axis=axis) if keepdims else out[1]
    if x.shape[axis] is None:   # as the adjoint
        at = call("dim_range", x, axis=axis).reshape(tuple([-1 if a == axis else 1 for a in range(x.ndim)]))
        picked = np.where(np.expand_dims(index, axis=axis) == at, 1, 0)
    else:
        picked = call("one_hot", index, 1, 0, depth=x.shape[axis], axis=axis)
    return np.sum(dx * picked, axis=axis, keepdims=keepdims), None


def _scalar_axis(x, **static):
    """A reduction's attributes with the axis of a 0-d ``x`` made ``()``: MindSpore reduces a 0-d tensor over
    axis ``0`` or ``-1`` (``ops.norm(scalar, dim=0)``) to itself; any other axis is left for the rule to refuse."""
    axis = static.get("axis")
    if axis is not None and not rules.shape_of(x):
        items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if items and not [a for a in items if type(a) is not int or a not in (0, -1)]:   # the builtin all is shadowed
            static["axis"] = ()
    return static


# ---------------------------------------------------------------- sums and means


@op(infer=rules.reduction("ReduceSum", "sum"), numpy=(np.sum,))
class sum:
    canonical = _scalar_axis

    def forward(x, *, axis=None, keepdims=False, dtype=None):
        # given an axis, x is an array, whose method skips np.sum's Python wrapper (2 us a call);
        # without one it may be a 0-d value, which is a Python number at run time
        return (np.sum(x, axis=axis, keepdims=keepdims, dtype=dtype) if axis in (None, ())
                else x.sum(axis=axis, keepdims=keepdims, dtype=dtype))

    def adjoint(x, out, dout, *, axis=None, keepdims=False, dtype=None):
        kept = dout if keepdims else np.expand_dims(dout, axis=tuple(range(x.ndim)) if axis is None else axis)
        if None in x.shape:  # a dim known only at run time (compiled masked_select): broadcast against x
            return kept + np.zeros_like(x)
        return np.broadcast_to(kept, shape=x.shape)


@op(infer=rules.reduction("ReduceMean", "mean"), numpy=(np.mean,))
class mean:
    """The mean; of an int input, truncated to its dtype (MindSpore: ``mean([1, 2])`` is ``1``) by the
    cast to the inferred dtype that eager mode (``apply_op``) and codegen (a drift cast) add where NumPy's
    float64 differs, so a float mean carries no cast."""
    canonical = _scalar_axis
    complex_refusal = "For 'ReduceMean', gradient not support for complex type currently."

    def forward(x, *, axis=None, keepdims=False):
        return (np.mean(x, axis=axis, keepdims=keepdims) if axis in (None, ())
                else x.mean(axis=axis, keepdims=keepdims))   # as sum

    def adjoint(x, out, dout, *, axis=None, keepdims=False):
        kept = dout if keepdims else np.expand_dims(dout, axis=tuple(range(x.ndim)) if axis is None else axis)
        if x.size is not None:
            return np.broadcast_to(kept / (x.size // out.size if out.size else 1), shape=x.shape)
        count = 1   # a dynamic dim (a masked selection's, set_inputs'): its size when the kernel runs
        for dim in (range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis):
            count = count * (x.shape[dim] if x.shape[dim] is not None else call("dim_size", x, axis=dim))
        count = count if isinstance(count, int) else call("cast", count, dtype=dout.dtype)
        return kept / count + np.zeros_like(x)   # broadcast against x, as sum's adjoint


@op(infer=rules.reduction("ReduceProd", "sum"), numpy=(np.prod,))
class prod:
    """The product; its gradient is the product of the other elements, exact where some are zero."""
    canonical = _scalar_axis

    def forward(x, *, axis=None, keepdims=False, dtype=None):
        return np.prod(x, axis=axis, keepdims=keepdims, dtype=dtype)

    def adjoint(x, out, dout, *, axis=None, keepdims=False, dtype=None):
        axes = tuple(range(x.ndim)) if axis is None else axis
        kept = dout if keepdims else np.expand_dims(dout, axis=axes)
        full = out if keepdims else np.expand_dims(out, axis=axes)
        zero = x == 0
        nonzero = np.where(zero, 1, x)
        lone_zero = np.sum(zero, axis=axes, keepdims=True) == 1
        others = np.where(lone_zero, np.prod(nonzero, axis=axes, keepdims=True), 0)
        return kept * np.where(zero, others, full / nonzero)

    def tangent(x, out, dx, *, axis=None, keepdims=False, dtype=None):
        # each result reads one slice, so its Jacobian row is the adjoint of a cotangent of ones
        rows = prod.adjoint(x, out, np.ones_like(out), axis=axis, keepdims=keepdims, dtype=dtype)
        return np.sum(dx * rows, axis=tuple(range(x.ndim)) if axis is None else axis, keepdims=keepdims)


# ---------------------------------------------------------------- extrema


@op(infer=rules.reduction("ReduceMax"), numpy=(np.max,))
class max:
    canonical = _scalar_axis

    def forward(x, *, axis=None, keepdims=False):
        return (np.max(x, axis=axis, keepdims=keepdims) if axis in (None, ())
                else x.max(axis=axis, keepdims=keepdims))    # as sum

    adjoint = _extremum_adjoint
    tangent = _extremum_tangent


@op(infer=rules.reduction("ReduceMin"), numpy=(np.min,))
class min:
    canonical = _scalar_axis

    def forward(x, *, axis=None, keepdims=False):
        return (np.min(x, axis=axis, keepdims=keepdims) if axis in (None, ())
                else x.min(axis=axis, keepdims=keepdims))    # as sum

    adjoint = _extremum_adjoint
    tangent = _extremum_tangent


@op(infer=rules.reduction_with_indices("ArgMaxWithValue"))
class max_with_indices:
    """``(values, int64 indices)`` of the maxima; the index is the first maximum's."""

    def forward(x, *, axis=None, keepdims=False):
        return np.max(x, axis=axis, keepdims=keepdims), np.argmax(x, axis=axis, keepdims=keepdims)

    adjoint = _indexed_extremum_adjoint
    tangent = _indexed_extremum_tangent


@op(infer=rules.reduction_with_indices("ArgMinWithValue"))
class min_with_indices:
    """``(values, int64 indices)`` of the minima; the index is the first minimum's."""

    def forward(x, *, axis=None, keepdims=False):
        return np.min(x, axis=axis, keepdims=keepdims), np.argmin(x, axis=axis, keepdims=keepdims)

    adjoint = _indexed_extremum_adjoint
    tangent = _indexed_extremum_tangent


# ---------------------------------------------------------------- indices and truth values


@op(infer=rules.arg_reduction("Argmax"), numpy=(np.argmax,))
class argmax:
    def forward(x, *, axis=None, keepdims=False):
        return np.argmax(x, axis=axis, keepdims=keepdims)

    adjoint = None


@op(infer=rules.arg_reduction("Argmin"), numpy=(np.argmin,))
class argmin:
    def forward(x, *, axis=None, keepdims=False):
        return np.argmin(x, axis=axis, keepdims=keepdims)

    adjoint = None


@op(infer=rules.reduction("ReduceAll", "bool"), numpy=(np.all,))
class all:
    canonical = _scalar_axis

    def forward(x, *, axis=None, keepdims=False):
        return np.all(x, axis=axis, keepdims=keepdims)

    adjoint = None


@op(infer=rules.reduction("ReduceAny", "bool"), numpy=(np.any,))
class any:
    canonical = _scalar_axis

    def forward(x, *, axis=None, keepdims=False):
        return np.any(x, axis=axis, keepdims=keepdims)

    adjoint = None
