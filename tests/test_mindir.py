"""MindIR: files written by the real MindSpore 2.10 load with ``npspore.load`` and run in ``nn.GraphCell``
with MindSpore's outputs; damaged files are refused naming the file, within bounded memory; npspore's
writer uses MindSpore's primitives and attributes (the real MindSpore's check is
tools/check_mindir_in_mindspore.py, which needs a MindSpore virtualenv).

The fixtures in tests/fixtures/ were written by tools/make_mindir_fixtures.py running MindSpore 2.10 CPU.
"""
import importlib.util
import os

import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops
from npspore.core.safefile import FileReadError
from npspore.export import export
from npspore.export.graph import ExportError
from npspore.export.mindir_ops import MINDIR_FORMS, NO_MINDIR_FORM
from npspore.export.mindir_writer import mindir_bytes
from npspore.opdef import op_table
from npspore.train.mindir_proto import model_message

from limited_process import load_in_limited_process
import test_export_onnx as onnx_tests
from test_export_onnx import SAMPLES, _one_op_graph, assert_computes_the_forward

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
MS_MODELS = ["ms_lenet5", "ms_resblock", "ms_if_while"]
STRAIGHT_LINE_MODELS = ["ms_lenet5", "ms_resblock"]   # no control flow: GraphCell compiles them under jit


def _fixture(name):
    return os.path.join(FIXTURES, name + ".mindir"), np.load(os.path.join(FIXTURES, name + ".npz"))


def _model(path):
    model = model_message()()
    with open(path, "rb") as file:
        model.ParseFromString(file.read())
    return model


# ------------------------------------------------------------------- MindSpore's files in npspore

