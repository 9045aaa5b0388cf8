"""``dataset.DatasetCache``: the rows of a cached source or ``map`` are those of the uncached pipeline in
every epoch (shuffled in each epoch's order), read once; MindSpore 2.10's argument errors and its refusals of
a random operation or a Python-data source under a cache (messages recorded from MindSpore 2.10 CPU, where
a cache needs a ``dataset-cache`` server)."""
import numpy as np
import pytest

import npspore.dataset as ds
import npspore.dataset.transforms as T
import npspore.dataset.vision as vision

from test_dataset_files import write_idx

pytestmark = pytest.mark.usefixtures("isolated_seeds")


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    write_idx(tmp_path, "train", rng.integers(0, 256, (6, 28, 28)), [3, 1, 4, 1, 5, 9])
    return tmp_path


def _epochs(dataset, count):
    iterator = dataset.create_tuple_iterator(output_numpy=True, num_epochs=count)
    return [[tuple(np.copy(column) for column in row) for row in iterator] for _ in range(count)]


def _assert_same_epochs(got, want):
    assert len(got) == len(want)
    for rows, expected in zip(got, want):
        assert len(rows) == len(expected)
        for row, expected_row in zip(rows, expected):
            for column, expected_column in zip(row, expected_row):
                np.testing.assert_array_equal(column, expected_column)


def test_a_cached_shuffled_source_and_map_give_the_uncached_rows_and_compute_each_once(mnist_dir):
    calls = []

    @T.not_random
    def scale(image):
        calls.append(1)
        return image.astype(np.float32) / 255

    ds.config.set_seed(5)
    plain = _epochs(ds.MnistDataset(mnist_dir, usage="train", shuffle=True).map(scale, "image"), 3)
    calls.clear()
    cache = ds.DatasetCache(session_id=1, size=0)
    ds.config.set_seed(5)
    cached = ds.MnistDataset(mnist_dir, usage="train", shuffle=True).map(scale, "image", cache=cache)
    got = _epochs(cached, 3)
    _assert_same_epochs(got, plain)
    assert [int(row[1]) for row in got[0]] != [int(row[1]) for row in got[1]]  # each epoch its own order
    assert len(calls) == 6  # the map ran once per source row, not once per epoch
    stat = cache.get_stat()
    assert (stat.num_mem_cached, stat.num_disk_cached, stat.avg_cache_sz) == (6, 0, 28 * 28 * 4 + 4)


def test_a_cached_source_reads_each_row_once(mnist_dir, monkeypatch):
    cache = ds.DatasetCache(session_id=3)
    data = ds.MnistDataset(mnist_dir, usage="train", shuffle=False, cache=cache)
    reads = []
    original = type(data)._row
    monkeypatch.setattr(type(data), "_row", lambda self, index: reads.append(index) or original(self, index))
    first, second = _epochs(data, 2)
    assert reads == [0, 1, 2, 3, 4, 5]
    assert [int(row[1]) for row in second] == [3, 1, 4, 1, 5, 9]
    np.testing.assert_array_equal(first[2][0], second[2][0])


def test_a_size_limit_caches_only_the_rows_that_fit(mnist_dir):
    cache = ds.DatasetCache(session_id=3, size=1)  # MB: room for 1337 rows of 784 + 4 bytes, all six fit
    list(ds.MnistDataset(mnist_dir, usage="train", cache=cache))
    assert cache.get_stat().num_mem_cached == 6


def test_get_stat_before_use_is_mindspores_error():
    with pytest.raises(RuntimeError, match="GetStat called but the cache is not in use yet."):
        ds.DatasetCache(session_id=1).get_stat()


def test_random_operations_and_python_sources_under_a_cache_are_refused(mnist_dir):
    cache = ds.DatasetCache(session_id=1)
    source = ds.MnistDataset(mnist_dir, usage="train")
    message = "MapNode containing random operation is not supported as a descendant of cache."
    with pytest.raises(RuntimeError, match=message):
        source.map(vision.RandomHorizontalFlip(), "image", cache=cache)
    with pytest.raises(RuntimeError, match=message):
        source.map(lambda image: image, "image", cache=cache)  # a Python function counts as random
    with pytest.raises(RuntimeError, match=message):
        source.map(vision.RandomHorizontalFlip(), "image").map(vision.HWC2CHW(), "image", cache=cache)
    with pytest.raises(RuntimeError, match="There is currently no support for GeneratorOp under cache."):
        ds.NumpySlicesDataset(np.arange(4), shuffle=False).map(T.not_random(lambda x: x * 2), cache=cache)
    with pytest.raises(RuntimeError, match="BatchNode is not supported as a descendant of cache."):
        source.batch(2).map(vision.HWC2CHW(), "image", cache=cache)
    source.map(T.Compose([vision.HWC2CHW()]), "image", cache=cache)  # deterministic transforms are allowed


@pytest.mark.parametrize("kwargs, error, message", [
    # MindSpore 2.10 CPU, mindspore.dataset.DatasetCache(**kwargs)
    (dict(session_id=0), ValueError, "Input session_id is not within the required interval of [1, 4294967295]."),
    (dict(session_id="a"), TypeError, "Argument session_id with value a is not of type [<class 'int'>]"),
    (dict(session_id=True), TypeError, "Argument session_id with value True is not of type (<class 'int'>,)"),
    (dict(session_id=1, size=-1), ValueError, "Input size must be greater than 0."),
    (dict(session_id=1, size=1.5), TypeError, "Argument size with value 1.5 is not of type [<class 'int'>]"),
    (dict(session_id=1, spilling=1), TypeError, "Argument spilling with value 1 is not of type [<class 'bool'>]"),
    (dict(session_id=1, hostname=5), TypeError, "Argument hostname with value 5 is not of type [<class 'str'>]"),
    (dict(session_id=1, hostname="10.0.0.1"), RuntimeError,
     "now cache client has to be on the same host with cache server."),
    (dict(session_id=1, port=65536), ValueError, "Input port is not within the required interval of [1025, 65535]"),
    (dict(session_id=1, num_connections=0), ValueError,
     "Input num_connections is not within the required interval of [1, 2147483647]"),
    (dict(session_id=1, prefetch_size=0), ValueError,
     "Input prefetch_size is not within the required interval of [1, 2147483647]"),
])
def test_arguments_are_checked_as_mindspore_does(kwargs, error, message):
    with pytest.raises(error) as raised:
        ds.DatasetCache(**kwargs)
    assert message in str(raised.value)


def test_cache_must_be_a_dataset_cache(mnist_dir):
    with pytest.raises(TypeError, match="Argument cache"):
        ds.MnistDataset(mnist_dir, usage="train", cache=1)
