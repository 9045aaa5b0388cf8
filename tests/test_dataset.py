"""npspore.dataset sources and pipeline operations.

Expected sizes, dtypes, shapes, column layouts and shard contents were observed on MindSpore 2.10 CPU
(exact shuffled orders are not compared: the random generators differ; determinism per seed is).
"""
import itertools

import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from npspore.dataset import transforms

pytestmark = pytest.mark.usefixtures("isolated_seeds")


def gen_three_columns():
    for i in range(5):
        yield i, float(i), np.array([i, i + 1], dtype=np.int32)


def three_columns(**kwargs):
    return ds.GeneratorDataset(gen_three_columns, column_names=["a", "b", "c"], shuffle=False, **kwargs)


class RandomAccess:
    """Seven rows (x float32 [i], y int64 i) read by index."""

    def __getitem__(self, i):
        return np.array([i], np.float32), np.int64(i)

    def __len__(self):
        return 7


def labels(dataset, column=-1):
    return [int(row[column]) for row in dataset.create_tuple_iterator(output_numpy=True)]


def test_generator_columns_follow_mindspore_types():
    # Observed on MindSpore 2.10: Python int -> int64 scalar, float -> float64, arrays keep dtype.
    d = three_columns()
    assert d.get_col_names() == ["a", "b", "c"]
    assert d.get_dataset_size() == 5
    assert d.output_shapes() == [[], [], [2]]
    assert d.output_types() == [np.dtype("int64"), np.dtype("float64"), np.dtype("int32")]
    first = next(d.create_tuple_iterator())
    assert all(isinstance(t, ms.Tensor) for t in first)
    assert [t.dtype for t in first] == [ms.int64, ms.float64, ms.int32]
    assert first[2].shape == (2,) and first[0].shape == ()
    row = next(d.create_dict_iterator(output_numpy=True))
    assert list(row) == ["a", "b", "c"] and isinstance(row["c"], np.ndarray)
    np.testing.assert_array_equal(row["c"], [0, 1])


def test_batch_stacks_scalars_and_keeps_the_remainder():
    batches = list(three_columns().batch(2).create_tuple_iterator(output_numpy=True))
    assert [b[0].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert batches[0][0].dtype == np.int64 and batches[0][1].dtype == np.float64
    assert batches[2][2].tolist() == [[4, 5]]
    d = three_columns().batch(2)
    assert d.get_dataset_size() == 3 and d.get_batch_size() == 2
    assert d.output_shapes() == [[2], [2], [2, 2]]


def test_sizes_after_batch_repeat_take_skip():
    # Observed on MindSpore 2.10 for a 5-row generator.
    d = three_columns().batch(2, drop_remainder=True).repeat(3)
    assert (d.get_dataset_size(), d.get_repeat_count(), d.get_batch_size()) == (6, 3, 2)
    assert len(list(d.create_tuple_iterator())) == 6
    assert three_columns().take(3).get_dataset_size() == 3
    assert three_columns().skip(2).get_dataset_size() == 3
    assert three_columns().take(10).get_dataset_size() == 5
    assert three_columns().skip(10).get_dataset_size() == 0
    assert three_columns().repeat(2).get_dataset_size() == 10
    assert three_columns().repeat(2).batch(3).get_dataset_size() == 4
    assert three_columns().repeat().get_repeat_count() == -1
    assert labels(three_columns().skip(3), 0) == [3, 4]
    batches = three_columns().repeat(2).batch(3).create_tuple_iterator(output_numpy=True)
    assert [b[0].tolist() for b in batches] == [[0, 1, 2], [3, 4, 0], [1, 2, 3], [4]]


def test_random_access_source_and_sampling_arguments():
    d = ds.GeneratorDataset(RandomAccess(), ["x", "y"], shuffle=False)
    assert d.get_dataset_size() == 7
    assert d.output_types() == [np.dtype("float32"), np.dtype("int64")]
    assert d.output_shapes() == [[1], []]
    assert labels(ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_samples=4, shuffle=False)) == [0, 1, 2, 3]
    shuffled = ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_samples=4)
    assert shuffled.get_dataset_size() == 4 and set(labels(shuffled)) <= set(range(7))


def test_shards_wrap_around_like_mindspore():
    # Observed on MindSpore 2.10: 7 rows over 3 shards, every shard gets ceil(7/3) = 3 rows.
    got = [labels(ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_shards=3, shard_id=s, shuffle=False))
           for s in range(3)]
    assert got == [[0, 3, 6], [1, 4, 0], [2, 5, 1]]
    capped = ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_samples=5, num_shards=2, shard_id=1, shuffle=False)
    assert capped.get_dataset_size() == 4 and labels(capped) == [1, 3, 5, 0]
    capped = ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_samples=3, num_shards=2, shard_id=1, shuffle=False)
    assert labels(capped) == [1, 3, 5]


