"""``vmap``: the vectorizing map of MindSpore 2.x, compiled by the batching transform.

``vmap(fn, in_axes, out_axes)(*args)`` checks ``in_axes`` against the arguments as MindSpore does
(same errors, raised at the call), specializes ``fn`` for one sample and compiles it with
``compiler.batching`` into one kernel over the whole batch. ``fn`` may be a function, a Cell, a
gradient function (``vmap(grad(loss))``: per-sample gradients), another ``vmap`` (nested), or a
``CellList`` of cells of the same structure (model ensembling: each cell's Parameters are stacked
along the batch axis at each call).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import compiler
from .compiler.errors import CompileError, without_internal_frames
from .compiler.kernel import KernelCache
from .compiler.library import LIBRARY
from .compiler.signature import describe_key, input_key
from .core import tree
from .grad import GradFunction, grad_levels
from .opdef import Aval

__all__ = ["vmap"]


def _describe(value) -> str:
    """A value as MindSpore's messages show it (``AbstractScalar(Type: Float32, Value: 1.5, ...)``)."""
    kinds = {bool: "Bool", int: "Int64", float: "Float32", str: "String"}
    kind = kinds.get(type(value))
    if kind is not None:
        shown = f"{value:g}" if isinstance(value, float) else value
        return f"AbstractScalar(Type: {kind}, Value: {shown}, Shape: NoShape)"
    if isinstance(value, dict):
        return "AbstractDictionary{ " + ", ".join(f"({_describe(k)}: {_describe(v)})" for k, v in value.items()) + " }"
    if LIBRARY.is_tensor(value):
        return f"AbstractTensor(shape: {tuple(value.shape)}, element: {value.dtype})"
    return repr(value)


def _check_axes_type(axes, name: str) -> None:
    if axes is None or type(axes) is int:
        return
    if not isinstance(axes, (tuple, list)):
        raise RuntimeError(f"The axis in vmap`s '{name}' can only be of type Int or None, but got {_describe(axes)}.")
    for axis in axes:
        if isinstance(axis, (tuple, list)):
            _check_axes_type(axis, name)
        elif axis is not None and type(axis) is not int:
            raise RuntimeError(f"The axis in vmap's '{name}' should be a None or a scalar of type Int64Imm, "
                               f"but got a {axis}.")


def _all_none(axes) -> bool:
    if isinstance(axes, (tuple, list)):
        return all(_all_none(a) for a in axes)
    return axes is None


class _Leaves:
    """How vmap reads the tensor leaves of its arguments: concrete Tensors at a call from Python, or
    abstract values when the call is staged into code being compiled."""

    def __init__(self, is_leaf, shape, sample):
        self.is_leaf, self.shape, self.sample = is_leaf, shape, sample


def _is_abstract(value) -> bool:
    return isinstance(value, compiler.values.TensorValue)   # the compiler's stages load on first use


def _abstract_sample(value, axis: int):
    aval = value.aval
    shape = aval.shape[:axis] + aval.shape[axis + 1:]
    return compiler.values.TensorValue(compiler.ir.Var(value.var.name, Aval(shape, aval.dtype)))


CONCRETE = _Leaves(LIBRARY.is_tensor, lambda t: tuple(t.shape),
                   lambda t, axis: LIBRARY.wrap(np.moveaxis(t.asnumpy(), axis, 0)[0]))
ABSTRACT = _Leaves(_is_abstract, lambda v: v.aval.shape, _abstract_sample)


def _leaf_axes(value, axes, found: list, leaves: _Leaves) -> None:
    """Append the batch axis of each tensor leaf of ``value`` (None: unbatched), checking its range."""
    if axes is None:
        found.extend([None] * len(tree.leaves(value, leaves.is_leaf)))
    elif isinstance(axes, (tuple, list)):
        if not isinstance(value, (tuple, list)):
            raise RuntimeError(f"The axis in vmap's 'in_axes' should be a None or a scalar of type Int64Imm, but "
                               f"got a {tuple(axes)}.")
        if len(axes) < len(value):
            raise RuntimeError(f"List index [{len(axes)}] is out of range [{len(axes)}].")
        for item, axis in zip(value, axes):   # MindSpore ignores axes beyond the argument's length
            _leaf_axes(item, axis, found, leaves)
    elif leaves.is_leaf(value):
        ndim = len(leaves.shape(value))
        if not -ndim <= axes < ndim:
            raise RuntimeError(f"The axis: {axes} in 'in_axes' is out of bounds for array of dimension "
                               f"[{-ndim},{ndim}).")
        found.append(axes % ndim)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _leaf_axes(item, axes, found, leaves)
    else:
        raise RuntimeError(f"The orig_abs should be AbstractTensor when corresponding axis is {axes}, but got a "
                           f"{_describe(value)}. Tip: Please check the correspondence between vmap's 'in_axes' and "
                           f"inputs. You may want to explicitly specify the 'in_axes' corresponding to "
                           f"{_describe(value)} as 'None' to solve this problem.")


