"""Loop kernels of optimize on hand-built IR: stacked tapes (compiler.tapes), hoisted invariants and
biases, and the batched products that read the tapes (compiler.loops)."""
import numpy as np

import npspore as ms
from npspore import Tensor, ops
from npspore.compiler import ir, loops
from npspore.compiler.differentiate import differentiate
from npspore.compiler.optimize import optimize
from npspore.ops.eager import run
from test_codegen import render_module, run_rendered
from test_differentiate import LOC, Prog, numeric_gradient, rand, walk
from test_optimize import close_results


def _rnn(steps=4, read="row", transposed_state=False, **static):
    """for t in range(steps): h = tanh(xs[t] @ wx + h @ wh); return sum(h * h)   (``h @ wh.T``: transposed_state)"""
    p = Prog(xs=(steps, 2, 3), h0=(2, 5), wx=(3, 5), wh=(5, 5))
    xs, h0, wx, wh = p.params
    index = p.var("t", ir.Aval((), np.dtype(np.int64)))
    h = p.var("h", h0)
    body = p.block()
    pre = p.op("add", p.op("matmul", p.op(read, xs, index, into=body, **static), wx, into=body),
               p.op("matmul", h, wh, into=body, transpose_b=transposed_state), into=body)
    body.block.results = (p.op("tanh", pre, into=body, hint="h"),)
    out = p.var("h", h0)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(steps), ir.Const(1), (h0,), (h,), body.block,
                                 (out,), LOC))
    return p.module(p.total(p.op("mul", out, out)))


def _args(steps=4):
    return [rand(steps, 2, 3), rand(2, 5, seed=1), rand(3, 5, seed=2), 0.5 * rand(5, 5, seed=3)]


def test_a_counted_loop_tape_becomes_rows_of_stacked_buffers():
    grad = differentiate(_rnn(), (1, 2, 3))
    optimized = optimize(grad)
    kinds = {type(s).__name__ for s in walk(optimized)}
    assert not kinds & {"TapeNew", "TapePush", "TapePop"}
    writes = [s for s in walk(optimized) if isinstance(s, ir.Apply) and s.op == "row_set_in_place"]
    # the history of h (row 0 = h0, row t + 1 = the step's h) and the rows of d(pre) in the backward loop
    assert sorted(s.targets[0].aval.shape for s in writes) == [(4, 2, 5), (5, 2, 5), (5, 2, 5)]
    # d_wx reads the rows of xs themselves: no stacked copy of xs[t]
    assert not any(s.targets[0].aval.shape == (4, 2, 3) for s in walk(optimized)
                   if isinstance(s, ir.Apply) and s.op in ("zeros", "row_set", "row_set_in_place"))
    args = _args()
    close_results(grad, optimized, *args)
    for got, want in zip(run_rendered(optimized, *args), ir.evaluate(grad, *args)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    for j, got in zip((1, 2, 3), run_rendered(optimized, *args)[1:]):   # after the value
        np.testing.assert_allclose(got, numeric_gradient(_rnn(), args, j), rtol=1e-6, atol=1e-8)


def test_a_matrix_the_loop_multiplies_by_transposed_is_copied_in_order_once_before_it(monkeypatch):
    grad = differentiate(_rnn(transposed_state=True), (1, 2, 3))
    assert not [s for s in walk(optimize(grad)) if isinstance(s, ir.Apply) and s.op == "copy"]  # 4 x 2 rows: no gain
    monkeypatch.setattr(loops, "TRANSPOSED_COPY_MIN_ROWS", 8)
    optimized = optimize(grad)
    copies = [s for s in walk(optimized) if isinstance(s, ir.Apply) and s.op == "copy"]
    # the forward loop's h @ wh.T; the backward's d_h = d_pre @ wh reads wh in order already
    assert [(s.args[0].name, s.static) for s in copies] == [("wh", {"transpose": True})]
    for_loops = [s for s in walk(optimized) if isinstance(s, ir.ForRange)]
    assert not any(s.op == "matmul" and s.static.get("transpose_b") for loop in for_loops
                   for s in ir.walk_stmts(loop.body) if isinstance(s, ir.Apply))
    assert " = wh.T.copy()" in render_module(optimized)
    args = _args()
    close_results(grad, optimized, *args)
    for j, got in zip((1, 2, 3), run_rendered(optimized, *args)[1:]):
        np.testing.assert_allclose(got, numeric_gradient(_rnn(transposed_state=True), args, j), rtol=1e-6, atol=1e-8)


def test_a_matrix_the_loop_carries_is_not_copied_before_it(monkeypatch):
    """for t in range(4): h = tanh(h @ w.T); w = w * 0.5; return sum(h * h): w is another matrix every step"""
    p = Prog(h0=(2, 5), w0=(5, 5))
    h0, w0 = p.params
    index = p.var("t", ir.Aval((), np.dtype(np.int64)))
    h, w = p.var("h", h0), p.var("w", w0)
    body = p.block()
    product = p.op("matmul", h, w, into=body, transpose_b=True)
    body.block.results = (p.op("tanh", product, into=body, hint="h"), p.op("mul", w, 0.5, into=body, hint="w"))
    outs = (p.var("h", h0), p.var("w", w0))
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(4), ir.Const(1), (h0, w0), (h, w), body.block,
                                 outs, LOC))
    module = p.module(p.total(p.op("mul", outs[0], outs[0])))
    monkeypatch.setattr(loops, "TRANSPOSED_COPY_MIN_ROWS", 2)
    grad = differentiate(module, (0, 1))
    optimized = optimize(grad)
    assert not [s for s in walk(optimized) if isinstance(s, ir.Apply) and s.op == "copy"]
    args = [rand(2, 5, seed=4), 0.5 * rand(5, 5, seed=5)]
    close_results(grad, optimized, *args)
    for j, got in zip((0, 1), run_rendered(optimized, *args)[1:]):
        np.testing.assert_allclose(got, numeric_gradient(module, args, j), rtol=1e-6, atol=1e-8)


