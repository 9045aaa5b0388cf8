"""``mindspore.ops.auto_generate.gen_ops_prim``: the primitive classes of :mod:`npspore.ops.operations` and the
primitives MindSpore 2.x generates there (``AcosExt``, ``AddExt``, ``Inplace*``, ``DistComm*`` ...,
:data:`npspore.ops.gen_primitive_table.GENERATED`; the gradient primitives ``ReluGrad``, ``SigmoidGrad`` ...,
:data:`npspore.ops.grad_primitives.GENERATED`)."""
from __future__ import annotations

from ..missing_names import module_getattr
from . import gen_primitive_table as _gen_primitive_table
from . import generator_random_prims as _generator_random_prims
from . import grad_primitives as _grad_primitives
from . import operations as _operations

globals().update({name: getattr(_operations, name) for name in _operations.__all__})
globals().update(_gen_primitive_table.GENERATED)
globals().update({name: getattr(_grad_primitives, name) for name in _grad_primitives.GENERATED})
# the random primitives called with the generator's (seed, offset)
globals().update(_generator_random_prims.GENERATED)
__all__ = sorted({*_operations.__all__, *_gen_primitive_table.GENERATED, *_grad_primitives.GENERATED,
                  *_generator_random_prims.GENERATED})
__getattr__ = module_getattr("mindspore.ops.auto_generate.gen_ops_prim", globals())
