"""Data-parallel training across MPI ranks: each test launches ``mpiexec`` (from the ``mpich`` wheel the
``test`` extra installs) on a program and checks what the ranks print. Every launch has a timeout, so
a broken collective fails the test instead of hanging CI."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent
PROGRAMS = HERE / "mpi_programs"
EXAMPLE = HERE.parent / "examples" / "train_data_parallel.py"
LAUNCH_TIMEOUT = 240  # seconds: a guard against hangs, far above the few seconds a launch takes


def mpiexec() -> str:
    found = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")
    if found is None:
        pytest.fail("mpiexec not found: install the test extra (pip install -e '.[test]' brings mpi4py and mpich)")
    return found


def launch(ranks, *command, timeout_env=None):
    """Run ``mpiexec -n ranks command``; returns the CompletedProcess (stdout and stderr merged)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    if timeout_env is not None:
        env["NPSPORE_COMM_TIMEOUT"] = str(timeout_env)
    return subprocess.run([mpiexec(), "-n", str(ranks), *command], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=LAUNCH_TIMEOUT, env=env, cwd=HERE)


def test_collectives_gradients_and_reducer_across_two_ranks():
    result = launch(2, sys.executable, str(PROGRAMS / "collectives.py"))
    assert result.returncode == 0, result.stdout
    assert "rank 0 ok" in result.stdout and "rank 1 ok" in result.stdout


