"""Buffers, state_dict and load_state_dict, with their hooks.

Expected values come from the nn.Cell seed page (buffers, named_buffers, get_buffer,
register_buffer, state_dict, load_state_dict, register_state_dict_pre_hook examples) and
mindspore-semantics.md §9.5.
"""
from collections import OrderedDict

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn
# The get_sub_cell seed example's nets; this file's own NetB is the buffers example's (no child cell).
from test_cell import NetA, NetC, ordered_dict_text
from test_cell import NetB as NetBWithChild


class NetB(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_b = nn.Buffer(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_b


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))
        self.param_a = Parameter(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)))
        self.register_buffer("ibuf", Tensor(np.zeros(2, np.float32)))


class BNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
        self.register_buffer("np_buf", Tensor(np.ones(1, np.float32)), persistent=False)
        self.inner = Inner()


# ---------------------------------------------------------------- buffers


def test_buffers_seed_example():
    net_a = NetA(NetB())
    assert [f"buffer is {b}" for b in net_a.buffers()] == ["buffer is [4 5 6]", "buffer is [1 2 3]"]
    assert [b.asnumpy().tolist() for b in net_a.buffers(recurse=False)] == [[4, 5, 6]]


def test_named_buffers_seed_example():
    net_a = NetA(NetB())
    assert [name for name, _ in net_a.named_buffers()] == ["buffer_a", "net_b.buffer_b"]
    # the page's printed lines, with str(tensor) in MindSpore 2.10's NumPy form (README, Known differences)
    assert [f"buffer name is {name}, buffer is {buffer}" for name, buffer in net_a.named_buffers()] == [
        "buffer name is buffer_a, buffer is [4 5 6]", "buffer name is net_b.buffer_b, buffer is [1 2 3]"]
    assert [name for name, _ in net_a.named_buffers(prefix="top")] == ["top.buffer_a", "top.net_b.buffer_b"]
    assert [name for name, _ in net_a.named_buffers(recurse=False)] == ["buffer_a"]


def test_buffer_reads_as_plain_tensor_sharing_data_and_is_not_a_parameter():
    data = ms.tensor([1, 2, 3])
    net = NetB()
    net.buffer_b = data
    assert net.buffer_b is data
    fresh = NetB()
    assert isinstance(nn.Buffer(data), Tensor)
    assert type(fresh.buffer_b) is Tensor
    assert list(fresh.get_parameters()) == []
    out = fresh(Tensor(np.array([10, 10, 10], np.int64)))
    np.testing.assert_array_equal(out.asnumpy(), [11, 12, 13])


def test_get_buffer_seed_example():
    net_a = NetA(NetBWithChild(NetC()))
    assert f"buffer_c is {net_a.get_buffer('net_b.net_c.buffer_c')}" == "buffer_c is [0 0 0]"
    with pytest.raises(AttributeError, match="NetC has no attribute `nope`"):
        net_a.get_buffer("net_b.net_c.nope")
    with pytest.raises(AttributeError, match="`net_c` is not a buffer"):
        net_a.get_buffer("net_b.net_c")


def test_register_buffer_seed_example():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.register_buffer("buffer0", ms.tensor([1, 2, 3]))

    net = Net()
    assert str(net.buffer0) == "[1 2 3]"


def test_named_buffers_names_and_order():
    assert [name for name, _ in BNet().named_buffers()] == ["buf", "np_buf", "inner.ibuf"]


def test_register_buffer_errors():
    net = BNet()
    with pytest.raises(KeyError) as info:
        net.register_buffer("a.b", Tensor([1.0]))
    assert info.value.args[0] == 'buffer name can\'t contain "."'
    with pytest.raises(TypeError) as info:
        net.register_buffer("c", 3)
    assert str(info.value) == "cannot assign '<class 'int'>' object to buffer 'c' (mindspore Tensor or None required)"
    with pytest.raises(KeyError) as info:
        net.register_buffer("training", Tensor([1.0]))
    assert info.value.args[0] == "attribute 'training' already exists"
    with pytest.raises(KeyError):
        net.register_buffer("", Tensor([1.0]))
    with pytest.raises(TypeError):
        net.register_buffer(3, Tensor([1.0]))
    with pytest.raises(TypeError, match="object to buffer 'buf'"):
        net.buf = 3
    with pytest.raises(AttributeError, match="before Cell.__init__"):
        nn.Cell.__new__(nn.Cell).register_buffer("x", Tensor([1.0]))


def test_buffer_set_to_none_leaves_state_dict_and_del_removes_it():
    net = BNet()
    net.buf = None
    assert "buf" not in net.state_dict()
    del net.np_buf
    assert [name for name, _ in net.named_buffers()] == ["inner.ibuf"]


# ---------------------------------------------------------------- state_dict


def test_state_dict_seed_example():
    sd = Model().state_dict()
    assert isinstance(sd, OrderedDict)
    assert str(sd) == ordered_dict_text([
        ("param_a", "Parameter (name=param_a, shape=(3,), dtype=Int64, requires_grad=True)"),
        ("buffer_a", "Tensor(shape=[3], dtype=Int64, value= [4, 5, 6])")])


def test_state_dict_order_values_are_references_and_non_persistent_left_out():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.register_buffer("b0", Tensor([0.0]))
            self.inner = Inner()
            self.p = Parameter(Tensor([1.0]))

    net = Outer()
    sd = net.state_dict()
    assert list(sd) == ["p", "b0", "inner.w", "inner.ibuf"]
    assert sd["p"] is net.p and sd["inner.ibuf"] is net.inner.ibuf
    assert list(BNet().state_dict()) == ["buf", "inner.w", "inner.ibuf"]
    assert list(net.state_dict(prefix="m.")) == ["m.p", "m.b0", "m.inner.w", "m.inner.ibuf"]
    target = {}
    assert net.state_dict(target) is target and list(target) == list(sd)


