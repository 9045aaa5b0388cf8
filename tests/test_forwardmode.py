"""Forward mode (``compiler.forwardmode``): every op's tangent rule, through the transform, against
central differences (float64) and against the op's adjoint (``<jvp(v), u> == <v, vjp(u)>``), on the
random operands of ``test_adjoints.CASES`` (and of its ``CONVENTIONS``, at points where MindSpore's convention is the
derivative); and the transform on programs: calls, branches, loops,
``jvp`` of ``grad`` against central differences of ``grad``.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import npspore as ms
from npspore import ops
from npspore.compiler import ir, pipeline
from npspore.compiler.builder import BlockBuilder, NameSupply
from npspore.compiler.differentiate import _nondifferentiable_operands
from npspore.compiler.forwardmode import jvp
from npspore.compiler.jvpspec import UnbatchedTangent
from npspore.opdef import Aval, op_table
from test_adjoints import CASES, CONVENTIONS, adjoint_vjp

SETTINGS = settings(max_examples=10, deadline=None)
LOC = ir.Loc("<op>", 1)


def one_op_module(name, operands, static):
    """A module whose entry applies op ``name`` to its array operands (other operands constants)."""
    names = NameSupply()
    params, args = [], []
    for operand in operands:
        if isinstance(operand, np.ndarray):
            params.append(names.var("x", Aval.of(operand)))
            args.append(params[-1])
        else:
            args.append(ir.Const(operand))
    builder = BlockBuilder(names)
    out = builder.apply(name, tuple(args), static, loc=LOC, hint="out")
    results = out if isinstance(out, tuple) else (out,)
    function = ir.Function("f", tuple(params), ir.Block(builder.block.stmts, results))
    return ir.Module({"f": function}, "f")


def float_outputs(values):
    return [i for i, v in enumerate(values) if np.asarray(v).dtype.kind == "f"]


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("name", sorted({**CASES, **CONVENTIONS}))
def test_tangent_matches_central_differences_and_the_adjoint(data, name):
    operands, static = data.draw({**CASES, **CONVENTIONS}[name], label="operands and static")
    definition = op_table()[name]
    skip = _nondifferentiable_operands(definition)
    arrays = [i for i, x in enumerate(operands) if isinstance(x, np.ndarray)]
    wrt = tuple(k for k, i in enumerate(arrays) if i not in skip and operands[i].dtype == np.float64)
    if not wrt:
        return
    module = one_op_module(name, operands, static)
    primal = [operands[i] for i in arrays]
    n_results = len(module.functions["f"].body.results)
    rng = np.random.default_rng(0)
    tangents = [rng.standard_normal(primal[k].shape) for k in wrt]
    with np.errstate(all="ignore"):
        values = ir.evaluate(module, *primal)
        outputs = tuple(float_outputs(values))
        transformed = jvp(module, wrt, outputs)
        found = ir.evaluate(transformed, *primal, *tangents)[n_results:]
        eps = 1e-6

        def shifted(sign):
            moved = list(primal)
            for k, t in zip(wrt, tangents):
                moved[k] = primal[k] + sign * eps * t
            return ir.evaluate(module, *moved)

        plus, minus = shifted(1), shifted(-1)
    check_batched(module, wrt, outputs, primal, tangents, found)
    for position, tangent in zip(outputs, found):
        assert np.shape(tangent) == np.shape(values[position]), name
        assert np.asarray(tangent).dtype == np.asarray(values[position]).dtype, name
        expected = (np.asarray(plus[position]) - np.asarray(minus[position])) / (2 * eps)
        np.testing.assert_allclose(tangent, expected, rtol=1e-4, atol=1e-6, err_msg=name)
    # <jvp(v), u> == <v, vjp(u)>: the tangent rule is the adjoint's transpose
    if isinstance(definition.forward(*operands, **static), tuple):   # its adjoint takes a cotangent per output
        return
    u = rng.standard_normal(np.shape(values[outputs[0]]))
    vjp = adjoint_vjp(definition, static)(None)
    cotangents = vjp(tuple(operands), u)
    cotangents = (cotangents,) if len(operands) == 1 else cotangents
    left = float(np.sum(np.asarray(found[0]) * u))
    right = sum(float(np.sum(t * cotangents[arrays[k]])) for k, t in zip(wrt, tangents))
    np.testing.assert_allclose(left, right, rtol=1e-8, atol=1e-10, err_msg=name)


def check_batched(module, wrt, outputs, primal, tangents, found):
    """Where the op has a batched rule: two tangents at once (``t`` and ``-2t``) give the tangent of each."""
    try:
        batched = jvp(module, wrt, outputs, batch=2)
    except UnbatchedTangent:
        return
    n_results = len(module.functions["f"].body.results)
    stacked = [np.stack((t, -2 * t)) for t in tangents]
    with np.errstate(all="ignore"):
        pairs = ir.evaluate(batched, *primal, *stacked)[n_results:]
    for pair, tangent in zip(pairs, found):
        np.testing.assert_allclose(pair[0], tangent, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(pair[1], -2 * np.asarray(tangent), rtol=1e-12, atol=1e-12)


def test_every_op_with_an_adjoint_has_a_tangent_rule():
    for definition in op_table().definitions():
        assert (definition.tangent is None) == (definition.adjoint is None), definition.name


# ---------------------------------------------------------------- programs


def central(fn, args, tangents, eps=1e-6):
    plus = fn(*(ms.Tensor(a + eps * t) for a, t in zip(args, tangents)))
    minus = fn(*(ms.Tensor(a - eps * t) for a, t in zip(args, tangents)))
    return (plus.asnumpy() - minus.asnumpy()) / (2 * eps)


class Block(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = ms.nn.Dense(3, 3, weight_init="normal")

    def construct(self, x):
        return ops.tanh(self.dense(x))


class Looped(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x, n):
        i = 0
        while i < n:              # a tensor while: stays a loop in the JVP kernel
            x = self.block(x)
            i += 1
        if x.sum() > 0:           # a tensor if: stays a branch
            x = x * x
        else:
            x = ops.exp(x)
        return x


def test_jvp_of_calls_loops_and_branches_against_central_differences():
    ms.set_seed(1)
    net = Looped()
    for p in net.get_parameters():
        p.set_data(ms.Tensor(p.asnumpy().astype(np.float64)))
    rng = np.random.default_rng(3)
    x, v = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    n = ms.Tensor(np.array(3))
    out, tangent = ops.jvp(lambda a: net(a, n), ms.Tensor(x), ms.Tensor(v))
    np.testing.assert_allclose(tangent.asnumpy(), central(lambda a: net(a, n), (x,), (v,)), rtol=1e-6, atol=1e-8)


def loss(x):
    return ops.sum(ops.sin(x) * x * x)


def test_jvp_of_grad_is_central_differences_of_grad():
    rng = np.random.default_rng(5)
    x, v = rng.standard_normal(4), rng.standard_normal(4)
    gradient = ms.grad(loss)
    _, hvp = ops.jvp(gradient, ms.Tensor(x), ms.Tensor(v))
    np.testing.assert_allclose(hvp.asnumpy(), central(gradient, (x,), (v,)), rtol=1e-6, atol=1e-8)


def test_grad_of_jvp_is_the_hessian_vector_product():
    rng = np.random.default_rng(6)
    x, v = rng.standard_normal(4), rng.standard_normal(4)

    def directional(a):
        return ops.jvp(loss, (a,), (ms.Tensor(v),))[1]

    found = ms.grad(directional)(ms.Tensor(x))
    np.testing.assert_allclose(found.asnumpy(), central(ms.grad(loss), (x,), (v,)), rtol=1e-6, atol=1e-8)


def test_jvp_kernel_keeps_the_while_loop_and_the_if():
    net = Looped()
    source = ms.derivatives.JvpFunction(net, ms.compiler.jvpspec.JvpSpec()).kernel_source(
        ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.array(2)),
        ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.array(0)))
    assert "while " in source and "if " in source and "for " not in source.split("def ")[1].split("\n")[0]


# ---------------------------------------------------------------- Jacobians (batched tangents)


def numeric_jacobian(fn, args, position, eps=1e-6):
    """d fn(args) / d args[position] by central differences, of shape out.shape + input.shape."""
    base = [a.asnumpy() for a in args]
    columns = []
    for index in range(base[position].size):
        step = np.zeros(base[position].size)
        step[index] = eps
        step = step.reshape(base[position].shape)

        def at(sign):
            moved = [ms.Tensor(b + sign * step) if k == position else ms.Tensor(b) for k, b in enumerate(base)]
            return fn(*moved).asnumpy()

        columns.append(((at(1) - at(-1)) / (2 * eps)).reshape(-1))
    out_shape = np.shape(fn(*args).asnumpy())
    return np.stack(columns, axis=-1).reshape(out_shape + base[position].shape)


def shapes_everywhere(x, y):
    """Batched linear rules of many shape ops and reductions, softmax's own rule, matmuls of vectors."""
    h = ops.concat((x, ops.transpose(y, (1, 0))), axis=1)          # (2, 6)
    h = ops.reshape(h, (6, 2))[1:4] * ops.expand_dims(y[:, 0], 1)  # (3, 2)
    s = ops.softmax(h, axis=0) + ops.log_softmax(h, axis=-1)
    v = ops.matmul(ops.squeeze(s.sum(axis=1, keepdims=True), 1), y)     # vector @ matrix: (2,)
    return ops.stack((h.mean(axis=0) * v, ops.matmul(y, v)[:2]), axis=-1)   # matrix @ vector: (2, 2)


