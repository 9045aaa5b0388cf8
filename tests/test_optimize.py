"""compiler.optimize on hand-built typed normal form: each pass, checked with ``ir.evaluate``."""
import numpy as np

from npspore.compiler import ir
from npspore.compiler.optimize import optimize
from npspore.compiler.pipeline import format_module
from test_codegen import render_module, run_rendered
from test_differentiate import LOC, Prog, ops_of, rand


def same_results(module, optimized, *args):
    for before, after in zip(ir.evaluate(module, *args), ir.evaluate(optimized, *args)):
        np.testing.assert_array_equal(after, before)


def test_ops_on_known_values_are_folded():
    p = Prog(x=(3,))
    (x,) = p.params
    scale = p.op("add", np.float64(2.0), np.float64(3.0))
    module = p.module(p.op("mul", x, scale))
    optimized = optimize(module)
    assert ops_of(optimized) == ["mul"]
    same_results(module, optimized, rand(3))


def test_identities_and_same_shape_copies_disappear():
    p = Prog(x=(2, 3))
    (x,) = p.params
    same = p.op("reshape", x, shape=(2, 3))
    module = p.module(p.op("exp", p.op("mul", same, np.float64(1.0))))
    optimized = optimize(module)
    assert ops_of(optimized) == ["exp"]
    same_results(module, optimized, rand(2, 3))


def test_dead_ops_go_and_effects_stay():
    p = Prog(x=(2,))
    (x,) = p.params
    p.op("log", x)  # nothing reads it
    p.builder.append(ir.Effect("print", (p.op("neg", x),), LOC))
    module = p.module(p.op("exp", x))
    optimized = optimize(module)
    assert ops_of(optimized) == ["neg", "exp"]
    assert [s.kind for s in optimized.functions[optimized.entry].body.stmts if isinstance(s, ir.Effect)] == ["print"]


def test_uncalled_functions_are_removed_and_the_input_is_kept():
    helper = Prog("helper", y=(2,))
    helper_fn = helper.function(helper.op("sin", *helper.params))
    p = Prog(x=(2,))
    module = p.module(p.op("cos", *p.params), others=(helper_fn,))
    optimized = optimize(module)
    assert set(optimized.functions) == {"f"} and set(module.functions) == {"f", "helper"}


def test_large_intermediates_are_released_after_their_last_use():
    p = Prog(x=(300, 300))
    (x,) = p.params
    big = p.op("exp", x, hint="big")
    module = p.module(p.op("matmul", big, x))
    stmts = optimize(module).functions["f"].body.stmts
    assert [(s.kind, [v.name for v in s.args]) for s in stmts if isinstance(s, ir.Effect)] == [("release", ["big"])]
    assert isinstance(stmts[-1], ir.Effect) and [a.name for a in stmts[-2].args] == ["big", "x"]   # the product


# ------------------------------------------------------------------------------------ rewrites


def close_results(module, optimized, *args):
    """Equal up to the rounding of a reordered sum (dot products)."""
    for before, after in zip(ir.evaluate(module, *args), ir.evaluate(optimized, *args)):
        np.testing.assert_allclose(after, before, rtol=1e-12, atol=1e-12)


def test_common_subexpressions_of_forward_and_adjoint_are_computed_once():
    p = Prog(x=(4,))
    (x,) = p.params
    first, again = p.op("sin", x), p.op("sin", x)
    module = p.module(p.op("mul", p.op("cos", x), first), p.op("neg", again))
    optimized = optimize(module)
    assert ops_of(optimized).count("sin") == 1
    same_results(module, optimized, rand(4))


def test_sum_of_a_product_is_a_dot_and_the_sum_of_a_sum_splits():
    p = Prog(x=(2, 3), y=(2, 3))
    x, y = p.params
    module = p.module(p.total(p.op("add", p.op("mul", x, y), p.op("mul", x, x))))
    optimized = optimize(module)
    assert sorted(ops_of(optimized)) == ["add", "dot", "dot", "reshape", "reshape"]   # x flattened once
    close_results(module, optimized, rand(2, 3), rand(2, 3, seed=1))


