"""Dict columns (a source or a ``map`` giving a Python dict as one column's value), as MindSpore 2.10 runs them
(observed on its CPU wheel: the values, dtypes, batch stacking, iterator types and errors below)."""
import numpy as np
import pytest

import npspore.dataset as ds
from npspore import Tensor


def _rows():
    for i in range(3):
        yield {"x": np.array([i, i + 1], np.float32), "y": i}, np.array(i)


def test_values_become_arrays_and_the_dict_iterator_gives_tensors():
    data = ds.GeneratorDataset(_rows, column_names=["data", "label"], shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [sorted(row[0]) for row in rows] == [["x", "y"]] * 3
    np.testing.assert_array_equal(rows[2][0]["x"], np.array([2, 3], np.float32))
    assert rows[2][0]["x"].dtype == np.float32 and rows[2][0]["y"].dtype == np.int64 and rows[2][0]["y"] == 2
    row = next(iter(data.create_dict_iterator()))
    assert isinstance(row["data"]["x"], Tensor) and isinstance(row["data"]["y"], Tensor)
    assert row["data"]["y"].shape == () and str(row["data"]["y"].dtype) == "Int64"
    assert data.output_shapes() == [[0], []]
    assert data.output_types() == [np.dtype(object), np.dtype(np.int64)]


def test_a_batch_stacks_each_key_and_a_map_can_return_a_dict():
    data = ds.GeneratorDataset(_rows, column_names=["data", "label"], shuffle=False)
    batches = list(data.batch(2).create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(batches[0][0]["x"], [[0, 1], [1, 2]])
    np.testing.assert_array_equal(batches[0][0]["y"], [0, 1])
    np.testing.assert_array_equal(batches[1][0]["y"], [2])
    mapped = data.map(lambda value: {"x": value["x"] * 2, "z": value["y"] + 1}, input_columns=["data"])
    rows = list(mapped.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[1][0]["x"], [2, 4])
    assert rows[1][0]["z"] == 2 and sorted(rows[1][0]) == ["x", "z"]


def test_nested_dicts_become_tensors_too():
    data = ds.GeneratorDataset(lambda: iter([({"x": {"deep": np.zeros(2)}},)]), ["data"], shuffle=False)
    row = next(iter(data))
    assert isinstance(row[0]["x"]["deep"], Tensor) and str(row[0]["x"]["deep"].dtype) == "Float64"


@pytest.mark.parametrize("second, message", [({"q": np.zeros(2)}, "keys do not match"),
                                             ({"x": np.zeros(3)}, "different shapes")])
def test_a_batch_of_dicts_that_differ_is_refused(second, message):
    data = ds.GeneratorDataset(lambda: iter([({"x": np.zeros(2)},), (second,)]), ["data"], shuffle=False)
    with pytest.raises(RuntimeError, match=message):
        list(data.batch(2))


def test_lists_and_tuples_in_a_dict_stay_python_objects_until_a_batch_stacks_them():
    def rows():
        for i in range(2):
            yield {"a": [1, 2, 3], "b": i, "e": (1, 2), "d": "txt"},
    data = ds.GeneratorDataset(rows, ["col"], shuffle=False)
    value = next(iter(data.create_tuple_iterator(output_numpy=True)))[0]
    assert repr(value) == ("{'a': [array(1), array(2), array(3)], 'b': array(0), 'e': (array(1), array(2)), "
                           "'d': array('txt', dtype='<U3')}")
    tensors = next(iter(data.create_dict_iterator()))["col"]
    assert isinstance(tensors["a"], list) and isinstance(tensors["a"][0], Tensor) and isinstance(tensors["e"], tuple)
    assert isinstance(tensors["d"], np.ndarray)
    batch = next(iter(data.batch(2).create_tuple_iterator(output_numpy=True)))[0]
    np.testing.assert_array_equal(batch["a"], [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(batch["e"], [[1, 2], [1, 2]])


def test_a_per_batch_map_may_return_dicts_of_the_column_lists_it_got():
    def per_batch(col, info):
        return {"x": 5, "z": col},
    data = ds.GeneratorDataset(lambda: iter([(np.array(i),) for i in range(2)]), ["col"], shuffle=False)
    value = next(iter(data.batch(2, per_batch_map=per_batch).create_tuple_iterator(output_numpy=True)))[0]
    assert repr(value) == "{'x': array(5), 'z': [array(0), array(1)]}"


def test_64_bit_integers_of_numpy_rows_are_typed_as_mindspores_so_their_repr_matches():
    """MindSpore's C++ gives NumPy ``long long`` arrays (repr ``dtype=int64``); Python objects in dicts stay as made."""
    data = ds.GeneratorDataset(lambda: iter([(np.array([3, 4]), {"k": 4})]), ["n", "d"], shuffle=False)
    row = next(iter(data.create_tuple_iterator(output_numpy=True)))
    assert repr(row) == "[array([3, 4], dtype=int64), {'k': array(4)}]"
    assert row[0].dtype == np.int64 and str(Tensor(row[0]).dtype) == "Int64"
