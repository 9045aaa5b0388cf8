"""The diagonal bands of ``mindspore.ops``: ``matrix_diag`` and ``MatrixDiagV3`` (diagonals to matrices),
``MatrixDiagPartV3`` (matrices to diagonals) and ``MatrixSetDiagV3`` (diagonals written into matrices), for the
diagonals ``k`` (an int or a pair ``[low, high]``; 0 the main one, positive above it) aligned by ``align``.

The positions are worked out from the (static) shapes and ``k`` when the call is staged; the values move by one
``gather`` of the flattened input and a ``where`` with the padding, so these run eagerly and compiled and are
differentiable in the matrices and diagonals.
"""
from __future__ import annotations

from typing import Any

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from .eager import run
from .numeric import _check_tensor

__all__ = ["matrix_diag", "matrix_diag_v3", "matrix_diag_part_v3", "matrix_set_diag_v3"]

_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _constant(value: Any) -> Any:
    """``value`` (an int, a list/tuple or a Tensor of them) as Python numbers."""
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()
    return value


def _band(name: str, k: Any) -> tuple[int, int]:
    k = _constant(k)
    pair = (k, k) if isinstance(k, int) else tuple(k) * 2 if len(k) == 1 else tuple(k)
    low, high = pair if len(pair) == 2 else (None, None)
    if not isinstance(low, int) or not isinstance(high, int) or low > high:
        raise ValueError(f"For '{name}', the 'k' must be an int or a pair [low, high] with low <= high, but got "
                         f"{k}.")
    return low, high


def _check_align(name: str, align: str) -> None:
    check_value_type("align", align, [str], name)
    if align not in _ALIGNS:
        raise ValueError(f"For '{name}', the 'align' must be one of {list(_ALIGNS)}, but got '{align}'.")


def _diagonal_length(rows: int, cols: int, d: int) -> int:
    return min(rows + min(0, d), cols - max(0, d))


def _positions(rows: int, cols: int, low: int, high: int, align: str) -> tuple[list, list]:
    """For the diagonals ``high`` down to ``low`` (n of them) of a (rows, cols) matrix: the (n, L) flat positions
    in the matrix of each aligned diagonal's entries (L the longest diagonal's length; 0 where none) and where
    they exist, as nested lists (plain Python: compiled code evaluates it while it specializes)."""
    longest = max(_diagonal_length(rows, cols, d) for d in range(low, high + 1))
    positions, valid = [], []
    for d in range(high, low - 1, -1):
        length = _diagonal_length(rows, cols, d)
        offset = longest - length if align.split("_")[0 if d >= 0 else 1] == "RIGHT" else 0
        start = (0, d) if d >= 0 else (-d, 0)
        positions.append([(start[0] + t - offset) * cols + start[1] + t - offset if offset <= t < offset + length
                          else 0 for t in range(longest)])
        valid.append([offset <= t < offset + length for t in range(longest)])
    return positions, valid


