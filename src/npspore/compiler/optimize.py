"""Optimize: clean typed normal form before codegen.

* constant folding: ops whose operands are all known and whose result is small are computed now;
  ``ones_like``/``zeros_like``/``ones``/``zeros`` of a known shape are known values (small ones become
  constants, large ones are remembered as a broadcast scalar);
* algebraic identities: ``x ** 1``, ``x * 1``, ``x / 1``, ``x + 0``, ``x - 0`` are ``x`` when the
  shape and dtype do not change;
* broadcast absorption: ``c_broadcast * y`` with ``y`` already of the result shape becomes
  ``c * y`` — NumPy broadcasts the scalar, and no full-size array of copies is made (the seeds of
  a backward sweep, ``ones * 2 / n``, end up as one scalar multiplying the residual); a uniform
  value stays a scalar through ops that only move its elements (``expand_dims``, ``reshape``,
  ``squeeze``, ``broadcast_to``, ``transpose``, a cast), so a row mean's seed
  ``broadcast_to(expand_dims(ones) / 5)`` is the scalar ``0.2``;
* dead code elimination: a pure op whose results nothing reads is dropped (effects — print and
  Parameter assignment — always stay), inside nested blocks too, and functions no longer called go;
  a called function's results no caller reads, and its parameters it no longer reads, go too
  (``prune.py``);
* copy propagation of identity ops (``reshape`` to the same shape, ``cast`` to the same dtype,
  ``broadcast_to`` the same shape): their result is replaced by their operand;
* row accumulation: ``acc + row_add(zeros, t, g)`` (how a backward loop accumulates the gradient of
  a sequence it reads one step at a time) becomes ``row_add(acc, t, g)``; so does
  ``acc + gather_grad(g, t)`` with a scalar index ``t`` on axis 0 (the adjoint of ``x[t]``);
* in-place rows: a ``row_add`` (or ``row_set``) on a loop-carried buffer that the loop owns (its initial value is a
  fresh ``zeros`` nothing else reads, and each iteration's buffer is read only by that ``row_add``)
  becomes ``row_add_in_place``, which writes the row into the buffer instead of copying it;
* items in place: a ``setitem`` (``x[index] = value``) on a new array made in the same block and read before it
  only by ops that make new arrays (or views read so) becomes ``setitem_in_place``, ``y[0] = v`` without a copy;
* the rewrites of ``rewrite.py`` (common subexpressions over forward and adjoint, dot products,
  negation folding, the ReLU mask, scalar gathers as row views), ``tapes.py`` (a counted loop's
  tape as stacked rows) and ``loops.py`` (loop invariants and a loop's per-step projection hoisted,
  per-step weight-gradient GEMMs batched over the steps);
* depth-1 products (``products.py``, a NumPy step): a matrix product contracting a dim of size 1 (a
  weight gradient of one sample, or of each sample under ``vmap``) is ``outer_product`` (``np.einsum``);
* column sums (``columnsums.py``, a NumPy step): a large float sum over leading axes (a bias gradient) is a
  row of ones times the array seen as rows;
* static reshapes (``staticreshapes.py``, a NumPy step): ``expand_dims``/``squeeze`` of static shapes are
  ``reshape`` to the result's shape;
* a convolution's input gradient by pixel (``batchlastcolumns.py``, a NumPy step);
* a matrix a loop multiplies by transposed on every step, copied into C order once before the loop
  (``loops.copy_transposed_operands``, a NumPy step);
* the gradient of values read at class indices without its one-hot array (``onehotgrads.py``, a NumPy
  step): a sparse cross-entropy's gradient adds at the labels instead of subtracting a one-hot;
* the exponential of a log-softmax (its adjoint's ``exp(out)``) from the forward's own exponentials
  (``softmaxprobs.py``, a NumPy step): ``log_probs, probs = rt.log_softmax_probs(x, -1)``;
* parts written into their concatenation (``concatparts.py``, a NumPy step): a part made only for a
  ``concat`` is computed (or copied once) into its place in the concatenated array;
* the rows a counted loop writes (``steprows.py``, NumPy steps): a stacked buffer every row of which the loop
  writes is ``empty``, not ``zeros``; a step's value made by exactly rounded ufuncs is computed in its row;
* in-place updates (``inplace.py``): a statement writes into an operand's buffer that dies there,
  or into a same-shaped buffer that died before it; a parameter every caller hands over at its last use
  (``donation.py``: a gradient passed to the optimizer's function) is such a buffer too;
* release points: a ``release`` effect after the last use of each large intermediate (codegen
  renders it as ``del``), so ``--dump-after optimize`` shows when memory is given back.
* NumPy's casts (``numpycasts.py``): where NumPy's promotion would not give the dtype MindSpore's rules
  infer, the operands or the result are cast (``--dump-after optimize`` shows ``operands as float32`` /
  ``result as float32``);
* the workspace plan (``workspace.py``): the temporaries of each function that no caller or later call
  can see are written into buffers made once per kernel and reused by every call;
* products split across threads (``splitproducts.py``, a NumPy step): a matrix product large enough
  to be worth a second core (``core.matmul_split``, from its static shapes) is ``matmul_split``;
* elementwise regions split across threads (``splitregions.py``, a NumPy step): a run of
  elementwise statements on arrays of one shape, worth a second core, is a function the kernel calls on
  blocks of rows (``rt.split_rows``);
* products started before a loop (``deferproducts.py``, a NumPy step, last): a split product that only a
  statement after a loop reads runs on the helper threads while the loop runs (``rt.matmul_start``,
  ``rt.matmul_wait``).

Each pass takes a module and returns a new one; the input is not modified.
"""
from __future__ import annotations

