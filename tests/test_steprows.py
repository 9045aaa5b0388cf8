"""The rows a counted loop writes into a stacked buffer (compiler.steprows): a buffer every row of which the loop
writes is made ``empty``; a step's value made by exactly rounded ufuncs is computed in its row. Each kernel is
checked against the same kernel without these steps (the same bits) and against float64 central differences."""
import re

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from npspore.compiler import ir, steprows
from npspore.compiler.differentiate import differentiate
from npspore.compiler.optimize import optimize
from test_codegen import render_module, run_rendered
from test_differentiate import F64, LOC, Prog, numeric_gradient, rand, walk
from test_loop_kernels import _args, _rnn

INDEX = ir.Aval((), np.dtype(np.int64))


def _without_steprows(monkeypatch, module):
    """``module`` optimized without this module's two steps."""
    with monkeypatch.context() as patched:
        patched.setattr(steprows, "leave_written_rows_unset", lambda function: None)
        patched.setattr(steprows, "compute_values_in_rows", lambda function: None)
        return optimize(module)


def _ops(module, name):
    return [s for s in walk(module) if isinstance(s, ir.Apply) and s.op == name]


def _same_bits(got, want):
    for a, b in zip(got, want):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def _squared_activations(steps=4):
    """for t in range(steps): s = s + sum(tanh(xs[t] @ w) * tanh(xs[t] @ w)); return s

    No recurrence: a step's gradient ``d(xs[t] @ w)`` is a new value every step, made by ufuncs only."""
    p = Prog(xs=(steps, 2, 3), w=(3, 5), s0=((), F64))
    xs, w, s0 = p.params
    index = p.var("t", INDEX)
    s = p.var("s", s0)
    body = p.block()
    y = p.op("tanh", p.op("matmul", p.op("row", xs, index, into=body), w, into=body), into=body, hint="y")
    body.block.results = (p.op("add", s, p.total(p.op("mul", y, y, into=body), into=body), into=body),)
    out = p.var("s", s0)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(steps), ir.Const(1), (s0,), (s,), body.block,
                                 (out,), LOC))
    return p.module(out)


def test_buffers_every_row_of_which_the_loop_writes_are_not_zeroed(monkeypatch):
    grad = differentiate(_rnn(), (1, 2, 3))
    optimized = optimize(grad)
    # the history of h (row 0 before the loop, row t + 1 in it) and the rows of d(pre), written at 3 - i
    assert sorted(s.targets[0].aval.shape for s in _ops(optimized, "empty")) == [(4, 2, 5), (5, 2, 5)]
    source = render_module(optimized)
    assert "_steps = np.empty(" in source and "_steps = np.zeros(" not in source
    args = _args()
    _same_bits(run_rendered(optimized, *args), run_rendered(_without_steprows(monkeypatch, grad), *args))
    for j, got in zip((1, 2, 3), run_rendered(optimized, *args)[1:]):
        np.testing.assert_allclose(got, numeric_gradient(_rnn(), args, j), rtol=1e-6, atol=1e-8)


def test_a_step_gradient_made_by_ufuncs_is_computed_in_its_row(monkeypatch):
    grad = differentiate(_squared_activations(), (1,))
    optimized = optimize(grad)
    # the backward's d(xs[t] @ w) rows; the forward's tanh rows are copied (see the transcendental test below)
    assert len(_ops(optimized, "row_slot")) == 1 and len(_ops(optimized, "row_set_in_place")) == 1
    source = render_module(optimized)
    backward = source[source.index("for i in range(4):"):]
    rows = [(row, buffer) for row, buffer in re.findall(r"(\w+) = (\w+_steps\w*)\[step\]", backward)
            if f"out={row})" in backward]   # the first ufunc writes into the row
    assert len(rows) == 1, backward
    assert f"{rows[0][1]}[step] = " not in backward   # and nothing copies it there
    args = [rand(4, 2, 3), rand(3, 5, seed=1), np.array(0.25)]
    _same_bits(run_rendered(optimized, *args), run_rendered(_without_steprows(monkeypatch, grad), *args))
    np.testing.assert_allclose(run_rendered(optimized, *args)[1], numeric_gradient(_squared_activations(), args, 1),
                               rtol=1e-6, atol=1e-8)


def _rows(write, steps=3, rows=4):
    """buf = zeros((rows, 2, 3)); for t in range(steps): buf = row_set(buf, t_row, xs[t] * xs[t] - 1);
    return buf * 2, where ``write(p, body, index, buf, value)`` returns the next buffer."""
    p = Prog(xs=(steps, 2, 3))
    (xs,) = p.params
    zeros = p.op("zeros", shape=(rows, 2, 3), dtype=np.dtype(np.float64), hint="buf")
    index = p.var("t", INDEX)
    buf = p.var("buf", zeros)
    body = p.block()
    x = p.op("row", xs, index, into=body)
    value = p.op("sub", p.op("mul", x, x, into=body), ir.Const(1.0), into=body)
    body.block.results = (write(p, body, index, buf, value),)
    out = p.var("buf", zeros)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(steps), ir.Const(1), (zeros,), (buf,), body.block,
                                 (out,), LOC))
    return p.module(p.op("mul", out, ir.Const(2.0)))


