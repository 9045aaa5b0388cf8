"""Recurrent cells: ``RNNCell``, ``LSTMCell``, ``GRUCell``, and the one-step functions the
multi-step layers in :mod:`npspore.nn.rnns` share with them.

Each step function takes the input's contribution to the gates already computed (``x W_ih^T + b_ih``)
so that a layer can compute it for all time steps at once, outside its loop over time. Gate order
follows MindSpore: LSTM ``(input, forget, cell, output)``, GRU ``(reset, update, new)``.
"""
from __future__ import annotations

import math

import numpy as np

from npspore.common import dtype as mstype
from npspore.common.initializer import Uniform, initializer
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import _check_bool, _check_positive_int
from npspore.nn.linear import linear
from npspore.ops import functional as F
from npspore.ops.eager import run

__all__ = ["RNNCell", "LSTMCell", "GRUCell"]


def _hidden_gates(h, w_hh, b_hh):
    gates = run("matmul", h, w_hh, transpose_b=True)
    if isinstance(b_hh, Tensor):
        gates = gates + b_hh
    return gates


def rnn_tanh_step(gates_x, h, w_hh, b_hh):
    """One Elman step with tanh: ``tanh(gates_x + h W_hh^T + b_hh)``."""
    return F.tanh(gates_x + _hidden_gates(h, w_hh, b_hh))


def rnn_relu_step(gates_x, h, w_hh, b_hh):
    """One Elman step with ReLU: ``relu(gates_x + h W_hh^T + b_hh)``."""
    return F.relu(gates_x + _hidden_gates(h, w_hh, b_hh))


def lstm_step(gates_x, h, c, w_hh, b_hh):
    """One LSTM step: returns the new ``(h, c)``."""
    scales = lstm_gate_scales(gates_x.shape[-1], gates_x.dtype)
    if isinstance(b_hh, Tensor):
        gates_x = gates_x + b_hh
    return lstm_scaled_step(gates_x * scales, h, c, w_hh * scales.reshape((-1, 1)))


def lstm_scaled_step(scaled_gates_x, h, c, scaled_w_hh):
    """One LSTM step on gates scaled by :func:`lstm_gate_scales` (the input's contribution, with both biases,
    and ``W_hh``'s rows): returns the new ``(h, c)``.

    The three sigmoid gates and the cell gate take one ``sigmoid`` of the scaled gates, the cell gate's
    ``tanh`` as ``tanh(x) = 2 sigmoid(2x) - 1``: one pass of ``exp`` over the gates, which NumPy computes in
    about half the time of ``tanh`` (a training step of ``tools/train_workloads.py``'s T2 takes 2.4 ms less).
    A layer scales its weights once, before its loop over time (scaling by 2 is exact)."""
    size = scaled_gates_x.shape[-1] // 4
    activated = F.sigmoid(scaled_gates_x + run("matmul", h, scaled_w_hh, transpose_b=True))
    ingate, forgetgate, cellgate_sigmoid, outgate = F.split(activated, size, axis=-1)
    c = forgetgate * c + ingate * (cellgate_sigmoid * 2 - 1)
    h = outgate * F.tanh(c)
    return h, c


def lstm_gate_scales(gate_size, dtype):
    """``1`` on the LSTM's sigmoid gates (input, forget, output), ``2`` on its cell gate: shape ``(gate_size,)``."""
    size = gate_size // 4
    return Tensor(np.array([1.0] * (2 * size) + [2.0] * size + [1.0] * size), dtype=dtype)


def gru_step(gates_x, h, w_hh, b_hh):
    """One GRU step: ``n + z * (h - n)`` with reset gate ``r``, update gate ``z`` and new gate ``n``."""
    size = gates_x.shape[-1] // 3
    i_rz, i_n = F.split(gates_x, (2 * size, size), axis=-1)
    h_rz, h_n = F.split(_hidden_gates(h, w_hh, b_hh), (2 * size, size), axis=-1)
    resetgate, updategate = F.split(F.sigmoid(i_rz + h_rz), size, axis=-1)   # one sigmoid for both (adjacent)
    newgate = F.tanh(i_n + resetgate * h_n)
    return newgate + updategate * (h - newgate)


def check_float_tensor(value, arg_name, cls_name):
    """Raise TypeError unless `value` is a floating-point Tensor.

    MindSpore takes float16 and float32; npspore also takes float64 (its gradient checks run in float64).
    """
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{cls_name}', the '{arg_name}' must be Tensor, but got {type(value).__name__}.")
    if value.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{cls_name}', the '{arg_name}' must be float16, float32 or float64, but got "
                        f"{value.dtype}.")


