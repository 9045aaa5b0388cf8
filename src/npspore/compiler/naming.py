"""Naming: the stage between optimize and codegen that owns the names of a kernel's values.

Values come named from the specializer (the user's variable, a library's variable, the sub-cell
whose call made them: ``h``, ``lr_t``, ``fc1``) and from differentiate (``d_h``); the rest carry the
op that made them (``sub``, ``t_5``). This stage, on the optimized module, in place:

* writes a value named after its op, read once by the next statements that read it, inside the
  expression that reads it (``lr_t = learning_rate * np.sqrt(1 - beta2_power_1) / (1 - beta1_power_1)``,
  not five lines of ``sub``, ``sqrt``, ``mul_2``, ``sub_1``): ``Function.inlined``;
* writes a row written into a buffer under the buffer's name (``buf[t] = h``, no ``buf_1 = buf``);
* names the buffer of a chain of in-place updates after the first value of the chain that has a
  name of its own (``new_m = g - m; new_m *= 1 - beta1; new_m += m``, not ``sub_2 = ...``);
* names a value still named after its op after what it is made of (``sqrt_new_v``,
  ``one_minus_beta1``, ``xs_2d``, ``h_0_0`` for ``h_0[0]``), a call's residual after the callee's
  name for it, and a parameter after what every caller passes;
* coalesces the copies structured control flow would make (``h_2 = h_1`` into a loop, back again
  at its end): a loop's carried value takes the name of its initial value when that dies entering
  the loop, and the value yielded at the end of an iteration the loop variable's name when the
  loop variable is not read after it.

Codegen only renders the names it finds.
"""
from __future__ import annotations

import ast
import functools
import re

import numpy as np

from ..opdef import function_ast, op_table
from . import ir
from .builder import NameSupply

_NUMBERED = re.compile(r"(?:_\d+)+$")


def name_values(module: ir.Module) -> ir.Module:
    """Name every function's values (see the module docstring); returns the module, changed in place."""
    for function in module.functions.values():
        _rows_under_their_buffer(function)
        rename = _renamer(function)
        _name_in_place_chains(function, rename)
        roots = _buffer_roots(function)
        _coalesce_loop_copies(function.body, roots, rename, _read_counts(function))
        _coalesce_branch_results(function, roots, rename)
        function.inlined = frozenset(_inlined_values(function))
    for function in module.functions.values():
        _rename(function, _derived_names(function), module)
    for function in module.functions.values():
        _rename(function, _call_result_names(function, module), module)
    for function in module.functions.values():
        _rename(function, _parameter_names(function, module), module)
    return module


def op_named(name: str) -> bool:
    """Whether ``name`` only says which op made its value (``add``, ``transpose_1``, ``t_5``)."""
    base = _NUMBERED.sub("", name)
    return base == "t" or base in op_table()


# ---------------------------------------------------------------- in-place chains


def _renamer(function: ir.Function):
    """``rename(old, new)``: every Var of ``function`` named ``old`` is named ``new`` (Vars coalesced
    under one name stay together; a ``new`` another Var has joins them)."""
    variables = list(_variables(function))

    def rename(old: str, new: str) -> None:
        for var in variables:
            if var.name == old:
                var.name = new
    return rename


def _name_in_place_chains(function: ir.Function, rename) -> None:
    """The buffer a chain of in-place updates writes into takes the first name of its own in the chain."""
    root: dict = {}      # id(Var) -> the Var whose buffer it lives in
    chains: dict = {}    # id(root Var) -> the Vars written into its buffer, in order
    for stmt in ir.walk_stmts(function.body):
        if not (isinstance(stmt, ir.Apply) and stmt.into is not None):
            continue
        if not any(a is stmt.into for a in stmt.args):
            continue   # a dead buffer lent to an unrelated value: its name stays its first value's
        buffer = root.get(id(stmt.into), stmt.into)
        root[id(stmt.targets[0])] = buffer
        chains.setdefault(id(buffer), [buffer]).append(stmt.targets[0])
    for members in chains.values():
        buffer = members[0]
        if op_named(buffer.name):
            named = next((v for v in members[1:] if not op_named(v.name)), None)
            if named is not None:
                held, made = named.name, buffer.name
                rename(held, "\0")   # a name no Var has, while the two trade
                rename(made, held)
                rename("\0", made)


