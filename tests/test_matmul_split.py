"""Large matrix products split across threads (npspore.core.matmul_split) and where kernels use them."""
import os
import re
import threading

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.compiler import ir, pipeline
from npspore.core import matmul_split
from npspore.jit import forward_request



@pytest.mark.parametrize("a_shape, b_shape, axis", [
    ((512, 200), (200, 256), -2),        # more rows than columns: row blocks
    ((64, 300), (300, 512), -1),         # column blocks
    ((16, 4, 64, 32), (16, 4, 32, 64), 0),  # batched: blocks of the leading dim
])
def test_split_products_are_the_same_bits_at_every_thread_count(a_shape, b_shape, axis, helpers):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(a_shape, np.float32), rng.standard_normal(b_shape, np.float32)
    assert matmul_split.worth_splitting(a_shape, b_shape) and matmul_split.blocks(a_shape, b_shape)[0] == axis
    results = []
    for count in (0, 1, 3):
        helpers(count)
        results.append([matmul_split.matmul_split(a, b) for _ in range(5)])
    for runs in results:     # each thread count: the same bits on every call, close to the float64 product
        assert all(np.array_equal(runs[0], r) for r in runs[1:])
        np.testing.assert_allclose(runs[0], np.matmul(a.astype(np.float64), b), rtol=1e-4, atol=1e-4)
    # the same bits at every thread count wherever the BLAS sums a block of the result as it sums the whole
    # (OpenBLAS on the Intel machines measured; OpenBLAS 0.3.31 on an AMD EPYC sums a block of rows in another order)
    if _blas_sums_blocks_as_the_whole(a, b, axis):
        assert all(np.array_equal(results[0][0], runs[0]) for runs in results[1:])


def _blas_sums_blocks_as_the_whole(a, b, axis):
    whole = np.matmul(a, b)
    for blocks in (2, 3, 4):
        for part in np.array_split(np.arange(a.shape[axis] if axis != -1 else b.shape[-1]), blocks):
            cut = slice(part[0], part[-1] + 1)
            if axis == 0 and not np.array_equal(np.matmul(a[cut], b[cut]), whole[cut]):
                return False
            if axis == -2 and not np.array_equal(np.matmul(a[..., cut, :], b), whole[..., cut, :]):
                return False
            if axis == -1 and not np.array_equal(np.matmul(a, b[..., cut]), whole[..., cut]):
                return False
    return True


