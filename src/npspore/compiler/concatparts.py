"""Parts written straight into their concatenation (optimize, a NumPy step).

``np.concatenate`` copies each part into a new array; a part made only for it as a view chain of a value
(``d_q = d_div.transpose((2, 0, 1, 3)).reshape((64, 16, 128))``: attention's query gradient, the reshape a copy
already) is copied twice. A careful person makes the concatenated array first and puts each part in its place
once: ``np.copyto(d_q_slot, d_div)``, or ``np.matmul(a, b, out=d_v_slot)``, where the slot is the view of that
array the value fills (``out[..., 0:128].reshape((64, 16, 4, 32)).transpose((1, 2, 0, 3))``). So a ``concat``
of at least :data:`MIN_ELEMENTS` elements whose parts have static shapes and the concatenation's dtype becomes

* ``buf = empty(shape)`` (before the first statement writing into it) and, per part, ``slot = concat_slot(buf)``:
  the part's columns of ``buf`` (along its last axis; a concatenation along another axis slices ``buf`` seen
  as a matrix of its leading dims times the rest), reshaped and transposed into the view the value fills;
* the statement computing that value writes into the slot (``Apply.into``) where the value, the views of it and
  the part have no reader but the concatenation (never a result, a yield, a tape or a guard: their use counts
  are one) and NumPy writes it there with the same bits and at full speed: a matrix product whose slot has rows
  of contiguous elements (what BLAS writes), an exactly rounded ufunc (``+ - * /``, ``maximum``...) into a slot
  in C order (NumPy's ufunc loops writing a transposed view are slower than computing in place and one copy);
  codegen writes ``out=slot`` (or, where it cannot, the value as before, and the copy below copies it);
* at the concatenation, ``copy_into(slot, value)`` for each part (``np.copyto``: no line where the value was
  computed there; a part that is no such chain is copied whole into its columns), then
  ``concat_written(buf, *copies)``: ``buf``, under the concatenation's name.

The view chain of a part is read as transposes then reshapes (``expand_dims``, ``squeeze``, ``flatten`` are
reshapes); the slot undoes it: the reshape back to the transposed value's shape, then the inverse permutation.
A reshape is a view only where the strides allow it: the slot is built from a C-ordered array of ``buf``'s
size exactly as the generated code builds it, and a part whose slot is not a view of it (a copy there would
lose what is written into it) is copied whole. A concatenation is rewritten when a part is computed in its slot
or its chain both transposes and reshapes (the copy before ``np.concatenate``'s); values and bits are unchanged:
each element is computed by the same ufunc or product, or copied.

T3's attention backward (a (64, 16, 384) float32 concatenation of three transposed parts: the value gradient's
product into its slot, the query and key gradients copied once): 0.90 ms instead of 1.08 per layer, and the whole
training step 0.5-0.7 ms faster (the two kernels run in turn in one process, medians), on the project's 2-core
machine. Export and the transforms read the IR before the NumPy steps.
"""
from __future__ import annotations

import math

import numpy as np

from ..opdef import Aval, op_table
from . import ir
from .inplace import _is_ufunc_op
from .rewrite import Namer

# the smallest concatenation rewritten: below it the statements it adds cost more than the copy it saves (float32
# parts of rows of 128 computed into their slots, on the project's 2-core machine: 7,680 elements 9 us instead of
# 7, 98,304 49 instead of 44 (NumPy's ufunc loops go row by row), 393,216 300 instead of 350; LSTM steps' gate
# gradients, (20, 512), stay as they are)
MIN_ELEMENTS = 1 << 17
_RESHAPES = {"reshape", "expand_dims", "squeeze", "flatten"}
# ufuncs whose every element is exactly rounded: the same bits in any memory order or inner loop
_EXACT_UFUNCS = {np.add, np.subtract, np.multiply, np.true_divide, np.negative, np.maximum, np.minimum, np.absolute}
_PRODUCTS = {"matmul"}