# ---------------------------------------------------------------- loop copies


# ops returning their first operand, written
_WRITE_THEIR_BUFFER = {"row_set_in_place", "row_add_in_place", "scatter_last_add_in_place", "setitem_in_place"}


def _rows_under_their_buffer(function: ir.Function) -> None:
    """A row written into a buffer the loop owns (``buf[t] = h``) is the buffer, under its name (which
    is then released with the buffer's last value, not after this write)."""
    buffers = set()
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Apply) and stmt.op in _WRITE_THEIR_BUFFER and isinstance(stmt.args[0], ir.Var):
            stmt.into = stmt.args[0]
            buffers.add(id(stmt.into))
    for block in ir.all_blocks(function.body):
        for stmt in block.stmts:
            if _is_release(stmt):
                stmt.args = tuple(a for a in stmt.args if id(a) not in buffers)
        block.stmts = [s for s in block.stmts if not (_is_release(s) and not s.args)]


def _buffer_roots(function: ir.Function) -> dict:
    """id(Var) -> the Var under whose name codegen writes it (the buffer an update in place writes into)."""
    roots: dict = {}
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Apply) and stmt.into is not None:
            roots[id(stmt.targets[0])] = roots.get(id(stmt.into), stmt.into)
    return roots


def _read_counts(function: ir.Function) -> dict:
    """id(Var) -> how many statements and block results of the function read it (releases aside)."""
    reads = ir.use_counts(function)
    for stmt in ir.walk_stmts(function.body):
        if _is_release(stmt):
            for var in stmt.args:
                reads[id(var)] -= 1
    return reads


def _coalesce_loop_copies(block: ir.Block, roots: dict, rename, reads: dict) -> None:
    read_as = {id(output): param for loop in ir.walk_stmts(block) if isinstance(loop, (ir.ForRange, ir.While))
               for output, param in zip(loop.outputs, loop.body_params)}
    _coalesce_in_block(block, roots, rename, reads, read_as, None)


def _coalesce_in_block(block: ir.Block, roots: dict, rename, reads: dict, read_as: dict, looped) -> None:
    """``looped``: the ids of the Vars the innermost loop around ``block`` makes (None outside loops)."""
    for position, stmt in enumerate(block.stmts):
        inner_looped = _made_by_loop(stmt) if isinstance(stmt, (ir.ForRange, ir.While)) else looped
        for inner in ir.nested_blocks(stmt):
            _coalesce_in_block(inner, roots, rename, reads, read_as, inner_looped)
        if isinstance(stmt, (ir.ForRange, ir.While)):
            _coalesce_entry(block, position, stmt, roots, rename, reads, looped)
            _coalesce_back_edge(stmt, roots, rename, read_as)


def _made_by_loop(loop) -> set:
    """The ids of the Vars a loop's blocks bind, its loop variables and index included."""
    made = {id(v) for inner in ir.nested_blocks(loop) for s in ir.walk_stmts(inner) for v in ir.defined_vars(s)}
    made |= {id(v) for v in loop.body_params}
    return made | ({id(loop.index)} if isinstance(loop, ir.ForRange) else set())


def _rendered_name(var: ir.Var, roots: dict, read_as: dict) -> str:
    """The name codegen writes ``var`` under: its buffer's (an update in place), or for a loop's output its loop
    variable's (``Renderer.keep_loop_names``)."""
    var = read_as.get(id(var), var)
    return roots.get(id(var), var).name


