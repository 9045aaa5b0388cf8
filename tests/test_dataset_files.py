"""MnistDataset and Cifar10Dataset on small files written here in the real on-disk formats.

Column names, dtypes and shapes (image uint8 HxWxC, label uint32 scalar; CIFAR planes turned into
HWC; usage=None reading train then test) were observed on MindSpore 2.10 CPU.
"""
import copy
import pickle
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import npspore.dataset as ds
from npspore.dataset import records

pytestmark = pytest.mark.usefixtures("isolated_seeds")


def write_idx(directory, prefix, images, labels):
    """Write ``images`` (N, rows, cols uint8) and ``labels`` as MNIST IDX files named ``prefix``-..."""
    with open(directory / f"{prefix}-images-idx3-ubyte", "wb") as f:
        f.write(struct.pack(">IIII", 2051, *images.shape))
        f.write(images.astype(np.uint8).tobytes())
    with open(directory / f"{prefix}-labels-idx1-ubyte", "wb") as f:
        f.write(struct.pack(">II", 2049, len(labels)))
        f.write(np.asarray(labels, np.uint8).tobytes())


def write_cifar(path, images, *labels):
    """Write ``images`` (N, 32, 32, 3 uint8) as CIFAR binary records: the label bytes (one per
    ``labels`` list: CIFAR-10 has one, CIFAR-100 a coarse and a fine one), then R, G, B planes."""
    with open(path, "wb") as f:
        for image, *record_labels in zip(images, *labels):
            f.write(bytes(record_labels))
            f.write(image.transpose(2, 0, 1).tobytes())


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    write_idx(tmp_path, "train", rng.integers(0, 256, (5, 28, 28)), [3, 1, 4, 1, 5])
    write_idx(tmp_path, "t10k", rng.integers(0, 256, (3, 28, 28)), [9, 2, 6])
    return tmp_path


def test_mnist_rows_match_the_files(mnist_dir):
    d = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "label"]
    assert d.output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    assert d.output_shapes() == [[28, 28, 1], []]
    assert d.get_dataset_size() == 5
    rng = np.random.default_rng(0)
    expected = rng.integers(0, 256, (5, 28, 28)).astype(np.uint8)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.stack([r[0][:, :, 0] for r in rows]), expected)
    assert [int(r[1]) for r in rows] == [3, 1, 4, 1, 5]


def test_mnist_usage_sampling_and_batches(mnist_dir):
    assert ds.MnistDataset(mnist_dir, shuffle=False).get_dataset_size() == 8  # usage=None is 'all'
    assert [int(r[1]) for r in ds.MnistDataset(mnist_dir, usage="all", shuffle=False)
            .create_tuple_iterator(output_numpy=True)] == [3, 1, 4, 1, 5, 9, 2, 6]
    assert ds.MnistDataset(mnist_dir, usage="test", num_samples=2).get_dataset_size() == 2
    sharded = ds.MnistDataset(mnist_dir, usage="test", num_shards=3, shard_id=1, shuffle=False)
    assert [int(r[1]) for r in sharded.create_tuple_iterator(output_numpy=True)] == [2]
    batch = next(ds.MnistDataset(mnist_dir, usage="train").batch(4).create_dict_iterator(output_numpy=True))
    assert batch["image"].shape == (4, 28, 28, 1) and batch["label"].dtype == np.uint32
    shuffled = [int(r[1]) for r in ds.MnistDataset(mnist_dir, usage="train").create_tuple_iterator(output_numpy=True)]
    assert sorted(shuffled) == [1, 1, 3, 4, 5]


