"""In-place Tensor methods (``x.add_(y)``, ``x.fill_(0.0)``, ``p.copy_(q)``), as MindSpore 2.x documents them.

Each method computes its out-of-place counterpart and writes the result into the Tensor's data, keeping the
Tensor's shape and dtype, and returns the Tensor itself. The write is :func:`_write`:

* eagerly it copies the result into the Tensor's array (``ops.assign``), so every Tensor sharing that array
  sees it;
* in compiled code, on a Parameter (``self.w.add_(dw)``) it is ``ops.assign(self.w, ...)``, an assignment
  effect later reads of the Parameter see; on any other tensor (a local value, an input) it raises
  ``NotSupportedError`` at the user's line: compiled code has no aliasing for it to write through, and a
  silently different result is worse than an error. ``x = x.add(y)`` is the compilable spelling.

MindSpore 2.10 on CPU differs, observed: in PyNative mode ``add_``/``sub_``/``mul_``/``div_`` return a new
Tensor and leave ``self`` unchanged, and ``fill_``/``zero_``/``clamp_``/``masked_fill_`` raise (no CPU kernel);
under ``@jit`` ``x.add_(1.0)`` writes through to the caller's Tensor and ``self.w.add_(x)`` updates the
Parameter. npspore follows the documented semantics everywhere it can.
"""
from __future__ import annotations

from typing import Any

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..compiler.errors import NotSupportedError, located
from ..compiler.library import LIBRARY, check_not_traced
from ..mint import shapes as mint_shapes
from . import functional as F
from . import array_extra, array_functional, linalg_functional, math_functional
from . import primitive_arrays2, primitive_arrays_a_l, scatter_ops, segment_sparse
from .eager import assign


class _WriteCheck:
    """``_CHECK(name, tensor, value)``: refuse an in-place write compiled code cannot make or whose result does not
    fit. Eagerly it checks the shape (and refuses a traced non-Parameter); compiled code stages it with
    :func:`_stage_check`, which also refuses a tensor that is no Parameter.

    Raises:
        ValueError: if ``value``'s shape is not ``tensor``'s (a broadcast result larger than the Tensor).
    """

    def __call__(self, name: str, tensor: Tensor, value: Any) -> None:
        if not isinstance(tensor, LIBRARY.parameter_type):   # traced code (no source) updates only Parameters too
            check_not_traced(tensor, f"Tensor.{name} (an in-place update of a tensor that is no Parameter)")
        _check_shape(name, tuple(tensor.shape), tuple(value.shape) if isinstance(value, Tensor) else ())


def _check_shape(name: str, shape: tuple, value_shape: tuple) -> None:
    if value_shape and value_shape != shape:
        raise ValueError(f"For 'Tensor.{name}', the result of shape {list(value_shape)} cannot be written into the "
                         f"Tensor of shape {list(shape)}.")


def _stage_check(check: _WriteCheck, specializer: Any, args: tuple, kwargs: dict, loc: Any) -> None:
    """The check in compiled code, on abstract values: the target must be a captured Parameter."""
    name, target, value = args
    if not any(captured is target for obj, captured in specializer.captures.values()
               if isinstance(obj, LIBRARY.parameter_type)):
        raise located(NotSupportedError(
            f"Tensor.{name} writes into a tensor in place, which compiled code supports only on a Parameter "
            f"(self.weight.{name}(...)); rebind the name instead, e.g. x = x.{name.rstrip('_')}(...)"), loc)
    value_shape = tuple(value.aval.shape) if hasattr(value, "aval") else ()   # a tensor value, or a number
    try:
        _check_shape(name, tuple(target.aval.shape), value_shape)
    except ValueError as error:
        raise located(error, loc) from None


LIBRARY.register_stager(_WriteCheck, _stage_check)
_CHECK = _WriteCheck()


