"""``mindspore.profiler.profile`` and ``tensorboard_trace_handler``: a profiler driven step by step by a
``schedule``, whose recorded cycles are handed to ``on_trace_ready``.

Each recorded cycle is one :class:`~npspore.profiler.profiling.Profiler` (host times of the eager ops and
compiled kernels); ``tensorboard_trace_handler(dir)`` writes a finished cycle under ``dir`` as
``Profiler.analyse`` does. The transitions between the schedule's actions (start recording, stop, hand
over, warnings for schedules that stop mid-cycle) are MindSpore 2.10's (``profiler_action_controller.py``).
"""
from __future__ import annotations

from typing import Callable

from ..core.logs import mindspore_log
from .profiling import Profiler
from .schedule import ProfilerAction

__all__ = ["profile", "tensorboard_trace_handler"]

_NONE, _WARM_UP, _RECORD, _SAVE = (ProfilerAction.NONE, ProfilerAction.WARM_UP, ProfilerAction.RECORD,
                                   ProfilerAction.RECORD_AND_SAVE)
_RESTART = ("stop", "ready", "clear", "init", "start")
# (previous action, current action; None when the profile stops) -> the steps taken, in order
_TRANSITIONS: dict[tuple, tuple] = {
    (_NONE, _WARM_UP): ("init",), (_NONE, _RECORD): ("init", "start"), (_NONE, _SAVE): ("init", "start"),
    (_WARM_UP, _NONE): ("Incorrect schedule: WARMUP followed by NONE", "clear"),
    (_WARM_UP, _RECORD): ("start",), (_WARM_UP, _SAVE): ("start",),
    (_RECORD, _NONE): ("Incorrect schedule: RECORD followed by NONE", "stop", "clear"),
    (_RECORD, _WARM_UP): ("Incorrect schedule: RECORD followed by WARMUP", "stop", "clear"),
    (_SAVE, _NONE): ("stop", "ready", "clear"), (_SAVE, _WARM_UP): ("stop", "ready", "clear", "init"),
    (_SAVE, _RECORD): _RESTART, (_SAVE, _SAVE): _RESTART,
    (_WARM_UP, None): ("Incorrect schedule: Stop profiler while current state is WARMUP which will result in "
                       "empty parsed data.", "clear"),
    (_RECORD, None): ("Incorrect schedule: Stop profiler while current state is RECORD which may result in "
                      "incomplete parsed data.", "stop", "ready", "clear"),
    (_SAVE, None): ("Stop profiler while current state is RECORD_AND_SAVE, perhaps the scheduling cycle has "
                    "not yet completed.", "stop", "ready", "clear"),
}


def _record_every_step(_step: int) -> ProfilerAction:
    return _RECORD


class _TraceHandler:
    """``on_trace_ready`` writing each finished cycle under ``dir_name`` (see ``tensorboard_trace_handler``)."""

    def __init__(self, dir_name: str, analyse_flag: bool) -> None:
        self.dir_name = dir_name
        self.analyse_flag = analyse_flag

    def __call__(self, prof: profile) -> None:
        if self.analyse_flag:
            prof.analyse(output_path=self.dir_name)


def tensorboard_trace_handler(dir_name: str | None = None, worker_name: str | None = None,
                              analyse_flag: bool = True, async_mode: bool = False) -> Callable[[profile], None]:
    """The ``on_trace_ready`` handler that writes each recorded cycle under ``dir_name`` (``Profiler.analyse``'s
    files, in a new ``*_ascend_ms`` folder per cycle).

    Args:
        dir_name (str, optional): where the results go. Default: ``None`` (``"./data"``).
        worker_name (str, optional): MindSpore's name of the folder's worker; npspore names folders by host,
            process and time. Default: ``None``.
        analyse_flag (bool, optional): write the results; ``False`` drops them. Default: ``True``.
        async_mode (bool, optional): analyse in the background; npspore writes at once. Default: ``False``.

    Returns:
        Callable, the handler to pass as ``profile(on_trace_ready=...)``.
    """
    if not isinstance(analyse_flag, bool):
        mindspore_log().warning("analyse_flag is not bool, set by default.")
        analyse_flag = True
    if not isinstance(async_mode, bool):
        mindspore_log().warning("async_mode is not bool, set by default.")
    return _TraceHandler("./data" if dir_name is None else dir_name, analyse_flag)


