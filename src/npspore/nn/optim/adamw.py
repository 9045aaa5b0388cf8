"""``nn.AdamW``: Adam with decoupled weight decay, as MindSpore 2.10's ``experimental.optim.AdamW``.

MindSpore 2.10 has no ``nn.AdamW``: its AdamW is ``mindspore.experimental.optim.AdamW`` (also
``mindspore.mint.optim.AdamW``), a PyTorch-style optimizer (``lr``, ``betas``, parameter groups
that may set any of the defaults), which this class follows, numbers included.
"""
from __future__ import annotations

from typing import Any
import numbers

import numpy as np

from npspore import ops
from npspore.ops import optimizer_ops
from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter, ParameterTuple
from npspore.common.tensor import Tensor
from npspore.nn.optim.group_optimizer import Optimizer

__all__ = ["AdamW", "Adam"]

_DEFAULT_KEYS = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")


def _check_number(value, name):
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, Tensor)):
        raise TypeError(f"For 'AdamW', the '{name}' must be a number, but got {type(value).__name__}.")
    return float(value.asnumpy()) if isinstance(value, Tensor) else float(value)


def _check_defaults(lr, betas, eps, weight_decay):
    """MindSpore's checks (and messages); a value of the wrong type is a TypeError naming it."""
    if _check_number(lr, "lr") < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if _check_number(eps, "eps") < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        raise TypeError(f"For 'AdamW', the 'betas' must be a tuple of two floats, but got {betas!r}.")
    for index, beta in enumerate(betas):
        if not 0.0 <= _check_number(beta, f"betas[{index}]") < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
    if _check_number(weight_decay, "weight_decay") < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _groups(params, defaults):
    """The parameter groups: dicts with ``'params'`` (a list of Parameters) and every default."""
    if isinstance(params, (Parameter, dict)) or not hasattr(params, "__iter__"):
        raise TypeError(f"For 'AdamW', the 'params' must be a list of Parameters or of dicts, but got "
                        f"{type(params).__name__}.")
    params = list(params)
    if not params:
        raise ValueError("For 'AdamW', the 'params' must not be empty.")
    groups = params if isinstance(params[0], dict) else [{"params": params}]
    found = []
    for group in groups:
        if not isinstance(group, dict) or "params" not in group:
            raise TypeError("For 'AdamW', the 'params' must be all Parameters or all dicts with the key 'params'.")
        unknown = set(group) - {"params", *_DEFAULT_KEYS}
        if unknown:
            raise KeyError(f"For 'AdamW', a parameter group may set 'params' and {list(_DEFAULT_KEYS)}, but got "
                           f"{sorted(unknown)}.")
        members = [group["params"]] if isinstance(group["params"], Parameter) else list(group["params"])
        if not all(isinstance(p, Parameter) for p in members):
            raise TypeError("For 'AdamW', the 'params' of a group must be Parameters.")
        merged = {**group, "params": members}   # MindSpore's key order: the group's own, then the defaults
        for name, default in defaults.items():
            merged.setdefault(name, default)
        _check_defaults(merged["lr"], merged["betas"], merged["eps"], merged["weight_decay"])
        found.append(merged)
    return found