import copy

import numpy as np

from ..core.apply import apply_op
from ..opdef import op_table
from . import (batchlastcolumns, columnsums, concatparts, deferproducts, donation, inplace, ir, loops, numpycasts,
               onehotgrads, products, prune, rewrite, softmaxprobs, splitproducts, splitregions, staticreshapes,
               steprows, tapes, workspace)

_IDENTITY_WHEN_SAME_AVAL = {"reshape", "cast", "broadcast_to"}


def optimize(module: ir.Module, *, numpy_steps: bool = True) -> ir.Module:
    """Run every pass; returns a new module. ``numpy_steps=False`` stops before the steps that only
    serve NumPy execution (rows and updates in place, release points): the typed IR an export reads."""
    module = copy.deepcopy(module)
    for function in module.functions.values():
        _forget_custom_backward(function)
    prune.merge_repeated_values(module)
    assigning = rewrite.functions_with_effects(module)
    for function in module.functions.values():
        _propagate_copies(function)
        _Simplifier(rewrite.changing_vars(function, assigning)).block(function.body)
        rewrite.eliminate_common_subexpressions(module, function, assigning)
        rewrite.rewrite_algebra(function, assigning)
        loops.hoist_invariants(module, function)
        tapes.stack_tapes(function)
        loops.batch_loop_products(module, function)
        rewrite.eliminate_common_subexpressions(module, function, assigning)   # the stacked operands' views
    # a forward's repeated residuals, now one value; a gradient a callee returns twice (LSTM's two biases), which
    # its caller then passes twice to an optimizer
    while prune.merge_repeated_values(module):
        for function in module.functions.values():
            rewrite.eliminate_common_subexpressions(module, function, assigning)
    if numpy_steps:   # depth-1 matrix products as einsum (before dead code: the reshapes they no longer read)
        for function in module.functions.values():
            products.lower_outer_products(function, assigning)
            columnsums.sum_rows_as_products(function)
            staticreshapes.lower_static_reshapes(function)
            batchlastcolumns.order_columns_batch_last(function)
            loops.copy_transposed_operands(module, function)
            onehotgrads.fold_one_hot_gradients(function)
            softmaxprobs.reuse_softmax_probabilities(function)
            concatparts.write_parts_in_place(function)
    _eliminate_dead_code(module)
    if not numpy_steps:
        return module
    entry = module.functions[module.entry]
    inputs = frozenset(p.aval for p in entry.params[:len(entry.params) - len(entry.param_names)])
    donation.plan_donations(module)
    for function in module.functions.values():
        _rows_in_place(function)
        _items_in_place(function)
        steprows.leave_written_rows_unset(function)
        inplace.update_in_place(function, module.functions)
        inplace.assign_in_place(function, inputs)
        _insert_release_points(function)
    numpycasts.plan_casts(module)
    for function in module.functions.values():   # the casts planned: a statement casting writes into no row
        steprows.compute_values_in_rows(function)
    workspace.plan_workspace(module)
    for function in module.functions.values():
        splitproducts.split_large_products(function)
    splitregions.split_elementwise_regions(module)
    deferproducts.defer_products(module)
    return module


