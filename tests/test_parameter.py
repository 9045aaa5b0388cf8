"""npspore.Parameter and ParameterTuple (seed 004, semantics §8)."""
import copy

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, ParameterTuple, Tensor

TENSOR_INPUT_MESSAGE = ("For 'Tensor', the type of 'input_data' should be one of '['TensorPy', 'Tensor', 'ndarray', "
                        "'str_', 'list', 'tuple', 'float', 'int', 'bool', 'complex', 'bytes']', but got type '{}'.")


# ---------------------------------------------------------------------- construction (§8.1)


@pytest.mark.parametrize("default_input, shape, dtype", [
    (Tensor([1.0, 2.0], ms.float16), (2,), ms.float16),
    (3, (), ms.int32),
    (1.5, (), ms.float32),
    (np.array([1.0, 2.0]), (2,), ms.float64),
    (np.array([[1, 2]]), (1, 2), ms.int64),
    ([1.0, 2.0], (2,), ms.float32),
    ([1, 2], (2,), ms.int64),
    (Tensor(shape=(2, 3), dtype=ms.float32), (2, 3), ms.float32),
])
def test_construction(default_input, shape, dtype):
    p = Parameter(default_input, name="p")
    assert p.shape == shape and p.dtype == dtype


def test_tensor_data_is_copied():
    source = Tensor([1.0, 2.0])
    p = Parameter(source, name="p")
    source[0] = 9.0
    assert p.asnumpy().tolist() == [1.0, 2.0]


def test_construction_errors():
    with pytest.raises(ValueError, match="^Parameter data can not be `bool`$"):
        Parameter(True)
    for bad, type_name in (("abc", "str"), (None, "NoneType")):
        with pytest.raises(TypeError) as info:
            Parameter(bad)
        assert str(info.value) == TENSOR_INPUT_MESSAGE.format(type_name)
    with pytest.raises(ValueError, match="^negative dimensions are not allowed$"):
        Parameter(Tensor(shape=[None, 3], dtype=ms.float32))


def test_is_a_tensor_subclass():
    p = Parameter(Tensor([1.0]), name="w")
    assert isinstance(p, Tensor)
    assert type(p).__name__ == "Parameter"


# ---------------------------------------------------------------------- names and flags (seed 004, §8.2)


def test_explicit_name():
    param_a = Parameter(Tensor([1], ms.float32), name="name_a")
    assert param_a.name == "name_a"
    assert not param_a._name_is_generated


def test_unnamed_parameters_get_generated_names():
    first, second = Parameter(Tensor([3], ms.float32)), Parameter(Tensor([4], ms.float32), name="")
    for p in (first, second):
        assert p._name_is_generated
        assert p.name.startswith("Parameter#")
    assert first.name != second.name
    assert int(second.name.split("#")[1]) > int(first.name.split("#")[1])
    first.name = "param_b"
    assert first.name == "param_b" and not first._name_is_generated


def test_name_validation():
    with pytest.raises(ValueError) as info:
        Parameter(Tensor([1.0]), name=3)
    assert str(info.value) == "The type of the Parameter's name should be 'string' or 'None', but got <class 'int'>."
    p = Parameter(Tensor([1.0]), name="w")
    with pytest.raises(ValueError, match="should be 'string' or 'None', but got <class 'float'>."):
        p.name = 1.0
    with pytest.raises(ValueError, match="name should be less than 1024."):
        p.name = "x" * 1025
    p.name = "x" * 1024
    assert len(p.name) == 1024


def test_requires_grad_validation():
    assert Parameter(Tensor([1.0]), name="w").requires_grad is True
    frozen = Parameter(Tensor([1.0]), name="w", requires_grad=False)
    assert frozen.requires_grad is False
    with pytest.raises(TypeError, match="^The argument `requires_grad` must be bool type$"):
        Parameter(Tensor([1.0]), name="w", requires_grad=1)
    with pytest.raises(TypeError, match="^The argument `requires_grad` must be bool type$"):
        frozen.requires_grad = 1


