"""Callables without source (the plain REPL, ``python -c``, ``exec``, lambdas defined there) are traced:
an eager run's ops are recorded into the IR, then differentiated and generated as usual."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops
from npspore.compiler.errors import NotSupportedError

ISSUE_COMMAND = ("import npspore as ms, numpy as np; "
                 "print(ms.grad(lambda x: (x * x).sum())(ms.Tensor(np.ones(2, np.float32))))")


def _run_python(args, tmp_path, stdin=None):
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(tmp_path))
    return subprocess.run([sys.executable, *args], input=stdin, env=env, capture_output=True, text=True,
                          timeout=120)


def test_python_c_differentiates_a_lambda(tmp_path):
    done = _run_python(["-c", ISSUE_COMMAND], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[2. 2.]\n"


def test_the_plain_repl_differentiates_a_function_and_a_lambda(tmp_path):
    session = ("import npspore as ms, numpy as np\n"
               "def f(x):\n"
               "    return (x * x * x).sum()\n"
               "\n"
               "print(ms.grad(f)(ms.Tensor(np.ones(2, np.float32))))\n"
               "print(ms.grad(lambda x: (x * x).sum())(ms.Tensor(np.ones(2, np.float32))))\n")
    done = _run_python(["-i", "-q"], tmp_path, stdin=session)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[3. 3.]\n[2. 2.]\n"
    assert "Error" not in done.stderr


class FileNet(nn.Cell):
    """A Cell written in this file: compiled from its source (``exec`` of its text gives one without)."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.scale = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="scale")

    def construct(self, x):
        return (ops.tanh(self.dense(x)) * self.scale).sum()


def _exec_net():
    namespace = {"nn": nn, "ms": ms, "np": np, "ops": ops}
    exec(inspect.getsource(FileNet).replace("class FileNet", "class Net"), namespace)
    net = namespace["Net"]()
    reference = FileNet()
    for mine, theirs in zip(net.trainable_params(), reference.trainable_params()):
        mine.set_data(theirs.data)
    return net, reference


def test_an_exec_cell_gets_the_gradients_of_the_same_cell_compiled_from_source():
    net, reference = _exec_net()
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    traced = ms.grad(net, grad_position=0, weights=net.trainable_params())
    compiled = ms.grad(reference, grad_position=0, weights=reference.trainable_params())
    got, want = traced(x), compiled(x)
    np.testing.assert_allclose(got[0].asnumpy(), want[0].asnumpy(), rtol=1e-6)
    for mine, theirs in zip(got[1], want[1]):
        np.testing.assert_allclose(mine.asnumpy(), theirs.asnumpy(), rtol=1e-6)
    assert "# frontend: traced" in traced.kernel_source(x)
    assert "frontend" not in compiled.kernel_source(x)
    np.testing.assert_allclose(ms.jit(net)(x).asnumpy(), reference(x).asnumpy(), rtol=1e-6)


def test_a_traced_kernel_reads_captured_parameters_at_each_call():
    net, _ = _exec_net()
    x = ms.Tensor(np.ones((1, 3), np.float32))
    value_and_grad = ms.value_and_grad(net, None, net.scale)
    value, before = value_and_grad(x)
    net.scale.set_data(ms.Tensor(np.array([3.0, 4.0], np.float32)))
    doubled, after = value_and_grad(x)
    np.testing.assert_allclose(after.asnumpy(), before.asnumpy())  # d/dscale does not depend on scale
    tanh = before.asnumpy()
    assert doubled.asnumpy() == pytest.approx(3 * tanh[0] + 4 * tanh[1], rel=1e-6)
    assert value.asnumpy() == pytest.approx(tanh[0] + 2 * tanh[1], rel=1e-6)
    assert value_and_grad.cache_info()["compiles"] == 1


def test_exec_functions_get_higher_order_and_grad_operation_gradients():
    namespace = {"ms": ms, "ops": ops}
    exec("cube = lambda x: (x ** 3).sum()\n"
         "def product(x, y):\n"
         "    return (x * y).sum()\n", namespace)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert ms.grad(ms.grad(namespace["cube"]))(x).asnumpy().tolist() == [6.0, 12.0]
    dx, dy = ops.GradOperation(get_all=True)(namespace["product"])(x, x * 3)
    assert dx.asnumpy().tolist() == [3.0, 6.0] and dy.asnumpy().tolist() == [1.0, 2.0]


