"""``mindspore.Profiler``: records how long each op run eagerly and each compiled kernel call takes, and
writes MindSpore 2.10's CPU profiler files.

While a Profiler runs it is an observer of ``core.timeline`` (``ops.eager.run`` times each eager op,
``CompiledKernel.run`` each kernel call: a compiled ``construct`` or gradient is one entry, named after
its kernel function, ``Net_construct``, ``loss_grad``). ``analyse`` writes, as MindSpore 2.10 on CPU does,
``<output_path>/<host>_<pid>_<time>_ascend_ms/``: ``FRAMEWORK/cpu_op_type_info_0.csv`` (per op type),
``FRAMEWORK/cpu_op_detail_info_0.csv`` (per op), ``FRAMEWORK/cpu_op_execute_timestamp_0.txt`` (every call)
and ``ASCEND_PROFILER_OUTPUT/trace_view.json`` (a Chrome trace: open it in chrome://tracing or Perfetto),
plus ``ASCEND_PROFILER_OUTPUT/step_trace_time.csv`` with each step's time when ``step()`` marked steps.
"""
from __future__ import annotations

import csv
import json
import os
import socket
import threading
import time
from collections import defaultdict

from ..core.logs import warn
from ..core.timeline import OBSERVERS

__all__ = ["Profiler"]

_KNOWN_OPTIONS = {"start_profile", "output_path", "profiler_level", "activities", "schedule", "on_trace_ready",
                  "profile_memory", "aic_metrics", "with_stack", "data_simplification", "l2_cache", "hbm_ddr",
                  "pcie", "sync_enable", "data_process", "parallel_strategy", "mstx", "export_type",
                  "record_shapes", "profile_framework", "host_sys", "sys_io", "sys_interconnection"}
_TYPE_HEADER = ["op_type", "type_occurrences", "execution_frequency(per-step)", "total_compute_time",
                "avg_time(ms)", "percent"]
_DETAIL_HEADER = ["op_side", "op_type", "op_name", "full_op_name", "op_occurrences", "op_total_time(ms)",
                  "op_avg_time(ms)", "total_proportion", "subgraph", "pid"]