def test_two_ranks_end_with_the_parameters_of_one_process_on_the_same_global_batches(tmp_path):
    trained = {}
    for ranks in (1, 2):
        path = tmp_path / f"ranks{ranks}.npz"
        result = launch(ranks, sys.executable, str(EXAMPLE), "--epochs", "1", "--samples", "320",
                        "--save", str(path))
        assert result.returncode == 0, result.stdout
        assert f"trained on {ranks} rank(s), global batch 32" in result.stdout
        trained[ranks] = dict(np.load(path))
    assert sorted(trained[1]) == ["conv1.weight", "conv2.weight", "fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
    for name, value in trained[1].items():
        np.testing.assert_allclose(trained[2][name], value, rtol=1e-5, atol=1e-6, err_msg=name)
        assert not np.allclose(value, 0)


def test_a_rank_that_stops_responding_ends_the_job_with_an_error_naming_it():
    result = launch(2, sys.executable, str(PROGRAMS / "lost_rank.py"), "stop", timeout_env=2)
    assert result.returncode != 0, result.stdout
    assert "rank 1 lost" in result.stdout
    assert "did not complete within 2 s (NPSPORE_COMM_TIMEOUT): lost rank 1 (pid" in result.stdout
    assert "which is stopped" in result.stdout
    assert "rank 0 finished" not in result.stdout


def test_a_killed_rank_ends_the_job_with_an_error_naming_it():
    # The shell keeps the launcher from noticing the death for 60 s (as when a machine's launcher
    # daemon is slow to report), so rank 0 must find out by itself, long before its 120 s timeout.
    result = launch(2, "sh", "-c", '"$0" "$@"; sleep 60', sys.executable, str(PROGRAMS / "lost_rank.py"), "kill",
                    timeout_env=120)
    assert result.returncode != 0, result.stdout
    assert "rank 1 lost" in result.stdout
    # Rank 0's own liveness check ("cannot complete") or MPICH noticing first ("failed in MPI (...)"),
    # whichever wins under load: either way the error names the lost rank.
    assert re.search(r"CommunicationError: .*(cannot complete|failed in MPI \(.*\)): lost rank 1 \(pid \d+ on "
                     r".*\), which has exited", result.stdout), result.stdout
    assert "rank 0 finished" not in result.stdout


def test_every_data_parallel_path_trains_identical_replicas_without_set_seed(tmp_path):
    # Model.train, a value_and_grad loop with DistributedGradReducer, eager and jit TrainOneStepCell: each
    # starts from per-rank random weights (no set_seed) and must end bit-identical on both ranks, and
    # equal to one process trained from rank 0's initial weights over the same global batches.
    program = str(PROGRAMS / "replicas.py")
    two, one = tmp_path / "two", tmp_path / "one"
    two.mkdir()
    one.mkdir()
    result = launch(2, sys.executable, program, str(two))
    assert result.returncode == 0, result.stdout
    result = launch(1, sys.executable, program, str(one), "--init", str(two / "init.npz"))
    assert result.returncode == 0, result.stdout
    rank0, rank1, alone = (dict(np.load(path)) for path in (two / "final_0.npz", two / "final_1.npz",
                                                            one / "final_0.npz"))
    initial = dict(np.load(two / "init.npz"))
    assert sorted({name.split("/")[0] for name in rank0}) == ["eager", "jit", "loop", "model"]
    for name, value in rank0.items():
        np.testing.assert_array_equal(rank1[name], value, err_msg=name)
        np.testing.assert_allclose(value, alone[name], rtol=1e-5, atol=1e-6, err_msg=name)
        assert not np.allclose(value, initial[name]), name  # trained


def rank_failure(mode, timeout_env=120):
    """Launch rank_failures.py MODE on 2 ranks; the deadline is far above the seconds a detection takes,
    so an error that blames the deadline (a "stuck" rank) fails the test."""
    result = launch(2, sys.executable, str(PROGRAMS / "rank_failures.py"), mode, timeout_env=timeout_env)
    assert result.returncode != 0, result.stdout
    assert "finished" not in result.stdout and "NPSPORE_COMM_TIMEOUT" not in result.stdout, result.stdout
    return result.stdout


@pytest.mark.parametrize("mode", ["raise-model", "raise-loop", "raise-thread"])
def test_an_exception_on_one_rank_ends_every_rank_with_its_message(mode):
    output = rank_failure(mode)
    thread = " in thread loader" if mode == "raise-thread" else ""
    failure = f"world rank 1 of 2 (pid {{}}) failed: ValueError{thread}: rank 1 broke at step 3"
    pattern = re.escape(failure).replace(re.escape("{}"), r"\d+ on \S+")
    assert re.search("CommunicationError: npspore.communication: all_reduce on group 'hccl_world_group' "
                     r"\(world rank 0 of 2\) cannot complete: " + pattern, output), output
    assert re.search(pattern + "; ending the MPI job", output), output


def test_a_rank_whose_script_ends_early_is_an_error_on_the_others():
    output = rank_failure("return")
    assert re.search(r"CommunicationError: npspore.communication: all_reduce on group 'hccl_world_group' \(world "
                     r"rank 0 of 2\): rank 1 left the job while the others still call collectives: rank 0: "
                     r"all_reduce\(op='sum'\) of float32\[10\]; rank 1: left the job", output), output


def test_a_rank_that_exits_with_status_0_mid_training_ends_the_job_with_an_error():
    # MPICH's mpiexec would kill every rank at once and exit 0, the status of the rank that left.
    output = rank_failure("exit0")
    assert re.search(r"CommunicationError: npspore.communication: all_reduce on group 'hccl_world_group' \(world "
                     r"rank 0 of 2\) cannot complete: lost rank 1 \(pid \d+ on \S+\), which has exited", output), output


def test_a_rank_that_fails_before_init_ends_the_job_at_the_deadline():
    result = launch(2, sys.executable, str(PROGRAMS / "rank_failures.py"), "before-init", timeout_env=3)
    assert result.returncode != 0, result.stdout
    assert "ValueError: rank 1 failed before init" in result.stdout
    assert "Timeout (0:00:03)!" in result.stdout and re.search(r"line \d+ in init\n", result.stdout), result.stdout


def test_collectives_whose_tensors_differ_between_ranks_raise_naming_both():
    output = rank_failure("mismatch")
    assert re.search(r"CommunicationError: npspore.communication: all_reduce on group 'hccl_world_group' \(world rank "
                     r"\d of 2\): the ranks called different collectives or passed tensors of different shapes or "
                     r"dtypes: rank 0: all_reduce\(op='sum'\) of float32\[4\]; rank 1: all_reduce\(op='sum'\) of "
                     r"float64\[2\]\.", output), output
    assert "all_reduce returned" not in output


def test_parameters_of_other_shapes_on_another_rank_are_an_error_naming_the_first():
    output = rank_failure("shapes")
    assert ("ValueError: For 'DistributedGradReducer', the ranks' Parameters differ: Parameter 0 is 'w' (float32, "
            "shape (2, 3)) on rank 0 but 'w' (float32, shape (3, 2)) on rank 1.") in output, output


def test_a_parameter_changed_on_one_rank_after_the_replicas_were_synchronized_is_an_error():
    output = rank_failure("changed")
    # Raised by the check itself, or, when the kernel is compiled first, by the step's all-reduce after the
    # compiler's probe of it ran the check (and swallowed its error): either way the message names 'bias'.
    assert re.search(r"(RuntimeError|CommunicationError: For 'all_reduce', communication already failed in this "
                     r"process): For 'DistributedGradReducer', Parameter 'bias' differs between rank 0 and rank 1 at "
                     "their first collective after the reducer was built", output), output
