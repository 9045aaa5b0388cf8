"""npspore.Tensor: construction, printing, data access, indexing, operators and methods (semantics §11)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor

INPUT_DATA_MESSAGE = ("For 'Tensor', the type of 'input_data' should be one of '['TensorPy', 'Tensor', 'ndarray', "
                      "'str_', 'list', 'tuple', 'float', 'int', 'bool', 'complex', 'bytes']', but got type '{}'.")


def assert_tensor(t, values, dtype):
    assert type(t) is Tensor
    assert t.dtype == dtype, f"{t.dtype} != {dtype}"
    np.testing.assert_array_equal(t.asnumpy(), np.asarray(values))
    assert t.shape == np.asarray(values).shape


# ---------------------------------------------------------------------- construction (§11.1)


@pytest.mark.parametrize("data, dtype, shape", [
    (1.5, ms.float32, ()),
    ([1.0, 2.0], ms.float32, (2,)),
    ([1, 2.5], ms.float32, (2,)),
    (3, ms.int64, ()),
    ([[1, 2], [3, 4]], ms.int64, (2, 2)),
    ((1, 2), ms.int64, (2,)),
    (True, ms.bool_, ()),
    ([True, False], ms.bool_, (2,)),
    (np.array([1.0, 2.0]), ms.float64, (2,)),
    (np.array([1, 2], np.int64), ms.int64, (2,)),
    (np.array([1, 2], np.int32), ms.int32, (2,)),
    (np.array([1.0], np.float16), ms.float16, (1,)),
    (np.float64(2.0), ms.float64, ()),
    ([], ms.float32, (0,)),
    (1 + 2j, ms.complex128, ()),
])
def test_default_dtypes(data, dtype, shape):
    t = Tensor(data)
    assert t.dtype == dtype
    assert t.shape == shape


def test_dtype_argument_converts_and_truncates():
    assert_tensor(Tensor([1.7, -2.2], ms.int32), [1, -2], ms.int32)
    assert_tensor(Tensor([1, 2], dtype=ms.float16), [1.0, 2.0], ms.float16)
    assert_tensor(Tensor(np.array([0.5]), ms.float32), [0.5], ms.float32)


def test_tensor_input_shares_data_and_numpy_input_is_copied():
    source = Tensor([1.0, 2.0])
    assert Tensor(source)._array is source._array
    converted = Tensor(source, ms.int32)
    assert_tensor(converted, [1, 2], ms.int32)
    array = np.array([1.0, 2.0], np.float32)
    copied = Tensor(array)
    array[0] = 9
    assert copied.asnumpy()[0] == 1.0


def test_wrap_does_not_copy():
    array = np.arange(3.0)
    t = Tensor._wrap(array)
    assert type(t) is Tensor and t._array is array and t.dtype == ms.float64
    assert Tensor.from_numpy(array)._array is array


@pytest.mark.parametrize("make, type_name", [
    (lambda: Tensor(None), "NoneType"),
    (lambda: Tensor(), "NoneType"),
    (lambda: Tensor("abc"), "str"),
    (lambda: Tensor(shape=[2, 3]), "NoneType"),
    (lambda: Tensor({1: 2}), "dict"),
])
def test_unsupported_input_data(make, type_name):
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == INPUT_DATA_MESSAGE.format(type_name)


def test_ragged_list():
    with pytest.raises(TypeError) as info:
        Tensor([[1, 2], [3]])
    assert str(info.value) == "For Tensor, the input_data is [[1, 2], [3]] that contain unsupported element."


def test_other_construction_errors():
    with pytest.raises(ValueError, match="If input_data is available, shape doesn't need to be set"):
        Tensor([1.0], shape=(1,))
    with pytest.raises(ValueError, match="init, dtype and shape must have values at the same time."):
        Tensor(shape=(2,), init=ms.common.initializer.One())
    with pytest.raises(TypeError, match="initializing tensor by numpy array failed"):
        Tensor(np.array(["a"]))
    with pytest.raises(TypeError, match="For 'Tensor', the 'dtype' should be one of"):
        Tensor([1.0], np.float32)
    with pytest.raises(ValueError, match="Only 'CPU' is supported for device, but got GPU."):
        Tensor([1.0], device="GPU")


def test_placeholders():
    dynamic = Tensor(shape=[None, 3], dtype=ms.float32)
    assert dynamic.shape == (-1, 3)
    assert dynamic.ndim == 2
    assert dynamic.is_placeholder
    assert repr(dynamic) == "Tensor(shape=[-1, 3], dtype=Float32, value=\n)"
    static = Tensor(shape=(2, 3), dtype=ms.int32)
    assert static.is_placeholder
    assert_tensor(static, np.zeros((2, 3)), ms.int32)
    assert Tensor(shape=4, dtype=ms.float16).shape == (4,)
    assert not Tensor([1.0]).is_placeholder


def test_init_fills_the_data():
    t = Tensor(shape=(1, 3), dtype=ms.float32, init=ms.common.initializer.One())
    assert_tensor(t, [[1.0, 1.0, 1.0]], ms.float32)
    assert str(t) == "[[1. 1. 1.]]"
    assert t.init_data() is t and not t.has_init


def test_lower_case_factory():
    assert_tensor(ms.tensor([1, 2, 3]), [1, 2, 3], ms.int64)
    assert_tensor(ms.tensor([1, 2], ms.float64), [1.0, 2.0], ms.float64)


# ---------------------------------------------------------------------- printing (§11.2)


@pytest.mark.parametrize("t, expected", [
    (Tensor([0.0, 6.0]), "Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00])"),
    (Tensor([1, 2]), "Tensor(shape=[2], dtype=Int64, value= [1, 2])"),
    (Tensor([True, False]), "Tensor(shape=[2], dtype=Bool, value= [ True, False])"),
    (Tensor(np.array([1, 2], np.float16)), "Tensor(shape=[2], dtype=Float16, value= [ 1.0000e+00,  2.0000e+00])"),
    (Tensor(3.0), "Tensor(shape=[], dtype=Float32, value= 3)"),
    (Tensor(2.5), "Tensor(shape=[], dtype=Float32, value= 2.5)"),
    (Tensor(0.1), "Tensor(shape=[], dtype=Float32, value= 0.1)"),
    (Tensor(True), "Tensor(shape=[], dtype=Bool, value= True)"),
    (Tensor(7), "Tensor(shape=[], dtype=Int64, value= 7)"),
    (Tensor([]), "Tensor(shape=[0], dtype=Float32, value= )"),
    (Tensor([1.0, float("nan"), float("inf")]),
     "Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,             nan,             inf])"),
    (Tensor([-1.5, 2.0], ms.float64), "Tensor(shape=[2], dtype=Float64, value= [-1.50000000e+00,  2.00000000e+00])"),
    (Tensor([[1.5, 2.0], [3.0, 4.0]]),
     "Tensor(shape=[2, 2], dtype=Float32, value=\n[[ 1.50000000e+00,  2.00000000e+00],\n [ 3.00000000e+00,  4.00000000e+00]])"),
    (Tensor([[1, -100], [3, 4]]), "Tensor(shape=[2, 2], dtype=Int64, value=\n[[   1, -100],\n [   3,    4]])"),
    (Tensor([250, 3], ms.uint8), "Tensor(shape=[2], dtype=UInt8, value= [250,   3])"),
])
def test_repr(t, expected):
    assert repr(t) == expected


def test_repr_summarises_long_1d_tensors():
    text = repr(Tensor(np.arange(2000, dtype=np.float32)))
    assert text == ("Tensor(shape=[2000], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 "
                    "...  1.99700000e+03,  1.99800000e+03,  1.99900000e+03])")
    assert "..." not in repr(Tensor(np.zeros(1000, np.int32)))


def test_repr_breaks_1d_lines_every_12_floats_and_24_ints():
    thirteen = repr(Tensor(np.arange(13, dtype=np.float32)))
    assert thirteen.endswith("  1.10000000e+01, \n  1.20000000e+01])")
    assert thirteen.count("\n") == 1
    assert repr(Tensor(np.arange(12, dtype=np.float32))).endswith(" 1.10000000e+01\n ])")
    ints = repr(Tensor(np.arange(25)))
    assert ints.endswith("23, \n 24])")


def test_repr_summarises_nd_tensors():
    expected = ("Tensor(shape=[8, 10], dtype=Int64, value=\n"
                "[[ 0,  1,  2 ...  7,  8,  9],\n"
                " [10, 11, 12 ... 17, 18, 19],\n"
                " [20, 21, 22 ... 27, 28, 29],\n"
                " ...\n"
                " [50, 51, 52 ... 57, 58, 59],\n"
                " [60, 61, 62 ... 67, 68, 69],\n"
                " [70, 71, 72 ... 77, 78, 79]])")
    assert repr(Tensor(np.arange(80).reshape(8, 10))) == expected


def test_repr_of_3d_tensor():
    expected = ("Tensor(shape=[2, 2, 2], dtype=Float32, value=\n"
                "[[[ 0.00000000e+00,  1.00000000e+00],\n"
                "  [ 2.00000000e+00,  3.00000000e+00]],\n"
                " [[ 4.00000000e+00,  5.00000000e+00],\n"
                "  [ 6.00000000e+00,  7.00000000e+00]]])")
    assert repr(Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2))) == expected


def test_seed_000_gradient_printout_layout():
    # The two gradients printed by the seed-000 example, as float32 values.
    dx = np.array([[1.41000009, 1.60000002, 6.59999943]] * 2, np.float32)
    dy = np.array([[1.70000005] * 3, [1.89999998] * 3, [1.5] * 3], np.float32)
    output = (Tensor(dx), Tensor(dy))
    printed = str(output)
    assert printed == (
        "(Tensor(shape=[2, 3], dtype=Float32, value=\n"
        "[[ 1.41000009e+00,  1.60000002e+00,  6.59999943e+00],\n"
        " [ 1.41000009e+00,  1.60000002e+00,  6.59999943e+00]]), Tensor(shape=[3, 3], dtype=Float32, value=\n"
        "[[ 1.70000005e+00,  1.70000005e+00,  1.70000005e+00],\n"
        " [ 1.89999998e+00,  1.89999998e+00,  1.89999998e+00],\n"
        " [ 1.50000000e+00,  1.50000000e+00,  1.50000000e+00]]))")
    seed_page = ("(Tensor(shape=[2, 3], dtype=Float32, value= [[ 1.41000009e+00, 1.60000002e+00, 6.59999943e+00], "
                 "[ 1.41000009e+00, 1.60000002e+00, 6.59999943e+00]]), Tensor(shape=[3, 3], dtype=Float32, value= "
                 "[[ 1.70000005e+00, 1.70000005e+00, 1.70000005e+00], [ 1.89999998e+00, 1.89999998e+00, "
                 "1.89999998e+00], [ 1.50000000e+00, 1.50000000e+00, 1.50000000e+00]]))")
    assert " ".join(printed.split()) == seed_page


@pytest.mark.parametrize("t, expected", [
    (Tensor([0.0, 6.0]), "[0. 6.]"),
    (Tensor([1, 2]), "[1 2]"),
    (Tensor(3.0), "3.0"),
    (Tensor([[1.5, 2.0], [3.0, 4.0]]), "[[1.5 2. ]\n [3.  4. ]]"),
])
def test_str_is_numpy_str(t, expected):
    assert str(t) == expected


# ---------------------------------------------------------------------- properties and data access


def test_properties():
    t = Tensor(np.zeros((2, 3), np.float32))
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert t.ndim == 2 and t.size == 6 and t.itemsize == 4 and t.nbytes == 24
    assert type(t.dtype).__name__ == "Float"
    assert type(Tensor([1]).dtype).__name__ == "Int"
    assert type(Tensor([True]).dtype).__name__ == "Bool"
    assert t.T.shape == (3, 2)
    one_d = Tensor([1.0, 2.0])
    assert one_d.T is one_d


def test_asnumpy_shares_memory():
    x = Tensor(np.array([1, 2], dtype=np.float32))
    y = x.asnumpy()
    y[0] = 11
    assert str(x) == "[11.  2.]"
    assert x.numpy() is y
    assert np.asarray(x) is y


def test_item_tolist_and_conversions():
    assert Tensor([[2.5]]).item() == 2.5
    assert Tensor([1, 2]).tolist() == [1, 2]
    assert bool(Tensor([1.0])) is True and bool(Tensor(0)) is False
    assert float(Tensor(2.5)) == 2.5
    assert int(Tensor(2.5)) == 2
    assert [10, 20, 30][Tensor(1)] == 20
    assert len(Tensor(np.zeros((4, 2)))) == 4


def test_conversion_errors():
    two = Tensor([1.0, 2.0])
    with pytest.raises(ValueError) as info:
        bool(two)
    assert str(info.value) == "The tensor should have only one element, but got 2, more than one element is ambiguous."
    with pytest.raises(ValueError, match="The tensor should have only one element, but got 2"):
        two.item()
    with pytest.raises(ValueError, match="^Only one element tensors can be converted to Python scalars$"):
        float(two)
    with pytest.raises(ValueError, match="^Only one element tensors can be converted to Python scalars$"):
        int(two)
    with pytest.raises(ValueError, match="Only integer tensors of a single element can be converted to an index."):
        [1, 2][Tensor(1.0)]
    with pytest.raises(TypeError, match="^Not support len of a 0-D tensor$"):
        len(Tensor(1.0))


def test_iteration_yields_rows():
    rows = list(Tensor([[1, 2], [3, 4]]))
    assert len(rows) == 2
    assert_tensor(rows[1], [3, 4], ms.int64)


def test_contains():
    t = Tensor([[1.0, 2.0], [3.0, 4.0]])
    assert 2.0 in t
    assert 5 not in t
    assert Tensor(4.0) in t
    assert "x" not in t


def test_hash_is_identity():
    a, b = Tensor([1.0]), Tensor([1.0])
    assert hash(a) == hash(id(a))
    assert len({a, b}) == 2


# ---------------------------------------------------------------------- indexing (§11.3)


def test_getitem():
    t = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert_tensor(t[1], [4, 5, 6, 7], ms.float32)
    assert_tensor(t[-1, 1:], [9, 10, 11], ms.float32)
    assert_tensor(t[:, ::2], [[0, 2], [4, 6], [8, 10]], ms.float32)
    assert_tensor(t[::-1, -1], [11, 7, 3], ms.float32)
    assert t[None].shape == (1, 3, 4)
    assert_tensor(t[..., 1], [1, 5, 9], ms.float32)
    assert_tensor(t[1, ...], [4, 5, 6, 7], ms.float32)
    assert_tensor(t[2, 3], 11.0, ms.float32)


def test_getitem_with_tensor_list_and_mask_indices():
    t = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert_tensor(t[[2, 0]], [[8, 9, 10, 11], [0, 1, 2, 3]], ms.float32)
    assert_tensor(t[Tensor([1])], [[4, 5, 6, 7]], ms.float32)
    assert_tensor(t[:, Tensor([3, 0])], [[3, 0], [7, 4], [11, 8]], ms.float32)
    assert_tensor(t[t > 8.0], [9, 10, 11], ms.float32)
    assert_tensor(t[Tensor([True, False, True])], [[0, 1, 2, 3], [8, 9, 10, 11]], ms.float32)


@pytest.mark.parametrize("index, message", [
    (5, "index 5 is out of bounds for dimension with size 2"),
    ((0, 7), "index 7 is out of bounds for dimension with size 3"),
    ((slice(None), -4), "index -4 is out of bounds for dimension with size 3"),
    ((Ellipsis, 3), "index 3 is out of bounds for dimension with size 3"),
    ([0, 2], "index 2 is out of bounds for dimension with size 2"),
    ((0, 1, 2), "too many indices for tensor of dimension 2"),
])
def test_getitem_out_of_bounds(index, message):
    t = Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(IndexError) as info:
        t[index]
    assert str(info.value) == message


def test_setitem_in_place():
    t = Tensor(np.zeros((2, 3), np.float32))
    t[0, 1] = 5
    t[1] = Tensor([1.0, 2.0, 3.0])
    t[:, 2] = 9.7
    assert t.tolist() == [[0.0, 5.0, np.float32(9.7)], [1.0, 2.0, np.float32(9.7)]]
    t[t > 4.0] = -1.0
    assert t.tolist() == [[0.0, -1.0, -1.0], [1.0, 2.0, -1.0]]
    ints = Tensor([1, 2, 3], ms.int32)
    ints[0] = 7.9
    assert_tensor(ints, [7, 2, 3], ms.int32)
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension with size 3"):
        ints[3] = 0


# ---------------------------------------------------------------------- operators (§11.3, §11.4)


def test_arithmetic_operators():
    a = Tensor([4.0, 6.0])
    assert_tensor(a + 1, [5, 7], ms.float32)
    assert_tensor(a - Tensor([1.0, 2.0]), [3, 4], ms.float32)
    assert_tensor(a * 2, [8, 12], ms.float32)
    assert_tensor(a / 4, [1, 1.5], ms.float32)
    assert_tensor(a // 4, [1, 1], ms.float32)
    assert_tensor(a % 4, [0, 2], ms.float32)
    assert_tensor(a ** 2, [16, 36], ms.float32)
    assert_tensor(-a, [-4, -6], ms.float32)
    assert_tensor(abs(Tensor([-1.5, 2.0])), [1.5, 2], ms.float32)
    assert +a is a


def test_reflected_operators():
    a = Tensor([1.0, 2.0])
    assert_tensor(1 - a, [0, -1], ms.float32)
    assert_tensor(2 / a, [2, 1], ms.float32)
    assert_tensor(2 ** a, [2, 4], ms.float32)
    assert_tensor(3 + a, [4, 5], ms.float32)
    assert_tensor(3 * a, [3, 6], ms.float32)
    assert_tensor(5 // a, [5, 2], ms.float32)
    assert_tensor(5 % a, [0, 1], ms.float32)


def test_lists_and_tuples_are_accepted_as_operands():
    a = Tensor([1.0, 2.0])
    assert_tensor(a + [1.0, 1.0], [2, 3], ms.float32)
    assert_tensor(a * (2.0, 3.0), [2, 6], ms.float32)
    assert_tensor([1.0, 1.0] - a, [0, -1], ms.float32)


def test_matmul():
    a = Tensor([[1.0, 2.0], [3.0, 4.0]])
    assert_tensor(a @ Tensor([[1.0], [1.0]]), [[3], [7]], ms.float32)
    dot = Tensor([1.0, 2.0]) @ Tensor([3.0, 4.0])
    assert dot.shape == () and dot.item() == 11.0


def test_comparisons_give_bool_tensors():
    a = Tensor([1.0, 2.0, 3.0])
    assert_tensor(a < 2, [True, False, False], ms.bool_)
    assert_tensor(a <= 2, [True, True, False], ms.bool_)
    assert_tensor(a > 2, [False, False, True], ms.bool_)
    assert_tensor(a >= 2, [False, True, True], ms.bool_)
    assert_tensor(a == 1.0, [True, False, False], ms.bool_)
    assert_tensor(a != Tensor([1.0, 0.0, 3.0]), [False, True, False], ms.bool_)
    assert (a == "x") is False
    assert (a != None) is True  # noqa: E711


def test_logical_operators_on_bool_tensors():
    p, q = Tensor([True, True, False]), Tensor([True, False, False])
    assert_tensor(p & q, [True, False, False], ms.bool_)
    assert_tensor(p | q, [True, True, False], ms.bool_)
    assert_tensor(~p, [False, False, True], ms.bool_)


@pytest.mark.parametrize("other, message", [
    (np.array([1.0, 2.0]), 'Failed calling Add with "Add()(input=Tensor, other=<class \'numpy.ndarray\'>)".'),
    (None, 'Failed calling add with "add(None)".'),
    ("a", 'Failed calling Add with "Add()(input=Tensor, other=string)".'),
])
def test_rejected_operands(other, message):
    with pytest.raises(TypeError) as info:
        Tensor([1.0, 2.0]) + other
    assert str(info.value) == message


@pytest.mark.parametrize("make, dtype", [
    (lambda: Tensor([1.0], ms.float32) + 1, ms.float32),
    (lambda: Tensor([1.0], ms.float32) + 1.5, ms.float32),
    (lambda: Tensor([1.0], ms.float16) + 1.5, ms.float16),
    (lambda: Tensor([1.0], ms.float64) + 1, ms.float64),
    (lambda: Tensor([1], ms.int32) + 1, ms.int32),
    (lambda: Tensor([1], ms.int32) + True, ms.int32),
    (lambda: Tensor([1], ms.int32) + 1.5, ms.float32),
    (lambda: Tensor([1], ms.int64) + 1.5, ms.float32),
    (lambda: Tensor([3], ms.int32) / 2, ms.float32),
    (lambda: Tensor([True]) + 1, ms.int64),
    (lambda: Tensor([True]) + 1.5, ms.float32),
    (lambda: Tensor([1], ms.int32) + Tensor([1.0], ms.float16), ms.float16),
    (lambda: Tensor([1], ms.uint8) + Tensor([1], ms.int8), ms.int16),
    (lambda: Tensor([1.0], ms.float32) + Tensor([1.0], ms.float64), ms.float64),
    (lambda: Tensor([2], ms.int32) ** 2, ms.int32),
    (lambda: Tensor([4], ms.int32) ** 0.5, ms.float32),
])
def test_type_promotion(make, dtype):
    assert make().dtype == dtype


def test_integer_wrapping_and_floor_semantics():
    assert_tensor(Tensor([1, 2], ms.uint8) + 300, [45, 46], ms.uint8)
    assert_tensor(Tensor([7, -7], ms.int32) // 2, [3, -4], ms.int32)
    assert_tensor(Tensor([-3, 3], ms.int32) % 2, [1, 1], ms.int32)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns of 1 / 0 on the way to MindSpore's INT_MIN
def test_integer_power_is_computed_in_float64_and_cast_back_as_mindspore_does():
    # Observed on MindSpore 2.10 CPU: negative exponents truncate 1 / x**|y|, 0 ** -1 and overflow give
    # the C cast's INT_MIN, and int64 powers lose exactness beyond 2**53 (the float64 path).
    a = Tensor([1, 2, -1, -2, 0, 3], ms.int32)
    int_min = np.iinfo(np.int32).min
    assert_tensor(a ** -1, [1, 0, -1, 0, int_min, 0], ms.int32)
    assert_tensor(a ** -2, [1, 0, 1, 0, int_min, 0], ms.int32)
    assert_tensor(a ** Tensor([-1, -1, -1, -1, 1, -1], ms.int32), [1, 0, -1, 0, 0, 0], ms.int32)
    assert_tensor(2 ** Tensor([-1, 2], ms.int32), [0, 4], ms.int32)
    assert_tensor(Tensor([3], ms.int32) ** 20, [int_min], ms.int32)
    assert_tensor(Tensor([3], ms.int64) ** 39, [4052555153018976256], ms.int64)
    assert_tensor(Tensor([2], ms.uint8) ** 9, [0], ms.uint8)
    compiled = ms.jit(lambda x: x ** -1)
    assert_tensor(compiled(a), [1, 0, -1, 0, int_min, 0], ms.int32)


# ---------------------------------------------------------------------- methods


def test_reductions():
    t = Tensor([[1.0, 5.0], [3.0, 2.0]])
    assert_tensor(t.sum(), 11.0, ms.float32)
    assert_tensor(t.sum(axis=0), [4, 7], ms.float32)
    assert_tensor(t.sum(axis=(0, 1), keepdims=True), [[11]], ms.float32)
    assert_tensor(t.sum(initial=1.0), 12.0, ms.float32)
    assert_tensor(t.mean(1), [3, 2.5], ms.float32)
    assert_tensor(t.mean(axis=0, keep_dims=True), [[2, 3.5]], ms.float32)
    assert_tensor(t.prod(), 30.0, ms.float32)
    assert_tensor(t.max(), 5.0, ms.float32)
    assert_tensor(t.max(axis=1), [5, 3], ms.float32)
    assert_tensor(t.min(axis=0, keepdims=True), [[1, 2]], ms.float32)
    assert t.argmax().shape == () and t.argmax().item() == 1
    np.testing.assert_array_equal(t.argmax(axis=1).asnumpy(), [1, 0])
    np.testing.assert_array_equal(t.argmin(axis=0).asnumpy(), [0, 1])
    assert_tensor(Tensor([[True, False], [True, True]]).all(axis=1), [False, True], ms.bool_)
    assert_tensor(Tensor([[True, False], [False, False]]).any(), True, ms.bool_)


def test_integer_sum_and_mean_dtypes():
    ints = Tensor([1, 2], ms.int32)
    assert ints.sum().dtype == ms.int64
    assert_tensor(ints.mean(), 1, ms.int32)


def test_shape_methods():
    t = Tensor(np.arange(6, dtype=np.float32))
    assert t.reshape(2, 3).shape == (2, 3)
    assert t.reshape((3, 2)).shape == (3, 2)
    assert t.reshape([-1, 1]).shape == (6, 1)
    assert t.view(3, 2).shape == (3, 2)
    m = t.reshape(2, 3)
    assert_tensor(m.transpose(), [[0, 3], [1, 4], [2, 5]], ms.float32)
    assert m.T.shape == (3, 2)
    cube = Tensor(np.zeros((2, 3, 4)))
    assert cube.transpose(1, 0, 2).shape == (3, 2, 4)
    assert cube.transpose((2, 0, 1)).shape == (4, 2, 3)
    assert cube.flatten().shape == (24,)
    assert cube.flatten(start_dim=1).shape == (2, 12)
    assert_tensor(m.flatten(order="F"), [0, 3, 1, 4, 2, 5], ms.float32)
    assert Tensor(np.zeros((1, 3, 1))).squeeze().shape == (3,)
    assert Tensor(np.zeros((1, 3, 1))).squeeze(0).shape == (3, 1)
    assert t.expand_dims(0).shape == (1, 6)
    assert Tensor([1.0, 2.0]).broadcast_to((3, 2)).shape == (3, 2)
    with pytest.raises(ValueError, match="the argument 'order' should be 'C' or 'F'"):
        t.flatten(order="K")


def test_elementwise_methods():
    t = Tensor([1.0, 4.0])
    np.testing.assert_allclose(t.exp().asnumpy(), np.exp([1.0, 4.0]).astype(np.float32))
    np.testing.assert_allclose(t.log().asnumpy(), np.log([1.0, 4.0]).astype(np.float32))
    assert_tensor(t.sqrt(), [1, 2], ms.float32)
    assert_tensor(t.square(), [1, 16], ms.float32)
    assert_tensor(t.pow(3), [1, 64], ms.float32)
    assert_tensor(Tensor([-2.0, 3.0]).abs(), [2, 3], ms.float32)
    assert_tensor(Tensor([-2.0, 0.5, 3.0]).clip(-1.0, 1.0), [-1, 0.5, 1], ms.float32)


@pytest.mark.parametrize("dtype, expected", [
    (ms.int32, ms.int32), (np.float16, ms.float16), ("float16", ms.float16), ("int8", ms.int8),
    (np.dtype("float64"), ms.float64), (ms.bool_, ms.bool_),
])
def test_astype(dtype, expected):
    out = Tensor([1.7, 0.0]).astype(dtype)
    assert out.dtype == expected
    assert out.asnumpy()[0] == np.float32(1.7).astype(ms.dtype_to_nptype(expected))


def test_astype_rejects_unknown_names():
    with pytest.raises(TypeError, match="For Tensor.astype, the string input type must be one of"):
        Tensor([1.0]).astype("float17")
