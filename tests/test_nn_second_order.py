"""Second-order property tests of the convolution, pooling and ordering ops: Hypothesis draws operands
and static attributes (``nn_adjoint_cases``); the compiled vector-Jacobian product of each op, and
the compiled vector-Jacobian product of that vjp (itself a compiled Cell), must match central finite
differences (``gradcheck.check_grads``). ``topk`` (two outputs) is covered in ``test_nn_ops``."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gradcheck import check_grads
from nn_adjoint_cases import CASES
from npspore import Tensor, nn, ops
from npspore.ops.eager import run

SINGLE_OUTPUT = sorted(name for name in CASES if name != "topk")


class Op(nn.Cell):
    """One op of the table with fixed static attributes, as a Cell (its attributes key its kernels)."""

    def __init__(self, name, static):
        super().__init__()
        self.op_name = name
        self.static = static

    def construct(self, *xs):
        return run(self.op_name, *xs, **self.static)


class Vjp(nn.Cell):
    """``(*xs, dout) -> the cotangents of the float operands of `inner`` (compiled, differentiable)."""

    def __init__(self, inner, positions):
        super().__init__()
        self.inner = inner
        self.positions = positions
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, *xs_and_dout):
        grads = self.grad(self.inner)(*xs_and_dout)
        return tuple([grads[i] for i in self.positions])


def compiled_vjp(cell_of):
    """``vjp`` for :func:`check_grads`: the cell of a numpy-level function, differentiated by npspore."""
    def make(fn):
        cell = cell_of[fn]

        def vjp(args, dout):
            tensors = [Tensor(a) if isinstance(a, np.ndarray) else a for a in args]
            sens = tuple(Tensor(d) for d in dout) if isinstance(dout, tuple) else Tensor(dout)
            grads = ops.GradOperation(get_all=True, sens_param=True)(cell)(*tensors, sens)
            grads = grads if isinstance(grads, tuple) else (grads,)
            found = [g.asnumpy() if isinstance(a, np.ndarray) and a.dtype.kind == "f" else None
                     for a, g in zip(args, grads)]
            return found[0] if len(args) == 1 else tuple(found)
        return vjp
    return make


@pytest.mark.parametrize("name", SINGLE_OUTPUT)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_second_derivatives_match_finite_differences(name, data):
    operands, static = data.draw(CASES[name], label="operands and static")
    cell = Op(name, static)
    floats = tuple(i for i, a in enumerate(operands) if a.dtype.kind == "f")
    first = Vjp(cell, floats)

    def forward(*xs):
        return cell(*[Tensor(x) for x in xs]).asnumpy()

    def first_order(*xs_and_dout):
        return tuple(g.asnumpy() for g in first(*[Tensor(x) for x in xs_and_dout]))

    check_grads(forward, operands, compiled_vjp({forward: cell, first_order: first}), order=1)
    dout = np.random.default_rng(0).standard_normal(np.shape(forward(*operands)))
    check_grads(first_order, (*operands, dout), compiled_vjp({forward: cell, first_order: first}), order=1)
