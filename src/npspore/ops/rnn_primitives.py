"""The fused recurrent primitives of MindSpore's Ascend models, as ``mindspore.ops``: ``DynamicRNN`` (an LSTM
layer) and ``DynamicGRUV2`` (a GRU layer), time-major, with every step's gates among their outputs.

MindSpore 2.10 has kernels for them on Ascend only; their semantics are its documented formulas, with the
gate layouts its own ``nn.LSTM``/``nn.GRU`` use when they call them (``nn/layer/rnns.py``): ``DynamicRNN``'s
weight is ``(input_size + hidden_size, 4 * hidden_size)`` applied to ``[x_t, h]``, its gate blocks in the order
input, cell candidate (``j``), forget, output; ``DynamicGRUV2``'s weights are ``(size, 3 * hidden_size)``
with the gate blocks in ``gate_order`` (``'rzh'``: reset, update, new). Written over ops of the table and
unrolled over the steps, so they run eagerly and compiled and are differentiable.
"""
from __future__ import annotations

from .._checkparam import check_non_negative_int, check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .primitives import Primitive

__all__ = ["DynamicRNN", "DynamicGRUV2"]


def _check_choice(prim: str, name: str, value, choices: list) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"For '{prim}', the '{name}' must be str and must be in '{choices}', but got '{value}'.")


def _check_options(prim: Primitive, keep_prob: float, cell_clip: float, num_proj: int, time_major: bool,
                   is_training: bool, direction: str, activation: str) -> None:
    """The options both primitives share, checked and recorded as MindSpore does."""
    check_value_type("keep_prob", keep_prob, [float], prim.name)
    if not 0.0 <= keep_prob <= 1.0:
        raise ValueError(f"The 'keep_prob' must be in range of [0.0, 1.0], but got {keep_prob} with type 'float'.")
    check_value_type("cell_clip", cell_clip, [float], prim.name)
    check_non_negative_int(num_proj, "num_proj", prim.name)
    check_value_type("time_major", time_major, [bool], prim.name)
    if time_major is not True:
        raise ValueError(f"For '{prim.name}', the 'time_major' should be = the supported value: True, but got "
                         f"{time_major}.")
    check_value_type("is_training", is_training, [bool], prim.name)
    _check_choice(prim.name, "direction", direction, ["UNIDIRECTIONAL"])
    _check_choice(prim.name, "activation", activation, ["tanh"])
    if num_proj or keep_prob < 1.0:
        raise NotImplementedError(f"For '{prim.name}', a projection (num_proj > 0) and dropout (keep_prob < 1) "
                                  f"are not implemented in npspore.")


def _check_inputs(prim: str, named: dict, seq_length) -> None:
    for name, value in named.items():
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{prim}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
        if value.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"For '{prim}', the '{name}' must be a Tensor of float16, float32 or float64, but got "
                            f"{value.dtype}.")
    if seq_length is not None:
        raise ValueError(f"For '{prim}', only None is supported for 'seq_length' (as in MindSpore), but got "
                         f"{type(seq_length).__name__}.")


def _clipped(c: Tensor, cell_clip: float) -> Tensor:
    return F.clip_by_value(c, -cell_clip, cell_clip) if cell_clip > 0 else c