def test_split_products_of_transposed_views_write_into_out(helpers):
    helpers(1)
    rng = np.random.default_rng(1)
    d, x = rng.standard_normal((256, 512), np.float32), rng.standard_normal((256, 300), np.float32)
    out = np.full((512, 300), np.nan, np.float32)
    assert matmul_split.matmul_split(d.T, x, out=out) is out
    np.testing.assert_allclose(out, d.T.astype(np.float64) @ x, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("a_layout", ["C", "F"])
def test_a_long_shared_dim_is_summed_in_blocks_with_the_same_bits_at_every_thread_count(a_layout, helpers):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((6, 25088)).astype(np.float32, order=a_layout)   # LeNet's conv1 weight gradient
    b = rng.standard_normal((25, 25088)).astype(np.float32).T
    axis, bounds = matmul_split.blocks(a.shape, b.shape)
    assert axis == matmul_split.SHARED and bounds == ((0, 6272), (6272, 12544), (12544, 18816), (18816, 25088))
    assert matmul_split.worth_splitting(a.shape, b.shape)      # 7.5 MFLOP, below MIN_FLOPS, split all the same
    results = []
    for count in (0, 1, 3):
        helpers(count)
        results += [matmul_split.matmul_split(a, b), matmul_split.matmul_split(a, b, out=np.empty((25, 6), np.float32).T)]
    assert all(np.array_equal(results[0], r) for r in results)
    expected = sum(a[:, start:stop].astype(np.float64) @ b[start:stop] for start, stop in bounds)
    np.testing.assert_allclose(results[0], expected, rtol=0, atol=2e-3)     # entries of order sqrt(25088) = 158
    # the sum is taken in block order: the bits of (p0 + p1) + p2 + p3 of float32 block products
    partials = [np.matmul(a[:, start:stop], b[start:stop]) for start, stop in bounds]
    np.testing.assert_array_equal(results[0], ((partials[0] + partials[1]) + partials[2]) + partials[3])
    assert not matmul_split.worth_splitting((6, 200), (200, 25))            # short: one call
    assert matmul_split.blocks((128, 25088), (25088, 64))[0] != matmul_split.SHARED   # large result: rows or columns


@pytest.mark.parametrize("a_shape, b_shape, b_transposed, axis, count", [
    ((6, 25), (25, 25088), False, matmul_split.NARROW_COLUMNS, 4),       # LeNet's conv1 product
    ((16, 3200), (3200, 150), True, matmul_split.NARROW_COLUMNS, 8),     # conv2's weight gradient
    ((512, 1024), (1024, 10), False, matmul_split.NARROW_ROWS, 6),       # a 10-class output layer
])
def test_the_long_side_of_a_narrow_result_is_cut_with_the_same_bits_at_every_thread_count(
        a_shape, b_shape, b_transposed, axis, count, helpers):
    rng = np.random.default_rng(5)
    a = rng.standard_normal(a_shape).astype(np.float32)
    b = rng.standard_normal(b_shape[::-1]).astype(np.float32).T if b_transposed else \
        rng.standard_normal(b_shape).astype(np.float32)
    found, bounds = matmul_split.blocks(a_shape, b_shape)
    assert (found, len(bounds)) == (axis, count) and matmul_split.worth_splitting(a_shape, b_shape)
    made, into_transposed = [], []   # NumPy 1.26 may round a product written into a transposed out otherwise
    for threads in (0, 1, 3):
        helpers(threads)
        made.append(matmul_split.matmul_split(a, b))
        into_transposed.append(matmul_split.matmul_split(a, b, out=np.empty((b_shape[1], a_shape[0]), np.float32).T))
    for results in (made, into_transposed):
        assert all(np.array_equal(results[0], r) for r in results)
        np.testing.assert_allclose(results[0], a.astype(np.float64) @ b, rtol=0, atol=1e-3 * np.sqrt(a_shape[1]))
    assert not matmul_split.worth_splitting((16, 100), (100, 300))      # 0.5 M multiply-adds: one call


def test_blocks_depend_only_on_the_shapes():
    assert matmul_split.blocks((1024, 128), (128, 512)) == (-2, ((0, 256), (256, 512), (512, 768), (768, 1024)))
    assert not matmul_split.worth_splitting((20, 128), (128, 512))         # 2.6 MFLOP: one call
    assert not matmul_split.worth_splitting((2, 64, 64), (64, 64, 64))     # batch dims differ: not split


def test_an_error_in_a_helper_is_raised_by_the_caller_instead_of_hanging(helpers):
    helpers(1)
    a, b = np.ones((512, 256), np.float32), np.ones((256, 512), np.float32)
    with pytest.raises(ValueError):
        matmul_split.matmul_split(a, b, out=np.empty((512, 100), np.float32))


class _Wide(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.dense = nn.Dense(256, width)

    def construct(self, x):
        return self.dense(x)


def test_kernels_split_only_products_above_the_threshold(helpers):
    helpers(1)
    rng = np.random.default_rng(2)
    x = Tensor(rng.standard_normal((256, 256), np.float32))
    large, small = _Wide(512), _Wide(4)
    large_kernel, small_kernel = ms.jit(large).kernel_source(x), ms.jit(small).kernel_source(x)
    assert "rt.matmul_split(x, weight.T)" in large_kernel and "rt.matmul_split" not in small_kernel
    expected = x.asnumpy().astype(np.float64) @ large.dense.weight.asnumpy().T + large.dense.bias.asnumpy()
    np.testing.assert_allclose(ms.jit(large)(x).asnumpy(), expected, rtol=1e-4, atol=1e-4)
    grads = ms.grad(large, weights=large.trainable_params())(x)[1]
    np.testing.assert_allclose(grads[0].asnumpy(), np.broadcast_to(x.asnumpy().sum(0), (512, 256)), rtol=1e-4)


class _LargeThenSmall(nn.Cell):
    """A product above MIN_FLOPS (256 x 256 x 512: 67 MFLOP) and one below it (256 x 512 x 4: 1 MFLOP)."""

    def __init__(self):
        super().__init__()
        self.large, self.small = nn.Dense(256, 512), nn.Dense(512, 4)

    def construct(self, x):
        return self.small(ops.tanh(self.large(x)))


def _show(capsys, *options) -> str:
    from npspore.cli import main
    assert main(["show", f"{__file__}:_LargeThenSmall", "--input", "f32[256,256]", "--no-color", *options]) == 0
    return capsys.readouterr().out


def _products(dump: str) -> list:
    """``(op, result shape)`` of each matrix product line of an IR dump."""
    found = re.findall(r"^\s*\w+:float32(\[[\d, ]+\]) = (matmul|matmul_split|batch_matmul)\(", dump, re.M)
    return sorted((op, shape) for shape, op in found)


def test_the_optimize_dump_shows_which_products_are_split(capsys, helpers):
    forward = _products(_show(capsys, "--dump-after", "optimize"))
    assert forward == [("matmul", "[256, 4]"), ("matmul_split", "[256, 512]")]
    gradient = _products(_show(capsys, "--grad", "--weights", "all", "--dump-after", "optimize"))
    assert gradient == [("matmul", "[256, 512]"), ("matmul", "[4, 512]"),     # d_x and d_weight of `small`
                        ("matmul", "[512]"),   # the bias gradient of `large`, a row of ones times d (columnsums.py)
                        ("matmul_split", "[256, 256]"), ("matmul_split", "[256, 512]"), ("matmul_split", "[512, 256]")]
    # differentiation (reverse and forward mode) runs before optimize: it sees only matmul
    assert "= matmul_split(" not in _show(capsys, "--grad", "--weights", "all", "--dump-after", "differentiate")
    assert "= matmul_split(" not in _show(capsys, "--jvp", "--dump-after", "differentiate")
    assert _products(_show(capsys, "--jvp", "--dump-after", "optimize")).count(("matmul_split", "[256, 512]")) == 2
    kernel = _show(capsys, "--grad", "--weights", "all")
    assert re.search(r"^ +rt\.matmul_split\(x, weight\.T, out=\w+\)  #", kernel, re.M), kernel  # into its buffer
    assert re.search(r"^ +\w+ = rt\.matmul_split\(d_x_2\.T, x\)  #", kernel, re.M), kernel
    assert kernel.count("rt.matmul_split(") == 3 and kernel.count(" @ ") + kernel.count("np.matmul(") == 3

    helpers(1)   # the split products computed in blocks on two threads: NumPy's values
    cell = _LargeThenSmall()
    rng = np.random.default_rng(3)
    x = Tensor(rng.standard_normal((256, 256), np.float32))
    w1, b1, w2, b2 = (p.asnumpy().astype(np.float64) for p in cell.trainable_params())
    h = np.tanh(x.asnumpy() @ w1.T + b1)
    np.testing.assert_allclose(ms.jit(cell)(x).asnumpy(), h @ w2.T + b2, rtol=1e-4, atol=1e-4)
    d_h = np.ones((256, 4)) @ w2 * (1 - h ** 2)
    d_x, (d_w1, _, d_w2, _) = ms.jit(ms.grad(cell, grad_position=0, weights=cell.trainable_params()))(x)
    np.testing.assert_allclose(d_x.asnumpy(), d_h @ w1, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(d_w1.asnumpy(), d_h.T @ x.asnumpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(d_w2.asnumpy(), np.ones((256, 4)).T @ h, rtol=1e-4, atol=1e-3)


def test_export_and_vmap_never_see_split_products(capsys):
    request = forward_request(_LargeThenSmall(), [Tensor(np.ones((256, 256), np.float32))])
    exported = [s.op for f in pipeline.export_program(request).module.functions.values()
                for s in ir.walk_stmts(f.body) if isinstance(s, ir.Apply)]
    assert exported.count("matmul") == 2 and "matmul_split" not in exported
    batched = _show(capsys, "--transform", "vmap", "--dump-after", "batch")
    assert "= matmul_split(" not in batched and "= matmul(" in batched


class _Conv(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(6, 16, 5, pad_mode="valid")

    def construct(self, x):
        return self.conv(x)


def test_the_products_of_a_convolution_with_one_group_are_split_like_any_other(helpers):
    # LeNet-5's second convolution: 16 x 150 filters on the 150 x 3200 columns of 32 images of 14 x 14 (15 MFLOP
    # each way): rank-2 products, not batches of one matrix, so the forward and both gradients are split
    helpers(1)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((32, 6, 14, 14), np.float32)
    net = _Conv()
    forward = ms.jit(net).kernel_source(Tensor(x))
    assert forward.count("rt.matmul_split(") == 1
    grad_fn = ms.grad(net, grad_position=0, weights=net.trainable_params())
    d_x, (d_w,) = grad_fn(Tensor(x))
    assert grad_fn.kernel_source(Tensor(x)).count("rt.matmul_split(") == 2   # both adjoints (no output needed)
    w = net.conv.weight.asnumpy().astype(np.float64)
    windows = np.lib.stride_tricks.sliding_window_view(x.astype(np.float64), (5, 5), axis=(2, 3))  # n c oh ow kh kw
    np.testing.assert_allclose(ms.jit(net)(Tensor(x)).asnumpy(), np.einsum("ncyxij,ocij->noyx", windows, w),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(d_w.asnumpy(), np.broadcast_to(windows.sum(axis=(0, 2, 3)), w.shape), rtol=1e-4)
    expected_d_x = np.zeros(x.shape)
    for i in range(5):
        for j in range(5):
            expected_d_x[:, :, i:i + 10, j:j + 10] += w[:, :, i, j].sum(axis=0)[None, :, None, None]
    np.testing.assert_allclose(d_x.asnumpy(), expected_d_x, rtol=1e-4, atol=1e-4)


def test_a_forked_child_splits_with_helpers_of_its_own(helpers):
    helpers(1)
    a, b = np.ones((512, 256), np.float32), np.ones((256, 512), np.float32)
    child = os.fork()
    if child == 0:                     # the parent's helper thread does not exist here
        alive = [t for t in threading.enumerate() if t.name.startswith("npspore-helper") and t.is_alive()]
        ok = len(alive) == 1 and (matmul_split.matmul_split(a, b) == 256).all()
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