def test_distributed_attributes_are_stored():
    p = Parameter(Tensor([1.0]), name="w", layerwise_parallel=True, parallel_optimizer=False)
    assert p.layerwise_parallel is True and p.parallel_optimizer is False
    p.comm_fusion = 3
    p.sliced = True
    p.cache_enable = True
    p.set_param_ps(init_in_server=True)
    p.add_pipeline_stage(1)
    assert (p.comm_fusion, p.sliced, p.cache_enable, p.is_param_ps, p.init_in_server) == (3, True, True, True, True)
    assert p.init_data() is p and p.inited_param is None
    with pytest.raises(TypeError, match="The argument `layerwise_parallel` must be bool type"):
        p.layerwise_parallel = "yes"
    with pytest.raises(TypeError, match="`stage` must be a positive number of int type"):
        p.add_pipeline_stage(-1)


# ---------------------------------------------------------------------- printing and data (§8.3)


@pytest.mark.parametrize("data, text", [
    (Tensor([1.0, 2.0]), "Parameter (name=p, shape=(2,), dtype=Float32, requires_grad=True)"),
    (2.0, "Parameter (name=p, shape=(), dtype=Float32, requires_grad=True)"),
    (Tensor([[1, 2]], ms.int32), "Parameter (name=p, shape=(1, 2), dtype=Int32, requires_grad=True)"),
])
def test_str_and_repr(data, text):
    p = Parameter(data, name="p")
    assert str(p) == repr(p) == text


def test_repr_in_containers():
    p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w", requires_grad=False)
    assert str([p]) == "[Parameter (name=w, shape=(2, 2), dtype=Float32, requires_grad=False)]"


def test_arithmetic_returns_plain_tensors():
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    for result in (p + 1, p * p, -p, p.value()):
        assert type(result) is Tensor
    assert (p * p).asnumpy().tolist() == [1.0, 4.0]


def test_value_and_data():
    x = Parameter(Tensor(np.array([1, 2], dtype=np.float32)), name="param")
    x_value = x.value()
    assert str(x_value) == "[1. 2.]"
    assert type(x_value) is Tensor
    data = x.data
    assert type(data) is Tensor and data is not x
    assert data.asnumpy() is x.asnumpy()


# ---------------------------------------------------------------------- clone, copy, deepcopy


def test_clone_same_keeps_name_and_copies_data():
    p = Parameter(Tensor([1.0, 2.0]), name="w", requires_grad=False)
    clone = p.clone()
    assert type(clone) is Parameter
    assert (clone.name, clone.requires_grad, clone.dtype, clone.shape) == ("w", False, ms.float32, (2,))
    clone[0] = 7.0
    assert p.asnumpy().tolist() == [1.0, 2.0]
    assert p.copy().name == "w" and p.copy() is not p


@pytest.mark.parametrize("init, values", [
    ("zeros", [0.0, 0.0]), ("ones", [1.0, 1.0]), (3, [3.0, 3.0]), (Tensor([5.0, 6.0]), [5.0, 6.0]),
])
def test_clone_with_init(init, values):
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    clone = p.clone(init=init)
    assert clone.asnumpy().tolist() == values
    assert clone.dtype == ms.float32 and clone.name == "w"
    assert p.asnumpy().tolist() == [1.0, 2.0]


def test_deepcopy_keeps_name_and_copies_data():
    p = Parameter(Tensor([1.0]), name="kept")
    duplicate = copy.deepcopy(p)
    assert type(duplicate) is Parameter and duplicate.name == "kept"
    duplicate[0] = 3.0
    assert p.asnumpy().tolist() == [1.0]


# ---------------------------------------------------------------------- set_data (seed 004, §8.3)


