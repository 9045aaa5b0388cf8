"""compiler.optimize on hand-built typed normal form: each pass, checked with ``ir.evaluate``."""
import numpy as np

from npspore.compiler import ir
from npspore.compiler.optimize import optimize
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
    module = p.module(p.op("sin", big))
    stmts = optimize(module).functions["f"].body.stmts
    assert [(s.kind, [v.name for v in s.args]) for s in stmts if isinstance(s, ir.Effect)] == [("release", ["big"])]
    assert isinstance(stmts[-1], ir.Effect) and stmts[-2].op == "sin"
