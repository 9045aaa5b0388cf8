"""The compiler end to end: compiled results equal eager ones, signatures and caches behave."""
import functools
import logging
import os
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.compiler.errors import NotSupportedError, file_label

import catalogue


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path / "cache"))


def _flat(value):
    if isinstance(value, Tensor):
        return [("T", value.dtype, value.asnumpy())]
    if isinstance(value, (tuple, list)):
        return [(type(value),)] + [x for v in value for x in _flat(v)]
    return [("C", value)]


def _assert_same(compiled, eager):
    a, b = _flat(compiled), _flat(eager)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if x[0] == "T":
            assert x[1] == y[1]
            if x[2].dtype.kind == "f" and x[2].ndim == 0:
                # a whole-array sum of products is a dot product in compiled code (optimize):
                # same value up to the rounding of a reordered sum
                np.testing.assert_allclose(x[2], y[2], rtol=4 * np.finfo(x[2].dtype).eps)
            else:
                np.testing.assert_array_equal(x[2], y[2])       # bit for bit
        else:
            assert x == y


@pytest.mark.parametrize("name, make, inputs", catalogue.PROGRAMS, ids=[p[0] for p in catalogue.PROGRAMS])
def test_catalogue_compiled_equals_eager(name, make, inputs):
    target = make()
    args = inputs()
    eager = target(*args)
    compiled = ms.jit(target)(*args)
    _assert_same(compiled, eager)


def test_graph_mode_compiles_every_cell_call():
    net = catalogue.MLP()
    x = catalogue._rand(5, 4)
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), eager, rtol=1e-6)
    assert net.cache_info()["compiles"] == 1
    assert len(net.compile_cache) == 1


def test_jit_decorator_forms_and_cache_info():
    @ms.jit
    def f(x, y):
        return x * y + 1.0

    @ms.jit()
    def g(x):
        return x - 1.0

    x = Tensor([1.0, 2.0])
    np.testing.assert_allclose(f(x, x).asnumpy(), [2.0, 5.0])
    np.testing.assert_allclose(g(x).asnumpy(), [0.0, 1.0])
    f(Tensor([3.0, 4.0]), x)                                   # same shapes, new values
    assert f.cache_info()["compiles"] == 1 and f.cache_info()["hits"] == 1
    f(Tensor([3.0, 4.0, 5.0]), Tensor([1.0, 1.0, 1.0]))        # new shape
    assert f.cache_info()["compiles"] == 2
    assert ms.jit(3) == 3


def test_jit_of_a_primitive_or_callable_object_returns_it():
    # MindSpore 2.10 (observed): ms.jit(ops.ACos()) is the primitive itself, and so are ms.jit of a
    # functools.partial and of an object with __call__; ACos of [0.5, 0.0] is [1.0471976, 1.5707964]
    acos = ops.ACos()
    assert ms.jit(acos) is acos
    np.testing.assert_allclose(ms.jit(acos)(Tensor(np.array([0.5, 0.0], np.float32))).asnumpy(),
                               [1.0471976, 1.5707964], rtol=1e-6)
    add_one = functools.partial(ops.add, 1)
    assert ms.jit(add_one) is add_one
    np.testing.assert_allclose(ms.jit(ops.vmap(lambda x: x * 2))(Tensor([[1.0, 2.0]])).asnumpy(), [[2.0, 4.0]])


