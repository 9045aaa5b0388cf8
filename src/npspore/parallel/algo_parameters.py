"""The parameters of MindSpore's sharding-strategy search (``set_algo_parameters`` and its getters).

They steer how MindSpore's auto-parallel modes split operators across devices; npspore trains data
parallel only, where they choose nothing. They are checked and recorded as MindSpore does, so a script
that sets them runs and reads back what it set.
"""
from __future__ import annotations

from typing import Any

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

# Observed on MindSpore 2.10 CPU (get_algo_parameters of a fresh process); epsilon is stored as a float32.
_DEFAULTS: dict[str, Any] = {
    "fully_use_devices": False, "elementwise_op_strategy_follow": False, "enable_algo_approxi": False,
    "algo_approxi_epsilon": 0.10000000149011612, "tensor_slice_align_enable": False, "tensor_slice_align_size": 16,
}
_TYPES = {"algo_approxi_epsilon": float, "tensor_slice_align_size": int}
_values: dict[str, Any] = {}


def _check(key: str, value: Any) -> None:
    if key not in _DEFAULTS:
        raise ValueError(f"Set context keyword {key} is not recognized!")
    expected = _TYPES.get(key, bool)
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise TypeError(f"The parameter '{key}' must be {expected}, but got {type(value)}")
    if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
        raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
    if key == "algo_approxi_epsilon" and not 0 < value <= 1:
        raise RuntimeError("'epsilon' must be in (0, 1]")


def set_algo_parameters(**kwargs: Any) -> None:
    """Set strategy-search parameters (``fully_use_devices``, ``elementwise_op_strategy_follow``,
    ``enable_algo_approxi``, ``algo_approxi_epsilon``, ``tensor_slice_align_enable``,
    ``tensor_slice_align_size``); recorded, without effect on data-parallel training.

    Raises:
        ValueError: for an unknown key or an align size outside [1, 1024].
        TypeError: for a value of the wrong type.
        RuntimeError: for an epsilon outside (0, 1], as MindSpore's.
    """
    for key, value in kwargs.items():
        _check(key, value)
        _values[key] = value


def get_algo_parameters(attr_key: str) -> Any:
    """The value of a strategy-search parameter (MindSpore's default unless set).

    Raises:
        ValueError: for an unknown key.
    """
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values.get(attr_key, _DEFAULTS[attr_key])


def reset_algo_parameters() -> None:
    """Restore every strategy-search parameter to its default."""
    _values.clear()
