"""The typed normal form: what specialize produces and differentiate, optimize and codegen consume.

A :class:`Module` holds one :class:`Function` per (callable, input signature). A function body is a
:class:`Block`: a list of statements in A-normal form, every value a :class:`Var` with a known
:class:`~npspore.opdef.Aval` (tensors) or a :class:`Const` (a Python/NumPy value known at compile
time). Each variable is assigned exactly once (SSA); control flow is *structured*, in the manner of
MLIR's ``scf`` dialect:

* :class:`If` runs one of two blocks; each block ends by yielding values, and the yielded values
  become the ``outputs`` of the ``If`` (this replaces phi nodes);
* :class:`ForRange` runs its body for ``index`` in ``range(start, stop, step)``; ``carried`` values
  enter as ``body_params`` and the body yields their next values; after the loop they are ``outputs``;
* :class:`While` is the same with a ``cond`` block, evaluated before each iteration, yielding a bool.

Variable names come from the user's source (``h``, ``h_1``...); the differentiator names adjoints
``d_<name>``. Every statement carries the :class:`Loc` of the user's source it came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from ..core.apply import apply_op
from ..core.matmul_split import matmul_wait
from ..opdef import Aval, op_table
from .library import GuardFailed, host_call, same_array, same_value


@dataclass(frozen=True)
class Loc:
    """A position in the user's source: file, 1-based line, 0-based column and end column."""

    file: str
    line: int
    col: int = 0
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def __deepcopy__(self, memo) -> "Loc":
        return self  # immutable: copies of a module share their positions



class Var:
    """An SSA value. Identity is the object; ``name`` is unique within its function.

    The name is settable: the specializer first names a value after its op and renames it when the
    user's code binds it to a variable (``h = relu(x @ w)`` names the relu result ``h``).
    """

    __slots__ = ("name", "aval")

    def __init__(self, name: str, aval: Aval):
        self.name = name
        self.aval = aval

    def __repr__(self) -> str:
        return f"{self.name}:{self.aval}"


@dataclass(frozen=True)
class Const:
    """A value known at compile time (Python scalar, None, string, tuple, NumPy array)."""

    value: object

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


Atom = Union[Var, Const]


def placeholder(aval) -> Const:
    """A constant standing for a value of type ``aval`` that is never read: a zero of its dtype.

    Not None where the type is numeric: a branch that does not make a residual yields this, and a
    counted loop keeps residuals as rows of typed arrays (an int row cannot hold None; a scalar zero
    fills a row of any shape).
    """
    dtype = getattr(aval, "dtype", None)
    if dtype is None or dtype.kind not in "biufc":
        return Const(None)
    return Const(np.zeros((), dtype).item())


@dataclass
class Apply:
    """``targets = op(*args, **static)`` for an op of the op table."""

    targets: tuple            # tuple[Var, ...]: one per op output
    op: str                   # canonical op name (opdef.OpDef.name)
    args: tuple               # tuple[Atom, ...]: the positional operands
    static: dict              # keyword-only static attributes
    loc: Loc
    into: Var | None = None   # optimize: the result is written into this Var's buffer (an operand that dies
                              # here, or an earlier value of the same aval already dead), under its name
    workspace: bool = False   # optimize: the result is a temporary of its function, written into a buffer of
                              # the function's workspace (made once, reused by every call)
    workspace_order: tuple | None = None   # optimize: that buffer is ``base.transpose(order)`` of a C-contiguous
                                           # base (laid out as the transposed operands), None: C order
    operand_cast: np.dtype | None = None   # optimize (numpycasts): the dtype compiled NumPy code casts the
                                           # operands to, where NumPy would not promote them to it by itself
    result_cast: np.dtype | None = None    # optimize (numpycasts): the inferred dtype, where NumPy's own result
                                           # dtype differs from it (NumPy 1.26's value-based promotion)