def test_shuffled_shards_partition_the_data():
    ds.config.set_seed(11)
    shards = [labels(ds.NumpySlicesDataset(list(range(12)), num_shards=3, shard_id=s)) for s in range(3)]
    assert sorted(sum(shards, [])) == list(range(12))
    assert sum(shards, []) != list(range(12))


def test_samplers():
    def picked(sampler):
        return labels(ds.GeneratorDataset(RandomAccess(), ["x", "y"], sampler=sampler))
    assert picked(ds.SequentialSampler(2, 3)) == [2, 3, 4]
    assert picked(ds.SubsetSampler([5, 1, 6])) == [5, 1, 6]
    assert picked([3, 2, 6]) == [3, 2, 6]
    assert picked(ds.DistributedSampler(3, 1, shuffle=False)) == [1, 4, 0]
    assert sorted(picked(ds.SubsetRandomSampler([5, 1, 6]))) == [1, 5, 6]
    assert sorted(picked(ds.RandomSampler())) == list(range(7))
    # Observed on MindSpore 2.10: num_samples above the source size is capped, even with replacement.
    assert len(picked(ds.RandomSampler(replacement=True, num_samples=10))) == 7
    with pytest.raises(RuntimeError, match=r"Sample ID \(9\) is out of bound, expected range \[0, 6\]"):
        picked(ds.SubsetSampler([1, 9]))


def test_reached_from_the_top_level_package():
    d = ms.dataset.GeneratorDataset(RandomAccess(), ["x", "y"], num_parallel_workers=4, python_multiprocessing=True)
    assert d.num_parallel_workers == 4 and d.get_dataset_size() == 7
    with pytest.raises(AttributeError, match="'mindspore.dataset.CocoDataset' is not implemented in npspore"):
        ds.CocoDataset
    with pytest.raises(AttributeError, match="closest name it has is 'Resize'"):
        ds.vision.Resise


def test_generator_iterables_and_num_samples():
    assert ds.GeneratorDataset(gen_three_columns, ["a", "b", "c"], num_samples=3).get_dataset_size() == 3

    class Iterable:
        def __iter__(self):
            return iter([(np.float32(i),) for i in range(4)])

    d = ds.GeneratorDataset(Iterable(), ["v"])
    assert d.get_dataset_size() == 4 and d.output_types() == [np.dtype("float32")]
    assert ds.GeneratorDataset([(1,), (2,)], ["v"], shuffle=False).get_dataset_size() == 2

    def bare_values():
        yield from range(3)
    assert labels(ds.GeneratorDataset(bare_values, ["v"])) == [0, 1, 2]
    # Observed on MindSpore 2.10: a generator object is replayed on every pass.
    once = ds.GeneratorDataset(bare_values(), ["v"])
    assert once.get_dataset_size() == 3 and labels(once) == labels(once) == [0, 1, 2]


def test_random_access_item_as_generator_expression():
    # d2l's ArrayData returns `(column[index] for column in self.data)`; MindSpore 2.10 iterates it into the
    # row's columns: rows (0.0, 0), (1.0, 1), (2.0, 2) of dtypes float32, int64
    class ArrayData:
        def __init__(self, *columns):
            self.data = columns

        def __getitem__(self, index):
            return (column[index] for column in self.data)

        def __len__(self):
            return len(self.data[0])

    d = ds.GeneratorDataset(ArrayData(np.arange(3, dtype=np.float32), np.arange(3)), ["0", "1"], shuffle=False)
    rows = [tuple(v.tolist() for v in row) for row in d.create_tuple_iterator(output_numpy=True)]
    assert rows == [(0.0, 0), (1.0, 1), (2.0, 2)]
    assert d.output_types() == [np.dtype("float32"), np.dtype("int64")]


def test_numpy_slices_columns_and_types():
    d = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    assert d.get_col_names() == ["column_0"] and d.output_types() == [np.dtype("int64")]
    assert labels(d) == [1, 2, 3]
    d = ds.NumpySlicesDataset({"a": [1.0, 2.0], "b": [[1, 2], [3, 4]]}, shuffle=False)
    assert d.get_col_names() == ["a", "b"]
    assert d.output_types() == [np.dtype("float64"), np.dtype("int64")] and d.output_shapes() == [[], [2]]
    d = ds.NumpySlicesDataset(([1, 2], [3.0, 4.0]), column_names=["x", "y"], shuffle=False)
    rows = list(d.create_dict_iterator(output_numpy=True))
    assert [(int(r["x"]), float(r["y"])) for r in rows] == [(1, 3.0), (2, 4.0)]
    # Observed on MindSpore 2.10: string columns come out as NumPy arrays even without output_numpy.
    text = next(ds.NumpySlicesDataset(["ab", "c"], shuffle=False).create_tuple_iterator())[0]
    assert isinstance(text, np.ndarray) and text.dtype == np.dtype("<U2") and str(text) == "ab"
    d = ds.NumpySlicesDataset(np.zeros((4, 2, 3), np.float32), column_names=["img"], shuffle=False)
    assert d.output_types() == [np.dtype("float32")] and d.output_shapes() == [[2, 3]]