def matrix_diag_part_v3(x: Tensor, k: Any = 0, padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k`` of each (M, N) matrix of ``x``: (*, L) for one diagonal, else (*, n, L) from the
    highest down, each aligned by ``align`` in the length L of the longest and padded with ``padding_value``.

    Raises:
        ValueError: if ``k`` is no int or ordered pair, ``align`` unknown or ``x`` of rank below 2.
    """
    name = "MatrixDiagPartV3"
    _check_align(name, align)
    _check_tensor(name, "x", x)
    if len(x.shape) < 2:
        raise ValueError(f"For '{name}', the rank of 'x' must be at least 2, but got {len(x.shape)}.")
    low, high = _band(name, k)
    rows, cols = x.shape[-2:]
    positions, valid = _positions(rows, cols, low, high, align)
    flat = run("reshape", x, shape=tuple(x.shape[:-2]) + (rows * cols,))
    picked = run("gather", flat, Tensor([p for row in positions for p in row], mstype.int64), axis=len(x.shape) - 2)
    picked = run("reshape", picked, shape=tuple(x.shape[:-2]) + (len(positions), len(positions[0])))
    padding = run("add", run("zeros_like", picked), padding_value)
    out = run("where", Tensor(valid, mstype.bool_), picked, padding)
    return run("reshape", out, shape=tuple(x.shape[:-2]) + (len(positions[0]),)) if low == high else out


def _spread(diagonal: Tensor, rows: int, cols: int, low: int, high: int, align: str) -> tuple[Tensor, Tensor]:
    """The (*, rows, cols) matrices holding each entry of the band ``diagonal`` at its place (0 elsewhere) and
    the (rows, cols) mask of the band."""
    positions, valid = _positions(rows, cols, low, high, align)
    longest = len(positions[0])
    source = {positions[i][t]: i * longest + t for i in range(len(positions)) for t in range(longest) if valid[i][t]}
    batch = tuple(diagonal.shape[:-1] if low == high else diagonal.shape[:-2])
    flat = run("reshape", diagonal, shape=batch + (len(positions) * longest,))
    placed = run("gather", flat, Tensor([source.get(p, 0) for p in range(rows * cols)], mstype.int64), axis=len(batch))
    in_band = Tensor([[r * cols + c in source for c in range(cols)] for r in range(rows)], mstype.bool_)
    return run("reshape", placed, shape=batch + (rows, cols)), in_band


def _check_diagonal(name: str, diagonal: Tensor, low: int, high: int) -> None:
    needed = 1 if low == high else 2
    if len(diagonal.shape) < needed or (needed == 2 and diagonal.shape[-2] != high - low + 1):
        raise ValueError(f"For '{name}', the 'diagonal' must be (*, {high - low + 1}, L) for k = [{low}, {high}] "
                         f"(or (*, L) for one diagonal), but got shape {diagonal.shape}.")


def matrix_diag_v3(x: Tensor, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1, padding_value: Any = 0,
                   align: str = "RIGHT_LEFT") -> Tensor:
    """The (*, num_rows, num_cols) matrices whose diagonals ``k`` are ``x`` ((*, L) for one diagonal, else
    (*, n, L) from the highest down, aligned by ``align``), ``padding_value`` elsewhere; -1 sizes are the
    smallest that hold the diagonals (square when both are -1).

    Raises:
        ValueError: if ``k``, ``align`` or the sizes are invalid or ``x`` does not fit ``k``.
    """
    name = "MatrixDiagV3"
    _check_align(name, align)
    _check_tensor(name, "x", x)
    low, high = _band(name, k)
    _check_diagonal(name, x, low, high)
    longest = x.shape[-1]
    num_rows, num_cols = _constant(num_rows), _constant(num_cols)
    least_rows, least_cols = longest - min(high, 0), longest + max(low, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(least_rows, least_cols)
    num_rows = least_rows if num_rows == -1 else num_rows
    num_cols = least_cols if num_cols == -1 else num_cols
    if num_rows < least_rows and num_cols < least_cols or \
            max(_diagonal_length(num_rows, num_cols, d) for d in range(low, high + 1)) != longest:
        raise ValueError(f"For '{name}', the 'num_rows' {num_rows} and 'num_cols' {num_cols} do not fit diagonals "
                         f"of length {longest} for k = [{low}, {high}].")
    placed, in_band = _spread(x, num_rows, num_cols, low, high, align)
    return run("where", in_band, placed, run("add", run("zeros_like", placed), padding_value))


def matrix_diag(x: Tensor, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1, padding_value: Any = 0,
                align: str = "RIGHT_LEFT") -> Tensor:
    """``ops.matrix_diag``: see :func:`matrix_diag_v3`."""
    return matrix_diag_v3(x, k, num_rows, num_cols, padding_value, align)


def matrix_set_diag_v3(x: Tensor, diagonal: Tensor, k: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with its diagonals ``k`` replaced by ``diagonal`` (laid out as :func:`matrix_diag_part_v3` gives
    them).

    Raises:
        ValueError: if ``k`` or ``align`` is invalid or ``diagonal`` does not fit ``x`` and ``k``.
    """
    name = "MatrixSetDiagV3"
    _check_align(name, align)
    _check_tensor(name, "x", x)
    _check_tensor(name, "diagonal", diagonal)
    low, high = _band(name, k)
    _check_diagonal(name, diagonal, low, high)
    rows, cols = x.shape[-2:]
    longest = max(_diagonal_length(rows, cols, d) for d in range(low, high + 1))
    expected = tuple(x.shape[:-2]) + (() if low == high else (high - low + 1,)) + (longest,)
    if tuple(diagonal.shape) != expected:
        raise ValueError(f"For '{name}', the shape of 'diagonal' must be {expected}, but got {diagonal.shape}.")
    placed, in_band = _spread(diagonal, rows, cols, low, high, align)
    return run("where", in_band, placed, x)