def test_set_data_returns_self_and_casts():
    p = Parameter(Tensor([0.0, 0.0]), name="w")
    assert p.set_data(Tensor([1, 2])) is p
    assert p.dtype == ms.float32 and p.asnumpy().tolist() == [1.0, 2.0]
    ints = Parameter(Tensor([0], ms.int32), name="i")
    ints.set_data(Tensor([1.7]))
    assert ints.dtype == ms.int32 and ints.asnumpy().tolist() == [1]


def test_set_data_with_python_numbers():
    scalar = Parameter(1.0, name="s")
    scalar.set_data(9)
    assert scalar.dtype == ms.float32 and scalar.shape == () and scalar.item() == 9.0
    ints = Parameter(1, name="i")
    ints.set_data(4)
    assert ints.dtype == ms.int32 and ints.item() == 4
    with pytest.raises(TypeError) as info:
        ints.set_data(2.5)
    assert str(info.value) == ("Incoming Parameter dtype can not be converted to current dtype implicitly. "
                               "Current dtype is Int32, and incoming is Float. Use .set_dtype(xxx) to change the dtype.")


@pytest.mark.parametrize("data, type_text", [([1.0, 2.0], "<class 'list'>"),
                                             (np.array([1.0, 2.0]), "<class 'numpy.ndarray'>")])
def test_set_data_rejects_lists_and_arrays(data, type_text):
    p = Parameter(Tensor([0.0, 0.0]), name="w")
    with pytest.raises(TypeError) as info:
        p.set_data(data)
    assert str(info.value) == ("Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like `Tensor`). "
                               f"But with type {type_text}.")


def test_set_data_checks_the_shape_unless_slice_shape():
    p = Parameter(Tensor([0.0, 0.0]), name="w")
    with pytest.raises(ValueError) as info:
        p.set_data(Tensor([1.0, 2.0, 3.0]))
    assert str(info.value) == ("Can not change the shape of Parameter which has been initialized. "
                               "Current shape is (2,), and incoming is (3,).")
    with pytest.raises(ValueError, match=r"Current shape is \(2,\), and incoming is \(\)."):
        p.set_data(9.0)
    p.set_data(Tensor([1.0, 2.0, 3.0]), slice_shape=True)
    assert p.shape == (3,) and p.sliced


def test_set_dtype():
    p = Parameter(Tensor([1.5]), name="w")
    assert p.set_dtype(ms.float16) is p and p.dtype == ms.float16


# ---------------------------------------------------------------------- ParameterTuple


def test_parameter_tuple():
    a, b = Parameter(Tensor([1.0]), name="a"), Parameter(Tensor([2.0]), name="b")
    params = ParameterTuple([a, b])
    assert isinstance(params, tuple) and type(params).__name__ == "ParameterTuple"
    assert params == (a, b)
    assert len(ParameterTuple((a, a))) == 2  # the same object twice is allowed (seed 004, rule 4)


def test_parameter_tuple_errors():
    a = Parameter(Tensor([1.0]), name="a")
    with pytest.raises(TypeError) as info:
        ParameterTuple([a, Tensor([1.0])])
    assert str(info.value) == ("For ParameterTuple initialization, ParameterTuple input should be 'Parameter' "
                               "collection, but got a <class 'list'>. ")
    with pytest.raises(ValueError) as info:
        ParameterTuple([a, Parameter(Tensor([2.0]), name="a")])
    assert str(info.value) == ("The value Parameter (name=a, shape=(1,), dtype=Float32, requires_grad=True) , "
                               "its name 'a' already exists. Please set a unique name for the parameter.")


def test_parameter_tuple_clone():
    params = ParameterTuple([Parameter(Tensor([1.0]), name="a"), Parameter(Tensor([2.0]), name="b")])
    clones = params.clone("copy", init="zeros")
    assert type(clones) is ParameterTuple
    assert [p.name for p in clones] == ["copy.a", "copy.b"]
    assert [p.item() for p in clones] == [0.0, 0.0]
    assert [p.name for p in params] == ["a", "b"]
    with pytest.raises(ValueError, match="The 'bad prefix' is illegal"):
        params.clone("bad prefix")
