"""More optimizer primitives of ``mindspore.ops.operations``: ``ApplyAdaMax``, ``ApplyAdagradV2``,
``ApplyAdamWithAmsgrad``, ``ApplyAddSign``, ``ApplyPowerSign``, ``ApplyKerasMomentum``, ``ApplyProximalAdagrad``,
``ApplyFtrl``, ``ApplyAdagradDA``, ``AdamNoUpdateParam``, ``FusedCastAdamWeightDecay`` and
``FusedWeightScaleApplyMomentum``.

As those of :mod:`npspore.ops.optimizer_ops`, each writes its Parameter inputs in place with ``ops.assign`` and
returns what MindSpore's primitive returns; the formulas are MindSpore's kernels' (its CPU kernels where it has
one, else the GPU kernel or the docstring's formula, as each class says).
"""
from __future__ import annotations

from . import functional as F
from . import scatter_ops as sc
from .optimizer_ops import _Update, _adam_moments, _check_shape
from .primitives import _check_bool
from .._checkparam import check_value_type
from ..common import dtype as mstype

__all__ = ["ApplyAdaMax", "ApplyAdagradV2", "ApplyAdamWithAmsgrad", "ApplyAddSign", "ApplyPowerSign",
           "ApplyKerasMomentum", "ApplyProximalAdagrad", "ApplyFtrl", "ApplyAdagradDA", "AdamNoUpdateParam",
           "FusedCastAdamWeightDecay", "FusedWeightScaleApplyMomentum", "FusedSparseAdam",
           "FusedSparseLazyAdam"]


def _locking(name: str, use_locking) -> dict:
    return {"use_locking": _check_bool(name, "use_locking", use_locking)}


def _moving_average(average, gradient, beta):
    """``average += (gradient - average) * (1 - beta)``, assigned; returns it."""
    return F.assign(average, average + (gradient - average) * (1 - beta))


