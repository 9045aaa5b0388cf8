"""Collective ops over a communication group: ``all_reduce``, ``all_gather``, ``reduce_scatter``,
``broadcast``, ``reduce``.

Each forward calls the runtime's collective (``rt.all_reduce`` ...), which is one MPI call on the
group (a copy of the input in a process that never joined an MPI job). Compiled code calls it at the
same point of the program on every rank, so ranks meet in the same order. ``group`` is the group's
name and ``size`` its number of ranks, both static: a kernel is specialised to its group.

Adjoints (every rank holds its own ``dout``):

* ``all_reduce`` sum: ``all_reduce(dout)``; max/min: the summed ``dout`` where ``x`` is the
  result; prod: the summed ``dout * out / x``;
* ``all_gather``: ``reduce_scatter`` of ``dout`` (each rank gets the sum of its block);
* ``reduce_scatter``: ``all_gather`` of ``dout``;
* ``broadcast`` from ``root``: the sum of ``dout`` over the group on ``root``, zero elsewhere;
* ``reduce`` to ``root`` (sum): ``root``'s ``dout`` broadcast to every rank.
"""
from npspore import runtime as rt
from npspore.opdef import LINEAR, Aval, OpShapeError, OpTypeError, call, op
from npspore.shape_rules import dtype_of, shape_of

_REDUCE_OPS = ("sum", "max", "min", "prod")

TANGENT = LINEAR   # moving and summing tensors between ranks is linear; max/min/prod reductions have their own


def _checked(name, x, op="sum"):
    if op not in _REDUCE_OPS:
        raise OpTypeError(f"For '{name}', the 'op' must be one of {list(_REDUCE_OPS)}, but got {op!r}.")
    return tuple(shape_of(x)), dtype_of(x)


def _same(name):
    def infer(x, *, op="sum", group, size, root=0):
        shape, dtype = _checked(name, x, op)
        return Aval(shape, dtype)
    return infer


def _gathered(x, *, group, size):
    shape, dtype = _checked("AllGather", x)
    if not shape:
        raise OpShapeError("For 'AllGather', the input must have at least one dimension, but got a 0-D tensor.")
    first = None if shape[0] is None else shape[0] * size
    return Aval((first,) + shape[1:], dtype)


def _scattered(x, *, op="sum", group, size):
    shape, dtype = _checked("ReduceScatter", x, op)
    if not shape or (shape[0] is not None and shape[0] % size):
        raise OpShapeError(f"For 'ReduceScatter', the first dimension of the input must be divisible by the "
                           f"group size {size}, but got shape {list(shape)}.")
    first = None if shape[0] is None else shape[0] // size
    return Aval((first,) + shape[1:], dtype)


@op(infer=_same("AllReduce"))
class all_reduce:
    def forward(x, *, op="sum", group, size):
        return rt.all_reduce(x, op, group)

    def adjoint(x, out, dout, *, op="sum", group, size):
        if op == "sum":
            return call("all_reduce", dout, op="sum", group=group, size=size)
        if op == "prod":
            return call("all_reduce", dout * out, op="sum", group=group, size=size) / x
        return call("all_reduce", dout, op="sum", group=group, size=size) * (x == out)

    def tangent(x, out, dx, *, op="sum", group, size):
        if op == "sum":
            return call("all_reduce", dx, op="sum", group=group, size=size)
        if op == "prod":
            return out * call("all_reduce", dx / x, op="sum", group=group, size=size)
        return call("all_reduce", dx * (x == out), op="sum", group=group, size=size)


@op(infer=_gathered)
class all_gather:
    def forward(x, *, group, size):
        return rt.all_gather(x, group)

    def adjoint(x, out, dout, *, group, size):
        return call("reduce_scatter", dout, op="sum", group=group, size=size)


@op(infer=_scattered)
class reduce_scatter:
    def forward(x, *, op="sum", group, size):
        return rt.reduce_scatter(x, op, group)

    def adjoint(x, out, dout, *, op="sum", group, size):
        return call("all_gather", dout, group=group, size=size)


@op(infer=_same("Broadcast"))
class broadcast:
    def forward(x, *, root, group, size):
        return rt.broadcast(x, root, group)

    def adjoint(x, out, dout, *, root, group, size):
        return call("reduce", dout, op="sum", root=root, group=group, size=size)


@op(infer=_same("Reduce"))
class reduce:
    """The ``op`` of ``x`` over the group on rank ``root``; zeros on the other ranks."""

    def forward(x, *, op="sum", root, group, size):
        return rt.reduce(x, op, root, group)

    def adjoint(x, out, dout, *, op="sum", root, group, size):
        if op == "sum":
            return call("broadcast", dout, root=root, group=group, size=size)
        if op == "prod":
            return call("broadcast", dout * out, root=root, group=group, size=size) / x
        return call("broadcast", dout, root=root, group=group, size=size) * (
            x == call("broadcast", out, root=root, group=group, size=size))

    def tangent(x, out, dx, *, op="sum", root, group, size):
        if op == "sum":
            return call("reduce", dx, op="sum", root=root, group=group, size=size)
        if op == "prod":
            return out * call("reduce", dx / x, op="sum", root=root, group=group, size=size)
        return call("reduce", dx * (x == call("broadcast", out, root=root, group=group, size=size)), op="sum",
                    root=root, group=group, size=size)
