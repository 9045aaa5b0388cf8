"""Gradients of complex-valued programs, as MindSpore 2.10 returns them: ``dout * conj(f'(z))`` per op, so that for
a real loss ``L`` of ``z = a + ib`` the gradient is ``dL/da + i dL/db`` (``compiler.complexadjoint``).

``tests/golden/mindspore_complex_grads.json`` holds what ``tools/observe_mindspore_complex_grads.py`` printed on the
real MindSpore 2.10.0 CPU for each case of ``tests/complex_grad_cases.py``, in PYNATIVE and GRAPH mode, complex64
and complex128: the gradients, or the error of the ops MindSpore refuses (``Mul``, ``Pow``, ``Square``,
``ReduceMean``; SGD, Momentum and Adam of complex Parameters). npspore runs the same cases; its gradients equal
MindSpore's, its refusals carry MindSpore's text and the user's line.
"""
import json
import os

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.import_hook import mindspore_imports

with mindspore_imports():
    import complex_grad_cases as cases

RECORDED = json.load(open(os.path.join(os.path.dirname(__file__), "golden", "mindspore_complex_grads.json")))
PARAMS = [(case, mode, dtype) for case in (*cases.CASES, *cases.OTHER_CASES) for mode in cases.MODES
          for dtype in cases.DTYPES]
# MindSpore's PYNATIVE Tensor.mean is the primitive MeanExt; npspore's Tensor.mean and ops.mean are one op, which
# names ReduceMean as MindSpore's GRAPH mode does for both
SAME_ERROR_AS = {"mean_out": "ops_mean_out"}


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_recorded_with_mindspore_2_10():
    assert RECORDED["mindspore"] == "2.10.0"
    assert set(RECORDED["cases"]) == set(cases.CASES) | set(cases.OTHER_CASES)


def _assert_same(found, expected, dtype):
    if isinstance(expected, list):
        assert isinstance(found, list) and len(found) == len(expected)
        for item, wanted in zip(found, expected):
            _assert_same(item, wanted, dtype)
        return
    assert found["dtype"] == expected["dtype"]
    tolerance = {"rtol": 2e-6, "atol": 1e-6} if dtype == "complex64" else {"rtol": 1e-12, "atol": 1e-13}
    np.testing.assert_allclose(np.array(found["value"]), np.array(expected["value"]), **tolerance)


@pytest.mark.parametrize("case, mode, dtype", PARAMS)
def test_gradients_are_mindspores(case, mode, dtype):
    expected = RECORDED["cases"][case][mode][dtype]
    found = cases.observe(case, mode, dtype)
    if isinstance(expected, str):
        # npspore's message is MindSpore's PYNATIVE one (GRAPH mode wraps it in 'Bprop "Mul" encounter a problem')
        message = RECORDED["cases"][SAME_ERROR_AS.get(case, case)]["PYNATIVE"][dtype]
        assert isinstance(found, str) and found.startswith(message), (found, message)
        if mode == "GRAPH":
            assert message.split(": ", 1)[1].split("'input' type: ")[0] in expected
    else:
        _assert_same(found, expected, dtype)


# ---------------------------------------------------------------- the convention, by central differences

# MindSpore's Div conjugates its whole cotangent, conj(dout / w), which is the convention only where dout is real:
# a real loss reaching a quotient through |.| breaks the identity (test_mindspores_quotient_conjugates_dout)
THROUGH_A_QUOTIENT = {"div_abs_loss", "conj_div_abs_loss", "exp_over_complex_of_reals_loss"}
REAL_LOSSES = sorted(case for case in cases.CASES if case.endswith("_loss") and case not in THROUGH_A_QUOTIENT and
                     not isinstance(RECORDED["cases"][case]["PYNATIVE"]["complex128"], str))


def _real_loss(case, arrays):
    fn, _ = cases.CASES[case]
    value = fn(*[Tensor(a) for a in arrays]).asnumpy()
    assert np.imag(value) == 0   # ops.abs of a complex Tensor is complex (|z| + 0j), as MindSpore's
    return float(np.real(value))


def _central_differences(case, arrays):
    """``dL/da + i dL/db`` of each input ``a + ib`` (a real input: ``dL/da``), by central differences."""
    eps, found = 1e-6, []
    for k, array in enumerate(arrays):
        expected = np.zeros(array.shape, array.dtype)
        for index in np.ndindex(array.shape):
            for unit in ((1, 1j) if np.iscomplexobj(array) else (1,)):
                plus, minus = [a.copy() for a in arrays], [a.copy() for a in arrays]
                plus[k][index] += eps * unit
                minus[k][index] -= eps * unit
                expected[index] += unit * (_real_loss(case, plus) - _real_loss(case, minus)) / (2 * eps)
        found.append(expected)
    return found


def _complex128_inputs(names):
    return [cases.INPUTS[name].astype(np.complex128 if np.iscomplexobj(cases.INPUTS[name]) else np.float64)
            for name in names]


