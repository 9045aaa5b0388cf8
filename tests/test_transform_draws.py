"""Seeded random transforms draw MindSpore 2.10's numbers (``npspore.dataset.transform_draws``).

Every expected value was printed by the real MindSpore 2.10 (CPU): the flip and crop patterns below by the same
pipelines written with ``import mindspore``; the images of ``transform_draws_mindspore.npz`` by
``tools/observe_mindspore_transform_draws.py``, whose cases are repeated here.
"""
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from npspore.dataset import transforms, vision

pytestmark = pytest.mark.usefixtures("isolated_seeds")
FIXTURE = np.load(Path(__file__).parent / "fixtures" / "images" / "transform_draws_mindspore.npz")
FLIP_IMAGE = np.arange(6, dtype=np.uint8).reshape(2, 3, 1)   # a flip moves the 0 away from the corner


def _dataset(image, rows, transform, workers):
    data = ds.NumpySlicesDataset({"image": np.stack([image] * rows)}, shuffle=False)
    return data.map(transform, input_columns="image", num_parallel_workers=workers)


def _corners(data, **iterator):
    return [int(row["image"].flat[0]) for row in data.create_dict_iterator(output_numpy=True, **iterator)]


def _flips(data, **iterator):
    return [int(corner != 0) for corner in _corners(data, **iterator)]


@pytest.mark.parametrize("seed, flips", [(0, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1]),
                                         (5, [1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0])])
def test_one_worker_flips_as_bernoulli_draws_of_an_mt19937_of_the_seed(seed, flips):
    ds.config.set_seed(seed)
    assert _flips(_dataset(FLIP_IMAGE, 12, vision.RandomHorizontalFlip(0.5), 1)) == flips


@pytest.mark.parametrize("seed, workers, corners", [(0, 1, [14, 20, 20, 20, 13, 8, 7, 3]),
                                                    (5, 1, [0, 21, 6, 21, 1, 8, 9, 8]),
                                                    (5, 2, [0, 21, 21, 1, 6, 3, 21, 6])])
def test_random_crop_draws_the_column_then_the_row(seed, workers, corners):
    ds.config.set_seed(seed)
    image = np.arange(36, dtype=np.uint8).reshape(6, 6, 1)
    assert _corners(_dataset(image, 8, vision.RandomCrop(3), workers)) == corners


def test_each_worker_has_its_own_engine_seeded_with_the_seed_plus_its_index_and_takes_rows_in_turn():
    ds.config.set_seed(0)
    assert _flips(_dataset(FLIP_IMAGE, 12, vision.RandomHorizontalFlip(0.5), 2)) == [0, 0, 0, 0, 0, 1,
                                                                                  0, 0, 0, 1, 1, 1]
    ds.config.set_seed(0)
    workers = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(2)      # a map's default: the pipeline's count (MindSpore's, as here)
    try:
        assert _flips(_dataset(FLIP_IMAGE, 12, vision.RandomHorizontalFlip(0.5), None)) == [0, 0, 0, 0, 0, 1,
                                                                                         0, 0, 0, 1, 1, 1]
    finally:
        ds.config.set_num_parallel_workers(workers)
    ms.set_seed(3)
    assert _flips(_dataset(FLIP_IMAGE, 12, vision.RandomHorizontalFlip(0.5), 2)) == [1, 0, 0, 1, 1, 0,
                                                                                  0, 0, 1, 0, 1, 1]
    ds.config.set_seed(7)
    assert _flips(_dataset(FLIP_IMAGE, 12, vision.RandomVerticalFlip(0.3), 2)) == [1, 1, 0, 1, 0, 0,
                                                                                0, 0, 0, 0, 1, 0]


def test_the_seed_is_read_when_the_iterator_is_made_and_each_iterator_starts_again():
    ds.config.set_seed(0)
    data = _dataset(FLIP_IMAGE, 12, vision.RandomHorizontalFlip(0.5), 1)
    ds.config.set_seed(5)
    assert _flips(data) == [1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0]
    assert _flips(data) == [1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0]


def test_the_engines_go_on_across_epochs_and_repeats_the_workers_start_again_each_pass():
    ds.config.set_seed(0)
    data = _dataset(FLIP_IMAGE, 12, vision.RandomHorizontalFlip(0.5), 1)
    iterator = data.create_dict_iterator(output_numpy=True, num_epochs=2)
    assert [[int(row["image"][0, 0, 0] != 0) for row in iterator] for _ in range(2)] == [
        [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1], [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0]]
    data = _dataset(FLIP_IMAGE, 5, vision.RandomHorizontalFlip(0.5), 2)
    iterator = data.create_dict_iterator(output_numpy=True, num_epochs=3)
    assert [[int(row["image"][0, 0, 0] != 0) for row in iterator] for _ in range(3)] == [
        [0, 0, 0, 0, 0], [0, 1, 0, 0, 1], [1, 1, 1, 1, 1]]
    assert _flips(_dataset(FLIP_IMAGE, 5, vision.RandomHorizontalFlip(0.5), 2).repeat(2)) == [
        0, 0, 0, 0, 0, 0, 1, 0, 0, 1]


