"""Primitive ops, as ``mindspore.ops.<Name>``: configure once, call like a function.

``ops.MatMul(transpose_b=True)(x, w)``, ``ops.ReduceSum(keep_dims=True)(x, 1)``, ``ops.Cast()(x,
ms.float16)``. Constructor arguments are MindSpore's; ``__call__`` is written in the compilable
subset, so compiled code steps into it, and a primitive stored on a Cell (``self.matmul``) costs
nothing at run time.
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..compiler.library import LIBRARY
from ..core.parallel_layout import Layout
from ..common.tensor import _axis, _np_dtype
from . import eager
from .eager import run
from .functional import one_hot, where

__all__ = [
    "Primitive",
    "Add", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Neg", "Abs", "Square", "Sign",
    "Maximum", "Minimum",
    "Exp", "Log", "Log1p", "Sqrt", "Rsqrt", "Sin", "Cos", "Tan", "Tanh", "Sigmoid", "ReLU", "GeLU", "Softplus", "Erf",
    "Select", "Cast", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot",
    "ReduceSum", "ReduceMean", "ReduceProd", "ReduceMax", "ReduceMin", "ReduceAll", "ReduceAny",
    "Argmax", "Argmin", "ArgMaxWithValue", "ArgMinWithValue",
    "Reshape", "Transpose", "ExpandDims", "Squeeze", "Flatten", "BroadcastTo", "Tile", "Concat", "Stack", "Split",
    "Gather", "OnesLike", "ZerosLike", "Ones", "Zeros", "Fill", "OneHot",
    "MatMul", "BatchMatMul", "Softmax", "LogSoftmax", "SoftmaxCrossEntropyWithLogits",
    "Assign", "AssignAdd", "AssignSub", "constexpr",
]


class Primitive:
    """Base class of primitive ops: a name and the attributes given to the constructor.

    ``repr`` is MindSpore's: ``Prim[MatMul]<transpose_a=False, transpose_b=True>``.

    Args:
        name (str): the primitive's name, e.g. ``'MatMul'``.
    """

    def __init__(self, name):
        self.name = name
        self.attrs = {}

    def add_prim_attr(self, name, value):
        """Record the attribute ``name`` (shown by ``repr``); returns the primitive."""
        self.attrs[name] = value
        return self

    def set_device(self, device_target):
        """Record the device the primitive runs on, as the attribute ``primitive_target`` (npspore runs
        every op on the host's NumPy, so the op computes as before).

        Args:
            device_target (str): ``"Ascend"``, ``"GPU"`` or ``"CPU"``.

        Returns:
            Primitive, this primitive (``ops.Add().set_device("CPU").primitive_target`` is ``'CPU'``).
        """
        self.primitive_target = device_target
        return self.add_prim_attr("primitive_target", device_target)

    def __repr__(self) -> str:
        if not self.attrs:
            return f"Prim[{self.name}]"
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]<{attrs}>"

    def recompute(self, mode=True):
        """Recompute this primitive in the backward pass: a compiled gradient does not keep its
        output from the forward sweep for the backward; the backward computes it again from the
        primitive's inputs (op-level gradient checkpointing). The gradient is unchanged.

        Args:
            mode (bool): whether the primitive is recomputed. Default: ``True``.

        Returns:
            Primitive, this primitive (``self.relu = ops.ReLU().recompute()``).

        Raises:
            TypeError: if ``mode`` is not a bool.
        """
        if not isinstance(mode, bool):
            raise TypeError(f"The input value must be a bool, but got {type(mode).__name__}.")
        return self.add_prim_attr("recompute", mode)

    # sharding strategies, recorded as MindSpore records them (one process runs here)
    def shard(self, in_strategy=None, out_strategy=None):
        """Record the split strategy of the inputs (and outputs) as MindSpore does, as the attributes
        ``in_strategy``/``out_strategy`` (tuples of ints) or ``in_layout``/``out_layout`` (``parallel.Layout``
        s, as their dictionaries without ``rank_list``). npspore runs one process: the op computes as before.

        Args:
            in_strategy (tuple): one tuple of ints or one ``Layout`` per input. Default: ``None``.
            out_strategy (tuple): the same for the outputs. Default: ``None``.

        Returns:
            Primitive, this primitive.

        Raises:
            TypeError: if a strategy is not a tuple, or an element is neither a tuple of ints nor a ``Layout``.
            ValueError: if ``out_strategy`` is given without ``in_strategy``, or one strategy uses layouts and
                the other tuples.
        """
        kinds = [_strategy_kind(self.name, strategy, role)
                 for strategy, role in ((in_strategy, "in_strategy"), (out_strategy, "out_strategy"))]
        if in_strategy is None and out_strategy is not None:
            raise ValueError(f"The out_strategy of {self.name} is {out_strategy}, need to set in_strategy, "
                             f"but got none")
        if None not in kinds and kinds[0] != kinds[1]:
            raise ValueError("The in_strategy type must equal to the out_strategy type, "
                             "one using tuple(tuple) and the other using tuple(Layout) is not allowed.")
        for strategy, role, kind in ((in_strategy, "in", kinds[0]), (out_strategy, "out", kinds[1])):
            if kind == "layout":
                self.add_prim_attr(f"{role}_layout", tuple(
                    {key: value for key, value in layout.to_dict().items() if key != "rank_list"}
                    for layout in strategy))
            elif kind == "tuple":
                self.add_prim_attr(f"{role}_strategy", strategy)
        return self


def _strategy_kind(prim_name, strategy, role):
    """``'layout'`` or ``'tuple'``: what the sharding ``strategy`` is made of (None when it is None or empty)."""
    if strategy is None:
        return None
    if not isinstance(strategy, tuple):
        raise TypeError(f"{role} must be tuple type, but got:{type(strategy)}")
    kinds = set()
    for element in strategy:
        if isinstance(element, Layout):
            kinds.add("layout")
        elif isinstance(element, tuple):
            for value in element:
                if not isinstance(value, int):
                    raise TypeError(f"The {role}: {strategy} of {prim_name} is not valid, the value of strategy "
                                    f"must be int type, but got:{type(value)}")
            kinds.add("tuple")
        else:
            raise TypeError(f"The element of strategy must be tuple/Layout type, but got:{type(element)}")
    if len(kinds) > 1:
        raise TypeError(f"{role} item must be all tuple type or all Layout type.")
    return kinds.pop() if kinds else None


LIBRARY.register_recomputed(lambda value: isinstance(value, Primitive) and value.attrs.get("recompute") is True)


def _check_bool(prim, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For '{prim}', the '{name}' must be a bool, but got {type(value).__name__}.")
    return value


# ---------------------------------------------------------------- elementwise


class _Binary(Primitive):
    """A primitive applying the elementwise binary op ``_op`` to ``(x, y)``."""

    _op = ""

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, x, y):
        return run(self._op, x, y)


class _Unary(Primitive):
    """A primitive applying the elementwise unary op ``_op`` to ``x``."""

    _op = ""

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, x):
        return run(self._op, x)


class Add(_Binary):
    """``x + y``, broadcast, in the promoted dtype."""
    _op = "add"


class Sub(_Binary):
    """``x - y``, broadcast, in the promoted dtype."""
    _op = "sub"


class Mul(_Binary):
    """``x * y``, broadcast, in the promoted dtype."""
    _op = "mul"


class Div(_Binary):
    """``x / y``: true division (integers give Float32)."""
    _op = "div"


class RealDiv(_Binary):
    """``x / y``: true division."""
    _op = "div"


class FloorDiv(_Binary):
    """``x // y``: floor division."""
    _op = "floor_div"


class FloorMod(_Binary):
    """``x % y`` with the sign of ``y``."""
    _op = "mod"


class Pow(_Binary):
    """``x ** y``."""
    _op = "pow"


class Maximum(_Binary):
    """Elementwise maximum."""
    _op = "maximum"


class Minimum(_Binary):
    """Elementwise minimum."""
    _op = "minimum"


class Equal(_Binary):
    """Elementwise ``x == y`` (Bool)."""
    _op = "equal"


class NotEqual(_Binary):
    """Elementwise ``x != y`` (Bool)."""
    _op = "not_equal"


class Less(_Binary):
    """Elementwise ``x < y`` (Bool)."""
    _op = "less"


class LessEqual(_Binary):
    """Elementwise ``x <= y`` (Bool)."""
    _op = "less_equal"


class Greater(_Binary):
    """Elementwise ``x > y`` (Bool)."""
    _op = "greater"


class GreaterEqual(_Binary):
    """Elementwise ``x >= y`` (Bool)."""
    _op = "greater_equal"


class LogicalAnd(_Binary):
    """Elementwise logical AND."""
    _op = "logical_and"


class LogicalOr(_Binary):
    """Elementwise logical OR."""
    _op = "logical_or"


class Neg(_Unary):
    """``-x``."""
    _op = "neg"


class Abs(_Unary):
    """``|x|``."""
    _op = "abs"


class Square(_Unary):
    """``x * x``."""
    _op = "square"


class Sign(_Unary):
    """The sign of ``x``: -1, 0 or 1."""
    _op = "sign"


class Exp(_Unary):
    """``exp(x)`` of a float Tensor."""
    _op = "exp"


class Log(_Unary):
    """``log(x)`` of a float Tensor."""
    _op = "log"


class Log1p(_Unary):
    """``log(1 + x)`` of a float Tensor."""
    _op = "log1p"


class Sqrt(_Unary):
    """``sqrt(x)`` of a float Tensor."""
    _op = "sqrt"


class Rsqrt(_Unary):
    """``1 / sqrt(x)`` of a float Tensor."""
    _op = "rsqrt"


class Sin(_Unary):
    """``sin(x)``."""
    _op = "sin"


class Cos(_Unary):
    """``cos(x)``."""
    _op = "cos"


class Tan(_Unary):
    """``tan(x)``."""
    _op = "tan"


class Tanh(_Unary):
    """``tanh(x)``."""
    _op = "tanh"


class Sigmoid(_Unary):
    """``1 / (1 + exp(-x))``."""
    _op = "sigmoid"


class ReLU(_Unary):
    """``max(x, 0)``."""
    _op = "relu"


class Softplus(_Unary):
    """``log(1 + exp(x))``."""
    _op = "softplus"


class Erf(_Unary):
    """The Gauss error function."""
    _op = "erf"


class LogicalNot(_Unary):
    """Elementwise logical NOT."""
    _op = "logical_not"


class GeLU(Primitive):
    """GELU activation by its tanh approximation ``0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))``, as MindSpore's
    ``GeLU`` primitive computes it (``ops.gelu`` defaults to the exact ``x·Φ(x)``)."""

    def __init__(self):
        super().__init__("GeLU")

    def __call__(self, x):
        return run("gelu", x, approximate=True)


class Select(Primitive):
    """``Select()(condition, x, y)``: elements of ``x`` where ``condition`` holds, else of ``y``."""

    def __init__(self):
        super().__init__("Select")

    def __call__(self, condition, x, y):
        return where(condition, x, y)


class Cast(Primitive):
    """``Cast()(x, dtype)``: ``x`` converted to the mindspore ``dtype``."""

    def __init__(self):
        super().__init__("Cast")

    def __call__(self, input_x, type_):
        return run("cast", input_x, dtype=_np_dtype(type_))


# ---------------------------------------------------------------- reductions


class _Reduce(Primitive):
    """``ReduceX(keep_dims=False)(x, axis=())``: a reduction over ``axis`` (``()``: all dims)."""

    _op = ""

    def __init__(self, keep_dims=False):
        super().__init__(type(self).__name__)
        self.keep_dims = _check_bool(self.name, "keep_dims", keep_dims)
        self.add_prim_attr("keep_dims", keep_dims)

    def __call__(self, x, axis=()):
        return run(self._op, x, axis=_axis(axis), keepdims=self.keep_dims)


class ReduceSum(_Reduce):
    """Sum over ``axis`` (bool and int inputs give Int64)."""
    _op = "sum"


class ReduceMean(_Reduce):
    """Mean over ``axis`` (integers truncate)."""
    _op = "mean"


class ReduceProd(_Reduce):
    """Product over ``axis``."""
    _op = "prod"


class ReduceMax(_Reduce):
    """Maximum over ``axis`` (ties share the gradient)."""
    _op = "max"


class ReduceMin(_Reduce):
    """Minimum over ``axis`` (ties share the gradient)."""
    _op = "min"


class ReduceAll(_Reduce):
    """Whether all elements along ``axis`` are true."""
    _op = "all"


class ReduceAny(_Reduce):
    """Whether any element along ``axis`` is true."""
    _op = "any"


class Argmax(Primitive):
    """``Argmax(axis=-1, output_type=mstype.int32)(x)``: the index of the maximum along ``axis``."""

    _op = "argmax"

    def __init__(self, axis=-1, output_type=mstype.int32):
        super().__init__(type(self).__name__)
        self.axis = axis
        self.output_type = output_type
        self.add_prim_attr("axis", axis).add_prim_attr("output_type", output_type)

    def __call__(self, x):
        return run("cast", run(self._op, x, axis=self.axis), dtype=_np_dtype(self.output_type))


class Argmin(Argmax):
    """``Argmin(axis=-1, output_type=mstype.int32)(x)``: the index of the minimum along ``axis``."""

    _op = "argmin"


class ArgMaxWithValue(Primitive):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(x)``: ``(index, values)`` of the maxima along ``axis``."""

    _op = "max_with_indices"

    def __init__(self, axis=0, keep_dims=False):
        super().__init__(type(self).__name__)
        self.axis = axis
        self.keep_dims = _check_bool(self.name, "keep_dims", keep_dims)
        self.add_prim_attr("axis", axis).add_prim_attr("keep_dims", keep_dims)

    def __call__(self, x):
        values, index = run(self._op, x, axis=self.axis, keepdims=self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)``: ``(index, values)`` of the minima along ``axis``."""

    _op = "min_with_indices"


# ---------------------------------------------------------------- shapes


class _Stateless(Primitive):
    """A primitive with no constructor arguments."""

    def __init__(self):
        super().__init__(type(self).__name__)


class Reshape(_Stateless):
    """``Reshape()(x, shape)``."""

    def __call__(self, input_x, input_shape):
        return run("reshape", input_x, shape=tuple(input_shape))


class Transpose(_Stateless):
    """``Transpose()(x, perm)``."""

    def __call__(self, input_x, input_perm):
        return run("transpose", input_x, axes=tuple(input_perm))


class ExpandDims(_Stateless):
    """``ExpandDims()(x, axis)``."""

    def __call__(self, input_x, axis):
        return run("expand_dims", input_x, axis=axis)


class Squeeze(Primitive):
    """``Squeeze(axis=())(x)``: drop the size-1 dims in ``axis`` (``()``: all of them)."""

    def __init__(self, axis=()):
        super().__init__("Squeeze")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, input_x):
        return run("squeeze", input_x, axis=_axis(self.axis))


