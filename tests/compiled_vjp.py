"""Compiled first and second derivatives of a Cell, checked against central differences.

``check_second_order(cell, operands)`` checks the compiled vector-Jacobian product of ``cell``
(``GradOperation(get_all=True, sens_param=True)``) and the compiled vector-Jacobian product of that
vjp (itself a compiled Cell, :class:`Vjp`: the differentiate stage runs twice, staging the adjoint
rules of the adjoint rules) against central finite differences in float64 (``gradcheck.check_grads``).
"""
import numpy as np

from gradcheck import check_grads
from npspore import Tensor, nn, ops
from npspore.ops.eager import run


class Op(nn.Cell):
    """One op of the table with fixed static attributes, as a Cell (its attributes key its kernels)."""

    def __init__(self, name, static):
        super().__init__()
        self.op_name = name
        self.static = static

    def construct(self, *xs):
        return run(self.op_name, *xs, **self.static)


class Program(nn.Cell):
    """``fn(*xs, **static)`` as a Cell: ``fn`` a function of ``npspore.ops`` or a layer."""

    def __init__(self, fn, static=None):
        super().__init__()
        self.fn = fn
        self.static = static or {}

    def construct(self, *xs):
        return self.fn(*xs, **self.static)


class Vjp(nn.Cell):
    """``(*xs, *douts) -> the cotangents of the float Tensors of ``xs``` (compiled, differentiable).

    ``floats`` are the positions of the float Tensors among the Tensors of ``xs``; ``outputs`` is
    the number of ``inner``'s outputs (0 for a single Tensor): that many trailing arguments are the
    output cotangents.
    """

    def __init__(self, inner, floats, outputs):
        super().__init__()
        self.inner = inner
        self.floats = floats
        self.outputs = outputs
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, *args):
        if self.outputs:
            xs, sens = args[:-self.outputs], tuple(args[-self.outputs:])
        else:
            xs, sens = args[:-1], args[-1]
        grads = self.grad(self.inner)(*xs, sens)
        return tuple([grads[i] for i in self.floats])


def tensor(value):
    """A Tensor of an array (or of a NumPy scalar, what ``x + eps * u`` gives for a 0-d ``x``)."""
    return Tensor(np.asarray(value)) if isinstance(value, (np.ndarray, np.generic)) else value


def compiled_vjp(cells):
    """``vjp`` for :func:`check_grads`: ``cells[fn]`` is the Cell computing the numpy-level ``fn``."""
    def make(fn):
        cell = cells[fn]

        def vjp(args, dout):
            sens = tuple(Tensor(d) for d in dout) if isinstance(dout, tuple) else Tensor(dout)
            grads = ops.GradOperation(get_all=True, sens_param=True)(cell)(*[tensor(a) for a in args], sens)
            grads = list(grads) if isinstance(grads, tuple) else [grads]
            tensors = [i for i, a in enumerate(args) if isinstance(a, (np.ndarray, np.generic))]
            found = [None] * len(args)
            for i, grad in zip(tensors, grads):
                if args[i].dtype.kind == "f":
                    found[i] = grad.asnumpy()
            return found[0] if len(args) == 1 else tuple(found)
        return vjp
    return make


def as_arrays(out):
    return tuple(o.asnumpy() for o in out) if isinstance(out, tuple) else out.asnumpy()


def check_second_order(cell, operands, **tolerances):
    """Check ``cell``'s compiled first derivatives, and the derivatives of those, at ``operands``
    (float64 arrays are differentiated; int/bool arrays, Python values and ``None`` are held fixed)."""
    out = as_arrays(cell(*[tensor(a) for a in operands]))
    outputs = len(out) if isinstance(out, tuple) else 0
    tensors = [a for a in operands if isinstance(a, np.ndarray)]  # GradOperation's results are theirs
    first = Vjp(cell, tuple(i for i, a in enumerate(tensors) if a.dtype.kind == "f"), outputs)

    def forward(*xs):
        return as_arrays(cell(*[tensor(x) for x in xs]))

    def first_order(*xs_and_douts):
        return as_arrays(first(*[tensor(x) for x in xs_and_douts]))

    vjp = compiled_vjp({forward: cell, first_order: first})
    with np.errstate(all="ignore"):
        check_grads(forward, operands, vjp, order=1, **tolerances)
        rng = np.random.default_rng(0)
        douts = [np.asarray(rng.standard_normal(np.shape(o))) if np.asarray(o).dtype.kind == "f"
                 else np.zeros_like(o) for o in (out if outputs else (out,))]
        check_grads(first_order, (*operands, *douts), vjp, order=1, **tolerances)
