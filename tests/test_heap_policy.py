"""The allocator policy of processes that run kernels (core/heap.py): memory a call frees stays in the heap for
the next call, so a steady loop of calls faults no page in, whatever the blocks' sizes;
``NPSPORE_KEEP_FREED_MEMORY=0`` opts out."""
import os
import subprocess
import sys
import textwrap


# A process runs one compiled kernel (which loads npspore.runtime), then 30 rounds of what a kernel's
# unplanned temporaries or its results do: COUNT arrays of ELEMENTS float64 alive at once, written, then
# freed. It prints the minor page faults of the last 20 rounds.
PROGRAM = textwrap.dedent("""
    import resource
    import sys
    import numpy as np
    import npspore as ms
    from npspore import Tensor

    ms.jit(lambda x: x + 1)(Tensor(np.ones(3, np.float32)))
    count, elements = int(sys.argv[1]), int(sys.argv[2])

    def round_():
        arrays = [np.empty(elements) for _ in range(count)]
        for a in arrays:
            a.fill(1.0)

    for _ in range(10):
        round_()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(20):
        round_()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
""")


def _faults_per_round(tmp_path, count=4, elements=3 << 18, **environment) -> float:
    env = {**os.environ, "NPSPORE_CACHE_DIR": str(tmp_path), **environment}
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(count), str(elements)], env=env, capture_output=True,
                          text=True, check=True)
    return int(done.stdout.strip().splitlines()[-1]) / 20


def test_a_process_running_kernels_reuses_freed_memory_without_page_faults(tmp_path):
    assert _faults_per_round(tmp_path) <= 1


def test_blocks_larger_than_any_mmap_threshold_are_reused_too(tmp_path):
    # 48 MiB, over glibc's largest mmap threshold (32 MiB): about the size of vmap(grad)'s per-sample weight
    # gradients of a 784x256 layer for 64 samples (tools/bench_vmap.py), a result the caller drops
    assert _faults_per_round(tmp_path, count=1, elements=6 << 20) <= 1


def test_the_policy_can_be_turned_off(tmp_path):
    # 12 MiB freed per round: glibc gives it back and faults it in again (one fault per 4 KiB page)
    assert _faults_per_round(tmp_path, NPSPORE_KEEP_FREED_MEMORY="0") > 1000


def test_the_opt_out_leaves_the_allocator_alone(monkeypatch):
    from npspore.core import heap

    monkeypatch.setenv("NPSPORE_KEEP_FREED_MEMORY", "0")
    assert heap._apply() is False