class ApplyAdaMax(_Update):
    """AdaMax: ``m = beta1 * m + (1 - beta1) * g``; ``v = max(beta2 * v, |g|)``;
    ``var -= lr / (1 - beta1_power) * m / (v + epsilon)``.

    Inputs:
        var, m, v (Parameter), beta1_power, lr, beta1, beta2, epsilon (scalar Tensor or number), grad (Tensor).

    Outputs:
        tuple of Parameters ``(var, m, v)`` after the update.
    """

    def __init__(self):
        super().__init__()

    def __call__(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
        _check_shape("ApplyAdaMax", var, grad)
        new_m = _moving_average(m, grad, beta1)
        new_v = F.assign(v, F.maximum(beta2 * v, F.abs(grad)))
        F.assign(var, var - lr / (1 - beta1_power) * (new_m / (new_v + epsilon)))
        return var, m, v


class ApplyAdagradV2(_Update):
    """Adagrad with epsilon: ``accum += grad * grad`` (if `update_slots`); ``var -= lr * grad / (sqrt(accum) +
    epsilon)``.

    Args:
        epsilon (float): added to the denominator.
        update_slots (bool): whether ``accum`` is updated. Default: ``True``.

    Inputs:
        var, accum (Parameter), lr (scalar Tensor or number), grad (Tensor).

    Outputs:
        tuple of Parameters ``(var, accum)`` after the update.
    """

    def __init__(self, epsilon, update_slots=True):
        check_value_type("epsilon", epsilon, [float], "ApplyAdagradV2")
        super().__init__(epsilon=epsilon, update_slots=_check_bool("ApplyAdagradV2", "update_slots", update_slots))

    def __call__(self, var, accum, lr, grad):
        _check_shape("ApplyAdagradV2", var, grad)
        new_accum = F.assign(accum, accum + grad * grad) if self.update_slots else accum
        F.assign(var, var - lr * grad / (F.sqrt(new_accum) + self.epsilon))
        return var, accum


class ApplyAdamWithAmsgrad(_Update):
    """Adam with AMSGrad, its betas and epsilon constructor arguments: ``lr_t = lr * sqrt(1 - beta2_power) /
    (1 - beta1_power)``; ``m``, ``v`` as Adam; ``vhat = max(vhat, v)``; ``var -= lr_t * m / (sqrt(vhat) + epsilon)``.

    Args:
        beta1 (float): Default: ``0.9``. beta2 (float): Default: ``0.999``. epsilon (float): Default: ``1e-8``.
        use_locking (bool): accepted. Default: ``False``.

    Inputs:
        var, m, v, vhat (Parameter), beta1_power, beta2_power, lr (scalar Tensor or float), grad (Tensor).

    Outputs:
        tuple of Parameters ``(var, m, v, vhat)`` after the update.
    """

    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        for name, value in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            check_value_type(name, value, [float], "ApplyAdamWithAmsgrad")
        super().__init__(beta1=beta1, beta2=beta2, epsilon=epsilon, **_locking("ApplyAdamWithAmsgrad", use_locking))

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        _check_shape("ApplyAdamWithAmsgrad", var, grad)
        lr_t = lr * F.sqrt(1 - beta2_power) / (1 - beta1_power)
        new_m, new_v = _adam_moments(m, v, self.beta1, self.beta2, grad)
        new_vhat = F.assign(vhat, F.maximum(vhat, new_v))
        F.assign(var, var - lr_t * new_m / (F.sqrt(new_vhat) + self.epsilon))
        return var, m, v, vhat


class _SignUpdate(_Update):
    """AddSign and PowerSign: ``m = beta * m + (1 - beta) * g``; ``var -= lr * scale(sign(g) * sign(m)) * g``."""

    def __init__(self):
        super().__init__()

    def __call__(self, var, m, lr, base, sign_decay, beta, grad):
        _check_shape(self.name, var, grad)
        new_m = _moving_average(m, grad, beta)
        agreement = F.sign(grad) * F.sign(new_m)
        F.assign(var, var - lr * (self._scale(base, sign_decay * agreement) * grad))
        return var, m


class ApplyAddSign(_SignUpdate):
    """AddSign: ``(var, m, lr, alpha, sign_decay, beta, grad)``, the step ``(alpha + sign_decay * sign(g) * sign(m))
    * g``; returns the Parameters ``(var, m)``."""

    @staticmethod
    def _scale(alpha, signed_decay):
        return alpha + signed_decay


class ApplyPowerSign(_SignUpdate):
    """PowerSign: ``(var, m, lr, logbase, sign_decay, beta, grad)``, the step ``exp(logbase * sign_decay * sign(g) *
    sign(m)) * g``; returns the Parameters ``(var, m)``."""

    @staticmethod
    def _scale(logbase, signed_decay):
        return F.exp(logbase * signed_decay)


class ApplyKerasMomentum(_Update):
    """Keras' momentum: ``accum = accum * momentum - grad * lr``; ``var += accum`` (Nesterov: ``var += accum *
    momentum - grad * lr``). MindSpore 2.10 has no CPU kernel for it; this is its docstring's formula.

    Args:
        use_locking (bool): accepted. Default: ``False``. use_nesterov (bool): Default: ``False``.

    Inputs:
        var, accum (Parameter), lr (scalar Tensor or number), grad (Tensor), momentum (scalar Tensor or number).

    Outputs:
        tuple of Parameters ``(var, accum)`` after the update.
    """

    def __init__(self, use_locking=False, use_nesterov=False):
        super().__init__(**_locking("ApplyKerasMomentum", use_locking),
                         use_nesterov=_check_bool("ApplyKerasMomentum", "use_nesterov", use_nesterov))

    def __call__(self, var, accum, lr, grad, momentum):
        _check_shape("ApplyKerasMomentum", var, grad)
        new_accum = F.assign(accum, accum * momentum - grad * lr)
        step = new_accum * momentum - grad * lr if self.use_nesterov else new_accum
        F.assign(var, var + step)
        return var, accum


class ApplyProximalAdagrad(_Update):
    """Proximal Adagrad as MindSpore's CPU kernel computes it: ``accum += grad * grad``; ``rate = lr /
    sqrt(accum)``; ``prox_v = var - rate * grad``; ``var = sign(prox_v) / (1 + rate * l2) * max(|prox_v| -
    rate * l1, 0)`` (its docstring's formula writes ``lr`` for ``rate`` in the last step).

    Inputs:
        var, accum (Parameter), lr, l1, l2 (scalar Tensor or number), grad (Tensor).

    Outputs:
        tuple of Parameters ``(var, accum)`` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(**_locking("ApplyProximalAdagrad", use_locking))

    def __call__(self, var, accum, lr, l1, l2, grad):
        _check_shape("ApplyProximalAdagrad", var, grad)
        new_accum = F.assign(accum, accum + grad * grad)
        rate = lr / F.sqrt(new_accum)
        prox_v = var - rate * grad
        F.assign(var, F.sign(prox_v) / (1 + rate * l2) * F.maximum(F.abs(prox_v) - rate * l1, 0))
        return var, accum


class ApplyFtrl(_Update):
    """FTRL-proximal: ``accum_new = accum + g * g``; ``linear += g - (accum_new ** -lr_power - accum ** -lr_power) /
    lr * var``; ``var = (sign(linear) * l1 - linear) / (accum_new ** -lr_power / lr + 2 * l2)`` where ``|linear| > l1``,
    else 0: MindSpore's documented formula. MindSpore 2.10's CPU kernel computes ``(l1 - linear) / ...`` where
    ``linear < -l1`` (no shrinking towards 0 there); it agrees elsewhere.

    Inputs:
        var, accum, linear (Parameter), grad (Tensor), lr, l1, l2, lr_power (scalar Tensor or number).

    Outputs:
        Parameter, `var` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(**_locking("ApplyFtrl", use_locking))

    def __call__(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        _check_shape("ApplyFtrl", var, grad)
        new_accum = accum + grad * grad
        new_power = F.pow(new_accum, -lr_power)
        new_linear = F.assign(linear, linear + grad - (new_power - F.pow(accum, -lr_power)) / lr * var)
        F.assign(accum, new_accum)
        quadratic = new_power / lr + 2 * l2
        shrunk = (F.sign(new_linear) * l1 - new_linear) / quadratic
        return F.assign(var, F.where(F.abs(new_linear) > l1, shrunk, F.zeros_like(var)))


class ApplyAdagradDA(_Update):
    """Adagrad dual averaging: ``grad_accum += g``; ``grad_squared_accum += g * g``; ``tmp = sign(grad_accum) *
    max(|grad_accum| - l1 * global_step, 0)`` if ``l1 > 0`` else ``grad_accum``; ``var = -lr * tmp /
    (l2 * global_step * lr + sqrt(grad_squared_accum))``: MindSpore's documented formula. MindSpore 2.10's CPU
    kernel computes ``sign(grad_accum) * |grad_accum - l1 * global_step|`` for ``tmp`` (the same where
    ``grad_accum >= l1 * global_step``; elsewhere it does not shrink towards 0).

    Inputs:
        var, gradient_accumulator, gradient_squared_accumulator (Parameter), grad (Tensor), lr, l1, l2 (scalar
        Tensor or number), global_step (int scalar Tensor or int).

    Outputs:
        Parameter, `var` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(**_locking("ApplyAdagradDA", use_locking))

    def __call__(self, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step):
        _check_shape("ApplyAdagradDA", var, grad)
        accum = F.assign(gradient_accumulator, gradient_accumulator + grad)
        squared = F.assign(gradient_squared_accumulator, gradient_squared_accumulator + grad * grad)
        step = F.cast(global_step, var.dtype)
        shrunk = F.sign(accum) * F.maximum(F.abs(accum) - l1 * step, 0)   # accum itself when l1 is 0
        return F.assign(var, -lr * shrunk / (l2 * step * lr + F.sqrt(squared)))


class AdamNoUpdateParam(_Update):
    """Adam that returns its step instead of applying it: ``m``, ``v`` as Adam (written in place); the output is
    ``-lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon)`` (Nesterov: ``m * beta1 +
    (1 - beta1) * g`` for ``m``).

    Args:
        use_locking (bool): accepted. Default: ``False``. use_nesterov (bool): Default: ``False``.

    Inputs:
        m, v (Parameter), beta1_power, beta2_power, lr, beta1, beta2, epsilon (scalar Tensor), gradient (Tensor).

    Outputs:
        Tensor, the step to add to the parameter.
    """

    def __init__(self, use_locking=False, use_nesterov=False):
        super().__init__(**_locking("AdamNoUpdateParam", use_locking),
                         use_nesterov=_check_bool("AdamNoUpdateParam", "use_nesterov", use_nesterov))

    def __call__(self, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        _check_shape("AdamNoUpdateParam", m, gradient)
        lr_t = lr * F.sqrt(1 - beta2_power) / (1 - beta1_power)
        new_m, new_v = _adam_moments(m, v, beta1, beta2, gradient)
        numerator = new_m * beta1 + (1 - beta1) * gradient if self.use_nesterov else new_m
        return -lr_t * numerator / (F.sqrt(new_v) + epsilon)


class FusedCastAdamWeightDecay(_Update):
    """AdamWeightDecay on a float16 or float32 ``var`` with float32 moments: ``g = float32(gradient) /
    global_norm``; ``m``, ``v`` as Adam; ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)`` in float32, stored
    in ``var``'s dtype (MindSpore's CPU kernel).

    Inputs:
        var, m, v (Parameter), lr, beta1, beta2, epsilon, decay (float), gradient (Tensor), global_norm (float).

    Outputs:
        tuple of Parameters ``(var, m, v)`` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(**_locking("FusedCastAdamWeightDecay", use_locking))

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm):
        _check_shape("FusedCastAdamWeightDecay", var, gradient)
        grad = F.cast(gradient, m.dtype) / global_norm
        new_m, new_v = _adam_moments(m, v, beta1, beta2, grad)
        weights = F.cast(var, m.dtype)
        F.assign(var, F.cast(weights - lr * (new_m / (F.sqrt(new_v) + epsilon) + decay * weights), var.dtype))
        return var, m, v


