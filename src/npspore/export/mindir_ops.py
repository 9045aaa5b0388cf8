"""MindSpore's primitive for each op of the op table: how the MindIR writer writes an op.

:data:`MINDIR_FORMS` maps each op (``npspore.opdef``) to ``form(writer, node)``, which writes the
export graph's :class:`~npspore.export.graph.Node` of that op with the writer's ``apply`` (a node of
a primitive: MindSpore 2.10's name, its inputs in the order of its ``op_def`` for a
``PRIMITIVE_FUNCTION``, its attributes for a ``PRIMITIVE``) and ``constant``, and returns the name of
its result (a tuple of names for an op of several results). :data:`NO_MINDIR_FORM` lists every
other op with the reason it has none; ``tests/test_mindir.py`` checks that the two cover the op
table, and ``tools/check_mindir_in_mindspore.py --all`` runs every form in MindSpore 2.10.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..ops.mindir_primitives import TYPE_IDS
from ..opdef import op_table
from .graph import Constant, Value, unsupported

__all__ = ["MINDIR_FORMS", "NO_MINDIR_FORM"]

_TYPE_ID = {np.dtype(dtype): number for number, dtype in TYPE_IDS.items()}   # MindSpore's TypeId of a dtype
_UNARY = {"neg": "Neg", "abs": "Abs", "square": "Square", "sign": "Sign", "exp": "Exp", "log": "Log",
          "log1p": "Log1p", "sqrt": "Sqrt", "rsqrt": "Rsqrt", "sin": "Sin", "cos": "Cos", "tan": "Tan",
          "tanh": "Tanh", "sigmoid": "Sigmoid", "relu": "ReLU", "erf": "Erf", "softplus": "Softplus",
          "logical_not": "LogicalNot",
          "acos": "ACos", "asin": "Asin", "atan": "Atan", "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh",
          "acosh": "Acosh", "atanh": "Atanh", "expm1": "Expm1", "erfc": "Erfc", "trunc": "Trunc",
          "erfinv": "Erfinv", "lgamma": "Lgamma", "digamma": "Digamma"}
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "RealDiv", "floor_div": "FloorDiv", "mod": "FloorMod",
           "remainder": "RemainderTensorTensor", "truncate_mod": "TruncateMod",
           "pow": "Pow", "maximum": "Maximum", "minimum": "Minimum", "equal": "Equal", "not_equal": "NotEqual",
           "less": "Less", "less_equal": "LessEqual", "greater": "Greater", "greater_equal": "GreaterEqual",
           "logical_and": "LogicalAnd", "logical_or": "LogicalOr", "atan2": "Atan2", "bitwise_and": "BitwiseAnd",
           "bitwise_or": "BitwiseOr", "bitwise_xor": "BitwiseXor", "left_shift": "LeftShift",
           "right_shift": "RightShift", "gcd": "Gcd", "lcm": "Lcm"}
_REDUCE = {"sum": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax", "min": "ReduceMin", "prod": "ReduceProd",
           "all": "ReduceAll", "any": "ReduceAny"}

_GRADIENT = ("a gradient op, in an export only when construct computes a gradient: npspore does not write "
             "MindSpore's gradient primitives ({}) yet")
_IN_PLACE = ("an in-place write of npspore's NumPy kernels, made by optimize after the export stop point, so no "
             "export program holds it")
_CONCAT_PARTS = ("a concatenation's parts written into it in npspore's NumPy kernels, made by optimize after the "
                 "export stop point, so no export program holds it (the graph keeps the Concat)")
_COLLECTIVE = "a collective across MPI ranks; a MindIR graph of one device holds no communication"
NO_MINDIR_FORM = {
    "conj": "MindSpore's Conj: not written yet (only gradients of complex programs emit it, and the export graphs of "
            "npspore's tests are real)",
    "real": "MindSpore's Real: not written yet (of complex tensors, which the export graphs of npspore's tests do not "
            "hold)",
    "uniform_int": "MindSpore's UniformInt: not written yet (the export graphs of npspore's tests draw no integers)",
    "shuffle_order": "MindSpore's RandomShuffle permutes its input itself; npspore's order alone has no primitive",
    "bernoulli_draw": "MindSpore's Bernoulli: not written yet (the export graphs of npspore's tests draw none)",
    "getitem_grad": _GRADIENT.format("StridedSliceGrad"),
    "setitem": "x[index] = value in compiled code; npspore does not write MindSpore's TensorScatterUpdate yet",
    "gather_grad": _GRADIENT.format("UnsortedSegmentSum"),
    "masked_select": "its output's length depends on the data; npspore writes static shapes only (not MaskedSelect)",
    "masked_select_grad": _GRADIENT.format("MaskedSelectGrad"),
    "conv2d_filter_grad": _GRADIENT.format("Conv2DBackpropFilter"),
    "conv2d_columns": "the im2col half of npspore's NumPy convolution: the export graph folds it back into conv2d, "
                      "and alone (in a gradient program) MindIR has no primitive for it",
    "conv2d_columns_grad": _GRADIENT.format("Col2Im"),
    "pool2d_windows": "a strided windows view of npspore's NumPy pooling, which MindIR has no primitive for",
    "max_pool2d_index": "the argmax position in each max-pooling window, for its gradient; MindIR's MaxPoolWithArgmax "
                        "counts positions differently and is not written",
    "max_pool2d_grad": _GRADIENT.format("MaxPoolGrad"),
    "max_pool2d_gather": _GRADIENT.format("MaxPoolGradGrad"),
    "sum_pool2d_grad": _GRADIENT.format("AvgPoolGrad"),
    "class_indices": "it checks class indices at run time and raises ValueError; MindIR has no raising primitive",
    "roll": "a roll along a dim known only at run time (a static dim's roll is written as slices and a concat): "
            "MindSpore's Roll primitive is not written yet",
    "reshape_keeping": "a reshape keeping several dims known only at run time: MindSpore's TensorShape/Reshape pair "
                       "is not written yet (ONNX writes it)",
    "reshape_like": "a reshape to another array's shape read at run time: MindSpore's TensorShape/Reshape pair is "
                    "not written yet (an adjoint op; ONNX writes it)",
    "dim_size": "a dynamic dim's size read at run time: MindSpore's TensorShape/TupleGetItem pair is not written "
                "yet, so a loop over a dynamic dim does not export to MindIR (ONNX writes it)",
    "dim_range": "the positions along a dynamic dim, read at run time: MindSpore's TensorShape/Range pair is not "
                 "written yet (ONNX writes it)",
    "nms_with_mask": "MindSpore's NMSWithMask primitive is not written nor loaded yet (detection post-processing "
                     "is rarely part of an exported graph)",
    "random_choice_with_mask": "MindSpore's RandomChoiceWithMask primitive is not written nor loaded yet",
    "trigamma": "the derivative of digamma, in a gradient program only: MindSpore's Polygamma primitive is not written "
                "yet",
    "matrix_inverse": "MindSpore's MatrixInverse primitive (its 'adjoint' attribute) is not written nor loaded yet",
    "matrix_determinant": "MindSpore's MatrixDeterminant primitive is not written nor loaded yet",
    "row_add_in_place": _IN_PLACE,
    "row_set_in_place": _IN_PLACE,
    "setitem_in_place": _IN_PLACE,
    "scatter_last_add_in_place": _IN_PLACE,
    "log_softmax_probs": "a log-softmax and its exponential at once, made by optimize after the export stop point, so "
                         "no export program holds it (the graph keeps the LogSoftmax)",
    "row_slot": _IN_PLACE,
    # parts written into their concatenation (compiler/concatparts.py)
    **dict.fromkeys(("empty", "concat_slot", "copy_into", "concat_written"), _CONCAT_PARTS),
    "copy": "NumPy's C-ordered copy of a matrix a loop multiplies by, made by optimize after the export stop point, "
            "so no export program holds it (the graph keeps the MatMul)",
    # depth-1 products
    "outer_product": "NumPy's form of a depth-1 matrix product, made by optimize after the export stop point, so "
                     "no export program holds it (the graph keeps the MatMul)",
    # products split across threads
    "matmul_split": "NumPy's threaded form of a large matrix product, made by optimize after the export stop point, "
                    "so no export program holds it (the graph keeps the MatMul)",
    "matmul_start": "a large matrix product NumPy computes on helper threads while a loop runs, made by optimize after "
                    "the export stop point, so no export program holds it (the graph keeps the MatMul)",
    "all_reduce": _COLLECTIVE, "all_gather": _COLLECTIVE, "reduce_scatter": _COLLECTIVE, "broadcast": _COLLECTIVE,
    "reduce": _COLLECTIVE,
}


def _unary(primitive: str) -> Callable:
    return lambda w, node: w.apply(primitive, [w.operand(node.inputs[0])], node.outputs[0])


def _binary(primitive: str) -> Callable:
    return lambda w, node: w.apply(primitive, [w.operand(x) for x in node.inputs], node.outputs[0])


def _reduce(primitive: str) -> Callable:
    def write(w, node):
        axis = node.attrs.get("axis")
        axes = () if axis is None else (tuple(axis) if isinstance(axis, (tuple, list)) else (axis,))
        extra = [w.constant(False)] if primitive == "ReduceSum" else []
        return w.apply(primitive, [w.operand(node.inputs[0]), w.constant(axes),
                                   w.constant(bool(node.attrs.get("keepdims")))] + extra, node.outputs[0])
    return write


def _reshape_to_output(w, node):
    shape = tuple(-1 if dim is None else dim for dim in node.outputs[0].shape)
    return w.apply("Reshape", [w.operand(node.inputs[0]), w.constant(shape)], node.outputs[0])


def _transpose(w, node):
    axes = node.attrs.get("axes")
    perm = tuple(axes) if axes is not None else tuple(reversed(range(len(node.inputs[0].shape))))
    return w.apply("Transpose", [w.operand(node.inputs[0]), w.constant(perm)], node.outputs[0])


def _matmul(w, node):
    """``matmul`` as ``MatMul`` of matrices, else ``BatchMatMul`` with each operand broadcast to the
    result's batch dims (MindSpore's BatchMatMul takes operands of one rank)."""
    x, y = node.inputs
    out = node.outputs[0]
    flags = [w.constant(bool(node.attrs.get("transpose_a"))), w.constant(bool(node.attrs.get("transpose_b")))]
    shapes = [tuple(v.value.shape if isinstance(v, Constant) else v.shape) for v in (x, y)]
    if len(shapes[0]) == len(shapes[1]) == 2:
        return w.apply("MatMul", [w.operand(x), w.operand(y)] + flags, out)
    batch = tuple(out.shape[:-2])
    operands = []
    for operand, shape in zip((x, y), shapes):
        full = batch + shape[-2:]
        name = w.operand(operand)
        if shape != full:
            name = w.apply("BroadcastTo", [name, w.constant(full)], Value("batched", full, out.dtype))
        operands.append(name)
    return w.apply("BatchMatMul", operands + flags, out)


def _conv_attributes(weight_shape, attrs, pad_modes: tuple) -> tuple:
    """The attributes MindSpore's Conv2D and Conv2DTranspose carry, for a filter of ``weight_shape``;
    ``pad_modes`` spell (no padding, explicit padding) as the primitive does."""
    pads = tuple(attrs.get("padding", (0, 0, 0, 0)))
    stride, dilation = tuple(attrs.get("stride", (1, 1))), tuple(attrs.get("dilation", (1, 1)))
    groups = attrs.get("groups", 1)
    return (("kernel_size", tuple(weight_shape[2:])), ("mode", 1), ("out_channel", weight_shape[0]),
            ("pad", pads), ("pad_mode", pad_modes[pads != (0, 0, 0, 0)]),
            ("format", "NCHW"), ("pad_list", pads), ("groups", groups), ("group", groups),
            ("stride", (1, 1) + stride), ("dilation", (1, 1) + dilation))


def _conv2d(w, node):
    x, weight = node.inputs
    return w.apply("Conv2D", [w.operand(x), w.operand(weight)], node.outputs[0],
                   _conv_attributes(weight.shape, node.attrs, ("valid", "pad")), False)


def _conv2d_input_grad(w, node):
    """``conv2d_input_grad`` (a transposed convolution) as MindSpore's ``Conv2DTranspose(dout, w, input_size)``."""
    dout, weight = node.inputs
    return w.apply("Conv2DTranspose", [w.operand(dout), w.operand(weight), w.constant(tuple(node.attrs["input_shape"]))],
                   node.outputs[0], _conv_attributes(weight.shape, node.attrs, ("VALID", "PAD")), False)


