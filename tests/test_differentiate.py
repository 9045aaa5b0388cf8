"""compiler.differentiate on hand-built typed normal form, checked against finite differences.

Modules are evaluated by the IR interpreter (``ir.evaluate``: each op runs its lowering from the op
table), so these tests exercise the transform alone; the grad API tests run it through codegen.
"""
import numpy as np
import pytest

from npspore.compiler import ir
from npspore.compiler.builder import BlockBuilder, NameSupply
from npspore.compiler.differentiate import TAPE_AVAL, differentiate
from npspore.compiler.ir import TapeNew
from npspore.opdef import Aval

LOC = ir.Loc("prog.py", 7)
F64 = np.float64


# ------------------------------------------------------------------------------------ checks


def numeric_gradient(module, args, j, eps=1e-6, weights=None):
    """Central differences of sum(weights[k] * sum(results[k])) with respect to args[j]."""
    def total(values):
        results = ir.evaluate(module, *values)
        w = weights or [1.0] * len(results)
        return sum(wk * np.sum(r) for wk, r in zip(w, results))

    base = [np.array(a, dtype=F64) for a in args]
    grad = np.zeros_like(base[j])
    for index in np.ndindex(base[j].shape):
        plus = [a.copy() for a in base]
        minus = [a.copy() for a in base]
        plus[j][index] += eps
        minus[j][index] -= eps
        grad[index] = (total(plus) - total(minus)) / (2 * eps)
    return grad


def assert_gradients(module, args, wrt, atol=1e-6):
    """differentiate(module, wrt) returns the forward results and the finite-difference gradients."""
    grad_module = differentiate(module, wrt)
    check_normal_form(grad_module)
    results = ir.evaluate(grad_module, *args)
    forward = ir.evaluate(module, *args)
    assert len(results) == len(forward) + len(wrt)
    for got, want in zip(results, forward):
        np.testing.assert_allclose(got, want)
    for k, j in enumerate(wrt):
        np.testing.assert_allclose(results[len(forward) + k], numeric_gradient(module, args, j),
                                   rtol=1e-5, atol=atol)
    return grad_module


def check_normal_form(module):
    """Every Var is bound once per function and only read where it is in scope."""
    for fn in module.functions.values():
        bound = set()

        def define(var):
            assert var not in bound, f"{var!r} bound twice in {fn.name}"
            bound.add(var)

        def use(atom, scope):
            if isinstance(atom, ir.Var):
                assert atom in scope, f"{atom!r} read out of scope in {fn.name}"

        def visit(block, scope):
            scope = set(scope)
            for stmt in block.stmts:
                for atom in ir.used_atoms(stmt):
                    use(atom, scope)
                if isinstance(stmt, ir.If):
                    visit(stmt.then_block, scope)
                    visit(stmt.else_block, scope)
                elif isinstance(stmt, (ir.ForRange, ir.While)):
                    inner = set(scope)
                    for var in ((stmt.index,) if isinstance(stmt, ir.ForRange) else ()) + tuple(stmt.body_params):
                        define(var)
                        inner.add(var)
                    if isinstance(stmt, ir.While):
                        visit(stmt.cond, inner)
                    visit(stmt.body, inner)
                for var in ir.defined_vars(stmt):
                    define(var)
                    scope.add(var)
            for atom in block.results:
                use(atom, scope)

        for param in fn.params:
            define(param)
        visit(fn.body, set(fn.params))
        names = [v.name for v in bound]
        assert len(names) == len(set(names)), f"duplicate names in {fn.name}"


def walk(module, fn_name=None):
    """Every statement of one function (default: the entry), nested blocks included."""
    return list(ir.walk_stmts(module.functions[fn_name or module.entry].body))


def ops_of(module, fn_name=None):
    return [s.op for s in walk(module, fn_name) if isinstance(s, ir.Apply)]


# ------------------------------------------------------------------------------------ program building


