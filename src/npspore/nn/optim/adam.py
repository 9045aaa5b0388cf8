"""``nn.Adam`` (with Nesterov and AMSGrad variants) and ``nn.AdamWeightDecay``."""
from __future__ import annotations

from typing import Any

import numpy as np

from npspore import ops
from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_bool
from npspore.ops import optimizer_ops
from npspore.jit import jit

__all__ = ["Adam", "AdamWeightDecay"]


def _check_param_value(beta1, beta2, eps, cls_name):
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError(f"For '{cls_name}', the type of '{name}' must be float, but got "
                            f"'{type(value).__name__}'.")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"For '{cls_name}', the '{name}' must be in range of (0.0, 1.0), but got {value}.")
    if eps <= 0:
        raise ValueError(f"For '{cls_name}', the 'eps' must be a positive float number, but got {eps}.")


class Adam(Optimizer):
    """Adaptive Moment Estimation (Adam), MindSpore's ``Adam`` update.

    States: ``moment1.<name>`` (``m``), ``moment2.<name>`` (``v``), with ``use_amsgrad``
    ``vhat.<name>``; ``beta1_power``/``beta2_power`` hold ``beta1 ** t``/``beta2 ** t``.

    .. math::
        m = \\beta_1 m + (1 - \\beta_1) g, \\quad v = \\beta_2 v + (1 - \\beta_2) g^2, \\quad
        p = p - lr \\frac{\\sqrt{1 - \\beta_2^t}}{1 - \\beta_1^t} \\frac{m}{\\sqrt{v} + \\epsilon}

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-8``.
        use_locking (bool): accepted (updates never race here). Default: ``False``.
        use_nesterov (bool): Default: ``False``.
        weight_decay (Union[float, int, Cell]): added to the gradient. Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        use_amsgrad (bool): Default: ``False``.
        kwargs: ``use_lazy`` and ``use_offload`` (bools; sparse and offloaded variants, which update
            dense gradients as plain Adam does).

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `beta1`, `beta2`, `eps` is not a float or a flag is not a bool.
        ValueError: If `beta1`/`beta2` is outside (0, 1), `eps` <= 0, or `use_amsgrad` is combined
            with `use_lazy`/`use_offload`.
        KeyError: If `kwargs` has another key.
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if set(kwargs) - {"use_lazy", "use_offload"}:
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and"
                           f"'use_offload', but got {kwargs.keys()}.")
        _check_param_value(beta1, beta2, eps, self.cls_name)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                            ("use_amsgrad", use_amsgrad)) + tuple(kwargs.items()):
            check_bool(value, name, self.cls_name)
        if use_amsgrad and any(kwargs.values()):
            raise ValueError(f"For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'."
                             f"but got 'use_amsgrad'={use_amsgrad}.")
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(1.0, mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(Tensor(1.0, mstype.float32), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self.parameters.clone(prefix="vhat", init="zeros")
            self.opt = optimizer_ops.ApplyAdamWithAmsgradV2(use_locking)
        else:
            self.opt = optimizer_ops.Adam(use_locking, use_nesterov)

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        gradients = self._preprocess_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        beta1_power = self.beta1_power * self.beta1
        ops.assign(self.beta1_power, beta1_power)
        beta2_power = self.beta2_power * self.beta2
        ops.assign(self.beta2_power, beta2_power)
        success = ()
        for index, (lr_i, gradient, param, m, v) in enumerate(zip(self._lr_per_parameter(lr), gradients,
                                                                  self.parameters, self.moment1, self.moment2)):
            if self.use_amsgrad:
                self.opt(param, m, v, self.vhat[index], beta1_power, beta2_power, lr_i, self.beta1, self.beta2,
                         self.eps, gradient)
            else:
                self.opt(param, m, v, beta1_power, beta2_power, lr_i, self.beta1, self.beta2, self.eps, gradient)
            success += (True,)
        return success


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay (AdamW), MindSpore's fused ``AdamWeightDecay`` update.

    States ``adam_m.<name>`` and ``adam_v.<name>``; no bias correction:

    .. math::
        m = \\beta_1 m + (1 - \\beta_1) g, \\quad v = \\beta_2 v + (1 - \\beta_2) g^2, \\quad
        p = p - lr (\\frac{m}{\\sqrt{v} + \\epsilon} + w p)

    where ``w`` is the weight decay for Parameters without ``'beta'``/``'gamma'`` in their names
    (in groups: of groups whose weight decay is > 0), else 0.

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `beta1`, `beta2` or `eps` is not a float.
        ValueError: If `beta1`/`beta2` is outside (0, 1) or `eps` <= 0.
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(np.array([beta1], np.float32))
        self.beta2 = Tensor(np.array([beta2], np.float32))
        self.eps = Tensor(np.array([eps], np.float32))
        self.moments1 = self.parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="adam_v", init="zeros")
        self.fused_opt = optimizer_ops.AdamWeightDecay()

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        self._check_gradients(gradients)
        decays = self._decay_per_parameter()
        lr = self.get_lr()
        self._increase_global_step()
        success = ()
        for lr_i, decay, param, m, v, gradient in zip(self._lr_per_parameter(lr), decays, self.parameters,
                                                      self.moments1, self.moments2, gradients):
            self.fused_opt(param, m, v, lr_i, self.beta1, self.beta2, self.eps, decay, ops.cast(gradient, param.dtype))
            success += (True,)
        return success