@dataclass
class CustomBackward:
    """How a call of a cell is differentiated when the cell says so (see ``differentiate``).

    ``bprop``: the function that computes the cotangents of the cell's inputs instead of the
    derivative of its construct (the cell's ``bprop(*inputs, out, dout)``), called with the atoms
    ``bprop_args`` describes: ``("arg", j)`` the call's argument j, ``("target", i)`` its result i,
    ``("dout", i)`` the cotangent of result i, ``("const", value)``, ``("var", Var)`` a value of the
    caller (a Parameter the bprop reads). Its result k is the cotangent of the call's argument
    ``inputs[k]`` (None: the bprop's result k goes nowhere).
    ``pre_hook``/``hook``: keys of host functions (``Library.host_call``) that the backward sweep
    calls on the results' cotangents before, and on the inputs' cotangents after, the cell's own
    backward (PYNATIVE backward hooks).
    ``recompute``: the backward of the call runs the callee's forward again instead of receiving
    its intermediate values from the forward sweep (``Cell.recompute()``, gradient checkpointing).
    ``python_bprop``: key of a host function that runs the cell's ``bprop`` in the Python
    interpreter (``bprop_debug = True``) on the tensor inputs, the results and their cotangents,
    instead of ``bprop``. ``recompute_output`` (``Primitive.recompute()``): the callee's results are
    computed again wherever the caller's backward reads them (``compiler.recompute``).
    """

    bprop: str | None = None
    python_bprop: str | None = None
    bprop_args: tuple = ()
    inputs: tuple = ()
    pre_hook: str | None = None
    hook: str | None = None
    recompute: bool = False
    recompute_output: bool = False


@dataclass
class Call:
    """``targets = callee(*args)``, a call to another :class:`Function` of the same module.

    ``custom``: a :class:`CustomBackward` when the callee is a cell with a ``bprop`` or backward hooks.
    ``split_rows``: optimize (``splitregions.py``): the callee is a run of elementwise statements called on
    blocks of rows of the first ``split_rows`` args (the others whole), ``rt.split_rows`` in the kernel;
    ``buffers``: the workspace statements moved into it, whose buffers (args) the caller takes.
    """

    targets: tuple
    callee: str
    args: tuple
    loc: Loc
    custom: CustomBackward | None = None
    split_rows: int = 0
    buffers: tuple = ()


@dataclass(frozen=True)
class HostOp:
    """What a ``host`` effect computes in Python when the kernel runs (``compiler.fallback``):
    ``kind`` ``call`` (``target(*args)``, a builtin, NumPy or runtime function), ``method``
    (``args[0].target(*args[1:])``), ``attr`` (``args[0].target``), ``operator`` (``target`` one of
    ``operator``'s functions), ``pack`` (``target`` tuple or list, of the arguments) or
    ``registered`` (``Library.host_call(target, *args)``: a function only this process names); the last ``len(keywords)`` arguments are passed by
    those names."""

    kind: str
    target: object
    keywords: tuple = ()

    def __call__(self, *values):
        positional = values[:len(values) - len(self.keywords)]
        keywords = dict(zip(self.keywords, values[len(positional):]))
        if self.kind == "method":
            return getattr(positional[0], self.target)(*positional[1:], **keywords)
        if self.kind == "attr":
            return getattr(positional[0], self.target)
        if self.kind == "pack":
            return self.target(positional)
        if self.kind == "registered":
            return host_call(self.target, *positional)[0]
        return self.target(*positional, **keywords)


@dataclass
class Effect:
    """A side effect that runs at call time: ``kind`` is ``'print'``, ``'print_tree'``, ``'print_each'``,
    ``'assign'``, ``'release'``, ``'wait'``, ``'state'`` or ``'host_call'``.

    ``print``: args are printed as Python's print would print them (Tensors wrapped back).
    ``print_each``: each arg on its own line, a Tensor as its ``repr`` (``ops.Print``).
    ``assign``: ``args = (param_var, value)``; writes ``value`` into the Parameter's array in place
    (``ops.assign``/``assign_add``/``assign_sub`` are lowered to this with the arithmetic done first).
    ``print_tree``: ``args = (Const(template), *values)``, printed as ``print(*template)`` with each
    ``...`` of the template (a tuple of the printed values) replaced by the next value.
    ``host_call``: ``targets = Library.host_call(key, *values)`` with ``args = (Const(key), *values)``:
    a call out of the kernel into Python (a backward hook), whose results replace the values.
    ``host``: ``targets = (op(*values),)`` with ``args = (Const(op), *values)``, ``op`` a
    :class:`HostOp`: Python run on values read from tensors (JIT fallback), no derivative.
    ``guard``: a value guard (``compiler.guards.value_guard``): ``args = (value, Const(kind), Const(expected),
    Const(index), *restores)``; ``restores`` pairs a Parameter written before the guard with its copy taken
    before that, written back when the guard fails (``compiler.guardeffect``).
    ``state``: ``args = (Const(slot), value)``: the Cell attribute ``slot`` of the kernel is set to
    ``value`` after the call (``core.statewrites``); no derivative.
    ``wait``: ``args = (result,)``: wait for the product ``matmul_start`` computes into ``result``
    (``compiler.deferproducts``).
    """

    kind: str
    args: tuple
    loc: Loc
    targets: tuple = ()


@dataclass
class Block:
    """A list of statements and the atoms it yields (the results of an If branch, loop body...)."""

    stmts: list = field(default_factory=list)
    results: tuple = ()


