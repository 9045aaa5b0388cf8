"""Rewrites of optimize that make the generated code do less work (run before dead-code elimination).

* common-subexpression elimination over the whole function, forward and adjoint together: an op
  applied again to the same operands with the same static attributes reuses the first result (the
  adjoint of ``sin(x) * cos(x)`` reads the forward's ``sin`` and ``cos`` instead of recomputing
  them); a Parameter assignment forgets what was computed from arrays it may change (a Parameter
  the function assigns, a view), a call of a function that assigns forgets all that is known;
* reductions to dot products: ``sum(a * b)`` over whole arrays of the same shape is ``dot(a, b)``
  (flattened first when not 1-D), ``mean(r ** 2)`` is ``dot(r, r) / n``, and ``sum(p + q)``
  is ``sum(p) + sum(q)`` so each half can become a dot (no full-size temporaries); not for a value
  a value guard reads (directly or through the ops computing it): the kernel checks the very bits
  eager code (the trace, or the read at compile time) saw, so its sums keep NumPy's order;
* negation folding: ``(-a) * b`` is ``-(a * b)`` and ``x + (-y)`` is ``x - y`` (one pass fewer);
* product reuse: ``(a * b) * c`` is ``a * bc`` when a product of ``b`` and ``c`` was computed before (an
  adjoint's product of all factors but one reads the forward's partial product), in a function that
  assigns no Parameter and calls none that does;
* doubling: ``x * 2`` of a real floating ``x`` is ``x + x`` (the same bits; an add of two arrays
  skips the conversion of the Python scalar, ~half the time of a small multiply);
* the ReLU mask ``x > 0`` is read from the ReLU's output (``relu(x) > 0`` is the same mask), so the
  pre-activation can die at the ReLU;
* ``gather(x, t, axis=0)`` with a scalar index is ``row(x, t)``: a view ``x[t]``, not a copy.

A rewrite never changes a value by more than float32 rounding of a reordered sum or product.
"""
from __future__ import annotations


import numpy as np

from ..opdef import Aval, op_table
from . import ir
from .inplace import makes_new_array

_IMPURE_PREFIXES = ("random", "print")
# fresh buffers stay distinct: a later pass may own one and write into it
_IMPURE = {"row_add_in_place", "row_set_in_place", "setitem_in_place", "zeros", "zeros_like", "ones", "ones_like",
           "full", "empty", "fill"}


def pure(stmt) -> bool:
    """Whether ``stmt`` is an op application whose result depends on its operands alone: not a
    random draw, a print, a collective, nor a fresh buffer a later pass may write into."""
    if not isinstance(stmt, ir.Apply) or stmt.op in _IMPURE or stmt.op.startswith(_IMPURE_PREFIXES):
        return False
    return not op_table()[stmt.op].has_effects


def eliminate_common_subexpressions(module: ir.Module, function: ir.Function, assigning: set) -> None:
    """Replace repeated pure op applications by the first one's results, in place (``assigning``: the functions
    that assign a Parameter, :func:`functions_with_effects`)."""
    _cse_block(function.body, {}, {}, assigning, _unchanging(module, function))


def _unchanging(module: ir.Module, function: ir.Function) -> set:
    """ids of the Vars whose array no assignment in ``function`` changes: results of ops that always
    make a new array, and the parameters the function never assigns that cannot be an assigned
    one's array: of another shape or dtype, or both distinct Parameters (an input may be a
    Parameter's very array). A Parameter's update then leaves ``momentum > 0`` known, and ``1 - beta1``."""
    assigned = [s.args[0] for s in ir.walk_stmts(function.body) if isinstance(s, ir.Effect) and s.kind == "assign"]
    distinct = _distinct_parameters(module).get(function.name, set()) if assigned else set()

    def unchanged(param) -> bool:
        return all(param is not q and (param.aval != q.aval or (id(param) in distinct and id(q) in distinct))
                   for q in assigned)

    unchanging = {id(p) for p in function.params if unchanged(p)}
    unchanging |= {id(t) for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) and makes_new_array(s.op)
                   for t in s.targets}
    return unchanging


