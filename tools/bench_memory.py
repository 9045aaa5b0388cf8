"""Peak memory (tracemalloc) and minor page faults of one gradient call, npspore against the careful
hand-written NumPy of ``../shared/bench/reference.py`` (the workloads of ``compare.py``).

    python tools/bench_memory.py [--bench-dir ../shared/bench] [--workloads W1,W2,W3,W4,W5]
"""
import argparse
import os
import resource
import sys
import tracemalloc


def peak_and_faults(step, calls=5):
    """(peak bytes NumPy allocated during one call, minor page faults per call), after a warm-up."""
    step()
    tracemalloc.start()
    step()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(calls):
        step()
    return peak, (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench-dir", default=os.path.join(here, "..", "..", "shared", "bench"))
    parser.add_argument("--workloads", default="W1,W2,W3,W4,W5")
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.bench_dir))
    import compare    # noqa: E402 - the shared benchmark's npspore programs
    import reference  # noqa: E402
    for workload in args.workloads.split(","):
        data = reference.make_data(workload)
        ours, _ = compare.build(workload, data)
        hand = reference.make(workload, data)
        (peak_ours, faults_ours), (peak_hand, faults_hand) = peak_and_faults(ours), peak_and_faults(hand)
        print(f"{workload}: peak {peak_ours / 1024:.0f} KiB vs hand-written {peak_hand / 1024:.0f} KiB "
              f"(x{peak_ours / peak_hand:.2f}); page faults per call {faults_ours:.0f} vs {faults_hand:.0f}")


if __name__ == "__main__":
    main()
