"""The MindSpore primitives a MindIR graph may hold, each run on npspore's ops.

MindSpore 2.10 writes two kinds of primitive nodes. A ``PRIMITIVE`` (``Conv2D``, ``MaxPool``,
``MakeTuple``, ``Load`` ...) carries its arguments as attributes of its ``PrimitiveProto``; a
``PRIMITIVE_FUNCTION`` (``MatMul``, ``BiasAdd``, ``BatchNorm``, ``ReduceSum`` ...) takes them as
constant inputs of the node, in the order of its ``op_def`` (``MatMul(input, mat2, transpose_a,
transpose_b)``). :data:`PRIMITIVES` maps each name npspore runs to its implementation
``fn(*inputs, **attributes)``, where ``inputs`` are the node's inputs (Tensors, or Python values for
constants) and ``attributes`` the ``PrimitiveProto`` attributes the implementation names as its
keyword-only parameters. The implementations are in the compilable subset (Python over shapes and
constants, tensor work through npspore's ops), so ``nn.GraphCell`` runs them eagerly and under
``jit`` alike.

MindSpore's type ids (``Cast``'s and ``Argmax``'s dtype inputs) are :data:`TYPE_IDS`.
"""
from __future__ import annotations

import inspect
from typing import Callable

import numpy as np

from . import array_functional as AF
from . import functional as F
from . import nn_functional as NF
from .eager import run

__all__ = ["PRIMITIVES", "TYPE_IDS", "attribute_names"]

# MindSpore's TypeId of each NumPy dtype (mindspore/core/include/base/type_id.h)
TYPE_IDS = {30: np.bool_, 32: np.int8, 33: np.int16, 34: np.int32, 35: np.int64, 37: np.uint8, 38: np.uint16,
            39: np.uint32, 40: np.uint64, 42: np.float16, 43: np.float32, 44: np.float64}


def _spatial(values):
    """The (H, W) part of a MindSpore 2- or 4-tuple of window sizes or strides."""
    return tuple(values[-2:])


def _axes(axis):
    """A reduction's axis input as npspore's ``axis``: ``()`` (every axis) is ``None``."""
    if isinstance(axis, (tuple, list)):
        return tuple(axis) if len(axis) else None
    return axis


def _conv2d(x, w, *, pad_list, stride, dilation, group):
    return NF.conv2d(x, w, None, _spatial(stride), "pad", tuple(pad_list), _spatial(dilation), group)


def _conv2d_transpose(dout, w, input_size, *, pad_list, stride, dilation, group):
    return run("conv2d_input_grad", dout, w, input_shape=tuple(input_size), stride=_spatial(stride),
               padding=tuple(pad_list), dilation=_spatial(dilation), groups=group)


def _pool_padding(x, kernel, strides, pad_mode):
    if str(pad_mode).upper() != "SAME":
        return (0, 0, 0, 0)
    return (NF._same_padding(x.shape[2], kernel[0], strides[0], 1)
            + NF._same_padding(x.shape[3], kernel[1], strides[1], 1))


def _max_pool(x, *, kernel_size, strides, pad_mode):
    kernel, stride = _spatial(kernel_size), _spatial(strides)
    return run("max_pool2d", x, kernel_size=kernel, stride=stride, padding=_pool_padding(x, kernel, stride, pad_mode))


def _avg_pool(x, kernel_size, strides, pad_mode, data_format):
    if pad_mode not in (2, "VALID", "valid"):   # MindSpore's PadMode enum: 1 SAME, 2 VALID
        raise ValueError(f"For 'AvgPool', npspore runs only 'VALID' padding, but got pad_mode {pad_mode}.")
    return NF.avg_pool2d(x, _spatial(kernel_size), _spatial(strides))


def _channel_shape(x):
    return (1, -1) + (1,) * (len(x.shape) - 2)


def _bias_add(x, bias, data_format=0):
    return x + run("reshape", bias, shape=_channel_shape(x))


