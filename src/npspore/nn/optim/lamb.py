"""``nn.Lamb``: layer-wise adaptive moments (LAMB), following MindSpore's documented update.

MindSpore's CPU build has no kernel for its fused ``Lamb`` op, so the numbers here come from the
equations of ``mindspore.nn.Lamb``'s documentation (You et al., "Large Batch Optimization for Deep
Learning: Training BERT in 76 minutes"), with the identity as the scaling function ``phi``.
"""
from __future__ import annotations

from typing import Any

from npspore import ops
from npspore.common import dtype as mstype
from npspore.common.tensor import Tensor
from npspore.nn.optim.optimizer import Optimizer
from npspore.nn.validation import check_number_range
from npspore.jit import jit

__all__ = ["Lamb"]


def _check_beta_eps(beta1, beta2, eps, cls_name):
    """MindSpore's checks of ``beta1``, ``beta2`` and ``eps``, with its messages."""
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError(f"For '{cls_name}', the type of '{name}' should be 'float', but got type "
                            f"'{type(value).__name__}'.")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"For '{cls_name}', the '{name}' must be in range of (0.0, 1.0), but got {value} with "
                             f"type 'float'.")
    check_number_range(eps, "eps", cls_name, positive=True)


class Lamb(Optimizer):
    r"""The LAMB optimizer, MindSpore's ``nn.Lamb`` update.

    At step ``t`` (``global_step`` after its increment), for each Parameter ``w`` with gradient ``g``:

    .. math::
        m = \beta_1 m + (1 - \beta_1) g, \quad v = \beta_2 v + (1 - \beta_2) g^2, \quad
        r = \frac{m / (1 - \beta_1^t)}{\sqrt{v / (1 - \beta_2^t)} + \epsilon}, \quad
        w = w - \gamma \frac{\|w\|}{\|r + \lambda w\|} (r + \lambda w)

    with norms over the whole Parameter (the trust ratio is 1 when either norm is 0), and ``\lambda``
    the weight decay where it applies (Parameters without ``'beta'``/``'gamma'`` in their names, or
    groups whose weight decay is > 0), else 0. States ``lamb_m.<name>``, ``lamb_v.<name>``.

    Args:
        params (Union[list[Parameter], list[dict]]): as :class:`Optimizer` ``parameters``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): required.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter.

    Outputs:
        tuple[bool], ``True`` per Parameter.

    Raises:
        TypeError: If `beta1`, `beta2` or `eps` is not a float (MindSpore's messages).
        ValueError: If `beta1`/`beta2` is outside (0, 1) or `eps` <= 0 (MindSpore's messages).
    """

    def __init__(self, params: Any, learning_rate: Any, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-6,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_beta_eps(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.eps = Tensor(eps, mstype.float32)
        self.moments1 = self.parameters.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="lamb_v", init="zeros")

    @jit  # as MindSpore 2.10's: compiled in PYNATIVE mode too
    def construct(self, gradients):
        self._check_gradients(gradients)
        decays = self._decay_per_parameter()
        lr = self.get_lr()
        self._increase_global_step()
        gradients = self.gradients_centralization(gradients)
        step = ops.cast(self.global_step, mstype.float32).reshape(())
        correction1 = 1 - ops.pow(self.beta1, step)
        correction2 = 1 - ops.pow(self.beta2, step)
        success = ()
        for lr_i, decay, param, m, v, gradient in zip(self._lr_per_parameter(lr), decays, self.parameters,
                                                      self.moments1, self.moments2, gradients):
            gradient = ops.cast(gradient, param.dtype)
            m_next = self.beta1 * m + (1 - self.beta1) * gradient
            v_next = self.beta2 * v + (1 - self.beta2) * gradient * gradient
            ops.assign(m, m_next)
            ops.assign(v, v_next)
            update = (m_next / correction1) / (ops.sqrt(v_next / correction2) + self.eps) \
                + ops.cast(decay, param.dtype) * param
            param_norm = ops.sqrt(ops.sum(param * param))
            update_norm = ops.sqrt(ops.sum(update * update))
            usable = ops.logical_and(param_norm > 0, update_norm > 0)
            ratio = ops.select(usable, param_norm / ops.select(usable, update_norm, ops.ones_like(update_norm)),
                               ops.ones_like(param_norm))
            ops.assign(param, param - lr_i * ratio * update)
            success += (True,)
        return success