def _distinct_parameters(module: ir.Module) -> dict:
    """function name -> ids of its params that hold distinct Parameters' arrays: the entry's captured
    Parameters (after its inputs), and a callee's params to which every call passes such a param of
    its caller, no two of them the same."""
    entry = module.functions[module.entry]
    captured = {id(p) for p in entry.params[len(entry.params) - len(entry.param_names):]}
    reachable = ir.reachable_functions(module.functions, module.entry)
    distinct: dict = {module.entry: captured}
    for _ in range(len(reachable)):   # a callee's set follows its callers' (the call graph is acyclic)
        found: dict = {module.entry: captured}
        for name in reachable:
            known = distinct.get(name, set())
            for stmt in ir.walk_stmts(module.functions[name].body):
                callee = module.functions.get(stmt.callee) if isinstance(stmt, ir.Call) else None
                if callee is None or callee.name == module.entry:
                    continue
                args = [a for a in stmt.args if isinstance(a, ir.Var)]
                once = {id(a) for a in args if sum(b is a for b in args) == 1}
                here = {id(p) for p, a in zip(callee.params, stmt.args) if id(a) in known and id(a) in once}
                found[callee.name] = found[callee.name] & here if callee.name in found else here
        if found == distinct:
            break
        distinct = found
    return distinct


def functions_with_effects(module: ir.Module, kinds: tuple = ("assign",)) -> set:
    """The names of the functions of ``module`` with an effect of one of ``kinds`` (a Parameter assignment), in
    their body or in a function they call, however deep."""
    return functions_doing(module, lambda stmt: isinstance(stmt, ir.Effect) and stmt.kind in kinds)


def functions_doing(module: ir.Module, does) -> set:
    """The names of the functions of ``module`` with a statement for which ``does(stmt)`` holds, in their body or
    in a function they call, however deep."""
    found: set = set()
    grew = True
    while grew:
        grew = False
        for name, function in module.functions.items():
            if name not in found and any(does(s) or isinstance(s, ir.Call) and s.callee in found
                                         for s in ir.walk_stmts(function.body)):
                found.add(name)
                grew = True
    return found


def changing_vars(function: ir.Function, assigning: set) -> set:
    """The ids of the Vars of ``function`` whose array an assignment may change: a Parameter it assigns, an
    argument of a call to one of the ``assigning`` functions (:func:`functions_with_effects`). A value computed
    from one is its value where it is computed: a rewrite may not read the Var again later in its place."""
    changing = {id(s.args[0]) for s in ir.walk_stmts(function.body) if isinstance(s, ir.Effect) and s.kind == "assign"}
    return changing | {id(a) for s in ir.walk_stmts(function.body) if isinstance(s, ir.Call) and s.callee in assigning
                       for a in s.args}


def has_effects(block: ir.Block, functions: set, kinds: tuple = ("assign",)) -> bool:
    """Whether ``block`` has an effect of one of ``kinds`` or calls one of ``functions``."""
    return any(isinstance(s, ir.Effect) and s.kind in kinds or isinstance(s, ir.Call) and s.callee in functions
               for s in ir.walk_stmts(block))


def _atom_key(atom):
    if isinstance(atom, ir.Var):
        return ("v", id(atom))
    value = atom.value
    if isinstance(value, np.ndarray):
        return ("a", value.dtype.str, value.shape, value.tobytes())
    return ("c", type(value).__name__, repr(value))


def _apply_key(stmt: ir.Apply):
    static = tuple(sorted((k, repr(v)) for k, v in stmt.static.items()))
    return (stmt.op, tuple(_atom_key(a) for a in stmt.args), static, len(stmt.targets))


def _cse_block(block: ir.Block, known: dict, replace: dict, assigning: set, unchanging: set) -> None:
    kept = []
    for stmt in block.stmts:
        ir.replace_uses(stmt, replace)
        if isinstance(stmt, ir.Effect) and stmt.kind == "assign":
            known = _unaffected(known, unchanging)
        elif isinstance(stmt, ir.Call) and stmt.callee in assigning:
            known.clear()
        nested = ir.nested_blocks(stmt)
        # a loop or branch that assigns Parameters may change what an outer value read: inside it and after it,
        # only what was computed from arrays no assignment changes stays known (SGD's ``momentum > 0``)
        changes = any(has_effects(nested_block, assigning) for nested_block in nested)
        if changes:
            known = _unaffected(known, unchanging) if not _calls_assigning(nested, assigning) else {}
        for inner in nested:
            _cse_block(inner, dict(known), replace, assigning, unchanging)
        if pure(stmt):
            key = _apply_key(stmt)
            first = known.get(key)
            if first is not None and all(a.aval == b.aval for a, b in zip(first, stmt.targets)):
                for target, earlier in zip(stmt.targets, first):
                    replace[target] = earlier
                continue
            known[key] = stmt.targets
        kept.append(stmt)
    block.stmts = kept
    block.results = tuple(replace.get(a, a) if isinstance(a, ir.Var) else a for a in block.results)