class profile:  # noqa: N801  (MindSpore's name)
    """Profile the steps a ``schedule`` selects; hand each recorded cycle to ``on_trace_ready``.

    Args:
        activities (list[ProfilerActivity], optional), with_stack, profile_memory, data_process,
            parallel_strategy, hbm_ddr, pcie, sync_enable, record_shapes (bool), experimental_config
            (_ExperimentalConfig, optional): what MindSpore collects on its devices; recorded in
            :attr:`options` (npspore records host times only).
        start_profile (bool): start now. Default: ``True``.
        schedule (Callable[[int], ProfilerAction], optional): the action of each step (``profiler.schedule``);
            None records every step. Default: ``None``.
        on_trace_ready (Callable, optional): called with this profile when a recorded cycle ends
            (``tensorboard_trace_handler(dir)``). Default: ``None``.

    Examples:
        >>> with profile(schedule=schedule(wait=0, warmup=0, active=1, repeat=1),
        ...              on_trace_ready=tensorboard_trace_handler("./data")) as prof:
        ...     for data, label in dataset:
        ...         train_step(data, label)
        ...         prof.step()
    """

    def __init__(self, activities=None, with_stack: bool = False, profile_memory: bool = False,
                 data_process: bool = False, parallel_strategy: bool = False, start_profile: bool = True,
                 hbm_ddr: bool = False, pcie: bool = False, sync_enable: bool = True, record_shapes: bool = False,
                 schedule: Callable[[int], ProfilerAction] | None = None,
                 on_trace_ready: Callable | None = None, experimental_config=None) -> None:
        self.options = dict(activities=activities, with_stack=with_stack, profile_memory=profile_memory,
                            data_process=data_process, parallel_strategy=parallel_strategy, hbm_ddr=hbm_ddr,
                            pcie=pcie, sync_enable=sync_enable, record_shapes=record_shapes,
                            experimental_config=experimental_config)
        if schedule is not None and not callable(schedule):
            mindspore_log().warning("schedule is not Callable, set by default.")
            schedule = None
        self.schedule = schedule or _record_every_step
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(0)
        self._recorder: Profiler | None = None
        self._has_started = False
        if start_profile:
            self.start()

    def _transit(self, previous: ProfilerAction, current: ProfilerAction | None) -> None:
        for action in _TRANSITIONS.get((previous, current), ()):
            if action == "init":
                self._recorder = Profiler(start_profile=False)
            elif action == "start":
                self._recorder.start()
            elif action == "stop":
                self._recorder.stop()
            elif action == "ready":
                if self.on_trace_ready is not None:
                    self.on_trace_ready(self)
            elif action == "clear":
                self._recorder = None
            else:
                mindspore_log().warning(action)

    def start(self) -> None:
        """Start profiling (at the schedule's current step)."""
        if self._has_started:
            mindspore_log().warning("The profile has already started. Do not turn on again in the open state.")
            return
        self._has_started = True
        self._transit(_NONE, self.current_action)

    def stop(self) -> None:
        """Stop profiling; a cycle being recorded is handed to ``on_trace_ready``."""
        if not self._has_started:
            mindspore_log().error("The profile has not started. Do not turn off again in the closed state.")
            return
        self._has_started = False
        self._transit(self.current_action, None)

    def step(self) -> None:
        """End a step: move to the schedule's next action (starting, saving or ending a cycle)."""
        if not self._has_started:
            mindspore_log().error("profile is stopped, step takes no effect!")
            return
        if self._recorder is not None:
            self._recorder.step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)

    def analyse(self, output_path: str = "./data") -> None:
        """Write the cycle recorded so far under ``output_path`` (``Profiler.analyse``'s files); nothing when
        no cycle is being recorded."""
        if self._recorder is not None:
            self._recorder.output_path = output_path
            self._recorder.analyse()

    def __enter__(self) -> profile:
        if not self._has_started:
            self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        if self._has_started:
            self.stop()