def _write(name, tensor, value):
    """``value`` written into ``tensor`` (cast to its dtype, ``ops.assign``, an assignment effect in compiled code),
    after :data:`_CHECK`; returns ``tensor``."""
    _CHECK(name, tensor, value)
    assign(tensor, value)
    return tensor


def add_(self, other, *, alpha=1):
    """In-place :meth:`Tensor.add`: ``self += alpha * other``; returns ``self``."""
    return _write("add_", self, F.add(self, other if alpha == 1 else F.mul(other, alpha)))


def sub_(self, other, *, alpha=1):
    """In-place :meth:`Tensor.sub`: ``self -= alpha * other``; returns ``self``."""
    return _write("sub_", self, F.sub(self, other if alpha == 1 else F.mul(other, alpha)))


def mul_(self, other):
    """In-place :meth:`Tensor.mul`: ``self *= other``; returns ``self``."""
    return _write("mul_", self, F.mul(self, other))


def div_(self, other, *, rounding_mode=None):
    """In-place :meth:`Tensor.div` (``rounding_mode`` ``None``, ``'floor'`` or ``'trunc'``); returns ``self``."""
    return _write("div_", self, F.div(self, other, rounding_mode=rounding_mode))


def copy_(self, src, non_blocking=False):
    """Copy ``src`` (broadcast to ``self``'s shape, cast to its dtype) into ``self``; returns ``self``.

    ``non_blocking`` is accepted for MindSpore compatibility (copies are synchronous).

    Raises:
        ValueError: if ``src`` does not broadcast to ``self``'s shape.
    """
    if not isinstance(src, Tensor):
        return _write("copy_", self, src)
    shape, src_shape = tuple(self.shape), tuple(src.shape)
    if len(src_shape) > len(shape) or any(s not in (1, d) for s, d in zip(src_shape[::-1], shape[::-1])):
        raise ValueError(f"For 'Tensor.copy_', 'src' of shape {list(src_shape)} does not broadcast to the Tensor's "
                         f"shape {list(shape)}.")
    return _write("copy_", self, F.broadcast_to(src, shape))


def zero_(self):
    """Fill ``self`` with zeros; returns ``self``."""
    return _write("zero_", self, F.zeros_like(self))


def fill_(self, value):
    """Fill ``self`` with ``value`` (a number or a 0-d Tensor); returns ``self``.

    Raises:
        TypeError: if ``value`` is neither a number nor a Tensor.
    """
    if not isinstance(value, (int, float, bool, Tensor)):
        raise TypeError(f"For 'Tensor.fill_', 'value' must be a number or a Tensor, but got {type(value).__name__}.")
    return _write("fill_", self, F.zeros_like(self) + F.cast(value, self.dtype) if isinstance(value, Tensor)
                  else F.full(self.shape, value, dtype=self.dtype))


def clamp_(self, min=None, max=None):  # noqa: A002 (MindSpore's argument names)
    """In-place :meth:`Tensor.clamp`; returns ``self``."""
    return _write("clamp_", self, F.clamp(self, min, max))


def masked_fill_(self, mask, value):
    """In-place :meth:`Tensor.masked_fill`: ``value`` where ``mask`` is true; returns ``self``."""
    return _write("masked_fill_", self, array_functional.masked_fill(self, mask, value))


def exp_(self):
    """In-place :meth:`Tensor.exp`; returns ``self``."""
    return _write("exp_", self, F.exp(self))


def log_(self):
    """In-place :meth:`Tensor.log`; returns ``self``."""
    return _write("log_", self, F.log(self))


def floor_(self):
    """In-place :meth:`Tensor.floor`; returns ``self``."""
    return _write("floor_", self, array_functional.floor(self))


def sigmoid_(self):
    """In-place :meth:`Tensor.sigmoid`; returns ``self``."""
    return _write("sigmoid_", self, F.sigmoid(self))


def tanh_(self):
    """In-place :meth:`Tensor.tanh`; returns ``self``."""
    return _write("tanh_", self, F.tanh(self))


