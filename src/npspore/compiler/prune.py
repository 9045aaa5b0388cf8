"""Dead outputs and inputs across calls (as JAX's ``dce_jaxpr``): a called function stops computing
what no caller reads, and reads a value passed to it twice (or returned twice) once.

A result of a called function that no call site reads is dropped from the function's results and
from every call's targets; a parameter the function no longer reads is dropped from its parameters
and from every call's arguments. Dead-code elimination then removes what computed them (an
``nn.LSTM`` whose caller keeps only the output sequence no longer stacks the final ``h`` and
``c``). The entry function's signature never changes, and a function keeps at least one result
(a call with no targets is kept for its effects). A result that only feeds the next call of the same
function, at a parameter read for nothing else, goes with that parameter (the cotangent of a layer's
input that ``jacrev``'s kernel computes at each layer and never returns).
"""
from __future__ import annotations

from . import ir


def _calls_and_reads(module: ir.Module) -> tuple:
    """``(callee name -> [(Call, the function it is in)], ids of the Vars some statement or block reads)``."""
    calls: dict = {}
    read: set = set()
    for function in module.functions.values():
        for stmt in ir.walk_stmts(function.body):
            if isinstance(stmt, ir.Call):
                calls.setdefault(stmt.callee, []).append((stmt, function))
            read.update(id(v) for v in ir.used_vars_deep(stmt))
        read.update(id(a) for block in ir.all_blocks(function.body) for a in block.results if isinstance(a, ir.Var))
    return calls, read


def prune_calls(module: ir.Module) -> bool:
    """Drop unread results and unused parameters of called functions, in place; True if any went."""
    calls, read = _calls_and_reads(module)
    changed = False
    for name, sites in calls.items():
        sites = [site for site, _ in sites]
        function = module.functions.get(name)
        if function is None or name == module.entry:
            continue
        results = function.body.results
        kept = [k for k in range(len(results)) if any(id(site.targets[k]) in read for site in sites)]
        if 0 < len(kept) < len(results):
            function.body.results = tuple(results[k] for k in kept)
            for site in sites:
                site.targets = tuple(site.targets[k] for k in kept)
            changed = True
        used = {id(v) for stmt in ir.walk_stmts(function.body) for v in ir.used_vars_deep(stmt)}
        used |= {id(a) for block in ir.all_blocks(function.body) for a in block.results if isinstance(a, ir.Var)}
        params = [k for k, p in enumerate(function.params) if id(p) in used]
        if len(params) < len(function.params):
            inputs = len(function.params) - len(function.param_names)
            function.param_names = tuple(function.param_names[k - inputs] for k in params if k >= inputs)
            function.params = tuple(function.params[k] for k in params)
            for site in sites:
                site.args = tuple(site.args[k] for k in params)
            changed = True
    return changed or _drop_self_fed_results(module, calls)


def _drop_self_fed_results(module: ir.Module, calls: dict) -> bool:
    """Drop a result of a called function that only feeds the same function's calls, at a parameter the
    function reads for nothing but that result, with the parameter (a chain of calls of one layer's
    backward passing a cotangent no one reads on to the next); True if any went.

    ``prune_calls`` keeps such a result, since a call reads it; the chain stops computing it once both go."""
    readers: dict = {}
    for function in module.functions.values():
        for stmt in ir.walk_stmts(function.body):
            for var in ir.used_vars_deep(stmt):
                readers.setdefault(id(var), []).append(stmt)
        for block in ir.all_blocks(function.body):
            for atom in block.results:
                readers.setdefault(id(atom), []).append(None)   # a block result: read for good
    for name, sites in calls.items():
        function = module.functions.get(name)
        if function is None or name == module.entry:
            continue
        sites = [site for site, _ in sites]
        inputs = len(function.params) - len(function.param_names)
        for k in range(len(function.body.results)):
            position = _fed_position(function, sites, readers, k, inputs)
            if position is None:
                continue
            function.body.results = function.body.results[:k] + function.body.results[k + 1:]
            function.params = function.params[:position] + function.params[position + 1:]
            for site in sites:
                site.targets = site.targets[:k] + site.targets[k + 1:]
                site.args = site.args[:position] + site.args[position + 1:]
            return True
    return False


def _fed_position(function: ir.Function, sites: list, readers: dict, k: int, inputs: int):
    """The parameter of ``function`` that result ``k`` of its ``sites`` only feeds (see
    :func:`_drop_self_fed_results`), or None."""
    if len(function.body.results) < 2:
        return None
    positions: set = set()
    for site in sites:
        for reader in readers.get(id(site.targets[k]), ()):
            if not (isinstance(reader, ir.Call) and reader.callee == function.name):
                return None
            positions.update(j for j, a in enumerate(reader.args) if a is site.targets[k])
    if len(positions) != 1:
        return None
    position = positions.pop()
    if position >= inputs or not isinstance(function.body.results[k], ir.Var):
        return None
    needed = {id(r) for j, r in enumerate(function.body.results) if j != k and isinstance(r, ir.Var)}
    for stmt in reversed(function.body.stmts):   # what the other results and every effect read
        if not isinstance(stmt, ir.Apply) or any(id(v) in needed for v in ir.defined_vars(stmt)):
            needed.update(id(v) for v in ir.used_vars_deep(stmt))
    return None if id(function.params[position]) in needed else position


def merge_repeated_values(module: ir.Module) -> bool:
    """Read one value once across calls, in place; True if anything changed.

    A parameter to which every call passes the same Var as to an earlier parameter reads that one
    instead (self-attention's ``query``, ``key`` and ``value``: common subexpressions then see their
    reshapes as one), and a result a function returns at two positions is read by every caller from
    its first position. :func:`prune_calls` then drops the parameter or result left unread. True only
    when a parameter or result still read was merged, so that calling it until False ends.
    """
    sites, read = _calls_and_reads(module)
    changed = False
    for name, calls in sites.items():
        function = module.functions.get(name)
        if function is None or name == module.entry:
            continue
        mapping = {}
        for j, param in enumerate(function.params):
            same = next((i for i in range(j) if function.params[i] not in mapping
                         and all(isinstance(call.args[i], ir.Var) and call.args[i] is call.args[j]
                                 for call, _ in calls)), None)
            if same is not None and function.params[same].aval == param.aval and id(param) in read:
                mapping[param] = function.params[same]
        ir.substitute(function.body, mapping)
        changed = changed or bool(mapping)
        first: dict = {}
        for k, result in enumerate(function.body.results):
            earlier = first.setdefault(id(result), k) if isinstance(result, ir.Var) else k
            for call, caller in calls if earlier != k else ():
                if id(call.targets[k]) in read:
                    ir.substitute(caller.body, {call.targets[k]: call.targets[earlier]})
                    changed = True
    return changed