def reductions_without_batched_rules(x, y):
    return ops.prod(x, axis=1) * y.max(axis=0)


@pytest.mark.parametrize("fn", [shapes_everywhere, reductions_without_batched_rules])
@pytest.mark.parametrize("transform", [ops.jacfwd, ops.jacrev])
def test_jacobians_match_central_differences(fn, transform):
    rng = np.random.default_rng(7)
    x, y = ms.Tensor(rng.uniform(0.5, 2, (2, 3))), ms.Tensor(rng.standard_normal((3, 2)))
    found = transform(fn, grad_position=(0, 1))(x, y)
    for position in (0, 1):
        np.testing.assert_allclose(found[position].asnumpy(), numeric_jacobian(fn, (x, y), position),
                                   rtol=1e-6, atol=1e-7)


def test_jacfwd_uses_one_kernel_with_batched_tangents():
    rng = np.random.default_rng(8)
    x, y = ms.Tensor(rng.standard_normal((2, 3))), ms.Tensor(rng.standard_normal((3, 2)))
    spec = ms.compiler.jvpspec.JvpSpec((0, 1), False, batch=12)
    source = ms.derivatives.JvpFunction(shapes_everywhere, spec).kernel_source(
        x, y, ms.Tensor(np.zeros((12, 2, 3))), ms.Tensor(np.zeros((12, 3, 2))))
    assert "batch=12" in source and "for " not in source


