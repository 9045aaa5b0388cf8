"""``mindspore.ops.operations`` (imported as ``P``): every primitive class of :mod:`npspore.ops`,
plus the old spellings MindSpore still accepts (``P.TensorAdd`` is ``Add``, ``P.Pack`` is ``Stack`` ...).

Scripts write ``from mindspore.ops import operations as P`` and then ``P.MatMul(transpose_b=True)``.
A primitive npspore lacks raises ``AttributeError`` saying so and naming the closest one it has.
"""
from __future__ import annotations

from .. import ops as _ops
from ..missing_names import module_getattr
from .primitives import Primitive

_PRIMITIVES = {name: value for name, value in vars(_ops).items()
               if isinstance(value, type) and issubclass(value, Primitive)}
# Deprecated aliases of mindspore.ops.deprecated (MindSpore 2.10), where npspore has the primitive.
_DEPRECATED = {"TensorAdd": "Add", "Pack": "Stack", "Unpack": "Unstack", "GatherV2": "Gather", "Gelu": "GeLU",
               "FastGelu": "FastGeLU", "identity": "Identity"}
_PRIMITIVES.update({old: _PRIMITIVES[new] for old, new in _DEPRECATED.items() if new in _PRIMITIVES})

globals().update(_PRIMITIVES)
__all__ = sorted(_PRIMITIVES)
# the non-primitive classes MindSpore keeps here too (and in ``_inner_ops``, an alias of this module)
_ELSEWHERE = {"Custom": "npspore.ops.Custom", "HookBackward": "npspore.ops.HookBackward",
              "InsertGradientOf": "npspore.ops.InsertGradientOf", "ReduceOp": "npspore.ops.ReduceOp",
              "GlobalComm": "npspore.communication.management.GlobalComm"}
__getattr__ = module_getattr("mindspore.ops.operations", globals(), elsewhere=_ELSEWHERE)
# A package of no files: its submodules (_grad_ops) are the aliased paths of npspore.module_aliases.
__path__: list[str] = []