@dataclass
class If:
    cond: Atom                 # a bool scalar Var (a tensor-dependent condition)
    then_block: Block
    else_block: Block
    outputs: tuple             # tuple[Var]; len == len(then_block.results) == len(else_block.results)
    loc: Loc


@dataclass
class ForRange:
    index: Var                 # int64 scalar, bound each iteration
    start: Atom
    stop: Atom
    step: Atom
    carried: tuple             # initial values (Atoms)
    body_params: tuple         # Vars bound to the carried values at the start of each iteration
    body: Block                # body.results: the next carried values
    outputs: tuple             # Vars: the carried values after the loop
    loc: Loc


@dataclass
class While:
    carried: tuple
    body_params: tuple         # bound in both cond and body
    cond: Block                # cond.results == (bool Var,)
    body: Block
    outputs: tuple
    loc: Loc


@dataclass
class TapeNew:
    """``target = []``: a new, empty tape (the differentiator's per-loop residual stack)."""

    target: Var
    loc: Loc


@dataclass
class TapePush:
    """``tape.append((values...))``: save one loop iteration's residuals in the forward sweep."""

    tape: Var
    values: tuple
    loc: Loc


@dataclass
class TapePop:
    """``targets... = tape.pop()``: restore the latest pushed residuals in the backward sweep."""

    targets: tuple
    tape: Var
    loc: Loc


Stmt = Union[Apply, Call, Effect, If, ForRange, While, TapeNew, TapePush, TapePop]


@dataclass
class Function:
    """One compiled function: flat array inputs to flat results.

    ``params`` are the flattened tensor inputs followed by the Parameter arrays the function reads
    (``param_names[i]`` is the Cell path/name of ``params[n_inputs + i]``, for the wrapper and header).
    ``results`` are the flattened outputs; the wrapper rebuilds the user's structure from
    ``output_tree`` (see ``compiler.signature``).
    """

    name: str
    params: tuple
    body: Block
    source: str = ""           # qualified name of the user's callable, for the module header
    loc: Loc | None = None
    param_names: tuple = ()    # names of the Parameter inputs, in order
    output_tree: Any = None
    inlined: frozenset = frozenset()   # naming: Vars written inside the one expression that reads them
    results_in_workspace: bool = False  # optimize: a result lives in the kernel call's workspace (workspace.py)
    donated: frozenset = frozenset()   # optimize: indices of the params whose buffer every caller hands over
                                       # (it reads them there for the last time: donation.py)
    owned_results: frozenset = frozenset()   # optimize: positions of the results it makes and hands over whole,
                                             # sharing their memory with nothing else (donation.py)


@dataclass
class Module:
    """Everything one compile produces: functions by name, and which one is the entry point."""

    functions: dict
    entry: str
    header: dict = field(default_factory=dict)   # callable, source file, signature, key, version


def walk_stmts(block: Block):
    """Every statement in a block and its nested blocks, in program order."""
    for stmt in block.stmts:
        yield stmt
        for inner in nested_blocks(stmt):
            yield from walk_stmts(inner)


def nested_blocks(stmt) -> tuple:
    """The blocks directly nested in a statement."""
    if isinstance(stmt, If):
        return (stmt.then_block, stmt.else_block)
    if isinstance(stmt, ForRange):
        return (stmt.body,)
    if isinstance(stmt, While):
        return (stmt.cond, stmt.body)
    return ()


def defined_vars(stmt) -> tuple:
    """The Vars a statement binds in its enclosing block."""
    if isinstance(stmt, (Apply, Call, Effect)):
        return stmt.targets
    if isinstance(stmt, (If, ForRange, While)):
        return stmt.outputs
    if isinstance(stmt, TapeNew):
        return (stmt.target,)
    if isinstance(stmt, TapePop):
        return stmt.targets
    return ()


def replace_uses(stmt, mapping: dict) -> None:
    """Replace the Vars a statement reads from its enclosing scope by ``mapping[var]``, in place
    (nested blocks are not visited: see :func:`substitute`)."""
    def sub(atom):
        return mapping.get(atom, atom) if isinstance(atom, Var) else atom

    if isinstance(stmt, (Apply, Call, Effect)):
        stmt.args = tuple(map(sub, stmt.args))
        if isinstance(stmt, Call) and stmt.custom is not None:
            stmt.custom.bprop_args = tuple((kind, sub(item)) for kind, item in stmt.custom.bprop_args)
    elif isinstance(stmt, If):
        stmt.cond = sub(stmt.cond)
    elif isinstance(stmt, ForRange):
        stmt.start, stmt.stop, stmt.step = sub(stmt.start), sub(stmt.stop), sub(stmt.step)
        stmt.carried = tuple(map(sub, stmt.carried))
    elif isinstance(stmt, While):
        stmt.carried = tuple(map(sub, stmt.carried))
    elif isinstance(stmt, TapePush):
        stmt.tape, stmt.values = sub(stmt.tape), tuple(map(sub, stmt.values))
    elif isinstance(stmt, TapePop):
        stmt.tape = sub(stmt.tape)


