"""ops.isnan / isfinite / ceil and the primitives IsNan, IsFinite, Ceil, Size, HSwish: the values and
error messages MindSpore 2.10 printed for the same inputs, eager and under ms.jit, and gradients against
central differences."""
import numpy as np
import pytest

import npspore as ms
from npspore import ops, Tensor
from npspore.ops import operations as P
from npspore.testing import check_grads

SPECIAL = np.array([[-2.5, 0.5, np.nan], [np.inf, -np.inf, 1.2]], np.float32)


def test_isnan_and_isfinite_match_mindspore_on_nan_and_infinities():
    x = Tensor(SPECIAL)
    # MindSpore 2.10 printed these for ops.isnan / ops.isfinite / P.IsNan / P.IsFinite of SPECIAL
    nan = [[False, False, True], [False, False, False]]
    finite = [[True, True, False], [False, False, True]]
    for result, expected in ((ops.isnan(x), nan), (P.IsNan()(x), nan), (ops.isfinite(x), finite),
                             (P.IsFinite()(x), finite)):
        assert result.dtype == ms.bool_
        np.testing.assert_array_equal(result.asnumpy(), expected)


def test_integer_and_bool_inputs_are_never_nan_and_always_finite():
    # MindSpore 2.10: isfinite of [True, False] and of int32 [1, 2] is [True, True]; isnan of both [False, False]
    for x in (Tensor(np.array([True, False])), Tensor(np.array([1, 2], np.int32))):
        np.testing.assert_array_equal(ops.isfinite(x).asnumpy(), [True, True])
        np.testing.assert_array_equal(ops.isnan(x).asnumpy(), [False, False])


def test_ceil_keeps_infinities_and_nan_as_mindspore_does():
    # MindSpore 2.10: ceil(SPECIAL) = [[-2, 1, nan], [inf, -inf, 2]]
    expected = [[-2.0, 1.0, np.nan], [np.inf, -np.inf, 2.0]]
    np.testing.assert_array_equal(ops.ceil(Tensor(SPECIAL)).asnumpy(), expected)
    np.testing.assert_array_equal(P.Ceil()(Tensor(SPECIAL)).asnumpy(), expected)
    result = ops.ceil(Tensor(np.array([1.2, -1.2], np.float64)))
    assert result.dtype == ms.float64
    np.testing.assert_array_equal(result.asnumpy(), [2.0, -1.0])


def test_floor_keeps_infinities_and_nan():
    result = ops.floor(Tensor(np.array([np.inf, -np.inf, np.nan, -1.5], np.float32))).asnumpy()
    np.testing.assert_array_equal(result, [np.inf, -np.inf, np.nan, -2.0])


