"""Calls of MindSpore 2.10's API documentation examples where npspore answered differently — ``&``/``|``/``^`` on
integer Tensors, ``argmin``'s Int32 indices, ``Tensor.max(dim)`` giving ``(values, indices)``, ``transpose(0, 1)``
swapping two dims, the ``dim``/``keepdim`` spellings of the reductions and other method keywords, 1-D ``inner``,
the ``GeLU`` primitive's tanh approximation, ``mH``'s conjugate, complex printing, ``ops.scatter_update``,
``ops.pad``'s ``'replicate'`` and ``'circular'``, ``ops.full``'s Int64 default, ``stop_gradient`` of numbers and
tuples — against MindSpore 2.10 CPU's results (recorded by ``tools/observe_mindspore_doc_examples.py`` for the
cases of ``tests/doc_example_cases.py``), eager, and the bitwise operators compiled too."""
import numpy as np
import pytest

import npspore as ms
from doc_example_cases import CASES

# name: MindSpore 2.10 CPU's (dtype, values) of the case, a list of them for a tuple result, or the plain value
RECORDED = {
    'and_int': ('Int64', [1, 0, 3]),
    'or_int': ('Int64', [-1, -2, 3]),
    'xor_int': ('Int64', [-2, -2, 0]),
    'and_bool': ('Bool', [True, False, False]),
    'xor_bool': ('Bool', [False, True, True]),
    'and_int_scalar': ('Int64', [1, 0]),
    'and_uint8_bool': ('UInt8', [1, 0]),
    'or_int8_int32': ('Int32', [3, 5]),
    'invert_int': ('Bool', [False, False, False]),
    'ops_argmin': ('Int32', 4),
    'ops_argmin_axis': ('Int32', [[0], [1]]),
    'argmin_method': ('Int32', [0, 1]),
    'argmin_method_dim': ('Int32', [[0], [1]]),
    'argmax_method_dim': ('Int64', [[1], [0]]),
    'max_dim_positional': [('Float32', [4.0, 5.0, 3.0]), ('Int64', [1, 0, 1])],
    'max_dim_keepdim': [('Float32', [[5.0], [4.0]]), ('Int64', [[1], [0]])],
    'max_dim_keyword': [('Float32', [5.0, 4.0]), ('Int64', [1, 0])],
    'max_axis_keyword': ('Float32', [5.0, 4.0]),
    'max_none': ('Float32', 5.0),
    'max_keepdims_all': ('Float32', 5.0),
    'max_initial': ('Float32', [[9.0, 9.0, 9.0]]),
    'max_return_indices': [('Float32', [4.0, 5.0, 3.0]), ('Int64', [1, 0, 1])],
    'min_where_none': ('Float32', [9.0, 9.0]),
    'min_where_mask': ('Float32', [9.0, 0.0]),
    'max_where_2d': ('Float32', [2.0, -1.0]),
    'min_dim_positional': [('Float32', [1.0, 0.0]), ('Int64', [0, 1])],
    'min_dim_keyword': [('Float32', [[1.0, 0.0, 2.0]]), ('Int64', [[0, 1, 0]])],
    'sum_dim_keepdim': ('Float32', [[8.0], [7.0]]),
    'sum_bool_second': ('Float32', [[8.0], [7.0]]),
    'sum_dtype_second': ('Float64', [8.0, 7.0]),
    'mean_dim': ('Float32', [2.5, 2.5, 2.5]),
    'mean_dtype': ('Float64', [[2.6666666666666665], [2.3333333333333335]]),
    'prod_dim_keepdim': ('Float32', [[10.0], [0.0]]),
    'all_dim': ('Bool', [False]),
    'any_dim_keepdim': ('Bool', [[True]]),
    'std_dim': ('Float32', [1.6996731758117676, 1.6996731758117676]),
    'std_correction': ('Float32', [[2.0816659927368164], [2.0816659927368164]]),
    'std_all': ('Float32', 1.7078251838684082),
    'median_dim': [('Float32', [[2.0], [3.0]]), ('Int64', [[2], [2]])],
    'cumsum_axis': ('Float32', [[1.0, 6.0, 8.0], [4.0, 4.0, 7.0]]),
    'sort_axis': [('Float32', [[5.0, 2.0, 1.0], [4.0, 3.0, 0.0]]), ('Int32', [[1, 2, 0], [0, 2, 1]])],
    'transpose_two_ints_2d': ('Float32', [[1.0, 4.0], [5.0, 0.0], [2.0, 3.0]]),
    'transpose_swap_3d': ('Float32', [[[0.0, 12.0], [4.0, 16.0], [8.0, 20.0]], [[1.0, 13.0], [5.0, 17.0], [9.0, 21.0]], [[2.0, 14.0], [6.0, 18.0], [10.0, 22.0]], [[3.0, 15.0], [7.0, 19.0], [11.0, 23.0]]]),
    'transpose_negative': ('Float32', [[[0.0, 12.0], [4.0, 16.0], [8.0, 20.0]], [[1.0, 13.0], [5.0, 17.0], [9.0, 21.0]], [[2.0, 14.0], [6.0, 18.0], [10.0, 22.0]], [[3.0, 15.0], [7.0, 19.0], [11.0, 23.0]]]),
    'transpose_dim0_dim1': ('Float32', [[[0.0, 1.0, 2.0, 3.0], [12.0, 13.0, 14.0, 15.0]], [[4.0, 5.0, 6.0, 7.0], [16.0, 17.0, 18.0, 19.0]], [[8.0, 9.0, 10.0, 11.0], [20.0, 21.0, 22.0, 23.0]]]),
    'transpose_none': [4, 3, 2],
    'transpose_tuple_2d': ('Float32', [[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]]),
    'transpose_perm_3d': [4, 2, 3],
    'chunk_axis': [('Float32', [[1.0], [4.0]]), ('Float32', [[5.0], [0.0]]), ('Float32', [[2.0], [3.0]])],
    'split_axis': [('Float32', [[1.0], [4.0]]), ('Float32', [[5.0, 2.0], [0.0, 3.0]])],
    'add_alpha': ('Float32', [[3.0, 15.0, 6.0], [12.0, 0.0, 9.0]]),
    'add_alpha_int': ('Int64', [6, -1]),
    'flatten_start_end': [2, 12],
    'flatten_start_keyword': [2, 12],
    'remainder_divisor': ('Float32', [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    'expand_as_x': ('Float32', [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
    'gather_input_indices': ('Float32', [[1.0, 2.0], [4.0, 3.0]]),
    'scatter_axis': ('Float32', [[9.0, 5.0, 2.0], [4.0, 0.0, 8.0]]),
    'stride': [3, 1],
    'scatter_update': [('Float32', [[3.0, 1.2000000476837158, 1.0], [2.0, 1.2000000476837158, 1.0]]), ('Float32', [[3.0, 1.2000000476837158, 1.0], [2.0, 1.2000000476837158, 1.0]])],
    'pad_replicate': ('Float32', [[[0.0, 0.0, 0.0, 1.0, 2.0, 2.0], [0.0, 0.0, 0.0, 1.0, 2.0, 2.0], [4.0, 4.0, 4.0, 5.0, 6.0, 6.0]]]),
    'pad_circular': ('Float32', [[[5.0, 6.0, 4.0, 5.0, 6.0, 4.0], [1.0, 2.0, 0.0, 1.0, 2.0, 0.0], [5.0, 6.0, 4.0, 5.0, 6.0, 4.0]]]),
    'full_float_default': ('Int64', [[1, 1, 1], [1, 1, 1]]),
    'full_negative_default': ('Int64', [-1, -1]),
    'full_bool_default': ('Int64', [1, 1]),
    'full_float32': ('Float32', [1.7000000476837158, 1.7000000476837158]),
    'stop_gradient_number': 3.0,
    'stop_gradient_tuple': [('Float32', 1.0), ('Int64', [2, 3])],
    'stop_gradient_grad': ('Float32', 1.0),
    'numpy_array_split': 'tuple',
    'inner_1d': ('Float32', 32.0),
    'inner_2d_1d': ('Float32', [5.0, 10.0]),
    'gelu_primitive': ('Float32', [-0.10042843222618103, 0.8411920070648193, 1.9545977115631104, 2.9963626861572266]),
    'gelu_functional': ('Float32', [-0.1002107709646225, 0.8413447141647339, 1.9544997215270996, 2.995950222015381]),
    'mH': ('Complex64', [[(1-2j), -0.5j], [(3+1j), (2-0j)]]),
    'conj_complex': ('Complex64', [(1-2j), (3+1j)]),
    'real_complex': ('Float32', [1.0, 3.0]),
    'imag_complex': ('Float32', [2.0, -1.0]),
    'mT_complex': ('Complex64', [[(1+2j)], [(3-1j)]]),
    'repr_complex': 'Tensor(shape=[5], dtype=Complex64, value= [0.1+0.25j, -1-2j, 0+1e-05j, 1e+10+0j, -0-1j])',
    'repr_complex_scalar': 'Tensor(shape=[], dtype=Complex128, value= -2.5-0.125j)',
}


def observed(out):
    """``out`` as RECORDED spells it (tuples and lists as lists, a Tensor as ``(dtype, values)``)."""
    if isinstance(out, (tuple, list)):
        return [observed(item) for item in out]
    if isinstance(out, ms.Tensor):
        return (str(out.dtype), out.asnumpy().tolist())
    return out


def assert_same(got, want):
    if isinstance(want, list) and want and isinstance(want[0], (tuple, list)) and isinstance(got, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    elif isinstance(want, tuple):
        assert got[0] == want[0]
        np.testing.assert_allclose(np.asarray(got[1]), np.asarray(want[1]), rtol=2e-6, atol=1e-7)
    else:
        assert got == want


def test_every_case_is_recorded():
    assert set(CASES) == set(RECORDED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_mindspore(name):
    assert_same(observed(CASES[name](ms)), RECORDED[name])


@pytest.mark.parametrize("name", ["and_int", "or_int", "xor_int", "and_bool", "and_uint8_bool", "or_int8_int32"])
def test_bitwise_operators_compiled(name):
    left, right = {"and_int": ([-1, -2, 3], [1, 0, 3]), "or_int": ([-1, -2, 3], [1, 0, 3]),
                   "xor_int": ([-1, -2, 3], [1, 0, 3]), "and_bool": ([True, False, True], [True, True, False]),
                   "and_uint8_bool": (np.array([1, 0], np.uint8), [True, True]),
                   "or_int8_int32": (np.array([1, 4], np.int8), np.array([2, 1], np.int32))}[name]
    operator = {"and": _and, "or": _or, "xor": _xor}[name.split("_")[0]]
    assert_same(observed(ms.jit(operator)(ms.tensor(left), ms.tensor(right))), RECORDED[name])


def _and(a, b):
    return a & b


def _or(a, b):
    return a | b


def _xor(a, b):
    return a ^ b


def test_bitwise_operator_on_floats_is_refused():
    with pytest.raises(TypeError, match="BitwiseAnd"):
        ms.tensor([1.5, 0.]) & ms.tensor([1., 1.])


def test_where_without_initial_is_refused():
    with pytest.raises(ValueError, match="'initial' must be given with 'where'"):
        ms.tensor([[1., 2.]]).max(axis=0, where=ms.tensor([True, False]))
