"""Batching rules: how each op of the table runs on operands that carry a batch dimension (``vmap``).

A batched value holds one sample per row of a leading batch axis of size ``B``; an unbatched value is
the same for every sample. A rule receives the statement as written for one sample (its operands'
avals are per-sample avals), the operands after batching and, for each, whether it is batched; it
emits the batched computation through the :class:`~npspore.compiler.batching.Batcher` and returns,
per target, ``(atom, batched)``. Rules are given by family where the family shares the logic:

* elementwise ops (and ``where``, ``clip``, ``cast``): NumPy broadcasts from the right, so a batched
  operand of lower per-sample rank than the result gets size-1 axes after its batch axis;
* reductions, ``normalize``, softmaxes, ``one_hot``, ``concat``/``stack``/``split`` and ``flatten``: the axis
  attribute moves past the batch axis;
* shape ops (``reshape``, ``transpose``, ``broadcast_to``, ``tile``, ``getitem``, ``setitem``...): the shape,
  permutation or index gains the batch axis in front;
* ``matmul``/``batch_matmul``/``dot``: the batch axis becomes one of matmul's own batch axes (a
  product of depth 1, the adjoint of a vector-matrix product, is then a batch of outer products, which
  optimize writes as ``np.einsum``: ``products.py``);
* convolutions and pooling: the batch axis is folded into the images' N axis and unfolded after.

An op with no rule here makes ``vmap`` fail at compile time, naming the op and the user's line:
``masked_select`` (and its gradient), ``nms_with_mask`` and ``random_choice_with_mask``, whose
results' shapes or orders depend on each sample's values; the collectives (``all_reduce``...), which
communicate whole tensors between processes. Three more have none because no program brings them to
``vmap``: ``dim_size`` and ``dim_range`` (a dynamic dim of ``set_inputs``; vmap specializes each call for static
shapes) and ``conv2d_filter_grad`` (in the programs tried, a convolution's filter gradient reaches ``vmap`` as a
product with its im2col columns). The ops without operands (``zeros``, ``random_normal``...) never meet a batched value.
"""
from __future__ import annotations

import numpy as np

from .. import shape_rules
from ..opdef import op_table
from .ir import Const, Var


class NoBatchingRule(NotImplementedError):
    """``vmap`` met an op (or an operand combination) it cannot batch."""


def _rank(atom) -> int:
    """The per-sample rank of an operand as the statement was written."""
    return len(atom.aval.shape) if isinstance(atom, Var) else np.ndim(atom.value)


def _axis(axis: int, ndim: int) -> int:
    """A per-sample axis as an axis of the batched value (past the batch axis)."""
    return (axis % ndim if ndim else 0) + 1


def _axes(axis, ndim: int):
    if axis is None:
        return tuple(range(1, ndim + 1))
    if isinstance(axis, (tuple, list)):
        return tuple(_axis(a, ndim) for a in axis)
    return _axis(axis, ndim)


# ----------------------------------------------------------------------------------- families


def elementwise(batcher, stmt, args, batched):
    """Broadcasting ops: batched operands get size-1 axes up to the result's per-sample rank."""
    rank = max(len(t.aval.shape) for t in stmt.targets)
    operands = [batcher.align(a, _rank(old), rank) if b else a for a, old, b in zip(args, stmt.args, batched)]
    return batcher.emit(stmt, operands, stmt.static, all_batched=True)


def reduction(batcher, stmt, args, batched):
    """Reductions and ops with one ``axis`` attribute over one operand."""
    ndim = _rank(stmt.args[0])
    static = dict(stmt.static)
    if stmt.op in ("argmax", "argmin") and static.get("axis") is None:
        flat = batcher.apply("reshape", [args[0]], {"shape": (batcher.size, -1)}, stmt.targets[0].name)
        return batcher.emit(stmt, [flat], {**static, "axis": 1}, all_batched=True)
    static["axis"] = _axes(static.get("axis"), ndim)
    return batcher.emit(stmt, args, static, all_batched=True)


