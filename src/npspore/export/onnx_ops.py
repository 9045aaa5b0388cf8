"""How each op of the op table is written in ONNX (opset :data:`OPSET`): :data:`ONNX_FORMS`, and the
ops without an ONNX form with the reason: :data:`NO_ONNX_FORM`.

A form is a function ``form(emit, node, ins) -> [output names]``: ``node`` is the export graph's
:class:`~npspore.export.graph.Node` (its attributes as the op table spells them, its outputs' shapes
and dtypes), ``ins`` the ONNX names of its operands (``None`` for a constant that is not a number, such
as ``clip``'s missing bound), and ``emit`` the :class:`Emitter` that adds ONNX nodes. A form returns one
name per output of the op, of the output's dtype. Every form computes what the op's NumPy ``forward``
computes (``codegen_templates/``); where ONNX has no single operator for it, the form composes several
(``log1p`` is ``Log(Add(x, 1))``; the windows of a pooling are a ``Gather`` of constant positions).
Forms that need a shape the ONNX graph cannot compute (the windows of a pooling) read the static
shapes of the export graph and refuse a dynamic one, naming the op.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from onnx.helper import np_dtype_to_tensor_dtype

from ..core.apply import apply_op
from ..opdef import op_table
from .graph import Constant, Node

__all__ = ["OPSET", "ONNX_FORMS", "NO_ONNX_FORM", "Emitter", "NoForm"]

OPSET = 21
_INT64_MAX = np.iinfo(np.int64).max
_INT64_MIN = np.iinfo(np.int64).min


class NoForm(Exception):
    """This use of an op has no ONNX form (e.g. it needs a static shape the program does not have)."""


class Emitter:
    """What a form writes with (implemented by ``onnx_writer``): ``op`` adds a node, ``const`` a constant."""

    def op(self, op_type: str, *inputs, outputs: int = 1, **attrs):
        """Add ``op_type(*inputs, **attrs)``; returns its output name (a list of names if ``outputs > 1``)."""
        raise NotImplementedError

    def const(self, value) -> str:
        """A constant tensor of ``np.asarray(value)`` (its dtype kept)."""
        raise NotImplementedError


FormFn = Callable[[Emitter, Node, list], list]
ONNX_FORMS: dict[str, FormFn] = {}


def _form(*names: str):
    def register(fn: FormFn) -> FormFn:
        for name in names:
            ONNX_FORMS[name] = fn
        return fn
    return register


def _ints(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).reshape(-1)


def _dtype(node: Node, k: int = 0) -> np.dtype:
    return np.dtype(node.outputs[k].dtype)


def _onnx_type(dtype) -> int:
    return int(np_dtype_to_tensor_dtype(np.dtype(dtype)))


def _operand_dtype(operand) -> np.dtype:
    return np.dtype(operand.value.dtype if isinstance(operand, Constant) else operand.dtype)


def _cast(emit: Emitter, name: str, dtype) -> str:
    return emit.op("Cast", name, to=_onnx_type(dtype))


def _static_shape(node: Node, shape) -> tuple:
    if shape is None or any(d is None for d in shape):
        raise NoForm("it needs static shapes here, and the program has a dynamic dim")
    return tuple(int(d) for d in shape)


def _reshape_to(emit: Emitter, name: str, shape) -> str:
    """Reshape to ``shape`` (one dynamic dim allowed: it becomes -1)."""
    target = [-1 if d is None else d for d in shape]
    if target.count(-1) > 1:
        raise NoForm("the result has more than one dynamic dim")
    allow_zero = 1 if 0 in target and -1 not in target else 0
    return emit.op("Reshape", name, emit.const(_ints(target)), allowzero=allow_zero)


# ------------------------------------------------------------------------------------- elementwise

_SAME_NAME = {"add": "Add", "sub": "Sub", "mul": "Mul", "pow": "Pow", "maximum": "Max", "minimum": "Min",
              "neg": "Neg", "abs": "Abs", "sign": "Sign", "round": "Round", "exp": "Exp", "log": "Log",
              "sqrt": "Sqrt", "sin": "Sin", "cos": "Cos", "tan": "Tan", "tanh": "Tanh", "sigmoid": "Sigmoid",
              "relu": "Relu", "erf": "Erf", "where": "Where", "equal": "Equal", "less": "Less",
              "less_equal": "LessOrEqual", "greater": "Greater", "greater_equal": "GreaterOrEqual",
              "logical_and": "And", "logical_or": "Or", "logical_not": "Not", "stop_gradient": "Identity",
              "acos": "Acos", "asin": "Asin", "atan": "Atan", "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh",
              "acosh": "Acosh", "atanh": "Atanh",
              "matrix_determinant": "Det"}


def _same_name(emit, node, ins):
    out = emit.op(_SAME_NAME[node.op], *ins)
    operand = next((v for v in node.inputs if not isinstance(v, Constant) or v.value.dtype != object), None)
    if node.op == "pow" and operand is not None and np.dtype(operand.dtype) != _dtype(node):
        out = _cast(emit, out, _dtype(node))   # integer powers are computed in float64 (power_dtype)
    return [out]


for _name in _SAME_NAME:
    ONNX_FORMS[_name] = _same_name


@_form("div")
def _div(emit, node, ins):
    return [emit.op("Div", *ins)]


@_form("not_equal")
def _not_equal(emit, node, ins):
    return [emit.op("Not", emit.op("Equal", *ins))]


@_form("square")
def _square(emit, node, ins):
    return [emit.op("Mul", ins[0], ins[0])]


@_form("log1p")
def _log1p(emit, node, ins):
    return [emit.op("Log", emit.op("Add", ins[0], emit.const(np.ones((), _dtype(node)))))]


@_form("expm1")
def _expm1(emit, node, ins):
    return [emit.op("Sub", emit.op("Exp", ins[0]), emit.const(np.ones((), _dtype(node))))]


@_form("erfc")
def _erfc(emit, node, ins):
    return [emit.op("Sub", emit.const(np.ones((), _dtype(node))), emit.op("Erf", ins[0]))]


@_form("trunc")
def _trunc(emit, node, ins):
    if _dtype(node).kind != "f":
        return [emit.op("Identity", ins[0])]
    return [emit.op("Mul", emit.op("Sign", ins[0]), emit.op("Floor", emit.op("Abs", ins[0])))]


@_form("bitwise_and", "bitwise_or", "bitwise_xor")
def _bitwise(emit, node, ins):
    kind = node.op.split("_")[1].capitalize()   # And, Or, Xor
    return [emit.op(kind if _dtype(node).kind == "b" else "Bitwise" + kind, *ins)]


@_form("rsqrt")
def _rsqrt(emit, node, ins):
    return [emit.op("Reciprocal", emit.op("Sqrt", ins[0]))]


@_form("softplus")
def _softplus(emit, node, ins):
    # log(1 + exp(x)) as NumPy's logaddexp(0, x) computes it, without overflow: max(x, 0) + log1p(exp(-|x|))
    zero = emit.const(np.zeros((), _dtype(node)))
    one = emit.const(np.ones((), _dtype(node)))
    tail = emit.op("Log", emit.op("Add", one, emit.op("Exp", emit.op("Neg", emit.op("Abs", ins[0])))))
    return [emit.op("Add", emit.op("Max", ins[0], zero), tail)]


@_form("gelu")
def _gelu(emit, node, ins):
    return [emit.op("Gelu", ins[0], approximate="tanh" if node.attrs.get("approximate") else "none")]


@_form("clip")
def _clip(emit, node, ins):
    out = ins[0]
    if ins[1] is not None:
        out = emit.op("Max", out, ins[1])
    if ins[2] is not None:
        out = emit.op("Min", out, ins[2])
    return [out]


@_form("cast")
def _cast_form(emit, node, ins):
    return [_cast(emit, ins[0], _dtype(node))]


def _floor_fix(emit, x, y, remainder, dtype):
    """Whether Python's floor semantics differ from truncation here: a non-zero remainder whose sign
    differs from the divisor's."""
    zero = emit.const(np.zeros((), dtype))
    nonzero = emit.op("Not", emit.op("Equal", remainder, zero))
    return emit.op("And", nonzero, emit.op("Xor", emit.op("Less", remainder, zero), emit.op("Less", y, zero)))