def test_state_dict_pre_hook_seed_example():
    def _add_extra_param(cell, prefix, keep_vars):
        cell._params["extra_param"] = Parameter(ms.tensor([4, 5, 6]))

    net = Model()
    handle = net.register_state_dict_pre_hook(_add_extra_param)
    net_state_dict = net.state_dict()
    handle.remove()
    assert "extra_param" in net_state_dict


def test_state_dict_post_hook_sees_the_result():
    net = Model()
    seen = []
    net.register_state_dict_post_hook(lambda cell, sd, prefix, meta: seen.append(list(sd)))
    net.state_dict()
    assert seen == [["param_a", "buffer_a"]]


def test_extra_state_round_trip():
    class WithExtra(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = 0

        def get_extra_state(self):
            return {"count": self.count}

        def set_extra_state(self, state):
            self.count = state["count"]

    src = WithExtra()
    src.count = 5
    sd = src.state_dict()
    assert sd["_extra_state"] == {"count": 5}
    dst = WithExtra()
    dst.load_state_dict(sd)
    assert dst.count == 5
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "_extra_state"'):
        WithExtra().load_state_dict({})
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "_extra_state"'):
        nn.Cell().load_state_dict({"_extra_state": 1})


# ---------------------------------------------------------------- load_state_dict


def test_load_state_dict_seed_example_copies_values():
    model = Model()
    model.param_a.set_data(ms.tensor([7, 8, 9]))
    new_model = Model()
    result = new_model.load_state_dict(model.state_dict())
    assert str(result) == "<All keys matched successfully>"
    assert new_model.param_a is not model.param_a
    np.testing.assert_array_equal(new_model.param_a.asnumpy(), [7, 8, 9])
    np.testing.assert_array_equal(new_model.buffer_a.asnumpy(), [4, 5, 6])
    model.param_a.set_data(ms.tensor([0, 0, 0]))
    np.testing.assert_array_equal(new_model.param_a.asnumpy(), [7, 8, 9])  # copied, not shared


def test_load_state_dict_casts_to_the_existing_dtype():
    net = Inner()
    net.load_state_dict({"w": Tensor(np.array([3, 4], np.int64)), "ibuf": Tensor(np.array([1.5, 2.5]))})
    assert net.w.dtype == ms.float32 and net.ibuf.dtype == ms.float32
    np.testing.assert_array_equal(net.w.asnumpy(), [3.0, 4.0])
    np.testing.assert_array_equal(net.ibuf.asnumpy(), [1.5, 2.5])


def test_load_state_dict_strict_errors():
    net = BNet()
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict({"buf": Tensor(np.zeros(3, np.float32))})
    assert str(info.value) == ('Error(s) in loading state_dict for BNet:\n\tMissing key(s) in state_dict: '
                               '"inner.w", "inner.ibuf". ')
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict({**net.state_dict(), "extra": Tensor([1.0])})
    assert str(info.value) == 'Error(s) in loading state_dict for BNet:\n\tUnexpected key(s) in state_dict: "extra". '
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict({**net.state_dict(), "buf": Tensor(np.zeros(2, np.float32))})
    assert str(info.value) == ("Error(s) in loading state_dict for BNet:\n\tsize mismatch for buf: copying a param "
                               "with shape (2,) from checkpoint, the shape in current model is (3,).")
    with pytest.raises(TypeError):
        net.load_state_dict([("buf", Tensor([1.0]))])


def test_load_state_dict_non_strict_returns_keys():
    net = BNet()
    result = net.load_state_dict({"buf": Tensor(np.array([9.0, 9.0, 9.0], np.float32)), "zz": Tensor([1.0]),
                                  "inner.zz": Tensor([1.0])}, strict=False)
    assert result.missing_keys == ["inner.w", "inner.ibuf"]
    assert result.unexpected_keys == ["zz", "inner.zz"]
    assert tuple(result) == (["inner.w", "inner.ibuf"], ["zz", "inner.zz"])
    np.testing.assert_array_equal(net.buf.asnumpy(), [9.0, 9.0, 9.0])


def test_key_of_a_none_parameter_is_unexpected():
    net = Inner()
    net.w = None
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "w"'):
        net.load_state_dict({"w": Tensor([1.0, 2.0]), "ibuf": Tensor(np.zeros(2, np.float32))})


def test_load_state_dict_hooks():
    net = BNet()
    calls = []

    def pre(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        calls.append(("pre", type(cell).__name__, prefix))
        state_dict.pop("inner.zz", None)

    def post(cell, incompatible_keys):
        calls.append(("post", type(cell).__name__, list(incompatible_keys.unexpected_keys)))
        incompatible_keys.unexpected_keys.clear()

    net.inner.register_load_state_dict_pre_hook(pre)
    handle = net.register_load_state_dict_post_hook(post)
    result = net.load_state_dict({**net.state_dict(), "inner.zz": Tensor([1.0]), "zz": Tensor([1.0])})
    assert calls == [("pre", "Inner", "inner."), ("post", "BNet", ["zz"])]
    assert str(result) == "<All keys matched successfully>"
    handle.remove()
    with pytest.raises(RuntimeError, match="zz"):
        net.load_state_dict({**net.state_dict(), "zz": Tensor([1.0])})
