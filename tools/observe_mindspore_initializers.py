"""Print MindSpore 2.10's initial weights after ``np.random.seed`` for tests/test_initializer_stream.py.

Run with a virtualenv holding the real MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_initializers.py``. For each case it seeds NumPy's global
generator, builds layers or fills parameters with an initializer, and prints each parameter's name, its first
values and its sum, then the next ``np.random.uniform()`` (where the initializers left NumPy's generator); the
printed dict is pasted into the test as ``MINDSPORE_VALUES``.
"""
import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.common import initializer as init


def one_parameter(initializer, shape=(5, 3, 2), dtype=ms.float32):
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(init.initializer(initializer, list(shape), dtype), name="w")
    return Holder()


CASES = {
    "dense": lambda: nn.Dense(3, 2),
    "dense_no_bias": lambda: nn.Dense(5, 4, has_bias=False),
    "conv2d": lambda: nn.Conv2d(2, 3, 3, has_bias=True),
    "conv1d": lambda: nn.Conv1d(2, 3, 3, has_bias=True),
    "conv2d_transpose": lambda: nn.Conv2dTranspose(2, 3, 3, has_bias=True),
    "embedding": lambda: nn.Embedding(5, 3),
    "lstm": lambda: nn.LSTM(3, 2),
    "gru_bidirectional": lambda: nn.GRU(3, 2, bidirectional=True),
    "lstm_cell": lambda: nn.LSTMCell(3, 2),
    "batch_norm": lambda: nn.BatchNorm2d(3),
    "layer_norm": lambda: nn.LayerNorm((3,)),
    "multihead_attention": lambda: nn.MultiheadAttention(4, 2),
    "normal": lambda: one_parameter("normal"),
    "normal_float16": lambda: one_parameter("normal", dtype=ms.float16),
    "uniform": lambda: one_parameter("uniform"),
    "truncated_normal": lambda: one_parameter(init.TruncatedNormal(0.02)),
    "xavier_uniform": lambda: one_parameter(init.XavierUniform(2)),
    "xavier_normal": lambda: one_parameter("xavier_normal"),
    "he_uniform": lambda: one_parameter("he_uniform"),
    "he_normal": lambda: one_parameter(init.HeNormal(mode="fan_out", nonlinearity="relu")),
    "normal_mean": lambda: one_parameter(init.Normal(0.5, 1.0), shape=(7,)),
}


def main():
    values = {}
    for name, build in CASES.items():
        np.random.seed(7)
        net = build()
        params = [(p.name, [float(v) for v in p.asnumpy().reshape(-1)[:4]], float(p.asnumpy().astype(np.float64).sum()))
                  for p in net.get_parameters()]
        values[name] = (params, float(np.random.uniform()))
    print("{")
    for name, entry in values.items():
        print(f"    {name!r}: {entry!r},")
    print("}")


if __name__ == "__main__":
    main()
