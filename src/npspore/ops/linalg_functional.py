"""Linear algebra of ``mindspore.ops`` built from the op table: ``einsum`` (and ``P.Einsum``), ``mv``, ``inner``,
``ger``, ``diagonal``, ``trace``, ``baddbmm``, ``addmm``, ``addmv`` and ``P.DiagPart``.

``einsum`` reads its equation at compile time and contracts the operands pairwise, each pair as one batched
``matmul`` (indices only one operand has and nothing later needs are summed first; a repeated index of one operand
takes its diagonal), so it runs eagerly and compiled and differentiates as ``matmul``, ``sum`` and ``transpose`` do.
"""
from __future__ import annotations

import math
from typing import Any

from ..common.tensor import Tensor, _np_dtype
from .array_functional import broadcast_kept
from .eager import run
from .numeric import _check_tensor
from .primitives import Primitive, _Stateless, _check_bool

__all__ = ["einsum", "mv", "inner", "ger", "diagonal", "trace", "baddbmm", "addmm", "addmv", "batch_dot",
           "cosine_similarity", "inverse", "cross", "cdist", "diag", "Einsum", "DiagPart", "MatrixInverse"]

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _eye(n: int, dtype: Any) -> Tensor:
    """The (n, n) identity of ``dtype``: multiplying by it and summing a dim takes a diagonal."""
    return Tensor([[float(i == j) for j in range(n)] for i in range(n)], dtype)


def _diagonal_sum(x: Tensor, n: int, axis: int) -> Tensor:
    """The diagonal of the square dims ``axis - 1`` and ``axis`` (both ``n``) of ``x``, in ``x``'s dtype."""
    return run("sum", run("mul", x, _eye(n, x.dtype)), axis=(axis,), dtype=_np_dtype(x.dtype))


def _sublist_label(number: Any) -> str:
    if number is Ellipsis:
        return "..."
    if isinstance(number, int) and 0 <= number < 52:
        return _LETTERS[number]
    raise ValueError(f"For einsum, the number in sublist must be in range [0, 52), but got {number}")


def _from_sublists(first: Tensor, rest: tuple) -> tuple[str, tuple]:
    """The equation and operands of the sublist form ``einsum(op1, sublist1, op2, sublist2, ..., [sublist_out])``."""
    items = (first, *rest)
    operands, sublists = items[0::2], items[1::2]
    output = None
    if len(items) % 2 == 1:   # the last item is the output sublist
        operands, output = items[0:-1:2], items[-1]
        sublists = items[1:-1:2]
    equation = ",".join("".join(_sublist_label(n) for n in sublist) for sublist in sublists)
    if output is not None:
        equation += "->" + "".join(_sublist_label(n) for n in output)
    return equation, tuple(operands)


def _parse(equation: str, operands: tuple) -> tuple[list[str], str]:
    """Each operand's labels (one character per dim, the ellipsis spelled as digits) and the output's labels.

    Raises:
        ValueError: if the equation has characters other than letters, ``,``, ``...`` and ``->``, names a
            different number of operands, or gives an operand another number of dims than it has.
    """
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"For einsum, the equation '{equation}' names {len(terms)} operands, but got "
                         f"{len(operands)}.")
    ellipsis_dims = 0
    labels = []
    for term, operand in zip(terms, operands):
        letters = term.replace("...", "")
        if not letters.isalpha() and letters or term.count("...") > 1 or "." in letters:
            raise ValueError(f"For einsum, the equation may hold only letters, ',', '...' and '->', but got "
                             f"'{equation}'.")
        ndim = len(operand.shape)
        extra = ndim - len(letters)
        if extra < 0 or (extra and "..." not in term):
            raise ValueError(f"For einsum, the term '{term}' does not match the operand's {ndim} dims.")
        ellipsis_dims = max(ellipsis_dims, extra)
        labels.append(term.replace("...", "0123456789"[10 - extra:]))   # right-aligned, as broadcasting
    broadcast = "0123456789"[10 - ellipsis_dims:]
    if arrow:
        if output.replace("...", "") and not output.replace("...", "").isalpha():
            raise ValueError(f"For einsum, the output '{output}' may hold only letters and '...'.")
        out = output.replace("...", broadcast)
    else:
        counts = {c: "".join(labels).count(c) for c in "".join(labels) if c.isalpha()}
        out = broadcast + "".join(sorted(c for c, n in counts.items() if n == 1))
    for label in out:
        if not any(label in term for term in labels):
            raise ValueError(f"For einsum, the output label '{label}' appears in no operand of '{equation}'.")
    return labels, out


