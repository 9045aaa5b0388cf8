"""compiler.prune: results no caller reads and parameters no longer read leave called functions."""
import numpy as np

from npspore.compiler import ir
from npspore.compiler.optimize import optimize
from test_codegen import render_module, run_rendered
from test_differentiate import LOC, Prog, ops_of, rand


def _module(read_both=False):
    g = Prog("g", x=(3,), unused=(3,))
    x, _ = g.params
    callee = g.function(g.op("exp", x, hint="e"), g.op("sin", x, hint="s"))
    p = Prog(x=(3,), y=(3,))
    x, y = p.params
    e, s = p.var("e", x), p.var("s", x)
    p.builder.append(ir.Call((e, s), "g", (x, y), LOC))
    return p.module(p.op("add", e, s) if read_both else p.op("mul", e, e), others=(callee,))


def test_an_unread_result_and_an_unused_parameter_leave_the_callee():
    module = _module()
    optimized = optimize(module)
    callee = optimized.functions["g"]
    assert [v.name for v in callee.params] == ["x"] and len(callee.body.results) == 1
    assert "sin" not in ops_of(optimized, "g")
    call = next(s for s in optimized.functions["f"].body.stmts if isinstance(s, ir.Call))
    assert len(call.targets) == 1 and len(call.args) == 1
    assert "def g(x):" in render_module(optimized)
    args = rand(3), rand(3, seed=1)
    np.testing.assert_array_equal(run_rendered(optimized, *args)[0], ir.evaluate(module, *args)[0])


def test_results_some_caller_reads_stay():
    optimized = optimize(_module(read_both=True))
    assert len(optimized.functions["g"].body.results) == 2 and "sin" in ops_of(optimized, "g")


def test_a_value_returned_twice_and_passed_on_twice_is_read_once_by_the_next_callee():
    """An LSTM's two biases get one gradient (``b_ih + b_hh`` is added once): the innermost backward returns it
    twice (found equal by CSE), the gradient function passes both on, the training step passes both to the optimizer, and the
    optimizer computes ``g * g`` once (the merges repeat until none is left, whatever the functions' order)."""
    inner = Prog("inner", x=(3,))
    (x,) = inner.params
    backward = inner.function(inner.op("sin", x), inner.op("sin", x))   # one value once CSE has run
    grad = Prog("grad", x=(3,))
    (x,) = grad.params
    first, second = grad.var("g", x), grad.var("g", x)
    grad.builder.append(ir.Call((first, second), "inner", (x,), LOC))
    gradient = grad.function(first, second)
    update = Prog("update", p=(3,), q=(3,))
    p, q = update.params
    step = update.function(update.op("mul", p, p), update.op("add", update.op("mul", q, q), 1.0))
    caller = Prog(x=(3,))
    (x,) = caller.params
    first, second = caller.var("g", x), caller.var("g", x)
    caller.builder.append(ir.Call((first, second), "grad", (x,), LOC))
    out, out_2 = caller.var("u", x), caller.var("u", x)
    caller.builder.append(ir.Call((out, out_2), "update", (first, second), LOC))
    entry = caller.function(out, out_2)
    module = ir.Module({"f": entry, "grad": gradient, "update": step, "inner": backward}, "f")
    optimized = optimize(module)
    assert len(optimized.functions["update"].params) == 1 and ops_of(optimized, "update").count("mul") == 1
    np.testing.assert_array_equal(run_rendered(optimized, rand(3))[1], ir.evaluate(module, rand(3))[1])
