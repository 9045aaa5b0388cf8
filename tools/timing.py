"""Timing helpers shared by the benchmarks: interleaved rounds, so both sides see the same machine."""
import statistics
import time
import timeit


def best_of(fn, number, repeat=7) -> float:
    """Best per-call time in seconds over ``repeat`` rounds of ``number`` calls."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def compare(candidate, baseline, number, rounds=21, timer=time.perf_counter) -> tuple:
    """Median per-call seconds of ``candidate`` and ``baseline``, measured in alternating rounds.

    Alternating cancels drift (other processes, clock and cache state) that back-to-back blocks of
    rounds would attribute to one side. ``timer=time.process_time`` counts this process's CPU time
    only, which a loaded machine inflates far less than wall time.
    """
    a, b = [], []
    for _ in range(rounds):
        a.append(timeit.Timer(candidate, timer=timer).timeit(number) / number)
        b.append(timeit.Timer(baseline, timer=timer).timeit(number) / number)
    return statistics.median(a), statistics.median(b)
