"""``mindspore.mint.nn``'s layers with MindSpore 2.10's PyTorch-style constructor arguments.

Each layer is npspore's ``nn`` layer built from ``mint``'s arguments (``Linear(in_features, out_features, bias)``
is ``nn.Dense(in_features, out_features, has_bias=bias)``; ``BatchNorm1d(momentum=0.1)`` is MindSpore's
``momentum=0.9``), or a small Cell calling :mod:`npspore.mint.nn.functional`, so it trains, compiles and saves
as those do.
"""
from __future__ import annotations

from typing import Any

from ... import nn
from ...common import dtype as mstype
from ...common.initializer import Normal, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops import functional as F
from . import functional as MF

__all__ = ["Linear", "Conv2d", "Conv3d", "Embedding", "AvgPool2d", "MaxPool2d", "AdaptiveAvgPool2d", "GroupNorm",
           "LayerNorm", "BatchNorm1d", "BatchNorm2d", "Dropout", "Flatten", "Softmax", "GELU", "Tanh", "Sigmoid",
           "ReLU6", "SiLU", "Mish", "CrossEntropyLoss", "BCEWithLogitsLoss", "MSELoss", "L1Loss", "SmoothL1Loss",
           "NLLLoss"]

# the layers whose arguments are those of npspore's nn layer
Flatten, AdaptiveAvgPool2d, Tanh, Sigmoid, SiLU, Mish = (nn.Flatten, nn.AdaptiveAvgPool2d, nn.Tanh, nn.Sigmoid,
                                                         nn.SiLU, nn.Mish)
CrossEntropyLoss, MSELoss, L1Loss, NLLLoss = nn.CrossEntropyLoss, nn.MSELoss, nn.L1Loss, nn.NLLLoss
Linear = nn.Linear


def _conv_arguments(padding: Any, spatial: int, padding_mode: str, name: str) -> tuple[str, Any]:
    if padding_mode != "zeros":
        raise ValueError(f"For '{name}', npspore implements only padding_mode='zeros', but got {padding_mode!r}.")
    return MF._conv_padding(padding, spatial)


def _convolution(base: type, spatial: int, doc: str) -> type:
    """``base`` (npspore's ``nn.Conv2d``/``nn.Conv3d``) taking mint's arguments: ``padding`` an int, one per
    spatial dim, ``'same'`` or ``'valid'``; ``bias`` on by default; ``groups``."""

    class Convolution(base):
        __doc__ = doc

        def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                     dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                     dtype: Any = None) -> None:
            pad_mode, pads = _conv_arguments(padding, spatial, padding_mode, base.__name__)
            super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, pads, dilation, groups, bias,
                             dtype=mstype.float32 if dtype is None else dtype)

    Convolution.__name__ = Convolution.__qualname__ = base.__name__
    return Convolution


Conv2d = _convolution(nn.Conv2d, 2, "The 2-D convolution layer with mint's arguments (``padding`` an int, a pair, "
                                    "``'same'`` or ``'valid'``; ``bias`` on by default).")
Conv3d = _convolution(nn.Conv3d, 3, "The 3-D convolution layer with mint's arguments (``padding`` an int, a triple, "
                                    "``'same'`` or ``'valid'``; ``bias`` on by default).")


class Embedding(nn.Cell):
    """A lookup table ``weight`` of ``num_embeddings`` rows of ``embedding_dim`` (standard normal, as MindSpore
    2.10's ``Normal(1, 0)``; the row ``padding_idx`` zero and without gradient)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False,
                 dtype: Any = None) -> None:
        super().__init__()
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise ValueError("For 'Embedding', 'max_norm', 'scale_grad_by_freq' and 'sparse' are not implemented "
                             "in npspore.")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'Embedding', 'padding_idx' must be in [{-num_embeddings}, {num_embeddings}), "
                             f"but got {padding_idx}.")
        self.padding_idx = padding_idx
        table = _weight if _weight is not None else initializer(Normal(1.0, 0.0), (num_embeddings, embedding_dim),
                                                                mstype.float32 if dtype is None else dtype)
        table = table.init_data() if hasattr(table, "init_data") else table
        if padding_idx is not None and _weight is None:
            values = table.asnumpy().copy()
            values[padding_idx] = 0
            table = Tensor(values)
        self.weight = Parameter(table, name="weight", requires_grad=not _freeze)

    def construct(self, input: Tensor) -> Tensor:
        """The rows of ``weight`` at the ids ``input``."""
        return MF.embedding(input, self.weight, self.padding_idx)


class AvgPool2d(nn.Cell):
    """The mean of each window of the last two dims (``stride`` defaults to ``kernel_size``)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, input: Tensor) -> Tensor:
        """The pooled ``input``."""
        return MF.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             self.count_include_pad, self.divisor_override)