def _coalesce_entry(block: ir.Block, position: int, loop, roots: dict, rename, reads: dict, looped) -> None:
    """A loop variable takes its initial value's name when nothing but the loop's entry reads that
    value (or what is written under its name) anywhere in the function, and the entry runs once for
    each time the value is made: a value made outside an enclosing loop (``looped``) is read again by
    that loop's next iteration."""
    later = block.stmts[position + 1:]
    for initial, param in zip(loop.carried, loop.body_params):
        if not isinstance(initial, ir.Var) or sum(a is initial for a in loop.carried) != 1:
            continue
        named = roots.get(id(initial), initial)
        if looped is not None and (id(named) not in looped or id(initial) not in looped):
            continue
        same_name = {id(named)} | {i for i, root in roots.items() if root is named}
        before = {id(v) for s in block.stmts[:position] for v in ir.defined_vars(s)}
        if not same_name <= before | {id(named)} or any(reads.get(i, 0) != 1 for i in same_name):
            continue   # each value under the name read once: by the next write into it, the last by the loop
        if op_named(named.name) and not op_named(param.name):
            rename(named.name, param.name)   # the initial value is named after what the loop makes of it
        else:
            rename(param.name, named.name)
        for s in later:
            if _is_release(s):   # the name now holds the loop's value
                s.args = tuple(a for a in s.args if id(a) not in same_name)
    block.stmts = [s for s in block.stmts if not (_is_release(s) and not s.args)]


def _coalesce_back_edge(loop, roots: dict, rename, read_as: dict) -> None:
    """The value yielded at an iteration's end (or the buffer it is written into) takes the loop
    variable's name when nothing written under that name (the variable, an update of it in place, an
    inner loop's output read under the variable's name) is read after it is computed."""
    body = loop.body
    defined_at = {id(v): k for k, s in enumerate(body.stmts) for v in ir.defined_vars(s)}
    for param, result in zip(loop.body_params, body.results):
        if not isinstance(result, ir.Var) or sum(r is result for r in body.results) != 1:
            continue
        named = roots.get(id(result), result)   # the Var whose name the result is written under
        k = defined_at.get(id(named))
        if k is None or named is param:
            continue
        taken = param.name
        if any(_rendered_name(v, roots, read_as) == taken for s in body.stmts[k + 1:] for v in ir.used_vars_deep(s)) \
                or any(isinstance(r, ir.Var) and r is not result and _rendered_name(r, roots, read_as) == taken
                       for r in body.results):
            continue
        rename(named.name, taken)


def _coalesce_branch_results(function: ir.Function, roots: dict, rename) -> None:
    """A value a tensor ``if``'s branch makes and hands out takes the name of the ``if``'s output (``h = x + x``
    in the branch, not ``h_3 = x + x; h = h_3``), when the output's name is its own (no other Var, say a loop
    variable the branch may still read, bears it) and no Var outside that branch bears the value's.

    Who bears which name is taken once and kept up to date by each rename, not walked for every ``if`` and
    output: a loop unrolled into nested ``if``s has as many ``if``s as values, and those walks made naming
    quadratic."""
    variables = {id(v): v for v in _variables(function)}   # only names change below, never which Vars there are
    bearers: dict = {}   # name -> the ids of the Vars bearing it
    for var in variables.values():
        bearers.setdefault(var.name, set()).add(id(var))
    for stmt in ir.walk_stmts(function.body):
        if not isinstance(stmt, ir.If):
            continue
        own = [bearers.get(output.name, set()) <= {id(output)} for output in stmt.outputs]
        for branch in (stmt.then_block, stmt.else_block):
            inside = {id(v) for s in ir.walk_stmts(branch) for v in ir.defined_vars(s)}
            for output, result, unique in zip(stmt.outputs, branch.results, own):
                named = roots.get(id(result), result) if isinstance(result, ir.Var) else None
                if not unique or named is None or id(named) not in inside:
                    continue
                if sum(r is result for r in branch.results) != 1:
                    continue
                if not bearers[named.name] <= inside:
                    continue
                taken = named.name
                rename(taken, output.name)
                moved = {i for i in bearers[taken] if variables[i].name != taken}
                bearers[taken] -= moved
                bearers.setdefault(output.name, set()).update(moved)


def _is_release(stmt) -> bool:
    return isinstance(stmt, ir.Effect) and stmt.kind == "release"


# ---------------------------------------------------------------- values inside expressions


