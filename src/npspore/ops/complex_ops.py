"""Primitives of complex numbers, as ``mindspore.ops``: ``Complex``, ``Real``, ``Imag``, ``Angle``, ``Conj``,
``ComplexAbs``, ``Polar``, ``ConjugateTranspose`` and ``FFTWithSize``; the functions ``polar``, ``view_as_real``,
``real``, ``imag``, ``conj`` and ``angle``.

``Conj`` and ``Real`` are the ops ``conj`` and ``real`` of the table; the others run their NumPy forward on the host:
eagerly at once, in compiled code as a host call of the kernel. ``Complex``, ``Imag``, ``Angle``, ``ComplexAbs``,
``Polar`` and ``view_as_real`` have MindSpore 2.10's gradients (``dL/dRe + i dL/dIm`` of a complex input, see
``compiler.complexadjoint``), computed on the host too and not differentiated again; a gradient that reaches
``ConjugateTranspose`` or ``FFTWithSize`` raises npspore's ``RuntimeError`` naming it.
"""
from __future__ import annotations

import numpy as np

from ..common.tensor import Tensor
from ..compiler.errors import located
from ..compiler.library import LIBRARY, check_not_traced
from .eager import run
from .primitives import Primitive

__all__ = ["Complex", "Real", "Imag", "Angle", "Conj", "ComplexAbs", "Polar", "ConjugateTranspose", "FFTWithSize",
           "polar", "view_as_real", "real", "imag", "conj", "angle"]

_COMPLEX = (np.dtype(np.complex64), np.dtype(np.complex128))
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}


class _HostPrimitive(Primitive):
    """A primitive computed by NumPy on the host: ``_result`` checks the inputs' shapes and dtypes (and the
    constant arguments) and gives the result's; ``_forward`` computes it from the arrays."""

    _inputs: tuple = ("x",)
    shown_name: str | None = None      # the name errors give, when it is not the class's

    def __init__(self) -> None:
        super().__init__(self.shown_name or type(self).__name__)

    def _result(self, shapes: tuple, dtypes: tuple, *constants) -> tuple[tuple, np.dtype]:
        raise NotImplementedError

    @staticmethod
    def _forward(*arrays_and_constants) -> np.ndarray:
        raise NotImplementedError

    def _attributes(self) -> tuple:
        """The constructor's arguments ``_result`` and ``_forward`` take after the call's constants."""
        return ()

    def _split(self, args: tuple) -> tuple[tuple, tuple]:
        if len(args) < len(self._inputs):
            raise TypeError(f"For '{self.name}', expect the inputs {list(self._inputs)}, but got {len(args)} inputs.")
        return tuple(args[:len(self._inputs)]), tuple(args[len(self._inputs):]) + self._attributes()

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
    return specializer.host_effect(key, (result[1].name, *tensors, *constants), loc, (result,))[0]


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


class Real(Primitive):
    """``Real()(x)``: the real parts (a real Tensor itself, as MindSpore 2.10): the op ``real`` of the table."""

    def __init__(self) -> None:
        super().__init__("Real")

    def __call__(self, x) -> Tensor:
        return run("real", x)


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


class Polar(_HostPrimitive):
    """``Polar()(abs, angle)``: the complex numbers ``abs * cos(angle) + 1j * abs * sin(angle)`` of two float32
    (complex64) or float64 (complex128) Tensors of one shape and dtype."""

    _inputs = ("abs", "angle")

    def _result(self, shapes, dtypes):
        if dtypes[0] not in _FLOATS:
            raise TypeError(f"For primitive[{self.name}], the input argument[abs] must be a type of "
                            f"{{Tensor[Float32], Tensor[Float64]}}, but got {dtypes[0]}.")
        if dtypes[0] != dtypes[1]:
            raise TypeError(f"For primitive[{self.name}], the input type must be same.")
        if shapes[0] != shapes[1]:
            raise ValueError(f"For '{self.name}', the shapes of 'abs' and 'angle' must be the same, but got "
                             f"{list(shapes[0])} and {list(shapes[1])}.")
        return shapes[0], np.dtype(np.complex64 if dtypes[0] == np.float32 else np.complex128)

    @staticmethod
    def _forward(abs, angle):
        return abs * np.cos(angle) + 1j * (abs * np.sin(angle))