class VmapFunction:
    """The function :func:`vmap` returns: compiles ``fn`` over the batch on the first call with a new
    input signature, and runs the cached kernel after."""

    def __init__(self, fn, in_axes, out_axes):
        self.fn = fn
        self.in_axes = in_axes
        self.out_axes = out_axes
        self._cache = KernelCache(f"vmap of {getattr(fn, '__qualname__', type(fn).__name__)}")

    def _cells(self):
        """The cells of a CellList ``fn`` (model ensembling), or None."""
        if LIBRARY.is_cell(self.fn) and type(self.fn).__name__ == "CellList":
            return list(self.fn)
        return None

    def batch_request(self, args: tuple, leaves: _Leaves = CONCRETE):
        """``(BatchRequest, the arguments of one sample, the target)`` of a call: checks ``fn``,
        ``in_axes`` and ``out_axes`` against the arguments as MindSpore does."""
        cells = self._cells()
        if cells is None and not callable(self.fn):
            raise RuntimeError(f"'VmapOperation' arg0 must be a 'Function' or 'Cell', but got {_describe(self.fn)}.")
        for name, axes in (("in_axes", self.in_axes), ("out_axes", self.out_axes)):
            _check_axes_type(axes, name)
            if cells is None and axes is None:
                raise RuntimeError(f"The '{name}' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'.")
        in_axes = self.in_axes
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise RuntimeError("When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the "
                                   f"number of arguments of 'fn': {len(args)}, but got size: {len(in_axes)}.")
            if cells is None and _all_none(in_axes):
                raise RuntimeError("The 'in_axes' of 'vmap' cannot be all None while 'fn' is not a 'CellList', "
                                   f"but got {tuple(in_axes)!r}.")
        else:
            in_axes = (in_axes,) * len(args)
        axes: list = []
        for value, axis in zip(args, in_axes):
            _leaf_axes(value, axis, axes, leaves)
        found = tree.leaves(args, leaves.is_leaf)
        sizes = [leaves.shape(leaf)[axis] for leaf, axis in zip(found, axes) if axis is not None]
        if cells is not None:
            sizes.insert(0, len(cells))
        for size in sizes[1:]:
            if size != sizes[0]:
                raise RuntimeError("The 'axis_size' of each argument in the scope of 'vmap' should be equal, "
                                   f"but got {sizes[0]} and {size}.")
        if not sizes:
            raise RuntimeError("Failed to get 'axis_size' within the scope of vmap.")
        sample = iter([leaf if axis is None else leaves.sample(leaf, axis) for leaf, axis in zip(found, axes)])
        sample_args = tree.tree_map(lambda leaf: next(sample), args, leaves.is_leaf)
        target = cells[0] if cells is not None else self.fn
        request = compiler.batching.BatchRequest(tuple(axes), self.out_axes, sizes[0], tuple(cells or ()))
        return request, tuple(sample_args), target

    def levels(self, args: tuple, leaves: _Leaves = CONCRETE) -> tuple:
        """``(innermost callable, its GradRequests, BatchRequests outermost first, one sample's arguments)``."""
        batches = []
        function, level_args = self, tuple(args)
        while isinstance(function, VmapFunction):
            batch, level_args, function = function.batch_request(level_args, leaves)
            batches.append(batch)
        grads: tuple = ()
        if isinstance(function, GradFunction):
            function, grads = grad_levels(function)
        return function, grads, tuple(batches), level_args

    def compile_request(self, args: tuple) -> compiler.request.CompileRequest:
        """The ``CompileRequest`` of a call: one BatchRequest per nested vmap, then the gradients."""
        key, _ = input_key(args)
        function, grads, batches, sample_args = self.levels(args)
        return compiler.request.CompileRequest(function, sample_args, {}, key, describe_key(key), grads=grads,
                                               batches=batches)

    def _key(self, args):
        key, leaves = input_key(args)
        if LIBRARY.is_cell(self.fn):
            key = (key, bool(self.fn.training))
        return key, leaves

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise RuntimeError(f"Got an unexpected keyword argument '{next(iter(kwargs))}'")
        key, leaves = self._key(args)
        entry = self._cache.lookup(key)
        if entry is None:
            try:
                entry, from_disk = compiler.compile(self.compile_request(args))
            except CompileError as error:   # the user's frames and the located error, not npspore's stack
                raise without_internal_frames(error)
            self._cache.add(key, entry, from_disk=from_disk)
        return entry.run(leaves)

    def cache_info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}`` of this vmap's kernels."""
        return self._cache.info()

    def kernel_source(self, *args: Any) -> str:
        """The generated module that computes this vmap for these arguments (compiling it if needed)."""
        self(*args)
        return self._cache.entries[self._key(args)[0]].source