@_form("floor_div")
def _floor_div(emit, node, ins):
    x, y = ins
    dtype = _dtype(node)
    if dtype.kind == "f":
        return [emit.op("Floor", emit.op("Div", x, y))]
    quotient = emit.op("Div", x, y)   # truncates toward zero
    remainder = emit.op("Sub", x, emit.op("Mul", quotient, y))
    fix = _floor_fix(emit, x, y, remainder, dtype)
    return [emit.op("Sub", quotient, _cast(emit, fix, dtype))]


@_form("mod", "remainder")
def _mod(emit, node, ins):
    x, y = ins
    dtype = _dtype(node)
    if dtype.kind in "iu":
        return [emit.op("Mod", x, y, fmod=0)]   # integer Mod takes the divisor's sign, as Python's %
    remainder = emit.op("Mod", x, y, fmod=1)
    fix = _floor_fix(emit, x, y, remainder, dtype)
    return [emit.op("Where", fix, emit.op("Add", remainder, y), remainder)]


@_form("truncate_mod")
def _truncate_mod(emit, node, ins):
    return [emit.op("Mod", *ins, fmod=1)]   # C's fmod: the dividend's sign


# -------------------------------------------------------------------------------------- reductions


def _axes(node: Node, rank: int):
    axis = node.attrs.get("axis")
    if axis is None:
        return list(range(rank))
    return [a % rank for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]


_REDUCE = {"sum": "ReduceSum", "mean": "ReduceMean", "prod": "ReduceProd", "max": "ReduceMax", "min": "ReduceMin"}


@_form(*_REDUCE)
def _reduce(emit, node, ins):
    x = node.inputs[0]
    source = ins[0]
    if np.dtype(x.dtype) != _dtype(node) and node.op in ("sum", "prod"):
        source = _cast(emit, source, _dtype(node))   # accumulate in the result's dtype, as NumPy does
    axes = _axes(node, len(x.shape))
    if not axes:
        return [emit.op("Identity", source)]
    out = emit.op(_REDUCE[node.op], source, emit.const(_ints(axes)), keepdims=int(bool(node.attrs.get("keepdims"))))
    if np.dtype(x.dtype) != _dtype(node) and node.op not in ("sum", "prod"):
        out = _cast(emit, out, _dtype(node))
    return [out]


@_form("all", "any")
def _all_any(emit, node, ins):
    x = node.inputs[0]
    flags = _cast(emit, ins[0] if np.dtype(x.dtype) == np.bool_ else _cast(emit, ins[0], np.bool_), np.int32)
    axes = _axes(node, len(x.shape))
    keep = int(bool(node.attrs.get("keepdims")))
    if not axes:
        return [_cast(emit, flags, np.bool_)]
    reduced = emit.op("ReduceMin" if node.op == "all" else "ReduceMax", flags, emit.const(_ints(axes)), keepdims=keep)
    return [_cast(emit, reduced, np.bool_)]


