"""Tensors, Parameters, dtypes, initializers and mutable: the data side of npspore.

As in ``mindspore.common``: ``from npspore.common import dtype as mstype``,
``from npspore.common import mutable`` (the function), ``from npspore.common.initializer import One``.
"""
from . import dtype, initializer, seed  # noqa: F401
from .mutable import mutable  # noqa: F401
from .parameter import Parameter, ParameterTuple  # noqa: F401
from .seed import get_seed, set_seed  # noqa: F401
from .tensor import Tensor, tensor  # noqa: F401

__all__ = ["dtype", "initializer", "seed", "mutable", "Parameter", "ParameterTuple", "Tensor", "tensor",
           "set_seed", "get_seed"]