@pytest.mark.parametrize("name", MS_MODELS)
def test_mindspore_files_run_in_graph_cell_with_mindspores_outputs(name):
    path, data = _fixture(name)
    graph = ms.load(path)
    y = nn.GraphCell(graph)(ms.Tensor(data["x"]))
    np.testing.assert_allclose(y.asnumpy(), data["y"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), data["y_loaded"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", STRAIGHT_LINE_MODELS)
def test_mindspore_files_compile_under_jit(name):
    path, data = _fixture(name)
    compiled = ms.jit(nn.GraphCell(ms.load(path)))
    y = compiled(ms.Tensor(data["x"]))
    np.testing.assert_allclose(y.asnumpy(), data["y"], rtol=1e-5, atol=1e-6)
    assert compiled.cache_info()["compiles"] == 1
    assert "def GraphCell_construct(" in compiled.kernel_source(ms.Tensor(data["x"]))


def test_graph_cell_parameters_have_mindspores_names_and_params_init_replaces_them():
    path, data = _fixture("ms_lenet5")
    graph = ms.load(path)
    cell = nn.GraphCell(graph)
    assert sorted(cell.parameters_dict()) == sorted(    # MindSpore's Conv2d has no bias by default
        ["conv1.weight", "conv2.weight"] + [f"fc{k}.{kind}" for k in (1, 2, 3) for kind in ("weight", "bias")])
    zero_bias = ms.Tensor(np.zeros(10, np.float32))
    zero_weight = ms.Tensor(np.zeros((10, 84), np.float32))
    y = nn.GraphCell(graph, params_init={"fc3.weight": zero_weight, "fc3.bias": zero_bias})(ms.Tensor(data["x"]))
    np.testing.assert_array_equal(y.asnumpy(), np.zeros((1, 10), np.float32))
    with pytest.raises(KeyError, match="fc9.bias"):
        nn.GraphCell(graph, params_init={"fc9.bias": zero_bias})
    with pytest.raises(ValueError, match="fc3.bias"):
        nn.GraphCell(graph, params_init={"fc3.bias": zero_weight})


def test_graph_cell_refuses_what_load_did_not_return_and_obfuscation():
    with pytest.raises(TypeError, match="'graph' must be what 'load' returns"):
        nn.GraphCell("lenet.mindir")
    with pytest.raises(ValueError, match="obfuscated"):
        nn.GraphCell(ms.load(_fixture("ms_resblock")[0]), obf_random_seed=3)


def test_load_checks_its_arguments(tmp_path):
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.load(str(tmp_path / "net.onnx"))
    with pytest.raises(ValueError, match="must be string"):
        ms.load(3)
    with pytest.raises(ValueError, match="dec_key"):
        ms.load(_fixture("ms_lenet5")[0], dec_key=b"0" * 16)
    with pytest.raises(FileReadError, match="missing.mindir"):
        ms.load(str(tmp_path / "missing.mindir"))


@pytest.mark.parametrize("op_type", ["FancyReLU", "__import__('os').system('touch pwned')"])
def test_a_primitive_npspore_does_not_run_fails_at_load_naming_it_and_is_never_evaluated(tmp_path, op_type):
    model = _model(_fixture("ms_resblock")[0])
    next(p for p in model.primitives if p.op_type == "ReLU").op_type = op_type
    path = tmp_path / "unknown.mindir"
    path.write_bytes(model.SerializeToString())
    with pytest.raises(FileReadError, match="which npspore does not run") as info:
        ms.load(str(path))
    assert info.value.path == str(path) and f"the primitive '{op_type}'" in str(info.value)
    assert not os.path.exists("pwned")


# ------------------------------------------------------------------------------ damaged files

def _deeply_nested_constant(depth):
    """The ResNet block with one constant's value nested ``depth`` tuples deep."""
    model = _model(_fixture("ms_resblock")[0])
    constant = next(node for node in model.graph.node if node.op_type == "Constant")
    value = constant.attribute[0]
    value.Clear()
    value.name, value.type = "value", 20   # TUPLE
    for _ in range(depth):
        value = value.values.add(type=20)
    return model.SerializeToString()


def _raw_deep_nesting(depth):
    """A ModelProto whose graph holds groups nested ``depth`` deep (wire types 3/4 of an unknown field)."""
    inner = b"\x2b" * depth + b"\x2c" * depth   # field 5, start/end group
    return b"\x3a" + _varint(len(inner)) + inner   # ModelProto.graph (field 7), length-delimited


def _varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _with_huge_parameter():
    model = _model(_fixture("ms_resblock")[0])
    del model.graph.parameter[0].dims[:]
    model.graph.parameter[0].dims.extend([2 ** 40, 2 ** 40])
    return model.SerializeToString()


def _with_huge_input():
    model = _model(_fixture("ms_resblock")[0])
    model.graph.input[0].tensor[0].dims[0] = 2 ** 62
    model.graph.input[0].tensor[0].dims.extend([2 ** 62] * 3)
    return model.SerializeToString()


def _with_empty_huge_constant():
    model = _model(_fixture("ms_resblock")[0])
    constant = next(node for node in model.graph.node if node.op_type == "Constant")
    value = constant.attribute[0]
    value.Clear()
    value.name, value.type = "value", 19   # TENSORS
    value.tensors.add(dims=[0, 2 ** 62, 2 ** 62], data_type=1)
    return model.SerializeToString()


def _reading_an_undefined_value():
    model = _model(_fixture("ms_resblock")[0])
    model.graph.node[3].input[0] = "nowhere"
    return model.SerializeToString()


def _name_not_utf8():
    data = open(_fixture("ms_resblock")[0], "rb").read()
    return data.replace(b"Conv2D:4", b"Conv2D:\xff", 1)   # the first node's op_type: REF::Conv2D:4


DAMAGED = {
    "garbage": b"this is not a MindIR file\n" * 40,
    "empty": b"",
    "huge parameter dims": _with_huge_parameter(),
    "huge input dims": _with_huge_input(),
    "empty tensor of huge dims": _with_empty_huge_constant(),
    "tuples nested 60 deep": _deeply_nested_constant(60),
    "groups nested 100000 deep": _raw_deep_nesting(100000),
    "reads an undefined value": _reading_an_undefined_value(),
    "a name not UTF-8": _name_not_utf8(),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_damaged_file_is_refused_naming_it(tmp_path, case):
    path = tmp_path / "bad.mindir"
    path.write_bytes(DAMAGED[case])
    with pytest.raises(FileReadError, match="bad.mindir") as info:
        ms.load(str(path))
    assert info.value.path == str(path)


def test_damaged_files_are_refused_within_a_memory_limit(tmp_path):
    paths = []
    for index, case in enumerate(sorted(DAMAGED)):
        paths.append(tmp_path / f"bad{index}.mindir")
        paths[-1].write_bytes(DAMAGED[case])
    returncode, output = load_in_limited_process("ms.load(path)", paths)
    assert returncode == 0 and output.count("refused:") == len(DAMAGED), output
    assert all(f"bad{index}.mindir" in output for index in range(len(DAMAGED)))


def test_a_file_over_protobufs_2_gib_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.mindir"
    with open(path, "wb") as file:
        file.truncate(2 ** 31)   # sparse: no disk space taken
    returncode, output = load_in_limited_process("ms.load(path)", [path])
    assert returncode == 0 and "refused: FileReadError" in output and "huge.mindir" in output, output
    assert "holds 2147483648 bytes, more than the 2147483647" in output


def test_a_fifo_and_a_link_to_dev_zero_are_refused_within_a_memory_limit(tmp_path):
    fifo = tmp_path / "pipe.mindir"
    os.mkfifo(fifo)
    link = tmp_path / "zero.mindir"
    link.symlink_to("/dev/zero")
    returncode, output = load_in_limited_process("ms.load(path)", [fifo, link], timeout=60)
    assert returncode == 0 and output.count("refused:") == 2, output
    assert "pipe.mindir: it is a FIFO" in output and "zero.mindir: it is a character device" in output


@pytest.mark.parametrize("name", ["ms_resblock", "ms_if_while"])
def test_every_sixteenth_truncation_and_bit_flips_load_or_are_refused_within_a_memory_limit(tmp_path, name):
    data = open(_fixture(name)[0], "rb").read()
    variants = [data[:len(data) * k // 16] for k in range(16)]
    positions = range(0, len(data), max(1, len(data) // 97))
    variants += [data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1:] for i in positions for bit in (0, 3, 7)]
    paths = []
    for index, variant in enumerate(variants):
        paths.append(tmp_path / f"v{index}.mindir")
        paths[-1].write_bytes(variant)
    inputs = os.path.join(FIXTURES, name + ".npz")   # a file that loads also runs: to its result or a ValueError
    run = f"ms.nn.GraphCell(ms.load(path))(ms.Tensor(__import__('numpy').load({inputs!r})['x']))"
    returncode, output = load_in_limited_process(run, paths, timeout=300)
    assert returncode == 0, output
    lines = output.splitlines()
    assert len(lines) == len(variants), output
    refused = [line for line in lines if line.startswith("refused: FileReadError: Failed to")]
    ran = [line for line in lines if line.startswith("loaded:")]
    failed_to_run = [line for line in lines if line not in refused and line not in ran]
    assert all(f"v{k}.mindir" in "\n".join(refused) for k in range(1, 16)), output   # every truncation refused
    assert all(".mindir" in line for line in refused) and ran
    assert all(line.startswith(("refused: OpShapeError:", "refused: ValueError:")) for line in failed_to_run), output


def test_checkpoint_and_mindir_loading_share_one_reader():
    from npspore.core import protofile
    from npspore.train import checkpoint_decode, mindir_decode
    assert checkpoint_decode.parse_bytes is protofile.parse_bytes
    assert mindir_decode.parse_file is protofile.parse_file
    assert checkpoint_decode.checked_shape is mindir_decode.checked_shape is protofile.checked_shape
    assert checkpoint_decode.elements_of is mindir_decode.elements_of is protofile.elements_of


# --------------------------------------------------------------------------------- the writer

def _fixture_networks():
    """The networks of tools/make_mindir_fixtures.py, built with npspore's nn."""
    path = os.path.join(os.path.dirname(__file__), "..", "tools", "make_mindir_fixtures.py")
    spec = importlib.util.spec_from_file_location("make_mindir_fixtures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {name: net for name, (net, _) in module.networks(nn).items()}


def _with_mindspores_weights(net, name):
    graph = ms.load(_fixture(name)[0])
    for param in net.get_parameters():
        param.set_data(ms.Tensor(graph.parameters[param.name]))
    return net


def _attributes(model, op_type):
    """The attributes of each primitive ``op_type`` of a model, as sorted text, without MindSpore's
    bookkeeping (input and output names)."""
    return sorted(sorted(str(a) for a in primitive.attribute if a.name not in ("input_names", "output_names"))
                  for primitive in model.primitives if primitive.op_type == op_type)


def test_npspores_lenet5_uses_mindspores_primitives_and_attributes(tmp_path):
    path, data = _fixture("ms_lenet5")
    net = _with_mindspores_weights(_fixture_networks()["ms_lenet5"], "ms_lenet5")
    export(net, ms.Tensor(data["x"]), file_name=str(tmp_path / "lenet"), file_format="MINDIR")
    ours, theirs = _model(str(tmp_path / "lenet.mindir")), _model(path)
    # npspore's program has Flatten as a reshape and Dense's BiasAdd as an Add; no monads (Load, UpdateState)
    assert {p.op_type for p in ours.primitives} == {"Conv2D", "ReLU", "MaxPool", "Reshape", "MatMul", "Add"}
    assert {"Conv2D", "ReLU", "MaxPool", "MatMul"} <= {p.op_type for p in theirs.primitives}
    for op_type in ("Conv2D", "MaxPool"):
        assert _attributes(ours, op_type) == _attributes(theirs, op_type) != []
    assert [(t.ref_key, list(t.dims)) for t in ours.graph.parameter] == [
        (t.ref_key, list(t.dims)) for t in theirs.graph.parameter]


@pytest.mark.parametrize("name", MS_MODELS)
def test_npspores_file_of_the_same_network_runs_in_graph_cell_with_mindspores_outputs(tmp_path, name):
    _, data = _fixture(name)
    net = _with_mindspores_weights(_fixture_networks()[name], name)
    export(net, ms.Tensor(data["x"]), file_name=str(tmp_path / "net"), file_format="MINDIR")
    cell = nn.GraphCell(ms.load(str(tmp_path / "net.mindir")))
    np.testing.assert_allclose(cell(ms.Tensor(data["x"])).asnumpy(), data["y"], rtol=1e-5, atol=1e-6)


def test_an_op_without_a_mindir_form_fails_at_export_naming_it_and_the_line(tmp_path):
    x, labels = ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.array([0, 2], np.int32))
    with pytest.raises(ExportError, match="'class_indices' to MindIR") as info:   # it checks the labels
        export(onnx_tests.SparseLoss(), x, labels, file_name=str(tmp_path / "loss"), file_format="MINDIR")
    assert "test_export_onnx.py" in str(info.value) and "ops.cross_entropy(self.fc(x), labels)" in str(info.value)
    assert not os.path.exists(tmp_path / "loss.mindir")


def test_every_op_has_a_mindir_form_or_a_reason():
    names = {definition.name for definition in op_table().definitions()}
    assert not set(MINDIR_FORMS) & set(NO_MINDIR_FORM)
    assert set(MINDIR_FORMS) | set(NO_MINDIR_FORM) == names, sorted(names - set(MINDIR_FORMS) - set(NO_MINDIR_FORM))
    assert all(len(reason) > 20 for reason in NO_MINDIR_FORM.values())


# one op at a time: the samples of the ONNX tests, written as MindIR and run back in npspore's GraphCell

# samples whose attributes MindSpore's primitive cannot express: the writer refuses them, naming the op
REFUSED_SAMPLES = {
    ("sum_pool2d", 0): "AvgPool has no dilation",
}
WRITTEN_SAMPLES = [(op, k) for op in SAMPLES for k in range(len(SAMPLES[op])) if op in MINDIR_FORMS]


@pytest.mark.parametrize("op, index", WRITTEN_SAMPLES)
def test_mindir_form_computes_the_ops_forward_in_graph_cell(tmp_path, op, index):
    operands, static = SAMPLES[op][index]
    graph, arrays, dtypes = _one_op_graph(op, operands, static)
    if (op, index) in REFUSED_SAMPLES:
        with pytest.raises(ExportError, match=f"'{op}' to MindIR"):
            mindir_bytes(graph)
        return
    path = tmp_path / "op.mindir"
    path.write_bytes(mindir_bytes(graph))
    got = nn.GraphCell(ms.load(str(path)))(*[ms.Tensor(a) for a in arrays])
    got = tuple(v.asnumpy() for v in (got if isinstance(got, tuple) else (got,)))
    assert_computes_the_forward(got, op, operands, static, dtypes)


class ConstantGather(nn.Cell):
    def construct(self, x):
        return ops.gather(x, ms.Tensor(np.array([2, 0], np.int32)), 1)


def test_a_gathers_constant_indices_are_written_as_integers(tmp_path):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    export(ConstantGather(), ms.Tensor(x), file_name=str(tmp_path / "g"), file_format="MINDIR")
    model = _model(str(tmp_path / "g.mindir"))
    gather = next(node for node in model.graph.node if node.op_type.startswith("REF::Gather"))
    indices = next(node for node in model.graph.node if node.output[0] == gather.input[1])
    assert indices.attribute[0].tensors[0].data_type == 6   # INT32, as the Tensor was made
    y = nn.GraphCell(ms.load(str(tmp_path / "g.mindir")))(ms.Tensor(x))
    np.testing.assert_array_equal(y.asnumpy(), x[:, [2, 0]])


class OnlyIf(nn.Cell):
    """A tensor ``if`` and no loop: GraphCell compiles its graph."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Dense(4, 3)

    def construct(self, x):
        y = ops.tanh(self.scale(x))
        return y * 3 if x.sum() > 0 else y - 2   # x * -1 takes the other branch


@pytest.mark.parametrize("make, shape, compiles", [
    (onnx_tests.LeNet5, (2, 1, 28, 28), True), (onnx_tests.ResidualBlock, (2, 4, 8, 8), True),
    (onnx_tests.LSTMClassifier, (2, 5, 8), False), (onnx_tests.Encoder, (2, 6, 16), True),
    (onnx_tests.ControlFlowMLP, (3, 6), False), (OnlyIf, (3, 4), True)],
    ids=["lenet5", "resnet_block", "lstm_classifier", "transformer_encoder", "mlp_if_while_for", "mlp_if"])
def test_npspores_files_of_the_export_models_run_in_graph_cell(tmp_path, make, shape, compiles):
    net = make()
    onnx_tests._randomize(net, 3)
    x = ms.Tensor(np.random.default_rng(4).standard_normal(shape).astype(np.float32))
    export(net, x, file_name=str(tmp_path / "net"), file_format="MINDIR")
    net.set_train(False)
    cell = nn.GraphCell(ms.load(str(tmp_path / "net.mindir")))
    runs = [cell, ms.jit(cell)] if compiles else [cell]   # a graph with a while loop runs eagerly only
    for run in runs:
        for sign in (1, -1):   # both branches of an if
            got, want = run(x * sign), net(x * sign)
            for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
                np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)


def test_a_graph_calling_itself_other_than_as_a_loop_is_refused(tmp_path):
    model = _model(_fixture("ms_if_while")[0])
    branch = next(f for f in model.functions if f.node and all(not n.op_type.startswith("REF::Switch")
                                                               for n in f.node))
    branch.node[-1].op_type = "REF::" + branch.name
    path = tmp_path / "recursive.mindir"
    path.write_bytes(model.SerializeToString())
    with pytest.raises(FileReadError, match="calls itself other than as a loop"):
        ms.load(str(path))


def test_cli_exports_mindir_that_graph_cell_runs(tmp_path):
    done = onnx_tests.cli_export_mlp("mindir", tmp_path / "mlp")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "mlp.mindir")
    from npspore.examples import MLP
    x = ms.Tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    net = MLP()
    net.set_train(False)
    y = nn.GraphCell(ms.load(str(tmp_path / "mlp.mindir")))(x)
    np.testing.assert_allclose(y.asnumpy(), net(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_a_dynamic_dim_of_set_inputs_is_written_as_minus_one_and_runs_for_any_size(tmp_path):
    from npspore.examples import MLP
    net = MLP()
    net.set_inputs(ms.Tensor(shape=[None, 4], dtype=ms.float32))
    export(net, ms.Tensor(np.ones((5, 4), np.float32)), file_name=str(tmp_path / "dyn"), file_format="MINDIR")
    graph = ms.load(str(tmp_path / "dyn.mindir"))
    assert graph.inputs == (("x", (-1, 4), np.dtype(np.float32)),)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((7, 4)).astype(np.float32))
    net.set_train(False)
    np.testing.assert_allclose(nn.GraphCell(graph)(x).asnumpy(), net(x).asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(onnx_tests.LAYERS))
def test_npspores_files_of_more_layers_run_in_graph_cell(tmp_path, name):
    make, args = onnx_tests.LAYERS[name]
    net = make()
    export(net, *[tuple(map(ms.Tensor, a)) if isinstance(a, tuple) else ms.Tensor(a) for a in args],
           file_name=str(tmp_path / name), file_format="MINDIR")
    flat = [ms.Tensor(x) for a in args for x in (a if isinstance(a, tuple) else (a,))]
    got = nn.GraphCell(ms.load(str(tmp_path / f"{name}.mindir")))(*flat)
    got = [v.asnumpy() for v in (got if isinstance(got, tuple) else (got,))]
    want = onnx_tests._forward(net, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