def test_each_transform_of_a_map_has_its_own_engine():
    ds.config.set_seed(0)
    data = _dataset(FLIP_IMAGE, 12, [vision.RandomHorizontalFlip(0.5), vision.RandomVerticalFlip(0.5)], 2)
    assert _corners(data) == [0, 0, 0, 0, 0, 5, 0, 0, 0, 5, 5, 5]     # both flips together: the same draws
    flip = vision.RandomHorizontalFlip(0.5)
    twice = _dataset(FLIP_IMAGE, 6, flip, 2).map(flip, input_columns="image", num_parallel_workers=2)
    assert _corners(twice) == [0] * 6      # the same transform in two maps: two engines, the same draws


def test_a_direct_call_draws_the_seeds_first_numbers_every_time():
    ds.config.set_seed(5)
    flip = vision.RandomHorizontalFlip(0.5)
    assert [int(flip(FLIP_IMAGE)[0, 0, 0] != 0) for _ in range(4)] == [1, 1, 1, 1]


def test_an_unseeded_pipeline_draws_fresh_numbers(monkeypatch):
    from npspore.common import seed
    from npspore.dataset import config
    monkeypatch.setattr(seed, "_seed", None)       # a process that never set a seed
    monkeypatch.setattr(config, "_seed", None)
    data = ds.NumpySlicesDataset({"image": np.stack([FLIP_IMAGE] * 64)}, shuffle=False)
    flips = _flips(data.map(vision.RandomHorizontalFlip(0.5), input_columns="image", num_parallel_workers=2))
    assert 10 < sum(flips) < 54


@pytest.mark.parametrize("name, seed, shape, rows, transform, kwargs, workers", [
    ("resized_crop_0", 0, (32, 48, 3), 10, "RandomResizedCrop", dict(size=16), 2),
    ("resized_crop_3", 3, (40, 40, 3), 10, "RandomResizedCrop", dict(size=16, scale=(0.5, 1.0)), 2),
    ("resized_crop_fallback", 11, (20, 60, 3), 4, "RandomResizedCrop", dict(size=16, scale=(0.9, 1.0),
                                                                          ratio=(0.5, 0.6)), 2),
    ("resized_crop_nearest", 7, (64, 50, 3), 10, "RandomResizedCrop",
     dict(size=(12, 20), interpolation=vision.Inter.NEAREST), 1),
    ("color_brightness_hue", 3, (8, 9, 3), 8, "RandomColorAdjust", dict(brightness=(0.5, 1.5), hue=0.2), 2),
    ("color_contrast", 4, (8, 9, 3), 8, "RandomColorAdjust", dict(contrast=(0.3, 0.9)), 2),
    ("color_three", 0, (8, 9, 3), 8, "RandomColorAdjust", dict(brightness=0.4, contrast=0.4, saturation=0.4), 2),
    ("crop_padded", 5, (32, 32, 3), 6, "RandomCrop", dict(size=32, padding=4), 2),
    ("rotation_30", 0, (15, 17, 3), 8, "RandomRotation", dict(degrees=30), 2),
    ("rotation_bilinear", 4, (15, 17, 3), 8, "RandomRotation", dict(degrees=(10, 200), resample=vision.Inter.BILINEAR),
     2),
    ("rotation_turns", 2, (15, 17, 3), 8, "RandomRotation", dict(degrees=(-90, 300)), 2),
    ("sharpness", 1, (9, 11, 3), 10, "RandomSharpness", dict(degrees=(0.1, 1.9)), 2),
    ("color", 2, (9, 11, 3), 10, "RandomColor", dict(degrees=(0.0, 2.0)), 2),
    ("color_near_one", 3, (9, 11, 3), 10, "RandomColor", dict(degrees=(0.999, 1.0015)), 2),
    ("solarize", 4, (9, 11, 3), 10, "RandomSolarize", dict(threshold=(50, 200)), 2),
    ("posterize", 5, (9, 11, 3), 10, "RandomPosterize", dict(bits=(2, 7)), 2),
    ("erasing_noise", 3, (3, 16, 20), 8, "RandomErasing", dict(prob=0.9, value="random"), 1),
    ("erasing_colour", 5, (3, 16, 20), 8, "RandomErasing", dict(prob=1.0, value=(10, 20, 30), scale=(0.1, 0.5)), 1),
    ("cutout", 3, (12, 14, 3), 8, "CutOut", dict(length=8, num_patches=3), 2),
    ("cutout_chw", 4, (3, 10, 9), 8, "CutOut", dict(length=4, num_patches=2, is_hwc=False), 2),
    ("affine_shift", 1, (13, 15, 3), 6, "RandomAffine", dict(degrees=0, translate=(-0.2, 0.2, -0.1, 0.3)), 2),
    ("affine_all", 4, (13, 15, 3), 6, "RandomAffine", dict(degrees=30, translate=(0.1, 0.2), scale=(0.9, 1.1), shear=15,
                                                           resample=vision.Inter.BILINEAR), 2),
    ("resize", 6, (13, 15, 3), 10, "RandomResize", dict(size=(7, 9)), 2),
])
def test_seeded_images_are_mindspores(name, seed, shape, rows, transform, kwargs, workers):
    ds.config.set_seed(seed)
    image = np.random.default_rng(0).integers(0, 255, shape).astype(np.uint8)
    data = _dataset(image, rows, getattr(vision, transform)(**kwargs), workers)
    np.testing.assert_array_equal(np.stack([row["image"] for row in data.create_dict_iterator(output_numpy=True)]),
                                  FIXTURE[name])


