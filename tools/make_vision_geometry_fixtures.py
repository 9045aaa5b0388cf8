"""Record the rotations and affine maps of tests/test_vision_geometry.py with the real MindSpore 2.10.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/make_vision_geometry_fixtures.py``. The input ``image`` is the 6x8 RGB noise image
of ``make_vision_adjust_fixtures.py``; each case of ``CASES`` (fixed draws, on arrays: MindSpore's C++ kernels)
goes to ``tests/fixtures/images/geometry_mindspore.npz`` under its name.
"""
from pathlib import Path

import numpy as np

IMAGES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "images"
CASES = {
    "r30": ("RandomRotation((30, 30))", "image"),
    "r30_bilinear": ("RandomRotation((30, 30), resample=Inter.BILINEAR)", "image"),
    "r90": ("RandomRotation((90, 90))", "image"),
    "r30_expand": ("RandomRotation((30, 30), expand=True)", "image"),
    "r30_expand_bilinear": ("RandomRotation((-30, -30), resample=Inter.BILINEAR, expand=True, fill_value=9)",
                            "image"),
    "r_neg45_center_fill": ("RandomRotation((-45, -45), center=(2, 1), fill_value=(10, 20, 30))", "image"),
    "r17_gray": ("RandomRotation((17, 17))", "gray"),
    "affine": ("RandomAffine((20, 20), translate=(0.1, 0.1, 0.1, 0.1), scale=(1.2, 1.2), shear=(5, 5, 5, 5))",
               "image"),
    "affine_bilinear": ("RandomAffine((-10, -10), translate=(-0.2, -0.2, 0.05, 0.05), scale=(0.8, 0.8), "
                        "shear=(-8, -8), resample=Inter.BILINEAR, fill_value=(1, 2, 3))", "image"),
}


def main():
    import mindspore.dataset.vision as vision
    from mindspore.dataset.vision import Inter

    image = (40 + np.random.default_rng(0).random((6, 8, 3)) * 160).astype(np.uint8)
    inputs = {"image": image, "gray": np.ascontiguousarray(image[..., 0])}
    names = {"vision": vision, "Inter": Inter}
    outputs = {name: eval(f"vision.{text}", names)(inputs[source]) for name, (text, source) in CASES.items()}
    np.savez(IMAGES / "geometry_mindspore.npz", image=image, **outputs)
    for name, value in outputs.items():
        print(name, value.shape)


if __name__ == "__main__":
    main()