def _take_diagonal(x: Tensor, labels: str) -> tuple[Tensor, str]:
    """``x`` with each repeated label of ``labels`` reduced to one dim holding the diagonal."""
    while True:
        repeated = next((c for c in labels if labels.count(c) > 1), None)
        if repeated is None:
            return x, labels
        first = labels.index(repeated)
        second = labels.index(repeated, first + 1)
        n = x.shape[first]
        eye = _eye(n, x.dtype)
        shape = [1] * len(labels)
        shape[first], shape[second] = n, n
        x = run("sum", run("mul", x, run("reshape", eye, shape=tuple(shape))), axis=(second,), keepdims=False)
        labels = labels[:second] + labels[second + 1:]


def _sum_out(x: Tensor, labels: str, keep: str) -> tuple[Tensor, str]:
    """``x`` summed over its labels not in ``keep``."""
    axes = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not axes:
        return x, labels
    return run("sum", x, axis=axes, keepdims=False), "".join(c for c in labels if c in keep)


def _arranged(x: Tensor, labels: str, order: str) -> Tensor:
    perm = tuple(labels.index(c) for c in order)
    return x if perm == tuple(range(len(perm))) else run("transpose", x, axes=perm)


def _contract(a: Tensor, la: str, b: Tensor, lb: str, keep: str) -> tuple[Tensor, str]:
    """The product of ``a`` and ``b`` summed over their shared labels not in ``keep``, as one batched matmul."""
    a, la = _sum_out(a, la, keep + lb)
    b, lb = _sum_out(b, lb, keep + la)
    sizes: dict = {}
    for x, labels in ((a, la), (b, lb)):
        for c, d in zip(labels, x.shape):
            sizes[c] = _label_size(c, sizes.get(c, 1), d)
    batch = "".join(c for c in la if c in lb and c in keep)
    summed = "".join(c for c in la if c in lb and c not in keep)
    free_a = "".join(c for c in la if c not in lb)
    free_b = "".join(c for c in lb if c not in la)
    a = _broadcast(_arranged(a, la, batch + free_a + summed), tuple(sizes[c] for c in batch + free_a + summed))
    b = _broadcast(_arranged(b, lb, batch + summed + free_b), tuple(sizes[c] for c in batch + summed + free_b))
    product = run("matmul", run("reshape", a, shape=_group_sizes(sizes, (batch, free_a, summed))),
                  run("reshape", b, shape=_group_sizes(sizes, (batch, summed, free_b))))
    shape = _group_sizes(sizes, tuple(batch + free_a + free_b))
    return run("reshape", product, shape=shape), batch + free_a + free_b


def _label_size(label: str, known: int, d: int) -> int:
    """The size of ``label`` given the size ``known`` so far and an operand's dim ``d`` (1 broadcasts; a dim known
    only when the kernel runs, ``-1``, is taken to agree with the other).

    Raises:
        ValueError: if two static sizes differ.
    """
    if known == 1 or (known < 0 and d != 1):
        return d
    if d == 1 or d < 0:
        return known
    if known != d:
        raise ValueError(f"For einsum, the dims of label '{label}' differ: {known} and {d}.")
    return known


def _broadcast(x: Tensor, shape: tuple) -> Tensor:
    """``x`` broadcast to ``shape``, whose ``-1`` (a dim known only when the kernel runs) keeps ``x``'s dim."""
    if tuple(x.shape) == shape:
        return x
    return broadcast_kept(x, shape) if -1 in shape else run("broadcast_to", x, shape=shape)


def _group_sizes(sizes: dict, groups) -> tuple:
    """The reshape to ``groups`` of labels, each the product of its labels' sizes; the one group holding a dim known
    only when the kernel runs is ``-1`` (inferred). With several, the product is taken, which compiled code refuses
    at the user's line (a layer's arithmetic on such a dim)."""
    dims = [-1 if any(sizes[c] < 0 for c in group) else math.prod(sizes[c] for c in group) for group in groups]
    if dims.count(-1) > 1:
        return tuple(math.prod(sizes[c] for c in group) for group in groups)
    return tuple(dims)


