"""``mindspore.ops._primitive_cache``: ``_get_cache_prim``, which MindSpore's own functional ops and many ported
scripts use to build a primitive inside a function."""
from __future__ import annotations

from typing import Callable

__all__ = ["_get_cache_prim"]


def _get_cache_prim(cls: type) -> Callable:
    """The constructor of the primitive class ``cls``: ``_get_cache_prim(P.LpNorm)(axis, 2)`` is
    ``P.LpNorm(axis, 2)``, eagerly and in compiled code.

    MindSpore's compiled graphs get exactly this; its PyNative mode also keeps one instance per argument list,
    which saves only construction time (an npspore primitive holds no state a second call could see).
    """
    return cls
