"""The tap-loop lowerings of max pooling and of the convolution's input gradient, on small fixed inputs
whose answers are written out: ties and NaN windows of ``max_pool2d_grad``/``max_pool2d_gather``,
``conv2d_input_grad`` against a pixel-by-pixel transpose of the convolution (float64), and a compiled
``nn.Conv2d`` gradient that copies its input into columns once, and a compiled max-pool gradient that
reads the maximum its forward computed."""
import re

import numpy as np

import npspore as ms
from npspore import Tensor, nn
from npspore.ops.eager import run

POOL = dict(kernel_size=(2, 2), stride=(2, 2))


def _array(values):
    return np.asarray(values, dtype=np.float32)


def _scatter(x, g, static):
    """``max_pool2d_grad`` given the maximum the forward computes."""
    return run("max_pool2d_grad", x, run("max_pool2d", x, **static), g, **static)


def test_max_pool_gradient_goes_to_each_windows_first_maximum():
    x = _array([[[[1, 3, 2, 2],
                  [3, 0, 2, 2]]]])
    g = _array([[[[10, 20]]]])
    np.testing.assert_array_equal(run("max_pool2d", x, **POOL), _array([[[[3, 2]]]]))
    np.testing.assert_array_equal(_scatter(x, g, POOL), _array([[[[0, 10, 20, 0],
                                                                  [0, 0, 0, 0]]]]))


def test_a_window_holding_nan_routes_to_its_first_element_in_the_scatter_and_the_gather():
    x = _array([[[[1, np.nan, 5, 1],
                  [4, 2, 1, 7]]]])
    g = _array([[[[10, 20]]]])
    h = _array([[[[1, 2, 3, 4],
                  [5, 6, 7, 8]]]])
    assert np.isnan(run("max_pool2d", x, **POOL)[0, 0, 0, 0])
    np.testing.assert_array_equal(_scatter(x, g, POOL), _array([[[[10, 0, 0, 0],
                                                                  [0, 0, 0, 20]]]]))
    np.testing.assert_array_equal(run("max_pool2d_gather", x, h, **POOL), _array([[[[1, 8]]]]))


def test_overlapping_padded_windows_add_their_gradients():
    x = _array([[[[0, 1, 0],
                  [0, 9, 0],
                  [0, 0, 0]]]])
    g = np.ones((1, 1, 2, 2), np.float32)
    static = dict(kernel_size=(2, 2), stride=(1, 1), padding=(0, 0, 0, 0))
    np.testing.assert_array_equal(_scatter(x, g, static), _array([[[[0, 0, 0],
                                                                    [0, 4, 0],
                                                                    [0, 0, 0]]]]))
    padded = dict(kernel_size=(3, 3), stride=(2, 2), padding=(1, 1, 1, 1))
    np.testing.assert_array_equal(_scatter(x, g, padded), _array([[[[0, 0, 0],
                                                                    [0, 4, 0],
                                                                    [0, 0, 0]]]]))


def _input_grad_by_pixels(dy, w, input_shape, stride, padding, dilation, groups):
    n, o, oh, ow = dy.shape
    cg, kh, kw = w.shape[1:]
    per_group = o // groups
    grad = np.zeros((n, cg * groups, input_shape[2] + padding[0] + padding[1],
                     input_shape[3] + padding[2] + padding[3]))
    for out_channel in range(o):
        group = out_channel // per_group
        for p in range(oh):
            for q in range(ow):
                for i in range(kh):
                    for j in range(kw):
                        row, col = p * stride[0] + i * dilation[0], q * stride[1] + j * dilation[1]
                        channels = slice(group * cg, (group + 1) * cg)
                        grad[:, channels, row, col] += dy[:, out_channel, p, q, None] * w[out_channel, :, i, j]
    return grad[:, :, padding[0]:padding[0] + input_shape[2], padding[2]:padding[2] + input_shape[3]]


def test_conv2d_input_grad_is_the_pixel_by_pixel_transpose():
    rng = np.random.default_rng(0)
    static = dict(stride=(2, 1), padding=(1, 0, 2, 1), dilation=(1, 2), groups=2)
    input_shape = (2, 4, 7, 6)
    w = rng.standard_normal((6, 2, 3, 2))
    y = run("conv2d", rng.standard_normal(input_shape), w, **static)
    dy = rng.standard_normal(y.shape)
    got = run("conv2d_input_grad", dy, w, input_shape=input_shape, **static)
    np.testing.assert_allclose(got, _input_grad_by_pixels(dy, w, input_shape, **static), rtol=1e-12, atol=1e-12)


def test_a_compiled_conv2d_gradient_reuses_the_forward_columns():
    net = nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1)
    x = Tensor(np.random.default_rng(1).standard_normal((2, 2, 5, 5)).astype(np.float32))
    step = ms.grad(net, 0, net.trainable_params())
    source = step.kernel_source(x)
    # one im2col (the forward's, kept for the filter gradient); the input gradient adds columns back
    assert source.count("rt.im2col(") == 1 and source.count("rt.col2im(") == 1
    w = net.weight.asnumpy().astype(np.float64)
    dx, (dw,) = step(x)
    ones = np.ones((2, 3, 5, 5))
    np.testing.assert_allclose(dx.asnumpy(), run("conv2d_input_grad", ones, w, input_shape=(2, 2, 5, 5),
                                                 padding=(1, 1, 1, 1)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dw.asnumpy(), run("conv2d_filter_grad", x.asnumpy().astype(np.float64), ones,
                                                 filter_shape=w.shape, padding=(1, 1, 1, 1)), rtol=1e-5, atol=1e-5)


def test_a_convolution_with_dynamic_height_and_width_compiles_once():
    net = nn.SequentialCell(nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1), nn.ReLU(), nn.MaxPool2d(2, 2))
    net.set_inputs(Tensor(shape=[None, 2, None, None], dtype=ms.float32))
    compiled = ms.jit(net)
    for shape in ((2, 2, 6, 6), (1, 2, 4, 8)):
        x = Tensor(np.random.default_rng(shape[3]).standard_normal(shape).astype(np.float32))
        np.testing.assert_allclose(compiled(x).asnumpy(), net.construct(x).asnumpy(), rtol=1e-5, atol=1e-6)
    assert net.cache_info()["compiles"] == 1


class PooledSquare(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        y = self.pool(x)
        return (y * y).sum()


def test_a_compiled_max_pool_gradient_reads_the_maximum_its_forward_computed():
    x = Tensor(np.random.default_rng(2).standard_normal((2, 3, 6, 6)).astype(np.float32))
    grad = ms.grad(PooledSquare())
    kernel = grad.kernel_source(x)
    maxima = re.findall(r"(\w+) = rt\.max_pool2d\(", kernel)
    assert len(maxima) == 1, kernel
    assert re.search(rf"rt\.max_pool2d_grad\(\w+, {maxima[0]}, ", kernel), kernel
    out = run("max_pool2d", x.asnumpy(), kernel_size=(2, 2), stride=(2, 2))
    expected = _scatter(x.asnumpy(), 2 * out, dict(kernel_size=(2, 2), stride=(2, 2)))
    np.testing.assert_allclose(grad(x).asnumpy(), expected, rtol=1e-6)
