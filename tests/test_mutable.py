"""npspore.mutable: the seed-000 contract (Tensor and tuple/list/dict of Tensors only; semantics §6, Decisions §2)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, mutable

PREFIX = ("For 'mutable', the 'input_data' should be one of (Tensor, tuple[Tensor], list[Tensor], dict[Tensor]) "
          "or their nested structures with no self-reference, but got ")


def test_import_paths():
    from npspore.common import mutable as from_common
    assert from_common is ms.mutable is mutable


def test_tensor_is_returned_unchanged():
    t = Tensor([1.0])
    assert mutable(t) is t
    p = Parameter(Tensor([1.0]), name="p")
    assert mutable(p) is p


@pytest.mark.parametrize("data, base", [
    ((Tensor([1.0]), Tensor([2.0])), tuple),
    ([Tensor([1.0])], list),
    ({"a": Tensor([1.0])}, dict),
    ((Tensor([1.0]), [Tensor([2.0]), {"k": (Tensor([3.0]),)}]), tuple),
    ((), tuple),
])
def test_containers_are_marked(data, base):
    result = mutable(data)
    assert isinstance(result, base) and type(result) is not base
    assert type(result).__name__ == "_" + base.__name__.capitalize()
    assert result == data
    assert result.__ms_mutable__ is True
    assert result.__ms_dynamic_len__ is False
    assert result.__ms_origin_object__ is data
    elements = list(result.values()) if base is dict else list(result)
    originals = list(data.values()) if base is dict else list(data)
    assert all(x is y for x, y in zip(elements, originals))


def test_dynamic_len_is_recorded():
    result = mutable([Tensor([1.0]), Tensor([2.0])], dynamic_len=True)
    assert result.__ms_dynamic_len__ is True


def test_seed_000_input():
    z = mutable((Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], dtype=ms.float32),
                 Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], dtype=ms.float32)))
    assert isinstance(z, tuple) and len(z) == 2
    assert z[0].shape == (2, 3) and z[1].shape == (3, 3)


@pytest.mark.parametrize("data, tail", [
    (1, "int: 1."),
    (2.5, "float: 2.5."),
    ("abc", "str: abc."),
    (None, "NoneType: None."),
    ((Tensor([1.0]), "s"), "tuple: (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), 's')."),
    ({"a": (2,)}, "dict: {'a': (2,)}."),
])
def test_other_inputs_raise(data, tail):
    with pytest.raises(TypeError) as info:
        mutable(data)
    assert str(info.value) == PREFIX + tail


def test_ndarray_and_self_reference_raise():
    with pytest.raises(TypeError, match=r"but got ndarray: \[1. 2.\]."):
        mutable(np.array([1.0, 2.0]))
    loop = [Tensor([1.0])]
    loop.append(loop)
    with pytest.raises(TypeError) as info:
        mutable(loop)
    assert str(info.value).startswith(PREFIX + "list: [Tensor(")


def test_dynamic_len_errors():
    with pytest.raises(TypeError) as info:
        mutable((Tensor([1.0]),), dynamic_len=1)
    assert str(info.value) == "For 'mutable', the second input should be bool, but got: int"
    with pytest.raises(TypeError) as info:
        mutable(Tensor([1.0]), dynamic_len=True)
    assert str(info.value) == ("For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                               "but got: Tensor")
    with pytest.raises(TypeError, match="the first input should be list or tuple, but got: dict"):
        mutable({"a": Tensor([1.0])}, dynamic_len=True)
