"""Layers of ``mindspore.nn`` from the tail of the 2.10 usage list, each a composition of existing ops (so
compiled and differentiable as those are): ``CELU``, ``InstanceNorm1d``, ``InstanceNorm3d``, ``Dropout3d``,
``EmbeddingLookup``, ``BiDense``, ``CTCLoss``, ``Tanhshrink``, ``SoftShrink``, ``HShrink``,
``Softmax2d``, ``ParameterUpdate`` and the micro-batch wrappers ``PipelineCell`` and ``MicroBatchInterleaved``
(which, on one process, run the network on each slice of the batch and add the results, as MindSpore's do)."""
from __future__ import annotations

import math
from typing import Any

from npspore._checkparam import check_value_type
from npspore.common import dtype as mstype
from npspore.common.initializer import Uniform, initializer
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.normalization import InstanceNorm2d
from npspore.nn.pooling import Dropout2d
from npspore.ops import functional as F
from npspore.ops import nn_functional as NF
from npspore.ops.activation_ops import celu, hardshrink, softshrink
from npspore.ops.array_functional import positions
from npspore.ops.ctc import _FLOOR, _log_likelihood

__all__ = ["CELU", "InstanceNorm1d", "InstanceNorm3d", "Dropout3d", "EmbeddingLookup", "BiDense", "PipelineCell",
           "MicroBatchInterleaved", "CTCLoss", "Tanhshrink", "SoftShrink", "HShrink", "Softmax2d", "ParameterUpdate"]


