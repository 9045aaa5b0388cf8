"""``npspore bench``: the compiled kernel's call time against eager execution.

Each variant (eager ``construct`` in PYNATIVE, the compiled forward kernel, and with ``--grad``
the gradient kernel) is called once to compile, then timed in ``--repeat`` samples of enough calls
to last a few milliseconds each; the median time per call is reported. When a run lasts longer
than a second, a progress bar is drawn on stderr (if stderr is a terminal).
"""
from __future__ import annotations

import statistics
import sys
import time

from .gradient import GradRequest
from .target import Target

_SAMPLE_SECONDS = 0.005


def run(target: Target, args, options) -> int:
    """Time the variants and print their medians and ratios; returns 0."""
    compiled = target.compiled()
    variants = [("eager (PYNATIVE)", lambda: target.eager(args)),
                ("compiled kernel", lambda: compiled(*args))]
    if options.grad:
        request = GradRequest.from_options(options)
        gradient = request.function(target, args)
        call_args = request.call_args(target, args)
        variants.append(("gradient kernel", lambda: gradient(*call_args)))
    progress = Progress(len(variants) * options.repeat)
    medians = {}
    try:
        for name, call in variants:
            medians[name] = _median_time(call, options.repeat, progress)
    finally:
        progress.close()
    eager, forward = medians["eager (PYNATIVE)"], medians["compiled kernel"]
    print(f"{target.function.__qualname__}  inputs: {' '.join(options.input) or '(none)'}")
    print(f"  eager (PYNATIVE)  {_duration(eager):>10}")
    print(f"  compiled kernel   {_duration(forward):>10}   {eager / forward:.1f}x faster than eager")
    if options.grad:
        backward = medians["gradient kernel"]
        print(f"  gradient kernel   {_duration(backward):>10}   {backward / forward:.1f}x the compiled forward")
    print(f"median of {options.repeat} samples per variant")
    return 0


def _median_time(call, repeat: int, progress) -> float:
    call()  # compiles (or loads the kernel from the disk cache)
    number = 1
    while True:
        elapsed = _time(call, number)
        if elapsed >= _SAMPLE_SECONDS or number >= 1 << 20:
            break
        number *= 2
    samples = []
    for _ in range(repeat):
        samples.append(_time(call, number) / number)
        progress.advance()
    return statistics.median(samples)


def _time(call, number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        call()
    return time.perf_counter() - start


def _duration(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.1f} {unit}"
    return f"{seconds / 1e-9:.0f} ns"


class Progress:
    """A one-line progress bar on stderr, drawn only once the run has lasted a second (and only on a TTY)."""

    def __init__(self, total: int, stream=None, delay: float = 1.0):
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()
        self.delay = delay
        self.drawn = False
        self.enabled = bool(getattr(self.stream, "isatty", None) and self.stream.isatty())

    def advance(self) -> None:
        self.done += 1
        if self.enabled and time.perf_counter() - self.start >= self.delay:
            width = 30
            filled = width * self.done // self.total
            self.stream.write(f"\rbenchmarking [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            self.stream.flush()
            self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
