"""npspore.mutable as in MindSpore 2.10 (semantics §6): Tensors, bool/int/float and containers nested from
them; a mutable scalar is a variable of compiled code (semantics §7.2: ``mutable(4.0)`` then ``mutable(5.0)``
compiles once). The seed-000 example (a mutable tuple of Tensors, differentiated) prints what the page shows."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, mutable


def built(compiled):
    """The kernels ``compiled`` built: compiled, or loaded from the disk cache (another test's)."""
    info = compiled.cache_info()
    return info["compiles"] + info["disk_loads"]

PREFIX = ("For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, dict) "
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
    ("abc", "str: abc."),
    (None, "NoneType: None."),
    ((Tensor([1.0]), "s"), "tuple: (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), 's')."),
    ({"a": (2, None)}, "dict: {'a': (2, None)}."),
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


@pytest.mark.parametrize("value, name, base", [(2, "_Int", int), (2.5, "_Float", float), (True, "_Bool", bool)])
def test_scalars_are_marked(value, name, base):
    result = mutable(value)
    assert type(result).__name__ == name and isinstance(result, base)
    assert result == value
    assert (result.__class__ is bool) is (base is bool)   # _Bool reports bool, as MindSpore's does
    assert result.__ms_mutable__ is True and result.__ms_origin_object__ == value
    assert repr(result) == repr(value)


def test_containers_of_scalars_are_accepted():
    data = (1, [2.5, True], {"k": Tensor([1.0])})
    result = mutable(data)
    assert type(result).__name__ == "_Tuple" and result == data


def scaled(x, s):
    return x * s + s


def test_mutable_scalar_eagerly():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    result = scaled(x, mutable(2))
    assert result.dtype == ms.float32 and result.asnumpy().tolist() == [4.0, 6.0]
    half = Tensor(np.array([1.0, 2.0], np.float16))
    assert ms.ops.mul(half, mutable(2.5)).dtype == ms.float16   # weakly typed, as the plain 2.5


def test_jit_compiles_once_for_new_mutable_values():
    compiled = ms.jit(scaled)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    for value in (2, 3, 7):
        result = compiled(x, mutable(value))
        assert result.dtype == ms.float32
        np.testing.assert_array_equal(result.asnumpy(), scaled(x, value).asnumpy())
    assert built(compiled) == 1
    compiled(x, mutable(2.5))               # a float after ints: a new type compiles (semantics §7.2)
    assert built(compiled) == 2
    for value in (4.0, 5.0):
        np.testing.assert_array_equal(compiled(x, mutable(value)).asnumpy(), scaled(x, value).asnumpy())
    assert built(compiled) == 2


def test_plain_scalars_stay_constants():
    compiled = ms.jit(scaled)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    compiled(x, 2)
    compiled(x, 3)
    assert built(compiled) == 2


def test_mutable_scalars_compute_in_python_in_the_kernel():
    def combine(s, t):
        return s * t + 1, s // 2
    compiled = ms.jit(combine)
    assert compiled(mutable(2), mutable(3.5)) == (8.0, 1)
    assert compiled(mutable(5), mutable(1.5)) == (8.5, 2)
    assert built(compiled) == 1


def test_a_decision_on_a_mutable_scalar_is_guarded():
    def signed(x, s):
        if s > 2.5:
            return x + s
        return x - s
    compiled = ms.jit(signed)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    for value in (2.0, 3.0, 4.0, 1.0):
        np.testing.assert_array_equal(compiled(x, mutable(value)).asnumpy(), signed(x, value).asnumpy())
    assert built(compiled) == 2    # one kernel per branch taken


def test_graph_mode_cell_compiles_once(monkeypatch):
    class Scale(ms.nn.Cell):
        def construct(self, x, s):
            return x * s
    monkeypatch.setattr(ms.context, "_context", {**ms.context._context, "mode": ms.GRAPH_MODE})
    net = Scale()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert net(x, mutable(4.0)).asnumpy().tolist() == [4.0, 8.0]
    assert net(x, mutable(5.0)).asnumpy().tolist() == [5.0, 10.0]
    assert len(net.compile_cache) == 1


def test_a_traced_function_follows_each_mutable_value():
    namespace = {}
    exec("def traced_scale(x, s):\n    return x * s\n", namespace)   # no source file: traced
    compiled = ms.jit(namespace["traced_scale"])
    x = Tensor(np.array([1.0, 2.0], np.float16))
    for value in (2.0, 3.0, 2.0):
        result = compiled(x, mutable(value))
        assert result.dtype == ms.float16 and result.asnumpy().tolist() == [value, 2 * value]
    assert built(compiled) == 2    # a trace per value, guarded in the kernel
