"""nn.Cell: registration and naming, structural methods, iteration, flags, printing, calling.

Expected values come from the nn.Cell seed page (seeds/001) and mindspore-semantics.md §8.2, §9.
"""
import copy
import sys
from collections import OrderedDict

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, ParameterTuple, Tensor, nn


def ordered_dict_text(items):
    """``str`` of an OrderedDict of ``items`` (key, value text): the seed pages print Python < 3.12's form."""
    if sys.version_info < (3, 12):
        return "OrderedDict([" + ", ".join(f"({key!r}, {text})" for key, text in items) + "])"
    return "OrderedDict({" + ", ".join(f"{key!r}: {text}" for key, text in items) + "})"


def p(value=1.0, name=None, requires_grad=True):
    return Parameter(Tensor(np.array([value], np.float32)), name=name, requires_grad=requires_grad)


class TestNet(nn.Cell):
    __test__ = False  # the seed's name, not a pytest class

    def __init__(self):
        super().__init__()
        self.my_w1 = Parameter(Tensor(np.ones([4, 4]), ms.float32))
        self.my_w2 = Parameter(Tensor(np.ones([16]), ms.float32), name="explicit_w2")

    def construct(self, x):
        x += self.my_w1
        return x.reshape((16,)) - self.my_w2


class TestNet2(nn.Cell):
    __test__ = False

    def __init__(self):
        super().__init__()
        self.my_t1 = Parameter(Tensor(np.ones([4, 4]), ms.float32))
        self.subcell = TestNet()

    def construct(self, x):
        return self.subcell(x)


class Leaf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b = p()

    def construct(self, x):
        return x + self.b


class Wrap(nn.Cell):
    def __init__(self, inner, auto_prefix=True):
        super().__init__(auto_prefix=auto_prefix)
        self.net = inner

    def construct(self, x):
        return self.net(x)


class DenseNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.dense(x)


# ---------------------------------------------------------------- parameter naming (§8.2)


def test_get_parameters_seed_example():
    net = TestNet2()
    assert str([q for q in net.get_parameters(expand=True)]) == (
        "[Parameter (name=my_t1, shape=(4, 4), dtype=Float32, requires_grad=True), "
        "Parameter (name=subcell.my_w1, shape=(4, 4), dtype=Float32, requires_grad=True), "
        "Parameter (name=subcell.my_w2, shape=(16,), dtype=Float32, requires_grad=True)]")
    assert [q.name for q in net.get_parameters(expand=False)] == ["my_t1"]


def test_unnamed_parameter_takes_attribute_name_and_explicit_name_stays_standalone():
    net = TestNet()
    assert [q.name for q in net.get_parameters()] == ["my_w1", "explicit_w2"]


def test_auto_prefix_false_keeps_sub_cell_names_seed_example():
    inner = nn.Dense(120, 240, has_bias=False, weight_init="normal")
    my_net = Wrap(inner, auto_prefix=False)
    assert str(my_net.trainable_params()) == \
        "[Parameter (name=weight, shape=(240, 120), dtype=Float32, requires_grad=True)]"
    assert [name for name, _ in my_net.parameters_and_names()] == ["net.weight"]


def test_prefixes_stack_when_wrapping_again():
    assert [q.name for q in Wrap(Wrap(Leaf())).get_parameters()] == ["net.net.b"]
    assert [q.name for q in Wrap(Leaf(), auto_prefix=False).get_parameters()] == ["b"]


def test_rename_happens_at_assignment_time():
    leaf = Leaf()
    assert leaf.b.name == "b"
    Wrap(leaf)
    assert leaf.b.name == "net.b"


def test_parameters_and_names_seed_example():
    names = [name for name, _ in nn.Dense(3, 4).parameters_and_names()]
    assert names == ["weight", "bias"]