def _batch_norm(x, scale, bias, mean, variance, is_training=False, epsilon=1e-5, momentum=0.1, data_format=0):
    if is_training:
        raise ValueError("For 'BatchNorm', npspore runs a loaded graph in inference only, but the graph's BatchNorm "
                         "has is_training=True (export the network after set_train(False)).")
    y = NF.batch_norm(x, mean, variance, scale, bias, False, momentum, epsilon)
    return y, mean, variance, mean, variance


def _layer_norm(x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
    begin = begin_norm_axis % len(x.shape)
    y = NF.layer_norm(x, x.shape[begin:], gamma, beta, epsilon)
    return y, x, x


def _reduce(op):
    def reduce(x, axis=(), keep_dims=False, skip_mode=False):
        return run(op, x, axis=_axes(axis), keepdims=keep_dims)
    return reduce


def _sum_ext(x, dim=None, keepdim=False, dtype=None):
    return run("sum", x, axis=_axes(dim), keepdims=keepdim)


def _mean_ext(x, dim=None, keepdim=False, dtype=None):
    return run("mean", x, axis=_axes(dim), keepdims=keepdim)


def _softmax(x, axis=-1):
    return run("softmax", x, axis=axis[0] if isinstance(axis, (tuple, list)) else axis)


def _cast(x, dtype):
    return run("cast", x, dtype=np.dtype(TYPE_IDS[dtype]))


def _tuple_get_item(values, index):
    return values[index]


def _make_tuple(*values):
    return tuple(values)


def _first(value, *_):
    return value


def _nothing(*_):
    return None


def _stack(values, *, axis):
    return run("stack", *values, axis=axis)


def _concat(values, axis=0):
    return run("concat", *values, axis=axis)


def _gather(params, indices, axis=0, batch_dims=0):
    return run("gather", params, indices, axis=axis)


def _split(x, axis=0, output_num=1):
    return run("split", x, indices_or_sections=output_num, axis=axis)


def _strided_slice(x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                   shrink_axis_mask=0):
    if ellipsis_mask or new_axis_mask:
        raise ValueError("For 'StridedSlice', npspore runs slices without ellipsis and new-axis masks.")
    index = ()   # built by concatenation: compiled loops may not grow a list
    for axis in range(len(begin)):
        bit = 2 ** axis   # the masks' bit of this axis (arithmetic: compiled code folds it)
        if shrink_axis_mask // bit % 2:
            index = index + (begin[axis],)
        else:
            start = None if begin_mask // bit % 2 else begin[axis]
            index = index + (slice(start, None if end_mask // bit % 2 else end[axis], strides[axis]),)
    return run("getitem", x, index=index)


def _arg_extremum(op):
    def arg_extremum(x, axis=-1, output_type=34):
        return run("cast", run(op, x, axis=axis), dtype=np.dtype(TYPE_IDS[output_type]))
    return arg_extremum


def _extremum_with_value(op):
    """``ArgMaxWithValue``: ``(int32 indices, values)``."""
    def extremum_with_value(x, axis=0, keep_dims=False):
        values, indices = run(op, x, axis=axis, keepdims=keep_dims)
        return run("cast", indices, dtype=np.dtype(np.int32)), values
    return extremum_with_value


def _gather_d(x, dim, index):
    if dim not in (-1, len(x.shape) - 1):
        raise ValueError(f"For 'GatherD', npspore runs gathers along the last axis only, but got dim {dim}.")
    return run("gather_last", x, index)


def _top_k(x, k, *, sorted=True):
    return run("topk", x, k=k)


def _row_scatter(op):
    """``TensorScatterAdd``/``TensorScatterUpdate`` of one row: indices of shape (1, 1)."""
    def row_scatter(buf, indices, updates):
        if tuple(indices.shape) != (1, 1):
            raise ValueError(f"For '{op}', npspore runs scatters of one row (indices of shape (1, 1)), but got "
                             f"{tuple(indices.shape)}.")
        return run(op, buf, run("reshape", indices, shape=()), run("reshape", updates, shape=tuple(updates.shape[1:])))
    return row_scatter


def _one_hot(indices, depth, on_value, off_value, axis=-1):
    return run("one_hot", indices, on_value, off_value, depth=depth, axis=axis)


def _random(op):
    def draw(shape, *, seed, seed2):
        return run(op, shape=tuple(shape), dtype=np.dtype(np.float32))
    return draw


def _tensor_scatter_elements(data, indices, updates, axis=0, reduce="none"):
    if reduce not in ("add", 1) or axis not in (-1, len(data.shape) - 1):
        raise ValueError(f"For 'TensorScatterElements', npspore runs additions along the last axis only, but got "
                         f"axis {axis} and reduce {reduce!r}.")
    return data + run("scatter_last", updates, indices, size=data.shape[-1])


def _constant_pad(x, padding, value=0.0):
    return AF.pad(x, tuple(padding), "constant", value)


def _round(x, decimals=0):
    if decimals:
        raise ValueError(f"For 'Round', npspore rounds to integers only, but got decimals {decimals}.")
    return run("round", x)


def _matmul(op):
    def matmul(x, y, transpose_a=False, transpose_b=False):
        return run(op, x, y, transpose_a=transpose_a, transpose_b=transpose_b)
    return matmul


def _log_softmax(x, axis=-1):
    return run("log_softmax", x, axis=axis)


def _gelu(x):
    return F.gelu(x, "tanh")


def _reshape(x, shape):
    return run("reshape", x, shape=tuple(shape))


def _flatten(x):
    return run("reshape", x, shape=(x.shape[0], -1))


def _transpose(x, perm):
    return run("transpose", x, axes=tuple(perm))


def _expand_dims(x, axis):
    return run("expand_dims", x, axis=axis)


def _squeeze(x, axis=()):
    return run("squeeze", x, axis=tuple(axis) if len(axis) else None)


def _broadcast_to(x, shape):
    return run("broadcast_to", x, shape=tuple(shape))


def _tile(x, dims):
    return run("tile", x, reps=tuple(dims))


def _select(condition, x, y):
    return run("where", condition, x, y)


def _unary(op):
    def unary(x):
        return run(op, x)
    return unary


def _binary(op):
    def binary(x, y):
        return run(op, x, y)
    return binary


PRIMITIVES: dict[str, Callable] = {
    # graph plumbing: monads, parameter loads, tuples
    "Load": _first, "Depend": _first, "UpdateState": _nothing, "MakeTuple": _make_tuple,
    "TupleGetItem": _tuple_get_item, "StopGradient": _first, "Identity": _first,
    # nn layers
    "Conv2D": _conv2d, "Conv2DTranspose": _conv2d_transpose, "Conv2DBackpropInput": _conv2d_transpose,
    "MaxPool": _max_pool, "AvgPool": _avg_pool, "BatchNorm": _batch_norm,
    "LayerNorm": _layer_norm, "BiasAdd": _bias_add,
    "MatMul": _matmul("matmul"), "BatchMatMul": _matmul("batch_matmul"),
    "Softmax": _softmax, "LogSoftmax": _log_softmax, "GeLU": _gelu,
    # shapes
    "Reshape": _reshape, "Flatten": _flatten, "Transpose": _transpose, "ExpandDims": _expand_dims,
    "Squeeze": _squeeze, "BroadcastTo": _broadcast_to, "Tile": _tile,
    "Concat": _concat, "Stack": _stack, "Gather": _gather, "Split": _split, "StridedSlice": _strided_slice,
    "Cast": _cast,
    # reductions
    "ReduceSum": _reduce("sum"), "ReduceMean": _reduce("mean"), "ReduceMax": _reduce("max"),
    "ReduceMin": _reduce("min"), "ReduceProd": _reduce("prod"), "ReduceAll": _reduce("all"),
    "ReduceAny": _reduce("any"), "SumExt": _sum_ext, "MeanExt": _mean_ext, "Argmax": _arg_extremum("argmax"),
    "Argmin": _arg_extremum("argmin"), "ArgMaxWithValue": _extremum_with_value("max_with_indices"),
    "ArgMinWithValue": _extremum_with_value("min_with_indices"), "TopK": _top_k, "GatherD": _gather_d,
    "TensorScatterAdd": _row_scatter("row_add"), "TensorScatterUpdate": _row_scatter("row_set"),
    "OneHot": _one_hot, "ConstantPadND": _constant_pad, "StandardNormal": _random("random_normal"), "UniformReal": _random("random_uniform"),
    "TensorScatterElements": _tensor_scatter_elements, "Round": _round, "OnesLike": _unary("ones_like"), "ZerosLike": _unary("zeros_like"),
    # elementwise
    "Add": _binary("add"), "Sub": _binary("sub"), "Mul": _binary("mul"), "RealDiv": _binary("div"),
    "Div": _binary("div"), "Muls": _binary("mul"), "Divs": _binary("div"), "FloorDiv": _binary("floor_div"),
    "FloorMod": _binary("mod"), "Pow": _binary("pow"), "Maximum": _binary("maximum"), "Minimum": _binary("minimum"),
    "RemainderTensorTensor": _binary("remainder"), "TruncateMod": _binary("truncate_mod"),
    "Equal": _binary("equal"), "NotEqual": _binary("not_equal"), "Less": _binary("less"),
    "LessEqual": _binary("less_equal"), "Greater": _binary("greater"), "GreaterEqual": _binary("greater_equal"),
    "LessScalar": _binary("less"), "GreaterScalar": _binary("greater"),
    "LogicalAnd": _binary("logical_and"), "LogicalOr": _binary("logical_or"),
    "Select": _select,
    "ReLU": _unary("relu"), "Sigmoid": _unary("sigmoid"), "Tanh": _unary("tanh"), "Exp": _unary("exp"),
    "Log": _unary("log"), "Log1p": _unary("log1p"), "Sqrt": _unary("sqrt"), "Rsqrt": _unary("rsqrt"),
    "Square": _unary("square"), "Neg": _unary("neg"), "Abs": _unary("abs"), "Sin": _unary("sin"),
    "Cos": _unary("cos"), "Tan": _unary("tan"), "Erf": _unary("erf"), "Sign": _unary("sign"),
    "LogicalNot": _unary("logical_not"), "Softplus": _unary("softplus"),
    "ACos": _unary("acos"), "Asin": _unary("asin"), "Atan": _unary("atan"), "Sinh": _unary("sinh"),
    "Cosh": _unary("cosh"), "Asinh": _unary("asinh"), "Acosh": _unary("acosh"), "Atanh": _unary("atanh"),
    "Expm1": _unary("expm1"), "Erfc": _unary("erfc"), "Trunc": _unary("trunc"), "Atan2": _binary("atan2"),
    "BitwiseAnd": _binary("bitwise_and"), "BitwiseOr": _binary("bitwise_or"), "BitwiseXor": _binary("bitwise_xor"),
    "LeftShift": _binary("left_shift"), "RightShift": _binary("right_shift"), "Gcd": _binary("gcd"),
    "Lcm": _binary("lcm"), "Erfinv": _unary("erfinv"), "Lgamma": _unary("lgamma"), "Digamma": _unary("digamma"),
}


def attribute_names(primitive: str) -> tuple:
    """The ``PrimitiveProto`` attributes the implementation of ``primitive`` reads (its keyword-only parameters)."""
    parameters = inspect.signature(PRIMITIVES[primitive]).parameters.values()
    return tuple(p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY)