class _ViewAsReal(_HostPrimitive):
    """``view_as_real``'s primitive: the real and imaginary parts of a complex Tensor on a new last axis."""

    _inputs = ("input",)
    shown_name = "view_as_real"

    def _result(self, shapes, dtypes):
        if dtypes[0] not in _COMPLEX:
            raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
        return tuple(shapes[0]) + (2,), _REAL_OF[dtypes[0]]

    @staticmethod
    def _forward(input):
        return np.stack([np.real(input), np.imag(input)], axis=-1)


class Conj(Primitive):
    """``Conj()(x)``: the complex conjugates (a real Tensor itself): the op ``conj`` of the table, whose gradient
    conjugates the cotangent."""

    def __init__(self) -> None:
        super().__init__("Conj")

    def __call__(self, x) -> Tensor:
        return run("conj", x)


class ConjugateTranspose(_HostPrimitive):
    """``ConjugateTranspose()(x, perm)``: the conjugates of ``x`` with its axes permuted by the tuple ``perm``."""

    def _result(self, shapes, dtypes, perm=None):
        if not isinstance(perm, tuple) or sorted(perm) != list(range(len(shapes[0]))):
            raise ValueError(f"For '{self.name}', the 'perm' must be a tuple permuting the {len(shapes[0])} axes of "
                             f"'x', but got {perm!r}.")
        return tuple(shapes[0][axis] for axis in perm), np.dtype(dtypes[0])

    @staticmethod
    def _forward(x, perm):
        return np.conj(np.transpose(x, tuple(int(axis) for axis in perm)))


