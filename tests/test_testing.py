"""npspore.testing: check_grads, assert_kernels_equal, tolerances per dtype, and the pytest plugin."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.examples import MLPWithLoss, Recurrent, elementwise
from npspore.testing import Tolerance, assert_kernels_equal, check_grads, tolerance_for

from cli_programs import ConvNet, conv_forward_fn, conv_net


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def blocked(x):
    return ops.stop_gradient(x) * x  # ms.grad gives x; the true derivative is 2x


class Dropping(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.dropout(x)


class HalfBlocked(nn.Cell):
    """``w * stop_gradient(w) * x``: ms.grad gives ``w * x`` for w; the true derivative is ``2 w x``."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full(3, 1.5, np.float32)), name="w")

    def construct(self, x):
        return self.w * ops.stop_gradient(self.w) * x


scale = Parameter(Tensor(np.array([0.5, -1.0, 2.0], np.float32)), name="scale")


def scaled_sum(x):
    return ops.sum(scale * scale * scale * x)


def _values(cell):
    return {param.name: (param.dtype, param.asnumpy().copy()) for param in cell.get_parameters()}


def test_tolerance_follows_the_least_precise_dtype_on_the_path():
    assert tolerance_for([np.float64]) == Tolerance(eps=1e-6, rtol=1e-5, atol=1e-6)
    assert tolerance_for([np.float64, np.float32, np.int64]) == Tolerance(eps=1e-3, rtol=1e-2, atol=1e-3)
    assert tolerance_for([np.int32]) == tolerance_for([np.float64])


def test_check_grads_first_and_second_order():
    check_grads(elementwise, (rand(3), rand(3, seed=1), rand(3, seed=2)), order=2)
    check_grads(Recurrent(), (rand(2, 3),), order=1, modes=("graph",))


def test_check_grads_of_a_cell_with_a_float32_loss():
    # MSELoss reduces in float32 even for float64 inputs: float64's eps=1e-6 would see its rounding noise.
    check_grads(MLPWithLoss(), (rand(5, 4), np.zeros((5, 3), np.float32)), order=1)


def test_check_grads_finds_a_wrong_gradient():
    with pytest.raises(AssertionError, match=r"order 1, mode 'pynative'\): wrong derivative for argument 0"):
        check_grads(blocked, (rand(3) + 2.0,), order=1)


@pytest.mark.parametrize("kwargs, message", [
    ({"order": 0}, "'order' must be a positive int"),
    ({"modes": ("fwd",)}, "'modes' must be some of"),
])
def test_check_grads_rejects_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        check_grads(elementwise, (rand(2), rand(2), rand(2)), **kwargs)


def test_check_grads_of_a_float32_model_runs_it_in_float64_and_restores_it():
    net = ConvNet()
    before = _values(net)
    check_grads(net, (rand(2, 1, 6, 6),), order=1)
    after = _values(net)
    assert after.keys() == before.keys() and all(after[k][0] == ms.float32 for k in after)
    assert all(np.array_equal(after[k][1], before[k][1]) for k in after)


def test_check_grads_checks_parameter_gradients():
    net = ConvNet()
    check_grads(net, (rand(2, 1, 6, 6),), order=2, weights=net.trainable_params())
    check_grads(net, (rand(2, 1, 6, 6),), order=1, weights=net.fc.weight)
    check_grads(conv_forward_fn, (rand(2, 1, 6, 6),), order=1, weights=conv_net.trainable_params())
    assert all(param.dtype == ms.float32 for param in conv_net.get_parameters())


def test_check_grads_finds_a_wrong_parameter_gradient():
    net = HalfBlocked()
    with pytest.raises(AssertionError, match=r"order 1, mode 'pynative'\): wrong derivative for Parameter 'w'"):
        check_grads(net, (rand(3),), order=1, weights=[net.w])
    assert net.w.dtype == ms.float32 and np.array_equal(net.w.asnumpy(), np.full(3, 1.5, np.float32))


def test_check_grads_of_weights_alone():
    check_grads(scaled_sum, (np.arange(3),), order=2, weights=[scale])   # integer input: the weight only
    with pytest.raises(ValueError, match="no floating Tensor or array among 'args' and no 'weights'"):
        check_grads(scaled_sum, (np.arange(3),))


@pytest.mark.parametrize("weights, error, message", [
    ([np.ones(3)], TypeError, "'weights' must be Parameters, got ndarray"),
    ([Parameter(Tensor(np.arange(3, dtype=np.int32)), name="count")], ValueError,
     "weight 'count' is Int32, not floating: it has no gradient"),
])
def test_check_grads_rejects_bad_weights(weights, error, message):
    with pytest.raises(error, match=message):
        check_grads(ConvNet(), (rand(2, 1, 6, 6),), weights=weights)


def test_check_grads_needs_a_floating_argument():
    with pytest.raises(ValueError, match="no floating Tensor"):
        check_grads(blocked, (np.arange(3),))


def test_assert_kernels_equal():
    assert_kernels_equal(Recurrent(), Tensor(rand(2, 3)))
    net = Dropping()
    net.set_train()
    net(Tensor(np.ones((4, 64), np.float32)))   # the eager engine moves on; the compiled kernel starts its own
    with pytest.raises(AssertionError, match="output: eager gives"):
        assert_kernels_equal(net, Tensor(np.ones((4, 64), np.float32)))


PLUGIN_TESTS = textwrap.dedent('''
    import os
    import numpy as np
    import npspore as ms
    from npspore import nn

    def test_cache_dir(npspore_cache_dir):
        assert os.environ["NPSPORE_CACHE_DIR"] == str(npspore_cache_dir)
        ms.jit(lambda_free)(ms.Tensor(np.ones(2, np.float32)))
        assert any(npspore_cache_dir.rglob("*.py"))

    def lambda_free(x):
        return x * 2.0

    def test_seed(npspore_seed):
        first = nn.Dense(2, 2).weight.asnumpy().copy()
        ms.set_seed(npspore_seed)
        assert npspore_seed == 7
        np.testing.assert_array_equal(nn.Dense(2, 2).weight.asnumpy(), first)
''')


def test_pytest_plugin_fixtures(tmp_path):
    (tmp_path / "test_user.py").write_text(PLUGIN_TESTS)
    environment = {k: v for k, v in os.environ.items() if k != "NPSPORE_CACHE_DIR"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--npspore-seed", "7",
                          str(tmp_path / "test_user.py")], capture_output=True, text=True, cwd=tmp_path,
                         env=environment)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_a_failing_check_grads_shows_the_users_line_not_its_own_body(tmp_path):
    (tmp_path / "test_user_grads.py").write_text(textwrap.dedent("""\
        import numpy as np
        from npspore import ops
        from npspore.testing import check_grads


        def blocked(x):
            return ops.stop_gradient(x) * x


        def test_blocked():
            check_grads(blocked, (np.full(3, 2.0, np.float32),), order=1)
        """))
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "test_user_grads.py")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "check_grads(blocked, (np.full(3, 2.0, np.float32),), order=1)" in run.stdout
    assert "wrong derivative for argument 0" in run.stdout
    assert "gradcheck.py" not in run.stdout and "def check_grads" not in run.stdout
