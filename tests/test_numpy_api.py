"""The start of ``mindspore.numpy`` (``npspore.numpy``): MindSpore 2.10's values and dtypes for the
docstring examples and more cases (recorded by ``tools/observe_mindspore_array_ops.py`` from the real
MindSpore in a separate virtualenv), eagerly and compiled; gradients against finite differences, first
and second order; the import path ``mindspore.numpy``; errors."""
import numpy as np
import pytest

import npspore as ms
import npspore.numpy as mnp
from npspore import Tensor
from npspore.import_hook import mindspore_imports
from npspore.testing import check_grads
from recorded_values import check_eager_and_compiled

# printed by tools/observe_mindspore_array_ops.py (MindSpore 2.10.0 CPU)
MINDSPORE_VALUES = {
    'np_arange_doc': ([0, 1, 2, 3, 4], 'Int32'),
    'np_arange_doc_neg': ([-3, -2, -1, 0, 1, 2], 'Int32'),
    'np_arange_doc_float': ([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5], 'Float32'),
    'np_arange_stop': ([0, 1, 2, 3], 'Int32'),
    'np_arange_dtype': ([1, 2, 3], 'Int32'),
    'np_zeros_doc': ([[0.0, 0.0], [0.0, 0.0]], 'Float32'),
    'np_ones_int': ([1, 1, 1], 'Int32'),
    'np_full_doc': ([[True, True], [True, True]], 'Bool'),
    'np_full_int': ([7, 7, 7], 'Int32'),
    'np_zeros_like_shape': ([0.0, 0.0, 0.0], 'Float32'),
    'np_ones_like_dtype': ([[1, 1, 1], [1, 1, 1]], 'Int32'),
    'np_concatenate_doc': ([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], 'Float32'),
    'np_concatenate_none': ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 'Float32'),
    'np_stack_doc': ([[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]], 'Float32'),
    'np_reshape_doc': ([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], 'Float32'),
    'np_expand_dims_doc': ([[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]], 'Float32'),
    'np_tile_doc': ([[0.0, 1.0, 2.0, 0.0, 1.0, 2.0], [0.0, 1.0, 2.0, 0.0, 1.0, 2.0]], 'Float32'),
    'np_broadcast_to_doc': ([[1, 2, 3], [1, 2, 3], [1, 2, 3]], 'Int32'),
    'np_where_doc': ([[0.5, 0.5], [3.0, 4.0]], 'Float32'),
    'np_where_scalar_x': ([[1.0, 2.0], [0.5, 0.5]], 'Float32'),
    'np_where_tensors': ([[-0.0, -1.0, -2.0], [3.0, 4.0, 5.0]], 'Float32'),
    'np_sum_doc': (10, 'Int64'),
    'np_sum_axis_initial': ([[13.0], [22.0]], 'Float32'),
    'np_sum_bool': (2, 'Int64'),
    'np_mean_doc': ([1.5, 2.5, 3.5], 'Float32'),
    'np_mean_int': (2, 'Int32'),
    'np_mean_int_negative': (-2, 'Int32'),
    'np_sqrt_int': ([[1.0, 1.4142135381698608], [1.7320507764816284, 2.0]], 'Float32'),
    'np_square_int': ([[1, 4], [9, 16]], 'Int32'),
    'np_abs_doc': ([1.0, 2.5, 3.0], 'Float32'),
    'np_exp_doc': ([1.0, 2.7182798385620117], 'Float32'),
    'np_log_doc': ([0.0, 0.6931471824645996, 1.3862943649291992], 'Float32'),
    'np_clip_doc': ([1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 8.0], 'Float32'),
    'np_clip_int': ([[2, 2], [3, 3]], 'Int32'),
    'np_sqrt_dtype': ([2.0], 'Float16'),
    'np_flip_doc': ([[[7.0, 6.0], [5.0, 4.0]], [[3.0, 2.0], [1.0, 0.0]]], 'Float32'),
    'np_flip_axes': ([[[5.0, 4.0], [7.0, 6.0]], [[1.0, 0.0], [3.0, 2.0]]], 'Float32'),
}

