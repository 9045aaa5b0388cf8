"""``dataset.PKSampler`` (issue 26, data-nn-fn). MindSpore 2.10 over an image folder of classes with 3, 1, 2 and 5
files gave (its draws are random with replacement, ``shuffle`` or not): ``num_val=2`` the labels
``[0, 0, 1, 1, 2, 2, 3, 3]``; ``num_val=3`` twelve rows, three per class in class order, the one-file class's file
three times; ``num_val=2, num_samples=5`` the labels ``[0, 0, 1, 1, 2]``; ``num_class`` given a
NotImplementedError."""
import numpy as np
import pytest

import npspore.dataset as ds

FILES = {"a": 3, "b": 1, "c": 2, "d": 5}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("classes")
    for name, count in FILES.items():
        (root / name).mkdir()
        for i in range(count):
            (root / name / f"{i}.jpg").write_bytes(bytes([i, ord(name)]))
    return root


def _rows(folder, **arguments):
    data = ds.ImageFolderDataset(str(folder), sampler=ds.PKSampler(**arguments))
    return data.get_dataset_size(), [(int(r["label"]), bytes(r["image"])) for r in data.create_dict_iterator(
        output_numpy=True)]


def test_rows_per_class_are_mindspores(folder):
    size, rows = _rows(folder, num_val=2)
    assert size == 8 and [label for label, _ in rows] == [0, 0, 1, 1, 2, 2, 3, 3]
    size, rows = _rows(folder, num_val=3)
    assert size == 12 and [label for label, _ in rows] == [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3
    assert [image for label, image in rows if label == 1] == [bytes([0, ord("b")])] * 3
    for label, image in rows:   # each row is a file of its class
        assert image[1] == ord("abcd"[label]) and image[0] < FILES["abcd"[label]]
    size, rows = _rows(folder, num_val=2, num_samples=5)
    assert size == 5 and [label for label, _ in rows] == [0, 0, 1, 1, 2]


def test_draws_are_with_replacement_and_shuffle_mixes_classes(folder):
    data = ds.ImageFolderDataset(str(folder), sampler=ds.PKSampler(2)).repeat(20)   # a fresh draw every pass
    drawn = {bytes(r["image"]) for r in data.create_dict_iterator(output_numpy=True) if int(r["label"]) == 3}
    assert len(drawn) == 5   # every file of the five-file class turns up over the passes
    labels = [label for label, _ in _rows(folder, num_val=4, shuffle=True)[1]]
    assert sorted(labels) == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4 and labels != sorted(labels)


def test_class_column_of_any_random_access_source_and_errors():
    data = ds.NumpySlicesDataset({"data": np.arange(6), "label": np.array([0, 0, 1, 1, 1, 2])},
                                 sampler=ds.PKSampler(2))
    rows = [(int(d), int(label)) for d, label in data.create_tuple_iterator(output_numpy=True)]
    assert [label for _, label in rows] == [0, 0, 1, 1, 2, 2]
    assert all({0: (0, 1), 1: (2, 3, 4), 2: (5,)}[label].count(d) for d, label in rows)
    with pytest.raises(NotImplementedError, match="Not supported to specify num_class for PKSampler."):
        ds.PKSampler(2, num_class=3)
    with pytest.raises(RuntimeError, match="Invalid column name, target does not exist"):
        list(ds.NumpySlicesDataset({"data": np.arange(3)}, sampler=ds.PKSampler(1, class_column="target"))
             .create_tuple_iterator(output_numpy=True))
