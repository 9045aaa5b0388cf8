"""SequentialCell and CellList (semantics §10)."""
from collections import OrderedDict

import numpy as np
import pytest

from npspore import Tensor, nn


def dense(n_in=2, n_out=2):
    return nn.Dense(n_in, n_out, weight_init="ones", bias_init="zeros")


# ---------------------------------------------------------------- SequentialCell


def test_sequential_runs_cells_in_order():
    net = nn.SequentialCell(dense(3, 2), nn.ReLU(), nn.Dense(2, 1, weight_init="ones", bias_init=-1.0))
    out = net(Tensor(np.array([[1.0, 2.0, -4.0], [1.0, 1.0, 1.0]], np.float32)))
    # dense: [-1, -1] and [3, 3]; relu: [0, 0] and [3, 3]; last: [-1] and [5]
    np.testing.assert_array_equal(out.asnumpy(), [[-1.0], [5.0]])


def test_sequential_children_and_parameter_names():
    net = nn.SequentialCell(dense(), nn.ReLU(), dense())
    assert list(net.name_cells()) == ["0", "1", "2"]
    assert [q.name for q in net.get_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_sequential_from_list_and_ordered_dict():
    from_list = nn.SequentialCell([dense(), nn.ReLU()])
    assert list(from_list.name_cells()) == ["0", "1"]
    from_dict = nn.SequentialCell(OrderedDict([("fc", dense()), ("act", nn.ReLU())]))
    assert list(from_dict.name_cells()) == ["fc", "act"]
    assert [q.name for q in from_dict.get_parameters()] == ["fc.weight", "fc.bias"]
    assert repr(from_dict) == ("SequentialCell(\n  (fc): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
                               "  (act): ReLU()\n)")


def test_sequential_rejects_plain_dict_and_non_cells():
    with pytest.raises(TypeError) as info:
        nn.SequentialCell({"a": nn.ReLU()})
    assert str(info.value) == "For 'SequentialCell', the 'args[0]' must be Cell, list or orderedDict, but got dict"
    with pytest.raises(TypeError, match="each cell must be subclass of Cell, but got int"):
        nn.SequentialCell([nn.ReLU(), 3])


def test_sequential_len_indexing_and_slicing():
    first, relu, last = dense(), nn.ReLU(), dense()
    net = nn.SequentialCell(first, relu, last)
    assert len(net) == 3
    assert net[0] is first and net[-1] is last and net[-3] is first
    with pytest.raises(IndexError, match=r"range \[-3, 3\), but got 3"):
        net[3]
    with pytest.raises(TypeError):
        net["0"]
    tail = net[1:]
    assert isinstance(tail, nn.SequentialCell) and len(tail) == 2
    assert list(tail.name_cells()) == ["1", "2"] and tail[0] is relu


def test_sequential_append_names_by_position_behind_the_container_prefix():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.seq = nn.SequentialCell(dense())

        def construct(self, x):
            return self.seq(x)

    net = Net()
    net.seq.append(dense())
    assert [q.name for q in net.get_parameters()] == ["seq.0.weight", "seq.0.bias", "seq.1.weight", "seq.1.bias"]
    assert len(net.seq) == 2
    np.testing.assert_array_equal(net(Tensor(np.array([1.0, 1.0], np.float32))).asnumpy(), [4.0, 4.0])
    with pytest.raises(TypeError):
        net.seq.append(3)


# ---------------------------------------------------------------- CellList


def test_cell_list_append_extend_insert_and_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([dense(), dense()])

        def construct(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    net = Net()
    assert [q.name for q in net.get_parameters()] == \
        ["layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias"]
    np.testing.assert_array_equal(net(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy(), [6.0, 6.0])

    relu = nn.ReLU()
    net.layers.append(relu)
    assert len(net.layers) == 3 and net.layers[2] is relu and net.layers[-1] is relu
    moved = net.layers[1]
    inserted = dense()
    net.layers.insert(1, inserted)
    assert [type(c).__name__ for c in net.layers] == ["Dense", "Dense", "Dense", "ReLU"]
    assert net.layers[1] is inserted and net.layers[2] is moved
    assert moved.weight.name == "layers.2.weight" and inserted.weight.name == "layers.1.weight"
    assert net.layers.extend([nn.ReLU()]) is net.layers and len(net.layers) == 5


def test_cell_list_indexing_slicing_and_errors():
    cells = nn.CellList()
    assert len(cells) == 0
    cells += [nn.ReLU(), nn.Tanh()]
    assert [type(c).__name__ for c in cells[:1]] == ["ReLU"] and isinstance(cells[:1], nn.CellList)
    with pytest.raises(IndexError):
        cells[2]
    with pytest.raises(TypeError, match="must be int or slice"):
        cells["0"]
    with pytest.raises(TypeError, match="should be instance of list, but got tuple"):
        cells.extend((nn.ReLU(),))
    with pytest.raises(TypeError, match="each cell must be subclass of Cell"):
        cells.append(3)


def test_cell_list_without_auto_prefix_keeps_names():
    layer = dense()
    nn.CellList([layer], auto_prefix=False)
    assert layer.weight.name == "weight"


def test_cell_list_cannot_be_called():
    with pytest.raises(NotImplementedError) as info:
        nn.CellList([nn.ReLU()])(Tensor([1.0]))
    assert str(info.value) == ""


def test_cell_dict_is_mindspores():
    # MindSpore 2.10: keys, parameter names, membership, pop, update and the errors
    cells = nn.CellDict({"conv": nn.Conv2d(1, 2, 3), "relu": nn.ReLU()})
    assert list(cells.keys()) == ["conv", "relu"] and len(cells) == 2 and "relu" in cells
    assert [name for name, _ in cells.parameters_and_names()] == ["conv.weight"]
    assert [p.name for p in cells.trainable_params()] == ["conv.weight"]
    cells["pool"] = nn.MaxPool2d(2)
    assert list(cells.keys()) == ["conv", "relu", "pool"]
    assert type(cells.pop("relu")).__name__ == "ReLU" and list(cells) == ["conv", "pool"]
    cells.update([("a", nn.ReLU())])
    assert list(cells.keys()) == ["conv", "pool", "a"] and [k for k, _ in cells.items()] == list(cells.keys())
    for call, error, message in [
            (lambda: nn.CellDict({1: nn.ReLU()}), TypeError,
             "For 'CellDict', the type of key should be string but got int."),
            (lambda: nn.CellDict({"a": 1}), TypeError, "For 'CellDict', the type of cell should be Cell, but got int."),
            (lambda: nn.CellDict({"a.b": nn.ReLU()}), KeyError, "key can not contain \".\", but got key a.b"),
            (lambda: cells["missing"], KeyError, "missing"),
            (lambda: cells(1), NotImplementedError, ""),
            (lambda: nn.CellDict([("a", nn.ReLU(), 3)]), ValueError,
             "CellDict update sequence element #0, length should be 2; but has length 3"),
            (lambda: nn.CellDict(5), TypeError,
             "CellDict.update() should be called with an iterable of key-value pairs, but got int")]:
        with pytest.raises(error) as raised:
            call()
        assert message in str(raised.value)
    cells.clear()
    assert len(cells) == 0