def _padded(w, node, fill: float):
    """The pooling node's input, padded with ``fill`` by ``ConstantPadND`` where the node pads (MindSpore's
    MaxPool and AvgPool pad only as 'SAME'); a dilated window has no form."""
    if tuple(node.attrs.get("dilation", (1, 1))) != (1, 1):
        raise unsupported(node.op, "MindIR", "MindSpore's MaxPool and AvgPool have no dilation", node.loc)
    x, (top, bottom, left, right) = node.inputs[0], tuple(node.attrs.get("padding", (0, 0, 0, 0)))
    if (top, bottom, left, right) == (0, 0, 0, 0):
        return w.operand(x)
    shape = tuple(x.shape[:2]) + (x.shape[2] + top + bottom, x.shape[3] + left + right)
    return w.apply("ConstantPadND", [w.operand(x), w.constant((left, right, top, bottom)), w.constant(fill)],
                   Value("padded", shape, x.dtype))


def _max_pool2d(w, node):
    attributes = (("pad_mode", "VALID"), ("kernel_size", (1, 1) + tuple(node.attrs["kernel_size"])),
                  ("format", "NCHW"), ("strides", (1, 1) + tuple(node.attrs["stride"])))
    return w.apply("MaxPool", [_padded(w, node, float("-inf"))], node.outputs[0], attributes, False)


