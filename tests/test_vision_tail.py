"""Vision transforms of the 2.10 usage list's tail (issue 26, data-nn-fn): ``RandomErasing``, ``read_image`` with
``ImageReadMode``, ``ToNumpy``, ``Rotate``, ``AdjustBrightness/Contrast/Saturation/Hue``, ``NormalizePad``,
``SlicePatches``; ``vision.py_transforms_util``'s PIL helpers.

``READ`` are the arrays MindSpore 2.10's ``read_image`` gives for the PNG files of ``tests/vision_tail_cases.py``
``ERRORS`` its ``RandomErasing`` argument errors and ``TRANSFORMS`` the outputs (dtype, shape, values) or errors of
the transform cases, printed by ``tools/observe_mindspore_vision_tail.py``.
RandomErasing's draws come from npspore's seeded generator (MindSpore's from Python's ``random``): the tests check
what every draw must give.
"""
import numpy as np
import pytest

import npspore.dataset as ds
from npspore.dataset import vision
from vision_tail_cases import ERASING_ARGUMENTS, IMG, TRANSFORM_CASES, write_images

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

TRANSFORMS = {'rotate_30_expand': ('uint8', (7, 8, 3),
                      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 105, 112, 119, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                       0, 0, 0, 0, 63, 70, 77, 84, 91, 98, 231, 238, 245, 0, 0, 0, 0, 0, 0, 0, 0, 0, 21, 28, 35, 42,
                       49, 56, 189, 196, 203, 210, 217, 224, 101, 108, 115, 101, 108, 115, 0, 0, 0, 0, 7, 14, 147,
                       154, 161, 147, 154, 161, 38, 45, 52, 59, 66, 73, 206, 213, 220, 227, 234, 241, 0, 0, 0, 0, 0,
                       0, 252, 3, 10, 17, 24, 31, 164, 171, 178, 185, 192, 199, 76, 83, 90, 76, 83, 90, 0, 0, 0, 0,
                       0, 0, 252, 3, 10, 122, 129, 136, 143, 150, 157, 34, 41, 48, 55, 62, 69, 0, 0, 0, 0, 0, 0, 0,
                       0, 0, 0, 0, 0, 248, 255, 6, 13, 20, 27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
 'rotate_90': ('uint8', (5, 6, 3),
               [105, 112, 119, 231, 238, 245, 101, 108, 115, 227, 234, 241, 97, 104, 111, 0, 0, 0, 84, 91, 98, 210,
                217, 224, 80, 87, 94, 206, 213, 220, 76, 83, 90, 0, 0, 0, 63, 70, 77, 189, 196, 203, 59, 66, 73,
                185, 192, 199, 55, 62, 69, 0, 0, 0, 42, 49, 56, 168, 175, 182, 38, 45, 52, 164, 171, 178, 34, 41,
                48, 0, 0, 0, 21, 28, 35, 147, 154, 161, 17, 24, 31, 143, 150, 157, 13, 20, 27, 0, 0, 0]),
 'rotate_bilinear_center': ('uint8', (5, 6, 3),
                            [7, 8, 9, 47, 52, 56, 6, 12, 19, 10, 12, 14, 7, 8, 9, 7, 8, 9, 152, 5, 10, 147, 102,
                             109, 96, 103, 110, 32, 39, 45, 15, 17, 19, 7, 8, 9, 144, 99, 106, 17, 24, 31, 126, 133,
                             140, 125, 132, 139, 58, 65, 71, 21, 23, 25, 90, 97, 104, 123, 130, 137, 47, 54, 61,
                             155, 162, 169, 156, 163, 170, 84, 90, 97, 25, 32, 38, 120, 127, 134, 152, 159, 166, 77,
                             84, 91, 185, 192, 199, 137, 142, 148]),
 'adjust_brightness': ('uint8', (5, 6, 3),
                       [0, 12, 24, 36, 48, 60, 71, 83, 95, 107, 119, 131, 143, 155, 167, 178, 190, 202, 214, 226,
                        238, 250, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 5, 17,
                        29, 41, 53, 65, 76, 88, 100, 112, 124, 136, 148, 160, 172, 184, 196, 207, 219, 231, 243,
                        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 10, 22, 34,
                        46, 58, 70, 82, 94, 105, 117, 129, 141, 153, 165, 177, 189]),
 'adjust_contrast': ('uint8', (5, 6, 3),
                     [70, 72, 75, 78, 81, 84, 86, 89, 92, 95, 98, 100, 103, 106, 109, 112, 114, 117, 120, 123, 126,
                      128, 131, 134, 137, 140, 142, 145, 148, 151, 154, 156, 159, 162, 165, 168, 170, 71, 74, 76,
                      79, 82, 85, 88, 90, 93, 96, 99, 102, 104, 107, 110, 113, 116, 118, 121, 124, 127, 130, 132,
                      135, 138, 141, 144, 146, 149, 152, 155, 158, 160, 163, 166, 169, 172, 72, 75, 78, 80, 83, 86,
                      89, 92, 94, 97, 100, 103, 106, 108, 111, 114]),
 'adjust_saturation': ('uint8', (5, 6, 3),
                       [0, 8, 26, 12, 30, 47, 33, 50, 68, 54, 72, 89, 75, 92, 110, 96, 114, 131, 117, 134, 152, 138,
                        156, 173, 159, 176, 194, 180, 198, 215, 201, 218, 236, 222, 240, 255, 255, 0, 0, 8, 26, 43,
                        29, 46, 64, 50, 68, 85, 71, 88, 106, 92, 110, 127, 113, 130, 148, 134, 152, 169, 155, 172,
                        190, 176, 194, 211, 197, 214, 232, 218, 236, 253, 255, 255, 0, 4, 22, 39, 25, 42, 60, 46,
                        64, 81, 67, 84, 102, 88, 106, 123]),
 'adjust_hue': ('uint8', (5, 6, 3),
                [10, 0, 14, 31, 21, 35, 52, 42, 56, 73, 63, 77, 94, 84, 98, 115, 105, 119, 136, 126, 140, 157, 147,
                 161, 178, 168, 182, 199, 189, 203, 220, 210, 224, 241, 231, 245, 208, 252, 3, 27, 17, 31, 48, 38,
                 52, 69, 59, 73, 90, 80, 94, 111, 101, 115, 132, 122, 136, 153, 143, 157, 174, 164, 178, 195, 185,
                 199, 216, 206, 220, 237, 227, 241, 6, 255, 65, 23, 13, 27, 44, 34, 48, 65, 55, 69, 86, 76, 90, 107,
                 97, 111]),
 'normalize_pad_chw': ('float16', (4, 5, 6),
                       [-0.5, 10.0, 20.5, 31.0, 41.5, 52.0, 62.5, 73.0, 83.5, 94.0, 104.5, 115.0, 125.5, 8.0, 18.5,
                        29.0, 39.5, 50.0, 60.5, 71.0, 81.5, 92.0, 102.5, 113.0, 123.5, 6.0, 16.5, 27.0, 37.5, 48.0,
                        2.5, 13.0, 23.5, 34.0, 44.5, 55.0, 65.5, 76.0, 86.5, 97.0, 107.5, 118.0, 0.5, 11.0, 21.5,
                        32.0, 42.5, 53.0, 63.5, 74.0, 84.5, 95.0, 105.5, 116.0, 126.5, 9.0, 19.5, 30.0, 40.5, 51.0,
                        5.5, 16.0, 26.5, 37.0, 47.5, 58.0, 68.5, 79.0, 89.5, 100.0, 110.5, 121.0, 3.5, 14.0, 24.5,
                        35.0, 45.5, 56.0, 66.5, 77.0, 87.5, 98.0, 108.5, 119.0, 1.5, 12.0, 22.5, 33.0, 43.5, 54.0,
                        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
 'slice_pad': [('uint8', (3, 2, 3), [0, 7, 14, 21, 28, 35, 126, 133, 140, 147, 154, 161, 252, 3, 10, 17, 24, 31]),
               ('uint8', (3, 2, 3), [42, 49, 56, 63, 70, 77, 168, 175, 182, 189, 196, 203, 38, 45, 52, 59, 66, 73]),
               ('uint8', (3, 2, 3),
                [84, 91, 98, 105, 112, 119, 210, 217, 224, 231, 238, 245, 80, 87, 94, 101, 108, 115]),
               ('uint8', (3, 2, 3), [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]),
               ('uint8', (3, 2, 3), [122, 129, 136, 143, 150, 157, 248, 255, 6, 13, 20, 27, 3, 3, 3, 3, 3, 3]),
               ('uint8', (3, 2, 3), [164, 171, 178, 185, 192, 199, 34, 41, 48, 55, 62, 69, 3, 3, 3, 3, 3, 3]),
               ('uint8', (3, 2, 3), [206, 213, 220, 227, 234, 241, 76, 83, 90, 97, 104, 111, 3, 3, 3, 3, 3, 3]),
               ('uint8', (3, 2, 3), [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3])],
 'slice_drop': [('uint8', (2, 1, 3), [0, 7, 14, 126, 133, 140]), ('uint8', (2, 1, 3), [21, 28, 35, 147, 154, 161]),
                ('uint8', (2, 1, 3), [42, 49, 56, 168, 175, 182]),
                ('uint8', (2, 1, 3), [63, 70, 77, 189, 196, 203]),
                ('uint8', (2, 1, 3), [252, 3, 10, 122, 129, 136]),
                ('uint8', (2, 1, 3), [17, 24, 31, 143, 150, 157]),
                ('uint8', (2, 1, 3), [38, 45, 52, 164, 171, 178]),
                ('uint8', (2, 1, 3), [59, 66, 73, 185, 192, 199])],
 'util_brightness': ('uint8', (5, 6, 3),
                     [0, 10, 21, 31, 42, 52, 63, 73, 84, 94, 105, 115, 126, 136, 147, 157, 168, 178, 189, 199, 210,
                      220, 231, 241, 252, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 4, 15, 25, 36,
                      46, 57, 67, 78, 88, 99, 109, 120, 130, 141, 151, 162, 172, 183, 193, 204, 214, 225, 235, 246,
                      255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 9, 19, 30, 40, 51, 61, 72,
                      82, 93, 103, 114, 124, 135, 145, 156, 166]),
 'util_contrast': ('uint8', (5, 6, 3),
                   [81, 83, 85, 87, 89, 91, 93, 95, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 119, 121, 123,
                    125, 127, 129, 131, 133, 135, 137, 140, 142, 144, 146, 148, 150, 152, 154, 156, 82, 84, 86, 88,
                    90, 92, 94, 96, 98, 101, 103, 105, 107, 109, 111, 113, 115, 117, 119, 122, 124, 126, 128, 130,
                    132, 134, 136, 138, 140, 143, 145, 147, 149, 151, 153, 155, 157, 83, 85, 87, 89, 91, 93, 95, 97,
                    99, 101, 104, 106, 108, 110, 112, 114]),
 'util_saturation': ('uint8', (5, 6, 3),
                     [0, 7, 20, 16, 28, 41, 37, 49, 62, 58, 70, 83, 79, 91, 104, 100, 112, 125, 121, 133, 146, 142,
                      154, 167, 163, 175, 188, 184, 196, 209, 205, 217, 230, 226, 238, 251, 255, 0, 0, 12, 24, 37,
                      33, 45, 58, 54, 66, 79, 75, 87, 100, 96, 108, 121, 117, 129, 142, 138, 150, 163, 159, 171,
                      184, 180, 192, 205, 201, 213, 226, 222, 234, 247, 255, 255, 0, 8, 20, 33, 29, 41, 54, 50, 62,
                      75, 71, 83, 96, 92, 104, 117]),
 'util_rotate': ('uint8', (9, 8, 3),
                 [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
                  5, 5, 5, 93, 100, 107, 124, 131, 138, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 46, 53, 60, 66, 73, 80,
                  147, 154, 161, 224, 231, 238, 5, 5, 5, 5, 5, 5, 5, 5, 5, 17, 24, 31, 84, 91, 98, 165, 172, 179,
                  148, 155, 162, 101, 108, 115, 149, 156, 163, 5, 5, 5, 5, 5, 5, 101, 108, 115, 118, 125, 132, 71,
                  78, 85, 89, 96, 103, 170, 177, 184, 187, 194, 201, 5, 5, 5, 5, 5, 5, 203, 52, 59, 93, 32, 39, 106,
                  113, 120, 158, 165, 172, 111, 118, 125, 79, 86, 93, 5, 5, 5, 5, 5, 5, 5, 5, 5, 127, 130, 137, 81,
                  88, 95, 34, 41, 48, 50, 57, 64, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 228, 235, 25, 114, 121, 17, 5,
                  5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
                  5, 5]),
 'util_crop_pad_edge': ('uint8', (9, 10, 3),
                        [0, 7, 14, 0, 7, 14, 0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112,
                         119, 105, 112, 119, 105, 112, 119, 0, 7, 14, 0, 7, 14, 0, 7, 14, 21, 28, 35, 42, 49, 56,
                         63, 70, 77, 84, 91, 98, 105, 112, 119, 105, 112, 119, 105, 112, 119, 0, 7, 14, 0, 7, 14, 0,
                         7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119, 105, 112, 119, 105,
                         112, 119, 126, 133, 140, 126, 133, 140, 126, 133, 140, 147, 154, 161, 168, 175, 182, 189,
                         196, 203, 210, 217, 224, 231, 238, 245, 231, 238, 245, 231, 238, 245, 252, 3, 10, 252, 3,
                         10, 252, 3, 10, 17, 24, 31, 38, 45, 52, 59, 66, 73, 80, 87, 94, 101, 108, 115, 101, 108,
                         115, 101, 108, 115, 122, 129, 136, 122, 129, 136, 122, 129, 136, 143, 150, 157, 164, 171,
                         178, 185, 192, 199, 206, 213, 220, 227, 234, 241, 227, 234, 241, 227, 234, 241, 248, 255,
                         6, 248, 255, 6, 248, 255, 6, 13, 20, 27, 34, 41, 48, 55, 62, 69, 76, 83, 90, 97, 104, 111,
                         97, 104, 111, 97, 104, 111, 248, 255, 6, 248, 255, 6, 248, 255, 6, 13, 20, 27, 34, 41, 48,
                         55, 62, 69, 76, 83, 90, 97, 104, 111, 97, 104, 111, 97, 104, 111, 248, 255, 6, 248, 255, 6,
                         248, 255, 6, 13, 20, 27, 34, 41, 48, 55, 62, 69, 76, 83, 90, 97, 104, 111, 97, 104, 111,
                         97, 104, 111]),
 'util_crop_pad_constant': ('uint8', (5, 8, 3),
                            [1, 2, 3, 0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119, 1, 2,
                             3, 1, 2, 3, 126, 133, 140, 147, 154, 161, 168, 175, 182, 189, 196, 203, 210, 217, 224,
                             231, 238, 245, 1, 2, 3, 1, 2, 3, 252, 3, 10, 17, 24, 31, 38, 45, 52, 59, 66, 73, 80,
                             87, 94, 101, 108, 115, 1, 2, 3, 1, 2, 3, 122, 129, 136, 143, 150, 157, 164, 171, 178,
                             185, 192, 199, 206, 213, 220, 227, 234, 241, 1, 2, 3, 1, 2, 3, 248, 255, 6, 13, 20, 27,
                             34, 41, 48, 55, 62, 69, 76, 83, 90, 97, 104, 111, 1, 2, 3]),
 'util_crop_pad_four': ('uint8', (8, 9, 3),
                        [17, 24, 31, 252, 3, 10, 17, 24, 31, 38, 45, 52, 59, 66, 73, 80, 87, 94, 101, 108, 115, 80,
                         87, 94, 59, 66, 73, 147, 154, 161, 126, 133, 140, 147, 154, 161, 168, 175, 182, 189, 196,
                         203, 210, 217, 224, 231, 238, 245, 210, 217, 224, 189, 196, 203, 21, 28, 35, 0, 7, 14, 21,
                         28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119, 84, 91, 98, 63, 70, 77, 147,
                         154, 161, 126, 133, 140, 147, 154, 161, 168, 175, 182, 189, 196, 203, 210, 217, 224, 231,
                         238, 245, 210, 217, 224, 189, 196, 203, 17, 24, 31, 252, 3, 10, 17, 24, 31, 38, 45, 52, 59,
                         66, 73, 80, 87, 94, 101, 108, 115, 80, 87, 94, 59, 66, 73, 143, 150, 157, 122, 129, 136,
                         143, 150, 157, 164, 171, 178, 185, 192, 199, 206, 213, 220, 227, 234, 241, 206, 213, 220,
                         185, 192, 199, 13, 20, 27, 248, 255, 6, 13, 20, 27, 34, 41, 48, 55, 62, 69, 76, 83, 90, 97,
                         104, 111, 76, 83, 90, 55, 62, 69, 143, 150, 157, 122, 129, 136, 143, 150, 157, 164, 171,
                         178, 185, 192, 199, 206, 213, 220, 227, 234, 241, 206, 213, 220, 185, 192, 199]),
 'util_crop_too_big': ('ValueError', 'Crop size (6, 8) is larger than input image size (5, 8).'),
 'util_not_pil': ('TypeError',
                  "img should be PIL image. Got <class 'numpy.ndarray'>. Use Decode() for encoded data or ToPIL() "
                  'for decoded data.')}


def _summary(out):
    if isinstance(out, (tuple, list)):
        return [_summary(v) for v in out]
    return (out.dtype.name, out.shape, out.ravel().tolist())


@pytest.mark.parametrize("key, expression", [case for case in TRANSFORM_CASES if case[0] in TRANSFORMS])
def test_transforms_are_mindspores(key, expression):
    from PIL import Image
    from npspore.dataset.vision import py_transforms_util as util
    want = TRANSFORMS[key]
    run = lambda: eval(expression, {"vision": vision, "util": util, "Image": Image, "np": np, "IMG": IMG})  # noqa
    if isinstance(want, tuple) and want[0].endswith("Error"):
        with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[want[0]]) as raised:
            run()
        assert str(raised.value) == want[1]
        return
    out = _summary(run())
    if key.startswith("normalize_pad"):   # float16/float32 arithmetic
        assert out[:2] == want[:2]
        np.testing.assert_allclose(out[2], want[2], rtol=1e-6)
        return
    assert out == want


def test_normalize_pad_appends_a_zero_channel():
    # MindSpore 2.10's eager HWC output lays the zeros out as in CHW (a reshape of the CHW buffer); npspore appends
    # the documented zero fourth channel
    out = vision.NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])(IMG)
    want = (IMG - np.array([121.0, 115.0, 100.0])) / np.array([70.0, 68.0, 71.0])
    assert out.shape == (5, 6, 4) and out.dtype == np.float32 and not out[..., 3].any()
    np.testing.assert_allclose(out[..., :3], want, rtol=1e-6)


def test_random_crop_draws_a_place_inside_the_padded_image():
    from PIL import Image
    from npspore.dataset.vision import py_transforms_util as util
    padded = np.pad(IMG, [(1, 1), (0, 0), (0, 0)], mode="symmetric")
    for _ in range(5):
        out = np.asarray(util.random_crop(Image.fromarray(IMG), (6, 6), None, True, 0, "symmetric"))
        assert out.shape == (6, 6, 3) and any((out == padded[top:top + 6]).all() for top in range(2))