def test_a_tangent_batch_through_an_op_without_a_batched_rule_is_refused_at_compile_time():
    rng = np.random.default_rng(9)
    x, y = ms.Tensor(rng.uniform(0.5, 2, (2, 3))), ms.Tensor(rng.standard_normal((3, 2)))
    spec = ms.compiler.jvpspec.JvpSpec((0,), False, batch=6)
    with pytest.raises(ms.compiler.jvpspec.UnbatchedTangent):
        ms.derivatives.JvpFunction(reductions_without_batched_rules, spec)(x, y, ms.Tensor(np.zeros((6, 2, 3))))


# --- the identity basis of jacfwd/jacrev: products by it folded (compiler.basistangents)

WEIGHTS = np.random.default_rng(10).standard_normal((6, 6))
SCALE = np.random.default_rng(11).uniform(0.5, 2, 6)


def dense_tanh(x):
    """A Dense layer's ops on a vector: reshape to a row, product with a transposed weight, tanh."""
    return ops.tanh(ops.MatMul(transpose_b=True)(ops.reshape(x, (1, 6)), ms.Tensor(WEIGHTS)))


def scaled_product(x):
    """The identity scaled (diag(b)) and then multiplied; read twice (two products of the basis)."""
    scaled = ops.mul(ms.Tensor(SCALE), x)
    return ops.matmul(scaled, ms.Tensor(WEIGHTS[:, :4])) + ops.matmul(ops.sin(x), ms.Tensor(WEIGHTS[:, 2:]))


def rows_of_a_matrix(x):
    """A (2, 3) input: its basis is not the identity of the product's rows (no fold may apply)."""
    return ops.matmul(ops.reshape(x, (2, 3)), ms.Tensor(WEIGHTS[:3, :2])) * ops.reshape(x, (2, 3))[:, :2]


@pytest.mark.parametrize("fn", [dense_tanh, scaled_product, rows_of_a_matrix])
@pytest.mark.parametrize("transform", [ops.jacfwd, ops.jacrev])
def test_jacobians_on_the_identity_basis_match_central_differences(fn, transform):
    x = ms.Tensor(np.random.default_rng(12).standard_normal(6))
    np.testing.assert_allclose(transform(fn)(x).asnumpy(), numeric_jacobian(fn, (x,), 0), rtol=1e-6, atol=1e-7)


