"""MindSpore's private ``mindspore.communication._comm_helper``: the ``Backend`` names and ``_get_group_ranks``."""
from __future__ import annotations

from .management import GlobalComm, get_process_group_ranks

__all__ = ["Backend", "_get_group_ranks"]


class Backend:
    """The collective-communication backends: ``Backend("hccl")`` is ``"hccl"`` (``nccl``, ``mccl`` too).

    Raises:
        TypeError: if the name is not a str. ValueError: if it names no backend.
    """
    UNDEFINED = "undefined"
    HCCL = "hccl"
    NCCL = "nccl"
    MCCL = "mccl"

    def __new__(cls, name: str) -> str:  # type: ignore[misc]
        if not isinstance(name, str):
            raise TypeError(f"For 'Backend', the class variable 'name' must be a string, but got the type : "
                            f"{type(name)}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            raise ValueError(f"For 'Backend', the class variable 'name' {name} is not supported, please use hccl or "
                             "nccl.")
        return value


def _get_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> list[int]:
    """The world ranks of the communication group ``group`` (``get_process_group_ranks``)."""
    return get_process_group_ranks(group)
