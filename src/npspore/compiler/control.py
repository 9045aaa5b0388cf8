"""Control flow on tensor values: ``if`` with merged outputs, ``for range`` loops, ``while``.

:class:`ControlFlow` is the part of :class:`~npspore.compiler.specialize.FunctionSpecializer` that
stages tensor-dependent control flow as structured IR (``ir.If``, ``ir.ForRange``, ``ir.While``).
Each sub-block is built inside :meth:`ControlFlow.sub_block`, which saves and restores the
insertion point. A ``for range`` loop whose body turns out to need Python values is rolled back
(environment and names restored) and unrolled instead.
"""
from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Any, Callable

import numpy as np

from ..core import tree
from ..opdef import Aval
from . import ir
from .builder import BlockBuilder, NameSupply
from .errors import NotSupportedError, located, not_supported
from .library import LIBRARY
from .loopsyntax import assigned_names, has_loop_exit
from .values import (MISSING, NORMAL, Completion, ConstIndex, NeedsStatic, Poison, StagedRange, TensorValue,
                     copy_container, holds_closure)


UNROLL_LIMIT = 256


def _container_contents(env) -> dict:
    """``{id: (container, its items)}`` of the Python lists and dicts in ``env``, also those held in lists,
    dicts and tuples there (``steps["h"].append(h)`` changes a list inside a dict)."""
    contents: dict = {}
    pending = list(env.values())
    while pending:
        value = pending.pop()
        if type(value) in (list, dict) and id(value) not in contents:
            contents[id(value)] = (value, list(value.items()) if isinstance(value, dict) else list(value))
            pending.extend(value.values() if isinstance(value, dict) else value)
        elif type(value) is tuple:
            pending.extend(value)
    return contents


def _restore_containers(contents) -> None:
    """Put back the items recorded by :func:`_container_contents` into their lists and dicts."""
    for container, items in contents.values():
        container.clear()
        container.update(items) if isinstance(container, dict) else container.extend(items)


def _containers_changed(contents) -> bool:
    """Whether a list or dict recorded by :func:`_container_contents` was mutated since."""
    for container, items in contents.values():
        now = list(container.items()) if isinstance(container, dict) else list(container)
        if len(now) != len(items) or any(a is not b for a, b in zip(now, items)):
            return True
    return False


class LoopStep(ast.stmt):
    """Marker statement: the next iteration of a lazily unrolled loop (``loop``, an ``ast.For`` over
    ``items`` whose iteration ``index`` comes next, or an ``ast.While`` whose test is evaluated
    again). Executed, it becomes the iteration's body followed by the next step; ``continue`` jumps
    to it. Each branch of a tensor ``if`` unrolls the rest of the loop on its own copy of the names."""

    _fields = ()

    def __init__(self, loop, items=None, index=0):
        super().__init__()
        self.loop, self.items, self.index = loop, items, index
        ast.copy_location(self, loop)


class LoopEnd(ast.stmt):
    """Marker statement: where a lazily unrolled loop ends; ``break`` jumps past it."""

    _fields = ()

    def __init__(self, loop):
        super().__init__()
        ast.copy_location(self, loop)


def _tensor_tree(value):
    """``(TreeDef, leaf avals)`` of a tensor value or a tuple or list of them, else None."""
    if not isinstance(value, (TensorValue, tuple, list)):
        return None
    items = tree.leaves(value, lambda v: not isinstance(v, (tuple, list, dict)))
    if not items or not all(isinstance(item, TensorValue) for item in items):
        return None
    return tree.flatten(value, lambda v: isinstance(v, TensorValue))[1], tuple(item.aval for item in items)


_SCALAR_DTYPES = {bool: np.bool_, int: np.int64, float: np.float32}


def _same_scalar(value, before) -> bool:
    """Whether ``value`` is the Python scalar ``before`` still (the same type and value)."""
    return type(value) is type(before) and value == before


# how a staged branch ends for sure (no path of it falls through to what follows)
_ENDED = (Completion.RETURN, Completion.BREAK, Completion.CONTINUE, Completion.EXIT)


def _exit_flags(completion) -> tuple:
    """``(ended, broke)`` atoms of how a loop body's path ended (NORMAL: neither)."""
    kind = completion.kind
    if kind == Completion.EXIT:
        return ir.Const(np.bool_(True)), completion.value.var
    if kind == Completion.MAYBE_EXIT:
        return completion.value[0].var, completion.value[1].var
    return ir.Const(np.bool_(kind != Completion.NORMAL)), ir.Const(np.bool_(kind == Completion.BREAK))


def _refuse_maybe_return(completion, loc) -> None:
    """A loop over Python values whose body returned on some tensor-dependent paths only (and which
    breaks or continues, or it would have been unrolled into the statements around it)."""
    if completion.kind == Completion.MAYBE_RETURN:
        raise located(ReturnInStagedLoop("a return under a tensor-dependent condition in a loop over Python "
                                         "values that also breaks or continues is not supported in compiled "
                                         "code (construct or @jit)"), loc)


class TensorExitInPythonLoop(NotSupportedError):
    """A break/continue under a tensor condition reached while unrolling a ``while`` loop on Python
    values (``while True`` then stages a loop instead)."""


class ReturnInStagedLoop(NotSupportedError):
    """A ``return`` under a tensor condition reached in a loop being staged as a loop, or being unrolled
    eagerly (it also breaks or continues): ``_returning_loop`` unrolls it lazily instead."""


def _return_in_staged_loop(loc):
    return located(ReturnInStagedLoop("return inside a loop that stays a loop (a 'while' loop on a tensor "
                                      "condition) is not supported in compiled code (construct or @jit)"), loc)