def _row_set_at(offset):
    def write(p, body, index, buf, value):
        row = index if offset == 0 else p.op("add", index, ir.Const(offset), into=body)
        return p.op("row_set", buf, row, value, into=body)
    return write


def _row_set_when_positive(p, body, index, buf, value):
    """if sum(value) > 0: buf[t] = value"""
    positive = p.op("greater", p.total(value, into=body), ir.Const(0.0), into=body)
    then, other = p.block(), p.block()
    then.block.results = (p.op("row_set", buf, index, value, into=then),)
    other.block.results = (buf,)
    written = p.var("buf", buf)
    body.append(ir.If(positive, then.block, other.block, (written,), LOC))
    return written


@pytest.mark.parametrize("write, steps, rows, empty", [
    (_row_set_at(0), 4, 4, True),              # rows 0..3 of 4
    (_row_set_at(1), 3, 4, False),             # rows 1..3: row 0 stays zero
    (_row_set_at(0), 3, 4, False),             # rows 0..2: row 3 stays zero
    (_row_set_when_positive, 4, 4, False),     # only the steps whose value is positive
], ids=["every_row", "not_the_first", "not_the_last", "conditional"])
def test_a_buffer_keeps_its_zeros_unless_every_row_is_written(write, steps, rows, empty):
    module = _rows(write, steps, rows)
    optimized = optimize(module)
    assert bool(_ops(optimized, "empty")) == empty and bool(_ops(optimized, "zeros")) != empty
    args = [rand(steps, 2, 3, low=-1.5, high=1.5)]
    expected = ir.evaluate(module, *args)
    if write is _row_set_when_positive:   # some steps write, some do not
        assert 0 < sum(np.sum(args[0][t] ** 2 - 1) > 0 for t in range(steps)) < steps
    _same_bits(run_rendered(optimized, *args), expected)


def test_a_value_the_loop_carries_on_is_not_computed_in_a_row():
    """for t in range(3): v = xs[t] * xs[t] - 1 + v; buf[t] = v: v is the next step's operand, its row is not"""
    p = Prog(xs=(3, 2, 3), v0=(2, 3))
    xs, v0 = p.params
    zeros = p.op("zeros", shape=(3, 2, 3), dtype=np.dtype(np.float64), hint="buf")
    index = p.var("t", INDEX)
    buf, v = p.var("buf", zeros), p.var("v", v0)
    body = p.block()
    x = p.op("row", xs, index, into=body)
    fresh = p.op("add", p.op("sub", p.op("mul", x, x, into=body), ir.Const(1.0), into=body), v, into=body)
    body.block.results = (p.op("row_set", buf, index, fresh, into=body), fresh)
    outs = p.var("buf", zeros), p.var("v", v0)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(3), ir.Const(1), (zeros, v0), (buf, v), body.block,
                                 outs, LOC))
    module = p.module(*outs)
    optimized = optimize(module)
    assert not _ops(optimized, "row_slot") and _ops(optimized, "empty")
    args = [rand(3, 2, 3), rand(2, 3, seed=1)]
    _same_bits(run_rendered(optimized, *args), ir.evaluate(module, *args))


def test_a_step_value_made_by_a_transcendental_ufunc_is_copied_into_its_row():
    """buf[t] = tanh(xs[t]): NumPy's SIMD tanh may round otherwise at another alignment, so it is computed as before"""
    def write(p, body, index, buf, value):
        return p.op("row_set", buf, index, p.op("tanh", value, into=body), into=body)
    module = _rows(write, 4, 4)
    optimized = optimize(module)
    assert not _ops(optimized, "row_slot") and _ops(optimized, "row_set_in_place")
    args = [rand(4, 2, 3)]
    _same_bits(run_rendered(optimized, *args), ir.evaluate(module, *args))


class _SequenceLoss(nn.Cell):
    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def construct(self, x):
        out, _ = self.rnn(x)
        return (out * out).sum()


def test_lstm_gradients_compiled_equal_eager_mode():
    ms.set_seed(7)
    loss = _SequenceLoss(nn.LSTM(3, 4, 2))
    grad = ms.grad(loss, grad_position=None, weights=loss.trainable_params())
    x = Tensor(np.random.default_rng(8).standard_normal((6, 2, 3)).astype(np.float32))
    compiled = ms.jit(grad)
    source = compiled.kernel_source(x)
    # the two backward loops write their steps' gate gradients into their rows, and zero no buffer they fill
    assert len(re.findall(r"\w+ = \w+_steps\[i(?:_\d+)?\]", source)) == 2, source
    assert not re.search(r"_steps = np\.zeros\(", source), source
    for got, want in zip(compiled(x), grad(x)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)