def test_seeded_shuffles_repeat_and_epochs_differ():
    def run():
        ds.config.set_seed(1)
        it = ds.NumpySlicesDataset(list(range(10)), shuffle=False).shuffle(4).create_tuple_iterator(
            num_epochs=2, output_numpy=True)
        return [int(r[0]) for r in it], [int(r[0]) for r in it]
    first, second = run()
    assert run() == (first, second)
    assert sorted(first) == sorted(second) == list(range(10)) and first != second
    # Observed on MindSpore 2.10: with a seed set, every new iterator over a dataset starts from the same order.
    ds.config.set_seed(1)
    source = ds.NumpySlicesDataset(list(range(10)))
    assert labels(source) == labels(source) != list(range(10))
    ms.set_seed(5)  # the global seed also seeds the pipeline, as in MindSpore
    assert ds.config.get_seed() == 5
    source_order = labels(ds.NumpySlicesDataset(list(range(10))))
    ms.set_seed(5)
    assert labels(ds.NumpySlicesDataset(list(range(10)))) == source_order


def test_config_seed_and_global_seed_order():
    # Observed on MindSpore 2.10: ms.set_seed(3) sets the dataset seed; dataset.config.set_seed(7) does not
    # change ms.get_seed().
    ms.set_seed(3)
    assert ds.config.get_seed() == 3
    ds.config.set_seed(7)
    assert ds.config.get_seed() == 7 and ms.get_seed() == 3
    ms.set_seed(3)
    assert ds.config.get_seed() == 3
    with pytest.raises(ValueError, match="UINT32_MAX"):
        ds.config.set_seed(-1)
    ds.config.set_num_parallel_workers(2)
    assert ds.config.get_num_parallel_workers() == 2


def test_shared_memory_flag_is_recorded_as_mindspores():
    # MindSpore 2.10: True by default; "enable must be of type bool." for 1 or "x"
    assert ds.config.get_enable_shared_mem() is True
    ds.config.set_enable_shared_mem(False)
    assert ds.config.get_enable_shared_mem() is False
    ds.config.set_enable_shared_mem(True)
    with pytest.raises(TypeError, match="^enable must be of type bool.$"):
        ds.config.set_enable_shared_mem(1)


def test_iterator_epochs():
    it = three_columns().create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == [0, 1, 2, 3, 4]
    assert [int(r[0]) for r in it] == [0, 1, 2, 3, 4]
    with pytest.raises(RuntimeError, match="num_epochs=2"):
        next(it)
    row = next(three_columns().create_tuple_iterator(columns=["c", "a"], output_numpy=True))
    assert row[0].tolist() == [0, 1] and int(row[1]) == 0
    assert [type(v) for v in next(iter(three_columns()))] == [ms.Tensor] * 3


def test_map_column_layouts():
    # Observed on MindSpore 2.10 for columns (a, b, c).
    def layout(inputs, outputs, fn):
        return three_columns().map(fn, input_columns=inputs, output_columns=outputs).get_col_names()
    assert layout(["b"], ["z"], lambda b: b) == ["a", "z", "c"]
    assert layout(["c", "a"], ["x", "y"], lambda c, a: (c, a)) == ["y", "b", "x"]
    assert layout(["c", "a"], ["x"], lambda c, a: c) == ["x", "b"]
    assert layout(["b"], ["x", "y"], lambda b: (b, b)) == ["x", "y", "a", "c"]
    doubled = three_columns().map(lambda a: a * 2, input_columns=["a"])
    assert labels(doubled, 0) == [0, 2, 4, 6, 8] and doubled.output_types()[0] == np.dtype("int64")
    chained = three_columns().map([lambda a: a + 1, lambda a: a * 10], input_columns="a")
    assert labels(chained, 0) == [10, 20, 30, 40, 50]
    summed = three_columns().map(lambda a, b: a + b, input_columns=["a", "b"], output_columns=["s"])
    assert summed.get_col_names() == ["s", "c"] and summed.output_types()[0] == np.dtype("float64")
    listed = three_columns().map(lambda a: [1, 2], input_columns=["a"])
    assert listed.output_types()[0] == np.dtype("int64") and listed.output_shapes()[0] == [2]
    cast = three_columns().map(transforms.TypeCast(ms.float32), input_columns=["a"])
    assert cast.output_types()[:2] == [np.dtype("float32"), np.dtype("float64")]