def _softmax(primitive: str) -> Callable:
    def write(w, node):
        axis = node.attrs.get("axis", -1)
        return w.apply(primitive, [w.operand(node.inputs[0]), w.constant((axis,) if primitive == "Softmax" else axis)],
                       node.outputs[0])
    return write


def _cast(w, node):
    return w.apply("Cast", [w.operand(node.inputs[0]), w.constant(_TYPE_ID[np.dtype(node.outputs[0].dtype)])],
                   node.outputs[0])


def _where(w, node):
    condition, x, y = node.inputs
    shape = tuple(node.outputs[0].shape)
    operands = []
    for operand, dtype in ((condition, np.bool_), (x, node.outputs[0].dtype), (y, node.outputs[0].dtype)):
        if isinstance(operand, Constant):
            operands.append(w.constant(np.broadcast_to(np.asarray(operand.value, dtype), shape).copy()))
        elif tuple(operand.shape) != shape:
            operands.append(w.apply("BroadcastTo", [w.operand(operand), w.constant(shape)],
                                    Value(operand.name, shape, operand.dtype)))
        else:
            operands.append(w.operand(operand))
    return w.apply("Select", operands, node.outputs[0])


def _sequence(primitive: str) -> Callable:
    def write(w, node):
        names = [w.operand(x) for x in node.inputs]
        values = [x if isinstance(x, Value) else Value("constant", x.value.shape, x.value.dtype) for x in node.inputs]
        items = w.tuple_of(names, values)
        axis = node.attrs.get("axis", 0)
        if primitive == "Concat":
            return w.apply("Concat", [items, w.constant(axis)], node.outputs[0])
        attributes = (("axis", axis), ("N", len(names)), ("num", len(names)))
        return w.apply("Stack", [items], node.outputs[0], attributes, False)
    return write


