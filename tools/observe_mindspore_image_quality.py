"""Record MindSpore 2.10's nn.SSIM and nn.PSNR outputs (and an SSIM gradient) for
tests/fixtures/mindspore_image_quality.npz.

Run with a MindSpore virtualenv's interpreter (the project never imports MindSpore):
    /path/to/mindspore-venv/bin/python tools/observe_mindspore_image_quality.py tests/fixtures/mindspore_image_quality.npz
MindSpore 2.10 computes both only in GRAPH_MODE (in PyNative mode its ScalarCast refuses float32), so the
recording sets it. tests/test_image_quality.py evaluates the same CASES with npspore (``evaluate(npspore, name)``).
"""
import sys

import numpy as np

# name: (layer, constructor keyword arguments, dtype of the images, or "grad" for the gradient of the sum of
# SSIM(filter_size=5) with respect to img1, on a (1, 1, 7, 6) crop)
CASES = {
    "ssim": ("SSIM", {}, "float32"),
    "ssim_options": ("SSIM", {"max_val": 2.0, "filter_size": 7, "filter_sigma": 1.0, "k1": 0.02, "k2": 0.05},
                     "float32"),
    "ssim_even_window": ("SSIM", {"filter_size": 4}, "float32"),
    "ssim_float16": ("SSIM", {}, "float16"),
    "psnr": ("PSNR", {}, "float32"),
    "psnr_uint8": ("PSNR", {"max_val": 255}, "uint8"),
    "psnr_float16": ("PSNR", {"max_val": 2.0}, "float16"),
    "ssim_grad": ("SSIM", {"filter_size": 5}, "grad"),
}


def images() -> tuple:
    """Two (2, 3, 16, 14) batches in [0, 1], the second a noisy copy of the first."""
    rng = np.random.default_rng(0)
    a = rng.random((2, 3, 16, 14)).astype(np.float32)
    b = np.clip(a + 0.1 * rng.standard_normal(a.shape), 0, 1).astype(np.float32)
    return a, b


def evaluate(ms, name: str) -> np.ndarray:
    """The output of case ``name`` computed with the package ``ms`` (mindspore or npspore)."""
    layer, kwargs, dtype = CASES[name]
    a, b = images()
    net = getattr(ms.nn, layer)(**kwargs)
    if dtype == "grad":
        def loss(x, y):
            return net(x, y).sum()

        return ms.ops.grad(loss)(ms.Tensor(a[:1, :1, :7, :6]), ms.Tensor(b[:1, :1, :7, :6])).asnumpy()
    if dtype == "uint8":
        a, b = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    return net(ms.Tensor(a.astype(dtype)), ms.Tensor(b.astype(dtype))).asnumpy()


def main(path: str) -> None:
    import mindspore
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    np.savez_compressed(path, **{name: evaluate(mindspore, name) for name in CASES})


if __name__ == "__main__":
    main(sys.argv[1])