def _arg_index(emit, node, source, op_type):
    """ArgMax/ArgMin along ``axis`` (the flattened array for None), first occurrence, as NumPy."""
    x = node.inputs[0]
    axis = node.attrs.get("axis")
    keep = int(bool(node.attrs.get("keepdims")))
    if axis is None:
        flat = emit.op("Reshape", source, emit.const(_ints([-1])))
        index = emit.op(op_type, flat, axis=0, keepdims=0)
        if keep:
            index = emit.op("Reshape", index, emit.const(_ints([1] * len(x.shape))))
        return index
    return emit.op(op_type, source, axis=int(axis) % len(x.shape), keepdims=keep)


@_form("argmax", "argmin")
def _argmax(emit, node, ins):
    index = _arg_index(emit, node, ins[0], "ArgMax" if node.op == "argmax" else "ArgMin")
    return [_cast(emit, index, _dtype(node))]


@_form("normalize")
def _normalize(emit, node, ins):
    """``((x - mean) * rstd, rstd)`` with ``rstd = 1 / sqrt(mean((x - mean)^2) + eps)``, as the lowering computes."""
    axes = emit.const(_ints(_axes(node, len(node.inputs[0].shape))))
    centred = emit.op("Sub", ins[0], emit.op("ReduceMean", ins[0], axes, keepdims=1))
    variance = emit.op("ReduceMean", emit.op("Mul", centred, centred), axes, keepdims=1)
    eps = emit.const(np.asarray(node.attrs["eps"], _dtype(node)))
    rstd = emit.op("Reciprocal", emit.op("Sqrt", emit.op("Add", variance, eps)))
    return [emit.op("Mul", centred, rstd), rstd]


@_form("max_with_indices", "min_with_indices")
def _max_with_indices(emit, node, ins):
    largest = node.op == "max_with_indices"
    values = _reduce(emit, Node("max" if largest else "min", node.inputs, node.attrs, node.outputs[:1], node.loc),
                     ins)[0]
    index = _arg_index(emit, node, ins[0], "ArgMax" if largest else "ArgMin")
    return [values, _cast(emit, index, _dtype(node, 1))]


# --------------------------------------------------------------------------------------- shape ops


@_form("reshape", "flatten")
def _reshape(emit, node, ins):
    return [_reshape_to(emit, ins[0], node.outputs[0].shape)]


@_form("reshape_keeping")
def _reshape_keeping(emit, node, ins):
    shape = node.attrs["shape"]
    if 0 in shape:
        raise NoForm("a kept dim (ONNX's 0) beside a dim of size 0")
    return [emit.op("Reshape", ins[0], emit.const(_ints([0 if d is None else d for d in shape])), allowzero=0)]


@_form("expand_dims")
def _expand_dims(emit, node, ins):
    axis = node.attrs["axis"]
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    return [emit.op("Unsqueeze", ins[0], emit.const(_ints(axes)))]


@_form("squeeze")
def _squeeze(emit, node, ins):
    axis = node.attrs.get("axis")
    if axis is None:
        return [emit.op("Squeeze", ins[0])]
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    return [emit.op("Squeeze", ins[0], emit.const(_ints(axes)))]


@_form("transpose")
def _transpose(emit, node, ins):
    rank = len(node.inputs[0].shape)
    axes = node.attrs.get("axes")
    perm = list(range(rank))[::-1] if axes is None else [a % rank for a in axes]
    return [emit.op("Transpose", ins[0], perm=perm)]


@_form("broadcast_to")
def _broadcast_to(emit, node, ins):
    shape = _static_shape(node, node.outputs[0].shape)
    return [emit.op("Expand", ins[0], emit.const(_ints(shape)))]


@_form("tile")
def _tile(emit, node, ins):
    reps = node.attrs["reps"]
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    rank = len(node.inputs[0].shape)
    source = ins[0]
    if len(reps) > rank:
        source = emit.op("Unsqueeze", source, emit.const(_ints(range(len(reps) - rank))))
    reps = (1,) * (rank - len(reps)) + reps
    return [emit.op("Tile", source, emit.const(_ints(reps)))]


@_form("concat")
def _concat(emit, node, ins):
    return [emit.op("Concat", *ins, axis=int(node.attrs.get("axis", 0)))]


@_form("stack")
def _stack(emit, node, ins):
    axis = int(node.attrs.get("axis", 0))
    axis = axis % len(node.outputs[0].shape)
    parts = [emit.op("Unsqueeze", name, emit.const(_ints([axis]))) for name in ins]
    return [emit.op("Concat", *parts, axis=axis)]


@_form("split")
def _split(emit, node, ins):
    rank = len(node.inputs[0].shape)
    axis = int(node.attrs.get("axis", 0)) % rank
    sizes = [out.shape[axis] for out in node.outputs]
    if any(s is None for s in sizes):
        raise NoForm("it splits a dynamic dim")
    names = emit.op("Split", ins[0], emit.const(_ints(sizes)), axis=axis, outputs=len(sizes))
    return names if isinstance(names, list) else [names]


def _index_items(index, rank: int) -> list:
    items = list(index) if isinstance(index, tuple) else [index]
    taking = sum(1 for item in items if item is not None and item is not Ellipsis)
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (rank - taking)
    return items


