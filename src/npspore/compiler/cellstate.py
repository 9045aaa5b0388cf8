"""Tensors that compiled code assigns to attributes that are no Parameters (``self.attention_weights = w``).

MindSpore 2.10 sets such an attribute in PYNATIVE mode, in its gradients and under ``@jit`` (GRAPH mode
through its JIT fallback): after the call the attribute holds the value, and a later read in the same call
sees it. Compiled here:

* the assignment stages an effect ``state(slot, value)`` (``ir.Effect``): the kernel keeps the value and the
  caller sets the attribute after the kernel returned (``core.statewrites``); ``slot`` numbers the
  ``(object, attribute)`` pairs of one program (:class:`StateSlots`), which ``Program.state`` lists and
  a kernel on disk names by path;
* a later read of the attribute in the same function is the value assigned (no attribute is set while
  compiling); a read in another function of the program (the caller of the cell that set it) is refused at
  the user's line, as is a read after a tensor ``if`` that set it in a branch, and an assignment in a loop
  that stays a loop;
* the value is an ordinary value of the program: its gradient flows as MindSpore's PYNATIVE mode's does
  (its GRAPH mode stops gradients at the assignment, with a warning);
* a read of the attribute's earlier value (before the assignment, or in a later call) reads the Tensor the
  attribute holds when the kernel runs (``kernel.AttributeRef``), and a value read that was no Tensor when
  the kernel was compiled (``None``, or no attribute yet) makes the kernel stale once it is one.
"""
from __future__ import annotations

from typing import Any, Callable

from . import ir
from .builder import BlockBuilder
from .errors import not_supported
from .guards import MISSING, Guard
from .library import LIBRARY
from .values import TensorValue

__all__ = ["CellState", "StateSlots"]


class StateSlots:
    """The ``(object, attribute)`` pairs one program's kernels set, numbered in first-assignment order."""

    def __init__(self):
        self.slots: dict = {}          # (id(obj), attr) -> slot number
        self.targets: list = []        # slot -> (obj, attr)
        self.owners: dict = {}         # (id(obj), attr) -> name of the function that set it
        self.read: set = set()         # (id(obj), attr) of each attribute read from its object

    def slot(self, obj, attr: str, function: str) -> int:
        """The slot of ``obj.attr`` (made on its first assignment)."""
        key = (id(obj), attr)
        if key not in self.slots:
            self.slots[key] = len(self.targets)
            self.targets.append((obj, attr))
        self.owners.setdefault(key, function)
        return self.slots[key]


class CellState:
    """Assignments and reads of Cell attributes that hold tensors, for ``FunctionSpecializer``."""

    _state_values: dict | None = None   # (id(obj), attr) -> (TensorValue, block it was assigned in)
    program: Any                         # FunctionSpecializer's: the ProgramBuilder, its name, where statements go,
    name: str                            # its top block, how many kept loops enclose the current block, and the
    builder: BlockBuilder                # location generated code cites
    _body: ir.Block
    _dynamic_loops: int
    _loc: Callable[..., ir.Loc]

    @property
    def writes_state(self) -> bool:
        """Whether the function sets an attribute (it is then not shared by identical sub-cells: its slots
        name this cell's attributes)."""
        return bool(self._state_values)

    def set_attribute(self, obj, attr: str, value, frame, node) -> None:
        """``obj.attr = value`` for an attribute that is no Parameter: a tensor is kept for the caller to set
        after the call; any other value is set on the object now (MindSpore 2.10 sets it too)."""
        key = (id(obj), attr)
        if not isinstance(value, TensorValue):
            if self._state_values is not None:
                self._state_values.pop(key, None)
            setattr(obj, attr, value)
            return
        if self._dynamic_loops:
            raise not_supported(f"assigning a tensor to the attribute {attr!r} (no Parameter) in a loop that stays "
                                "a loop", frame.source.loc(node))
        current = getattr(obj, attr, MISSING)
        if key in self.program.state.read and not isinstance(current, LIBRARY.tensor_type):
            # the kernel read None (or no attribute): after this call it reads a Tensor, compiled anew
            self.program.guards.guards.setdefault(("state", *key), Guard(
                f"attribute {type(obj).__name__}.{attr}", obj, attr, False, current))
        slot = self.program.state.slot(obj, attr, self.name)
        self.builder.append(ir.Effect("state", (ir.Const(slot), value.var), self._loc(frame, node)))
        if self._state_values is None:
            self._state_values = {}
        self._state_values[key] = (value, self.builder.block)

    def assigned_attribute(self, obj, attr: str, frame, node) -> TensorValue | None:
        """The tensor this function assigned to ``obj.attr`` earlier (None: read the attribute)."""
        key = (id(obj), attr)
        if key not in self.program.state.slots:
            self.program.state.read.add(key)
            return None
        held = (self._state_values or {}).get(key)
        if held is None:
            owner = self.program.state.owners[key]
            if owner == self.name:   # set before in this function, then to a Python value
                return None
            raise not_supported(f"reading the attribute {attr!r}, which the compiled call of {owner!r} sets, "
                                "in another function (read it after the call returned, or in that function)",
                                frame.source.loc(node))
        value, block = held
        if block is not self._body and block is not self.builder.block:
            raise not_supported(f"reading the attribute {attr!r} after a tensor 'if' set it in a branch",
                                frame.source.loc(node))
        return value
