"""The sequence ops (``row``, ``row_add``) in compiled loops: the optimizer's row accumulation and
in-place rows, and where it must not write in place; gradients of gradients through them."""
from __future__ import annotations

import re

import numpy as np

import npspore as ms
from gradcheck import check_grads
from npspore import Tensor, nn, ops
from npspore.ops.eager import run


def scan_tanh(x):
    """h_t = tanh(x_t + h_{t-1}), every h_t written into a (T, B) output buffer."""
    h = ops.zeros((x.shape[1],), x.dtype)
    out = ops.zeros(x.shape, x.dtype)
    for t in range(x.shape[0]):
        h = ops.tanh(run("row", x, t) + h)
        out = run("row_add", out, t, h)
    return out


def test_compiled_loop_equals_eager_and_writes_rows_in_place(capsys):
    x = np.random.default_rng(0).standard_normal((20, 4)).astype(np.float32)
    eager = scan_tanh(Tensor(x)).asnumpy()
    compiled = ms.jit(scan_tanh)
    np.testing.assert_array_equal(compiled(Tensor(x)).asnumpy(), eager)
    np.testing.assert_array_equal(compiled(Tensor(x)).asnumpy(), eager)   # the buffer is fresh each call
    from npspore.cli import main
    assert main(["show", f"{__file__}:scan_tanh", "--input", "f32[20,4]", "--no-color"]) == 0
    source = capsys.readouterr().out
    assert re.search(r"np.add\((\w+)\[t\], \w+, out=\1\[t\]\)", source) and ".copy()" not in source


def test_a_buffer_read_elsewhere_is_copied_not_written_in_place():
    @ms.jit
    def shared(x):
        start = ops.zeros(x.shape, x.dtype)
        out = start
        for t in range(x.shape[0]):
            out = run("row_add", out, t, run("row", x, t) * 2.0)
        return out, start + 1.0

    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    out, start = shared(Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), 2 * x)
    np.testing.assert_array_equal(start.asnumpy(), np.ones((3, 2)))


def test_gradients_through_row_ops_to_second_order():
    def loss(x):
        return (scan_tanh(x) ** 2).sum()

    first = ms.grad(loss)
    second = ms.grad(first)   # the gradient of sum(first(x))

    def eager_loss(x):
        return float(loss(Tensor(x)).asnumpy())

    def total_first(x):
        return float(first(Tensor(x)).asnumpy().sum())

    x = np.random.default_rng(1).uniform(-1, 1, (4, 3))
    check_grads(eager_loss, (x,), lambda fn: lambda args, dout: first(Tensor(args[0])).asnumpy() * dout)
    check_grads(total_first, (x,), lambda fn: lambda args, dout: second(Tensor(args[0])).asnumpy() * dout)


def test_lstm_gradient_kernel_has_no_per_step_copies(capsys):
    from npspore.cli import main
    assert main(["show", f"{__file__}:lstm_loss", "--input", "f32[6,2,3]", "--grad", "--weights", "all",
                 "--no-color"]) == 0
    source = capsys.readouterr().out
    assert "row_add_in_place" not in source          # inlined: ``buf[t] = buf[t] + h``
    assert ".copy()" not in source and "zeros_like" not in source


class _LSTMLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, 2)

    def construct(self, x):
        return self.lstm(x)[0].sum()


def lstm_loss():
    """The Cell the kernel test shows."""
    return _LSTMLoss()
