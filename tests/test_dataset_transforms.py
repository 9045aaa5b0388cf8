"""npspore.dataset.transforms and npspore.dataset.vision, called eagerly and inside map.

Expected arrays were observed on MindSpore 2.10 CPU for the 4x6x3 image IMAGE below.
"""
import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from npspore.dataset import transforms, vision
from npspore.dataset.transforms import c_transforms
from npspore.dataset.vision import c_transforms as vision_c

pytestmark = pytest.mark.usefixtures("isolated_seeds")

IMAGE = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)


def test_rescale_and_normalize():
    out = vision.Rescale(1 / 255.0, 0.1)(IMAGE)
    assert out.dtype == np.float32 and out.shape == (4, 6, 3)
    np.testing.assert_allclose(out[0, 0], [0.1, 0.10392157, 0.10784314], rtol=1e-6)
    out = vision.Normalize([0.5, 0.5, 0.5], [0.2, 0.2, 0.2])(IMAGE)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out[0, 0], [-2.5, 2.5, 7.5])
    chw = vision.Normalize([1.0, 2.0, 3.0], [1.0, 1.0, 2.0], is_hwc=False)(IMAGE.transpose(2, 0, 1))
    np.testing.assert_allclose(chw[:, 0, 0], [-1.0, -1.0, -0.5])
    with pytest.raises(ValueError, match="3 channels"):
        vision.Normalize([0.5, 0.5], [0.2, 0.2])(IMAGE)


def test_channel_moves():
    assert vision.HWC2CHW()(IMAGE).shape == (3, 4, 6)
    assert vision.HWC2CHW()(IMAGE[:, :, 0]).shape == (4, 6)
    out = vision.ToTensor()(IMAGE)
    assert out.dtype == np.float32 and out.shape == (3, 4, 6)
    np.testing.assert_allclose(out[:, 0, 0], [0.0, 0.00392157, 0.00784314], rtol=1e-6)
    assert vision.ToTensor()(IMAGE[:, :, 0]).shape == (1, 4, 6)
    # Observed on MindSpore 2.10: 1/255 in float32 times the pixel (a division would differ in the last bit at 3).
    assert vision.ToTensor()(np.array([[[3]]], np.uint8)).item() == 0.011764707043766975


def test_resize_bilinear_and_nearest():
    down = vision.Resize((2, 3))(IMAGE)
    assert down.dtype == np.uint8 and down.shape == (2, 3, 3)
    np.testing.assert_array_equal(down[:, :, 0], [[11, 17, 23], [47, 53, 59]])
    np.testing.assert_array_equal(vision.Resize((2, 3))(IMAGE.astype(np.float32))[:, :, 0],
                                  [[10.5, 16.5, 22.5], [46.5, 52.5, 58.5]])
    up = vision.Resize((8, 12))(IMAGE)[:, :, 0]
    np.testing.assert_array_equal(up[:2], [[0, 1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 15],
                                           [5, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 20]])
    np.testing.assert_array_equal(up[7], [54, 55, 56, 58, 59, 61, 62, 64, 65, 67, 68, 69])
    nearest = vision.Resize((8, 12), vision.Inter.NEAREST)(IMAGE)[:, :, 0]
    np.testing.assert_array_equal(nearest[2], [18, 18, 21, 21, 24, 24, 27, 27, 30, 30, 33, 33])
    assert vision.Resize(2)(IMAGE).shape == (2, 3, 3)
    assert vision.Resize((32, 32))(np.zeros((28, 28, 1), np.uint8)).shape == (32, 32, 1)
    assert vision.Resize((2, 3))(IMAGE[:, :, 0]).shape == (2, 3)
    with pytest.raises(ValueError, match="Inter.BICUBIC and Inter.AREA, but got <Inter.PILCUBIC: 5>"):
        vision.Resize(2, vision.Inter.PILCUBIC)


def test_resize_matches_mindspore_to_the_last_unit():
    # Observed on MindSpore 2.10 CPU (OpenCV's fixed-point uint8 arithmetic and float32 sums).
    image = (np.arange(5 * 7 * 2) * 37 % 256).astype(np.uint8).reshape(5, 7, 2)
    assert vision.Resize((8, 3))(image)[:, :, 1].tolist() == [
        [86, 3, 175], [89, 5, 178], [93, 9, 182], [96, 13, 186], [100, 17, 190], [104, 20, 193], [108, 24, 197],
        [110, 27, 199]]
    assert vision.Resize((3, 9))(image)[:, :, 0].tolist() == [
        [2, 51, 109, 166, 224, 82, 83, 140, 190], [12, 61, 119, 176, 234, 92, 93, 151, 200],
        [22, 71, 129, 186, 244, 102, 103, 160, 210]]
    floats = vision.Resize((8, 3))(image.astype(np.float32))
    assert floats.dtype == np.float32
    assert floats[:, :, 1].tolist() == [
        [86.33333587646484, 3.0, 175.66668701171875], [88.95832824707031, 5.625, 178.29168701171875],
        [92.70832824707031, 9.375, 182.04168701171875], [96.45832824707031, 13.125, 185.79168701171875],
        [100.20832824707031, 16.875, 189.54168701171875], [103.95832824707031, 20.625, 193.29168701171875],
        [107.70832824707031, 24.375, 197.04168701171875], [110.33332824707031, 27.0, 199.66668701171875]]


