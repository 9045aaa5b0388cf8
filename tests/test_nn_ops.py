"""The convolution and pooling ops compiled: gradients and gradients of gradients (``ms.grad`` of
``ms.grad``) against central finite differences in float64, and the functional forms' errors.

Each program is ``sum(tanh(op(...)) * c)`` for a fixed ``c``, so that second derivatives go through
the adjoint rules of the adjoint ops (``conv2d_input_grad``, ``max_pool2d_gather`` ...).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.ops.eager import run

CONV = {"stride": (2, 1), "padding": (1, 0, 2, 1), "dilation": (1, 2), "groups": 2}
POOL = {"kernel_size": (3, 2), "stride": (2, 1), "padding": (1, 1, 0, 1), "dilation": (1, 2)}


def rand(shape, seed):
    return Tensor(np.random.default_rng(seed).standard_normal(shape))


def distinct(shape, seed):
    values = np.random.default_rng(seed).permutation(int(np.prod(shape))).reshape(shape)
    return Tensor(values / 10.0)


WEIGHTS = {shape: rand(shape, 9) for shape in [(2, 4, 2, 7), (2, 4, 5, 6), (4, 2, 3, 2), (2, 2, 3, 5), (2, 2, 3, 4),
                                                (2, 2, 5, 6), (2, 2, 2, 4), (2, 3, 6), (2, 4, 3), (2, 2, 2, 6)]}


def weigh(y):
    """``sum(tanh(y) * c)`` for a fixed random ``c`` of y's shape."""
    return (run("tanh", y) * WEIGHTS[y.shape]).sum()


def conv2d(x, w):
    return weigh(run("conv2d", x, w, **CONV))


def conv2d_input_grad(y, w):
    return weigh(run("conv2d_input_grad", y, w, input_shape=(2, 4, 5, 6), **CONV))


def conv2d_filter_grad(x, y):
    return weigh(run("conv2d_filter_grad", x, y, filter_shape=(4, 2, 3, 2), **CONV))


def max_pool2d(x):
    return weigh(run("max_pool2d", x, **POOL))


def sum_pool2d(x):
    return weigh(run("sum_pool2d", x, **POOL))


def avg_pool2d(x):
    return weigh(ops.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False))


def adaptive_avg_pool2d(x):
    return weigh(ops.adaptive_avg_pool2d(x, (2, 4)))


def adaptive_max_pool2d(x):
    return weigh(ops.adaptive_max_pool2d(x, (2, 4)))


def layer_norm(x, g):
    return weigh(ops.layer_norm(x, (6,), g, g * 0.5))


def group_norm(x, g):
    return weigh(ops.group_norm(x, 2, g, g * 0.5))


def topk(x):
    return weigh(ops.topk(x, 2, dim=2)[0])


def cross_entropy(x):
    labels = Tensor(np.array([1, 0, 4, 2]), ms.int32)
    return ops.cross_entropy(run("tanh", x) * 3, labels, Tensor(np.arange(1.0, 6.0)), label_smoothing=0.1)


PROGRAMS = {
    "conv2d": (conv2d, lambda: (rand((2, 4, 5, 6), 1), rand((4, 2, 3, 2), 2))),
    "conv2d_input_grad": (conv2d_input_grad, lambda: (rand((2, 4, 2, 7), 3), rand((4, 2, 3, 2), 4))),
    "conv2d_filter_grad": (conv2d_filter_grad, lambda: (rand((2, 4, 5, 6), 5), rand((2, 4, 2, 7), 6))),
    "max_pool2d": (max_pool2d, lambda: (distinct((2, 2, 5, 6), 7),)),
    "sum_pool2d": (sum_pool2d, lambda: (rand((2, 2, 5, 6), 8),)),
    "avg_pool2d": (avg_pool2d, lambda: (rand((2, 2, 5, 6), 8),)),
    "adaptive_avg_pool2d": (adaptive_avg_pool2d, lambda: (rand((2, 2, 5, 6), 8),)),
    "adaptive_max_pool2d": (adaptive_max_pool2d, lambda: (distinct((2, 2, 5, 6), 7),)),
    "layer_norm": (layer_norm, lambda: (rand((2, 3, 6), 10), rand((6,), 11))),
    "group_norm": (group_norm, lambda: (rand((2, 4, 3), 12), rand((4,), 13))),
    "cross_entropy": (cross_entropy, lambda: (rand((4, 5), 14),)),
    "topk": (topk, lambda: (distinct((2, 2, 5, 6), 7),)),
}