def _expand_dims(w, node):
    return w.apply("ExpandDims", [w.operand(node.inputs[0]), w.constant(node.attrs["axis"])], node.outputs[0])


def _broadcast_to(w, node):
    return w.apply("BroadcastTo", [w.operand(node.inputs[0]), w.constant(tuple(node.outputs[0].shape))],
                   node.outputs[0])


def _tile(w, node):
    reps = node.attrs["reps"]
    return w.apply("Tile", [w.operand(node.inputs[0]), w.constant(tuple(reps) if isinstance(reps, (tuple, list))
                                                                   else (reps,))], node.outputs[0])


def _gather(w, node):
    return w.apply("Gather", [w.operand(node.inputs[0]), w.operand(node.inputs[1]),
                              w.constant(node.attrs.get("axis", 0)), w.constant(0)], node.outputs[0])


def _getitem(w, node):
    """Basic indexing as ``StridedSlice`` (integers shrink their axis; a reversed slice to the start sets
    its end mask), then a ``Reshape`` for new axes (``None``); an ellipsis stands for the axes it spans."""
    x, out = node.inputs[0], node.outputs[0]
    index = node.attrs["index"]
    index = index if isinstance(index, tuple) else (index,)
    if sum(item is Ellipsis for item in index) > 1 or None in x.shape:
        raise unsupported("getitem", "MindIR", "npspore writes indexing of static shapes with one ellipsis at most",
                          node.loc)
    spanned = len(x.shape) - sum(item is not None and item is not Ellipsis for item in index)
    items = [entry for item in index for entry in ((slice(None),) * spanned if item is Ellipsis else (item,))
             if entry is not None]
    begin, end, strides, shrink, end_mask, kept = [], [], [], 0, 0, []
    for axis, item in enumerate(items):
        size = x.shape[axis]
        if isinstance(item, slice):
            start, stop, step = item.indices(size)
            if stop < 0:   # a reversed slice down to the first element: MindSpore's end -1 is the last one
                end_mask |= 1 << axis
            begin.append(start), end.append(stop), strides.append(step)
            kept.append(len(range(start, stop, step)))
        elif isinstance(item, (int, np.integer)):
            position = int(item) % size
            begin.append(position), end.append(position + 1), strides.append(1)
            shrink |= 1 << axis
        else:
            raise unsupported("getitem", "MindIR", f"npspore writes slices and integer indices, not {item!r}",
                              node.loc)
    inputs = [w.operand(x), w.constant(tuple(begin)), w.constant(tuple(end)), w.constant(tuple(strides))]
    masks = [w.constant(0), w.constant(end_mask), w.constant(0), w.constant(0), w.constant(shrink)]
    sliced_shape = tuple(kept) + tuple(x.shape[len(items):])
    sliced = w.apply("StridedSlice", inputs + masks, out if sliced_shape == tuple(out.shape) else
                     Value("sliced", sliced_shape, out.dtype))
    if sliced_shape == tuple(out.shape):
        return sliced
    return w.apply("Reshape", [sliced, w.constant(tuple(out.shape))], out)


