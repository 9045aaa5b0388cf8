"""Timing helpers shared by the benchmarks: interleaved rounds, so both sides see the same machine."""
import resource
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
    return interleaved((candidate, baseline), number, rounds, timer)


def interleaved(functions, number, rounds=21, timer=time.perf_counter) -> tuple:
    """Median per-call seconds of each of ``functions``, timed ``number`` calls at a time in turn,
    ``rounds`` times (see :func:`compare`)."""
    times = [[] for _ in functions]
    for _ in range(rounds):
        for fn, per_call in zip(functions, times):
            per_call.append(timeit.Timer(fn, timer=timer).timeit(number) / number)
    return tuple(statistics.median(per_call) for per_call in times)


def faults_and_system_time(fn, number) -> tuple:
    """``(minor page faults, kernel-mode seconds)`` per call of ``fn`` over ``number`` calls: what writing
    into memory the process has not touched yet costs (the kernel maps and zeroes each new page)."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(number):
        fn()
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (after.ru_minflt - before.ru_minflt) / number, (after.ru_stime - before.ru_stime) / number
