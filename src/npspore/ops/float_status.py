"""The overflow status of MindSpore's Ascend loss scaling: ``NPUAllocFloatStatus``, ``NPUClearFloatStatus``,
``NPUGetFloatStatus``.

Scripts written for Ascend allocate a flag, clear it before the scaled backward pass and read it after,
skipping the optimizer step when it says a float operation overflowed. npspore's status is NumPy's
floating-point error reporting: ``NPUClearFloatStatus`` resets it and, until ``NPUGetFloatStatus``, has
NumPy report every overflow, invalid operation (a NaN made from numbers) and division by zero to it
(``np.seterrcall``), passing the report on as the errstate in force before would (a warning by default).
``NPUGetFloatStatus`` writes the status into its flag, in place as on Ascend: eight ``1.0`` after an
overflow, eight ``0.0`` otherwise. Eagerly and in compiled code (host calls, run in program order).
A value that is already infinite or NaN when it enters an operation raises no new report, as on Ascend.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..common.tensor import Tensor
from ..compiler.errors import located
from ..compiler.library import LIBRARY, RECORDERS
from .primitives import Primitive

__all__ = ["NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUGetFloatStatus"]

_FLAG_SHAPE = (8,)
_WATCHED = ("over", "invalid", "divide")
_KIND = {"overflow": "over", "invalid value": "invalid", "divide by zero": "divide"}


class _Status:
    """The process's overflow status: whether NumPy reported an error since the last clear, and the
    errstate and callback in force before monitoring began (restored by the next read)."""

    def __init__(self) -> None:
        self.overflowed = False
        self.saved: tuple[dict, object] | None = None

    def report(self, kind: str, flag: int) -> None:
        """NumPy's callback: record the error and treat it as the errstate before monitoring would."""
        self.overflowed = True
        modes, callback = self.saved if self.saved is not None else ({}, None)
        mode = modes.get(_KIND.get(kind, "invalid"), "warn")
        if mode == "raise":
            raise FloatingPointError(f"{kind} encountered")
        if mode == "warn":
            warnings.warn(f"{kind} encountered", RuntimeWarning, stacklevel=2)
        elif mode == "call" and callable(callback):
            callback(kind, flag)

    def clear(self) -> None:
        """Forget past errors and watch for new ones."""
        self.overflowed = False
        if self.saved is None:
            self.saved = (np.geterr(), np.geterrcall())
        np.seterrcall(self.report)
        np.seterr(**{kind: "call" for kind in _WATCHED})

    def read(self) -> bool:
        """Whether an error was reported since the last clear; stops watching."""
        if self.saved is not None:
            modes, callback = self.saved
            self.saved = None
            np.seterr(**modes)
            np.seterrcall(callback)
        return self.overflowed


_STATUS = _Status()


def _check_flag(name: str, shape: tuple, dtype) -> None:
    if np.dtype(dtype) not in (np.float16, np.float32):
        raise TypeError(f"For '{name}', the type of 'x' must be Tensor[Float16, Float32], but got {np.dtype(dtype)}.")
    if not shape:
        raise ValueError(f"For '{name}', the rank of 'x' must be at least 1, but got a 0-d Tensor.")


def _check_not_recording(name: str) -> None:
    """A traced function (no source) would read the status once, when traced: refused, as the tracer refuses
    eager-only operations."""
    if RECORDERS:
        RECORDERS[-1].refuse(f"'{name}' (the overflow status of the kernel's run)")


def _alloc_array() -> np.ndarray:
    return np.zeros(_FLAG_SHAPE, np.float32)


def _clear_array(flag: np.ndarray) -> np.ndarray:
    _STATUS.clear()
    return np.zeros_like(flag)


def _get_array(flag: np.ndarray) -> np.ndarray:
    return np.full_like(flag, 1.0 if _STATUS.read() else 0.0)


class NPUAllocFloatStatus(Primitive):
    """``NPUAllocFloatStatus()()``: a new overflow flag, ``float32`` zeros of shape ``(8,)``.

    Outputs:
        Tensor of shape (8,), float32.
    """

    def __init__(self) -> None:
        super().__init__("NPUAllocFloatStatus")

    def __call__(self) -> Tensor:
        _check_not_recording(self.name)
        return Tensor(_alloc_array())


class _FlagUpdate(Primitive):
    """A primitive that writes a status into its flag ``x`` in place and returns it."""

    _update = staticmethod(_clear_array)

    def __init__(self) -> None:
        super().__init__(type(self).__name__)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{self.name}', the 'x' must be a Tensor, but got {type(x).__name__}.")
        _check_not_recording(self.name)
        _check_flag(self.name, tuple(x.shape), x.asnumpy().dtype)
        x.assign_value(Tensor(self._update(x.asnumpy())))
        return x


class NPUClearFloatStatus(_FlagUpdate):
    """``NPUClearFloatStatus()(x)``: forgets the overflows reported so far and watches for new ones (until
    :class:`NPUGetFloatStatus`); sets the flag ``x`` (float16 or float32) to zeros in place and returns it.

    Raises:
        TypeError: If `x` is not a float16 or float32 Tensor.
    """

    _update = staticmethod(_clear_array)


class NPUGetFloatStatus(_FlagUpdate):
    """``NPUGetFloatStatus()(x)``: writes the overflow status into the flag ``x`` in place and returns it:
    ones if a NumPy float operation overflowed, made a NaN or divided by zero since the last
    :class:`NPUClearFloatStatus`, zeros otherwise (its sum > 0 means an overflow, as on Ascend).

    Raises:
        TypeError: If `x` is not a float16 or float32 Tensor.
    """

    _update = staticmethod(_get_array)


_ALLOC_KEY = LIBRARY.host_function(lambda: (_alloc_array(),), opaque=True)
_UPDATE_KEYS = {NPUClearFloatStatus: LIBRARY.host_function(lambda flag: (_clear_array(flag),), opaque=True),
                NPUGetFloatStatus: LIBRARY.host_function(lambda flag: (_get_array(flag),), opaque=True)}


def _stage_alloc(primitive, specializer, args, kwargs, loc):
    """``NPUAllocFloatStatus()()`` in compiled code: a fresh flag each time the kernel runs."""
    if args or kwargs:
        raise located(TypeError("For 'NPUAllocFloatStatus', expect 0 inputs, but got "
                                f"{len(args) + len(kwargs)}."), loc)
    return specializer.host_effect(_ALLOC_KEY, (), loc, ((_FLAG_SHAPE, np.dtype(np.float32)),))[0]


def _stage_update(primitive, specializer, args, kwargs, loc):
    """``NPUClearFloatStatus()(x)`` / ``NPUGetFloatStatus()(x)`` in compiled code: a host call in program order
    whose result the flag's value becomes (the in-place write of the eager call)."""
    inputs = tuple(args) + tuple(kwargs.values())
    if len(inputs) != 1 or not hasattr(inputs[0], "aval"):
        raise located(TypeError(f"For '{primitive.name}', the input must be one Tensor, the flag."), loc)
    flag = inputs[0]
    try:
        _check_flag(primitive.name, tuple(flag.aval.shape), flag.aval.dtype)
    except (TypeError, ValueError) as error:
        raise located(error, loc) from None
    result = specializer.host_effect(_UPDATE_KEYS[type(primitive)], (flag,), loc,
                                     ((tuple(flag.aval.shape), flag.aval.dtype),))[0]
    flag.var = result.var   # later reads of the flag see the status, as the in-place write on Ascend
    return flag


LIBRARY.register_stager(NPUAllocFloatStatus, _stage_alloc)
LIBRARY.register_stager(_FlagUpdate, _stage_update)