def _split(w, node):
    sections, axis = node.attrs["indices_or_sections"], node.attrs.get("axis", 0)
    if isinstance(sections, int):
        parts = w.apply("Split", [w.operand(node.inputs[0]), w.constant(axis), w.constant(sections)], None)
        return tuple(w.item(parts, index, value) for index, value in enumerate(node.outputs))
    x = node.inputs[0]
    rank, axis = len(x.shape), axis % len(x.shape)
    bounds = (0,) + tuple(sections) + (x.shape[axis],)
    pieces = []
    for value, start, stop in zip(node.outputs, bounds, bounds[1:]):
        begin = tuple(start if dim == axis else 0 for dim in range(rank))
        end = tuple(stop if dim == axis else x.shape[dim] for dim in range(rank))
        inputs = [w.operand(x), w.constant(begin), w.constant(end), w.constant((1,) * rank)]
        pieces.append(w.apply("StridedSlice", inputs + [w.constant(0)] * 5, value))
    return tuple(pieces)


def _arg_extremum(primitive: str) -> Callable:
    """``argmax``/``argmin`` as MindSpore's ``Argmax``/``Argmin`` of one axis (of the flattened input for
    ``axis=None``), reshaped when the op keeps the reduced dims."""
    def write(w, node):
        x, out = node.inputs[0], node.outputs[0]
        axis, operand = node.attrs.get("axis"), w.operand(x)
        if axis is None:
            size = -1 if None in x.shape else int(np.prod(x.shape))
            operand = w.apply("Reshape", [operand, w.constant((-1,))], Value("flat", (size,), x.dtype))
            axis, reduced = 0, ()
        else:
            reduced = tuple(dim for k, dim in enumerate(x.shape) if k != axis % len(x.shape))
        index = w.apply(primitive, [operand, w.constant(axis), w.constant(_TYPE_ID[np.dtype(out.dtype)])],
                        Value("index", reduced, out.dtype))
        if reduced == tuple(out.shape):
            return index
        return w.apply("Reshape", [index, w.constant(tuple(-1 if d is None else d for d in out.shape))], out)
    return write


