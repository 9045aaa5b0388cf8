"""Recurrent layers and cells against MindSpore, compiled against eager, gradients against finite differences.

The expected values were observed on MindSpore 2.10 CPU with the same inputs and with every parameter
set, in name order, from ``np.random.default_rng(0).uniform(-0.5, 0.5, shape)`` (``layer_values.set_weights``).
"""
from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

import npspore as ms
from gradcheck import check_grads
from layer_values import output_leaves, set_weights
from npspore import Tensor, nn, ops

# Observed on MindSpore 2.10 CPU: each output leaf in order, rounded to 6 decimals.
EXPECTED = {
    'RNNCELL_TANH':
    [[[0.137285, 0.478611, -0.454024, 0.369892], [0.764265, 0.127592, -0.269308, -0.157904]]],
    'RNNCELL_RELU':
    [[[0.138158, 0.521182, 0.0, 0.388299], [1.00639, 0.128291, 0.0, 0.0]]],
    'LSTMCELL':
    [[[-0.181338, -0.03373, -0.012123, 0.332696], [0.036019, 0.054434, 0.362592, 0.247627]],
     [[-0.300874, -0.077911, -0.020237, 0.665692], [0.049633, 0.104869, 0.457839, 0.406438]]],
    'GRUCELL':
    [[[-0.515045, -0.247296, 0.532859, -0.382376], [-0.355119, 0.70175, 0.780978, 0.092146]]],
    'RNN_2L':
    [[[[0.496397, -0.180149, -0.317873, 0.252236], [0.638811, -0.17421, 0.189771, -0.083481]],
      [[0.649346, -0.443472, 0.211159, -0.311978], [0.288973, -0.300948, -0.313861, 0.015389]],
      [[0.362585, -0.273358, -0.198267, -0.147053], [0.663469, -0.49394, 0.298979, -0.389922]]],
     [[[0.537782, 0.563785, -0.653969, -0.828162], [0.318154, -0.597771, -0.48647, -0.468636]],
      [[0.362585, -0.273358, -0.198267, -0.147053], [0.663469, -0.49394, 0.298979, -0.389922]]]],
    'RNN_RELU_BI_BF':
    [[[[0.266117, 0.852041, 0.0, 0.0, 0.42529, 0.0, 0.86587, 0.0],
       [0.0, 0.0, 0.0, 0.0, 0.761247, 0.067807, 0.0, 0.0]],
      [[0.0, 0.0, 0.0, 0.0, 0.361613, 0.353005, 0.104657, 0.0],
       [0.764204, 0.608336, 0.0, 0.0, 0.57678, 0.0, 0.834086, 0.37596]],
      [[0.401128, 0.684543, 0.0, 0.0, 0.346323, 0.0, 0.813691, 0.0],
       [0.094238, 0.0, 0.104315, 0.0, 0.979516, 0.052879, 0.066786, 0.0]]],
     [[[0.0, 0.0, 0.0, 0.0], [0.764204, 0.608336, 0.0, 0.0], [0.094238, 0.0, 0.104315, 0.0]],
      [[0.42529, 0.0, 0.86587, 0.0], [0.361613, 0.353005, 0.104657, 0.0], [0.346323, 0.0, 0.813691, 0.0]]]],
    'LSTM_2L_BI_HX':
    [[[[0.014395, -0.271059, 0.14622, -0.205309, -0.086341, 0.094339, 0.088399, -0.150252],
       [0.059212, -0.214741, -0.067434, -0.244966, -0.232095, 0.090267, -0.006195, -0.065104]],
      [[-0.01637, -0.168041, 0.035214, -0.140923, 0.037621, 0.085656, 0.093363, -0.164703],
       [0.010651, -0.214869, -0.107252, -0.114861, -0.198982, 0.071319, 0.040032, -0.043842]],
      [[-0.035158, -0.128347, -0.004708, -0.101253, 0.196508, 0.042479, 0.089712, -0.195879],
       [-0.004334, -0.154695, -0.102259, -0.054288, -0.216647, 0.036245, -0.008928, 0.002735]]],
     [[[-0.129884, 0.257296, 0.170404, -0.126204], [-0.051456, 0.175409, 0.118855, -0.172075]],
      [[-0.145025, 0.315061, 0.385622, 0.435998], [-0.024608, 0.159397, 0.289771, 0.317485]],
      [[-0.035158, -0.128347, -0.004708, -0.101253], [-0.004334, -0.154695, -0.102259, -0.054288]],
      [[-0.086341, 0.094339, 0.088399, -0.150252], [-0.232095, 0.090267, -0.006195, -0.065104]]],
     [[[-0.22638, 0.600445, 0.257472, -0.367606], [-0.074857, 0.398729, 0.199808, -0.453019]],
      [[-0.254402, 0.466346, 0.677394, 1.020493], [-0.053108, 0.286054, 0.61182, 0.630743]],
      [[-0.120946, -0.182084, -0.00997, -0.243869], [-0.014117, -0.222434, -0.211129, -0.129939]],
      [[-0.187946, 0.248874, 0.167848, -0.300761], [-0.573721, 0.219354, -0.011845, -0.122572]]]],
    'LSTM_NOBIAS_BF':
    [[[[-0.024352, -0.138171, 0.229227, 0.041515], [-0.117237, 0.101062, 0.146133, 0.059829]],
      [[-0.057258, 0.13159, 0.044704, 0.078259], [0.10171, -0.028892, -0.052838, 0.004779]],
      [[0.023439, -0.105615, 0.078913, -0.015983], [-0.050082, 0.002569, -0.023645, -0.113524]]],
     [[[-0.117237, 0.101062, 0.146133, 0.059829], [0.10171, -0.028892, -0.052838, 0.004779],
       [-0.050082, 0.002569, -0.023645, -0.113524]]],
     [[[-0.232217, 0.166261, 0.349873, 0.109695], [0.209939, -0.083341, -0.095008, 0.010875],
       [-0.094731, 0.004731, -0.0546, -0.233235]]]],
    'GRU_2L_BI':
    [[[[0.298557, 0.479903, -0.493166, 0.364811, -0.398175, 0.152609, 0.198621, -0.057953],
       [-0.412444, -0.321717, 0.425869, 0.54103, -0.352598, 0.398799, 0.507152, 0.296174]],
      [[0.202067, 0.38949, -0.412972, 0.199104, -0.257791, 0.048975, 0.031418, -0.111774],
       [-0.276595, -0.159878, 0.276569, 0.372188, -0.215677, 0.383613, 0.512701, 0.133555]],
      [[0.133462, 0.303234, -0.343455, 0.141003, -0.035413, 0.029699, -0.185519, -0.322948],
       [-0.144662, -0.079744, 0.108771, 0.134089, -0.049151, 0.35774, 0.572875, -0.025459]]],
     [[[-0.063715, 0.604451, -0.056341, -0.280151], [-0.075648, 0.290949, -0.167161, -0.388968]],
      [[-0.209609, -0.498439, 0.055738, 0.359547], [-0.267018, -0.246136, 0.116242, 0.557109]],
      [[0.133462, 0.303234, -0.343455, 0.141003], [-0.144662, -0.079744, 0.108771, 0.134089]],
      [[-0.398175, 0.152609, 0.198621, -0.057953], [-0.352598, 0.398799, 0.507152, 0.296174]]]],
    'GRU_NOBIAS':
    [[[[0.191798, -0.138539, -0.078325, -0.096209], [-0.105434, -0.087388, 0.217619, -0.035116]],
      [[0.019773, -0.097241, 0.163413, -0.052042], [0.113573, 0.06281, 0.001814, -0.020135]],
      [[0.144151, -0.085417, 0.004827, -0.094532], [-0.067418, -0.048572, -0.034502, -0.047053]]],
     [[[0.144151, -0.085417, 0.004827, -0.094532], [-0.067418, -0.048572, -0.034502, -0.047053]]]],
    'LSTM_SEQLEN':
    [[[[0.015514, 0.04481, 0.196421, -0.015038], [0.056684, 0.078903, 0.106938, -0.001752],
       [-0.048683, 0.103175, 0.148801, -0.011714]],
      [[-0.113434, 0.118938, 0.37724, -0.027634], [0.221559, 0.024806, 0.118928, 0.0388],
       [-0.005924, 0.128905, 0.302212, -0.016906]],
      [[0.002195, 0.131976, 0.37588, -0.000826], [0.0, 0.0, 0.0, 0.0], [-0.120785, 0.154792, 0.351047, 0.009203]],
      [[-0.202543, 0.196145, 0.444892, 0.009207], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]],
     [[[-0.202543, 0.196145, 0.444892, 0.009207], [0.221559, 0.024806, 0.118928, 0.0388],
       [-0.120785, 0.154792, 0.351047, 0.009203]]],
     [[[-0.280735, 0.455422, 0.75861, 0.01498], [0.387008, 0.046553, 0.208473, 0.093995],
       [-0.175976, 0.336946, 0.606596, 0.016467]]]],
    'GRU_BI_SEQLEN':
    [[[[-0.037896, 0.238318, 0.187614, 0.061634, -0.277237, -0.206369, -0.409879, 0.102609],
       [-0.162388, 0.115156, -0.139751, -0.333998, -0.194585, 0.323422, -0.022292, 0.184763],
       [-0.107253, 0.192241, -0.158891, -0.398836, -0.462171, -0.038096, 0.033353, 0.371877]],
      [[0.022269, 0.498993, 0.335673, 0.103248, -0.388874, -0.332636, -0.268992, 0.288462],
       [-0.315992, 0.008238, 0.014465, -0.155441, 0.05393, 0.260702, -0.281029, -0.182883],
       [-0.123454, 0.407829, 0.028882, -0.34993, -0.283138, -0.105318, -0.207099, 0.239176]],
      [[-0.037746, 0.562358, 0.271833, -0.067437, -0.343665, -0.137491, -0.173821, 0.346345],
       [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
       [-0.158775, 0.462538, 0.164713, -0.17783, -0.265175, -0.07408, -0.049288, 0.002956]],
      [[0.028472, 0.656919, 0.38227, 0.067908, -0.364042, -0.266288, -0.026849, 0.074944],
       [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]],
     [[[0.028472, 0.656919, 0.38227, 0.067908], [-0.315992, 0.008238, 0.014465, -0.155441],
       [-0.158775, 0.462538, 0.164713, -0.17783]],
      [[-0.277237, -0.206369, -0.409879, 0.102609], [-0.194585, 0.323422, -0.022292, 0.184763],
       [-0.462171, -0.038096, 0.033353, 0.371877]]]],
    'RNN_2L_BI_SEQLEN':
    [[[[0.123094, -0.073497, 0.709487, -0.435712, 0.112533, -0.80495, 0.114961, -0.864765],
       [-0.350556, 0.187808, 0.343657, 0.211187, 0.098345, -0.645632, 0.109371, -0.828731],
       [-0.475486, 0.239719, 0.202849, 0.352331, -0.16162, -0.724725, -0.343178, -0.897922]],
      [[-0.287576, -0.063802, 0.662735, 0.131282, -0.013773, -0.812775, -0.184503, -0.865771],
       [0.038475, 0.114271, 0.758048, -0.406936, 0.259075, -0.367022, 0.760113, -0.695294],
       [0.449696, 0.096187, 0.69812, -0.157788, 0.341008, -0.707657, 0.546378, -0.76998]],
      [[0.067421, 0.161776, 0.562029, 0.132597, 0.536904, -0.708501, 0.511055, -0.762506],
       [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
       [-0.41464, -0.043254, 0.699554, 0.061039, -0.18973, -0.538553, 0.402112, -0.620195]],
      [[-0.070988, 0.064365, 0.720586, 0.076869, -0.226634, -0.566719, 0.33843, -0.556092],
       [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]],
     [[[0.208917, 0.096007, 0.11576, -0.679224], [0.858002, -0.679858, -0.393428, -0.231181],
       [0.391333, -0.156084, -0.041504, -0.68593]],
      [[-0.109757, -0.485902, 0.285175, 0.30393], [-0.251036, 0.045619, -0.288873, 0.173489],
       [-0.330031, 0.438417, -0.354472, 0.588763]],
      [[-0.070988, 0.064365, 0.720586, 0.076869], [0.038475, 0.114271, 0.758048, -0.406936],
       [-0.41464, -0.043254, 0.699554, 0.061039]],
      [[0.112533, -0.80495, 0.114961, -0.864765], [0.098345, -0.645632, 0.109371, -0.828731],
       [-0.16162, -0.724725, -0.343178, -0.897922]]]],
}

_RNG = np.random.default_rng(1)
X = _RNG.uniform(-1, 1, (3, 2, 3)).astype(np.float32)
H = _RNG.uniform(-1, 1, (2, 4)).astype(np.float32)
C = _RNG.uniform(-1, 1, (2, 4)).astype(np.float32)
H0 = _RNG.uniform(-1, 1, (4, 2, 4)).astype(np.float32)
C0 = _RNG.uniform(-1, 1, (4, 2, 4)).astype(np.float32)
X4 = np.random.default_rng(5).uniform(-1, 1, (4, 3, 3)).astype(np.float32)
LENGTHS = np.array([4, 2, 3], np.int32)

CASES = {
    "RNNCELL_TANH": (lambda: nn.RNNCell(3, 4), lambda: (Tensor(X[0]), Tensor(H))),
    "RNNCELL_RELU": (lambda: nn.RNNCell(3, 4, nonlinearity="relu"), lambda: (Tensor(X[0]), Tensor(H))),
    "LSTMCELL": (lambda: nn.LSTMCell(3, 4), lambda: (Tensor(X[0]), (Tensor(H), Tensor(C)))),
    "GRUCELL": (lambda: nn.GRUCell(3, 4), lambda: (Tensor(X[0]), Tensor(H))),
    "RNN_2L": (lambda: nn.RNN(3, 4, 2), lambda: (Tensor(X),)),
    "RNN_RELU_BI_BF": (lambda: nn.RNN(3, 4, 1, nonlinearity="relu", bidirectional=True, batch_first=True),
                       lambda: (Tensor(X),)),
    "LSTM_2L_BI_HX": (lambda: nn.LSTM(3, 4, 2, bidirectional=True), lambda: (Tensor(X), (Tensor(H0), Tensor(C0)))),
    "LSTM_NOBIAS_BF": (lambda: nn.LSTM(3, 4, 1, has_bias=False, batch_first=True), lambda: (Tensor(X),)),
    "GRU_2L_BI": (lambda: nn.GRU(3, 4, 2, bidirectional=True), lambda: (Tensor(X), Tensor(H0))),
    "GRU_NOBIAS": (lambda: nn.GRU(3, 4, 1, has_bias=False), lambda: (Tensor(X),)),
    "LSTM_SEQLEN": (lambda: nn.LSTM(3, 4, 1), lambda: (Tensor(X4), None, Tensor(LENGTHS))),
    "GRU_BI_SEQLEN": (lambda: nn.GRU(3, 4, 1, bidirectional=True), lambda: (Tensor(X4), None, Tensor(LENGTHS))),
    "RNN_2L_BI_SEQLEN": (lambda: nn.RNN(3, 4, 2, bidirectional=True),
                         lambda: (Tensor(X4), None, Tensor(LENGTHS))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outputs_match_mindspore(name):
    make, inputs = CASES[name]
    found = output_leaves(set_weights(make())(*inputs()))
    expected = EXPECTED[name]
    assert len(found) == len(expected)
    for leaf, values in zip(found, expected):
        assert leaf.dtype == np.float32
        np.testing.assert_allclose(leaf, np.array(values), atol=2e-6)


@pytest.mark.parametrize("name", ["RNNCELL_TANH", "LSTMCELL", "GRUCELL", "RNN_RELU_BI_BF", "LSTM_2L_BI_HX",
                                  "GRU_2L_BI", "GRU_BI_SEQLEN"])
def test_compiled_equals_eager(name):
    make, inputs = CASES[name]
    net = set_weights(make())
    eager = output_leaves(net(*inputs()))
    compiled = output_leaves(ms.jit(net)(*inputs()))
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_parameter_names_and_order_follow_mindspore():
    # Observed on MindSpore 2.10: all weight_ih first, then weight_hh, bias_ih, bias_hh; reverse after forward.
    net = nn.LSTM(3, 4, 2, bidirectional=True)
    names = [(name, p.shape) for name, p in net.parameters_and_names()]
    expected = []
    for kind, width in (("weight_ih", None), ("weight_hh", 4), ("bias_ih", 0), ("bias_hh", 0)):
        for layer in range(2):
            for suffix in ("", "_reverse"):
                cols = width if width is not None else (3 if layer == 0 else 8)
                expected.append((f"{kind}_l{layer}{suffix}", (16, cols) if cols else (16,)))
    assert names == expected
    assert [name for name, _ in nn.GRUCell(3, 4).parameters_and_names()] == [
        "weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    assert nn.GRU(3, 4).weight_ih_l0.shape == (12, 3)


def two_layer_lstm():
    """The Cell ``npspore show`` compiles below."""
    return nn.LSTM(3, 4, 2)


def test_recurrence_stays_a_loop_in_compiled_code(capsys):
    from npspore.cli import main
    assert main(["show", f"{__file__}:two_layer_lstm", "--input", "f32[5,2,3]", "--no-color"]) == 0
    forward = capsys.readouterr().out
    assert len(re.findall(r"for t(_\d+)? in range\(5\):", forward)) == 2
    assert main(["show", f"{__file__}:two_layer_lstm", "--input", "f32[5,2,3]", "--grad", "--weights", "all",
                 "--no-color"]) == 0
    backward = capsys.readouterr().out
    assert len(re.findall(r"for \w+ in range\(5\):", backward)) == 4


def test_an_lstm_step_activates_its_gates_with_one_sigmoid_and_adds_no_bias():
    """The cell gate is a sigmoid at double scale (``tanh(x) = 2 sigmoid(2x) - 1``), the scale and both biases
    folded into the weights and the input's contribution once, before the loop: one ``exp`` over all four
    gates and one ``tanh`` (of the cell state) per step (outputs against MindSpore: test_outputs_match_mindspore)."""
    net = nn.LSTM(3, 4, 1)
    x = Tensor(np.random.default_rng(5).standard_normal((5, 2, 3)).astype(np.float32))
    forward = ms.jit(net)
    expected = net(x)[0].asnumpy()
    np.testing.assert_allclose(forward(x)[0].asnumpy(), expected, rtol=1e-6, atol=1e-7)
    source = forward.kernel_source(x)
    lines = source[source.index("for t in range(5):"):].splitlines()
    indent = len(lines[1]) - len(lines[1].lstrip())
    loop = "\n".join(itertools.takewhile(lambda line: len(line) - len(line.lstrip()) >= indent, lines[1:]))
    assert loop.count("np.exp(") == 1 and loop.count("np.tanh(") == 1, source
    assert "bias" not in loop, loop


def test_a_gru_step_takes_one_sigmoid_for_its_reset_and_update_gates():
    net = nn.GRU(3, 4, 1)
    x = Tensor(np.random.default_rng(6).standard_normal((5, 2, 3)).astype(np.float32))
    forward = ms.jit(net)
    np.testing.assert_allclose(forward(x)[0].asnumpy(), net(x)[0].asnumpy(), rtol=1e-6, atol=1e-7)
    source = forward.kernel_source(x)
    assert source.count("np.exp(") == 1 and source.count("np.tanh(") == 1, source


class _LastStepLoss(nn.Cell):
    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def construct(self, x):
        out, _ = self.rnn(x)
        return (out[-1] * out[-1]).sum()


def test_a_compiled_training_step_runs_each_recurrence_once_and_updates_as_eager_mode():
    def build():
        ms.set_seed(3)
        loss = _LastStepLoss(nn.LSTM(3, 4, 2))
        return loss, nn.TrainOneStepCell(loss, nn.SGD(loss.trainable_params(), 0.1))

    x = Tensor(np.random.default_rng(4).standard_normal((5, 2, 3)).astype(np.float32))
    (eager_loss, eager_step), (compiled_loss, compiled_step) = build(), build()
    expected = [float(eager_step(x)) for _ in range(3)]
    step = ms.jit(compiled_step)
    found = [float(step(x)) for _ in range(3)]
    np.testing.assert_allclose(found, expected, rtol=1e-6)
    for (name, a), (_, b) in zip(eager_loss.parameters_and_names(), compiled_loss.parameters_and_names()):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-5, atol=1e-7, err_msg=name)
    # two layers: two forward loops (their tapes handed to the backward) and two backward loops,
    # no forward run again inside the backward
    source = step.kernel_source(x)
    assert len(re.findall(r"for \w+ in range\(5\):", source)) == 4, source


class _SecondOrderInside(nn.Cell):
    """``grad(grad(loss))`` and a gradient of a function that calls a gradient, staged into compiled
    code: the inner gradients are differentiated again there, so their loops keep their own tapes."""

    def __init__(self):
        super().__init__()
        self.loss = _LastStepLoss(nn.RNN(3, 4, 1))
        self.twice = ms.grad(ms.grad(self.loss))
        self.first = ms.grad(self.loss)
        self.outer = ms.grad(self.weighted_first)

    def weighted_first(self, x):
        return (self.first(x) * x).sum()

    def construct(self, x):
        return self.twice(x), self.outer(x)


def test_gradients_differentiated_again_inside_compiled_code_match_their_uncompiled_calls():
    ms.set_seed(5)
    cell = _SecondOrderInside()
    x = Tensor(np.random.default_rng(6).standard_normal((5, 2, 3)).astype(np.float32))
    expected = (cell.twice(x).asnumpy(), cell.outer(x).asnumpy())
    found = ms.jit(cell)(x)
    for a, b in zip(found, expected):
        np.testing.assert_allclose(a.asnumpy(), b, rtol=1e-5, atol=1e-6)


def _float64_vjp(net, params):
    """``vjp`` for :func:`check_grads` of ``(x, *param_values) -> output leaves``: compiled gradients."""
    grad_fn = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)(net, params)

    def make(fn):
        def vjp(args, dout):
            for p, value in zip(params, args[1:]):
                p.set_data(Tensor(value))
            douts = iter(dout if isinstance(dout, tuple) else (dout,))
            sens = _like(net(Tensor(args[0])), douts)
            input_grads, param_grads = grad_fn(Tensor(args[0]), sens)
            return (input_grads[0].asnumpy(),) + tuple(g.asnumpy() for g in param_grads)
        return vjp
    return make


def _like(value, leaves):
    if isinstance(value, tuple):
        return tuple(_like(v, leaves) for v in value)
    return Tensor(next(leaves))


@pytest.mark.parametrize("make, x_shape", [
    (lambda: nn.LSTM(3, 4, 2, bidirectional=True, dtype=ms.float64), (3, 2, 3)),
    (lambda: nn.GRU(3, 4, 1, batch_first=True, dtype=ms.float64), (2, 3, 3)),
    (lambda: nn.RNN(3, 4, 1, has_bias=False, dtype=ms.float64), (3, 2, 3)),
    (lambda: nn.LSTMCell(3, 4, dtype=ms.float64), (2, 3)),
    (lambda: nn.GRUCell(3, 4, dtype=ms.float64), (2, 3)),
    (lambda: _WithLengths(nn.LSTM(3, 4, 1, bidirectional=True, dtype=ms.float64)), (4, 3, 3)),
], ids=["lstm_2l_bi", "gru_batch_first", "rnn_no_bias", "lstm_cell", "gru_cell", "lstm_bi_seq_length"])
def test_gradients_match_finite_differences(make, x_shape):
    net = set_weights(make(), np.float64)
    if isinstance(net, (nn.LSTMCell, nn.GRUCell)):
        h = Tensor(H.astype(np.float64))
        state = (h, Tensor(C.astype(np.float64))) if isinstance(net, nn.LSTMCell) else h
        cell = net
        net = _WithState(cell, state)
    params = net.trainable_params()

    def fn(x, *values):
        for p, value in zip(params, values):
            p.set_data(Tensor(value))
        leaves = output_leaves(net(Tensor(x)))
        return tuple(leaves) if len(leaves) > 1 else leaves[0]

    x = np.random.default_rng(2).uniform(-1, 1, x_shape)
    check_grads(fn, (x, *(p.asnumpy() for p in params)), _float64_vjp(net, params))


class _WithLengths(nn.Cell):
    """A recurrent layer applied to its input with the fixed sequence lengths LENGTHS."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn
        self.lengths = Tensor(LENGTHS)

    def construct(self, x):
        return self.rnn(x, None, self.lengths)


class _WithState(nn.Cell):
    """A cell applied to its input and a fixed state."""

    def __init__(self, cell, state):
        super().__init__()
        self.cell = cell
        self.state = state

    def construct(self, x):
        return self.cell(x, self.state)


def test_bad_arguments_raise_like_mindspore():
    # Messages observed on MindSpore 2.10.
    with pytest.raises(TypeError, match="For 'LSTM', the type of 'dropout' must be float, but got int."):
        nn.LSTM(3, 4, dropout=1)
    with pytest.raises(ValueError, match="hidden_size"):
        nn.LSTM(3, 0)
    with pytest.raises(ValueError, match=r"For 'RNN', the 'nonlinearity' must be in \['tanh', 'relu'\], but got "
                                         "sigmoid."):
        nn.RNN(3, 4, nonlinearity="sigmoid")
    with pytest.raises(TypeError, match="'x' must be float16, float32 or float64"):
        nn.LSTM(3, 4)(Tensor(np.zeros((2, 2, 3), np.int32)))
    with pytest.raises(TypeError, match="'hx' must be a tuple"):
        nn.LSTMCell(3, 4)(Tensor(X[0]), Tensor(H))
    with pytest.raises(ValueError, match="3-D"):
        nn.GRU(3, 4)(Tensor(X[0]))
    with pytest.raises(ValueError, match="'seq_length' must have shape"):
        nn.GRU(3, 4)(Tensor(X4), None, Tensor(LENGTHS[:2]))
    with pytest.raises(TypeError, match="'seq_length' must be int32 or int64"):
        nn.GRU(3, 4)(Tensor(X4), None, Tensor(LENGTHS.astype(np.float32)))


def test_dropout_between_layers_only_in_training():
    net = set_weights(nn.LSTM(3, 4, 2, dropout=0.5))
    x = Tensor(X)
    evaluated = net(x)[0].asnumpy()
    np.testing.assert_array_equal(ms.jit(net)(x)[0].asnumpy(), evaluated)
    net.set_train()
    ms.set_seed(3)
    trained = net(x)[0].asnumpy()
    assert trained.shape == evaluated.shape and not np.allclose(trained, evaluated)
    grads = ms.grad(net, None, net.trainable_params())(x)
    assert len(grads) == 8 and all(np.isfinite(g.asnumpy()).all() for g in grads)