def test_crops_and_flips():
    np.testing.assert_array_equal(vision.CenterCrop(2)(IMAGE)[:, :, 0], [[24, 27], [42, 45]])
    np.testing.assert_array_equal(vision.CenterCrop((3, 4))(IMAGE)[:, :, 0],
                                  [[3, 6, 9, 12], [21, 24, 27, 30], [39, 42, 45, 48]])
    crop = vision.RandomCrop(2)(IMAGE)
    assert crop.shape == (2, 2, 3)
    windows = np.lib.stride_tricks.sliding_window_view(IMAGE, (2, 2, 3)).reshape(-1, 2, 2, 3)
    assert any((w == crop).all() for w in windows)
    padded = vision.RandomCrop((4, 6), padding=2)(IMAGE)
    assert padded.shape == (4, 6, 3) and padded.dtype == np.uint8
    grown = vision.RandomCrop((6, 8), pad_if_needed=True, padding_mode=vision.Border.EDGE)(IMAGE)
    assert grown.shape == (6, 8, 3)
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(1.0)(IMAGE), IMAGE[:, ::-1])
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(0.0)(IMAGE), IMAGE)
    np.testing.assert_array_equal(vision.RandomVerticalFlip(1.0)(IMAGE), IMAGE[::-1])
    with pytest.raises(ValueError, match="larger than the image"):
        vision.CenterCrop(5)(IMAGE)


def test_pad_and_to_type():
    # Observed on MindSpore 2.10 for a 2x3x3 image.
    image = np.arange(18, dtype=np.uint8).reshape(2, 3, 3)
    np.testing.assert_array_equal(vision.Pad(1)(image)[:, :, 0], [[0, 0, 0, 0, 0], [0, 0, 3, 6, 0],
                                                                 [0, 9, 12, 15, 0], [0, 0, 0, 0, 0]])
    assert vision.Pad((1, 2))(image).shape == (6, 5, 3)
    np.testing.assert_array_equal(vision.Pad((1, 2, 3, 0))(image)[:, :, 0], [
        [0] * 7, [0] * 7, [0, 0, 3, 6, 0, 0, 0], [0, 9, 12, 15, 0, 0, 0]])
    np.testing.assert_array_equal(vision.Pad(1, fill_value=7)(image)[1, :, 1], [7, 1, 4, 7, 7])
    np.testing.assert_array_equal(vision.Pad(1, padding_mode=vision.Border.EDGE)(image)[:, :, 0], [
        [0, 0, 3, 6, 6], [0, 0, 3, 6, 6], [9, 9, 12, 15, 15], [9, 9, 12, 15, 15]])
    np.testing.assert_array_equal(vision.Pad(1, padding_mode=vision.Border.REFLECT)(image)[:, :, 0], [
        [12, 9, 12, 15, 12], [3, 0, 3, 6, 3], [12, 9, 12, 15, 12], [3, 0, 3, 6, 3]])
    assert vision.ToType(np.float32)(image).dtype == np.float32
    assert vision.ToType(ms.int32)(image).dtype == np.int32


def test_seeded_random_transforms_repeat():
    def draws():
        ds.config.set_seed(4)
        crop, flip = vision.RandomCrop(2), vision.RandomHorizontalFlip()
        return [crop(IMAGE) for _ in range(4)] + [flip(IMAGE) for _ in range(4)]
    for a, b in zip(draws(), draws()):
        np.testing.assert_array_equal(a, b)


def test_type_cast_one_hot_compose():
    assert transforms.TypeCast(ms.float32)(IMAGE).dtype == np.float32
    assert transforms.TypeCast(np.int32)(IMAGE).dtype == np.int32
    # Observed on MindSpore 2.10: OneHot keeps the label dtype.
    one = transforms.OneHot(5)(np.array(3))
    assert one.dtype == np.int64 and one.tolist() == [0, 0, 0, 1, 0]
    assert transforms.OneHot(5)(np.array([1, 2])).tolist() == [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0]]
    assert transforms.OneHot(5)(np.array(2, np.uint32)).dtype == np.uint32
    smooth = transforms.OneHot(5, smoothing_rate=0.1)(np.array(2, np.int32))
    assert smooth.dtype == np.float64
    np.testing.assert_allclose(smooth, [0.02, 0.02, 0.92, 0.02, 0.02])
    with pytest.raises(RuntimeError, match=r"\[0, 5\)"):
        transforms.OneHot(5)(np.array(7))
    composed = transforms.Compose([vision.Rescale(1 / 255.0, 0), vision.HWC2CHW()])(IMAGE)
    assert composed.dtype == np.float32 and composed.shape == (3, 4, 6)
    assert c_transforms.TypeCast is transforms.TypeCast and vision_c.Resize is vision.Resize


def test_transforms_in_a_pipeline():
    images = np.stack([IMAGE, IMAGE[::-1]])
    d = ds.NumpySlicesDataset({"image": images, "label": np.array([1, 0], np.uint32)}, shuffle=False)
    d = d.map([vision.Resize((2, 3)), vision.Rescale(1 / 255.0, 0.0), vision.HWC2CHW()], input_columns="image")
    d = d.map(transforms.Compose([transforms.OneHot(2), transforms.TypeCast(ms.float32)]), input_columns="label")
    batch = next(d.batch(2).create_dict_iterator())
    assert batch["image"].shape == (2, 3, 2, 3) and batch["image"].dtype == ms.float32
    np.testing.assert_allclose(batch["image"].asnumpy()[0, 0], np.array([[11, 17, 23], [47, 53, 59]]) / 255.0,
                               rtol=1e-6)
    np.testing.assert_array_equal(batch["label"].asnumpy(), [[0, 1], [1, 0]])
