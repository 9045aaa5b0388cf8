"""Record the vision fixtures of tests/test_vision_decode.py and tests/test_color_adjust.py with the real
MindSpore 2.10.

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python tools/make_vision_fixtures.py``.
``noise.jpg`` (quality 90) and ``noise.png`` are a 6x8 RGB image of uniform noise (``default_rng(0)``) saved by
Pillow; MindSpore's ``vision.Decode`` pixels of the JPEG go to ``noise_jpg_mindspore.npy``. ``color_adjust_input.npy``
(a 4x5 noise image) adjusted by ``vision.RandomColorAdjust`` with fixed factors (``CASES``) goes to
``color_adjust_mindspore.npz``. ``vision.RandomResizedCrop`` / ``RandomCropDecodeResize`` of the noise image with
``CROPS`` (draws that take the whole image, and the centred fallbacks) go to ``resized_crop_mindspore.npz``.
"""
from pathlib import Path

import numpy as np

IMAGES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "images"
CASES = {"b": dict(brightness=(1.5, 1.5)), "c": dict(contrast=(0.5, 0.5)), "s": dict(saturation=(2.0, 2.0)),
         "h": dict(hue=(0.1, 0.1)),
         "all": dict(brightness=(1.2, 1.2), contrast=(0.8, 0.8), saturation=(1.5, 1.5), hue=(-0.2, -0.2))}

CROPS = {"whole": dict(scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3)), "wide_fallback": dict(scale=(1.0, 1.0), ratio=(10, 10)),
         "tall_fallback": dict(scale=(1.0, 1.0), ratio=(0.1, 0.1))}


def main():
    import mindspore.dataset.vision as vision

    np.save(IMAGES / "noise_jpg_mindspore.npy", vision.Decode()(np.fromfile(IMAGES / "noise.jpg", np.uint8)))
    image = (np.random.default_rng(0).random((4, 5, 3)) * 255).astype(np.uint8)
    np.save(IMAGES / "color_adjust_input.npy", image)
    np.savez(IMAGES / "color_adjust_mindspore.npz",
             **{name: vision.RandomColorAdjust(**kwargs)(image) for name, kwargs in CASES.items()})
    noise = (np.random.default_rng(0).random((6, 8, 3)) * 255).astype(np.uint8)
    crops = {name: vision.RandomResizedCrop((3, 4), **kwargs)(noise) for name, kwargs in CROPS.items()}
    crops["decode_whole"] = vision.RandomCropDecodeResize((3, 4), **CROPS["whole"])(
        np.fromfile(IMAGES / "noise.jpg", np.uint8))
    np.savez(IMAGES / "resized_crop_mindspore.npz", **crops)


if __name__ == "__main__":
    main()