def last_axis(batcher, stmt, args, batched):
    """Ops on the last axis whose operands have the same rank (``softmax``, ``topk``, ``gather_last``):
    every operand batched, the axis moved."""
    ndim = _rank(stmt.args[0])
    operands = [a if b else batcher.broadcast(a) for a, b in zip(args, batched)]
    static = dict(stmt.static)
    if "axis" in static:
        static["axis"] = _axis(static["axis"], ndim)
    return batcher.emit(stmt, operands, static, all_batched=True)


def sequence_axis(batcher, stmt, args, batched):
    """``concat``, ``stack``, ``split``: every operand batched, the axis moved."""
    operands = [a if b else batcher.broadcast(a) for a, b in zip(args, batched)]
    ndim = _rank(stmt.args[0]) + (1 if stmt.op == "stack" else 0)
    return batcher.emit(stmt, operands, {**stmt.static, "axis": _axis(stmt.static.get("axis", 0), ndim)},
                        all_batched=True)


def one_hot(batcher, stmt, args, batched):
    """Batched indices: the new axis stays last, or moves past the batch axis."""
    if any(batched[1:]):
        raise NoBatchingRule("one_hot with batched on/off values")
    axis = stmt.static.get("axis", -1)
    ndim = _rank(stmt.targets[0])
    return batcher.emit(stmt, args, {**stmt.static, "axis": -1 if axis == -1 else _axis(axis, ndim)},
                        all_batched=True)


# ----------------------------------------------------------------------------------- shape ops


def reshape(batcher, stmt, args, batched):
    """The target shape gains the batch axis in front."""
    return batcher.emit(stmt, args, {**stmt.static, "shape": (batcher.size, *stmt.static["shape"])},
                        all_batched=True)


def flatten(batcher, stmt, args, batched):
    """The flattened range of axes moves past the batch axis."""
    ndim = _rank(stmt.args[0])
    start, end = stmt.static.get("start_dim", 0), stmt.static.get("end_dim", -1)
    return batcher.emit(stmt, args, {"start_dim": _axis(start, ndim), "end_dim": _axis(end, ndim)},
                        all_batched=True)


def expand_dims(batcher, stmt, args, batched):
    """The new axes move past the batch axis."""
    ndim = _rank(stmt.targets[0])
    return batcher.emit(stmt, args, {"axis": _axes(stmt.static["axis"], ndim)}, all_batched=True)


def squeeze(batcher, stmt, args, batched):
    """The squeezed axes (every size-1 axis of a sample when None) move past the batch axis."""
    shape = stmt.args[0].aval.shape
    axis = stmt.static.get("axis")
    if axis is None:
        axis = tuple(i for i, d in enumerate(shape) if d == 1)
    return batcher.emit(stmt, args, {"axis": _axes(axis, len(shape))}, all_batched=True)


def transpose(batcher, stmt, args, batched):
    """The batch axis stays in front of the permuted axes."""
    ndim = _rank(stmt.args[0])
    axes = stmt.static.get("axes")
    axes = tuple(reversed(range(ndim))) if axes is None else tuple(a % ndim for a in axes)
    return batcher.emit(stmt, args, {"axes": (0, *(a + 1 for a in axes))}, all_batched=True)


def broadcast_to(batcher, stmt, args, batched):
    """The operand is aligned to the target rank; the target shape gains the batch axis."""
    shape = tuple(stmt.static["shape"])
    operand = batcher.align(args[0], _rank(stmt.args[0]), len(shape))
    return batcher.emit(stmt, [operand], {"shape": (batcher.size, *shape)}, all_batched=True)


def tile(batcher, stmt, args, batched):
    """The repetitions gain a 1 for the batch axis (and for axes NumPy would prepend)."""
    reps = stmt.static["reps"]
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    ndim = _rank(stmt.args[0])
    rank = max(ndim, len(reps))
    operand = batcher.align(args[0], ndim, rank)
    return batcher.emit(stmt, [operand], {"reps": (1,) + (1,) * (rank - len(reps)) + reps}, all_batched=True)


def _batched_index(index):
    """A static index of one sample as an index of the batched value; None where NumPy would move
    advanced-index axes in front of the batch axis (two array indices apart)."""
    parts = index if isinstance(index, tuple) else (index,)
    arrays = [i for i, part in enumerate(parts) if isinstance(part, (list, np.ndarray))]
    if arrays and arrays[-1] - arrays[0] + 1 != len(arrays):
        return None
    return (slice(None), *parts)


