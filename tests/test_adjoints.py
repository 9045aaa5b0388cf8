"""Every differentiable op's adjoint rule against central finite differences of its forward (float64).

For each op, a Hypothesis strategy draws operands (random shapes, broadcasting for binary ops,
random axes for reductions) away from the points where the op is not differentiable. The rule is
called directly, as the compiler stages it; a small test-side ``unbroadcast`` sums its cotangents
back to the operands' shapes, as the compiler does.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from collective_adjoint_cases import CASES as COLLECTIVE_CASES
from gradcheck import check_grads
from nn_adjoint_cases import CASES as NN_CASES
from npspore.opdef import op_table

SETTINGS = settings(max_examples=25, deadline=None)


def unbroadcast(cotangent, shape):
    """Sum a broadcast cotangent back to ``shape`` (what the compiler adds after each rule)."""
    cotangent = np.asarray(cotangent)
    while cotangent.ndim > len(shape):
        cotangent = cotangent.sum(axis=0)
    for axis, dim in enumerate(shape):
        if dim == 1 and cotangent.shape[axis] != 1:
            cotangent = cotangent.sum(axis=axis, keepdims=True)
    return cotangent


def adjoint_vjp(definition, static):
    """``vjp`` for :func:`check_grads`: the op's adjoint rule, cotangents unbroadcast."""
    def make(fn):
        def vjp(operands, dout):
            out = definition.forward(*operands, **static)
            found = definition.adjoint(*operands, out=out, dout=dout, **static)
            found = (found,) if len(operands) == 1 else found
            assert len(found) == len(operands), "one cotangent per operand"
            cotangents = []
            for operand, cotangent in zip(operands, found):
                if cotangent is None or not isinstance(operand, np.ndarray):
                    cotangents.append(None)
                    continue
                assert np.asarray(cotangent).dtype == np.float64 or operand.dtype.kind != "f", \
                    f"{definition.name}: the rule changed the cotangent dtype to {np.asarray(cotangent).dtype}"
                cotangents.append(unbroadcast(cotangent, operand.shape))
            return cotangents[0] if len(operands) == 1 else tuple(cotangents)
        return vjp

    return make


# ---------------------------------------------------------------- strategies

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)


def arrays(shape, low=-2.0, high=2.0):
    return hnp.arrays(np.float64, shape, elements=st.floats(low, high, allow_subnormal=False))


def distinct(shape):
    """Values at least 0.1 apart, so that extrema stay put under finite differences."""
    return hnp.arrays(np.float64, shape, elements=st.integers(-50, 50).map(lambda v: v / 10), unique=True)


def away_from_zero(shape, low=0.5, high=2.0):
    """Values with ``low <= |v| <= high`` and a random sign."""
    return st.tuples(arrays(shape, low, high), hnp.arrays(np.bool_, shape)).map(
        lambda pair: np.where(pair[1], -pair[0], pair[0]))


def pair_shapes():
    return hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3).map(lambda s: s.input_shapes)


def axis_for(draw, ndim, allow_tuple=True):
    """None, an int (maybe negative) or a tuple of distinct axes of an ``ndim``-dim array."""
    if ndim == 0:
        return None
    choices = [st.none(), st.integers(-ndim, ndim - 1)]
    if allow_tuple:
        choices.append(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple))
    return draw(st.one_of(*choices))


@st.composite
def binary(draw, x=arrays, y=arrays, separated=False):
    a, b = draw(pair_shapes())
    xs, ys = draw(x(a)), draw(y(b))
    if separated:
        assume(np.all(np.abs(xs - ys) > 1e-3))
    return (xs, ys), {}


@st.composite
def unary(draw, values=arrays, **kwargs):
    return (draw(values(draw(SHAPES), **kwargs)),), {}


@st.composite
def reductions(draw, values=arrays):
    x = draw(values(draw(SHAPES)))
    return (x,), {"axis": axis_for(draw, x.ndim), "keepdims": draw(st.booleans())}


@st.composite
def indexed_reductions(draw):
    x = draw(distinct(draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))))
    return (x,), {"axis": axis_for(draw, x.ndim, allow_tuple=False), "keepdims": draw(st.booleans())}


@st.composite
def pow_case(draw):
    a, b = draw(pair_shapes())
    return (draw(arrays(a, 0.5, 2.0)), draw(arrays(b, -2.0, 2.0))), {}