def test_python_scalar_value_is_part_of_the_key():
    @ms.jit
    def scale(x, k):
        return x * k

    x = Tensor([1.0, 2.0])
    np.testing.assert_allclose(scale(x, 2.0).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(scale(x, 3.0).asnumpy(), [3.0, 6.0])
    scale(x, 3.0)
    assert scale.cache_info() == {"hits": 1, "compiles": 2, "disk_loads": 0, "entries": 2}


def test_tuples_of_tensors_keyed_by_structure_not_value():
    @ms.jit
    def first_times_second(z):
        return z[0] * z[1]

    a, b = Tensor([1.0, 2.0]), Tensor([3.0, 4.0])
    np.testing.assert_allclose(first_times_second(ms.mutable((a, b))).asnumpy(), [3.0, 8.0])
    np.testing.assert_allclose(first_times_second(ms.mutable((b, a))).asnumpy(), [3.0, 8.0])
    np.testing.assert_allclose(first_times_second((Tensor([5.0, 5.0]), a)).asnumpy(), [5.0, 10.0])
    info = first_times_second.cache_info()
    assert info["compiles"] == 2 and info["hits"] == 1     # mutable vs plain tuple differ; values do not


def test_set_data_is_seen_without_recompiling():
    net = catalogue.E()
    compiled = ms.jit(net)
    x, y = Tensor([2.0], ms.float32), Tensor([5.0], ms.float32)
    np.testing.assert_allclose(compiled(x, y).asnumpy(), [11.0])
    net.z.set_data(Tensor([10.0], ms.float32))
    np.testing.assert_allclose(compiled(x, y).asnumpy(), [25.0])
    assert net.cache_info()["compiles"] == 1


def test_assign_in_compiled_code_updates_the_parameter():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = Parameter(Tensor([0.0], ms.float32), name="count")

        def construct(self, step):
            ops.assign_add(self.count, step)
            return self.count * 1.0

    net = Counter()
    run = ms.jit(net)
    run(Tensor([2.0], ms.float32))
    out = run(Tensor([3.0], ms.float32))
    np.testing.assert_allclose(out.asnumpy(), [5.0])
    np.testing.assert_allclose(net.count.asnumpy(), [5.0])


def test_training_flag_is_part_of_the_key():
    net = catalogue.TrainingSwitch()
    run = ms.jit(net)
    x = Tensor([1.0, 2.0])
    np.testing.assert_allclose(run(x).asnumpy(), [1.0, 2.0])
    net.set_train(True)
    np.testing.assert_allclose(run(x).asnumpy(), [2.0, 4.0])
    assert net.cache_info()["compiles"] == 2


def test_set_inputs_dynamic_dims_share_one_kernel():
    net = catalogue.MLP()
    net.set_inputs(Tensor(shape=[None, 4], dtype=ms.float32))
    run = ms.jit(net)
    for batch in (1, 2, 5):
        x = catalogue._rand(batch, 4)
        np.testing.assert_allclose(run(x).asnumpy(), net.construct(x).asnumpy(), rtol=1e-6)
    assert net.cache_info()["compiles"] == 1
    with pytest.raises(ValueError, match="the dims of 1th input must be the same as expected, but got expected: 2, and input: 3"):
        run(catalogue._rand(1, 2, 4))


def test_twelve_identical_layers_compile_one_function():
    net = catalogue.Stack12()
    from npspore.jit import cell_kernel_source

    source = cell_kernel_source(net, catalogue._rand(2, 4))
    assert source.count("def Dense_construct") == 1
    assert source.count("Dense_construct(") == 13        # the definition and twelve calls


def test_generated_code_is_deterministic_and_names_the_source():
    net_a, net_b = catalogue.MLP(), catalogue.MLP()
    x = catalogue._rand(5, 4)
    from npspore.jit import cell_kernel_source

    text_a, text_b = cell_kernel_source(net_a, x), cell_kernel_source(net_b, x)
    assert text_a == text_b
    assert "# callable: MLP.construct" in text_a
    assert "# signature: (float32[5,4])" in text_a
    assert "catalogue.py:" in text_a
    for line in text_a.splitlines():
        if line.startswith("    ") and "=" in line and not line.strip().startswith(('"""', "return")):
            assert f"# {file_label(catalogue.__file__)}:" in line or "# npspore/nn/layers.py:" in line, line


def test_disk_cache_serves_a_fresh_process(tmp_path):
    script = textwrap.dedent("""
        import sys, time
        sys.path.insert(0, %r)
        import npspore as ms
        from tests import catalogue
        net = catalogue.MLP()
        run = ms.jit(net)
        out = run(catalogue._rand(5, 4))
        print(net.cache_info()["compiles"], net.cache_info()["disk_loads"], float(out.sum()))
    """ % os.path.dirname(os.path.dirname(__file__)))
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(tmp_path / "shared-cache"))
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    c1, d1, v1 = first.stdout.split()
    c2, d2, v2 = second.stdout.split()
    assert (c1, d1) == ("1", "0") and (c2, d2) == ("0", "1")
    assert v1 == v2


def test_explain_cache_misses(monkeypatch, caplog):
    monkeypatch.setenv("NPSPORE_EXPLAIN_CACHE_MISSES", "1")

    @ms.jit
    def f(x, k):
        return x * k

    with caplog.at_level(logging.WARNING, logger="npspore.cache"):
        f(Tensor([1.0, 2.0]), 2.0)
        f(Tensor([1.0, 2.0, 3.0]), 2.0)
    assert "first compile" in caplog.text
    assert "argument 0: (float32[2]) -> (float32[3])" in caplog.text