def getitem(batcher, stmt, args, batched):
    """``x[index]`` (and its adjoint ``getitem_grad``): the index takes every sample first."""
    index = _batched_index(stmt.static["index"])
    if index is None:
        raise NoBatchingRule("getitem with array indices separated by slices")
    static = {**stmt.static, "index": index}
    if "shape" in static:   # getitem_grad
        static["shape"] = (batcher.size, *static["shape"])
    return batcher.emit(stmt, args, static, all_batched=True)


def setitem(batcher, stmt, args, batched):
    """``x[index] = value``: the index takes every sample first; an unbatched ``x`` is repeated over the batch (the
    op copies it), a batched ``value`` gets size-1 axes after its batch axis up to the rank of ``x[index]``."""
    index = _batched_index(stmt.static["index"])
    if index is None:
        raise NoBatchingRule("setitem with array indices separated by slices")
    x, value = args
    if not batched[0]:
        x = batcher.broadcast(x)
    if batched[1]:
        part_rank = len(shape_rules.getitem(stmt.args[0].aval, index=stmt.static["index"]).shape)
        value = batcher.align(value, _rank(stmt.args[1]), part_rank)
    return batcher.emit(stmt, [x, value], {**stmt.static, "index": index}, all_batched=True)


def gather(batcher, stmt, args, batched):
    """``take`` along an axis, of batched params, of batched indices, or of both (each sample's own)."""
    ndim = _rank(stmt.args[0])
    axis = stmt.static.get("axis", 0) % max(ndim, 1)
    if batched[0] and batched[1]:
        return _gather_per_sample(batcher, stmt, args, axis)
    if batched[0]:
        return batcher.emit(stmt, args, {**stmt.static, "axis": axis + 1}, all_batched=True)
    # batched indices: their batch axis lands at `axis`: move it in front
    [(out, _)] = batcher.emit(stmt, args, stmt.static, all_batched=False)
    rank = _rank(stmt.targets[0]) + 1
    order = (axis, *(i for i in range(rank) if i != axis))
    return [(batcher.apply("transpose", [out], {"axes": order}, stmt.targets[0].name), True)]


def _gather_per_sample(batcher, stmt, args, axis: int):
    """Each sample's params taken at that sample's indices: the rows along ``axis`` of all samples in one array
    (sample ``b``'s row ``r`` at ``b * rows + r``), the indices (a negative one counting from the end of its
    sample's rows) offset to their sample's."""
    params, indices = args
    shape, name = tuple(stmt.args[0].aval.shape), stmt.targets[0].name
    ndim, rows, index_rank = len(shape), shape[axis], _rank(stmt.args[1])
    if axis:   # the rows' axis next to the batch axis
        order = (0, axis + 1, *(k + 1 for k in range(ndim) if k != axis))
        params = batcher.apply("transpose", [params], {"axes": order}, name)
    flat = batcher.apply("reshape", [params], {"shape": (batcher.size * rows, *shape[:axis], *shape[axis + 1:])}, name)
    dtype = stmt.args[1].aval.dtype if isinstance(stmt.args[1], Var) else np.asarray(stmt.args[1].value).dtype
    offsets = (np.arange(batcher.size, dtype=dtype) * rows).reshape((batcher.size,) + (1,) * index_rank)
    rows_at = batcher.apply("add", [batcher.apply("mod", [indices, rows], {}, name), Const(offsets)], {}, name)
    out = batcher.apply("gather", [flat, rows_at], {"axis": 0}, name)   # (B, *indices, *before axis, *after)
    if axis:   # (B, *before axis, *indices, *after): NumPy's take puts the indices' dims at the axis
        first = 1 + index_rank
        order = (0, *range(first, first + axis), *range(1, first), *range(first + axis, first + ndim - 1))
        out = batcher.apply("transpose", [out], {"axes": order}, name)
    return [(out, True)]


