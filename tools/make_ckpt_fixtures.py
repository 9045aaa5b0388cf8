"""Write the checkpoint fixtures in tests/fixtures/ with the real MindSpore.

How they were made: run with a Python that has MindSpore 2.10 (CPU) installed, from the repository root:

    /path/to/mindspore-venv/bin/python tools/make_ckpt_fixtures.py

It builds a Cell holding one small Parameter per dtype (float16, float32, float64, int32, int64,
bool, plus a 0-d float32), fills them with fixed values (no random numbers, so the files are
reproducible byte for byte), and saves it with ``mindspore.save_checkpoint`` as

- ``tests/fixtures/ms_params.ckpt``: MindSpore's protobuf ``Checkpoint`` format, with
  ``append_dict={"epoch_num": 3, "lr": 0.5, "tag": "fixture"}`` (int, float and str extras);
- ``tests/fixtures/ms_params.safetensors``: the same Parameters, ``format="safetensors"``.

npspore's tests load both files and compare with the values below (``fixture_values``), and
check that npspore writes the same bytes for the same Parameters. npspore never imports MindSpore.
"""
import os
import sys

import numpy as np


def fixture_values():
    """The Parameters of the fixture Cell, name -> NumPy array (fixed values)."""
    return {
        "dense.weight": (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5) / 4,
        "dense.bias": np.array([0.5, -1.25], dtype=np.float32),
        "half": np.array([[1.5, -2.0], [0.099975586, 65504.0]], dtype=np.float16),
        "double": np.array([np.pi, -np.e, 1e-300], dtype=np.float64),
        "count32": np.array([[1, -2, 3]], dtype=np.int32),
        "count64": np.array([2 ** 40, -7], dtype=np.int64),
        "mask": np.array([True, False, True], dtype=np.bool_),
        "scale": np.array(0.75, dtype=np.float32),
    }


def main(out_dir):
    """Save the fixture Cell as .ckpt and .safetensors into ``out_dir``."""
    import mindspore as ms
    from mindspore import nn

    class Fixture(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2)
            for name, value in fixture_values().items():
                if not name.startswith("dense."):
                    setattr(self, name, ms.Parameter(ms.Tensor(value), name=name))
            self.dense.weight.set_data(ms.Tensor(fixture_values()["dense.weight"]))
            self.dense.bias.set_data(ms.Tensor(fixture_values()["dense.bias"]))

        def construct(self, x):
            return self.dense(x)

    net = Fixture()
    os.makedirs(out_dir, exist_ok=True)
    ms.save_checkpoint(net, os.path.join(out_dir, "ms_params.ckpt"),
                       append_dict={"epoch_num": 3, "lr": 0.5, "tag": "fixture"})
    ms.save_checkpoint(net, os.path.join(out_dir, "ms_params.safetensors"), format="safetensors")
    for name, param in ms.load_checkpoint(os.path.join(out_dir, "ms_params.ckpt")).items():
        print(name, param)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures"))
