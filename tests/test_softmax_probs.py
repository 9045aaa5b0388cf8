"""A log-softmax's probabilities from the forward's own exponentials (compiler/softmaxprobs.py), and softmax
computed in one array (``rt.softmax``)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.core import kernels_np

from gradcheck import central_difference


def _log_softmax(x, axis):
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


class _SparseLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, logits, labels):
        return self.loss(logits * 2.0, labels)


def test_a_sparse_cross_entropy_step_exponentiates_its_logits_once():
    rng = np.random.default_rng(0)
    x, labels = rng.standard_normal((6, 9)).astype(np.float32), rng.integers(0, 9, 6).astype(np.int32)
    grad = ms.grad(_SparseLoss())
    source = grad.kernel_source(Tensor(x), Tensor(labels))
    assert "log_probs, probs = rt.log_softmax_probs(" in source and "np.exp(" not in source
    z = 2.0 * x.astype(np.float64)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    p[np.arange(6), labels] -= 1
    np.testing.assert_allclose(grad(Tensor(x), Tensor(labels)).asnumpy(), 2.0 * p / 6, rtol=1e-5, atol=1e-7)


# log_softmax's adjoint reads exp(out): a dense loss (over axis 0, and over the last axis), a log-softmax read again
# after the exponential, and a second-order derivative (the forward-over-reverse product of the first gradient)
_WEIGHTS = Tensor(np.linspace(-1.0, 1.0, 15).reshape(5, 3))
_PROGRAMS = {
    "axis 0": lambda x: ops.sum(ops.log_softmax(x, 0) * _WEIGHTS),
    "last axis, squared": lambda x: ops.sum(ops.log_softmax(x, -1) ** 2),
    "read twice": lambda x: ops.sum(ops.exp(ops.log_softmax(x, -1)) * x) + ops.sum(ops.log_softmax(x, -1) * 0.5),
}


@pytest.mark.parametrize("name", list(_PROGRAMS))
def test_gradients_through_a_log_softmax_match_central_differences(name):
    program = _PROGRAMS[name]
    x = np.random.default_rng(1).standard_normal((5, 3))
    grad = ms.jit(ms.grad(program))
    assert "rt.log_softmax_probs(" in ms.grad(program).kernel_source(Tensor(x))
    expected = central_difference(lambda v: float(program(Tensor(v)).asnumpy()), x)
    np.testing.assert_allclose(grad(Tensor(x)).asnumpy(), expected, rtol=1e-6, atol=1e-8)


def test_the_second_derivative_through_a_log_softmax_matches_central_differences():
    def first(x):
        return ops.sum(ops.log_softmax(x, -1) ** 2)

    second = ms.jit(ms.grad(lambda x: ops.sum(ms.grad(first)(x) * Tensor(np.arange(6.0).reshape(2, 3)))))
    x = np.random.default_rng(2).standard_normal((2, 3))
    expected = central_difference(
        lambda v: float(np.sum(ms.grad(first)(Tensor(v)).asnumpy() * np.arange(6.0).reshape(2, 3))), x)
    np.testing.assert_allclose(second(Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("axis", [-1, 0, (0, 2)])
def test_log_softmax_probs_gives_log_softmaxs_bits_and_its_exponential(axis):
    x = np.random.default_rng(3).standard_normal((4, 5, 6)).astype(np.float32) * 10
    log_probs, probs = kernels_np.log_softmax_probs(x, axis)
    np.testing.assert_array_equal(log_probs, _log_softmax(x, axis))
    np.testing.assert_allclose(probs, np.exp(log_probs), rtol=2e-6)
    assert probs.dtype == log_probs.dtype == np.float32


@pytest.mark.parametrize("axis", [-1, 1, (0, 1), ()])
def test_softmax_in_one_array_has_the_bits_of_three(axis):
    x = np.random.default_rng(4).standard_normal((3, 4, 5)).astype(np.float32) * 5
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    np.testing.assert_array_equal(kernels_np.softmax(x, axis), e / np.sum(e, axis=axis, keepdims=True))


def test_softmax_of_a_zero_dimensional_value_is_one():
    assert kernels_np.softmax(np.float32(3.5), ()) == 1.0
    assert kernels_np.softmax(2.0, ()) == 1.0



@pytest.mark.parametrize("shape", [(700, 1000), (20, 35, 1000), (3, 200000), (16, 4, 64, 64)])
def test_a_large_softmax_in_row_blocks_has_the_bits_of_one_call_at_every_helper_count(helpers, shape):
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32) * 4
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    expected_probs = e / e.sum(axis=-1, keepdims=True)
    expected_log_probs = _log_softmax(x, -1)
    for count in (0, 1, 3):
        helpers(count)
        log_probs, probs = kernels_np.log_softmax_probs(x, -1)
        np.testing.assert_array_equal(log_probs, expected_log_probs)
        np.testing.assert_allclose(probs, np.exp(expected_log_probs), rtol=2e-6)
        np.testing.assert_array_equal(kernels_np.softmax(x, x.ndim - 1), expected_probs)
        assert probs.dtype == log_probs.dtype == np.float32
    helpers(1)
    first = kernels_np.log_softmax_probs(x, -1)[1]
    helpers(0)
    np.testing.assert_array_equal(kernels_np.log_softmax_probs(x, -1)[1], first)


def test_a_softmax_over_another_axis_or_of_a_strided_array_is_one_call(helpers):
    helpers(1)
    x = np.random.default_rng(6).standard_normal((1000, 800)).astype(np.float32)
    for value, axis in ((x, 0), (x.T, -1), (x[:, ::2], 1)):
        e = np.exp(value - value.max(axis=axis, keepdims=True))
        np.testing.assert_array_equal(kernels_np.softmax(value, axis), e / e.sum(axis=axis, keepdims=True))
        np.testing.assert_array_equal(kernels_np.log_softmax_probs(value, axis)[0], _log_softmax(value, axis))