X23 = np.arange(6).reshape(2, 3).astype(np.float32)
INTS = np.array([[1, 2], [3, 4]], np.int32)


def np_arange_doc():
    return mnp.arange(0, 5, 1)


def np_arange_doc_neg():
    return mnp.arange(-3, 3)


def np_arange_doc_float():
    return mnp.arange(0, 5, 0.5)


def np_arange_stop():
    return mnp.arange(4)


def np_arange_dtype():
    return mnp.arange(1, 4.0, dtype=ms.int32)


def np_zeros_doc():
    return mnp.zeros((2, 2))


def np_ones_int():
    return mnp.ones(3, ms.int32)


def np_full_doc():
    return mnp.full((2, 2), True)


def np_full_int():
    return mnp.full((3,), 7)


def np_zeros_like_shape(x):
    return mnp.zeros_like(x, shape=(3,))


def np_ones_like_dtype(x):
    return mnp.ones_like(x, dtype=ms.int32)


def np_concatenate_doc(x):
    return mnp.concatenate((x, x), axis=0)


def np_concatenate_none(x):
    return mnp.concatenate((x, x), axis=None)


def np_stack_doc(x):
    return mnp.stack((x, x), axis=1)


def np_reshape_doc(x):
    return mnp.reshape(x, (3, -1))


def np_expand_dims_doc(x):
    return mnp.expand_dims(x, 1)


def np_tile_doc(x):
    return mnp.tile(x, (2, 2))


def np_broadcast_to_doc(x):
    return mnp.broadcast_to(x, (3, 3))


def np_where_doc(x):
    return mnp.where(x > 2, x, 0.5)


def np_where_scalar_x(x):
    return mnp.where(x > 2, 0.5, x)


def np_where_tensors(x):
    return mnp.where(x > 2, x, -x)


def np_sum_doc(x):
    return mnp.sum(x)


def np_sum_axis_initial(x):
    return mnp.sum(x, axis=1, keepdims=True, initial=10)


def np_sum_bool(x):
    return mnp.sum(x)


def np_mean_doc(x):
    return mnp.mean(x, axis=0)


def np_mean_int(x):
    return mnp.mean(x)


def np_sqrt_int(x):
    return mnp.sqrt(x)


def np_square_int(x):
    return mnp.square(x)


def np_abs_doc(x):
    return mnp.absolute(x)


def np_exp_doc(x):
    return mnp.exp(x)


def np_log_doc(x):
    return mnp.log(x)


def np_clip_doc(x):
    return mnp.clip(x, 1, 8)


def np_clip_int(x):
    return mnp.clip(x, 2, 3)


def np_flip_doc(x):
    return mnp.flip(x)


def np_flip_axes(x):
    return mnp.flip(x, (0, 2))


def np_sqrt_dtype(x):
    return mnp.sqrt(x, dtype=ms.float16)