def test_explained_misses_name_signatures_readably_and_tell_disk_loads_from_compiles(monkeypatch, caplog, tmp_path):
    monkeypatch.setenv("NPSPORE_EXPLAIN_CACHE_MISSES", "1")
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path / "kernels"))

    def scale(x, k):
        return (x * k).sum()

    x = Tensor(np.ones((3, 4), np.float32))
    with caplog.at_level(logging.WARNING, logger="npspore.cache"):
        ms.jit(scale)(x, 2)
        ms.grad(scale)(x, k=2)       # a gradient's key wraps the arguments with the keyword names
        ms.jit(scale)(x, 2)          # a new jit object: its kernel comes from the disk cache
    label = scale.__qualname__
    assert caplog.messages == [f"npspore: {label}: first compile for signature (float32[3,4], 2)",
                               f"npspore: grad of {label}: first compile for signature (float32[3,4], 2)",
                               f"npspore: {label}: loaded from the disk cache for signature (float32[3,4], 2)"]


# ---------------------------------------------------------------- errors at the user's line


def test_shape_error_reported_at_compile_time_with_both_shapes():
    @ms.jit
    def bad(a, b):
        c = a * 2.0
        return ops.matmul(c, b)

    with pytest.raises(ValueError) as info:
        bad(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 5), np.float32)))
    message = str(info.value)
    assert "3" in message and "4" in message
    assert __file__ in message and "return ops.matmul(c, b)" in message and "^" in message


def test_broadcast_error_names_both_shapes_and_line():
    @ms.jit
    def bad_add(a, b):
        return a + b

    with pytest.raises(ValueError) as info:
        bad_add(Tensor(np.ones(3, np.float32)), Tensor(np.ones(4, np.float32)))
    message = str(info.value)
    assert "input.shape=[3]" in message and "other.shape=[4]" in message
    assert "return a + b" in message
    assert "\n           ^^^^^" in message            # the caret under 'a + b', not the whole statement


def test_unsupported_construct_error_points_at_user_line():
    class Bad(nn.Cell):
        def construct(self, x):
            try:
                y = x * 2.0
            except ValueError:
                y = x
            return y

    with pytest.raises(NotSupportedError) as info:
        ms.jit(Bad())(Tensor([1.0]))
    assert "'try' statement is not supported" in str(info.value)
    assert "try:" in str(info.value)


def test_a_shape_error_inside_a_library_cell_names_the_users_call():
    # d2l's NiN on too small images: the pooling error sits in SequentialCell.construct (npspore's own code),
    # so it is reported at the user's `y = net(x)`, the innermost user line, under value_and_grad too
    net = nn.SequentialCell(nn.Conv2d(1, 2, 3, pad_mode="valid"), nn.MaxPool2d(3, 2), nn.Flatten())

    def forward_fn(x):
        y = net(x)
        return y.sum()

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())
    with pytest.raises(ValueError) as info:
        grad_fn(Tensor(np.ones((1, 1, 4, 4), np.float32)))
    message = str(info.value)
    assert "the padded input [2, 2] is smaller than the kernel [3, 3]" in message
    assert "y = net(x)" in message and "container.py" not in message