class _RNNCellBase(Cell):
    """Parameters ``weight_ih`` (num_chunks*hidden, input), ``weight_hh``, ``bias_ih``, ``bias_hh``,
    all drawn from Uniform(1/sqrt(hidden_size))."""

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=mstype.float32):
        super().__init__()
        self.has_bias = _check_bool(has_bias, "has_bias", self.cls_name)
        self.hidden_size = _check_positive_int(hidden_size, "hidden_size", self.cls_name)
        self.input_size = _check_positive_int(input_size, "input_size", self.cls_name)
        gate_size = num_chunks * hidden_size
        # As MindSpore: standard normal placeholders from NumPy's global generator, then each parameter
        # refilled from Uniform(1/sqrt(hidden_size)), in order (both draws advance NumPy's generator)
        self.weight_ih = Parameter(Tensor(np.random.randn(gate_size, input_size), dtype=dtype), name="weight_ih")
        self.weight_hh = Parameter(Tensor(np.random.randn(gate_size, hidden_size), dtype=dtype), name="weight_hh")
        self.bias_ih = None
        self.bias_hh = None
        if has_bias:
            self.bias_ih = Parameter(Tensor(np.random.randn(gate_size), dtype=dtype), name="bias_ih")
            self.bias_hh = Parameter(Tensor(np.random.randn(gate_size), dtype=dtype), name="bias_hh")
        self.reset_parameters(dtype)

    def reset_parameters(self, dtype=mstype.float32):
        """Refill every parameter from Uniform(1/sqrt(hidden_size)), in order."""
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))

    def _gates_x(self, x):
        return linear(x, self.weight_ih, self.bias_ih)


class RNNCell(_RNNCellBase):
    r"""An Elman RNN cell: :math:`h' = \tanh(W_{ih} x + b_{ih} + W_{hh} h + b_{hh})` (or ReLU).

    Args:
        input_size (int): the number of input features.
        hidden_size (int): the number of hidden features.
        has_bias (bool): whether to use the biases :math:`b_{ih}`, :math:`b_{hh}`. Default: ``True``.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default: ``'tanh'``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - shape :math:`(batch\_size, input\_size)`, float16 or float32.
        - **hx** (Tensor) - shape :math:`(batch\_size, hidden\_size)`.

    Outputs:
        - **hx'** (Tensor) - shape :math:`(batch\_size, hidden\_size)`.

    Raises:
        TypeError: If `input_size` or `hidden_size` is not an int, `has_bias` is not a bool, or an input is
            not a float16/float32 Tensor.
        ValueError: If `input_size` or `hidden_size` is not positive, or `nonlinearity` is not
            ``'tanh'`` or ``'relu'``.
    """

    _NON_LINEARITY = ("tanh", "relu")

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        if nonlinearity not in self._NON_LINEARITY:
            raise ValueError(f"For '{self.cls_name}', the 'nonlinearity' must be in {list(self._NON_LINEARITY)}, "
                             f"but got {nonlinearity}.")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        check_float_tensor(x, "x", self.cls_name)
        check_float_tensor(hx, "hx", self.cls_name)
        if self.nonlinearity == "tanh":
            return rnn_tanh_step(self._gates_x(x), hx, self.weight_hh, self.bias_hh)
        return rnn_relu_step(self._gates_x(x), hx, self.weight_hh, self.bias_hh)


class LSTMCell(_RNNCellBase):
    r"""A long short-term memory cell.

    .. math::
        i, f, g, o = W_{ih} x + b_{ih} + W_{hh} h + b_{hh};\quad
        c' = \sigma(f) c + \sigma(i) \tanh(g);\quad h' = \sigma(o) \tanh(c')

    Args:
        input_size (int): the number of input features.
        hidden_size (int): the number of hidden features.
        has_bias (bool): whether to use the biases. Default: ``True``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - shape :math:`(batch\_size, input\_size)`.
        - **hx** (tuple) - ``(h, c)``, each of shape :math:`(batch\_size, hidden\_size)`.

    Outputs:
        tuple ``(h', c')``, each of shape :math:`(batch\_size, hidden\_size)`.

    Raises:
        TypeError: If `hx` is not a tuple of two Tensors, or an input is not float16/float32.
        ValueError: If `input_size` or `hidden_size` is not a positive int.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)

    def construct(self, x, hx):
        check_float_tensor(x, "x", self.cls_name)
        if not isinstance(hx, tuple) or len(hx) != 2:
            raise TypeError(f"For '{self.cls_name}', the 'hx' must be a tuple of two Tensors (h, c), but got "
                            f"{type(hx).__name__}.")
        check_float_tensor(hx[0], "hx[0]", self.cls_name)
        check_float_tensor(hx[1], "hx[1]", self.cls_name)
        return lstm_step(self._gates_x(x), hx[0], hx[1], self.weight_hh, self.bias_hh)


class GRUCell(_RNNCellBase):
    r"""A gated recurrent unit cell.

    .. math::
        r = \sigma(W_{ir} x + b_{ir} + W_{hr} h + b_{hr});\quad z = \sigma(W_{iz} x + b_{iz} + W_{hz} h + b_{hz})

        n = \tanh(W_{in} x + b_{in} + r (W_{hn} h + b_{hn}));\quad h' = (1 - z) n + z h

    Args:
        input_size (int): the number of input features.
        hidden_size (int): the number of hidden features.
        has_bias (bool): whether to use the biases. Default: ``True``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - shape :math:`(batch\_size, input\_size)`.
        - **hx** (Tensor) - shape :math:`(batch\_size, hidden\_size)`.

    Outputs:
        - **hx'** (Tensor) - shape :math:`(batch\_size, hidden\_size)`.

    Raises:
        TypeError: If an input is not a float16/float32 Tensor.
        ValueError: If `input_size` or `hidden_size` is not a positive int.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x, hx):
        check_float_tensor(x, "x", self.cls_name)
        check_float_tensor(hx, "hx", self.cls_name)
        return gru_step(self._gates_x(x), hx, self.weight_hh, self.bias_hh)


# MindSpore's public name of the cells' base (nn.layer.rnn_cells.RNNCellBase)
RNNCellBase = _RNNCellBase
