"""Parameter updates in compiled code: a new value is computed in the Parameter's own array when
nothing else reads the old one (``optimize``'s ``assign_in_place``), and common subexpressions over
arrays no assignment changes stay shared across an update (an optimizer's ``momentum > 0`` and
``1 - beta1`` once per step, not once per Parameter); values read before and after an update keep
what eager mode gives them."""
import re

import numpy as np

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from training_programs import X, Y, TwoLayer


def _train(optimizer_class, compiled, steps=3, **options):
    net = TwoLayer()
    loss = nn.WithLossCell(net, nn.MSELoss())
    step = nn.TrainOneStepCell(loss, optimizer_class(net.trainable_params(), **options))
    run = ms.jit(step) if compiled else step
    losses = [float(run(Tensor(X), Tensor(Y))) for _ in range(steps)]
    return losses, [p.asnumpy().copy() for _, p in step.parameters_and_names()], step


def test_adam_updates_moments_and_weights_in_their_own_arrays_as_eager_mode_does():
    eager, eager_params, _ = _train(nn.Adam, False, learning_rate=0.01)
    compiled, compiled_params, step = _train(nn.Adam, True, learning_rate=0.01)
    np.testing.assert_allclose(compiled, eager, rtol=1e-6)
    for a, b in zip(eager_params, compiled_params):
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7)
    source = ms.jit(step).kernel_source(Tensor(X), Tensor(Y))
    update = source[source.index("def Adam_construct("):]
    for weight in ("fc1_weight", "fc2_bias"):
        assert re.search(rf"\n +moment1_{weight} \+= \w+ ", update) and re.search(rf"\n +moment2_{weight} \+= ", update)
        assert re.search(rf"\n +{weight} -= \w+ ", update), update
    assert "np.copyto(moment" not in update and "np.copyto(fc" not in update
    # the step size and 1 - beta1, 1 - beta2 are computed once for all Parameters
    # (NumPy 1.26 promotes a Python scalar by value: codegen writes the float32 cast there)
    assert len(re.findall(r"= (np\.float32\()?1 - beta1\b", update)) == 1
    assert len(re.findall(r"= np\.sqrt\(\w+\)", update)) <= 5


def test_sgd_tests_momentum_once_per_step():
    eager, eager_params, _ = _train(nn.SGD, False, learning_rate=0.1, momentum=0.9)
    compiled, compiled_params, step = _train(nn.SGD, True, learning_rate=0.1, momentum=0.9)
    np.testing.assert_allclose(compiled, eager, rtol=1e-6)
    for a, b in zip(eager_params, compiled_params):
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7)
    source = ms.jit(step).kernel_source(Tensor(X), Tensor(Y))
    assert source.count("momentum > 0") == 1, source


class UpdateBetweenReads(nn.Cell):
    """Reads ``p`` after computing its new value, and reads it again after the update."""

    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="p")

    def construct(self, x):
        doubled = self.p * 2
        shifted = self.p + x           # the old p, read after its new value was computed
        ops.assign(self.p, doubled)
        again = self.p * 2             # the new p: not the doubled old one
        return shifted, again


def test_a_parameter_read_between_its_new_value_and_the_update_keeps_its_old_value_there():
    x = Tensor(np.ones((2, 3), np.float32))
    eager_cell, compiled_cell = UpdateBetweenReads(), UpdateBetweenReads()
    expected = [tuple(v.asnumpy() for v in eager_cell(x)) for _ in range(2)]
    compiled = ms.jit(compiled_cell)
    found = [tuple(v.asnumpy() for v in compiled(x)) for _ in range(2)]
    for (shifted, again), (want_shifted, want_again) in zip(found, expected):
        np.testing.assert_array_equal(shifted, want_shifted)
        np.testing.assert_array_equal(again, want_again)
    np.testing.assert_array_equal(compiled_cell.p.asnumpy(), eager_cell.p.asnumpy())
    np.testing.assert_array_equal(expected[1][1], np.arange(6, dtype=np.float32).reshape(2, 3) * 8)


