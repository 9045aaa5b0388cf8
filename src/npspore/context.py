"""Execution context, as in ``mindspore.set_context`` / ``mindspore.get_context``.

``mode`` chooses between PYNATIVE_MODE (1, the default: ``construct`` runs eagerly) and
GRAPH_MODE (0: Cells compile on first call). ``compile_cache`` (default ``True``) lets compiled
kernels be cached on disk. ``device_target`` accepts MindSpore's targets, but npspore always
computes with NumPy on the CPU. ``runtime_num_threads`` sets how many threads compute the large matrix
products and large runs of elementwise statements of compiled kernels, split into blocks, BLAS running on
one thread each (0 or unset: every core this process may use; see :mod:`npspore.core.threads`). ``jit_syntax_level``
(``STRICT``, ``COMPATIBLE`` or ``LAX``, the default) says whether compiled code may read tensor values
(MindSpore's JIT fallback runs only at ``LAX``). Other keywords (``device_id``, ``save_graphs``,
``jit_config`` ...) are accepted and stored so MindSpore scripts run unchanged; they have no effect.
"""
from __future__ import annotations

import os

from .core.threads import set_runtime_num_threads

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "COMPATIBLE", "LAX", "set_context", "get_context", "set_device",
           "set_recursion_limit", "set_deterministic"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1

STRICT = 0
"""``jit_syntax_level``: compiled code is what the graph can express; reading a tensor's values is refused."""
COMPATIBLE = 1
"""``jit_syntax_level``: as STRICT for tensor values (MindSpore adds dict and other Python objects)."""
LAX = 2
"""``jit_syntax_level`` (the default): compiled code may read tensor values (MindSpore's JIT fallback)."""

_SYNTAX_LEVELS = {"STRICT": STRICT, "COMPATIBLE": COMPATIBLE, "LAX": LAX}

_DEVICE_TARGETS = ("Ascend", "GPU", "CPU")

_context = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "compile_cache": True,
    "save_graphs": False,
    "max_call_depth": 1000,
    "jit_syntax_level": LAX,
    "deterministic": "OFF",
}


def _check(key, value):
    if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError("For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) "
                         f"or context.PYNATIVE_MODE (1), but got {value}.")
    if key == "device_target" and value not in _DEVICE_TARGETS:
        raise ValueError(f"For 'context.set_context', the argument 'device_target' must be one of "
                         f"{list(_DEVICE_TARGETS)}, but got {value}.")
    if key == "compile_cache" and not isinstance(value, bool):
        raise TypeError(f"For 'context.set_context', the argument 'compile_cache' must be bool, "
                        f"but got {type(value).__name__}.")
    if key == "jit_syntax_level" and (type(value) is not int or value not in _SYNTAX_LEVELS.values()):
        raise ValueError("For 'context.set_context', the argument 'jit_syntax_level' should be context.STRICT, "
                         f"context.COMPATIBLE or context.LAX, but got {value!r}.")
    if key == "runtime_num_threads":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'context.set_context', the argument 'runtime_num_threads' must be int, "
                            f"but got {type(value).__name__}.")
        if value < 0:
            raise ValueError(f"For 'context.set_context', the argument 'runtime_num_threads' must be bigger than "
                             f"or equal to 0, but got {value}.")


def set_context(**kwargs):
    """Set context attributes, e.g. ``set_context(mode=GRAPH_MODE)``.

    Args:
        mode (int): ``GRAPH_MODE`` (0) or ``PYNATIVE_MODE`` (1).
        device_target (str): ``'CPU'``, ``'GPU'`` or ``'Ascend'`` (computation is NumPy on the CPU).
        compile_cache (bool): whether compiled kernels may be cached on disk.
        runtime_num_threads (int): the number of threads that compute the large matrix products and large
            runs of elementwise statements of compiled kernels (one BLAS thread each), at most the cores this process may run on; 0 for all
            of them, as when unset (unless ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` ... are set: then
            BLAS keeps the threads they say and npspore splits nothing).
        jit_syntax_level (int): ``STRICT``, ``COMPATIBLE`` or ``LAX`` (the default); see :func:`syntax_level`.
        **kwargs: other MindSpore context keys, stored without effect.

    Raises:
        ValueError: if ``mode``, ``device_target`` or ``jit_syntax_level`` has an invalid value, or ``runtime_num_threads`` is negative.
        TypeError: if ``compile_cache`` is not a bool or ``runtime_num_threads`` not an int.
    """
    for key, value in kwargs.items():
        _check(key, value)
    _context.update(kwargs)
    if "runtime_num_threads" in kwargs:
        set_runtime_num_threads(kwargs["runtime_num_threads"])


