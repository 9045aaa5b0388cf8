"""Primitives of complex numbers, as ``mindspore.ops``: ``Complex``, ``Imag``, ``Angle``, ``Conj``, ``ComplexAbs``,
``ConjugateTranspose``.

npspore's op table is real-valued, so these run their NumPy forward on the host: eagerly at once, in compiled code
as a host call of the kernel. They are forward only: a gradient that reaches one raises npspore's
``RuntimeError`` naming it (MindSpore differentiates them; npspore's adjoints are real-valued).
"""
from __future__ import annotations

import numpy as np

from ..common.tensor import Tensor
from ..compiler.errors import located
from ..compiler.library import LIBRARY, check_not_traced
from .primitives import Primitive

__all__ = ["Complex", "Imag", "Angle", "Conj", "ComplexAbs", "ConjugateTranspose"]

_COMPLEX = (np.dtype(np.complex64), np.dtype(np.complex128))
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}


class _HostPrimitive(Primitive):
    """A primitive computed by NumPy on the host: ``_result`` checks the inputs' shapes and dtypes (and the
    constant arguments) and gives the result's; ``_forward`` computes it from the arrays."""

    _inputs: tuple = ("x",)

    def __init__(self) -> None:
        super().__init__(type(self).__name__)

    def _result(self, shapes: tuple, dtypes: tuple, *constants) -> tuple[tuple, np.dtype]:
        raise NotImplementedError

    @staticmethod
    def _forward(*arrays_and_constants) -> np.ndarray:
        raise NotImplementedError

    def _split(self, args: tuple) -> tuple[tuple, tuple]:
        if len(args) < len(self._inputs):
            raise TypeError(f"For '{self.name}', expect the inputs {list(self._inputs)}, but got {len(args)} inputs.")
        return tuple(args[:len(self._inputs)]), tuple(args[len(self._inputs):])

    def __call__(self, *args) -> Tensor:
        tensors, constants = self._split(args)
        for name, value in zip(self._inputs, tensors):
            if not isinstance(value, Tensor):
                raise TypeError(f"For '{self.name}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
            check_not_traced(value, f"'{self.name}' (computed by NumPy on the host)")
        arrays = tuple(t.asnumpy() for t in tensors)
        shape, dtype = self._result(tuple(a.shape for a in arrays), tuple(a.dtype for a in arrays), *constants)
        return Tensor(np.asarray(self._forward(*arrays, *constants), dtype).reshape(shape))


def _stage(primitive: _HostPrimitive, specializer, args, kwargs, loc):
    """The primitive in compiled code: its checks at compile time, its forward a host call of the kernel."""
    tensors, constants = primitive._split(tuple(args) + tuple(kwargs.values()))
    if not all(hasattr(t, "aval") for t in tensors):
        raise located(TypeError(f"For '{primitive.name}', the inputs {list(primitive._inputs)} must be Tensors."), loc)
    try:
        result = primitive._result(tuple(tuple(t.aval.shape) for t in tensors), tuple(t.aval.dtype for t in tensors),
                                   *constants)
    except (TypeError, ValueError) as error:
        raise located(error, loc) from None
    key = _KEYS[type(primitive)]
    return specializer.host_effect(key, (*tensors, *constants), loc, (result,))[0]


class Complex(_HostPrimitive):
    """``Complex()(real, imag)``: ``real + 1j * imag`` of two float32 (complex64) or float64 (complex128) Tensors
    of one shape and dtype."""

    _inputs = ("real", "imag")

    def _result(self, shapes, dtypes):
        if dtypes[0] != dtypes[1]:
            raise TypeError(f"For primitive[{self.name}], the input type must be same.")
        if dtypes[0] not in _FLOATS:
            raise TypeError(f"For '{self.name}', the 'real' must be float32 or float64, but got {dtypes[0]}.")
        if shapes[0] != shapes[1]:
            raise ValueError(f"For '{self.name}', the shapes of 'real' and 'imag' must be the same, but got "
                             f"{list(shapes[0])} and {list(shapes[1])}.")
        return shapes[0], np.dtype(np.complex64 if dtypes[0] == np.float32 else np.complex128)

    @staticmethod
    def _forward(real, imag):
        return (real + 1j * imag).astype(np.complex64 if real.dtype == np.float32 else np.complex128)


class _ComplexToReal(_HostPrimitive):
    """A function of a complex Tensor with real results of its precision (a real input: ``_real_input``)."""

    _real_input = None

    def _result(self, shapes, dtypes):
        if dtypes[0] in _COMPLEX:
            return shapes[0], _REAL_OF[dtypes[0]]
        if self._real_input is not None and np.dtype(dtypes[0]).kind in "fiub":
            return shapes[0], np.dtype(dtypes[0])
        raise TypeError(f"For '{self.name}', the 'x' must be a complex64 or complex128 Tensor, but got {dtypes[0]}.")


class Imag(_ComplexToReal):
    """``Imag()(x)``: the imaginary parts (zeros of a real Tensor's dtype, as MindSpore 2.10)."""

    _real_input = "zeros"

    @staticmethod
    def _forward(x):
        return np.imag(x)


class Angle(_ComplexToReal):
    """``Angle()(x)``: the arguments ``atan2(imag, real)`` of a complex Tensor."""

    @staticmethod
    def _forward(x):
        return np.angle(x)


class ComplexAbs(_ComplexToReal):
    """``ComplexAbs()(x)``: the moduli ``sqrt(real ** 2 + imag ** 2)`` of a complex Tensor."""

    @staticmethod
    def _forward(x):
        return np.abs(x)


class Conj(_HostPrimitive):
    """``Conj()(x)``: the complex conjugates (a real Tensor itself)."""

    def _result(self, shapes, dtypes):
        return shapes[0], np.dtype(dtypes[0])

    @staticmethod
    def _forward(x):
        return np.conj(x)


class ConjugateTranspose(_HostPrimitive):
    """``ConjugateTranspose()(x, perm)``: the conjugates of ``x`` with its axes permuted by the tuple ``perm``."""

    def _result(self, shapes, dtypes, perm=None):
        if not isinstance(perm, tuple) or sorted(perm) != list(range(len(shapes[0]))):
            raise ValueError(f"For '{self.name}', the 'perm' must be a tuple permuting the {len(shapes[0])} axes of "
                             f"'x', but got {perm!r}.")
        return tuple(shapes[0][axis] for axis in perm), np.dtype(dtypes[0])

    @staticmethod
    def _forward(x, perm):
        return np.conj(np.transpose(x, perm))


_KEYS = {cls: LIBRARY.host_function(lambda *values, cls=cls: (np.asarray(cls._forward(*values)),),
                                    underivable=f"For '{cls.__name__}', the gradient of complex numbers is not "
                                                f"implemented in npspore (its ops differentiate real numbers).")
         for cls in (Complex, Imag, Angle, Conj, ComplexAbs, ConjugateTranspose)}
LIBRARY.register_stager(_HostPrimitive, _stage)