def test_iteration_order_own_parameters_first_then_children_depth_first():
    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = p()
            self.frozen = p(requires_grad=False)

    class Mid(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.b = p()

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mid = Mid()
            self.dense = nn.Dense(2, 1)
            self.relu = nn.ReLU()
            self.top = p()

    net = Outer()
    expected = ["top", "mid.b", "mid.inner.w", "mid.inner.frozen", "dense.weight", "dense.bias"]
    assert [name for name, _ in net.parameters_and_names()] == expected
    assert [q.name for q in net.trainable_params()] == [n for n in expected if n != "mid.inner.frozen"]
    assert [q.name for q in net.untrainable_params()] == ["mid.inner.frozen"]
    assert [name for name, _ in net.cells_and_names()] == ["", "mid", "mid.inner", "dense", "relu"]
    assert list(net.parameters_dict()) == expected
    assert isinstance(net.trainable_params(), list)


def test_shared_parameter_listed_once_under_first_path():
    shared = p()

    class Two(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.a = shared
            self.b = shared

    assert [name for name, _ in Two().parameters_and_names()] == ["a"]


def test_parameters_dict_seed_example():
    d = DenseNet().parameters_dict()
    assert isinstance(d, OrderedDict)
    assert list(d) == ["dense.weight", "dense.bias"]
    assert d["dense.bias"].shape == (2,)


def test_parameters_broadcast_dict_skips_layerwise_parallel():
    net = DenseNet()
    net.dense.bias.layerwise_parallel = True
    assert list(net.parameters_broadcast_dict()) == ["dense.weight"]
    assert nn.ReLU().parameters_broadcast_dict() is None


def test_parameter_tuple_members_named_dollar_k_and_registered():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.t1 = ParameterTuple([p(), p()])
            self.t2 = ParameterTuple([p(), p()])

    net = Net()
    assert [q.name for q in net.get_parameters()] == ["Parameter$1", "Parameter$2", "Parameter$3", "Parameter$4"]
    assert type(net.t1).__name__ == "ParameterTuple"


def test_list_members_named_dollar_k_but_not_registered():
    # Seed 004 rule 2 names them; MindSpore 2.10 does not register plain list/tuple members.
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_list = [p(3.0), p(4.0)]
            self.param_tuple = (p(5.0),)

    net = Net()
    assert [q.name for q in net.param_list] == ["Parameter$1", "Parameter$2"]
    assert [q.name for q in net.param_tuple] == ["Parameter$3"]
    assert list(net.parameters_and_names()) == []
    assert net.trainable_params() == []
    assert list(Wrap(net).get_parameters()) == []


def test_tuple_member_with_an_existing_name_raises_seed_rule_3():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_a = p(1.0, name="name_a")
            self.param_tuple = (p(5.0, name="name_a"), p(6.0))

    with pytest.raises(ValueError, match=r"its name 'name_a' already exists\. Please set a unique name"):
        Net()


def test_duplicate_names_inside_a_list_raise_and_nothing_is_registered():
    net = nn.Cell()
    a, b = p(name="same"), p(name="same")
    with pytest.raises(ValueError) as info:
        net.plist = [a, b]
    assert str(info.value) == (f"The value {[a, b]} , its name 'same' already exists. "
                               "Please set a unique name for the parameter.")
    assert list(net.get_parameters()) == [] and "plist" not in net.__dict__


def test_same_parameter_twice_in_a_tuple_is_checked_once_seed_rule_4():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_a = p(1.0, name="name_a")
            self.param_tuple = (self.param_a, self.param_a)

    net = Net()
    assert [q.name for q in net.get_parameters()] == ["name_a"]
    assert net.param_tuple[0] is net.param_a


class TupleAndListNamedDup(nn.Cell):
    """Issue 26: a tuple attribute and a list attribute each hold a Parameter named 'dup'."""

    def __init__(self):
        super().__init__()
        self.params_tuple = (p(1.0, name="dup"), p(2.0))
        self.params_list = [p(3.0, name="dup"), p(4.0)]


def test_a_name_in_a_tuple_and_a_list_attribute_raises_at_the_second_assignment():
    # MindSpore 2.10 raised, at `self.params_list = ...`:
    # ValueError: The value [Parameter (name=dup, shape=(1,), dtype=Float32, requires_grad=True), Parameter
    # (name=Parameter#3, ...)] , its name 'dup' already exists. Please set a unique name for the parameter.
    with pytest.raises(ValueError) as info:
        TupleAndListNamedDup()
    message = str(info.value)
    assert message.startswith("The value [Parameter (name=dup, shape=(1,), dtype=Float32, requires_grad=True), ")
    assert message.endswith("] , its name 'dup' already exists. Please set a unique name for the parameter.")


def test_names_of_list_and_tuple_attributes_are_checked_across_attributes():
    net = nn.Cell()
    shared = p(name="shared")
    net.first = (shared, p(name="other"))
    net.second = [shared]                      # the same object again: checked once (seed rule 4)
    with pytest.raises(ValueError, match=r"^The value \(Parameter \(name=other, .*\),\) , its name 'other' "):
        net.third = (p(name="other"),)
    assert not hasattr(net, "third")
    net.first = None                           # a replaced attribute gives its names back
    net.third = (p(name="other"),)
    del net.third
    net.fourth = [p(name="other")]
    assert list(net.get_parameters()) == []    # plain lists and tuples register nothing (MindSpore 2.10)
    clone = copy.deepcopy(net)
    clone.fifth = (clone.fourth[0],)           # the copy's own Parameter, not a duplicate
    with pytest.raises(ValueError, match="its name 'other' already exists"):
        clone.sixth = [p(name="other")]


def test_reassigning_a_parameter_tuple_replaces_its_registration():
    net = nn.Cell()
    net.plist = ParameterTuple([p(name="x"), p(name="y")])
    net.plist = ParameterTuple([p(name="x")])
    assert [q.name for q in net.get_parameters()] == ["x"]
    net.plist = None
    assert list(net.get_parameters()) == []
    net.plist = ParameterTuple([p(name="x")])
    net.plist = [p(name="y")]                  # now a plain list: "x" is no longer its registration
    net.x = p(name="x")
    net.plist = None
    assert [q.name for q in net.get_parameters()] == ["x"]


def test_plain_attribute_duplicates_only_found_by_check_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = p(name="same")
            self.b = p(name="same")

    net = Net()
    with pytest.raises(ValueError) as info:
        net.check_names()
    assert str(info.value) == (
        "The value of b is Parameter (name=same, shape=(1,), dtype=Float32, requires_grad=True), "
        "its name 'same' already exists. Please set a unique name for the parameter.")
    DenseNet().check_names()


def test_update_parameters_name_and_param_prefix_seed_example():
    net = DenseNet()
    net.update_cell_prefix()
    assert net.dense.param_prefix == "dense"
    assert net.param_prefix == ""
    net.update_parameters_name("top.")
    assert [q.name for q in net.get_parameters()] == ["top.dense.weight", "top.dense.bias"]
    with pytest.raises(TypeError):
        net.update_parameters_name(3)


# ---------------------------------------------------------------- __setattr__ table (§9.1)


def test_parameter_lives_in_params_not_in_dict():
    net = Leaf()
    assert "b" not in net.__dict__ and net._params["b"] is net.b
    assert "b" in dir(net)


def test_tensor_assigned_to_parameter_attribute_sets_data_on_same_object():
    net = Leaf()
    before = net.b
    net.b = Tensor(np.array([7.0], np.float32))
    assert net.b is before
    np.testing.assert_array_equal(net.b.asnumpy(), [7.0])


def test_non_tensor_to_parameter_attribute_raises():
    net = Leaf()
    with pytest.raises(TypeError) as info:
        net.b = 3
    assert str(info.value) == ("Parameter 'b' already exists in network, can not assign this type: "
                               "'<class 'int'>' as a parameter.")


def test_non_cell_to_sub_cell_attribute_raises():
    net = Wrap(Leaf())
    with pytest.raises(TypeError) as info:
        net.net = 3
    assert str(info.value) == ("Sub cell 'net' already exists in network, can not assign this type: "
                               "'<class 'int'>' as a cell.")


def test_none_keeps_the_slot_and_drops_out_of_iteration():
    net = Wrap(Leaf())
    net.net = None
    assert "net" in net._cells and net.net is None
    assert list(net.cells()) == [] and list(net.get_parameters()) == []
    leaf = Leaf()
    leaf.b = None
    assert "b" in leaf._params and leaf.b is None and list(leaf.get_parameters()) == []
    leaf.b = p(2.0)
    assert leaf.b.name == "b"


def test_plain_tensor_is_a_plain_attribute():
    net = nn.Cell()
    t = Tensor(np.ones(2, np.float32))
    net.t = t
    assert net.__dict__["t"] is t and list(net.get_parameters()) == []


def test_parameter_before_init_raises():
    class Early(nn.Cell):
        def __init__(self):
            self.w = p()
            super().__init__()

    with pytest.raises(AttributeError, match=r"^For 'insert_param_to_cell', please call Cell.__init__\(\) firstly\.$"):
        Early()


def test_missing_attribute_message():
    with pytest.raises(AttributeError) as info:
        TestNet2().nope
    assert str(info.value) == "The 'TestNet2' object has no attribute 'nope'."


def test_del_removes_sub_cell_and_parameter():
    net = Wrap(Leaf())
    del net.net
    assert "net" not in net._cells and list(net.cells()) == []
    leaf = Leaf()
    del leaf.b
    assert list(leaf.get_parameters()) == []
    with pytest.raises(AttributeError):
        leaf.b


def test_reserved_names_phase_and_cells_and_method_cast():
    cell = nn.Cell()
    cell.phase = "x"   # MindSpore 2.10 sets it ('train' before)
    assert cell.phase == "x"
    with pytest.raises(AttributeError, match="'cells'"):
        nn.Cell().cells = []
    with pytest.raises(TypeError, match="can not define a method named 'cast'"):
        class WithCast(nn.Cell):
            def cast(self, x):
                return x
    with pytest.raises(TypeError, match="can not define an attribute named 'phase'"):
        class WithPhase(nn.Cell):
            phase = "p"

    class CastAttribute(nn.Cell):  # an attribute named cast (a primitive in MindSpore code) is fine
        def __init__(self):
            super().__init__()
            self.cast = nn.ReLU()

    assert isinstance(CastAttribute().cast, nn.ReLU)


# ---------------------------------------------------------------- structural methods (§9.3)


def test_insert_child_to_cell_seed_example_and_no_prefix():
    net1 = nn.ReLU()
    net2 = nn.Dense(2, 2)
    net1.insert_child_to_cell("child", net2)
    assert str(net1) == "ReLU(\n  (child): Dense(input_channels=2, output_channels=2, has_bias=True)\n)"
    assert net2.weight.name == "weight"


@pytest.mark.parametrize("name, value, error, message", [
    (3, nn.ReLU(), TypeError,
     "For 'insert_child_to_cell', the type of parameter 'child_name' must be str, but got <class 'int'>."),
    ("", nn.ReLU(), KeyError, "For 'insert_child_to_cell', the parameter 'child_name' can not be None and can "
                              "not contain '.' "),
    ("a.b", nn.ReLU(), KeyError, "For 'insert_child_to_cell', the parameter 'child_name' can not be None and "
                                 "can not contain '.' "),
    ("training", nn.ReLU(), KeyError, "For 'insert_child_to_cell', the training child cell already exists in "
                                      "the network.Cannot insert another child cell with the same name."),
    ("c", 3, TypeError, "For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, but "
                        "got type <class 'int'>."),
])
def test_insert_child_to_cell_errors(name, value, error, message):
    net = nn.Cell()
    with pytest.raises(error) as info:
        net.insert_child_to_cell(name, value)
    assert info.value.args[0] == message
    assert list(net._cells) == []


def test_insert_child_to_cell_replaces_existing_child():
    net = Wrap(Leaf())
    relu = nn.ReLU()
    net.insert_child_to_cell("net", relu)
    assert net.net is relu


def test_insert_param_to_cell_seed_example():
    net = DenseNet()
    net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
    assert str(net.bias) == "Parameter (name=bias, shape=(3,), dtype=Int64, requires_grad=True)"
    named = p(name="kept")
    net.insert_param_to_cell("other", named)
    assert net.other.name == "kept"


@pytest.mark.parametrize("name, value, error, message", [
    ("", p(), KeyError, "For 'insert_param_to_cell', the argument 'param_name' should not be None."),
    ("a.b", p(), KeyError, "For 'insert_param_to_cell', the argument 'param_name' should not contain'.' "),
    ("training", p(), KeyError, "For 'insert_param_to_cell', the training parameter already exists in the "
                                "network.Cannot insert another parameter with the same name."),
    ("w", Tensor([1.0]), TypeError, "For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if "
                                    "not None, but got <class 'npspore.common.tensor.Tensor'>."),
])
def test_insert_param_to_cell_errors(name, value, error, message):
    net = nn.Cell()
    with pytest.raises(error) as info:
        net.insert_param_to_cell(name, value)
    assert info.value.args[0] == message
    assert list(net._params) == []


def test_insert_param_to_cell_dot_allowed_when_not_checked():
    net = nn.Cell()
    net.insert_param_to_cell("a.b", p(), check_name_contain_dot=False)
    assert list(net._params) == ["a.b"]


def test_cells_and_name_cells_seed_examples():
    net = DenseNet()
    assert str(net.cells()) == "odict_values([Dense(input_channels=2, output_channels=2, has_bias=True)])"
    assert str(net.name_cells()) == ordered_dict_text(
        [("dense", "Dense(input_channels=2, output_channels=2, has_bias=True)")])
    names = [name for name, _ in net.cells_and_names() if name]
    assert names == ["dense"]


def test_cells_and_names_visits_a_shared_cell_once():
    relu = nn.ReLU()
    net = nn.Cell()
    net.a = relu
    net.b = relu
    assert [name for name, _ in net.cells_and_names()] == ["", "a"]
    assert list(net.name_cells()) == ["a"]


class NetC(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = nn.Buffer(ms.tensor([0, 0, 0]))
        self.dense_c = nn.Dense(5, 3)

    def construct(self, x):
        return self.dense_c(x) + self.buffer_c


class NetB(nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = nn.Buffer(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return self.net_c(x) + self.buffer_b


class NetA(nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


def test_get_sub_cell_seed_example():
    net_a = NetA(NetB(NetC()))
    net_c = net_a.get_sub_cell("net_b.net_c")
    assert f"net_c is {net_c}" == \
        "net_c is NetC(\n  (dense_c): Dense(input_channels=5, output_channels=3, has_bias=True)\n)"
    assert net_a.get_sub_cell("") is net_a
    with pytest.raises(AttributeError) as info:
        net_a.get_sub_cell("nope")
    assert str(info.value) == "NetA has no attribute `nope`"
    with pytest.raises(AttributeError, match="`buffer_a` is not an nn.Cell"):
        net_a.get_sub_cell("buffer_a")


def test_apply_seed_example_and_post_order():
    from npspore.common.initializer import One, initializer

    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))

    def func(cell):
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))

    assert net.apply(func) is net
    assert repr(net) == ("SequentialCell(\n  (0): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
                         "  (1): Dense(input_channels=2, output_channels=2, has_bias=True)\n)")
    assert str(net[0].weight.asnumpy()) == "[[1. 1.]\n [1. 1.]]"
    visited = []
    net.apply(lambda cell: visited.append(type(cell).__name__))
    assert visited == ["Dense", "Dense", "SequentialCell"]


def test_init_parameters_data_maps_each_parameter_to_itself():
    net = DenseNet()
    mapping = net.init_parameters_data()
    assert list(mapping) == [net.dense.weight, net.dense.bias]
    assert all(k is v for k, v in mapping.items())


def test_infer_param_pipeline_stage_returns_all_parameters():
    net = DenseNet()
    assert net.infer_param_pipeline_stage() == [net.dense.weight, net.dense.bias]


# ---------------------------------------------------------------- flags and modes (§9.4)


def test_add_flags_seed_example():
    net = DenseNet()
    assert net.get_flags() == {}
    assert net.add_flags(sink_mode=True) is net
    assert net.sink_mode is True
    assert str(net.get_flags()) == "{'sink_mode': True}"
    assert not hasattr(net.dense, "sink_mode")


def test_add_flags_recursive_seed_example():
    net = DenseNet()
    assert net.add_flags_recursive(sink_mode=True) is net
    assert net.sink_mode is True and net.dense.sink_mode is True


def test_flags_argument_of_init():
    assert nn.Cell(flags={"a": 1}).a == 1


def test_set_train_phase_and_training_flag():
    net = DenseNet()
    assert net.training is False and net.phase == "train" and net.requires_grad is False
    assert net.set_train() is net
    assert net.dense.training is True and net.dense.get_flags() == {"training": True}
    net.set_train(False)
    assert net.phase == "predict" and net.training is False and net.dense.training is False


def test_set_grad_only_this_cell():
    net = DenseNet()
    assert net.set_grad() is net
    assert net.requires_grad is True and net.dense.requires_grad is False


def test_to_float_casts_inputs_and_sets_flags():
    net = Wrap(nn.ReLU())
    assert net.to_float(ms.float16) is net
    assert net.get_flags() == {"fp16": True, "fp32": False, "bf16": False}
    assert net.net.get_flags() == {"fp16": True, "fp32": False, "bf16": False}
    out = net(Tensor(np.array([-1.0, 2.0], np.float32)))
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 2.0])
    ints = nn.Identity().to_float(ms.float16)(Tensor(np.array([1, 2], np.int32)))
    assert ints.dtype == ms.int32  # only floating-point inputs are cast