def test_a_value_read_after_batchnorm_in_training_decides_the_if_as_in_mindspore():
    # MindSpore-GAN's EBGAN reads `(margin - d_loss_fake).asnumpy().item()` in a differentiated function whose
    # discriminator has BatchNorm1d in training: its running statistics are written where the read value is
    # computed, so the kernel checks the value after writing them, and writes them back when the check fails
    # (the second call takes the other branch). Values printed by MindSpore 2.10 PYNATIVE for the same program.
    net = nn.SequentialCell(nn.Dense(3, 3), nn.BatchNorm1d(3, affine=False))
    for p in net.trainable_params():
        p.set_data(Tensor(np.linspace(-1, 1, p.size).reshape(p.shape).astype(np.float32)))
    net.set_train()

    def d_forward(x):
        loss = ((net(x) - x) ** 2).mean()
        if (1.0 - loss).asnumpy().item() > 0:
            loss += 1.0 - loss
        return loss

    grad_fn = ms.value_and_grad(d_forward, None, net.trainable_params())
    loss, (d_weight, d_bias) = grad_fn(Tensor(np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 2.0]], np.float32)))
    np.testing.assert_allclose(loss.asnumpy(), 3.8333313, rtol=1e-6)
    np.testing.assert_allclose(d_weight.asnumpy()[1], [-158.1138916015625, -474.3416748046875, -158.1138916015625],
                               rtol=1e-5)
    np.testing.assert_allclose(net[1].moving_mean.asnumpy(), [-0.3125, 0.05, 0.4125], rtol=1e-6)
    np.testing.assert_allclose(net[1].moving_variance.asnumpy(), [1.603125, 0.9, 1.603125], rtol=1e-6)
    loss, (d_weight, d_bias) = grad_fn(Tensor(np.array([[0.1, 0.2, 0.3], [0.0, -0.1, 0.2]], np.float32)))
    assert loss.asnumpy() == 1.0 and not d_weight.asnumpy().any() and not d_bias.asnumpy().any()
    np.testing.assert_allclose(net[1].moving_mean.asnumpy(), [-0.4025, 0.05, 0.5025], rtol=1e-6)
    np.testing.assert_allclose(net[1].moving_variance.asnumpy(), [1.4498436, 0.81, 1.4498436], rtol=1e-6)


def test_a_numpy_function_on_a_tensor_runs_on_its_values_as_in_eager_mode():
    # MindSpore's JIT fallback (syntax level LAX): np.exp(x) runs on x's values (guarded)
    @ms.jit
    def uses_numpy(x):
        return np.exp(x)

    for value in (1.0, 2.0):
        assert uses_numpy(Tensor([value])).tolist() == np.exp(Tensor([value])).tolist()


def test_an_unknown_callable_on_a_tensor_is_rejected():
    @ms.jit
    def uses_builtin(x):
        return hash(x)

    with pytest.raises(NotSupportedError, match="use npspore.ops functions"):
        uses_builtin(Tensor([1.0]))


def test_recursion_is_rejected():
    with pytest.raises(NotSupportedError, match="recursive call"):
        ms.jit(_recursive)(Tensor([1.0]))


def _recursive(x):
    return _recursive(x)


def test_hostile_names_never_reach_generated_source():
    hostile = '"); import os; os.system("echo pwned") #'

    class Hostile(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor([2.0], ms.float32), name=hostile)

        def construct(self, x):
            return x * self.w

    net = Hostile()
    from npspore.jit import cell_kernel_source

    x = Tensor([3.0], ms.float32)
    source = cell_kernel_source(net, x)
    assert "import os" not in source and "os.system" not in source
    np.testing.assert_allclose(ms.jit(net)(x).asnumpy(), [6.0])


def test_runtime_error_in_kernel_shows_user_line():
    @ms.jit
    def index_out_of_range(x, i):
        y = x * 2.0
        return y[i]

    with pytest.raises(IndexError) as info:
        index_out_of_range(Tensor([1.0, 2.0]), 5)
    assert "index 5 is out of bounds" in str(info.value)


def test_forward_hooks_of_a_compiled_cell_run_and_can_be_removed():
    log = []

    def double_input(cell, args):
        log.append("pre")
        return (args[0] * 2.0, args[1])

    def add_one(cell, args, out):
        log.append("fwd")
        return out + 1.0

    net = catalogue.E()
    run = ms.jit(net)
    x, y = Tensor([2.0], ms.float32), Tensor([5.0], ms.float32)
    pre = net.register_forward_pre_hook(double_input)
    hook = net.register_forward_hook(add_one)
    np.testing.assert_allclose(run(x, y).asnumpy(), [2.0 * 2.0 * 3.0 + 5.0 + 1.0])
    assert log == ["pre", "fwd"]
    pre.remove()
    hook.remove()
    np.testing.assert_allclose(run(x, y).asnumpy(), [11.0])          # removal takes effect at once


def test_to_float_casts_inputs_in_compiled_code_too():
    class Inner(nn.Cell):
        def construct(self, x):
            return x * 2.0

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner().to_float(ms.float16)

        def construct(self, x):
            return self.inner(x)

    x = Tensor([1.5], ms.float32)
    eager = Outer()(x)
    compiled = ms.jit(Outer())(x)
    assert eager.dtype == compiled.dtype == ms.float16
    np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy())