@_form("getitem")
def _getitem(emit, node, ins):
    rank = len(node.inputs[0].shape)
    items = _index_items(node.attrs["index"], rank)
    starts, ends, axes, steps, dropped, added = [], [], [], [], [], []
    dim = out_dim = 0
    for item in items:
        if item is None:
            added.append(out_dim)
            out_dim += 1
            continue
        if isinstance(item, slice):
            step = 1 if item.step is None else int(item.step)
            start = item.start if item.start is not None else (0 if step > 0 else _INT64_MAX)
            stop = item.stop if item.stop is not None else (_INT64_MAX if step > 0 else _INT64_MIN)
            if (start, stop, step) != (0, _INT64_MAX, 1):
                starts.append(int(start)), ends.append(int(stop)), axes.append(dim), steps.append(step)
            out_dim += 1
        else:
            item = int(item)
            starts.append(item), ends.append(item + 1 if item != -1 else _INT64_MAX), axes.append(dim)
            steps.append(1)
            dropped.append(dim)
        dim += 1
    out = ins[0]
    if axes:
        out = emit.op("Slice", out, emit.const(_ints(starts)), emit.const(_ints(ends)), emit.const(_ints(axes)),
                      emit.const(_ints(steps)))
    if dropped:
        out = emit.op("Squeeze", out, emit.const(_ints(dropped)))
    if added:
        out = emit.op("Unsqueeze", out, emit.const(_ints(added)))
    return [out if out != ins[0] else emit.op("Identity", out)]


@_form("gather")
def _gather(emit, node, ins):
    return [emit.op("Gather", ins[0], ins[1], axis=int(node.attrs.get("axis", 0)))]


@_form("masked_select")
def _masked_select(emit, node, ins):
    flat = emit.op("Reshape", ins[0], emit.const(_ints([-1])))
    mask = emit.op("Reshape", ins[1], emit.const(_ints([-1])))
    return [emit.op("Compress", flat, mask, axis=0)]


@_form("getitem_grad")
def _getitem_grad(emit, node, ins):
    shape = _static_shape(node, node.attrs["shape"])
    positions = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[node.attrs["index"]]
    zeros = emit.op("ConstantOfShape", emit.const(_ints([int(np.prod(shape))])),
                    value=np.zeros((1,), _dtype(node)))
    flat = emit.op("Reshape", ins[0], emit.const(_ints([-1])))
    placed = emit.op("ScatterElements", zeros, emit.const(positions.reshape(-1)), flat, axis=0)
    return [emit.op("Reshape", placed, emit.const(_ints(shape)))]


@_form("setitem", "setitem_in_place")
def _setitem(emit, node, ins):
    shape = _static_shape(node, node.inputs[0].shape)
    positions = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[node.attrs["index"]]
    flat = emit.op("Reshape", ins[0], emit.const(_ints([-1])))
    value = emit.op("Expand", _cast(emit, ins[1], _dtype(node)), emit.const(_ints(positions.shape)))
    value = emit.op("Reshape", value, emit.const(_ints([-1])))
    placed = emit.op("ScatterElements", flat, emit.const(positions.reshape(-1)), value, axis=0)
    return [emit.op("Reshape", placed, emit.const(_ints(shape)))]


@_form("gather_grad")
def _gather_grad(emit, node, ins):
    shape = _static_shape(node, node.attrs["shape"])
    axis = int(node.attrs.get("axis", 0)) % len(shape)
    outer, inner = int(np.prod(shape[:axis])), int(np.prod(shape[axis + 1:]))
    count = int(np.prod(_static_shape(node, node.inputs[1].shape)))
    updates = emit.op("Reshape", ins[0], emit.const(_ints([outer, count, inner])))
    where = emit.op("Reshape", _cast(emit, ins[1], np.int64), emit.const(_ints([1, count, 1])))
    where = emit.op("Expand", where, emit.const(_ints([outer, count, inner])))
    zeros = emit.op("ConstantOfShape", emit.const(_ints([outer, shape[axis], inner])),
                    value=np.zeros((1,), _dtype(node)))
    summed = emit.op("ScatterElements", zeros, where, updates, axis=1, reduction="add")   # np.add.at
    return [emit.op("Reshape", summed, emit.const(_ints(shape)))]


@_form("masked_select_grad")
def _masked_select_grad(emit, node, ins):
    shape = _static_shape(node, node.attrs["shape"])
    mask = emit.op("Reshape", ins[1], emit.const(_ints([-1])))
    where = emit.op("Transpose", emit.op("NonZero", mask), perm=[1, 0])      # (k, 1)
    zeros = emit.op("ConstantOfShape", emit.const(_ints([int(np.prod(shape))])), value=np.zeros((1,), _dtype(node)))
    return [emit.op("Reshape", emit.op("ScatterND", zeros, where, ins[0]), emit.const(_ints(shape)))]


@_form("ones", "zeros")
def _filled(emit, node, ins):
    shape = _static_shape(node, node.outputs[0].shape)
    fill = np.full((1,), 1 if node.op == "ones" else 0, _dtype(node))
    return [emit.op("ConstantOfShape", emit.const(_ints(shape)), value=fill)]


@_form("ones_like", "zeros_like")
def _filled_like(emit, node, ins):
    fill = np.full((1,), 1 if node.op == "ones_like" else 0, _dtype(node))
    return [emit.op("ConstantOfShape", emit.op("Shape", ins[0]), value=fill)]


@_form("fill")
def _fill(emit, node, ins):
    shape = _static_shape(node, node.outputs[0].shape)
    return [emit.op("Expand", _cast(emit, ins[0], _dtype(node)), emit.const(_ints(shape)))]


# ------------------------------------------------------------------------------------------- linalg


def _swap_last(emit, name, rank):
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return emit.op("Transpose", name, perm=perm)


@_form("matmul", "batch_matmul")
def _matmul(emit, node, ins):
    x, y = ins
    if node.attrs.get("transpose_a"):
        x = _swap_last(emit, x, len(node.inputs[0].shape))
    if node.attrs.get("transpose_b"):
        y = _swap_last(emit, y, len(node.inputs[1].shape))
    return [emit.op("MatMul", x, y)]


