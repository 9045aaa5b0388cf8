"""Dead outputs and inputs across calls (as JAX's ``dce_jaxpr``): a called function stops computing
what no caller reads, and reads a value passed to it twice (or returned twice) once.

A result of a called function that no call site reads is dropped from the function's results and
from every call's targets; a parameter the function no longer reads is dropped from its parameters
and from every call's arguments. Dead-code elimination then removes what computed them (an
``nn.LSTM`` whose caller keeps only the output sequence no longer stacks the final ``h`` and
``c``). The entry function's signature never changes, and a function keeps at least one result
(a call with no targets is kept for its effects).
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
    return changed



def merge_repeated_values(module: ir.Module) -> bool:
    """Read one value once across calls, in place; True if anything changed.

    A parameter to which every call passes the same Var as to an earlier parameter reads that one
    instead (self-attention's ``query``, ``key`` and ``value``: common subexpressions then see their
    reshapes as one), and a result a function returns at two positions is read by every caller from
    its first position. :func:`prune_calls` then drops the parameter or result left unread.
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
            if same is not None and function.params[same].aval == param.aval:
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
