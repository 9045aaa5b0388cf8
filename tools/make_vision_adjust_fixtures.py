"""Record the pixel adjustments of tests/test_vision_adjust.py with the real MindSpore 2.10.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/make_vision_adjust_fixtures.py``. The input ``image`` is a 6x8 RGB noise image
(``default_rng(0)``, its values squeezed into [40, 200) so that stretching shows) and ``gray`` its first channel;
each case of ``CASES`` (a transform with fixed draws, on the array, so MindSpore's C++ kernel) and of
``PIL_CASES`` (on a ``PIL.Image``, so MindSpore's Pillow code) goes to ``adjust_mindspore.npz`` under its name.
"""
from pathlib import Path

import numpy as np

IMAGES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "images"
CASES = {
    "invert": ("Invert()", "image"), "invert_gray": ("Invert()", "gray"),
    "equalize": ("Equalize()", "image"), "equalize_gray": ("Equalize()", "gray"),
    "autocontrast": ("AutoContrast()", "image"), "autocontrast_cutoff": ("AutoContrast(cutoff=10.0)", "image"),
    "autocontrast_ignore": ("AutoContrast(ignore=[40, 41, 199])", "image"),
    "autocontrast_gray": ("AutoContrast(cutoff=5.0)", "gray"),
    "solarize": ("RandomSolarize((100, 100))", "image"), "solarize_range": ("RandomSolarize((90, 90))", "gray"),
    "posterize": ("RandomPosterize((3, 3))", "image"), "posterize_1": ("RandomPosterize((1, 1))", "gray"),
    "color_low": ("RandomColor((0.5, 0.5))", "image"), "color_high": ("RandomColor((1.7, 1.7))", "image"),
    "sharpness_low": ("RandomSharpness((0.3, 0.3))", "image"),
    "sharpness_high": ("RandomSharpness((1.7, 1.7))", "image"),
    "sharpness_gray": ("RandomSharpness((1.2, 1.2))", "gray"),
    "crop": ("Crop((1, 2), (3, 4))", "image"), "crop_gray": ("Crop((0, 0), 2)", "gray"),
}
PIL_CASES = {"grayscale_pil": "Grayscale()", "grayscale3_pil": "Grayscale(3)",
             "random_grayscale_pil": "RandomGrayscale(1.0)"}


def main():
    import mindspore.dataset.vision as vision
    from PIL import Image

    image = (40 + np.random.default_rng(0).random((6, 8, 3)) * 160).astype(np.uint8)
    inputs = {"image": image, "gray": np.ascontiguousarray(image[..., 0])}
    names = {"vision": vision}
    outputs = {}
    for name, (text, source) in CASES.items():
        try:
            outputs[name] = np.asarray(eval(f"vision.{text}", names)(inputs[source]))
        except RuntimeError as error:  # printed for the test's literal: MindSpore refuses that input
            print(name, "error:", [line for line in str(error).splitlines() if "[ERROR]" in line][0])
    outputs.update({name: np.asarray(eval(f"vision.{text}", names)(Image.fromarray(image)))
                    for name, text in PIL_CASES.items()})
    np.savez(IMAGES / "adjust_mindspore.npz", image=image, **outputs)
    for name, value in outputs.items():
        print(name, value.shape, value.dtype)


if __name__ == "__main__":
    main()