def test_a_uniform_seed_stays_a_scalar_through_shape_ops():
    # The adjoint of mean(x * y, axis=1) under a ones seed: ones -> expand_dims -> / 5 -> broadcast_to.
    p = Prog(y=(4, 5))
    (y,) = p.params
    seed = p.op("ones", shape=(4,), dtype=np.dtype(np.float64))
    row = p.op("div", p.op("expand_dims", seed, axis=1), np.float64(5.0))
    full = p.op("broadcast_to", p.op("reshape", p.op("squeeze", p.op("expand_dims", row, axis=0), axis=0),
                                     shape=(4, 1)), shape=(4, 5))
    module = p.module(p.op("mul", full, y))
    optimized = optimize(module)
    (stmt,) = optimized.functions["f"].body.stmts
    assert stmt.op == "mul" and isinstance(stmt.args[0], ir.Const) and stmt.args[0].value == 0.2
    same_results(module, optimized, rand(4, 5))


def test_a_negated_uniform_seed_reshaped_is_one_broadcast_of_its_scalar():
    # mean's seed negated and reshaped (a sparse cross-entropy's): one view, no array written
    p = Prog(y=(1, 3))
    (y,) = p.params
    seed = p.op("broadcast_to", np.array([0.025]), shape=(40,))
    module = p.module(p.op("matmul", p.op("reshape", p.op("neg", seed), shape=(40, 1)), y))
    optimized = optimize(module)
    assert ops_of(optimized) == ["broadcast_to", "matmul"]
    (stmt, _) = optimized.functions["f"].body.stmts
    assert stmt.args[0].value.tolist() == [-0.025] and stmt.static == {"shape": (40, 1)}
    same_results(module, optimized, rand(1, 3))


def test_a_uniform_result_made_one_broadcast_is_returned_as_a_writable_array():
    p = Prog(x=(2,))
    (x,) = p.params
    seed = p.op("broadcast_to", np.array([0.5]), shape=(4,))
    module = p.module(p.op("reshape", p.op("neg", seed), shape=(2, 2)), p.op("exp", x))
    optimized = optimize(module)
    assert ops_of(optimized) == ["broadcast_to", "exp"]
    result, _ = run_rendered(optimized, rand(2))
    assert result.flags.writeable
    np.testing.assert_array_equal(result, np.full((2, 2), -0.5))


def test_a_varying_value_through_shape_ops_is_not_a_scalar():
    p = Prog(x=(4,), y=(4, 5))
    x, y = p.params
    full = p.op("broadcast_to", p.op("expand_dims", x, axis=1), shape=(4, 5))
    module = p.module(p.op("mul", full, y))
    assert ops_of(optimize(module)) == ["reshape", "broadcast_to", "mul"]


def test_size_one_dims_of_static_shapes_are_reshapes_for_numpy_and_kept_for_export():
    # np.expand_dims (a Python function) costs several times x.reshape, the same view
    p = Prog(x=(4, 5))
    (x,) = p.params
    row = p.op("expand_dims", p.op("sum", x, axis=1), axis=-1)
    module = p.module(p.op("mul", p.op("squeeze", p.op("expand_dims", x, axis=0), axis=0), row))
    optimized = optimize(module)
    assert ops_of(optimized) == ["sum", "reshape", "reshape", "reshape", "mul"]
    assert [s.static["shape"] for s in optimized.functions["f"].body.stmts if s.op == "reshape"] == [
        (4, 1), (1, 4, 5), (4, 5)]
    same_results(module, optimized, rand(4, 5))
    assert ops_of(optimize(module, numpy_steps=False)) == ["sum", "expand_dims", "expand_dims", "squeeze", "mul"]


def test_mean_of_a_square_is_a_scaled_dot():
    p = Prog(r=(80,))
    (r,) = p.params
    module = p.module(p.op("mean", p.op("pow", r, 2), axis=None, keepdims=False))
    optimized = optimize(module)
    assert ops_of(optimized) == ["dot", "div"]
    close_results(module, optimized, rand(80))


def test_negation_folds_into_a_subtraction():
    p = Prog(a=(3,), b=(3,))
    a, b = p.params
    module = p.module(p.op("add", b, p.op("mul", p.op("neg", a), a)))
    optimized = optimize(module)
    assert ops_of(optimized) == ["mul", "sub"]
    same_results(module, optimized, rand(3), rand(3, seed=1))


def test_doubling_a_float_is_an_add_and_other_products_stay():
    p = Prog(a=(3,))
    (a,) = p.params
    ints = p.op("cast", a, dtype=np.dtype(np.int32))
    module = p.module(p.op("mul", a, 2), p.op("mul", 2.0, a), p.op("mul", a, 3.0), p.op("mul", ints, 2))
    optimized = optimize(module)
    assert ops_of(optimized) == ["cast", "add", "mul", "mul"]   # a * 2 and 2.0 * a: one a + a
    same_results(module, optimized, np.array([1.5, -0.0, 7.25], np.float32))


