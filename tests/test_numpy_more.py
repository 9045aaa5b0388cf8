"""mindspore.numpy's squeeze, swapaxes, ceil, floor, sin, cos, max/amax, min/amin, maximum, equal, tensordot,
meshgrid, repeat, tril, triu, take_along_axis and copy: values and dtypes MindSpore 2.10 printed for the same
inputs, eager and compiled, and gradients against central differences."""
import numpy as np
import pytest

import npspore as ms
import npspore.numpy as mnp
from npspore import Tensor
from npspore.testing import check_grads

XI = np.array([[1, -2, 3]], np.int32)
XF = np.array([[1.5, -2.5, 3.2], [0.1, 4.0, -1.0]], np.float32)

# (call, MindSpore 2.10's dtype, shape and values)
CASES = {
    "squeeze": (lambda xi, xf: mnp.squeeze(xi), ms.int32, [1, -2, 3]),
    "squeeze_axis": (lambda xi, xf: mnp.squeeze(mnp.ones((1, 2, 1)), axis=2), ms.float32, [[1.0, 1.0]]),
    "ceil_int": (lambda xi, xf: mnp.ceil(xi), ms.float32, [[1.0, -2.0, 3.0]]),
    "ceil": (lambda xi, xf: mnp.ceil(xf), ms.float32, [[2.0, -2.0, 4.0], [1.0, 4.0, -1.0]]),
    "floor": (lambda xi, xf: mnp.floor(xf), ms.float32, [[1.0, -3.0, 3.0], [0.0, 4.0, -1.0]]),
    "max": (lambda xi, xf: mnp.max(xf), ms.float32, 4.0),
    "max_axis": (lambda xi, xf: mnp.max(xf, axis=1, keepdims=True), ms.float32, [[3.2], [4.0]]),
    "max_int": (lambda xi, xf: mnp.max(xi, axis=0), ms.int32, [1, -2, 3]),
    "amax": (lambda xi, xf: mnp.amax(xf, 0), ms.float32, [1.5, 4.0, 3.2]),
    "min": (lambda xi, xf: mnp.min(xf, axis=0), ms.float32, [0.1, -2.5, -1.0]),
    "maximum": (lambda xi, xf: mnp.maximum(xf, 0.5), ms.float32, [[1.5, 0.5, 3.2], [0.5, 4.0, 0.5]]),
    "maximum_int": (lambda xi, xf: mnp.maximum(xi, 2), ms.int32, [[2, 2, 3]]),
    "maximum_mixed": (lambda xi, xf: mnp.maximum(xi, xf), ms.float32, [[1.5, -2.0, 3.2], [1.0, 4.0, 3.0]]),
    "maximum_nan": (lambda xi, xf: mnp.maximum(Tensor([np.nan, 1.0]), Tensor([0.0, np.nan])), ms.float32,
                    [np.nan, np.nan]),
    "swapaxes": (lambda xi, xf: mnp.swapaxes(xf, 0, 1), ms.float32, [[1.5, 0.1], [-2.5, 4.0], [3.2, -1.0]]),
    "tensordot": (lambda xi, xf: mnp.tensordot(xf, xf.T, axes=1), ms.float32, [[18.74, -13.05], [-13.05, 17.01]]),
    "tensordot_2": (lambda xi, xf: mnp.tensordot(xf, xf, axes=2), ms.float32, 35.75),
    "tensordot_default": (lambda xi, xf: mnp.tensordot(mnp.ones((2, 3, 4)), mnp.ones((3, 4, 5))), ms.float32,
                          np.full((2, 5), 12.0)),
    "tensordot_pairs": (lambda xi, xf: mnp.tensordot(xf, xf, axes=([0], [0])), ms.float32,
                        [[2.26, -3.35, 4.7], [-3.35, 22.25, -12.0], [4.7, -12.0, 11.24]]),
    "equal": (lambda xi, xf: mnp.equal(xi, 3), ms.bool_, [[False, False, True]]),
    "sin_int": (lambda xi, xf: mnp.sin(xi), ms.float32, [[0.84147096, -0.9092974, 0.14112]]),
    "cos": (lambda xi, xf: mnp.cos(xf), ms.float32,
            [[0.0707372, -0.80114359, -0.99829477], [0.99500418, -0.65364361, 0.54030228]]),
    "repeat": (lambda xi, xf: mnp.repeat(xi, 2), ms.int32, [1, 1, -2, -2, 3, 3]),
    "repeat_axis": (lambda xi, xf: mnp.repeat(xf, 2, axis=0), ms.float32, np.repeat(XF, 2, axis=0)),
    "repeat_counts": (lambda xi, xf: mnp.repeat(xf, [1, 2], axis=0), ms.float32, XF[[0, 1, 1]]),
    "take_along_axis": (lambda xi, xf: mnp.take_along_axis(xf, Tensor([[0], [2]], ms.int32), 1), ms.float32,
                        [[1.5], [-1.0]]),
    "copy": (lambda xi, xf: mnp.copy(xf), ms.float32, XF),
    "tril": (lambda xi, xf: mnp.tril(mnp.ones((3, 3)), -1), ms.float32, [[0, 0, 0], [1, 0, 0], [1, 1, 0]]),
    "triu": (lambda xi, xf: mnp.triu(mnp.ones((3, 3)), 1), ms.float32, [[0, 1, 1], [0, 0, 1], [0, 0, 0]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_dtypes_match_mindspore(name):
    call, dtype, expected = CASES[name]
    out = call(Tensor(XI), Tensor(XF))
    assert out.dtype == dtype
    expected = np.asarray(expected)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), expected.astype(np.float64), rtol=1e-6, atol=1e-6)


def test_meshgrid_as_mindspore():
    # MindSpore 2.10: meshgrid([1 2 3] Int64, [4. 5.]) is (2, 3) grids xy, (3, 2) ij, (1, 3)/(2, 1) sparse
    x, y = Tensor(np.array([1, 2, 3])), Tensor(np.array([4.0, 5.0], np.float32))
    gx, gy = mnp.meshgrid(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(gy.asnumpy(), [[4.0, 4.0, 4.0], [5.0, 5.0, 5.0]])
    assert gx.dtype == ms.int64 and gy.dtype == ms.float32
    gx, gy = mnp.meshgrid(x, y, indexing="ij")
    np.testing.assert_array_equal(gx.asnumpy(), [[1, 1], [2, 2], [3, 3]])
    gx, gy = mnp.meshgrid(x, y, sparse=True)
    assert gx.shape == (1, 3) and gy.shape == (2, 1)
    np.testing.assert_array_equal(gy.asnumpy(), [[4.0], [5.0]])


def test_floor_of_integers_is_refused():
    # MindSpore 2.10: TypeError "Select CPU operator[Floor] fail! Unsupported data type!"
    with pytest.raises(TypeError, match="For 'floor', the input must be a float Tensor"):
        mnp.floor(Tensor(XI))


def test_array_of_a_tensor_copies():
    source = Tensor(XF)
    copied = mnp.array(source)
    np.testing.assert_array_equal(copied.asnumpy(), XF)
    assert copied is not source


def _mixed(a, b):
    grid_a, grid_b = mnp.meshgrid(a[0], b[:, 0])
    return (mnp.tensordot(mnp.swapaxes(b, 0, 1), b, axes=1).sum() + mnp.amax(a * b.T, axis=1).sum()
            + mnp.maximum(a, 0.1).sum() + (mnp.tril(b @ a) * mnp.sin(b @ a)).sum()
            + mnp.take_along_axis(mnp.repeat(a, 2, axis=1), Tensor([[1, 0, 3]], ms.int32), 1).sum()
            + (grid_a * grid_b).sum() + mnp.squeeze(mnp.copy(a[:1])).sum())


def test_compiled_and_gradients_against_central_differences():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 2))
    eager = _mixed(Tensor(a), Tensor(b)).asnumpy()
    np.testing.assert_allclose(ms.jit(_mixed)(Tensor(a), Tensor(b)).asnumpy(), eager, rtol=1e-12)
    check_grads(_mixed, [a, b], order=1)