def test_a_traced_parameter_update_happens_once_per_call():
    namespace = {"ms": ms, "ops": ops, "np": np}
    exec("w = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name='w')\n"
         "def step(x):\n"
         "    ops.assign(w, w + x)\n"
         "    return w * 2\n", namespace)
    step = ms.jit(namespace["step"])
    x = ms.Tensor(np.ones(2, np.float32))
    assert step(x).asnumpy().tolist() == [2.0, 2.0]
    assert step(x).asnumpy().tolist() == [4.0, 4.0]
    assert namespace["w"].asnumpy().tolist() == [2.0, 2.0]


class UpdatesByAttribute(nn.Cell):
    """Updates its own Parameter and a sub-cell's by attribute assignment (``+=`` and ``=``)."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")
        self.inner = nn.Cell()
        self.inner.v = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="v")

    def construct(self, x):
        self.w += x
        self.inner.v = self.inner.v + self.w
        return self.inner.v * 2.0


def test_a_traced_parameter_updated_by_attribute_assignment_is_updated_at_every_call():
    """Fuzz (stateful) seed 6: ``self.p = value`` set the data while the trace ran, so the kernel never
    wrote it again (compiled: the Parameter kept the first call's value)."""
    namespace = {"nn": nn, "ms": ms, "np": np}
    exec(inspect.getsource(UpdatesByAttribute), namespace)
    traced, eager = namespace["UpdatesByAttribute"](), UpdatesByAttribute()
    step = ms.jit(traced)
    x = ms.Tensor(np.ones(2, np.float32))
    for _ in range(3):
        assert step(x).asnumpy().tolist() == eager(x).asnumpy().tolist()
    assert traced.w.asnumpy().tolist() == eager.w.asnumpy().tolist() == [3.0, 3.0]
    assert traced.inner.v.asnumpy().tolist() == eager.inner.v.asnumpy().tolist() == [6.0, 6.0]


def test_what_a_trace_cannot_record_is_refused_clearly():
    namespace = {"ms": ms}
    exec("def poke(x):\n"
         "    x[0] = 5.0\n"
         "    return x\n"
         "def nested(x):\n"
         "    return ms.grad(lambda y: (y * y).sum())(x)\n", namespace)
    x = ms.Tensor(np.ones(2, np.float32))
    with pytest.raises(NotSupportedError, match=r"in-place update \(t\[index\] = value\) on a traced tensor"):
        ms.jit(namespace["poke"])(x)
    with pytest.raises(NotSupportedError, match="a gradient function called on a traced tensor"):
        ms.jit(namespace["nested"])(x)


class CachingNet(nn.Cell):
    """Keeps a tensor in an attribute that is no Parameter: compiled code sets it after the call, traced code
    refuses it."""

    def construct(self, x):
        self.cache = x * 2.0
        return self.cache + 1.0


def test_a_tensor_kept_in_an_attribute_that_is_no_parameter_is_set_with_source_and_refused_without():
    net = CachingNet()
    assert ms.jit(net)(ms.Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [3.0, 3.0]
    assert net.cache.asnumpy().tolist() == [2.0, 2.0]
    namespace = {"nn": nn}
    exec(inspect.getsource(CachingNet), namespace)
    net = namespace["CachingNet"]()
    with pytest.raises(NotSupportedError) as info:
        ms.jit(net)(ms.Tensor(np.ones(2, np.float32)))
    assert str(info.value).splitlines()[0] == (
        "assigning a tensor to the attribute 'cache', which is no Parameter is not supported in compiled code "
        "(construct or @jit)")
    assert "cache" not in vars(net)   # nothing of the trace is left on the Cell


def test_a_library_cell_that_calls_an_exec_cell_is_traced_whole():
    net, reference = _exec_net()
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    traced = ms.value_and_grad(nn.SequentialCell([net]), None, net.trainable_params())
    compiled = ms.value_and_grad(nn.SequentialCell([reference]), None, reference.trainable_params())
    (value, grads), (want_value, want_grads) = traced(x), compiled(x)
    assert value.asnumpy() == pytest.approx(want_value.asnumpy(), rel=1e-6)
    for mine, theirs in zip(grads, want_grads):
        np.testing.assert_allclose(mine.asnumpy(), theirs.asnumpy(), rtol=1e-6)
    assert "# frontend: traced" in traced.kernel_source(x)


def test_traced_kernels_stay_off_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path))
    net, _ = _exec_net()
    outer = nn.SequentialCell([net])
    x = ms.Tensor(np.ones((1, 3), np.float32))
    ms.grad(outer, None, net.trainable_params())(x)
    ms.jit(net)(x)
    assert not [path for path in tmp_path.rglob("*") if path.is_file()]
    ms.jit(FileNet())(x)  # compiled from source: cached
    assert [path for path in tmp_path.rglob("*") if path.is_file()]


