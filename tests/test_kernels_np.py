"""core.kernels_np: the last-axis gather and scatter (NumPy's own results, their row indices made once per shape)
and the parts of a split (NumPy's, as views)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from npspore.core import kernels_np


def test_last_axis_gather_and_scatter_reuse_read_only_row_indices_made_once_per_shape():
    rng = np.random.default_rng(0)
    for shape in [(4, 5), (2, 3, 5), (4, 5)]:
        x = rng.standard_normal(shape).astype(np.float32)
        indices = rng.integers(0, shape[-1], shape[:-1] + (1,))
        np.testing.assert_array_equal(kernels_np.gather_last(x, indices), np.take_along_axis(x, indices, axis=-1))
        g = rng.standard_normal(indices.shape).astype(np.float32)
        expected = np.zeros(shape, np.float32)
        np.put_along_axis(expected, indices, g, axis=-1)
        np.testing.assert_array_equal(kernels_np.scatter_last(g, indices, shape[-1]), expected)
    rows = kernels_np._leading_indices((4, 1))
    assert rows is kernels_np._leading_indices((4, 1))   # made once: a training step asks every call
    assert not any(index.flags.writeable for index in rows)
    np.testing.assert_array_equal(rows[0], np.arange(4).reshape(4, 1))


def test_last_axis_scatter_adds_repeated_indices_as_the_transpose_of_the_gather():
    # it wrote them (np.put_along_axis): gather_elements' gradient along the last axis of a dynamic array, and a
    # loaded GatherD's, kept one of the repeats (a CTC loss's blank states)
    g = np.array([[1.0, 2.0, 4.0], [8.0, 16.0, 32.0]], np.float32)
    indices = np.array([[0, 2, 0], [-1, 1, 1]])
    np.testing.assert_array_equal(kernels_np.scatter_last(g, indices, 3), [[5.0, 0.0, 2.0], [0.0, 48.0, 8.0]])
    np.testing.assert_array_equal(kernels_np.scatter_last(g, indices, -1), [[5.0, 0.0, 2.0], [0.0, 48.0, 8.0]])
    assert kernels_np.scatter_last(g[:, :0], indices[:, :0], 4).shape == (2, 4)


def test_split_parts_are_numpys_split_as_views():
    rng = np.random.default_rng(1)
    for shape, cuts, axis in [((4, 10), [2, 5], 1), ((4, 10), 5, -1), ((6, 3), 3, 0), ((4, 10), [3, 3, 12], 1),
                              ((4, 10), [], 1), ((2, 3, 8), [0, 8], -1), ((20, 512), [128, 256, 384], -1)]:
        x = rng.standard_normal(shape)
        parts, expected = kernels_np.split_parts(x, cuts, axis), np.split(x, cuts, axis=axis)
        assert isinstance(parts, tuple) and len(parts) == len(expected)
        for part, want in zip(parts, expected):
            assert part.shape == want.shape and np.array_equal(part, want) and np.shares_memory(part, x) == (part.size > 0)
    with pytest.raises(ValueError, match="equal division"):
        kernels_np.split_parts(np.zeros((2, 3)), 2, 1)


@pytest.mark.parametrize("x_shape, filter_shape, stride, padding, dilation", [
    ((32, 6, 14, 14), (16, 6, 5, 5), (1, 1), (0, 0, 0, 0), (1, 1)),
    ((3, 4, 9, 8), (5, 4, 3, 2), (2, 1), (1, 0, 2, 1), (1, 2)),
])
def test_col2im_of_batch_last_columns_is_col2im_of_the_same_columns_in_batch_order(
        x_shape, filter_shape, stride, padding, dilation):
    rng = np.random.default_rng(6)
    cols = rng.standard_normal(kernels_np.im2col(np.zeros(x_shape), filter_shape, stride, padding, dilation).shape)
    groups, taps, pixels = cols.shape
    n = x_shape[0]
    by_pixel = cols.reshape(groups, taps, n, pixels // n).transpose(0, 1, 3, 2).reshape(cols.shape)
    expected = kernels_np.col2im(cols, x_shape, filter_shape, stride, padding, dilation)
    got = kernels_np.col2im(by_pixel, x_shape, filter_shape, stride, padding, dilation, batch_last=True)
    into = kernels_np.col2im(by_pixel, x_shape, filter_shape, stride, padding, dilation, batch_last=True,
                             out=np.full(x_shape, np.nan))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(into, got)
    # col2im is im2col's transpose: <im2col(x), c> == <x, col2im(c)>
    x = rng.standard_normal(x_shape)
    lhs = float(np.sum(kernels_np.im2col(x, filter_shape, stride, padding, dilation) * cols))
    assert abs(lhs - float(np.sum(x * got))) < 1e-9 * max(1.0, abs(lhs))


@pytest.mark.parametrize("shape, axis", [((4, 3, 7), (2,)), ((4, 3, 7), (1, 2)), ((5, 6), (0,)), ((6,), (0,))])
@pytest.mark.parametrize("dtype, rtol", [(np.float64, 1e-13), (np.float32, 2e-6), (np.float16, 2e-3)])
def test_normalize_is_the_layer_norm_of_numpy_in_float64(shape, axis, dtype, rtol):
    # over the last axis alone the row sums are products with a column of ones (not NumPy's mean): same values
    x = (np.random.default_rng(7).standard_normal(shape) * 3 + 1).astype(dtype)
    exact = x.astype(np.float64)
    centred = exact - exact.mean(axis=axis, keepdims=True)
    rstd = 1 / np.sqrt(np.square(centred).mean(axis=axis, keepdims=True) + 1e-5)
    normalized, got_rstd = kernels_np.normalize(x, axis, 1e-5)
    assert normalized.dtype == got_rstd.dtype == dtype and got_rstd.shape == rstd.shape
    np.testing.assert_allclose(got_rstd, rstd, rtol=rtol)
    np.testing.assert_allclose(normalized, centred * rstd, rtol=rtol, atol=rtol)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), size=st.integers(1, 6), count=st.integers(0, 40), axis=st.integers(0, 2),
       index_ndim=st.integers(0, 2), dtype=st.sampled_from([np.float32, np.float64, np.int64]))
def test_add_at_has_the_bits_of_numpys_add_at(data, size, count, axis, index_ndim, dtype):
    """Repeats (past the rounds too: a padding id), negative indices naming the same slice as positive ones,
    any axis, indices of any rank, broadcast values: the bits np.add.at gives."""
    shape = [3, 4, 2]
    shape[axis] = size
    index_shape = (count,) if index_ndim == 1 else (count // 5 + 1, 2) if index_ndim == 2 else ()
    indices = np.array(data.draw(st.lists(st.integers(-size, size - 1), min_size=int(np.prod(index_shape)),
                                          max_size=int(np.prod(index_shape))))).reshape(index_shape).astype(np.int64)
    value_shape = tuple(shape[:axis]) + index_shape + tuple(shape[axis + 1:])
    rng = np.random.default_rng(count)
    values = (rng.standard_normal(value_shape) * 1e3).astype(dtype)
    if data.draw(st.booleans()):
        values = values[..., :1]                      # broadcast along the last dim
    target = (rng.standard_normal(shape) * 1e3).astype(dtype)
    expected = target.copy()
    np.add.at(expected, (slice(None),) * axis + (indices,), values)
    kernels_np.add_at(target, indices, values, axis)
    np.testing.assert_array_equal(target, expected)


def test_add_at_refuses_an_index_out_of_bounds_as_numpy_does():
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        kernels_np.add_at(np.zeros((3, 2)), np.array([0, 3]), np.ones((2, 2)))
    with pytest.raises(IndexError, match="index -4 is out of bounds"):
        kernels_np.add_at(np.zeros((3, 2)), np.array([-4]), np.ones((1, 2)))
