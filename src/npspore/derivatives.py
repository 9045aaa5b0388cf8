"""MindSpore's functional derivatives beside ``grad``: ``jvp``, ``vjp``, ``jacfwd``, ``jacrev``,
``linearize``, ``derivative``.

``jvp(fn, inputs, v)`` calls a :class:`JvpFunction`, the front door of a forward-mode kernel: its first
call with a new input signature builds a ``CompileRequest`` whose transform is a ``JvpRequest``
(``compiler.jvpspec``); the differentiate stage applies it with ``compiler.forwardmode`` (tangent
rules of the op table, loops and branches kept) and one kernel returns the outputs and their
tangents. A JvpFunction is a :class:`~npspore.grad.GradFunction` with another request, so it shares
its kernel cache, its fast path, and its staging into code being compiled: ``grad`` of a function that
calls ``jvp``, ``jvp`` of a ``grad`` and ``jvp`` of ``jvp`` (``derivative``) are one request of several
levels.

``vjp`` and ``jacrev`` are reverse mode (``GradFunction`` with a sensitivity); ``jacfwd`` builds the
Jacobian from the JVP kernel, one basis tangent per input element, and ``jacrev`` from the gradient
kernel, one basis cotangent per output element. Argument checks, errors and return structures are
MindSpore 2.10's (``mindspore/ops/function/grad/grad_func.py``).
"""
from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from . import compiler
from .compiler.kernel import MISS
from .compiler.library import LIBRARY
from .grad import GradFunction, _check_position

__all__ = ["jvp", "vjp", "jacfwd", "jacrev", "linearize", "derivative", "JvpFunction"]

_HAS_AUX_ERROR = "When 'has_aux' is True, origin 'fn' requires more than one outputs."


class JvpFunction(GradFunction):
    """``fn``'s outputs and Jacobian-vector products, compiled: called with fn's inputs, then one
    tangent per input of ``spec.positions`` (every input by default), it returns ``(output, tangent)``
    (``(output[0], tangent, aux)`` with ``has_aux``)."""

    def __init__(self, fn, spec: compiler.jvpspec.JvpSpec):
        super().__init__(fn, spec)
        self._runs_hooks = False   # backward hooks belong to reverse mode

    def __reduce__(self):
        return JvpFunction, (self.fn, self.spec)

    def _request(self) -> compiler.jvpspec.JvpRequest:
        if not callable(self.fn):
            raise TypeError(f"The fn should be callable, but got {type(self.fn).__name__}")
        return compiler.jvpspec.JvpRequest(self.spec)


def _check_has_aux(has_aux) -> None:
    if not isinstance(has_aux, bool):
        raise TypeError("The 'has_aux' must be bool type.")


def _as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _fitted_tangent(tangent, value):
    """``tangent`` for the input ``value``: of its dtype, broadcast to its shape as MindSpore's ops
    broadcast it; raises MindSpore's TypeError for another dtype, a ValueError for a shape that does
    not broadcast."""
    Tensor = LIBRARY.tensor_type
    if not isinstance(tangent, Tensor) or not isinstance(value, Tensor):
        return tangent
    if tangent.dtype != value.dtype:
        raise TypeError(f"Type Join Failed: dtype1 = {tangent.dtype}, dtype2 = {value.dtype}.")
    shape, want = tuple(tangent.shape), tuple(value.shape)
    if shape == want:
        return tangent
    if len(shape) > len(want) or any(a not in (1, b) for a, b in zip(reversed(shape), reversed(want))):
        raise ValueError(f"For 'jvp', the shape of a tangent {list(shape)} does not broadcast to the "
                         f"shape of its input {list(want)}")
    return LIBRARY.run("broadcast_to", tangent, shape=want)   # an op: staged in compiled code too


