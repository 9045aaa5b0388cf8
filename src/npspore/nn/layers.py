"""Basic layers: ``Dense``, activations, ``Flatten``, ``Dropout``, ``MatMul``, ``Identity``.

Every ``construct`` here is in the compilable subset (static Python over shapes and ``self``
attributes, tensor work through ``run`` and Tensor methods), so the compiler steps into it.
"""
from __future__ import annotations

import functools
import math
from typing import Any

from npspore.common import dtype as mstype
from npspore.common.initializer import HeUniform, Uniform, initializer
from npspore.common.parameter import Parameter
from npspore.common.kernel_random import new_kernel
from npspore.common.seed import _get_graph_seed
from npspore.common.tensor import Tensor
from npspore.core.logs import warn
from npspore.nn.cell import Cell
from npspore.ops import functional as F, primitives as P
from npspore.ops.attention import linear
from npspore.ops.eager import run

__all__ = [
    "Dense", "ReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "Flatten", "Dropout", "MatMul",
    "Identity", "OneHot", "Norm", "ClipByNorm", "get_activation",
    "Tril", "Triu", "Linear",
]


def _check_int(value, arg_name, cls_name):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the type of '{arg_name}' must be int, but got {type(value).__name__}.")
    return value


def _check_positive_int(value, arg_name, cls_name):
    if _check_int(value, arg_name, cls_name) <= 0:
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be a positive int, but got {value}.")
    return value


def _check_bool(value, arg_name, cls_name):
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the type of '{arg_name}' must be bool, but got {type(value).__name__}.")
    return value


# ---------------------------------------------------------------- activations


class ReLU(Cell):
    r"""Rectified linear unit: :math:`\max(x, 0)` elementwise.

    Inputs:
        - **x** (Tensor) - any shape.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def construct(self, x: Tensor) -> Tensor:
        return run("relu", x)


class Sigmoid(Cell):
    r"""Sigmoid: :math:`1 / (1 + e^{-x})` elementwise.

    Inputs:
        - **input_x** (Tensor) - any shape, floating point.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def construct(self, input_x: Tensor) -> Tensor:
        return run("sigmoid", input_x)


class Tanh(Cell):
    r"""Hyperbolic tangent elementwise.

    Inputs:
        - **x** (Tensor) - any shape, floating point.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def construct(self, x: Tensor) -> Tensor:
        return run("tanh", x)


class GELU(Cell):
    r"""Gaussian error linear unit.

    With ``approximate=True`` it is
    :math:`0.5x(1 + \tanh(\sqrt{2/\pi}(x + 0.044715x^3)))`, otherwise the exact
    :math:`0.5x(1 + \operatorname{erf}(x/\sqrt{2}))`.

    Args:
        approximate (bool): whether to use the tanh approximation. Default: ``True``.

    Inputs:
        - **x** (Tensor) - any shape, floating point.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        self.approximate = _check_bool(approximate, "approximate", "GELU")

    def construct(self, x: Tensor) -> Tensor:
        return run("gelu", x, approximate=self.approximate)


class _AxisActivation(Cell):
    """An activation computed along one axis, kept as ``self.axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis


class Softmax(_AxisActivation):
    r"""Softmax along `axis`: :math:`e^{x_i} / \sum_j e^{x_j}`.

    Args:
        axis (Union[int, tuple[int]]): the axis. Default: ``-1``.

    Inputs:
        - **x** (Tensor) - floating point.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def construct(self, x: Tensor) -> Tensor:
        return run("softmax", x, axis=self.axis)


class LogSoftmax(_AxisActivation):
    r"""Log of the softmax along `axis`: :math:`x_i - \log\sum_j e^{x_j}`.

    Args:
        axis (int): the axis. Default: ``-1``.

    Inputs:
        - **x** (Tensor) - floating point.

    Outputs:
        Tensor of the same shape and dtype.
    """

    def construct(self, x: Tensor) -> Tensor:
        return run("log_softmax", x, axis=self.axis)


_ACTIVATIONS = {
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
    "relu": ReLU,
    "tanh": Tanh,
    "gelu": GELU,
    "sigmoid": Sigmoid,
}


