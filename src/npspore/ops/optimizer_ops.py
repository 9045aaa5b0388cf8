"""Optimizer primitives, as ``mindspore.ops.ApplyMomentum``, ``ops.SGD``, ``ops.Adam`` ...

Each updates a Parameter and its state Parameters in place with ``ops.assign`` (so in compiled code
the updates are assignment effects of the kernel) and returns what MindSpore's primitive returns: eagerly
Tensors of the values written (not the Parameters), as MindSpore 2.10's PYNATIVE primitives.
``nn.Momentum``, ``nn.SGD``, ``nn.Adam`` and the other optimizers are built on them, and a custom
``nn.Optimizer`` can call them as MindSpore's documentation shows (``ops.ApplyMomentum()(param,
moment, lr, grad, momentum)``). The formulas are those of MindSpore's CPU kernels, written so that
float32 results agree bit for bit (``m += (g - m) * (1 - beta1)`` rather than ``beta1 * m + ...``).
"""
from __future__ import annotations

from . import functional as F
from ..common import dtype as mstype
from ..common.tensor import Tensor
from .primitives import Primitive, _check_bool

__all__ = ["ApplyMomentum", "SGD", "Adam", "ApplyAdamWithAmsgradV2", "AdamWeightDecay", "ApplyRMSProp",
           "ApplyCenteredRMSProp", "ApplyAdagrad", "ApplyAdadelta"]


def _check_shape(prim, variable, gradient):
    """ValueError unless the gradient has the variable's shape (checked when compiling in compiled code, where a
    dim known only when the kernel runs reads as a negative size and agrees with any)."""
    grad_shape, var_shape = tuple(gradient.shape), tuple(variable.shape)
    if len(grad_shape) != len(var_shape) or any(g != v and min(g, v) >= 0 for g, v in zip(grad_shape, var_shape)):
        raise ValueError(f"For primitive[{prim}], the gradient shape must be equal to the variable shape "
                         f"{list(variable.shape)}, but got {list(gradient.shape)}.")


def _check_not_complex(variable, message: str) -> None:
    """TypeError ``message`` (``{dtype}``: the dtype as MindSpore names it) for a complex Parameter, whose update
    MindSpore 2.10's SGD, ApplyMomentum and Adam refuse (tests/test_complex_grads.py)."""
    if variable.dtype in (mstype.complex64, mstype.complex128):
        raise TypeError(message.format(dtype=variable.dtype))


class _Update(Primitive):
    """A primitive whose constructor arguments are flags and numbers, recorded as attributes (with
    MindSpore's ``side_effect_mem=True``: it writes to its Parameter inputs)."""

    def __init__(self, **attrs):
        super().__init__(type(self).__name__)
        for name, value in attrs.items():
            setattr(self, name, value)
            self.add_prim_attr(name, value)
        self.add_prim_attr("side_effect_mem", True)


class ApplyMomentum(_Update):
    """``accumulation = accumulation * momentum + gradient``; ``variable -= learning_rate * accumulation``,
    or with Nesterov ``variable -= gradient * learning_rate + accumulation * momentum * learning_rate``.

    Args:
        use_locking (bool): accepted. Default: ``False``.
        use_nesterov (bool): Default: ``False``.
        gradient_scale (float): accepted. Default: ``1.0``.

    Inputs:
        variable, accumulation (Parameter), learning_rate (Tensor), gradient (Tensor), momentum (Tensor).

    Outputs:
        Tensor, `variable` after the update.
    """

    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        super().__init__(use_nesterov=_check_bool("ApplyMomentum", "use_nesterov", use_nesterov),
                         use_locking=_check_bool("ApplyMomentum", "use_locking", use_locking),
                         gradient_scale=gradient_scale)

    def __call__(self, variable, accumulation, learning_rate, gradient, momentum):
        _check_shape("ApplyMomentum", variable, gradient)
        _check_not_complex(variable, "Select CPU operator[ApplyMomentum] fail! Unsupported data type!")
        accum = accumulation * momentum + gradient
        F.assign(accumulation, accum)
        if self.use_nesterov:
            return F.assign(variable, variable - (gradient * learning_rate + accum * momentum * learning_rate))
        return F.assign(variable, variable - learning_rate * accum)