@pytest.mark.parametrize("case", REAL_LOSSES)
def test_gradient_of_a_real_loss_is_d_re_plus_i_d_im(case):
    fn, names = cases.CASES[case]
    arrays = _complex128_inputs(names)
    grads = ms.grad(fn, grad_position=tuple(range(len(names))))(*[Tensor(a) for a in arrays])
    grads = grads if isinstance(grads, tuple) else (grads,)
    # dL/da + i dL/db, not its conjugate (2 dL/dz, the Wirtinger derivative, would be dL/da - i dL/db)
    for grad, expected in zip(grads, _central_differences(case, arrays)):
        np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-7, atol=1e-8)


def _unit(z):
    """``z / |z|``: NumPy 2's ``np.sign`` of a complex array (NumPy 1.26's is the sign of the real part)."""
    return z / np.abs(z)


def test_mindspores_quotient_conjugates_dout():
    z, w = _complex128_inputs(("z", "w"))
    dz, dw = ms.grad(cases.div_abs_loss, grad_position=(0, 1))(Tensor(z), Tensor(w))
    dout = _unit(z / w)   # the cotangent |.| gives the quotient
    np.testing.assert_allclose(dz.asnumpy(), np.conj(dout / w), rtol=1e-12)
    np.testing.assert_allclose(dw.asnumpy(), np.conj(-dout / w * (z / w)), rtol=1e-12)
    by_convention = _central_differences("div_abs_loss", [z, w])[0]
    np.testing.assert_allclose(by_convention, dout / np.conj(w), rtol=1e-7)
    assert not np.allclose(dz.asnumpy(), by_convention)


# ---------------------------------------------------------------- compiled, Cells, errors


@ms.jit
def _jitted_grads(z, w):
    return ms.grad(cases.div_abs_loss, grad_position=(0, 1))(z, w)


def test_jit_gives_the_eager_gradients():
    z, w = Tensor(cases.Z.astype(np.complex64)), Tensor(cases.W.astype(np.complex64))
    eager = ms.grad(cases.div_abs_loss, grad_position=(0, 1))(z, w)
    for compiled, expected in zip(_jitted_grads(z, w), eager):
        np.testing.assert_allclose(compiled.asnumpy(), expected.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(eager[0].asnumpy(), np.conj(_unit(cases.Z / cases.W) / cases.W), rtol=1e-5)


def matmul_by_constant_loss(z):
    return ops.abs(ops.matmul(z, Tensor(cases.B))).sum()


def test_a_complex_constant_is_conjugated_too():
    z = Tensor(cases.Z)
    dout = _unit(cases.Z @ cases.B)   # the cotangent |.| gives the product
    for grad in (ms.grad(matmul_by_constant_loss), ms.jit(ms.grad(matmul_by_constant_loss))):
        np.testing.assert_allclose(grad(z).asnumpy(), dout @ np.conj(cases.B).T, rtol=1e-12)


def test_a_refusal_names_the_op_and_the_users_line():
    z = Tensor(cases.Z.astype(np.complex64))
    with pytest.raises(TypeError, match="For 'Mul', gradient not support for complex type currently") as info:
        ms.grad(cases.mul_real_loss)(z, z)
    assert "complex_grad_cases.py" in str(info.value) and "return ops.real(z * w).sum()" in str(info.value)


def twice(z):
    return z * 2


def test_a_product_with_a_python_number_is_differentiated_as_mindspore_does():
    z = Tensor(cases.Z)
    # MindSpore 2.10, PYNATIVE and GRAPH: ms.grad(twice)(z) is [2.+0.j 2.+0.j ...]
    np.testing.assert_array_equal(ms.grad(twice)(z).asnumpy(), np.full(cases.Z.shape, 2 + 0j))
    np.testing.assert_allclose(ms.grad(lambda x: ops.abs(x * 2.5).sum())(z).asnumpy(), 2.5 * _unit(cases.Z),
                               rtol=1e-14)


def test_angles_are_not_differentiated_twice():
    z = Tensor(cases.Z)
    with pytest.raises(RuntimeError, match="For 'Angle', the gradient of complex numbers is not implemented in "
                                           "npspore .* twice"):
        ms.grad(lambda x: ms.grad(cases.angle_loss)(x).sum())(z)


def exp_quotient(a, b):
    return (ops.exp(a) / b).sum()


def test_only_complex_values_are_conjugated():
    grad = ms.grad(exp_quotient, grad_position=(0, 1))
    x = Tensor(np.array([[1.0, -2.0, 0.25], [0.5, 3.0, -1.5]], np.float32))
    assert "conj" not in grad.kernel_source(x, x)
    z = Tensor(cases.Z.astype(np.complex64))
    assert "np.conjugate(" in grad.kernel_source(z, z)
    np.testing.assert_allclose(grad(z, z)[0].asnumpy(), np.conj(np.exp(cases.Z)) * np.conj(1 / cases.Z), rtol=1e-6)