def sign_(self):
    """In-place :meth:`Tensor.sign`; returns ``self``."""
    return _write("sign_", self, F.sign(self))


def erfinv_(self):
    """In-place :meth:`Tensor.erfinv`; returns ``self``."""
    return _write("erfinv_", self, math_functional.erfinv(self))


def remainder_(self, other):
    """In-place :meth:`Tensor.remainder`; returns ``self``."""
    return _write("remainder_", self, F.remainder(self, other))


def floor_divide_(self, other):
    """In-place :meth:`Tensor.floor_divide`; returns ``self``."""
    return _write("floor_divide_", self, F.floor_divide(self, other))


def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """In-place :meth:`Tensor.addmm`; returns ``self``."""
    return _write("addmm_", self, linalg_functional.addmm(self, mat1, mat2, beta=beta, alpha=alpha))


def index_add_(self, dim, index, source, *, alpha=1):
    """``self``'s slices ``index`` along ``dim`` increased by ``alpha`` times those of ``source``; returns ``self``."""
    return _write("index_add_", self, mint_shapes.index_add(self, dim, index, source, alpha=alpha))


def index_fill_(self, dim, index, value):
    """In-place :meth:`Tensor.index_fill`; returns ``self``."""
    return _write("index_fill_", self, primitive_arrays_a_l.index_fill(self, dim, index, value))


def index_copy_(self, dim, index, tensor):
    """``self``'s slices ``index`` along ``dim`` replaced by those of ``tensor``; returns ``self``."""
    moved = array_extra.swapaxes(self, 0, dim)
    updated = scatter_ops.tensor_scatter_update(moved, F.reshape(index, (-1, 1)), array_extra.swapaxes(tensor, 0, dim))
    return _write("index_copy_", self, array_extra.swapaxes(updated, 0, dim))


def scatter_(self, dim, index, src):
    """In-place :meth:`Tensor.scatter` (``src`` a Tensor or a number); returns ``self``."""
    if not isinstance(src, Tensor):
        src = F.full(tuple(index.shape), src, dtype=self.dtype)
    return _write("scatter_", self, scatter_ops.tensor_scatter_elements(self, index, src, dim))


def scatter_add_(self, dim, index, src):
    """In-place :meth:`Tensor.scatter_add`; returns ``self``."""
    return _write("scatter_add_", self, scatter_ops.tensor_scatter_elements(self, index, src, dim, "add"))


def masked_scatter_(self, mask, source):
    """In-place :meth:`Tensor.masked_scatter`; returns ``self``."""
    return _write("masked_scatter_", self, segment_sparse.masked_scatter(self, mask, source))


def index_put_(self, indices, values, accumulate=False):
    """In-place :meth:`Tensor.index_put`; returns ``self``."""
    return _write("index_put_", self, primitive_arrays2.index_put(self, values, indices, int(accumulate)))


def put_(self, index, source, accumulate=False):
    """``source`` written (or, with ``accumulate``, added) at the flat positions ``index`` of ``self``; returns
    ``self``."""
    flat = F.reshape(self, (-1,))
    positions, values = F.reshape(F.cast(index, mstype.int64), (-1, 1)), F.reshape(F.cast(source, self.dtype), (-1,))
    update = scatter_ops.tensor_scatter_add if accumulate else scatter_ops.tensor_scatter_update
    return _write("put_", self, F.reshape(update(flat, positions, values), tuple(self.shape)))


def fill_diagonal_(self, fill_value, wrap=False):
    """In-place :meth:`Tensor.fill_diagonal`; returns ``self``."""
    return _write("fill_diagonal_", self, primitive_arrays2.fill_diagonal(self, fill_value, wrap))


METHODS = {name: value for name, value in dict(globals()).items()
           if callable(value) and not isinstance(value, type) and getattr(value, "__module__", None) == __name__
           and name.endswith("_") and not name.startswith("_")}
"""The in-place methods of this module, by name (attached by ``tensor_methods.attach``)."""