def test_cast_inputs_recurses_and_cast_param():
    net = nn.ReLU()
    x64, i32 = Tensor(np.ones(2)), Tensor(np.ones(2, np.int32))
    cast = net.cast_inputs((x64, [x64, i32], 3.0), ms.float16)
    assert cast[0].dtype == ms.float16 and cast[1][0].dtype == ms.float16 and cast[1][1] is i32
    assert isinstance(cast[1], list) and cast[2] == 3.0
    assert net.auto_cast_inputs((x64,))[0] is x64
    w = p()
    assert net.cast_param(w) is w
    assert net.to_float(ms.float16).cast_param(w).dtype == ms.float16


def test_to_float_rejects_other_dtypes():
    with pytest.raises(ValueError, match=r"^For 'to_float', the argument 'dst_type' must be mstype.float32, "
                                         r"mstype.float16 or mstype.bfloat16, but got type: .* and value: Int32\.$"):
        nn.ReLU().to_float(ms.int32)


def test_set_boost_and_recorded_settings():
    net = DenseNet()
    assert net.set_boost("less_bn") is net and net.dense.less_bn is True
    with pytest.raises(ValueError, match="less_bn"):
        net.set_boost("other")
    net.recompute(mp_comm_recompute=False)
    net.set_comm_fusion(2)
    net.set_param_ps()
    net.set_data_parallel()
    net.flatten_weights()
    net.offload()
    net.place("MS_WORKER", 0)
    assert net.shard(((2, 1),)) is net
    net.set_jit_config(object())
    with pytest.raises(ValueError, match="MS_WORKER"):
        net.place("MS_SERVER", 0)
    net.pipeline_stage = 1
    assert net.pipeline_stage == 1 and net.parameter_layout_dict == {}
    with pytest.raises(TypeError):
        net.pipeline_stage = -1


