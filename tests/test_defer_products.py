"""Split products started before a loop and waited for after it (compiler/deferproducts.py,
core.matmul_split.matmul_start / matmul_wait)."""
import re

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.core import matmul_split


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_started_product_is_the_split_products_bits_once_waited_for(helpers, count):
    helpers(count)
    rng = np.random.default_rng(0)
    d, x = rng.standard_normal((700, 512), np.float32), rng.standard_normal((700, 128), np.float32)
    out = np.full((512, 128), np.nan, np.float32)
    assert matmul_split.matmul_start(d.T, x, out=out) is out
    matmul_split.matmul_wait(out)
    np.testing.assert_array_equal(out, matmul_split.matmul_split(d.T, x))
    w = d.T @ x
    made = matmul_split.matmul_start(d, w)              # no buffer given: the array it computes into
    matmul_split.matmul_wait(made)
    np.testing.assert_array_equal(made, matmul_split.matmul_split(d, w))
    matmul_split.matmul_wait(made)                      # waited for already: nothing to do


def test_an_error_in_a_started_product_is_raised_by_the_wait(helpers):
    helpers(1)
    a, b = np.ones((512, 256), np.float32), np.ones((256, 512), np.float32)
    out = np.empty((512, 100), np.float32)
    matmul_split.matmul_start(a, b, out=out)
    with pytest.raises(ValueError):
        matmul_split.matmul_wait(out)


def test_a_product_started_again_into_an_array_finishes_the_first_one_before(helpers):
    helpers(1)
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((600, 300), np.float32), rng.standard_normal((300, 400), np.float32)
    out = np.empty((600, 400), np.float32)
    matmul_split.matmul_start(a, b, out=out)            # a call that failed before its wait
    matmul_split.matmul_start(a * 2, b, out=out)
    matmul_split.matmul_wait(out)
    np.testing.assert_array_equal(out, matmul_split.matmul_split(a * 2, b))


def _lstm_grad(net):
    return ms.jit(ms.grad(net, grad_position=None, weights=net.trainable_params()))


def _weight_gradient_kernel(cell_type, seed: int):
    """A ``cell_type`` made after ``ms.set_seed(seed)``, a (30, 20, 64) input and its compiled weight gradient's
    kernel text."""
    ms.set_seed(seed)
    net = cell_type()
    x = Tensor(np.random.default_rng(seed).standard_normal((30, 20, 64)).astype(np.float32))
    return net, x, _lstm_grad(net).kernel_source(x)


def _assert_the_eager_gradients(net, x):
    expected = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)   # eager: NumPy op by op
    for got, want in zip(_lstm_grad(net)(x), expected):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=2e-4, atol=2e-5)


class _TwoLayerLSTM(nn.Cell):
    """A 2-layer LSTM whose second layer's weight gradients (256 x 600 x 64: 20 MFLOP) are split products."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(64, 64, num_layers=2)

    def construct(self, x):
        output, _ = self.lstm(x)
        return (output * output).sum()


def test_a_layers_weight_gradients_run_while_the_layer_below_runs_its_backward_loop(helpers):
    helpers(1)
    net, x, source = _weight_gradient_kernel(_TwoLayerLSTM, 0)
    lines = source.splitlines()
    started = [i for i, line in enumerate(lines) if "rt.matmul_start(" in line]
    assert len(started) == 2, source
    for start in started:
        named = re.search(r"out=(\w+)\)", lines[start]) or re.match(r" +(\w+) = rt\.matmul_start", lines[start])
        result = named.group(1)
        wait = next(i for i, line in enumerate(lines) if f"rt.matmul_wait({result})" in line)
        between = lines[start + 1:wait]
        assert any(re.match(r" +for \w+ in range\(30\):", line) for line in between), source   # the loop runs
        assert not any(re.search(rf"\b{result}\b", line) for line in between), source   # nothing touches it
    _assert_the_eager_gradients(net, x)


def test_the_helpers_give_the_bits_of_the_kernel_without_them_at_the_same_blocks(helpers):
    ms.set_seed(0)
    net = _TwoLayerLSTM()
    x = Tensor(np.random.default_rng(3).standard_normal((30, 20, 64)).astype(np.float32))
    helpers(1)
    first = [g.asnumpy() for g in _lstm_grad(net)(x)]
    again = [g.asnumpy() for g in _lstm_grad(net)(x)]     # the helper takes the started blocks in another order
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


class _ProductReadInTheLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((256, 512), 0.01, np.float32)), name="w")

    def construct(self, x, h):
        g = ops.matmul(x, self.w)                     # 67 MFLOP: split
        for i in range(3):
            h[i] = h[i] + g[i, :64]                   # read in the loop: it waits before
        return h, g


def test_a_product_read_inside_the_loop_is_not_started_before_it(helpers):
    helpers(1)
    x = np.random.default_rng(4).standard_normal((256, 256)).astype(np.float32)
    h = np.zeros((3, 64), np.float32)
    cell = _ProductReadInTheLoop()
    source = ms.jit(cell).kernel_source(Tensor(x), Tensor(h))
    assert "rt.matmul_split(" in source and "matmul_start" not in source, source
    out, g = ms.jit(cell)(Tensor(x), Tensor(h))
    np.testing.assert_allclose(g.asnumpy(), x.astype(np.float64) @ np.full((256, 512), 0.01), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(out.asnumpy(), g.asnumpy()[:3, :64], rtol=1e-6)


class _Decoded(nn.Cell):
    """An LSTM and a Dense decoder (600 x 64 x 512: 39 MFLOP products), as T2's language model."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(64, 64, num_layers=2)
        self.decoder = nn.Dense(64, 512)

    def construct(self, x):
        output, _ = self.lstm(x)
        return (self.decoder(output.reshape((-1, 64))) ** 2).mean()


def test_a_weight_gradient_a_sub_cell_returns_is_waited_for_after_the_recurrence_that_follows(helpers):
    helpers(1)
    net, x, source = _weight_gradient_kernel(_Decoded, 1)
    dense_backward = source[source.index("def Dense_construct_bwd"):]
    dense_backward = dense_backward[:dense_backward.index("\ndef ")]
    assert "= rt.matmul_start(" in dense_backward and "rt.matmul_split(" in dense_backward, dense_backward
    caller = next(part for part in source.split("\ndef ") if "= Dense_construct_bwd(" in part)
    lines = caller.splitlines()
    call = next(i for i, line in enumerate(lines) if "= Dense_construct_bwd(" in line)
    weight = re.search(r", (\w+), \w+ = Dense_construct_bwd", lines[call]).group(1)   # (d_x, d_weight, d_bias)
    wait = next(i for i, line in enumerate(lines) if f"rt.matmul_wait({weight})" in line)
    assert any("= LSTM_construct_bwd(" in line for line in lines[call:wait]), caller   # after the recurrence
    _assert_the_eager_gradients(net, x)


class _TwoDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.first, self.second = nn.Dense(256, 512), nn.Dense(512, 256)

    def construct(self, x):
        return (self.second(ops.tanh(self.first(x))) ** 2).sum()


def test_a_kernel_without_a_loop_keeps_its_split_products(helpers):
    helpers(1)
    net = _TwoDense()
    x = Tensor(np.random.default_rng(6).standard_normal((256, 256)).astype(np.float32))
    source = _lstm_grad(net).kernel_source(x)
    assert source.count("rt.matmul_split(") == 5 and "matmul_start" not in source and "matmul_wait" not in source, \
        source