def _extremum_with_indices(primitive: str) -> Callable:
    """``max_with_indices`` as ``ArgMaxWithValue`` (which yields ``(indices, values)``, indices int32)."""
    def write(w, node):
        axis = node.attrs.get("axis")
        if axis is None:
            raise unsupported(node.op, "MindIR", f"MindSpore's {primitive} takes one axis", node.loc)
        values, indices = node.outputs
        pair = w.apply(primitive, [w.operand(node.inputs[0]), w.constant(axis),
                                   w.constant(bool(node.attrs.get("keepdims")))], None)
        index32 = w.item(pair, 0, Value(indices.name, indices.shape, np.dtype(np.int32)))
        return w.item(pair, 1, values), w.apply("Cast", [index32, w.constant(_TYPE_ID[np.dtype(indices.dtype)])],
                                                indices)
    return write


def _dot(w, node):
    x, y = node.inputs
    if len(y.shape) == 2 and len(x.shape) == 2:
        return w.apply("MatMul", [w.operand(x), w.operand(y), w.constant(False), w.constant(False)], node.outputs[0])
    if len(y.shape) == 1:
        product = w.apply("Mul", [w.operand(x), w.operand(y)], Value("product", tuple(x.shape), node.outputs[0].dtype))
        return w.apply("ReduceSum", [product, w.constant((-1,)), w.constant(False), w.constant(False)],
                       node.outputs[0])
    raise unsupported("dot", "MindIR", "npspore writes dot of a matrix by a matrix or of anything by a vector",
                      node.loc)


def _outer(w, node):
    x, y = node.inputs
    out = node.outputs[0]
    column = w.apply("Reshape", [w.operand(x), w.constant((-1, 1))], Value("column", (out.shape[0], 1), out.dtype))
    row = w.apply("Reshape", [w.operand(y), w.constant((1, -1))], Value("row", (1, out.shape[1]), out.dtype))
    return w.apply("Mul", [column, row], out)


def _gather_last(w, node):
    x, indices = node.inputs
    return w.apply("GatherD", [w.operand(x), w.constant(-1), w.operand(indices)], node.outputs[0])


def _topk(w, node):
    values, indices = node.outputs
    x = w.operand(node.inputs[0])
    largest = node.attrs.get("largest", True)
    if not largest:
        x = w.apply("Neg", [x], node.inputs[0])
    pair = w.apply("TopK", [x, w.constant(node.attrs["k"])], None, (("sorted", True),), False)
    top = w.item(pair, 0, values)
    return (top if largest else w.apply("Neg", [top], values)), w.item(pair, 1, indices)


def _sum_pool2d(w, node):
    """The windows' sums: MindSpore's AvgPool of the zero-padded input, times the window's size."""
    out = node.outputs[0]
    kernel, stride = tuple(node.attrs["kernel_size"]), tuple(node.attrs["stride"])
    mean = w.apply("AvgPool", [_padded(w, node, 0.0), w.constant(kernel), w.constant(stride), w.constant(2),
                               w.constant(0)], out)   # pad_mode 2: VALID; data_format 0: NCHW
    return w.apply("Mul", [mean, w.constant(np.asarray(kernel[0] * kernel[1], out.dtype))], out)


def _gelu(w, node):
    if not node.attrs.get("approximate"):
        x = w.operand(node.inputs[0])
        out = node.outputs[0]
        scaled = w.apply("Mul", [x, w.constant(np.asarray(0.7071067811865476, out.dtype))], out)
        erf = w.apply("Erf", [scaled], out)
        one = w.apply("Add", [erf, w.constant(np.asarray(1.0, out.dtype))], out)
        half = w.apply("Mul", [x, w.constant(np.asarray(0.5, out.dtype))], out)
        return w.apply("Mul", [half, one], out)
    return w.apply("GeLU", [w.operand(node.inputs[0])], node.outputs[0])


def _clip(w, node):
    x, low, high = node.inputs
    out = node.outputs[0]
    value = w.operand(x)
    if not (isinstance(low, Constant) and low.value.dtype == object):
        value = w.apply("Maximum", [value, w.operand(low)], out)
    if not (isinstance(high, Constant) and high.value.dtype == object):
        value = w.apply("Minimum", [value, w.operand(high)], out)
    return value


