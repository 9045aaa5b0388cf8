"""Print MindSpore 2.10's outputs for the ``mindspore.numpy`` cases of tests/test_numpy_extra.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_numpy_more.py``. Each case is a MindSpore docstring example or one more case; each
printed line ``"name": (dtype, values),`` is pasted into ``tests/test_numpy_extra.py``'s ``MINDSPORE_VALUES``.
"""
import numpy as np

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor

X = np.array([[1.0, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32)
XI = np.array([[1, 5, 3], [4, 2, 6]], np.int32)
M = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
CASES = {
    "empty": lambda: mnp.empty((2, 3)).shape,
    "empty_dtype": lambda: str(mnp.empty((2,), mnp.int32).dtype),
    "empty_like": lambda: mnp.empty_like(Tensor(XI)).shape,
    "empty_like_dtype": lambda: str(mnp.empty_like(Tensor(XI), dtype=mnp.float16, shape=(4,)).dtype),
    "randn_shape": lambda: mnp.randn(2, 3).shape,
    "randn_dtype": lambda: str(mnp.randn((2,), dtype=mnp.float16).dtype),
    "rand_shape": lambda: mnp.rand((3,)).shape,
    "randint_shape": lambda: (mnp.randint(1, 10, (2, 3)).shape, str(mnp.randint(5, shape=(2,)).dtype)),
    "pad_doc": lambda: mnp.pad(Tensor(np.array([1, 2, 3, 4, 5])), (2, 3), "constant", constant_values=(4, 6)),
    "pad_2d": lambda: mnp.pad(Tensor(X), ((1, 0), (0, 2))),
    "pad_edge": lambda: mnp.pad(Tensor(X), 1, "edge"),
    "pad_reflect": lambda: mnp.pad(Tensor(X), ((0, 1), (2, 1)), "reflect"),
    "pad_symmetric": lambda: mnp.pad(Tensor(X), ((1, 1), (1, 2)), "symmetric"),
    "isclose_doc": lambda: mnp.isclose(Tensor(np.array([1e10, 1e-7, 4.0, 0.0], np.float32)), Tensor(np.array([1.00001e10, 1e-8, 4.00001, 0.0], np.float32))),
    "isclose_nan": lambda: mnp.isclose(Tensor(np.array([np.nan, 1.0], np.float32)), Tensor(np.array([np.nan, 1.1], np.float32)), equal_nan=True),
    "asarray_list": lambda: mnp.asarray([1, 2, 3]),
    "asarray_float": lambda: mnp.asarray([[1.0, 2.5]]),
    "asarray_dtype": lambda: mnp.asarray(np.array([1, 2]), dtype=mnp.float32),
    "asarray_bool": lambda: mnp.asarray([True, False]),
    "count_nonzero_doc": lambda: mnp.count_nonzero(Tensor(np.array([0, 1, 7, 0, 0, 8]))),
    "count_nonzero_axis": lambda: mnp.count_nonzero(Tensor(np.array([[0, 1, 7], [0, 0, 8]])), axis=1, keepdims=True),
    "isnan": lambda: mnp.isnan(Tensor(np.array([np.nan, 1.0, np.inf], np.float32))),
    "isinf": lambda: mnp.isinf(Tensor(np.array([np.nan, 1.0, -np.inf], np.float32))),
    "isfinite": lambda: mnp.isfinite(Tensor(np.array([np.nan, 1.0, -np.inf], np.float32))),
    "matmul_doc": lambda: mnp.matmul(Tensor(np.arange(2 * 3 * 4).reshape(2, 3, 4).astype("float32")), Tensor(np.arange(4 * 5).reshape(4, 5).astype("float32"))),
    "matmul_vec": lambda: mnp.matmul(Tensor(X), Tensor(np.array([1.0, 2.0, 3.0], np.float32))),
    "matmul_int": lambda: mnp.matmul(Tensor(XI), Tensor(XI.T.copy())),
    "cross_doc": lambda: mnp.cross(Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32)), Tensor(np.array([[4, 5, 6], [1, 2, 3]], np.int32))),
    "cross_float": lambda: mnp.cross(Tensor(X), Tensor(X[::-1].copy())),
    "vstack_doc": lambda: mnp.vstack((Tensor(np.array([1, 2, 3])), Tensor(np.array([4, 5, 6])))),
    "vstack_2d": lambda: mnp.vstack([Tensor(X), Tensor(X[:1])]),
    "hstack_doc": lambda: mnp.hstack((Tensor(np.array([1, 2, 3])), Tensor(np.array([4, 5, 6])))),
    "hstack_2d": lambda: mnp.hstack([Tensor(X), Tensor(M)]),
    "column_stack": lambda: mnp.column_stack((Tensor(np.array([1, 2, 3])), Tensor(np.array([4, 5, 6])))),
    "array_split_doc": lambda: mnp.array_split(Tensor(np.arange(9).astype("float32")), 4),
    "array_split_indices": lambda: mnp.array_split(Tensor(X), [1, 2], axis=1),
    "average_doc": lambda: mnp.average(Tensor(np.array([[1., 2.], [3., 4.]], np.float32)), axis=0, weights=Tensor(np.array([1., 2.], np.float32))),
    "average_all": lambda: mnp.average(Tensor(X)),
    "average_returned": lambda: mnp.average(Tensor(X), axis=1, weights=Tensor(np.array([1., 2., 3.], np.float32)), returned=True),
    "divide": lambda: mnp.divide(Tensor(X), Tensor(np.array([2.0, 4.0, 8.0], np.float32))),
    "divide_int": lambda: mnp.divide(Tensor(XI), 2),
    "true_divide": lambda: mnp.true_divide(Tensor(XI), Tensor(XI)),
    "multiply": lambda: mnp.multiply(Tensor(X), Tensor(X)),
    "multiply_int": lambda: mnp.multiply(Tensor(XI), 2),
    "add": lambda: mnp.add(Tensor(XI), Tensor(X)),
    "multi_dot_doc": lambda: mnp.multi_dot([Tensor(np.ones((10, 3))), Tensor(np.ones((3, 7))), Tensor(np.ones((7, 5)))]).shape,
    "multi_dot": lambda: mnp.multi_dot([Tensor(X), Tensor(X.T.copy()), Tensor(M)]),
    "multi_dot_vec": lambda: mnp.multi_dot([Tensor(np.array([1.0, 2.0], np.float32)), Tensor(M), Tensor(np.array([1.0, -1.0], np.float32))]),
    "sign": lambda: mnp.sign(Tensor(X)),
    "sign_int": lambda: mnp.sign(Tensor(np.array([-3, 0, 2], np.int32))),
    "full_like_doc": lambda: mnp.full_like(Tensor(np.ones((2, 2), np.float32)), 0.5),
    "full_like_int": lambda: mnp.full_like(Tensor(XI), 2.7),
    "full_like_shape": lambda: mnp.full_like(Tensor(XI), 3, dtype=mnp.float32, shape=(1, 2)),
    "dot_doc": lambda: mnp.dot(Tensor(np.full((1, 3), 7).astype("float32")), Tensor(np.full((3, 2), 8).astype("float32"))),
    "dot_vec": lambda: mnp.dot(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))),
    "dot_nd": lambda: mnp.dot(Tensor(np.arange(12).reshape(2, 2, 3).astype(np.float32)), Tensor(np.arange(6).reshape(3, 2).astype(np.float32))),
    "tanh": lambda: mnp.tanh(Tensor(X)),
    "tanh_int": lambda: mnp.tanh(Tensor(np.array([0, 1, 2], np.int32))),
    "tan": lambda: mnp.tan(Tensor(np.array([-1.0, 0.0, 1.0], np.float32))),
    "sinh": lambda: mnp.sinh(Tensor(X)),
    "cosh": lambda: mnp.cosh(Tensor(X)),
    "greater": lambda: mnp.greater(Tensor(X), 1.0),
    "greater_equal": lambda: mnp.greater_equal(Tensor(XI), Tensor(np.array([1, 2, 3], np.int32))),
    "less": lambda: mnp.less(Tensor(X), 1.0),
    "less_equal": lambda: mnp.less_equal(Tensor(XI), 3),
    "not_equal": lambda: mnp.not_equal(Tensor(XI), 3),
    "logical_not": lambda: mnp.logical_not(Tensor(np.array([True, False]))),
    "logical_and": lambda: mnp.logical_and(Tensor(np.array([True, False, True])), Tensor(np.array([True, True, False]))),
    "logical_or": lambda: mnp.logical_or(Tensor(np.array([True, False, False])), Tensor(np.array([True, True, False]))),
    "logical_xor": lambda: mnp.logical_xor(Tensor(np.array([True, False, True])), Tensor(np.array([True, True, False]))),
    "cumsum_doc": lambda: mnp.cumsum(Tensor(np.ones((3, 3)).astype("float32")), axis=0),
    "cumsum_flat": lambda: mnp.cumsum(Tensor(XI)),
    "cumsum_dtype": lambda: mnp.cumsum(Tensor(X), axis=1, dtype=mnp.float64),
    "argmax_doc": lambda: mnp.argmax(Tensor(np.arange(10, 16).reshape(2, 3).astype("float32"))),
    "argmax_axis": lambda: mnp.argmax(Tensor(X), axis=1),
    "argmin_axis": lambda: mnp.argmin(Tensor(X), axis=0),
    "argmin_all": lambda: mnp.argmin(Tensor(XI)),
    "rot90_doc": lambda: mnp.rot90(Tensor(np.arange(24).reshape((2, 3, 4)))),
    "rot90_k2": lambda: mnp.rot90(Tensor(X), 2),
    "rot90_axes": lambda: mnp.rot90(Tensor(X), -1, (1, 0)),
    "take_doc": lambda: mnp.take(Tensor(np.array([4, 3, 5, 7, 6, 8])), Tensor(np.array([0, 1, 4]))),
    "take_axis": lambda: mnp.take(Tensor(X), Tensor(np.array([[2, 0]])), axis=1),
    "take_clip": lambda: mnp.take(Tensor(X), Tensor(np.array([7, -1])), axis=1),
    "take_wrap": lambda: mnp.take(Tensor(X), Tensor(np.array([7, -1])), axis=1, mode="wrap"),
    "ravel": lambda: mnp.ravel(Tensor(X)),
    "broadcast_arrays": lambda: mnp.broadcast_arrays(Tensor(np.array([[1, 2, 3]])), Tensor(np.array([[4], [5]]))),
    "round": lambda: mnp.round(Tensor(np.array([-1.5, 0.5, 1.5, 2.567], np.float32))),
    "round_decimals": lambda: mnp.round(Tensor(np.array([-1.256, 0.5, 2.567], np.float32)), 2),
    "outer": lambda: mnp.outer(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(X)),
    "logaddexp": lambda: mnp.logaddexp(Tensor(np.array([1, 2, 3]).astype("float16")), Tensor(np.array(2).astype("float16"))),
    "logaddexp_f32": lambda: mnp.logaddexp(Tensor(X), Tensor(X[::-1].copy())),
    "logaddexp2": lambda: mnp.logaddexp2(Tensor(np.array([2, 4, 8]).astype("float16")), Tensor(np.array(2).astype("float16"))),
    "cbrt": lambda: mnp.cbrt(Tensor(np.array([-8.0, 0.0, 27.0, 2.0], np.float32))),
    "mod": lambda: mnp.mod(Tensor(np.array([-3.0, -2, -1, 1, 2, 3], np.float32)), 2),
    "mod_int": lambda: mnp.mod(Tensor(np.array([-7, 7], np.int32)), 3),
    "fmod": lambda: mnp.fmod(Tensor(np.array([-3.0, -2, -1, 1, 2, 3], np.float32)), 2),
    "floor_divide": lambda: mnp.floor_divide(Tensor(np.array([-7.0, 7.0, 2.5], np.float32)), 2),
    "floor_divide_int": lambda: mnp.floor_divide(Tensor(np.array([-7, 7], np.int32)), 2),
    "hypot": lambda: mnp.hypot(Tensor(np.array([3.0, 5.0], np.float32)), Tensor(np.array([4.0, 12.0], np.float32))),
    "log1p": lambda: mnp.log1p(Tensor(np.array([1, 2, 3]).astype("float16"))),
    "log1p_f32": lambda: mnp.log1p(Tensor(np.array([1e-7, 0.5], np.float32))),
    "std_doc": lambda: mnp.std(Tensor(np.array([1., 2., 3., 4.], np.float32))),
    "std_axis": lambda: mnp.std(Tensor(X), axis=1, ddof=1, keepdims=True),
    "var_doc": lambda: mnp.var(Tensor(np.array([1., 2., 3., 4.], np.float32))),
    "var_axis": lambda: mnp.var(Tensor(X), axis=0, ddof=1),
    "moveaxis_doc": lambda: mnp.moveaxis(Tensor(np.ones((3, 4, 5))), 0, -1).shape,
    "moveaxis_multi": lambda: mnp.moveaxis(Tensor(np.ones((3, 4, 5))), [0, 1], [-1, -2]).shape,
    "trunc": lambda: mnp.trunc(Tensor(np.array([-1.7, -1.5, -0.2, 0.2, 1.5, 1.7, 2.0], np.float32))),
    "arctanh": lambda: mnp.arctanh(Tensor(np.array([-0.99, -0.75, -0.5, 0, 0.5]).astype("float32"))),
    "arcsinh": lambda: mnp.arcsinh(Tensor(np.array([1., 2., 3., 4.], np.float32))),
    "arcsinh_neg": lambda: mnp.arcsinh(Tensor(np.array([-10.0, -0.5], np.float32))),
    "arccosh": lambda: mnp.arccosh(Tensor(np.arange(1, 5).astype('float32'))),
    "identity": lambda: mnp.identity(2),
    "identity_dtype": lambda: mnp.identity(3, mnp.int32),
    "diff_doc": lambda: mnp.diff(Tensor(np.array([1, 3, -1, 0, 4]))),
    "diff_n2": lambda: mnp.diff(Tensor(X), 2, axis=1),
    "diff_prepend": lambda: mnp.diff(Tensor(np.array([1.0, 4.0], np.float32)), prepend=0.0, append=Tensor(np.array([10.0], np.float32))),
    "diagonal_doc": lambda: mnp.diagonal(Tensor(np.arange(4).reshape(2, 2))),
    "diagonal_offset": lambda: mnp.diagonal(Tensor(np.arange(12).reshape(3, 4).astype(np.float32)), 1),
    "diagonal_3d": lambda: mnp.diagonal(Tensor(np.arange(8).reshape(2, 2, 2)), 0, 0, 1),
    "diagflat_doc": lambda: mnp.diagflat(Tensor(np.array([[1, 2], [3, 4]]))),
    "diagflat_k": lambda: mnp.diagflat(Tensor(np.array([1.0, 2.0], np.float32)), -1),
    "trace_doc": lambda: mnp.trace(Tensor(np.eye(3, dtype=np.float32))),
    "trace_offset": lambda: mnp.trace(Tensor(np.arange(12).reshape(3, 4).astype(np.float32)), 1),
    "trace_int": lambda: mnp.trace(Tensor(XI)),
    "unravel_index_doc": lambda: mnp.unravel_index(Tensor([22, 41, 37]), (7, 6)),
    "unravel_index_scalar": lambda: mnp.unravel_index(1621, (6, 7, 8, 9)),
    "triu_indices": lambda: mnp.triu_indices(3),
    "tril_indices_k": lambda: mnp.tril_indices(3, -1, 4),
    "corrcoef": lambda: mnp.corrcoef(Tensor(np.array([[2., 3., 4., 5.], [0., 2., 3., 4.], [7., 8., 9., 10.]], np.float32))),
    "corrcoef_y": lambda: mnp.corrcoef(Tensor(np.array([1.0, 2.0, 4.0], np.float32)), Tensor(np.array([3.0, 1.0, 2.0], np.float32))),
    "isin": lambda: mnp.isin(Tensor(np.array([[0, 2], [4, 6]])), Tensor(np.array([1, 2, 4, 8]))),
    "isin_invert": lambda: mnp.isin(Tensor(np.array([[0, 2], [4, 6]])), Tensor(np.array([1, 2, 4, 8])), invert=True),
    "append": lambda: mnp.append(Tensor(XI), Tensor(np.array([7, 8], np.int32))),
    "append_axis": lambda: mnp.append(Tensor(X), Tensor(X[:1]), axis=0),
    "cumprod": lambda: mnp.cumprod(Tensor(np.array([[1, 2, 3], [4, 5, 6]]))),
    "cumprod_axis": lambda: mnp.cumprod(Tensor(X), axis=0),
    "searchsorted": lambda: mnp.searchsorted(Tensor(np.array([1.0, 2.0, 2.0, 3.0], np.float32)), Tensor(np.array([2.0, 0.0, 5.0], np.float32))),
    "searchsorted_right": lambda: mnp.searchsorted(Tensor(np.array([1, 2, 3, 4, 5])), Tensor(np.array([3, 6])), side="right"),
    "interp": lambda: mnp.interp(Tensor(np.array([0.5, 1.5, 2.5, 4.0, -1.0], np.float32)), Tensor(np.array([0.0, 1.0, 3.0], np.float32)),
                                 Tensor(np.array([1.0, 3.0, -1.0], np.float32))),
    "interp_bounds": lambda: mnp.interp(Tensor(np.array([4.0, -1.0], np.float32)), Tensor(np.array([0.0, 1.0, 3.0], np.float32)),
                                        Tensor(np.array([1.0, 3.0, -1.0], np.float32)), left=-5.0, right=5.0),
    "expm1": lambda: mnp.expm1(Tensor(np.array([1e-7, 0.5, 2.0], np.float32))),
}


def main() -> None:
    """Print each case's dtype and values (synchronously, so a kernel CPU MindSpore lacks fails its own case)."""
    ms.set_context(pynative_synchronize=True)
    np.set_printoptions(precision=8, suppress=False)
    for name, case in CASES.items():
        try:
            text = _describe(case())
        except Exception as error:  # noqa: BLE001  (the error is the observation)
            text = f"ERROR {type(error).__name__}: {str(error).splitlines()[0][:160]}"
        print(f"{name!r}: {text},")


def _describe(out):
    if isinstance(out, (tuple, list)):
        return "[" + ", ".join(_describe(o) for o in out) + "]"
    if isinstance(out, Tensor):
        return f"({str(out.dtype)!r}, {out.asnumpy().tolist()!r})"
    return repr(out)


if __name__ == "__main__":
    main()