def _forget_custom_backward(function: ir.Function) -> None:
    """Optimize runs after the last gradient: a cell's ``bprop`` function, kept for a later
    differentiation of its calls, is no longer needed (nor kept reachable)."""
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Call):
            stmt.custom = None


# ---------------------------------------------------------------- folding and identities

_SMALL = 16
_FILLED = {"ones_like": 1, "zeros_like": 0, "ones": 1, "zeros": 0}
_ELEMENTWISE = {"add", "sub", "mul", "div", "where", "maximum", "minimum", "neg"}
# Ops whose every result element is an element of the operand (a cast converts it): a uniform
# operand gives a uniform result.
_SHAPE_ONLY = {"broadcast_to", "expand_dims", "reshape", "squeeze", "flatten", "transpose", "swapaxes", "cast"}


class _Simplifier:
    """One forward walk: known values (``consts``), broadcast scalars (``scalars``), rewrites."""

    def __init__(self, changing: set):
        self.changing = changing                   # ids of the Vars an assignment may change: never aliased
        self.consts: dict[int, np.ndarray] = {}    # Var id -> its (small) value
        self.scalars: dict[int, np.ndarray] = {}   # Var id -> 0-d value it is a broadcast of
        self.replace: dict = {}                    # Var -> atom to use instead
        self.rows_into_zeros: dict[int, tuple] = {}  # Var id -> (t, g) of its row_add(zeros, t, g)

    def block(self, block: ir.Block) -> None:
        kept = []
        for stmt in block.stmts:
            ir.replace_uses(stmt, self.replace)
            for inner in ir.nested_blocks(stmt):
                self.block(inner)
            if isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and self.apply(stmt):
                continue
            kept.append(stmt)
        block.stmts = kept
        block.results = tuple(self.replace.get(a, a) if isinstance(a, ir.Var) else a for a in block.results)

    def value(self, atom):
        """The known value of an atom (a NumPy array or Python scalar), or None."""
        if isinstance(atom, ir.Const):
            return atom.value if isinstance(atom.value, (np.ndarray, np.generic, bool, int, float)) else None
        return self.consts.get(id(atom))

    def apply(self, stmt: ir.Apply) -> bool:
        """Record what is known about ``stmt``'s result; True if the statement can be dropped."""
        target = stmt.targets[0]
        aval = target.aval
        static_shape = None not in aval.shape
        size = int(np.prod(aval.shape)) if static_shape else None
        if stmt.op in _FILLED and static_shape:
            return self.known(target, np.full(aval.shape, _FILLED[stmt.op], aval.dtype))
        values = [self.value(a) for a in stmt.args]
        if stmt.args and all(v is not None for v in values) and size is not None and size <= _SMALL:
            folded = _evaluate(stmt, values)
            if folded is not None:
                return self.known(target, folded)
        identity = self.identity_operand(stmt, values)
        if identity is not None and id(identity) not in self.changing:   # w + 0 is w's value now, not later
            self.replace[target] = identity
            return True
        if stmt.op == "row_add" and self.is_zero(stmt.args[0], values[0]):
            self.rows_into_zeros[id(target)] = stmt.args[1:]
        elif stmt.op == "gather_grad" and self.one_row(stmt):   # g into row t of zeros, as row_add
            self.rows_into_zeros[id(target)] = (stmt.args[1], stmt.args[0])
        elif stmt.op == "add":
            self.accumulate_row(stmt)
        if stmt.op in _SHAPE_ONLY:
            self.keep_uniform(stmt, values[0])
        elif stmt.op in _ELEMENTWISE:
            self.absorb_broadcast(stmt, values)
        self.broadcast_uniform(stmt)
        return False

    def broadcast_uniform(self, stmt: ir.Apply) -> None:
        """An op that made a uniform result of a static shape from uniform values computed earlier (a seed
        negated, reshaped) is one ``broadcast_to`` of the scalar: the ops before it die, no array is
        written element by element (``d = broadcast_to(c); np.negative(d, out=t); t.reshape(s)`` is
        ``broadcast_to(-c, s)``)."""
        target = stmt.targets[0]
        scalar = self.scalars.get(id(target))
        if (scalar is None or not target.aval.shape or None in target.aval.shape
                or not any(isinstance(a, ir.Var) for a in stmt.args)):
            return
        # a one-element array, as the constants a seed is made of: a result that views it is copied when
        # returned (``constantviews``), never handed out read-only
        stmt.op, stmt.args = "broadcast_to", (ir.Const(scalar.reshape(1)),)
        stmt.static = {"shape": tuple(target.aval.shape)}

    def keep_uniform(self, stmt: ir.Apply, value) -> None:
        """A uniform operand stays a scalar through an op that only moves or copies elements."""
        operand = stmt.args[0]
        scalar = self.scalars.get(id(operand)) if isinstance(operand, ir.Var) else None
        if scalar is None and value is not None and np.size(value) == 1:
            scalar = np.asarray(value)
        if scalar is not None:
            self.scalars[id(stmt.targets[0])] = scalar.astype(stmt.targets[0].aval.dtype).reshape(())

    def is_zero(self, atom, value) -> bool:
        scalar = self.scalars.get(id(atom)) if isinstance(atom, ir.Var) else None
        if scalar is not None:
            return bool(scalar == 0)
        return value is not None and not np.any(value)

    @staticmethod
    def one_row(stmt: ir.Apply) -> bool:
        """Whether a ``gather_grad`` writes its ``g`` into one row of zeros (a scalar index on axis 0)."""
        g, index = stmt.args
        target = stmt.targets[0].aval
        return (stmt.static.get("axis", 0) == 0 and rewrite.scalar_index(index) and isinstance(g, ir.Var)
                and target.shape[1:] == g.aval.shape and g.aval.dtype == target.dtype)

    def accumulate_row(self, stmt: ir.Apply) -> None:
        """``acc + row_add(zeros, t, g)`` -> ``row_add(acc, t, g)`` (same shape and dtype throughout)."""
        target = stmt.targets[0]
        for position in (0, 1):
            row, acc = stmt.args[position], stmt.args[1 - position]
            rows = self.rows_into_zeros.get(id(row)) if isinstance(row, ir.Var) else None
            if rows is not None and isinstance(acc, ir.Var) and acc.aval == target.aval == row.aval:
                stmt.op, stmt.args, stmt.static = "row_add", (acc, *rows), {}
                return

    def known(self, target, value) -> bool:
        """Bind ``target`` to a known value: a constant if it is one element, else (uniform
        values only) a broadcast scalar; other values stay computed at run time."""
        if value.size == 1:
            self.consts[id(target)] = value
            self.replace[target] = ir.Const(value)
            return True
        if value.size == 0:
            return False  # a 0-size array stays computed: its shape is all it holds
        if (value == value.reshape(-1)[0]).all():
            first = value.reshape(-1)[0]
            self.scalars[id(target)] = np.asarray(first, value.dtype)
        elif value.size <= _SMALL:
            self.consts[id(target)] = value
            self.replace[target] = ir.Const(value)
            return True
        return False

    def identity_operand(self, stmt, values):
        if stmt.op not in ("pow", "mul", "div", "add", "sub"):
            return None
        unit = 0 if stmt.op in ("add", "sub") else 1
        candidates = [(0, 1)] if stmt.op in ("pow", "div", "sub") else [(0, 1), (1, 0)]
        for keep, other in candidates:
            atom, value = stmt.args[keep], values[other]
            if isinstance(atom, ir.Var) and atom.aval == stmt.targets[0].aval and _all_equal(value, unit):
                return atom
        scalar_ones = [i for i, a in enumerate(stmt.args) if self.scalars.get(id(a)) is not None
                       and _all_equal(self.scalars[id(a)], unit)]
        if stmt.op == "mul" and scalar_ones:
            other = stmt.args[1 - scalar_ones[0]]
            if isinstance(other, ir.Var) and other.aval == stmt.targets[0].aval:
                return other
        return None

    def absorb_broadcast(self, stmt, values) -> None:
        target = stmt.targets[0]
        scalars = [self.scalars.get(id(a)) if isinstance(a, ir.Var) else None for a in stmt.args]
        if all(s is None for s in scalars):
            return
        # Another operand is already an array of the result's shape and dtype, so NumPy broadcasts
        # the scalar and promotes the same way under NumPy 1.26 (value-based) and 2.x (NEP 50).
        full_array = any(isinstance(a, ir.Var) and a.aval == target.aval and s is None
                         for a, s in zip(stmt.args, scalars))
        if full_array:
            stmt.args = tuple(ir.Const(s) if s is not None else a for a, s in zip(stmt.args, scalars))
            return
        operands = [s if s is not None else v for s, v in zip(scalars, values)]
        if all(o is not None and np.size(o) == 1 for o in operands):
            folded = _evaluate(stmt, [np.asarray(o).reshape(()) for o in operands], shape=())
            if folded is not None:
                self.scalars[id(target)] = np.asarray(folded, target.aval.dtype).reshape(())


