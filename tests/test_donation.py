"""Donated arguments (compiler/donation.py): a function computes in the buffer of a parameter that every caller
hands over at its last use (a gradient handed to the optimizer), and never in one a caller still reads."""
import numpy as np
from test_workspace import MLP, _batch

import npspore as ms
from npspore import Tensor, nn, ops

X, LABELS = _batch(3)


class StepReadingAGradientAfterTheUpdate(nn.Cell):
    """The loss and the sum of fc1.weight's gradient, read after the optimizer has run."""

    def __init__(self, network, optimizer):
        super().__init__()
        self.network, self.optimizer, self.weights = network, optimizer, optimizer.parameters

    def construct(self, x, labels):
        loss, grads = ops.value_and_grad(self.network, None, self.weights)(x, labels)
        self.optimizer(grads)
        return loss, grads[0].sum()


def _with_loss():
    net = MLP()
    return nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")), net


def _adam_step(**options):
    network, net = _with_loss()
    return nn.TrainOneStepCell(network, nn.Adam(net.trainable_params(), 0.01), **options)


def _optimizer_source(step) -> str:
    source = step.kernel_source(Tensor(X), Tensor(LABELS))
    return source[source.index("def Adam_construct("):]


def _run(step, count=3):
    return [step(Tensor(X), Tensor(LABELS)) for _ in range(count)]


def test_the_optimizer_computes_in_the_gradients_it_is_handed():
    trained, eager = _adam_step(), _adam_step()
    compiled = ms.jit(trained)
    update = _optimizer_source(compiled)
    # the gradient of fc1.weight (48, 40) dies in the update: g * g - v and lr * m are computed in it
    assert "gradients_0 *= gradients_0" in update
    assert "np.multiply(lr_t, moment1_fc1_weight, out=gradients_0)" in update
    for got, expected in zip(_run(compiled), _run(eager)):
        assert float(got) == float(expected)
    for (name, a), (_, b) in zip(trained.parameters_and_names(), eager.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=name)


def test_gradients_returned_after_the_update_keep_their_values():
    compiled, eager = ms.jit(_adam_step(return_grad=True)), _adam_step(return_grad=True)
    assert "out=gradients_0" not in _optimizer_source(compiled)
    for (_, got), (_, expected) in zip(_run(compiled), _run(eager)):
        for name in expected:
            np.testing.assert_array_equal(got[name].asnumpy(), expected[name].asnumpy(), err_msg=name)


def test_a_gradient_read_after_the_update_keeps_its_value():
    def make():
        network, net = _with_loss()
        return StepReadingAGradientAfterTheUpdate(network, nn.Adam(net.trainable_params(), 0.01))

    compiled, eager = ms.jit(make()), make()
    assert "gradients_0 *=" not in _optimizer_source(compiled)
    for (loss, total), (expected_loss, expected_total) in zip(_run(compiled), _run(eager)):
        assert float(loss) == float(expected_loss)
        np.testing.assert_allclose(float(total), float(expected_total), rtol=1e-6)


def test_a_function_computes_in_the_results_its_callees_hand_over():
    # Dense's result (fc1) and its backward's input gradient (d_relu) are made by the callee for this caller
    # alone: ReLU and its mask are applied in them, as `np.maximum(z, 0, out=z)` and `d *= mask` by hand
    trained, eager = _adam_step(), _adam_step()
    compiled = ms.jit(trained)
    source = compiled.kernel_source(Tensor(X), Tensor(LABELS))
    forward = source[source.index("def MLP_construct_fwd("):source.index("def MLP_construct_bwd(")]
    backward = source[source.index("def MLP_construct_bwd("):]
    assert "np.maximum(fc1, 0, out=fc1)" in forward
    assert "d_relu *= t" in backward[:backward.index("\n\n")]
    for got, expected in zip(_run(compiled), _run(eager)):
        assert float(got) == float(expected)
    for (name, a), (_, b) in zip(trained.parameters_and_names(), eager.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=name)


class TokenMLP(nn.Cell):
    """Dense, ReLU, Dense on (seq, batch, features) inputs: each Dense reshapes its result back to 3-D."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.relu = nn.Dense(8, 16), nn.Dense(16, 4), nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def test_a_result_reshaped_by_its_callee_is_still_handed_over():
    # a Dense layer's result of 3-D inputs is its product reshaped back (a view of the product's whole buffer,
    # which nothing else reads): ReLU and its mask are applied in it as in a 2-D one (issue 27's T3)
    def make():
        ms.set_seed(1)
        net = TokenMLP()
        return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Adam(net.trainable_params(), 0.01))

    x = Tensor(np.random.default_rng(2).standard_normal((5, 3, 8)).astype(np.float32))
    target = Tensor(np.random.default_rng(3).standard_normal((5, 3, 4)).astype(np.float32))
    trained, eager = make(), make()
    compiled = ms.jit(trained)
    source = compiled.kernel_source(x, target)
    forward = source[source.index("def TokenMLP_construct_fwd("):source.index("def TokenMLP_construct_bwd(")]
    backward = source[source.index("def TokenMLP_construct_bwd("):]
    assert "np.maximum(fc1, 0, out=fc1)" in forward
    assert "d_relu *= relu_fc1 > 0" in backward[:backward.index("\n\n")]
    for _ in range(3):
        assert float(compiled(x, target)) == float(eager(x, target))
    for (name, a), (_, b) in zip(trained.parameters_and_names(), eager.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=name)
