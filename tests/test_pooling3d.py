"""3-D pooling (P.MaxPool3D, P.AvgPool3D, ops.max_pool3d, ops.avg_pool3d, nn.MaxPool3d, nn.AvgPool3d): values,
argmax indices and gradients against MindSpore 2.10's (tests/fixtures/mindspore_pool3d.npz, written by
tools/observe_mindspore_pool3d.py), compiled as well as eager, gradients against central differences, and
MindSpore's errors."""
import os
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops, Tensor
from npspore.ops import operations as P
from npspore.testing import check_grads

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from recorded_values import check_array, recorded_fixture  # noqa: E402
from observe_mindspore_pool3d import CASES, evaluate, inputs  # noqa: E402

RECORDED = recorded_fixture("mindspore_pool3d")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    check_array(evaluate(ms, name), RECORDED[name], rtol=1e-5, atol=1e-6)


def test_values_mindspore_printed():
    # MindSpore 2.10 printed for AvgPool3D(3, 2, 'same') of x: 0.5502650141716003, 1.0, 0.7830690145492554 first
    np.testing.assert_allclose(evaluate(ms, "avg_same").ravel()[:3], [0.550265, 1.0, 0.783069], rtol=1e-5)
    # and for MaxPool3D(2, 1, 'VALID'): 2.857142925262451 (= 20 / 7) first, shape (2, 2, 3, 4, 4)
    out = evaluate(ms, "max_valid")
    assert out.shape == (2, 2, 3, 4, 4) and out.ravel()[0] == np.float32(20 / 7)


class _Pools(nn.Cell):
    def __init__(self):
        super().__init__()
        self.max_pool = nn.MaxPool3d(kernel_size=2, stride=2, pad_mode="pad", padding=(1, 0, 1), return_indices=True,
                                     ceil_mode=True)
        self.avg_pool = nn.AvgPool3d(kernel_size=3, stride=2, pad_mode="pad", padding=1, count_include_pad=False)

    def construct(self, x):
        values, indices = self.max_pool(x)
        return values, indices, self.avg_pool(x)


def test_compiled_layers_match_mindspore():
    values, indices, averages = ms.jit(_Pools())(Tensor(inputs()["x"]))
    np.testing.assert_allclose(values.asnumpy(), RECORDED["nn_max_values"], rtol=1e-6)
    np.testing.assert_array_equal(indices.asnumpy(), RECORDED["nn_max_indices"])
    assert indices.dtype == ms.int64
    np.testing.assert_allclose(averages.asnumpy(), RECORDED["nn_avg_pad"], rtol=1e-5)


def _max_then_avg(x):
    return (ops.max_pool3d(x, kernel_size=2, stride=1, padding=1, dilation=(1, 2, 1)) ** 2).sum() \
        + (P.AvgPool3D(kernel_size=2, strides=1, pad_mode="pad", pad=(1, 0, 0, 1, 1, 0), ceil_mode=True,
                       count_include_pad=False)(x) ** 3).sum()


def test_gradients_against_central_differences():
    x = np.random.default_rng(0).standard_normal((1, 2, 3, 4, 3))    # distinct values: no ties in the maxima
    check_grads(_max_then_avg, [x], order=1)


def test_repr_is_mindsporess():
    assert repr(P.MaxPool3D(kernel_size=2, strides=1)) == (
        "Prim[MaxPool3D]<kernel_size=(1, 1, 2, 2, 2), strides=(1, 1, 1, 1, 1), pad_mode=VALID, "
        "pad_list=(0, 0, 0, 0, 0, 0), ceil_mode=0, data_format=NCDHW>")
    assert repr(P.AvgPool3D(kernel_size=2)) == (
        "Prim[AvgPool3D]<kernel_size=(1, 1, 2, 2, 2), strides=(1, 1, 1, 1, 1), pad_mode=VALID, pad=0, ceil_mode=False, "
        "count_include_pad=True, divisor_override=0, data_format=NCDHW, pad_list=(0, 0, 0, 0, 0, 0)>")


@pytest.mark.parametrize("build, error, message", [
    (lambda: P.MaxPool3D(kernel_size=2)(Tensor(np.ones((2, 3, 4, 4), np.float32))), ValueError,
     r"For primitive\[MaxPool3D\], the x_rank must be equal to 5, but got 4\."),
    (lambda: P.MaxPool3D(kernel_size=2, pad_mode="valid", pad_list=1), ValueError,
     r"For 'MaxPool3D', the 'pad_list' must be zero or \(0, 0, 0, 0, 0, 0\) when 'pad_mode' is not \"pad\", but got "
     r"'pad_list' is 1 and 'pad_mode' is valid\."),
    (lambda: P.MaxPool3D(kernel_size=2, pad_mode="foo"), ValueError,
     r"For 'MaxPool3D', the 'pad_mode' must be str and must be in '\['VALID', 'SAME', 'PAD'\]', but got 'FOO'\."),
    (lambda: nn.MaxPool3d(kernel_size=3, stride=2, padding=1), ValueError,
     r"For 'MaxPool3D', the 'pad_list' must be zero or \(0, 0, 0, 0, 0, 0\) when 'pad_mode' is not \"pad\", but got "
     r"'pad_list' is 1 and 'pad_mode' is valid\."),
    (lambda: nn.MaxPool3d(kernel_size=2, stride=2, return_indices=True), ValueError,
     r"For MaxPool3d, the pad_mode must be 'pad' when dilation is not 1 or return_indices is True, but got "
     r"pad_mode:valid\."),
    (lambda: nn.AvgPool3d(kernel_size=3, stride=2, padding=1), ValueError,
     r"For 'AvgPool3D', the 'pad' must be zero or \(0, 0, 0, 0, 0, 0\) when 'pad_mode' is not \"PAD\", but got "
     r"'pad' is \(1, 1, 1, 1, 1, 1\) and 'pad_mode' is valid\."),
    (lambda: ops.avg_pool3d(Tensor(np.ones((2, 2, 2), np.float32)), 1), ValueError, r"x_rank must be equal to 5"),
])
def test_mindspore_errors(build, error, message):
    with pytest.raises(error, match=message):
        build()