def _all_equal(value, unit) -> bool:
    """Whether ``value`` is a single element equal to ``unit`` (0 or 1)."""
    if value is None or isinstance(value, bool):
        return False
    array = np.asarray(value)
    return array.size == 1 and bool(array.reshape(()) == unit)


def _evaluate(stmt: ir.Apply, values, shape=None):
    """Run an op now on known values, with the compiled code's casts; None if it cannot be folded.

    The result must have the target's shape, or ``shape`` when given (folding broadcast scalars)."""
    definition = op_table()[stmt.op]
    if definition.has_effects:
        return None
    target = stmt.targets[0].aval
    try:
        with np.errstate(all="ignore"):
            result = apply_op(definition, values, stmt.static, target.dtype)
    except Exception:  # noqa: BLE001 - anything odd is simply left to run time
        return None
    expected = target.shape if shape is None else shape
    return result if result.shape == expected else None


# ---------------------------------------------------------------- copy propagation


def _propagate_copies(function: ir.Function) -> None:
    replace: dict = {}
    _copies_in_block(function.body, replace)


def _copies_in_block(block: ir.Block, replace: dict) -> None:
    kept = []
    for stmt in block.stmts:
        ir.replace_uses(stmt, replace)
        if (isinstance(stmt, ir.Apply) and stmt.op in _IDENTITY_WHEN_SAME_AVAL and len(stmt.targets) == 1
                and isinstance(stmt.args[0], ir.Var) and stmt.args[0].aval == stmt.targets[0].aval):
            replace[stmt.targets[0]] = stmt.args[0]
            continue
        for inner in ir.nested_blocks(stmt):
            _copies_in_block(inner, replace)
        kept.append(stmt)
    block.stmts = kept
    block.results = tuple(replace.get(a, a) if isinstance(a, ir.Var) else a for a in block.results)