class Prog:
    """A function under construction: params, op applications, nested blocks."""

    def __init__(self, name="f", **params):
        self.name = name
        self.names = NameSupply()
        self.params = [self.names.var(n, Aval(shape, dtype)) for n, (shape, dtype) in
                       ((n, p if isinstance(p[0], tuple) else (p, F64)) for n, p in params.items())]
        self.builder = BlockBuilder(self.names)

    def block(self):
        return BlockBuilder(self.names)

    def op(self, name, *args, into=None, hint="t", **static):
        return (into or self.builder).apply(name, args, static, loc=LOC, hint=hint)

    def total(self, value, into=None, hint="s"):
        return self.op("sum", value, into=into, hint=hint, axis=None, keepdims=False)

    def var(self, hint, like):
        return self.names.var(hint, like.aval if isinstance(like, ir.Var) else like)

    def function(self, *results):
        self.builder.block.results = tuple(results)
        return ir.Function(self.name, tuple(self.params), self.builder.block, loc=LOC)

    def module(self, *results, others=()):
        fn = self.function(*results)
        return ir.Module({**{f.name: f for f in others}, fn.name: fn}, fn.name)


def rand(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.default_rng(seed).uniform(low, high, shape)


# ------------------------------------------------------------------------------------ straight-line code


def test_elementwise_chain_matches_finite_differences():
    p = Prog(x=(2,), y=(2,), z=(2,))
    x, y, z = p.params
    res = p.op("mul", p.op("mul", x, p.op("exp", y)), p.op("pow", z, 2.0))
    module = p.module(res)
    args = [rand(2, seed=1), rand(2, seed=2), rand(2, seed=3)]
    assert_gradients(module, args, (0, 1, 2))
    assert_gradients(module, args, (1, 2))


def test_result_has_forward_values_then_gradients_in_wrt_order():
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    module = p.module(p.op("mul", x, y))
    X, Y = rand(3, seed=1), rand(3, seed=2)
    out, d_y, d_x = ir.evaluate(differentiate(module, (1, 0)), X, Y)
    np.testing.assert_allclose(out, X * Y)
    np.testing.assert_allclose(d_y, X)
    np.testing.assert_allclose(d_x, Y)


def test_broadcast_operand_gets_a_fixed_reduction():
    p = Prog(a=(2, 1), b=(3,))
    a, b = p.params
    module = p.module(p.op("tanh", p.op("mul", p.op("add", a, b), b)))
    grad_module = assert_gradients(module, [rand(2, 1, seed=1), rand(3, seed=2)], (0, 1))
    sums = [s for s in walk(grad_module) if isinstance(s, ir.Apply) and s.op == "sum"]
    assert sorted(s.static["axis"] for s in sums) == [(0,), (0,), (1,)]
    assert "reshape" in ops_of(grad_module)  # (2, 3) summed over axis 1 gives (2,), reshaped to (2, 1)


def test_no_unbroadcast_when_shapes_match():
    p = Prog(x=(2, 3), y=(2, 3))
    x, y = p.params
    module = p.module(p.op("mul", x, y))
    grad_module = assert_gradients(module, [rand(2, 3, seed=1), rand(2, 3, seed=2)], (0, 1))
    assert ops_of(grad_module) == ["mul", "ones", "mul", "mul"]


def test_softmax_over_the_last_axis_takes_each_rows_dot_product_as_a_product():
    """The adjoint's sum(dout * out) over a row is a (1, n) @ (n, 1) product (no temporary of the weights'
    size, issue 27's T3); over other axes it stays a product and a sum. Both match finite differences."""
    for axis, expected in ((-1, ["expand_dims", "expand_dims", "matmul", "squeeze", "sub", "mul"]),
                           (1, ["mul", "sum", "sub", "mul"])):
        p = Prog(x=(2, 3, 5), w=(2, 3, 5))
        x, w = p.params
        module = p.module(p.total(p.op("mul", p.op("softmax", x, axis=axis), w)))
        grad_module = assert_gradients(module, [rand(2, 3, 5, seed=1), rand(2, 3, 5, seed=2)], (0,))
        ops = ops_of(grad_module)
        assert ops[ops.index("mul", ops.index("broadcast_to")) + 1:] == expected, ops


def test_asking_for_one_input_computes_no_other_gradient():
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    module = p.module(p.op("mul", p.op("sin", x, hint="u"), p.op("exp", y, hint="v"), hint="out"))
    grad_module = assert_gradients(module, [rand(3, seed=1), rand(3, seed=2)], (1,))
    backward = [t.name for s in walk(grad_module) for t in ir.defined_vars(s) if t.name.startswith("d_")]
    assert sorted(backward) == ["d_out", "d_v", "d_y"]
    assert "cos" not in ops_of(grad_module)


def test_values_that_do_not_reach_the_output_get_no_adjoint():
    p = Prog(x=(3,))
    (x,) = p.params
    p.op("exp", x, hint="unused")
    module = p.module(p.op("sin", x))
    grad_module = assert_gradients(module, [rand(3)], (0,))
    assert not any(v.name == "d_unused" for s in walk(grad_module) for v in ir.defined_vars(s))


def test_unused_wrt_param_gets_zeros_and_nothing_else_is_materialised():
    p = Prog(x=(3,), y=(2, 2))
    x, y = p.params
    module = p.module(p.total(x))
    grad_module = differentiate(module, (0, 1))
    _, d_x, d_y = ir.evaluate(grad_module, rand(3), rand(2, 2))
    np.testing.assert_array_equal(d_x, np.ones(3))
    np.testing.assert_array_equal(d_y, np.zeros((2, 2)))
    assert ops_of(grad_module).count("zeros_like") == 1


def test_constant_output_gives_zero_gradient():
    p = Prog(x=(2,))
    module = p.module(ir.Const(3.0))
    _, d_x = ir.evaluate(differentiate(module, (0,)), rand(2))
    np.testing.assert_array_equal(d_x, np.zeros(2))


def test_integer_param_gets_its_cotangent_cast_to_its_dtype():
    p = Prog(i=((2,), np.int32), x=((2,), np.float32))
    i, x = p.params
    module = p.module(p.op("mul", i, x))
    grad_module = differentiate(module, (0, 1))
    _, d_i, d_x = ir.evaluate(grad_module, np.array([1, 2], np.int32), np.array([2.5, 3.5], np.float32))
    assert d_i.dtype == np.int32 and d_x.dtype == np.float32
    np.testing.assert_array_equal(d_i, [2, 3])
    np.testing.assert_array_equal(d_x, [1.0, 2.0])
    assert ops_of(grad_module).count("cast") == 1


def test_value_used_several_times_accumulates():
    p = Prog(x=(3,))
    (x,) = p.params
    module = p.module(p.op("add", p.op("mul", x, x), p.op("sin", x)))
    grad_module = assert_gradients(module, [rand(3)], (0,))
    assert ops_of(grad_module).count("add") == 1 + 2  # forward add, then two accumulations into d_x


def test_tuple_outputs_get_ones_and_are_summed():
    p = Prog(x=(2,), y=(2,))
    x, y = p.params
    module = p.module(p.op("mul", x, y), p.op("mul", 2.0, x))
    X, Y = np.array([1.0, 2.0]), np.array([-2.0, 3.0])
    _, _, d_x = ir.evaluate(differentiate(module, (0,)), X, Y)
    np.testing.assert_allclose(d_x, Y + 2)


def test_seeds_first_differentiates_only_the_first_result():
    p = Prog(x=(2,), y=(2,))
    x, y = p.params
    module = p.module(p.op("mul", x, y), p.op("mul", 2.0, x))
    X, Y = np.array([1.0, 2.0]), np.array([-2.0, 3.0])
    _, aux, d_x = ir.evaluate(differentiate(module, (0,), seeds="first"), X, Y)
    np.testing.assert_allclose(aux, 2 * X)
    np.testing.assert_allclose(d_x, Y)


def test_seeds_given_takes_one_sensitivity_per_result():
    p = Prog(x=(2,), y=(2,))
    x, y = p.params
    module = p.module(p.op("mul", x, y), p.op("exp", x))
    grad_module = differentiate(module, (0, 1), seeds="given")
    assert [v.name for v in grad_module.functions[grad_module.entry].params] == ["x", "y", "sens", "sens_1"]
    X, Y = rand(2, seed=1), rand(2, seed=2)
    s0, s1 = np.array([0.5, 2.0]), np.array([3.0, -1.0])
    _, _, d_x, d_y = ir.evaluate(grad_module, X, Y, s0, s1)
    np.testing.assert_allclose(d_x, s0 * Y + s1 * np.exp(X))
    np.testing.assert_allclose(d_y, s0 * X)


def test_bad_arguments_are_rejected():
    p = Prog(x=(2,))
    module = p.module(p.params[0])
    with pytest.raises(ValueError, match="seeds"):
        differentiate(module, (0,), seeds="all")
    with pytest.raises(ValueError, match="out of range"):
        differentiate(module, (1,))


def test_input_module_is_not_modified():
    p = Prog(x=(2,))
    module = p.module(p.op("sin", p.params[0]))
    before = [s.op for s in walk(module)]
    differentiate(module, (0,))
    assert [s.op for s in walk(module)] == before and module.entry == "f"


def test_adjoints_are_named_after_primals_and_keep_the_primal_loc():
    p = Prog(x=(2,))
    (x,) = p.params
    h = p.op("sin", x, hint="h")
    module = p.module(p.op("exp", h, hint="out"))
    grad_module = differentiate(module, (0,))
    statements = {t.name: s for s in walk(grad_module) if isinstance(s, ir.Apply) for t in s.targets}
    assert {"d_h", "d_x"} <= set(statements)
    assert statements["d_h"].loc == LOC and statements["d_x"].loc == LOC


def test_effects_stay_in_the_forward_sweep(capsys):
    p = Prog(x=(2,))
    (x,) = p.params
    y = p.op("sin", x)
    p.builder.append(ir.Effect("print", (ir.Const("y ="), y), LOC))
    module = p.module(p.op("mul", y, 2.0))
    grad_module = differentiate(module, (0,))
    effects = [s for s in walk(grad_module) if isinstance(s, ir.Effect)]
    assert len(effects) == 1
    ir.evaluate(grad_module, np.zeros(2))
    assert capsys.readouterr().out == "y = [0. 0.]\n"


def test_assign_effect_has_no_derivative():
    p = Prog(x=(2,), w=(2,))
    x, w = p.params
    updated = p.op("sub", w, p.op("mul", x, 0.1))
    p.builder.append(ir.Effect("assign", (w, updated), LOC))
    module = p.module(p.op("mul", x, w))
    grad_module = differentiate(module, (0, 1))
    assert [s.kind for s in walk(grad_module) if isinstance(s, ir.Effect)] == ["assign"]
    _, d_x, d_w = ir.evaluate(grad_module, np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    np.testing.assert_allclose(d_x, [3.0, 4.0])
    np.testing.assert_allclose(d_w, [1.0, 2.0])


def test_differentiating_through_a_multi_output_op():
    p = Prog(x=(3, 4))
    (x,) = p.params
    values, indices = p.op("max_with_indices", x, axis=1, keepdims=False)
    module = p.module(p.op("mul", values, values), indices)
    assert_gradients(module, [rand(3, 4)], (0,))


def test_non_differentiable_op_blocks_the_gradient():
    p = Prog(x=(3,))
    (x,) = p.params
    mask = p.op("greater", x, 0.0)
    module = p.module(p.op("mul", p.op("cast", mask, dtype=np.dtype(F64)), x))
    _, d_x = ir.evaluate(differentiate(module, (0,)), np.array([-1.0, 0.5, 2.0]))
    np.testing.assert_array_equal(d_x, [0.0, 1.0, 1.0])


# ------------------------------------------------------------------------------------ calls


def _layer():
    p = Prog("layer", h=(2, 3), w=(3, 3))
    h, w = p.params
    return p.function(p.op("tanh", p.op("matmul", h, w, hint="z"), hint="o"))


def test_identical_layers_share_one_backward_function():
    layer = _layer()
    p = Prog(x=(2, 3), **{f"w{k}": (3, 3) for k in range(12)})
    h = p.params[0]
    for k in range(12):
        out = p.var("a", h)
        p.builder.append(ir.Call((out,), "layer", (h, p.params[1 + k]), LOC))
        h = out
    module = p.module(p.total(h), others=(layer,))
    args = [rand(2, 3, seed=0)] + [rand(3, 3, seed=k + 1) * 0.7 for k in range(12)]
    grad_module = assert_gradients(module, args, tuple(range(13)))
    assert sorted(grad_module.functions) == ["f_grad", "layer", "layer_bwd"]
    calls = [s.callee for s in walk(grad_module) if isinstance(s, ir.Call)]
    assert calls.count("layer") == 12 and calls.count("layer_bwd") == 12


def test_call_residuals_are_what_the_backward_reads():
    layer = _layer()
    p = Prog(x=(2, 3), w=(3, 3))
    x, w = p.params
    out = p.var("a", x)
    p.builder.append(ir.Call((out,), "layer", (x, w), LOC))
    module = p.module(p.total(out), others=(layer,))
    grad_module = assert_gradients(module, [rand(2, 3), rand(3, 3, seed=1)], (1,))
    backward = grad_module.functions["layer_bwd"]
    # tanh's rule reads its output, matmul's (for w only) reads h: the output, h, and d_o
    assert [v.name for v in backward.params] == ["o", "h", "d_o"]
    assert [s.op for s in walk(grad_module, "layer_bwd")].count("matmul") == 1


def test_inactive_call_is_left_alone():
    layer = _layer()
    p = Prog(x=(2, 3), w=(3, 3), v=(2, 3))
    x, w, v = p.params
    out = p.var("a", x)
    p.builder.append(ir.Call((out,), "layer", (x, w), LOC))
    module = p.module(p.op("mul", out, v), others=(layer,))
    grad_module = assert_gradients(module, [rand(2, 3), rand(3, 3, seed=1), rand(2, 3, seed=2)], (2,))
    assert sorted(grad_module.functions) == ["f_grad", "layer"]


def test_callee_with_residual_results_gets_a_forward_function():
    p = Prog("inner", a=(3,))
    (a,) = p.params
    inner = p.function(p.op("sin", p.op("exp", a, hint="e")))
    p = Prog(x=(3,))
    out = p.var("b", p.params[0])
    p.builder.append(ir.Call((out,), "inner", (p.params[0],), LOC))
    module = p.module(out, others=(inner,))
    grad_module = assert_gradients(module, [rand(3)], (0,))
    assert sorted(grad_module.functions) == ["f_grad", "inner_bwd", "inner_fwd"]
    assert len(grad_module.functions["inner_fwd"].body.results) == 2  # result, then the residual e


# ------------------------------------------------------------------------------------ control flow


def _if_program():
    """out = sin(x * x) if sum(x) > sum(y) else y * x; return sum(out * y)"""
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    cond = p.op("greater", p.total(x), p.total(y), hint="c")
    then = p.block()
    then.block.results = (p.op("sin", p.op("mul", x, x, into=then), into=then, hint="out"),)
    other = p.block()
    other.block.results = (p.op("mul", y, x, into=other, hint="out"),)
    out = p.var("out", x)
    p.builder.append(ir.If(cond, then.block, other.block, (out,), LOC))
    return p.module(p.total(p.op("mul", out, y)))


@pytest.mark.parametrize("args", [
    [np.array([1.0, 2.0, 3.0]), np.array([0.1, 0.2, 0.3])],
    [np.array([0.1, 0.2, 0.3]), np.array([1.0, 2.0, 3.0])],
], ids=["then", "else"])
@pytest.mark.parametrize("wrt", [(0, 1), (0,), (1,)])
def test_if_differentiates_the_branch_taken(args, wrt):
    grad_module = assert_gradients(_if_program(), args, wrt)
    ifs = [s for s in grad_module.functions[grad_module.entry].body.stmts if isinstance(s, ir.If)]
    assert len(ifs) == 2 and ifs[0].cond is ifs[1].cond  # the backward If replays the recorded condition


def _rnn_program(steps=5):
    """h = x; for _ in range(steps): h = tanh(h @ w); return sum(h)"""
    p = Prog(x=(2, 3), w=(3, 3))
    x, w = p.params
    index = p.var("i", Aval((), np.int64))
    h = p.var("h", x)
    body = p.block()
    body.block.results = (p.op("tanh", p.op("matmul", h, w, into=body), into=body, hint="h"),)
    out = p.var("h", x)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(steps), ir.Const(1), (x,), (h,), body.block,
                                 (out,), LOC))
    return p.module(p.total(out))


