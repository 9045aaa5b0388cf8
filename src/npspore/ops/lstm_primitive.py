"""``mindspore.ops.operations.LSTM``: a multi-layer LSTM over a time-major sequence, its weights one flat Tensor.

The flat weight is laid out as MindSpore 2.10's CPU kernel reads it (found by running it): first every
input-to-hidden matrix (layer by layer, direction by direction, each ``(4 * hidden_size, layer_input_size)``
row-major), then every hidden-to-hidden matrix (``(4 * hidden_size, hidden_size)``), with ``proj_size`` then
every projection ``(proj_size, hidden_size)``, then one bias of ``4 * hidden_size`` per layer and direction; the gate blocks are in the order input, forget, cell candidate,
output. ``weight_size`` counts a second bias per layer and direction (as MindSpore's ``nn.LSTM`` allocates it);
the kernel does not read it. The layer input of a layer after the first is ``hidden_size * num_directions``.
With ``proj_size`` the hidden state is projected, ``h = (o * tanh(c)) @ w_proj.T`` (``proj_size`` wide: the
hidden-to-hidden matrices are ``(4 * hidden_size, proj_size)`` and a later layer's input ``proj_size *
num_directions``).
Written over ops of the table and unrolled over the steps, so it runs eagerly and compiled and is differentiable.
"""
from __future__ import annotations

from .._checkparam import check_positive_int, check_value_type
from ..common.tensor import Tensor
from . import functional as F
from .primitives import Primitive

__all__ = ["LSTM"]


