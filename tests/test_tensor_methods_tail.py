"""Tensor methods of ``npspore.ops.tensor_methods_tail``: eager, compiled, gradients and errors.

Every expected value and dtype below was observed on MindSpore 2.10 CPU (``/work/msvenv``) calling the same
method on the same inputs, unless a comment says MindSpore 2.10 CPU raises for that method (then the value is that
of the MindSpore function named in the comment, run there).
"""
import os

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor
from npspore.compiler.errors import NotSupportedError
from npspore.ops import tensor_methods_tail

from method_checks import arr, assert_observed, check_method_gradient, method_call

A = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], np.float32)
B = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], np.float32)
V = np.array([1.0, -2.0, 0.5], np.float32)
I = np.array([[1, 0, 3], [-2, 0, 4]], np.int32)
C = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10) / 4
K = np.arange(18, dtype=np.float32).reshape(1, 2, 3, 3) / 2
M = np.array([[True, False, True], [False, False, True]])
IX = Tensor(np.array([[2, 0], [1, 1]], np.int32))
f32, i32, i64 = np.float32, np.int32, np.int64
t = Tensor


C_MOVED = arr([[[-2.5, 0.5], [-2.25, 0.75], [-2.0, 1.0], [-1.75, 1.25]],
               [[-1.5, 1.5], [-1.25, 1.75], [-1.0, 2.0], [-0.75, 2.25]],
               [[-0.5, 2.5], [-0.25, 2.75], [0.0, 3.0], [0.25, 3.25]]], f32)
K_COLUMNS = arr([[[0.0, 0.5, 1.5, 2.0], [0.5, 1.0, 2.0, 2.5], [1.5, 2.0, 3.0, 3.5], [2.0, 2.5, 3.5, 4.0],
                  [4.5, 5.0, 6.0, 6.5], [5.0, 5.5, 6.5, 7.0], [6.0, 6.5, 7.5, 8.0], [6.5, 7.0, 8.0, 8.5]]], f32)
K_COLUMNS_PADDED = arr([[[0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 1.5, 2.5], [0.0, 0.5, 0.0, 3.5], [0.0, 1.0, 3.0, 4.0],
                         [0.0, 0.0, 0.0, 6.5], [0.0, 0.0, 6.0, 7.0], [0.0, 5.0, 0.0, 8.0],
                         [4.5, 5.5, 7.5, 8.5]]], f32)

