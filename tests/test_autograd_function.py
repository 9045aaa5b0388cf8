"""npspore._Function (MindSpore's mindspore.common._grad_function._Function): custom autograd functions in
PyTorch's form. The gradients asserted are the custom rules' (chosen to differ from the true derivatives, so that
a test passing proves the rule ran), eager, under grad, under jit and jit of grad."""
import numpy as np
import pytest

import npspore as ms
from npspore import ops

X = np.array([0.0, 1.0, -0.5], np.float32)
Y = np.array([2.0, 3.0, 4.0], np.float32)


class DoubledExp(ms._Function):
    """exp, whose gradient is declared twice the true one."""

    @staticmethod
    def forward(ctx, x):
        out = ops.exp(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, dout):
        (out,) = ctx.saved_tensors
        return dout * out * 2


class ScaledProduct(ms._Function):
    """x * y * scale through setup_context; no gradient for y (None: zeros)."""

    @staticmethod
    def forward(x, y, scale=3.0):
        return x * y * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.inputs = inputs

    @staticmethod
    def backward(ctx, dout):
        _, y, scale = ctx.inputs
        return dout * y * scale, None


def test_forward_runs_eagerly_and_compiled():
    expected = np.exp(X)
    np.testing.assert_allclose(DoubledExp.apply(ms.Tensor(X)).asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(lambda x: DoubledExp.apply(x) * 2)(ms.Tensor(X)).asnumpy(), expected * 2,
                               rtol=1e-6)


def test_grad_uses_the_custom_backward():
    grad = ms.grad(lambda x: DoubledExp.apply(x).sum())(ms.Tensor(X))
    np.testing.assert_allclose(grad.asnumpy(), 2 * np.exp(X), rtol=1e-6)
    # product rule through the custom function, compiled: d/dx (f(x) * x) = f'(x) * x + f(x), f' the custom rule
    compiled = ms.jit(ms.grad(lambda x: (DoubledExp.apply(x) * x).sum()))(ms.Tensor(X))
    np.testing.assert_allclose(compiled.asnumpy(), 2 * np.exp(X) * X + np.exp(X), rtol=1e-6)


def test_setup_context_defaults_and_missing_gradients():
    x, y = ms.Tensor(X), ms.Tensor(Y)
    np.testing.assert_allclose(ScaledProduct.apply(x, y).asnumpy(), X * Y * 3, rtol=1e-6)
    np.testing.assert_allclose(ScaledProduct.apply(x, y, scale=0.5).asnumpy(), X * Y * 0.5, rtol=1e-6)
    dx, dy = ms.grad(lambda a, b: ScaledProduct.apply(a, b).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), Y * 3, rtol=1e-6)
    assert dy.asnumpy().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'z'"):
        ScaledProduct.apply(x, y, z=1)


def test_context_methods_and_unimplemented_rules():
    ctx = DoubledExp()
    ctx.mark_dirty(1)
    ctx.mark_non_differentiable(2)
    ctx.set_materialize_grads(False)
    assert (ctx.dirty_tensors, ctx.non_differentiable, ctx.materialize_grads) == ((1,), (2,), False)

    class NoRules(ms._Function):
        pass

    with pytest.raises(NotImplementedError, match="forward function should be customized."):
        NoRules.apply(ms.Tensor(X))
    from npspore.common._grad_function import _Function
    assert _Function is ms._Function
