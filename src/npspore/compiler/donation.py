"""Donated arguments: the parameters of a function that every caller hands a buffer it owns and no longer needs.

A training step's gradients are made in the backward functions and read once more, by the optimizer's
function: ``Adam_construct(d_fc1_weight, ...)`` is the gradient's last use in the caller, and nothing else
holds its memory. The callee may then treat the parameter as a private temporary of its own: once the
parameter is read for the last time its buffer is free, and ``inplace.py`` and ``workspace.py`` write a later
result of the same shape and dtype into it (``np.sqrt(v, out=gradients_0)``) instead of taking a buffer of
their own — a careful person reuses a dead gradient for the optimizer's scratch the same way. The same
analysis finds the results a function hands over whole (``Function.owned_results``: made by it and shared with
nothing else), which its caller may compute in where they die (ReLU applied in a Dense layer's result).

Parameter ``i`` of a function other than the entry is donated when the function has call sites and at each

* the call is a statement of its caller's body itself (not in a loop or branch), and its ``i``-th argument is
  a Var passed to it once;
* that Var is owned by the caller: made at the top level of the caller by an op that always returns a new array,
  or returned at that position by a callee whose result is owned the same way (followed through calls), or a
  reshape of such a Var read by nothing else, and nothing else can share its memory (:func:`_owned`);
* the call is its last read: every other statement reading it is a statement of the body before the call that
  makes a new array (a ufunc, a reduction, ``matmul``...: never a view, a call, a tape or an effect other than a
  release), and no block returns or yields it.
"""
from __future__ import annotations

from . import ir
from .inplace import makes_new_array


# ops whose result is all of their operand's elements in another shape: a view of its whole buffer, or a copy
_SAME_BUFFER = {"reshape", "expand_dims", "squeeze", "flatten"}


def plan_donations(module: ir.Module) -> None:
    """Set ``Function.donated`` (the donated parameters' indices) and ``Function.owned_results`` (the positions
    of the results it hands over whole: :meth:`_Ownership.owned_result`) of every function of ``module``."""
    ownership = _Ownership(module)
    sites: dict = {}
    for function in module.functions.values():
        top = {id(stmt): index for index, stmt in enumerate(function.body.stmts)}
        for stmt in ir.walk_stmts(function.body):
            if isinstance(stmt, ir.Call):   # a call in a loop or branch (no index) donates nothing
                sites.setdefault(stmt.callee, []).append((function, top.get(id(stmt))))
    for name, function in module.functions.items():
        function.owned_results = frozenset(position for position in range(len(function.body.results))
                                           if ownership.owned_result(function, position))
        calls = sites.get(name, ()) if name != module.entry else ()
        function.donated = frozenset(
            position for position in range(len(function.params))
            if calls and all(at is not None and ownership.donates(caller, at, position) for caller, at in calls))


class _Ownership:
    """Which Vars a function owns outright (see the module docstring), memoized per function and Var."""

    def __init__(self, module: ir.Module):
        self.module = module
        self.readers: dict = {}   # function name -> {id(Var): [statements reading it]}
        self.owned_results: dict = {}   # (function name, result position) -> bool

    def donates(self, caller: ir.Function, at: int, position: int) -> bool:
        """Whether argument ``position`` of the call at ``caller.body.stmts[at]`` is a buffer the caller owns
        and reads for the last time there."""
        call = caller.body.stmts[at]
        arg = call.args[position]
        if not isinstance(arg, ir.Var) or sum(a is arg for a in call.args) != 1:
            return False
        return self._owned(caller, arg, returned=0, allowed=call, before=at)

    def owned_result(self, function: ir.Function, position: int) -> bool:
        """Whether result ``position`` of ``function`` is a buffer it made and hands over whole."""
        key = (function.name, position)
        if key not in self.owned_results:
            self.owned_results[key] = False   # recursion (refused by specialize) stays safe
            result = function.body.results[position]
            self.owned_results[key] = isinstance(result, ir.Var) and self._owned(function, result, returned=1)
        return self.owned_results[key]

    def _owned(self, function: ir.Function, var: ir.Var, returned: int, allowed=None, before=None) -> bool:
        """Whether ``var`` is made fresh at the top level of ``function`` (by an op making a new array or as an
        owned result of a call), is returned ``returned`` times and yielded by no nested block, and is read only
        by ops making new arrays, by the statement ``allowed`` and by releases, all of them statements of the
        body (up to index ``before`` when given)."""
        body = function.body.stmts
        if sum(a is var for a in function.body.results) != returned:
            return False
        maker = next(((i, s) for i, s in enumerate(body) if any(t is var for t in ir.defined_vars(s))), None)
        if maker is None:
            return False
        made_at, stmt = maker
        if isinstance(stmt, ir.Apply) and stmt.op in _SAME_BUFFER and isinstance(stmt.args[0], ir.Var):
            # the whole of a buffer under another shape (or a copy of it): owned when that buffer is, and
            # nothing but this statement reads it (a Dense layer's result of 3-D inputs, reshaped back)
            if not self._owned(function, stmt.args[0], returned=0, allowed=stmt, before=made_at):
                return False
        elif isinstance(stmt, ir.Apply):
            if not (len(stmt.targets) == 1 and makes_new_array(stmt.op)):
                return False
        elif isinstance(stmt, ir.Call):
            callee = self.module.functions.get(stmt.callee)
            position = next(i for i, t in enumerate(stmt.targets) if t is var)
            if callee is None or not self.owned_result(callee, position):
                return False
        else:
            return False
        if any(a is var for block in ir.all_blocks(function.body) if block is not function.body
               for a in block.results):
            return False
        top = {id(s): i for i, s in enumerate(body)}
        for reader in self._readers(function).get(id(var), ()):
            index = top.get(id(reader))
            if index is None or index < made_at or (before is not None and index > before):
                return False
            if reader is allowed:
                continue
            if not (isinstance(reader, ir.Apply) and makes_new_array(reader.op)
                    or isinstance(reader, ir.Effect) and reader.kind == "release"):
                return False
        return True

    def _readers(self, function: ir.Function) -> dict:
        found = self.readers.get(function.name)
        if found is None:
            found = {}
            for stmt in ir.walk_stmts(function.body):
                for atom in ir.used_atoms(stmt):
                    if isinstance(atom, ir.Var):
                        found.setdefault(id(atom), []).append(stmt)
            self.readers[function.name] = found
        return found