class ControlFlow:
    """Mixin of FunctionSpecializer: tensor-dependent ``if``/``for``/``while`` (see the module docstring)."""

    # FunctionSpecializer's state and methods that this mixin uses
    names: NameSupply
    builder: BlockBuilder
    captures: dict
    _exit_target: str | None
    _dynamic_loops: int
    _python_ints: set
    _eval: Callable[..., Any]
    _assign: Callable[..., Any]
    _apply: Callable[..., Any]
    _truth: Callable[..., bool]
    _iterate_static: Callable[..., Any]
    _exec_stmts: Callable[..., Completion]

    @contextmanager
    def sub_block(self, loop: bool = False):
        """Stage into a fresh block (yielded): the insertion point is restored on leaving, also on
        error. ``loop=True`` marks the block as the body of a loop that stays a loop, where a
        tensor-dependent ``break``/``continue`` is staged as an exit flag."""
        outer, exit_target = self.builder, self._exit_target
        self.builder = BlockBuilder(self.names)
        self._dynamic_loops += loop
        self._exit_target = "staged" if loop else exit_target
        try:
            yield self.builder.block
        finally:
            self.builder, self._exit_target = outer, exit_target
            self._dynamic_loops -= loop

    @contextmanager
    def exits_end(self, target):
        """Within: a tensor-dependent break/continue ends ``target`` (see ``_exit_target``)."""
        outer, self._exit_target = self._exit_target, target
        try:
            yield
        finally:
            self._exit_target = outer

    def _branch(self, stmts, frame, run=None) -> tuple:
        """Stage ``stmts`` (or ``run(frame)``) into a fresh block with a copy of the environment."""
        branch_frame = frame.nested(dict(frame.env))
        with self.sub_block() as block, frame.scope.running(branch_frame):
            completion = run(branch_frame) if run else self._exec_stmts(stmts, branch_frame)
        return completion, branch_frame.env, block

    def _dynamic_if(self, stmt, test, rest, frame) -> Completion:
        loc = frame.source.loc(stmt)
        if test.aval.shape not in ((), (1,)):
            raise located(ValueError(
                "The tensor should have only one element, but got "
                f"{int(np.prod(test.aval.shape))}, more than one element is ambiguous."), loc)
        branches = list(stmt.body) + list(stmt.orelse)
        returns = any(isinstance(n, ast.Return) for n in ast.walk(ast.Module(body=branches, type_ignores=[])))
        exits = has_loop_exit(branches)
        if exits and (returns or any(isinstance(later, (LoopStep, LoopEnd)) for later in rest)):
            # both branches must return: the statements after the 'if' are staged into each of them
            # (in a lazily unrolled loop, LoopStep, a break or continue runs on to the function's end)
            then_done, _, then_block = self._branch(list(stmt.body) + list(rest), frame)
            else_done, _, else_block = self._branch(list(stmt.orelse) + list(rest), frame)
            for done in (then_done, else_done):
                if done.kind in (Completion.BREAK, Completion.CONTINUE, Completion.EXIT, Completion.MAYBE_EXIT):
                    raise _return_in_staged_loop(loc)
                if done.kind != Completion.RETURN:
                    raise not_supported("a tensor-dependent 'if' where one branch returns and the other "
                                        "reaches the end of the function", loc)
            merged = self._merge(then_done.value, else_done.value, then_block, else_block, "out", loc)
            self.builder.append(ir.If(self._as_bool_scalar(test, loc), then_block, else_block, merged[1], loc))
            return Completion(Completion.RETURN, merged[0])
        outcomes = [self._branch(list(stmt.body), frame), self._branch(list(stmt.orelse), frame)]
        ended = [done.kind in _ENDED for done, _, _ in outcomes]
        if rest and ended[0] != ended[1]:
            # one branch surely ended: what follows runs on the other one's paths only, staged there
            going_on = ended.index(False)
            outcomes[going_on] = self._continue_branch(outcomes[going_on], rest, frame, loc)
            rest = ()
        cond = self._as_bool_scalar(test, loc)
        done = (self._join_exits if exits else self._join)(cond, outcomes, frame, loc)
        return self._after_join(done, rest, frame, loc)

    def _continue_branch(self, outcome, rest, frame, loc) -> tuple:
        """Stage ``rest`` at the end of a staged branch ``(completion, env, block)`` of ``frame``."""
        done, env, block = outcome
        branch_frame = frame.nested(env)
        outer, self.builder = self.builder, BlockBuilder(self.names, block)
        try:
            with frame.scope.running(branch_frame):
                done = self._after_join(done, rest, branch_frame, loc)
        finally:
            self.builder = outer
        return done, branch_frame.env, block

    # -- returns, breaks and continues under tensor conditions: the paths that ended are joined by
    # flags, and what follows is staged once, under 'if not returned' / 'if not ended' (copying it
    # into every path that falls through would double the code at each nested 'if').

    def _join(self, cond, outcomes, frame, loc) -> Completion:
        """Stage ``If(cond)`` of two staged branches ``(completion, env, block)`` that each returned,
        fell through or returned on some paths; sets ``frame.env`` to the environment where the
        function goes on, and returns the joined completion."""
        (a_done, a_env, a_block), (b_done, b_env, b_block) = outcomes
        kinds = (a_done.kind, b_done.kind)
        for kind in kinds:
            if kind not in (Completion.NORMAL, Completion.RETURN, Completion.MAYBE_RETURN):
                raise _return_in_staged_loop(loc)  # one branch returns, the other breaks or continues
        if kinds == (Completion.RETURN, Completion.RETURN):
            merged = self._merge(a_done.value, b_done.value, a_block, b_block, "out", loc)
            self.builder.append(ir.If(cond, a_block, b_block, merged[1], loc))
            return Completion(Completion.RETURN, merged[0])
        if kinds == (Completion.NORMAL, Completion.NORMAL):
            new_env, outputs = self._merge_envs(frame, a_env, b_env, a_block, b_block, loc)
            self.builder.append(ir.If(cond, a_block, b_block, tuple(outputs), loc))
            frame.env.clear()
            frame.env.update(new_env)
            return NORMAL
        # a path that returned carries stand-ins for what the others go on with, and vice versa
        outs = [d.value[1] if d.kind == Completion.MAYBE_RETURN else d.value for d in (a_done, b_done)]
        if a_done.kind == Completion.NORMAL:
            outs[0] = self._stand_in(outs[1], a_block, loc)
        if b_done.kind == Completion.NORMAL:
            outs[1] = self._stand_in(outs[0], b_block, loc)
        if a_done.kind == Completion.RETURN:
            a_env = self._stand_in_env(b_env, frame.env, a_block, loc)
        if b_done.kind == Completion.RETURN:
            b_env = self._stand_in_env(a_env, frame.env, b_block, loc)
        new_env, outputs = self._merge_envs(frame, a_env, b_env, a_block, b_block, loc)
        out, out_vars = self._merge(outs[0], outs[1], a_block, b_block, "out", loc)
        for done, block in ((a_done, a_block), (b_done, b_block)):
            block.results += (done.value[0].var if done.kind == Completion.MAYBE_RETURN
                              else ir.Const(np.bool_(done.kind == Completion.RETURN)),)
        returned = self.names.var("returned", Aval((), np.dtype(np.bool_)))
        self.builder.append(ir.If(cond, a_block, b_block, tuple(outputs) + tuple(out_vars) + (returned,), loc))
        frame.env.clear()
        frame.env.update(new_env)
        return Completion(Completion.MAYBE_RETURN, (TensorValue(returned), out))

    def _after_join(self, done, rest, frame, loc) -> Completion:
        """Go on after a joined 'if': ``rest`` runs where the function did not return (nor the loop
        iteration end)."""
        if done.kind == Completion.NORMAL:
            return self._exec_stmts(list(rest), frame)
        if done.kind not in (Completion.MAYBE_RETURN, Completion.MAYBE_EXIT) or not rest:
            return done
        with self.sub_block() as ended_block:
            pass
        later = self._branch(list(rest), frame)
        if done.kind == Completion.MAYBE_RETURN:
            returned, out = done.value
            return self._join(returned.var, ((Completion(Completion.RETURN, out), dict(frame.env), ended_block),
                                             later), frame, loc)
        ended, broke = done.value
        return self._join_exits(ended.var, ((Completion(Completion.EXIT, broke), dict(frame.env), ended_block),
                                            later), frame, loc)

    def _join_exits(self, cond, outcomes, frame, loc) -> Completion:
        """Stage ``If(cond)`` of two staged branches ``(completion, env, block)`` inside a loop, where
        either may have ended the iteration (break, continue, or either under a tensor condition):
        it yields the loop's values and the ``ended``/``broke`` flags."""
        if self._exit_target is None:
            raise located(TensorExitInPythonLoop(
                "break/continue under a tensor-dependent condition in a 'while' loop on Python values (loop over "
                "range(...) instead) is not supported in compiled code (construct or @jit)"), loc)
        dones = [done for done, _, _ in outcomes]
        if all(done.kind == Completion.NORMAL for done in dones):
            return self._join(cond, outcomes, frame, loc)
        if any(done.kind in (Completion.RETURN, Completion.MAYBE_RETURN) for done in dones):
            raise _return_in_staged_loop(loc)  # one path returns, another breaks or continues
        (_, a_env, a_block), (_, b_env, b_block) = outcomes
        new_env, outputs = self._merge_envs(frame, a_env, b_env, a_block, b_block, loc)
        maybe = any(done.kind in (Completion.NORMAL, Completion.MAYBE_EXIT) for done in dones)
        for done, block in zip(dones, (a_block, b_block)):
            ended, broke = _exit_flags(done)
            block.results += ((ended, broke) if maybe else (broke,))
        broke = self.names.var("broke", Aval((), np.dtype(np.bool_)))
        ended = self.names.var("ended", Aval((), np.dtype(np.bool_))) if maybe else None
        flags = (ended, broke) if maybe else (broke,)
        self.builder.append(ir.If(cond, a_block, b_block, tuple(outputs) + flags, loc))
        frame.env.clear()
        frame.env.update(new_env)
        if ended is not None:
            return Completion(Completion.MAYBE_EXIT, (TensorValue(ended), TensorValue(broke)))
        return Completion(Completion.EXIT, TensorValue(broke))

    def function_end(self, completion, loc) -> Completion:
        """How a function body that ended with ``completion`` ends: a return on some paths only is
        the return of every path (falling off the end returns None)."""
        if completion.kind != Completion.MAYBE_RETURN:
            return completion
        if completion.value[1] is not None:
            raise not_supported("a function that returns a value under a tensor-dependent condition and "
                                "otherwise ends without 'return' (returning None)", loc)
        return Completion(Completion.RETURN, None)

    def _stand_in(self, value, block, loc):
        """A value of the same structure, shapes and dtypes as ``value`` (zeros for its tensors),
        staged into ``block``: what a path that does not define ``value`` yields for it."""
        if isinstance(value, TensorValue):
            if None in value.aval.shape:
                raise not_supported("a return under a tensor-dependent condition with a dynamic shape", loc)
            outer, self.builder = self.builder, BlockBuilder(self.names, block)
            try:
                return self._apply("zeros", (), {"shape": value.aval.shape, "dtype": value.aval.dtype})
            finally:
                self.builder = outer
        if isinstance(value, (tuple, list)):
            return copy_container(value, [self._stand_in(v, block, loc) for v in value])
        if isinstance(value, dict):
            return {k: self._stand_in(v, block, loc) for k, v in value.items()}
        return value

    def _stand_in_env(self, env, before, block, loc) -> dict:
        """The environment a returning path yields: stand-ins of what ``env`` changed since ``before``."""
        return {name: value if before.get(name, MISSING) is value else self._stand_in(value, block, loc)
                for name, value in env.items()}

    def _merge_envs(self, frame, then_env, else_env, then_block, else_block, loc):
        """The environment after a tensor-dependent 'if', and the If's new output Vars."""
        outputs = []
        new_env = dict(frame.env)
        for name in dict.fromkeys([*then_env, *else_env]):
            a, b = then_env.get(name, MISSING), else_env.get(name, MISSING)
            if a is b:
                new_env[name] = a
                continue
            if a is MISSING or b is MISSING:
                new_env[name] = Poison(name, "is assigned in only one branch of a tensor-dependent 'if'")
                continue
            if isinstance(a, Poison) or isinstance(b, Poison):
                new_env[name] = a if isinstance(a, Poison) else b
                continue
            yielded = then_block.results, else_block.results
            try:
                value, outs = self._merge(a, b, then_block, else_block, name, loc)
            except (NotSupportedError, TypeError) as error:  # an error if it is read after the 'if'
                then_block.results, else_block.results = yielded
                if isinstance(error, NotSupportedError):
                    new_env[name] = Poison(name, "has different Python values in the branches of a tensor-dependent 'if'")
                else:  # the message of _merge without the name it starts with
                    new_env[name] = Poison(name, str(error).splitlines()[0][len(name) + 3:], TypeError)
                continue
            new_env[name] = value
            outputs.extend(outs)
        return new_env, outputs

    def _scalar(self, value, loc):
        if value.aval.shape:
            return self._apply("reshape", (value,), {"shape": ()}).var
        return value.var

    def _merge(self, a, b, then_block, else_block, name, loc):
        """Merge two branch values: (merged value, new output Vars); appends yields to both blocks."""
        if isinstance(a, TensorValue) or isinstance(b, TensorValue):
            a_atom, b_atom = self._atom(a), self._atom(b)
            aval_a = a_atom.aval if isinstance(a_atom, ir.Var) else None
            aval_b = b_atom.aval if isinstance(b_atom, ir.Var) else None
            aval = aval_a or aval_b
            if aval_a is not None and aval_b is not None and aval_a != aval_b:
                raise located(TypeError(
                    f"'{name}' has shape/dtype {aval_a} in one branch of a tensor-dependent 'if' and "
                    f"{aval_b} in the other; both branches must give the same shape and dtype"), loc)
            then_block.results = then_block.results + (a_atom,)
            else_block.results = else_block.results + (b_atom,)
            out = self.names.var(name, aval)
            return TensorValue(out), [out]
        if isinstance(a, (tuple, list)) and type(a) is type(b) and len(a) == len(b):
            values, outs = [], []
            for x, y in zip(a, b):
                value, o = self._merge(x, y, then_block, else_block, name, loc)
                values.append(value)
                outs.extend(o)
            return copy_container(a, values), outs
        if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
            values, outs = {}, []
            for key in a:
                values[key], o = self._merge(a[key], b[key], then_block, else_block, name, loc)
                outs.extend(o)
            return values, outs
        try:
            same = a is b or (type(a) is type(b) and a == b)
        except Exception:  # noqa: BLE001 - objects whose == is not a bool are simply different
            same = False
        if same:
            return a, []
        scalar_dtype = _SCALAR_DTYPES.get(type(a))
        if scalar_dtype is not None and type(a) is type(b):
            # MindSpore's scalar data flow: a Python scalar set differently in the branches is a 0-d tensor
            then_block.results = then_block.results + (ir.Const(np.asarray(a, scalar_dtype)),)
            else_block.results = else_block.results + (ir.Const(np.asarray(b, scalar_dtype)),)
            out = self.names.var(name, Aval((), np.dtype(scalar_dtype)))
            return TensorValue(out), [out]
        raise not_supported(
            f"'{name}' holding different Python values ({a!r} vs {b!r}) after a tensor-dependent 'if'", loc)

    def _with_no_grad(self, stmt, frame) -> Completion:
        """``with _no_grad(): body``: the body runs as written; the values it binds or returns stop
        gradients (``stop_gradient``), as the tensors made in the block carry none in MindSpore."""
        contexts = [self._eval(item.context_expr, frame) for item in stmt.items]
        if any(item.optional_vars is not None for item in stmt.items) or not all(
                LIBRARY.no_grad_type is not None and isinstance(c, LIBRARY.no_grad_type) for c in contexts):
            raise not_supported("'with' statement (but 'with _no_grad():')", frame.source.loc(stmt))
        before = dict(frame.env)
        completion = self._exec_stmts(stmt.body, frame)
        def stop(value):
            return tree.tree_map(lambda leaf: self._apply("stop_gradient", (leaf,), {}), value,
                                 lambda leaf: isinstance(leaf, TensorValue))
        for name, value in frame.env.items():
            if before.get(name) is not value:
                frame.env[name] = stop(value)
        if completion.kind == Completion.RETURN:
            return Completion(Completion.RETURN, stop(completion.value))
        return completion

    def _for(self, stmt, frame) -> Completion:
        loc = frame.source.loc(stmt)
        if stmt.orelse:
            raise not_supported("'for ... else'", loc)
        iterable = self._eval(stmt.iter, frame)
        if isinstance(iterable, StagedRange):   # a tensor bound: as many iterations as it holds at run time
            if not isinstance(stmt.target, ast.Name):
                raise not_supported("unpacking the index of a range with a tensor bound", loc)
            return self._range_as_while(stmt, iterable.start, iterable.stop, iterable.step, frame, loc)
        if isinstance(iterable, range) and len(iterable) > 0:
            staged = self._try_range_loop(stmt, iterable.start, iterable.stop, iterable.step, frame)
            if staged is not None:
                return staged
        items = self._iterate_static(iterable, frame, stmt.iter)
        if len(items) > UNROLL_LIMIT * 16:
            raise not_supported(f"unrolling a loop of {len(items)} iterations", loc)
        with self.exits_end("unrolled"):
            return self._unrolled(stmt, items, frame, loc)

    def _unrolled(self, stmt, items, frame, loc) -> Completion:
        """Run the body of ``for`` once per Python item. After an iteration that broke under a
        tensor condition, the later ones are staged under ``if not broke`` (nested, one level per
        such iteration)."""
        for index, item in enumerate(items):
            self._assign(stmt.target, item, frame)
            completion = self._exec_stmts(list(stmt.body), frame)
            _refuse_maybe_return(completion, loc)
            if completion.kind == Completion.BREAK:
                break
            if completion.kind == Completion.RETURN:
                return completion
            if completion.kind in (Completion.EXIT, Completion.MAYBE_EXIT) and index + 1 < len(items):
                with self.sub_block() as stopped:
                    pass
                later = self._branch((), frame, lambda later_frame: self._unrolled(stmt, items[index + 1:], later_frame, loc))
                return self._join(_exit_flags(completion)[1], ((NORMAL, dict(frame.env), stopped), later), frame, loc)
        return NORMAL

    def _names_state(self) -> tuple:
        """What :meth:`_rewind_names` puts back: the names handed out and the tensors captured so far."""
        return dict(self.names._counts), set(self.names._taken), dict(self.captures)

    def _rewind_names(self, state) -> None:
        """Undo the names handed out and the tensors captured since ``state`` was taken, when the statements staged
        since are deleted (a capture made there, a helper's constant tensor, would stay a param of the kernel whose
        name is handed out again: two params of one name)."""
        counts, taken, captures = state
        self.names._counts, self.names._taken = dict(counts), set(taken)
        self.captures.clear()
        self.captures.update(captures)

    def _returning_loop(self, stmt, frame):
        """Run a loop found by :func:`returns_from_stepped_loop` as usual: ``(completion, None)``; or, when a
        ``return`` is reached in it while it is staged as a loop (a tensor ``if`` with ``return`` in one
        branch and ``break`` in the other), or a tensor ``break`` while it is unrolled, undo that and
        return ``(None, statements)``: the loop unrolled lazily, to run in its place."""
        staged, env = len(self.builder.block.stmts), dict(frame.env)
        names_state = self._names_state()
        contents = _container_contents(frame.env)
        try:
            return self._exec(stmt, frame), None
        except (ReturnInStagedLoop, TensorExitInPythonLoop):
            del self.builder.block.stmts[staged:]
            frame.env.clear()
            frame.env.update(env)
            self._rewind_names(names_state)
            _restore_containers(contents)
        return None, self._lazily_unrolled(stmt, frame)

    def _lazily_unrolled(self, stmt, frame) -> list:
        """The statements that run a loop found by :func:`returns_from_stepped_loop`: its first step and its end."""
        items = None
        if isinstance(stmt, ast.For):
            items = self._iterate_static(self._eval(stmt.iter, frame), frame, stmt.iter)
            if len(items) > UNROLL_LIMIT * 16:
                raise not_supported(f"unrolling a loop of {len(items)} iterations", frame.source.loc(stmt))
        return [LoopStep(stmt, items), LoopEnd(stmt)]

    def _loop_step(self, step, frame) -> list:
        """What a :class:`LoopStep` runs: the iteration's body and the next step, or nothing when
        the loop is done."""
        loop = step.loop
        if step.index >= UNROLL_LIMIT * 16:
            raise not_supported("a loop that returns and runs more than 4096 times", frame.source.loc(loop))
        if step.items is not None:
            if step.index == len(step.items):
                return []
            self._assign(loop.target, step.items[step.index], frame)
        else:
            test = self._eval(loop.test, frame)
            if isinstance(test, TensorValue):
                raise not_supported("a 'while' loop on a tensor condition whose body returns",
                                    frame.source.loc(loop))
            if not self._truth(test, frame, loop.test):
                return []
        return list(loop.body) + [LoopStep(loop, step.items, step.index + 1)]

    @staticmethod
    def _jump(completion, rest):
        """Where ``break``/``continue`` (``completion``) continue among the statements ``rest`` that
        follow it: after the first :class:`LoopEnd`, or from the first :class:`LoopStep` (the
        innermost lazily unrolled loop's markers come first); None outside such a loop."""
        marker = LoopEnd if completion.kind == Completion.BREAK else LoopStep
        for index, stmt in enumerate(rest):
            if isinstance(stmt, marker):
                return list(rest[index + 1:] if marker is LoopEnd else rest[index:])
        return None

    def _unrolled_statements(self, stmt, frame) -> list:
        """A ``for`` loop over Python values as one statement list: per item, ``target = item``
        (the item bound under a hidden name) followed by the body."""
        items = self._iterate_static(self._eval(stmt.iter, frame), frame, stmt.iter)
        if len(items) > UNROLL_LIMIT * 16:
            raise not_supported(f"unrolling a loop of {len(items)} iterations", frame.source.loc(stmt))
        flat = []
        for item in items:
            hidden = self.names.fresh("__loop_item")
            frame.env[hidden] = item
            bind = ast.Assign(targets=[stmt.target], value=ast.Name(id=hidden, ctx=ast.Load()))
            flat.append(ast.copy_location(bind, stmt))
            ast.copy_location(bind.value, stmt)
            flat.extend(stmt.body)
        return flat

    def _try_range_loop(self, stmt, start, stop, step, frame, fresh=None) -> Completion | None:
        """Stage ``for i in range(...)`` (a range of at least one item) as an ``ir.ForRange``, or an
        ``ir.While`` when it breaks: how it completed; None to unroll it instead.

        A tensor value (or a tuple of them) first assigned in the body is carried too, as Python
        leaves it bound to the last iteration's value: ``fresh`` maps such names to their TreeDef and
        leaf avals, found by staging the body once without them."""
        fresh = fresh or {}
        if not isinstance(stmt.target, ast.Name):
            return None
        loc = frame.source.loc(stmt)
        assigned = assigned_names(stmt.body)
        if has_loop_exit(stmt.body, kinds=(ast.Break,)):
            if any(n != stmt.target.id and n in frame.env and not isinstance(frame.env[n], (TensorValue, Poison))
                   for n in assigned):
                return None  # the body changes Python values: unrolled, they stay Python values
            return self._breaking_range_loop(stmt, start, stop, step, frame, loc)
        carried_names = [n for n in assigned  # the loop's own target is rebound by every iteration
                         if n != stmt.target.id and isinstance(frame.env.get(n), TensorValue)]
        snapshot = dict(frame.env)
        contents = _container_contents(frame.env)
        names_state = self._names_state()
        index = self.names.var(stmt.target.id, Aval((), np.dtype(np.int64)))
        if len(range(start, stop, step)) <= UNROLL_LIMIT:
            self._python_ints.add(index)   # a Python int where MindSpore unrolls (_python_int_arithmetic)
        params = [self.names.var(n, frame.env[n].aval) for n in carried_names]
        body_env = dict(frame.env)
        body_env[stmt.target.id] = TensorValue(index)
        for name, param in zip(carried_names, params):
            body_env[name] = TensorValue(param)
        for name, (treedef, avals) in fresh.items():
            leaf_params = [self.names.var(name, aval) for aval in avals]
            params += leaf_params
            body_env[name] = tree.unflatten(treedef, (TensorValue(p) for p in leaf_params))
        body_frame = frame.nested(body_env)
        try:
            with self.sub_block(loop=True) as block, frame.scope.running(body_frame):
                completion = self._exec_stmts(list(stmt.body), body_frame)
        except (NeedsStatic, NotSupportedError):
            completion, block = None, None
        ok = completion is not None and completion.kind in (
            Completion.NORMAL, Completion.CONTINUE, Completion.EXIT, Completion.MAYBE_EXIT)
        if _containers_changed(contents):  # out.append(...) once per iteration: unrolled
            ok = False
            _restore_containers(contents)
        if ok:
            for name in assigned:
                new = body_frame.env.get(name, MISSING)
                if name in carried_names:
                    ok = ok and isinstance(new, TensorValue) and new.aval == frame.env[name].aval
                elif name == stmt.target.id:
                    continue
                elif name in fresh:
                    ok = ok and _tensor_tree(new) == fresh[name]
                elif name in snapshot and not isinstance(snapshot[name], Poison):
                    ok = ok and new is snapshot[name]
                elif holds_closure((new,)):   # a lambda or def made in the body, called after it: unrolled (as
                    ok = False                # MindSpore does every loop over a range), not a poisoned name
                # else a local of the body (its first read follows its assignment, as a Poison cannot
                # be read): poisoned after the loop
        if not ok:
            frame.env.clear()
            frame.env.update(snapshot)
            self._rewind_names(names_state)
            if len(range(start, stop, step)) > UNROLL_LIMIT:
                raise not_supported(
                    f"this loop of {len(range(start, stop, step))} iterations: its body needs the loop "
                    "index as a Python value or changes Python values, so it would have to be unrolled", loc)
            return None
        first_assigned = {name: _tensor_tree(body_frame.env.get(name)) for name in assigned
                          if name != stmt.target.id and name not in carried_names and name not in fresh
                          and (name not in snapshot or isinstance(snapshot[name], Poison))}
        first_assigned = {name: found for name, found in first_assigned.items()   # one of a dynamic shape has no
                          if found is not None and not any(None in a.shape for a in found[1])}   # stand-in: unread
        if first_assigned:  # staged again, carrying them
            frame.env.clear()
            frame.env.update(snapshot)
            self._rewind_names(names_state)
            return self._try_range_loop(stmt, start, stop, step, frame, {**fresh, **first_assigned})
        results = [body_frame.env[n].var for n in carried_names]
        carried = [frame.env[n].var for n in carried_names]
        for name in fresh:
            leaves, _ = tree.flatten(body_frame.env[name], lambda v: isinstance(v, TensorValue))
            results += [leaf.var for leaf in leaves]
            carried += [self._stand_in(leaf, self.builder.block, loc).var for leaf in leaves]  # never read
        block.results = tuple(results)
        output_names = carried_names + [name for name, (_, avals) in fresh.items() for _ in avals]
        outputs = tuple(self.names.var(name, p.aval) for name, p in zip(output_names, params))
        self.builder.append(ir.ForRange(index, ir.Const(start), ir.Const(stop), ir.Const(step), tuple(carried),
                                        tuple(params), block, outputs, loc))
        for name, out in zip(carried_names, outputs):
            frame.env[name] = TensorValue(out)
        fresh_outputs = (TensorValue(out) for out in outputs[len(carried_names):])
        for name, (treedef, avals) in fresh.items():
            frame.env[name] = tree.unflatten(treedef, [next(fresh_outputs) for _ in avals])
        for name in assigned:
            if name not in carried_names and name not in fresh and name not in snapshot:
                frame.env[name] = Poison(name, "is assigned inside a loop that stays a loop; assign it before the loop")
        frame.env[stmt.target.id] = range(start, stop, step)[-1]  # no break: the last index, as in Python
        return NORMAL

    def _while(self, stmt, frame) -> Completion:
        loc = frame.source.loc(stmt)
        if stmt.orelse:
            raise not_supported("'while ... else'", loc)
        if isinstance(stmt.test, ast.Constant) and stmt.test.value is True and has_loop_exit(stmt.body,
                                                                                            kinds=(ast.Break,)):
            return self._while_true(stmt, frame, loc)
        for _ in range(UNROLL_LIMIT * 16):
            test = self._eval(stmt.test, frame)
            if isinstance(test, TensorValue):
                return self._dynamic_while(stmt, frame, loc)
            if not self._truth(test, frame, stmt.test):
                return NORMAL
            with self.exits_end(None):
                completion = self._exec_stmts(list(stmt.body), frame)
            _refuse_maybe_return(completion, loc)
            if completion.kind == Completion.BREAK:
                return NORMAL
            if completion.kind == Completion.RETURN:
                return completion
        raise not_supported("a 'while' loop on Python values that runs more than 4096 times", loc)

    def _while_true(self, stmt, frame, loc) -> Completion:
        """``while True`` with a ``break``: unrolled while the breaks are decided by Python values;
        a break under a tensor condition makes it a loop that stays a loop, ended by that break."""
        staged, env = len(self.builder.block.stmts), dict(frame.env)
        try:
            for _ in range(UNROLL_LIMIT * 16):
                with self.exits_end(None):
                    completion = self._exec_stmts(list(stmt.body), frame)
                _refuse_maybe_return(completion, loc)
                if completion.kind == Completion.BREAK:
                    return NORMAL
                if completion.kind == Completion.RETURN:
                    return completion
        except TensorExitInPythonLoop:
            del self.builder.block.stmts[staged:]
            frame.env.clear()
            frame.env.update(env)
            return self._stage_while(frame, loc, list(stmt.body), lambda env_frame: None, extra=())
        raise not_supported("a 'while' loop on Python values that runs more than 4096 times", loc)

    def _dynamic_while(self, stmt, frame, loc) -> Completion:
        def condition(env_frame):
            test = self._eval(stmt.test, env_frame)
            if not isinstance(test, TensorValue):
                raise not_supported("a 'while' condition that is a tensor only on the first iteration", loc)
            return test

        return self._stage_while(frame, loc, list(stmt.body), condition, extra=())

    def _breaking_range_loop(self, stmt, start, stop, step, frame, loc) -> Completion | None:
        """``for i in range(start, stop, step)`` whose body may ``break``, staged as a While carrying the
        index; None to unroll it instead, when its body needs the index as a Python value (``t[i]`` of a
        tuple, a slice bound, ``0.1 * i``) and it is short enough (``UNROLL_LIMIT``)."""
        staged, env = len(self.builder.block.stmts), dict(frame.env)
        names_state = self._names_state()
        contents = _container_contents(frame.env)
        unrollable = len(range(start, stop, step)) <= UNROLL_LIMIT
        try:
            return self._range_as_while(stmt, start, stop, step, frame, loc, python_index=unrollable)
        except NeedsStatic:
            if not unrollable:
                raise
            del self.builder.block.stmts[staged:]
            frame.env.clear()
            frame.env.update(env)
            self._rewind_names(names_state)
            _restore_containers(contents)
            return None

    def _range_as_while(self, stmt, start, stop, step, frame, loc, python_index=False) -> Completion:
        """``for i in range(...)`` whose body may ``break``: a While carrying the index (a Python int
        where MindSpore unrolls the loop when ``python_index``: see ``_python_int_arithmetic``)."""
        index = stmt.target.id
        frame.env[index] = (self._apply("cast", (start,), {"dtype": np.dtype(np.int64)})
                            if isinstance(start, TensorValue) else ConstIndex(start))
        bound = stop if isinstance(stop, TensorValue) else np.int64(stop)

        def condition(env_frame):
            compare = "less" if step > 0 else "greater"
            return self._apply(compare, (env_frame.env[index], bound), {})

        def advance(env_frame):
            env_frame.env[index] = self._apply("add", (env_frame.env[index], np.int64(step)), {})

        completion = self._stage_while(frame, loc, list(stmt.body), condition, extra=(index,), advance=advance,
                                       python_index=python_index)
        # every iteration advanced the index, the last one (broken out of, or not) too
        frame.env[index] = self._apply("sub", (frame.env[index], np.int64(step)), {})
        return completion

    def _stage_while(self, frame, loc, body_stmts, condition, extra=(), advance=None,
                     python_index=False) -> Completion:
        """Stage an ``ir.While``: ``condition(frame) -> TensorValue`` (None: ``while True``). The body
        may break under tensor conditions, which adds a carried ``broke`` flag, and return under them,
        which adds a carried ``returned`` flag and the value returned: the loop then completes with
        ``MAYBE_RETURN`` (the statements after it run where it did not return)."""
        breaks = has_loop_exit(body_stmts, kinds=(ast.Break,))
        returns = any(isinstance(n, ast.Return) for n in ast.walk(ast.Module(body=list(body_stmts), type_ignores=[])))
        assigned = assigned_names(body_stmts)
        names = list(extra) + [n for n in assigned if n not in extra and isinstance(frame.env.get(n), TensorValue)]
        carried, params = [], []
        for name in names:
            value = frame.env[name]
            if isinstance(value, ConstIndex):
                carried.append(ir.Const(np.int64(value.value)))
                params.append(self.names.var(name, Aval((), np.dtype(np.int64))))
            else:
                carried.append(value.var)
                params.append(self.names.var(name, value.aval))
        if python_index:
            self._python_ints.add(params[0])   # the range loop's index
        flags = [flag for flag, present in (("broke", breaks), ("returned", returns)) if present]
        flag_params = [self.names.var(flag, Aval((), np.dtype(np.bool_))) for flag in flags]
        carried += [ir.Const(np.bool_(False))] * len(flags)
        env = dict(frame.env)
        for name, param in zip(names, params):
            env[name] = TensorValue(param)
        test_frame = frame.nested(dict(env))
        with self.sub_block(loop=True) as cond_block, frame.scope.running(test_frame):
            test = condition(test_frame)
            cond = None if test is None else TensorValue(self._as_bool_scalar(test, loc))
            for flag in flag_params:  # a break or return ends the loop
                running = self._apply("logical_not", (TensorValue(flag),), {})
                cond = running if cond is None else self._apply("logical_and", (cond, running), {})
        assert cond is not None, "a staged while has a condition or an exit flag"
        cond_block.results = (cond.var,)
        body_frame = frame.nested(dict(env))
        contents = _container_contents(env)
        with self.sub_block(loop=True) as body_block, frame.scope.running(body_frame):
            completion = self._exec_stmts(body_stmts, body_frame)
            if _containers_changed(contents):
                raise not_supported("changing a Python list or dict inside a loop that stays a loop "
                                    "(its length would depend on tensor values)", loc)
            if advance is not None:
                advance(body_frame)
        changed = [n for n in assigned if n not in names and type(env.get(n)) in _SCALAR_DTYPES
                   and not _same_scalar(body_frame.env.get(n), env[n])]
        if changed:
            # a Python scalar the body changes is a 0-d tensor carried by the loop (MindSpore's scalar
            # data flow): each iteration reads the last one's value, not the value before the loop
            for name in changed:
                value = frame.env[name]
                frame.env[name] = self._apply("cast", (np.asarray(value, _SCALAR_DTYPES[type(value)]),),
                                              {"dtype": np.dtype(_SCALAR_DTYPES[type(value)])})
            return self._stage_while(frame, loc, body_stmts, condition, extra, advance, python_index)
        results = [self._carried_atom(name, body_frame.env.get(name), param, loc) for name, param in zip(names, params)]
        if breaks:
            results.append(_exit_flags(completion)[1])
        returned, out_leaves, out_tree = self._returned_in_loop(completion, returns, loc)
        results += returned
        out_params = [self.names.var("out", leaf.aval) for leaf in out_leaves]
        for leaf in out_leaves:  # the value returned: carried from a stand-in until an iteration returns
            carried.append(self._stand_in(leaf, self.builder.block, loc).var)
            results.append(leaf.var)
        body_block.results = tuple(results)
        params += flag_params + out_params
        outputs = tuple(self.names.var(p.name, p.aval) for p in params)
        self.builder.append(ir.While(tuple(carried), tuple(params), cond_block, body_block, outputs, loc))
        for name, out in zip(names, outputs):
            frame.env[name] = TensorValue(out)
        for name in assigned:
            if name not in names and body_frame.env.get(name, MISSING) is not env.get(name, MISSING):
                frame.env[name] = Poison(name, "is assigned a Python value inside a loop that stays a loop")
        if out_tree is None:
            return NORMAL
        returned_out = outputs[len(names) + int(breaks)]
        out = tree.unflatten(out_tree, (TensorValue(v) for v in outputs[len(outputs) - len(out_leaves):]))
        return Completion(Completion.MAYBE_RETURN, (TensorValue(returned_out), out))

    @staticmethod
    def _carried_atom(name, value, param, loc):
        """What a loop body yields for the carried ``name``: its tensor value of the param's aval, or a
        Python scalar it was set to, as a constant of the param's dtype."""
        if type(value) in _SCALAR_DTYPES and param.aval.shape == ():
            return ir.Const(np.asarray(value, param.aval.dtype))
        if not isinstance(value, TensorValue) or value.aval != param.aval:
            raise located(TypeError(f"'{name}' changes shape or dtype inside a loop that stays a loop"), loc)
        return value.var

    @staticmethod
    def _returned_in_loop(completion, returns, loc) -> tuple:
        """``(returned flag yielded, leaves of the value returned, its tree or None)`` of a staged
        loop body that ended with ``completion``."""
        if not returns:
            return [], [], None
        if completion.kind == Completion.RETURN:
            flag, out = ir.Const(np.bool_(True)), completion.value
        elif completion.kind == Completion.MAYBE_RETURN:
            flag, out = completion.value[0].var, completion.value[1]
        else:
            return [ir.Const(np.bool_(False))], [], None
        if out is None:
            raise not_supported("a bare 'return' inside a loop that stays a loop", loc)
        leaves, out_tree = tree.flatten(out, lambda v: isinstance(v, TensorValue))
        return [flag], leaves, out_tree

    def _as_bool_scalar(self, test, loc) -> ir.Var:
        var = test.var
        if var.aval.dtype != np.bool_ or var.aval.shape:
            var = self._apply("cast", (TensorValue(self._scalar(test, loc)),), {"dtype": np.dtype(np.bool_)}).var
        return var
