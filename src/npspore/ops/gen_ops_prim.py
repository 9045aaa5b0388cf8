"""``mindspore.ops.auto_generate.gen_ops_prim``: the primitive classes of :mod:`npspore.ops.operations` and the
primitives MindSpore 2.x generates there (``AcosExt``, ``AddExt``, ``Inplace*``, ``DistComm*`` ...,
:data:`npspore.ops.gen_primitive_table.GENERATED`)."""
from __future__ import annotations

from ..missing_names import module_getattr
from . import gen_primitive_table as _gen_primitive_table
from . import operations as _operations

globals().update({name: getattr(_operations, name) for name in _operations.__all__})
globals().update(_gen_primitive_table.GENERATED)
__all__ = sorted({*_operations.__all__, *_gen_primitive_table.GENERATED})
__getattr__ = module_getattr("mindspore.ops.auto_generate.gen_ops_prim", globals())