def test_project_rename_zip_concat():
    assert three_columns().project(["b"]).get_col_names() == ["b"]
    assert three_columns().project(["c", "a"]).output_shapes() == [[2], []]
    assert three_columns().rename(["a"], ["x"]).get_col_names() == ["x", "b", "c"]
    assert three_columns().rename("a", "x").get_col_names() == ["x", "b", "c"]

    def tens():
        for i in range(3):
            yield (np.array(i * 10),)
    zipped = ds.zip((three_columns().project(["a"]), ds.GeneratorDataset(tens, ["t"])))
    assert zipped.get_col_names() == ["a", "t"] and zipped.get_dataset_size() == 3
    assert [[int(v) for v in row] for row in zipped.create_tuple_iterator(output_numpy=True)] == [
        [0, 0], [1, 10], [2, 20]]
    assert three_columns().zip(ds.GeneratorDataset(tens, ["t"])).get_col_names() == ["a", "b", "c", "t"]
    both = three_columns() + three_columns()
    assert both.get_dataset_size() == 10 and labels(both, 0) == [0, 1, 2, 3, 4] * 2
    assert three_columns().concat([three_columns(), three_columns()]).get_dataset_size() == 15


def test_filter_and_per_batch_map():
    # Observed on MindSpore 2.10.
    def table():
        return ds.NumpySlicesDataset({"a": list(range(6)), "b": [x * 1.5 for x in range(6)]}, shuffle=False)
    evens = table().filter(lambda a: a % 2 == 0, input_columns=["a"])
    assert evens.get_dataset_size() == 3 and labels(evens, 0) == [0, 2, 4]
    assert labels(table().filter(lambda a, b: b > 4), 0) == [3, 4, 5]
    seen = []

    def times_ten(a, b, info):
        seen.append((type(a), type(a[0]), info.get_batch_num(), info.get_epoch_num()))
        return [x * 10 for x in a], b
    batches = list(table().batch(4, per_batch_map=times_ten, input_columns=["a", "b"])
                   .create_tuple_iterator(output_numpy=True))
    assert [b[0].tolist() for b in batches] == [[0, 10, 20, 30], [40, 50]]
    assert batches[1][1].tolist() == [6.0, 7.5] and batches[0][0].dtype == np.int64
    assert seen == [(list, np.ndarray, 0, 0), (list, np.ndarray, 1, 0)]
    doubled = table().batch(2, per_batch_map=lambda a, info: (np.array(a) * 2,), input_columns=["a"],
                            output_columns=["z"])
    assert doubled.get_col_names() == ["z", "b"]
    assert next(doubled.create_tuple_iterator(output_numpy=True))[0].tolist() == [0, 2]


def test_split():
    first, second = three_columns().split([3, 2], randomize=False)
    assert labels(first, 0) == [0, 1, 2] and labels(second, 0) == [3, 4]
    a, b = three_columns().split([0.6, 0.4], randomize=False)
    assert (a.get_dataset_size(), b.get_dataset_size()) == (3, 2)
    # Observed on MindSpore 2.10: 10 rows split [0.75, 0.25] -> 8 and 2 rows.
    a, b = ds.NumpySlicesDataset(list(range(10)), shuffle=False).split([0.75, 0.25])
    assert (a.get_dataset_size(), b.get_dataset_size()) == (8, 2)
    assert sorted(labels(a) + labels(b)) == list(range(10))
    # unseeded, the parts of a source read in order are disjoint and keep their order from epoch to epoch
    a, b = ds.NumpySlicesDataset(list(range(10)), shuffle=False).split([0.5, 0.5])
    it = a.create_tuple_iterator(num_epochs=2, output_numpy=True)
    a_first, a_second = [int(r[0]) for r in it], [int(r[0]) for r in it]
    assert a_first == a_second and sorted(a_first + labels(b)) == list(range(10))
    with pytest.raises(ValueError, match="sharded"):
        ds.NumpySlicesDataset(list(range(10)), num_shards=2, shard_id=0).split([0.5, 0.5])