def gather_grad(batcher, stmt, args, batched):
    """The adjoint of ``gather``: batched cotangents at shared indices, or each sample's at its own."""
    if batched[1]:
        return _gather_grad_per_sample(batcher, stmt, args, batched)
    shape = tuple(stmt.static["shape"])
    axis = stmt.static.get("axis", 0) % len(shape)
    return batcher.emit(stmt, args, {"shape": (batcher.size, *shape), "axis": axis + 1}, all_batched=True)


def _gather_grad_per_sample(batcher, stmt, args, batched):
    """The transpose of :func:`_gather_per_sample`: each sample's cotangent added at its own indices into the rows of
    all samples (sample ``b``'s row ``r`` at ``b * rows + r``), then split back into samples."""
    dout, indices = args
    if not batched[0]:
        dout = batcher.broadcast(dout)
    shape, name = tuple(stmt.static["shape"]), stmt.targets[0].name
    ndim, index_rank = len(shape), _rank(stmt.args[1])
    axis = stmt.static.get("axis", 0) % ndim
    rows, rest = shape[axis], shape[:axis] + shape[axis + 1:]
    if axis:   # a sample's cotangent (*before axis, *indices, *after) as (*indices, *before axis, *after)
        order = (0, *range(1 + axis, 1 + axis + index_rank), *range(1, 1 + axis),
                 *range(1 + axis + index_rank, index_rank + ndim))
        dout = batcher.apply("transpose", [dout], {"axes": order}, name)
    dtype = stmt.args[1].aval.dtype if isinstance(stmt.args[1], Var) else np.asarray(stmt.args[1].value).dtype
    offsets = (np.arange(batcher.size, dtype=dtype) * rows).reshape((batcher.size,) + (1,) * index_rank)
    rows_at = batcher.apply("add", [batcher.apply("mod", [indices, rows], {}, name), Const(offsets)], {}, name)
    flat = batcher.apply("gather_grad", [dout, rows_at], {"shape": (batcher.size * rows, *rest), "axis": 0}, name)
    out = batcher.apply("reshape", [flat], {"shape": (batcher.size, rows, *rest)}, name)
    if axis:
        out = batcher.apply("transpose", [out], {"axes": (0, *range(2, 2 + axis), 1, *range(2 + axis, ndim + 1))}, name)
    return [(out, True)]


def like(batcher, stmt, args, batched):
    """Ops whose result has their one operand's shape (``ones_like``, ``zeros_like``, a loss's
    ``class_indices``, checked element by element): the op on the batched operand as it is."""
    return batcher.emit(stmt, args, stmt.static, all_batched=True)


def fill(batcher, stmt, args, batched):
    """``fill`` with a value per sample: the batched value, with size-1 axes up to the filled shape's
    rank, fills the batched shape (NumPy's ``full`` broadcasts its value)."""
    shape = tuple(stmt.static["shape"])
    value = batcher.align(args[0], _rank(stmt.args[0]), len(shape))
    return batcher.emit(stmt, [value], {**stmt.static, "shape": (batcher.size, *shape)}, all_batched=True)


# ----------------------------------------------------------------------------------- linear algebra


def matmul(batcher, stmt, args, batched):
    """The batch axis joins matmul's batch axes. A per-sample vector that NumPy would read as a matrix
    once batched becomes a one-row (left) or one-column (right) matrix, squeezed out of the result."""
    x, y = args
    nx, ny = _rank(stmt.args[0]), _rank(stmt.args[1])
    if stmt.op == "dot" and max(nx, ny) > 2:
        raise NoBatchingRule("dot of operands of rank above 2")
    static = {} if stmt.op == "dot" else dict(stmt.static)
    squeezed = []
    if batched[0] and nx == 1 and (batched[1] or ny > 2):
        x, nx = batcher.apply("expand_dims", [x], {"axis": 1}, "row"), 2
        squeezed.append(-2)
    if batched[1] and ny == 1:
        y, ny = batcher.apply("expand_dims", [y], {"axis": -1}, "column"), 2
        squeezed.append(-1)
    rank = max(nx, ny)   # a vector operand left takes no part in the broadcast of matmul's batch axes
    if batched[0] and nx >= 2:
        x = batcher.align(x, nx, rank)
    if batched[1] and ny >= 2:
        y = batcher.align(y, ny, rank)
    out = batcher.apply("matmul", [x, y], static, stmt.targets[0].name)
    for axis in squeezed if len(squeezed) < 2 else (-1, -1):
        out = batcher.apply("squeeze", [out], {"axis": axis}, stmt.targets[0].name)
    return [(out, True)]