# ---------------------------------------------------------------- dead code


def _eliminate_dead_code(module: ir.Module) -> None:
    effectful = _effectful_functions(module)
    for function in module.functions.values():
        _dead_in_block(function.body, set(), effectful)
    while prune.prune_calls(module):   # a callee's unread results go, then what computed them
        for function in module.functions.values():
            _dead_in_block(function.body, set(), effectful)
    reachable = ir.reachable_functions(module.functions, module.entry)
    module.functions = {name: f for name, f in module.functions.items() if name in reachable}


def _effectful_functions(module: ir.Module) -> set:
    """The functions a call of which does something besides computing its results (assigns a Parameter,
    prints, calls the host, checks a guard, saves residuals on a tape), itself or through a call."""
    return rewrite.functions_doing(module, lambda stmt: isinstance(stmt, ir.Effect) and stmt.kind != "release"
                                   or isinstance(stmt, ir.TapePush))


def _dead_in_block(block: ir.Block, live_after: set, effectful: set) -> set:
    """Remove dead statements (a call of one of the ``effectful`` functions never is one); returns the ids of
    Vars live at the block's start."""
    live = set(live_after) | {id(a) for a in block.results if isinstance(a, ir.Var)}
    kept = []
    for stmt in reversed(block.stmts):
        defined = ir.defined_vars(stmt)
        needed = any(id(v) in live for v in defined)
        if isinstance(stmt, (ir.Apply, ir.TapePop)) and not needed:
            continue
        if isinstance(stmt, ir.Call) and not needed and stmt.targets != () and stmt.callee not in effectful:
            continue
        if isinstance(stmt, (ir.If, ir.ForRange, ir.While)) and not needed and not _has_effect(stmt):
            continue
        if isinstance(stmt, ir.ForRange):
            _drop_overwritten_carried(stmt, live)
        live.update(_uses_with_nested(stmt, effectful))
        kept.append(stmt)
    block.stmts = kept[::-1]
    return live