def _row(w, node):
    """``x[t]`` as ``Gather`` along axis 0 reshaped to the row's shape (MindSpore's loop graphs may hold the
    index as a 1-element tensor rather than a 0-d one)."""
    x, t = node.inputs
    out = node.outputs[0]
    rows = w.apply("Gather", [w.operand(x), w.operand(t), w.constant(0), w.constant(0)], None)
    return w.apply("Reshape", [rows, w.constant(tuple(out.shape))], out)


def _row_scatter(primitive: str) -> Callable:
    """``row_add``/``row_set`` (``buf`` with ``h`` added into, or written to, row ``t``) as
    ``TensorScatterAdd``/``TensorScatterUpdate`` of one index."""
    def write(w, node):
        buf, t, h = node.inputs
        index_dtype = t.value.dtype if isinstance(t, Constant) else t.dtype
        index = w.apply("Reshape", [w.operand(t), w.constant((1, 1))], Value("index", (1, 1), index_dtype))
        rows = w.apply("ExpandDims", [w.operand(h), w.constant(0)], Value("rows", (1,) + tuple(h.shape), h.dtype))
        return w.apply(primitive, [w.operand(buf), index, rows], node.outputs[0], (), primitive != "TensorScatterAdd")
    return write


def _filled_like(primitive: str) -> Callable:
    """``ones_like``/``zeros_like``: ``OnesLike``/``ZerosLike``, cast when the op asks for another dtype."""
    def write(w, node):
        x, out = node.inputs[0], node.outputs[0]
        if np.dtype(x.dtype) == np.dtype(out.dtype):
            return w.apply(primitive, [w.operand(x)], out)
        filled = w.apply(primitive, [w.operand(x)], Value("filled", tuple(x.shape), x.dtype))
        return w.apply("Cast", [filled, w.constant(_TYPE_ID[np.dtype(out.dtype)])], out)
    return write


def _identity(w, node):
    """``stop_gradient``: the value itself (an exported graph computes no gradient)."""
    return w.operand(node.inputs[0])


def _softmax_cross_entropy(w, node):
    """``-sum(labels * log_softmax(logits), axis)``."""
    logits, labels = node.inputs
    out = node.outputs[0]
    axis = node.attrs.get("axis", -1)
    full = Value("log_probs", tuple(logits.shape), out.dtype)
    log_probs = w.apply("LogSoftmax", [w.operand(logits), w.constant(axis)], full)
    product = w.apply("Mul", [w.operand(labels), log_probs], full)
    total = w.apply("ReduceSum", [product, w.constant((axis,)), w.constant(False), w.constant(False)], out)
    return w.apply("Neg", [total], out)


def _normalize(w, node):
    """``((x - mean) * rstd, rstd)`` with ``rstd = Rsqrt(mean((x - mean)^2) + eps)``, as the lowering computes."""
    x = node.inputs[0]
    normalized, rstd = node.outputs
    axes = w.constant(tuple(node.attrs["axis"]))
    mean = w.apply("ReduceMean", [w.operand(x), axes, w.constant(True)], rstd)
    centred = w.apply("Sub", [w.operand(x), mean], normalized)
    variance = w.apply("ReduceMean", [w.apply("Square", [centred], normalized), axes, w.constant(True)], rstd)
    eps = w.constant(np.asarray(node.attrs["eps"], normalized.dtype))
    scale = w.apply("Rsqrt", [w.apply("Add", [variance, eps], rstd)], rstd)
    return w.apply("Mul", [centred, scale], normalized), scale


def _random(primitive: str) -> Callable:
    """``random_normal``/``random_uniform`` as ``StandardNormal``/``UniformReal`` of the op's primitive seeds (float32,
    cast to the op's dtype)."""
    def write(w, node):
        out = node.outputs[0]
        shape = tuple(node.attrs["shape"])
        seed, seed2 = node.attrs.get("seeds") or (0, 0)
        draw = w.apply(primitive, [w.constant(shape)], Value("draw", shape, np.dtype(np.float32)),
                       (("seed", seed), ("seed2", seed2)), False)
        if np.dtype(out.dtype) == np.float32:
            return draw
        return w.apply("Cast", [draw, w.constant(_TYPE_ID[np.dtype(out.dtype)])], out)
    return write