def test_a_matrix_the_loop_assigns_is_not_copied_before_it(monkeypatch):
    """for t in range(4): h = tanh(h @ w.T); assign(w, w * 0.5): the Parameter w is another array every step"""
    p = Prog(h0=(2, 5), w=(5, 5))
    h0, w = p.params
    index = p.var("t", ir.Aval((), np.dtype(np.int64)))
    h = p.var("h", h0)
    body = p.block()
    body.block.results = (p.op("tanh", p.op("matmul", h, w, into=body, transpose_b=True), into=body, hint="h"),)
    body.block.stmts.append(ir.Effect("assign", (w, p.op("mul", w, 0.5, into=body)), LOC))
    out = p.var("h", h0)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(4), ir.Const(1), (h0,), (h,), body.block, (out,), LOC))
    module = p.module(out)
    monkeypatch.setattr(loops, "TRANSPOSED_COPY_MIN_ROWS", 2)
    optimized = optimize(module)
    assert not [s for s in walk(optimized) if isinstance(s, ir.Apply) and s.op == "copy"]
    h_value, w_value = rand(2, 5, seed=6), rand(5, 5, seed=7)
    expected, matrix = h_value, w_value.copy()
    for _ in range(4):
        expected, matrix = np.tanh(expected @ matrix.T), matrix * 0.5
    (got,) = run_rendered(optimized, h_value, w_value.copy())
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_the_backward_loop_reads_the_forward_steps_in_reverse_as_views():
    source = render_module(optimize(differentiate(_rnn(), (2, 3))))
    assert "tape" not in source and ".pop()" not in source
    assert "step = 3 - i" in source                 # the forward step the backward iteration reads
    assert "[0] = h0" in source                     # the initial state is row 0 of the history