def _drop_overwritten_carried(loop: ir.ForRange, live_after: set) -> None:
    """Drop the carried values of ``loop`` that its body never reads and nothing after it reads: a variable the
    body assigns before any use and the code after the loop does not read (``gates_t = gates_x[t]``), whose
    initial value would otherwise be made for nothing."""
    read = {id(v) for s in loop.body.stmts for v in ir.used_vars_deep(s)}
    read |= {id(a) for a in loop.body.results if isinstance(a, ir.Var)}
    keep = [k for k, (param, output) in enumerate(zip(loop.body_params, loop.outputs))
            if id(param) in read or id(output) in live_after]
    if len(keep) < len(loop.outputs):
        loop.carried, loop.body_params, loop.outputs = (tuple(values[k] for k in keep) for values in
                                                        (loop.carried, loop.body_params, loop.outputs))
        loop.body.results = tuple(loop.body.results[k] for k in keep)


def _has_effect(stmt) -> bool:
    """Whether a control-flow statement does something besides computing its outputs: prints,
    assigns Parameters, calls a function, or saves residuals on a tape for the backward sweep."""
    return any(isinstance(s, (ir.Effect, ir.Call, ir.TapePush)) for block in ir.nested_blocks(stmt)
               for s in ir.walk_stmts(block))


def _uses_with_nested(stmt, effectful: set) -> set:
    uses = {id(a) for a in ir.used_atoms(stmt) if isinstance(a, ir.Var)}
    if isinstance(stmt, ir.If):
        for block in (stmt.then_block, stmt.else_block):
            uses |= _dead_in_block(block, set(), effectful)
    elif isinstance(stmt, (ir.ForRange, ir.While)):
        # Loop bodies: everything the body yields is live (it feeds the next iteration).
        body_live = _dead_in_block(stmt.body, set(), effectful)
        uses |= body_live
        if isinstance(stmt, ir.While):
            uses |= _dead_in_block(stmt.cond, set(), effectful)
    return uses