class SameShapes(nn.Cell):
    """Three layers whose weights (and so their moments and temporaries) have one shape."""

    def __init__(self):
        super().__init__()
        self.layers = nn.SequentialCell([nn.Dense(3, 3), nn.ReLU(), nn.Dense(3, 3), nn.ReLU(), nn.Dense(3, 3)])

    def construct(self, x):
        return self.layers(x)


def test_a_temporary_computed_in_a_parameter_is_never_lent_to_another_value():
    x = Tensor(np.random.default_rng(9).standard_normal((4, 3)).astype(np.float32))
    y = Tensor(np.random.default_rng(10).standard_normal((4, 3)).astype(np.float32))
    results = []
    for compiled in (False, True):
        ms.set_seed(11)
        net = nn.WithLossCell(SameShapes(), nn.MSELoss())
        for optimizer in (nn.Momentum(net.trainable_params(), 0.1, 0.9), nn.Adam(net.trainable_params(), 0.01)):
            step = nn.TrainOneStepCell(net, optimizer)
            run = ms.jit(step) if compiled else step
            results.append([float(run(x, y)) for _ in range(3)] + [p.asnumpy().copy() for p in net.get_parameters()])
    for eager, compiled in zip(results[:2], results[2:]):
        for a, b in zip(eager, compiled):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-7)


def test_the_large_temporaries_of_an_update_in_place_are_released_after_their_last_use():
    net = nn.WithLossCell(nn.Dense(256, 300), nn.MSELoss())
    step = ms.jit(nn.TrainOneStepCell(net, nn.Adam(net.trainable_params(), 0.01)))
    x, y = Tensor(np.ones((2, 256), np.float32)), Tensor(np.ones((2, 300), np.float32))
    update = step.kernel_source(x, y)
    update = update[update.index("def Adam_construct("):update.index("def TrainOneStepCell_construct(")]
    # the weight's update is split into row blocks (core/split_rows.py): its buffers go right after that call
    region = re.search(r"rt\.split_rows\(  #[^\n]*\n +Adam_update_weight, \(([^)]*)\),[^\n]*\n[^\n]*\n +del ([\w, ]+)\n",
                       update)
    assert region and set(region.group(2).split(", ")) <= set(region.group(1).split(", ")), update
    # the moments' increments share the update's buffer (compiler/workspace.py), the denominator has its own:
    # both go after their last use; the Parameters themselves are never deleted
    assert len(region.group(2).split(", ")) >= 2
    assert not re.search(r"del (weight|bias|moment[12]_weight|moment[12]_bias)\n", update), update


class AssignsItsInput(nn.Cell):
    """Doubles ``x`` before and after updating ``p``; called with ``p`` itself as ``x``."""

    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="p")

    def construct(self, x):
        before = x * 2
        ops.assign(self.p, self.p + 1)
        after = x * 2
        return before, after


def test_an_input_that_is_the_updated_parameter_is_read_again_after_the_update():
    eager_cell, compiled_cell = AssignsItsInput(), AssignsItsInput()
    expected = [v.asnumpy() for v in eager_cell(eager_cell.p)]
    found = [v.asnumpy() for v in ms.jit(compiled_cell)(compiled_cell.p)]
    np.testing.assert_array_equal(expected[1], np.full((2, 2), 4, np.float32))
    for a, b in zip(found, expected):
        np.testing.assert_array_equal(a, b)


class ReadsItsInputBeforeTheUpdate(nn.Cell):
    """Reads ``x`` between computing ``p``'s new value and assigning it; called with ``p`` as ``x``."""

    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="p")

    def construct(self, x):
        new = self.p + 1
        doubled = x * 2
        ops.assign(self.p, new)
        return doubled


def test_an_input_that_is_the_parameter_sees_it_updated_only_at_the_assignment():
    eager_cell, compiled_cell = ReadsItsInputBeforeTheUpdate(), ReadsItsInputBeforeTheUpdate()
    expected = eager_cell(eager_cell.p).asnumpy()
    found = ms.jit(compiled_cell)(compiled_cell.p).asnumpy()
    np.testing.assert_array_equal(expected, np.full((2, 2), 2, np.float32))
    np.testing.assert_array_equal(found, expected)
    np.testing.assert_array_equal(compiled_cell.p.asnumpy(), eager_cell.p.asnumpy())