CORNER_IMAGE = np.arange(12, dtype=np.uint8).reshape(3, 4, 1)   # corner * 100 + last pixel tells the flips apart


def _corner_codes(transform, seed, workers):
    ds.config.set_seed(seed)
    data = _dataset(CORNER_IMAGE, 12, transform, workers)
    return [int(row["image"][0, 0, 0]) * 100 + int(row["image"][-1, -1, 0])
            for row in data.create_dict_iterator(output_numpy=True)]


@pytest.mark.parametrize("make, seed, workers, codes", [
    (lambda: transforms.RandomChoice([vision.HorizontalFlip(), vision.VerticalFlip(), vision.Rotate(180)]), 0, 2,
     [803, 803, 803, 1100, 1100, 1100, 1100, 1100, 803, 308, 1100, 308]),
    (lambda: transforms.RandomApply([vision.HorizontalFlip()], 0.5), 3, 2,
     [308, 11, 11, 308, 308, 11, 11, 11, 308, 11, 308, 308]),
    (lambda: transforms.RandomApply([vision.RandomVerticalFlip(0.5), vision.HorizontalFlip()], 0.7), 4, 1,
     [11, 308, 11, 1100, 308, 308, 308, 1100, 11, 1100, 308, 308]),
    (lambda: transforms.RandomApply([vision.RandomVerticalFlip(0.5), vision.HorizontalFlip()], 0.7), 4, 2,
     [11, 308, 308, 11, 11, 1100, 1100, 11, 308, 308, 308, 308]),
    (lambda: vision.RandomSelectSubpolicy([[(vision.HorizontalFlip(), 0.5), (vision.VerticalFlip(), 0.4)],
                                           [(vision.RandomVerticalFlip(0.5), 1.0)]]), 5, 2,
     [803, 803, 803, 1100, 803, 11, 308, 11, 308, 11, 11, 803]),
    (lambda: transforms.RandomChoice([vision.RandomVerticalFlip(0.5), vision.RandomHorizontalFlip(0.5)]), 6, 2,
     [11, 11, 308, 803, 11, 11, 803, 803, 308, 803, 803, 308]),
    (lambda: transforms.Compose([vision.RandomVerticalFlip(0.5), vision.RandomHorizontalFlip(0.5)]), 4, 2,
     [11, 1100, 1100, 11, 11, 1100, 11, 11, 11, 1100, 1100, 1100]),
])
def test_random_compositions_draw_as_mindspore(make, seed, workers, codes):
    # a transform held by another draws from its own engine in each worker, seeded with the seed alone; a Compose
    # given to map is unpacked into the map's own transforms (seed plus the worker's index)
    assert _corner_codes(make(), seed, workers) == codes


def test_the_seed_functions_seed_pythons_and_numpys_global_generators():
    # MindSpore's dataset.config.set_seed seeds random and numpy.random (its Python transforms draw from them);
    # mindspore.set_seed sets the dataset seed too. Values printed by MindSpore 2.10.
    import random
    ds.config.set_seed(7)
    assert (random.random(), np.random.rand()) == (0.32383276483316237, 0.07630828937395717)
    ms.set_seed(9)
    assert (random.random(), np.random.rand()) == (0.46300735781502145, 0.010374153885699955)
