"""Check that the real MindSpore loads npspore's MindIR files and runs them with npspore's outputs.

Run from the repository root with npspore's Python, naming a Python that has MindSpore 2.10 installed:

    .venv/bin/python tools/check_mindir_in_mindspore.py /work/msvenv/bin/python [--all]

For each model of tests/test_export_onnx.py, the set the ONNX export is checked on (the quick start's
LeNet-5, a ResNet block with BatchNorm, Dropout and AvgPool, a two-layer bidirectional LSTM classifier
with two outputs, a two-layer Transformer encoder, an MLP with a tensor ``if``, a ``while`` and a
``for range`` loop), it exports the network with ``npspore.export.export(net, x, file_name=...,
file_format="MINDIR")`` (in eval mode), runs npspore's forward on the same fixed input, then in the
MindSpore Python runs ``nn.GraphCell(mindspore.load(file))(x)`` and prints the largest difference
over the outputs. A model npspore cannot export prints the error instead. With ``--all`` it also
exports each layer of that file's ``LAYERS`` (GRU, RNN, LSTMCell, Embedding, Conv2dTranspose, ...)
the same way, and writes one graph per op sample of its ``SAMPLES`` that the MindIR writer writes,
comparing MindSpore's result with the op's forward. The exit status is 0 only if everything matches
within rtol 1e-5, atol 1e-6 (outputs of the same dtype and shape). The test extra is needed (those
tests import onnx and onnxruntime).
"""
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np

import npspore as ms
from npspore.export import export

_RUN_IN_MINDSPORE = textwrap.dedent("""
    import sys
    import numpy as np
    import mindspore as ms
    from mindspore import nn
    for path in sys.argv[1:]:
        data = np.load(path[:-len(".mindir")] + ".npz")
        inputs = [data[f"x{k}"] for k in range(sum(name.startswith("x") for name in data.files))]
        expected = [data[f"y{k}"] for k in range(sum(name.startswith("y") for name in data.files))]
        try:
            out = nn.GraphCell(ms.load(path))(*[ms.Tensor(x) for x in inputs])
            out = [v.asnumpy() for v in (out if isinstance(out, (tuple, list)) else [out])]
            ok = len(out) == len(expected) and all(
                y.shape == e.shape and y.dtype == e.dtype and np.allclose(y, e, rtol=1e-5, atol=1e-6)
                for y, e in zip(out, expected))
            gap = max(float(np.abs(y.astype(np.float64) - e).max(initial=0)) for y, e in zip(out, expected))
            print(f"{path.rsplit('/', 1)[-1]:<28} {'ok' if ok else 'DIFFERS':<8} "
                  f"max |MindSpore - npspore| = {gap:.3g}", flush=True)
        except Exception as error:
            message = " ".join(str(error).split())[:160]
            print(f"{path.rsplit('/', 1)[-1]:<28} FAILED   {type(error).__name__}: {message}", flush=True)
    """)