# ---------------------------------------------------------------- set_inputs / get_inputs (§7.3, §14b)


class ReluNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)


def test_set_inputs_positional_seed_example():
    net = ReluNet()
    assert net.get_inputs() is None
    input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
    net.set_inputs(input_dyn)
    inputs = net.get_inputs()
    assert isinstance(inputs, tuple) and len(inputs) == 1 and inputs[0] is input_dyn
    assert inputs[0].shape == (3, -1)
    out = net(Tensor(np.array([[-1.0] * 10] * 3, np.float32)))  # not enforced in PYNATIVE
    assert out.shape == (3, 10)


def test_set_inputs_keyword_form():
    net2 = ReluNet()
    input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
    net2.set_inputs(x=input_dyn)
    assert net2.get_inputs() == {"arg_specified_infos": [[0, input_dyn]], "total_arg_length": 1}
    with pytest.raises(ValueError, match="'y'"):
        net2.set_inputs(y=input_dyn)
    with pytest.raises(ValueError):
        net2.set_inputs(input_dyn, x=input_dyn)


# ---------------------------------------------------------------- calling (§9.7)


def test_call_runs_construct_with_keyword_arguments():
    class Arity(nn.Cell):
        def construct(self, x, y=2.0):
            return x * y

    net = Arity()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(net(x, y=3.0).asnumpy(), [3.0, 6.0])
    np.testing.assert_array_equal(net(x).asnumpy(), [2.0, 4.0])
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        net()


