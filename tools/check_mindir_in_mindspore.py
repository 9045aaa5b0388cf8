"""Check that the real MindSpore loads npspore's MindIR files and runs them with npspore's outputs.

Run from the repository root with npspore's Python, naming a Python that has MindSpore 2.10 installed:

    .venv/bin/python tools/check_mindir_in_mindspore.py /work/msvenv/bin/python [--ops]

For each model (LeNet-5, a ResNet block with BatchNorm, an LSTM classifier, a Transformer encoder, an
MLP with a tensor ``if`` and a ``while`` loop, and a Cell using further ops once each) it exports the network with
``npspore.export.export(net, x, file_name=..., file_format="MINDIR")`` in eval mode, runs npspore's
forward on the same fixed input, then in the MindSpore Python runs
``nn.GraphCell(mindspore.load(file))(x)`` and prints the largest difference. A model npspore cannot
export prints the error instead. With ``--ops`` it also writes one graph per op sample of
tests/test_export_onnx.py that the MindIR writer writes (needs the test extra) and compares
MindSpore's result with the op's forward. The exit status is 0 only if everything matches within
rtol 1e-5, atol 1e-6 (outputs of the same dtype and shape).
"""
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np

import npspore as ms
from npspore import nn, ops
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


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class ResBlock(nn.Cell):
    def __init__(self, channels=4):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="pad", padding=1, has_bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu(y + x)


class LSTMClassifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, batch_first=True)
        self.fc = nn.Dense(16, 3)

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1, :])


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, dropout=0.0, batch_first=True)

    def construct(self, x):
        return self.layer(x)


class ControlFlowMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 2)

    def construct(self, x):
        h = self.fc1(x)
        if h.sum() > 0:
            h = h * 2
        else:
            h = h - 1
        while h.sum() < 100:
            h = h + 3
        return self.fc2(h)


class OpsCoverage(nn.Cell):
    """Ops beyond the five models, each once: reductions, arg-extrema, top-k, gathers, sequences, pooling."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(6, 6)
        self.avg = nn.AvgPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        h = self.fc(x)
        values, indices = ops.topk(h, 3)
        picked = ops.gather(h, ms.Tensor(np.array([2, 0], np.int32)), 1)
        top = ops.max(h, axis=1)[0] + ops.min(h, axis=1)[0] + ops.argmax(h, 1).astype(ms.float32)
        pooled = self.avg(ops.reshape(ops.tile(h, (1, 2)), (2, 1, 2, 6))).reshape(2, -1)
        mixed = ops.concat((values, picked, pooled), 1) + ops.log_softmax(values, 1).sum() + ops.mean(h)
        mixed = ops.where(mixed > 0, mixed, ops.exp(mixed) - 1) * ops.sqrt(ops.abs(h[:, 1:2]) + 1)
        stacked = ops.stack((mixed, ops.softmax(mixed, 1)), 0).transpose(1, 0, 2).reshape(2, -1)
        return ops.clamp(stacked, -2.0, 2.0) + top.reshape(2, 1) + indices.astype(ms.float32).sum()


def _fill(net, seed):
    rng = np.random.default_rng(seed)
    for param in net.get_parameters():
        low = 0.5 if "variance" in param.name or "gamma" in param.name else -0.3
        param.set_data(ms.Tensor(rng.uniform(low, low + 0.6, param.shape).astype(np.float32)))


MODELS = {
    "lenet5": (LeNet5, (1, 1, 32, 32)),
    "resblock": (ResBlock, (2, 4, 8, 8)),
    "lstm_classifier": (LSTMClassifier, (2, 5, 8)),
    "transformer_encoder": (Encoder, (2, 6, 16)),
    "mlp_if_while": (ControlFlowMLP, (3, 4)),
    "ops_coverage": (OpsCoverage, (2, 6)),
}


def main(mindspore_python):
    """Export every model, run the files in MindSpore, print one line per model; 0 when all match."""
    directory = tempfile.mkdtemp(prefix="npspore-mindir-")
    files = []
    for seed, (name, (cls, shape)) in enumerate(MODELS.items()):
        net = cls()
        _fill(net, seed)
        net.set_train(False)
        x = np.random.default_rng(100 + seed).normal(size=shape).astype(np.float32)
        path = os.path.join(directory, name)
        try:
            export(net, ms.Tensor(x), file_name=path, file_format="MINDIR")
        except Exception as error:
            print(f"{name + '.mindir':<24} NOT EXPORTED {type(error).__name__}: {str(error).splitlines()[0]}")
            continue
        np.savez(path + ".npz", x0=x, y0=net(ms.Tensor(x)).asnumpy())
        files.append(path + ".mindir")
    matched = _run_in_mindspore(mindspore_python, files)
    print(f"{matched} of {len(MODELS)} models: MindSpore's outputs match npspore's (rtol 1e-5, atol 1e-6)")
    if "--ops" not in sys.argv:
        return 0 if matched == len(MODELS) else 1
    op_files = _one_op_files(directory)
    op_matched = _run_in_mindspore(mindspore_python, op_files)
    print(f"{op_matched} of {len(op_files)} one-op graphs: MindSpore's outputs match the op's forward")
    return 0 if matched == len(MODELS) and op_matched == len(op_files) else 1


def _run_in_mindspore(mindspore_python, files) -> int:
    """Run each file in MindSpore against its ``.npz``; print a line each; the number that match."""
    result = subprocess.run([mindspore_python, "-c", _RUN_IN_MINDSPORE, *files], capture_output=True, text=True,
                            env=dict(os.environ, GLOG_v="3"), timeout=1800)
    print(result.stdout, end="")
    if result.returncode:
        print(result.stderr[-2000:])
    return result.stdout.count(" ok ")


def _one_op_files(directory) -> list:
    """One MindIR file per op sample of tests/test_export_onnx.py that the writer writes, with the op's forward."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    from test_export_onnx import SAMPLES, _one_op_graph
    from npspore.core.apply import apply_op
    from npspore.export.graph import ExportError
    from npspore.export.mindir_writer import MINDIR_FORMS, mindir_bytes
    from npspore.opdef import op_table
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
            expected = apply_op(op_table()[op], [v.copy() if isinstance(v, np.ndarray) else
                                                 (v.item() if isinstance(v, np.generic) else v) for v in operands],
                                static, tuple(dtypes) if len(dtypes) > 1 else dtypes[0])
            expected = expected if isinstance(expected, tuple) else (expected,)
            path = os.path.join(directory, f"op_{op}_{index}")
            with open(path + ".mindir", "wb") as file:
                file.write(content)
            np.savez(path + ".npz", **{f"x{k}": a for k, a in enumerate(arrays)},
                     **{f"y{k}": e for k, e in enumerate(expected)})
            files.append(path + ".mindir")
    return files


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--ops"]
    sys.exit(main(arguments[0] if arguments else "/work/msvenv/bin/python"))
