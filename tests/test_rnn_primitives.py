"""``ops.DynamicRNN`` and ``ops.DynamicGRUV2``: MindSpore 2.10 runs them on Ascend only, so their values are
its CPU ``nn.LSTM``/``nn.GRU`` outputs for the same weights, rearranged as those layers rearrange them when they
call the primitives on Ascend (``tools/observe_mindspore_rnn_primitives.py``); the docstring examples' shapes;
the gradients against central differences, to second order.
"""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.testing import check_grads

_spec = importlib.util.spec_from_file_location(
    "observe_mindspore_rnn_primitives", Path(__file__).parent.parent / "tools" / "observe_mindspore_rnn_primitives.py")
observe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(observe)

# MindSpore 2.10 CPU nn.LSTM / nn.GRU, tools/observe_mindspore_rnn_primitives.py
LSTM_OUTPUT = [[[-0.028319, -0.189946], [-0.323959, -0.261028]], [[-0.071674, -0.298995], [-0.322818, -0.264336]],
               [[-0.011309, -0.333026], [-0.554877, -0.287818]]]
LSTM_C_N = [[-0.02015, -1.1245], [-1.139361, -1.415268]]
GRU_OUTPUT = [[[0.692163, 0.177211], [-0.252026, -0.281982]], [[0.520182, 0.169872], [0.00672, 0.004472]],
              [[0.518286, 0.178771], [-0.06643, 0.128647]]]


def _lstm_inputs(dtype=np.float32):
    """DynamicRNN's inputs for nn.LSTM's weights: gate blocks i, f, g, o become i, g, f, o (nn.LSTM on Ascend)."""
    x, w_ih, w_hh, b_ih, b_hh, h0, c0 = (a.astype(dtype) for a in observe.arrays(4))
    order = lambda w: np.concatenate([np.split(w, 4)[k] for k in (0, 2, 1, 3)])  # noqa: E731
    w = np.concatenate([order(w_ih), order(w_hh)], axis=1).T
    return [Tensor(a) for a in (x, w, order(b_ih) + order(b_hh), h0, c0)]


def _gru_inputs(dtype=np.float32):
    x, w_ih, w_hh, b_ih, b_hh, h0, _ = (a.astype(dtype) for a in observe.arrays(3))
    return [Tensor(a) for a in (x, w_ih.T, w_hh.T, b_ih, b_hh, h0[0])]


def test_dynamic_rnn_is_mindspores_lstm():
    x, w, b, h0, c0 = _lstm_inputs()
    y, output_h, output_c, i, j, f, o, tanh_c = ops.DynamicRNN()(x, w, b, None, h0, c0)
    np.testing.assert_allclose(y.asnumpy(), LSTM_OUTPUT, atol=2e-6)
    np.testing.assert_allclose(output_h.asnumpy(), LSTM_OUTPUT, atol=2e-6)
    np.testing.assert_allclose(output_c.asnumpy()[-1], LSTM_C_N, atol=2e-6)
    np.testing.assert_allclose(tanh_c.asnumpy(), np.tanh(output_c.asnumpy()), atol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), (o * tanh_c).asnumpy(), atol=1e-6)
    compiled = ms.jit(lambda *a: ops.DynamicRNN()(a[0], a[1], a[2], None, a[3], a[4])[0])
    np.testing.assert_allclose(compiled(x, w, b, h0, c0).asnumpy(), LSTM_OUTPUT, atol=2e-6)


def test_dynamic_gru_v2_is_mindspores_gru():
    x, w_i, w_h, b_i, b_h, h0 = _gru_inputs()
    y, output_h, update, reset, new, hidden_new = ops.DynamicGRUV2()(x, w_i, w_h, b_i, b_h, None, h0)
    np.testing.assert_allclose(y.asnumpy(), GRU_OUTPUT, atol=2e-6)
    np.testing.assert_allclose(output_h.asnumpy(), GRU_OUTPUT, atol=2e-6)
    swap = lambda a: np.concatenate([np.split(a.asnumpy(), 3, -1)[k] for k in (1, 0, 2)], -1)  # noqa: E731
    zrh = ops.DynamicGRUV2(gate_order="zrh")(x, Tensor(swap(w_i)), Tensor(swap(w_h)), Tensor(swap(b_i)),
                                            Tensor(swap(b_h)), None, h0)
    np.testing.assert_allclose(zrh[0].asnumpy(), GRU_OUTPUT, atol=2e-6)


def test_docstring_shapes():
    rng = np.random.RandomState(0)
    half = lambda *shape: Tensor(rng.rand(*shape).astype(np.float16))  # noqa: E731
    output = ops.DynamicRNN()(half(2, 16, 64), half(96, 128), half(128), None, half(1, 16, 32), half(1, 16, 32))
    assert output[0].shape == (2, 16, 32) and len(output) == 8
    output = ops.DynamicGRUV2()(half(2, 8, 64), half(64, 48), half(16, 48), half(48), half(48), None, half(8, 16))
    assert output[0].shape == (2, 8, 16) and len(output) == 6
    assert repr(ops.DynamicGRUV2()) == (
        "Prim[DynamicGRUV2]<direction=UNIDIRECTIONAL, cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0, "
        "time_major=True, activation=tanh, gate_order=rzh, reset_after=True, is_training=True>")


def _lstm_loss(x, w, b, h0, c0):
    outputs = ops.DynamicRNN(forget_bias=0.5)(x, w, b, None, h0, c0)
    return (outputs[0] * outputs[0]).sum() + outputs[2].sum()


def _gru_loss(x, w_i, w_h, b_i, b_h, h0):
    y = ops.DynamicGRUV2(reset_after=False)(x, w_i, w_h, b_i, b_h, None, h0)[0]
    return (y * y).sum()


def test_gradients_against_central_differences():
    check_grads(_lstm_loss, _lstm_inputs(np.float64), order=2, modes=("pynative",))
    check_grads(_gru_loss, _gru_inputs(np.float64), order=2, modes=("pynative",))


def test_errors_as_mindspore():
    with pytest.raises(TypeError, match="For 'DynamicRNN', the type of 'forget_bias' should be 'float', but got "
                                        "type 'int'."):
        ops.DynamicRNN(forget_bias=1)
    with pytest.raises(ValueError, match=r"For 'DynamicRNN', the 'cell_type' must be str and must be in "
                                         r"'\['LSTM'\]', but got 'GRU'."):
        ops.DynamicRNN(cell_type="GRU")
    with pytest.raises(ValueError, match="the 'time_major' should be = the supported value: True, but got False."):
        ops.DynamicRNN(time_major=False)
    with pytest.raises(ValueError, match=r"The 'keep_prob' must be in range of \[0.0, 1.0\], but got 2.0"):
        ops.DynamicRNN(keep_prob=2.0)
    with pytest.raises(ValueError, match=r"'gate_order' must be str and must be in '\['zrh', 'rzh'\]', but got 'hzr'"):
        ops.DynamicGRUV2(gate_order="hzr")
    x, w, b, h0, c0 = _lstm_inputs()
    with pytest.raises(ValueError, match="only None is supported for 'seq_length'"):
        ops.DynamicRNN()(x, w, b, Tensor(np.array([3, 3], np.int32)), h0, c0)
    with pytest.raises(ValueError, match="For 'DynamicRNN', expected x"):
        ops.DynamicRNN()(x, w[1:], b, None, h0, c0)
