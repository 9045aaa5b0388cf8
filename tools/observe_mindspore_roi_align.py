"""Record MindSpore 2.10's ROIAlign outputs and feature gradients for tests/fixtures/mindspore_roi_align.npz.

Run with a MindSpore virtualenv's interpreter (the project never imports MindSpore):
    /path/to/mindspore-venv/bin/python tools/observe_mindspore_roi_align.py tests/fixtures/mindspore_roi_align.npz
tests/test_roi_align.py evaluates the same CASES with npspore (``evaluate(npspore, name)``).
"""
import sys

import numpy as np

# name: (ROIAlign's constructor arguments, "out" for its output or "grad" for the gradient of the sum of
# squares of the output with respect to the features). MindSpore 2.10's gradient with roi_end_mode=0 is not the
# derivative of its own output (its central differences disagree), so no gradient case uses that mode.
CASES = {
    "bins_2x3": ((2, 3, 1.0, 2), "out"),
    "half_scale_end_mode_0": ((2, 2, 0.5, 3, 0), "out"),
    "one_sample": ((3, 2, 1.0, 1, 1), "out"),
    "grad_bins_2x3": ((2, 3, 1.0, 2), "grad"),
}


def inputs() -> tuple:
    """The features (2, 3, 6, 7) and five regions: inside, partly and wholly outside the map, tiny, and the
    second image's."""
    features = np.random.default_rng(0).standard_normal((2, 3, 6, 7)).astype(np.float32)
    rois = np.array([[0, 0.5, 1.0, 4.2, 3.7], [1, 2.0, -1.5, 8.5, 5.0], [0, 3.3, 2.2, 3.4, 2.3],
                     [1, -3, -3, -1.5, -2], [1, 5.5, 4.5, 6.9, 5.9]], np.float32)
    return features, rois


def evaluate(ms, name: str) -> np.ndarray:
    """The output of case ``name`` computed with the package ``ms`` (mindspore or npspore)."""
    args, kind = CASES[name]
    features, rois = (ms.Tensor(a) for a in inputs())
    prim = ms.ops.operations.ROIAlign(*args)
    if kind == "out":
        return prim(features, rois).asnumpy()

    def loss(x, boxes):
        return (prim(x, boxes) ** 2).sum()

    return ms.ops.grad(loss)(features, rois).asnumpy()


def main(path: str) -> None:
    import mindspore
    import mindspore.ops.operations  # noqa: F401  (ms.ops.operations, as evaluate reads it)
    np.savez_compressed(path, **{name: evaluate(mindspore, name) for name in CASES})


if __name__ == "__main__":
    main(sys.argv[1])