def test_ceil_refuses_integer_and_bool_tensors_with_mindsporess_message():
    with pytest.raises(TypeError, match=r"For primitive\[Ceil\], the input argument\[input_x\] must be a type of "
                                        r"\{BFloat16, Float16, Float32, Float64\}, but got Int32\."):
        ops.ceil(Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(TypeError, match=r"but got Bool"):
        ops.ceil(Tensor(np.array([True])))


def test_non_tensor_inputs_are_refused():
    with pytest.raises(TypeError, match=r"For Primitive\[IsNan\], the type of input argument\[x\] must be Tensor"):
        ops.isnan([1.0])
    with pytest.raises(TypeError, match=r"For 'Size', input must be a Tensor, but got: list"):
        P.Size()([1, 2])


def test_size_is_a_python_int():
    # MindSpore 2.10: Size()(2x3 tensor) is the int 6, Size()(Tensor(3.0)) is 1
    size = P.Size()(Tensor(SPECIAL))
    assert size == 6 and type(size) is int
    assert P.Size()(Tensor(3.0)) == 1


def test_hswish_values_for_floats_and_integers():
    # MindSpore 2.10: HSwish()([-4, -1, 0.5, 3.5]) = [0, -0.33333334, 0.29166666, 3.5]
    result = P.HSwish()(Tensor(np.array([-4.0, -1.0, 0.5, 3.5], np.float32)))
    np.testing.assert_allclose(result.asnumpy(), [0.0, -0.33333334, 0.29166666, 3.5], rtol=1e-6)
    # MindSpore 2.10: HSwish / ops.hardswish of int32 arange(-5, 6) = [0 0 0 0 0 0 0 1 3 4 5] (Int32)
    for fn in (P.HSwish(), ops.hardswish):
        result = fn(Tensor(np.arange(-5, 6).astype(np.int32)))
        assert result.dtype == ms.int32
        np.testing.assert_array_equal(result.asnumpy(), [0, 0, 0, 0, 0, 0, 0, 1, 3, 4, 5])


def test_compiled_values_and_gradients_match_mindspore():
    def fn(a):
        return ops.ceil(a).sum() + (a * a).sum() / 2 + P.HSwish()(a).sum() + ops.isfinite(a).astype(ms.float32).sum()

    a = Tensor(np.array([1.3, -0.7, 2.0], np.float32))
    np.testing.assert_allclose(ms.jit(fn)(a).asnumpy(), 12.42, rtol=1e-6)
    # MindSpore 2.10: grad of ceil(x).sum() is 0; of HSwish at [-4, -1, 0.5, 3.5] is [0, 0.16666667, 0.6666667, 1]
    np.testing.assert_allclose(ops.grad(lambda x: ops.ceil(x).sum())(a).asnumpy(), [0.0, 0.0, 0.0])
    h = Tensor(np.array([-4.0, -1.0, 0.5, 3.5], np.float32))
    np.testing.assert_allclose(ops.grad(lambda x: P.HSwish()(x).sum())(h).asnumpy(),
                               [0.0, 0.16666667, 0.6666667, 1.0], rtol=1e-6)
    np.testing.assert_allclose(ms.jit(ops.grad(fn))(a).asnumpy(), [1.3 + 5.6 / 6, -0.7 + 1.6 / 6, 2.0 + 7 / 6],
                               rtol=1e-6)


def _hswish_times_ceil(x):
    return P.HSwish()(x).sum() * ops.ceil(x).sum()


def test_gradients_against_central_differences():
    check_grads(_hswish_times_ceil, [np.array([[1.3, -0.7], [2.2, 0.4]])])


def test_scalar_cast_as_mindspore():
    # MindSpore 2.10: ScalarCast()(-2.7, int64) is the int -2, (0, bool_) False, (2.5, float64) 2.5
    cast = P.ScalarCast()
    assert cast(-2.7, ms.int64) == -2 and type(cast(-2.7, ms.int64)) is int
    assert cast(0, ms.bool_) is False
    assert cast(2.5, ms.float64) == 2.5 and type(cast(2, ms.float64)) is float
    assert repr(cast) == "Prim[ScalarCast]"
    with pytest.raises(ValueError, match=r"For 'ScalarCast', the supported type is in the list: \[mindspore.int64, "
                                         r"mindspore.float64, mindspore.bool\], but got Int32"):
        cast(2.7, ms.int32)
    with pytest.raises(TypeError, match=r"For 'ScalarCast', the type of 'x' should be one of '\['bool', 'Number'\]', "
                                        r"but got type 'Tensor'."):
        cast(Tensor(2.0), ms.int32)


def test_standard_normal_draws_float32_from_the_seeded_generator():
    # MindSpore 2.10: ops.standard_normal((2, 3)) is Float32 of shape (2, 3); its generator draws other numbers
    ms.set_seed(5)
    first = ops.standard_normal((2, 3))
    ms.set_seed(5)
    again = ops.standard_normal((2, 3))
    assert first.dtype == ms.float32 and first.shape == (2, 3)
    np.testing.assert_array_equal(first.asnumpy(), again.asnumpy())
    many = ops.standard_normal((4000,)).asnumpy()
    assert abs(many.mean()) < 0.1 and abs(many.std() - 1) < 0.1
    seeded = ops.standard_normal((2,), seed=3)   # a per-call seed: that seed's own generator
    assert seeded.shape == (2,) and not np.array_equal(seeded.asnumpy(), ops.standard_normal((2,), seed=3).asnumpy())
