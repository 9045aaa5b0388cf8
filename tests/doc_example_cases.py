"""The cases of tests/test_doc_example_fixes.py: calls that MindSpore 2.10's API documentation examples make and
npspore answered differently (a silent wrong value, dtype or shape, or an error), as ``name -> call`` where the
call takes the framework module (``mindspore`` or ``npspore``). ``tools/observe_mindspore_doc_examples.py``
prints MindSpore's results for them."""
import numpy as np


def _x(ms):
    return ms.Tensor(np.array([[1., 5., 2.], [4., 0., 3.]], np.float32))


def _y(ms):
    return ms.Tensor(np.arange(24.).reshape(2, 3, 4).astype(np.float32))


def _ints(ms):
    return ms.tensor([-1, -2, 3]), ms.tensor([1, 0, 3])


def _scatter_update(ms):
    variable = ms.Parameter(ms.Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32)), name="x")
    updates = ms.Tensor(np.array([[2.0, 1.2, 1.0], [3.0, 1.2, 1.0]], np.float32))
    return ms.ops.scatter_update(variable, ms.tensor([1, 0], ms.int32), updates), variable


def _bools(ms):
    return ms.tensor([True, False, True]), ms.tensor([True, True, False])


CASES = {
    # '&', '|', '^' are MindSpore's BitwiseAnd/Or/Xor: integers stay integers
    "and_int": lambda ms: _ints(ms)[0] & _ints(ms)[1],
    "or_int": lambda ms: _ints(ms)[0] | _ints(ms)[1],
    "xor_int": lambda ms: _ints(ms)[0] ^ _ints(ms)[1],
    "and_bool": lambda ms: _bools(ms)[0] & _bools(ms)[1],
    "xor_bool": lambda ms: _bools(ms)[0] ^ _bools(ms)[1],
    "and_int_scalar": lambda ms: ms.tensor([3, 2]) & 1,
    "and_uint8_bool": lambda ms: ms.tensor([1, 0], ms.uint8) & ms.tensor([True, True]),
    "or_int8_int32": lambda ms: ms.tensor([1, 4], ms.int8) | ms.tensor([2, 1], ms.int32),
    "invert_int": lambda ms: ~_ints(ms)[0],
    # argmin gives Int32 indices (argmax Int64)
    "ops_argmin": lambda ms: ms.ops.argmin(_x(ms)),
    "ops_argmin_axis": lambda ms: ms.ops.argmin(_x(ms), axis=1, keepdims=True),
    "argmin_method": lambda ms: _x(ms).argmin(1),
    "argmin_method_dim": lambda ms: _x(ms).argmin(dim=1, keepdim=True),
    "argmax_method_dim": lambda ms: _x(ms).argmax(dim=1, keepdim=True),
    # max/min: an int first argument or dim= gives (values, indices); axis= gives the values
    "max_dim_positional": lambda ms: _x(ms).max(0),
    "max_dim_keepdim": lambda ms: _x(ms).max(1, True),
    "max_dim_keyword": lambda ms: _x(ms).max(dim=1),
    "max_axis_keyword": lambda ms: _x(ms).max(axis=1),
    "max_none": lambda ms: _x(ms).max(None),
    "max_keepdims_all": lambda ms: _x(ms).max(keepdims=True),
    "max_initial": lambda ms: _x(ms).max(0, True, initial=9),
    "max_return_indices": lambda ms: _x(ms).max(axis=0, return_indices=True),
    "min_where_none": lambda ms: _x(ms)[:, :2].min(axis=0, initial=9, where=ms.tensor([False])),
    "min_where_mask": lambda ms: _x(ms)[:, :2].min(axis=0, initial=9, where=ms.tensor([False, True])),
    "max_where_2d": lambda ms: _x(ms).max(axis=1, initial=-1, where=ms.tensor([[True, False, True], [False] * 3])),
    "min_dim_positional": lambda ms: _x(ms).min(1),
    "min_dim_keyword": lambda ms: _x(ms).min(dim=0, keepdim=True),
    # the dim/keepdim spelling of the reductions
    "sum_dim_keepdim": lambda ms: _x(ms).sum(dim=1, keepdim=True),
    "sum_bool_second": lambda ms: _x(ms).sum(1, True),
    "sum_dtype_second": lambda ms: _x(ms).sum(1, ms.float64),
    "mean_dim": lambda ms: _x(ms).mean(dim=0),
    "mean_dtype": lambda ms: _x(ms).mean(1, True, dtype=ms.float64),
    "prod_dim_keepdim": lambda ms: _x(ms).prod(1, keepdim=True),
    "all_dim": lambda ms: _bools(ms)[0].reshape(1, 3).all(dim=1),
    "any_dim_keepdim": lambda ms: _bools(ms)[0].reshape(1, 3).any(dim=1, keepdim=True),
    "std_dim": lambda ms: _x(ms).std(dim=1),
    "std_correction": lambda ms: _x(ms).std(dim=1, correction=1, keepdim=True),
    "std_all": lambda ms: _x(ms).std(),
    "median_dim": lambda ms: _x(ms).median(dim=1, keepdim=True),
    "cumsum_axis": lambda ms: _x(ms).cumsum(axis=1),
    "sort_axis": lambda ms: _x(ms).sort(axis=1, descending=True),
    # transpose: two ints swap those dims; one tuple (or several ints) permutes
    "transpose_two_ints_2d": lambda ms: _x(ms).transpose(0, 1),
    "transpose_swap_3d": lambda ms: _y(ms).transpose(0, 2),
    "transpose_negative": lambda ms: _y(ms).transpose(-1, 0),
    "transpose_dim0_dim1": lambda ms: _y(ms).transpose(dim0=0, dim1=1),
    "transpose_none": lambda ms: _y(ms).transpose(None).shape,
    "transpose_tuple_2d": lambda ms: _x(ms).transpose((0, 1)),
    "transpose_perm_3d": lambda ms: _y(ms).transpose(2, 0, 1).shape,
    # other Tensor-method spellings of the 2.10 pages
    "chunk_axis": lambda ms: _x(ms).chunk(3, axis=1),
    "split_axis": lambda ms: _x(ms).split([1, 2], axis=1),
    "add_alpha": lambda ms: _x(ms).add(_x(ms), alpha=2),
    "add_alpha_int": lambda ms: ms.tensor([3, 5]).add(ms.tensor([1, -2]), alpha=3),
    "flatten_start_end": lambda ms: _y(ms).flatten(1, 2).shape,
    "flatten_start_keyword": lambda ms: _y(ms).flatten(start_dim=1).shape,
    "remainder_divisor": lambda ms: _x(ms).remainder(divisor=2),
    "expand_as_x": lambda ms: ms.tensor([1., 2., 3.]).expand_as(x=_x(ms)),
    "gather_input_indices": lambda ms: _x(ms).gather(input_indices=ms.tensor([0, 2]), axis=1),
    "scatter_axis": lambda ms: _x(ms).scatter(axis=1, index=ms.tensor([[0], [2]]), src=ms.tensor([[9.], [8.]])),
    "stride": lambda ms: _x(ms).stride(),
    # functions
    "scatter_update": lambda ms: _scatter_update(ms),
    "pad_replicate": lambda ms: ms.ops.pad(_y(ms)[:1, :2, :3], (2, 1, 1, 0), mode="replicate"),
    "pad_circular": lambda ms: ms.ops.pad(_y(ms)[:1, :2, :3], (2, 1, 1, 0), mode="circular"),
    "full_float_default": lambda ms: ms.ops.full((2, 3), 1.7),
    "full_negative_default": lambda ms: ms.ops.full((2,), -1.7),
    "full_bool_default": lambda ms: ms.ops.full((2,), True),
    "full_float32": lambda ms: ms.ops.full((2,), 1.7, dtype=ms.float32),
    "stop_gradient_number": lambda ms: ms.ops.stop_gradient(3.0),
    "stop_gradient_tuple": lambda ms: ms.ops.stop_gradient((ms.tensor(1.), ms.tensor([2, 3]))),
    "stop_gradient_grad": lambda ms: ms.ops.grad(lambda x: ms.ops.stop_gradient(x) ** 2 + x)(ms.tensor(3.0)),
    "numpy_array_split": lambda ms: type(ms.numpy.array_split(ms.numpy.arange(9).astype("float32"), 4)).__name__,
    # values
    "inner_1d": lambda ms: ms.ops.inner(ms.tensor([1., 2., 3.]), ms.tensor([4., 5., 6.])),
    "inner_2d_1d": lambda ms: ms.ops.inner(_x(ms), ms.tensor([1., 0., 2.])),
    "gelu_primitive": lambda ms: ms.ops.GeLU()(ms.tensor([-1.5, 1., 2., 3.])),
    "gelu_functional": lambda ms: ms.ops.gelu(ms.tensor([-1.5, 1., 2., 3.])),
    "mH": lambda ms: ms.Tensor(np.array([[1 + 2j, 3 - 1j], [0.5j, 2 + 0j]], np.complex64)).mH,
    "conj_complex": lambda ms: ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64)).conj(),
    "real_complex": lambda ms: ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64)).real(),
    "imag_complex": lambda ms: ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64)).imag(),
    "mT_complex": lambda ms: ms.Tensor(np.array([[1 + 2j, 3 - 1j]], np.complex64)).mT,
    "repr_complex": lambda ms: repr(ms.Tensor(np.array([0.1 + 0.25j, -1 - 2j, 1e-5j, 1e10, -0.0 - 1j], np.complex64))),
    "repr_complex_scalar": lambda ms: repr(ms.Tensor(np.array(-2.5 - 0.125j))),
}
