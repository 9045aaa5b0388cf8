"""``mindspore.parallel.Layout`` (also ``mindspore.Layout``): a named arrangement of devices and the tensor
maps built from it, the sharding strategies ``Primitive.shard`` and ``AutoParallel.dataset_strategy`` take.

npspore runs one process, so a layout is a description it records and prints; the validation and the
tensor maps are MindSpore 2.10's (``mindspore/parallel/shard.py``).
"""
from __future__ import annotations

import copy
import math

__all__ = ["Layout"]

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """Devices arranged as ``device_matrix`` with a name per axis; ``layout("dp", "mp")`` maps a tensor's
    dimensions onto those axes.

    Args:
        device_matrix (tuple[int]): the shape of the device arrangement.
        alias_name (tuple[str]): one name per axis of ``device_matrix`` (``"interleaved_parallel"`` only last).
        rank_list (list[int], optional): the ranks in the arrangement. Default: ``None`` (``0 .. n-1``).

    Raises:
        TypeError: if ``device_matrix``/``alias_name`` is not a tuple, ``rank_list`` not a list, or an element
            has the wrong type.
        ValueError: if the lengths differ, a name is empty, ``"None"`` or repeated, or ``rank_list`` does not
            hold one rank per device.

    Examples:
        >>> layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
        >>> layout("dp", "mp").to_dict()["tensor_map"]
        (2, 0)
    """

    def __init__(self, device_matrix: tuple, alias_name: tuple, rank_list: list | None = None) -> None:
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for dim in device_matrix:
            if not isinstance(dim, int):
                raise TypeError(f"The element of device_matrix must be int type, but got:{type(dim)}")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"The element of alias_name must be str type, but got:{type(name)}")
            if not name:
                raise ValueError("The element of alias_name can not be empty.")
            if name == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
            raise ValueError(f"When alias_name {alias_name} contains keyword 'interleaved_parallel',"
                             " it should be at the last dim of alias_name, which means the virtual sharding.")
        devices = math.prod(device_matrix)
        if rank_list is None:
            rank_list = list(range(devices))
        else:
            if not isinstance(rank_list, list):
                raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
            for rank in rank_list:
                if not isinstance(rank, int):
                    raise TypeError(f"The element of rank_list should be int, but got {type(rank).__name__}.")
            if len(rank_list) != devices:
                raise ValueError("The length of rank_list should be equal to the product of device_matrix, "
                                 f"but got {len(rank_list)} and {devices}.")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map: tuple | None = None
        self._rank_list = rank_list

    def _axis(self, name: str, used: list) -> int:
        if name == "None":
            return -1
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in used:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        used.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map) -> Layout:
        """A copy of this layout whose tensor map sends each tensor dimension to the named device axes
        (a tuple of names shards one dimension over several axes; ``"None"`` leaves it whole).

        Raises:
            ValueError: if a name is not an axis of the layout or is used twice.
        """
        used: list = []
        mapped: list = []
        for dim in tensor_map:
            if isinstance(dim, tuple):
                mapped.append(tuple(self._axis(name, used) for name in dim))
            else:
                mapped.append(self._axis(dim, used))
        self._tensor_map = tuple(mapped)   # as MindSpore's: the layout keeps its last tensor map too
        return copy.deepcopy(self)

    def to_dict(self) -> dict:
        """The layout as MindSpore's dictionary: ``device_matrix``, ``tensor_map``, ``interleaved_parallel``,
        ``alias_name``, ``rank_list``.

        Raises:
            ValueError: if the layout has no tensor map yet (it was not called).
        """
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": self._rank_list}
