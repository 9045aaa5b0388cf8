"""Pixel adjustments and random compositions of ``dataset.vision``/``dataset.transforms`` against MindSpore 2.10:
``tests/fixtures/images/adjust_mindspore.npz`` holds MindSpore 2.10's outputs (its C++ kernels on arrays, its
Pillow code on ``PIL.Image`` inputs) for the cases of ``tools/make_vision_adjust_fixtures.py``, fixed draws; the
other values and messages are MindSpore 2.10's, printed by it for the same calls. Random transforms follow the
pipeline seed."""
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore.dataset as ds
import npspore.dataset.transforms as T
import npspore.dataset.vision as vision

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from make_vision_adjust_fixtures import CASES, PIL_CASES  # noqa: E402

Image = pytest.importorskip("PIL.Image")
FIXTURE = np.load(Path(__file__).parent / "fixtures" / "images" / "adjust_mindspore.npz")
IMAGE = FIXTURE["image"]
INPUTS = {"image": IMAGE, "gray": np.ascontiguousarray(IMAGE[..., 0])}


@pytest.mark.parametrize("name", sorted(set(CASES) & set(FIXTURE.files)))
def test_array_kernels_are_mindspores_pixel_for_pixel(name):
    text, source = CASES[name]
    out = eval(f"vision.{text}", {"vision": vision})(INPUTS[source])
    assert out.dtype == FIXTURE[name].dtype
    np.testing.assert_array_equal(out, FIXTURE[name])


@pytest.mark.parametrize("name", sorted(PIL_CASES))
def test_pil_transforms_are_mindspores(name):
    out = eval(f"vision.{PIL_CASES[name]}", {"vision": vision})(Image.fromarray(IMAGE))
    assert isinstance(out, Image.Image)
    np.testing.assert_array_equal(np.asarray(out), FIXTURE[name])


def test_transforms_in_a_pipeline_and_seeded_draws():
    ds.config.set_seed(4)
    data = ds.NumpySlicesDataset({"image": np.stack([IMAGE] * 6)}, shuffle=False)
    first = [row[0] for row in data.map(vision.RandomSharpness((0.0, 1.9))).create_tuple_iterator(output_numpy=True)]
    ds.config.set_seed(4)
    again = [row[0] for row in data.map(vision.RandomSharpness((0.0, 1.9))).create_tuple_iterator(output_numpy=True)]
    np.testing.assert_array_equal(np.stack(first), np.stack(again))
    assert len({row.tobytes() for row in first}) > 1  # a factor drawn per row
    ds.config.set_seed(4)
    white = ds.NumpySlicesDataset({"image": np.full((60, 1, 1, 3), 255, np.uint8)}, shuffle=False)
    kept_bits = {int(np.max(row[0])) for row in white.map(vision.RandomPosterize((1, 8))).create_tuple_iterator(
        output_numpy=True)}
    assert kept_bits == {(0xFF << (8 - b)) & 0xFF for b in range(1, 9)}


@pytest.mark.parametrize("call, expected", [
    # MindSpore 2.10
    ("T.PadEnd([4])(np.array([1, 2, 3]))", [1, 2, 3, 0]),
    ("T.PadEnd([2, 4], 9)(np.array([[1, 2], [3, 4]]))", [[1, 2, 9, 9], [3, 4, 9, 9]]),
    ("T.PadEnd([4], 'x')(np.array(['a', 'b']))", ["a", "b", "x", "x"]),
    ("T.PadEnd([4])(np.array(['a', 'b']))", ["a", "b", "", ""]),
    ("T.PadEnd([1])(np.array([1, 2, 3]))", [1]),
    ("T.RandomChoice([vision.Invert()])(np.ones((1, 2, 3), np.uint8))", [[[254] * 3] * 2]),
    ("T.RandomApply([vision.Invert()], prob=1.0)(np.ones((1, 2, 3), np.uint8))", [[[254] * 3] * 2]),
    ("T.RandomApply([vision.Invert()], prob=0.0)(np.ones((1, 2, 3), np.uint8))", [[[1] * 3] * 2]),
    ("vision.RandomSelectSubpolicy([[(vision.Invert(), 1.0), (vision.RandomPosterize(1), 1.0)]])"
     "(np.full((1, 2, 3), 100, np.uint8))", [[[128] * 3] * 2]),
    ("vision.RandomSelectSubpolicy([[(vision.Invert(), 0.0)]])(np.full((1, 2, 3), 100, np.uint8))", [[[100] * 3] * 2]),
])
def test_compositions_and_padding_are_mindspores(call, expected):
    assert eval(call, {"T": T, "vision": vision, "np": np}).tolist() == expected


def test_duplicate_makes_two_columns():
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False).map(T.Duplicate(), input_columns=["x"],
                                                                         output_columns=["x", "y"])
    assert data.get_col_names() == ["x", "y"]
    assert [[int(v) for v in row] for row in data.create_tuple_iterator(output_numpy=True)] == [[0, 0], [1, 1], [2, 2]]


