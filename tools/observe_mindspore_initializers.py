"""Print MindSpore 2.10's initial weights after ``np.random.seed`` for tests/test_initializer_stream.py.

Run with a virtualenv holding the real MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_initializers.py``. For each case it seeds NumPy's global
generator with 7, builds layers or fills a parameter with an initializer, and prints each parameter's name,
its first values and its sum, then the next ``np.random.uniform()`` (where the initializers left NumPy's
generator); the printed dict is pasted into the test as ``MINDSPORE_VALUES``. The test builds the same
``CASES`` with npspore (``build(npspore, name)``).
"""
from importlib import import_module

import numpy as np


def one_parameter(ms, initializer, shape=(5, 3, 2), dtype="float32"):
    """A Cell holding one Parameter ``w`` of ``shape`` filled by ``initializer``."""
    class Holder(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.common.initializer.initializer(initializer, list(shape), getattr(ms, dtype)),
                                  name="w")
    return Holder()


def _init(ms):
    return ms.common.initializer


CASES = {
    "dense": lambda ms: ms.nn.Dense(3, 2),
    "dense_no_bias": lambda ms: ms.nn.Dense(5, 4, has_bias=False),
    "conv2d": lambda ms: ms.nn.Conv2d(2, 3, 3, has_bias=True),
    "conv1d": lambda ms: ms.nn.Conv1d(2, 3, 3, has_bias=True),
    "conv2d_transpose": lambda ms: ms.nn.Conv2dTranspose(2, 3, 3, has_bias=True),
    "embedding": lambda ms: ms.nn.Embedding(5, 3),
    "lstm": lambda ms: ms.nn.LSTM(3, 2),
    "gru_bidirectional": lambda ms: ms.nn.GRU(3, 2, bidirectional=True),
    "lstm_cell": lambda ms: ms.nn.LSTMCell(3, 2),
    "batch_norm": lambda ms: ms.nn.BatchNorm2d(3),
    "layer_norm": lambda ms: ms.nn.LayerNorm((3,)),
    "multihead_attention": lambda ms: ms.nn.MultiheadAttention(4, 2),
    "normal": lambda ms: one_parameter(ms, "normal"),
    "normal_float16": lambda ms: one_parameter(ms, "normal", dtype="float16"),
    "uniform": lambda ms: one_parameter(ms, "uniform"),
    "truncated_normal": lambda ms: one_parameter(ms, _init(ms).TruncatedNormal(0.02)),
    "xavier_uniform": lambda ms: one_parameter(ms, _init(ms).XavierUniform(2)),
    "xavier_normal": lambda ms: one_parameter(ms, "xavier_normal"),
    "he_uniform": lambda ms: one_parameter(ms, "he_uniform"),
    "he_normal": lambda ms: one_parameter(ms, _init(ms).HeNormal(mode="fan_out", nonlinearity="relu")),
    "normal_mean": lambda ms: one_parameter(ms, _init(ms).Normal(0.5, 1.0), shape=(7,)),
    "identity": lambda ms: one_parameter(ms, "identity", shape=(3, 4)),
    "sparse": lambda ms: one_parameter(ms, _init(ms).Sparse(0.5, sigma=0.3), shape=(5, 3)),
    "dirac": lambda ms: one_parameter(ms, _init(ms).Dirac(groups=2), shape=(4, 3, 3, 2)),
    "orthogonal": lambda ms: one_parameter(ms, _init(ms).Orthogonal(gain=2.0), shape=(4, 3, 2)),
    "orthogonal_tall": lambda ms: one_parameter(ms, "orthogonal", shape=(6, 2)),
}


def build(ms, name):
    """Seed NumPy's global generator with 7 and build case ``name`` with the framework module ``ms``."""
    np.random.seed(7)
    return CASES[name](ms)


def main():
    ms = import_module("mindspore")
    print("{")
    for name in CASES:
        net = build(ms, name)
        params = [(p.name, [float(v) for v in p.asnumpy().reshape(-1)[:4]], float(p.asnumpy().astype(np.float64).sum()))
                  for p in net.get_parameters()]
        print(f"    {name!r}: {(params, float(np.random.uniform()))!r},")
    print("}")


if __name__ == "__main__":
    main()