def _unaffected(known: dict, unchanging: set) -> dict:
    """The entries of ``known`` computed from constants and from arrays no assignment changes."""
    return {key: targets for key, targets in known.items()
            if all(atom[0] != "v" or atom[1] in unchanging for atom in key[1])}


def _calls_assigning(blocks, assigning: set) -> bool:
    """Whether a statement of ``blocks`` calls a function that assigns a Parameter (which may be any array)."""
    return any(isinstance(s, ir.Call) and s.callee in assigning for block in blocks for s in ir.walk_stmts(block))


# ---------------------------------------------------------------- algebra


class Namer:
    """Fresh variable names unique in one function (``t_<n>``, or after a value: :meth:`named`)."""

    def __init__(self, function: ir.Function):
        self.taken = {p.name for p in function.params}
        for stmt in ir.walk_stmts(function.body):
            self.taken.update(v.name for v in ir.defined_vars(stmt))
            if isinstance(stmt, ir.ForRange):
                self.taken.update(v.name for v in (stmt.index, *stmt.body_params))
            elif isinstance(stmt, ir.While):
                self.taken.update(v.name for v in stmt.body_params)
        self.count = 0

    def var(self, aval) -> ir.Var:
        while f"t_{self.count}" in self.taken:
            self.count += 1
        name = f"t_{self.count}"
        self.taken.add(name)
        return ir.Var(name, aval)

    def named(self, base: str, aval) -> ir.Var:
        """A fresh Var called ``base``, or ``base_1``, ``base_2``... if that name is taken."""
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return ir.Var(name, aval)


def rewrite_algebra(function: ir.Function, assigning: set) -> None:
    """Apply the dot-product, negation, product-reuse, ReLU-mask and row rewrites (module docstring) to
    ``function``, in place (``assigning``: the functions that assign a Parameter, :func:`functions_with_effects`)."""
    _Algebra(function, assigning).block(function.body, {})


def _whole(stmt: ir.Apply) -> bool:
    """A reduction over all axes with NumPy's defaults."""
    return (stmt.static.get("axis") is None and not stmt.static.get("keepdims", False)
            and stmt.static.get("dtype") is None)


def _float(var) -> bool:
    return isinstance(var, ir.Var) and var.aval.dtype.kind == "f" and None not in var.aval.shape


# a mean of fewer squares keeps np.mean's summation order (tiny losses print as NumPy's mean does)
DOT_MIN_ELEMENTS = 64


def _large(var) -> bool:
    return _float(var) and int(np.prod(var.aval.shape)) >= DOT_MIN_ELEMENTS


def guarded_vars(function: ir.Function) -> set:
    """id(Var) of every Var a value guard reads, directly or through the ops that compute it."""
    defs: dict = {}
    stack = []
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Apply):
            defs.update((id(target), stmt) for target in stmt.targets)
        elif isinstance(stmt, ir.Effect) and stmt.kind == "guard":
            stack.append(stmt.args[0])
    seen: set = set()
    while stack:
        atom = stack.pop()
        if not isinstance(atom, ir.Var) or id(atom) in seen:
            continue
        seen.add(id(atom))
        if id(atom) in defs:
            stack.extend(defs[id(atom)].args)
    return seen