def outer(batcher, stmt, args, batched):
    x, y = args
    if batched[0]:
        x = batcher.apply("expand_dims", [x], {"axis": -1}, "column")
    else:
        x = batcher.apply("reshape", [x], {"shape": (-1, 1)}, "column")
    if batched[1]:
        y = batcher.apply("expand_dims", [y], {"axis": 1}, "row")
    out = batcher.apply("mul", [x, y], {}, stmt.targets[0].name)
    return [(out, True)]


# ----------------------------------------------------------------------------------- images


_IMAGE_OPERANDS = {"conv2d": (0,), "conv2d_input_grad": (0,), "pool2d_windows": (0,), "max_pool2d": (0,),
                   "max_pool2d_index": (0,), "sum_pool2d": (0,), "sum_pool2d_grad": (0,),
                   "max_pool2d_grad": (0, 1, 2), "max_pool2d_gather": (0, 1)}


def images(batcher, stmt, args, batched):
    """Ops that treat each image of an NCHW batch alone: the batch axis is folded into N."""
    rows = _IMAGE_OPERANDS[stmt.op]
    if any(b for i, b in enumerate(batched) if i not in rows):
        raise NoBatchingRule(f"{stmt.op} with a batched filter")
    n = stmt.args[rows[0]].aval.shape[0]
    folded = []
    for i, (atom, old) in enumerate(zip(args, stmt.args)):
        if i in rows:
            atom = atom if batched[i] else batcher.broadcast(atom)
            atom = batcher.apply("reshape", [atom], {"shape": (-1, *old.aval.shape[1:])}, "folded")
        folded.append(atom)
    static = dict(stmt.static)
    if "input_shape" in static:
        static["input_shape"] = (batcher.size * n, *static["input_shape"][1:])
    results = batcher.emit(stmt, folded, static, all_batched=False)
    return [(batcher.apply("reshape", [out], {"shape": (batcher.size, *target.aval.shape)}, target.name), True)
            for (out, _), target in zip(results, stmt.targets)]


def image_columns(batcher, stmt, args, batched):
    """im2col of each sample's images: the columns of all images side by side (the images' N axis is in
    the columns' last axis), then the batch axis moved in front."""
    old = stmt.args[0].aval.shape
    folded = batcher.apply("reshape", [args[0]], {"shape": (-1, *old[1:])}, "folded")
    [(columns, _)] = batcher.emit(stmt, [folded], stmt.static, all_batched=False)
    groups, taps, pixels = stmt.targets[0].aval.shape
    split = batcher.apply("reshape", [columns], {"shape": (groups, taps, batcher.size, pixels)}, "columns")
    return [(batcher.apply("transpose", [split], {"axes": (2, 0, 1, 3)}, stmt.targets[0].name), True)]


def image_columns_grad(batcher, stmt, args, batched):
    """col2im of each sample's columns: laid side by side as ``image_columns`` makes them, then unfolded."""
    groups, taps, pixels = stmt.args[0].aval.shape
    side = batcher.apply("transpose", [args[0]], {"axes": (1, 2, 0, 3)}, "columns")
    side = batcher.apply("reshape", [side], {"shape": (groups, taps, batcher.size * pixels)}, "columns")
    shape = stmt.static["input_shape"]
    static = {**stmt.static, "input_shape": (batcher.size * shape[0], *shape[1:])}
    [(images, _)] = batcher.emit(stmt, [side], static, all_batched=False)
    return [(batcher.apply("reshape", [images], {"shape": (batcher.size, *shape)}, stmt.targets[0].name), True)]


# ----------------------------------------------------------------------------------- loop rows


