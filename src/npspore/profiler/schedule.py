"""``mindspore.profiler.schedule``: which steps a ``profile`` records (MindSpore 2.10's ``Schedule``)."""
from __future__ import annotations

from enum import Enum

from ..core.logs import mindspore_log

__all__ = ["ProfilerAction", "Schedule"]


class ProfilerAction(Enum):
    """What the profiler does in a step: nothing, warm up, record, or record and then save."""
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @staticmethod
    def get_by_value(value: int) -> ProfilerAction | None:
        """The member whose value is ``value`` (None when there is none)."""
        return {action.value: action for action in ProfilerAction}.get(value)


def _checked(name: str, value, minimum: int, default: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        mindspore_log().warning(f"Parameter '{name}' should be of type int, but got {type(value).__name__}. "
                     f"reset to int {default}.")
        return default
    return value


class Schedule:
    """Steps in cycles: skip ``skip_first`` steps, then repeat (``repeat`` times, 0 = forever) ``wait`` idle
    steps, ``warmup`` warm-up steps and ``active`` recorded steps, the last of which saves.

    Args:
        wait (int): idle steps per cycle.
        active (int): recorded steps per cycle (at least 1).
        warmup (int): warm-up steps per cycle. Default: ``0``.
        repeat (int): cycles; ``0`` repeats until the profile stops. Default: ``0``.
        skip_first (int): steps skipped before the first cycle. Default: ``0``.

    An invalid value is replaced by its default with a warning, as in MindSpore.

    Examples:
        >>> [Schedule(wait=1, warmup=1, active=2, repeat=1)(step).name for step in range(5)]
        ['NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0, skip_first: int = 0) -> None:
        self.wait = _checked("wait", wait, 0, 0)
        self.warmup = _checked("warmup", warmup, 0, 0)
        self.active = _checked("active", active, 1, 1)
        self.repeat = _checked("repeat", repeat, 0, 0)
        self.skip_first = _checked("skip_first", skip_first, 0, 0)
        if self.warmup == 0:
            mindspore_log().warning("Profiler won't be using warmup, this can skew profiler results")

    def __call__(self, step: int) -> ProfilerAction:
        """The action of step ``step`` (counted from 0).

        Raises:
            ValueError: if ``step`` is negative.
        """
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        num_steps = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / num_steps:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < self.wait:
            return ProfilerAction.NONE
        if mod_step < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    def __repr__(self) -> str:
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
                f"repeat={self.repeat!r}, skip_first={self.skip_first!r})")

    def to_dict(self) -> dict:
        """The parameters as a dict."""
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup, "repeat": self.repeat,
                "skip_first": self.skip_first}