@pytest.mark.parametrize("call, error, message", [
    # MindSpore 2.10's messages
    ("vision.AutoContrast(cutoff=50.0)", ValueError, "Input cutoff is not within the required interval of [0, 50)."),
    ("vision.AutoContrast(ignore=256)", ValueError, "Input ignore is not within the required interval of [0, 255]."),
    ("vision.AutoContrast(ignore='a')", TypeError, "Argument ignore with value a is not of type [<class 'list'>, "
                                                   "<class 'tuple'>, <class 'int'>], but got <class 'str'>."),
    ("vision.RandomSolarize((200, 100))", ValueError, "threshold must be in min max format numbers."),
    ("vision.RandomSolarize((0, 256))", ValueError, "Input is not within the required interval of [0, 255]."),
    ("vision.RandomSolarize(5)", TypeError, "Argument threshold with value 5 is not of type [<class 'tuple'>]"),
    ("vision.RandomPosterize((4, 2))", ValueError, "Input is not within the required interval of [1, 8]."),
    ("vision.RandomPosterize(9)", ValueError, "Input is not within the required interval of [1, 8]."),
    ("vision.RandomColor((-1, 1))", ValueError, "Input is not within the required interval of [0, 16777216]."),
    ("vision.RandomColor((2, 1))", ValueError, "degrees should be in (min,max) format. Got (max,min)."),
    ("vision.RandomColor(0.5)", TypeError, "degrees must be either a tuple or a list."),
    ("vision.RandomSharpness((2.0, 1.0))", ValueError, "degrees should be in (min,max) format. Got (max,min)."),
    ("vision.Crop((1, 2), 0)", ValueError, "Input is not within the required interval of [1, 16777216]."),
    ("vision.Crop((-1, 2), 3)", ValueError, "Input coordinates[0] is not within the required interval of "
                                            "[0, 2147483647]."),
    ("vision.Crop(1, 3)", TypeError, "Argument coordinates with value 1 is not of type [<class 'list'>, "
                                     "<class 'tuple'>], but got <class 'int'>."),
    ("vision.Grayscale(2)", ValueError, "Number of channels of the output grayscale imageshould be either 1 or 3. "
                                        "Got 2."),
    ("vision.RandomGrayscale(1.5)", ValueError, "Input prob is not within the required interval of [0.0, 1.0]."),
    ("vision.Crop((1, 2), (3, 4))(np.zeros((3, 4, 3), np.uint8))", RuntimeError,
     "Crop: Crop height dimension: 4 exceeds image height: 3"),
    ("vision.RandomColor((1.0, 1.0))(np.zeros((3, 4), np.uint8))", RuntimeError,
     "RandomColor: image shape is not <H,W,C> or channel is not 3, got rank: 2, and shape: <3,4>"),
    ("vision.Invert()(np.zeros((3, 4), np.uint8))", RuntimeError,
     "Invert: input tensor is not in shape of <H,W,C>, but got rank: 2"),
    ("vision.RandomPosterize((2, 2))(np.zeros((3, 4, 3), np.float32))", RuntimeError,
     "Posterize: data type of input image should be int8 or uint8, but got float32"),
    ("vision.Grayscale()(np.zeros((3, 4, 3), np.uint8))", TypeError,
     "img should be PIL image. Got <class 'numpy.ndarray'>. Use Decode() for encoded data or ToPIL() for decoded "
     "data."),
    ("T.PadEnd(4)", TypeError, "Argument pad_shape with value 4 is not of type [<class 'list'>], but got "
                               "<class 'int'>."),
    ("T.PadEnd([2, 2])(np.array([1, 2]))", RuntimeError,
     "PadEnd: invalid pad shape, as rank of input is: 1, and rank of pad value: 2"),
    ("T.RandomChoice([])", ValueError, "transforms list can not be empty."),
    ("T.RandomApply([vision.Invert()], 1.5)", ValueError, "Input prob is not within the required interval of [0, 1]."),
    ("vision.RandomSelectSubpolicy([])", ValueError, "policy can not be empty."),
    ("vision.RandomSelectSubpolicy([[(vision.Invert(), 1.5)]])", ValueError,
     "Input prob of (op, prob) policy[0][0] is not within the required interval of [0, 1]."),
    ("vision.RandomSelectSubpolicy([[vision.Invert()]])", ValueError, "Value policy[0][0] needs to be a 2-tuple."),
    ("vision.RandomSelectSubpolicy([[(1, 0.5)]])", TypeError,
     "op of (op, prob) in policy[0][0] is neither a transforms op (TensorOperation) nor a callable pyfunc."),
])
def test_errors_are_mindspores(call, error, message):
    with pytest.raises(error) as raised:
        eval(call, {"T": T, "vision": vision, "np": np})
    assert message in str(raised.value)