def test_a_product_of_all_factors_but_one_reads_the_product_computed_before():
    """``(q * x) * e`` is ``q * xe`` when ``xe = x * e`` dominates it: W1's adjoint of ``x * exp(y) * z ** 2``
    reads the forward's ``x * exp(y)`` (one multiplication fewer); not from a branch, which may not run,
    nor in a function that assigns a Parameter or calls one that does (an operand may change between the two
    products)."""
    p = Prog(x=(3,), e=(3,), q=(3,))
    x, e, q = p.params
    xe = p.op("mul", x, e)
    module = p.module(xe, p.op("mul", p.op("mul", q, x), e))
    optimized = optimize(module)
    assert ops_of(optimized) == ["mul", "mul"]
    close_results(module, optimized, rand(3), rand(3, seed=1), rand(3, seed=2))

    p = Prog(x=(3,), e=(3,), q=(3,))
    x, e, q = p.params
    then, other = p.block(), p.block()
    then.block.results = (p.op("mul", x, e, into=then),)
    other.block.results = (x,)
    branch = p.var("b", x)
    p.builder.append(ir.If(p.op("greater", p.total(x), 0.0), then.block, other.block, (branch,), LOC))
    module = p.module(branch, p.op("mul", p.op("mul", q, x), e))
    assert ops_of(optimize(module)).count("mul") == 3

    p = Prog(x=(3,), e=(3,), q=(3,))
    x, e, q = p.params
    xe = p.op("mul", x, e)
    p.builder.append(ir.Effect("assign", (e, p.op("add", e, 1.0)), LOC))
    module = p.module(xe, p.op("mul", p.op("mul", q, x), e))
    assert ops_of(optimize(module)).count("mul") == 3

    update = Prog("update", w=(3,))
    (w,) = update.params
    update.builder.append(ir.Effect("assign", (w, update.op("add", w, 1.0)), LOC))
    p = Prog(x=(3,), e=(3,), q=(3,))
    x, e, q = p.params
    xe = p.op("mul", x, e)
    p.builder.append(ir.Call((), "update", (e,), LOC))       # a callee that assigns: e may have changed
    module = p.module(xe, p.op("mul", p.op("mul", q, x), e), others=(update.function(),))
    assert ops_of(optimize(module)).count("mul") == 3


def test_relu_mask_reads_the_relu_output_and_a_scalar_gather_is_a_row_view():
    p = Prog(x=(4, 3))
    (x,) = p.params
    pre = p.op("exp", x)
    module = p.module(p.op("relu", pre), p.op("greater", pre, 0), p.op("gather", x, 2, axis=0))
    optimized = optimize(module)
    stmts = optimized.functions["f"].body.stmts
    mask = next(s for s in stmts if s.op == "greater")
    assert mask.args[0].name == next(s for s in stmts if s.op == "relu").targets[0].name
    assert "row" in ops_of(optimized) and "gather" not in ops_of(optimized)
    same_results(module, optimized, rand(4, 3))


# ------------------------------------------------------------------------------------ in place


def in_place(module):
    return {s.targets[0].name: s.into.name for s in ir.walk_stmts(module.functions["f"].body)
            if isinstance(s, ir.Apply) and s.into is not None}


def test_an_operand_that_dies_is_updated_in_place_and_inputs_never_are():
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    e = p.op("exp", x, hint="e")
    s = p.op("add", e, y, hint="s")
    module = p.module(p.op("tanh", s, hint="h"))
    optimized = optimize(module)
    assert in_place(optimized) == {"s": "e", "h": "s"}
    source = render_module(optimized)
    assert "    e += y\n" in source.replace("  # prog.py:7", "") and "np.tanh(e, out=e)" in source
    args = rand(3), rand(3, seed=1)
    kept = [a.copy() for a in args]
    np.testing.assert_allclose(run_rendered(optimized, *args)[0], ir.evaluate(module, *args)[0])
    for a, b in zip(args, kept):
        np.testing.assert_array_equal(a, b)


def test_an_operand_read_later_or_returned_is_not_overwritten():
    p = Prog(x=(3,))
    (x,) = p.params
    e = p.op("exp", x, hint="e")
    s = p.op("sin", e, hint="s")
    module = p.module(p.op("add", s, e), e)
    assert "e" not in in_place(optimize(module)).values()


