"""``ops.clip_by_norm``: scale a tensor, or a tuple of tensors jointly, so that its p-norm is at most ``max_norm``
(MindSpore 2.10's functional form, which follows PyTorch's ``clip_grad_norm_``)."""
from __future__ import annotations

import math
from typing import Any

from ..common.tensor import Tensor
from . import functional as F

__all__ = ["clip_by_norm"]


def _vector_norm(t: Tensor, norm_type: float) -> Tensor:
    if norm_type == math.inf:
        return F.abs(t).max()
    return F.sum(F.abs(t) ** norm_type) ** (1.0 / norm_type)


def _total_norm(tensors: list, norm_type: float) -> Tensor:
    """The norm of the tensors' norms (their joint norm)."""
    return _vector_norm(F.stack([_vector_norm(t, norm_type) for t in tensors]), norm_type)


def clip_by_norm(x: Tensor | tuple | list, max_norm: Any, norm_type: float = 2.0,
                 error_if_nonfinite: bool = False) -> Tensor | tuple:
    """``x * min(1, max_norm / (norm + 1e-6))``, where ``norm`` is the ``norm_type``-norm of ``x`` (of all the
    tensors of a tuple or list together, which are scaled alike and returned as a tuple); each result keeps
    its tensor's dtype.

    Raises:
        RuntimeError: if ``error_if_nonfinite`` and the norm is inf or nan.
    """
    tensors = list(x) if isinstance(x, (tuple, list)) else [x]
    norm = _total_norm([t.astype("float32") for t in tensors], float(norm_type))
    if error_if_nonfinite and not math.isfinite(float(norm.asnumpy())):
        raise RuntimeError(f"For clip_by_norm, the total norm of order {float(norm_type)} from input is non-finite.")
    scale = F.clamp(max_norm / (norm + 1e-6), max=1.0)
    clipped = tuple((t * scale).astype(t.dtype) for t in tensors)
    return clipped if isinstance(x, (tuple, list)) else clipped[0]