class DynamicRNN(Primitive):
    """``DynamicRNN(cell_type='LSTM', direction='UNIDIRECTIONAL', cell_depth=1, use_peephole=False,
    keep_prob=1.0, cell_clip=-1.0, num_proj=0, time_major=True, activation='tanh', forget_bias=0.0,
    is_training=True)(x, w, b, seq_length, init_h, init_c)``: an LSTM layer over ``x (num_step, batch_size,
    input_size)``.

    Each step: ``i, j, f, o = split([x_t, h] @ w + b, 4)``; ``c = sigmoid(f + forget_bias) * c + sigmoid(i) *
    tanh(j)`` (clipped to ``[-cell_clip, cell_clip]`` when ``cell_clip > 0``); ``h = sigmoid(o) * tanh(c)``.

    Outputs:
        ``(y, output_h, output_c, i, j, f, o, tanhct)``, each ``(num_step, batch_size, hidden_size)``: the hidden
        states (``y`` and ``output_h``), cell states, the activated gates and ``tanh(c)`` of every step; of
        ``b``'s dtype, ``output_h`` of ``x``'s.

    Raises:
        TypeError: If an option has the wrong type, or an input is not a float Tensor (MindSpore takes float16).
        ValueError: If an option is out of range, ``time_major`` is False or ``seq_length`` is not None.
        NotImplementedError: For ``use_peephole``, ``num_proj > 0`` or ``keep_prob < 1`` (not implemented in
            npspore).
    """

    def __init__(self, cell_type: str = "LSTM", direction: str = "UNIDIRECTIONAL", cell_depth: int = 1,
                 use_peephole: bool = False, keep_prob: float = 1.0, cell_clip: float = -1.0, num_proj: int = 0,
                 time_major: bool = True, activation: str = "tanh", forget_bias: float = 0.0,
                 is_training: bool = True) -> None:
        super().__init__("DynamicRNN")
        check_value_type("forget_bias", forget_bias, [float], self.name)
        check_value_type("cell_depth", cell_depth, [int], self.name)
        check_value_type("use_peephole", use_peephole, [bool], self.name)
        _check_choice(self.name, "cell_type", cell_type, ["LSTM"])
        _check_options(self, keep_prob, cell_clip, num_proj, time_major, is_training, direction, activation)
        if use_peephole:
            raise NotImplementedError("For 'DynamicRNN', peephole connections are not implemented in npspore.")
        self.forget_bias, self.cell_clip = forget_bias, cell_clip
        for name, value in (("cell_type", cell_type), ("direction", direction), ("cell_depth", cell_depth),
                            ("use_peephole", use_peephole), ("keep_prob", keep_prob), ("cell_clip", cell_clip),
                            ("num_proj", num_proj), ("time_major", time_major), ("activation", activation),
                            ("forget_bias", forget_bias), ("is_training", is_training)):
            self.add_prim_attr(name, value)

    def __call__(self, x: Tensor, w: Tensor, b: Tensor, seq_length, init_h: Tensor, init_c: Tensor) -> tuple:
        _check_inputs(self.name, {"x": x, "w": w, "b": b, "init_h": init_h, "init_c": init_c}, seq_length)
        hidden = w.shape[1] // 4
        if len(x.shape) != 3 or tuple(w.shape) != (x.shape[2] + hidden, 4 * hidden) or \
                tuple(b.shape) != (4 * hidden,) or tuple(init_h.shape) != (1, x.shape[1], hidden) or \
                tuple(init_c.shape) != (1, x.shape[1], hidden):
            raise ValueError(f"For 'DynamicRNN', expected x (num_step, batch_size, input_size), w (input_size + "
                             f"hidden_size, 4 * hidden_size), b (4 * hidden_size,) and init_h, init_c (1, batch_size, "
                             f"hidden_size), but got {x.shape}, {w.shape}, {b.shape}, {init_h.shape} and "
                             f"{init_c.shape}.")
        h, c = init_h[0], init_c[0]
        steps: dict[str, list] = {name: [] for name in ("h", "c", "i", "j", "f", "o", "tanh_c")}
        for t in range(x.shape[0]):
            i, j, f, o = F.split(F.matmul(F.concat((x[t], h), 1), w) + b, hidden, -1)
            i, j, f, o = F.sigmoid(i), F.tanh(j), F.sigmoid(f + self.forget_bias), F.sigmoid(o)
            c = _clipped(f * c + i * j, self.cell_clip)
            tanh_c = F.tanh(c)
            h = o * tanh_c
            for name, value in (("h", h), ("c", c), ("i", i), ("j", j), ("f", f), ("o", o), ("tanh_c", tanh_c)):
                steps[name].append(value)
        stacked = {name: F.cast(F.stack(values, 0), b.dtype) for name, values in steps.items()}
        return (stacked["h"], F.cast(stacked["h"], x.dtype), stacked["c"], stacked["i"], stacked["j"],
                stacked["f"], stacked["o"], stacked["tanh_c"])