def set_device(device_target: str, device_id: int | None = None) -> None:
    """Set the device ``device_target`` (``'CPU'``, ``'GPU'`` or ``'Ascend'``) and ``device_id``, as
    ``set_context(device_target=..., device_id=...)`` does (computation is NumPy on the CPU).

    Raises:
        ValueError: if ``device_target`` is not one of the three, or ``device_id`` is negative.
        TypeError: if ``device_id`` is not an int.
    """
    if device_target not in _DEVICE_TARGETS:
        raise ValueError(f"For 'set_device', the argument 'device_target' must be one of {list(_DEVICE_TARGETS)}, "
                         f"but got {device_target}.")
    if device_id is not None:
        if not isinstance(device_id, int) or isinstance(device_id, bool):
            raise TypeError(f"For 'set_device', the argument 'device_id' must be int, but got "
                            f"{type(device_id).__name__}.")
        if device_id < 0:
            raise ValueError(f"For 'set_device', the argument 'device_id' must be >= 0, but got {device_id}.")
        _context["device_id"] = device_id
    _context["device_target"] = device_target


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """Raise the depth of nested calls MindSpore's graph compiler may follow (1000 by default).

    npspore's compiler has no limit of its own: it follows calls as deep as Python's recursion limit lets
    it, so a program that raises MindSpore's limit compiles here without it. The argument is checked as
    MindSpore checks it.

    Raises:
        TypeError: If `recursion_limit` is not an int (or is a bool).
        ValueError: If it is not positive.
    """
    positive = (f"The input value must be int and must > 0, but got '{recursion_limit}' with type "
                f"'{type(recursion_limit).__name__}'.")
    if isinstance(recursion_limit, bool):
        raise TypeError(positive)
    if not isinstance(recursion_limit, int):
        raise TypeError(f"The input value must be int, but got '{type(recursion_limit).__name__}'")
    if recursion_limit <= 0:
        raise ValueError(positive)


def set_deterministic(deterministic: bool) -> None:
    """Ask for deterministic computing (``get_context('deterministic')`` is then ``'ON'``): npspore's ops give
    the same output for the same input every time, so this records the setting only.

    Raises:
        TypeError: If `deterministic` is not a bool.
    """
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be <class 'bool'>, but got {type(deterministic)}")
    _context["deterministic"] = "ON" if deterministic else "OFF"


def syntax_level(config_level: str = "") -> int:
    """The JIT syntax level a compile uses, as MindSpore decides it: the environment variable
    ``MS_DEV_JIT_SYNTAX_LEVEL`` (``0``, ``1`` or ``2``) first, then ``config_level`` (a ``JitConfig``'s
    ``"STRICT"``, ``"COMPATIBLE"`` or ``"LAX"``; ``""`` defers), then ``set_context(jit_syntax_level=...)``."""
    env = os.environ.get("MS_DEV_JIT_SYNTAX_LEVEL", "")
    if env in ("0", "1", "2"):
        return int(env)
    if config_level:
        return _SYNTAX_LEVELS[config_level]
    return _context["jit_syntax_level"]


def get_context(attr_key):
    """Get the value of a context attribute, e.g. ``get_context("mode")``.

    Raises:
        ValueError: if ``attr_key`` was never set and is not a known attribute.
    """
    if attr_key not in _context:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                         "usage of 'get_context', please refer to the Mindspore official website.")
    return _context[attr_key]


from .core.parallel_context import (ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,  # noqa: E402
                               set_auto_parallel_context)

__all__ += ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context"]

from .core.ps_context import get_ps_context, reset_ps_context, set_ps_context  # noqa: E402

__all__ += ["set_ps_context", "get_ps_context", "reset_ps_context"]


# mindspore.get_current_device
class DeviceInfo(tuple):
    """``(device_target, device_id)``, as ``get_current_device`` returns it."""

    def __new__(cls, device_target: str, device_id: int) -> DeviceInfo:
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self) -> str:
        """The device target (``'CPU'``, unless ``set_device`` named another)."""
        return self[0]

    @property
    def device_id(self) -> int:
        """The device id."""
        return self[1]


def get_current_device() -> DeviceInfo:
    """The device target and id set by ``set_device``/``set_context`` (``('CPU', 0)`` by default)."""
    return DeviceInfo(get_context("device_target"), get_context("device_id"))


__all__ += ["get_current_device"]