@pytest.mark.parametrize("wrt", [(0, 1), (1,), (0,)])
def test_for_loop_stays_a_loop_with_a_tape(wrt):
    grad_module = assert_gradients(_rnn_program(), [rand(2, 3), rand(3, 3, seed=1) * 0.6], wrt)
    top = grad_module.functions[grad_module.entry].body.stmts
    assert sum(isinstance(s, ir.ForRange) for s in top) == 2
    assert sum(isinstance(s, TapeNew) for s in top) == 1
    assert all(s.target.aval == TAPE_AVAL for s in top if isinstance(s, TapeNew))


def test_loop_of_a_thousand_iterations_is_not_unrolled():
    grad_module = differentiate(_rnn_program(steps=1000), (1,))
    assert len(walk(grad_module)) < 40
    _, d_w = ir.evaluate(grad_module, rand(2, 3), rand(3, 3, seed=1) * 0.3)
    assert d_w.shape == (3, 3) and np.isfinite(d_w).all()


def _while_program():
    """y = x; while sum(y) < 10: y = y * y * 0.9; return sum(y * x)"""
    p = Prog(x=(3,))
    (x,) = p.params
    y = p.var("y", x)
    cond = p.block()
    cond.block.results = (p.op("less", p.total(y, into=cond), 10.0, into=cond, hint="c"),)
    body = p.block()
    body.block.results = (p.op("mul", p.op("mul", y, y, into=body), 0.9, into=body, hint="y"),)
    out = p.var("y", x)
    p.builder.append(ir.While((x,), (y,), cond.block, body.block, (out,), LOC))
    return p.module(p.total(p.op("mul", out, x)))