# ---------------------------------------------------------------- rows written in place


_IN_PLACE = {"row_add": "row_add_in_place", "row_set": "row_set_in_place"}


def _in_place_row(stmt: ir.Apply) -> None:
    """Make ``stmt`` write its row in place (``row_add`` only where a row is an array: ``np.add``
    cannot write into the scalar ``buf[t]`` of a 1-D buffer)."""
    if stmt.op == "row_set" or len(stmt.targets[0].aval.shape) > 1:
        stmt.op = _IN_PLACE[stmt.op]


def _rows_in_place(function: ir.Function) -> None:
    """Turn ``row_add`` (``row_set``) on a loop-carried buffer the loop owns into ``row_add_in_place``
    (``row_set_in_place``).

    The loop owns the buffer when its initial value is a fresh ``zeros``/``zeros_like`` that nothing
    else reads (or such a buffer with one row written in place before the loop; a ``row_add`` on a
    fresh ``zeros`` read nowhere else is written in place wherever it is) and, in the body, the iteration's buffer is read only by the ``row_add`` whose result
    becomes the next iteration's buffer: then no other reference to any version of the buffer
    exists, and writing the row into it is the same as writing into a copy.
    """
    uses: dict[int, int] = {}
    defs: dict[int, ir.Apply] = {}
    for stmt in ir.walk_stmts(function.body):
        for atom in ir.used_atoms(stmt):
            if isinstance(atom, ir.Var):
                uses[id(atom)] = uses.get(id(atom), 0) + 1
        if isinstance(stmt, ir.Apply):
            for var in stmt.targets:
                defs[id(var)] = stmt
    for block in _blocks(function.body):
        for atom in block.results:
            if isinstance(atom, ir.Var):
                uses[id(atom)] = uses.get(id(atom), 0) + 1

    def owned(buffer) -> bool:
        """A fresh ``zeros`` read only here, or such a buffer with rows written in place."""
        made = defs.get(id(buffer)) if isinstance(buffer, ir.Var) else None
        if made is None or uses.get(id(buffer)) != 1:
            return False
        return made.op in ("zeros", "zeros_like") or made.op in _IN_PLACE.values() and owned(made.args[0])

    for stmt in ir.walk_stmts(function.body):   # a tape's history buffer: its first row, before the loop
        if isinstance(stmt, ir.Apply) and stmt.op in _IN_PLACE and owned(stmt.args[0]):
            _in_place_row(stmt)
    for loop in ir.walk_stmts(function.body):
        if not isinstance(loop, ir.ForRange):
            continue
        for init, param, result in zip(loop.carried, loop.body_params, loop.body.results):
            row = defs.get(id(result)) if isinstance(result, ir.Var) else None
            if (owned(init) and row is not None and row.op in _IN_PLACE and row.args[0] is param
                    and uses.get(id(param)) == 1 and row in loop.body.stmts):
                _in_place_row(row)


_VIEW_OPS = inplace._VIEWS | {"getitem"}   # ops whose result may be a view of their first operand


