"""Normalization layers: ``BatchNorm1d``, ``BatchNorm2d``, ``BatchNorm3d``, ``LayerNorm``, ``GroupNorm``,
``InstanceNorm2d``.

BatchNorm keeps its moving statistics as non-trainable Parameters (``moving_mean`` named ``mean``,
``moving_variance`` named ``variance``, so ``bn.moving_mean`` inside a network) and, in training
mode, updates them in place with ``ops.assign`` — eagerly and in compiled code alike.
"""
from __future__ import annotations

from typing import Any

from npspore.common import dtype as mstype
from npspore.common.initializer import initializer
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import _check_bool, _check_positive_int
from npspore.communication.management import GlobalComm, get_group_size
from npspore.ops import nn_functional as F
from npspore.ops.comm_ops import AllReduce, ReduceOp
from npspore.ops.functional import assign, rsqrt

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm2d"]


def _check_float_range(value, low, high, arg_name, cls_name):
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be a number in range [{low}, {high}], but got "
                         f"{value}.")
    return value


class _BatchNorm(Cell):
    """Batch normalization over the channel dim 1 (the layers differ only in the input rank)."""

    _ranks = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None, data_format: str = "NCHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.num_features = _check_positive_int(num_features, "num_features", self.cls_name)
        self.eps = eps
        self.momentum = _check_float_range(momentum, 0, 1, "momentum", self.cls_name)
        self.affine = _check_bool(affine, "affine", self.cls_name)
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}', npspore supports only data_format 'NCHW', but got {data_format}.")
        self.use_batch_statistics = use_batch_statistics
        shape = [num_features]
        self.moving_mean = Parameter(initializer(moving_mean_init, shape, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, shape, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, shape, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, shape, dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        if len(x.shape) not in self._ranks:
            raise ValueError(f"For '{self.cls_name}', the input must have one of {self._ranks} dims, "
                             f"but got shape {x.shape}.")
        batch_statistics = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        return F.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta, batch_statistics,
                            1.0 - self.momentum, self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class BatchNorm2d(_BatchNorm):
    r"""Batch normalization of :math:`(N, C, H, W)` inputs over :math:`N, H, W` for each channel.

    In training mode (``set_train()``) the batch's mean and (biased) variance normalize, and the
    moving statistics become ``momentum * moving + (1 - momentum) * batch`` (the variance
    unbiased); in inference mode the moving statistics normalize.

    Args:
        num_features (int): the channels :math:`C`.
        eps (float): added to the variance. Default: ``1e-5``.
        momentum (float): the weight of the old moving statistics, in [0, 1]. Default: ``0.9``.
        affine (bool): whether `gamma` and `beta` are trained. Default: ``True``.
        gamma_init, beta_init, moving_mean_init, moving_var_init (Union[Tensor, str, Initializer,
            numbers.Number]): initial values. Default: ``'ones'``, ``'zeros'``, ``'zeros'``, ``'ones'``.
        use_batch_statistics (bool): ``None`` follows the training mode; ``True``/``False`` force
            batch / moving statistics. Default: ``None``.
        data_format (str): only ``'NCHW'``.
        dtype (mindspore.dtype): the parameters' dtype. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of the same shape.

    Raises:
        ValueError: If `momentum` is not in [0, 1] or the input has another rank.
    """

    _ranks = (4,)


class BatchNorm1d(_BatchNorm):
    r"""Batch normalization of :math:`(N, C)` or :math:`(N, C, L)` inputs; args as :class:`BatchNorm2d`.

    Inputs:
        - **x** (Tensor) - :math:`(N, C)` or :math:`(N, C, L)`.

    Outputs:
        Tensor of the same shape.
    """

    _ranks = (2, 3)


class BatchNorm3d(Cell):
    r"""Batch normalization of :math:`(N, C, D, H, W)` inputs over :math:`N, D, H, W` for each channel: a
    :class:`BatchNorm2d` (attribute ``bn2d``, so the parameters are ``bn2d.moving_mean`` ... as in MindSpore) of
    the input seen as :math:`(N, C, D \cdot H, W)`. Arguments as :class:`BatchNorm2d`'s.

    Raises:
        ValueError: if the input does not have 5 dims.
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, dtype=dtype)

    def construct(self, x):
        if len(x.shape) != 5:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 5 dims, but got {len(x.shape)}.")
        n, c, d, h, w = x.shape
        return self.bn2d(x.reshape((n, c, d * h, w))).reshape((n, c, d, h, w))


class SyncBatchNorm(_BatchNorm):
    r"""Batch normalization whose batch statistics are those of the whole data-parallel batch: in training,
    the mean and variance of :math:`(N, C)` or :math:`(N, C, H, W)` inputs are averaged over every rank of
    the world group (``AllReduce``; each rank's batch the same size), so every rank normalizes with the
    statistics of all ranks' samples and updates the same moving statistics. On one process (before
    ``communication.init()``) it is :class:`BatchNorm2d`. Args as :class:`BatchNorm2d`, and:

    Args:
        process_groups (list): MindSpore's groups of ranks to synchronize; npspore synchronizes the world
            group only. Default: ``None``.

    Raises:
        ValueError: If the input is neither 2-D nor 4-D, or ``process_groups`` is given.
    """

    _ranks = (2, 4)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None, process_groups=None,
                 dtype: mstype.Type = mstype.float32) -> None:
        if process_groups is not None:
            raise ValueError("For 'SyncBatchNorm', npspore synchronizes the world group only: process_groups must "
                             "be None.")
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, dtype=dtype)
        self.average = AllReduce(ReduceOp.AVG, GlobalComm.WORLD_COMM_GROUP)

    def construct(self, x):
        if len(x.shape) not in self._ranks:
            raise ValueError(f"For 'SyncBatchNorm', the must have 2 dims or 4 dims, but got {len(x.shape)}.")
        ranks = get_group_size(GlobalComm.WORLD_COMM_GROUP)
        batch_statistics = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if not batch_statistics or ranks == 1:
            return super().construct(x)
        axes = (0,) + tuple(range(2, len(x.shape)))
        shape = (1, x.shape[1]) + (1,) * (len(x.shape) - 2)
        mean = self.average(x.mean(axes, keep_dims=True))
        variance = self.average((x * x).mean(axes, keep_dims=True)) - mean * mean
        count = ranks * x.size // x.shape[1]
        assign(self.moving_mean, self.moving_mean * self.momentum + mean.reshape((-1,)) * (1 - self.momentum))
        assign(self.moving_variance, self.moving_variance * self.momentum
                 + variance.reshape((-1,)) * (count / (count - 1) * (1 - self.momentum)))
        normalized = (x - mean) * rsqrt(variance + self.eps)
        return normalized * self.gamma.reshape(shape) + self.beta.reshape(shape)


class LayerNorm(Cell):
    r"""Layer normalization: normalize over the dims from `begin_norm_axis` on, then scale by `gamma`
    and shift by `beta` (of shape `normalized_shape`).

    Args:
        normalized_shape (Union[tuple[int], list[int]]): the shape of the normalized dims.
        begin_norm_axis (int): the first normalized dim. Default: ``-1``.
        begin_params_axis (int): the first dim `gamma`/`beta` apply to. Default: ``-1``.
        gamma_init, beta_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'ones'``, ``'zeros'``.
        epsilon (float): added to the variance. Default: ``1e-7``.
        dtype (mindspore.dtype): the parameters' dtype. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - its last dims are `normalized_shape`.

    Outputs:
        Tensor of the same shape.

    Raises:
        TypeError: If `normalized_shape` is not a tuple or list.
    """

    def __init__(self, normalized_shape: int | tuple[int, ...] | list[int], begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init: Any = "ones", beta_init: Any = "zeros", epsilon: float = 1e-7,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or list[int], but "
                            f"got {normalized_shape} and the type is {type(normalized_shape)}.")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype=dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype=dtype), name="beta")

    def construct(self, x: Tensor) -> Tensor:
        ndim = len(x.shape)
        begin = self.begin_norm_axis % ndim
        return F.layer_norm(x, x.shape[begin:], self.gamma, self.beta, self.epsilon)

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    r"""Group normalization: the channels of :math:`(N, C, ...)` inputs split into `num_groups` groups,
    each normalized over its channels and the other dims, then scaled and shifted per channel.

    Args:
        num_groups (int): the number of groups; `num_channels` must divide by it.
        num_channels (int): the channels :math:`C`.
        eps (float): added to the variance. Default: ``1e-5``.
        affine (bool): whether `gamma` and `beta` are trained. Default: ``True``.
        gamma_init, beta_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'ones'``, ``'zeros'``.
        dtype (mindspore.dtype): the parameters' dtype. Default: ``mstype.float32``.

    Raises:
        ValueError: If `num_channels` does not divide by `num_groups`.
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        self.num_groups = _check_positive_int(num_groups, "num_groups", "GroupNorm")
        self.num_channels = _check_positive_int(num_channels, "num_channels", "GroupNorm")
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        self.eps = eps
        self.affine = _check_bool(affine, "affine", "GroupNorm")
        self.gamma = Parameter(initializer(gamma_init, [num_channels], dtype=dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, [num_channels], dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        return F.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class InstanceNorm2d(Cell):
    r"""Instance normalization of :math:`(N, C, H, W)` inputs: each channel of each sample normalized
    over :math:`H, W`, then scaled and shifted per channel.

    Like MindSpore it owns moving statistics (``mean``, ``variance``, non-trainable), which the
    normalization does not use.

    Args:
        num_features (int): the channels :math:`C`.
        eps (float): added to the variance. Default: ``1e-5``.
        momentum (float): kept for MindSpore compatibility, in [0, 1]. Default: ``0.1``.
        affine (bool): whether `gamma` and `beta` are trained. Default: ``True``.
        gamma_init, beta_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'ones'``, ``'zeros'``.
        dtype (mindspore.dtype): the parameters' dtype. Default: ``mstype.float32``.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        self.num_features = _check_positive_int(num_features, "num_features", "InstanceNorm2d")
        self.eps = eps
        self.momentum = _check_float_range(momentum, 0, 1, "momentum", "InstanceNorm2d")
        self.moving_mean = Parameter(initializer("zeros", [num_features], dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", [num_features], dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, [num_features], dtype=dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, [num_features], dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) != 4:
            raise ValueError(f"For 'InstanceNorm2d', the input must be 4-D, but got shape {x.shape}.")
        return F.instance_norm(x, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")
