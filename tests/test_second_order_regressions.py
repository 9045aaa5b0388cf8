"""Regressions found by the second-order property tests (``test_op_second_order``,
``test_functional_second_order``): a multi-output op with a single output (``split`` into one part,
the adjoint of a one-operand ``concat``/``stack``) was compiled as a bare array instead of a
one-element tuple (codegen and differentiate stages); the adjoint of ``sum`` over a dim known only
at run time (the cotangent of ``masked_select``) broadcast to an unknown shape; ``smooth_l1_loss`` and
``huber_loss`` squared ``|d|``, whose derivative ``sign(d)`` is 0 at ``d == 0``, so their second
derivative there was 0."""
import numpy as np

import npspore as ms
from npspore import Tensor, ops
from npspore.ops.eager import run


def test_split_into_one_part_compiles_to_a_tuple_of_one():
    @ms.jit
    def halves(x):
        (whole,) = ops.split(x, 2)
        return whole * 2

    np.testing.assert_array_equal(halves(Tensor(np.array([1.0, 2.0]))).asnumpy(), [2.0, 4.0])


def test_gradient_of_a_concat_and_a_stack_of_one_tensor_has_the_tensor_shape():
    x = Tensor(np.array([1.0, 2.0]))
    for op in ("concat", "stack"):
        grad = ms.grad(lambda t, op=op: (run(op, t, axis=0) * 3).sum())(x)
        assert grad.shape == (2,), op
        np.testing.assert_array_equal(grad.asnumpy(), [3.0, 3.0])


def weighted_scatter(g, mask, dout):
    return (run("masked_select_grad", g, mask, shape=(3, 2)) * dout).sum()


scatter_cotangent = ms.grad(weighted_scatter)  # masked_select(dout, mask): its length is known at run time


def doubled_cotangent(g, mask, dout):
    return (scatter_cotangent(g, mask, dout) * 2).sum()


def test_second_derivative_of_masked_select_grad_has_no_broadcast_to_an_unknown_shape():
    mask = np.zeros((3, 2), bool)
    mask[2, 1] = True
    second = ms.grad(doubled_cotangent, 2)(Tensor(np.array([1.5])), Tensor(mask), Tensor(np.arange(6.0).reshape(3, 2)))
    np.testing.assert_array_equal(second.asnumpy(), np.where(mask, 2.0, 0.0))


TARGET = Tensor(np.array([1.0, -2.0]))


def smooth_l1(x):
    return ops.smooth_l1_loss(x, TARGET, 0.5, "sum")


def huber(x):
    return ops.huber_loss(x, TARGET, "sum", 0.5)


def test_second_derivative_of_smooth_l1_and_huber_at_a_perfect_prediction():
    np.testing.assert_allclose(ms.grad(ms.grad(smooth_l1))(TARGET).asnumpy(), [2.0, 2.0])  # 1 / beta
    np.testing.assert_allclose(ms.grad(ms.grad(huber))(TARGET).asnumpy(), [1.0, 1.0])
