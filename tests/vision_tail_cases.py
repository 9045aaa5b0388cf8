"""The inputs of tests/test_vision_tail.py, shared with ``tools/observe_mindspore_vision_tail.py``: small PNG files,
``RandomErasing`` arguments MindSpore 2.10 refuses, and deterministic transform cases ``(key, expression)`` over
``vision``, ``util`` (``vision.py_transforms_util``), ``Image`` (PIL's), ``np`` and the image ``IMG`` (5 x 6 RGB)."""
from pathlib import Path

import numpy as np

ERASING_ARGUMENTS = [{"prob": 1.5}, {"prob": "a"}, {"scale": (0.5, 0.1)}, {"scale": (0.1,)}, {"ratio": (2.0, 1.0)},
                     {"value": 300}, {"value": (1, 2)}, {"value": "x"}, {"max_attempts": 0}, {"inplace": 1}]


def write_images(folder: Path) -> list:
    """Write an RGB, a gray and an RGBA PNG (2 x 4 pixels) into ``folder``; their names."""
    from PIL import Image
    Image.fromarray(np.arange(24, dtype=np.uint8).reshape(2, 4, 3)).save(folder / "rgb.png")
    Image.fromarray(np.arange(8, dtype=np.uint8).reshape(2, 4) * 30).save(folder / "gray.png")
    Image.fromarray(np.arange(32, dtype=np.uint8).reshape(2, 4, 4) * 7, "RGBA").save(folder / "rgba.png")
    return ["rgb.png", "gray.png", "rgba.png"]


IMG = ((np.arange(5 * 6 * 3).reshape(5, 6, 3) * 7) % 256).astype(np.uint8)
TRANSFORM_CASES = [
    ("rotate_30_expand", "vision.Rotate(30.0, expand=True)(IMG)"),
    ("rotate_90", "vision.Rotate(90)(IMG)"),
    ("rotate_bilinear_center", "vision.Rotate(-45.0, vision.Inter.BILINEAR, center=(1, 2), fill_value=(9, 8, 7))(IMG)"),
    ("adjust_brightness", "vision.AdjustBrightness(1.7)(IMG)"),
    ("adjust_contrast", "vision.AdjustContrast(0.4)(IMG)"),
    ("adjust_saturation", "vision.AdjustSaturation(2.5)(IMG)"),
    ("adjust_hue", "vision.AdjustHue(0.2)(IMG)"),
    ("normalize_pad", "vision.NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])(IMG)"),
    ("normalize_pad_chw", "vision.NormalizePad([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], 'float16', False)("
                          "IMG.transpose(2, 0, 1))"),
    ("slice_pad", "vision.SlicePatches(2, 4, fill_value=3)(IMG)"),
    ("slice_drop", "vision.SlicePatches(2, 4, vision.SliceMode.DROP)(IMG)"),
    ("util_brightness", "np.asarray(util.adjust_brightness(Image.fromarray(IMG), 1.5))"),
    ("util_contrast", "np.asarray(util.adjust_contrast(Image.fromarray(IMG), 0.3))"),
    ("util_saturation", "np.asarray(util.adjust_saturation(Image.fromarray(IMG), 1.8))"),
    ("util_rotate", "np.asarray(util.rotate(Image.fromarray(IMG), 30, vision.Inter.BILINEAR, True, None, 5))"),
    ("util_crop_pad_edge", "np.asarray(util.random_crop(Image.fromarray(IMG), (9, 10), 2, False, 0, 'edge'))"),
    ("util_crop_pad_constant", "np.asarray(util.random_crop(Image.fromarray(IMG), (5, 8), (1, 0), False, (1, 2, 3), "
                               "'constant'))"),
    ("util_crop_pad_four", "np.asarray(util.random_crop(Image.fromarray(IMG), (8, 9), (1, 2, 2, 1), False, 0, "
                           "'reflect'))"),
    ("util_crop_too_big", "util.random_crop(Image.fromarray(IMG), (6, 8), (1, 0), False, 0, 'constant')"),
    ("util_not_pil", "util.adjust_brightness(IMG, 1.5)"),
]