class Layer(ms.nn.Cell):
    def construct(self, x, w):
        return ops.tanh(ops.matmul(w, x))


class ThreeLayers(ms.nn.Cell):
    """One layer's function called three times: jacrev's kernel calls its backward three times."""

    def __init__(self):
        super().__init__()
        self.layer = Layer()
        self.w0, self.w1, self.w2 = (ms.Tensor(WEIGHTS * (k + 1) / 4) for k in range(3))

    def construct(self, x):
        return self.layer(self.layer(self.layer(x, self.w0), self.w1), self.w2)


def test_jacrev_computes_no_gradient_of_its_zero_sensitivity():
    x = ms.Tensor(np.random.default_rng(13).standard_normal(6))
    net = ThreeLayers()
    np.testing.assert_allclose(ops.jacrev(net)(x).asnumpy(), numeric_jacobian(net, (x,), 0), rtol=1e-6, atol=1e-7)
    source = identity_kernel(net, x, reverse=True)
    # one product in the layer's forward and one in the backward of the two later layers (one function,
    # one product each: the basis's rows at once, no stack of matrix-vector products); the last layer's
    # backward, on the identity basis, scales the weight; none computes the cotangent of a zero sensitivity
    assert matrix_products(source) == 2, source
    entry_body = source.split("def ThreeLayers_construct_grad_jvp")[1].split('"""')[2]
    assert "sens" not in entry_body   # neither the zero sensitivity nor the basis (folded) is read
    assert "tangents only" in source


def matrix_products(source: str) -> int:
    """How many matrix products a kernel computes (``@`` and ``np.matmul``), comments aside."""
    code = "\n".join(line.split("  #")[0] for line in source.splitlines() if not line.startswith("#"))
    return code.count(" @ ") + code.count("np.matmul(")


def identity_kernel(fn, x, reverse: bool) -> str:
    """The kernel ``jacfwd(fn)``/``jacrev(fn)`` runs at ``x``."""
    jacobian = (ops.jacrev if reverse else ops.jacfwd)(fn)
    make, call_args, basis, _ = jacobian.plan((x,))
    return make(basis[0].shape[0]).kernel_source(*call_args, *basis)


@pytest.mark.parametrize("reverse", [False, True])
def test_the_identity_basis_is_never_multiplied(reverse):
    # only the forward product: jacfwd's tangent is the weight itself, scaled; jacrev's is the basis times
    # diag(1 - tanh²) times the weight, the scaled weight, and the gradient itself (of a zero
    # sensitivity) is not computed
    source = identity_kernel(dense_tanh, ms.Tensor(np.ones(6)), reverse)
    assert matrix_products(source) == 1, source
    assert "identity basis" in source


def two_outputs(x, y):
    return ops.sin(x) * y, (x * y).sum()


@pytest.mark.parametrize("position", [0, (0, 1)])
@pytest.mark.parametrize("transform", [ops.jacfwd, ops.jacrev])
def test_jacobians_of_a_function_of_two_outputs_have_a_block_per_output(transform, position):
    """Fuzz (fuzz9): jacrev of a function returning a tuple passed its basis cotangents as one argument each (the
    gradient's sensitivity is one argument, a tuple: a TypeError, too many positional arguments), and once given
    as a tuple, the one-block shortcut kept the first output's block alone."""
    rng = np.random.default_rng(9)
    x, y = ms.Tensor(rng.uniform(-1, 1, (2, 3))), ms.Tensor(rng.uniform(-1, 1, (2, 3)))
    found = transform(two_outputs, grad_position=position)(x, y)
    assert len(found) == 2   # one entry per output
    for k, row in enumerate(found):
        blocks = row if isinstance(position, tuple) else (row,)
        for p, block in zip(position if isinstance(position, tuple) else (position,), blocks):
            want = numeric_jacobian(lambda a, b: two_outputs(a, b)[k], (x, y), p)
            np.testing.assert_allclose(block.asnumpy(), want, rtol=1e-6, atol=1e-7)
    hessian = ops.jacrev(ops.jacrev(two_outputs, 0), 1)(x, y)
    assert [tuple(h.shape) for h in hessian] == [(2, 3, 2, 3, 2, 3), (2, 3, 2, 3)]