class FFTWithSize(_HostPrimitive):
    """``FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=())(x)``: the discrete
    Fourier transform of the last ``signal_ndim`` dims of ``x``: complex to complex (``real=False``; the inverse
    with ``inverse``), real to complex (``real``, the last dim halved when ``onesided``) or, with ``real`` and
    ``inverse``, complex to real (of ``signal_sizes``, else ``2 * (n - 1)`` along the last dim); ``norm``
    'backward' scales the inverse by ``1 / n``, 'forward' the forward transform, 'ortho' both by ``1 / sqrt(n)``."""

    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True, signal_sizes=()):
        super().__init__()
        if not isinstance(signal_ndim, int) or isinstance(signal_ndim, bool) or not 1 <= signal_ndim <= 3:
            raise ValueError(f"For '{self.name}', the 'signal_ndim' must be 1, 2 or 3, but got {signal_ndim!r}.")
        for name, value in (("inverse", inverse), ("real", real), ("onesided", onesided)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{self.name}', the '{name}' must be a bool, but got {type(value).__name__}.")
        if norm not in ("backward", "forward", "ortho"):
            raise ValueError(f"For '{self.name}', the 'norm' must be 'backward', 'forward' or 'ortho', but got "
                             f"{norm!r}.")
        self.settings = (signal_ndim, inverse, real, norm, onesided, tuple(signal_sizes))
        for name, value in zip(("signal_ndim", "inverse", "real", "norm", "onesided", "signal_sizes"), self.settings):
            self.add_prim_attr(name, value)

    def _attributes(self) -> tuple:
        return self.settings

    def _result(self, shapes, dtypes, signal_ndim, inverse, real, norm, onesided, signal_sizes):
        shape, dtype = shapes[0], np.dtype(dtypes[0])
        if len(shape) < signal_ndim:
            raise ValueError(f"For '{self.name}', the rank of 'x' must be at least 'signal_ndim' {signal_ndim}, but "
                             f"got {len(shape)}.")
        expected = _COMPLEX if not real or inverse else _FLOATS
        if dtype not in expected:
            raise TypeError(f"For '{self.name}', the 'x' must be a {' or '.join(d.name for d in expected)} Tensor "
                            f"here, but got {dtype}.")
        precision = dtype.itemsize // (2 if dtype in _COMPLEX else 1)
        complex_dtype = np.dtype(np.complex64 if precision == 4 else np.complex128)
        if not real:
            return shape, complex_dtype
        if not inverse:
            last = shape[-1] // 2 + 1 if onesided else shape[-1]
            return shape[:-1] + (last,), complex_dtype
        sizes = tuple(signal_sizes) if signal_sizes else shape[len(shape) - signal_ndim:-1] + (2 * (shape[-1] - 1),)
        return shape[:len(shape) - signal_ndim] + sizes, np.dtype(np.float32 if precision == 4 else np.float64)

    @staticmethod
    def _forward(x, signal_ndim, inverse, real, norm, onesided, signal_sizes):
        axes = tuple(range(x.ndim - signal_ndim, x.ndim))
        if not real:
            return (np.fft.ifftn if inverse else np.fft.fftn)(x, axes=axes, norm=norm)
        if not inverse:
            return np.fft.rfftn(x, axes=axes, norm=norm) if onesided else np.fft.fftn(x, axes=axes, norm=norm)
        # a constant tuple reaches a host call as an array
        sizes = tuple(int(size) for size in signal_sizes) if len(signal_sizes) else \
            tuple(x.shape[x.ndim - signal_ndim:-1]) + (2 * (x.shape[-1] - 1),)
        return np.fft.irfftn(x, s=sizes, axes=axes, norm=norm)


def _nonzero_quotient(x, r):
    """``x / r``, zero where ``r`` is (MindSpore's ``abs'(0) = 0``)."""
    return np.divide(x, r, out=np.zeros_like(x), where=r != 0)


# MindSpore 2.10's cotangents (tests/test_complex_grads.py): dL/dRe + i dL/dIm of a complex input, per the
# arguments of the host call (the result's dtype name first, then the tensors) and the result's cotangent dout
_ADJOINTS = {
    Complex: lambda dtype, real, imag, dout: (None, np.real(dout).astype(real.dtype), np.imag(dout).astype(imag.dtype)),
    Imag: lambda dtype, x, dout: (None, (1j * dout).astype(x.dtype) if x.dtype.kind == "c" else np.zeros_like(x)),
    Angle: lambda dtype, x, dout: (None, (1j * dout * _nonzero_quotient(x, np.abs(x) ** 2)).astype(x.dtype)),
    ComplexAbs: lambda dtype, x, dout: (None, (dout * _nonzero_quotient(x, np.abs(x))).astype(x.dtype)),
    Polar: lambda dtype, abs, angle, dout: (None, np.real(np.conj(dout) * np.exp(1j * angle)).astype(abs.dtype),
                                            np.real(np.conj(dout) * 1j * abs * np.exp(1j * angle)).astype(angle.dtype)),
    _ViewAsReal: lambda dtype, input, dout: (None, (dout[..., 0] + 1j * dout[..., 1]).astype(input.dtype)),
}
_KEYS = {cls: LIBRARY.host_function(lambda dtype, *values, cls=cls: (np.asarray(cls._forward(*values), dtype),),
                                    adjoint=_ADJOINTS.get(cls),
                                    underivable=f"For '{cls.shown_name or cls.__name__}', the gradient of complex "
                                                f"numbers is not implemented in npspore (its ops differentiate real "
                                                f"numbers){' twice' if cls in _ADJOINTS else ''}.")
         for cls in (Complex, Imag, Angle, ComplexAbs, Polar, _ViewAsReal, ConjugateTranspose, FFTWithSize)}
LIBRARY.register_stager(_HostPrimitive, _stage)
_POLAR = Polar()
_VIEW_AS_REAL = _ViewAsReal()


def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """``ops.polar``: the complex Tensor ``abs * cos(angle) + 1j * abs * sin(angle)`` (:class:`Polar`)."""
    return _POLAR(abs, angle)


def view_as_real(input: Tensor) -> Tensor:
    """``ops.view_as_real``: a complex Tensor's real and imaginary parts on a new last axis of size 2."""
    return _VIEW_AS_REAL(input)


def real(input: Tensor) -> Tensor:
    """``ops.real``: the real parts of a complex Tensor (a real Tensor itself, as MindSpore 2.10)."""
    return Real()(input)


def imag(input: Tensor) -> Tensor:
    """``ops.imag``: the imaginary parts of a complex Tensor (zeros of a real Tensor's dtype, as MindSpore 2.10)."""
    return Imag()(input)


def conj(input: Tensor) -> Tensor:
    """``ops.conj``: the complex conjugates (a real Tensor itself, as MindSpore 2.10)."""
    return Conj()(input)


def angle(input: Tensor) -> Tensor:
    """``ops.angle``: the arguments ``atan2(imag, real)`` of a complex Tensor."""
    return Angle()(input)
