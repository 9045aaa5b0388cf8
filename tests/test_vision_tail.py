"""Vision transforms of the 2.10 usage list's tail (issue 26, data-nn-fn): ``RandomErasing``, ``read_image`` with
``ImageReadMode``, ``ToNumpy``.

``READ`` are the arrays MindSpore 2.10's ``read_image`` gives for the PNG files of ``tests/vision_tail_cases.py``
and ``ERRORS`` its ``RandomErasing`` argument errors, printed by ``tools/observe_mindspore_vision_tail.py``.
RandomErasing's draws come from npspore's seeded generator (MindSpore's from Python's ``random``): the tests check
what every draw must give.
"""
import numpy as np
import pytest

import npspore.dataset as ds
from npspore.dataset import vision
from vision_tail_cases import ERASING_ARGUMENTS, write_images

READ = {('rgb.png', 0): ((2, 4, 3),
                  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]),
 ('rgb.png', 1): ((2, 4, 1), [0, 3, 6, 9, 12, 15, 18, 21]),
 ('rgb.png', 2): ((2, 4, 3),
                  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]),
 ('gray.png', 0): ((2, 4, 1), [0, 30, 60, 90, 120, 150, 180, 210]),
 ('gray.png', 1): ((2, 4, 1), [0, 30, 60, 90, 120, 150, 180, 210]),
 ('gray.png', 2): ((2, 4, 3),
                   [0,
                    0,
                    0,
                    30,
                    30,
                    30,
                    60,
                    60,
                    60,
                    90,
                    90,
                    90,
                    120,
                    120,
                    120,
                    150,
                    150,
                    150,
                    180,
                    180,
                    180,
                    210,
                    210,
                    210]),
 ('rgba.png', 0): ((2, 4, 3),
                   [0,
                    7,
                    14,
                    28,
                    35,
                    42,
                    56,
                    63,
                    70,
                    84,
                    91,
                    98,
                    112,
                    119,
                    126,
                    140,
                    147,
                    154,
                    168,
                    175,
                    182,
                    196,
                    203,
                    210]),
 ('rgba.png', 1): ((2, 4, 1), [5, 33, 61, 89, 117, 145, 173, 201]),
 ('rgba.png', 2): ((2, 4, 3),
                   [0,
                    7,
                    14,
                    28,
                    35,
                    42,
                    56,
                    63,
                    70,
                    84,
                    91,
                    98,
                    112,
                    119,
                    126,
                    140,
                    147,
                    154,
                    168,
                    175,
                    182,
                    196,
                    203,
                    210])}
ERRORS = [('ValueError', 'Input prob is not within the required interval of [0.0, 1.0].'),
 ('TypeError',
  "Argument prob with value a is not of type [<class 'float'>, <class 'int'>], but got <class 'str'>."),
 ('ValueError', 'scale should be in (min,max) format. Got (max,min).'),
 ('TypeError', 'scale should be a list or tuple of length 2.'),
 ('ValueError', 'ratio should be in (min,max) format. Got (max,min).'),
 ('ValueError', 'Input is not within the required interval of [0, 255].'),
 ('ValueError',
  "The value for erasing should be either a single value, or a string 'random', or a sequence of 3 elements for "
  'RGB respectively.'),
 ('ValueError',
  "The value for erasing should be either a single value, or a string 'random', or a sequence of 3 elements for "
  'RGB respectively.'),
 ('ValueError', 'Input is not within the required interval of [1, 16777216].'),
 ('TypeError', "Argument inplace with value 1 is not of type [<class 'bool'>], but got <class 'int'>.")]


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    folder = tmp_path_factory.mktemp("images")
    write_images(folder)
    return folder


@pytest.mark.parametrize("name, mode", list(READ))
def test_read_image_is_mindspores(images, name, mode):
    out = vision.read_image(str(images / name), vision.ImageReadMode(mode))
    shape, values = READ[(name, mode)]
    assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == shape
    assert out.ravel().tolist() == values


def test_read_image_errors(images):
    with pytest.raises(TypeError, match="Input filename is not of type <class 'str'>, but got: <class 'int'>."):
        vision.read_image(3)
    with pytest.raises(TypeError, match="Input mode is not of type"):
        vision.read_image(str(images / "rgb.png"), 1)
    with pytest.raises(ValueError, match="does not exist"):
        vision.read_image(str(images / "none.png"))
    (images / "bad.png").write_bytes(b"not an image")
    with pytest.raises(ValueError, match="Invalid image file"):
        vision.read_image(str(images / "bad.png"))


@pytest.mark.parametrize("arguments, error", list(zip(ERASING_ARGUMENTS, ERRORS)))
def test_random_erasing_refuses_mindspores_bad_arguments(arguments, error):
    with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[error[0]]) as raised:
        vision.RandomErasing(**arguments)
    assert str(raised.value) == error[1]


def test_random_erasing_erases_one_rectangle_of_the_drawn_size():
    image = np.arange(3 * 6 * 8, dtype=np.float32).reshape(3, 6, 8) + 1000
    for seed in range(20):
        ds.config.set_seed(seed)
        out = vision.RandomErasing(prob=1.0, scale=(0.25, 0.25), ratio=(1.0, 1.0), value=(7, 8, 9))(image)
        changed = out != image
        rows, cols = np.nonzero(changed[0])
        # area 12 at ratio 1: a round(sqrt(12)) = 3 pixel square, one per channel with its value
        assert (rows.max() - rows.min() + 1, cols.max() - cols.min() + 1) == (3, 3) and changed[0].sum() == 9
        assert (changed == changed[0]).all() and [out[c][changed[c]].tolist() for c in range(3)] == [
            [7.0] * 9, [8.0] * 9, [9.0] * 9]
    assert not np.shares_memory(out, image)


def test_random_erasing_keeps_the_image_when_nothing_fits_or_prob_is_zero():
    image = np.arange(48, dtype=np.uint8).reshape(3, 4, 4)
    assert vision.RandomErasing(prob=0.0)(image).tolist() == image.tolist()
    # MindSpore 2.10: an erased area of the whole image never fits; the image comes back unchanged
    kept = vision.RandomErasing(prob=1.0, scale=(1.0, 1.0), ratio=(1.0, 1.0))(image)
    assert kept.tolist() == image.tolist() and kept.dtype == np.uint8


def test_random_erasing_random_values_and_inplace():
    image = np.zeros((3, 10, 10), np.float32)
    out = vision.RandomErasing(prob=1.0, scale=(0.09, 0.09), ratio=(1.0, 1.0), value="random")(image)
    assert (out != 0).sum() == 27 and not image.any()
    vision.RandomErasing(prob=1.0, scale=(0.09, 0.09), ratio=(1.0, 1.0), value=5, inplace=True)(image)
    assert (image == 5).sum() == 27
    with pytest.raises(ValueError, match="<C, H, W>"):
        vision.RandomErasing(prob=1.0)(np.zeros((4, 4), np.uint8))


def test_random_erasing_and_to_numpy_in_a_pipeline():
    data = ds.NumpySlicesDataset(np.ones((2, 3, 5, 5), np.uint8), ["image"], shuffle=False)
    data = data.map([vision.ToNumpy(), vision.RandomErasing(prob=1.0, scale=(0.16, 0.16), ratio=(1.0, 1.0))],
                    input_columns="image")
    for row in data.create_tuple_iterator(output_numpy=True):
        assert row[0].shape == (3, 5, 5) and (row[0] == 0).sum() == 12