class CELU(Cell):
    r""":math:`\max(0, x) + \min(0, \alpha (e^{x / \alpha} - 1))` elementwise.

    Args:
        alpha (float): :math:`\alpha`. Default: ``1.0``.

    Raises:
        TypeError: If `alpha` is not a float. ValueError: If it is 0 (when the layer runs, as MindSpore's).
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        return celu(x, self.alpha)


class _InstanceNormNd(InstanceNorm2d):
    """Instance normalization of inputs of ``_RANK`` dims: each channel of each sample over its other dims."""

    _RANK = 4

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) != self._RANK:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have {self._RANK} dims, but got "
                             f"{len(x.shape)}.")
        return NF.instance_norm(x, self.gamma, self.beta, self.eps)


class InstanceNorm1d(_InstanceNormNd):
    r"""Instance normalization of :math:`(N, C, L)` inputs (the arguments of :class:`InstanceNorm2d`)."""

    _RANK = 3


class InstanceNorm3d(_InstanceNormNd):
    r"""Instance normalization of :math:`(N, C, D, H, W)` inputs (the arguments of :class:`InstanceNorm2d`)."""

    _RANK = 5


class Dropout3d(Dropout2d):
    r"""In training mode, zero each channel of a :math:`(N, C, D, H, W)` input with probability `p` and scale the
    rest by :math:`1 / (1 - p)`; in inference mode, the identity (:class:`Dropout2d`'s channels, of 3-D data).

    Args:
        p (float): the probability of dropping a channel, in [0, 1]. Default: ``0.5``.

    Raises:
        ValueError: If `p` is not in [0, 1].
    """


class EmbeddingLookup(Cell):
    r"""A lookup table: row ``indices[i]`` of ``embedding_table`` for each index (zeros for an index outside
    ``[0, vocab_size)``, as MindSpore's CPU lookup), each row clipped to the norm `max_norm` when given.

    Args:
        vocab_size (int), embedding_size (int): the table's shape, positive.
        param_init (Union[Tensor, str, Initializer, numbers.Number]): the initial table. Default: ``'normal'``.
        target (str): ``'CPU'`` or ``'DEVICE'`` (the same lookup here). Default: ``'CPU'``.
        slice_mode, manual_shapes: how a parallel run splits the table (one process here: unused).
        max_norm (Union[float, None]): the largest norm of a looked-up row. Default: ``None``.
        sparse (bool): must be True for ``target='CPU'``. Default: ``True``.
        dtype (mindspore.dtype): the table's dtype. Default: ``mstype.float32``.
    """

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        check_value_type("sparse", sparse, [bool], self.cls_name)
        for name, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            check_value_type(name, value, [int], self.cls_name)
            if value <= 0:
                raise ValueError(f"For '{self.cls_name}', the '{name}' must be a positive int, but got {value}.")
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For '{self.cls_name}', the 'target' must be in ['CPU', 'DEVICE'], but got {target}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For '{self.cls_name}', 'sparse' must be True when 'target' is \"CPU\", but got "
                             f"'sparse': {sparse} and 'target': {target}")
        if max_norm is not None:
            check_value_type("max_norm", max_norm, [float], self.cls_name)
            if max_norm <= 0:
                raise ValueError(f"For '{self.cls_name}', the 'max_norm' must be a positive float, but got "
                                 f"{max_norm}.")
        self.vocab_size, self.embedding_size, self.target, self.sparse = vocab_size, embedding_size, target, sparse
        self.slice_mode, self.manual_shapes, self.max_norm = slice_mode, manual_shapes, max_norm
        self.embedding_table = Parameter(initializer(param_init, [vocab_size, embedding_size], dtype=dtype),
                                         name="embedding_table")

    def construct(self, indices: Tensor) -> Tensor:
        inside = F.logical_and(F.greater_equal(indices, 0), F.less(indices, self.vocab_size))
        rows = F.gather(self.embedding_table, F.select(inside, indices, F.zeros_like(indices)), 0)
        out = rows * F.expand_dims(F.cast(inside, rows.dtype), -1)
        if self.max_norm is None:
            return out
        norm = F.sqrt(F.reduce_sum(out * out, -1, keep_dims=True))
        return out * (self.max_norm / F.maximum(norm, self.max_norm))


class BiDense(Cell):
    r"""The bilinear map :math:`y_o = x_1^T A_o x_2 + b_o` of two inputs (the same leading dims, last dims
    `in1_channels` and `in2_channels`) with the weight :math:`A` of shape ``(out, in1, in2)``.

    Args:
        in1_channels, in2_channels, out_channels (int): the dims.
        weight_init, bias_init: the initial values; default ``Uniform(1 / sqrt(in1_channels))`` each.
        has_bias (bool): whether to add the bias. Default: ``True``.
        dtype (mindspore.dtype): the parameters' dtype. Default: ``mstype.float32``.
    """

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        for name, value in (("in1_channels", in1_channels), ("in2_channels", in2_channels),
                            ("out_channels", out_channels)):
            check_value_type(name, value, [int], self.cls_name)
            if value <= 0:
                raise ValueError(f"For '{self.cls_name}', the '{name}' must be a positive int, but got {value}.")
        check_value_type("has_bias", has_bias, [bool], self.cls_name)
        self.in1_channels, self.in2_channels, self.out_channels = in1_channels, in2_channels, out_channels
        self.has_bias = has_bias
        bound = 1 / math.sqrt(in1_channels)
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init,
                                            (out_channels, in1_channels, in2_channels), dtype=dtype), "weight")
        if has_bias:
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init, [out_channels],
                                              dtype=dtype), name="bias")

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        if input1.shape[-1] != self.in1_channels or input2.shape[-1] != self.in2_channels:
            raise ValueError(f"For '{self.cls_name}', the last dims of 'input1' and 'input2' must be "
                             f"{self.in1_channels} and {self.in2_channels}, but got {input1.shape} and "
                             f"{input2.shape}.")
        if input1.shape[:-1] != input2.shape[:-1]:
            raise ValueError(f"For '{self.cls_name}', 'input1' and 'input2' must have the same leading dims, but "
                             f"got {input1.shape} and {input2.shape}.")
        lead = input1.shape[:-1]
        x1 = F.reshape(input1, (-1, self.in1_channels))
        x2 = F.reshape(input2, (-1, self.in2_channels))
        table = F.reshape(F.transpose(self.weight, (1, 2, 0)), (self.in1_channels, -1))
        mixed = F.reshape(F.matmul(x1, table), (-1, self.in2_channels, self.out_channels))
        out = F.reduce_sum(mixed * F.expand_dims(x2, -1), 1)
        if self.has_bias:
            out = out + self.bias
        return F.reshape(out, lead + (self.out_channels,))


def _micro_batches(inputs: tuple, count: int, name: str) -> tuple:
    """The ``count`` micro-batches of ``inputs``: each a tuple holding one of ``count`` equal slices of the first
    dim of every input."""
    for each in inputs:
        if each.shape[0] % count:
            raise ValueError(f"For '{name}', the first dim of each input ({each.shape[0]}) must be divisible by "
                             f"{count}.")
    return tuple(zip(*[F.split(each, each.shape[0] // count, 0) for each in inputs]))


def _check_count(value: Any, name: str, owner: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{owner}', the argument '{name}' must be integer, but got the type : {type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the argument '{name}' must be large than 0, but got {value}.")
    return value


class PipelineCell(Cell):
    """``network`` run on each of `micro_size` equal slices of the batch (the first dim of every input), the
    outputs added: MindSpore's pipeline-parallel wrapper, on one process.

    Args:
        network (Cell): the network.
        micro_size (int): the micro-batches, positive.
        stage_config (dict): cell name -> pipeline stage, set as the cells' ``pipeline_stage``. Default: ``None``.
        segment_config (dict): cell name -> segment, set as the cells' ``pipeline_segment``. Default: ``None``.

    Raises:
        TypeError: If `network` is not a Cell or `micro_size` not an int. ValueError: If `micro_size` is not
            positive. KeyError: If a configured cell name is not in `network`.
    """

    def __init__(self, network: Cell, micro_size: int, stage_config: dict | None = None,
                 segment_config: dict | None = None) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'PipelineCell', the argument 'network' must cell type, but got the type : "
                            f"{type(network)}.")
        self.micro_size = _check_count(micro_size, "micro_size", "PipelineCell")
        self.network = network
        for attribute, config in (("pipeline_stage", stage_config), ("pipeline_segment", segment_config)):
            self._configure(attribute, config or {})

    def _configure(self, attribute: str, config: dict) -> None:
        cells = dict(self.network.cells_and_names())
        unknown = {name: value for name, value in config.items() if name not in cells or not name}
        if unknown:
            raise KeyError(f"For 'PipelineCell', the argument '{attribute.replace('pipeline_', '')}_config' : "
                           f"{unknown} is not found in 'network' : {self.network}")
        for name, value in config.items():
            setattr(cells[name], attribute, value)

    def construct(self, *inputs):
        outputs = [self.network(*batch) for batch in _micro_batches(inputs, self.micro_size, "PipelineCell")]
        return sum(outputs[1:], outputs[0])


class MicroBatchInterleaved(Cell):
    """``network`` run on each of `interleave_num` equal slices of the batch (the first dim of every input), the
    outputs added, as MindSpore's.

    Args:
        network (Cell): the network.
        interleave_num (int): the slices, positive. Default: ``2``.

    Raises:
        TypeError: If `interleave_num` is not an int. ValueError: If it is not positive.
    """

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        self.interleave_num = _check_count(interleave_num, "interleave_num", "MicroBatchInterleaved")
        self.network = network

    def construct(self, *inputs):
        batches = _micro_batches(inputs, self.interleave_num, "MicroBatchInterleaved")
        return sum([self.network(*batch) for batch in batches], 0.0)


def _ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor, blank: int = 0,
               reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The CTC loss (MindSpore's ``CTCLossV2``) of the log-probabilities ``log_probs`` (``(T, N, C)``, or ``(T, C)`` for one sequence; used as
    given, no softmax) for the padded ``targets`` (``(N, S)``), of which the first ``target_lengths`` count, over
    the first ``input_lengths`` steps: ``-log p(target)``, infinite where no alignment exists (0 with
    ``zero_infinity``); ``'mean'`` divides each by its target length (at least 1) before averaging.

    Raises:
        ValueError: if ``reduction`` is not 'none', 'mean' or 'sum'.
    """
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For 'CTCLoss', 'reduction' must be in ['none', 'mean', 'sum'], but got {reduction}.")
    check_value_type("blank", blank, [int], "CTCLoss")
    single = len(log_probs.shape) == 2
    if single:
        log_probs, targets = F.expand_dims(log_probs, 1), F.reshape(targets, (1, -1))
        input_lengths, target_lengths = F.reshape(input_lengths, (1,)), F.reshape(target_lengths, (1,))
    input_lengths = F.cast(input_lengths, mstype.int32)
    target_lengths = F.cast(target_lengths, mstype.int32)
    likelihood = _log_likelihood(log_probs, F.cast(targets, mstype.int32), target_lengths, input_lengths, blank)
    steps = F.reshape(positions(log_probs, 0), (-1, 1))
    blanks = F.reduce_sum(F.where(F.less(steps, F.expand_dims(input_lengths, 0)), log_probs[:, :, blank], 0.0), 0)
    likelihood = F.where(F.equal(target_lengths, 0), blanks, likelihood)
    impossible = F.less_equal(likelihood, _FLOOR / 2)
    loss = F.where(impossible, 0.0 if zero_infinity else float("inf"), -likelihood)
    if single:
        loss = F.squeeze(loss, 0)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return F.reduce_sum(loss)
    per_label = loss / F.cast(F.maximum(target_lengths, 1), loss.dtype)
    return F.reduce_mean(F.squeeze(per_label, 0) if single else per_label)


class CTCLoss(Cell):
    """The CTC loss of ``(log_probs, targets, input_lengths, target_lengths)`` (see :func:`_ctc_loss`; with
    ``zero_infinity`` an impossible alignment's loss is 0 as MindSpore documents, where its 2.10 CPU kernel still
    gives inf).

    Args:
        blank (int): the blank label. Default: ``0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        zero_infinity (bool): losses of impossible alignments as 0. Default: ``False``.
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def construct(self, log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor) -> Tensor:
        return _ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)


class Tanhshrink(Cell):
    """``x - tanh(x)`` elementwise."""

    def construct(self, x: Tensor) -> Tensor:
        return x - F.tanh(x)


class _Shrink(Cell):
    """Zero the elements of magnitude at most `lambd` (``_SHRINK``: how the others change)."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def construct(self, input_x: Tensor) -> Tensor:
        return type(self)._SHRINK(input_x, self.lambd)


class SoftShrink(_Shrink):
    """``x - lambd`` above `lambd`, ``x + lambd`` below ``-lambd``, else 0.

    Args:
        lambd (float): the threshold, non-negative. Default: ``0.5``.
    """

    _SHRINK = softshrink


class HShrink(_Shrink):
    """``x`` where ``|x| > lambd``, else 0.

    Args:
        lambd (float): the threshold, non-negative. Default: ``0.5``.
    """

    _SHRINK = hardshrink


class Softmax2d(Cell):
    """The softmax over the channels (the third dim from the end) of a ``(C, H, W)`` or ``(N, C, H, W)`` input.

    Raises:
        ValueError: If the input is not 3-D or 4-D.
    """

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the in_shape must have 3 or 4 dims, but got {len(x.shape)}.")
        return F.softmax(x, -3)


class ParameterUpdate(Cell):
    """Assign its input to the Parameter `param` and return it (the input).

    Raises:
        TypeError: If `param` is not a Parameter (MindSpore's message).
    """

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x: Tensor) -> Tensor:
        F.assign(self._param, x)
        return x