def test_seeded_split_is_mindspores(isolated_seeds):
    # MindSpore 2.10: a random-access source's parts are positions of one RandomSampler order (the seed read when the
    # iterator is made, never reshuffled) under the source's own order; other sources split a buffer shuffle of
    # 10,000 rows that does not reshuffle.
    def passes(dataset, count=2):
        iterator = dataset.create_tuple_iterator(num_epochs=count, output_numpy=True)
        return [[int(row[0]) for row in iterator] for _ in range(count)]

    ds.config.set_seed(3)
    a, b = ds.NumpySlicesDataset({"x": np.arange(20)}, shuffle=False).split([0.7, 0.3])
    assert passes(a, 1) == [[3, 10, 8, 17, 11, 6, 19, 7, 18, 4, 1, 2, 9, 0]]
    assert passes(b, 1) == [[13, 16, 14, 5, 15, 12]]
    a, b = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False).split([6, 4])
    ds.config.set_seed(4)
    assert passes(a, 1) == [[0, 7, 4, 2, 5, 3]] and passes(b, 1) == [[1, 9, 8, 6]]
    ds.config.set_seed(3)
    assert passes(a) == [[3, 1, 8, 5, 2, 6]] * 2 and passes(b) == [[9, 7, 0, 4]] * 2
    a, b = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=True).split([6, 4])
    assert passes(a) == [[5, 1, 0, 6, 8, 9], [8, 7, 0, 5, 2, 1]] and passes(b) == [[4, 7, 3, 2], [9, 4, 3, 6]]
    a, b = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=True).split([6, 4], randomize=False)
    assert passes(a) == [[3, 1, 8, 5, 2, 6], [3, 7, 2, 8, 6, 5]] and passes(b) == [[9, 7, 0, 4], [1, 4, 0, 9]]

    def rows():
        for i in range(10):
            yield (np.array(i),)

    a, b = ds.GeneratorDataset(rows, ["x"], shuffle=False).split([6, 4])
    assert passes(a) == [[7, 9, 3, 2, 5, 8]] * 2 and passes(b) == [[4, 0, 6, 1]] * 2


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="batch_size"):
        three_columns().batch(0)
    with pytest.raises(ValueError, match="batch_size"):
        three_columns().batch(-1)
    with pytest.raises(ValueError, match="'q' is not a column"):
        three_columns().project(["q"])
    with pytest.raises(ValueError, match="'q' is not a column"):
        three_columns().map(lambda q: q, input_columns=["q"])
    with pytest.raises(ValueError, match="'q' is not a column"):
        three_columns().rename(["q"], ["x"])
    with pytest.raises(ValueError, match="'q' is not a column"):
        three_columns().create_tuple_iterator(columns=["q"])
    with pytest.raises(ValueError, match="buffer_size"):
        three_columns().shuffle(1)
    with pytest.raises(ValueError, match="count"):
        three_columns().repeat(0)
    with pytest.raises(ValueError, match="count"):
        three_columns().skip(-1)
    with pytest.raises(ValueError, match="Neither columns_names nor schema"):
        ds.GeneratorDataset(gen_three_columns)
    with pytest.raises(ValueError, match="passed in together"):
        ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_shards=2)
    with pytest.raises(ValueError, match="less than num_shards"):
        ds.GeneratorDataset(RandomAccess(), ["x", "y"], num_shards=2, shard_id=2)
    with pytest.raises(ValueError, match="__getitem__"):
        ds.GeneratorDataset(gen_three_columns, ["a", "b", "c"], num_shards=2, shard_id=0)
    with pytest.raises(ValueError, match="Conflicting"):
        ds.GeneratorDataset(RandomAccess(), ["x", "y"], sampler=ds.SequentialSampler(), shuffle=True)
    with pytest.raises(ValueError, match="share the column names"):
        ds.zip((three_columns(), three_columns()))
    with pytest.raises(ValueError, match="different columns"):
        three_columns() + three_columns().project(["a"])
    with pytest.raises(ValueError, match="sum to the dataset size"):
        three_columns().split([2, 2])
    with pytest.raises(TypeError, match="not callable|callables"):
        three_columns().map(3, input_columns="a")


def test_errors_found_while_iterating():
    with pytest.raises(RuntimeError, match="same number of values as column_names"):
        list(ds.GeneratorDataset(gen_three_columns, ["a"]).create_tuple_iterator())
    with pytest.raises(RuntimeError, match="output_columns"):
        list(three_columns().map(lambda a: (a, a), input_columns=["a"]).create_tuple_iterator())

    def ragged():
        yield (np.zeros(2),)
        yield (np.zeros(3),)
    with pytest.raises(RuntimeError, match=r"column 'a'.*\(2,\).*\(3,\)"):
        list(ds.GeneratorDataset(ragged, ["a"]).batch(2).create_tuple_iterator())
    with pytest.raises(RuntimeError, match="column_types specifies float32"):
        ds.GeneratorDataset(gen_three_columns, ["a", "b", "c"], column_types=[ms.float32, ms.float64,
                                                                             ms.int32]).output_types()


def test_iteration_streams_rows():
    """A 20 MB generator's epoch is iterated holding a few batches, not the data (tracemalloc peak)."""
    import tracemalloc

    def big_rows():
        for i in range(500):
            yield np.full((100, 100), i, np.float32), i  # 40 kB a row, 20 MB in all

    d = ds.GeneratorDataset(big_rows, ["x", "i"]).map(lambda x: x * 2, input_columns="x").batch(8)
    tracemalloc.start()
    total = sum(float(batch[0][:, 0, 0].sum()) for batch in d.create_tuple_iterator(output_numpy=True))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert total == 2 * sum(range(500))
    assert peak < 2 * 2**20


def epoch_orders(iterator, epochs):
    return [[int(row[0]) for row in iterator] for _ in range(epochs)]


def test_each_epoch_of_an_iterator_draws_its_own_order_and_a_new_iterator_starts_over():
    source = ds.NumpySlicesDataset(list(range(10)), shuffle=True)
    ms.set_seed(4)
    orders = epoch_orders(source.create_tuple_iterator(num_epochs=3, output_numpy=True), 3)
    assert len({tuple(order) for order in orders}) == 3 and all(sorted(o) == list(range(10)) for o in orders)
    ms.set_seed(4)  # the same seed: the same sequence of orders, through dict iterators too
    dicts = source.create_dict_iterator(num_epochs=3, output_numpy=True)
    assert [[int(row["column_0"]) for row in dicts] for _ in range(3)] == orders
    # Observed on MindSpore 2.10: a new iterator per epoch starts from the first epoch's order each time.
    assert [epoch_orders(source.create_tuple_iterator(output_numpy=True), 1)[0] for _ in range(3)] == [orders[0]] * 3


