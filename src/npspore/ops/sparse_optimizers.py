"""Sparse optimizer primitives, as ``mindspore.ops.SparseApplyAdagrad``, ``SparseApplyFtrl``, ``SparseApplyRMSProp``
...: the rows of a Parameter (and of its state Parameters) that ``indices`` name are updated in place by the
optimizer's formula on those rows' gradients ``grad``; the other rows keep their values, as do rows an index
outside ``[0, N)`` would name (MindSpore's CPU kernels skip them). Each returns the updated Parameters as a tuple.

Written over op-table ops (gather, a membership mask, ``ops.assign``), so they run eagerly and in compiled code,
where the writes are assignment effects of the kernel. ``indices`` must not repeat (MindSpore: "undefined").
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .optimizer_ops import _Update
from .primitives import _check_bool

__all__ = ["SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyProximalAdagrad", "SparseApplyFtrl",
           "SparseApplyRMSProp", "SparseApplyAdadelta"]


def _check_float(name: str, **values: Any) -> dict:
    for argument, value in values.items():
        check_value_type(argument, value, [float], name)
    return values


def _rows(name: str, slots: tuple, grad: Tensor, indices: Tensor, whole: bool = False) -> tuple:
    """The rows ``indices`` names of each Parameter of ``slots`` (checked; an index out of range reads row 0 or
    the last), ``grad`` in their dtype, and the (N, k, 1...) mask of which var row each index names.
    ``whole``: ``grad`` must have ``var``'s shape."""
    var = slots[0]
    if whole and tuple(grad.shape) != tuple(var.shape):
        raise ValueError(f"For primitive[{name}], the shape of grad : {list(grad.shape)} must be equal to "
                         f"{list(var.shape)}.")
    if not isinstance(indices, Tensor) or indices.dtype not in (mstype.int32, mstype.int64) or len(indices.shape) != 1:
        raise TypeError(f"For '{name}', the 'indices' must be a 1-D Tensor of int32 or int64.")
    for slot in slots[1:]:
        if tuple(slot.shape) != tuple(var.shape):
            raise ValueError(f"For '{name}', the state Parameters must have the shape of 'var' {tuple(var.shape)}, "
                             f"but got {tuple(slot.shape)}.")
    if tuple(grad.shape) != (indices.shape[0],) + tuple(var.shape[1:]):
        raise ValueError(f"For '{name}', the shape of 'grad' must be (len(indices),) + var.shape[1:] = "
                         f"{(indices.shape[0],) + tuple(var.shape[1:])}, but got {tuple(grad.shape)}.")
    rows, inner = var.shape[0], tuple(var.shape[1:])
    position = run("cast", indices, dtype=np.int64)
    member = run("equal", Tensor(np.arange(rows).reshape((rows, 1)), mstype.int64),
                 run("expand_dims", position, axis=0))   # (rows, k): var row r is updated by grad row j
    member = run("reshape", member, shape=(rows, indices.shape[0]) + (1,) * len(inner))
    safe = run("clip", position, 0, rows - 1)
    return [F.gather(slot, safe, 0) for slot in slots] + [F.cast(grad, var.dtype), member]


def _write_rows(slots: tuple, new_rows: tuple, member: Tensor) -> tuple:
    """Each Parameter of ``slots`` with its rows named by ``member`` (see :func:`_rows`) replaced by its new rows,
    in place; returns them."""
    touched = run("any", member, axis=1)
    updated = []
    for slot, new in zip(slots, new_rows):
        spread = run("sum", run("where", member, run("expand_dims", new, axis=0), run("zeros_like", new)), axis=1)
        updated.append(F.assign(slot, run("where", touched, spread, slot)))
    return tuple(updated)


class SparseApplyAdagrad(_Update):
    """``SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var, accum, grad, indices)``: on the named
    rows ``accum += grad ** 2`` (with ``update_slots``), ``var -= lr * grad / sqrt(accum)``; returns
    ``(var, accum)``."""

    def __init__(self, lr, update_slots=True, use_locking=False):
        super().__init__(**_check_float("SparseApplyAdagrad", lr=lr),
                         update_slots=_check_bool("SparseApplyAdagrad", "update_slots", update_slots),
                         use_locking=_check_bool("SparseApplyAdagrad", "use_locking", use_locking))

    def __call__(self, var, accum, grad, indices):
        v, a, g, member = _rows(self.name, (var, accum), grad, indices)
        a = a + g * g if self.update_slots else a
        return _write_rows((var, accum), (v - self.lr * g / F.sqrt(a), a), member)