class _Algebra:
    def __init__(self, function: ir.Function, assigning: set):
        self.uses = ir.use_counts(function)
        self.guarded = guarded_vars(function)
        self.defs: dict = {}
        self.namer = Namer(function)
        # a product is reused only where no Parameter assignment (here or in a callee) may change an operand
        # between the two
        self.reuses_products = function.name not in assigning
        # a rewrite that reads an operand of an earlier statement again, where it rewrites, never looks through
        # one reading a Var an assignment may change
        self.changing = changing_vars(function, assigning)

    def single(self, atom, op: str):
        """The defining Apply of ``atom`` if it is ``op``, ``atom`` is read only once and its operands are no
        Vars an assignment may change (they are read again where the reader is rewritten)."""
        if not isinstance(atom, ir.Var) or self.uses.get(id(atom)) != 1:
            return None
        stmt = self.defs.get(id(atom))
        if stmt is None or stmt.op != op or any(id(a) in self.changing for a in stmt.args):
            return None
        return stmt

    def block(self, block: ir.Block, known: dict) -> None:
        """Rewrite ``block`` and its nested blocks in program order. ``known`` maps ``("relu", id(x))`` to
        the output of a ReLU of ``x``, and ``("mul", id(a), id(b))`` to a product of ``a`` and ``b``, that
        dominate this block (in an enclosing block, before it); one in a sibling branch or later in the
        function is never read."""
        known = dict(known)
        out: list = []
        for stmt in block.stmts:
            if isinstance(stmt, ir.Apply) and len(stmt.targets) == 1:
                new = self.rewrite(stmt, known)
            else:
                new = [stmt]
                for inner in ir.nested_blocks(stmt):
                    self.block(inner, known)
            for s in new:
                if isinstance(s, ir.Apply):
                    for target in s.targets:
                        self.defs[id(target)] = s
                    if s.op == "relu":
                        known[("relu", id(s.args[0]))] = s.targets[0]
                    if s.op == "mul" and self.reuses_products and _same_floats(*s.args, s.targets[0]):
                        known[_product_key(*s.args)] = s.targets[0]
            out.extend(new)
        block.stmts = out

    def apply(self, op, args, aval, loc, static=None) -> ir.Apply:
        target = self.namer.var(aval)
        self.uses[id(target)] = 1
        return ir.Apply((target,), op, tuple(args), dict(static or {}), loc)

    def rewrite(self, stmt: ir.Apply, known: dict) -> list:
        target = stmt.targets[0]
        op, args = stmt.op, stmt.args
        reorders = _whole(stmt) and _float(target) and id(target) not in self.guarded
        if op == "sum" and reorders:
            return self.sum_rewrite(stmt)
        if op == "mean" and reorders:
            square = self.single(args[0], "pow")
            if square is not None and isinstance(square.args[1], ir.Const) and type(square.args[1].value) in (int, float) \
                    and square.args[1].value == 2 \
                    and _large(square.args[0]) and square.args[0].aval == square.targets[0].aval:
                r = square.args[0]
                dots = self.dot(r, r, stmt.loc)
                dot_target = dots[-1].targets[0]
                count = ir.Const(np.asarray(max(int(np.prod(r.aval.shape)), 1), target.aval.dtype))
                stmt.op, stmt.args, stmt.static = "div", (dot_target, count), {}
                self.uses[id(dot_target)] = 1
                return dots + [stmt]
        if op == "mul" and _doubles(args, target):
            stmt.op, stmt.args = "add", (args[0], args[0]) if isinstance(args[0], ir.Var) else (args[1], args[1])
            return [stmt]
        if op == "mul":
            for position in (0, 1):
                negated = self.single(args[position], "neg")
                other = args[1 - position]
                if negated is not None and negated.args[0].aval == negated.targets[0].aval:
                    product = self.apply("mul", (negated.args[0], other) if position == 0
                                         else (other, negated.args[0]), target.aval, stmt.loc)
                    stmt.op, stmt.args = "neg", (product.targets[0],)
                    return [product, stmt]
        if op in ("add", "sub"):
            negated = self.single(args[1], "neg")
            if negated is not None and negated.args[0].aval == negated.targets[0].aval:
                stmt.op = "sub" if op == "add" else "add"
                stmt.args = (args[0], negated.args[0])
                return [stmt]
            negated = self.single(args[0], "neg") if op == "add" else None
            if negated is not None and negated.args[0].aval == negated.targets[0].aval:
                stmt.op, stmt.args = "sub", (args[1], negated.args[0])
                return [stmt]
        if op == "mul" and self.reuses_products and id(target) not in self.guarded:
            reused = self.reused_product(stmt, known)
            if reused is not None:
                return [reused]
        if op == "greater" and isinstance(args[1], ir.Const) and _is_zero(args[1].value) \
                and ("relu", id(args[0])) in known:
            stmt.args = (known[("relu", id(args[0]))], args[1])
        if op == "gather" and stmt.static.get("axis", 0) == 0 and scalar_index(args[1]) \
                and isinstance(args[0], ir.Var) and args[0].aval.shape:
            stmt.op, stmt.static = "row", {}
        return [stmt]

    def reused_product(self, stmt: ir.Apply, known: dict) -> ir.Apply | None:
        """``(a * b) * c`` (``a * b`` read only here) as ``a * bc`` when a product ``bc`` of ``b`` and ``c``
        dominates it (the adjoint of ``x * exp(y) * z ** 2`` then reads the forward's ``x * exp(y)``); all of
        one float aval, so only rounding changes. None when there is no such product."""
        for position in (0, 1):
            inner, last = self.single(stmt.args[position], "mul"), stmt.args[1 - position]
            if inner is None or not _same_floats(*inner.args, last, stmt.targets[0]):
                continue
            for kept, factor in (inner.args, inner.args[::-1]):
                product = known.get(_product_key(factor, last))
                if product is not None:
                    self.uses[id(stmt.args[position])] -= 1
                    self.uses[id(product)] = self.uses.get(id(product), 0) + 1
                    stmt.args = (kept, product)
                    return stmt
        return None

    def sum_rewrite(self, stmt: ir.Apply) -> list:
        operand = stmt.args[0]
        total = self.single(operand, "add")
        if total is not None and all(_float(a) and a.aval == operand.aval for a in total.args):
            left, right = (self.sum_rewrite(self.apply("sum", (part,), stmt.targets[0].aval, stmt.loc))
                           for part in total.args)
            stmt.op, stmt.args, stmt.static = "add", (left[-1].targets[0], right[-1].targets[0]), {}
            halves = left + right
            return halves + [stmt]
        product = self.single(operand, "mul") or self.single(operand, "pow")
        if product is not None and product.op == "pow":
            exponent = product.args[1]
            square = isinstance(exponent, ir.Const) and type(exponent.value) in (int, float) and exponent.value == 2
            factors: tuple = (product.args[0],) * 2 if square else ()
            product = product if square else None
        else:
            factors = product.args if product is not None else ()
        if product is not None and all(_float(a) and a.aval == operand.aval for a in factors):
            dots = self.dot(factors[0], factors[1], stmt.loc)
            last = dots.pop()
            stmt.op, stmt.args, stmt.static = last.op, last.args, last.static
            return dots + [stmt]
        return [stmt]

    def dot(self, a, b, loc) -> list:
        """Statements computing ``dot`` of the flattened ``a`` and ``b`` (the last one's target)."""
        stmts = []
        if len(a.aval.shape) != 1:
            flat = Aval((int(np.prod(a.aval.shape)),), a.aval.dtype)
            flat_a = self.apply("reshape", (a,), flat, loc, {"shape": (-1,)})
            stmts.append(flat_a)
            flat_b = flat_a if b is a else self.apply("reshape", (b,), flat, loc, {"shape": (-1,)})
            if flat_b is not flat_a:
                stmts.append(flat_b)
            a, b = flat_a.targets[0], flat_b.targets[0]
        stmts.append(self.apply("dot", (a, b), Aval((), a.aval.dtype), loc))
        return stmts


