"""``vision.RandomResizedCrop``, ``RandomCropDecodeResize`` and ``RandomColorAdjust`` against MindSpore 2.10's
outputs (tests/fixtures/mindspore_colour_adjust.npz, written by tools/observe_mindspore_colour_adjust.py) and its
argument errors."""
import io
import os
import sys

import numpy as np
import pytest
from PIL import Image

import npspore.dataset as ds
import npspore.dataset.vision as vision

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from observe_mindspore_colour_adjust import CASES  # noqa: E402

RECORDED = np.load(os.path.join(os.path.dirname(__file__), "fixtures", "mindspore_colour_adjust.npz"))
IMAGE = RECORDED["img"]
# how far from MindSpore's pixels each adjustment may come (the module docstring of vision/augment.py says why)
TOLERANCE = {"b": 0, "c": 1, "s": 1, "h": 6}


@pytest.mark.parametrize("name", sorted(CASES))
def test_colour_adjustments_match_mindspore(name):
    out = vision.RandomColorAdjust(**CASES[name])(IMAGE)
    assert out.dtype == np.uint8 and out.shape == IMAGE.shape
    difference = np.abs(out.astype(int) - RECORDED[name].astype(int))
    assert difference.max() <= TOLERANCE[name[0]]
    assert (difference > 0).mean() < 0.9     # most pixels agree exactly or nearly (hue: within a few levels)


def test_identity_factors_and_random_order():
    np.testing.assert_array_equal(vision.RandomColorAdjust()(IMAGE), IMAGE)
    adjust = vision.RandomColorAdjust(brightness=(0.7, 0.7), contrast=(1.3, 1.3), saturation=(1.5, 1.5), hue=(0.1, 0.1))
    assert len({adjust(IMAGE).tobytes() for _ in range(20)}) > 1    # MindSpore 2.10: 15 distinct of 20


@pytest.mark.parametrize("kwargs, error, message", [
    ({"brightness": -1}, ValueError, "The input value of brightness cannot be negative."),
    ({"hue": 0.7}, ValueError, r"Input is not within the required interval of \[0, 0.5\]."),
    ({"hue": (0.3, 0.1)}, ValueError, r"hue value should be in \(min,max\) format. Got \(0.3, 0.1\)."),
    ({"contrast": (2, 1)}, ValueError, r"contrast value should be in \(min,max\) format. Got \(2, 1\)."),
    ({"saturation": "x"}, TypeError, "Argument saturation with value x is not of type"),
])
def test_colour_adjust_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        vision.RandomColorAdjust(**kwargs)


def test_resized_crop_of_the_whole_image_is_resize():
    out = vision.RandomResizedCrop((8, 10), scale=(1.0, 1.0), ratio=(1.25, 1.25))(IMAGE)
    np.testing.assert_array_equal(out, vision.Resize((8, 10))(IMAGE))
    assert int(out.astype(int).sum()) == 29917                          # MindSpore 2.10
    encoded = io.BytesIO()
    Image.fromarray(IMAGE).save(encoded, format="PNG")
    decoded = vision.RandomCropDecodeResize((8, 10), scale=(1.0, 1.0), ratio=(1.25, 1.25))(
        np.frombuffer(encoded.getvalue(), np.uint8))
    assert int(decoded.astype(int).sum()) == 29917                      # MindSpore 2.10


def test_resized_crops_are_regions_of_the_image():
    crop = vision.RandomResizedCrop(6, interpolation=vision.Inter.NEAREST)
    for _ in range(20):
        out = crop(IMAGE)
        assert out.shape == (6, 6, 3)
        assert set(map(tuple, out.reshape(-1, 3))) <= set(map(tuple, IMAGE.reshape(-1, 3)))
    rows = ds.NumpySlicesDataset({"image": IMAGE[None].repeat(3, 0)}, shuffle=False).map(vision.RandomResizedCrop(4))
    assert [row[0].shape for row in rows.create_tuple_iterator(output_numpy=True)] == [(4, 4, 3)] * 3


@pytest.mark.parametrize("kwargs, message", [
    ({"size": 0}, r"Input is not within the required interval of \[1, 16777216\]."),
    ({"size": 4, "scale": (0.9, 0.1)}, r"scale should be in \(min,max\) format. Got \(max,min\)."),
    ({"size": 4, "ratio": (2.0, 1.0)}, r"ratio should be in \(min,max\) format. Got \(max,min\)."),
    ({"size": 4, "max_attempts": 0}, r"Input max_attempts is not within the required interval of \[1, 2147483647\]."),
    ({"size": 4, "scale": (-1, 1)}, r"Input is not within the required interval of \[0, 16777216\]."),
])
def test_resized_crop_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        vision.RandomResizedCrop(**kwargs)
