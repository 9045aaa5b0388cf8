"""The in-process kernel cache and the cache states: seeded runs that compile or load kernels from
disk draw the same numbers, caches stay bounded, and a callable that keeps recompiling is named."""
import gc
import linecache
import os
import subprocess
import sys
import textwrap
import threading
import warnings
import weakref

import numpy as np
import pytest

import npspore as ms
from npspore.compiler.kernel import CompiledKernel, HookVersions, KernelCache

SEEDED = textwrap.dedent('''
    import sys
    import numpy as np
    import npspore as ms
    from npspore import nn
    ms.set_seed(0)
    if sys.argv[1] == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dropout = nn.Dropout(p=0.5)
            self.w = ms.Parameter(ms.Tensor(np.ones((1, 8), np.float32)), name="w")

        def construct(self, x):
            return (self.dropout(x) * self.w).sum()

    net = Net()
    net.set_train(True)
    x = ms.Tensor(np.ones((1, 8), np.float32))
    grad = ms.grad(net, grad_position=None, weights=net.trainable_params())
    print(grad(x)[0].asnumpy().tolist())
    print(net(x).asnumpy().tolist())
    print(grad(x)[0].asnumpy().tolist())
    print("disk loads", grad.cache_info()["disk_loads"])
''')


def test_seeded_runs_draw_the_same_masks_whether_kernels_compile_or_load(tmp_path):
    (tmp_path / "seeded.py").write_text(SEEDED)

    def run(mode, cache):
        env = {**os.environ, "NPSPORE_CACHE_DIR": cache}
        result = subprocess.run([sys.executable, str(tmp_path / "seeded.py"), mode], capture_output=True, text=True,
                                env=env, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()

    compiled = run("graph", str(tmp_path / "kernels"))
    loaded = run("graph", str(tmp_path / "kernels"))
    eager = run("pynative", "")
    assert compiled[-1] == "disk loads 0" and loaded[-1] == "disk loads 1"
    assert compiled[:3] == loaded[:3]
    # MindSpore 2.10 printed these: GRAPH mode compiles the Cell's call apart from the gradient (its own kernel, whose
    # engine starts from the seeds); PYNATIVE mode runs the gradient's forward eagerly (one engine for all three).
    first, second, third = ("[[2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 0.0, 2.0]]", "[[2.0, 2.0, 0.0, 2.0, 0.0, 0.0, 2.0, 2.0]]",
                            "[[0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0, 2.0]]")
    assert compiled[:3] == [first, "8.0", second] and eager[:3] == [first, "10.0", third]


def _scale(x):
    return x * 2


def test_kernel_caches_are_bounded_and_evicted_kernels_leave_linecache(monkeypatch):
    monkeypatch.setenv("NPSPORE_KERNEL_CACHE_SIZE", "4")
    monkeypatch.setenv("NPSPORE_RECOMPILE_LIMIT", "100")
    monkeypatch.setenv("NPSPORE_CACHE_DIR", "")
    compiled = ms.jit(_scale)
    paths = []
    for n in range(1, 7):
        compiled(ms.Tensor(np.ones((n,), np.float32)))
        paths.append(next(reversed(compiled._cache.entries.values())).path)
        compiled(ms.Tensor(np.ones((1,), np.float32)))  # the first shape stays in use
    assert compiled.cache_info()["entries"] == 4
    kept = {entry.path for entry in compiled._cache.entries.values()}
    assert paths[0] in kept and paths[-1] in kept
    evicted = [p for p in paths if p not in kept]
    assert len(evicted) == 2 and not any(p in linecache.cache for p in evicted)
    assert all(p in linecache.cache for p in kept)
    gc.collect()


def test_a_callable_recompiling_past_the_limit_warns_once(monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", "")
    compiled = ms.jit(lambda x, k: x * k)
    y = ms.Tensor(np.ones((2,), np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1, 9):
            compiled(ms.Tensor(np.ones((n,), np.float32)), 2)
        assert not caught
        compiled(y, 3)
        compiled(ms.Tensor(np.ones((9,), np.float32)), 2)
        compiled(ms.Tensor(np.ones((10,), np.float32)), 2)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1, messages
    assert "compiled 9 times (recompile limit 8)" in messages[0]


def test_the_recompile_warning_names_the_argument_that_changes(monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", "")
    compiled = ms.jit(lambda x, y: x * y)
    y = ms.Tensor(np.ones((1,), np.float32))
    with pytest.warns(RuntimeWarning, match=r"argument 0 keeps changing its signature \(now float32\[9\]\)"):
        for n in range(1, 10):
            compiled(ms.Tensor(np.ones((n,), np.float32)), y)


class _Holder:
    """An object whose hook version a kernel records (as it does a compiled cell's)."""


def _kernel(holder=None):
    """A real CompiledKernel returning its input; stale once ``holder``'s hooks change."""
    hooks = [(weakref.ref(holder), 0)] if holder is not None else []
    return CompiledKernel(lambda x: x, [], ("leaf", 0), "", None, hook_guards=hooks)


@pytest.mark.parametrize("stale", [False, True], ids=["evictions", "stale-drops"])
def test_threads_looking_up_adding_and_evicting_at_once_never_raise(stale):
    # 8 threads share a 2-kernel cache over 5 keys, switching threads every microsecond: every
    # addition evicts, and (stale) every lookup finds a stale kernel to drop. Before the cache took a
    # lock and published copies, this raised KeyError or "dictionary changed size during iteration".
    holder = _Holder()
    keys = [(False, (((n,), np.dtype("float32")),)) for n in range(5)]
    kernels = [_kernel(holder if stale else None) for _ in keys]
    if stale:
        HookVersions.bump(holder)
    cache = KernelCache("hammered")
    cache.capacity, cache.recompile_limit = 2, 10 ** 9
    errors = []
    start = threading.Barrier(8)

    def calls(offset):
        start.wait()
        for i in range(10_000):
            index = (7 * i + offset) % len(keys)
            try:
                if cache.lookup(keys[index]) is None:
                    cache.add(keys[index], kernels[index], from_disk=False)
            except Exception as error:  # noqa: BLE001 - any exception is the failure reported
                errors.append(error)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(3):
            threads = [threading.Thread(target=calls, args=(offset,)) for offset in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(cache.entries) <= 2 and set(cache.entries) <= set(keys)
    assert cache.compiles >= 5 and cache.hits + cache.compiles <= 3 * 8 * 10_000