@_form("dot")
def _dot(emit, node, ins):
    return [emit.op("MatMul", *ins)]   # the op takes a second operand of rank 1 or 2, where dot is matmul


@_form("outer")
def _outer(emit, node, ins):
    column = emit.op("Reshape", ins[0], emit.const(_ints([-1, 1])))
    row = emit.op("Reshape", ins[1], emit.const(_ints([1, -1])))
    return [emit.op("Mul", column, row)]


# ----------------------------------------------------------------------------------------------- nn


@_form("softmax", "log_softmax")
def _softmax(emit, node, ins):
    return [emit.op("Softmax" if node.op == "softmax" else "LogSoftmax", ins[0], axis=int(node.attrs.get("axis", -1)))]


@_form("softmax_cross_entropy")
def _softmax_cross_entropy(emit, node, ins):
    axis = int(node.attrs.get("axis", -1)) % len(node.inputs[0].shape)
    log_probs = emit.op("LogSoftmax", ins[0], axis=axis)
    total = emit.op("ReduceSum", emit.op("Mul", ins[1], log_probs), emit.const(_ints([axis])), keepdims=0)
    return [emit.op("Neg", total)]


@_form("one_hot")
def _one_hot(emit, node, ins):
    on, off = (_cast(emit, name, _dtype(node)) if _operand_dtype(operand) != _dtype(node) else name
               for name, operand in zip(ins[1:], node.inputs[1:]))
    depth = int(node.attrs["depth"])
    axis = int(node.attrs.get("axis", -1))
    hits = emit.op("Equal", emit.op("Unsqueeze", ins[0], emit.const(_ints([-1]))),
                   emit.const(np.arange(depth, dtype=np.dtype(node.inputs[0].dtype))))
    rank = len(node.outputs[0].shape)
    if axis % rank != rank - 1:   # the new axis last, then moved to ``axis`` (np.moveaxis)
        perm = list(range(rank - 1))
        perm.insert(axis % rank, rank - 1)
        hits = emit.op("Transpose", hits, perm=perm)
    return [emit.op("Where", hits, on, off)]


# ------------------------------------------------------------------------------------ random draws


@_form("random_normal", "random_uniform")
def _random(emit, node, ins):
    shape = _static_shape(node, node.outputs[0].shape)
    dtype = _dtype(node)
    op_type = "RandomNormal" if node.op == "random_normal" else "RandomUniform"
    draw = emit.op(op_type, shape=list(shape), dtype=_onnx_type(np.float32 if dtype.kind != "f" else dtype))
    return [_cast(emit, draw, dtype) if dtype.kind != "f" else draw]


@_form("dropout_mask")
def _dropout_mask(emit, node, ins):
    shape = _static_shape(node, node.outputs[0].shape)
    dtype = _dtype(node)
    keep = float(node.attrs["keep_prob"])
    kept = emit.op("Less", emit.op("RandomUniform", shape=list(shape), dtype=_onnx_type(np.float64)),
                   emit.const(np.asarray(keep)))
    scaled = emit.op("Div", _cast(emit, kept, np.float64), emit.const(np.asarray(keep)))
    return [_cast(emit, scaled, dtype)]


# ---------------------------------------------------------------------------------- windows, convs


def _pads(padding) -> list:
    top, bottom, left, right = padding
    return [int(top), int(left), int(bottom), int(right)]