def test_an_epoch_after_an_error_starts_a_fresh_pass():
    raised = []

    def fails_once_at_row_2():
        for i in range(4):
            if i == 2 and not raised:
                raised.append(i)
                raise ValueError("row 2 could not be read")
            yield np.int64(i)

    iterator = ds.GeneratorDataset(fails_once_at_row_2, ["x"]).create_tuple_iterator(num_epochs=3, output_numpy=True)
    seen = []
    with pytest.raises(ValueError, match="row 2 could not be read"):
        for row in iterator:
            seen.append(int(row[0]))
    assert seen == [0, 1]
    assert [int(row[0]) for row in iterator] == [0, 1, 2, 3]  # was silently empty
    assert [int(row[0]) for row in iterator] == [0, 1, 2, 3]
    with pytest.raises(RuntimeError, match="num_epochs=3"):  # the epoch that failed counts
        next(iterator)


def test_the_size_of_take_reads_no_more_rows_than_it_takes():
    drawn = []

    def endless():
        for i in itertools.count():
            if i == 1000:
                raise AssertionError("1000 rows read of an endless source")
            drawn.append(i)
            yield np.int64(i)

    assert ds.GeneratorDataset(endless, ["x"]).take(5).get_dataset_size() == 5 and drawn == [0, 1, 2, 3, 4]
    assert ds.GeneratorDataset(endless, ["x"]).take(5).batch(2).get_dataset_size() == 3
    assert ds.zip((ds.GeneratorDataset(endless, ["x"]), three_columns())).get_dataset_size() == 5
    assert three_columns().take(9).get_dataset_size() == 5  # a shorter source: its size
    mapped = []
    known = ds.NumpySlicesDataset(list(range(7)), shuffle=False).map(lambda x: mapped.append(x) or x).take(3)
    assert known.get_dataset_size() == 3 and mapped == []  # a known size is not counted by reading rows


def test_concat_dataset_class_iterator_classes_and_core_paths():
    # MindSpore 2.10: ds.ConcatDataset([a, b]) gives [0, 1, 10, 11, 12], 5 rows; create_tuple_iterator is a
    # ds.TupleIterator; mindspore.dataset.core.validator_helpers.INT32_MAX and mindspore.dataset.core.config
    a = ds.NumpySlicesDataset(np.arange(2), shuffle=False)
    b = ds.NumpySlicesDataset(np.arange(3) + 10, shuffle=False)
    both = ds.ConcatDataset([a, b])
    assert [int(r[0]) for r in both.create_tuple_iterator(output_numpy=True)] == [0, 1, 10, 11, 12]
    assert both.get_dataset_size() == 5
    assert isinstance(a.create_tuple_iterator(), ds.TupleIterator)
    assert isinstance(a.create_dict_iterator(), ds.DictIterator)
    from npspore.dataset.core import config
    from npspore.dataset.core.validator_helpers import INT32_MAX
    assert INT32_MAX == 2147483647 and config is ds.config


def test_weighted_random_sampler():
    # MindSpore 2.10: weights [0, 0, 1, 0], 3 samples -> [2, 2, 2]; without replacement [0.5, 0, 0.5, 0] -> {0, 2}
    data = ds.NumpySlicesDataset(np.arange(4), sampler=ds.WeightedRandomSampler([0, 0, 1, 0], num_samples=3))
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [2, 2, 2]
    assert data.get_dataset_size() == 3
    data = ds.NumpySlicesDataset(np.arange(4), sampler=ds.WeightedRandomSampler([0.5, 0, 0.5, 0], 2, False))
    assert sorted(int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)) == [0, 2]
    ds.config.set_seed(2)   # MindSpore 2.10: num_samples is capped at the source's rows; the draws as below
    data = ds.NumpySlicesDataset(np.arange(4), sampler=ds.WeightedRandomSampler([1, 3], num_samples=400))
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [0, 1, 1, 1]
    data = ds.NumpySlicesDataset(np.arange(400), sampler=ds.WeightedRandomSampler([1, 3], num_samples=400))
    counts = np.bincount([int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)], minlength=2)
    assert counts.tolist() == [100, 300]
    with pytest.raises(TypeError, match="replacement must be a boolean value but was: 1."):
        ds.WeightedRandomSampler([1, 1], replacement=1)
    with pytest.raises(TypeError, match="type of weights element must be number, but got w\\[1\\]: a"):
        ds.WeightedRandomSampler([1, "a"])
    with pytest.raises(ValueError, match="not all zero"):
        ds.WeightedRandomSampler([0, 0])


