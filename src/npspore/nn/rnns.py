"""Multi-step recurrent layers: ``RNN``, ``LSTM``, ``GRU`` (stacked, optionally bidirectional).

Each layer and direction computes the input's contribution to its gates for all time steps with
one GEMM, then runs ``for t in range(seq_len)`` over the recurrent part; the loop stays a loop in
compiled code (see ``npspore show``). Step ``t`` of the input is read with the ``row`` op and the
hidden state is written into the output sequence with ``row_add`` (codegen_templates/sequence.py).
The reverse direction runs the same loop on the time-reversed sequence, as MindSpore does.
"""
from __future__ import annotations

import math

import numpy as np

from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter, ParameterTuple
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import Dropout, _check_bool, _check_positive_int
from npspore.nn.linear import linear
from npspore.nn.rnn_cells import (check_float_tensor, gru_step, lstm_gate_scales, lstm_scaled_step, rnn_relu_step,
                                  rnn_tanh_step)
from npspore.ops import functional as F
from npspore.ops.eager import run

__all__ = ["RNN", "LSTM", "GRU"]

_GATE_CHUNKS = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _stack(states):
    """The final states of each layer and direction, stacked on a new first axis."""
    if len(states) == 1:  # the compiler mishandles the adjoint of a one-operand stack/concat
        return states[0].expand_dims(0)
    return F.stack(states, 0)


def _reverse_sequence(x, seq_length):
    """`x` (T, B, F) reversed in time: all of it, or each sequence's first ``seq_length[b]`` steps."""
    if not isinstance(seq_length, Tensor):
        return x[::-1]
    steps, batch = x.shape[0], x.shape[1]
    t = Tensor(np.arange(steps, dtype=np.int64).reshape(steps, 1))
    lengths = seq_length.astype(mstype.int64).reshape((1, batch))
    source_step = F.where(t < lengths, lengths - 1 - t, t)                    # (T, B)
    flat_index = source_step * batch + Tensor(np.arange(batch, dtype=np.int64))
    return F.gather(x.reshape((steps * batch, x.shape[2])), flat_index.reshape((-1,)), 0).reshape(x.shape)


def _check_seq_length(seq_length, batch, cls_name):
    if seq_length.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{cls_name}', the 'seq_length' must be int32 or int64, but got {seq_length.dtype}.")
    if seq_length.shape != (batch,):
        raise ValueError(f"For '{cls_name}', the 'seq_length' must have shape ({batch},), but got "
                         f"{seq_length.shape}.")


