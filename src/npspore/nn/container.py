"""Cell containers: ``SequentialCell`` (runs its cells in order), ``CellList`` and ``CellDict`` (hold cells).

Children are named ``'0'``, ``'1'`` ... (or by the keys of an OrderedDict), so their parameters
are named ``'0.weight'``, ``'1.bias'`` ..., behind whatever prefix the container itself has.
"""
from __future__ import annotations

from typing import Any
from collections import OrderedDict

from npspore.nn.cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _valid_index(cell_num, index, op_name):
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"For '{op_name}', the type of 'index' must be int, but got {type(index).__name__}.")
    if not -cell_num <= index < cell_num:
        raise IndexError(f"For '{op_name}', the value of 'index' must be a number in range [{-cell_num}, "
                         f"{cell_num}), but got {index}.")
    return index % cell_num


def _valid_cell(cell, op_name):
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{op_name}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


def _name_prefix(container):
    """The prefix the container's parameters carry before their path inside it ('' if unprefixed)."""
    for path, param in container.parameters_and_names():
        if param.name.endswith(path):
            return param.name[:-len(path)]
    return ""


class _CellContainer(Cell):
    """What the containers share: children keyed by position, ``len`` and ``append``."""

    def __len__(self):
        return len(self._cells)

    def _store(self, position, cell, prefix):
        if self._auto_prefix:
            cell.update_parameters_name(f"{prefix}{position}.")
        self._cells[str(position)] = cell

    def append(self, cell):
        """Add `cell` at the end, named by its position.

        Args:
            cell (Cell): the cell.

        Raises:
            TypeError: If `cell` is not a Cell.
        """
        _valid_cell(cell, self.cls_name)
        self._store(len(self), cell, _name_prefix(self))


class SequentialCell(_CellContainer):
    """A Cell that runs its cells one after the other, each on the previous one's output.

    Args:
        args (Union[Cell, list[Cell], OrderedDict[str, Cell]]): the cells, given one by one, as a
            list, or as an OrderedDict whose keys name them.

    Inputs:
        - **x** (Tensor) - the input of the first cell.

    Outputs:
        The output of the last cell.

    Raises:
        TypeError: If the single argument is not a Cell, list or OrderedDict, or an element is not a Cell.

    Examples:
        >>> net = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU())
        >>> [p.name for p in net.trainable_params()]
        ['0.weight', '0.bias']
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            named = list(args[0].items())
        elif len(args) == 1 and isinstance(args[0], list):
            named = [(str(i), cell) for i, cell in enumerate(args[0])]
        elif len(args) == 1 and not isinstance(args[0], Cell):
            raise TypeError(f"For '{self.cls_name}', the 'args[0]' must be Cell, list or orderedDict, "
                            f"but got {type(args[0]).__name__}")
        else:
            named = [(str(i), cell) for i, cell in enumerate(args)]
        for _, cell in named:
            _valid_cell(cell, self.cls_name)
        for name, cell in named:
            self.insert_child_to_cell(name, cell)
            cell.update_parameters_name(name + ".")
        self.cell_list = list(self._cells.values())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._cells.items())[index]))
        return self.cell_list[_valid_index(len(self), index, self.cls_name)]

    def append(self, cell):
        """Add `cell` at the end, named by its position; it runs last.

        Raises:
            TypeError: If `cell` is not a Cell.
        """
        super().append(cell)
        self.cell_list = list(self._cells.values())

    def construct(self, input_data):
        for cell in self.cell_list:
            input_data = cell(input_data)
        return input_data


class CellList(_CellContainer):
    """A list of Cells, indexable and iterable (also in ``construct``), that is not callable itself.

    Args:
        args (list[Cell]): the initial cells. Default: none.
        auto_prefix (bool): whether the cells' parameter names get the position prefix
            (``'0.weight'``). Default: ``True``.

    Raises:
        TypeError: If the initial value is not a list or an element is not a Cell.

    Examples:
        >>> layers = nn.CellList([nn.Dense(2, 2)])
        >>> layers.append(nn.ReLU())
        >>> len(layers)
        2
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._cells.values())[index])
        if isinstance(index, int) and not isinstance(index, bool):
            return self._cells[str(_valid_index(len(self), index, self.cls_name))]
        raise TypeError(f"For '{self.cls_name}', the type of 'index' must be int or slice, but got "
                        f"{type(index).__name__}.")

    def __iter__(self):
        return iter(self._cells.values())

    def __iadd__(self, cells):
        return self.extend(cells)

    def extend(self, cells):
        """Add the cells of the list `cells` at the end.

        Args:
            cells (list[Cell]): the cells.

        Returns:
            CellList, this list.

        Raises:
            TypeError: If `cells` is not a list or an element is not a Cell.
        """
        if not isinstance(cells, list):
            raise TypeError(f"For '{self.cls_name}', the new cells wanted to append should be instance of list, "
                            f"but got {type(cells).__name__}.")
        for cell in cells:
            _valid_cell(cell, self.cls_name)
        prefix = _name_prefix(self)
        for cell in cells:
            self._store(len(self), cell, prefix)
        return self

    def insert(self, index, cell):
        """Insert `cell` before position `index`; the cells after it move up by one (and are renamed).

        Args:
            index (int): the position, in [-len, len).
            cell (Cell): the cell.

        Raises:
            TypeError: If `index` is not an int or `cell` is not a Cell.
            IndexError: If `index` is out of range.
        """
        position = _valid_index(len(self), index, self.cls_name)
        _valid_cell(cell, self.cls_name)
        prefix = _name_prefix(self)
        cells = list(self._cells.values())
        cells.insert(position, cell)
        for i in range(position, len(cells)):
            self._store(i, cells[i], prefix)

    def construct(self, *inputs):
        raise NotImplementedError