def get_activation(name, prim_name=None):
    """The activation Cell named `name`.

    Known names: MindSpore 2.10's (``'relu'``, ``'relu6'``, ``'leakyrelu'``, ``'hswish'``, ``'gelu'``, ``'softmax'``...;
    the table is ``nn.activation._activation``), but ``'rrelu'``, ``'logsoftmaxExt'`` and ``'preluExt'``.

    Args:
        name (str): the name, or None.
        prim_name (str): the caller, for error messages. Default: ``None``.

    Returns:
        Cell, a new activation; None if `name` is None.

    Raises:
        TypeError: If `name` is not a str.
        KeyError: If `name` is not a known activation.
    """
    msg_prefix = f"For '{prim_name}', the" if prim_name else "The"
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"{msg_prefix} 'name' must be str, but got {type(name).__name__}.")
    if name not in _ACTIVATIONS:
        raise KeyError(f"{msg_prefix} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()


# ---------------------------------------------------------------- layers


class Dense(Cell):
    r"""Fully connected layer: :math:`\text{activation}(X W^T + b)` on the last axis of the input.

    Args:
        in_channels (int): the size of the input's last axis.
        out_channels (int): the size of the output's last axis.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): the initial weight, of shape
            (out_channels, in_channels). Default: ``None``, HeUniform(sqrt(5)).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): the initial bias, of shape
            (out_channels,). Default: ``None``, Uniform(1/sqrt(in_channels)).
        has_bias (bool): whether to add a bias. Default: ``True``.
        activation (Union[str, Cell, Primitive, None]): applied to the output, by name (``'relu'``)
            or as a Cell. Default: ``None``.
        dtype (mindspore.dtype): the dtype of the parameters (a Tensor init keeps its own).
            Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - shape :math:`(*, in\_channels)`.

    Outputs:
        Tensor of shape :math:`(*, out\_channels)`.

    Raises:
        TypeError: If `in_channels` or `out_channels` is not an int, `has_bias` is not a bool, or
            `activation` is not a str, Cell, Primitive or None.
        ValueError: If `in_channels` or `out_channels` is not positive, or a Tensor `weight_init` /
            `bias_init` has the wrong shape.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = None, bias_init: Any = None,
                 has_bias: bool = True, activation: str | Cell | P.Primitive | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.in_channels = _check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = _check_positive_int(out_channels, "out_channels", self.cls_name)
        self.has_bias = _check_bool(has_bias, "has_bias", self.cls_name)
        if isinstance(weight_init, Tensor) and weight_init.shape != (out_channels, in_channels):
            raise ValueError(f"For '{self.cls_name}', weight init shape error. The ndim of 'weight_init' must be "
                             f"equal to 2, and the first dim must be equal to 'out_channels', and the second dim "
                             f"must be equal to 'in_channels'. But got 'weight_init': {weight_init}, "
                             f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if isinstance(bias_init, Tensor) and has_bias and bias_init.shape != (out_channels,):
            raise ValueError(f"For '{self.cls_name}', bias init shape error. The ndim of 'bias_init' must be equal "
                             f"to 1, and the first dim must be equal to 'out_channels'. But got 'bias_init': "
                             f"{bias_init}, 'out_channels': {out_channels}.")
        activation_cell = get_activation(activation, self.cls_name) if isinstance(activation, str) else activation
        if activation_cell is not None and not isinstance(activation_cell, (Cell, P.Primitive)):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell or Primitive, but got "
                            f"{type(activation).__name__}.")

        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
        self.matmul = P.MatMul(transpose_b=True)
        self.activation = activation_cell
        self.activation_flag = activation_cell is not None

    def construct(self, x: Tensor) -> Tensor:
        x_shape = x.shape
        if sum(d < 0 for d in x_shape[:-1]) > 1:   # several dims compiled code knows only when it runs (read -1)
            x = linear(x, self.weight, self.bias if self.has_bias else None)
            return self.activation(x) if self.activation_flag else x
        if len(x_shape) != 2:
            x = x.reshape((-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = x + self.bias
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = x.reshape(x_shape[:-1] + (self.out_channels,))
        return x

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Linear(Dense):
    """``x @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)`` (MindSpore 2.10's
    ``nn.Linear``, the object ``mint.nn.Linear`` too): :class:`Dense` with PyTorch-style arguments."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = None) -> None:
        super().__init__(in_features, out_features, weight_init, bias_init, has_bias=bias,
                         dtype=mstype.float32 if dtype is None else dtype)

    def extend_repr(self) -> str:
        return f"input_features={self.in_channels}, output_features={self.out_channels}" + (
            ", has_bias=True" if self.has_bias else "")


@functools.cache
def _warn_norm_deprecated() -> None:
    """MindSpore's deprecation warning for ``nn.Norm``, once per process as MindSpore logs it."""
    warn("npspore", "'Norm' is deprecated from version 2.0 and will be removed in a future version, "
         "use 'ops.norm' instead.")