@st.composite
def mod_case(draw):
    (x, y), _ = draw(binary(arrays, lambda s: arrays(s, 0.5, 2.0)))
    fraction = np.mod(x / y, 1.0)
    assume(np.all((fraction > 1e-3) & (fraction < 1 - 1e-3)))
    return (x, y), {}


@st.composite
def where_case(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3)).input_shapes
    return (draw(hnp.arrays(np.bool_, shapes[0])), draw(arrays(shapes[1])), draw(arrays(shapes[2]))), {}


@st.composite
def clip_case(draw):
    shape = draw(SHAPES)
    x = draw(arrays(shape))
    low = draw(st.one_of(st.none(), arrays(draw(st.sampled_from([(), shape])), -1.0, 0.0)))
    high = draw(st.one_of(arrays(draw(st.sampled_from([(), shape])), 0.1, 1.0)) if low is None
                else st.one_of(st.none(), arrays(draw(st.sampled_from([(), shape])), 0.1, 1.0)))
    for bound in (low, high):
        if bound is not None:
            assume(np.all(np.abs(x - bound) > 1e-3))
    return (x, low, high), {}


@st.composite
def prod_case(draw):
    values = lambda shape: hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, 0.5, -1.5, 2.0, 1.25]))
    (x,), static = draw(reductions(values=values))
    # With two zeros or more the gradient is exactly 0, but central differences keep an eps**2 term of
    # the product's higher-order part (2.6e-6 with two zeros among 25 twos): the checker would blame a
    # correct rule.
    assume(np.count_nonzero(x == 0) <= 1)
    return (x,), static


@st.composite
def reshape_case(draw):
    x = draw(arrays(draw(SHAPES)))
    candidates = [(x.size,), x.shape[::-1], (-1,), (1,) + x.shape, x.shape + (1,)]
    if x.ndim:
        candidates.append((-1, x.shape[-1]))
    return (x,), {"shape": draw(st.sampled_from(candidates))}


@st.composite
def reshape_like_case(draw):
    x = draw(arrays(draw(SHAPES)))
    shape = draw(st.sampled_from([(x.size,), x.shape[::-1], (1,) + x.shape]))
    return (x, draw(arrays(shape))), {}


@st.composite
def reshape_keeping_case(draw):
    x = draw(arrays(draw(hnp.array_shapes(min_dims=2, max_dims=4, max_side=3))))
    kept = draw(st.integers(1, x.ndim - 1))
    return (x,), {"shape": (None,) * kept + draw(st.sampled_from([(-1,), (-1, 1), (1, -1)]))}


@st.composite
def roll_case(draw):
    x = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))))
    return (x,), {"shift": draw(st.integers(-9, 9)), "axis": draw(st.integers(-x.ndim, x.ndim - 1))}


@st.composite
def flatten_case(draw):
    x = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=3))))
    start = draw(st.integers(0, x.ndim - 1))
    end = draw(st.integers(start, x.ndim - 1))
    return (x,), {"start_dim": start, "end_dim": draw(st.sampled_from([end, end - x.ndim]))}


@st.composite
def expand_dims_case(draw):
    x = draw(arrays(draw(SHAPES)))
    return (x,), {"axis": draw(st.integers(-x.ndim - 1, x.ndim))}


@st.composite
def squeeze_case(draw):
    shape = draw(SHAPES)
    ones = draw(st.lists(st.integers(0, len(shape)), max_size=2))
    shape = list(shape)
    for position in sorted(ones, reverse=True):
        shape.insert(position, 1)
    x = draw(arrays(tuple(shape)))
    unit = [i for i, d in enumerate(x.shape) if d == 1]
    axis = draw(st.one_of(st.none(), st.lists(st.sampled_from(unit), unique=True, min_size=1).map(tuple)
                          if unit else st.none()))
    return (x,), {"axis": axis}


@st.composite
def transpose_case(draw):
    x = draw(arrays(draw(SHAPES)))
    axes = draw(st.one_of(st.none(), st.permutations(range(x.ndim)).map(tuple)))
    if axes is not None and axes and draw(st.booleans()):
        axes = tuple(a - x.ndim for a in axes)
    return (x,), {"axes": axes}


