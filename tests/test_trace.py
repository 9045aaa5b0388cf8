"""compiler.trace: staging NumPy-written rules into typed normal form with tracers.

The central property: every adjoint rule of the op table stages, and the staged statements compute
exactly what the rule computes when it is called on arrays.
"""
import numpy as np
import pytest

from npspore.compiler import ir
from npspore.compiler.builder import BlockBuilder, NameSupply
from npspore.compiler.trace import Tracer, UnstageableRule, numpy_ops, stage_rule
from npspore.opdef import Aval, call, op_table


LOC = ir.Loc("rules.py", 3)


def _r(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.default_rng(seed).uniform(low, high, shape)


def _pos(*shape, seed=0):
    return _r(*shape, seed=seed, low=0.5, high=2.0)


# One example call per op with an adjoint: (operands, static). Broadcasting operands where the op
# broadcasts; positive inputs where the op needs them.
EXAMPLES = {
    "add": ((_r(2, 3), _r(3, seed=1)), {}),
    "sub": ((_r(2, 1), _r(3, seed=1)), {}),
    "mul": ((_r(2, 3), _r(2, 3, seed=1)), {}),
    "div": ((_r(2, 3), _pos(3, seed=1)), {}),
    "mod": ((_pos(4), _pos(4, seed=1)), {}),
    "remainder": ((_pos(4), _pos(4, seed=1)), {}),
    "truncate_mod": ((_r(4), _pos(4, seed=1)), {}),
    "pow": ((_pos(2, 3), _r(3, seed=1)), {}),
    "maximum": ((np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0])), {}),
    "minimum": ((np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0])), {}),
    "neg": ((_r(3),), {}),
    "conj": ((_r(3),), {}),
    "real": ((_r(3),), {}),
    "abs": ((_r(3),), {}),
    "square": ((_r(3),), {}),
    "exp": ((_r(3),), {}),
    "log": ((_pos(3),), {}),
    "log1p": ((_pos(3),), {}),
    "sqrt": ((_pos(3),), {}),
    "rsqrt": ((_pos(3),), {}),
    "sin": ((_r(3),), {}),
    "cos": ((_r(3),), {}),
    "tan": ((_r(3),), {}),
    "tanh": ((_r(3),), {}),
    "sigmoid": ((_r(3),), {}),
    "relu": ((_r(5),), {}),
    "softplus": ((_r(3),), {}),
    "erf": ((_r(3),), {}),
    "gelu": ((_r(3),), {"approximate": True}),
    "where": ((np.array([True, False, True]), _r(3), _r(1, seed=1)), {}),
    "clip": ((_r(5), -0.3, 0.4), {}),
    "cast": ((_r(3),), {"dtype": np.dtype(np.float32)}),
    "sum": ((_r(2, 3),), {"axis": 1}),
    "mean": ((_r(2, 3),), {"axis": 0, "keepdims": True}),
    "prod": ((np.array([[1.0, 0.0, 2.0], [3.0, 4.0, 5.0]]),), {"axis": 1}),
    "max": ((np.array([[1.0, 3.0, 3.0], [0.0, 2.0, 1.0]]),), {"axis": 1}),
    "min": ((_r(2, 3),), {}),
    "max_with_indices": ((_r(2, 3),), {"axis": 1}),
    "min_with_indices": ((_r(2, 3),), {"axis": 0, "keepdims": True}),
    "reshape": ((_r(2, 3),), {"shape": (3, 2)}),
    "reshape_like": ((_r(2, 3), _r(3, 2)), {}),
    "reshape_keeping": ((_r(2, 3, 4),), {"shape": (None, 3, 2, -1)}),
    "roll": ((_r(4, 3),), {"shift": -5, "axis": 0}),
    "flatten": ((_r(2, 3, 2),), {}),
    "expand_dims": ((_r(2, 3),), {"axis": 1}),
    "squeeze": ((_r(2, 1, 3),), {"axis": 1}),
    "transpose": ((_r(2, 3, 4),), {"axes": (2, 0, 1)}),
    "broadcast_to": ((_r(3),), {"shape": (2, 3)}),
    "tile": ((_r(2, 3),), {"reps": (2, 1)}),
    "concat": ((_r(2, 3), _r(1, 3, seed=1)), {"axis": 0}),
    "stack": ((_r(2, 3), _r(2, 3, seed=1)), {"axis": 1}),
    "split": ((_r(4, 3),), {"indices_or_sections": 2, "axis": 0}),
    "getitem": ((_r(3, 4),), {"index": (slice(0, 2), 1)}),
    "setitem": ((_r(3, 4), _r(2)), {"index": (slice(0, 2), 1)}),
    "getitem_grad": ((_r(2),), {"shape": (3, 4), "index": (slice(0, 2), 1)}),
    "gather": ((_r(4, 3), np.array([0, 2, 2])), {"axis": 0}),
    "gather_grad": ((_r(3, 3), np.array([0, 2, 2])), {"shape": (4, 3), "axis": 0}),
    "masked_select": ((_r(2, 3), np.array([[True, False, True], [False, True, True]])), {}),
    "masked_select_grad": ((_r(4), np.array([[True, False, True], [False, True, True]])), {"shape": (2, 3)}),
    "matmul": ((_r(2, 3), _r(3, 4, seed=1)), {"transpose_b": False}),
    "batch_matmul": ((_r(2, 2, 3), _r(2, 4, 3, seed=1)), {"transpose_b": True}),
    "dot": ((_r(3), _r(3, seed=1)), {}),
    "outer": ((_r(3), _r(2, seed=1)), {}),
    "softmax": ((_r(2, 3),), {"axis": -1}),
    "normalize": ((_r(2, 3),), {"axis": (1,), "eps": 1e-5}),
    "log_softmax": ((_r(2, 3),), {"axis": 0}),
    "softmax_cross_entropy": ((_r(2, 3), np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])), {}),
    "one_hot": ((np.array([0, 2, 1]), 1.0, 0.0), {"depth": 3}),
    "row": ((_r(3, 2), 1), {}),
    "row_add": ((_r(3, 2), 1, _r(2, seed=1)), {}),
    "row_set": ((_r(3, 2), 1, _r(2, seed=1)), {}),
}
CONV = {"stride": (2, 1), "padding": (1, 0, 0, 1), "dilation": (1, 2), "groups": 2}
POOL = {"kernel_size": (2, 2), "stride": (1, 2), "padding": (1, 0, 0, 1)}
DISTINCT = np.random.default_rng(5).permutation(24).reshape(1, 2, 3, 4) / 10.0
EXAMPLES.update({
    "conv2d": ((_r(1, 4, 4, 5), _r(2, 2, 2, 2, seed=1)), CONV),
    "conv2d_input_grad": ((_r(1, 2, 2, 4), _r(2, 2, 2, 2, seed=1)), {"input_shape": (1, 4, 4, 5), **CONV}),
    "conv2d_filter_grad": ((_r(1, 4, 4, 5), _r(1, 2, 2, 4, seed=1)), {"filter_shape": (2, 2, 2, 2), **CONV}),
    "conv2d_columns": ((_r(1, 4, 4, 5),), {"filter_shape": (2, 2, 2, 2), **CONV}),
    "conv2d_columns_grad": ((_r(2, 8, 8),), {"input_shape": (1, 4, 4, 5), "filter_shape": (2, 2, 2, 2), **CONV}),
    "max_pool2d": ((DISTINCT,), POOL),
    "max_pool2d_grad": ((DISTINCT, op_table()["max_pool2d"].forward(DISTINCT, **POOL), _r(1, 2, 3, 2)), POOL),
    "max_pool2d_gather": ((DISTINCT, _r(1, 2, 3, 4)), POOL),
    "sum_pool2d": ((_r(1, 2, 3, 4),), POOL),
    "sum_pool2d_grad": ((_r(1, 2, 3, 2),), {"input_shape": (1, 2, 3, 4), **POOL}),
    "topk": ((_r(2, 4),), {"k": 2, "largest": False}),
    "gather_last": ((_r(2, 4), np.array([[3, 0], [1, 2]], np.int32)), {}),
    "scatter_last": ((_r(2, 2), np.array([[3, 0], [1, 2]], np.int32)), {"size": 4}),
})
WORLD = {"group": "hccl_world_group", "size": 1}  # no init: a group of one
EXAMPLES.update({
    "all_reduce": ((_pos(2, 3),), {"op": "prod", **WORLD}),
    "all_gather": ((_r(2, 3),), WORLD),
    "reduce_scatter": ((_r(2, 3),), {"op": "sum", **WORLD}),
    "broadcast": ((_r(2, 3),), {"root": 0, **WORLD}),
    "reduce": ((_r(2, 3),), {"op": "max", "root": 0, **WORLD}),
})
# codegen_templates/special.py: _r's values are within (-1, 1), where each is defined
EXAMPLES.update({name: ((_r(3) * 0.9,), {}) for name in "acos asin atan sinh cosh asinh atanh expm1 erfc erfinv".split()})
EXAMPLES.update({"acosh": ((_pos(3) + 1,), {}), "atan2": ((_r(2, 3), _pos(3, seed=1)), {})})
EXAMPLES.update({"lgamma": ((_pos(3),), {}), "digamma": ((_pos(3) - 0.3,), {}), "trigamma": ((_pos(3) - 0.3,), {})})
EXAMPLES["matrix_inverse"] = ((_r(2, 3, 3) + 3 * np.eye(3),), {})   # codegen_templates/matrix.py
EXAMPLES["matrix_determinant"] = EXAMPLES["matrix_inverse"]

