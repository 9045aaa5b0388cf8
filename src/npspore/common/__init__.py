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
from ..missing_names import module_getattr as _module_getattr  # noqa: E402

_tensor_module.run = _run

# the names mindspore.common shares with the mindspore package (the same objects in MindSpore 2.10)
_SHARED_WITH_PACKAGE = ("COOTensor", "Generator", "JitConfig", "QuantDtype", "Symbol", "TensorType", "bfloat16", "bool_",
                        "complex128", "complex64", "default_generator", "double", "dtype_to_nptype", "dtype_to_pytype",
                        "float16", "float32", "float64", "float_", "from_numpy", "get_rng_state", "half",
                        "initial_seed", "int16", "int32", "int64", "int8", "int_", "jit", "jit_class",
                        "lazy_inline", "manual_seed", "pytype_to_dtype", "set_recursion_limit", "set_rng_state",
                        "single", "string", "tensor_type", "uint16", "uint32", "uint64", "uint8")
__getattr__ = _module_getattr("mindspore.common", globals(), elsewhere={
    **{name: f"npspore.{name}" for name in _SHARED_WITH_PACKAGE}, "is_tensor": "npspore.ops.is_tensor"})
