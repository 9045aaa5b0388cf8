"""Guards: a kernel is reused only while the Python values it read at compile time are unchanged.

Each route by which a compile-time value reaches a kernel is tried in this process (the value
changes between two calls) and across processes sharing one disk cache (the value comes from the
environment): module globals, closure cells, defaults, another module's globals, a Cell's
construct reading a global, attributes of plain objects, and the training flag of reached Cells.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np

import npspore as ms
from npspore import nn

X = ms.Tensor(np.array([2.0], np.float32))

PROGRAM = textwrap.dedent('''
    import os
    import numpy as np
    import npspore as ms
    from npspore import nn
    import settings

    S = float(os.environ["S"])

    def make_g(s):
        def g(x):
            return x * s
        return g

    g = make_g(S)

    def helper(x, s=S):
        return x * s

    def make_f(s):
        @ms.jit
        def f(x):
            return x * s
        return f

    @ms.jit
    def reads_global(x):
        return x * S

    @ms.jit
    def calls_closure(x):
        return g(x)

    @ms.jit
    def calls_default(x):
        return helper(x)

    @ms.jit
    def reads_module(x):
        return x * settings.S

    class Net(nn.Cell):
        def construct(self, x):
            return x * S

    x = ms.Tensor(np.array([2.0], np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    for f in (reads_global, make_f(S), calls_closure, calls_default, reads_module, Net()):
        print(f(x).asnumpy().tolist())
    print("disk loads", reads_global.cache_info()["disk_loads"])
''')


def _run(directory, source, **env):
    result = subprocess.run([sys.executable, "-c", source], cwd=directory, capture_output=True, text=True,
                            env={**os.environ, "NPSPORE_CACHE_DIR": str(directory / "kernels"), **env}, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def test_values_read_at_compile_time_are_guarded_across_processes(tmp_path):
    (tmp_path / "settings.py").write_text('import os\nS = float(os.environ["S"])\n')
    (tmp_path / "program.py").write_text(PROGRAM)
    run = "import runpy; runpy.run_path('program.py', run_name='__main__')"
    first = _run(tmp_path, run, S="1")
    assert first.stdout.split("\n")[:6] == ["[2.0]"] * 6
    second = _run(tmp_path, run, S="5", NPSPORE_EXPLAIN_CACHE_MISSES="1")
    assert second.stdout.split("\n")[:6] == ["[10.0]"] * 6
    assert "reads_global: kernel on disk is stale: global S: 1.0 -> 5.0" in second.stderr
    assert "reads_module: kernel on disk is stale: global settings.S: 1.0 -> 5.0" in second.stderr
    third = _run(tmp_path, run, S="5")
    assert third.stdout.split("\n")[:7] == ["[10.0]"] * 6 + ["disk loads 1"]


def test_two_classes_of_one_name_in_one_file_get_their_own_kernels(tmp_path):
    (tmp_path / "program.py").write_text(textwrap.dedent('''
        import npspore as ms
        from npspore import nn, ops
        x, y = ms.Tensor([3.0], ms.float32), ms.Tensor([5.0], ms.float32)

        class Net(nn.Cell):
            def construct(self, x, y):
                return x * y + ops.stop_gradient(x * y)

        print(ms.grad(Net())(x, y))

        class Net(nn.Cell):  # same name, another body
            def construct(self, x, y):
                return x * y + x * y

        print(ms.grad(Net())(x, y))

        class Outer(nn.Cell):
            def __init__(self, sub):
                super().__init__()
                self.sub = sub()

            def construct(self, x, y):
                return self.sub(x * y)

        class Sub(nn.Cell):
            def construct(self, x):
                return x * 2

        print(ms.grad(Outer(Sub))(x, y))

        class Sub(nn.Cell):  # a sub-cell class of the same name
            def construct(self, x):
                return x * 3

        print(ms.grad(Outer(Sub))(x, y))
    '''))
    run = "import runpy; runpy.run_path('program.py', run_name='__main__')"
    for _ in range(2):  # compiled, then loaded from the disk cache
        assert _run(tmp_path, run).stdout.split("\n")[:4] == ["[5.]", "[10.]", "[10.]", "[15.]"]


SCALE = 1.0


@ms.jit
def _times_scale(x):
    return x * SCALE


def test_a_changed_global_recompiles_in_process(caplog, monkeypatch):
    global SCALE
    assert _times_scale(X).asnumpy().tolist() == [2.0]
    monkeypatch.setenv("NPSPORE_EXPLAIN_CACHE_MISSES", "1")
    SCALE = 5.0
    try:
        with caplog.at_level("WARNING", logger="npspore.cache"):
            assert _times_scale(X).asnumpy().tolist() == [10.0]
    finally:
        SCALE = 1.0
    assert "recompiling: global test_guards.SCALE: 1.0 -> 5.0" in caplog.text
    assert _times_scale(X).asnumpy().tolist() == [2.0]


class _Settings:
    factor = 3.0


SETTINGS = _Settings()


def _closure_over(value):
    def scaled(x):
        return x * value * SETTINGS.factor

    return ms.jit(scaled)


def _with_default(x, k=2.0):
    return x * k


@ms.jit
def _calls_with_default(x):
    return _with_default(x)


def test_closures_defaults_and_attributes_are_guarded_in_process():
    value = [1.0]

    def reads_cell(x):
        return x * value[0]

    scaled = _closure_over(1.0)
    assert scaled(X).asnumpy().tolist() == [6.0]
    SETTINGS.factor = 4.0
    try:
        assert scaled(X).asnumpy().tolist() == [8.0]
    finally:
        SETTINGS.factor = 3.0
    assert _calls_with_default(X).asnumpy().tolist() == [4.0]
    _with_default.__defaults__ = (3.0,)
    try:
        assert _calls_with_default(X).asnumpy().tolist() == [6.0]
    finally:
        _with_default.__defaults__ = (2.0,)
    compiled = ms.jit(reads_cell)
    assert compiled(X).asnumpy().tolist() == [2.0]
    value = [7.0]  # rebinds the closure cell  # noqa: F841
    assert compiled(X).asnumpy().tolist() == [14.0]


class _Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.dropout(x)


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _Inner()

    def construct(self, x):
        return self.inner(x)


GLOBAL_NET = _Inner()


@ms.jit
def _calls_global_net(x):
    return GLOBAL_NET(x)


def test_training_flags_of_reached_cells_are_guarded():
    ones = ms.Tensor(np.ones((64,), np.float32))
    GLOBAL_NET.set_train(True)
    try:
        trained = _calls_global_net(ones).asnumpy()
        assert set(np.unique(trained)) <= {0.0, 2.0} and 0.0 in trained
        GLOBAL_NET.set_train(False)
        assert _calls_global_net(ones).asnumpy().tolist() == [1.0] * 64
    finally:
        GLOBAL_NET.set_train(False)
    held = _Inner()

    def calls_held(x):
        return held(x)

    through_closure = ms.jit(calls_held)
    held.set_train(True)
    assert 0.0 in through_closure(ones).asnumpy()
    held.set_train(False)
    assert through_closure(ones).asnumpy().tolist() == [1.0] * 64
    outer = _Outer()
    outer.set_train(True)
    compiled = ms.jit(outer)
    assert 0.0 in compiled(ones).asnumpy()
    outer.inner.set_train(False)  # the outer cell stays in training mode
    assert compiled(ones).asnumpy().tolist() == [1.0] * 64


def test_a_step_reading_a_global_cell_and_gradient_function_still_loads_from_disk(tmp_path):
    (tmp_path / "step.py").write_text(textwrap.dedent('''
        import numpy as np
        import npspore as ms
        from npspore import nn
        ms.set_seed(1)
        net = nn.Dense(3, 2)
        loss_fn = nn.MSELoss()

        def forward(x, y):
            return loss_fn(net(x), y)

        grad_fn = ms.value_and_grad(forward, None, net.trainable_params())

        @ms.jit
        def step(x, y):
            loss, grads = grad_fn(x, y)
            return loss

        x, y = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((4, 2), np.float32))
        print(step(x, y), step.cache_info()["disk_loads"])
    '''))
    run = "import runpy; runpy.run_path('step.py', run_name='__main__')"
    first, second = (_run(tmp_path, run).stdout.split() for _ in range(2))
    assert first[1] == "0" and second[1] == "1" and first[0] == second[0]


def test_a_guarded_function_is_shown_by_where_it_is_defined_not_its_address():
    """The shown value of a guarded function goes into a kernel's layout on disk: the same text in every
    process (it was ``<builtin_function_or_method sqrt at 0x7f...>``)."""
    import math

    from npspore.compiler.guards import shown

    def scale(x):
        return x

    line = scale.__code__.co_firstlineno
    assert shown(math.sqrt) == "<builtin_function_or_method math.sqrt>"
    assert shown(scale) == ("<function test_guards.test_a_guarded_function_is_shown_by_where_it_is_defined_not_"
                            f"its_address.<locals>.scale (test_guards.py:{line})>")