def test_a_temporary_that_died_earlier_lends_its_buffer_to_a_later_one_of_its_aval():
    p = Prog(x=(3,), y=(3,), z=(2,))
    x, y, z = p.params
    a = p.op("exp", x, hint="a")
    s = p.total(a)                       # a's last read: a sum, which cannot write into it
    narrow = p.op("exp", z, hint="n")    # another shape: a's buffer does not fit
    c = p.op("sin", y, hint="c")         # no operand dies here: a's dead buffer is used
    module = p.module(p.op("mul", c, s, hint="m"), narrow)
    optimized = optimize(module)
    assert in_place(optimized) == {"c": "a", "m": "c"}
    source = render_module(optimized).replace("  # prog.py:7", "")
    assert "    np.sin(y, out=a)\n" in source and "    a *= s\n" in source and "    return (a, n)\n" in source
    args = rand(3), rand(3, seed=1), rand(2, seed=2)
    kept = [v.copy() for v in args]
    for compiled, expected in zip(run_rendered(optimized, *args), ir.evaluate(module, *args)):
        np.testing.assert_allclose(compiled, expected)
    for v, before in zip(args, kept):
        np.testing.assert_array_equal(v, before)


def test_a_buffer_still_seen_through_a_view_or_read_later_is_not_lent():
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    a = p.op("exp", x, hint="a")
    view = p.op("reshape", a, shape=(3, 1), hint="v")   # returned: a's buffer stays visible
    s = p.total(a)
    c = p.op("sin", y, hint="c")
    module = p.module(p.op("mul", c, s), view)
    assert "c" not in in_place(optimize(module))
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    a = p.op("exp", x, hint="a")
    c = p.op("sin", y, hint="c")          # a is read after this: not dead yet
    module = p.module(p.op("mul", c, p.total(a)))
    assert "c" not in in_place(optimize(module))


def test_a_loop_accumulator_the_loop_owns_is_updated_in_place():
    p = Prog(x=(3, 4))
    (x,) = p.params
    acc0 = p.op("zeros", shape=(4,), dtype=np.dtype(np.float64), hint="acc0")
    body = p.block()
    index, acc = p.var("i", ir.Var("i", ir.Aval((), np.dtype(np.int64)))), p.var("acc", acc0)
    step = p.op("add", acc, p.op("exp", p.op("row", x, index, into=body), into=body), into=body, hint="acc_1")
    body.block.results = (step,)
    out = p.var("acc_2", acc0)
    p.builder.block.stmts.append(ir.ForRange(index, ir.Const(0), ir.Const(3), ir.Const(1), (acc0,), (acc,),
                                             body.block, (out,), LOC))
    module = p.module(out)
    optimized = optimize(module)
    assert in_place(optimized) == {"acc_1": "acc"}
    assert "        acc += " in render_module(optimized)
    np.testing.assert_allclose(run_rendered(optimized, rand(3, 4))[0], np.exp(rand(3, 4)).sum(axis=0))


def test_a_parameter_assignment_forgets_the_values_of_arrays_it_may_change():
    p = Prog(w=(3,), v=(3,), b=(3,))
    w, v, b = p.params
    p.builder.append(ir.Effect("assign", (w, p.op("mul", w, p.op("sub", np.float64(1.0), b))), LOC))
    # b may be w's very array (an input can be a Parameter's array: same shape, not known distinct), so
    # 1 - b is computed again after w's update, and w * (1 - b) is
    again = p.op("mul", w, p.op("sub", np.float64(1.0), b))
    view = p.op("reshape", v, shape=(3, 1))
    before = p.op("exp", view)
    p.builder.append(ir.Effect("assign", (v, again), LOC))
    after = p.op("exp", view)                                    # v changed under its view: computed again
    module = p.module(again, before, after)
    optimized = optimize(module)
    assert ops_of(optimized) == ["sub", "mul", "sub", "mul", "reshape", "exp", "exp"]
    args = [rand(3, seed=1), rand(3, seed=2), rand(3, seed=3)]
    expected = ir.evaluate(module, *(a.copy() for a in args))
    for result, value in zip(ir.evaluate(optimized, *(a.copy() for a in args)), expected):
        np.testing.assert_array_equal(result, value)