class CellDict(Cell):
    """An ordered dict of Cells by name (their parameters named ``'<key>.weight'`` ...), that is not callable
    itself.

    Args:
        args (Union[dict, Iterable[tuple[str, Cell]]]): the initial cells. Default: none.
        auto_prefix (bool): whether the cells' parameter names get the key prefix. Default: ``True``.

    Raises:
        TypeError: If a key is not a str or a value not a Cell.
        KeyError: If a key contains ``'.'``.

    Examples:
        >>> cells = nn.CellDict({"conv": nn.Conv2d(1, 2, 3), "relu": nn.ReLU()})
        >>> list(cells.keys())
        ['conv', 'relu']
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        if not isinstance(key, str):
            raise TypeError(f"For '{self.cls_name}', the type of key should be string but got "
                            f"{type(key).__name__}.")
        if "." in key:
            raise KeyError(f"For '{self.cls_name}', key can not contain \".\", but got key {key}")
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{self.cls_name}', the type of cell should be Cell, but got "
                            f"{type(cell).__name__}.")
        if self._auto_prefix:
            cell.update_parameters_name(f"{_name_prefix(self)}{key}.")
        self._cells[key] = cell

    def __delitem__(self, key: str) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    def clear(self) -> None:
        """Remove every cell."""
        self._cells.clear()

    def pop(self, key: str) -> Cell:
        """Remove the cell `key` and return it."""
        cell = self[key]
        del self[key]
        return cell

    def keys(self):
        """The keys, in order."""
        return self._cells.keys()

    def values(self):
        """The cells, in order."""
        return self._cells.values()

    def items(self):
        """The ``(key, cell)`` pairs, in order."""
        return self._cells.items()

    def update(self, cells: Any) -> None:
        """Add or replace the cells of `cells` (a dict, or an iterable of ``(key, cell)`` pairs).

        Raises:
            TypeError: If `cells` is not such an iterable.
            ValueError: If a pair does not have two elements.
        """
        if isinstance(cells, dict):
            cells = list(cells.items())
        elif not hasattr(cells, "__iter__") or isinstance(cells, (str, Cell)):
            raise TypeError(f"CellDict.update() should be called with an iterable of key-value pairs, but got "
                            f"{type(cells).__name__}")
        for i, pair in enumerate(cells):
            if len(pair) != 2:
                raise ValueError(f"CellDict update sequence element #{i}, length should be 2; but has length "
                                 f"{len(pair)}")
            self[pair[0]] = pair[1]

    def construct(self, *inputs):
        raise NotImplementedError