BPROP_CELL = ("import npspore as ms, numpy as np\n"
              "from npspore import nn, ops\n"
              "class Scale(nn.Cell):\n"
              "    def __init__(self):\n"
              "        super().__init__()\n"
              "        self.w = ms.Parameter(ms.Tensor(np.array([5.0, 7.0], np.float32)), name='w')\n"
              "    def construct(self, x, y):\n"
              "        return x * y * 3\n"
              "    def bprop(self, x, y, out, dout):\n"
              "        return dout * 2 + out * 0, dout * x * self.w\n"
              "net = Scale()\n"
              "x = ms.Tensor(np.array([1.0, 2.0], np.float32))\n"
              "y = ms.Tensor(np.array([3.0, 4.0], np.float32))\n"
              "one = ms.Tensor(np.ones(2, np.float32))\n")
# What the bprop says (construct's own derivative would give 3y = [9, 12] and 3x = [3, 6]): d/dx = 2 dout,
# d/dy = dout * x * w; MindSpore 2.10 differentiates a cell with a bprop through the bprop, in reverse and in
# forward mode (mindspore-semantics.md, "Cell.bprop").
BPROP_EXPECTED = ("[2. 2.]\n"            # grad of the cell
                  "[2. 2.] [ 5. 14.]\n"  # grad of a function calling it, both inputs
                  "[2. 2.]\n"            # jvp, tangent of x only
                  "[[2. 0.]\n [0. 2.]]\n"    # jacrev
                  "[[2. 0.]\n [0. 2.]]\n")   # jacfwd
BPROP_PRINTS = ("print(ms.grad(net)(x, y))\n"
                "gx, gy = ms.grad(lambda a, b: (net(a, b) * 1.0).sum(), grad_position=(0, 1))(x, y)\n"
                "print(gx, gy)\n"
                "print(ops.jvp(lambda a: net(a, y), (x,), (one,))[1])\n"
                "print(ops.jacrev(lambda a: net(a, y))(x))\n"
                "print(ops.jacfwd(lambda a: net(a, y))(x))\n")


def test_python_c_differentiates_a_cell_through_its_bprop(tmp_path):
    done = _run_python(["-c", BPROP_CELL + BPROP_PRINTS], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == BPROP_EXPECTED


def test_exec_differentiates_a_cell_through_its_bprop(capsys):
    exec(BPROP_CELL + BPROP_PRINTS, {})
    assert capsys.readouterr().out == BPROP_EXPECTED


def test_a_traced_bprop_may_not_read_its_cotangent():
    namespace: dict = {}
    exec(BPROP_CELL.replace("return dout * 2 + out * 0,", "return dout * float(dout[0]),"), namespace)
    with pytest.raises(NotSupportedError, match="reading tensor values in a cell.s bprop"):
        ms.grad(namespace["net"])(namespace["x"], namespace["y"])


TRAINING_CELL = ("import npspore as ms, numpy as np\n"
                 "from npspore import nn, ops\n"
                 "class Net(nn.Cell):\n"
                 "    def construct(self, x):\n"
                 "        if self.training:\n"
                 "            return x * 2\n"
                 "        return x * 3\n"
                 "def make():\n"
                 "    net = Net()\n"
                 "    def f(a):\n"
                 "        return net(a)\n"
                 "    def loss(a):\n"
                 "        return net(a).sum()\n"
                 "    return net, f, loss\n")


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd", "vmap", "jvp", "vjp", "grad", "vmap_grad", "cell"])
@pytest.mark.parametrize("first", [True, False])
def test_a_traced_kernel_follows_the_training_flag_of_the_cells_it_calls(transform, first):
    namespace: dict = {}
    exec(TRAINING_CELL, namespace)
    net, f, loss = namespace["make"]()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    one = ms.Tensor(np.ones(2, np.float32))
    run = {"jacrev": lambda: ops.jacrev(f)(x).sum(0), "jacfwd": lambda: ops.jacfwd(f)(x).sum(0),
           "vmap": lambda: ops.vmap(f)(x) / x, "jvp": lambda: ops.jvp(f, x, one)[1],
           "vjp": lambda: ops.vjp(f, x)[1](one)[0], "grad": lambda: ms.grad(loss)(x),
           "vmap_grad": lambda: ops.vmap(ms.grad(loss))(x), "cell": lambda: ops.jacfwd(net)(x).sum(0)}[transform]
    for mode in (first, not first, first):
        net.set_train(mode)
        np.testing.assert_allclose(run().asnumpy(), [2.0, 2.0] if mode else [3.0, 3.0])
