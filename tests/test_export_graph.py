"""The export graph (``npspore.export.graph``) and the pipeline's export stop point: the typed IR before
the steps that only serve NumPy execution, with calls inlined, Parameters as initializers, implicit
casts explicit and the user's lines kept."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.compiler import ir, pipeline
from npspore.export.graph import Constant, ExportError, IfNode, LoopNode, Node, export_graph, walk_nodes
from npspore.jit import forward_request


class Stacked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.rnn = nn.LSTM(4, 5, batch_first=True)

    def construct(self, x):
        h = self.bn(self.conv(x))
        out, _ = self.rnn(h.mean(1))
        return out


def _ops(graph) -> list:
    return [n.op for n in walk_nodes(graph.nodes) if isinstance(n, Node)]


def test_the_stop_point_is_before_the_numpy_only_steps():
    request = forward_request(Stacked(), (Tensor(np.ones((128, 2, 64, 4), np.float32)),))   # large: released
    exported = pipeline.export_program(request).module
    optimized = pipeline.run_stages(request, "optimize").module

    def numpy_only(module):
        found = set()
        for function in module.functions.values():
            for stmt in ir.walk_stmts(function.body):
                if isinstance(stmt, ir.Effect) and stmt.kind == "release":
                    found.add("release")
                if isinstance(stmt, ir.Apply) and (stmt.into is not None or stmt.op.endswith("_in_place")):
                    found.add("in place")
        return found

    assert numpy_only(optimized) == {"release", "in place"}
    assert numpy_only(exported) == set()


def test_calls_are_inlined_and_parameters_are_initializers():
    net = Stacked()
    net.set_train(True)
    graph = export_graph(net, Tensor(np.ones((2, 2, 4, 4), np.float32)))
    assert net.training
    assert [v.name for v in graph.inputs] == ["x"] and graph.inputs[0].shape == (2, 2, 4, 4)
    parameters = {p.name: p.asnumpy() for p in net.get_parameters()}
    assert sorted(i.value.name for i in graph.initializers) == sorted(parameters)
    for init in graph.initializers:
        np.testing.assert_array_equal(init.array, parameters[init.value.name])
    ops_used = _ops(graph)
    assert "conv2d" in ops_used and "conv2d_columns" not in ops_used   # the columns GEMM folded back
    assert "row" in ops_used and "row_add" in ops_used and not any(op.endswith("_in_place") for op in ops_used)
    assert sum(isinstance(n, LoopNode) and n.kind == "for" for n in graph.nodes) == 1
    assert "dropout_mask" not in ops_used and ops_used.count("mean") == 1   # inference: BatchNorm's moving stats
    names = [v.name for n in walk_nodes(graph.nodes) for v in getattr(n, "outputs", ())]
    assert len(names) == len(set(names))


class Branchy(nn.Cell):
    def construct(self, x, i):
        if x.sum() > 0:
            y = x + 1
        else:
            y = x * i
        return y < 2.5, y


def test_implicit_casts_are_explicit_and_locations_are_the_users():
    graph = export_graph(Branchy(), Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.int32)))
    branch = next(n for n in graph.nodes if isinstance(n, IfNode))
    multiply = next(n for n in branch.else_graph.nodes if isinstance(n, Node) and n.op == "mul")
    cast = next(n for n in branch.else_graph.nodes if isinstance(n, Node) and n.op == "cast")
    assert cast.attrs["dtype"] == np.float32 and multiply.inputs[1] is cast.outputs[0]
    add = next(n for n in branch.then_graph.nodes if isinstance(n, Node) and n.op == "add")
    assert isinstance(add.inputs[1], Constant) and add.inputs[1].value.dtype == np.float32
    assert add.loc.file == __file__ and "y = x + 1" in open(__file__).read().splitlines()[add.loc.line - 1]


def test_set_inputs_dims_stay_dynamic():
    net = nn.Dense(3, 2)
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    graph = export_graph(net, Tensor(np.ones((4, 3), np.float32)))
    assert graph.inputs[0].shape == (None, 3) and graph.outputs[0].shape == (None, 2)


def test_what_no_export_holds_is_refused():
    net = nn.Dense(3, 2)
    net.register_forward_hook(lambda cell, inputs, output: output * 2)
    with pytest.raises(ExportError, match="forward hooks or to_float"):
        export_graph(net, Tensor(np.ones((1, 3), np.float32)))
    with pytest.raises(ExportError, match="forward hooks or to_float"):
        export_graph(nn.Dense(3, 2).to_float(ms.float16), Tensor(np.ones((1, 3), np.float32)))