class MaxPool2d(nn.Cell):
    """The maximum of each window of the last two dims (``stride`` defaults to ``kernel_size``)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, input: Tensor) -> Any:
        """The pooled ``input`` (and the indices, with ``return_indices``)."""
        return MF.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                             self.return_indices)


def _affine_parameters(cell: nn.Cell, shape: tuple[int, ...], affine: bool, dtype: Any) -> None:
    """``cell.weight`` (ones) and ``cell.bias`` (zeros) of ``shape``, as mint's norm layers name them; None
    without ``affine``."""
    dtype = mstype.float32 if dtype is None else dtype
    cell.weight = Parameter(initializer("ones", shape, dtype), name="weight") if affine else None
    cell.bias = Parameter(initializer("zeros", shape, dtype), name="bias") if affine else None


class GroupNorm(nn.Cell):
    """Group normalization over ``num_groups`` groups of the ``num_channels`` channels (dim 1), with the
    per-channel ``weight`` and ``bias``."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05, affine: bool = True,
                 dtype: Any = None) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', 'num_channels' ({num_channels}) must be divisible by 'num_groups' "
                             f"({num_groups}).")
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        _affine_parameters(self, (num_channels,), affine, dtype)

    def construct(self, input: Tensor) -> Tensor:
        """``input`` normalized per group, scaled and shifted per channel."""
        return MF.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class LayerNorm(nn.Cell):
    """Layer normalization over the trailing ``normalized_shape`` dims, with elementwise ``weight`` and
    ``bias``."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-05, elementwise_affine: bool = True, bias: bool = True,
                 dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps = eps
        _affine_parameters(self, self.normalized_shape, elementwise_affine, dtype)
        if not bias:
            self.bias = None

    def construct(self, input: Tensor) -> Tensor:
        """``input`` normalized over its trailing dims, scaled and shifted."""
        return MF.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class _BatchNorm(nn.Cell):
    """Batch normalization over the channels (dim 1): the batch's statistics in training (the running ones
    updated by ``momentum``, PyTorch's convention: ``running = (1 - momentum) * running + momentum * batch``),
    the running ones otherwise (the batch's, without ``track_running_stats``)."""

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float = 0.1, affine: bool = True,
                 track_running_stats: bool = True, dtype: Any = None) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.track_running_stats = track_running_stats
        _affine_parameters(self, (num_features,), affine, dtype)
        statistics_dtype = mstype.float32 if dtype is None else dtype
        self.running_mean = Parameter(initializer("zeros", (num_features,), statistics_dtype), name="running_mean",
                                      requires_grad=False)
        self.running_var = Parameter(initializer("ones", (num_features,), statistics_dtype), name="running_var",
                                     requires_grad=False)
        self.num_batches_tracked = Parameter(Tensor(0, mstype.int64), name="num_batches_tracked",
                                             requires_grad=False)

    def construct(self, input: Tensor) -> Tensor:
        """``input`` normalized per channel, scaled and shifted."""
        batch_statistics = self.training or not self.track_running_stats
        if self.training and self.track_running_stats:
            F.assign_add(self.num_batches_tracked, Tensor(1, mstype.int64))
        return MF.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias, batch_statistics,
                             self.momentum, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of ``(N, C)`` or ``(N, C, L)`` input over its channels."""


class BatchNorm2d(_BatchNorm):
    """Batch normalization of ``(N, C, H, W)`` input over its channels."""


class Dropout(nn.Dropout):
    """Elements zeroed with probability ``p`` in training, the rest scaled by ``1 / (1 - p)``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__(p=p)


class Softmax(nn.Softmax):
    """``softmax`` over ``dim`` (the last when None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__(-1 if dim is None else dim)


class GELU(nn.GELU):
    """The Gaussian error linear unit (``approximate='tanh'``: its tanh form)."""

    def __init__(self, approximate: str = "none") -> None:
        if approximate not in ("none", "tanh"):
            raise ValueError(f"For 'GELU', 'approximate' must be 'none' or 'tanh', but got {approximate!r}.")
        super().__init__(approximate=approximate == "tanh")


class ReLU6(nn.ReLU6):
    """``min(max(x, 0), 6)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()


class BCEWithLogitsLoss(nn.BCEWithLogitsLoss):
    """Binary cross entropy of ``sigmoid(logits)``, with mint's argument order."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean", pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction, weight, pos_weight)


class SmoothL1Loss(nn.SmoothL1Loss):
    """Squared below ``beta``, absolute above, reduced (``'mean'`` by default, as mint's)."""

    def __init__(self, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(beta, reduction)
