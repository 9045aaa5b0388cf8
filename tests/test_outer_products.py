"""Depth-1 matrix products written as outer products (``compiler/products.py``, issue 25's speed).

A product contracting a dim of size 1 (a weight gradient of one sample; under ``vmap``, of each sample)
is ``np.einsum('...i,...j->...ij')`` in the kernel; the values are those of the product (float64,
compared with NumPy and with a loop of ``grad`` over the samples), whatever the transpose flags, the
operands' memory layout and the broadcast of their batch dims.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops, vmap
from npspore.compiler import ir, pipeline
from npspore.jit import forward_request
from npspore.compiler.products import MIN_OUTER_ELEMENTS

EINSUM = "np.einsum('...i,...j->...ij', "


def _loss(w1, b1, w2, x, label):
    """Cross entropy of one sample through a relu MLP (the shape of tools/bench_vmap.py's)."""
    h = ops.relu(ops.matmul(x, w1) + b1)
    return -ops.sum(ops.log_softmax(ops.matmul(h, w2), -1) * label)


def _mlp(rng, d_in, hidden, d_out):
    return [rng.standard_normal((d_in, hidden)) * 0.3, rng.standard_normal(hidden) * 0.1,
            rng.standard_normal((hidden, d_out)) * 0.3]


@pytest.mark.parametrize("batch, d_in, hidden, d_out",
                         [(5, 40, 32, 3), (3, 64, 17, 40), (1, 33, 64, 2), (16, 8, 24, 12)])
def test_per_sample_gradients_are_outer_products_with_a_loops_values(batch, d_in, hidden, d_out):
    rng = np.random.default_rng(batch * 1000 + d_in)
    weights = _mlp(rng, d_in, hidden, d_out)
    x = rng.standard_normal((d_in, batch))[:, ::-1].T        # non-contiguous: a reversed view of a transpose
    labels = np.eye(d_out)[rng.integers(0, d_out, batch)]
    gradient = ms.grad(_loss, grad_position=(0, 1, 2))
    per_sample = vmap(gradient, in_axes=(None, None, None, 0, 0))
    args = [Tensor(w) for w in weights] + [Tensor(x), Tensor(labels)]
    got = per_sample(*args)
    loop = [gradient(*args[:3], Tensor(x[b]), Tensor(labels[b])) for b in range(batch)]
    for k in range(3):
        np.testing.assert_allclose(got[k].asnumpy(), np.stack([g[k].asnumpy() for g in loop]), rtol=1e-12, atol=1e-13)
    source = per_sample.kernel_source(*args)
    large = [size >= MIN_OUTER_ELEMENTS for size in (batch * d_in * hidden, batch * hidden * d_out)]
    assert source.count(EINSUM) == sum(large) >= 1, source    # d_w1 (and d_w2 when large) of every sample
    assert " * " not in "".join(line for line in source.splitlines() if "einsum" in line)


def test_the_gradient_of_one_sample_is_one_outer_product():
    rng = np.random.default_rng(7)
    w1, b1, w2 = _mlp(rng, 48, 32, 4)
    x, label = rng.standard_normal(48), np.eye(4)[1]
    gradient = ms.grad(_loss, grad_position=(0, 2))
    args = [Tensor(w1), Tensor(b1), Tensor(w2), Tensor(x), Tensor(label)]
    d_w1, d_w2 = (g.asnumpy() for g in gradient(*args))
    pre = x @ w1 + b1
    h = np.maximum(pre, 0)
    logits = h @ w2
    softmax = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    d_logits = softmax * label.sum() - label
    np.testing.assert_allclose(d_w2, np.outer(h, d_logits), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d_w1, np.outer(x, (d_logits @ w2.T) * (pre > 0)), rtol=1e-12, atol=1e-14)
    source = gradient.kernel_source(*args)
    assert source.count(EINSUM) == 1, source          # d_w1: 48 x 32; d_w2 (32 x 4) is below the threshold
    assert 32 * 4 < MIN_OUTER_ELEMENTS <= 48 * 32


def _ensemble_loss(w, x):
    return ops.sum(ops.tanh(ops.matmul(x, w)) ** 2)


def test_gradients_of_an_ensemble_at_one_input_broadcast_the_input():
    rng = np.random.default_rng(11)
    ws, x = rng.standard_normal((4, 50, 30)) * 0.2, rng.standard_normal(50)
    gradient = ms.grad(_ensemble_loss)
    per_model = vmap(gradient, in_axes=(0, None))
    got = per_model(Tensor(ws), Tensor(x)).asnumpy()
    want = np.stack([np.outer(x, 2 * np.tanh(x @ w) * (1 - np.tanh(x @ w) ** 2)) for w in ws])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    assert per_model.kernel_source(Tensor(ws), Tensor(x)).count(EINSUM) == 1


def _products(a, b, c, d):
    """Depth-1 products with every transpose flag, a stack broadcast against one matrix, and a
    non-contiguous operand."""
    one = ops.MatMul(transpose_a=True)(a, b)                       # (1, 40).T @ (1, 30)
    two = ops.MatMul(transpose_b=True)(ops.transpose(a, (1, 0)), c)    # (40, 1) @ (30, 1).T, a transposed view
    three = ops.BatchMatMul(transpose_a=True, transpose_b=True)(d, ops.expand_dims(c, 0))  # (3, 1, 40).T @ (1, 30, 1).T
    four = ops.matmul(ops.transpose(d, (0, 2, 1)), b)              # (3, 40, 1) @ (1, 30)
    return one + two + three + four


def test_products_of_depth_one_keep_their_values_and_broadcast_their_batch_dims():
    rng = np.random.default_rng(3)
    a, b, c, d = rng.standard_normal((1, 40)), rng.standard_normal((1, 30)), rng.standard_normal((30, 1)), \
        rng.standard_normal((3, 1, 40))
    compiled = ms.jit(_products)
    args = [Tensor(v) for v in (a, b, c, d)]
    want = a.T @ b + a.T @ c.T + np.swapaxes(d, 1, 2) @ c.T[None] + np.swapaxes(d, 1, 2) @ b
    np.testing.assert_allclose(compiled(*args).asnumpy(), want, rtol=1e-13, atol=1e-14)
    source = compiled.kernel_source(*args)
    assert source.count(EINSUM) == 4 and "@" not in source, source


def test_small_products_of_depth_one_stay_matrix_products():
    x, y = Tensor(np.arange(8.0).reshape(1, 8)), Tensor(np.arange(4.0).reshape(1, 4))
    compiled = ms.jit(lambda a, b: ops.MatMul(transpose_a=True)(a, b))
    np.testing.assert_array_equal(compiled(x, y).asnumpy(), np.outer(np.arange(8.0), np.arange(4.0)))
    assert "einsum" not in compiled.kernel_source(x, y)


def test_export_keeps_the_matrix_products():
    rng = np.random.default_rng(0)
    shapes = ((1, 40), (1, 30), (30, 1), (3, 1, 40))
    request = forward_request(_products, [Tensor(rng.standard_normal(s)) for s in shapes])
    exported = [s.op for f in pipeline.export_program(request).module.functions.values()
                for s in ir.walk_stmts(f.body) if isinstance(s, ir.Apply)]
    optimized = [s.op for f in pipeline.run_stages(request, "optimize").module.functions.values()
                 for s in ir.walk_stmts(f.body) if isinstance(s, ir.Apply)]
    assert "outer_product" not in exported and exported.count("matmul") + exported.count("batch_matmul") == 4
    assert optimized.count("outer_product") == 4 and "matmul" not in optimized
