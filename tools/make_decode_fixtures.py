"""Decode tests/fixtures/images/noise.jpg with the real MindSpore 2.10 (``vision.Decode``) and save its pixels as
``noise_jpg_mindspore.npy``, the reference of tests/test_vision_decode.py.

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python tools/make_decode_fixtures.py``.
``noise.jpg`` (quality 90) and ``noise.png`` are a 6x8 RGB image of uniform noise (``default_rng(0)``) saved by Pillow.
"""
from pathlib import Path

import numpy as np

IMAGES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "images"


def main():
    import mindspore.dataset.vision as vision

    pixels = vision.Decode()(np.fromfile(IMAGES / "noise.jpg", np.uint8))
    np.save(IMAGES / "noise_jpg_mindspore.npy", pixels)


if __name__ == "__main__":
    main()