class DynamicGRUV2(Primitive):
    """``DynamicGRUV2(direction='UNIDIRECTIONAL', cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
    time_major=True, activation='tanh', gate_order='rzh', reset_after=True, is_training=True)(x, weight_input,
    weight_hidden, bias_input, bias_hidden, seq_length, init_h)``: a GRU layer over ``x (num_step, batch_size,
    input_size)``.

    Each step: ``r, z, n_x = split(x_t @ weight_input + bias_input, 3)`` and ``r_h, z_h, n_h = split(h @
    weight_hidden + bias_hidden, 3)`` (blocks in ``gate_order``); ``r = sigmoid(r + r_h)``, ``z = sigmoid(z +
    z_h)``, ``n = tanh(n_x + r * n_h)`` (``reset_after``; else ``n_h`` is computed from ``r * h``);
    ``h = (1 - z) * n + z * h``.

    Outputs:
        ``(y, output_h, update, reset, new, hidden_new)``, each ``(num_step, batch_size, hidden_size)``: the
        hidden states (``y`` and ``output_h``), ``z``, ``r``, ``n`` and ``n_h`` of every step, of the dtype of
        ``bias_input`` (else ``bias_hidden``, else ``init_h``). A None bias is zeros.

    Raises:
        TypeError: If an option has the wrong type, or an input is not a float Tensor (MindSpore takes float16).
        ValueError: If an option is out of range, ``time_major`` is False or ``seq_length`` is not None.
        NotImplementedError: For ``num_proj > 0`` or ``keep_prob < 1`` (not implemented in npspore).
    """

    def __init__(self, direction: str = "UNIDIRECTIONAL", cell_depth: int = 1, keep_prob: float = 1.0,
                 cell_clip: float = -1.0, num_proj: int = 0, time_major: bool = True, activation: str = "tanh",
                 gate_order: str = "rzh", reset_after: bool = True, is_training: bool = True) -> None:
        super().__init__("DynamicGRUV2")
        check_value_type("cell_depth", cell_depth, [int], self.name)
        _check_options(self, keep_prob, cell_clip, num_proj, time_major, is_training, direction, activation)
        _check_choice(self.name, "gate_order", gate_order, ["zrh", "rzh"])
        check_value_type("reset_after", reset_after, [bool], self.name)
        self.gate_order, self.reset_after, self.cell_clip = gate_order, reset_after, cell_clip
        for name, value in (("direction", direction), ("cell_depth", cell_depth), ("keep_prob", keep_prob),
                            ("cell_clip", cell_clip), ("num_proj", num_proj), ("time_major", time_major),
                            ("activation", activation), ("gate_order", gate_order), ("reset_after", reset_after),
                            ("is_training", is_training)):
            self.add_prim_attr(name, value)

    def _gates(self, projected: Tensor) -> tuple:
        """The reset, update and new blocks of the last dim of ``projected``."""
        first, second, new = F.split(projected, projected.shape[-1] // 3, -1)
        return (first, second, new) if self.gate_order == "rzh" else (second, first, new)

    def __call__(self, x: Tensor, weight_input: Tensor, weight_hidden: Tensor, bias_input, bias_hidden,
                 seq_length, init_h: Tensor) -> tuple:
        biases = {name: value for name, value in (("bias_input", bias_input), ("bias_hidden", bias_hidden))
                  if value is not None}
        _check_inputs(self.name, {"x": x, "weight_input": weight_input, "weight_hidden": weight_hidden,
                                  "init_h": init_h, **biases}, seq_length)
        hidden = weight_hidden.shape[0]
        if len(x.shape) != 3 or tuple(weight_input.shape) != (x.shape[2], 3 * hidden) or \
                tuple(weight_hidden.shape) != (hidden, 3 * hidden) or tuple(init_h.shape) != (x.shape[1], hidden) \
                or any(tuple(value.shape) != (3 * hidden,) for value in biases.values()):
            raise ValueError(f"For 'DynamicGRUV2', expected x (num_step, batch_size, input_size), weight_input "
                             f"(input_size, 3 * hidden_size), weight_hidden (hidden_size, 3 * hidden_size), biases "
                             f"(3 * hidden_size,) and init_h (batch_size, hidden_size), but got {x.shape}, "
                             f"{weight_input.shape}, {weight_hidden.shape} and {init_h.shape}.")
        dtype = next(iter(biases.values())).dtype if biases else init_h.dtype
        h = init_h
        steps: dict[str, list] = {name: [] for name in ("h", "z", "r", "n", "n_h")}
        for t in range(x.shape[0]):
            projected = F.matmul(x[t], weight_input)
            if bias_input is not None:
                projected = projected + bias_input
            recurrent = F.matmul(h, weight_hidden)
            if bias_hidden is not None:
                recurrent = recurrent + bias_hidden
            r_x, z_x, n_x = self._gates(projected)
            r_h, z_h, n_h = self._gates(recurrent)
            r, z = F.sigmoid(r_x + r_h), F.sigmoid(z_x + z_h)
            if not self.reset_after:
                _, _, n_h = self._gates(F.matmul(r * h, weight_hidden))
                if bias_hidden is not None:
                    n_h = n_h + self._gates(bias_hidden)[2]
            n = F.tanh(n_x + r * n_h if self.reset_after else n_x + n_h)
            h = _clipped((1 - z) * n + z * h, self.cell_clip)
            for name, value in (("h", h), ("z", z), ("r", r), ("n", n), ("n_h", n_h)):
                steps[name].append(value)
        stacked = {name: F.cast(F.stack(values, 0), dtype) for name, values in steps.items()}
        return stacked["h"], stacked["h"], stacked["z"], stacked["r"], stacked["n"], stacked["n_h"]