def einsum(equation: str | Tensor, *operands: Any) -> Tensor:
    """The Einstein summation ``equation`` (``'ij,jk->ik'``; letters, ``,``, ``...`` and ``->``; without ``->`` the
    output holds the letters used once, in alphabetical order) over the Tensors ``operands``; or the sublist form
    ``einsum(op1, sublist1, op2, sublist2, ..., sublist_out)`` with ints in [0, 52) and ``...``. A result of no dims
    has shape (1,), as MindSpore 2.10's.

    Raises:
        TypeError: if an operand is not a Tensor.
        ValueError: if the equation is malformed or does not match the operands' dims.
    """
    if isinstance(equation, Tensor):
        equation, operands = _from_sublists(equation, operands)
    if not isinstance(equation, str):
        raise TypeError(f"For einsum, the 'equation' must be a str, but got {type(equation).__name__}.")
    if not operands:
        raise ValueError("For einsum, the 'operands' must have at least one operand.")
    for operand in operands:
        _check_tensor("Einsum", "operands", operand)
    labels, out = _parse(equation, operands)
    terms = [_take_diagonal(x, la) for x, la in zip(operands, labels)]
    result, held = terms[0]
    for k, (x, la) in enumerate(terms[1:], start=1):
        later = out + "".join(lab for _, lab in terms[k + 1:])
        result, held = _contract(result, held, x, la, later)
    result, held = _sum_out(result, held, out)
    result = _arranged(result, held, out)
    return run("reshape", result, shape=(1,)) if not out else result


class Einsum(Primitive):
    """``Einsum(equation)(operands)``: :func:`einsum` of the tuple or list of Tensors ``operands``.

    Raises:
        TypeError: if ``equation`` is not a str or ``operands`` not a tuple or list.
    """

    def __init__(self, equation):
        super().__init__("Einsum")
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")
        self.equation = equation
        self.add_prim_attr("equation", equation)

    def __call__(self, operands):
        if not isinstance(operands, (tuple, list)):
            raise TypeError(f"For 'Einsum', the input must be a tuple or list of Tensors, but got "
                            f"{type(operands).__name__}.")
        return einsum(self.equation, *operands)


def mv(mat: Tensor, vec: Tensor) -> Tensor:
    """The product of the matrix ``mat`` (m, n) and the vector ``vec`` (n,): a vector (m,).

    Raises:
        TypeError: if ``mat`` or ``vec`` is not a Tensor.
        ValueError: if ``mat`` is not 2-D, ``vec`` not 1-D, or their sizes differ.
    """
    _check_tensor("mv", "mat", mat)
    _check_tensor("mv", "vec", vec)
    if len(mat.shape) != 2 or len(vec.shape) != 1 or mat.shape[1] != vec.shape[0]:
        raise ValueError(f"For 'mv', 'mat' must be 2-D and 'vec' 1-D of its column count, but got shapes "
                         f"{mat.shape} and {vec.shape}.")
    return run("matmul", mat, vec)


def inner(input: Tensor | float, other: Tensor | float) -> Tensor:
    """The sum of products over the last dims of ``input`` and ``other`` (a product when either is a scalar or 0-d).

    Raises:
        ValueError: if the last dims differ.
    """
    if not isinstance(input, Tensor) or not isinstance(other, Tensor) or not input.shape or not other.shape:
        return run("mul", input, other)
    if input.shape[-1] != other.shape[-1]:
        raise ValueError(f"For 'inner', the last dims of 'input' and 'other' must be equal, but got "
                         f"{input.shape} and {other.shape}.")
    n = len(input.shape)
    if n == 1 and len(other.shape) == 1:   # einsum gives (1,) for no dims; MindSpore's inner gives a 0-d Tensor
        return run("sum", run("mul", input, other), axis=None, keepdims=False)
    return einsum(_LETTERS[:n - 1] + "z," + _LETTERS[n - 1:n - 2 + len(other.shape)] + "z", input, other)