def _inlined_values(function: ir.Function):
    """The op-named values that are read once, by a later statement of their block that reads its
    operand once, with only pure statements between (nothing can change what they read meanwhile)."""
    reads = _read_counts(function)
    buffers = {id(stmt.into) for stmt in ir.walk_stmts(function.body)
               if isinstance(stmt, ir.Apply) and stmt.into is not None}
    for block in ir.all_blocks(function.body):
        yield from _inlined_in_block(block, reads, buffers)


def _inlined_in_block(block: ir.Block, reads: dict, buffers: set):
    table = op_table()
    sources: dict = {}   # id(inlined Var) -> (id, name) of the Vars its expression reads, through other inlined ones
    for k, stmt in enumerate(block.stmts):
        if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and stmt.into is None
                and not stmt.workspace) or ir.returns_tuple(stmt):   # a workspace result is written out=, not inlined
            continue   # (a one-result op returning a tuple is unpacked: ``row, = np.split(...)``)
        value = stmt.targets[0]
        if (not op_named(value.name) or reads.get(id(value)) != 1 or id(value) in buffers
                or table[stmt.op].has_effects or not _one_expression(table[stmt.op].forward)):
            continue
        operands = set()
        for var in ir.used_vars_deep(stmt):
            operands |= sources.get(id(var), {(id(var), var.name)})
        ids, names = {i for i, _ in operands}, {n for _, n in operands}
        for reader in block.stmts[k + 1:]:
            if any(a is value for a in ir.used_atoms(reader)):
                if _reads_once(reader, value, table):
                    sources[id(value)] = operands
                    yield value
                break
            if _is_release(reader) and not ids.intersection(map(id, reader.args)):
                continue
            if not (isinstance(reader, ir.Apply) and reader.into is None and not reader.workspace
                    and not table[reader.op].has_effects):
                break
            if any(v.name in names for v in reader.targets):
                break   # a name it reads (coalesced with a later value) is bound again


def _reads_once(reader, value: ir.Var, table) -> bool:
    """Whether ``reader`` (an op or a call) evaluates its operand ``value`` exactly once."""
    if isinstance(reader, ir.Call):   # rt.split_rows(f, (sliced...), (whole...)): names, not expressions
        return not reader.split_rows and sum(a is value for a in reader.args) == 1
    if not isinstance(reader, ir.Apply) or sum(a is value for a in reader.args) != 1:
        return False
    definition = table[reader.op]
    position = next(i for i, a in enumerate(reader.args) if a is value)
    if position >= len(definition.operands):
        return False
    return _reads_parameter_once(definition.forward, definition.operands[position])


@functools.lru_cache(maxsize=None)
def _one_expression(forward) -> bool:
    """Whether an op's lowering is one ``return`` of an expression (no locals, no nested op calls)."""
    body = [s for s in function_ast(forward).body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return (len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None
            and not any(isinstance(n, ast.Name) and n.id == "call" for n in ast.walk(body[0])))


@functools.lru_cache(maxsize=None)
def _reads_parameter_once(forward, parameter: str) -> bool:
    """Whether an op's lowering reads ``parameter`` at one place, outside any loop."""
    tree = function_ast(forward)
    loads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == parameter]
    in_loops = [n for loop in ast.walk(tree) if isinstance(loop, (ast.For, ast.While, ast.comprehension))
                for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == parameter]
    return len(loads) == 1 and not in_loops


# ---------------------------------------------------------------- names made of what a value is made of

_BINARY_WORDS = {"add": "plus", "sub": "minus", "mul": "times", "div": "over", "matmul": "at", "pow": "pow",
                 "matmul_split": "at", "matmul_start": "at"}
_UNARY_SUFFIXES = {"transpose": "t", "swapaxes": "t", "expand_dims": "col", "squeeze": "sq", "cast": "cast"}
_LONGEST = 32


def _derived_names(function: ir.Function) -> dict:
    """old name -> new name of the op-named values the function's statements compute."""
    names: dict = {}
    for stmt in ir.walk_stmts(function.body):
        if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1) or stmt.targets[0] in function.inlined:
            continue
        target = stmt.targets[0]
        if not op_named(target.name) or target.name in names:
            continue
        hint = _made_of(stmt, names)
        if hint is not None and len(hint) <= _LONGEST:
            names[target.name] = hint
    return names