def _dropout_mask(w, node):
    """``(uniform < keep_prob) / keep_prob`` in the op's dtype."""
    out = node.outputs[0]
    shape, keep = tuple(node.attrs["shape"]), node.attrs["keep_prob"]
    draw = w.apply("UniformReal", [w.constant(shape)], Value("draw", shape, np.dtype(np.float32)),
                   (("seed", 0), ("seed2", 0)), False)
    kept = w.apply("Less", [draw, w.constant(np.asarray(keep, np.float32))], Value("kept", shape, np.dtype(np.bool_)))
    mask = w.apply("Cast", [kept, w.constant(_TYPE_ID[np.dtype(out.dtype)])], out)
    return w.apply("Mul", [mask, w.constant(np.asarray(1 / keep, out.dtype))], out)


def _scatter_last(w, node):
    """``scatter_last`` (gradient of ``gather_last``): ``TensorScatterElements`` adding into zeros along the last axis."""
    g, indices = node.inputs
    out = node.outputs[0]
    zeros = w.constant(np.zeros(out.shape, out.dtype))
    return w.apply("TensorScatterElements", [zeros, w.operand(indices), w.operand(g), w.constant(-1),
                                             w.constant(1)], out)   # MindSpore's Reduce enum: 1 is "add"


def _round(w, node):
    return w.apply("Round", [w.operand(node.inputs[0]), w.constant(0)], node.outputs[0])


def _constant_of(w, node):
    """An op of no tensor operand (``ones``, ``zeros``, ``fill``): its value, computed now."""
    value = op_table()[node.op].forward(*[np.asarray(c.value) for c in node.inputs], **node.attrs)
    return w.constant(np.asarray(value, node.outputs[0].dtype))


def _one_hot(w, node):
    indices, on, off = node.inputs
    return w.apply("OneHot", [w.operand(indices), w.constant(node.attrs["depth"]), w.operand(on), w.operand(off),
                              w.constant(node.attrs.get("axis", -1))], node.outputs[0])


MINDIR_FORMS: dict[str, Callable] = {
    **{op: _unary(primitive) for op, primitive in _UNARY.items()},
    **{op: _binary(primitive) for op, primitive in _BINARY.items()},
    **{op: _reduce(primitive) for op, primitive in _REDUCE.items()},
    "reshape": _reshape_to_output, "flatten": _reshape_to_output, "squeeze": _reshape_to_output,
    "expand_dims": _expand_dims, "transpose": _transpose, "broadcast_to": _broadcast_to, "tile": _tile,
    "concat": _sequence("Concat"), "stack": _sequence("Stack"), "split": _split, "getitem": _getitem,
    "gather": _gather, "matmul": _matmul, "batch_matmul": _matmul, "conv2d": _conv2d, "max_pool2d": _max_pool2d,
    "conv2d_input_grad": _conv2d_input_grad,
    "softmax": _softmax("Softmax"), "log_softmax": _softmax("LogSoftmax"), "cast": _cast, "where": _where,
    "argmax": _arg_extremum("Argmax"), "argmin": _arg_extremum("Argmin"),
    "max_with_indices": _extremum_with_indices("ArgMaxWithValue"),
    "min_with_indices": _extremum_with_indices("ArgMinWithValue"), "dot": _dot, "outer": _outer,
    "gather_last": _gather_last, "topk": _topk, "sum_pool2d": _sum_pool2d, "gelu": _gelu, "clip": _clip, "one_hot": _one_hot,
    "ones": _constant_of, "zeros": _constant_of, "fill": _constant_of, "adaptive_avg_weights": _constant_of,
    "adaptive_window_index": _constant_of, "round": _round, "ones_like": _filled_like("OnesLike"),
    "zeros_like": _filled_like("ZerosLike"),
    "row": _row, "row_add": _row_scatter("TensorScatterAdd"), "row_set": _row_scatter("TensorScatterUpdate"),
    "stop_gradient": _identity, "softmax_cross_entropy": _softmax_cross_entropy, "random_normal": _random("StandardNormal"),
    "random_uniform": _random("UniformReal"), "dropout_mask": _dropout_mask, "scatter_last": _scatter_last,
    "normalize": _normalize,
}
