"""``nn.Unfold`` against a NumPy loop transcription of the documented ``ExtractImagePatches``
(MindSpore's CPU build cannot run it: "Unsupported op [ExtractImagePatches] on CPU", observed on
MindSpore 2.10): patches in NHWC order, TensorFlow's ``'same'``/``'valid'`` padding, eager and
compiled; and the argument errors, with the messages observed on MindSpore 2.10 CPU."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import npspore as ms
from npspore import Tensor, nn


def unfold_reference(x, ksize, stride, rate, padding):
    """Output channel ``(i * kw + j) * C + c`` at ``(r, q)``: ``x_padded[c, r*sh + i*rh, q*sw + j*rw]``."""
    n, c, h, w = x.shape
    span = [rate[d] * (ksize[d] - 1) + 1 for d in range(2)]
    if padding == "valid":
        out = [(size - span[d]) // stride[d] + 1 for d, size in enumerate((h, w))]
        before = [0, 0]
    else:
        out = [-(-size // stride[d]) for d, size in enumerate((h, w))]
        before = [max((out[d] - 1) * stride[d] + span[d] - size, 0) // 2 for d, size in enumerate((h, w))]
    y = np.zeros((n, ksize[0] * ksize[1] * c, out[0], out[1]), x.dtype)
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            for ch in range(c):
                for r in range(out[0]):
                    for q in range(out[1]):
                        row = r * stride[0] + i * rate[0] - before[0]
                        col = q * stride[1] + j * rate[1] - before[1]
                        if 0 <= row < h and 0 <= col < w:
                            y[:, (i * ksize[1] + j) * c + ch, r, q] = x[:, ch, row, col]
    return y


@st.composite
def unfold_case(draw):
    ksize = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    rate = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = draw(st.sampled_from(["valid", "same", "SAME"]))
    low = [rate[d] * (ksize[d] - 1) + 1 if padding == "valid" else 1 for d in range(2)]
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(low[0], 6)),
             draw(st.integers(low[1], 6)))
    x = draw(hnp.arrays(np.float32, shape, elements=st.floats(-5, 5, width=32)))
    return x, ksize, stride, rate, padding


class Patches(nn.Cell):
    def __init__(self, unfold):
        super().__init__()
        self.unfold = unfold

    def construct(self, x):
        return self.unfold(x) * 1


@settings(max_examples=15, deadline=None)
@given(case=unfold_case(), compiled=st.booleans())
def test_unfold_matches_the_documented_patches(case, compiled):
    x, ksize, stride, rate, padding = case
    layer = nn.Unfold([1, *ksize, 1], [1, *stride, 1], [1, *rate, 1], padding)
    out = (ms.jit(Patches(layer)) if compiled else layer)(Tensor(x))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), unfold_reference(x, ksize, stride, rate, padding.lower()))


def test_unfold_keeps_integer_dtypes_and_the_documented_example_shape():
    # the example of MindSpore's nn.Unfold documentation: (2, 3, 6, 6) float16 -> (2, 12, 2, 2)
    out = nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 2, 2, 1])(Tensor(np.ones([2, 3, 6, 6]), ms.float16))
    assert out.shape == (2, 12, 2, 2) and out.dtype == ms.float16
    x = np.arange(16, dtype=np.int32).reshape(1, 1, 4, 4)
    out = nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1])(Tensor(x))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), unfold_reference(x, (2, 2), (2, 2), (1, 1), "valid"))


def unfold_sum(x):
    return (nn.Unfold([1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1], "same")(x) ** 2).sum()


def test_unfold_gradient_counts_how_often_each_pixel_is_taken():
    x = np.random.default_rng(0).standard_normal((1, 2, 3, 4))
    grad = ms.grad(unfold_sum)(Tensor(x)).asnumpy()
    taken = unfold_reference(np.ones_like(x), (2, 2), (1, 2), (1, 1), "same")
    # d/dx sum(patches ** 2) = 2 x * (how many patch elements read x)
    counts = np.zeros_like(x)
    reference = unfold_reference(np.arange(x.size, dtype=np.float64).reshape(x.shape) + 1, (2, 2), (1, 2), (1, 1),
                                 "same")
    np.add.at(counts.reshape(-1), reference[taken > 0].astype(int) - 1, 1)
    np.testing.assert_allclose(grad, 2 * x * counts)


@pytest.mark.parametrize("kwargs, error, message", [
    # the messages observed on MindSpore 2.10 CPU
    ({"ksizes": 2}, TypeError, "For 'Unfold', the type of 'ksizes' should be one of '['tuple', 'list']', but got type "
                               "'int'."),
    ({"ksizes": [2, 2, 2, 1]}, ValueError, "For 'Unfold' the format of 'ksizes' must be [1, ksize_row, ksize_col, 1], "
                                           "but got [2, 2, 2, 1]."),
    ({"ksizes": [1, 2, 2]}, ValueError, "For 'Unfold' the format of 'ksizes' must be [1, ksize_row, ksize_col, 1], "
                                        "but got [1, 2, 2]."),
    ({"strides": [1, 0, 1, 1]}, ValueError, "For 'Unfold' the stride_row and stride_col in 'strides' must be an "
                                            "positive integer number, but got stride_row is 0, stride_col is 1"),
    ({"rates": [1, 1.5, 1, 1]}, ValueError, "For 'Unfold' the rate_row and rate_col in 'rates' must be an positive "
                                            "integer number, but got rate_row is 1.5, rate_col is 1"),
    # MindSpore fails later on these (len() of an int; an unknown padding at run time): npspore names them
    ({"strides": 1}, TypeError, "For 'Unfold', the type of 'strides' should be one of '['tuple', 'list']', but got "
                                "type 'int'."),
    ({"padding": "full"}, ValueError, "For 'Unfold', the 'padding' must be 'same' or 'valid', but got 'full'."),
])
def test_unfold_rejects_bad_arguments(kwargs, error, message):
    arguments = {"ksizes": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], **kwargs}
    with pytest.raises(error) as caught:
        nn.Unfold(**arguments)
    assert str(caught.value) == message