def test_a_call_that_assigns_two_calls_down_forgets_what_was_known():
    """``w * 2.5`` before and after ``g(w)``, where ``g`` calls ``h``, which assigns ``w``: two products."""
    h = Prog("h", w=(3,))
    (w,) = h.params
    h.builder.append(ir.Effect("assign", (w, h.op("add", w, 1.0)), LOC))
    g = Prog("g", w=(3,))
    (w,) = g.params
    g.builder.append(ir.Call((), "h", (w,), LOC))
    p = Prog(w=(3,))
    (w,) = p.params
    before = p.op("mul", w, 2.5)
    p.builder.append(ir.Call((), "g", (w,), LOC))
    module = p.module(before, p.op("mul", w, 2.5), others=(h.function(), g.function()))
    assert ops_of(optimize(module)) == ["mul", "mul"]


def test_a_parameter_always_passed_the_same_value_as_another_is_read_as_it():
    callee = Prog("attend", query=(3, 3), key=(3, 3))
    query, key = callee.params
    scores = callee.op("matmul", callee.op("transpose", query, axes=(1, 0)), key, hint="scores")
    scores = callee.op("add", scores, callee.op("transpose", key, axes=(1, 0)))
    attend = callee.function(scores)
    p = Prog(x=(3, 3))
    (x,) = p.params
    out = p.var("out", scores)
    p.builder.append(ir.Call((out,), "attend", (x, x), LOC))
    module = p.module(out, others=(attend,))
    optimized = optimize(module)
    assert ops_of(optimized, "attend") == ["transpose", "matmul", "add"]
    assert len(optimized.functions["attend"].params) == 1
    same_results(module, optimized, rand(3, 3))


def test_the_casts_numpy_needs_are_decided_by_optimize_and_shown_in_its_dump():
    """True division of int32 tensors computes in float32 (MindSpore's rule) where NumPy would give
    float64: optimize marks the operands' cast, the dump shows it, codegen writes it."""
    p = Prog(x=((3,), np.dtype(np.int32)), y=((3,), np.dtype(np.int32)))
    x, y = p.params
    module = p.module(p.op("div", x, y))
    before = [s for s in module.functions["f"].body.stmts if isinstance(s, ir.Apply)]
    assert before[0].operand_cast is None
    optimized = optimize(module)
    (division,) = [s for s in optimized.functions["f"].body.stmts if isinstance(s, ir.Apply)]
    assert division.operand_cast == np.float32 and division.result_cast is None
    assert "(operands as float32)" in format_module(optimized)
    assert "x.astype(np.float32) / y.astype(np.float32)" in render_module(optimized)
    (result,) = run_rendered(optimized, np.array([1, 2, 3], np.int32), np.array([2, 2, 2], np.int32))
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, np.array([0.5, 1.0, 1.5], np.float32))


def test_a_large_sum_over_leading_axes_is_a_row_of_ones_times_the_rows():
    # a bias gradient (issue 27): NumPy adds 1024 rows one after another, BLAS takes them as one product
    F32 = np.dtype(np.float32)
    p = Prog(d=((64, 16, 128), F32), b=((1024, 16), F32), s=((8, 16), F32))
    d, b, s = p.params
    module = p.module(p.op("sum", d, axis=(0, 1), keepdims=False), p.op("sum", d, axis=(1, 0), keepdims=True),
                      p.op("sum", b, axis=0, keepdims=False), p.op("sum", d, axis=2, keepdims=False),
                      p.op("sum", s, axis=0, keepdims=False))
    optimized = optimize(module)
    assert ops_of(optimized) == ["reshape", "matmul", "matmul", "reshape", "matmul", "sum", "sum"]   # d as rows once
    args = [np.random.default_rng(k).standard_normal(shape).astype(np.float32)
            for k, shape in enumerate([(64, 16, 128), (1024, 16), (8, 16)])]
    exact = ir.evaluate(module, *(a.astype(np.float64) for a in args))
    for got, want in zip(ir.evaluate(optimized, *args), exact):
        assert got.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_a_sum_written_as_a_product_keeps_the_name_of_a_sum():
    from npspore.compiler.naming import name_values

    F32 = np.dtype(np.float32)
    p = Prog(d=((1024, 16), F32))
    (d,) = p.params
    module = p.module(p.op("exp", p.op("sum", d, axis=0, keepdims=False)))
    named = name_values(optimize(module))
    product = next(s for s in named.functions["f"].body.stmts if s.op == "matmul")
    assert product.targets[0].name == "sum_d"   # as `d.sum(axis=0)` was named, not `t_0`