class _RNNBase(Cell):
    """The stacked, optionally bidirectional recurrence shared by RNN, LSTM and GRU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, dtype=mstype.float32):
        super().__init__()
        _check_positive_int(hidden_size, "hidden_size", self.cls_name)
        _check_positive_int(input_size, "input_size", self.cls_name)
        _check_positive_int(num_layers, "num_layers", self.cls_name)
        if not isinstance(dropout, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'dropout' must be float, but got "
                            f"{type(dropout).__name__}.")
        _check_bool(has_bias, "has_bias", self.cls_name)
        _check_bool(batch_first, "batch_first", self.cls_name)
        _check_bool(bidirectional, "bidirectional", self.cls_name)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{self.cls_name}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but got {dropout}.")
        self.mode = mode
        self.is_lstm = mode == "LSTM"
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        self.num_directions = 2 if bidirectional else 1

        gate_size = _GATE_CHUNKS[mode] * hidden_size
        stdv = 1 / math.sqrt(hidden_size)
        w_ih, w_hh, b_ih, b_hh = [], [], [], []

        def uniform(shape):
            # MindSpore draws these from NumPy's global generator itself, in float64 (not an initializer)
            return Tensor(np.random.uniform(-stdv, stdv, shape).astype(np.float32), dtype=dtype)

        for layer in range(num_layers):
            for direction in range(self.num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * self.num_directions
                suffix = f"l{layer}" + ("_reverse" if direction == 1 else "")
                w_ih.append(Parameter(uniform((gate_size, layer_input_size)), name="weight_ih_" + suffix))
                w_hh.append(Parameter(uniform((gate_size, hidden_size)), name="weight_hh_" + suffix))
                if has_bias:
                    b_ih.append(Parameter(uniform(gate_size), name="bias_ih_" + suffix))
                    b_hh.append(Parameter(uniform(gate_size), name="bias_hh_" + suffix))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def _recurrence(self, x, h, c, w_ih, w_hh, b_ih, b_hh, seq_length):
        """Run one direction of one layer over `x` (T, B, I); returns the outputs (T, B, H), last h and c.

        With `seq_length` (B,), the state stops changing after each sequence's length and the outputs
        there are zeros, as in MindSpore.
        """
        x_dtype = x.dtype
        w_ih, w_hh = w_ih.astype(x_dtype), w_hh.astype(x_dtype)
        if self.has_bias:
            b_ih, b_hh = b_ih.astype(x_dtype), b_hh.astype(x_dtype)
        if self.mode in ("LSTM", "RNN_TANH", "RNN_RELU") and self.has_bias:
            b_ih, b_hh = b_ih + b_hh, None     # both biases added once, to the input's contribution
        if self.mode == "LSTM":
            scales = lstm_gate_scales(w_ih.shape[0], x_dtype).reshape((-1, 1))
            w_ih, w_hh = w_ih * scales, w_hh * scales
            b_ih = b_ih * scales.reshape((-1,)) if self.has_bias else None
        gates_x = linear(x, w_ih, b_ih)
        outputs = _zeros(x, None, self.hidden_size)
        for t in range(x.shape[0]):
            gates_t = run("row", gates_x, t)
            if self.mode == "LSTM":
                h_t, c_t = lstm_scaled_step(gates_t, h, c, w_hh)
            elif self.mode == "GRU":
                h_t, c_t = gru_step(gates_t, h, w_hh, b_hh), c
            elif self.mode == "RNN_TANH":
                h_t, c_t = rnn_tanh_step(gates_t, h, w_hh, b_hh), c
            else:
                h_t, c_t = rnn_relu_step(gates_t, h, w_hh, b_hh), c
            if isinstance(seq_length, Tensor):
                running = (seq_length > t).reshape((-1, 1))
                h, c = F.where(running, h_t, h), F.where(running, c_t, c)
                h_t = F.where(running, h_t, F.zeros_like(h_t))
            else:
                h, c = h_t, c_t
            outputs = run("row_add", outputs, t, h_t)
        return outputs, h, c

    def _check_hx(self, x, hx):
        if not self.is_lstm:
            check_float_tensor(hx, "hx", self.cls_name)
            if hx.dtype != x.dtype:
                raise TypeError(f"For '{self.cls_name}', the dtype of 'hx' must be the same as 'x' ({x.dtype}), "
                                f"but got {hx.dtype}.")
            return
        if not isinstance(hx, tuple) or len(hx) != 2:
            raise TypeError(f"For '{self.cls_name}', the 'hx' must be a tuple of two Tensors (h_0, c_0), but got "
                            f"{type(hx).__name__}.")
        check_float_tensor(hx[0], "hx[0]", self.cls_name)
        check_float_tensor(hx[1], "hx[1]", self.cls_name)

    def construct(self, x, hx=None, seq_length=None):
        check_float_tensor(x, "x", self.cls_name)
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the 'x' must be a 3-D Tensor (seq_len, batch, input_size), "
                             f"but got shape {x.shape}.")
        if self.batch_first:
            x = x.transpose((1, 0, 2))
        if isinstance(seq_length, Tensor):
            _check_seq_length(seq_length, x.shape[1], self.cls_name)
        states = self.num_layers * self.num_directions
        if isinstance(hx, (Tensor, tuple)):  # not 'hx is None': compiled code cannot compare a tensor with 'is'
            self._check_hx(x, hx)
            h_0 = hx[0] if self.is_lstm else hx
            c_0 = hx[1] if self.is_lstm else hx
        elif hx is None:
            h_0 = _zeros(x, states, self.hidden_size)
            c_0 = _zeros(x, states, self.hidden_size)
        else:
            self._check_hx(x, hx)
        layer_input = x
        h_n = ()
        c_n = ()
        for layer in range(self.num_layers):
            outputs = ()
            for direction in range(self.num_directions):
                k = layer * self.num_directions + direction
                b_ih = self.b_ih_list[k] if self.has_bias else None
                b_hh = self.b_hh_list[k] if self.has_bias else None
                seq = layer_input if direction == 0 else _reverse_sequence(layer_input, seq_length)
                out, h, c = self._recurrence(seq, h_0[k], c_0[k], self.w_ih_list[k], self.w_hh_list[k], b_ih, b_hh,
                                             seq_length)
                outputs += (out if direction == 0 else _reverse_sequence(out, seq_length),)
                h_n += (h,)
                c_n += (c,)
            output = outputs[0] if self.num_directions == 1 else F.concat(outputs, 2)
            if self.dropout != 0 and layer < self.num_layers - 1:
                layer_input = self.dropout_op(output)
            else:
                layer_input = output
        if self.batch_first:
            output = output.transpose((1, 0, 2))
        if self.is_lstm:
            return output, (_stack(h_n), _stack(c_n))
        return output, _stack(h_n)


def _zeros(x, rows, size):
    """Zeros of shape ``(rows, batch, size)`` in the dtype of ``x (seq, batch, features)``, ``rows`` None for the
    sequence's length; where compiled code knows the sequence or the batch only when it runs (a layer reads -1),
    made from ``x`` itself."""
    if min(x.shape[:2]) >= 0:
        return F.zeros((x.shape[0] if rows is None else rows, x.shape[1], size), x.dtype)
    if rows is None:
        return F.tile(F.zeros_like(x[:, :, :1]), (1, 1, size))
    return F.tile(F.zeros_like(x[:1, :, :1]), (rows, 1, size))


class RNN(_RNNBase):
    r"""Stacked Elman RNN: :math:`h_t = act(W_{ih} x_t + b_{ih} + W_{hh} h_{t-1} + b_{hh})`, act tanh or ReLU.

    Args:
        input_size (int): the number of input features.
        hidden_size (int): the number of hidden features.
        num_layers (int): the number of stacked layers. Default: ``1``.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default: ``'tanh'``.
        has_bias (bool): whether to use the biases. Default: ``True``.
        batch_first (bool): whether `x` is :math:`(batch, seq\_len, input\_size)`. Default: ``False``.
        dropout (float): the dropout probability applied to each layer's output except the last one,
            in training mode. Default: ``0.0``.
        bidirectional (bool): whether to add a reverse direction. Default: ``False``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(seq\_len, batch, input\_size)` (or batch first), float16/float32.
        - **hx** (Tensor) - :math:`(num\_directions * num\_layers, batch, hidden\_size)`. Default: zeros.
        - **seq_length** (Tensor) - :math:`(batch,)` int32/int64: each sequence's length. Default: ``None``.

    Outputs:
        Tuple ``(output, hx_n)``: output :math:`(seq\_len, batch, num\_directions * hidden\_size)` (or batch
        first), hx_n :math:`(num\_directions * num\_layers, batch, hidden\_size)`.

    Parameters are named ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (and
    ``..._reverse`` for the reverse direction).

    Raises:
        TypeError: If an argument has the wrong type, or `x`/`hx` is not a float16/float32 Tensor.
        ValueError: If a size is not positive, `dropout` is not in [0, 1), `nonlinearity` is unknown,
            `x` is not 3-D, or `seq_length` has the wrong shape.
    """

    def __init__(self, *args, **kwargs):
        if "nonlinearity" in kwargs:
            nonlinearity = kwargs.pop("nonlinearity")
        elif len(args) > 3:
            nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            nonlinearity = "tanh"
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but got {nonlinearity}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(_RNNBase):
    r"""Stacked long short-term memory layers (see :class:`LSTMCell` for one step).

    Args:
        input_size (int): the number of input features.
        hidden_size (int): the number of hidden features.
        num_layers (int): the number of stacked layers. Default: ``1``.
        has_bias (bool): whether to use the biases. Default: ``True``.
        batch_first (bool): whether `x` is :math:`(batch, seq\_len, input\_size)`. Default: ``False``.
        dropout (float): dropout probability between layers, in training mode. Default: ``0.0``.
        bidirectional (bool): whether to add a reverse direction. Default: ``False``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(seq\_len, batch, input\_size)` (or batch first), float16/float32.
        - **hx** (tuple) - ``(h_0, c_0)``, each :math:`(num\_directions * num\_layers, batch, hidden\_size)`.
          Default: zeros.
        - **seq_length** (Tensor) - :math:`(batch,)` int32/int64: each sequence's length. Default: ``None``.

    Outputs:
        Tuple ``(output, (h_n, c_n))``.

    Raises:
        TypeError: If an argument has the wrong type, or `hx` is not a tuple of two Tensors.
        ValueError: If a size is not positive, `dropout` is not in [0, 1), `x` is not 3-D, or
            `seq_length` has the wrong shape.
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(_RNNBase):
    r"""Stacked gated recurrent unit layers (see :class:`GRUCell` for one step).

    Args:
        input_size (int): the number of input features.
        hidden_size (int): the number of hidden features.
        num_layers (int): the number of stacked layers. Default: ``1``.
        has_bias (bool): whether to use the biases. Default: ``True``.
        batch_first (bool): whether `x` is :math:`(batch, seq\_len, input\_size)`. Default: ``False``.
        dropout (float): dropout probability between layers, in training mode. Default: ``0.0``.
        bidirectional (bool): whether to add a reverse direction. Default: ``False``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(seq\_len, batch, input\_size)` (or batch first), float16/float32.
        - **hx** (Tensor) - :math:`(num\_directions * num\_layers, batch, hidden\_size)`. Default: zeros.
        - **seq_length** (Tensor) - :math:`(batch,)` int32/int64: each sequence's length. Default: ``None``.

    Outputs:
        Tuple ``(output, hx_n)``.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a size is not positive, `dropout` is not in [0, 1), `x` is not 3-D, or
            `seq_length` has the wrong shape.
    """

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)