def jvp(fn: Callable[..., Any], inputs: Any, v: Any, has_aux: bool = False) -> tuple:
    """Compute the Jacobian-vector product of the given network (forward-mode differentiation).

    Args:
        fn (Union[Function, Cell]): takes Tensor inputs and returns a Tensor or a tuple of Tensors.
        inputs (Union[Tensor, tuple[Tensor], list[Tensor]]): the inputs to ``fn``.
        v (Union[Tensor, tuple[Tensor], list[Tensor]]): the vector of the product, one per input,
            of the input's dtype and shape (a shape that broadcasts to it is broadcast).
        has_aux (bool): only ``fn``'s first output is differentiated; the others are returned as
            they are. Default: ``False``.

    Returns:
        ``(net_output, jvp)``, or ``(net_output, jvp, aux_value)`` with ``has_aux`` (``aux_value``
        the second output, or the tuple of the outputs after the first when there are more).

    Raises:
        TypeError: ``inputs`` or ``v`` is not a Tensor, tuple or list; ``has_aux`` is not a bool; a
            tangent's dtype is not its input's (``Type Join Failed: dtype1 = Float64, dtype2 = Float32.``).
        ValueError: ``v`` does not hold one tangent per input; a tangent's shape does not broadcast
            to its input's; ``has_aux`` and ``fn`` returns a single output.
    """
    _check_has_aux(has_aux)
    Tensor = LIBRARY.tensor_type
    if not isinstance(inputs, (Tensor, tuple, list)) or not isinstance(v, (Tensor, tuple, list)):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    inputs, v = _as_tuple(inputs), _as_tuple(v)
    if len(inputs) != len(v):
        raise ValueError(f"v has invalid length: should be {len(inputs)}, but got {len(v)}")
    tangents = tuple(_fitted_tangent(t, x) for t, x in zip(v, inputs))
    return JvpFunction(fn, compiler.jvpspec.JvpSpec(None, has_aux))(*inputs, *tangents)


def linearize(fn: Callable[..., Any], inputs: Any) -> tuple:
    """``fn``'s output at ``inputs`` and a function evaluating its Jacobian-vector product there.

    Args:
        fn (Union[Function, Cell]): takes Tensor inputs and returns a Tensor or a tuple of Tensors.
        inputs (Union[Tensor, tuple[Tensor], list[Tensor]]): the inputs to ``fn``.

    Returns:
        ``(output, jvp_fn)``: ``jvp_fn(v)`` (``v`` a Tensor or a tuple of Tensors, one per input)
        returns the product, as :func:`jvp`'s second result.

    Raises:
        TypeError: ``inputs`` is not a Tensor, tuple or list.
    """
    if not isinstance(inputs, (LIBRARY.tensor_type, tuple, list)):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    inputs = _as_tuple(inputs)
    output = fn(*inputs)

    def jvp_fn(v):
        return jvp(fn, inputs, v)[1]

    return output, jvp_fn


def _check_tensors(values) -> None:
    for value in values:
        if not isinstance(value, (LIBRARY.tensor_type, tuple, list)):
            raise TypeError("The inputs type must be Tensor.")


_FIRST_OUTPUTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _first_output(fn):
    """``fn``'s first output, as a function to differentiate (``has_aux``); one per ``fn``, so that
    its kernels are compiled once."""
    try:
        return _FIRST_OUTPUTS[fn]
    except (KeyError, TypeError):
        pass

    def first_output(*args):
        return fn(*args)[0]

    try:
        _FIRST_OUTPUTS[fn] = first_output
    except TypeError:   # not weakly referable (a bound method): compiled again for each vjp
        pass
    return first_output