def write_parts_in_place(function: ir.Function) -> None:
    """Rewrite each concatenation of ``function`` whose parts can be written into it (module docstring), in place
    (before dead code elimination: the parts' view chains are left unread)."""
    defs = {id(t): s for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) for t in s.targets}
    uses = ir.use_counts(function)
    namer = Namer(function)
    for block in ir.all_blocks(function.body):
        for stmt in [s for s in block.stmts if _joins_static_parts(s)]:
            layout = _Layout(stmt)
            parts = [_Part(arg, defs, uses, block) for arg in stmt.args]
            if all(layout.place(part) for part in parts) and any(p.producer or p.copied_twice for p in parts):
                block.stmts = _rewritten(block.stmts, stmt, layout, parts, namer)


def _joins_static_parts(stmt) -> bool:
    if not (isinstance(stmt, ir.Apply) and stmt.op == "concat" and len(stmt.targets) == 1 and stmt.into is None):
        return False
    target = stmt.targets[0].aval
    return (bool(target.shape) and None not in target.shape and math.prod(target.shape) >= MIN_ELEMENTS
            and all(isinstance(a, ir.Var) and a.aval.dtype == target.dtype for a in stmt.args))


class _Part:
    """One part of a concatenation: the value it is a view chain of (``source``), the shape that value has
    transposed (``reshape``, None: the part's) and the permutation back to it (``axes``, None: none), the statement
    computing the value, read by nothing else (``made``), and, set by :meth:`_Layout.place`, the slot (``slot``:
    ``concat_slot``'s static attributes) and the statement writing into it (``producer``, None: the value is
    copied). ``copied_twice``: the chain transposes then reshapes, a copy before ``np.concatenate``'s."""

    def __init__(self, part: ir.Var, defs: dict, uses: dict, block: ir.Block):
        self.part, self.source = part, part
        self.reshape: tuple | None = None
        self.axes: tuple | None = None
        self.made: ir.Apply | None = None
        self.producer: ir.Apply | None = None
        self.slot: dict = {}
        in_block = {id(s) for s in block.stmts}
        permutation: tuple | None = None     # the transposes' axes, composed
        while uses.get(id(self.source)) == 1:
            made = defs.get(id(self.source))
            if (made is None or id(made) not in in_block or not isinstance(made.args[0], ir.Var)
                    or None in made.args[0].aval.shape):
                break
            if made.op in _RESHAPES and permutation is None:
                self.reshape = tuple(made.args[0].aval.shape)
            elif made.op == "transpose":
                rank = len(made.args[0].aval.shape)
                axes = made.static.get("axes")
                axes = tuple(reversed(range(rank))) if axes is None else tuple(a % rank for a in axes)
                permutation = axes if permutation is None else tuple(axes[p] for p in permutation)
            else:
                break
            self.source = made.args[0]
        if permutation is not None and permutation != tuple(range(len(permutation))):
            self.axes = tuple(int(a) for a in np.argsort(permutation))
        self.copied_twice = self.axes is not None and self.reshape is not None
        made = defs.get(id(self.source))
        if uses.get(id(self.source)) == 1 and made is not None and id(made) in in_block:
            self.made = made


