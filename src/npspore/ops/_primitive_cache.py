"""``mindspore.ops._primitive_cache``: ``_get_cache_prim(cls)(*args, **kwargs)``, the primitive ``cls(*args,
**kwargs)``, as MindSpore's functional ops build their primitives inside functions. MindSpore keeps one
instance per set of arguments; an npspore primitive holds only its attributes, so a new one computes the same."""
from __future__ import annotations

from typing import Callable

__all__ = ["_get_cache_prim"]


def _get_cache_prim(cls: type) -> Callable:
    """What builds the primitive ``cls`` from its constructor's arguments: ``cls`` itself.

    Examples:
        >>> _get_cache_prim(P.ReduceSum)(keep_dims=True)(x, 1)
    """
    return cls
