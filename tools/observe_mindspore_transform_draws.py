"""Record what seeded random transforms draw in the real MindSpore 2.10, for tests/test_transform_draws.py.

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_transform_draws.py``. Writes ``tests/fixtures/images/transform_draws_mindspore.npz``: for
each case of ``CASES`` the mapped images of a fixed input, in order. The test builds the same pipelines with npspore.
"""
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "images" / "transform_draws_mindspore.npz"

# name: (seed, image shape, rows, transform name, its arguments, num_parallel_workers)
CASES = {
    "resized_crop_0": (0, (32, 48, 3), 10, "RandomResizedCrop", dict(size=16), 2),
    "resized_crop_3": (3, (40, 40, 3), 10, "RandomResizedCrop", dict(size=16, scale=(0.5, 1.0)), 2),
    "resized_crop_fallback": (11, (20, 60, 3), 4, "RandomResizedCrop",
                              dict(size=16, scale=(0.9, 1.0), ratio=(0.5, 0.6)), 2),
    "resized_crop_nearest": (7, (64, 50, 3), 10, "RandomResizedCrop", dict(size=(12, 20), interpolation="NEAREST"), 1),
    "color_brightness_hue": (3, (8, 9, 3), 8, "RandomColorAdjust", dict(brightness=(0.5, 1.5), hue=0.2), 2),
    "color_contrast": (4, (8, 9, 3), 8, "RandomColorAdjust", dict(contrast=(0.3, 0.9)), 2),
    "color_three": (0, (8, 9, 3), 8, "RandomColorAdjust", dict(brightness=0.4, contrast=0.4, saturation=0.4), 2),
    "crop_padded": (5, (32, 32, 3), 6, "RandomCrop", dict(size=32, padding=4), 2),
    "rotation_30": (0, (15, 17, 3), 8, "RandomRotation", dict(degrees=30), 2),
    "rotation_bilinear": (4, (15, 17, 3), 8, "RandomRotation", dict(degrees=(10, 200), resample="BILINEAR"), 2),
    "rotation_turns": (2, (15, 17, 3), 8, "RandomRotation", dict(degrees=(-90, 300)), 2),
    "sharpness": (1, (9, 11, 3), 10, "RandomSharpness", dict(degrees=(0.1, 1.9)), 2),
    "color": (2, (9, 11, 3), 10, "RandomColor", dict(degrees=(0.0, 2.0)), 2),
    "color_near_one": (3, (9, 11, 3), 10, "RandomColor", dict(degrees=(0.999, 1.0015)), 2),
    "solarize": (4, (9, 11, 3), 10, "RandomSolarize", dict(threshold=(50, 200)), 2),
    "posterize": (5, (9, 11, 3), 10, "RandomPosterize", dict(bits=(2, 7)), 2),
    "erasing_noise": (3, (3, 16, 20), 8, "RandomErasing", dict(prob=0.9, value="random"), 1),
    "erasing_colour": (5, (3, 16, 20), 8, "RandomErasing", dict(prob=1.0, value=(10, 20, 30), scale=(0.1, 0.5)), 1),
    "cutout": (3, (12, 14, 3), 8, "CutOut", dict(length=8, num_patches=3), 2),
    "cutout_chw": (4, (3, 10, 9), 8, "CutOut", dict(length=4, num_patches=2, is_hwc=False), 2),
    "affine_shift": (1, (13, 15, 3), 6, "RandomAffine", dict(degrees=0, translate=(-0.2, 0.2, -0.1, 0.3)), 2),
    "affine_all": (4, (13, 15, 3), 6, "RandomAffine", dict(degrees=30, translate=(0.1, 0.2), scale=(0.9, 1.1), shear=15,
                                                             resample="BILINEAR"), 2),
    "resize": (6, (13, 15, 3), 10, "RandomResize", dict(size=(7, 9)), 2),
}


def image(shape: tuple) -> np.ndarray:
    """The input of a case: uniform noise of ``shape`` (``default_rng(0)``)."""
    return np.random.default_rng(0).integers(0, 255, shape).astype(np.uint8)


def main():
    import mindspore.dataset as ds
    import mindspore.dataset.vision as vision

    out = {}
    for name, (seed, shape, rows, transform, kwargs, workers) in CASES.items():
        ds.config.set_seed(seed)
        kwargs = {k: getattr(vision.Inter, v) if k in ("interpolation", "resample") else v for k, v in kwargs.items()}
        data = ds.NumpySlicesDataset({"image": np.stack([image(shape)] * rows)}, shuffle=False)
        data = data.map(getattr(vision, transform)(**kwargs), input_columns="image", num_parallel_workers=workers)
        out[name] = np.stack([row["image"] for row in data.create_dict_iterator(output_numpy=True)])
    np.savez(FIXTURE, **out)


if __name__ == "__main__":
    main()
