"""Print MindSpore 2.10's CPU ``nn.LSTM`` and ``nn.GRU`` outputs for the weights tests/test_rnn_primitives.py gives
``DynamicRNN`` and ``DynamicGRUV2`` (which MindSpore runs on Ascend only: its ``nn.LSTM``/``nn.GRU`` call them
there with these weights rearranged, ``nn/layer/rnns.py``, so the layers' CPU outputs are the primitives' values).

Run with the MindSpore virtualenv (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_rnn_primitives.py``.
"""
import numpy as np

STEPS, BATCH, INPUT, HIDDEN = 3, 2, 3, 2


def arrays(gates):
    """``x (STEPS, BATCH, INPUT)``, ``w_ih (gates * HIDDEN, INPUT)``, ``w_hh``, ``b_ih``, ``b_hh`` and ``h0``,
    ``c0 (1, BATCH, HIDDEN)`` from ``RandomState(7)``."""
    rng = np.random.RandomState(7)
    shapes = [(STEPS, BATCH, INPUT), (gates * HIDDEN, INPUT), (gates * HIDDEN, HIDDEN), (gates * HIDDEN,),
              (gates * HIDDEN,), (1, BATCH, HIDDEN), (1, BATCH, HIDDEN)]
    return [rng.uniform(-1, 1, shape).astype(np.float32) for shape in shapes]


def main():
    import mindspore as ms
    from mindspore import Tensor, nn

    x, w_ih, w_hh, b_ih, b_hh, h0, c0 = arrays(4)
    lstm = nn.LSTM(INPUT, HIDDEN)
    for name, value in (("weight_ih_l0", w_ih), ("weight_hh_l0", w_hh), ("bias_ih_l0", b_ih), ("bias_hh_l0", b_hh)):
        getattr(lstm, name).set_data(Tensor(value))
    output, (h, c) = lstm(Tensor(x), (Tensor(h0), Tensor(c0)))
    print("LSTM output", output.asnumpy().round(6).tolist())
    print("LSTM c_n", c.asnumpy().round(6).tolist())
    x, w_ih, w_hh, b_ih, b_hh, h0, _ = arrays(3)
    gru = nn.GRU(INPUT, HIDDEN)
    for name, value in (("weight_ih_l0", w_ih), ("weight_hh_l0", w_hh), ("bias_ih_l0", b_ih), ("bias_hh_l0", b_hh)):
        getattr(gru, name).set_data(Tensor(value))
    output, h = gru(Tensor(x), Tensor(h0))
    print("GRU output", output.asnumpy().round(6).tolist())
    print(ms.__version__)


if __name__ == "__main__":
    main()