def test_while_loop_counts_its_iterations():
    grad_module = assert_gradients(_while_program(), [np.array([1.1, 1.2, 1.3])], (0,))
    loops = [s for s in grad_module.functions[grad_module.entry].body.stmts if isinstance(s, (ir.While, ir.ForRange))]
    assert [type(s).__name__ for s in loops] == ["While", "ForRange"]
    assert loops[0].outputs[-1].name.startswith("n_iter") and loops[1].stop is loops[0].outputs[-1]


def test_while_loop_that_never_runs():
    _, d_x = ir.evaluate(differentiate(_while_program(), (0,)), np.array([5.0, 6.0, 7.0]))
    np.testing.assert_allclose(d_x, 2 * np.array([5.0, 6.0, 7.0]))


# ------------------------------------------------------------------------------------ higher order


def test_second_and_third_derivative_of_a_cube():
    p = Prog(x=(2,))
    (x,) = p.params
    module = p.module(p.op("mul", p.op("mul", x, x), x))
    first = differentiate(module, (0,), seeds="first")
    second = differentiate(first, (0,), seeds=(1,))
    third = differentiate(second, (0,), seeds=(2,))
    X = np.array([1.0, 2.0])
    np.testing.assert_allclose(ir.evaluate(second, X)[-1], [6.0, 12.0])
    np.testing.assert_allclose(ir.evaluate(third, X)[-1], [6.0, 6.0])


