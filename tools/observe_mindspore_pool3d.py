"""Record MindSpore 2.10's 3-D pooling outputs (MaxPool3D, AvgPool3D, max_pool3d, avg_pool3d, nn.MaxPool3d,
nn.AvgPool3d, values, argmax indices and gradients) for tests/fixtures/mindspore_pool3d.npz.

Run with a MindSpore virtualenv's interpreter (the project never imports MindSpore):
    /path/to/mindspore-venv/bin/python tools/observe_mindspore_pool3d.py tests/fixtures/mindspore_pool3d.npz
tests/test_pooling3d.py evaluates the same CASES with npspore (``evaluate(npspore, name)``).
"""
import sys
from importlib import import_module

import numpy as np

# name: (API, keyword arguments, input, which output). API "P.X" is a primitive built with the arguments,
# "ops.x" a function called with them, "nn.X" a layer built with them; "grad P.X" the gradient of the sum of
# squares of the primitive's output. Input "x" is (2, 2, 4, 5, 5), "x4" its first (unbatched) sample, "ones"
# (1, 1, 3, 3, 3) of ties.
CASES = {
    "max_valid": ("P.MaxPool3D", {"kernel_size": 2, "strides": 1, "pad_mode": "VALID"}, "x", None),
    "max_same": ("P.MaxPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "same"}, "x", None),
    "max_pad": ("P.MaxPool3D", {"kernel_size": (2, 3, 3), "strides": (1, 2, 2), "pad_mode": "pad",
                                "pad_list": (1, 0, 1, 1, 0, 1)}, "x", None),
    "max_pad_ceil": ("P.MaxPool3D", {"kernel_size": (2, 3, 3), "strides": 2, "pad_mode": "pad", "pad_list": 1,
                                     "ceil_mode": True}, "x", None),
    "avg_valid": ("P.AvgPool3D", {"kernel_size": 2, "strides": 1}, "x", None),
    "avg_same": ("P.AvgPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "same"}, "x", None),
    "avg_same_excluded": ("P.AvgPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "same",
                                          "count_include_pad": False}, "x", None),
    "avg_pad": ("P.AvgPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "pad", "pad": 1}, "x", None),
    "avg_pad_excluded": ("P.AvgPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "pad", "pad": 1,
                                         "count_include_pad": False}, "x", None),
    "avg_divisor": ("P.AvgPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "pad", "pad": 1,
                                    "divisor_override": 5}, "x", None),
    "avg_pad_ceil": ("P.AvgPool3D", {"kernel_size": 2, "strides": 2, "pad_mode": "pad", "pad": 1,
                                     "ceil_mode": True}, "x", None),
    "avg_pad_ceil_excluded": ("P.AvgPool3D", {"kernel_size": 2, "strides": 2, "pad_mode": "pad", "pad": 1,
                                              "ceil_mode": True, "count_include_pad": False}, "x", None),
    "fn_max_ceil": ("ops.max_pool3d", {"kernel_size": 2, "stride": 2, "padding": 1, "ceil_mode": True}, "x", None),
    "fn_max_dilated": ("ops.max_pool3d", {"kernel_size": 2, "stride": 1, "padding": 1, "dilation": (2, 1, 2)},
                       "x", None),
    "fn_max_indices": ("ops.max_pool3d", {"kernel_size": (2, 3, 2), "stride": (2, 1, 2), "padding": 1,
                                          "dilation": (1, 2, 1), "return_indices": True}, "x", 1),
    "fn_max_tied_indices": ("ops.max_pool3d", {"kernel_size": 2, "stride": 1, "return_indices": True}, "ones", 1),
    "fn_avg": ("ops.avg_pool3d", {"kernel_size": 2, "stride": 1, "padding": 1}, "x", None),
    "fn_avg_ceil": ("ops.avg_pool3d", {"kernel_size": (3, 2, 2), "stride": 2, "padding": (1, 0, 1, 1, 0, 0),
                                       "ceil_mode": True, "count_include_pad": False}, "x", None),
    "nn_max_pad": ("nn.MaxPool3d", {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1}, "x", None),
    "nn_max_same": ("nn.MaxPool3d", {"kernel_size": 3, "stride": 2, "pad_mode": "same"}, "x", None),
    "nn_max_dilated": ("nn.MaxPool3d", {"kernel_size": 2, "stride": 1, "pad_mode": "pad", "padding": 1,
                                        "dilation": 2}, "x", None),
    "nn_max_values": ("nn.MaxPool3d", {"kernel_size": 2, "stride": 2, "pad_mode": "pad", "padding": (1, 0, 1),
                                       "return_indices": True, "ceil_mode": True}, "x", 0),
    "nn_max_indices": ("nn.MaxPool3d", {"kernel_size": 2, "stride": 2, "pad_mode": "pad", "padding": (1, 0, 1),
                                        "return_indices": True, "ceil_mode": True}, "x", 1),
    "nn_max_unbatched_indices": ("nn.MaxPool3d", {"kernel_size": 2, "stride": 1, "pad_mode": "pad",
                                                  "return_indices": True}, "x4", 1),
    "nn_avg_pad": ("nn.AvgPool3d", {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1,
                                    "count_include_pad": False}, "x", None),
    "nn_avg_divisor": ("nn.AvgPool3d", {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1,
                                        "divisor_override": 4}, "x", None),
    "nn_avg_unbatched": ("nn.AvgPool3d", {"kernel_size": 2}, "x4", None),
    "grad_max_same": ("grad P.MaxPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "same"}, "x", None),
    "grad_avg_excluded": ("grad P.AvgPool3D", {"kernel_size": 3, "strides": 2, "pad_mode": "pad", "pad": 1,
                                               "count_include_pad": False}, "x", None),
}


def inputs() -> dict:
    """The inputs of CASES, as NumPy arrays (values with ties and repeats)."""
    x = ((np.arange(2 * 2 * 4 * 5 * 5) * 37) % 23).reshape(2, 2, 4, 5, 5).astype(np.float32) / 7
    return {"x": x, "x4": x[0], "ones": np.ones((1, 1, 3, 3, 3), np.float32)}


def evaluate(ms, name: str) -> np.ndarray:
    """The output of case ``name`` computed with the package ``ms`` (mindspore or npspore)."""
    api, kwargs, source, which = CASES[name]
    x = ms.Tensor(inputs()[source])
    kind, _, api = api.rpartition(" ")
    module, _, attr = api.partition(".")
    namespace = import_module(f"{ms.__name__}.ops.operations" if module == "P" else f"{ms.__name__}.{module}")
    target = getattr(namespace, attr)
    if kind == "grad":
        prim = target(**kwargs)

        def loss(value):
            return (prim(value) ** 2).sum()

        out = ms.ops.grad(loss)(x)
    elif module == "ops":
        out = target(x, **kwargs)
    else:
        out = target(**kwargs)(x)
    return (out if which is None else out[which]).asnumpy()


def main(path: str) -> None:
    import mindspore
    np.savez_compressed(path, **{name: evaluate(mindspore, name) for name in CASES})


if __name__ == "__main__":
    main(sys.argv[1])