class SGD(_Update):
    """Stochastic gradient descent with momentum: MindSpore's ``SGD`` primitive.

    The gradient gets ``weight_decay * parameters`` added. With ``momentum > 0``, ``accum`` becomes
    the gradient at the first step (``stat`` > 0, then set to 0) and ``accum * momentum +
    (1 - dampening) * gradient`` afterwards, and the step is ``accum`` (Nesterov: ``gradient +
    accum * momentum``); with ``momentum == 0`` the step is the gradient.

    Args:
        dampening (float): Default: ``0.0``.
        weight_decay (float): Default: ``0.0``.
        nesterov (bool): Default: ``False``.

    Inputs:
        parameters (Parameter), gradient (Tensor), learning_rate (Tensor), accum (Parameter),
        momentum (Tensor), stat (Parameter).

    Outputs:
        Tensor, `parameters` after the update.
    """

    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        super().__init__(dampening=dampening, weight_decay=weight_decay,
                         nesterov=_check_bool("SGD", "nesterov", nesterov))

    def __call__(self, parameters, gradient, learning_rate, accum, momentum, stat):
        _check_shape("SGD", parameters, gradient)
        _check_not_complex(parameters, "For 'SGD', the element of 'parameters' must be one of Tensor[Float16], "
                                       "Tensor[Float32], but got Ref[Tensor[{dtype}]].The supported data types "
                                       "depend on the hardware that executes the operator, for more details, please "
                                       "refer to the MindSpore official website to get more information about the "
                                       "data type.")
        if self.weight_decay > 0:
            gradient = gradient + parameters * self.weight_decay
        step = gradient
        if momentum > 0:   # a tensor condition: a kernel tests it when it runs, so momentum 0 costs one update
            new_accum = F.where(stat > 0, gradient, accum * momentum + (1 - self.dampening) * gradient)
            F.assign(accum, new_accum)
            F.assign(stat, F.zeros_like(stat))
            step = gradient + new_accum * momentum if self.nesterov else new_accum
        return F.assign(parameters, parameters - learning_rate * step)


def _adam_moments(m, v, beta1, beta2, gradient):
    """``m += (g - m) * (1 - beta1)`` and ``v += (g * g - v) * (1 - beta2)``, assigned; returns both."""
    new_m = m + (gradient - m) * (1 - beta1)
    new_v = v + (gradient * gradient - v) * (1 - beta2)
    F.assign(m, new_m)
    F.assign(v, new_v)
    return new_m, new_v


class Adam(_Update):
    """Adam: ``lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)``; ``m += (g - m) * (1 - beta1)``;
    ``v += (g * g - v) * (1 - beta2)``; ``var -= lr_t * m / (sqrt(v) + epsilon)`` (Nesterov uses
    ``m * beta1 + (1 - beta1) * g`` for ``m``).

    Args:
        use_locking (bool): accepted. Default: ``False``.
        use_nesterov (bool): Default: ``False``.

    Inputs:
        var, m, v (Parameter), beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient (Tensor).

    Outputs:
        tuple of Tensors ``(var, m, v)`` after the update.
    """

    def __init__(self, use_locking=False, use_nesterov=False):
        super().__init__(use_locking=_check_bool("Adam", "use_locking", use_locking),
                         use_nesterov=_check_bool("Adam", "use_nesterov", use_nesterov))

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        _check_shape("Adam", var, gradient)
        _check_not_complex(gradient, "For primitive[Adam], the input argument[grad] must be a type of {{Float16, "
                                     "Float32, Tensor[Float16], Tensor[Float32]}}, but got Tensor[{dtype}].")
        lr_t = lr * F.sqrt(1 - beta2_power) / (1 - beta1_power)
        new_m, new_v = _adam_moments(m, v, beta1, beta2, gradient)
        numerator = new_m * beta1 + (1 - beta1) * gradient if self.use_nesterov else new_m
        return F.assign(var, var - lr_t * numerator / (F.sqrt(new_v) + epsilon)), new_m, new_v


