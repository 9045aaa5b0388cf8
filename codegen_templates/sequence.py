"""Sequence ops for recurrent layers: reading and writing one time step of a ``(T, ...)`` buffer.

A recurrence that stays a loop in compiled code reads step ``t`` of its input and writes step ``t``
of its output, with ``t`` a run-time index. ``row_add`` adds ``h`` into row ``t`` of a buffer (a
recurrent layer writes each row of a zero buffer once, so adding is writing); its adjoint passes the
buffer's gradient through unchanged and reads row ``t`` of it, no copies. ``row_add`` copies the
buffer; the optimizer turns it into ``row_add_in_place`` (``row_set`` into ``row_set_in_place``)
where the loop owns the buffer (see ``compiler/optimize.py``), so a sequence of T steps costs O(T) rather than O(T²).
"""
import numpy as np

from npspore.opdef import LINEAR, Aval, OpShapeError, OpTypeError, call, op

TANGENT = LINEAR   # rows read and written: linear in the buffer and the row together
from npspore.shape_rules import dtype_of, shape_of


def _row_add_rule(buf, t, h):
    shape = shape_of(buf)
    if not shape or tuple(shape_of(h)) != tuple(shape[1:]):
        raise OpShapeError(f"For 'row_add', 'h' must have the shape of one row of 'buf' {shape[1:]}, "
                           f"but got {shape_of(h)}.")
    if dtype_of(h) != dtype_of(buf):
        raise OpTypeError(f"For 'row_add', 'h' must have the dtype of 'buf' ({dtype_of(buf)}), but got {dtype_of(h)}.")
    return Aval(shape, dtype_of(buf))


def _row_rule(x, t):
    shape = shape_of(x)
    if not shape:
        raise OpShapeError("For 'row', 'x' must have at least one dim, but got a scalar.")
    return Aval(shape[1:], dtype_of(x))


@op(infer=_row_add_rule)
class row_add:
    """``buf`` with ``h`` added into row ``t`` (``t`` an int, possibly a run-time 0-d array)."""

    def forward(buf, t, h):
        out = buf.copy()
        out[t] = out[t] + h
        return out

    def adjoint(buf, t, h, out, dout):
        return dout, None, call("row", dout, t)


@op(infer=_row_rule)
class row:
    """Row ``t`` of ``x`` (``x[t]``, ``t`` an int, possibly a run-time 0-d array)."""

    def forward(x, t):
        return x[t]

    def adjoint(x, t, out, dout):
        return call("row_add", np.zeros_like(x), t, dout), None


@op(infer=_row_add_rule)
class row_add_in_place:
    """``row_add`` writing into ``buf`` itself: only the optimizer emits it, for a buffer no one else reads."""

    def forward(buf, t, h):
        np.add(buf[t], h, out=buf[t])
        return buf

    adjoint = None


@op(infer=_row_add_rule)
class row_set:
    """``buf`` with row ``t`` replaced by ``h``: ``x[t] = h`` in compiled code with a run-time ``t`` (a loop's index),
    and how optimize writes a loop's per-step values into one stacked buffer (each row once; see
    ``compiler/tapes.py`` and ``compiler/loops.py``)."""

    def forward(buf, t, h):
        out = buf.copy()
        out[t] = h
        return out

    def adjoint(buf, t, h, out, dout):
        return call("row_set", dout, t, np.zeros_like(h)), None, call("row", dout, t)


@op(infer=_row_add_rule)
class row_set_in_place:
    """``row_set`` writing into ``buf`` itself: only the optimizer emits it, for a buffer no one else reads."""

    def forward(buf, t, h):
        buf[t] = h
        return buf

    adjoint = None


@op(infer=_row_rule)
class row_slot:
    """Row ``t`` of ``buf`` (``buf[t]``, a view) as the array a loop step's value is computed in: only the
    optimizer emits it, for a buffer the loop owns (see ``compiler/steprows.py``)."""

    def forward(buf, t):
        return buf[t]

    adjoint = None