def vjp(fn: Callable[..., Any], *inputs: Any, weights: Any = None, has_aux: bool = False) -> tuple:
    """Compute the vector-Jacobian product of the given network: its outputs and a function of the vector.

    Args:
        fn (Union[Function, Cell]): takes Tensor inputs and returns a Tensor or a tuple of Tensors.
        inputs (Union[Tensor, tuple[Tensor], list[Tensor]]): the inputs to ``fn``.
        weights (Union[ParameterTuple, Parameter, list[Parameter]]): Parameters to differentiate as
            well. Default: ``None``.
        has_aux (bool): only the first output is differentiated and returned as the output; the
            others are returned as ``aux_value``. Default: ``False``.

    Returns:
        ``(net_output, vjp_fn)``, or ``(net_output, vjp_fn, aux_value)`` with ``has_aux``.
        ``vjp_fn(*v)`` (one vector per output, of its shape) returns the tuple of the gradients
        of every input, and with ``weights`` ``(input gradients, weight gradients)``.

    Raises:
        TypeError: an input (or, at ``vjp_fn``'s call, a vector) is not a Tensor, tuple or list:
            ``The inputs type must be Tensor.``; ``has_aux`` is not a bool.
        ValueError: ``has_aux`` and ``fn`` returns a single output.
    """
    _check_tensors(inputs)
    _check_has_aux(has_aux)
    result = fn(*inputs)
    if has_aux and (not isinstance(result, tuple) or len(result) < 2):
        raise ValueError(_HAS_AUX_ERROR)
    spec = compiler.gradspec.GradSpec(positions=(), position_form="all", by_weights=weights is not None,
                                      sens_param=True)
    gradient = GradFunction(_first_output(fn) if has_aux else fn, spec, weights)

    def vjp_fn(*v):
        _check_tensors(v)
        return gradient(*inputs, v[0] if len(v) == 1 else v)

    if has_aux:
        return result[0], vjp_fn, result[1] if len(result) == 2 else result[1:]
    return result, vjp_fn


# ----------------------------------------------------------------------------------- Jacobians


def _checked_positions(grad_position, n_args: int) -> tuple:
    positions = _check_position(grad_position)
    for position in positions:
        if position >= n_args:
            raise ValueError("The element in grad_position must belong to [0, args_num).")
    return positions


def _arranged(blocks, n_outputs: int, n_positions: int):
    """MindSpore's structure of a Jacobian: ``blocks[i][j]`` (output i, input j) bare when there is
    one, a flat tuple when there is one input or one output, else a tuple per output."""
    if n_outputs == 1 and n_positions == 1:
        return blocks[0][0]
    if n_positions == 1:
        return tuple(row[0] for row in blocks)
    if n_outputs == 1:
        return tuple(blocks[0])
    return tuple(tuple(row) for row in blocks)


def _basis(values) -> tuple:
    """One batched tangent per value: together the ``n`` unit vectors of all their elements, the
    value's own rows an identity block (``(n,) + value.shape`` each); and where each value's rows start."""
    sizes = [int(np.prod(v.shape)) for v in values]
    n, offsets = sum(sizes), np.cumsum([0] + sizes[:-1]).tolist()
    tangents = tuple(LIBRARY.wrap(np.eye(n, size, -offset, dtype=v.asnumpy().dtype).reshape((n,) + tuple(v.shape)))
                     for v, size, offset in zip(values, sizes, offsets))
    return tangents, offsets, sizes


def _block(batched, offset: int, size: int, rows_shape: tuple, columns_shape: tuple, rows_first: bool):
    """The Jacobian block held in rows ``offset:offset+size`` of a batched tangent: of shape
    ``rows_shape + columns_shape``; the batch axis indexes the columns (forward) or the rows (reverse)."""
    part = batched.asnumpy()
    if offset or size != part.shape[0]:
        part = part[offset:offset + size]
    part = part.reshape(size, -1)
    return LIBRARY.wrap(np.ascontiguousarray(part if rows_first else part.T).reshape(rows_shape + columns_shape))


def _one_at_a_time(kernel, args, basis, tangents_only: bool = False):
    """A batched JVP kernel's result computed by ``kernel`` (its unbatched version) one basis tangent at
    a time (an op without a batched tangent rule): the same structure, tangents stacked on a first axis
    (``tangents_only``: the kernel returns its tangents alone)."""
    results = [kernel(*args, *(_row(t, k) for t in basis)) for k in range(_leaves(basis[0])[0].shape[0])]
    tangents = results if tangents_only else [r[1] for r in results]
    stack = [LIBRARY.wrap(np.stack([leaf.asnumpy() for leaf in leaves])) for leaves in zip(*map(_leaves, tangents))]
    stacked = _rebuilt(tangents[0], iter(stack))
    return stacked if tangents_only else (results[0][0], stacked, *results[0][2:])