def test_a_tape_in_a_nested_loop_stays_a_list():
    p = Prog(x=(2, 3), w=(3, 3))
    x, w = p.params
    i, j = (p.var(n, ir.Aval((), np.dtype(np.int64))) for n in ("i", "j"))
    h_outer, h_inner = p.var("h", x), p.var("h", x)
    inner = p.block()
    inner.block.results = (p.op("tanh", p.op("matmul", h_inner, w, into=inner), into=inner, hint="h"),)
    outer = p.block()
    h_next = p.var("h", x)
    outer.builder = outer
    outer.block.stmts.append(ir.ForRange(j, ir.Const(0), ir.Const(2), ir.Const(1), (h_outer,), (h_inner,),
                                         inner.block, (h_next,), LOC))
    outer.block.results = (h_next,)
    out = p.var("h", x)
    p.builder.append(ir.ForRange(i, ir.Const(0), ir.Const(3), ir.Const(1), (x,), (h_outer,), outer.block,
                                 (out,), LOC))
    module = p.module(p.total(out))
    grad = differentiate(module, (0, 1))
    optimized = optimize(grad)
    assert any(isinstance(s, ir.TapePush) for s in walk(optimized))   # the inner loop's tape
    args = [rand(2, 3), 0.5 * rand(3, 3, seed=1)]
    for got, want in zip(run_rendered(optimized, *args), ir.evaluate(grad, *args)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ir.evaluate(optimized, *args)[2], numeric_gradient(module, args, 1), rtol=1e-6)


def _scan_of_sums(x):
    out = ops.zeros(x.shape[:1], x.dtype)
    for t in range(x.shape[0]):
        out = run("row_add", out, t, ops.sum(run("row", x, t)))
    return out


def test_a_row_added_into_a_one_dimensional_buffer_is_right_compiled():
    # rows of a 1-D buffer are scalars: ``np.add(buf[t], h, out=buf[t])`` cannot write them
    x = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(ms.jit(_scan_of_sums)(Tensor(x)).asnumpy(), [1.0, 5.0, 9.0, 13.0])


def test_a_loop_invariant_bias_of_a_hoisted_projection_is_added_once_before_the_loop():
    p = Prog(xs=(4, 2, 3), h0=(2, 5), wx=(3, 5), wh=(5, 5), b=(5,))
    xs, h0, wx, wh, b = p.params
    index = p.var("t", ir.Aval((), np.dtype(np.int64)))
    h = p.var("h", h0)
    body = p.block()
    pre = p.op("add", p.op("matmul", p.op("row", xs, index, into=body), wx, into=body),
               p.op("matmul", h, wh, into=body), into=body)
    body.block.results = (p.op("tanh", p.op("add", pre, b, into=body), into=body, hint="h"),)
    out = p.var("h", h0)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(4), ir.Const(1), (h0,), (h,), body.block,
                                 (out,), LOC))
    module = p.module(p.total(out))
    optimized = optimize(module)
    top = optimized.functions["f"].body.stmts
    loop = next(s for s in top if isinstance(s, ir.ForRange))
    assert [s.op for s in loop.body.stmts if isinstance(s, ir.Apply)] == ["row", "matmul", "add", "tanh"]
    hoisted = [s for s in top[:top.index(loop)] if isinstance(s, ir.Apply) and s.op == "add"]
    assert len(hoisted) == 1 and hoisted[0].args[1].name == "b" and hoisted[0].targets[0].aval.shape == (8, 5)
    args = [rand(4, 2, 3), rand(2, 5, seed=1), rand(3, 5, seed=2), 0.5 * rand(5, 5, seed=3), rand(5, seed=4)]
    close_results(module, optimized, *args)
    grad = differentiate(module, (4,))
    np.testing.assert_allclose(run_rendered(optimize(grad), *args)[1], numeric_gradient(module, args, 4), rtol=1e-6)


def _loop_reading(w_op, steps=3, assign=False):
    """for i in range(steps): x = tanh(x @ (w_op(w) * 3)); return sum(x)"""
    p = Prog(x=(2, 3), w=(3, 3))
    x, w = p.params
    index = p.var("i", ir.Aval((), np.dtype(np.int64)))
    h = p.var("h", x)
    body = p.block()
    scaled = p.op("mul", p.op(w_op, w, into=body, hint="c"), 3.0, into=body, hint="scaled")
    body.block.results = (p.op("tanh", p.op("matmul", h, scaled, into=body), into=body, hint="h"),)
    if assign:
        body.block.stmts.append(ir.Effect("assign", (w, scaled), LOC))
    out = p.var("h", x)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(steps), ir.Const(1), (x,), (h,), body.block,
                                 (out,), LOC))
    return p.module(p.total(out))