DIFFERENTIABLE = sorted(d.name for d in op_table().definitions() if d.adjoint is not None)


def test_every_differentiable_op_has_an_example():
    assert sorted(EXAMPLES) == DIFFERENTIABLE


def _stage_adjoint(name):
    """Stage op ``name``'s adjoint on Vars; returns (staged result, env of example arrays, expected)."""
    definition = op_table()[name]
    operands, static = EXAMPLES[name]
    names = NameSupply()
    builder = BlockBuilder(names)
    atoms = tuple(names.var(f"x{i}", Aval.of(np.asarray(v))) if isinstance(v, np.ndarray) else ir.Const(v)
                  for i, v in enumerate(operands))
    out_value = definition.forward(*operands, **static)
    multi = isinstance(out_value, tuple)
    outs = out_value if multi else (out_value,)
    out_vars = tuple(names.var("out", Aval.of(np.asarray(o))) for o in outs)
    douts = tuple(np.random.default_rng(7).standard_normal(np.shape(o)).astype(np.asarray(o).dtype)
                  if np.asarray(o).dtype.kind == "f" else np.zeros_like(o) for o in outs)
    dout_vars = tuple(names.var("dout", Aval.of(np.asarray(d))) for d in douts)
    out_arg = out_vars if multi else out_vars[0]
    dout_arg = dout_vars if multi else dout_vars[0]
    variadic = not definition.operands
    if variadic:
        staged = stage_rule(definition.adjoint, builder, atoms, {**static, "out": out_arg, "dout": dout_arg}, LOC)
        expected = definition.adjoint(*operands, out=out_value, dout=douts if multi else douts[0], **static)
    else:
        staged = stage_rule(definition.adjoint, builder, (*atoms, out_arg, dout_arg), static, LOC)
        expected = definition.adjoint(*operands, out_value, douts if multi else douts[0], **static)
    env = {a: v for a, v in zip(atoms, operands) if isinstance(a, ir.Var)}
    env.update(zip(out_vars, outs))
    env.update(zip(dout_vars, douts))
    ir.evaluate_block(builder.block, env)
    return staged, env, expected, builder.block


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_every_adjoint_stages_and_computes_what_it_computes_on_arrays(name):
    staged, env, expected, block = _stage_adjoint(name)
    if not isinstance(expected, tuple):
        staged, expected = (staged,), (expected,)
    assert len(staged) == len(expected)
    for got, want in zip(staged, expected):
        if want is None:
            assert got is None
            continue
        value = env[got] if isinstance(got, ir.Var) else got.value
        np.testing.assert_allclose(value, want, rtol=1e-12, atol=1e-12)
        assert np.asarray(value).dtype == np.asarray(want).dtype
    assert all(stmt.loc == LOC for stmt in block.stmts)