def test_second_derivative_of_sin_is_minus_sin():
    p = Prog(x=(3,))
    module = p.module(p.op("sin", p.params[0]))
    second = differentiate(differentiate(module, (0,)), (0,), seeds=(1,))
    X = rand(3)
    np.testing.assert_allclose(ir.evaluate(second, X)[-1], -np.sin(X))


@pytest.mark.parametrize("make, args, wrt", [
    (_if_program, [np.array([1.0, 2.0, 3.0]), np.array([0.1, 0.2, 0.3])], (0, 1)),
    (_rnn_program, [rand(2, 3), rand(3, 3, seed=1) * 0.6], (0, 1)),
    (_while_program, [np.array([1.1, 1.2, 1.3])], (0,)),
], ids=["if", "for", "while"])
def test_gradient_of_gradient_through_control_flow(make, args, wrt):
    first = differentiate(make(), wrt)
    assert_gradients(first, args, wrt, atol=1e-5)


def test_second_derivative_of_the_gradients_alone_through_a_loop():
    module = _rnn_program()
    first = differentiate(module, (0, 1))
    n_forward = 1
    second = differentiate(first, (0, 1), seeds=(1, 2))  # d/d(x, w) of sum(d_x) + sum(d_w)
    args = [rand(2, 3), rand(3, 3, seed=1) * 0.6]
    results = ir.evaluate(second, *args)
    for k in range(2):
        expected = numeric_gradient(first, args, k, weights=[0.0] * n_forward + [1.0, 1.0])
        np.testing.assert_allclose(results[3 + k], expected, rtol=1e-5, atol=1e-6)


