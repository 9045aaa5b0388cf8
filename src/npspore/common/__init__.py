"""Tensors, Parameters, dtypes, initializers and mutable: the data side of npspore.

As in ``mindspore.common``: ``from npspore.common import dtype as mstype``,
``from npspore.common import mutable`` (the function), ``from npspore.common.initializer import One``.
"""
from . import dtype, initializer, seed, tensor as _tensor_module
from .mutable import mutable
from .parameter import Parameter, ParameterTuple
from .seed import get_seed, set_seed
from .sparse_tensor import RowTensor
from .tensor import Tensor

__all__ = ["dtype", "initializer", "seed", "mutable", "Parameter", "ParameterTuple", "Tensor", "set_seed",
           "get_seed", "RowTensor"]

# Tensor's operators apply ops through npspore.ops.eager.run. npspore.ops imports this package, so
# the runner is bound only now, when every name above exists.
from ..ops.eager import run as _run  # noqa: E402

_tensor_module.run = _run
