"""``mindspore.ops.auto_generate.gen_ops_prim``: the primitive classes of :mod:`npspore.ops.operations` and the
gradient primitives MindSpore generates there too (``ReluGrad``, ``SigmoidGrad`` ...,
:data:`npspore.ops.grad_primitives.GENERATED`)."""
from __future__ import annotations

from ..missing_names import module_getattr
from . import grad_primitives as _grad_primitives
from . import operations as _operations

globals().update({name: getattr(_operations, name) for name in _operations.__all__})
globals().update({name: getattr(_grad_primitives, name) for name in _grad_primitives.GENERATED})
__all__ = sorted({*_operations.__all__, *_grad_primitives.GENERATED})
__getattr__ = module_getattr("mindspore.ops.auto_generate.gen_ops_prim", globals())