class Profiler:
    """Profiles npspore programs: the time of each op run eagerly and of each compiled kernel call.

    Create it before the code to profile (it starts at once unless ``start_profile=False``), then call
    :meth:`analyse` to stop and write the results under ``output_path`` (see the module doc).

    Args:
        start_profile (bool, optional): start recording now. Default: ``True``.
        output_path (str, optional): where ``analyse`` writes. Default: ``"./data"``.
        kwargs: MindSpore's other options (``profiler_level``, ``activities``, ``profile_memory`` ...)
            are accepted and have no effect: npspore records host times only.

    Raises:
        TypeError: If ``start_profile`` is not a bool or ``output_path`` not a str.

    Examples:
        >>> profiler = Profiler(output_path="./data")
        >>> for _ in range(3):
        ...     loss = train_step(x, y)
        ...     profiler.step()
        >>> profiler.analyse()
    """

    def __init__(self, **kwargs):
        start_profile = kwargs.get("start_profile", True)
        output_path = kwargs.get("output_path", "./data")
        if not isinstance(start_profile, bool):
            raise TypeError(f"For 'Profiler', the parameter 'start_profile' must be bool, but got "
                            f"{type(start_profile).__name__}.")
        if not isinstance(output_path, (str, os.PathLike)):
            raise TypeError(f"For 'Profiler', the parameter 'output_path' must be str, but got "
                            f"{type(output_path).__name__}.")
        for name in sorted(set(kwargs) - _KNOWN_OPTIONS):
            warn("npspore.profiler", "For 'Profiler', the parameter '%s' is not supported and is ignored.", name)
        self.output_path = os.fspath(output_path)
        self._lock = threading.Lock()
        self._records: list[tuple[str, str, int, int, int]] = []   # name, kind, start_ns, duration_ns, step
        self._steps = [time.perf_counter_ns()]   # when each step began
        self._epoch_offset = time.time_ns() - time.perf_counter_ns()
        if start_profile:
            self.start()

    def record(self, name: str, kind: str, start_ns: int, duration_ns: int) -> None:
        """One op or kernel call (called by ``core.timeline`` while the profiler runs)."""
        with self._lock:
            self._records.append((name, kind, start_ns, duration_ns, len(self._steps) - 1))

    def start(self) -> None:
        """Start (or resume) recording."""
        if self not in OBSERVERS:
            OBSERVERS.append(self)

    def stop(self) -> None:
        """Stop recording (``analyse`` still writes what was recorded)."""
        if self in OBSERVERS:
            OBSERVERS.remove(self)

    def step(self) -> None:
        """Mark the end of a training step: the next records belong to the next step."""
        with self._lock:
            self._steps.append(time.perf_counter_ns())

    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.analyse()

    def op_analyse(self, op_name, device_id=None) -> str:
        """The recorded calls of the op(s) ``op_name`` (a name or a list of names) as a JSON string:
        ``{name: {"op_occurrences": n, "op_total_time(ms)": t, "op_avg_time(ms)": a}}``.

        Raises:
            TypeError: If ``op_name`` is not a str or a list of str.
        """
        names = [op_name] if isinstance(op_name, str) else op_name
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise TypeError(f"For 'op_analyse', the parameter 'op_name' must be str or list of str, but got "
                            f"{type(op_name).__name__}.")
        totals = self._totals()
        return json.dumps({name: {"op_occurrences": totals[name][1], "op_total_time(ms)": totals[name][2] / 1e6,
                                  "op_avg_time(ms)": totals[name][2] / 1e6 / totals[name][1]}
                           for name in names if name in totals})

    def analyse(self, offline_path=None, pretty: bool = False, step_list=None, mode: str = "sync") -> None:
        """Stop recording and write the results under ``output_path`` (see the module doc).

        Returns:
            None. The files are in the newest ``*_ascend_ms`` folder of ``output_path``.
        """
        self.stop()
        folder = _new_folder(self.output_path)
        os.makedirs(os.path.join(folder, "FRAMEWORK"), exist_ok=True)
        os.makedirs(os.path.join(folder, "ASCEND_PROFILER_OUTPUT"), exist_ok=True)
        self._write_tables(os.path.join(folder, "FRAMEWORK"))
        self._write_trace(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), pretty)
        if len(self._steps) > 1:
            self._write_steps(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "step_trace_time.csv"))

    def _totals(self) -> dict[str, list]:
        """Per op name: [op type, calls, total ns]."""
        totals: dict[str, list] = {}
        for name, kind, _, duration, _ in self._records:
            entry = totals.setdefault(name, ["Kernel" if kind == "kernel" else name, 0, 0])
            entry[1] += 1
            entry[2] += duration
        return totals

    def _write_tables(self, folder: str) -> None:
        totals = self._totals()
        everything = sum(total for _, _, total in totals.values()) or 1
        steps = len({step for *_, step in self._records}) or 1
        by_type: dict[str, list] = defaultdict(lambda: [0, 0])
        for op_type, calls, total in totals.values():
            by_type[op_type][0] += calls
            by_type[op_type][1] += total
        with open(os.path.join(folder, "cpu_op_type_info_0.csv"), "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(_TYPE_HEADER)
            for op_type, (calls, total) in sorted(by_type.items(), key=lambda item: -item[1][1]):
                writer.writerow([op_type, calls, _number(calls / steps), _number(total / 1e6),
                                 _number(total / 1e6 / calls), _number(total / everything)])
        with open(os.path.join(folder, "cpu_op_detail_info_0.csv"), "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(_DETAIL_HEADER)
            for name, (op_type, calls, total) in sorted(totals.items()):
                writer.writerow(["Host", op_type, name, f"Default/{name}", calls, _number(total / 1e6),
                                 _number(total / 1e6 / calls), _number(total / everything), "Default", os.getpid()])
        calls_of: dict[str, list[str]] = defaultdict(list)
        for name, _, start, duration, _ in self._records:
            calls_of[name].append(f"{start + self._epoch_offset},{_number(duration / 1e6)},0")
        with open(os.path.join(folder, "cpu_op_execute_timestamp_0.txt"), "w") as file:
            file.writelines(f"{name};HostCpuOps;{' '.join(calls)} \n" for name, calls in calls_of.items())

    def _write_trace(self, path: str, pretty: bool) -> None:
        events: list[dict] = [
            {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "CPU OP"}},
            {"ph": "M", "name": "process_labels", "pid": 2, "tid": 0, "args": {"labels": "CPU"}},
            {"ph": "M", "name": "thread_name", "pid": 2, "tid": 0, "args": {"name": "Thread 0"}}]
        for name, kind, start, duration, step in self._records:
            events.append({"ph": "X", "name": name, "pid": 2, "tid": 0,
                           "ts": f"{(start + self._epoch_offset) / 1000:.3f}", "dur": f"{duration / 1000:.3f}",
                           "cat": "", "args": {"type": "HostCpuOps" if kind == "op" else "Kernel", "step": step}})
        with open(path, "w") as file:
            json.dump(events, file, indent=4 if pretty else None)

    def _write_steps(self, path: str) -> None:
        ends = self._steps[1:]
        with open(path, "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(["Step", "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication",
                             "Free", "Stage", "Bubble", "Communication(Not Overlapped and Exclude Receive)",
                             "Preparing"])
            for step, (begin, end) in enumerate(zip(self._steps, ends)):
                busy = sum(duration for _, _, _, duration, s in self._records if s == step)
                writer.writerow([step, _number(busy / 1000), 0, 0, 0, _number(max(end - begin - busy, 0) / 1000),
                                 0, 0, 0, 0])


def _new_folder(output_path: str) -> str:
    """``<output_path>/<host>_<pid>_<time in ms>_ascend_ms``, a folder no earlier analysis wrote (two analyses
    in one millisecond, as ``profile`` cycles can be, take the next free millisecond)."""
    milliseconds = time.time_ns() // 1_000_000
    while True:
        stamp = time.strftime("%Y%m%d%H%M%S", time.localtime(milliseconds // 1000)) + f"{milliseconds % 1000:03d}"
        folder = os.path.join(output_path, f"{socket.gethostname()}_{os.getpid()}_{stamp}_ascend_ms")
        if not os.path.exists(folder):
            return folder
        milliseconds += 1


def _number(value: float) -> str:
    """A figure as MindSpore's CSVs write it: six significant digits."""
    return f"{value:.6g}"
