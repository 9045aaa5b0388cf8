"""compiler/batchlastcolumns.py: a large convolution's input gradient reads its output gradient by pixel and
adds the columns back with ``rt.col2im(..., batch_last=True)``, with the gradient of the plain lowering."""
import numpy as np

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.compiler import batchlastcolumns


class _ConvLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(6, 16, 5, pad_mode="valid")

    def construct(self, x):
        return (ops.relu(self.conv(x)) ** 2).sum()


def _input_gradient(net, x):
    grad = ms.grad(net, grad_position=0, weights=net.trainable_params())
    return grad.kernel_source(x), grad(x)


def test_a_large_convolutions_input_gradient_adds_columns_in_pixel_order(monkeypatch, tmp_path):
    ms.set_seed(2)
    x = Tensor(np.random.default_rng(3).standard_normal((32, 6, 14, 14)).astype(np.float32))   # 480,000 entries
    net = _ConvLoss()
    source, (d_x, (d_w,)) = _input_gradient(net, x)
    assert "batch_last=True" in source and ".transpose((1, 2, 3, 0))" in source, source
    monkeypatch.setattr(batchlastcolumns, "MIN_COLUMN_ELEMENTS", 1 << 40)      # the plain lowering,
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path))                     # compiled anew
    plain = _ConvLoss()
    plain.conv.weight.set_data(net.conv.weight.copy())
    plain_source, (plain_x, (plain_w,)) = _input_gradient(plain, x)
    assert "batch_last=True" not in plain_source
    np.testing.assert_allclose(d_x.asnumpy(), plain_x.asnumpy(), rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(d_w.asnumpy(), plain_w.asnumpy())


def test_a_small_convolution_keeps_the_plain_lowering():
    x = Tensor(np.ones((2, 6, 14, 14), np.float32))      # 30,000 column entries
    source, _ = _input_gradient(_ConvLoss(), x)
    assert "batch_last=True" not in source