def _same_floats(*atoms) -> bool:
    """Whether the atoms are Vars of one float aval of static shape (no broadcasting between them)."""
    return all(_float(a) for a in atoms) and len({a.aval for a in atoms}) == 1


def _product_key(a: ir.Var, b: ir.Var) -> tuple:
    return ("mul",) + tuple(sorted((id(a), id(b))))


def _doubles(args, target) -> bool:
    """Whether ``mul(*args)`` is ``x * 2`` (either order) of a real floating ``x`` of the result's type."""
    if len(args) != 2:
        return False
    x, two = args if isinstance(args[0], ir.Var) else args[::-1]
    if not isinstance(x, ir.Var) or not isinstance(two, ir.Const) or x.aval != target.aval or x.aval.dtype.kind != "f":
        return False
    value = two.value
    if type(value) in (int, float):
        return value == 2
    return isinstance(value, (np.generic, np.ndarray)) and value.shape == () and value.dtype == x.aval.dtype \
        and value == 2


def _is_zero(value) -> bool:
    return isinstance(value, (int, float, np.generic, np.ndarray)) and np.size(value) == 1 and bool(value == 0)


def scalar_index(atom) -> bool:
    """An integer index of rank 0 (a loop index or a constant int)."""
    if isinstance(atom, ir.Const):
        return type(atom.value) is int
    return atom.aval.shape == () and atom.aval.dtype.kind in "iu"