class SparseApplyAdagradV2(_Update):
    """``SparseApplyAdagradV2(lr, epsilon, use_locking=False, update_slots=True)(var, accum, grad, indices)``: on
    the named rows ``accum += grad ** 2`` (with ``update_slots``), ``var -= lr * grad / sqrt(accum + epsilon)``
    (MindSpore's CPU kernel; its docstring writes ``sqrt(accum) + epsilon``); returns ``(var, accum)``."""

    def __init__(self, lr, epsilon, use_locking=False, update_slots=True):
        super().__init__(**_check_float("SparseApplyAdagradV2", lr=lr, epsilon=epsilon),
                         use_locking=_check_bool("SparseApplyAdagradV2", "use_locking", use_locking),
                         update_slots=_check_bool("SparseApplyAdagradV2", "update_slots", update_slots))

    def __call__(self, var, accum, grad, indices):
        v, a, g, member = _rows(self.name, (var, accum), grad, indices)
        a = a + g * g if self.update_slots else a
        return _write_rows((var, accum), (v - self.lr * g / F.sqrt(a + self.epsilon), a), member)


class SparseApplyProximalAdagrad(_Update):
    """``SparseApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, grad, indices)``: on the named rows
    ``accum += grad ** 2``; with ``rate = lr / sqrt(accum)`` and ``prox = var - rate * grad``, ``var =
    sign(prox) * max(|prox| - rate * l1, 0) / (1 + rate * l2)`` (MindSpore's CPU kernel); returns ``(var, accum)``."""

    def __init__(self, use_locking=False):
        super().__init__(use_locking=_check_bool("SparseApplyProximalAdagrad", "use_locking", use_locking))

    def __call__(self, var, accum, lr, l1, l2, grad, indices):
        v, a, g, member = _rows(self.name, (var, accum), grad, indices)
        a = a + g * g
        rate = lr / F.sqrt(a)
        prox = v - rate * g
        shrunk = run("maximum", run("abs", prox) - rate * l1, 0)
        return _write_rows((var, accum), (F.sign(prox) * shrunk / (1 + rate * l2), a), member)


class SparseApplyFtrl(_Update):
    """``SparseApplyFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad, indices)``: the
    FTRL-proximal update of the named rows; returns ``(var, accum, linear)``."""

    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        super().__init__(**_check_float("SparseApplyFtrl", lr=lr, l1=l1, l2=l2, lr_power=lr_power),
                         use_locking=_check_bool("SparseApplyFtrl", "use_locking", use_locking))

    def __call__(self, var, accum, linear, grad, indices):
        v, a, lin, g, member = _rows(self.name, (var, accum, linear), grad, indices)
        new_a = a + g * g
        lin = lin + g - (F.pow(new_a, -self.lr_power) - F.pow(a, -self.lr_power)) / self.lr * v
        quadratic = F.pow(new_a, -self.lr_power) / self.lr + 2 * self.l2
        solved = (F.sign(lin) * self.l1 - lin) / quadratic
        v = run("where", run("greater", run("abs", lin), self.l1), solved, run("zeros_like", lin))
        return _write_rows((var, accum, linear), (v, new_a, lin), member)


class SparseApplyRMSProp(_Update):
    """``SparseApplyRMSProp(rho, momentum, epsilon, use_locking=False)(var, ms, mom, lr, grad, indices)``: on the
    named rows ``ms = rho ms + (1 - rho) grad ** 2``, ``mom = momentum mom + lr grad / sqrt(ms + epsilon)``,
    ``var -= mom``; returns ``(var, ms, mom)``."""

    def __init__(self, rho, momentum, epsilon, use_locking=False):
        super().__init__(**_check_float("SparseApplyRMSProp", rho=rho, momentum=momentum, epsilon=epsilon),
                         use_locking=_check_bool("SparseApplyRMSProp", "use_locking", use_locking))

    def __call__(self, var, ms, mom, lr, grad, indices):
        v, s, m, g, member = _rows(self.name, (var, ms, mom), grad, indices, whole=True)
        s = s * self.rho + g * g * (1 - self.rho)
        m = m * self.momentum + lr * g / F.sqrt(s + self.epsilon)
        return _write_rows((var, ms, mom), (v - m, s, m), member)


class SparseApplyAdadelta(_Update):
    """``SparseApplyAdadelta(epsilon, use_locking=False)(var, accum, accum_update, lr, rho, grad, indices)``: on
    the named rows ``accum = rho accum + (1 - rho) grad ** 2``, ``update = sqrt(accum_update + epsilon) /
    sqrt(accum + epsilon) grad``, ``accum_update = rho accum_update + (1 - rho) update ** 2``, ``var -= lr update``;
    returns ``(var, accum, accum_update)``."""

    def __init__(self, epsilon, use_locking=False):
        super().__init__(**_check_float("SparseApplyAdadelta", epsilon=epsilon),
                         use_locking=_check_bool("SparseApplyAdadelta", "use_locking", use_locking))

    def __call__(self, var, accum, accum_update, lr, rho, grad, indices):
        v, a, u, g, member = _rows(self.name, (var, accum, accum_update), grad, indices, whole=True)
        a = a * rho + g * g * (1 - rho)
        step = F.sqrt(u + self.epsilon) / F.sqrt(a + self.epsilon) * g
        u = u * rho + step * step * (1 - rho)
        return _write_rows((var, accum, accum_update), (v - lr * step, a, u), member)