def _leaves(value) -> list:
    """The Tensors of a Tensor or a (nested) tuple of them, in order."""
    return [leaf for item in value for leaf in _leaves(item)] if isinstance(value, tuple) else [value]


def _rebuilt(like, leaves):
    """``like``'s structure with the next of ``leaves`` at each Tensor."""
    return tuple(_rebuilt(item, leaves) for item in like) if isinstance(like, tuple) else next(leaves)


def _row(value, index: int):
    """Row ``index`` (of the batch axis) of each Tensor of a result."""
    return _rebuilt(value, iter([LIBRARY.wrap(leaf.asnumpy()[index]) for leaf in _leaves(value)]))


class _Jacobian:
    """The function ``jacfwd``/``jacrev`` return. A call runs one kernel: the JVP of ``fn`` (forward) or
    of its gradient with respect to the sensitivity (reverse) on the basis of the differentiated
    inputs (outputs), tangents batched; an op without a batched tangent rule makes it one kernel call
    per basis vector. The Jacobian of a Jacobian (a Hessian) is the batched JVP of the inner one's
    kernel. JVP functions and bases are kept, so that their fast paths are built once."""

    def __init__(self, fn, grad_position, has_aux: bool, reverse: bool):
        _check_has_aux(has_aux)
        self.fn, self.grad_position, self.has_aux, self.reverse = fn, grad_position, has_aux, reverse
        self.kept: dict = {}
        self.last = None

    def _keep(self, key, make):
        found = self.kept.get(key)
        if found is None:
            found = self.kept[key] = make()
        return found

    def _basis(self, values) -> tuple:
        return self._keep(("basis",) + tuple((tuple(v.shape), str(v.dtype)) for v in values), lambda: _basis(values))

    def __call__(self, *args):
        if self.last is not None:   # the plan of the last call, if this call has its arguments' shapes
            function, extra, basis, finish = self.last
            found = function._fast((*args, *extra, *basis))   # checks every argument's type, shape, dtype
            if found is not MISS:
                return finish(found)
        make, call_args, basis, finish = self.plan(args)
        try:
            function = make(_leaves(basis[0])[0].shape[0])
            found = finish(function(*call_args, *basis))
        except compiler.jvpspec.UnbatchedTangent:
            tangents_only = self.reverse and not isinstance(self.fn, _Jacobian)   # _plan_reverse's kernels
            return finish(_one_at_a_time(make(None), call_args, basis, tangents_only))
        if not isinstance(self.fn, _Jacobian) and not (self.reverse and self.has_aux):
            # the plan holds for any call with these shapes (not a Hessian's, whose inner plan is
            # made again; not a reverse one with has_aux, whose aux each call computes)
            self.last = (function, call_args[len(args):], basis, finish)
        return found

    def plan(self, args) -> tuple:
        """``(make, call_args, basis, finish)``: ``make(batch)`` is the JVP function called with
        ``call_args`` and the ``basis`` tangents; ``finish`` turns its result into the Jacobian."""
        positions = _checked_positions(self.grad_position, len(args))
        if isinstance(self.fn, _Jacobian):
            return self._plan_nested(args, positions)
        if self.reverse:
            return self._plan_reverse(args, positions)
        values = [args[p] for p in positions]
        basis, offsets, sizes = self._basis(values)

        def make(batch):
            return self._keep((positions, batch), lambda: JvpFunction(
                self.fn, compiler.jvpspec.JvpSpec(positions, self.has_aux, batch, identity=True)))

        def finish(result):
            if len(values) == 1 and not self.has_aux and type(result[1]) is LIBRARY.tensor_type:   # one block
                return _block(result[1], 0, sizes[0], tuple(result[0].shape), tuple(values[0].shape), rows_first=False)
            outputs, tangents = _as_tuple(result[0]), _as_tuple(result[1])
            blocks = [[_block(t, offset, size, tuple(out.shape), tuple(v.shape), rows_first=False)
                       for v, offset, size in zip(values, offsets, sizes)] for out, t in zip(outputs, tangents)]
            found = _arranged(blocks, len(outputs), len(positions))
            return (found, result[2]) if self.has_aux else found

        return make, tuple(args), basis, finish

    def _plan_reverse(self, args, positions) -> tuple:
        signature = tuple((tuple(a.shape), str(a.dtype)) if isinstance(a, LIBRARY.tensor_type) else repr(a) for a in args)
        result = self.kept.get(("outputs", signature))
        if result is None or self.has_aux:   # the outputs' shapes, from one eager call (aux: every call)
            result = self.kept[("outputs", signature)] = self.fn(*args)
            if self.has_aux and (not isinstance(result, tuple) or len(result) < 2):
                raise ValueError(f"'{_HAS_AUX_ERROR}'")
        outputs = result[0] if self.has_aux else result
        differentiated = _as_tuple(outputs)
        basis, offsets, sizes = self._basis(differentiated)
        gradient = self._keep(("gradient", positions), lambda: GradFunction(
            _first_output(self.fn) if self.has_aux else self.fn,
            compiler.gradspec.GradSpec(positions=positions, position_form="auto", sens_param=True)))
        sens = tuple(LIBRARY.wrap(np.zeros(tuple(o.shape), o.asnumpy().dtype)) for o in differentiated)

        def make(batch):
            return self._keep(("reverse", positions, batch), lambda: JvpFunction(
                gradient, compiler.jvpspec.JvpSpec((len(args),), False, batch, identity=True, tangents_only=True)))

        # the sensitivity is one argument: a tuple of outputs' gets a tuple of basis tangents
        tangents = (basis,) if isinstance(outputs, tuple) else basis

        def finish(found):
            if len(differentiated) == 1 and len(positions) == 1 and not self.has_aux and \
                    type(found) is LIBRARY.tensor_type:   # one block
                return _block(found, 0, sizes[0], tuple(differentiated[0].shape), tuple(args[positions[0]].shape),
                              rows_first=True)
            rows = _as_tuple(found)
            blocks = [[_block(rows[j], offset, size, tuple(out.shape), tuple(args[p].shape), rows_first=True)
                       for j, p in enumerate(positions)] for out, offset, size in zip(differentiated, offsets, sizes)]
            jac = _arranged(blocks, len(differentiated), len(positions))
            return (jac, result[1] if len(result) == 2 else result[1:]) if self.has_aux else jac

        return make, (*args, sens if isinstance(outputs, tuple) else sens[0]), tangents, finish

    def _plan_nested(self, args, positions) -> tuple:
        inner_make, inner_args, inner_basis, inner_finish = self.fn.plan(args)
        inner = inner_make(_leaves(inner_basis[0])[0].shape[0])
        values = [args[p] for p in positions]
        basis, offsets, sizes = self._basis(values)

        def make(batch):
            return self._keep(("nested", positions, batch), lambda: JvpFunction(
                inner, compiler.jvpspec.JvpSpec(positions, False, batch, identity=True)))

        def finish(result):
            # row m of the tangents of the inner kernel's result: the inner Jacobian's derivative along m
            derivatives = [_leaves(inner_finish(_row(result[1], m))) for m in range(sum(sizes))]
            inner_jacobian = _leaves(inner_finish(result[0]))
            blocks = [[LIBRARY.wrap(np.stack([derivatives[m][i].asnumpy() for m in range(offset, offset + size)],
                                             axis=-1).reshape(tuple(leaf.shape) + tuple(v.shape)))
                       for v, offset, size in zip(values, offsets, sizes)] for i, leaf in enumerate(inner_jacobian)]
            return _arranged(blocks, len(inner_jacobian), len(positions))

        return make, (*inner_args, *inner_basis), basis, finish