def _tracer(shape=(2, 3), dtype=np.float64):
    names = NameSupply()
    builder = BlockBuilder(names)
    return Tracer(names.var("x", Aval(shape, dtype)), _stager(builder)), builder


def _stager(builder):
    from npspore.compiler.trace import _Stager
    return _Stager(builder, LOC, "t")


def test_operators_methods_and_numpy_calls_become_ops():
    x, builder = _tracer()
    y = (2.0 - x) * x / 3.0
    z = np.exp(-y).sum(axis=0, keepdims=True)
    w = z.reshape(3, 1).T.astype(np.float32)
    assert isinstance(w, Tracer) and w.shape == (1, 3) and w.dtype == np.float32
    assert [s.op for s in builder.block.stmts] == ["sub", "mul", "div", "neg", "exp", "sum", "reshape",
                                                    "transpose", "cast"]
    assert builder.block.stmts[5].static == {"axis": 0, "keepdims": True}
    assert builder.block.stmts[0].args[0] == ir.Const(2.0)


def test_static_facts_come_from_the_aval():
    x, builder = _tracer((2, None, 4), np.float32)
    assert (x.shape, x.ndim, x.dtype, x.size, len(x)) == ((2, None, 4), 3, np.float32, None, 2)
    assert builder.block.stmts == []


