"""How fast a data-parallel job ends when one rank goes wrong: seconds from rank 1's failure at step 3
to the end of ``mpiexec``, its exit status, and whether every surviving rank's output names the failure.

    python tools/rank_failure.py [runs]

Needs ``pip install 'npspore[mpi]'``. Each run launches ``mpiexec -n 2`` on
``tests/mpi_programs/rank_failures.py`` with ``NPSPORE_COMM_TIMEOUT=300`` (the default deadline), in
the modes ``raise-model`` (rank 1 raises at step 3 of ``Model.train``), ``raise-loop`` (the same in a
``value_and_grad`` loop with ``DistributedGradReducer``), ``return`` (rank 1's script ends at step 3
while rank 0 still trains) and ``exit0`` (rank 1 calls ``os._exit(0)`` at step 3). Rank 1 prints the
wall-clock time at which it fails; the tool takes the time ``mpiexec`` exits.
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "tests" / "mpi_programs" / "rank_failures.py"
MODES = {"raise-model": "ValueError: rank 1 broke at step 3", "raise-loop": "ValueError: rank 1 broke at step 3",
         "return": "rank 1 left the job while the others still call collectives",
         "exit0": "lost rank 1"}


def run_once(mode):
    """(seconds from the failure to mpiexec's exit, exit status, whether rank 0 named the failure)."""
    mpiexec = Path(sys.executable).parent / "mpiexec"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", NPSPORE_COMM_TIMEOUT="300")
    result = subprocess.run([str(mpiexec) if mpiexec.exists() else "mpiexec", "-n", "2", sys.executable,
                             str(PROGRAM), mode], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=900, env=env, cwd=PROGRAM.parent)
    ended = time.time()
    failed_at = re.search(r"rank 1 fails at step 3, time ([0-9.]+)", result.stdout)
    if failed_at is None:
        raise RuntimeError(f"rank 1 did not report its failure:\n{result.stdout}")
    named = re.search(r"\(world rank 0 of 2\).*" + re.escape(MODES[mode]), result.stdout) is not None
    return ended - float(failed_at.group(1)), result.returncode, named


def main(runs):
    print(f"rank 1 fails at step 3 of 2-rank data-parallel training; NPSPORE_COMM_TIMEOUT=300; {runs} runs per mode")
    print("mode          seconds to job end (each run)   worst   exit status   rank 0 names the failure")
    for mode in MODES:
        results = [run_once(mode) for _ in range(runs)]
        seconds = [s for s, _, _ in results]
        statuses = sorted({status for _, status, _ in results})
        print(f"{mode:12}  {' '.join(f'{s:5.2f}' for s in seconds):30}  {max(seconds):5.2f}   {statuses!s:12}  "
              f"{all(named for _, _, named in results)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
