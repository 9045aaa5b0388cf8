"""``vision.RandomColorAdjust`` against MindSpore 2.10's OpenCV kernels, pixel for pixel.

``tests/fixtures/images/color_adjust_mindspore.npz`` holds what the real MindSpore 2.10.0 gave for
``color_adjust_input.npy`` with fixed factors (``tools/make_vision_fixtures.py``: brightness 1.5, contrast 0.5,
saturation 2, hue 0.1, and all four at once). MindSpore applies the four adjustments in a random order
(20 unseeded calls with all four fixed gave 16 different images), so its all-four image must be one of the
orders npspore can draw. Seeded draws against MindSpore's: ``tests/test_transform_draws.py``.
"""
import itertools
from pathlib import Path

import numpy as np
import pytest

import npspore.dataset as ds
from npspore.dataset import vision
from npspore.dataset.vision import color

IMAGES = Path(__file__).parent / "fixtures" / "images"
IMAGE = np.load(IMAGES / "color_adjust_input.npy")
MINDSPORE = np.load(IMAGES / "color_adjust_mindspore.npz")


@pytest.mark.parametrize("name, kwargs", [("b", dict(brightness=(1.5, 1.5))), ("c", dict(contrast=(0.5, 0.5))),
                                          ("s", dict(saturation=(2.0, 2.0))), ("h", dict(hue=(0.1, 0.1)))])
def test_each_adjustment_gives_mindspores_pixels(name, kwargs):
    np.testing.assert_array_equal(vision.RandomColorAdjust(**kwargs)(IMAGE), MINDSPORE[name])


def test_all_four_in_a_random_order_one_of_which_is_mindspores():
    steps = [(color.adjust_brightness, 1.2), (color.adjust_contrast, 0.8), (color.adjust_saturation, 1.5),
             (color.adjust_hue, -0.2)]
    orders = {}
    for order in itertools.permutations(steps):
        image = IMAGE
        for adjust, factor in order:
            image = adjust(image, factor)
        orders[image.tobytes()] = [adjust.__name__ for adjust, _ in order]
    assert MINDSPORE["all"].tobytes() in orders
    ds.config.set_seed(5)
    adjust = vision.RandomColorAdjust(brightness=(1.2, 1.2), contrast=(0.8, 0.8), saturation=(1.5, 1.5),
                                      hue=(-0.2, -0.2))
    # called directly, the transform is built anew for each call (as MindSpore's): the seed's first order each time
    assert len({adjust(IMAGE).tobytes() for _ in range(5)}) == 1
    drawn = {image.tobytes() for image in _mapped(adjust, IMAGE, 40)}
    assert drawn <= set(orders) and len(drawn) > 4


def _mapped(transform, image, rows):
    data = ds.NumpySlicesDataset({"image": np.stack([image] * rows)}, shuffle=False)
    data = data.map(transform, input_columns="image", num_parallel_workers=1)
    return [row["image"] for row in data.create_dict_iterator(output_numpy=True)]


def test_factors_are_drawn_from_the_ranges():
    ds.config.set_seed(1)
    brighter = [image[0, 0, 0] for image in _mapped(vision.RandomColorAdjust(brightness=0.4),
                                                   np.full((1, 1, 3), 100, np.uint8), 50)]
    assert 60 <= min(brighter) < 80 and 120 < max(brighter) <= 140


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(brightness=-1), ValueError, "The input value of brightness cannot be negative."),
    (dict(hue=0.6), ValueError, r"Input is not within the required interval of \[-0.5, 0.5\]."),
    (dict(brightness=(2, 1)), ValueError, r"brightness value should be in \(min,max\) format. Got \(2, 1\)."),
    (dict(contrast="a"), TypeError, "Argument contrast with value a is not of type"),
    (dict(brightness=(-1, 2)), ValueError, r"Input is not within the required interval of \[0, 16777216\]."),
    (dict(saturation=[0.5, 1.5, 2]), TypeError, "If saturation is a sequence, the length must be 2."),
    (dict(hue=-0.1), ValueError, "The input value of hue cannot be negative."),
])
def test_argument_errors_as_mindspore(kwargs, error, message):
    with pytest.raises(error, match=message):
        vision.RandomColorAdjust(**kwargs)


def test_image_errors_as_mindspore():
    with pytest.raises(RuntimeError, match="Expecting tensor in dimension of \\(3\\), in shape of <H, W, C>. But got "
                                           "dimension 2."):
        vision.RandomColorAdjust()(IMAGE[:, :, 0])
    with pytest.raises(RuntimeError, match="Expecting tensor in channel of \\(3\\). But got channel 4."):
        vision.RandomColorAdjust()(np.dstack([IMAGE, IMAGE[:, :, :1]]))
