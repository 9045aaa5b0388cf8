"""Eager execution of ops: :func:`run` and :func:`assign`.

``run(op_name, *operands, **static)`` is the one way Tensor operators, ``ops`` functions, primitives
and layers apply an op, and the one intrinsic the compiler knows: in compiled code a call to it
stages the op instead. In eager mode it runs the op's definition from ``codegen_templates`` right
away: the shape/dtype rule first (so errors are MindSpore's, with its exception types), then the
NumPy lowering on the operands' arrays, cast to the dtypes the rule chose.
"""
from __future__ import annotations

import math

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from .. import shape_rules as rules
from ..common.tensor import Tensor
from ..compiler.library import LIBRARY, RECORDERS
from ..compiler.signature import is_mutable_scalar, scalar_type
from ..core.apply import apply_op
from ..core.threads import ensure_blas_threads
from ..core.timeline import OBSERVERS, observed
from ..opdef import op_table

__all__ = ["run", "assign", "recording_dtypes", "dim", "size_of"]

_SEQUENCES = (list, tuple)
_dtype_recorders: list[set] = []


def run(name: str, *operands, **static):
    """Apply op ``name`` to ``operands`` now and wrap the result.

    Args:
        name (str): a canonical op name (``"add"``, ``"sum"``, ``"matmul"`` ...) or an alias.
        operands: Tensors, Python scalars (weakly typed: ``f16 + 1.5`` stays Float16), lists or
            tuples (tensors of the default dtypes), ``None`` where an op allows it.
        static: the op's attributes (``axis=``, ``keepdims=``, ``shape=``, ``dtype=`` as a NumPy dtype ...).

    Returns:
        Tensor, or a tuple of Tensors for multi-output ops (``split``, ``max_with_indices``).

    Raises:
        ValueError, TypeError, IndexError, RuntimeError: as MindSpore raises them for the op
            (shapes that do not broadcast, unsupported dtypes, out-of-range axes and indices).
        KeyError: if no op is called ``name``.
    """
    if OBSERVERS:   # a profiler is recording: time the op
        return observed(name, "op", lambda: _run(name, operands, static))
    return _run(name, operands, static)


def _run(name: str, operands, static):
    ensure_blas_threads()
    definition = op_table()[name]
    weak = definition.operand_dtype is not None
    values = [x._array if isinstance(x, Tensor) else _constant(x, weak) for x in operands]
    if definition.canonical is not None:
        static = definition.canonical(*values, **static)
    try:
        inferred = definition.infer(*values, **static)
    except (TypeError, ValueError):   # the rules refuse a Tensor attribute: only then is one looked for
        if RECORDERS or not any(map(_holds_tensor, static.values())):
            raise
        static = {key: _attribute(value) for key, value in static.items()}
        inferred = definition.infer(*values, **static)
    if type(inferred) is tuple:
        result = tuple(map(_wrap, apply_op(definition, values, static, tuple(a.dtype for a in inferred))))
    else:
        result = _wrap(apply_op(definition, values, static, inferred.dtype))
    if RECORDERS:  # a function without source is being traced (compiler.tracing): record the op
        RECORDERS[-1].record(definition.name, operands, static, result)
    return result


def _holds_tensor(value) -> bool:
    return isinstance(value, Tensor) or (type(value) in _SEQUENCES and any(isinstance(v, Tensor) for v in value))


def _attribute(value):
    """An attribute given as an integer Tensor of one element (an axis, ``k``, a shift) as the Python int it
    holds, as MindSpore's eager ops take it; other values unchanged. Not while a function is being traced:
    the traced kernel would keep this call's value (its shape rule refuses the Tensor instead)."""
    if isinstance(value, Tensor):
        return int(value) if value.size == 1 and np.issubdtype(value._array.dtype, np.integer) else value
    if type(value) in _SEQUENCES:
        return type(value)(_attribute(item) for item in value)
    return value


def _constant(value, weak: bool):
    """A non-Tensor operand as the lowering takes it.

    Lists and tuples become arrays of MindSpore's default dtypes; a ``mutable`` scalar is its number. Python scalars stay weakly typed
    for ops that promote (``weak``); for the others they become 0-d arrays of their default dtype.
    """
    if type(value) in _SEQUENCES:
        return rules.constant_array(value)
    if is_mutable_scalar(value):   # mutable(2): computes as the Python number it is
        value = scalar_type(value)(value)
    return value if weak else rules.strong_scalar(value)


def _wrap(result: np.ndarray) -> Tensor:
    """``result`` as a Tensor (no copy), its dtype noted by any active :func:`recording_dtypes`."""
    for recorder in _dtype_recorders:
        recorder.add(result.dtype)
    return Tensor._wrap(result)


@contextmanager
def recording_dtypes() -> Iterator[set]:
    """A set that collects the NumPy dtype of every op result computed eagerly inside the ``with`` block.

    Gradient checks use it to see the precision of each value on a program's path (a MindSpore loss
    reduces in float32 even when its inputs are float64).
    """
    recorder: set = set()
    _dtype_recorders.append(recorder)
    try:
        yield recorder
    finally:
        _dtype_recorders.remove(recorder)


def dim(x: Tensor, axis: int):
    """The size of dim ``axis`` of ``x``: an int, or, for a dim compiled code knows only when the kernel runs (a
    masked selection's, ``set_inputs``'), where library code reads ``-1``, that size as the kernel reads it."""
    size = x.shape[axis]
    return size if size >= 0 else run("dim_size", x, axis=axis % len(x.shape))


def size_of(x: Tensor):
    """The number of elements of ``x`` (:func:`dim` of ``x`` made 1-D where a dim is known only at run time)."""
    if all(size >= 0 for size in x.shape):
        return math.prod(x.shape)
    return dim(run("reshape", x, shape=(-1,)), 0)


def assign(variable, value):
    """Write ``value`` into ``variable``'s data in place (``ops.assign``); returns a Tensor (not the Parameter) of
    the value written, as MindSpore 2.10's PYNATIVE ``Assign``: later writes to ``variable`` leave it as it is.
    It shares the data of a Tensor ``value`` of ``variable``'s dtype and shape (no copy: an optimizer's
    update costs no more than the write), so writing into ``value`` in place later changes it too.

    In compiled code the compiler turns this call into an assignment effect that runs at each call.

    Args:
        variable (Parameter): the Parameter (or Tensor) to update.
        value (Union[Tensor, number]): the new value, cast to the variable's dtype; a Tensor must
            have the variable's shape.

    Raises:
        ValueError: if ``value``'s shape differs from the variable's.
    """
    array = value._array if isinstance(value, Tensor) else np.asarray(value)
    target = variable._array
    if array.ndim and array.shape != target.shape:
        raise ValueError(f"For 'Assign', the shape of 'value' must be the same as 'variable', but got value shape "
                         f"{list(array.shape)} and variable shape {list(target.shape)}.")
    if RECORDERS:  # traced: record the update (undone when the trace ends; the kernel makes it)
        RECORDERS[-1].record_assign(variable, value)
    if not target.flags.writeable:
        variable._array = target = target.copy()
    np.copyto(target, array, casting="unsafe")
    if RECORDERS:
        return variable   # traced: the variable, read after the assignment effect
    fresh = type(value) is Tensor and array.dtype == target.dtype and array.shape == target.shape
    return _wrap(array if fresh else target.copy())


LIBRARY.register_intrinsics(run, assign)
