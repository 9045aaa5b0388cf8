"""Hypothesis strategies for the convolution, pooling and ordering ops (merged into ``test_adjoints.CASES``).

Each draws small NCHW operands and random static attributes (stride, padding, dilation, groups,
kernel sizes) that give at least one output pixel. Max-pooling inputs have distinct values, so each
window's maximum stays put under finite differences.
"""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from npspore.opdef import op_table


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
def conv2d_columns_case(draw):
    x_shape, w_shape, static, y_shape = draw(conv_setup())
    return (draw(floats(x_shape)),), {**static, "filter_shape": w_shape}


@st.composite
def conv2d_columns_grad_case(draw):
    x_shape, w_shape, static, y_shape = draw(conv_setup())
    groups = static["groups"]
    cols_shape = (groups, w_shape[1] * w_shape[2] * w_shape[3], y_shape[0] * y_shape[2] * y_shape[3])
    return (draw(floats(cols_shape)),), {**static, "filter_shape": w_shape, "input_shape": x_shape}


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
    """``(x, top, g)``: ``top`` halfway between each window's maximum and the next value below it (the
    scatter reads only which tap is first not below ``top``, so it stays put under finite differences)."""
    shape, static, y_shape = draw(pool_setup())
    x = draw(distinct(shape))
    top = op_table()["max_pool2d"].forward(x, **static) - 0.05
    return (x, top, draw(floats(y_shape))), static


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


@st.composite
def topk_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    return (draw(distinct(shape)),), {"k": draw(st.integers(0, shape[-1])), "largest": draw(st.booleans())}


@st.composite
def last_indices(draw, shape, size):
    """Distinct indices into a last dim of ``size``, ``shape[-1]`` of them per row."""
    rows = int(np.prod(shape[:-1]))
    picks = [draw(st.permutations(range(size)))[:shape[-1]] for _ in range(rows)]
    return np.asarray(picks, np.int32).reshape(shape)


@st.composite
def gather_last_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    size = draw(st.integers(shape[-1], 4))
    return (draw(floats(shape[:-1] + (size,))), draw(last_indices(shape, size))), {}


@st.composite
def scatter_last_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    size = draw(st.integers(shape[-1], 4))
    return (draw(floats(shape)), draw(last_indices(shape, size))), {"size": size}


CASES = {
    "conv2d": conv2d_case(), "conv2d_input_grad": conv2d_input_grad_case(),
    "conv2d_filter_grad": conv2d_filter_grad_case(), "conv2d_columns": conv2d_columns_case(),
    "conv2d_columns_grad": conv2d_columns_grad_case(), "max_pool2d": max_pool2d_case(),
    "max_pool2d_grad": max_pool2d_grad_case(), "max_pool2d_gather": max_pool2d_gather_case(),
    "sum_pool2d": sum_pool2d_case(), "sum_pool2d_grad": sum_pool2d_grad_case(),
    "topk": topk_case(), "gather_last": gather_last_case(), "scatter_last": scatter_last_case(),
}