class _Layout:
    """Where the parts of a concatenation go: ``buffer_shape``, the concatenation as its slots are cut from it (its
    own shape along its last axis; else a matrix of its leading dims times the rest)."""

    def __init__(self, concat: ir.Apply):
        shape = tuple(concat.targets[0].aval.shape)
        self.axis = concat.static.get("axis", 0) % len(shape)
        self.columns = math.prod(shape[self.axis + 1:])
        self.buffer_shape = shape if self.axis == len(shape) - 1 else (
            math.prod(shape[:self.axis]), shape[self.axis] * self.columns)
        self.start = 0

    def place(self, part: _Part) -> bool:
        """Set ``part.slot``, the next slot, where ``part.source`` (or, failing that, the part itself) is a view, and
        ``part.producer``; False if the part is a view of none."""
        start, stop = self.start, self.start + part.part.aval.shape[self.axis] * self.columns
        self.start = stop
        part.slot = self.slot(start, stop, part.reshape or tuple(part.part.aval.shape), part.axes)
        view = self.view(part.slot, part.source.aval.shape)
        if view is None:
            if part.source is part.part:
                return False
            part.source, part.made, part.copied_twice = part.part, None, False   # copied whole into its columns
            part.slot = self.slot(start, stop, tuple(part.part.aval.shape), None)
            view = self.view(part.slot, part.part.aval.shape)
            if view is None:
                return False
        if part.made is not None and _writes_into(part.made, view):
            part.producer = part.made
        return True

    def slot(self, start: int, stop: int, shape: tuple, axes: tuple | None) -> dict:
        """``concat_slot``'s static attributes: columns ``start:stop`` reshaped to ``shape``, transposed by ``axes``."""
        static: dict = {"start": start, "stop": stop}
        if shape != self.buffer_shape[:-1] + (stop - start,):
            static["shape"] = shape
        if axes is not None:
            static["axes"] = axes
        return static

    def view(self, static: dict, shape: tuple) -> np.ndarray | None:
        """``concat_slot(buf, **static)`` of a C-ordered ``buf`` of bytes, as NumPy makes it, when it is a view of
        ``buf`` of ``shape`` (a reshape copies where the strides do not allow a view); else None. The bytes are
        never read: ``np.empty`` touches no page unless the reshape copies."""
        base = np.empty(math.prod(self.buffer_shape), np.uint8)
        slot = base.reshape(self.buffer_shape)[..., static["start"]:static["stop"]]
        if "shape" in static:
            slot = slot.reshape(static["shape"])
        if "axes" in static:
            slot = slot.transpose(static["axes"])
        return slot if np.may_share_memory(slot, base) and slot.shape == tuple(shape) else None


def _writes_into(stmt: ir.Apply, slot: np.ndarray) -> bool:
    """Whether ``stmt`` computes one array that NumPy writes into ``slot`` (a byte view of the concatenation, its
    strides in elements) with the same bits, and as fast: a matrix product into matrices BLAS takes (rows of
    contiguous elements), an exactly rounded ufunc into a slot in C order (into a transposed one, NumPy's ufunc
    loops are slower than computing in place and one copy: 4x for a (32, 64) block of attention's key gradient)."""
    if len(stmt.targets) != 1 or stmt.into is not None or stmt.workspace:
        return False
    if stmt.op in _PRODUCTS:
        rows = slot.strides[-2] if slot.ndim > 1 else slot.shape[-1]
        return slot.strides[-1] == 1 and rows >= slot.shape[-1]
    if not (_is_ufunc_op(stmt.op) and any(f in _EXACT_UFUNCS for f in op_table()[stmt.op].numpy)):
        return False
    strides = [stride for stride, size in zip(slot.strides, slot.shape) if size > 1]
    return all(a >= b for a, b in zip(strides, strides[1:]))


def _rewritten(stmts: list, concat: ir.Apply, layout: _Layout, parts: list, namer: Namer) -> list:
    """``stmts`` with ``concat`` (of ``parts``, placed by ``layout``) written as its parts written into a buffer
    (module docstring)."""
    target, loc = concat.targets[0], concat.loc
    buf = ir.Var(target.name, target.aval)
    target.name = namer.var(target.aval).name
    made = [ir.Apply((buf,), "empty", (), {"shape": tuple(target.aval.shape), "dtype": target.aval.dtype}, loc)]
    sliced = buf
    if layout.buffer_shape != tuple(target.aval.shape):
        sliced = namer.named(f"{buf.name}_2d", Aval(layout.buffer_shape, target.aval.dtype))
        made.append(ir.Apply((sliced,), "reshape", (buf,), {"shape": layout.buffer_shape}, loc))
    copies = []
    for part in parts:
        slot = namer.named(f"{part.part.name}_slot", part.source.aval)
        made.append(ir.Apply((slot,), "concat_slot", (sliced,), part.slot, loc))
        if part.producer is not None:
            part.producer.into = slot
        copies.append(ir.Apply((namer.var(slot.aval),), "copy_into", (slot, part.source), {}, loc, into=slot))
    concat.op, concat.args, concat.static = "concat_written", (buf, *(c.targets[0] for c in copies)), {}
    concat.into = buf
    at = next(i for i, s in enumerate(stmts) if s is concat)
    first = min((i for i, s in enumerate(stmts) if any(s is p.producer for p in parts)), default=at)
    return stmts[:first] + made + stmts[first:at] + copies + stmts[at:]
