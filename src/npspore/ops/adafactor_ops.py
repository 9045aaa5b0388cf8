"""The Adafactor update (one Parameter's step, as MindSpore 2.10 computes it) and the deprecated primitive
``FusedAdaFactor`` that applies it; ``nn.optim.AdaFactor`` steps through :func:`adafactor_update` too."""
from __future__ import annotations

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..core.logs import mindspore_log
from . import functional as F
from .optimizer_ops import _Update

__all__ = ["FusedAdaFactor"]


def _rms(x):
    return F.sqrt(F.reduce_mean(F.square(x)))


def adafactor_update(eps, clip_threshold, beta1, beta2t, weight_decay, learning_rate, grad, param, exp_avg,
                     exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, *, scale_parameter, first_moment, decay):
    """One Adafactor step of ``param`` (assigned in place, as are the moments it uses), computed in float32 when
    the gradient or Parameter is float16: the second moment factored into row and column means for a matrix,
    whole for a vector; the update clipped to a root mean square of ``clip_threshold``, scaled by the Parameter's
    root mean square (``scale_parameter``), averaged with ``beta1`` (``first_moment``), with weight decay
    (``decay``). ``eps`` holds (added to the squared gradient, least Parameter scale)."""
    grad_dtype = mstype.float32 if grad.dtype == mstype.float16 else grad.dtype
    grad = F.cast(grad, grad_dtype)
    weights = F.cast(param, mstype.float32) if param.dtype == mstype.float16 else param
    lr = learning_rate * F.maximum(eps[1], _rms(weights)) if scale_parameter else learning_rate
    update = F.square(grad) + eps[0]
    if grad.ndim >= 2:
        row = F.cast(exp_avg_sq_row, grad_dtype) * beta2t + F.reduce_mean(update, -1) * (1.0 - beta2t)
        col = F.cast(exp_avg_sq_col, grad_dtype) * beta2t + F.reduce_mean(update, -2) * (1.0 - beta2t)
        F.assign(exp_avg_sq_row, F.cast(row, exp_avg_sq_row.dtype))
        F.assign(exp_avg_sq_col, F.cast(col, exp_avg_sq_col.dtype))
        row_factor = F.expand_dims(1.0 / F.sqrt(row / F.reduce_mean(row, -1, True)), -1)
        update = row_factor * (1.0 / F.sqrt(F.expand_dims(col, -2))) * grad
    else:
        whole = F.cast(exp_avg_sq, grad_dtype) * beta2t + update * (1.0 - beta2t)
        F.assign(exp_avg_sq, F.cast(whole, exp_avg_sq.dtype))
        update = 1.0 / F.sqrt(F.cast(exp_avg_sq, grad_dtype)) * grad
    update = update / F.maximum(_rms(update) / clip_threshold, 1.0) * lr
    if first_moment:
        averaged = exp_avg * beta1 + update * (1 - beta1)
        F.assign(exp_avg, F.cast(averaged, exp_avg.dtype))
        update = averaged
    if decay:
        weights = weights + weights * -weight_decay * lr
    F.assign(param, F.cast(weights - update, param.dtype))


class FusedAdaFactor(_Update):
    """One Adafactor step (see :func:`adafactor_update`) of ``param`` and its moments, in place. Deprecated by
    MindSpore 2.8 for ``ops.AdaFactor``: constructing one logs MindSpore's warning.

    Args:
        enable_scale_parameter (bool): scale the rate by the Parameter's root mean square. Default: ``False``.
        enable_first_moment (bool): average the update with ``beta1`` into ``exp_avg``. Default: ``False``.
        enable_weight_decay (bool): apply ``weight_decay``. Default: ``False``.

    Inputs:
        epsilon (Tensor) of 2 values, clip_threshold, beta1, beta2 (this step's ``beta2t``), weight_decay,
        learning_rate (Tensor scalars), gradient (Tensor), param, exp_avg, exp_avg_sq_row, exp_avg_sq_col,
        exp_avg_sq (Parameter).

    Outputs:
        tuple of one Tensor of ``param``'s shape and dtype, zeros (MindSpore's CPU kernel's output).

    Raises:
        TypeError: if a flag is not a bool.
    """

    def __init__(self, enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False):
        mindspore_log().warning("'FusedAdaFactor' is deprecated from version 2.8.0 and will be removed in a future "
                                "version, use 'ops.AdaFactor' instead.")
        for name, value in (("enable_scale_parameter", enable_scale_parameter),
                            ("enable_first_moment", enable_first_moment), ("enable_weight_decay", enable_weight_decay)):
            check_value_type(name, value, [bool], "FusedAdaFactor")
        super().__init__(enable_scale_parameter=enable_scale_parameter, enable_first_moment=enable_first_moment,
                         enable_weight_decay=enable_weight_decay)

    def __call__(self, epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient, param, exp_avg,
                 exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq):
        adafactor_update(epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient, param,
                         exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq,
                         scale_parameter=self.enable_scale_parameter, first_moment=self.enable_first_moment,
                         decay=self.enable_weight_decay)
        return (F.zeros_like(param),)