class ApplyAdamWithAmsgradV2(_Update):
    """Adam with AMSGrad: as :class:`Adam`, dividing by ``sqrt(vhat) + epsilon`` where ``vhat`` is the
    running maximum of ``v``.

    Args:
        use_locking (bool): accepted. Default: ``False``.

    Inputs:
        var, m, v, vhat (Parameter), beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad (Tensor).

    Outputs:
        tuple of Tensors ``(var, m, v, vhat)`` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(use_locking=_check_bool("ApplyAdamWithAmsgradV2", "use_locking", use_locking))

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
        _check_shape("ApplyAdamWithAmsgradV2", var, grad)
        lr_t = lr * F.sqrt(1 - beta2_power) / (1 - beta1_power)
        new_m, new_v = _adam_moments(m, v, beta1, beta2, grad)
        new_vhat = F.maximum(vhat, new_v)
        F.assign(vhat, new_vhat)
        return F.assign(var, var - lr_t * new_m / (F.sqrt(new_vhat) + epsilon)), new_m, new_v, new_vhat


class AdamWeightDecay(_Update):
    """Adam with decoupled weight decay, no bias correction: ``m``, ``v`` as :class:`Adam`;
    ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)``.

    Args:
        use_locking (bool): accepted. Default: ``False``.

    Inputs:
        var, m, v (Parameter), lr, beta1, beta2, epsilon, decay, gradient (Tensor or number).

    Outputs:
        tuple of Tensors ``(var, m, v)`` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(use_locking=_check_bool("AdamWeightDecay", "use_locking", use_locking))

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        _check_shape("AdamWeightDecay", var, gradient)
        new_m, new_v = _adam_moments(m, v, beta1, beta2, gradient)
        return F.assign(var, var - lr * (new_m / (F.sqrt(new_v) + epsilon) + decay * var)), new_m, new_v