def substitute(block: Block, mapping: dict) -> None:
    """Replace Vars by other atoms everywhere in a block, nested blocks and results included, in place."""
    if not mapping:
        return
    for stmt in block.stmts:
        replace_uses(stmt, mapping)
        for inner in nested_blocks(stmt):
            substitute(inner, mapping)
    block.results = tuple(mapping.get(a, a) if isinstance(a, Var) else a for a in block.results)


def reachable_functions(functions: dict, entry: str) -> dict:
    """The functions ``entry`` calls, directly or not (entry first, then in order of discovery)."""
    order = [entry]
    seen = {entry}
    for name in order:
        for stmt in walk_stmts(functions[name].body):
            if not isinstance(stmt, Call):
                continue
            for callee in (stmt.callee, stmt.custom.bprop if stmt.custom is not None else None):
                if callee is not None and callee not in seen:
                    seen.add(callee)
                    order.append(callee)
    return {name: functions[name] for name in order}


def used_vars_deep(stmt):
    """Every Var a statement reads, including inside its nested blocks."""
    for atom in used_atoms(stmt):
        if isinstance(atom, Var):
            yield atom
    for block in nested_blocks(stmt):
        for inner in block.stmts:
            yield from used_vars_deep(inner)
        for atom in block.results:
            if isinstance(atom, Var):
                yield atom


def used_atoms(stmt) -> tuple:
    """The atoms a statement reads from its enclosing scope (not counting nested blocks' own uses)."""
    if isinstance(stmt, (Apply, Call, Effect)):
        return stmt.args
    if isinstance(stmt, If):
        return (stmt.cond,)
    if isinstance(stmt, ForRange):
        return (stmt.start, stmt.stop, stmt.step, *stmt.carried)
    if isinstance(stmt, While):
        return stmt.carried
    if isinstance(stmt, TapePush):
        return (stmt.tape, *stmt.values)
    if isinstance(stmt, TapePop):
        return (stmt.tape,)
    return ()


# ----------------------------------------------------------------------------------- evaluation


def evaluate(module: Module, *args) -> tuple:
    """Run a module's entry function on NumPy arrays (one per param); returns its results as a tuple.

    Each op runs its lowering through ``core.apply.apply_op``, with the casts compiled code makes;
    tapes are Python lists; ``assign`` effects are not performed (the arrays passed in are never written). The reference semantics of the IR, for tests of one stage at a time
    (``differentiate``, ``optimize``) without codegen.
    """
    return _evaluate_function(module, module.entry, list(args))


def _evaluate_function(module: Module, name: str, args: list, assigns: bool = False) -> tuple:
    function = module.functions[name]
    if len(function.params) != len(args):
        raise TypeError(f"{name} takes {len(function.params)} arrays, got {len(args)}")
    env = dict(zip(function.params, args))
    evaluate_block(function.body, env, module, assigns)
    return tuple(_read(env, r) for r in function.body.results)


def _read(env: dict, atom):
    return env[atom] if isinstance(atom, Var) else atom.value


def _bind(env: dict, targets, values) -> None:
    if len(targets) != len(values):
        raise ValueError(f"{len(values)} values for {len(targets)} targets")
    env.update(zip(targets, values))


def aval_or_value(atom):
    """What an op's infer rule receives for an operand: the Aval of a Var, the value of a Const."""
    return atom.aval if isinstance(atom, Var) else atom.value


def returns_tuple(stmt: Apply) -> bool:
    """Whether ``stmt``'s op returns a tuple: several targets, or one from a multi-output op (a split
    into a single part)."""
    if len(stmt.targets) > 1:
        return True
    inferred = op_table()[stmt.op].infer(*(aval_or_value(a) for a in stmt.args), **stmt.static)
    return isinstance(inferred, tuple)


def _check_guard(value, kind: str, expected, index: int) -> None:
    """A ``guard`` effect (``compiler.guards.value_guard``): raise GuardFailed when ``value`` read as
    ``kind`` is not ``expected``."""
    array = np.asarray(value)
    if kind == "truth":
        holds = bool(array) == expected
    elif kind == "item":
        holds = array.item() == expected or (expected != expected and array.item() != array.item())
    elif kind == "value":
        holds = same_value(value, expected)
    elif kind == "type":
        holds = type(value).__name__ == expected
    elif kind == "aval":
        holds = (array.shape, array.dtype.str) == expected
    else:
        holds = same_array(array, expected)
    if not holds:
        raise GuardFailed(index, value)