@st.composite
def broadcast_to_case(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    return (draw(arrays(shapes.input_shapes[0])),), {"shape": shapes.result_shape}


@st.composite
def tile_case(draw):
    x = draw(arrays(draw(SHAPES)))
    reps = draw(st.one_of(st.integers(1, 3), st.lists(st.integers(1, 3), max_size=4).map(tuple)))
    return (x,), {"reps": reps}


@st.composite
def concat_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    xs = [draw(arrays(shape[:axis % len(shape)] + (n,) + shape[axis % len(shape) + 1:])) for n in sizes]
    return tuple(xs), {"axis": axis}


@st.composite
def stack_case(draw):
    shape = draw(SHAPES)
    xs = [draw(arrays(shape)) for _ in range(draw(st.integers(1, 3)))]
    return tuple(xs), {"axis": draw(st.integers(-len(shape) - 1, len(shape)))}


@st.composite
def split_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    axis = draw(st.integers(0, len(shape) - 1))
    dim = shape[axis]
    sections = draw(st.one_of(st.sampled_from([n for n in range(1, dim + 1) if dim % n == 0]),
                              st.lists(st.integers(0, dim), max_size=3).map(sorted)))
    return (draw(arrays(shape)),), {"indices_or_sections": sections, "axis": axis}


@st.composite
def getitem_case(draw):
    x = draw(arrays(draw(SHAPES)))
    return (x,), {"index": draw(hnp.basic_indices(x.shape, allow_newaxis=True))}


@st.composite
def getitem_grad_case(draw):
    (x,), static = draw(getitem_case())
    return (draw(arrays(np.shape(x[static["index"]]))),), {"shape": x.shape, **static}


@st.composite
def setitem_case(draw):
    (x,), static = draw(getitem_case())
    part = np.shape(x[static["index"]])
    kept = part[len(part) - draw(st.integers(0, len(part))):]    # a value broadcasting to x[index]'s shape
    value_shape = tuple(draw(st.sampled_from((dim, 1))) for dim in kept)
    return (x, draw(arrays(value_shape))), static


@st.composite
def gather_case(draw):
    params = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))))
    axis = draw(st.integers(-params.ndim, params.ndim - 1))
    indices = draw(hnp.arrays(np.int64, draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)),
                              elements=st.integers(0, params.shape[axis] - 1)))
    return (params, indices), {"axis": axis}


@st.composite
def gather_grad_case(draw):
    (params, indices), static = draw(gather_case())
    g = draw(arrays(np.take(params, indices, axis=static["axis"]).shape))
    return (g, indices), {"shape": params.shape, **static}


@st.composite
def masked_select_case(draw):
    x = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))))
    mask = draw(hnp.arrays(np.bool_, x.shape[:draw(st.integers(1, x.ndim))]))
    return (x, mask), {}


@st.composite
def masked_select_grad_case(draw):
    (x, mask), _ = draw(masked_select_case())
    return (draw(arrays(x[mask].shape)), mask), {"shape": x.shape}


@st.composite
def matmul_case(draw, min_rank=1):
    n, k, m = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    batch_a, batch_b = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=2)).input_shapes
    if min_rank >= 3:
        batch_a, batch_b = (2,) + batch_a, (2,) + batch_b
    vector_a = min_rank == 1 and not batch_a and draw(st.booleans())
    vector_b = min_rank == 1 and not batch_b and draw(st.booleans())
    transpose_a = not vector_a and draw(st.booleans())
    transpose_b = not vector_b and draw(st.booleans())
    a = (k,) if vector_a else batch_a + ((k, n) if transpose_a else (n, k))
    b = (k,) if vector_b else batch_b + ((m, k) if transpose_b else (k, m))
    return (draw(arrays(a)), draw(arrays(b))), {"transpose_a": transpose_a, "transpose_b": transpose_b}


@st.composite
def dot_case(draw):
    k = draw(st.integers(1, 3))
    a = draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)) + (k,)
    b = draw(st.sampled_from([(k,), (k, draw(st.integers(1, 3)))]))
    return (draw(arrays(a)), draw(arrays(b))), {}


@st.composite
def outer_case(draw):
    return (draw(arrays((draw(st.integers(1, 4)),))), draw(arrays((draw(st.integers(1, 4)),)))), {}


@st.composite
def softmax_case(draw):
    x = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))))
    axis = draw(st.one_of(st.integers(-x.ndim, x.ndim - 1),
                          st.lists(st.integers(0, x.ndim - 1), min_size=1, unique=True).map(tuple)))
    return (x,), {"axis": axis}