def _onnx_tests():
    """tests/test_export_onnx.py, whose models, layers and op samples the ONNX export is checked on."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    import test_export_onnx
    return test_export_onnx


def _models(onnx_tests):
    """``{name: (Cell class, input shape)}``: the five models of the ONNX check."""
    return {"lenet5": (onnx_tests.LeNet5, (2, 1, 28, 28)), "resnet_block": (onnx_tests.ResidualBlock, (2, 4, 8, 8)),
            "lstm_classifier": (onnx_tests.LSTMClassifier, (2, 5, 8)),
            "transformer_encoder": (onnx_tests.Encoder, (2, 6, 16)),
            "mlp_if_while_for": (onnx_tests.ControlFlowMLP, (3, 6))}


def main(mindspore_python):
    """Export every model (with ``--all`` also every layer and op sample), run the files in MindSpore,
    print one line per file; 0 when all match."""
    directory = tempfile.mkdtemp(prefix="npspore-mindir-")
    onnx_tests = _onnx_tests()
    cases = []
    for seed, (name, (cls, shape)) in enumerate(_models(onnx_tests).items()):
        net = cls()
        onnx_tests._randomize(net, seed)
        cases.append((name, net, [np.random.default_rng(seed + 10).standard_normal(shape).astype(np.float32)]))
    sections = [("models", cases)]
    if "--all" in sys.argv:
        sections.append(("layers of tests/test_export_onnx.py",
                         [(name, make(), args) for name, (make, args) in sorted(onnx_tests.LAYERS.items())]))
    failures = 0
    for title, section in sections:
        files = [path for path in (_exported(directory, *case, onnx_tests._forward) for case in section) if path]
        matched = _run_in_mindspore(mindspore_python, files)
        failures += len(section) - matched
        print(f"{matched} of {len(section)} {title}: MindSpore's outputs match npspore's (rtol 1e-5, atol 1e-6)")
    if "--all" in sys.argv:
        op_files = _one_op_files(directory, onnx_tests)
        op_matched = _run_in_mindspore(mindspore_python, op_files)
        failures += len(op_files) - op_matched
        print(f"{op_matched} of {len(op_files)} one-op graphs: MindSpore's outputs match the op's forward")
    return 0 if failures == 0 else 1


def _exported(directory, name, net, args, forward):
    """Export ``net`` for ``args`` (arrays, or tuples of arrays) as ``name.mindir`` beside an ``.npz`` of
    the flat inputs and npspore's outputs; the file's path, or None (printed) if it cannot be exported."""
    path = os.path.join(directory, name)
    tensors = [tuple(map(ms.Tensor, a)) if isinstance(a, tuple) else ms.Tensor(a) for a in args]
    try:
        export(net, *tensors, file_name=path, file_format="MINDIR")
    except Exception as error:
        print(f"{name + '.mindir':<28} NOT EXPORTED {type(error).__name__}: {str(error).splitlines()[0]}")
        return None
    inputs = [x for a in args for x in (a if isinstance(a, tuple) else (a,))]
    outputs = forward(net, *args)
    np.savez(path + ".npz", **{f"x{k}": x for k, x in enumerate(inputs)},
             **{f"y{k}": y for k, y in enumerate(outputs)})
    return path + ".mindir"


def _run_in_mindspore(mindspore_python, files) -> int:
    """Run each file in MindSpore against its ``.npz``; print a line each; the number that match."""
    result = subprocess.run([mindspore_python, "-c", _RUN_IN_MINDSPORE, *files], capture_output=True, text=True,
                            env=dict(os.environ, GLOG_v="3"), timeout=1800)
    print(result.stdout, end="")
    if result.returncode:
        print(result.stderr[-2000:])
    return result.stdout.count(" ok ")


def _one_op_files(directory, onnx_tests) -> list:
    """One MindIR file per op sample of tests/test_export_onnx.py that the writer writes, with the op's forward."""
    SAMPLES, _one_op_graph, ops_forward = onnx_tests.SAMPLES, onnx_tests._one_op_graph, onnx_tests.ops_forward
    from npspore.export.graph import ExportError
    from npspore.export.mindir_ops import MINDIR_FORMS
    from npspore.export.mindir_writer import mindir_bytes
    files = []
    for op in sorted(SAMPLES):
        for index, (operands, static) in enumerate(SAMPLES[op]):
            if op not in MINDIR_FORMS:
                continue
            graph, arrays, dtypes = _one_op_graph(op, operands, static)
            try:
                content = mindir_bytes(graph)
            except ExportError:
                continue   # refused at export, as tests/test_mindir.py's REFUSED_SAMPLES lists
            expected = ops_forward(op, operands, static, dtypes)
            path = os.path.join(directory, f"op_{op}_{index}")
            with open(path + ".mindir", "wb") as file:
                file.write(content)
            np.savez(path + ".npz", **{f"x{k}": a for k, a in enumerate(arrays)},
                     **{f"y{k}": e for k, e in enumerate(expected)})
            files.append(path + ".mindir")
    return files


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--all"]
    sys.exit(main(arguments[0] if arguments else "/work/msvenv/bin/python"))