class AdamW(Optimizer):
    r"""Adam with decoupled weight decay (MindSpore's ``experimental.optim.AdamW``).

    At step ``t`` (``state_step``), for each Parameter ``p`` with gradient ``g`` (``-g`` with ``maximize``):

    .. math::
        p \leftarrow p (1 - \gamma\lambda), \quad m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad
        v \leftarrow \beta_2 v + (1 - \beta_2) g^2, \quad
        p \leftarrow p - \frac{\gamma}{1 - \beta_1^t} \frac{m}{\sqrt{\hat v} / \sqrt{1 - \beta_2^t} + \epsilon}

    where ``\hat v`` is ``v``, or with ``amsgrad`` the running maximum of ``v`` (``max_exp_avg_sq``).
    States: ``exp_avg.<name>``, ``exp_avg_sq.<name>``, ``max_exp_avg_sq.<name>``, ``state_step``.
    Computed in float32, as MindSpore does.

    Args:
        params (Union[list[Parameter], list[dict]]): the Parameters, or groups: dicts with ``'params'``
            and any of ``'lr'``, ``'betas'``, ``'eps'``, ``'weight_decay'``, ``'amsgrad'``, ``'maximize'``.
        lr (Union[float, int, Tensor]): the learning rate ``\gamma`` >= 0. Default: ``1e-3``.
        betas (tuple[float, float]): ``(\beta_1, \beta_2)``, each in [0, 1). Default: ``(0.9, 0.999)``.
        eps (float): ``\epsilon`` >= 0. Default: ``1e-8``.
        weight_decay (float): ``\lambda`` >= 0. Default: ``1e-2``.
        amsgrad (bool): Default: ``False``.
        maximize (bool): ascend instead of descend. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per Parameter, in the order of ``params``.

    Outputs:
        ``True``.

    Raises:
        ValueError: If `lr`, `eps` or `weight_decay` is negative or a beta is outside [0, 1)
            (MindSpore's messages: ``Invalid learning rate: -1.0`` ...), or `params` is empty.
        TypeError: If a number is not a number, `betas` is not a pair, or `params` holds other
            than Parameters or group dicts.
        KeyError: If a group has another key.
    """

    def __init__(self, params: Any, lr: Any = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False) -> None:
        _check_defaults(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize}
        super().__init__(_groups(params, defaults), defaults)
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self.state_step = Parameter(Tensor(0, mstype.int32), name="state_step")
        # one static tuple per Parameter: (its group, beta1, beta2, eps, weight_decay, amsgrad, maximize); the
        # learning rate is the group's Parameter self.lrs[group], which lr_scheduler changes between steps
        self.settings = tuple((index, float(g["betas"][0]), float(g["betas"][1]), float(g["eps"]),
                               float(g["weight_decay"]), bool(g["amsgrad"]), bool(g["maximize"]))
                              for index, g in enumerate(self.param_groups) for _ in g["params"])

    def construct(self, gradients):
        ops.assign(self.state_step, self.state_step + 1)
        step = ops.cast(self.state_step, mstype.float32)
        for setting, param, grad, m, v, v_max in zip(self.settings, self.parameters, gradients, self.exp_avg,
                                                     self.exp_avg_sq, self.max_exp_avg_sq):
            group, beta1, beta2, eps, weight_decay, amsgrad, maximize = setting
            adamw_update(param, m, v, v_max, grad, step, self.lrs[group], beta1, beta2, weight_decay, eps, amsgrad,
                         maximize)
        return True


def adamw_update(param, m, v, v_max, grad, step, lr, beta1, beta2, weight_decay, eps, amsgrad, maximize):
    """One AdamW step of ``param`` and its states ``m``, ``v`` (and ``v_max`` with ``amsgrad``), written in place
    (the arguments of MindSpore's ``AdamW`` primitive); ``step`` is the number of this step, from 1; ``lr`` a
    number or a Tensor (the group's learning-rate Parameter)."""
    lr = lr if isinstance(lr, Tensor) else Tensor(np.float32(lr))
    grad = -grad if maximize else grad
    decayed = param * (1 - lr * weight_decay)
    m_next = m * beta1 + grad * (1 - beta1)
    v_next = v * beta2 + grad * grad * (1 - beta2)
    ops.assign(m, m_next)
    ops.assign(v, v_next)
    correction2 = ops.sqrt(1 - ops.pow(Tensor(np.float32(beta2)), step))
    if amsgrad:
        v_next = ops.maximum(v_max, v_next)
        ops.assign(v_max, v_next)
    denominator = ops.sqrt(v_next) / correction2 + eps
    step_size = lr / (1 - ops.pow(Tensor(np.float32(beta1)), step))
    ops.assign(param, decayed - m_next / denominator * step_size)
    return param


class Adam(AdamW):
    r"""Adam (MindSpore's ``experimental.optim.Adam``): the arguments, groups and states of :class:`AdamW`, the
    update that of ``ops.Adam`` (MindSpore's kernel) on the gradient (negated with ``maximize``) plus the L2 weight
    decay :math:`\lambda p`; `weight_decay` defaults to ``0.0``. As in MindSpore 2.10, `amsgrad` is accepted and
    changes nothing (its ``max_exp_avg_sq`` state stays zero).
    """

    def __init__(self, params: Any, lr: Any = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
        self.adam = optimizer_ops.Adam()

    def construct(self, gradients):
        ops.assign(self.state_step, self.state_step + 1)
        for setting, param, grad, m, v in zip(self.settings, self.parameters, gradients, self.exp_avg,
                                              self.exp_avg_sq):
            group, beta1, beta2, eps, weight_decay, _, maximize = setting
            grad = -grad if maximize else grad
            if weight_decay != 0.0:
                grad = param * Tensor(np.float32(weight_decay)) + grad
            self.adam(param, m, v, ops.pow(Tensor(np.float32(beta1)), self.state_step),
                      ops.pow(Tensor(np.float32(beta2)), self.state_step), self.lrs[group], beta1, beta2, eps,
                      grad)
        return True
