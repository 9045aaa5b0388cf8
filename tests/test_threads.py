"""The BLAS thread policy (npspore.core.threads) and ``set_context(runtime_num_threads=...)``."""
import os
import subprocess
import sys

import pytest
import threadpoolctl

import npspore as ms
from npspore import context
from npspore.core import thread_pool, threads


def _blas_threads() -> set:
    return {lib["num_threads"] for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"}


@pytest.fixture
def restore_setting():
    """Forget the setting and give BLAS back the thread count it had."""
    before = min(_blas_threads())
    yield
    context._context.pop("runtime_num_threads", None)
    threads.set_runtime_num_threads(None)
    threadpoolctl.threadpool_limits(before, user_api="blas")


def test_runtime_num_threads_sets_the_product_threads_and_keeps_blas_on_one(restore_setting):
    ms.set_context(runtime_num_threads=1)                 # everything on the calling thread
    assert _blas_threads() == {1} and thread_pool.helper_count() == 0
    assert ms.get_context("runtime_num_threads") == 1
    ms.set_context(runtime_num_threads=0)                 # all the cores this process may use
    assert _blas_threads() == {1} and thread_pool.helper_count() == threads.usable_cores() - 1
    ms.set_context(runtime_num_threads=10_000)            # never more threads than cores
    assert _blas_threads() == {1} and thread_pool.helper_count() == threads.usable_cores() - 1


@pytest.mark.parametrize("value, error, message", [
    (-1, ValueError, "'runtime_num_threads' must be bigger than or equal to 0, but got -1"),
    (2.0, TypeError, "'runtime_num_threads' must be int, but got float"),
    (True, TypeError, "'runtime_num_threads' must be int, but got bool"),
])
def test_invalid_runtime_num_threads(value, error, message, restore_setting):
    with pytest.raises(error, match=message):
        ms.set_context(runtime_num_threads=value)
    with pytest.raises(ValueError):
        ms.get_context("runtime_num_threads")


@pytest.mark.parametrize("setting, environment, expected", [
    (None, {}, 1),                                      # by default one thread: no oversubscription
    (None, {"OPENBLAS_NUM_THREADS": "4"}, None),        # the user's own choice is left alone
    (None, {"OMP_NUM_THREADS": "3"}, None),
    (1, {"OPENBLAS_NUM_THREADS": "4"}, 1),              # the setting wins over the environment
])
def test_blas_thread_count(setting, environment, expected):
    assert threads.blas_thread_count(setting, environment) == expected


@pytest.mark.parametrize("setting, environment, expected", [
    (None, {}, "cores"),                                # by default products split across every core
    (None, {"OPENBLAS_NUM_THREADS": "4"}, 1),           # BLAS threads of the user's choice: npspore splits nothing
    (0, {}, "cores"),
    (1, {}, 1),
    (2, {"OPENBLAS_NUM_THREADS": "4"}, "two"),          # the setting wins over the environment
])
def test_product_thread_count(setting, environment, expected):
    cores = threads.usable_cores()
    expected = {"cores": cores, "two": min(2, cores)}.get(expected, expected)
    assert threads.product_thread_count(setting, environment) == expected


def test_a_fresh_process_runs_npspore_with_one_blas_thread():
    environment = {k: v for k, v in os.environ.items() if k not in threads.BLAS_ENVIRONMENT}
    code = ("import threadpoolctl, npspore as ms\n"
            "ms.ops.matmul(ms.Tensor([[1.0]]), ms.Tensor([[2.0]]))\n"
            "print({l['num_threads'] for l in threadpoolctl.threadpool_info() if l['user_api'] == 'blas'})\n"
            "from npspore.core import thread_pool, threads\n"
            "print(thread_pool.helper_count() == threads.usable_cores() - 1)\n")
    run = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "{1}\nTrue\n"
