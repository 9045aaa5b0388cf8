"""npspore.common.initializer and the global seed (npspore.set_seed / get_seed)."""
import math

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor
from npspore.common import seed
from npspore.common.initializer import (Constant, HeNormal, HeUniform, Initializer, Normal, One, TruncatedNormal,
                                        Uniform, XavierNormal, XavierUniform, Zero, initializer)


@pytest.fixture
def seeded():
    previous = seed._seed, seed._rng
    ms.set_seed(1234)
    yield
    seed._seed, seed._rng = previous


@pytest.mark.parametrize("init, expected", [
    ("ones", 1.0), ("ONES", 1.0), (One(), 1.0), ("zeros", 0.0), ("Zero", 0.0), (Zero(), 0.0),
    (Constant(3), 3.0), (0, 0.0), (2.5, 2.5),
])
def test_constant_initializers(init, expected):
    t = initializer(init, [1, 2, 3], ms.float32)
    assert type(t) is Tensor and t.shape == (1, 2, 3) and t.dtype == ms.float32
    assert np.all(t.asnumpy() == expected)


def test_dtype_and_shape_forms():
    assert initializer("ones", (2,), ms.int32).asnumpy().tolist() == [1, 1]
    assert initializer("ones", 3).dtype == ms.float32 and initializer("ones", 3).shape == (3,)
    assert initializer(Constant(1.9), [2], ms.int8).asnumpy().tolist() == [1, 1]
    assert initializer(One(), (), ms.float16).shape == ()


def test_tensor_init_is_returned():
    data = Tensor(np.zeros([1, 2, 3]), ms.float32)
    assert initializer(data, [1, 2, 3], ms.float32) is data
    with pytest.raises(ValueError) as info:
        initializer(data, [1, 2])
    assert str(info.value) == ("For 'initializer', the shape of the 'init' argument should be same as the argument "
                               "'shape', but got the 'init' shape [1, 2, 3] and the 'shape' [1, 2].")


def test_errors():
    with pytest.raises(ValueError, match="^For 'initializer', the class corresponding to 'glorot' was not found.$"):
        initializer("glorot", [2, 2])
    with pytest.raises(TypeError, match="the type of the 'init' argument should be 'Tensor', 'number', 'string' or "
                                        "'initializer', but got <class 'list'>."):
        initializer([1.0], [2])
    with pytest.raises(ValueError, match=r"the value of 'shape' must be positive integer, but got \(2, 0\)"):
        initializer("ones", [2, 0])
    with pytest.raises(ValueError, match="can not be computed for tensor with fewer than 2 dimensions"):
        initializer(XavierUniform(), [4])
    with pytest.raises(ValueError, match="'mode' fan_avg not supported"):
        initializer(HeUniform(mode="fan_avg"), [2, 2])


def test_random_initializers_follow_the_seed(seeded):
    first = initializer(Normal(), [50, 4]).asnumpy()
    ms.set_seed(1234)
    second = initializer("normal", [50, 4]).asnumpy()
    np.testing.assert_array_equal(first, second)
    assert ms.get_seed() == 1234
    assert not np.array_equal(first, initializer("normal", [50, 4]).asnumpy())


def test_distributions(seeded):
    normal = initializer(Normal(sigma=2.0, mean=5.0), [200, 100]).asnumpy()
    assert normal.dtype == np.float32
    assert abs(normal.mean() - 5.0) < 0.05 and abs(normal.std() - 2.0) < 0.05
    uniform = initializer(Uniform(scale=0.5), [200, 100]).asnumpy()
    assert uniform.min() >= -0.5 and uniform.max() <= 0.5 and uniform.max() > 0.49
    assert initializer("uniform", [1000]).asnumpy().max() <= 0.07
    truncated = initializer(TruncatedNormal(sigma=1.0), [10000]).asnumpy()
    assert np.abs(truncated).max() <= 2.0 and truncated.std() > 0.8


def test_fan_based_bounds(seeded):
    shape = (30, 20, 3, 3)  # fan_in = 20 * 9 = 180, fan_out = 30 * 9 = 270
    xavier = initializer("xavier_uniform", shape).asnumpy()
    bound = math.sqrt(6.0 / (180 + 270))
    assert np.abs(xavier).max() <= bound and np.abs(xavier).max() > 0.95 * bound
    he = initializer(HeUniform(), shape).asnumpy()  # negative_slope=0: gain sqrt(2), bound sqrt(6 / fan_in)
    assert np.abs(he).max() <= math.sqrt(6.0 / 180) and np.abs(he).max() > 0.95 * math.sqrt(6.0 / 180)
    relu_fan_out = initializer(HeUniform(mode="fan_out", nonlinearity="relu"), shape).asnumpy()
    assert np.abs(relu_fan_out).max() <= math.sqrt(6.0 / 270)
    big = (400, 300)
    assert abs(initializer(XavierNormal(), big).asnumpy().std() - math.sqrt(2.0 / 700)) < 0.002
    assert abs(initializer(HeNormal(), big).asnumpy().std() - math.sqrt(2.0 / 300)) < 0.003


def test_initializer_fills_arrays_in_place():
    array = np.zeros((2, 2), np.float32)
    assert One()(array) is array
    assert array.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert isinstance(One(), Initializer)


def test_seed_001_apply_example():
    weight = Parameter(initializer("normal", [3, 2]), name="weight")
    weight.set_data(initializer(One(), weight.shape, weight.dtype))
    assert weight.asnumpy().tolist() == [[1.0, 1.0]] * 3


def test_set_seed_validation():
    with pytest.raises(TypeError, match="The argument 'seed' must be type of int, but got <class 'float'>."):
        ms.set_seed(1.0)
    with pytest.raises(ValueError, match="must be int and must >= 0, but got -1"):
        ms.set_seed(-1)
