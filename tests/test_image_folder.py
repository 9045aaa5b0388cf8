"""``dataset.ImageFolderDataset`` and ``vision.Decode``: rows, labels, order, sharding and errors as MindSpore 2.10
(CPU) printed them for the same folder (three classes of random 4x5 RGB PNGs, a grey PNG among the cats)."""
import os

import numpy as np
import pytest
from PIL import Image

import npspore.dataset as ds
import npspore.dataset.vision as vision


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("images")
    rng = np.random.default_rng(0)
    for name in ["dog", "cat", "bird"]:
        os.makedirs(root / name)
        for i in range(3):
            Image.fromarray(rng.integers(0, 256, (4, 5, 3), dtype=np.uint8)).save(root / name / f"{i}.png")
    Image.fromarray(rng.integers(0, 256, (4, 5), dtype=np.uint8)).save(root / "cat" / "gray.png")
    return str(root)


def _labels(dataset):
    return [int(row[1]) for row in dataset.create_tuple_iterator(output_numpy=True)]


def test_rows_are_the_files_bytes_and_int32_labels_in_sorted_order(folder):
    dataset = ds.ImageFolderDataset(folder, shuffle=False)
    assert dataset.get_dataset_size() == 10
    assert dataset.get_col_names() == ["image", "label"]
    assert dataset.get_class_indexing() == {"bird": 0, "cat": 1, "dog": 2}
    rows = list(dataset.create_dict_iterator(output_numpy=True))
    assert [row["label"].dtype for row in rows] == [np.int32] * 10
    assert [int(row["label"]) for row in rows] == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
    assert [row["image"].shape for row in rows] == [(132,)] * 6 + [(90,)] + [(132,)] * 3
    assert rows[0]["image"].dtype == np.uint8
    with open(os.path.join(folder, "bird", "0.png"), "rb") as file:
        assert rows[0]["image"].tobytes() == file.read()


def test_decode_gives_rgb_arrays(folder):
    sums = [6616, 7542, 7768, 7898, 6854, 7456, 6741, 7668, 8598, 6757]   # MindSpore 2.10, decode=True
    rows = list(ds.ImageFolderDataset(folder, shuffle=False, decode=True).create_tuple_iterator(output_numpy=True))
    assert [row[0].shape for row in rows] == [(4, 5, 3)] * 10
    assert [int(row[0].sum()) for row in rows] == sums
    mapped = ds.ImageFolderDataset(folder, shuffle=False).map(vision.Decode(), "image")
    assert [int(row[0].sum()) for row in mapped.create_tuple_iterator(output_numpy=True)] == sums


def test_class_indexing_extensions_num_samples_and_shards(folder):
    chosen = ds.ImageFolderDataset(folder, shuffle=False, class_indexing={"dog": 0, "cat": 1}, extensions=[".png"])
    assert _labels(chosen) == [1, 1, 1, 1, 0, 0, 0]    # folders in sorted order, labels from the dict
    assert chosen.get_dataset_size() == 7              # (MindSpore 2.10 reports 10 here, and iterates 7)
    assert ds.ImageFolderDataset(folder, num_samples=4, shuffle=False).get_dataset_size() == 4
    shard = ds.ImageFolderDataset(folder, num_shards=2, shard_id=1, shuffle=False)
    assert shard.get_dataset_size() == 5 and _labels(shard) == [0, 1, 1, 2, 2]
    assert ds.ImageFolderDataset(folder, extensions=[".jpg"]).get_dataset_size() == 0
    assert sorted(_labels(ds.ImageFolderDataset(folder))) == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]   # shuffled by default


def test_errors(folder, tmp_path):
    with pytest.raises(ValueError, match="The folder nonexist does not exist or is not a directory or permission "
                                         "denied!"):
        ds.ImageFolderDataset("nonexist")
    with pytest.raises(TypeError, match="decode"):
        ds.ImageFolderDataset(folder, decode=1)
    with pytest.raises(TypeError, match="The number of array dimensions of the encoded image should be 1, but got 2."):
        vision.Decode()(np.zeros((2, 2), np.uint8))
    with pytest.raises(RuntimeError, match="Decode: image decode failed"):
        vision.Decode()(np.frombuffer(b"notanimage", np.uint8))
    os.makedirs(tmp_path / "cls")
    (tmp_path / "cls" / "notes.txt").write_text("x")
    with pytest.raises(RuntimeError, match="notes.txt decode failed"):
        list(ds.ImageFolderDataset(str(tmp_path), decode=True).create_tuple_iterator())
    os.mkfifo(tmp_path / "cls" / "pipe.png")
    with pytest.raises(Exception, match="pipe.png.*not a regular file"):
        list(ds.ImageFolderDataset(str(tmp_path), shuffle=False, extensions=[".png"]).create_tuple_iterator())


def test_decode_to_pil_and_grey_images(folder):
    with open(os.path.join(folder, "cat", "gray.png"), "rb") as file:
        encoded = np.frombuffer(file.read(), np.uint8)
    assert vision.Decode()(encoded).shape == (4, 5, 3)
    image = vision.Decode(to_pil=True)(encoded)
    assert (image.mode, image.size) == ("RGB", (5, 4))