def _geometry(node, shape, kernel, stride, padding, dilation):
    """``(n, c, h, w, hp, wp, oh, ow)`` of windows over a static ``shape`` padded by ``padding``."""
    n, c, h, w = _static_shape(node, shape)
    hp, wp = h + padding[0] + padding[1], w + padding[2] + padding[3]
    oh = (hp - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (wp - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    return n, c, h, w, hp, wp, oh, ow


def _positions(kernel, stride, dilation, wp, oh, ow) -> np.ndarray:
    """The flat position in the padded image of each window element: ``(OH, OW, KH, KW)`` int64."""
    rows = (np.arange(oh) * stride[0]).reshape(oh, 1, 1, 1) + (np.arange(kernel[0]) * dilation[0]).reshape(1, 1, -1, 1)
    cols = (np.arange(ow) * stride[1]).reshape(1, ow, 1, 1) + (np.arange(kernel[1]) * dilation[1]).reshape(1, 1, 1, -1)
    return (rows * wp + cols).astype(np.int64)


def _pad(emit, name, padding, fill=None, dtype=None) -> str:
    top, bottom, left, right = (int(p) for p in padding)
    pads = emit.const(_ints([0, 0, top, left, 0, 0, bottom, right]))
    if fill is None:
        return emit.op("Pad", name, pads, mode="constant")
    return emit.op("Pad", name, pads, emit.const(np.asarray(fill, dtype)), mode="constant")


def _windows(emit, node, name, shape, kernel, stride, padding, dilation, fill):
    """The windows of ``name`` (static ``shape`` N, C, H, W), padded with ``fill``, as ``pool2d_windows``
    makes them: ``(N, C, OH, OW, KH, KW)``, a Gather of constant positions of the padded image."""
    n, c, _, _, hp, wp, oh, ow = _geometry(node, shape, kernel, stride, padding, dilation)
    if any(padding):
        name = _pad(emit, name, padding, fill, node.inputs[0].dtype)
    flat = emit.op("Reshape", name, emit.const(_ints([n, c, hp * wp])))
    positions = _positions(kernel, stride, dilation, wp, oh, ow)
    return emit.op("Gather", flat, emit.const(positions), axis=2), (n, c, oh, ow, hp, wp)


def _crop(emit, name, padding, h, w) -> str:
    """The image inside ``padding`` of a padded ``(N, C, Hp, Wp)`` array."""
    if not any(padding):
        return name
    top, left = int(padding[0]), int(padding[2])
    return emit.op("Slice", name, emit.const(_ints([top, left])), emit.const(_ints([top + h, left + w])),
                   emit.const(_ints([2, 3])))


def _unwindow(emit, node, windows, input_shape, kernel, stride, padding, dilation, dtype):
    """The transpose of :func:`_windows`: each element of ``windows (N, C, OH, OW, KH, KW)`` added at its
    position of the padded image (a scatter-add of constant positions), the padding cropped off."""
    n, c, h, w, hp, wp, oh, ow = _geometry(node, input_shape, kernel, stride, padding, dilation)
    taps = oh * ow * kernel[0] * kernel[1]
    updates = emit.op("Reshape", windows, emit.const(_ints([n, c, taps])))
    positions = np.broadcast_to(_positions(kernel, stride, dilation, wp, oh, ow).reshape(1, 1, taps), (n, c, taps))
    zeros = emit.op("ConstantOfShape", emit.const(_ints([n, c, hp * wp])), value=np.zeros((1,), dtype))
    summed = emit.op("ScatterElements", zeros, emit.const(np.ascontiguousarray(positions)), updates, axis=2,
                     reduction="add")
    return _crop(emit, emit.op("Reshape", summed, emit.const(_ints([n, c, hp, wp]))), padding, h, w)


def _window_attrs(node):
    a = node.attrs
    return (tuple(a.get("kernel_size", (1, 1))), tuple(a.get("stride", (1, 1))), tuple(a.get("padding", (0, 0, 0, 0))),
            tuple(a.get("dilation", (1, 1))))


@_form("pool2d_windows")
def _pool2d_windows(emit, node, ins):
    kernel, stride, padding, dilation = _window_attrs(node)
    windows, _ = _windows(emit, node, ins[0], node.inputs[0].shape, kernel, stride, padding, dilation,
                          node.attrs.get("fill", 0.0))
    return [windows]


@_form("max_pool2d")
def _max_pool2d(emit, node, ins):
    kernel, stride, padding, dilation = _window_attrs(node)
    return [emit.op("MaxPool", ins[0], kernel_shape=list(kernel), strides=list(stride), pads=_pads(padding),
                    dilations=list(dilation))]


@_form("sum_pool2d")
def _sum_pool2d(emit, node, ins):
    kernel, stride, padding, dilation = _window_attrs(node)
    windows, _ = _windows(emit, node, ins[0], node.inputs[0].shape, kernel, stride, padding, dilation, 0.0)
    return [emit.op("ReduceSum", windows, emit.const(_ints([4, 5])), keepdims=0)]


def _first_max_index(emit, node, name):
    """``max_pool2d_index``: the flat index into the padded input of each window's first maximum."""
    kernel, stride, padding, dilation = _window_attrs(node)
    windows, (n, c, oh, ow, hp, wp) = _windows(emit, node, name, node.inputs[0].shape, kernel, stride, padding,
                                               dilation, -np.inf)
    taps = emit.op("Reshape", windows, emit.const(_ints([n, c, oh, ow, kernel[0] * kernel[1]])))
    first = emit.op("ArgMax", taps, axis=-1, keepdims=0, select_last_index=0)      # (N, C, OH, OW) int64
    tap_row = emit.op("Div", first, emit.const(np.asarray(kernel[1], np.int64)))
    tap_col = emit.op("Mod", first, emit.const(np.asarray(kernel[1], np.int64)))
    rows = emit.op("Add", emit.const((np.arange(oh) * stride[0]).reshape(oh, 1).astype(np.int64)),
                   emit.op("Mul", tap_row, emit.const(np.asarray(dilation[0], np.int64))))
    cols = emit.op("Add", emit.const((np.arange(ow) * stride[1]).astype(np.int64)),
                   emit.op("Mul", tap_col, emit.const(np.asarray(dilation[1], np.int64))))
    planes = emit.const((np.arange(n * c).reshape(n, c, 1, 1) * hp).astype(np.int64))
    return emit.op("Add", emit.op("Mul", emit.op("Add", planes, rows), emit.const(np.asarray(wp, np.int64))), cols)


@_form("max_pool2d_index")
def _max_pool2d_index(emit, node, ins):
    return [_cast(emit, _first_max_index(emit, node, ins[0]), _dtype(node))]


@_form("max_pool2d_gather")
def _max_pool2d_gather(emit, node, ins):
    index = _first_max_index(emit, node, ins[0])
    padding = _window_attrs(node)[2]
    source = _pad(emit, ins[1], padding) if any(padding) else ins[1]
    flat = emit.op("Reshape", source, emit.const(_ints([-1])))
    return [emit.op("Gather", flat, index, axis=0)]


@_form("max_pool2d_grad")
def _max_pool2d_grad(emit, node, ins):
    kernel, stride, padding, dilation = _window_attrs(node)
    n, c, h, w, hp, wp, _, _ = _geometry(node, node.inputs[0].shape, kernel, stride, padding, dilation)
    index = emit.op("Reshape", _first_max_index(emit, node, ins[0]), emit.const(_ints([-1])))
    zeros = emit.op("ConstantOfShape", emit.const(_ints([n * c * hp * wp])), value=np.zeros((1,), _dtype(node)))
    summed = emit.op("ScatterElements", zeros, index, emit.op("Reshape", ins[2], emit.const(_ints([-1]))), axis=0,
                     reduction="add")
    return [_crop(emit, emit.op("Reshape", summed, emit.const(_ints([n, c, hp, wp]))), padding, h, w)]


@_form("sum_pool2d_grad")
def _sum_pool2d_grad(emit, node, ins):
    kernel, stride, padding, dilation = _window_attrs(node)
    n, c, oh, ow = _static_shape(node, node.inputs[0].shape)
    spread = emit.op("Expand", emit.op("Unsqueeze", ins[0], emit.const(_ints([4, 5]))),
                     emit.const(_ints([n, c, oh, ow, kernel[0], kernel[1]])))
    return [_unwindow(emit, node, spread, node.attrs["input_shape"], kernel, stride, padding, dilation, _dtype(node))]


@_form("conv2d")
def _conv2d(emit, node, ins):
    stride, padding, dilation, groups = _conv_attrs(node)
    return [emit.op("Conv", ins[0], ins[1], strides=list(stride), pads=_pads(padding), dilations=list(dilation),
                    group=groups)]


def _conv_attrs(node):
    a = node.attrs
    return (tuple(a.get("stride", (1, 1))), tuple(a.get("padding", (0, 0, 0, 0))), tuple(a.get("dilation", (1, 1))),
            int(a.get("groups", 1)))


def _columns(emit, node, name, shape, filter_shape):
    """``conv2d_columns`` of ``name``: ``(groups, C/groups * KH * KW, N * OH * OW)``."""
    stride, padding, dilation, groups = _conv_attrs(node)
    _, cg, kh, kw = filter_shape
    windows, (n, _, oh, ow, _, _) = _windows(emit, node, name, shape, (kh, kw), stride, padding, dilation, 0.0)
    split = emit.op("Reshape", windows, emit.const(_ints([n, groups, cg, oh, ow, kh, kw])))
    ordered = emit.op("Transpose", split, perm=[1, 2, 5, 6, 0, 3, 4])   # (g, cg, KH, KW, N, OH, OW)
    return emit.op("Reshape", ordered, emit.const(_ints([groups, cg * kh * kw, n * oh * ow])))


def _uncolumns(emit, node, cols, input_shape, filter_shape):
    """``conv2d_columns_grad`` (col2im): columns added back into an image of ``input_shape``."""
    stride, padding, dilation, groups = _conv_attrs(node)
    _, cg, kh, kw = filter_shape
    n, c, _, _, _, _, oh, ow = _geometry(node, input_shape, (kh, kw), stride, padding, dilation)
    split = emit.op("Reshape", cols, emit.const(_ints([groups, cg, kh, kw, n, oh, ow])))
    ordered = emit.op("Transpose", split, perm=[4, 0, 1, 5, 6, 2, 3])   # (N, g, cg, OH, OW, KH, KW)
    windows = emit.op("Reshape", ordered, emit.const(_ints([n, c, oh, ow, kh, kw])))
    return _unwindow(emit, node, windows, input_shape, (kh, kw), stride, padding, dilation, _dtype(node))


def _dy_rows(emit, node, dy, groups):
    """``dy (N, O, OH, OW)`` as ``(groups, O/groups, N * OH * OW)``."""
    n, o, oh, ow = _static_shape(node, node.inputs[0 if node.op == "conv2d_input_grad" else 1].shape)
    by_channel = emit.op("Transpose", dy, perm=[1, 0, 2, 3])
    return emit.op("Reshape", by_channel, emit.const(_ints([groups, o // groups, n * oh * ow])))


@_form("conv2d_columns")
def _conv2d_columns(emit, node, ins):
    return [_columns(emit, node, ins[0], node.inputs[0].shape, node.attrs["filter_shape"])]


@_form("conv2d_columns_grad")
def _conv2d_columns_grad(emit, node, ins):
    return [_uncolumns(emit, node, ins[0], node.attrs["input_shape"], node.attrs["filter_shape"])]


@_form("conv2d_input_grad")
def _conv2d_input_grad(emit, node, ins):
    dy, w = ins
    groups = _conv_attrs(node)[3]
    filter_shape = _static_shape(node, node.inputs[1].shape)
    o, cg, kh, kw = filter_shape
    filters = emit.op("Reshape", w, emit.const(_ints([groups, o // groups, cg * kh * kw])))
    cols = emit.op("MatMul", emit.op("Transpose", filters, perm=[0, 2, 1]), _dy_rows(emit, node, dy, groups))
    return [_uncolumns(emit, node, cols, node.attrs["input_shape"], filter_shape)]


@_form("conv2d_filter_grad")
def _conv2d_filter_grad(emit, node, ins):
    x, dy = ins
    groups = _conv_attrs(node)[3]
    filter_shape = tuple(node.attrs["filter_shape"])
    cols = _columns(emit, node, x, node.inputs[0].shape, filter_shape)
    product = emit.op("MatMul", _dy_rows(emit, node, dy, groups), emit.op("Transpose", cols, perm=[0, 2, 1]))
    return [emit.op("Reshape", product, emit.const(_ints(filter_shape)))]


@_form("adaptive_avg_weights", "adaptive_window_index")
def _folded(emit, node, ins):
    value = apply_op(op_table()[node.op], [], node.attrs, _dtype(node))
    return [emit.op("Identity", emit.const(value))]


# ----------------------------------------------------------------------------------------- sequence


@_form("row")
def _row(emit, node, ins):
    return [emit.op("Gather", ins[0], ins[1], axis=0)]


@_form("row_add", "row_add_in_place", "row_set", "row_set_in_place")
def _row_write(emit, node, ins):
    buf, t, h = ins
    where = emit.op("Reshape", _cast(emit, t, np.int64), emit.const(_ints([1, 1])))
    update = emit.op("Unsqueeze", h, emit.const(_ints([0])))
    adding = node.op.startswith("row_add")
    return [emit.op("ScatterND", buf, where, update, reduction="add" if adding else "none")]


# ---------------------------------------------------------------------------------------- selection


@_form("topk")
def _topk(emit, node, ins):
    k = emit.const(_ints([int(node.attrs["k"])]))
    values, indices = emit.op("TopK", ins[0], k, axis=-1, largest=int(bool(node.attrs.get("largest", True))),
                              sorted=1, outputs=2)
    return [values, _cast(emit, indices, _dtype(node, 1))]


@_form("gather_last")
def _gather_last(emit, node, ins):
    return [emit.op("GatherElements", ins[0], _cast(emit, ins[1], np.int64), axis=-1)]


@_form("scatter_last")
def _scatter_last(emit, node, ins):
    shape = _static_shape(node, node.outputs[0].shape)
    zeros = emit.op("ConstantOfShape", emit.const(_ints(shape)), value=np.zeros((1,), _dtype(node)))
    return [emit.op("ScatterElements", zeros, _cast(emit, ins[1], np.int64), ins[0], axis=-1)]


@_form("reshape_like")
def _reshape_like(emit, node, ins):
    return [emit.op("Reshape", ins[0], emit.op("Shape", ins[1]))]


@_form("dim_size")
def _dim_size(emit, node, ins):
    return [emit.op("Gather", emit.op("Shape", ins[0]), emit.const(np.array(node.attrs["axis"], np.int64)), axis=0)]


@_form("dim_range")
def _dim_range(emit, node, ins):
    size = emit.op("Gather", emit.op("Shape", ins[0]), emit.const(np.array(node.attrs["axis"], np.int64)), axis=0)
    return [emit.op("Range", emit.const(np.array(0, np.int64)), size, emit.const(np.array(1, np.int64)))]


# ------------------------------------------------------------------------------- without ONNX form

NO_ONNX_FORM: dict[str, str] = {
    "conj": "the complex conjugate, which only gradients of complex programs emit; ONNX's operators take no complex "
            "tensors",
    "real": "the real part of a complex tensor (ops.real; a real cotangent from a complex one in gradients); ONNX's "
            "operators take no complex tensors",
    "roll": "a roll along a dim known only at run time (a static dim's roll is written as Slice and Concat); its "
            "modulo of the dim's length is not written yet",
    "class_indices": "it validates class indices at run time and raises ValueError; ONNX has no raising operator",
    "nms_with_mask": "MindSpore's sorted boxes, positions and keep mask; ONNX's NonMaxSuppression returns the kept "
                     "indices per class, another contract",
    "random_choice_with_mask": "a random permutation of the True positions; ONNX has no random permutation",
    "shuffle_order": "a random permutation (MindSpore's RandomShuffle); ONNX has no random permutation",
    "uniform_int": "MindSpore's UniformInt between bounds read at run time; ONNX's RandomUniform takes float "
                   "attribute bounds",
    "bernoulli_draw": "MindSpore's Bernoulli with its (seed, offset) stream; ONNX's Bernoulli draws other numbers "
                      "(written only where npspore's own random ops are)",
    "atan2": "ONNX has no two-argument arctangent (Atan of a quotient loses the quadrant and divides by zero)",
    **dict.fromkeys(("left_shift", "right_shift"),
                    "ONNX's BitShift takes unsigned integers only; MindSpore's shifts are signed as well"),
    **dict.fromkeys(("gcd", "lcm"), "ONNX has no greatest common divisor or least common multiple operator"),
    "erfinv": "ONNX has no inverse error function",
    "lgamma": "ONNX has no log-gamma function",
    "digamma": "ONNX has no digamma function",
    "trigamma": "ONNX has no trigamma function",
    "matrix_inverse": "standard ONNX has no matrix inverse (onnxruntime's Inverse is a com.microsoft contrib op)",
    "all_reduce": "a collective across MPI ranks; ONNX has no communication operators",
    "all_gather": "a collective across MPI ranks; ONNX has no communication operators",
    "reduce_scatter": "a collective across MPI ranks; ONNX has no communication operators",
    "broadcast": "a collective across MPI ranks; ONNX has no communication operators",
    "reduce": "a collective across MPI ranks; ONNX has no communication operators",
    # depth-1 products
    "outer_product": "NumPy's form of a depth-1 matrix product, made by optimize after the export stop point, so "
                     "no export program holds it (the graph keeps the MatMul)",
    # products split across threads
    "matmul_split": "NumPy's threaded form of a large matrix product, made by optimize after the export stop point, "
                    "so no export program holds it (the graph keeps the MatMul)",
    "matmul_start": "a large matrix product NumPy computes on helper threads while a loop runs, made by optimize after "
                    "the export stop point, so no export program holds it (the graph keeps the MatMul)",
    # NumPy steps of optimize
    "copy": "NumPy's C-ordered copy of a matrix a loop multiplies by, made by optimize after the export stop point, "
            "so no export program holds it (the graph keeps the MatMul)",
    "scatter_last_add_in_place": "an in-place write of npspore's NumPy kernels, made by optimize after the export "
                                 "stop point, so no export program holds it",
    "log_softmax_probs": "a log-softmax and its exponential at once, made by optimize after the export stop point, so "
                         "no export program holds it (the graph keeps the LogSoftmax)",
    "row_slot": "a loop step's value computed in its row of a stacked buffer in npspore's NumPy kernels, made by "
                "optimize after the export stop point, so no export program holds it",
    # parts written into their concatenation (compiler/concatparts.py)
    **dict.fromkeys(("empty", "concat_slot", "copy_into", "concat_written"),
                    "a concatenation's parts written into it in npspore's NumPy kernels, made by optimize after the "
                    "export stop point, so no export program holds it (the graph keeps the Concat)"),
}