class Norm(Cell):
    r"""The Euclidean norm over ``axis``: :math:`\sqrt{\sum x^2}` (MindSpore 2.x deprecates it for ``ops.norm``).

    Args:
        axis (Union[tuple, int]): the axes to reduce; ``()``, all of them. Default: ``()``.
        keep_dims (bool): keep the reduced axes (size 1); otherwise the size-1 axes in ``axis`` (with
            ``axis=()``: every size-1 axis) are squeezed, as MindSpore's ``Squeeze(axis)`` does. Default: ``False``.

    Raises:
        TypeError: if ``axis`` is not an int or a tuple of ints.
    """

    def __init__(self, axis: int | tuple[int, ...] = (), keep_dims: bool = False) -> None:
        super().__init__()
        _warn_norm_deprecated()
        if not isinstance(axis, (int, tuple, list)) or isinstance(axis, bool) or (
                not isinstance(axis, int) and not all(isinstance(a, int) for a in axis)):
            raise TypeError(f"For 'Squeeze', the type of 'axis' should be one of '[list of int, int, tuple of int]', "
                            f"but got {type(axis)}.")
        self.axis = axis
        self.keep_dims = _check_bool(keep_dims, "keep_dims", self.cls_name)
        self.reduce_sum = P.ReduceSum(True)
        self.sqrt = P.Sqrt()
        self.squeeze = P.Squeeze(axis)

    def construct(self, x):
        x = self.sqrt(self.reduce_sum(x * x, self.axis))
        if not self.keep_dims:
            x = self.squeeze(x)
        return x


