"""``P.Real``, ``P.Polar``, ``ops.polar`` and ``ops.view_as_real``: values and errors recorded from MindSpore 2.10
CPU (``/tmp/obs_complex.py``-style calls of the real wheel; the docstring examples of ``ops.polar`` and
``ops.view_as_real`` included), eagerly and compiled."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops

P = ops.operations
Z = np.array([1.3 + 0.4j, -2.0 + 1.5j], np.complex64)
ABS = np.array([1.0, 2.0], np.float32)
ANGLE = np.array([np.pi / 2, np.pi], np.float32)

# name -> (call, inputs, MindSpore 2.10's dtype, shape and values)
CASES = {
    "Real": (lambda z: P.Real()(z), (Z,), "Float32", (2,), [1.2999999523162842, -2.0]),
    "Real_docstring": (lambda z: P.Real()(z), (np.asarray(1.3 + 0.4j, np.complex64),), "Float32", (),
                       1.2999999523162842),
    "Real_of_float": (lambda x: P.Real()(x), (np.array([1.5, -2.0], np.float32),), "Float32", (2,), [1.5, -2.0]),
    "Real_complex128": (lambda z: P.Real()(z), (np.array([1.5 + 2j], np.complex128),), "Float64", (1,), [1.5]),
    "Polar": (lambda a, t: P.Polar()(a, t), (ABS, ANGLE), "Complex64", (2,),
              [-4.371138828673793e-08 + 1j, -2 - 1.7484555314695172e-07j]),
    "polar_float64": (lambda a, t: ops.polar(a, t), (np.array([1.0, 2.0]), np.array([0.5, -1.0])), "Complex128", (2,),
                      [0.8775825618903728 + 0.479425538604203j, 1.0806046117362795 - 1.682941969615793j]),
    "polar_docstring_shape": (lambda a, t: ops.polar(a, t), (np.array([1, 2], np.float64), np.array([3, 4], np.float64)),
                              "Complex128", (2,), [-0.9899924966004454 + 0.1411200080598672j,
                                                   -1.3072872417272239 - 1.5136049906158564j]),
    "view_as_real": (lambda z: ops.view_as_real(z), (Z,), "Float32", (2, 2), [[1.2999999523162842, 0.4000000059604645],
                                                                             [-2.0, 1.5]]),
    "view_as_real_docstring": (lambda z: ops.view_as_real(z), (np.array([2 + 1j, 2 + 3j, 2 - 1j, 2], np.complex64),),
                               "Float32", (4, 2), [[2.0, 1.0], [2.0, 3.0], [2.0, -1.0], [2.0, 0.0]]),
    "view_as_real_complex128": (lambda z: ops.view_as_real(z), (np.array([[1 + 2j], [3 - 4j]], np.complex128),),
                                "Float64", (2, 1, 2), [[[1.0, 2.0]], [[3.0, -4.0]]]),
}


@ms.jit
def _compiled_polar_parts(a, t):
    return ops.view_as_real(ops.polar(a, t)), P.Real()(P.Polar()(a, t))


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_mindspores(name):
    call, inputs, dtype, shape, expected = CASES[name]
    out = call(*[Tensor(x) for x in inputs])
    assert str(out.dtype) == dtype and tuple(out.shape) == shape
    np.testing.assert_allclose(out.asnumpy(), np.array(expected), rtol=1e-6, atol=1e-7)


def test_compiled_matches_eager():
    parts, real = _compiled_polar_parts(Tensor(ABS), Tensor(ANGLE))
    np.testing.assert_allclose(parts.asnumpy(), [[-4.371138828673793e-08, 1.0], [-2.0, -1.7484555314695172e-07]],
                               rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(real.asnumpy(), [-4.371138828673793e-08, -2.0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.polar(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([3, 4], np.int32))), TypeError,
     r"For primitive\[Polar\], the input argument\[abs\] must be a type of \{Tensor\[Float32\], Tensor\[Float64\]\}"),
    (lambda: ops.polar(Tensor(ABS), Tensor(np.array([1.0, 2.0]))), TypeError,
     r"For primitive\[Polar\], the input type must be same"),
    (lambda: ops.polar(Tensor(ABS), Tensor(np.array([1.0, 2.0, 3.0], np.float32))), ValueError, "shapes"),
    (lambda: ops.view_as_real(Tensor(ABS)), TypeError, "For view_as_real, the dtype of input Tensor must be complex"),
])
def test_mindspores_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def parts_of_polar(a, t):
    return ops.view_as_real(ops.polar(a, t)).sum()


def real_of_polar(a, t):
    return P.Real()(P.Polar()(a, t)).sum()


@pytest.mark.parametrize("compiled", [False, True])
def test_gradients_are_mindspores(compiled):
    # MindSpore 2.10 PYNATIVE: ms.grad(f, grad_position=(0, 1))(ABS, ANGLE) of each function
    expected = {parts_of_polar: ([0.99999994, -1.0000001], [-1.0, -1.9999999]),
                real_of_polar: ([-4.37113883e-08, -1.0], [-1.0, 1.74845553e-07])}
    for fn, values in expected.items():
        grad = ms.grad(fn, grad_position=(0, 1))
        found = (ms.jit(grad) if compiled else grad)(Tensor(ABS), Tensor(ANGLE))
        for tensor, value in zip(found, values):
            np.testing.assert_allclose(tensor.asnumpy(), value, rtol=1e-6, atol=1e-7)


def test_a_gradient_reaching_a_transform_is_refused_by_name():
    x = Tensor(np.array([1.0 + 1j, 2.0 - 1j, 0.5j, 1.0], np.complex64))
    fft = P.FFTWithSize(1, False, False)
    with pytest.raises(RuntimeError, match="For 'FFTWithSize', the gradient of complex numbers is not implemented"):
        ms.grad(lambda z: ops.abs(fft(z)).sum())(x)


def real_plus_imag(x):
    return ops.real(x) + ops.imag(x) * 10


def test_lower_case_functions_as_mindspores():
    # MindSpore 2.10: ops.real/imag/conj of a real Tensor are itself/zeros/itself; ops.angle refuses one
    x = Tensor(np.array([1 + 2j, -3 - 1j], np.complex64))
    r = Tensor(np.array([1.5, -2.0], np.float32))
    np.testing.assert_array_equal(ops.real(x).asnumpy(), [1.0, -3.0])
    np.testing.assert_array_equal(ops.imag(x).asnumpy(), [2.0, -1.0])
    np.testing.assert_array_equal(ops.conj(x).asnumpy(), [1 - 2j, -3 + 1j])
    np.testing.assert_allclose(ops.angle(x).asnumpy(), [1.1071488, -2.819842], rtol=1e-6)
    np.testing.assert_array_equal(ops.real(r).asnumpy(), [1.5, -2.0])
    np.testing.assert_array_equal(ops.imag(r).asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(ops.conj(r).asnumpy(), [1.5, -2.0])
    with pytest.raises(TypeError, match="complex64 or complex128"):
        ops.angle(r)
    np.testing.assert_array_equal(ms.jit(real_plus_imag)(x).asnumpy(), [21.0, -13.0])