class ApplyRMSProp(_Update):
    """RMSProp: ``mean_square += (grad * grad - mean_square) * (1 - decay)``;
    ``moment = moment * momentum + learning_rate * grad / sqrt(mean_square + epsilon)``; ``var -= moment``.

    Args:
        use_locking (bool): accepted. Default: ``False``.

    Inputs:
        var, mean_square, moment (Parameter), learning_rate, grad (Tensor), decay, momentum, epsilon (float).

    Outputs:
        Tensor, `var` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(use_locking=_check_bool("ApplyRMSProp", "use_locking", use_locking))

    def __call__(self, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon):
        _check_shape("ApplyRMSProp", var, grad)
        new_square = mean_square + (grad * grad - mean_square) * (1 - decay)
        F.assign(mean_square, new_square)
        new_moment = moment * momentum + learning_rate * grad / F.sqrt(new_square + epsilon)
        F.assign(moment, new_moment)
        return F.assign(var, var - new_moment)


class ApplyCenteredRMSProp(_Update):
    """Centered RMSProp: as :class:`ApplyRMSProp`, with ``mean_gradient += (grad - mean_gradient) *
    (1 - decay)`` and the denominator ``sqrt(mean_square - mean_gradient ** 2 + epsilon)``.

    Args:
        use_locking (bool): accepted. Default: ``False``.

    Inputs:
        var, mean_gradient, mean_square, moment (Parameter), grad, learning_rate (Tensor), decay,
        momentum, epsilon (float).

    Outputs:
        Tensor, `var` after the update.
    """

    def __init__(self, use_locking=False):
        super().__init__(use_locking=_check_bool("ApplyCenteredRMSProp", "use_locking", use_locking))

    def __call__(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon):
        _check_shape("ApplyCenteredRMSProp", var, grad)
        new_square = mean_square + (grad * grad - mean_square) * (1 - decay)
        new_gradient = mean_gradient + (grad - mean_gradient) * (1 - decay)
        F.assign(mean_square, new_square)
        F.assign(mean_gradient, new_gradient)
        denominator = F.sqrt(new_square - new_gradient * new_gradient + epsilon)
        new_moment = moment * momentum + learning_rate * grad / denominator
        F.assign(moment, new_moment)
        return F.assign(var, var - new_moment)


class ApplyAdagrad(_Update):
    """Adagrad: ``accum += grad * grad`` (if `update_slots`); ``var -= lr * grad / sqrt(accum)``.

    Args:
        update_slots (bool): whether ``accum`` is updated. Default: ``True``.

    Inputs:
        var, accum (Parameter), lr, grad (Tensor).

    Outputs:
        tuple of Tensors ``(var, accum)`` after the update.
    """

    def __init__(self, update_slots=True):
        super().__init__(update_slots=_check_bool("ApplyAdagrad", "update_slots", update_slots))

    def __call__(self, var, accum, lr, grad):
        _check_shape("ApplyAdagrad", var, grad)
        new_accum = F.identity(accum)   # the output is a Tensor, as MindSpore's, never the Parameter
        if self.update_slots:
            new_accum = accum + grad * grad
            F.assign(accum, new_accum)
        return F.assign(var, var - lr * grad / F.sqrt(new_accum)), new_accum


class ApplyAdadelta(_Update):
    """Adadelta: ``accum = rho * accum + (1 - rho) * grad^2``; ``update = sqrt(accum_update + epsilon) * grad /
    sqrt(accum + epsilon)``; ``accum_update = rho * accum_update + (1 - rho) * update^2``; ``var -= lr * update``.

    Inputs:
        var, accum, accum_update (Parameter), lr, rho, epsilon (Union[float, Tensor]), grad (Tensor).

    Outputs:
        tuple of Tensors ``(var, accum, accum_update)`` after the update.
    """

    def __init__(self):
        super().__init__()

    def __call__(self, var, accum, accum_update, lr, rho, epsilon, grad):
        _check_shape("ApplyAdadelta", var, grad)
        if not isinstance(rho, Tensor):  # 1 - rho in the variable's dtype, as MindSpore's kernel computes it
            rho = Tensor(rho, var.dtype)
        new_accum = rho * accum + (1 - rho) * grad * grad  # the CPU kernel's order of operations
        update = F.sqrt(accum_update + epsilon) * (grad / F.sqrt(new_accum + epsilon))
        F.assign(accum, new_accum)
        new_accum_update = F.assign(accum_update, rho * accum_update + (1 - rho) * update * update)
        return F.assign(var, var - lr * update), new_accum, new_accum_update


# ---------------------------------------------------------------- gradient descent
__all__ += ["ApplyGradientDescent", "ApplyProximalGradientDescent"]


class ApplyGradientDescent(_Update):
    """``var -= alpha * delta``.

    Inputs:
        var (Parameter), alpha (Union[Number, Tensor]), delta (Tensor).

    Outputs:
        Tensor, ``var`` after the update.
    """

    def __init__(self):
        super().__init__()

    def __call__(self, var, alpha, delta):
        _check_shape("ApplyGradientDescent", var, delta)
        return F.assign(var, var - alpha * delta)


class ApplyProximalGradientDescent(_Update):
    """The proximal step of ``prox = var - alpha * delta``: ``sign(prox) * max(|prox| - alpha * l1, 0) /
    (1 + alpha * l2)`` (with ``l1 = 0``, ``prox / (1 + alpha * l2)``).

    Inputs:
        var (Parameter), alpha, l1, l2 (Union[Number, Tensor]), delta (Tensor).

    Outputs:
        Tensor, ``var`` after the update.
    """

    def __init__(self):
        super().__init__()

    def __call__(self, var, alpha, l1, l2, delta):
        _check_shape("ApplyProximalGradientDescent", var, delta)
        prox = var - alpha * delta
        shrunk = F.sign(prox) * F.maximum(F.abs(prox) - alpha * l1, 0.0)
        return F.assign(var, shrunk / (1 + alpha * l2))