CASES = [
    # shape and layout
    ("movedim", C, (0, 2), {}, C_MOVED),
    ("movedim", A, (-1, 0), {}, arr([[0.5, 1.5], [-1.25, 0.25], [2.0, -0.75]], f32)),
    ("moveaxis", C, ((0, 1), (2, 0)), {}, C_MOVED),
    ("swapdims", C, (0, 2), {}, arr([[[-2.5, 0.5], [-1.5, 1.5], [-0.5, 2.5]], [[-2.25, 0.75], [-1.25, 1.75],
                                    [-0.25, 2.75]], [[-2.0, 1.0], [-1.0, 2.0], [0.0, 3.0]],
                                    [[-1.75, 1.25], [-0.75, 2.25], [0.25, 3.25]]], f32)),
    ("t", A, (), {}, arr([[0.5, 1.5], [-1.25, 0.25], [2.0, -0.75]], f32)),
    ("diagonal", A, (), {}, arr([0.5, 0.25], f32)),
    ("diagonal", A, (1,), {}, arr([-1.25, -0.75], f32)),
    ("diagonal", C, (0, 1, 2), {}, arr([[-2.5, -1.25, 0.0], [0.5, 1.75, 3.0]], f32)),
    ("diagonal", C, (-1, 0, 2), {}, arr([[0.5], [1.5], [2.5]], f32)),
    # Tensor.repeat raises on MindSpore 2.10 CPU ("not supported on this device"): ops.tile / mint.tile's values
    ("repeat", A, (2, 1), {}, np.concatenate([A, A])),
    ("repeat", A, ((1, 2, 1),), {}, np.concatenate([A, A])[None]),
    ("unfold", K, (2,), {}, K_COLUMNS),
    ("unfold", K, (2, 1, 1, 2), {}, K_COLUMNS_PADDED),
    ("unfold", K * 2, ((2, 1),), {"stride": (1, 2)},
     arr([[[0.0, 2.0, 3.0, 5.0], [3.0, 5.0, 6.0, 8.0], [9.0, 11.0, 12.0, 14.0], [12.0, 14.0, 15.0, 17.0]]], f32)),
    ("msort", A, (), {}, arr([[0.5, -1.25, -0.75], [1.5, 0.25, 2.0]], f32)),
    ("fold", np.arange(16, dtype=np.float32).reshape(1, 4, 4), (t(np.array([3, 3], np.int32)), 2), {},
     arr([[[[0.0, 5.0, 5.0], [10.0, 30.0, 20.0], [10.0, 25.0, 15.0]]]], f32)),
    ("dsplit", C, (2,), {}, (
        arr([[[-2.5, -2.25], [-1.5, -1.25], [-0.5, -0.25]], [[0.5, 0.75], [1.5, 1.75], [2.5, 2.75]]], f32),
        arr([[[-2.0, -1.75], [-1.0, -0.75], [0.0, 0.25]], [[1.0, 1.25], [2.0, 2.25], [3.0, 3.25]]], f32))),
    ("conj", A, (), {}, A), ("real", A, (), {}, A), ("imag", A, (), {}, np.zeros((2, 3), f32)), ("value", A, (), {}, A),
    ("vsplit", A, (2,), {}, (arr([[0.5, -1.25, 2.0]], f32), arr([[1.5, 0.25, -0.75]], f32))),
    ("hsplit", A, (3,), {}, (arr([[0.5], [1.5]], f32), arr([[-1.25], [0.25]], f32), arr([[2.0], [-0.75]], f32))),
    ("diagflat", V, (), {}, arr([[1.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.5]], f32)),
    ("diagflat", V, (1,), {}, arr([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.5],
                                  [0.0, 0.0, 0.0, 0.0]], f32)),
    ("rot90", A, (1, (0, 1)), {}, arr([[2.0, -0.75], [-1.25, 0.25], [0.5, 1.5]], f32)),
    ("rot90", A, (2, (0, 1)), {}, arr([[-0.75, 0.25, 1.5], [2.0, -1.25, 0.5]], f32)),
    ("rot90", A, (-1, (0, 1)), {}, arr([[1.5, 0.5], [0.25, -1.25], [-0.75, 2.0]], f32)),
    ("rot90", A, (3, (1, 0)), {}, arr([[2.0, -0.75], [-1.25, 0.25], [0.5, 1.5]], f32)),
    ("reverse", A, ([1],), {}, arr([[2.0, -1.25, 0.5], [-0.75, 0.25, 1.5]], f32)),
    ("reverse_sequence", A, (t(np.array([2, 3], np.int32)), 1, 0), {},
     arr([[-1.25, 0.5, 2.0], [-0.75, 0.25, 1.5]], f32)),
    ("sum_to_size", A, (1, 3), {}, arr([[2.0, -1.0, 1.25]], f32)),
    ("sum_to_size", A, ((2, 1),), {}, arr([[1.25], [1.0]], f32)),
    ("sum_to_size", A, (3,), {}, arr([2.0, -1.0, 1.25], f32)),
    ("adjoint", A, (), {}, A.T),
    ("to", A, (ms.float16,), {}, A.astype(np.float16)),
    ("type", A, (ms.int32,), {}, arr([[0, -1, 2], [1, 0, 0]], i32)),
    ("short", A, (), {}, arr([[0, -1, 2], [1, 0, 0]], np.int16)),
    ("byte", I, (), {}, arr([[1, 0, 3], [254, 0, 4]], np.uint8)),
    # indexing and selection
    ("select", A, (1, 2), {}, arr([2.0, -0.75], f32)),
    ("select", A, (0, -1), {}, arr([1.5, 0.25, -0.75], f32)),
    ("gather_nd", A, (t(np.array([[1, 2], [0, 0]], np.int32)),), {}, arr([-0.75, 0.5], f32)),
    ("gather_nd", A, (t(np.array([[1], [0]], np.int32)),), {}, arr([[1.5, 0.25, -0.75], [0.5, -1.25, 2.0]], f32)),
    ("index_add", A, (t(np.array([1, 0], np.int32)), t(np.float32([[1, 2], [3, 4]])), 1), {},
     arr([[2.5, -0.25, 2.0], [5.5, 3.25, -0.75]], f32)),
    ("inplace_update", A, (t(np.float32([[9, 9, 9]])), t(np.array([1], np.int32))), {},
     arr([[0.5, -1.25, 2.0], [9.0, 9.0, 9.0]], f32)),
    ("scatter_max", A, (t(np.array([[1], [0]], np.int32)), t(np.float32([[5, 0, 0], [0, 0, 5]]))), {},
     arr([[0.5, 0.0, 5.0], [5.0, 0.25, 0.0]], f32)),
    ("scatter_div", A, (t(np.array([[1], [0]], np.int32)), t(np.float32([[2, 2, 2], [4, 4, 4]]))), {},
     arr([[0.125, -0.3125, 0.5], [0.75, 0.125, -0.375]], f32)),
    ("index_put", A, ((t(np.array([0, 1], np.int32)), t(np.array([2, 0], np.int32))), t(np.float32([7, 8]))), {},
     arr([[0.5, -1.25, 7.0], [8.0, 0.25, -0.75]], f32)),
    ("index_put", A, ((t(np.array([0, 0], np.int32)), t(np.array([2, 2], np.int32))), t(np.float32([7, 8])), True),
     {}, arr([[0.5, -1.25, 17.0], [1.5, 0.25, -0.75]], f32)),
    ("masked_scatter", A, (t(M), t(np.float32([10, 20, 30, 40, 50]))), {},
     arr([[10.0, -1.25, 20.0], [1.5, 0.25, 30.0]], f32)),
    ("slice_scatter", A, (t(np.float32([[9], [8]])), 1, 1, 2), {}, arr([[0.5, 9.0, 2.0], [1.5, 8.0, -0.75]], f32)),
    ("slice_scatter", np.zeros((4, 2), np.float32), (t(np.ones((2, 2), np.float32)), 0, 0, 4, 2), {},
     arr([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 0.0]], f32)),
    ("select_scatter", A, (t(np.float32([9, 8])), 1, 0), {}, arr([[9.0, -1.25, 2.0], [8.0, 0.25, -0.75]], f32)),
    ("select_scatter", A, (t(np.float32([9, 8, 7])), 0, -1), {}, arr([[0.5, -1.25, 2.0], [9.0, 8.0, 7.0]], f32)),
    ("diagonal_scatter", np.zeros((3, 3), np.float32), (t(np.float32([1, 2])), 1), {},
     arr([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]], f32)),
    ("diagonal_scatter", np.zeros((3, 2), np.float32), (t(np.float32([1, 2])), -1), {},
     arr([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]], f32)),
    ("diagonal_scatter", np.zeros((2, 2, 3), np.float32), (t(np.float32([[1, 2], [3, 4], [5, 6]])), 0, 0, 1), {},
     arr([[[1.0, 3.0, 5.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [2.0, 4.0, 6.0]]], f32)),
    ("fill_diagonal", np.zeros((3, 2), np.float32), (5.0,), {}, arr([[5.0, 0.0], [0.0, 5.0], [0.0, 0.0]], f32)),
    ("fill_diagonal", np.zeros((5, 2), np.float32), (5.0, True), {},
     arr([[5.0, 0.0], [0.0, 5.0], [0.0, 0.0], [5.0, 0.0], [0.0, 5.0]], f32)),
    ("choose", np.array([0, 1, 2], np.int32), ((t(V), t(V * 2), t(V * 3)),), {}, arr([1.0, -4.0, 1.5], f32)),
    ("choose", np.array([0, 4, -1], np.int32), ((t(np.float32([1, 2, 3])), t(np.float32([4, 5, 6])),
                                                 t(np.float32([7, 8, 9]))),), {}, arr([1.0, 8.0, 3.0], f32)),
    ("choose", np.array([0, 4, -1], np.int32), ((t(np.float32([1, 2, 3])), t(np.float32([4, 5, 6])),
                                                 t(np.float32([7, 8, 9]))), "wrap"), {}, arr([1.0, 5.0, 9.0], f32)),
    ("gather", A, (1, IX), {}, arr([[2.0, 0.5], [0.25, 0.25]], f32)),
    ("gather", A, (t(np.array([1, 0], np.int32)), 0), {}, arr([[1.5, 0.25, -0.75], [0.5, -1.25, 2.0]], f32)),
    ("take", A, (t(np.array([0, 5, 2], np.int32)),), {}, arr([0.5, -0.75, 2.0], f32)),
    ("take", A, (t(np.array([2, 0], np.int32)), 1), {}, arr([[2.0, 0.5], [-0.75, 1.5]], f32)),
    ("take", A, (t(np.array([7, -1], np.int32)),), {}, arr([-0.75, -0.75], f32)),
    ("take", A, (t(np.array([-2, -7], np.int32)),), {}, arr([0.25, 0.5], f32)),
    ("take", A, (t(np.array([7, -1], np.int32)),), {"mode": "wrap"}, arr([-1.25, -0.75], f32)),
    ("scatter", A, (1, IX, t(B[:, :2].copy())), {}, arr([[2.0, -1.25, 1.0], [1.5, -0.5, -0.75]], f32)),
    ("scatter", A, (1, IX, 7.0), {}, arr([[7.0, -1.25, 7.0], [1.5, 7.0, -0.75]], f32)),
    ("scatter", A, (1, IX, t(B[:, :2].copy())), {"reduce": "add"}, arr([[2.5, -1.25, 3.0], [1.5, 0.25, -0.75]], f32)),
    # Tensor.scatter_add raises on MindSpore 2.10 CPU (no ScatterAddExt kernel):
    # ops.tensor_scatter_elements(..., reduction='add')'s values
    ("scatter_add", A, (1, IX, t(B[:, :2].copy())), {}, arr([[2.5, -1.25, 3.0], [1.5, 0.25, -0.75]], f32)),
    ("index_fill", A, (1, t(np.array([0, 2], np.int32)), -1.0), {},
     arr([[-1.0, -1.25, -1.0], [-1.0, 0.25, -1.0]], f32)),
    ("index_fill", A, (0, t(np.array([1], np.int32)), t(np.float32(9))), {},
     arr([[0.5, -1.25, 2.0], [9, 9, 9]], f32)),
    ("argwhere", I, (), {}, arr([[0, 0], [0, 2], [1, 0], [1, 2]], i64)),
    ("searchsorted", arr([0.5, 1.0, 2.0, 3.0], f32), (t(arr([1.0, 2.5, -1.0], f32)),), {}, arr([1, 3, 0], i32)),
    ("searchsorted", arr([0.5, 1.0, 2.0, 3.0], f32), (t(arr([1.0, 2.5, -1.0], f32)), "right"), {}, arr([2, 3, 0], i32)),
    ("searchsorted", arr([[0, 1, 2], [1, 2, 3]], f32), (t(arr([[1.5], [1.0]], f32)),), {}, arr([[2], [0]], i32)),
    ("count_nonzero", I, (), {}, arr(4, i32)),
    ("count_nonzero", I, (1,), {}, arr([2, 2], i32)),
    ("count_nonzero", I, ((0, 1),), {}, arr(4, i32)),
    ("count_nonzero", A, (0,), {}, arr([2, 2, 2], i32)),
    ("histc", A, (4, -1, 2), {}, arr([1.0, 1.0, 1.0, 2.0], f32)),
    ("histc", I, (4, -2, 4), {}, arr([1, 2, 1, 2], i32)),
    ("histc", A, (3, 1, 1), {}, arr([2.0, 2.0, 2.0], f32)),
    # creation
    ("new_zeros", A, ((2, 3),), {}, arr(np.zeros((2, 3)), f32)),
    ("new_zeros", I, ((2,),), {}, arr([0, 0], i32)),
    ("new_zeros", A, (3,), {}, arr([0, 0, 0], f32)),
    ("new_zeros", A, ((2,),), {"dtype": ms.int64}, arr([0, 0], i64)),
    ("new_ones", A, ((3,),), {}, arr([1, 1, 1], f32)),
    ("new_ones", A, ([2, 1],), {}, arr([[1], [1]], f32)),
    # Tensor.new_full raises on MindSpore 2.10 CPU ("support Ascend only"): ops.full's values
    ("new_full", A, ((2,), 3.5), {}, arr([3.5, 3.5], f32)),
    ("clone", A, (), {}, A),   # raises on MindSpore 2.10 CPU (no Clone kernel): a copy
]


