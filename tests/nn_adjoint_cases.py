"""Hypothesis strategies for the convolution and pooling ops (merged into ``test_adjoints.CASES``).

Each draws small NCHW operands and random static attributes (stride, padding, dilation, groups,
kernel sizes) that give at least one output pixel. Max-pooling inputs have distinct values, so each
window's maximum stays put under finite differences.
"""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


def floats(shape):
    return hnp.arrays(np.float64, shape, elements=st.floats(-2.0, 2.0, allow_subnormal=False))


def _out(size, kernel, stride, pads, dilation):
    return (size + pads - dilation * (kernel - 1) - 1) // stride + 1


@st.composite
def conv_setup(draw):
    """``(x_shape, w_shape, static, y_shape)`` of a valid convolution."""
    groups = draw(st.integers(1, 2))
    n, cg, og = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = tuple(draw(st.lists(st.integers(0, 2), min_size=4, max_size=4)))
    h = draw(st.integers(max(1, dilation[0] * (kernel[0] - 1) + 1 - padding[0] - padding[1]), 5))
    w = draw(st.integers(max(1, dilation[1] * (kernel[1] - 1) + 1 - padding[2] - padding[3]), 5))
    static = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    y_shape = (n, og * groups, _out(h, kernel[0], stride[0], padding[0] + padding[1], dilation[0]),
               _out(w, kernel[1], stride[1], padding[2] + padding[3], dilation[1]))
    return (n, cg * groups, h, w), (og * groups, cg) + kernel, static, y_shape


@st.composite
def conv2d_case(draw):
    x_shape, w_shape, static, _ = draw(conv_setup())
    return (draw(floats(x_shape)), draw(floats(w_shape))), static


@st.composite
def conv2d_input_grad_case(draw):
    x_shape, w_shape, static, y_shape = draw(conv_setup())
    return (draw(floats(y_shape)), draw(floats(w_shape))), {**static, "input_shape": x_shape}


@st.composite
def conv2d_filter_grad_case(draw):
    x_shape, w_shape, static, y_shape = draw(conv_setup())
    return (draw(floats(x_shape)), draw(floats(y_shape))), {**static, "filter_shape": w_shape}


@st.composite
def pool_setup(draw):
    """``(x_shape, static, y_shape)`` of a valid 2-D pooling (padding below the kernel size)."""
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = (draw(st.integers(0, kernel[0] // 2)), draw(st.integers(0, kernel[0] // 2)),
               draw(st.integers(0, kernel[1] // 2)), draw(st.integers(0, kernel[1] // 2)))
    h = draw(st.integers(dilation[0] * (kernel[0] - 1) + 1, 5))
    w = draw(st.integers(dilation[1] * (kernel[1] - 1) + 1, 5))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2)), h, w)
    static = {"kernel_size": kernel, "stride": stride, "padding": padding, "dilation": dilation}
    y_shape = shape[:2] + (_out(h, kernel[0], stride[0], padding[0] + padding[1], dilation[0]),
                           _out(w, kernel[1], stride[1], padding[2] + padding[3], dilation[1]))
    return shape, static, y_shape


def distinct(shape):
    """Values 0.1 apart in a random order."""
    size = int(np.prod(shape))
    return st.permutations(range(size)).map(lambda p: np.asarray(p, np.float64).reshape(shape) / 10)


@st.composite
def max_pool2d_case(draw):
    shape, static, _ = draw(pool_setup())
    return (draw(distinct(shape)),), static


@st.composite
def max_pool2d_grad_case(draw):
    shape, static, y_shape = draw(pool_setup())
    return (draw(distinct(shape)), draw(floats(y_shape))), static


@st.composite
def max_pool2d_gather_case(draw):
    shape, static, _ = draw(pool_setup())
    return (draw(distinct(shape)), draw(floats(shape))), static


@st.composite
def sum_pool2d_case(draw):
    shape, static, _ = draw(pool_setup())
    return (draw(floats(shape)),), static


@st.composite
def sum_pool2d_grad_case(draw):
    shape, static, y_shape = draw(pool_setup())
    return (draw(floats(y_shape)),), {**static, "input_shape": shape}


CASES = {
    "conv2d": conv2d_case(), "conv2d_input_grad": conv2d_input_grad_case(),
    "conv2d_filter_grad": conv2d_filter_grad_case(), "max_pool2d": max_pool2d_case(),
    "max_pool2d_grad": max_pool2d_grad_case(), "max_pool2d_gather": max_pool2d_gather_case(),
    "sum_pool2d": sum_pool2d_case(), "sum_pool2d_grad": sum_pool2d_grad_case(),
}