def test_padded_dataset():
    # MindSpore 2.10: columns from the first dict, rows in order, two rows; concatenated after another dataset
    padded = ds.PaddedDataset([{"image": np.zeros(2, np.uint8), "label": np.array(1)},
                               {"image": np.ones(3, np.uint8), "label": np.array(-1)}])
    assert padded.get_col_names() == ["image", "label"] and padded.get_dataset_size() == 2
    rows = list(padded.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [(r["image"].tolist(), int(r["label"])) for r in rows] == [([0, 0], 1), ([1, 1, 1], -1)]
    assert ds.PaddedDataset([{"b": np.array([1.5], np.float32), "a": np.array("x")}]).get_col_names() == ["b", "a"]
    base = ds.NumpySlicesDataset({"image": np.zeros((3, 2), np.uint8), "label": np.arange(3)}, shuffle=False)
    both = base + ds.PaddedDataset([{"image": np.full(2, 9, np.uint8), "label": np.array(-1)}])
    assert [int(r["label"]) for r in both.create_dict_iterator(output_numpy=True)] == [0, 1, 2, -1]
    with pytest.raises(ValueError, match="padded_samples cannot be empty."):
        ds.PaddedDataset([])
    with pytest.raises(TypeError, match="Argument padded_samples with value {'a': 1} is not of type"):
        ds.PaddedDataset({"a": 1})
    with pytest.raises(TypeError, match="Argument padded_element with value 1 is not of type"):
        ds.PaddedDataset([1])


def test_seeded_shuffles_are_mindspores_orders(isolated_seeds):
    # MindSpore 2.10 (dataset/stdshuffle.py): std::shuffle with std::mt19937(seed), reseeded with seed + 1 and
    # shuffled again at each epoch and each repetition.
    ds.config.set_seed(1)
    source = ds.GeneratorDataset([(np.array(i),) for i in range(10)], ["x"], shuffle=True)
    iterator = source.create_tuple_iterator(output_numpy=True, num_epochs=3)
    assert [[int(row[0]) for row in iterator] for _ in range(3)] == [
        [9, 0, 2, 5, 7, 4, 6, 3, 1, 8], [4, 9, 5, 0, 1, 7, 6, 2, 3, 8], [0, 9, 3, 7, 5, 6, 8, 2, 4, 1]]
    ms.set_seed(0)   # the global seed seeds the pipeline too
    repeated = ds.GeneratorDataset([(np.array(i),) for i in range(6)], ["x"], shuffle=True).batch(2).repeat(2)
    iterator = repeated.create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [[row[0].tolist() for row in iterator] for _ in range(2)] == [
        [[0, 2], [1, 5], [3, 4], [2, 0], [1, 4], [5, 3]], [[3, 2], [4, 0], [1, 5], [0, 2], [3, 5], [4, 1]]]
    ds.config.set_seed(5)
    odd = ds.NumpySlicesDataset(np.arange(1001), shuffle=True).create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [[int(row[0]) for row in odd][:6] for _ in range(2)] == [[921, 87, 910, 432, 490, 300],
                                                                   [310, 504, 821, 503, 317, 863]]
    ds.config.set_seed(3)   # n * n above 2^32: one draw per position
    large = ds.NumpySlicesDataset(np.arange(70000), shuffle=True).create_tuple_iterator(output_numpy=True)
    assert [int(next(large)[0]) for _ in range(5)] == [27548, 48776, 47402, 59264, 12094]


def test_seeded_draws_with_replacement_are_mindspores(isolated_seeds):
    # MindSpore 2.10 (dataset/stdshuffle.py): std::uniform_int_distribution<int64_t>(0, n - 1) over
    # std::mt19937(seed + pass); a shuffled source given num_samples draws so (docs' ResNet-50 Cifar10Dataset).
    ms.set_seed(3)
    data = np.arange(10)
    drawn = ds.NumpySlicesDataset(data, ["x"], sampler=ds.RandomSampler(replacement=True, num_samples=6))
    iterator = drawn.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [[int(row[0]) for row in iterator] for _ in range(2)] == [[5, 0, 7, 8, 2, 1], [9, 9, 5, 1, 9, 8]]
    repeated = ds.NumpySlicesDataset(data, ["x"], sampler=ds.RandomSampler(replacement=True)).repeat(2)
    assert [int(row[0]) for row in repeated.create_tuple_iterator(output_numpy=True)] == [
        5, 0, 7, 8, 2, 1, 5, 5, 8, 4, 9, 9, 5, 1, 9, 8, 7, 6, 6, 5]
    shuffled = ds.NumpySlicesDataset(data, ["x"], shuffle=True, num_samples=4)
    assert [int(row[0]) for row in shuffled.create_tuple_iterator(output_numpy=True)] == [5, 0, 7, 8]


def test_seeded_subset_and_weighted_samplers_are_mindspores(isolated_seeds):
    # MindSpore 2.10 (dataset/stdshuffle.py): both reseed std::mt19937 with the same seed at every pass; the subset
    # sampler shuffles its kept indices again, the weighted one draws the same ids again.
    ms.set_seed(3)

    def passes(sampler, count=2):
        iterator = ds.NumpySlicesDataset(np.arange(10), ["x"], sampler=sampler).create_tuple_iterator(
            num_epochs=count, output_numpy=True)
        return [[int(row[0]) for row in iterator] for _ in range(count)]

    weights = [0.8, 0.5, 0, 0.1, 2.0]
    assert passes(ds.WeightedRandomSampler(weights, num_samples=6)) == [[0, 4, 0, 4, 4, 0]] * 2
    assert passes(ds.WeightedRandomSampler(weights, num_samples=3, replacement=False)) == [[0, 4, 1]] * 2
    assert passes(ds.WeightedRandomSampler(weights)) == [[0, 4, 0, 4, 4, 0, 0, 1, 0, 4]] * 2   # one per row
    assert passes(ds.SubsetRandomSampler(list(range(10)), num_samples=6), 3) == [
        [3, 1, 0, 5, 2, 4], [5, 1, 3, 4, 0, 2], [4, 1, 5, 2, 3, 0]]
    assert passes(ds.SubsetRandomSampler([7, 2, 5])) == [[5, 2, 7], [7, 2, 5]]
    repeated = ds.NumpySlicesDataset(np.arange(10), ["x"], sampler=ds.SubsetRandomSampler([1, 3, 5, 7])).repeat(2)
    assert [int(row[0]) for row in repeated.create_tuple_iterator(output_numpy=True)] == [7, 3, 1, 5, 5, 3, 7, 1]


def test_distributed_sampler_shuffles_as_mindspore(isolated_seeds, monkeypatch):
    # MindSpore 2.10: the seed the sampler is made with plus one, RandomSampler's orders pass after pass, every
    # iterator starting again; unseeded, the default seed 5489 (so every process shuffles alike).
    from npspore.common import seed
    monkeypatch.setattr(seed, "_seed", None)
    monkeypatch.setattr(ds.config, "_seed", None)

    def shards(count=3):
        out = []
        for shard in (0, 1):
            sampler = ds.DistributedSampler(num_shards=3, shard_id=shard, shuffle=True)
            iterator = ds.NumpySlicesDataset({"x": np.arange(10)}, sampler=sampler).create_dict_iterator(
                output_numpy=True, num_epochs=count)
            out.append([[int(row["x"]) for row in iterator] for _ in range(count)])
        return out

    assert shards() == [[[7, 6, 3, 2], [0, 5, 6, 4], [8, 6, 3, 4]], [[8, 0, 4, 7], [9, 8, 2, 0], [0, 1, 5, 8]]]
    ds.config.set_seed(0)
    assert shards() == [[[9, 5, 6, 8], [4, 0, 6, 8], [0, 7, 8, 1]], [[0, 7, 3, 9], [9, 1, 2, 4], [9, 5, 2, 0]]]
    data = ds.NumpySlicesDataset({"x": np.arange(10)}, num_shards=2, shard_id=1, shuffle=True)
    ds.config.set_seed(7)         # read when the sampler is made: the next iterators still shuffle with seed 0
    iterator = data.create_dict_iterator(output_numpy=True, num_epochs=2)
    assert [[int(row["x"]) for row in iterator] for _ in range(2)] == [[0, 5, 4, 3, 8], [9, 0, 7, 2, 8]]
    assert [int(row["x"]) for row in data.create_dict_iterator(output_numpy=True)] == [0, 5, 4, 3, 8]


def test_seeded_buffer_shuffle_is_mindspores_shuffle_op(isolated_seeds):
    # MindSpore 2.10's ShuffleOp (dataset/stdshuffle.py): std::mt19937_64(seed) picks a buffer slot per row, the
    # generator going on across epochs and repetitions.
    ds.config.set_seed(1)
    source = ds.GeneratorDataset([(np.array(i),) for i in range(10)], ["x"], shuffle=False).shuffle(4)
    iterator = source.create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [[int(row[0]) for row in iterator] for _ in range(2)] == [[0, 2, 4, 5, 3, 1, 7, 9, 6, 8],
                                                                      [0, 4, 1, 6, 3, 5, 8, 7, 9, 2]]
    ms.set_seed(0)
    both = ds.GeneratorDataset([(np.array(i),) for i in range(7)], ["x"], shuffle=True).shuffle(3).batch(2).repeat(2)
    assert [row[0].tolist() for row in both.create_tuple_iterator(output_numpy=True)] == [
        [2, 0], [4, 6], [5, 1], [3], [4, 0], [1, 5], [3, 6], [2]]
    larger = ds.NumpySlicesDataset(np.arange(5), shuffle=False).shuffle(10)   # a buffer never filled
    assert [int(row[0]) for row in larger.create_tuple_iterator(output_numpy=True)] == [4, 3, 1, 0, 2]
