"""compiler/arrayindex.py: int tensors mixed with ints and slices in an index, read in compiled code.

Values are MindSpore 2.10's (PYNATIVE and GRAPH alike, where GRAPH runs: it refuses a negative tensor index,
which npspore reads from the end as NumPy and PYNATIVE do); gradients against float64 central differences.
"""
import numpy as np
import pytest

import npspore as ms
import npspore.numpy as mnp
from npspore import Tensor
from npspore.compiler.errors import NotSupportedError
from gradcheck import central_difference

EMISSIONS = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4) / 7
TAGS = np.array([[1, 3, 0], [2, -1, 1]], np.int32)


def _indexed(e, tags):
    a = e[0, mnp.arange(3), tags[0]]   # a CRF's score of the tags (the sequence-labeling tutorial)
    b = e[1, :, tags[1]]               # a slice between: the broadcast dim goes first
    c = e[:, 1, tags[0]]
    d = e[1:, [0, 2], 3]               # a list, and a slice before
    return (a * a).sum() + (b * 3).sum() + (c ** 2).sum() + d.sum(), a, b, c, d


def test_values_are_mindspores_and_numpys():
    e = Tensor(EMISSIONS.astype(np.float32))
    compiled = ms.jit(_indexed)(e, Tensor(TAGS))
    eager = _indexed(e, Tensor(TAGS))
    expected = [EMISSIONS[0, np.arange(3), TAGS[0]], EMISSIONS[1, :, TAGS[1]], EMISSIONS[:, 1, TAGS[0]],
                EMISSIONS[1:, [0, 2], 3]]
    # MindSpore 2.10 prints the loss 97.51020812988281 and b[0] = [2.0, 2.5714..., 3.1428...]
    assert float(compiled[0].asnumpy()) == pytest.approx(97.51020812988281, rel=1e-6)
    for got, want, same in zip(compiled[1:], expected, eager[1:]):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
        np.testing.assert_array_equal(got.asnumpy(), same.asnumpy())


def test_gradient_against_central_differences():
    # the gradient of a tuple: of the sum of its outputs (a cotangent of ones for each)
    grad = ms.grad(ms.jit(_indexed), 0)(Tensor(EMISSIONS), Tensor(TAGS)).asnumpy()
    numeric = central_difference(lambda e: sum(float(o.asnumpy().sum()) for o in _indexed(Tensor(e), Tensor(TAGS))),
                                 EMISSIONS.copy())
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-6)
    # MindSpore 2.10 (float32 input): the gradient's [1, 1] row is [5.57143, 9.85714, 4.0, 10.42857]
    np.testing.assert_allclose(grad[1, 1], [5.5714302, 9.8571396, 4.0, 10.4285698], rtol=1e-6)


def test_none_in_such_an_index_is_refused_at_the_users_line():
    def with_none(e, tags):
        return e[0, None, tags[0]]

    with pytest.raises(NotSupportedError, match="mixed with None") as info:
        ms.jit(with_none)(Tensor(EMISSIONS), Tensor(TAGS))
    assert "test_arrayindex.py" in str(info.value)


def test_an_index_out_of_its_dim_is_numpys_index_error_not_another_row():
    def middle(x, idx):
        return x[0, idx, 1]

    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    np.testing.assert_array_equal(ms.jit(middle)(x, Tensor(np.array([-1, 1], np.int32))).asnumpy(), [9.0, 5.0])
    # 3 is past the middle dim (3): in the merged dims it would address x[1, 0, 1] = 13
    with pytest.raises(IndexError, match="out of bounds"):
        ms.jit(middle)(x, Tensor(np.array([3, 0], np.int32)))
