"""Record nn.Conv3dTranspose and nn.Conv1dTranspose outputs with the real MindSpore 2.10 for
tests/test_conv_transpose.py.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/make_conv_transpose_fixtures.py``. Writes
``tests/fixtures/conv3d/conv_transpose.npz``: for 3-D, the input ``x3`` (2, 4, 3, 4, 3), weight ``w3``
(4, 3, 3, 2, 3) and bias ``b3`` (6,) of ``default_rng(0)`` and MindSpore's output ``3d_<case>`` for each
configuration of ``CASES_3D`` (group 2, 6 output channels); for 1-D, ``x1`` (2, 4, 5), ``w1`` (4, 3, 3),
``b1`` (6,) and ``1d_<case>`` for each of ``CASES_1D``.
"""
from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "conv3d"
CASES_3D = {"same": dict(pad_mode="same", stride=2), "valid": dict(pad_mode="valid", stride=(2, 1, 2)),
            "pad": dict(pad_mode="pad", padding=(1, 0, 2, 1, 0, 1), dilation=(1, 2, 1)),
            "pad_stride_output_padding": dict(pad_mode="pad", padding=1, stride=(2, 3, 2), output_padding=1),
            "bias": dict(pad_mode="valid", has_bias=True)}
CASES_1D = {"same": dict(pad_mode="same", stride=2), "valid": dict(pad_mode="valid", stride=3, dilation=2),
            "pad": dict(pad_mode="pad", padding=1, stride=2), "bias": dict(pad_mode="valid", has_bias=True)}


def main():
    from mindspore import Tensor, nn

    rng = np.random.default_rng(0)
    arrays = {"x3": rng.standard_normal((2, 4, 3, 4, 3)).astype(np.float32),
              "w3": rng.standard_normal((4, 3, 3, 2, 3)).astype(np.float32),
              "b3": rng.standard_normal(6).astype(np.float32),
              "x1": rng.standard_normal((2, 4, 5)).astype(np.float32),
              "w1": rng.standard_normal((4, 3, 3)).astype(np.float32),
              "b1": rng.standard_normal(6).astype(np.float32)}
    for name, kwargs in CASES_3D.items():
        extra = {"bias_init": Tensor(arrays["b3"])} if kwargs.get("has_bias") else {}
        net = nn.Conv3dTranspose(4, 6, (3, 2, 3), group=2, weight_init=Tensor(arrays["w3"]), **kwargs, **extra)
        arrays[f"3d_{name}"] = net(Tensor(arrays["x3"])).asnumpy()
        print("3d", name, arrays[f"3d_{name}"].shape)
    for name, kwargs in CASES_1D.items():
        extra = {"bias_init": Tensor(arrays["b1"])} if kwargs.get("has_bias") else {}
        net = nn.Conv1dTranspose(4, 6, 3, group=2, weight_init=Tensor(arrays["w1"]), **kwargs, **extra)
        arrays[f"1d_{name}"] = net(Tensor(arrays["x1"])).asnumpy()
        print("1d", name, arrays[f"1d_{name}"].shape)
    np.savez(FIXTURES / "conv_transpose.npz", **arrays)


if __name__ == "__main__":
    main()