def test_loop_invariant_ops_run_once_before_the_loop():
    module = _loop_reading("cos")
    optimized = optimize(module)
    top = optimized.functions["f"].body.stmts
    loop = next(s for s in top if isinstance(s, ir.ForRange))
    assert [s.op for s in top[:top.index(loop)]] == ["cos", "mul"]          # the chain moved together
    assert [s.op for s in loop.body.stmts] == ["matmul", "tanh"]
    args = [rand(2, 3), rand(3, 3, seed=1)]
    close_results(module, optimized, *args)
    grad = differentiate(module, (1,))
    np.testing.assert_allclose(run_rendered(optimize(grad), *args)[1], numeric_gradient(module, args, 1), rtol=1e-6,
                               atol=1e-9)


def test_random_draws_and_loops_that_assign_parameters_keep_their_bodies():
    module = optimize(_loop_reading("cos", assign=True))
    loop = next(s for s in module.functions["f"].body.stmts if isinstance(s, ir.ForRange))
    assert "cos" in [s.op for s in loop.body.stmts if isinstance(s, ir.Apply)]
    p = Prog(x=(2, 3))
    (x,) = p.params
    index = p.var("i", ir.Aval((), np.dtype(np.int64)))
    h = p.var("h", x)
    body = p.block()
    mask = p.op("dropout_mask", into=body, shape=(2, 3), keep_prob=0.5, dtype=np.dtype(np.float64))
    body.block.results = (p.op("mul", h, mask, into=body, hint="h"),)
    out = p.var("h", x)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(3), ir.Const(1), (x,), (h,), body.block, (out,), LOC))
    loop = next(s for s in optimize(p.module(out)).functions["f"].body.stmts if isinstance(s, ir.ForRange))
    assert "dropout_mask" in [s.op for s in loop.body.stmts if isinstance(s, ir.Apply)]


def test_the_gradient_of_a_sequence_read_row_by_row_is_written_row_by_row():
    module = _rnn(read="gather", axis=0)   # xs[t] as the frontend stages it: its adjoint is gather_grad
    grad = differentiate(module, (0,))
    assert "gather_grad" in [s.op for s in walk(grad) if isinstance(s, ir.Apply)]
    optimized = optimize(grad)
    ops = [s.op for s in walk(optimized) if isinstance(s, ir.Apply)]
    assert "gather_grad" not in ops and "row_add_in_place" in ops      # d_xs[t] += g, not zeros + add.at + add
    args = _args()
    np.testing.assert_allclose(run_rendered(optimized, *args)[1], numeric_gradient(module, args, 0), rtol=1e-6)


def test_a_variable_the_body_overwrites_and_nothing_reads_after_the_loop_is_not_carried():
    """for t in range(3): g = xs[t]; h = tanh(h + g); return h   (g carried as the frontend carries it, from zeros)"""
    p = Prog(xs=(3, 2, 5), h0=(2, 5))
    xs, h0 = p.params
    start = p.op("zeros", shape=(2, 5), dtype=np.dtype(np.float64))
    index = p.var("t", ir.Aval((), np.dtype(np.int64)))
    g, h = p.var("g", h0), p.var("h", h0)
    body = p.block()
    row = p.op("row", xs, index, into=body, hint="g")
    body.block.results = (row, p.op("tanh", p.op("add", h, row, into=body), into=body, hint="h"))
    outs = (p.var("g", h0), p.var("h", h0))
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(3), ir.Const(1), (start, h0), (g, h), body.block,
                                 outs, LOC))
    module = p.module(outs[1])
    optimized = optimize(module)
    loop = next(s for s in walk(optimized) if isinstance(s, ir.ForRange))
    assert len(loop.carried) == 1 and not [s for s in walk(optimized) if isinstance(s, ir.Apply) and s.op == "zeros"]
    args = [rand(3, 2, 5, seed=8), rand(2, 5, seed=9)]
    (got,) = run_rendered(optimized, *args)
    expected = args[1]
    for t in range(3):
        expected = np.tanh(expected + args[0][t])
    np.testing.assert_allclose(got, expected, rtol=1e-12)