@st.composite
def normalize_case(draw):
    """Trailing axes (layer norm, where the adjoint takes a row's dot product as a product) or any axes;
    ``eps`` of 0.1 or more keeps a row of equal values well conditioned under finite differences."""
    x = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4))))
    first = draw(st.integers(0, x.ndim - 1))
    axis = draw(st.one_of(st.just(tuple(range(first, x.ndim))),
                          st.lists(st.integers(0, x.ndim - 1), min_size=1, unique=True).map(lambda a: tuple(sorted(a)))))
    return (x,), {"axis": axis, "eps": draw(st.sampled_from([0.1, 1.0]))}


@st.composite
def cross_entropy_case(draw):
    """Logits and labels whose rows along ``axis`` sum to one (probabilities), where MindSpore's fused
    gradient ``softmax - labels`` is the derivative."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    weights = draw(arrays(shape, 0.1, 1.0))
    return (draw(arrays(shape)), weights / weights.sum(axis=axis, keepdims=True)), {"axis": axis}


@st.composite
def one_hot_case(draw):
    depth = draw(st.integers(1, 4))
    indices = draw(hnp.arrays(np.int64, draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)),
                              elements=st.integers(0, depth - 1)))
    axis = draw(st.integers(-indices.ndim - 1, indices.ndim))
    out_shape = np.moveaxis(np.zeros(indices.shape + (depth,)), -1, axis).shape
    on, off = draw(arrays(draw(st.sampled_from([(), out_shape])))), draw(arrays(()))
    return (indices, on, off), {"depth": depth, "axis": axis}


@st.composite
def row_case(draw):
    x = draw(arrays(draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))))
    return (x, draw(st.integers(0, x.shape[0] - 1))), {}


@st.composite
def row_add_case(draw):
    (buf, t), _ = draw(row_case())
    return (buf, t, draw(arrays(buf.shape[1:]))), {}


@st.composite
def matrix_inverse_case(draw):
    """Batches of well-conditioned square matrices: 3 times the identity plus entries in [-1/2, 1/2] (strictly
    diagonally dominant, so never near singular)."""
    batch = draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=2))
    n = draw(st.integers(1, 3))
    return (draw(arrays(batch + (n, n), -0.5, 0.5)) + 3 * np.eye(n),), {}


CASES = {
    "add": binary(), "sub": binary(), "mul": binary(), "div": binary(y=away_from_zero),
    "mod": mod_case(), "remainder": mod_case(), "truncate_mod": mod_case(), "pow": pow_case(),
    "maximum": binary(separated=True), "minimum": binary(separated=True),
    "neg": unary(), "conj": unary(), "real": unary(), "abs": unary(away_from_zero, low=1e-2), "square": unary(),
    "exp": unary(), "log": unary(low=0.5, high=3.0), "log1p": unary(low=-0.5, high=3.0),
    "sqrt": unary(low=0.5, high=3.0), "rsqrt": unary(low=0.5, high=3.0),
    "sin": unary(), "cos": unary(), "tan": unary(low=-1.2, high=1.2), "tanh": unary(), "sigmoid": unary(),
    "relu": unary(away_from_zero, low=1e-2), "softplus": unary(), "erf": unary(),
    "gelu": st.tuples(unary(), st.booleans()).map(lambda c: (c[0][0], {"approximate": c[1]})),
    "where": where_case(), "clip": clip_case(),
    "cast": unary().map(lambda c: (c[0], {"dtype": np.dtype(np.float64)})),
    "sum": reductions(), "mean": reductions(), "prod": prod_case(),
    "max": reductions(distinct), "min": reductions(distinct),
    "max_with_indices": indexed_reductions(), "min_with_indices": indexed_reductions(),
    "reshape": reshape_case(), "reshape_like": reshape_like_case(), "reshape_keeping": reshape_keeping_case(), "roll": roll_case(), "flatten": flatten_case(), "expand_dims": expand_dims_case(),
    "squeeze": squeeze_case(), "transpose": transpose_case(), "broadcast_to": broadcast_to_case(),
    "tile": tile_case(), "concat": concat_case(), "stack": stack_case(), "split": split_case(),
    "getitem": getitem_case(), "getitem_grad": getitem_grad_case(), "setitem": setitem_case(), "gather": gather_case(),
    "gather_grad": gather_grad_case(), "masked_select": masked_select_case(),
    "masked_select_grad": masked_select_grad_case(),
    "matmul": matmul_case(), "batch_matmul": matmul_case(min_rank=3), "dot": dot_case(), "outer": outer_case(),
    "softmax": softmax_case(), "log_softmax": softmax_case(), "normalize": normalize_case(),
    "one_hot": one_hot_case(), "row": row_case(), "row_add": row_add_case(), "row_set": row_add_case(),
    **NN_CASES,
    **COLLECTIVE_CASES,
    # inverse trigonometric, hyperbolic and error functions (codegen_templates/special.py)
    "acos": unary(low=-0.9, high=0.9), "asin": unary(low=-0.9, high=0.9), "atan": unary(),
    "atan2": binary(y=lambda shape: arrays(shape, 0.5, 2.0)), "sinh": unary(), "cosh": unary(),
    "asinh": unary(), "acosh": unary(low=1.2, high=3.0), "atanh": unary(low=-0.9, high=0.9), "expm1": unary(),
    "erfc": unary(low=-3.0, high=3.0), "erfinv": unary(low=-0.95, high=0.95),
    "lgamma": unary(low=0.2, high=4.0), "digamma": unary(low=-0.8, high=-0.2) | unary(low=0.2, high=4.0),
    "trigamma": unary(low=-0.8, high=-0.2) | unary(low=0.2, high=4.0),
    "matrix_inverse": matrix_inverse_case(),   # codegen_templates/matrix.py
    "matrix_determinant": matrix_inverse_case(),
}


# Ops whose adjoint is MindSpore's convention rather than the derivative (tests/test_fused_cross_entropy.py
# holds MindSpore's values): checked here to first order in the operands and at the points where the two agree.
CONVENTIONS = {"softmax_cross_entropy": cross_entropy_case()}


def test_every_differentiable_op_has_a_case():
    differentiable = {d.name for d in op_table().definitions() if d.differentiable}
    assert differentiable == set(CASES) | set(CONVENTIONS)


@pytest.mark.parametrize("name", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_adjoint_matches_finite_differences(name, data):
    definition = op_table()[name]
    operands, static = data.draw(CASES[name], label="operands and static")
    with np.errstate(all="ignore"):
        check_grads(lambda *xs: definition.forward(*xs, **static), operands, adjoint_vjp(definition, static))


@SETTINGS
@given(data=st.data())
def test_fused_cross_entropy_adjoint_is_the_derivative_to_the_logits_of_probability_labels(data):
    definition = op_table()["softmax_cross_entropy"]
    (logits, labels), static = data.draw(CONVENTIONS["softmax_cross_entropy"], label="operands and static")

    def loss_of_logits(x):
        return definition.forward(x, labels, **static)

    def vjp(fn):
        return lambda args, dout: definition.adjoint(args[0], labels, out=fn(*args), dout=dout, **static)[0]

    check_grads(loss_of_logits, (logits,), vjp)
    assert definition.adjoint(logits, labels, out=None, dout=loss_of_logits(logits), **static)[1] is None


# ---------------------------------------------------------------- the checker itself


def cube(x):
    return x ** 3


def cube_vjp(args, dout):
    (x,) = args
    return dout * 3 * x ** 2


def test_check_grads_accepts_the_right_vjp_to_second_order():
    def vjp(fn):
        if fn is cube:
            return cube_vjp
        # fn is (x, dout) -> (cube_vjp(x, dout),): its vjp for the output cotangent (g,)
        return lambda args, g: (g[0] * 6 * args[0] * args[1], g[0] * 3 * args[0] ** 2)

    check_grads(cube, (np.array([1.0, -2.0, 0.5]),), vjp, order=2)


def test_check_grads_rejects_a_wrong_first_derivative():
    with pytest.raises(AssertionError, match="wrong derivative for argument 0"):
        check_grads(cube, (np.array([1.0, 2.0]),), lambda fn: lambda args, dout: dout * 2 * args[0] ** 2)


def test_check_grads_rejects_a_wrong_second_derivative():
    def vjp(fn):
        if fn is cube:
            return cube_vjp
        return lambda args, g: (g[0] * 5 * args[0] * args[1], g[0] * 3 * args[0] ** 2)

    with pytest.raises(AssertionError, match="wrong derivative for argument 0"):
        check_grads(cube, (np.array([1.0, 2.0]),), vjp, order=2)


def test_check_grads_rejects_a_missing_cotangent():
    with pytest.raises(AssertionError, match="wrong derivative for argument 1"):
        check_grads(lambda x, y: x * y, (np.array([1.0]), np.array([2.0])),
                    lambda fn: lambda args, dout: (dout * args[1], None))