def row(batcher, stmt, args, batched):
    """``x[t]`` of a batched buffer: the row of every sample (``t`` the same for all, or each sample's own)."""
    if batched[1]:
        return _gather_per_sample(batcher, stmt, [args[0] if batched[0] else batcher.broadcast(args[0]), args[1]], 0)
    return batcher.emit(stmt, [batcher.apply("transpose", [args[0]], {"axes": _swap_front(_rank(stmt.args[0]))},
                                             "rows"), args[1]], stmt.static, all_batched=True)


def row_add(batcher, stmt, args, batched):
    """``buf[t] += h`` (``buf[t] = h``) for every sample: in a buffer with the time axis in front, then back."""
    if batched[1]:
        return _rows_per_sample(batcher, stmt, args, batched)
    ndim = _rank(stmt.args[0])
    buf = args[0] if batched[0] else batcher.broadcast(args[0])
    swapped = batcher.apply("transpose", [buf], {"axes": _swap_front(ndim)}, "rows")
    value = args[2] if batched[2] else batcher.broadcast(args[2])
    [(out, _)] = batcher.emit(stmt, [swapped, args[1], value], stmt.static, all_batched=True)
    return [(batcher.apply("transpose", [out], {"axes": _swap_front(ndim)}, stmt.targets[0].name), True)]


def _rows_per_sample(batcher, stmt, args, batched):
    """``buf[t] = h`` (``buf[t] += h``) with each sample's own row ``t``: ``h`` where a row is its sample's ``t``."""
    if stmt.op not in ("row_set", "row_add"):
        raise NoBatchingRule(f"{stmt.op} with a batched index")
    shape, name = tuple(stmt.args[0].aval.shape), stmt.targets[0].name
    ndim = len(shape)
    buf = args[0] if batched[0] else batcher.broadcast(args[0])
    value = batcher.align(args[2] if batched[2] else batcher.broadcast(args[2]), ndim - 1, ndim)   # (B, 1, *row)
    t = batcher.apply("reshape", [args[1]], {"shape": (batcher.size,) + (1,) * ndim}, name)
    rows = Const(np.arange(shape[0], dtype=np.int64).reshape((1, shape[0]) + (1,) * (ndim - 1)))
    mask = batcher.apply("equal", [rows, t], {}, name)
    if stmt.op == "row_set":
        return [(batcher.apply("where", [mask, value, buf], {}, name), True)]
    zero = Const(np.zeros((), buf.aval.dtype))
    return [(batcher.apply("add", [buf, batcher.apply("where", [mask, value, zero], {}, name)], {}, name), True)]


def _swap_front(ndim: int) -> tuple:
    return (1, 0, *range(2, ndim + 1))


# ----------------------------------------------------------------------------------- the table


def _rules() -> dict:
    table = {}
    for definition in op_table().definitions():
        if definition.family in ("elementwise", "special"):
            table[definition.name] = elementwise
    table.update(dict.fromkeys(("sum", "mean", "prod", "max", "min", "max_with_indices", "min_with_indices",
                                "argmax", "argmin", "all", "any", "normalize"), reduction))
    table.update(dict.fromkeys(("softmax", "log_softmax", "softmax_cross_entropy", "topk", "gather_last",
                                "scatter_last"), last_axis))
    table.update(dict.fromkeys(("concat", "stack", "split"), sequence_axis))
    table.update(dict.fromkeys(("matmul", "batch_matmul", "dot"), matmul))
    table.update(dict.fromkeys(_IMAGE_OPERANDS, images))
    table.update(dict.fromkeys(("ones_like", "zeros_like", "class_indices"), like))
    table.update(dict.fromkeys(("row_add", "row_add_in_place", "row_set"), row_add))
    table.update({"one_hot": one_hot, "reshape": reshape, "flatten": flatten, "expand_dims": expand_dims,
                  "squeeze": squeeze, "transpose": transpose, "broadcast_to": broadcast_to, "tile": tile,
                  "getitem": getitem, "getitem_grad": getitem, "setitem": setitem, "gather": gather,
                  "gather_grad": gather_grad,
                  "outer": outer, "row": row, "conv2d_columns": image_columns, "fill": fill,
                  "conv2d_columns_grad": image_columns_grad})
    return table


BATCHING_RULES = _rules()