class Flatten(_Stateless):
    """``Flatten()(x)``: ``(N, -1)``, keeping the first dim."""

    def __call__(self, input_x):
        return run("flatten", input_x, start_dim=1 if len(input_x.shape) > 0 else 0)


class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``."""

    def __init__(self, shape):
        super().__init__("BroadcastTo")
        self.shape = tuple(shape)
        self.add_prim_attr("shape", self.shape)

    def __call__(self, input_x):
        lead = len(self.shape) - len(input_x.shape)
        target = tuple([input_x.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(self.shape)])
        return run("broadcast_to", input_x, shape=target)


class Tile(_Stateless):
    """``Tile()(x, multiples)``."""

    def __call__(self, input_x, multiples):
        return run("tile", input_x, reps=tuple(multiples))


class Concat(Primitive):
    """``Concat(axis=0)(tensors)``."""

    def __init__(self, axis=0):
        super().__init__("Concat")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, input_x):
        return run("concat", *input_x, axis=self.axis)


class Stack(Primitive):
    """``Stack(axis=0)(tensors)``."""

    def __init__(self, axis=0):
        super().__init__("Stack")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, input_x):
        return run("stack", *input_x, axis=self.axis)


class Split(Primitive):
    """``Split(axis=0, output_num=1)(x)``: ``output_num`` equal parts along ``axis``."""

    def __init__(self, axis=0, output_num=1):
        super().__init__("Split")
        self.axis = axis
        self.output_num = output_num
        self.add_prim_attr("axis", axis).add_prim_attr("output_num", output_num)

    def __call__(self, input_x):
        return run("split", input_x, indices_or_sections=self.output_num, axis=self.axis)


class Gather(Primitive):
    """``Gather(batch_dims=0)(params, indices, axis)``."""

    def __init__(self, batch_dims=0):
        super().__init__("Gather")
        if batch_dims != 0:
            raise ValueError(f"For 'Gather', npspore supports only batch_dims=0, but got {batch_dims}.")
        self.add_prim_attr("batch_dims", batch_dims)

    def __call__(self, input_params, input_indices, axis):
        return run("gather", input_params, input_indices, axis=axis)


# ---------------------------------------------------------------- creation


class OnesLike(_Stateless):
    """``OnesLike()(x)``."""

    def __call__(self, input_x):
        return run("ones_like", input_x)


class ZerosLike(_Stateless):
    """``ZerosLike()(x)``."""

    def __call__(self, input_x):
        return run("zeros_like", input_x)


class Ones(_Stateless):
    """``Ones()(shape, type)``."""

    def __call__(self, shape, type):
        return run("ones", shape=(shape,) if isinstance(shape, int) else tuple(shape), dtype=_np_dtype(type))


class Zeros(_Stateless):
    """``Zeros()(shape, type)``."""

    def __call__(self, shape, type):
        return run("zeros", shape=(shape,) if isinstance(shape, int) else tuple(shape), dtype=_np_dtype(type))


class Fill(_Stateless):
    """``Fill()(type, shape, value)``."""

    def __call__(self, type, shape, value):
        return run("fill", value, shape=tuple(shape), dtype=_np_dtype(type))


class OneHot(Primitive):
    """``OneHot(axis=-1)(indices, depth, on_value, off_value)``."""

    def __init__(self, axis=-1):
        super().__init__("OneHot")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, indices, depth, on_value, off_value):
        return one_hot(indices, depth, on_value, off_value, self.axis)


# ---------------------------------------------------------------- linear algebra and nn


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)`` of two 2-D Tensors.

    Raises:
        ValueError: ``For 'MatMul' the input dimensions must be equal, but got 'x1_col': 2 and 'x2_row': 3.``
    """

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__("MatMul")
        self.transpose_a = _check_bool("MatMul", "transpose_a", transpose_a)
        self.transpose_b = _check_bool("MatMul", "transpose_b", transpose_b)
        self.add_prim_attr("transpose_a", transpose_a).add_prim_attr("transpose_b", transpose_b)

    def __call__(self, x, y):
        if len(x.shape) != 2 or len(y.shape) != 2:
            raise ValueError(f"For 'MatMul', the input dimensions must be 2, but got x shape {x.shape} and y shape "
                             f"{y.shape}.")
        x_col = x.shape[0] if self.transpose_a else x.shape[1]
        y_row = y.shape[1] if self.transpose_b else y.shape[0]
        if x_col != y_row and x_col is not None and y_row is not None and x_col >= 0 and y_row >= 0:
            raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': {x_col} and "
                             f"'x2_row': {y_row}.\nx shape: {x.shape}, y shape: {y.shape}")
        return run("matmul", x, y, transpose_a=self.transpose_a, transpose_b=self.transpose_b)


