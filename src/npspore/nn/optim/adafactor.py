"""``nn.optim.AdaFactor``: adaptive learning rates with sublinear memory (Shazeer and Stern, "Adafactor: Adaptive
Learning Rates with Sublinear Memory Cost"), as MindSpore 2.10 computes it.

The second moment of a matrix's gradient is kept factored, as running means of its rows and of its columns
(``exp_avg_sq_row``, ``exp_avg_sq_col``), that of a vector whole (``exp_avg_sq``); the update is clipped to a root
mean square of ``clip_threshold``, scaled by the Parameter's own root mean square (``scale_parameter``), averaged
over steps when ``beta1`` > 0 (``exp_avg``), and, with ``relative_step``, the learning rate is
``min(1e-2, 1 / sqrt(step))`` (``min(1e-6 * step, ...)`` with ``warmup_init``). Values agree with MindSpore 2.10's
CPU kernel (``FusedAdaFactor``) to float32 rounding.
"""
from __future__ import annotations

from typing import Any

from npspore import ops
from npspore._checkparam import INC_LEFT, INC_NEITHER, check_float_range, check_non_negative_float, check_value_type
from npspore.common import dtype as mstype
from npspore.core.logs import mindspore_log
from npspore.common.initializer import initializer
from npspore.common.parameter import Parameter, ParameterTuple
from npspore.common.tensor import Tensor
from npspore.nn.optim.optimizer import Optimizer
from npspore.ops.adafactor_ops import adafactor_update
from npspore.jit import jit

__all__ = ["AdaFactor"]


class AdaFactor(Optimizer):
    """The Adafactor optimizer (see the module doc); MindSpore marks it experimental.

    Args:
        params (Union[list[Parameter], list[dict]]): the Parameters to update.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): a fixed rate, which needs
            ``relative_step=False``; ``None`` with ``relative_step``. A rate that is not a number is used as it is:
            neither ``relative_step`` nor ``scale_parameter`` applies (MindSpore logs that). Default: ``None``.
        eps (tuple[float, float]): added to the squared gradient, and the least Parameter scale.
            Default: ``(1e-30, 1e-3)``.
        clip_threshold (float): the greatest root mean square of an update. Default: ``1.0``.
        decay_rate (float): the second moments decay by ``1 - step ** -decay_rate``, in (0, 1). Default: ``0.8``.
        beta1 (float): the decay of the update's running mean; 0 keeps none. Default: ``0.9``.
        weight_decay (float): in [0, 1): each step also subtracts ``weight_decay * lr * param``. Default: ``0.0``.
        scale_parameter (bool): multiply the rate by ``max(eps[1], rms(param))``. Default: ``True``.
        relative_step (bool): the rate from the step count (see the module doc). Default: ``True``.
        warmup_init (bool): warm the relative rate up linearly. Default: ``False``.
        compression (bool): keep a vector's ``exp_avg_sq`` in float16. Default: ``False``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        ValueError: for a ``learning_rate`` with ``relative_step``, ``warmup_init`` without it, neither of the two,
            ``eps`` not of 2 values, or a value out of its range.
        TypeError: for a value of the wrong type (MindSpore's messages).
    """

    def __init__(self, params: Any, learning_rate: Any = None, eps: Any = (1e-30, 1e-3), clip_threshold: float = 1.0,
                 decay_rate: float = 0.8, beta1: float = 0.9, weight_decay: float = 0.0, scale_parameter: bool = True,
                 relative_step: bool = True, warmup_init: bool = False, compression: bool = False,
                 loss_scale: float = 1.0) -> None:
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        rate_is_number = isinstance(learning_rate, (float, int))
        if not rate_is_number and (relative_step or scale_parameter):
            mindspore_log().warning("When learning_rate is learning scheduler, it not support update learning rate!")
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = type(self).__name__
        check_value_type("eps", eps, [list, tuple], name)
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, value in enumerate(eps):
            check_value_type(f"eps{i}", value, [float], name)
            check_non_negative_float(value, f"eps{i}", name)
        check_value_type("clip_threshold", clip_threshold, [float], name)
        check_non_negative_float(clip_threshold, "clip_threshold", name)
        check_value_type("decay_rate", decay_rate, [float], name)
        check_float_range(decay_rate, 0, 1, INC_NEITHER, "decay_rate", name)
        check_float_range(weight_decay, 0, 1, INC_LEFT, "weight_decay", name)
        for flag, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                            ("compression", compression)):
            check_value_type(flag, value, [bool], name)
        check_value_type("beta1", beta1, [int, float], name)
        check_non_negative_float(float(beta1), "beta1", name)
        self.eps = tuple(Tensor(value, mstype.float32) for value in eps)
        self.clip_threshold = Tensor(clip_threshold, mstype.float32)
        self.decay_rate = Tensor(-decay_rate, mstype.float32)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.weight_decay = Tensor(weight_decay, mstype.float32)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_lr = rate_is_number
        self.scale_parameter = scale_parameter and rate_is_number
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self.use_first_moment = beta1 > 0
        self._init_state()
        self.step = Parameter(initializer(0, [1], mstype.float32), name="afactor_step")

    def _init_state(self):
        """``exp_avg`` (zeros like each Parameter, or a scalar 0 without a first moment) and the second moments:
        a matrix's row and column means (its ``exp_avg_sq`` a placeholder of shape (1,)), a vector's whole (its
        ``exp_avg_sq_row``/``_col`` placeholders)."""
        if self.use_first_moment:
            self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        else:
            self.exp_avg = ParameterTuple([Parameter(Tensor(0.0), name=f"exp_avg_{i}")
                                           for i in range(len(self.parameters))])
        rows, cols, whole = [], [], []
        for param in self.parameters:
            shape, dtype, name = tuple(param.shape), param.dtype, param.name
            factored = len(shape) > 1
            whole_dtype = mstype.float16 if self.compression and not factored else dtype
            rows.append(Parameter(initializer(0, shape[:-1] if factored else (1,), dtype),
                                  name=f"exp_avg_sq_row_{name}"))
            cols.append(Parameter(initializer(0, shape[:-2] + shape[-1:] if factored else (1,), dtype),
                                  name=f"exp_avg_sq_col_{name}"))
            whole.append(Parameter(initializer(0, (1,) if factored else shape, whole_dtype),
                                   name=f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(whole)

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        lr = self.get_lr()
        self._increase_global_step()
        ops.assign_add(self.step, Tensor([1.0], mstype.float32))
        step = self.step * 1.0
        if self.scale_lr and self.relative_step:
            min_step = 1e-6 * step if self.warmup_init else 1e-2
            lr = ops.minimum(min_step, 1.0 / ops.sqrt(step))
        beta2t = 1.0 - ops.pow(step, self.decay_rate)
        success = ()
        for grad, param, exp_avg, row, col, whole in zip(gradients, self.parameters, self.exp_avg,
                                                         self.exp_avg_sq_row, self.exp_avg_sq_col, self.exp_avg_sq):
            adafactor_update(self.eps, self.clip_threshold, self.beta1, beta2t, self.weight_decay, lr, grad, param,
                             exp_avg, row, col, whole, scale_parameter=self.scale_parameter,
                             first_moment=self.use_first_moment, decay=self.weight_decay_flag)
            success += (True,)
        return success