def _calls_a_loop():
    """f(x, w) = sum(g(x, w) * x) where g runs the RNN loop: a callee whose backward needs a tape."""
    inner = _rnn_program().functions["f"]
    inner.name = "g"
    p = Prog(x=(2, 3), w=(3, 3))
    x, w = p.params
    out = p.var("s", Aval((), F64))
    p.builder.append(ir.Call((out,), "g", (x, w), LOC))
    return p.module(p.op("mul", out, p.total(x)), others=(inner,))


def test_callee_with_a_loop_runs_its_forward_in_its_backward():
    module = _calls_a_loop()
    args = [rand(2, 3), rand(3, 3, seed=1) * 0.6]
    grad_module = assert_gradients(module, args, (0, 1))
    backward = grad_module.functions["g_bwd"]
    assert all(p.aval != TAPE_AVAL for fn in grad_module.functions.values() for p in fn.params)
    assert [type(s).__name__ for s in backward.body.stmts if isinstance(s, (ir.ForRange, TapeNew))] == [
        "TapeNew", "ForRange", "ForRange"]
    calls = [s.callee for s in walk(grad_module) if isinstance(s, ir.Call)]
    assert calls == ["g", "g_bwd"]
    second = differentiate(grad_module, (0, 1), seeds=(1, 2))
    results = ir.evaluate(second, *args)
    for k in range(2):
        expected = numeric_gradient(grad_module, args, k, weights=[0.0, 1.0, 1.0])
        np.testing.assert_allclose(results[3 + k], expected, rtol=1e-5, atol=1e-6)


def test_a_final_gradient_hands_the_callees_tape_to_its_backward():
    module = _calls_a_loop()
    args = [rand(2, 3), rand(3, 3, seed=1) * 0.6]
    grad_module = differentiate(module, (0, 1), final=True)
    check_normal_form(grad_module)
    results = ir.evaluate(grad_module, *args)
    for k in range(2):
        np.testing.assert_allclose(results[1 + k], numeric_gradient(module, args, k), rtol=1e-5, atol=1e-6)
    calls = [s.callee for s in walk(grad_module) if isinstance(s, ir.Call)]
    assert calls == ["g_fwd", "g_bwd"]     # the loop runs once, in g_fwd, which returns its tape
    backward = grad_module.functions["g_bwd"]
    assert not any(isinstance(s, TapeNew) for s in backward.body.stmts)
    assert any(p.aval == TAPE_AVAL for p in backward.params)