def test_mnist_errors_name_the_path(tmp_path, mnist_dir):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.MnistDataset(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="valid set"):
        ds.MnistDataset(mnist_dir, usage="val")
    (mnist_dir / "t10k-labels-idx1-ubyte").unlink()
    with pytest.raises(ValueError, match="t10k-labels-idx1-ubyte does not exist"):
        ds.MnistDataset(mnist_dir, usage="test")
    (mnist_dir / "t10k-images-idx3-ubyte").unlink()
    with pytest.raises(ValueError, match="no IDX file for usage 'test'.*t10k-images-idx3-ubyte"):
        ds.MnistDataset(mnist_dir, usage="test")
    # Observed on MindSpore 2.10: usage=None ('all') over a directory holding only the train pair reads it.
    assert ds.MnistDataset(mnist_dir).get_dataset_size() == 5
    assert ds.FashionMnistDataset(mnist_dir).output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    images = mnist_dir / "train-images-idx3-ubyte"
    images.write_bytes(images.read_bytes()[:1000])
    with pytest.raises(ValueError, match="train-images-idx3-ubyte.*truncated"):
        ds.MnistDataset(mnist_dir, usage="train")
    (mnist_dir / "train-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2051, 5) + bytes(5))
    with pytest.raises(ValueError, match="label file .*magic number 2051"):
        ds.MnistDataset(mnist_dir, usage="train")


def test_cifar10_rows_are_hwc(tmp_path):
    rng = np.random.default_rng(1)
    train = rng.integers(0, 256, (4, 32, 32, 3)).astype(np.uint8)
    test = rng.integers(0, 256, (2, 32, 32, 3)).astype(np.uint8)
    write_cifar(tmp_path / "data_batch_1.bin", train[:2], [0, 7])
    write_cifar(tmp_path / "data_batch_2.bin", train[2:], [2, 9])
    write_cifar(tmp_path / "test_batch.bin", test, [5, 5])
    d = ds.Cifar10Dataset(tmp_path, usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "label"]
    assert d.output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    assert d.output_shapes() == [[32, 32, 3], []]
    rows = list(d.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.stack([r[0] for r in rows]), train)
    assert [int(r[1]) for r in rows] == [0, 7, 2, 9]
    assert ds.Cifar10Dataset(tmp_path, usage="test").get_dataset_size() == 2
    assert ds.Cifar10Dataset(tmp_path).get_dataset_size() == 6


def test_cifar100_has_coarse_and_fine_labels(tmp_path):
    # Columns and dtypes observed on MindSpore 2.10.
    images = np.random.default_rng(2).integers(0, 256, (3, 32, 32, 3)).astype(np.uint8)
    write_cifar(tmp_path / "test.bin", images, [1, 2, 3], [11, 52, 99])
    d = ds.Cifar100Dataset(tmp_path, usage="test", shuffle=False)
    assert d.get_col_names() == ["image", "coarse_label", "fine_label"]
    assert d.output_types() == [np.dtype("uint8"), np.dtype("uint32"), np.dtype("uint32")]
    assert d.output_shapes() == [[32, 32, 3], [], []]
    rows = list(d.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[1][0], images[1])
    assert [(int(r[1]), int(r[2])) for r in rows] == [(1, 11), (2, 52), (3, 99)]
    with pytest.raises(ValueError, match="train.bin"):
        ds.Cifar100Dataset(tmp_path, usage="train")


def test_cifar10_errors(tmp_path):
    with pytest.raises(ValueError, match="data_batch_1.bin"):
        ds.Cifar10Dataset(tmp_path, usage="train")
    (tmp_path / "test_batch.bin").write_bytes(bytes(3000))
    with pytest.raises(ValueError, match="test_batch.bin.*3073"):
        ds.Cifar10Dataset(tmp_path, usage="test")


def test_mindspore_quick_start_pipeline(tmp_path, capsys):
    """The data part of MindSpore's quick start, unchanged but for the import; printed lines and the
    pixel sum were observed on MindSpore 2.10 CPU over the same generated files."""
    import npspore as mindspore
    from npspore.dataset import MnistDataset, transforms, vision
    rng = np.random.default_rng(0)
    (tmp_path / "train").mkdir()
    (tmp_path / "test").mkdir()
    write_idx(tmp_path / "train", "train", rng.integers(0, 256, (100, 28, 28)), rng.integers(0, 10, 100))
    write_idx(tmp_path / "test", "t10k", rng.integers(0, 256, (40, 28, 28)), rng.integers(0, 10, 40))

    def datapipe(dataset, batch_size):
        image_transforms = [
            vision.Rescale(1.0 / 255.0, 0),
            vision.Normalize(mean=(0.1307,), std=(0.3081,)),
            vision.HWC2CHW()
        ]
        label_transform = transforms.TypeCast(mindspore.int32)
        dataset = dataset.map(image_transforms, 'image')
        dataset = dataset.map(label_transform, 'label')
        dataset = dataset.batch(batch_size)
        return dataset

    train_dataset = datapipe(MnistDataset(str(tmp_path / "train")), 64)
    test_dataset = datapipe(MnistDataset(str(tmp_path / "test"), shuffle=False), 64)
    print(train_dataset.get_col_names())
    for image, label in test_dataset.create_tuple_iterator():
        print(f"Shape of image [N, C, H, W]: {image.shape} {image.dtype}")
        print(f"Shape of label: {label.shape} {label.dtype}")
        total = float(image.asnumpy().astype(np.float64).sum())
    print(train_dataset.get_dataset_size(), test_dataset.get_dataset_size())
    assert capsys.readouterr().out == ("['image', 'label']\n"
                                       "Shape of image [N, C, H, W]: (40, 1, 28, 28) Float32\n"
                                       "Shape of label: (40,) Int32\n"
                                       "2 1\n")
    assert round(total, 4) == 37558.0329


SHRINK = textwrap.dedent('''
    import sys
    import npspore.dataset as ds
    kind, directory, path, keep = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if kind == "mnist":
        dataset = ds.MnistDataset(directory, usage="train", shuffle=False)
    else:
        dataset = ds.Cifar10Dataset(directory, usage="train", shuffle=False)
    rows = dataset.create_tuple_iterator(output_numpy=True)
    print("first label", int(next(rows)[1]))
    with open(path, "r+b") as f:
        f.truncate(keep)
    try:
        for row in rows:
            pass
    except RuntimeError as error:
        print("RuntimeError:", error)
''')


@pytest.mark.parametrize("kind", ["mnist", "cifar10"])
def test_a_data_file_that_shrinks_under_a_live_dataset_is_an_error_naming_it(tmp_path, kind):
    # 40 rows span several pages: a memory map of the file killed the process with SIGBUS on the
    # first row past the new end. The rows are read in a subprocess so that a signal fails the test.
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 10, 40)
    if kind == "mnist":
        write_idx(tmp_path, "train", rng.integers(0, 256, (40, 28, 28)), labels)
        path, keep = tmp_path / "train-images-idx3-ubyte", 16 + 2 * 784
    else:
        write_cifar(tmp_path / "data_batch_1.bin", rng.integers(0, 256, (40, 32, 32, 3)).astype(np.uint8), labels)
        path, keep = tmp_path / "data_batch_1.bin", 2 * 3073
    (tmp_path / "shrink.py").write_text(SHRINK)
    result = subprocess.run([sys.executable, str(tmp_path / "shrink.py"), kind, str(tmp_path), str(path), str(keep)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr)
    first, error = result.stdout.splitlines()
    assert first == f"first label {labels[0]}"
    assert error.startswith(f"RuntimeError: The data file {path} changed while the dataset reads it: bytes ")


def test_an_idx_header_whose_size_overflows_64_bits_is_refused_at_open_naming_the_file(tmp_path):
    # 2**31 images of 2**31 x 4 pixels: 2**64 bytes, which wrapped to 0 in int64 arithmetic (and the
    # dataset then failed later with a message naming no file).
    (tmp_path / "train-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, 2**31, 2**31, 4))
    (tmp_path / "train-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, 2**31))
    with pytest.raises(ValueError, match=r"Invalid file .*train-images-idx3-ubyte: its header \(2147483648 records "
                                         r"of 8589934592 bytes\) promises 18446744073709551632 bytes but the file "
                                         r"has 16 \(truncated\?\)"):
        ds.MnistDataset(tmp_path, usage="train")


def test_an_idx_header_of_empty_images_is_refused_naming_the_file(tmp_path):
    write_idx(tmp_path, "train", np.zeros((3, 0, 28)), [1, 2, 3])
    with pytest.raises(ValueError, match=r"Invalid MNIST image file .*train-images-idx3-ubyte: its header gives 3 "
                                         r"images of 0x28 pixels"):
        ds.MnistDataset(tmp_path, usage="train")


def test_where_there_is_no_preadv_rows_are_read_by_a_seek_and_a_read(mnist_dir, monkeypatch):
    monkeypatch.setattr(records, "_PREADV", None)
    d = ds.MnistDataset(mnist_dir, usage="train", shuffle=False)
    expected = np.random.default_rng(0).integers(0, 256, (5, 28, 28)).astype(np.uint8)
    rows = d.create_tuple_iterator(output_numpy=True)
    np.testing.assert_array_equal(next(rows)[0][:, :, 0], expected[0])
    (mnist_dir / "train-images-idx3-ubyte").write_bytes(b"")
    with pytest.raises(RuntimeError, match=r"train-images-idx3-ubyte changed while the dataset reads it: bytes 800 to "
                                           r"1584 are no longer there \(the file has 0 bytes\)"):
        next(rows)


def test_file_datasets_pickle_and_deep_copy(mnist_dir):
    write_cifar(mnist_dir / "test_batch.bin", np.zeros((2, 32, 32, 3), np.uint8), [4, 2])
    for dataset in (ds.MnistDataset(mnist_dir, usage="train", shuffle=False),
                    ds.Cifar10Dataset(mnist_dir, usage="test", shuffle=False)):
        expected = [int(row[1]) for row in dataset.create_tuple_iterator(output_numpy=True)]
        for copy_of in (lambda d: pickle.loads(pickle.dumps(d)), copy.deepcopy):
            assert [int(row[1]) for row in copy_of(dataset).create_tuple_iterator(output_numpy=True)] == expected