def test_cell_without_construct():
    with pytest.raises(AttributeError) as info:
        nn.Cell()(Tensor([1.0]))
    assert str(info.value) == "For 'Cell', the method 'construct' is not defined."


def test_compile_bookkeeping_attributes_exist():
    net = nn.ReLU()
    assert net.compile_cache == set() and net.arguments_key == "" and net.cls_name == "ReLU"


# ---------------------------------------------------------------- repr (§9.8)


def test_repr_tree_with_extend_repr():
    class Inner(nn.Cell):
        pass

    class WithExtend(nn.Cell):
        def extend_repr(self):
            return "k=3"

    class Mid(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mid = Mid()
            self.dense = nn.Dense(2, 1)
            self.relu = nn.ReLU()

    assert repr(Inner()) == "Inner()"
    assert repr(WithExtend()) == "WithExtend(k=3)"
    expected = ("Outer(\n"
                "  (mid): Mid(\n"
                "    (inner): Inner()\n"
                "  )\n"
                "  (dense): Dense(input_channels=2, output_channels=1, has_bias=True)\n"
                "  (relu): ReLU()\n"
                ")")
    assert repr(Outer()) == expected and str(Outer()) == expected


# ---------------------------------------------------------------- compiled calls go to npspore.jit


@pytest.fixture
def jit_calls(monkeypatch):
    import importlib

    jit_module = importlib.import_module("npspore.nn.cell")  # the names Cell calls, imported from npspore.jit
    calls = []
    monkeypatch.setattr(jit_module, "call_cell", lambda cell, args, kwargs: calls.append(("call", cell, args, kwargs)))
    monkeypatch.setattr(jit_module, "compile_cell", lambda cell, args, kwargs: calls.append(("compile", cell, args)))
    monkeypatch.setattr(jit_module, "cell_cache_info", lambda cell: {"cell": cell})
    return calls


def test_graph_mode_and_jit_flag_delegate_to_npspore_jit(jit_calls):
    net = DenseNet()
    x = Tensor(np.ones((1, 2), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net(x, k=1)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    net._jit = True
    net(x)
    assert jit_calls == [("call", net, (x,), {"k": 1}), ("call", net, (x,), {})]
    jit_calls.clear()
    assert net.compile(x) is None
    net.compile_and_run(x)
    assert jit_calls == [("compile", net, (x,)), ("call", net, (x,), {})]
    assert net.cache_info() == {"cell": net}


def test_graph_mode_runs_the_compiled_construct():
    net = DenseNet()
    x = Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32))
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = net(x).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(compiled, eager, rtol=1e-6)
    assert len(net.compile_cache) == 1
