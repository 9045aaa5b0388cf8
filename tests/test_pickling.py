"""Compiled callables pickle as the callable, not the kernel: a new process rebuilds kernels on demand,
so ``multiprocessing.Pool`` works over a jitted Cell, a ``@jit`` function and a gradient function."""
import multiprocessing
import pickle

import numpy as np
import pytest

import npspore as ms
from npspore.compiler.signature import tensor_leaves
from pickle_cells import TinyNet, call, doubled, squared_norm


def _x():
    return ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) - 2)


def _compiled_callables():
    net = TinyNet()
    return [ms.jit(net), net, doubled, ms.jit(squared_norm), ms.grad(squared_norm),
            ms.value_and_grad(net, None, net.trainable_params())]


def _same(got, want):
    got, want = tensor_leaves(got), tensor_leaves(want)
    assert len(got) == len(want) > 0
    for mine, theirs in zip(got, want):
        np.testing.assert_array_equal(mine.asnumpy(), theirs.asnumpy())


def test_compiled_callables_round_trip_through_pickle_after_running():
    x = _x()
    for function in _compiled_callables():
        want = function(x)
        loaded = pickle.loads(pickle.dumps(function))
        _same(loaded(x), want)


def test_an_unpickled_jitted_cell_keeps_its_weights_and_compiles_again():
    net = TinyNet()
    jitted = ms.jit(net)
    jitted(_x())
    assert jitted.cache_info()["entries"] == 1
    loaded = pickle.loads(pickle.dumps(jitted))
    assert loaded.cache_info()["entries"] == 0
    np.testing.assert_array_equal(loaded.cell.dense.weight.asnumpy(), net.dense.weight.asnumpy())


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_compiled_callables_work_in_a_process_pool(start_method, tmp_path, monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path))
    x = _x()
    functions = _compiled_callables()
    wanted = [function(x) for function in functions]
    with multiprocessing.get_context(start_method).Pool(1) as pool:
        results = pool.map(call, [(function, x) for function in functions])
    for got, want in zip(results, wanted):
        _same(got, want)
