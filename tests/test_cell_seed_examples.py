"""The nn.Cell seed page's examples (seeds/001) that other test files do not run, each printing the
page's text. The page's examples are flattened onto one line, so outputs are compared with
whitespace removed (``{'sink_mode':True}`` on the page is Python's ``{'sink_mode': True}``).
"""
import numpy as np
import pytest

import npspore as ms
import npspore.nn as nn
from npspore import Parameter, Tensor, ops
from npspore import dtype as mstype


def assert_page_output(capsys, page_text):
    printed = capsys.readouterr().out
    assert "".join(printed.split()) == "".join(page_text.split()), printed


def test_cell_class_example_auto_prefix_false(capsys):
    class MyCell(nn.Cell):
        def __init__(self, forward_net):
            super(MyCell, self).__init__(auto_prefix=False)
            self.net = forward_net
            self.relu = ops.ReLU()

        def construct(self, x):
            y = self.net(x)
            return self.relu(y)

    inner_net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
    my_net = MyCell(inner_net)
    print(my_net.trainable_params())
    assert_page_output(capsys, "[Parameter (name=weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]")


def test_cells_and_names_example():
    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.conv = nn.Conv2d(3, 64, 3)

        def construct(self, x):
            out = self.conv(x)
            return out

    names = []
    n = Net()
    for m in n.cells_and_names():
        if m[0]:
            names.append(m[0])
    assert names == ["conv"]


class ReluNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x


def test_get_flags_example(capsys):
    net = ReluNet()
    net.add_flags(sink_mode=True)
    print(net.get_flags())
    assert_page_output(capsys, "{'sink_mode':True}")


def test_get_inputs_example(capsys):
    net = ReluNet()
    input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
    net.set_inputs(input_dyn)
    get_inputs = net.get_inputs()
    print(get_inputs)
    assert_page_output(capsys, "(Tensor(shape=[3, -1], dtype=Float32, value= ),)")


def test_init_parameters_data_example(capsys):
    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.dense = nn.Dense(2, 2)

        def construct(self, x):
            x = self.dense(x)
            return x

    net = Net()
    print(net.init_parameters_data())
    assert_page_output(capsys, "{Parameter (name=dense.weight, shape=(2,2), dtype=Float32, requires_grad=True): "
                               "Parameter (name=dense.weight, shape=(2,2), dtype=Float32, requires_grad=True), "
                               "Parameter (name=dense.bias, shape=(2,), dtype=Float32, requires_grad=True): "
                               "Parameter (name=dense.bias, shape=(2,), dtype=Float32, requires_grad=True)}")


def test_offload_example_with_lazy_inline():
    class Block(nn.Cell):
        def __init__(self):
            super(Block, self).__init__()
            self.transpose1 = ops.Transpose()
            self.real_div1 = ops.RealDiv()
            self.y = Parameter(Tensor(np.ones((4, 8, 8)).astype(np.float32)))  # the page: (1024, 128, 128)

        def construct(self, x):
            transpose1 = self.transpose1(x, (0, 2, 1, 3))
            return self.real_div1(transpose1, Tensor(2.37891))

    class OuterBlock(nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super(OuterBlock, self).__init__()
            self.block = Block()

        def construct(self, x):
            return self.block(x)

    class Nets(nn.Cell):
        def __init__(self):
            super(Nets, self).__init__()
            self.blocks = nn.CellList()
            for _ in range(3):
                b = OuterBlock()
                b.offload()
                self.blocks.append(b)

        def construct(self, x):
            out = x
            for i in range(3):
                out = self.blocks[i](out)
            return out

    out = Nets()(Tensor(np.ones((1, 2, 2, 2), np.float32)))  # offload takes no effect
    np.testing.assert_allclose(out.asnumpy(), np.full((1, 2, 2, 2), 2.37891 ** -3, np.float32), rtol=1e-6)


def test_place_and_set_data_parallel_examples_are_accepted(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        fc = nn.Dense(2, 3)
        fc.place('MS_WORKER', 0)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    net = nn.Dense(3, 4)
    net.set_data_parallel()
    assert capsys.readouterr().out == ""


def test_set_jit_config_example():
    net = ReluNet()
    jitconfig = ms.JitConfig()
    net.set_jit_config(jitconfig)
    assert jitconfig.jit_config_dict["jit_level"] == "" and jitconfig.jit_config_dict["exc_mode"] == "auto"
    out = net(Tensor(np.array([-1.0, 2.0], np.float32)))
    assert out.asnumpy().tolist() == [0.0, 2.0]


def test_shard_example_defines_its_cells():
    # The page's example only defines the classes (its Block calls nn.Dense2, which does not exist).
    class Block(nn.Cell):
        def __init__(self):
            self.dense1 = nn.Dense(10, 10)

    class Example(nn.Cell):
        def __init__(self):
            self.block1 = Block()

    net = nn.Dense(10, 10)
    assert net.shard(in_strategy=((2, 1),), parameter_plan={'self.block2.shard.dense1.weight': (4, 1)}) is net


def test_to_float_example(capsys):
    net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
    print(net.to_float(mstype.float16))
    assert_page_output(capsys, "Conv2d(input_channels=120, output_channels=240, kernel_size=(4, 4), stride=(1, 1), "
                               "pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, "
                               "weight_init=normal, bias_init=None, format=NCHW)")


def test_jit_config_and_lazy_inline_validate():
    with pytest.raises(ValueError, match="jit_level"):
        ms.JitConfig(jit_level="O9")
    with pytest.raises(ValueError, match="policy"):
        ms.lazy_inline(policy="back")

    class Keeps(nn.Cell):
        @ms.lazy_inline(attrs="width")
        def __init__(self, width=3):
            super().__init__()

    assert Keeps().width == 3