def _items_in_place(function: ir.Function) -> None:
    """Turn ``setitem`` into ``setitem_in_place`` (``y[0] = v``, no copy of ``y``) where its array is a new one of
    rank 1 or more, made in the same block by an op that always makes a new array, and read elsewhere only before
    it in that block, by ops that make new arrays or by views read only so (``y[0] = y[0] * 2``): no reference to
    the array is left, so writing into it is the same as writing into a copy. (A ``setitem`` in a loop on an array
    made before the loop copies it: every iteration starts from the array as it was made.)"""
    readers: dict[int, list] = {}
    for stmt in ir.walk_stmts(function.body):
        for atom in ir.used_atoms(stmt):
            if isinstance(atom, ir.Var):
                readers.setdefault(id(atom), []).append(stmt)
    results = {id(a) for block in _blocks(function.body) for a in block.results if isinstance(a, ir.Var)}
    for block in _blocks(function.body):
        made = {id(t): s for s in block.stmts if isinstance(s, ir.Apply) for t in s.targets}
        position = {id(s): k for k, s in enumerate(block.stmts)}

        def read_before(var, index: int) -> bool:
            """Whether every reader of ``var`` is an earlier statement of this block that makes a new array, or a
            view whose readers are such; ``var`` is no result of a block."""
            if id(var) in results:
                return False
            for reader in readers.get(id(var), ()):
                if position.get(id(reader), index) >= index or not isinstance(reader, ir.Apply):
                    return False
                if reader.op in _VIEW_OPS:
                    if not all(read_before(view, index) for view in reader.targets):
                        return False
                elif not inplace.makes_new_array(reader.op):
                    return False
            return True

        for index, stmt in enumerate(block.stmts):
            if not (isinstance(stmt, ir.Apply) and stmt.op == "setitem" and isinstance(stmt.args[0], ir.Var)):
                continue
            array, maker = stmt.args[0], made.get(id(stmt.args[0]))
            if (maker is None or not array.aval.shape or id(array) in results
                    or not (maker.op in ("setitem", "setitem_in_place") or inplace.makes_new_array(maker.op))):
                continue
            others = [r for r in readers.get(id(array), ()) if r is not stmt]
            if len(others) + 1 == len(readers.get(id(array), ())) and all(
                    isinstance(r, ir.Apply) and position.get(id(r), index) < index
                    and (inplace.makes_new_array(r.op)
                         or r.op in _VIEW_OPS and all(read_before(v, index) for v in r.targets))
                    for r in others):
                stmt.op = "setitem_in_place"


def _blocks(block: ir.Block):
    yield block
    for stmt in block.stmts:
        for inner in ir.nested_blocks(stmt):
            yield from _blocks(inner)


# ---------------------------------------------------------------- release points


RELEASE_MIN_ELEMENTS = 1 << 16


def _release_points(function: ir.Function) -> dict:
    """Where to release large intermediates: statement index -> the Vars whose last use it is.

    Only values defined by the function's top-level statements, of at least
    :data:`RELEASE_MIN_ELEMENTS` elements (or of dynamic size), and not returned, are released, so
    peak memory stays close to hand-written code without cluttering small kernels.
    """
    body = function.body
    returned = {id(a) for a in body.results if isinstance(a, ir.Var)}
    # a buffer written in place lives on under the statement's result
    returned |= {id(s.into) for s in body.stmts if isinstance(s, ir.Apply) and s.into is not None}
    # and a value computed in a parameter's array (an assignment done in place) is that parameter
    in_params = {id(p) for p in function.params}
    for stmt in body.stmts:
        if isinstance(stmt, ir.Apply) and stmt.into is not None and id(stmt.into) in in_params:
            in_params |= {id(t) for t in stmt.targets}
    returned |= in_params
    defined = {}
    last_use = {}
    for index, stmt in enumerate(body.stmts):
        for var in ir.used_vars_deep(stmt):
            last_use[id(var)] = index
        for var in ir.defined_vars(stmt):
            defined[id(var)] = var
    release: dict = {}
    for key, var in defined.items():
        if key in returned or key not in last_use:
            continue
        shape = var.aval.shape
        if None not in shape and int(np.prod(shape)) < RELEASE_MIN_ELEMENTS:
            continue
        release.setdefault(last_use[key], []).append(var)
    return {index: sorted(found, key=lambda v: v.name) for index, found in release.items()}


def _insert_release_points(function: ir.Function) -> None:
    release = _release_points(function)
    if not release:
        return
    stmts = []
    for index, stmt in enumerate(function.body.stmts):
        stmts.append(stmt)
        if index in release:
            stmts.append(ir.Effect("release", tuple(release[index]), stmt.loc))
    function.body.stmts = stmts