def _stage(function: VmapFunction, specializer, args, kwargs, loc):
    """A vmap called inside code being compiled: staged there (``compiler.batchstage``)."""
    if kwargs:
        raise RuntimeError(f"Got an unexpected keyword argument '{next(iter(kwargs))}'")
    target, grads, batches, sample_args = function.levels(tuple(args), ABSTRACT)
    return compiler.batchstage.stage_batched(target, grads, batches, specializer, sample_args, tuple(args), loc)


LIBRARY.register_stager(VmapFunction, _stage)


def vmap(fn: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> VmapFunction:
    r"""Vectorizing map: ``fn`` mapped along the given axes of its arguments, as one computation.

    Args:
        fn (Union[Cell, Function, CellList]): the function to map; it may be a gradient function
            (``vmap(grad(loss))`` gives per-sample gradients) or another vmap. A CellList of cells of the
            same structure is the model-ensembling case: the Parameters of its cells are stacked along
            the mapped axis, whose size must be the number of cells.
        in_axes (Union[int, list, tuple]): which axis of each argument to map over: an int for every
            argument, or a tuple/list with one entry (int, None or nested tuple/list) per positional
            argument. None means the argument is the same for every element of the batch. At least
            one axis is not None (unless ``fn`` is a CellList). Default: ``0``.
        out_axes (Union[int, list, tuple]): where the mapped axis appears in each output (same forms);
            an output that does not depend on the mapped axis and is given an axis is broadcast along
            it. Default: ``0``.

    Returns:
        A function taking the arguments of ``fn`` with the extra mapped axes and returning its outputs
        with the mapped axes at ``out_axes``. The first call with a new input signature compiles one
        kernel over the whole batch (``npspore show --transform vmap`` prints it).

    Raises:
        RuntimeError: as MindSpore: an axis of ``in_axes``/``out_axes`` that is not an int or None, or out of
            range for its argument or output; ``in_axes`` whose length is not the number of arguments;
            all axes None; mapped axes of different sizes; a keyword argument.
        RuntimeError: at compile time, at the line of ``fn``: an op with no batching rule, or a side
            effect (a print, a Parameter write) under a tensor ``if``/``while`` whose condition differs
            per sample; with ``vmap(grad(fn))``, the gradient of a tensor ``while`` whose trip count
            differs per sample (or of a loop under a per-sample tensor ``if``).

    Examples:
        >>> import numpy as np
        >>> from npspore import Tensor, vmap
        >>> def test_vmap(x, y, z):
        ...     return x + y + z
        >>> x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]).astype(np.float32))
        >>> y = Tensor(np.array([[-3, -2, -1], [3, 2, 1]]).astype(np.float32))
        >>> z = Tensor(np.array([0, 3]).astype(np.float32))
        >>> print(vmap(test_vmap, in_axes=(0, 1, None), out_axes=1)(x, y, z))
        [[-2.  1.  4.]
         [ 8.  9. 10.]]
    """
    return VmapFunction(fn, in_axes, out_axes)