def jacfwd(fn: Callable[..., Any], grad_position: int | tuple[int, ...] = 0, has_aux: bool = False) -> Callable:
    """The Jacobian of ``fn`` by forward mode: the Jacobian-vector products of all unit vectors of the
    differentiated inputs, computed together (tangents with a batch axis) by one kernel.

    Args:
        fn (Union[Cell, Function]): the function or network (or a Jacobian function: a Hessian).
        grad_position (Union[int, tuple[int]]): the input(s) to differentiate. Default: ``0``.
        has_aux (bool): only the first output is differentiated; the result is ``(Jacobian, aux)``.
            Default: ``False``.

    Returns:
        Function: called with fn's inputs, returns the Jacobian: for output ``i`` and input ``j`` a
        Tensor of shape ``output_i.shape + input_j.shape``; bare for one output and one input, a tuple
        over the inputs (or the outputs) when one of them is single, else a tuple per output.

    Raises:
        TypeError: ``has_aux`` is not a bool; (at call time) ``grad_position`` is not an int or a tuple of ints.
        ValueError: (at call time) a position is negative or not below the number of inputs; ``has_aux``
            and ``fn`` returns a single output.
    """
    return _Jacobian(fn, grad_position, has_aux, reverse=False)


def jacrev(fn: Callable[..., Any], grad_position: int | tuple[int, ...] = 0, has_aux: bool = False) -> Callable:
    """The Jacobian of ``fn`` by reverse mode: the vector-Jacobian products of all unit vectors of the
    outputs, computed together by one kernel (the gradient with a sensitivity, its sensitivity's
    tangents batched: forward mode over the backward sweep, which is linear in it). Of a Jacobian
    function (a Hessian), the outer Jacobian is taken by the same batched forward mode as ``jacfwd``'s.

    Arguments, result structure and errors are :func:`jacfwd`'s.
    """
    return _Jacobian(fn, grad_position, has_aux, reverse=True)