class Flatten(Cell):
    """Merge the dims `start_dim` .. `end_dim` of the input into one.

    Args:
        start_dim (int): the first dim to merge. Default: ``1`` (keep the batch dim).
        end_dim (int): the last dim to merge. Default: ``-1``.

    Inputs:
        - **x** (Tensor) - at least `start_dim` + 1 dims.

    Outputs:
        Tensor, e.g. shape :math:`(N, C \\times H \\times W)` for :math:`(N, C, H, W)` by default.

    Raises:
        TypeError: If `start_dim` or `end_dim` is not an int.
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = _check_int(start_dim, "start_dim", "Flatten")
        self.end_dim = _check_int(end_dim, "end_dim", "Flatten")

    def construct(self, x: Tensor) -> Tensor:
        return x.flatten(start_dim=self.start_dim, end_dim=self.end_dim)


class OneHot(Cell):
    """One-hot vectors of int indices: ``on_value`` where a position along a new ``axis`` of size ``depth``
    is the index, ``off_value`` elsewhere, as ``dtype``.

    Args:
        axis (int): where the new dim goes. Default: ``-1``.
        depth (int): its size. Default: ``1``.
        on_value (float): the value at each index. Default: ``1.0``.
        off_value (float): the value elsewhere. Default: ``0.0``.
        dtype (mindspore.dtype): the output's dtype. Default: ``mindspore.float32``.

    Raises:
        TypeError: if ``depth`` or ``axis`` is not an int.
        ValueError: if ``depth`` is not positive.
    """

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0, off_value: float = 0.0,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.axis = _check_int(axis, "axis", "OneHot")
        self.depth = _check_positive_int(depth, "depth", "OneHot")
        self.on_value = Tensor(on_value, dtype)
        self.off_value = Tensor(off_value, dtype)

    def construct(self, indices: Tensor) -> Tensor:
        return P.OneHot(self.axis)(indices, self.depth, self.on_value, self.off_value)


class Dropout(Cell):
    r"""Dropout: in training mode, zero each element with probability `p` and scale the rest by :math:`1/(1-p)`.

    In inference mode (the default; see ``set_train``) it returns its input unchanged. In training mode it draws
    MindSpore's masks: its ``Dropout`` primitive's seeds are ``_get_graph_seed(0, 'dropout')``, taken when the cell
    is made, and each call, eager or compiled, continues that primitive's engine.

    Args:
        keep_prob (float): the probability of keeping an element, in (0, 1]. Deprecated, use `p`.
            Default: ``None``.
        p (Union[float, int]): the probability of dropping an element, in [0, 1). Default: ``None``,
            meaning 0.5.

    Inputs:
        - **x** (Tensor) - floating point.

    Outputs:
        Tensor of the same shape and dtype.

    Raises:
        TypeError: If `keep_prob` is not a float or `p` is not a float or int.
        ValueError: If `keep_prob` is not in (0, 1] or `p` is not in [0, 1).
    """

    def __init__(self, keep_prob: float | None = None, p: float | None = None) -> None:
        super().__init__()
        if keep_prob is not None:
            if not isinstance(keep_prob, float):
                raise TypeError(f"For 'Dropout', the type of 'keep_prob' must be float, but got "
                                f"{type(keep_prob).__name__}.")
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got "
                                 f"{keep_prob}.")
            self.keep_prob = keep_prob
        elif p is not None:
            if not isinstance(p, (float, int)) or isinstance(p, bool):
                raise TypeError(f"For 'Dropout', the type of 'p' must be float or int, but got {type(p).__name__}.")
            if p < 0 or p >= 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but got {p}.")
            self.keep_prob = 1.0 - p
        else:
            self.keep_prob = 0.5
        self.p = p
        self.seeds = new_kernel("Dropout", _get_graph_seed(0, "dropout"))   # its primitive's, as MindSpore's

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.keep_prob == 1.0:
            return x
        mask = run("dropout_mask", shape=x.shape, keep_prob=self.keep_prob, dtype=mstype.dtype_to_nptype(x.dtype),
                   seeds=self.seeds)
        return x * mask

    def extend_repr(self):
        if self.p is not None:
            return f"p={self.p}"
        return f"keep_prob={self.keep_prob}"


class MatMul(Cell):
    r"""Matrix product of two Tensors, NumPy ``matmul`` style: 1-D operands are vectors, extra leading dims broadcast.

    Deprecated in MindSpore in favour of ``ops.matmul``.

    Args:
        transpose_x1 (bool): whether to transpose the last two dims of `x1` first. Default: ``False``.
        transpose_x2 (bool): whether to transpose the last two dims of `x2` first. Default: ``False``.

    Inputs:
        - **x1** (Tensor) - shape :math:`(*B, N, C)` (or :math:`(C,)`).
        - **x2** (Tensor) - shape :math:`(*B, C, M)` (or :math:`(C,)`).

    Outputs:
        Tensor of shape :math:`(*B, N, M)`; a 0-d Tensor for two 1-D inputs.

    Raises:
        TypeError: If `transpose_x1` or `transpose_x2` is not a bool.
    """

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = _check_bool(transpose_x1, "transpose_x1", "MatMul")
        self.transpose_x2 = _check_bool(transpose_x2, "transpose_x2", "MatMul")

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        return run("matmul", x1, x2, transpose_a=self.transpose_x1, transpose_b=self.transpose_x2)


class Identity(Cell):
    """Return the input unchanged.

    Inputs:
        - **x** (Any) - the input.

    Outputs:
        The same object.
    """

    def construct(self, x: Tensor) -> Tensor:
        return x


class ClipByNorm(Cell):
    r"""Clips a Tensor to a maximum L2 norm: :math:`x \cdot clip\_norm / \max(\|x\|_2, clip\_norm)`, the norm
    taken over ``axis`` (all axes by default); a zero norm leaves ``x`` unchanged.

    Args:
        axis (Union[None, int, tuple(int), list(int)]): the axes of the norm. Default: ``None`` (all).

    Inputs:
        - **x** (Tensor) - a float Tensor.
        - **clip_norm** (Tensor) - the maximum norm, a positive scalar or a Tensor broadcastable to ``x``.

    Outputs:
        Tensor of ``x``'s shape and dtype.

    Raises:
        TypeError: If ``axis`` is not None, an int or a tuple/list of ints.
    """

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)) or isinstance(axis, bool):
            raise TypeError(f"For 'ClipByNorm', the type of 'axis' must be one of [None, int, tuple, list], but got "
                            f"{type(axis).__name__}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis

    def construct(self, x: Tensor, clip_norm: Tensor) -> Tensor:
        squares = F.sum(x * x, self.axis, keepdim=True)
        positive = squares > 0
        norm = F.where(positive, F.sqrt(F.where(positive, squares, F.ones_like(squares))), squares)
        return x * clip_norm.astype(x.dtype) / F.maximum(norm, clip_norm.astype(x.dtype))


class _Triangle(Cell):
    """Keeps a triangle of the last two dims, zeroing the rest (``k`` shifts the diagonal up): the elements whose
    column minus row is at most ``k`` (``upper`` False) or at least ``k``."""

    upper = False

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        if len(x.shape) < 2:
            raise ValueError(f"For '{self.cls_name}', the input must have at least 2 dims, but got shape {x.shape}.")
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"For '{self.cls_name}', the 'k' must be an int, but got {k!r}.")
        rows, cols = x.shape[-2:]
        mask = Tensor([[1.0 if (j - i >= k if self.upper else j - i <= k) else 0.0 for j in range(cols)]
                       for i in range(rows)], mstype.float32)
        return (x.astype(mstype.float32) * mask).astype(x.dtype)


class Tril(_Triangle):
    """The lower triangle of the last two dims of `x` (``nn.Tril()(x, k=0)``), from diagonal `k` down."""


class Triu(_Triangle):
    """The upper triangle of the last two dims of `x` (``nn.Triu()(x, k=0)``), from diagonal `k` up."""

    upper = True


# MindSpore 1.x kept this check in nn.layer.basic (this module); models call it in construct
def check_dense_input_shape(x, prim_name=None):
    """MindSpore 1.x's check (in ``nn.layer.basic``) that an input shape ``x`` of a dense layer has at least two dims.

    Raises:
        ValueError: ``The dimension of 'x' should not be less than 2, but got 1.`` (``For 'P', the ...`` with
            ``prim_name``).
    """
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    if len(x) < 2:
        raise ValueError(f"{prefix} dimension of 'x' should not be less than 2, but got {len(x)}.")
