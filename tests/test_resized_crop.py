"""``vision.RandomResizedCrop`` and ``RandomCropDecodeResize`` against MindSpore 2.10.

``tests/fixtures/images/resized_crop_mindspore.npz`` holds what the real MindSpore 2.10.0 gave
(``tools/make_vision_fixtures.py``) where its output does not depend on its random draws: a draw that can
only take the whole image, and the centred crops it falls back to when no draw fits the ratio. The
random draws themselves are checked for the documented distribution.
"""
from pathlib import Path

import numpy as np
import pytest

from npspore.dataset import vision
from npspore.dataset.transform_draws import MapWorkers

IMAGES = Path(__file__).parent / "fixtures" / "images"
MINDSPORE = np.load(IMAGES / "resized_crop_mindspore.npz")
NOISE = (np.random.default_rng(0).random((6, 8, 3)) * 255).astype(np.uint8)


@pytest.mark.parametrize("name, ratio", [("whole", (4 / 3, 4 / 3)), ("wide_fallback", (10, 10)),
                                         ("tall_fallback", (0.1, 0.1))])
def test_outputs_that_do_not_depend_on_the_draws_are_mindspores(name, ratio):
    out = vision.RandomResizedCrop((3, 4), scale=(1.0, 1.0), ratio=ratio)(NOISE)
    np.testing.assert_array_equal(out, MINDSPORE[name])


def test_decode_then_crop_is_mindspores():
    out = vision.RandomCropDecodeResize((3, 4), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))(
        np.fromfile(IMAGES / "noise.jpg", np.uint8))
    np.testing.assert_array_equal(out, MINDSPORE["decode_whole"])


def test_random_crops_keep_to_the_scale_and_ratio_ranges():
    crop = vision.RandomResizedCrop(5, scale=(0.25, 0.5), ratio=(0.5, 2.0))
    workers = MapWorkers(1, 3, 0, [crop])         # the draws of 200 rows of a map with seed 3, one worker
    boxes = [workers.run(row, crop.crop_box, 100, 120) for row in range(200)]
    for top, left, height, width in boxes:
        assert 0 <= top <= 100 - height and 0 <= left <= 120 - width
        assert 0.24 <= height * width / 12000 <= 0.51 and 0.48 <= width / height <= 2.1
    assert len(set(boxes)) > 150
    assert crop(NOISE).shape == (5, 5, 3)


@pytest.mark.parametrize("kwargs, message", [
    (dict(size=0), r"Input is not within the required interval of \[1, 16777216\]."),
    (dict(size=(3, 4), scale=(1.0, 0.5)), r"scale should be in \(min,max\) format. Got \(max,min\)."),
    (dict(size=(3, 4), ratio=(0, 1)), r"Input ratio\[0\] is not within the required interval of \(0, 16777216\]."),
    (dict(size=(3, 4), max_attempts=0), r"Input max_attempts is not within the required interval of \[1, 2147483647\]."),
])
def test_argument_errors_as_mindspore(kwargs, message):
    with pytest.raises(ValueError, match=message):
        vision.RandomResizedCrop(**kwargs)