def ger(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of the 1-D Tensors ``input`` (m,) and ``vec2`` (n,): (m, n).

    Raises:
        TypeError: if an argument is not a Tensor.
        ValueError: if an argument is not 1-D.
    """
    _check_tensor("Ger", "input", input)
    _check_tensor("Ger", "vec2", vec2)
    if len(input.shape) != 1 or len(vec2.shape) != 1:
        raise ValueError(f"For 'Ger', 'input' and 'vec2' must be 1-D, but got shapes {input.shape} and "
                         f"{vec2.shape}.")
    return run("outer", input, vec2)


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of ``input`` over ``dim1`` and ``dim2`` (``offset`` above it, or below when negative), as its
    last dim; the other dims stay in order.

    Raises:
        TypeError: if ``input`` is not a Tensor.
        ValueError: if ``dim1`` and ``dim2`` are the same dim or out of range.
    """
    _check_tensor("diagonal", "input", input)
    ndim = len(input.shape)
    if not (-ndim <= dim1 < ndim and -ndim <= dim2 < ndim) or dim1 % ndim == dim2 % ndim:
        raise ValueError(f"For 'diagonal', 'dim1' and 'dim2' must be two different dims in [{-ndim}, {ndim}), but "
                         f"got {dim1} and {dim2}.")
    dim1, dim2 = dim1 % ndim, dim2 % ndim
    rest = tuple(a for a in range(ndim) if a not in (dim1, dim2))
    x = run("transpose", input, axes=rest + (dim1, dim2))
    rows, cols = input.shape[dim1], input.shape[dim2]
    count = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    if count == 0:
        return run("getitem", x, index=(Ellipsis, slice(0, 0), 0))
    start_row, start_col = (0, offset) if offset >= 0 else (-offset, 0)
    x = run("getitem", x, index=(Ellipsis, slice(start_row, start_row + count), slice(start_col, start_col + count)))
    return _diagonal_sum(x, count, len(rest) + 1)


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of the 2-D ``input``, a 0-d Tensor of its dtype.

    Raises:
        TypeError: if ``input`` is not a Tensor.
        ValueError: if ``input`` is not 2-D.
    """
    _check_tensor("Trace", "input", input)
    if len(input.shape) != 2:
        raise ValueError(f"For 'Trace', the 'input' must be 2-D, but got {len(input.shape)}-D.")
    return run("sum", diagonal(input))


def _scaled_sum(input: Tensor, product: Tensor, beta: Any, alpha: Any) -> Tensor:
    """``beta * input + alpha * product`` (a factor of 1 is left out)."""
    scaled = product if alpha == 1 else run("mul", product, alpha)
    return run("add", input if beta == 1 else run("mul", input, beta), scaled)


def _scaled_product_sum(name: str, operands: dict, rank: int, beta: Any, alpha: Any) -> Tensor:
    """``beta * input + alpha * (left @ right)`` of ``operands`` (``input`` and the two factors, by name), the
    factors of ``rank`` dims."""
    for arg, x in operands.items():
        _check_tensor(name, arg, x)
    input, left, right = operands.values()
    if len(left.shape) != rank or len(right.shape) != rank:
        first, second = list(operands)[1:]
        raise ValueError(f"For '{name}', '{first}' and '{second}' must be {rank}-D, but got shapes {left.shape} and "
                         f"{right.shape}.")
    return _scaled_sum(input, run("matmul", left, right), beta, alpha)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)`` of the 3-D ``batch1`` (b, n, m) and ``batch2`` (b, m, p).

    Raises:
        TypeError: if an operand is not a Tensor.
        ValueError: if ``batch1`` or ``batch2`` is not 3-D.
    """
    return _scaled_product_sum("baddbmm", {"input": input, "batch1": batch1, "batch2": batch2}, 3, beta, alpha)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` of the 2-D ``mat1`` and ``mat2``.

    Raises:
        TypeError: if an operand is not a Tensor.
        ValueError: if ``mat1`` or ``mat2`` is not 2-D.
    """
    return _scaled_product_sum("addmm", {"input": input, "mat1": mat1, "mat2": mat2}, 2, beta, alpha)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)`` of the matrix ``mat`` and vector ``vec``.

    Raises:
        TypeError: if an operand is not a Tensor.
        ValueError: as :func:`mv`.
    """
    _check_tensor("addmv", "input", input)
    return _scaled_sum(input, mv(mat, vec), beta, alpha)


def batch_dot(x1: Tensor, x2: Tensor, axes: Any = None) -> Tensor:
    """Per sample of dim 0, the sum of products over ``axes`` (a pair of dims of ``x1`` and ``x2``, or one int for
    both; None: ``x1``'s last with ``x2``'s second to last, or last when ``x2`` is 2-D): shape batch + ``x1``'s
    other dims + ``x2``'s other dims, and ``(N, 1)`` for two 2-D operands.

    Raises:
        TypeError: if an operand is not a Tensor.
        ValueError: if an operand has fewer than 2 dims, an axis is the batch dim or out of range, or the
            contracted dims differ.
    """
    _check_tensor("batch_dot", "x1", x1)
    _check_tensor("batch_dot", "x2", x2)
    r1, r2 = len(x1.shape), len(x2.shape)
    if r1 < 2 or r2 < 2:
        raise ValueError(f"For 'batch_dot', 'x1' and 'x2' must have at least 2 dims, but got {r1} and {r2}.")
    if axes is None:
        axes = (r1 - 1, r2 - 1 if r2 == 2 else r2 - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    a1, a2 = axes[0] % r1, axes[1] % r2
    if a1 == 0 or a2 == 0 or x1.shape[a1] != x2.shape[a2]:
        raise ValueError(f"For 'batch_dot', the axes {tuple(axes)} must name dims other than the batch dim, of equal "
                         f"size, but got shapes {x1.shape} and {x2.shape}.")
    first = "a" + "".join("z" if d == a1 else _LETTERS[d] for d in range(1, r1))
    second = "a" + "".join("z" if d == a2 else _LETTERS[26 - r2 + d] for d in range(1, r2))
    out = "a" + first[1:].replace("z", "") + second[1:].replace("z", "")
    result = einsum(f"{first},{second}->{out}", x1, x2)
    return run("expand_dims", result, axis=1) if len(out) == 1 else result


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``: ``sum(x1 * x2) / max(|x1| |x2|, eps)``.

    Raises:
        TypeError: if an operand is not a Tensor.
    """
    _check_tensor("cosine_similarity", "x1", x1)
    _check_tensor("cosine_similarity", "x2", x2)
    dot = run("sum", run("mul", x1, x2), axis=(dim,))
    norms = run("mul", run("sqrt", run("sum", run("mul", x1, x1), axis=(dim,))),
                run("sqrt", run("sum", run("mul", x2, x2), axis=(dim,))))
    return run("div", dot, run("maximum", norms, eps))


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of the 3-vectors of ``input`` and ``other`` along ``dim`` (None: the first dim of size 3).

    Raises:
        TypeError: if an operand is not a Tensor.
        ValueError: if the shapes differ, or ``dim`` (or, when None, every dim) is not of size 3.
    """
    _check_tensor("Cross", "input", input)
    _check_tensor("Cross", "other", other)
    shape = input.shape
    if shape != other.shape:
        raise ValueError(f"For 'Cross', 'input' and 'other' must have the same shape, but got {shape} and "
                         f"{other.shape}.")
    if dim is None:
        dim = next((d for d, size in enumerate(shape) if size == 3), None)
    if dim is None or not -len(shape) <= dim < len(shape) or shape[dim] != 3:
        raise ValueError(f"For 'Cross', the size of the 'dim' dimension must be 3, but got shape {shape} and dim "
                         f"{dim}.")
    dim = dim % len(shape)
    lead = (slice(None),) * dim
    a = [run("getitem", input, index=lead + (k,)) for k in range(3)]
    b = [run("getitem", other, index=lead + (k,)) for k in range(3)]
    parts = [run("sub", run("mul", a[(k + 1) % 3], b[(k + 2) % 3]), run("mul", a[(k + 2) % 3], b[(k + 1) % 3]))
             for k in range(3)]
    return run("stack", *parts, axis=dim)


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between the rows of ``x1`` (..., P, M) and of ``x2`` (..., R, M): (..., P, R).

    Raises:
        TypeError: if an operand is not a Tensor or ``p`` is not a float.
        ValueError: if ``p`` is negative or the operands are not at least 2-D with equal last dims.
    """
    _check_tensor("cdist", "x1", x1)
    _check_tensor("cdist", "x2", x2)
    if not isinstance(p, float):
        raise TypeError(f"For 'cdist', the 'p' must be a float, but got {type(p).__name__}.")
    if p < 0:
        raise ValueError(f"For 'cdist', the 'p' must be non-negative, but got {p}.")
    if len(x1.shape) < 2 or len(x2.shape) < 2 or x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"For 'cdist', 'x1' and 'x2' must be at least 2-D with equal last dims, but got shapes "
                         f"{x1.shape} and {x2.shape}.")
    gaps = run("abs", run("sub", run("expand_dims", x1, axis=-2), run("expand_dims", x2, axis=-3)))
    last = (len(gaps.shape) - 1,)
    if p == 0:
        return run("sum", run("cast", run("not_equal", gaps, 0), dtype=_np_dtype(x1.dtype)), axis=last)
    if p == math.inf:
        return run("max", gaps, axis=last)
    if p == 1:
        return run("sum", gaps, axis=last)
    if p == 2:
        return run("sqrt", run("sum", run("mul", gaps, gaps), axis=last))
    return run("pow", run("sum", run("pow", gaps, p), axis=last), 1 / p)


def diag(input: Tensor) -> Tensor:
    """The diagonal Tensor of ``input`` (d1, ..., dk): shape (d1, ..., dk, d1, ..., dk), ``input`` on its diagonal.

    Raises:
        TypeError: if ``input`` is not a Tensor.
        ValueError: if ``input`` is 0-d.
    """
    _check_tensor("Diag", "input", input)
    if not input.shape:
        raise ValueError("For 'Diag', the 'input' must have at least one dim, but got a 0-d Tensor.")
    n = math.prod(input.shape)
    spread = run("mul", run("reshape", input, shape=(n, 1)), _eye(n, input.dtype))
    return run("reshape", spread, shape=tuple(input.shape) * 2)


class DiagPart(_Stateless):
    """``DiagPart()(x)``: the diagonal part of ``x`` of shape ``(d1, ..., dk, d1, ..., dk)``: ``out[i1, ..., ik] =
    x[i1, ..., ik, i1, ..., ik]``, shape ``(d1, ..., dk)``.

    Raises:
        ValueError: if ``x`` has an odd or zero number of dims or its two halves differ.
    """

    def __call__(self, input_x):
        _check_tensor("DiagPart", "input_x", input_x)
        shape = input_x.shape
        k = len(shape) // 2
        if not shape or len(shape) % 2 or shape[:k] != shape[k:]:
            raise ValueError(f"For 'DiagPart', the shape of 'input_x' must be (d1, ..., dk, d1, ..., dk), but got "
                             f"{shape}.")
        n = math.prod(shape[:k])
        flat = run("reshape", input_x, shape=(n, n))
        return run("reshape", _diagonal_sum(flat, n, 1), shape=tuple(shape[:k]))


def inverse(input: Tensor) -> Tensor:
    """The inverse of each square matrix in the last two dims of the float32/float64 Tensor ``input``; its gradient
    is ``-A⁻ᵀ dout A⁻ᵀ``.

    Raises:
        TypeError: if ``input`` is not a float32 or float64 Tensor.
        ValueError: if its last two dims differ; ``numpy.linalg.LinAlgError`` (a ValueError) if a matrix is
            singular (MindSpore 2.10's CPU kernel returns arbitrary numbers then).
    """
    _check_tensor("MatrixInverse", "x", input)
    return run("matrix_inverse", input)


class MatrixInverse(Primitive):
    """``MatrixInverse(adjoint=False)(x)``: :func:`inverse` of ``x``, of its transposed matrices when ``adjoint``.

    Raises:
        TypeError: if ``adjoint`` is not a bool.
    """

    def __init__(self, adjoint=False):
        super().__init__("MatrixInverse")
        self.adjoint = _check_bool("MatrixInverse", "adjoint", adjoint)
        self.add_prim_attr("adjoint", adjoint)

    def __call__(self, x):
        inv = inverse(x)
        if not self.adjoint:
            return inv
        ndim = len(x.shape)
        return run("transpose", inv, axes=tuple(range(ndim - 2)) + (ndim - 1, ndim - 2))