def _made_of(stmt: ir.Apply, names: dict):
    """A name for ``stmt``'s result after its op and its operands' names, or None."""
    words = [_operand_word(a, names) for a in stmt.args]
    if stmt.op == "matmul" and _row_of_ones(stmt.args[0]) and words[1] is not None:
        return f"sum_{words[1]}"   # the sum over rows that columnsums.py writes as a product
    if stmt.op in _BINARY_WORDS and len(words) == 2 and None not in words:
        return f"{words[0]}_{_BINARY_WORDS[stmt.op]}_{words[1]}"
    first = words[0] if words else None
    if first is None or not isinstance(stmt.args[0], ir.Var):
        return None
    if stmt.op == "reshape":
        return f"{first}_{len(stmt.targets[0].aval.shape)}d"
    index = stmt.static.get("index")
    if stmt.op in ("getitem", "row") and type(index) is int and index >= 0:
        return f"{first}_{index}"
    if stmt.op in _UNARY_SUFFIXES:
        return f"{first}_{_UNARY_SUFFIXES[stmt.op]}"
    if stmt.op == "copy" and stmt.static.get("transpose"):
        return f"{first}_t"
    if all(isinstance(a, ir.Const) for a in stmt.args[1:]) and stmt.op not in ("getitem", "reshape"):
        return f"{stmt.op}_{first}"
    return None


def _row_of_ones(atom) -> bool:
    return (isinstance(atom, ir.Const) and isinstance(atom.value, np.ndarray) and atom.value.ndim == 1
            and bool((atom.value == 1).all()))


def _operand_word(atom, names: dict):
    """How an operand reads inside a name: its name (unless op-named), or a small number."""
    if isinstance(atom, ir.Var):
        name = names.get(atom.name, atom.name)
        return None if op_named(name) else name
    value = atom.value
    if type(value) in (int, float) and value in (0, 1, 2):
        return ("zero", "one", "two")[int(value)]
    return None


def _call_result_names(function: ir.Function, module: ir.Module) -> dict:
    """old name -> the callee's name for it, of the op-named results of calls."""
    names: dict = {}
    for stmt in ir.walk_stmts(function.body):
        callee = module.functions.get(stmt.callee) if isinstance(stmt, ir.Call) else None
        if callee is None:
            continue
        for target, result in zip(stmt.targets, callee.body.results):
            if op_named(target.name) and isinstance(result, ir.Var) and not op_named(result.name):
                names.setdefault(target.name, result.name)
    return names


def _parameter_names(function: ir.Function, module: ir.Module) -> dict:
    """old name -> the one name every caller's argument has, of the function's op-named parameters."""
    sites = [stmt for caller in module.functions.values() for stmt in ir.walk_stmts(caller.body)
             if isinstance(stmt, ir.Call) and stmt.callee == function.name]
    names: dict = {}
    for position, param in enumerate(function.params):
        if not op_named(param.name) or not sites:
            continue
        passed = {site.args[position].name if isinstance(site.args[position], ir.Var) else "" for site in sites}
        name = passed.pop() if len(passed) == 1 else ""
        if name and not op_named(name):
            names[param.name] = name
    return names


def _rename(function: ir.Function, names: dict, module: ir.Module) -> None:
    """Give every Var of ``function`` named ``old`` the name ``names[old]`` (made unique in the function)."""
    if not names:
        return
    variables = list(_variables(function))
    supply = NameSupply({v.name for v in variables} | set(module.functions))
    fresh = {old: supply.fresh(new) for old, new in names.items()}
    for var in variables:
        if var.name in fresh:
            var.name = fresh[var.name]


def _variables(function: ir.Function):
    yield from function.params
    for stmt in ir.walk_stmts(function.body):
        yield from ir.defined_vars(stmt)
        yield from getattr(stmt, "body_params", ())
        if isinstance(stmt, ir.ForRange):
            yield stmt.index
        if isinstance(stmt, (ir.Apply, ir.Call, ir.Effect)):
            yield from (a for a in stmt.args if isinstance(a, ir.Var))