CASES = {
    "np_arange_doc": (np_arange_doc, ()),
    "np_arange_doc_neg": (np_arange_doc_neg, ()),
    "np_arange_doc_float": (np_arange_doc_float, ()),
    "np_arange_stop": (np_arange_stop, ()),
    "np_arange_dtype": (np_arange_dtype, ()),
    "np_zeros_doc": (np_zeros_doc, ()),
    "np_ones_int": (np_ones_int, ()),
    "np_full_doc": (np_full_doc, ()),
    "np_full_int": (np_full_int, ()),
    "np_zeros_like_shape": (np_zeros_like_shape, (X23,)),
    "np_ones_like_dtype": (np_ones_like_dtype, (X23,)),
    "np_concatenate_doc": (np_concatenate_doc, (X23,)),
    "np_concatenate_none": (np_concatenate_none, (X23,)),
    "np_stack_doc": (np_stack_doc, (X23,)),
    "np_reshape_doc": (np_reshape_doc, (X23,)),
    "np_expand_dims_doc": (np_expand_dims_doc, (X23,)),
    "np_tile_doc": (np_tile_doc, (np.array([0, 1, 2], np.float32),)),
    "np_broadcast_to_doc": (np_broadcast_to_doc, (np.array([1, 2, 3], np.int32),)),
    "np_where_doc": (np_where_doc, (INTS,)),
    "np_where_scalar_x": (np_where_scalar_x, (INTS,)),
    "np_where_tensors": (np_where_tensors, (X23,)),
    "np_sum_doc": (np_sum_doc, (INTS,)),
    "np_sum_axis_initial": (np_sum_axis_initial, (X23,)),
    "np_sum_bool": (np_sum_bool, (np.array([True, False, True]),)),
    "np_mean_doc": (np_mean_doc, (X23,)),
    "np_mean_int": (np_mean_int, (INTS,)),
    "np_mean_int_negative": (np_mean_int, (np.array([-1, -2, -4], np.int32),)),
    "np_sqrt_int": (np_sqrt_int, (INTS,)),
    "np_square_int": (np_square_int, (INTS,)),
    "np_abs_doc": (np_abs_doc, (np.array([-1.0, 2.5, -3.0], np.float32),)),
    "np_exp_doc": (np_exp_doc, (np.array([0.0, 1.0], np.float32),)),
    "np_log_doc": (np_log_doc, (np.array([1.0, 2.0, 4.0], np.float32),)),
    "np_clip_doc": (np_clip_doc, (np.arange(10).astype(np.float32),)),
    "np_clip_int": (np_clip_int, (INTS,)),
    "np_flip_doc": (np_flip_doc, (np.arange(8).reshape(2, 2, 2).astype(np.float32),)),
    "np_flip_axes": (np_flip_axes, (np.arange(8).reshape(2, 2, 2).astype(np.float32),)),
    "np_sqrt_dtype": (np_sqrt_dtype, (np.array([4.0], np.float32),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_dtypes_are_mindspores_eagerly_and_compiled(name):
    fn, inputs = CASES[name]
    check_eager_and_compiled(fn, inputs, MINDSPORE_VALUES[name])


def grad_arange_scaled(x):
    return mnp.sum(x * mnp.arange(0.5, 3.5, 1.0))


def grad_concat_stack(x):
    return mnp.stack((mnp.concatenate((x, mnp.square(x)), axis=None), mnp.tile(x, 2).reshape(-1)))


def grad_where_sqrt(x):
    return mnp.where(x > 0, mnp.sqrt(mnp.abs(x)), mnp.exp(x))


def grad_mean_log_clip(x):
    return mnp.mean(mnp.log(mnp.clip(mnp.abs(x), 0.1, 10)), axis=0)


def grad_broadcast_expand(x):
    return mnp.broadcast_to(mnp.expand_dims(x, 0), (2, 3)) * mnp.reshape(mnp.arange(6.0), (2, 3))


@pytest.mark.parametrize("fn", [grad_arange_scaled, grad_concat_stack, grad_where_sqrt, grad_mean_log_clip,
                                grad_broadcast_expand])
def test_gradients_match_finite_differences_first_and_second_order(fn):
    x = np.array([0.7, -1.3, 2.1])
    check_grads(fn, [Tensor(x)], order=2)


def test_mindspore_numpy_imports_as_npspore_numpy():
    with mindspore_imports():
        import mindspore.numpy as imported
    assert imported is mnp
    assert ms.numpy is mnp


def test_errors_name_the_argument_and_missing_functions():
    with pytest.raises(ValueError, match="'step' must not be 0"):
        mnp.arange(0, 3, 0)
    with pytest.raises(TypeError, match="'end' must be an int or float, but got str"):
        mnp.arange(0, "3")
    with pytest.raises(ValueError, match="needs both 'x' and 'y'"):
        mnp.where(Tensor(INTS) > 2)
    with pytest.raises(ValueError, match="'xmin' and 'xmax' cannot both be None"):
        mnp.clip(Tensor(INTS), None, None)
    with pytest.raises(AttributeError, match="'mindspore.numpy.polyfit' is not implemented in npspore"):
        mnp.polyfit
