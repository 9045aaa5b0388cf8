"""``mindspore.mint``: MindSpore's PyTorch-style functions (``dim``/``keepdim``, keyword ``dtype``, ``size``)
and its submodules ``mint.nn`` (layers), ``mint.nn.functional``, ``mint.linalg`` and ``mint.optim``.

``from mindspore import mint`` then ``mint.cat([a, b], dim=1)``, ``mint.sum(x, dim=0, keepdim=True)``,
``mint.arange(5)``. Where MindSpore's ``mint.X`` is the very object ``ops.X`` (``mint.matmul``, ``mint.flip``,
``mint.tan`` ...), npspore's is too; the others are written over the op table's ops (:mod:`.creation`,
:mod:`.elementwise`, :mod:`.reductions`, :mod:`.shapes`), so they run eagerly and compiled and differentiate.
Names MindSpore has and npspore does not yet raise ``AttributeError`` saying so.
"""
from __future__ import annotations

from ..missing_names import module_getattr
from ..ops import (abs, ceil, cos, erf, exp, flip, floor, greater, gt, isnan, le, less,  # noqa: F401
                              less_equal, log, log1p, logical_and, logical_not, logical_or, lt, masked_select,
                              matmul, maximum, minimum, ne, neg, negative, not_equal, reciprocal, round, rsqrt,
                              sigmoid, sign, sin, square, tan, tanh, tile)
from . import creation as _creation, elementwise as _elementwise, reductions as _reductions, shapes as _shapes
from .creation import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .reductions import *  # noqa: F401,F403,A004
from .shapes import *  # noqa: F401,F403

__all__ = ["abs", "ceil", "cos", "erf", "exp", "flip", "floor", "greater", "gt", "isnan", "le", "less", "less_equal",
           "log", "log1p", "logical_and", "logical_not", "logical_or", "lt", "masked_select", "matmul", "maximum",
           "minimum", "ne", "neg", "negative", "not_equal", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin",
           "square", "tan", "tanh", "tile", *_creation.__all__, *_elementwise.__all__, *_reductions.__all__,
           *_shapes.__all__]

# mint names that are ops' functions (MindSpore's inverse_ext, bitwise_*_ext: the same values)
from ..ops import bitwise_and, bitwise_or, bitwise_xor, floor_divide, inverse  # noqa: E402,F401
__all__ += ["bitwise_and", "bitwise_or", "bitwise_xor", "floor_divide", "inverse"]

# the functions mindspore.mint shares with mindspore.ops (the same objects in MindSpore 2.10)
_SHARED_WITH_OPS = ("constexpr", "cosh", "cumprod", "dstack", "eye", "gcd", "hstack", "isinf", "nonzero", "polar",
                    "sinh", "take")
__getattr__ = module_getattr("mindspore.mint", globals(),
                             elsewhere={name: f"npspore.ops.{name}" for name in _SHARED_WITH_OPS})