class BatchMatMul(Primitive):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)`` of Tensors of rank 3 or more."""

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__("BatchMatMul")
        self.transpose_a = _check_bool("BatchMatMul", "transpose_a", transpose_a)
        self.transpose_b = _check_bool("BatchMatMul", "transpose_b", transpose_b)
        self.add_prim_attr("transpose_a", transpose_a).add_prim_attr("transpose_b", transpose_b)

    def __call__(self, x, y):
        return run("batch_matmul", x, y, transpose_a=self.transpose_a, transpose_b=self.transpose_b)


class Softmax(Primitive):
    """``Softmax(axis=-1)(x)`` (``axis`` an int or a tuple)."""

    _op = "softmax"

    def __init__(self, axis=-1):
        super().__init__(type(self).__name__)
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def __call__(self, x):
        return run(self._op, x, axis=self.axis)


class LogSoftmax(Softmax):
    """``LogSoftmax(axis=-1)(logits)``."""

    _op = "log_softmax"


class SoftmaxCrossEntropyWithLogits(_Stateless):
    """``SoftmaxCrossEntropyWithLogits()(logits, labels)``: ``(loss, gradient of the loss)`` per sample.

    ``logits`` and dense ``labels`` have shape ``(N, C)``; ``loss`` has shape ``(N,)`` and the second
    output is ``softmax(logits) - labels``. As in MindSpore's fused kernel, the gradient of ``loss`` to
    ``logits`` is that second output times the loss's cotangent, ``labels`` get none, and the second
    output itself has no gradient.
    """

    def __call__(self, logits, labels):
        loss = run("softmax_cross_entropy", logits, labels, axis=-1)
        return loss, run("stop_gradient", run("sub", run("softmax", logits, axis=-1), labels))


# ---------------------------------------------------------------- parameters


class Assign(_Stateless):
    """``Assign()(variable, value)``: write ``value`` into the Parameter in place; returns it."""

    def __call__(self, variable, value):
        return eager.assign(variable, value)


class AssignAdd(_Stateless):
    """``AssignAdd()(variable, value)``: ``variable += value`` in place; returns it."""

    def __call__(self, variable, value):
        return eager.assign(variable, run("add", variable, value))


class AssignSub(_Stateless):
    """``AssignSub()(variable, value)``: ``variable -= value`` in place; returns it."""

    def __call__(self, variable, value):
        return eager.assign(variable, run("sub", variable, value))


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Mark ``fn`` as computed on constants (MindSpore's ``ops.constexpr``): npspore calls it as Python,
    eagerly, and compiled code evaluates it on its static arguments while it specializes. Usable bare
    (``@constexpr``) or with arguments (``@constexpr(reuse_result=False)``); the arguments only select
    how MindSpore caches the result.

    Returns:
        the function itself, or a decorator returning it when ``fn`` is None.
    """
    if fn is None:
        return lambda func: func
    return fn


# MindSpore's ops.primitive helpers for user-written primitive classes
_primexpr = constexpr   # MindSpore's private spelling of a constexpr-like decorator, same options


def prim_attr_register(fn):
    """Decorate a Primitive subclass's ``__init__``: the primitive is initialized with its class name, then every
    argument of ``__init__`` (defaults included) becomes an attribute (``self.attrs``) before ``fn`` runs, as
    MindSpore's ``ops.prim_attr_register``."""
    import functools
    import inspect

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        Primitive.__init__(self, getattr(type(self), "substitute_name", type(self).__name__))
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            self.add_prim_attr(name, value)
            setattr(self, name, value)
        fn(self, *args, **kwargs)
    return deco