class FusedWeightScaleApplyMomentum(_Update):
    """Momentum with weight decay and a gradient scale: ``g = (variable * weight_decay + gradient) * loss_scale``;
    ``accumulation = momentum * accumulation + g``; ``variable -= learning_rate * accumulation``. MindSpore 2.10
    has it on GPU only; this is its GPU kernel's formula (``loss_scale`` multiplies: pass the scale's reciprocal).

    Inputs:
        weight_decay, loss_scale (scalar Tensor), variable, accumulation (Parameter), learning_rate (scalar Tensor
        or number), gradient (Tensor), momentum (scalar Tensor or number).

    Outputs:
        Parameter, `variable` after the update.
    """

    def __init__(self):
        super().__init__()

    def __call__(self, weight_decay, loss_scale, variable, accumulation, learning_rate, gradient, momentum):
        _check_shape("FusedWeightScaleApplyMomentum", variable, gradient)
        grad = (variable * weight_decay + gradient) * loss_scale
        new_accum = F.assign(accumulation, momentum * accumulation + grad)
        return F.assign(variable, variable - learning_rate * new_accum)


class FusedSparseAdam(_Update):
    """Adam of a gradient given as rows: ``grad (k, ...)`` at the rows ``indices (k,)`` of ``var`` (a repeated row's
    gradients add up), every other row's gradient 0. As MindSpore's CPU kernel: ``m``, ``v`` and (without Nesterov)
    ``var`` are updated on every row; with ``use_nesterov`` only the rows in ``indices`` of ``var`` move, by
    ``lr_t * (m * beta1 + (1 - beta1) * g) / (sqrt(v) + epsilon)``.

    Inputs:
        var, m, v (Parameter), beta1_power, beta2_power, lr, beta1, beta2, epsilon (scalar Tensor), grad (Tensor),
        indices (int Tensor).

    Outputs:
        tuple of Parameters ``(var, m, v)`` after the update.
    """

    _lazy = False   # only the rows in indices of m and v change

    def __init__(self, use_locking=False, use_nesterov=False):
        super().__init__(**_locking(type(self).__name__, use_locking),
                         use_nesterov=_check_bool(type(self).__name__, "use_nesterov", use_nesterov))

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices):
        rows = F.expand_dims(F.cast(indices, mstype.int32), 1)
        dense = sc.tensor_scatter_add(F.zeros_like(var), rows, grad)
        touched = sc.tensor_scatter_update(F.zeros((var.shape[0],), mstype.bool_), rows,
                                           F.ones((indices.shape[0],), mstype.bool_))
        moved = F.reshape(touched, (-1,) + (1,) * (len(var.shape) - 1))
        lr_t = lr * F.sqrt(1 - beta2_power) / (1 - beta1_power)
        new_m = m + (dense - m) * (1 - beta1)
        new_v = v + (dense * dense - v) * (1 - beta2)
        if self._lazy:
            new_m, new_v = F.where(moved, new_m, m), F.where(moved, new_v, v)
        F.assign(m, new_m)
        F.assign(v, new_v)
        if self.use_nesterov:
            step = lr_t * (new_m * beta1 + (1 - beta1) * dense) / (F.sqrt(new_v) + epsilon)
        else:
            step = lr_t * new_m / (F.sqrt(new_v) + epsilon)
        F.assign(var, F.where(moved, var - step, var) if self.use_nesterov or self._lazy else var - step)
        return var, m, v


class FusedSparseLazyAdam(FusedSparseAdam):
    """:class:`FusedSparseAdam` that changes only the rows in ``indices`` of ``var``, ``m`` and ``v`` (MindSpore's
    CPU kernel)."""

    _lazy = True