def test_sub_cell_forward_hooks_are_compiled_in_and_removal_recompiles():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = catalogue.E()

        def construct(self, x, y):
            return self.inner(x, y) * 10.0

    def triple_first(cell, args):
        return (args[0] * 3.0, args[1])

    def plus_one(cell, args, out):
        return out + 1.0

    net = Outer()
    run = ms.jit(net)
    x, y = Tensor([2.0], ms.float32), Tensor([5.0], ms.float32)
    np.testing.assert_allclose(run(x, y).asnumpy(), [110.0])
    pre = net.inner.register_forward_pre_hook(triple_first)
    hook = net.inner.register_forward_hook(plus_one)
    expected = ((2.0 * 3.0) * 3.0 + 5.0 + 1.0) * 10.0
    np.testing.assert_allclose(run(x, y).asnumpy(), [expected])
    np.testing.assert_allclose(net(x, y).asnumpy(), [expected])             # eager agrees
    pre.remove()
    hook.remove()
    np.testing.assert_allclose(run(x, y).asnumpy(), [110.0])                # removal takes effect
    info = net.cache_info()
    assert (info["compiles"], info["disk_loads"]) == (2, 1)   # the hook-free kernel comes back from disk


def test_a_large_loop_output_is_released_under_the_loop_variables_name():
    # A loop output read after the loop is a large array, so codegen releases it after its last use;
    # the release must name the variable the loop left it in.
    @ms.jit
    def run(x):
        acc = x * 1.0
        for i in range(3):
            acc = acc + x
        y = acc * 2.0
        return y.sum()

    x = Tensor(np.ones((256, 256), np.float32))
    np.testing.assert_allclose(run(x).asnumpy(), 8.0 * 256 * 256)


def _shape_error_frames():
    @ms.jit
    def square(x):
        return x @ x

    try:
        square(Tensor(np.ones((2, 3), np.float32)))
    except ValueError as error:
        return [frame.filename for frame in traceback.extract_tb(error.__traceback__)]
    raise AssertionError("no error")


def test_compile_errors_leave_the_compiler_frames_out_of_the_traceback(monkeypatch):
    files = _shape_error_frames()
    # the user's call, then the one line of the front door that re-raises
    assert files[0] == __file__ and files[1:] == [os.path.join(os.path.dirname(ms.__file__), "jit.py")]
    monkeypatch.setenv("NPSPORE_FULL_TRACEBACKS", "1")
    assert any(f.endswith(os.path.join("compiler", "specialize.py")) for f in _shape_error_frames())


_FRONT_DOOR_ERRORS = """
import numpy as np
import npspore as ms
from npspore import nn, ops

class Net(nn.Cell):
    def construct(self, x):
        return ops.matmul(x, x)

def loss(x):
    return ops.matmul(x, x).sum()

x = ms.Tensor(np.ones((3, 4), np.float32))
call = {"jit": ms.jit(loss), "graph cell": Net(), "jit cell": ms.jit(Net()), "grad": ms.grad(loss),
        "model predict": ms.Model(Net()).predict}[CALL]
if CALL in ("graph cell", "model predict"):
    ms.set_context(mode=ms.GRAPH_MODE)
call(x)
"""


@pytest.mark.parametrize("mode", ["jit", "graph cell", "jit cell", "grad", "model predict"])
def test_a_compile_error_traceback_goes_from_the_users_call_to_the_error(tmp_path, mode):
    # Printed by Python itself: one line of npspore between the user's call and the located error (the
    # front door that re-raises it: its own `raise` for the cached-call doors, Model's api_boundary).
    script = tmp_path / "user_script.py"
    script.write_text(_FRONT_DOOR_ERRORS.replace("CALL", repr(mode)))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    frames = [line.split('"')[1] for line in result.stderr.splitlines() if line.startswith('  File "')]
    package = os.path.dirname(ms.__file__)
    assert frames[0] == str(script)
    door = {"jit": "jit.py", "jit cell": "jit.py", "grad": "grad.py", "graph cell": os.path.join("nn", "cell.py"),
            "model predict": os.path.join("compiler", "errors.py")}[mode]
    assert [f for f in frames[1:] if f.startswith(package)] == [os.path.join(package, door)]
    assert "shape1[-1] must be equal to shape2[-2]" in result.stderr
    located = ((11, 12, "return ops.matmul(x, x).sum()") if mode in ("jit", "grad") else (8, 16, "return ops.matmul(x, x)"))
    assert result.stderr.splitlines()[-3:-1] == [f'  File "{script}", line {located[0]}, column {located[1]}',
                                                 f"    {located[2]}"]
