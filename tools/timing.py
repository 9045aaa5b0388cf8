"""Timing helpers shared by the benchmarks: interleaved rounds, so both sides see the same machine."""
import statistics
import timeit


def best_of(fn, number, repeat=7) -> float:
    """Best per-call time in seconds over ``repeat`` rounds of ``number`` calls."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def compare(candidate, baseline, number, rounds=21) -> tuple:
    """Median per-call seconds of ``candidate`` and ``baseline``, measured in alternating rounds.

    Alternating cancels drift (other processes, clock and cache state) that back-to-back blocks of
    rounds would attribute to one side.
    """
    a, b = [], []
    for _ in range(rounds):
        a.append(timeit.timeit(candidate, number=number) / number)
        b.append(timeit.timeit(baseline, number=number) / number)
    return statistics.median(a), statistics.median(b)