class LSTM(Primitive):
    """``LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(x, h, c, w)``.

    Inputs:
        - **x** (Tensor) - ``(seq_len, batch_size, input_size)``.
        - **h**, **c** (Tensor) - ``(num_layers * num_directions, batch_size, hidden_size)``, the initial states
          (``h``: ``proj_size`` wide when it is not 0).
        - **w** (Tensor) - the flat weights, ``(weight_size, 1, 1)`` (see the module).

    Outputs:
        ``(output, h_n, c_n, reserve, state)``: ``output (seq_len, batch_size, num_directions * hidden_size)``
        (``proj_size`` for ``hidden_size`` when it is not 0), the
        final states as ``h``, ``c``; ``reserve`` and ``state`` are the kernel's work buffers in MindSpore (their
        contents are its own): npspore returns ``(1, 1)`` zeros for both.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If the shapes do not fit, `proj_size` is negative or not less than `hidden_size`, or it is not 0
            with more than one layer or two directions (MindSpore 2.10's CPU kernel cannot run those either).

    ``dropout`` is recorded and not applied, as MindSpore's CPU kernel does.
    """

    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
        super().__init__("LSTM")
        self.input_size = check_positive_int(input_size, "input_size", self.name)
        self.hidden_size = check_positive_int(hidden_size, "hidden_size", self.name)
        self.num_layers = check_positive_int(num_layers, "num_layers", self.name)
        self.has_bias = check_value_type("has_bias", has_bias, (bool,), self.name)
        self.bidirectional = check_value_type("bidirectional", bidirectional, (bool,), self.name)
        self.dropout = check_value_type("dropout", dropout, [float], self.name)
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"For '{self.name}', the 'dropout' must be in range [0, 1], but got {dropout}.")
        if not isinstance(proj_size, int) or not 0 <= proj_size < hidden_size:
            raise ValueError(f"For '{self.name}', the 'proj_size' must be an int in [0, hidden_size), but got "
                             f"{proj_size}.")
        if proj_size and (num_layers > 1 or bidirectional):   # MindSpore 2.10's CPU kernel fails on them too
            raise ValueError(f"For '{self.name}', a 'proj_size' is supported for one layer in one direction only "
                             f"(as MindSpore's CPU kernel), but got num_layers={num_layers} and "
                             f"bidirectional={bidirectional}.")
        self.proj_size = proj_size
        self.real_hidden_size = proj_size or hidden_size   # the width of h
        self.num_directions = 2 if bidirectional else 1
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers),
                            ("has_bias", has_bias), ("bidirectional", bidirectional), ("dropout", dropout),
                            ("proj_size", proj_size), ("num_directions", self.num_directions)):
            self.add_prim_attr(name, value)

    def _layout(self) -> tuple[list, int]:
        """Where each (layer, direction)'s input matrix, hidden matrix and bias start in the flat weight, with its
        layer input size, in (layer, direction) order; and how many weights they take."""
        hidden, gates, projection = self.real_hidden_size, 4 * self.hidden_size, self.proj_size * self.hidden_size
        count = self.num_layers * self.num_directions
        sizes = [self.input_size if cell < self.num_directions else hidden * self.num_directions
                 for cell in range(count)]
        input_starts = [gates * sum(sizes[:cell]) for cell in range(count)]
        hidden_starts = [gates * sum(sizes) + gates * hidden * cell for cell in range(count)]
        proj_starts = [gates * (sum(sizes) + hidden * count) + projection * cell for cell in range(count)]
        bias_starts = [gates * (sum(sizes) + hidden * count) + projection * count + gates * cell for cell in range(count)]
        total = gates * (sum(sizes) + hidden * count) + projection * count + (gates * count if self.has_bias else 0)
        return list(zip(sizes, input_starts, hidden_starts, proj_starts, bias_starts)), total

    def _direction(self, inputs: Tensor, h: Tensor, c: Tensor, flat: Tensor, cell: tuple, reverse: bool):
        """The hidden states of one direction of one layer over the sequence ``inputs``, and its final h, c."""
        size, input_start, hidden_start, proj_start, bias_start = cell
        gates_size, width = 4 * self.hidden_size, self.real_hidden_size
        w_input = F.transpose(F.reshape(flat[input_start:input_start + gates_size * size], (gates_size, size)), (1, 0))
        w_hidden = F.transpose(F.reshape(flat[hidden_start:hidden_start + gates_size * width], (gates_size, width)),
                               (1, 0))
        w_proj = F.transpose(F.reshape(flat[proj_start:proj_start + width * self.hidden_size],
                                       (width, self.hidden_size)), (1, 0)) if self.proj_size else None
        steps = inputs.shape[0]
        outputs = []
        for t in range(steps):
            gates = F.matmul(inputs[steps - 1 - t if reverse else t], w_input) + F.matmul(h, w_hidden)
            if self.has_bias:
                gates = gates + flat[bias_start:bias_start + gates_size]
            i, f, g, o = F.split(gates, self.hidden_size, -1)
            c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
            h = F.sigmoid(o) * F.tanh(c)
            if w_proj is not None:
                h = F.matmul(h, w_proj)
            outputs.append(h)
        return F.stack(outputs[::-1] if reverse else outputs, 0), h, c

    def __call__(self, x: Tensor, h: Tensor, c: Tensor, w: Tensor) -> tuple:
        for name, value in (("x", x), ("h", h), ("c", c), ("w", w)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For '{self.name}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
        states = (self.num_layers * self.num_directions, x.shape[1] if len(x.shape) == 3 else -1, self.hidden_size)
        h_states = states[:2] + (self.real_hidden_size,)
        if len(x.shape) != 3 or x.shape[2] != self.input_size or tuple(h.shape) != h_states or \
                tuple(c.shape) != states:
            raise ValueError(f"For '{self.name}', expected x (seq_len, batch_size, {self.input_size}), h {h_states} "
                             f"and c {states}, but got {tuple(x.shape)}, {tuple(h.shape)} and {tuple(c.shape)}.")
        layout, needed = self._layout()
        flat = F.reshape(w, (-1,))
        if len(w.shape) == 0 or flat.shape[0] < needed:
            raise ValueError(f"For '{self.name}', the 'w' must hold at least {needed} weights, but got shape "
                             f"{tuple(w.shape)}.")
        inputs, final_h, final_c = x, [], []
        for layer in range(self.num_layers):
            per_direction = []
            for direction in range(self.num_directions):
                index = layer * self.num_directions + direction
                outputs, h_n, c_n = self._direction(inputs, h[index], c[index], flat, layout[index],
                                                    reverse=direction == 1)
                per_direction.append(outputs)
                final_h.append(h_n)
                final_c.append(c_n)
            inputs = per_direction[0] if self.num_directions == 1 else F.concat(per_direction, -1)
        work = F.zeros((1, 1), x.dtype)
        return inputs, F.stack(final_h, 0), F.stack(final_c, 0), work, work