def evaluate_block(block: Block, env: dict, module: Module | None = None, assigns: bool = False) -> None:
    """Run ``block``'s statements, reading and binding values in ``env`` (Var -> value); ``module``
    holds the functions that ``Call`` statements name; ``assigns``: ``assign`` effects write into the arrays
    of ``env`` (copies of the Parameters, made by the caller), else they are not performed."""
    for stmt in block.stmts:
        if isinstance(stmt, Apply):
            definition = op_table()[stmt.op]
            dtypes = tuple(t.aval.dtype for t in stmt.targets)
            multi = returns_tuple(stmt)
            result = apply_op(definition, [_read(env, a) for a in stmt.args], stmt.static,
                              dtypes if multi else dtypes[0])
            _bind(env, stmt.targets, result if multi else (result,))
        elif isinstance(stmt, Call):
            if module is None:
                raise ValueError(f"evaluating a call of {stmt.callee} needs the module that holds it")
            _bind(env, stmt.targets, _evaluate_function(module, stmt.callee, [_read(env, a) for a in stmt.args],
                                                          assigns))
        elif isinstance(stmt, Effect):
            if stmt.kind == "print":
                print(*(_read(env, a) for a in stmt.args))
            elif stmt.kind == "print_each":
                for value in (_read(env, a) for a in stmt.args):
                    print(repr(value) if isinstance(value, np.ndarray) else value)
            elif stmt.kind == "host_call":
                _bind(env, stmt.targets, host_call(*(_read(env, a) for a in stmt.args)))
            elif stmt.kind == "host":
                values = [_read(env, a) for a in stmt.args]
                _bind(env, stmt.targets, (values[0](*values[1:]),))
            elif stmt.kind == "guard":
                _check_guard(*(_read(env, a) for a in stmt.args[:4]))
            elif stmt.kind == "assign" and assigns:
                np.copyto(_read(env, stmt.args[0]), _read(env, stmt.args[1]), casting="unsafe")
            elif stmt.kind == "wait":
                matmul_wait(_read(env, stmt.args[0]))
        elif isinstance(stmt, If):
            branch = stmt.then_block if _read(env, stmt.cond) else stmt.else_block
            evaluate_block(branch, env, module, assigns)
            _bind(env, stmt.outputs, [_read(env, r) for r in branch.results])
        elif isinstance(stmt, ForRange):
            carried = [_read(env, a) for a in stmt.carried]
            for index in range(_read(env, stmt.start), _read(env, stmt.stop), _read(env, stmt.step)):
                env[stmt.index] = index
                _bind(env, stmt.body_params, carried)
                evaluate_block(stmt.body, env, module, assigns)
                carried = [_read(env, r) for r in stmt.body.results]
            _bind(env, stmt.outputs, carried)
        elif isinstance(stmt, While):
            carried = [_read(env, a) for a in stmt.carried]
            while True:
                _bind(env, stmt.body_params, carried)
                evaluate_block(stmt.cond, env, module, assigns)
                if not _read(env, stmt.cond.results[0]):
                    break
                evaluate_block(stmt.body, env, module, assigns)
                carried = [_read(env, r) for r in stmt.body.results]
            _bind(env, stmt.outputs, carried)
        elif isinstance(stmt, TapeNew):
            env[stmt.target] = []
        elif isinstance(stmt, TapePush):
            env[stmt.tape].append(tuple(_read(env, v) for v in stmt.values))
        elif isinstance(stmt, TapePop):
            _bind(env, stmt.targets, env[stmt.tape].pop())
        else:
            raise TypeError(f"unknown statement {stmt!r}")


def use_counts(function: Function) -> dict:
    """id(Var) -> how many times it is read (operands, nested blocks, yields and returns)."""
    counts: dict = {}
    for stmt in walk_stmts(function.body):
        for atom in used_atoms(stmt):
            if isinstance(atom, Var):
                counts[id(atom)] = counts.get(id(atom), 0) + 1
    for block in all_blocks(function.body):
        for atom in block.results:
            if isinstance(atom, Var):
                counts[id(atom)] = counts.get(id(atom), 0) + 1
    return counts


def all_blocks(block: Block):
    """``block`` and every block nested in it."""
    yield block
    for stmt in block.stmts:
        for inner in nested_blocks(stmt):
            yield from all_blocks(inner)