def total(fn, args):
    outputs = fn(*args)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    return sum(float(np.sum(o.asnumpy())) for o in outputs)


def directional(fn, args, position, direction, eps=1e-5):
    ahead = [Tensor(a.asnumpy()) for a in args]
    ahead[position] = Tensor(args[position].asnumpy() + eps * direction)
    behind = [Tensor(a.asnumpy()) for a in args]
    behind[position] = Tensor(args[position].asnumpy() - eps * direction)
    return (total(fn, ahead) - total(fn, behind)) / (2 * eps)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_first_and_second_derivatives_match_finite_differences(name):
    program, inputs = PROGRAMS[name]
    args = inputs()
    positions = tuple(range(len(args)))
    first = ms.grad(program, positions)
    second = ms.grad(first, positions)
    for fn, derivative in ((program, first), (first, second)):
        grads = derivative(*args)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for position, grad in enumerate(grads):
            direction = np.random.default_rng(position).standard_normal(args[position].shape)
            numeric = directional(fn, args, position, direction)
            assert np.isclose(float(np.sum(grad.asnumpy() * direction)), numeric, rtol=1e-5, atol=1e-6), \
                (name, position)


def test_conv2d_rejects_mismatched_channels_and_bad_pad_mode():
    x, w = rand((1, 3, 4, 4), 0).astype(ms.float32), rand((2, 2, 3, 3), 1).astype(ms.float32)
    with pytest.raises(ValueError, match="input channels 3 must equal the weight's in-channels 2"):
        ops.conv2d(x, w)
    with pytest.raises(ValueError, match="'pad_mode' must be one of"):
        ops.conv2d(x, w, pad_mode="full")
    with pytest.raises(ValueError, match="'padding' must be zero when 'pad_mode' is not 'pad'"):
        ops.conv2d(x, w, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="must be a 4-D Tensor"):
        ops.conv2d(x[0], w)
    with pytest.raises(TypeError, match="same dtype"):
        ops.conv2d(x, rand((2, 3, 3, 3), 1))


def plain_conv2d(x, w):
    return ops.conv2d(x, w)


def test_the_generated_convolution_is_one_im2col_and_one_matmul():
    source = ms.jit(plain_conv2d).kernel_source(rand((1, 2, 4, 4), 0), rand((3, 2, 3, 3), 1))
    assert source.count("rt.im2col(") == 1 and source.count(" @ ") == 1 and "for " not in source
    # static attributes are folded into the code: no padding step, no indexing of literal tuples
    assert "np.pad" not in source and "(1, 1)[" not in source and "(0, 0, 0, 0)" not in source


def test_layer_norm_backward_reads_the_normalized_values_and_rstd_of_the_forward():
    """One ``normalize`` op (issue 27's T3): its adjoint reads what the forward made, as a careful person writes
    a layer norm's backward; the statistics are not differentiated again op by op (``d_rsqrt``, ``d_square``,
    ``d_mean`` of the decomposition). Its values: ``test_first_and_second_derivatives_match_finite_differences``."""
    source = ms.grad(layer_norm, grad_position=(0, 1)).kernel_source(rand((2, 3, 6), 0), rand((6,), 1))
    backward = source[source.index("d_out_2 = weigh_bwd"):]
    assert source.count("rt.normalize(") == 1 and "rt.normalize(" not in backward and "np.square(" not in backward
    assert not any(name in backward for name in ("d_rsqrt", "d_square", "d_mean", "centred", "centered"))
    assert "@ out_4d" in backward   # each row's mean(d * normalized) as a (1, 6) @ (6, 1) product
    # rstd's cotangent, never read by a layer norm, is no zeros times rstd
    assert "0.0" not in backward and "zeros" not in backward, backward