def test_call_stages_ops_without_a_numpy_spelling():
    x, builder = _tracer()
    result = call("erf", x)
    assert isinstance(result, Tracer)
    assert [s.op for s in builder.block.stmts] == ["erf"]


def test_numpy_map_comes_from_the_op_table():
    mapping = numpy_ops()
    assert mapping[np.multiply] == "mul" and mapping[np.sum] == "sum" and mapping[np.concatenate] == "concat"


def test_sequence_operands_are_splatted_for_variadic_ops():
    x, builder = _tracer()
    joined = np.concatenate((x, x * 2.0), axis=1)
    assert joined.shape == (2, 6)
    stmt = builder.block.stmts[-1]
    assert stmt.op == "concat" and len(stmt.args) == 2 and stmt.static == {"axis": 1}


def _unstageable_rule(x, out, dout):
    return dout * np.cumsum(x)


def _branching_rule(x, out, dout):
    if x > 0:
        return dout
    return -dout


def _float_rule(x, out, dout):
    return dout * float(x)


@pytest.mark.parametrize("rule, what", [
    (_unstageable_rule, "numpy.cumsum"),
    (_branching_rule, "bool() of a staged value"),
    (_float_rule, "float() of a staged value"),
])
def test_unstageable_rules_name_the_rule_and_the_call(rule, what):
    names = NameSupply()
    builder = BlockBuilder(names)
    x = names.var("x", Aval((3,), np.float64))
    with pytest.raises(UnstageableRule) as info:
        stage_rule(rule, builder, (x, x, x), {}, LOC)
    message = str(info.value)
    assert rule.__qualname__ in message and what in message


def test_unsupported_numpy_arguments_are_rejected():
    x, _ = _tracer()
    names = NameSupply()
    builder = BlockBuilder(names)
    v = names.var("x", Aval((3,), np.float64))

    def rule(x, out, dout):
        return np.sum(x, where=x > 0)

    with pytest.raises(UnstageableRule, match="where="):
        stage_rule(rule, builder, (v, v, v), {}, LOC)


def test_constants_are_passed_as_python_values():
    names = NameSupply()
    builder = BlockBuilder(names)
    x = names.var("x", Aval((3,), np.float64))
    seen = []

    def rule(x, y, out, dout):
        seen.append(y)
        return dout * y, None

    staged = stage_rule(rule, builder, (x, ir.Const(2.5), x, x), {}, LOC)
    assert seen == [2.5] and staged[1] is None
    assert builder.block.stmts[0].args == (x, ir.Const(2.5))