@pytest.mark.parametrize("name, x, args, kwargs, expected", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_method_eager_and_compiled(name, x, args, kwargs, expected):
    f, tensors = method_call(name, args, kwargs)
    assert_observed(f(Tensor(x), *tensors), expected)
    assert_observed(ms.jit(f)(Tensor(x), *tensors), expected)


@pytest.mark.parametrize("name, x, args, expected", [
    ("ndimension", A, (), 2), ("nelement", A, (), 6), ("is_floating_point", A, (), True), ("type", A, (), "Float32"),
    ("is_floating_point", I, (), False), ("is_complex", A, (), False), ("is_contiguous", A, (), True),
    ("stride", C, (), [12, 4, 1]), ("stride", C, (1,), 4), ("storage_offset", C, (), 0),
])
def test_python_valued_methods(name, x, args, expected):   # MindSpore 2.10 gives Python values (strides: a list)
    result = getattr(Tensor(x), name)(*args)
    assert type(result) is type(expected) and result == expected


@pytest.mark.parametrize("values, args, expected", [   # observed: Float32 counts, with or without weights
    (np.array([0, 1, 1, 3], np.int32), (), arr([1.0, 2.0, 0.0, 1.0], f32)),
    (np.array([0, 1, 1, 3], np.int32), (t(np.float32([0.5, 1, 2, 3])), 6), arr([0.5, 3.0, 0.0, 3.0, 0.0, 0.0], f32)),
    (np.array([0, 2], np.int64), (), arr([1.0, 0.0, 1.0], f32)),
    (np.array([0, -1], np.int32), (), arr([1.0], f32)),
])
def test_bincount_eager(values, args, expected):
    assert_observed(Tensor(values).bincount(*args), expected)


@pytest.mark.parametrize("name", ["mT", "mH", "H"])
def test_transpose_properties(name):   # observed: the transpose of a real matrix, all three
    np.testing.assert_array_equal(getattr(Tensor(A), name).asnumpy(), A.T)
    np.testing.assert_array_equal(ms.jit(lambda x: getattr(x, name) * 1)(Tensor(A)).asnumpy(), A.T)


def test_unique_consecutive():   # observed: Int32 values, Int64 inverse and counts
    x = Tensor(np.array([1, 1, 2, 2, 3, 1, 1], np.int32))
    for f in (lambda x: x.unique_consecutive(True, True), ms.jit(lambda x: x.unique_consecutive(True, True))):
        assert_observed(tuple(f(x)), (arr([1, 2, 3, 1], i32), arr([0, 0, 1, 1, 2, 3, 3], i64),
                                       arr([2, 2, 1, 2], i64)))
    assert_observed(Tensor(np.array([[1, 1], [1, 1], [2, 3]], np.int32)).unique_consecutive(dim=0),
                     arr([[1, 1], [2, 3]], i32))


def test_unique():
    # Tensor.unique raises on MindSpore 2.10 CPU (no Unique2 kernel): the example of ops.unique_ext's docstring
    x = Tensor(np.array([1, 2, 5, 2], np.int32))
    expected = (arr([1, 2, 5], i32), arr([0, 1, 2, 1], i64), arr([1, 2, 1], i64))
    for f in (lambda x: x.unique(return_inverse=True, return_counts=True),
              ms.jit(lambda x: x.unique(return_inverse=True, return_counts=True))):
        assert_observed(tuple(f(x)), expected)
    assert_observed(x.unique(), expected[0])
    assert_observed(tuple(x.unique(return_counts=True)), (expected[0], expected[2]))
    inverse = Tensor(I).unique(return_inverse=True)[1]   # of the Tensor's shape, into the sorted values
    assert_observed(inverse, arr([[2, 1, 3], [0, 1, 4]], i64))


def test_data_is_the_tensor():   # observed: the same values
    x = Tensor(A)
    assert x.data is x


def test_bincount_is_eager_only():
    with pytest.raises(NotSupportedError, match="bincount"):
        ms.jit(lambda x: x.bincount())(Tensor(np.array([0, 1], np.int32)))


GRAD_CASES = [   # (name, x, args, kwargs): x.name(*args).sum() against central differences
    ("movedim", C, (0, 2), {}), ("t", A, (), {}), ("diagonal", C, (0, 1, 2), {}), ("repeat", A, ((1, 2, 1),), {}),
    ("unfold", K, (2, 1, 1, 2), {}), ("gather", A, (1, IX), {}), ("take", A, (t(np.array([0, 5, 0], np.int32)),), {}),
    ("scatter_add", A, (1, IX, t(B[:, :2].copy())), {}),
    ("diagflat", V, (1,), {}), ("msort", A, (), {}),
    ("index_fill", A, (1, t(np.array([0, 2], np.int32)), -1.0), {}),
    ("gather_nd", A, (t(np.array([[1, 2], [0, 0], [1, 2]], np.int32)),), {}), ("rot90", A, (1, (0, 1)), {}),
    ("sum_to_size", A, (1, 3), {}), ("index_put", A, ((t(np.array([0, 0], np.int32)), t(np.array([2, 2], np.int32))),
                                                     t(np.float32([7, 8])), True), {}),
    ("masked_scatter", A, (t(M), t(np.float64([10, 20, 30]))), {}),
    ("slice_scatter", A, (t(np.float32([[9], [8]])), 1, 1, 2), {}),
    ("diagonal_scatter", np.zeros((2, 2, 3)), (t(np.float64([[1, 2], [3, 4], [5, 6]])), 0, 0, 1), {}),
    ("index_add", A, (t(np.array([1, 0], np.int32)), t(np.float64([[1, 2], [3, 4]])), 1), {}),
    ("fold", np.arange(16.0).reshape(1, 4, 4), ((3, 3), 2), {}),
]


@pytest.mark.parametrize("name, x, args, kwargs", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_method_gradient(name, x, args, kwargs):
    check_method_gradient(name, x, args, kwargs)


@pytest.mark.parametrize("name, x, args, expected", [   # MindSpore 2.10's gradients of x.name(*args).sum()
    ("take", A, (t(np.array([0, 5, 0], np.int32)),), arr([[2.0, 0.0, 0.0], [0.0, 0.0, 1.0]], f32)),
    ("gather_nd", A, (t(np.array([[1, 2], [0, 0], [1, 2]], np.int32)),), arr([[1, 0, 0], [0, 0, 2]], f32)),
    ("unfold", K, (2,), arr([[[[1, 2, 1], [2, 4, 2], [1, 2, 1]], [[1, 2, 1], [2, 4, 2], [1, 2, 1]]]], f32)),
])
def test_gradient_as_mindspore(name, x, args, expected):
    assert_observed(ms.grad(lambda x: getattr(x, name)(*args).sum())(Tensor(x)), expected)


@pytest.mark.parametrize("call, error, message", [   # MindSpore 2.10's error types, its wording where it is clear
    (lambda: Tensor(A).movedim(0, 5), ValueError, r"must be in the range of \[-2, 2\), but got 5"),
    (lambda: Tensor(A).take(Tensor(np.array([0], np.int32)), mode="bad"), ValueError, "'mode' should be one of"),
    (lambda: Tensor(A).new_zeros("a"), TypeError, "argument 'size' .* must be tuple of int"),
    (lambda: Tensor(A).diagonal(0, 0, 0), ValueError, "'dim1' and 'dim2'"),
    (lambda: Tensor(A).bincount(), ValueError, "'input' should be one-dimensional tensor"),
    (lambda: Tensor(A).histc(0), ValueError, "'bins'"),
    (lambda: Tensor(A).histc(3, 2, -1), ValueError, "'min'"),
    (lambda: Tensor(A[None]).unfold(2), ValueError, "dimension of input x must be equal to 4, but got 3"),
    (lambda: Tensor(C).t(), ValueError, "at most 2 dims"),
    (lambda: Tensor(I).choose((Tensor(V), Tensor(V)), "raise"), NotImplementedError, '"raise" mode is not implemented'),
    (lambda: Tensor(I).choose((Tensor(V), Tensor(V)), "bad"), ValueError, "'mode' must be 'clip' or 'wrap'"),
    (lambda: Tensor(A).sum_to_size(3, 1), ValueError, r"size \(3, 1\) is not expandable to the tensor size \(2, 3\)"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_methods_are_attached():
    assert len(tensor_methods_tail.METHODS) >= 50
    for name, function in tensor_methods_tail.METHODS.items():
        assert vars(Tensor)[name] is function, name


def test_every_added_method_is_a_mindspore_tensor_name():
    """No helper leaks onto Tensor: each name the three method modules attach is one of MindSpore 2.10's."""
    from npspore.ops import tensor_inplace, tensor_methods_math
    path = os.path.join(os.path.dirname(__file__), "fixtures", "mindspore_2_10_tensor_names.txt")
    with open(path) as names:
        mindspore_names = {line.strip() for line in names if line.strip() and not line.startswith("#")}
    added = {*tensor_methods_tail.METHODS, *tensor_methods_math.METHODS, *tensor_inplace.METHODS}
    assert added - mindspore_names == set()