# ----------------------------------------------------------------------------------- higher order


def _directional(fn):
    """The derivative of ``fn`` along all-ones tangents (every input moves together), as a function."""
    along = JvpFunction(fn, compiler.jvpspec.JvpSpec())

    def directional_derivative(*args):
        return along(*args, *tuple(LIBRARY.run("ones_like", x) for x in args))[1]

    return directional_derivative


def derivative(fn: Callable[..., Any], primals: Any, order: int) -> tuple:
    """The ``order``-th derivative of ``fn`` along the direction of ones, by nested forward mode.

    Args:
        fn (Union[Cell, function]): the function or network.
        primals (Union[Tensor, tuple[Tensor]]): the inputs; Int32/Int64 ones are cast to Float32.
        order (int): the order of differentiation, at least 1.

    Returns:
        ``(out_primals, out_series)``: ``fn(primals)`` and its ``order``-th derivative (lists when
        ``fn`` returns a tuple).

    Raises:
        TypeError: ``order`` is not an int; a primal is not Int32, Int64, Float32 or Float64.
        ValueError: ``order`` is below 1.
    """
    if not isinstance(order, int):
        raise TypeError("For `F.derivative`, the type of order must be int.")
    if order < 1:
        raise ValueError(f"For `F.derivative`, value of order should not be less than 1, but got {order}.")
    values = tuple(_derivative_input(x) for x in _as_tuple(primals))
    differentiated = fn
    for _ in range(order):
        differentiated = _directional(differentiated)
    out_primals, out_series = fn(*values), differentiated(*values)
    if isinstance(out_primals, tuple) and len(out_primals) > 1:
        return list(out_primals), list(out_series)
    return out_primals, out_series


def _derivative_input(value):
    dtype = np.dtype(value.asnumpy().dtype) if isinstance(value, LIBRARY.tensor_type) else None
    if dtype not in (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError("For `F.derivative`, the elements of primals must belong to "
                        "`mstype.int32, mstype.int64, mstype.float32, mstype.float64`, but got other dtype.")
    if dtype.kind == "i":
        return LIBRARY.wrap(value.asnumpy().astype(np.float32))
    return value
