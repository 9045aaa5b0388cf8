"""Differential fuzzer of the compiler: random MindSpore-style programs, compiled against eager.

Each program is a Cell (Parameters, a sub-cell used twice, a CellList and a SequentialCell, a
primitive on ``self``, a method and a module helper) whose ``construct`` is a random mix of the
supported subset: elementwise ops, broadcasting, reductions with axes/keepdims, matmul, shape ops,
indexing; tuples, unpacking, rebinding, aliasing, swaps, augmented assignment; tensor and Python
``if``/``elif``, ``for range`` (nested; its index and the names first assigned in its body read
after it), loops over tuples, ``enumerate``, tensor ``while``, ``while`` over a Tensor counter built
in compiled code (``n0 = Tensor(0, ms.int32)``; its condition alone or with a tensor condition; some
return under a tensor condition), ``break``/``continue``, early ``return``; an int32 input; tensor
values read in compiled code (MindSpore's JIT fallback: ``float(t.mean())``, ``t.item()``,
``Tensor(np.tanh(t.asnumpy()))``, ``t.tolist()``) in data flow and deciding a Python ``if`` or a
``range(int(k))`` bound; sub-cells with forward hooks and a backward hook whose bodies read values; lambdas
and nested defs (their own locals, tensor ``if``, loops and defs) reading construct's locals, inputs and
Parameters, some rebound after the function is made, called directly, in loops and under tensor ``if``, passed
to a sub-cell and a module function whose own names (``x0``, ``v1``) they read, mapped (``map``,
``ops.HyperMap``, ``ops.Map``), partially applied (``ops.partial``, ``functools.partial``), differentiated in
construct (``ms.grad``/``value_and_grad`` by positions and by weights of the net); functions a module function
and a sub-cell make and return; lambdas made in a comprehension or loop over a range, called after it. The
``--areas`` (all by default) add reads at int-tensor indices mixed with slices, ints and the int input (``gather``,
``gather_elements``, ``gather_nd`` among them: ``index``), item assignments into a fresh copy (``x[i] = v``,
``x[:, 1:3] += v``, at bool masks, tensor rows, the int input and a loop's index, under a tensor ``if``:
``itemassign``), and bool masks and int/float promotion (``where``, ``masked_fill``, ``x * (k > 1)``, ``k * 0.5``:
``dtype``); ``transforms`` runs one check of tools/fuzz_transforms.py per seed too (``vmap`` with in/out axes,
nested and of ``grad``; ``ops.jvp``, ``vjp``, ``jacfwd``, ``jacrev``; ``nn.TrainOneStepCell`` steps with SGD,
Momentum, Adam; float16/float32 inputs), on a plain program of its own. A
quarter of the programs run through ``exec`` (no source file: npspore traces them). Every program is
checked:

* the compiled forward (``ms.jit(net)``) equals eager execution (float64, tight; the same dtypes), then, called again
  on other inputs (negated floats, another int: a value guard or traced branch fails and compiles
  again), equals eager there too;
* ``ms.grad`` with a random ``grad_position``/``weights`` equals central differences of the eager
  float64 forward along a random direction (points where two step sizes disagree are non-smooth and
  skipped); the values the program reads are held at the unshifted point's (a read value is a
  constant to the gradient), and a shifted run that reads in another order is skipped as non-smooth;
* ``value_and_grad`` with ``has_aux`` and ``return_ids`` gives the documented structure and values;
* ``grad(grad(net))`` equals central differences of the first-order gradient (a program that reads
  values only has to run it: the first gradient reads them again at each shifted point);
* the gradient of an integer input has the input's dtype.

Stateful programs (``--stateful``; by default every fourth seed) update Parameters: ``ops.assign``,
``assign_add``, ``assign_sub``, the ``Assign``/``AssignAdd`` primitives, ``self.p = ...`` and ``self.p +=
...`` on Net's own Parameters (the matmul weights ``w0`` and ``sub.w`` among them), a sub-cell's and one
two levels down, in straight-line code and in every block above; cells that update their own state
(``Acc``, ``Nest`` holding an ``Acc``: their bodies generated too, ``BatchNorm1d`` in training or inference
mode) are called once, twice, inside loops and branches, or for the effect alone (result unused); values
are computed from Parameters before and after updates, and decide tensor ``if``/``while`` conditions. A
value computed from a Parameter is always a new array (a view taken before an assignment sees the new
value in eager code only: a known divergence from MindSpore, not generated). They are checked:

* a compiled instance and an eager one, from the same Parameter values, called three times in a row
  (the inputs twice, then other inputs) without putting the Parameters back: after each call the
  outputs and every Parameter agree (float64, tight);
* ``value_and_grad`` of a new instance gives the eager first call's value and leaves its Parameters as
  that call does; its gradients of the float inputs equal central differences of eager code whose
  assignments write the values they wrote at the unshifted inputs (MindSpore's gradient does not flow
  through an assignment); the gradient of an integer input has its dtype.

A program that takes longer than ``--time-limit`` seconds of CPU time (compile and checks together) is
a finding too: compile time must stay polynomial in the program's size (a program whose eager run does
not end, as a shrink can make one, is no test). npspore's documented refusal of a read
it cannot guard (a clean ``NotSupportedError`` at compile time: under a tensor ``if``/``while``, after a
Parameter is written...) is
counted as "refused", apart from findings; any other error, wrong value or hang is a finding.

A failing program is shrunk (statement and block deletion while it still fails the same way) and
saved as a ``.py`` file (a stateful one in the ``--replay`` format, ready for ``tests/programs/fuzz``).
``python tools/fuzz.py --minutes 10`` runs for ten minutes;
``--seeds 0:200`` runs a fixed range; ``--replay FILE...`` checks saved programs in the format of
``../shared/repros/compiler/fuzz`` (``make(dtype)`` and ``SPEC``); ``tests/test_fuzz.py`` runs a few
seeds and replays ``tests/programs/fuzz`` in CI.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
import types
import warnings

import numpy as np

SHAPE = (2, 3)
INT_INPUT = "k"
TIME_LIMIT = 20.0  # seconds per program (compile and every check); more is a finding

# ------------------------------------------------------------------------------ program tree
# A statement is a line of text, or a Block: a header line with a body (and optional else body).


class Block:
    """A compound statement: ``header`` (e.g. ``for i in range(3):``), its body and its else body."""

    def __init__(self, header, body, orelse=None, else_header="else:"):
        self.header, self.body, self.orelse, self.else_header = header, body, orelse, else_header


def render_stmts(stmts, indent):
    """The source lines of a statement list (``pass`` for an empty one)."""
    lines = []
    for stmt in stmts:
        if isinstance(stmt, Block):
            lines.append(indent + stmt.header)
            lines += render_stmts(stmt.body, indent + "    ")
            if stmt.orelse is not None:
                lines.append(indent + stmt.else_header)
                lines += render_stmts(stmt.orelse, indent + "    ")
        else:
            lines.append(indent + stmt)
    return lines or [indent + "pass"]


PRELUDE = '''import functools

import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


def helper(a, b):
    return ops.sin(a) * b + a


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w")

    def construct(self, a):
        return ops.tanh(ops.matmul(a, self.w)) + a


STATEFUL
HOOKS
CLOSURES
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="w0")
        self.w1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="w1")
        self.sub = Sub()
        self.layers = nn.CellList([Sub(), Sub()])
        self.seq = nn.SequentialCell(Sub(), Sub())
        self.mul = ops.Mul()
        self.flag = FLAG
HOOKED
STATE
    def method(self, a, b):
        return a * ops.cos(b) - b

'''


# Hooks that read tensor values: a forward hook using a read value in data flow, one deciding a
# Python ``if`` on it (forward hooks are compiled into the caller, so the read is guarded there), and
# a backward hook that scales the gradient by a read 1.0 (its gradient must stay the true one).
HOOK_FUNCTIONS = {
    "scaled": ("register_forward_hook", """def scale_by_mean(cell, inputs, output):
    return output * (1.0 + 0.5 * float(ops.tanh(output.mean())))
""", "scale_by_mean"),
    "gated": ("register_forward_hook", """def halve_if_positive(cell, inputs, output):
    if float(output.sum()) > 0:
        return output * 0.5
    return output
""", "halve_if_positive"),
    "watched": ("register_backward_hook", """def keep_if_finite(cell, grad_input, grad_output):
    return (grad_input[0] * float(np.isfinite(grad_output[0].asnumpy()).all()),)
""", "keep_if_finite"),
}


# ------------------------------------------------------------------------------ closures
# Callees that take or make a function. Their parameters and locals are named as construct's values are
# (``x0``, ``v1``, ``v2``), so a lambda or def of construct passed to them often reads a name they bind too
# (it must read construct's), and one they return reads their own.
CLOSURE_CALLEES = {
    "apply_fn": ("", """def apply_fn(x0, fn):
    v1 = x0 * 2.0
    return fn(v1) * 0.5 + x0
"""),
    "self.applier": ("        self.applier = Applier()\n", """class Applier(nn.Cell):
    def construct(self, x0, fn):
        v1 = ops.sin(x0)
        v2 = fn(v1)
        return fn(v2 + x0) * 0.5
"""),
    "make_fn": ("", """def make_fn(x0):
    v1 = ops.cos(x0)
    return lambda u: u * v1 + x0
"""),
    "self.maker": ("        self.maker = Maker()\n", """class Maker(nn.Cell):
    def construct(self, x0):
        v2 = x0 * 0.5

        def scaled(u):
            return ops.tanh(u) * v2 + x0
        return scaled
"""),
}


# ------------------------------------------------------------------------------ stateful programs
# Cells that keep state: ``Acc`` updates its own Parameter, ``Nest`` its own weight and, through the
# ``Acc`` it holds, a Parameter two levels down; their bodies are generated too. ``Net`` adds two
# Parameters of its own, one cell of each kind, a BatchNorm (running statistics in training mode)
# and the ``Assign``/``AssignAdd`` primitives.
STATEFUL_CELLS = '''class Acc(nn.Cell):
    def __init__(self):
        super().__init__()
        self.acc = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="acc")
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()

    def construct(self, a):
ACC_BODY


class Nest(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Acc()
        self.m = Parameter(Tensor(np.full((3, 3), 0.1), ms.float64), name="m")
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()

    def construct(self, a):
NEST_BODY


'''

STATEFUL_INIT = '''        self.s0 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="s0")
        self.s1 = Parameter(Tensor(np.full((2, 3), 0.1), ms.float64), name="s1")
        self.acc = Acc()
        self.nest = Nest()
        self.bn = nn.BatchNorm1d(3, dtype=ms.float64)
        self.assign = ops.Assign()
        self.assign_add = ops.AssignAdd()
        self.set_train(TRAIN)
'''

# every instance ``make`` returns starts from the same Parameter values (variances positive)
MAKE = '''

def make(dtype=np.float64):
    net = Net()
    rng = np.random.default_rng(SEED)
    for p in net.get_parameters():
        low, high = (0.5, 1.5) if p.name.endswith("variance") else (-0.6, 0.6)
        p.set_data(Tensor(rng.uniform(low, high, p.shape).astype(dtype)))
    return net
'''

# What a stateful cell's construct may update and read (every value is (2, 3); weights are (3, 3)
# matmul operands; statistics (3,) are read only) and the cells it may call that update their own.
STATE = {
    "Net": {"rows": ("self.s0", "self.s1", "self.w1", "self.acc.acc", "self.nest.inner.acc"),
            "weights": ("self.w0", "self.sub.w", "self.nest.m"),
            "stats": ("self.bn.moving_mean", "self.bn.moving_variance"),
            "cells": ("self.acc", "self.nest", "self.bn")},
    "Acc": {"rows": ("self.acc",), "weights": (), "stats": (), "cells": ()},
    "Nest": {"rows": ("self.inner.acc",), "weights": ("self.m",), "stats": (), "cells": ("self.inner",)},
}
# statement kinds that use what only Net has (its flag, CellList, int input k)
NET_ONLY_KINDS = ("pyif", "celllist", "read", "read_if", "read_range", "closure", "made_closure")
UPDATES = re.compile(r"assign|self\.(acc|nest|bn|inner)\(|self\.[\w.]+ [-+]?= ")


def render(program, seed=0, traced=False) -> str:
    """The module text of a program ``(flag, n_inputs, stmts)``; the hooked sub-cells (and their
    hooks) only where the body calls them, so that other programs draw the same random values. A
    stateful program ``(flag, n_inputs, stmts, state)`` adds the cells that keep state, the
    Parameters ``Net`` updates, and ``make``/``SPEC`` (see :func:`replay`; ``seed`` draws the
    Parameters' values and the inputs, ``traced`` runs it through ``exec``)."""
    flag, n_inputs, stmts = program[:3]
    state = program[3] if len(program) > 3 else None
    params = ", ".join([f"x{i}" for i in range(n_inputs)] + [INT_INPUT])
    body = "\n".join(render_stmts(stmts, ""))
    used = [cell for cell in HOOK_FUNCTIONS if f"self.{cell}(" in body]
    hooks = "".join(HOOK_FUNCTIONS[cell][1] + "\n\n" for cell in used)
    hooked = "".join(f"        self.{cell} = Sub()\n        self.{cell}.{HOOK_FUNCTIONS[cell][0]}({HOOK_FUNCTIONS[cell][2]})\n"
                     for cell in used)
    callees = [name for name in CLOSURE_CALLEES if re.search(rf"(?<![\w.]){re.escape(name)}\(", body)]
    closures = "".join(CLOSURE_CALLEES[name][1] + "\n\n" for name in callees)
    hooked += "".join(CLOSURE_CALLEES[name][0] for name in callees)
    cells = init = ""
    if state is not None:
        cells = STATEFUL_CELLS.replace("ACC_BODY\n", "\n".join(render_stmts(state["Acc"], " " * 8)) + "\n")
        cells = cells.replace("NEST_BODY\n", "\n".join(render_stmts(state["Nest"], " " * 8)) + "\n")
        init = STATEFUL_INIT.replace("TRAIN", repr(state["train"]))
    lines = PRELUDE.replace("FLAG", repr(flag)).replace("STATEFUL\n", cells).replace("HOOKS\n", hooks)
    lines = lines.replace("CLOSURES\n", closures)
    lines = lines.replace("HOOKED\n", hooked).replace("STATE\n", init).splitlines()
    lines.append(f"    def construct(self, {params}):")
    lines += render_stmts(stmts, "        ")
    text = "\n".join(lines) + "\n"
    if state is not None:
        spec = {"inputs": [[list(SHAPE), "f"]] * n_inputs + [[[], "i"]], "kind": "cell", "assign": True,
                "stateful": True, "seed": seed, "traced": traced}
        text += MAKE.replace("SEED", str(seed)) + f"\n\nSPEC = {spec!r}\n"
    return text


def names_defined_before_use(stmts) -> bool:
    """Whether every generated variable is surely bound before it is read (shrinking may delete a
    definition; such a program is not valid Python, so it is no test)."""
    tree = ast.parse("\n".join(render_stmts(stmts, "")))
    generated = lambda name: name[0] in "vcitjf" and name[1:].isdigit()  # noqa: E731

    def reads_ok(node, defined):
        return all(n.id in defined for n in ast.walk(node)
                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and generated(n.id))

    def runs_at_least_once(node):
        """A ``for`` over ``range(n)`` with literal arguments and at least one item."""
        if not (isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and getattr(node.iter.func, "id", "") == "range"):
            return False
        try:
            return len(range(*(ast.literal_eval(a) for a in node.iter.args))) > 0
        except ValueError:
            return False

    def stores(node):
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    def block(body, defined):
        defined = set(defined)
        for node in body:
            if isinstance(node, ast.If):
                if not reads_ok(node.test, defined):
                    return None
                then, other = block(node.body, defined), block(node.orelse, defined)
                if then is None or other is None:
                    return None
                defined = then & other
            elif isinstance(node, (ast.For, ast.While)):
                head = node.iter if isinstance(node, ast.For) else node.test
                if not reads_ok(head, defined):
                    return None
                inner = defined | (stores(node.target) if isinstance(node, ast.For) else set())
                after = block(node.body, inner)
                if after is None:
                    return None
                if runs_at_least_once(node):  # its index, and what its body defines if it never jumps
                    jumps = any(isinstance(n, (ast.Break, ast.Continue)) for n in ast.walk(node))
                    defined = inner if jumps else after
            elif isinstance(node, ast.FunctionDef):  # its body runs when called: what is bound by then
                own = {a.arg for a in node.args.args} | {node.name}
                if not isinstance(node.body[-1], ast.Return):  # a shrunk def returning None: no tensor program
                    return None
                if block(node.body, defined | own) is None:
                    return None
                defined.add(node.name)
            elif isinstance(node, ast.AugAssign):
                target = getattr(node.target, "id", "")  # self.p += e has no name to define
                if not reads_ok(node, defined) or target and generated(target) and target not in defined:
                    return None
            else:
                value = getattr(node, "value", None)
                if value is not None and not reads_ok(value, defined):
                    return None
                defined |= stores(node)
        return defined

    return block(tree.body, set()) is not None


# ------------------------------------------------------------------------------ generator

# what the generator adds beside construct bodies' core (see Generator); all on by default
AREAS = ("index", "itemassign", "dtype")


class Generator:
    """Random construct bodies: every tensor variable in the pool has shape (2, 3), float64. With
    ``stateful``, the bodies also update Parameters (:data:`STATE`) and call cells that do. ``areas``
    (of :data:`AREAS`) adds mixed index reads (``index``), item assignments (``itemassign``) and bool
    masks and int/float promotion (``dtype``); a ``plain`` body reads no values and has no hooks or
    closures (what ``vmap``, forward mode and training steps are checked on: tools/fuzz_transforms.py)."""

    def __init__(self, rng: random.Random, size: int, stateful=False, areas=AREAS, plain=False):
        self.rng = rng
        self.areas, self.plain = frozenset(areas), plain
        self.budget = size
        self.fresh = 0
        self.arity = rng.choice((1, 1, 2))
        self.dynamic = 0  # how many tensor ``if``/``while`` the statement being generated is under
        self.stateful = stateful
        self.scope = "Net"  # the cell whose construct is being generated (a key of STATE)

    def name(self) -> str:
        self.fresh += 1
        return f"v{self.fresh}"

    def pick(self, pool):
        return self.rng.choice(sorted(pool))

    def expr(self, pool, depth=0) -> str:
        r = self.rng
        if depth > 2 or r.random() < 0.3:
            if self.stateful and r.random() < 0.25:
                return self.state_read(pool)
            return self.pick(pool)
        a = self.expr(pool, depth + 1)
        b = self.expr(pool, depth + 1)
        choices = [
            f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"({a} / (1.5 + {b} * {b}))",
            f"({a} * {r.choice((0.5, -1.25, 2.0))})", f"ops.sin({a})", f"ops.tanh({a})", f"ops.cos({a})",
            f"ops.sigmoid({a})", f"ops.relu({a})", f"ops.maximum({a}, {b})", f"ops.abs({a})",
            f"ops.matmul({a}, self.w0)", f"({a} @ self.w0)", f"({a} + self.w1)",
            f"({a}.sum(axis=1, keepdims=True) + {b})", f"(ops.mean({a}, 0) * {b})",
            f"({a}.sum() * {b})", f"ops.transpose(ops.transpose({a}, (1, 0)), (1, 0))",
            f"{a}.reshape(3, 2).reshape(2, 3)", f"({a}[0] + {b})", f"({a}[:, 1:2] * {b})",
            f"ops.expand_dims({a}, 0).squeeze(0)", f"self.sub({a})", f"self.seq({a})",
            f"self.method({a}, {b})", f"helper({a}, {b})", f"self.mul({a}, {b})",
            f"({a} * ops.cast({INT_INPUT}, ms.float64))", f"ops.square({a})",
            f"ops.reduce_sum({a}, 1).reshape(2, 1) * {b}",
        ]
        if not self.plain:
            choices.append(f"self.watched({a})")
            if self.dynamic == 0 or r.random() < 0.1:  # a hook reading under a tensor if/while: refused
                choices.append(f"self.scaled({a})")
            if r.random() < 0.01 and self.scope == "Net":  # a hook deciding a Python if on a read value
                return f"self.gated({a})"                     # (refused under a tensor if)
        if "index" in self.areas:
            choices += [self.index_read(a, b) for _ in range(3)]
        if "dtype" in self.areas:
            choices += [self.dtype_mix(a, b) for _ in range(2)]
        if self.scope != "Net":  # a stateful sub-cell has no sub-cells of Net's, no int input
            choices = [c for c in choices if "self." not in c and f"cast({INT_INPUT}" not in c]
        if self.stateful:
            choices += [self.state_read(pool, a) for _ in range(4)]
        return r.choice(choices)

    def state_read(self, pool, a=None) -> str:
        """A value computed from a Parameter of the scope, or the result of a cell that updates one: a
        new array, never the Parameter itself or a view of it (a view taken before an assignment sees
        the new value in eager code only, a known divergence from MindSpore)."""
        r = self.rng
        state = STATE[self.scope]
        a = a or self.pick(pool)
        p = r.choice(state["rows"])
        forms = [f"({p} * {r.choice((0.5, 1.0, -1.25))})", f"({p} + 0.0)", f"(-{p})", f"ops.sin({p})",
                 f"({p} + {a})", f"({p} * {a})", f"({p}.sum() * {a})", f"ops.tanh({p} - {a})"]
        forms += [f"ops.matmul({a}, {m})" for m in state["weights"]]
        forms += [f"({s} * {a})" for s in state["stats"]]
        forms += [f"{cell}({a})" for cell in state["cells"]]
        return r.choice(forms)

    def update(self, pool) -> list:
        """A statement updating a Parameter of the scope (``ops.assign``/``assign_add``/``assign_sub``,
        the ``Assign``/``AssignAdd`` primitives, attribute assignment), or calling a cell that updates
        its own for the effect alone (its result unused). New values stay bounded."""
        r = self.rng
        state = STATE[self.scope]
        if state["cells"] and r.random() < 0.2:
            return [f"{r.choice(state['cells'])}({self.expr(pool, 1)})"]
        if state["weights"] and r.random() < 0.25:
            m, a, b = r.choice(state["weights"]), self.pick(pool), self.pick(pool)
            step = f"ops.matmul(ops.transpose({a}, (1, 0)), ops.tanh({b})) * 0.05"
            return [r.choice((f"ops.assign({m}, {m} * 0.9 + {step})", f"ops.assign_add({m}, {step})",
                              f"self.assign({m}, ops.tanh({m} - {step}))"))]
        p, e = r.choice(state["rows"]), self.expr(pool, 1)
        return [r.choice((f"ops.assign({p}, ops.tanh({e}))", f"ops.assign({p}, {p} * 0.5 + ops.tanh({e}) * 0.5)",
                          f"ops.assign_add({p}, ops.tanh({e}) * 0.25)", f"ops.assign_sub({p}, ops.sin({e}) * 0.25)",
                          f"self.assign({p}, ops.tanh({e}) - {p} * 0.5)", f"self.assign_add({p}, ops.sin({e}) * 0.25)",
                          f"{p} = {p} * 0.5 + ops.tanh({e}) * 0.25", f"{p} += ops.tanh({e}) * 0.25"))]

    def must_update(self, stmts, pool):
        """Append an update to ``stmts`` unless they update state already."""
        if not UPDATES.search("\n".join(render_stmts(stmts, ""))):
            stmts += self.update(pool)

    def operand(self, pool) -> str:
        """A pool value, or in a stateful program sometimes a Parameter (read in a loop's condition)."""
        if self.stateful and self.rng.random() < 0.5:
            return self.rng.choice(STATE[self.scope]["rows"])
        return self.pick(pool)

    def read(self, pool) -> str:
        """An expression using a value read from a tensor (JIT fallback): a constant to gradients."""
        r = self.rng
        a, t = self.expr(pool, 2), self.pick(pool)
        return r.choice((f"({a} * float({t}.mean()))", f"(Tensor(np.tanh({t}.asnumpy())) + {a})",
                         f"({a} * {t}[0, 1].item())", f"({a} * int({INT_INPUT}))",
                         f"({a} + Tensor(np.asarray({t}.tolist())).sum())"))

    def cond(self, pool) -> str:
        r = self.rng
        a = self.operand(pool)
        return r.choice((f"{a}.sum() > {r.choice((0.0, 0.5, -0.5))}", f"ops.mean({a}) < {r.choice((0.0, 0.3))}",
                         f"{a}[0, 1] > {a}[1, 0]"))

    def stmts(self, pool: set, depth: int, in_loop: str, top: bool) -> list:
        """A statement list; adds the names it defines for sure to ``pool``."""
        out = []
        n = self.rng.randint(1, 4) if depth else self.rng.randint(2, 6)
        dynamic = self.dynamic
        for _ in range(n):
            if self.budget <= 0:
                break
            self.budget -= 1
            out += self.stmt(pool, depth, in_loop, top)
        self.dynamic = dynamic
        return out

    def stmt(self, pool: set, depth: int, in_loop: str, top: bool) -> list:
        r = self.rng
        kinds = ["assign"] * 5 + ["aug", "swap", "tuple", "alias", "pyif"]
        if self.dynamic == 0 or r.random() < 0.1:  # a read under a tensor if/while: refused
            kinds += ["read", "read"]
        if depth < 2:
            kinds += ["tif", "tif", "range", "range", "tuple_loop", "enumerate", "while", "celllist",
                      "counter", "counter"]
            if self.dynamic == 0 or r.random() < 0.1:  # a read deciding control flow under a tensor one: refused
                kinds += ["read_if", "read_range"]
        if in_loop == "dynamic":
            kinds += ["break", "continue"]
        if top and depth == 0 or (top and in_loop == "" and depth > 0):
            kinds += ["return"]
            if depth < 2:
                kinds += ["counter_return"]
        if self.scope != "Net":
            kinds = [kind for kind in kinds if kind not in NET_ONLY_KINDS]
        if self.stateful:
            kinds += ["update"] * 4 + ["state_read"]
        if self.scope == "Net" and depth < 2 and not self.plain:
            kinds += ["closure"] * 3 + ["made_closure"]
        if self.plain:
            kinds = [kind for kind in kinds if not kind.startswith("read")]
        if "itemassign" in self.areas:
            kinds += ["item_assign"] * 2
        kind = r.choice(kinds)
        if kind == "item_assign":
            return self.item_assign(pool, depth)
        if kind == "closure":
            return self.closure(pool)
        if kind == "made_closure":
            return self.made_closure(pool)
        if kind == "update":
            return self.update(pool)
        if kind == "state_read":  # a value computed from state, read after later updates
            target = self.name()
            line = f"{target} = {self.state_read(pool)}"
            pool.add(target)
            return [line]
        if kind == "assign":
            target = self.name() if r.random() < 0.5 or len(pool) < 2 else self.pick(pool)
            line = f"{target} = {self.expr(pool)}"
            pool.add(target)
            return [line]
        if kind == "aug":
            target = self.pick(pool)
            return [f"{target} {r.choice(('+=', '-=', '*='))} {self.expr(pool)}"]
        if kind == "swap" and len(pool) >= 2:
            a, b = r.sample(sorted(pool), 2)
            return [r.choice((f"{a}, {b} = {b}, {a}", f"{a}, {b} = {b}, {a} * 0.5"))]
        if kind == "tuple" and len(pool) >= 2:
            a, b = r.sample(sorted(pool), 2)
            t, c, d = self.name(), self.name(), self.name()
            line = f"{t} = ({a}, {self.expr(pool)})"
            pool.update((c, d))
            return [line, f"{c}, {d} = {t}", f"{a} = {t}[1]"]
        if kind == "alias":
            a = self.name()
            line = f"{a} = {self.pick(pool)}"
            pool.add(a)
            return [line]
        if kind == "read":
            target = self.name() if r.random() < 0.5 or len(pool) < 2 else self.pick(pool)
            line = f"{target} = {self.read(pool)}"
            pool.add(target)
            return [line]
        if kind == "read_if":  # a Python if on a read value: guarded, compiled again when it flips
            then_pool, else_pool = set(pool), set(pool)
            t = self.pick(pool)
            test = r.choice((f"float({t}.mean()) > {r.choice((0.0, 0.2))}", f"{t}[1, 2].item() < 0.0",
                             f"np.sum({t}.asnumpy()) > 0.0", f"int({INT_INPUT}) > 1"))
            block = Block(f"if {test}:", self.stmts(then_pool, depth + 1, in_loop, top),
                          self.stmts(else_pool, depth + 1, in_loop, top))
            pool.intersection_update(then_pool & else_pool)
            return [block]
        if kind == "read_range":  # a loop bound read from the int input: guarded on its value
            body = self.stmts(set(pool), depth + 1, "dynamic", False)
            body.append(f"{self.pick(pool)} = {self.pick(pool)} + r{depth} * 0.5")
            return [Block(f"for r{depth} in range(int({INT_INPUT}){r.choice(('', ' + 1'))}):", body)]
        if kind == "pyif":
            then_pool, else_pool = set(pool), set(pool)
            block = Block("if self.flag:", self.stmts(then_pool, depth + 1, in_loop, top),
                          self.stmts(else_pool, depth + 1, in_loop, top))
            pool.intersection_update(then_pool & else_pool)
            return [block]
        if kind == "tif":
            then_pool, else_pool = set(pool), set(pool)
            self.dynamic += 1
            then = self.stmts(then_pool, depth + 1, in_loop, top)
            if r.random() < 0.3:
                mid_pool = set(pool)
                inner = Block(f"if {self.cond(pool)}:", self.stmts(mid_pool, depth + 1, in_loop, top),
                              self.stmts(else_pool, depth + 1, in_loop, top))
                block = Block(f"if {self.cond(pool)}:", then, [inner])
                else_pool &= mid_pool
            else:
                block = Block(f"if {self.cond(pool)}:", then, self.stmts(else_pool, depth + 1, in_loop, top))
            self.dynamic -= 1
            pool.intersection_update(then_pool & else_pool)
            return [block]
        if kind == "range":
            inner = set(pool)
            i = f"i{depth}"
            body = self.stmts(inner, depth + 1, "dynamic", False)
            if r.random() < 0.3:
                body.append(f"{self.pick(pool)} = {self.pick(pool)} + {i} * 0.25")
            loop = [Block(f"for {i} in range({r.randint(1, 4)}):", body)]
            if r.random() < 0.3:  # the index after the loop: its last value (or the one broken at)
                loop.append(f"{self.pick(pool)} = {self.pick(pool)} * ({i} + 1.0)")
            if not any(kind in line for line in render_stmts(body, "") for kind in ("break", "continue")):
                pool.update(inner)  # names first assigned in the body hold the last iteration's values
            return loop
        if kind == "tuple_loop" and len(pool) >= 2:
            inner = set(pool)
            t = f"t{depth}"
            items = ", ".join(r.sample(sorted(pool), 2))
            body = [f"{self.pick(pool)} = {self.pick(pool)} + ops.sin({t})"] + self.stmts(inner, depth + 1, "static", False)
            return [Block(f"for {t} in ({items},):", body)]
        if kind == "enumerate" and len(pool) >= 2:
            t, j = f"t{depth}", f"j{depth}"
            items = ", ".join(r.sample(sorted(pool), 2))
            target = self.pick(pool)
            return [Block(f"for {j}, {t} in enumerate(({items},)):", [f"{target} = {target} * 0.5 + {t} * {j}"])]
        if kind == "while":
            c = f"c{depth}"
            inner = set(pool)
            self.dynamic += 1
            body = [f"{c} = {c} + 1.0"] + self.stmts(inner, depth + 1, "dynamic", False)  # continue-safe
            self.dynamic -= 1
            return [f"{c} = {self.pick(pool)}.sum() * 0.0", Block(f"while {c} < {r.randint(1, 3)}:", body)]
        if kind == "counter":  # a Tensor counter built in compiled code, the condition on it alone or not
            c = f"n{depth}"  # not c: a name of one dtype for the counters of every loop that stays a loop
            inner = set(pool)
            test = f"{c} < {r.randint(1, 3)}"
            if r.random() < 0.4:
                test = f"({test}) & (ops.abs({self.operand(pool)}).sum() < {r.choice((2.0, 8.0, 50.0))})"
            self.dynamic += 1
            body = [f"{c} = {c} + 1"] + self.stmts(inner, depth + 1, "dynamic", False)  # continue-safe
            self.dynamic -= 1
            return [f"{c} = Tensor(0, ms.int32)", Block(f"while {test}:", body)]
        if kind == "counter_return":  # a loop that stays a loop and returns under a tensor condition
            c = f"n{depth}"
            self.dynamic += 1
            body = [f"{c} = {c} + 1"] + self.stmts(set(pool), depth + 1, "static", False)
            self.dynamic -= 1
            body.append(Block(f"if {self.cond(pool)}:", [self.ret(pool)]))
            self.dynamic += 1  # what follows runs after the loop that may have returned
            return [f"{c} = Tensor(0, ms.int32)", Block(f"while {c} < {r.randint(1, 3)}:", body)]
        if kind == "celllist":
            target = self.pick(pool)
            return [Block("for layer in self.layers:", [f"{target} = layer({target})"])]
        if kind in ("break", "continue"):
            self.dynamic += 1  # what follows in the list runs under the tensor condition
            return [Block(f"if {self.cond(pool)}:", [kind])]
        if kind == "return":
            self.dynamic += 1
            return [Block(f"if {self.cond(pool)}:", [self.ret(pool)])]
        return [f"{self.pick(pool)} = {self.expr(pool)}"]

    # ------------------------------------------------------------ indexing, item assignment, dtypes

    def index_read(self, a, b) -> str:
        """A read of ``a`` at int-tensor indices mixed with slices, ints and the int input (``gather``,
        ``gather_elements``, ``gather_nd`` among them), broadcast back to (2, 3)."""
        r, idx = self.rng, lambda values: f"Tensor({values}, ms.int32)"
        forms = [f"({a}[{idx([1, 0])}] + {b})", f"({a}[:, {idx([2, 0, 1])}] * {b})",
                 f"({a}[{idx([1, 1])}, 1:2] * {b})", f"({a}[0, {idx([2, 2, 0])}] + {b})",
                 f"({a}[{idx([1, 0])}, {idx([2, 0])}].reshape(2, 1) * {b})",
                 f"{a}[{idx([[1], [0]])}, {idx([0, 2, 1])}]", f"{a}.reshape(1, 2, 3)[0, {idx([1, 0])}, :]",
                 f"({a}.reshape(2, 3, 1)[1, {idx([2, 0])}, :] * {b})", f"ops.gather({a}, {idx([1, 0, 2])}, 1)",
                 f"ops.gather({a}, {idx([1, 1])}, 0)", f"ops.gather_elements({a}, 1, {idx([[2, 0, 1], [1, 1, 0]])})",
                 f"(ops.gather_nd({a}, {idx([[1, 2], [0, 0]])}).reshape(2, 1) * {b})", f"({a}[:, ::-1] + {b})",
                 f"({a}[::-1, 1:].sum(axis=1, keepdims=True) * {b})", f"({a}[..., 1:2] * {b})",
                 f"({a}[-1, ::2].sum() * {b})"]
        if self.scope == "Net":  # the int input k (1 or 2) as an index
            forms += [f"({a}[:, {INT_INPUT}].reshape(2, 1) * {b})", f"({a}[{INT_INPUT} - 1] + {b})",
                      f"({a}[{INT_INPUT} - 1, {idx([0, 2, 1])}] * {b})", f"(ops.gather({a}, {INT_INPUT}, 1).reshape(2, 1) * {b})"]
        return r.choice(forms)

    def dtype_mix(self, a, b) -> str:
        """An expression mixing dtypes: bool masks in arithmetic and ``where``/``masked_fill``, int tensors
        and Python numbers promoted with float64. A float cast to int32 is behind ``stop_gradient``: MindSpore's
        gradient passes through an integer cast (mindspore-semantics.md, section 5), which central differences do not."""
        forms = [f"ops.where({a} > {b}, {a}, {b})", f"({a} * ({b} > 0))", f"ops.masked_fill({a}, {b} < 0, 0.5)",
                 f"({a} * ({a} > {b}).astype(ms.float64))", f"({a} * ops.logical_and({a} > 0, {b} < 0.5))",
                 f"({a} * Tensor(np.array([1, 2, 3], np.int32)))", f"({a} * (ops.stop_gradient(ops.cast({b} * 4.0, ms.int32)) + 1))",
                 f"({a} + ({a} > 0) * 0.5)", f"ops.select({b} < {a}, ops.sin({a}), {b})"]
        if self.scope == "Net":
            forms += [f"({a} + {INT_INPUT} * 0.5)", f"({a} * ({INT_INPUT} * 2))", f"({a} / {INT_INPUT})",
                      f"({a} * ({INT_INPUT} > 1))"]
        return self.rng.choice(forms)

    def item_assign(self, pool, depth) -> list:
        """A fresh copy of a value (no other name refers to it: compiled code binds a new tensor, eager code
        writes in place), then item assignments into it: ints, slices, ``...``, int-tensor rows, bool masks,
        the int input and a loop's index; augmented; under a tensor ``if`` or in a ``range`` loop."""
        r = self.rng
        t = self.name()
        e = f"({self.expr(pool, 1)})"
        out = [f"{t} = {self.expr(pool)} * 1.0"]
        op = r.choice(("=", "+=", "-=", "*="))
        forms = [f"{t}[0] {op} {e}[1]", f"{t}[:, 1:3] {op} {e}[:, :2]", f"{t}[1, 2] {op} {e}.sum()",
                 f"{t}[{t} > 0] = 0.5", f"{t}[{e} < 0.1] = {e}[0, 1]", f"{t}[Tensor([1, 0], ms.int32)] {op} {e}",
                 f"{t}[..., 1] {op} {e}[:, 2]", f"{t}[-1, ::2] = 1.5", f"{t}[1] {op} ops.sin({e}[0])",
                 f"{t}[:, None, 1] = {e}[:, :1]", f"{t}[Tensor([[True, False, True], [False, True, False]])] {op} 0.25"]
        if self.scope == "Net":
            forms.append(f"{t}[{INT_INPUT} - 1] {op} {e}[0]")
        if r.random() < 0.05:  # tensor indices mixed with others: refused (known-differences.md)
            forms.append(r.choice((f"{t}[:, Tensor([2, 0], ms.int32)] = {e}[:, 1:]", f"{t}[:, {INT_INPUT}] {op} 2.0")))
        out.append(r.choice(forms))
        choice = r.random()
        if choice < 0.25:
            self.dynamic += 1
            out.append(Block(f"if {self.cond(pool)}:", [r.choice(forms)], [r.choice(forms)] if r.random() < 0.5 else None))
            self.dynamic -= 1
        elif choice < 0.5:
            i = f"i{depth}"
            out.append(Block(f"for {i} in range(2):", [r.choice((f"{t}[{i}] = {t}[{i}] * 0.5 + {e}[{i}]",
                                                                  f"{t}[:, {i}:{i} + 2] += {e}[:, :2] * 0.5",
                                                                  f"{t}[{i}, {i}] = {e}[1, {i}]"))]))
        pool.add(t)
        return out

    # ------------------------------------------------------------ closures

    def closure_body(self, pool, params, weight=None) -> str:
        """An expression of a closure's parameters ``params`` and the values of construct it reads (locals,
        inputs, Parameters); with ``weight``, it reads that Parameter surely (its gradient is asked for)."""
        r = self.rng
        reads = [self.expr(pool, 1) for _ in range(r.randint(0, 2))] + [r.choice(("self.w1", "self.w0[0]"))] * (r.random() < 0.3)
        terms = [f"ops.sin({params[0]})", f"({params[0]} * {r.choice(sorted(pool))})", f"ops.tanh({params[0]} + {params[-1]})"]
        if weight == "self.w0":
            terms.append(f"ops.tanh(ops.matmul({params[0]}, self.w0))")
        elif weight == "self.w1":
            terms.append(f"({params[-1]} * self.w1)")
        terms = r.sample(terms, r.randint(1, len(terms))) + ([terms[-1]] if weight else [])
        return " + ".join(terms + [f"{e} * {r.choice((0.5, -0.25))}" for e in reads])

    def closure_def(self, pool, name, params, weight=None) -> list:
        """``name = lambda ...: ...``, or a nested def (its own locals, a tensor ``if`` that returns, a def
        inside it that reads its parameter and construct's values)."""
        r = self.rng
        args = ", ".join(params)
        if r.random() < 0.5:
            return [f"{name} = lambda {args}: {self.closure_body(pool, params, weight)}"]
        body = [f"h = {self.closure_body(pool, params, weight)}"]
        choice = r.random()
        if choice < 0.3:
            body.append(Block(f"if h.sum() > {r.choice((0.0, 0.5))}:", [f"return h * {r.choice((2.0, -0.5))}"]))
        elif choice < 0.5:
            body += [Block("def inner(z):", [f"return z * {params[0]} + {self.pick(pool)}"]), "h = inner(h) - h"]
        elif choice < 0.7:
            body.append(Block(f"for q in range({r.randint(1, 3)}):", [f"h = ops.tanh(h) + q * {params[0]}"]))
        return [Block(f"def {name}({args}):", body + [f"return h - {params[-1]}"])]

    def closure(self, pool) -> list:
        """A lambda or nested def of construct (one or two parameters) reading construct's values, perhaps
        one rebound after it is made (Python reads the value at the call, as npspore does; MindSpore 2.10's
        graph mode the one at the definition: not generated against MindSpore), then used: called directly,
        in a loop, under a tensor ``if``, passed to a sub-cell or module function (whose own names may be
        the ones it reads), mapped, partially applied, or differentiated in construct (``ms.grad`` and
        ``value_and_grad`` by positions and weights)."""
        r = self.rng
        self.fresh += 1
        f, arity = f"f{self.fresh}", r.choice((1, 1, 2))
        params = ("u", "z")[:arity]
        a, b = self.pick(pool), self.pick(pool)
        args = ", ".join((a, b)[:arity])
        uses = ["call", "call", "loop", "tif", "pass_cell", "pass_fn", "map", "partial", "grad", "value_and_grad",
                "grad_weights"]
        use = r.choice(uses)
        weight = r.choice(("self.w0", "self.w1")) if use == "grad_weights" else None
        # a function differentiated in construct updates no state: eager code runs its gradient as a kernel, whose
        # writes the central differences cannot hold at the unshifted point's values (see FrozenReads)
        stateful, self.stateful = self.stateful, self.stateful and "grad" not in use
        out = self.closure_def(pool, f, params, weight)
        self.stateful = stateful
        if r.random() < 0.3:  # a name it reads, rebound after it is made
            rebound = self.pick(pool)
            out.append(f"{rebound} = {rebound} * 0.5 + {r.choice((0.25, -1.0))}")
        target = self.name() if r.random() < 0.6 else self.pick(pool)
        fn = f if arity == 1 else f"ops.partial({f}, {a})"  # a function of one argument
        if use == "call":
            out.append(f"{target} = {f}({args}) * {r.choice((1.0, 0.5))}")
        elif use == "loop":
            out.append(f"{target} = {a}")
            out.append(Block(f"for i9 in range({r.randint(1, 3)}):", [f"{target} = {fn}({target}) * 0.5"]))
        elif use == "tif":
            self.dynamic += 1
            out.append(Block(f"if {self.cond(pool)}:", [f"{target} = {f}({args})"], [f"{target} = {b} * 0.5"]))
            self.dynamic -= 1
        elif use == "pass_cell":
            out.append(f"{target} = self.applier({b}, {fn})")
        elif use == "pass_fn":
            out.append(f"{target} = apply_fn({b}, {fn})")
        elif use == "map":
            c = self.name()
            mapped = r.choice((f"map({fn}, ({a}, {b}))", f"ops.HyperMap()({fn}, ({a}, {b}))",
                               f"ops.Map()({fn}, ({a}, {b}))"))
            out.append(f"{target}, {c} = {mapped}")
            pool.add(c)
        elif use == "partial":
            partial = r.choice(("ops.partial", "functools.partial"))
            out.append(f"{target} = {partial}({f}, {a})({b})" if arity == 2 else f"{target} = {partial}({f}, {a})()")
        elif use == "grad":
            if arity == 1:
                out.append(f"{target} = ms.grad({f})({a})")
            else:
                c = self.name()
                out.append(f"{target}, {c} = ms.grad({f}, (0, 1))({a}, {b})")
                pool.add(c)
        elif use == "value_and_grad":
            c = self.name()
            position = r.randint(0, arity - 1)
            out.append(f"{target}, {c} = ms.value_and_grad({f}, {position})({args})")
            pool.add(c)
        else:  # the gradient of a weight of the net a closure reads
            if weight == "self.w1":
                c = self.name()
                out.append(f"{target}, {c} = ms.grad({f}, 0, self.w1)({args})")
                pool.add(c)
            else:
                out.append(f"{target} = ops.matmul({a}, ms.grad({f}, None, (self.w0,))({args})[0])")
        pool.add(target)
        return out

    def made_closure(self, pool) -> list:
        """A function a module helper or sub-cell makes and returns (reading its own names), called, or passed
        on to a sub-cell; functions made in a comprehension or a loop over ``range``, each reading the loop's last
        index when called after it, as Python's late binding says (MindSpore 2.10's graph mode reads the index
        of the lambda's own iteration: not generated against MindSpore)."""
        r = self.rng
        self.fresh += 1
        f, a, b = f"f{self.fresh}", self.pick(pool), self.pick(pool)
        target = self.name()
        pool.add(target)
        choice = r.random()
        if choice < 0.4:
            return [f"{f} = {r.choice(('make_fn', 'self.maker'))}({a})",
                    r.choice((f"{target} = {f}({b})", f"{target} = self.applier({b}, {f})", f"{target} = {f}({f}({b}))"))]
        if choice < 0.7:
            return [f"{target} = {r.choice(('make_fn', 'self.maker'))}({a})({b})"]
        k = r.randint(1, 3)
        if choice < 0.85:
            return [f"{f} = [lambda u: u * (q + {r.choice((0.5, 1.0))}) + {a} for q in range({k})]",
                    f"{target} = {f}[{r.randint(0, k - 1)}]({b}) - {f}[-1]({a})"]
        return [Block(f"for q in range({k}):", [f"{f} = lambda u: u * (q + 0.5) - {a}"]), f"{target} = {f}({b})"]

    def ret(self, pool) -> str:
        values = [self.expr(pool) for _ in range(self.arity)]
        return "return " + (values[0] if self.arity == 1 else "(" + ", ".join(values) + ")")

    def program(self):
        """``(flag, n_inputs, stmts)``; a stateful one adds ``state``: the bodies of ``Acc`` and
        ``Nest`` and whether ``Net`` is in training mode."""
        n_inputs = self.rng.randint(1, 3)
        pool = {f"x{i}" for i in range(n_inputs)}
        stmts = self.stmts(pool, 0, "", True)
        if self.stateful:
            self.must_update(stmts, pool)
        stmts.append(self.ret(pool))
        flag = self.rng.random() < 0.5
        if not self.stateful:
            return (flag, n_inputs, stmts)
        state = {"Acc": self.cell_body("Acc"), "Nest": self.cell_body("Nest"), "train": self.rng.random() < 0.75}
        return (flag, n_inputs, stmts, state)

    def cell_body(self, scope) -> list:
        """The construct body of the stateful cell ``scope`` (``Acc`` or ``Nest``) over its input ``a``:
        it updates state at least once."""
        outer = self.scope, self.arity, self.budget, self.dynamic
        self.scope, self.arity, self.budget, self.dynamic = scope, 1, self.rng.randint(2, 6), 0
        pool = {"a"}
        body = self.stmts(pool, 0, "", True)
        self.must_update(body, pool)
        body.append(self.ret(pool))
        self.scope, self.arity, self.budget, self.dynamic = outer
        return body


# ------------------------------------------------------------------------------ checking


class Finding(Exception):
    """A program whose compiled result differs from eager execution or the true derivative."""


class TooSlow(BaseException):
    """Raised by the alarm when one program outlives the time limit (a BaseException, so that no
    ``except Exception`` of the code under test swallows it)."""


def _alarm(signum, frame):
    raise TooSlow()


WALL_FACTOR = 5  # a program blocked without using the CPU is stopped after this many times the limit


class time_limit:
    """Context manager: raise :class:`TooSlow` after ``seconds`` of this process's CPU time, or
    ``WALL_FACTOR`` times as much wall time (main thread, POSIX; elsewhere no limit). CPU time, so
    that the other processes of a loaded machine (the fuzzer runs at low priority) do not make a
    program too slow."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.armed = seconds and hasattr(signal, "setitimer") and \
            threading.current_thread() is threading.main_thread()

    def __enter__(self):
        if self.armed:
            self.previous = [signal.signal(s, _alarm) for s in (signal.SIGPROF, signal.SIGALRM)]
            signal.setitimer(signal.ITIMER_PROF, self.seconds)
            signal.setitimer(signal.ITIMER_REAL, self.seconds * WALL_FACTOR)
        return self

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            for s, previous in zip((signal.SIGPROF, signal.SIGALRM), self.previous):
                signal.signal(s, previous)
        return False


def load(source: str, directory: str, traced=False):
    """Import a program's module text (npspore compiles source, so it lives in a real file); with
    ``traced``, run it through ``exec`` instead: without a source file npspore traces its functions."""
    load.count = getattr(load, "count", 0) + 1
    # another copy of this module (tools/fuzz_transforms.py loads its own) writes files of its own names: one of the
    # same name would be read from linecache's stale copy by npspore's parser (another program compiled)
    name = f"fuzz_prog_{os.getpid()}_{re.sub(r'[^A-Za-z0-9]', '_', __name__)}_{load.count}"
    if traced:
        module = types.ModuleType(name)
        module.__file__ = f"<{name}>"
        exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 - the traced path
        return module
    path = os.path.join(directory, name + ".py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def leaves(value):
    """The arrays of a (nested) tuple of Tensors."""
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in leaves(v)]
    return [np.asarray(value.asnumpy(), np.float64)]


def dtypes(value) -> list:
    """The dtypes of the Tensors of a (nested) tuple of them, as strings."""
    if isinstance(value, (tuple, list)):
        return [d for v in value for d in dtypes(v)]
    return [str(value.dtype)]


def close(got, want, rtol=1e-9, atol=1e-9) -> bool:
    return len(got) == len(want) and all(
        np.shape(g) == np.shape(w) and np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        for g, w in zip(got, want))


def bounded(arrays) -> bool:
    """Finite and below 1e4: overflowing values make no precise test."""
    return all(np.all(np.isfinite(a)) and np.all(np.abs(a) < 1e4) for a in arrays)


def conditioned(got, want, moved) -> bool:
    """Whether ``got`` equals ``want`` closely, or no further apart than ``moved()`` (eager's values when
    what they come from moves by a few ulps) is from ``want``: at an ill-conditioned point (``cos`` of
    1e8) the summation order the compiler may choose matters as much."""
    if close(got, want):
        return True
    if len(got) != len(want) or any(np.shape(g) != np.shape(w) for g, w in zip(got, want)):
        return False
    return all(np.max(np.abs(np.subtract(g, w)), initial=0.0) <= 100 * np.max(np.abs(np.subtract(m, w)), initial=0.0)
               for g, w, m in zip(got, want, moved()))


def state_of(net) -> list:
    """Copies of the values of ``net``'s Parameters (``get_parameters`` order)."""
    return [np.array(p.asnumpy(), np.float64) for p in net.get_parameters()]


def set_state(ms, net, state):
    """Give ``net``'s Parameters the values ``state`` (as :func:`state_of` lists them)."""
    for p, value in zip(net.get_parameters(), state):
        p.set_data(ms.Tensor(value.copy()))


READ_METHODS = ("asnumpy", "item", "tolist", "__float__", "__int__", "__index__")


class FrozenReads:
    """Tensor value reads (``float(t)``, ``t.asnumpy()``...) made by the program's own code (its file)
    and the values written into Parameters (``ops.assign`` and its kin, BatchNorm's statistics,
    attribute assignment), as a context manager: the first use records them, later uses give the
    recorded values back in order. A read value is a constant to MindSpore's gradient, and its
    gradient does not flow through an assignment, so the central differences of the eager program
    hold both so too; a run that reads or writes in another order (a tensor branch flipped) marks
    ``diverged``, a point the differences say nothing about."""

    def __init__(self, tensor_class, filename: str):
        self.tensor_class, self.filename = tensor_class, filename
        self.recorded, self.replaying, self.diverged = [], False, False

    def __enter__(self):
        self.position = 0
        self.originals = [(self.tensor_class, name, getattr(self.tensor_class, name)) for name in READ_METHODS]
        for owner, name, original in self.originals:
            setattr(owner, name, self._wrap(name, original))
        eager = importlib.import_module("npspore.ops.eager")
        parameter_class = importlib.import_module("npspore").Parameter
        self.originals += [(eager, "assign", eager.assign), (parameter_class, "set_data", parameter_class.set_data)]
        eager.assign = self._wrap_assign(eager.assign)
        # a gradient function compiled meanwhile (``ms.grad`` of a lambda inside an eager construct) stages the
        # wrapper as the assignment it stands for
        library = importlib.import_module("npspore.compiler.library").LIBRARY
        self.originals.append((library, "assign", library.assign))
        library.assign = eager.assign
        parameter_class.set_data = self._wrap_set_data(parameter_class.set_data)
        return self

    def __exit__(self, *exc):
        for owner, name, original in self.originals:
            setattr(owner, name, original)
        self.replaying = True
        return False

    def reading(self) -> bool:
        """Whether the recorded run read tensor values (not only wrote Parameters)."""
        return any(name in READ_METHODS for name, _ in self.recorded)

    def _frozen(self, name, value):
        """``value`` (recording), or the value recorded for this event (replaying)."""
        if not self.replaying:
            self.recorded.append((name, value))
            return value
        if self.position >= len(self.recorded) or self.recorded[self.position][0] != name or \
                np.shape(self.recorded[self.position][1]) != np.shape(value):
            self.diverged = True
            return value
        self.position += 1
        recorded = self.recorded[self.position - 1][1]
        return recorded.copy() if isinstance(recorded, np.ndarray) else recorded

    def _wrap(self, name, original):
        def read(tensor, *args):
            value = original(tensor, *args)
            if sys._getframe(1).f_code.co_filename != self.filename:
                return value
            return self._frozen(name, value)
        return read

    def _array(self, value):
        return np.array(value.asnumpy() if isinstance(value, self.tensor_class) else value)

    def _wrap_assign(self, original):
        def assign(variable, value):
            return original(variable, self.tensor_class(self._frozen("assign", self._array(value))))
        return assign

    def _wrap_set_data(self, original):
        def set_data(parameter, data, *args, **kwargs):
            if sys._getframe(1).f_code.co_name == "_assign_parameter_slot":  # self.p = value in a construct
                data = self.tensor_class(self._frozen("set_data", self._array(data)))
            return original(parameter, data, *args, **kwargs)
        return set_data


class Checker:
    """Runs every check on one program (``net``, a Cell or a function, called on ``inputs``); raises
    :class:`Finding` on a wrong result. With ``assigns`` the program writes its Parameters, which are
    put back before every call so that each call sees the same state; ``build`` (a stateful program)
    makes new instances of it in the same state as ``net``, to be called several times in a row."""

    def __init__(self, ms, net, inputs, rng: np.random.Generator, assigns=False, build=None):
        self.ms, self.rng, self.net, self.inputs, self.build = ms, rng, net, list(inputs), build
        self.params = list(net.trainable_params()) if hasattr(net, "trainable_params") else []
        self.saved = [(p, p.asnumpy().copy()) for p in net.get_parameters()] if assigns else []
        self.float_positions = [k for k, x in enumerate(self.inputs) if x.dtype in (ms.float32, ms.float64)]
        code = getattr(getattr(net, "construct", net), "__code__", None)
        self.reads = FrozenReads(ms.Tensor, code.co_filename) if code else None
        self.reading = False  # whether the program reads tensor values (known after the first eager run)

    @classmethod
    def generated(cls, ms, module, rng: np.random.Generator, n_inputs: int):
        """The checker of a generated program: random Parameters, ``n_inputs`` float inputs and ``k``."""
        net = module.Net()
        for p in net.get_parameters():
            p.set_data(ms.Tensor(rng.uniform(-0.6, 0.6, p.shape)))
        inputs = [ms.Tensor(rng.uniform(-1.0, 1.0, SHAPE)) for _ in range(n_inputs)]
        inputs.append(ms.Tensor(np.array(int(rng.integers(1, 3)), np.int32)))
        return cls(ms, net, inputs, rng)

    def call(self, fn, inputs=None):
        """``fn`` on ``inputs`` (default: the program's), the Parameters first put back."""
        for p, data in self.saved:
            p.set_data(self.ms.Tensor(data.copy()))
        return fn(*(inputs or self.inputs))

    def eager(self, inputs=None):
        return self.call(self.net, inputs)

    def record_reads(self):
        """Run eager once at the program's inputs recording the values its code reads (see
        :class:`FrozenReads`)."""
        if self.reads is not None:
            with self.reads:
                self.eager()
            self.reading = self.reads.reading()

    def total(self, inputs=None, first_only=False):
        """The sum of the eager outputs, the values the program reads held at the unshifted inputs'."""
        if self.reads is None:
            out = self.eager(inputs)
        else:
            with self.reads:
                out = self.eager(inputs)
        if first_only and isinstance(out, tuple):
            out = out[0]
        return sum(float(np.sum(leaf)) for leaf in leaves(out))

    def forward(self):
        """The compiled forward equals eager (values and dtypes), then, called again on other inputs (negated floats,
        another int: a value guard or traced branch may fail and compile again), equals eager there too."""
        eager = self.eager()
        want = leaves(eager)
        written = [p.asnumpy().copy() for p, _ in self.saved]
        compiled = self.ms.jit(self.net)
        result = self.call(compiled)
        got = leaves(result)
        if dtypes(result) != dtypes(eager):
            raise Finding(f"forward: compiled dtypes {dtypes(result)} != eager {dtypes(eager)}")
        if not self.matches_eager(got, want):
            raise Finding(f"forward: compiled {got} != eager {want}")
        for (p, _), eager_value in zip(self.saved, written):
            if not close([p.asnumpy()], [eager_value]):
                raise Finding(f"forward: compiled code wrote {p.name} = {p.asnumpy()}, eager {eager_value}")
        other = self.other_inputs()
        try:
            want = leaves(self.eager(other))
        except Exception:  # noqa: BLE001 - eager rejects these inputs: no test
            return
        if not all(np.all(np.isfinite(leaf)) and np.all(np.abs(leaf) < 1e4) for leaf in want):
            return
        got = leaves(self.call(compiled, other))
        if not self.matches_eager(got, want, other):
            raise Finding(f"forward on other inputs: compiled {got} != eager {want}")

    def other_inputs(self):
        """Negated float inputs and another int: a value guard or traced branch may fail there."""
        return [self.ms.Tensor(-x.asnumpy()) if k in self.float_positions else self.ms.Tensor(3 - x.asnumpy())
                for k, x in enumerate(self.inputs)]

    def nudged(self, arrays):
        """Float64 ``arrays`` moved by a few ulps."""
        return [a * (1.0 + 4e-16 * self.rng.standard_normal(a.shape)) if a.dtype == np.float64 else a for a in arrays]

    def matches_eager(self, got, want, inputs=None) -> bool:
        """Whether compiled values ``got`` equal eager ``want``: closely, or no further apart than eager's
        own values move when the float inputs move by a few ulps (an ill-conditioned point, e.g. ``cos``
        of 1e8, where the summation order the compiler may choose matters as much)."""
        def moved():
            arrays = self.nudged([x.asnumpy() for x in inputs or self.inputs])
            return leaves(self.eager([self.ms.Tensor(a) for a in arrays]))
        return conditioned(got, want, moved)

    # ---------------------------------------------------------------- stateful programs

    def calls_in_a_row(self, calls=3):
        """A compiled instance and an eager one, from the same Parameter values, called ``calls`` times in
        a row (the program's inputs, again, then other inputs), the Parameters never put back: after
        each call the outputs and every Parameter agree (up to the conditioning of eager's values when
        the inputs and Parameters move by a few ulps). Returns the eager outputs and Parameters after
        the first call, or None when eager execution fails or overflows there (no test)."""
        eager, mirror = self.build(), self.build()
        compiled, first = self.ms.jit(mirror), None
        for call, inputs in enumerate([self.inputs] * (calls - 1) + [self.other_inputs()], 1):
            before = state_of(eager)
            try:
                want = leaves(eager(*inputs))
            except Exception:  # noqa: BLE001 - eager rejects these inputs: no test
                return first
            want_state = state_of(eager)
            if not bounded(want + want_state):
                return first
            got = leaves(compiled(*inputs))
            got_state = state_of(mirror)
            if not conditioned(got + got_state, want + want_state, lambda: self.rerun(before, inputs)):
                if len(got) != len(want):
                    raise Finding(f"call {call}: compiled {got} != eager {want}")
                names = [f"output {k}" for k in range(len(got))] + [p.name for p in mirror.get_parameters()]
                values = list(zip(got + got_state, want + want_state))
                wrong = next(k for k, (g, w) in enumerate(values) if not close([g], [w]))
                raise Finding(f"call {call}: compiled {names[wrong]} = {values[wrong][0].tolist()}, "
                              f"eager {values[wrong][1].tolist()}")
            first = first or (want, want_state)
        return first

    def rerun(self, state, inputs) -> list:
        """The outputs and Parameters of eager code run from Parameters ``state`` on ``inputs``, both
        moved by a few ulps."""
        net = self.build()
        set_state(self.ms, net, self.nudged(state))
        out = leaves(net(*[self.ms.Tensor(a) for a in self.nudged([x.asnumpy() for x in inputs])]))
        return out + state_of(net)

    def stateful_gradient(self, first):
        """``value_and_grad`` of random float inputs of a new instance: its value and the Parameters it
        leaves equal eager's first call's (``first``), its gradients central differences of eager code
        (the values its assignments write held at the unshifted inputs': MindSpore's gradient does not
        flow through an assignment)."""
        floats = self.float_positions
        positions = tuple(sorted(self.rng.choice(floats, size=int(self.rng.integers(1, len(floats) + 1)),
                                                 replace=False).tolist()))
        net = self.build()
        value, grads = self.ms.value_and_grad(net, positions)(*self.inputs)
        want, want_state = first
        if not close(leaves(value), want):
            raise Finding(f"value_and_grad value {leaves(value)} != eager {want}")
        got_state = state_of(net)
        for p, got, wanted in zip(net.get_parameters(), got_state, want_state):
            if not close([got], [wanted]):
                raise Finding(f"value_and_grad left {p.name} = {got}, eager's first call {wanted}")
        by_position = lambda result: result if len(positions) > 1 else (result,)  # noqa: E731
        for k, (target, g) in enumerate(zip(positions, by_position(grads))):
            def again(inputs, k=k):  # the gradient a step away, of a new instance (its state unused)
                return by_position(self.ms.value_and_grad(self.build(), positions)(*inputs)[1])[k]
            wrong = self.directional(target, g, again=again)
            if wrong:
                raise Finding(f"value_and_grad d/{target}: {wrong}")

    def shifted(self, target, delta, fn):
        """``fn(inputs)`` with ``target`` (an input position or a Parameter) moved by ``delta``."""
        if isinstance(target, int):
            inputs = list(self.inputs)
            inputs[target] = self.ms.Tensor(self.inputs[target].asnumpy() + delta)
            return fn(inputs)
        saved, state = target.asnumpy().copy(), self.saved
        self.saved = [(p, data + delta if p is target else data) for p, data in state]  # what calls start from
        target.set_data(self.ms.Tensor(saved + delta))
        try:
            return fn(self.inputs)
        finally:
            target.set_data(self.ms.Tensor(saved))
            self.saved = state

    def absorbed(self, target, u, total) -> bool:
        """Whether ``total``, which the difference steps along ``u`` left exactly unchanged, moves under
        larger steps: then the steps were absorbed (``x + w`` with ``x`` of 1e20 is ``x`` for any small
        move of ``w``), and central differences say nothing there. A total that no step moves is
        flat, and its gradient must be 0."""
        here = total(self.inputs)
        return any(self.shifted(target, step * u, total) != here for step in (1e-2, 1.0, 1e2, 1e4, 1e6, 1e8))

    def directional(self, target, grad, first_only=False, total=None, again=None):
        """<grad, u> against central differences of ``total`` along a random direction ``u`` of
        ``target`` (an input position or a Parameter); None at a non-smooth point: where two step
        sizes disagree, or where the gradient itself (``again(inputs)``, recomputed a step away)
        changes by more than the mismatch at the scale of the step (chaotic, e.g. ``sin`` of 1e9)."""
        total = total or (lambda inputs: self.total(inputs, first_only))
        u = self.rng.standard_normal(self.inputs[target].shape if isinstance(target, int) else target.shape)
        estimates = []
        if self.reads is not None:
            self.reads.diverged = False
        for eps in (1e-6, 1e-5):
            ahead, behind = (self.shifted(target, sign * eps * u, total) for sign in (1.0, -1.0))
            estimates.append((ahead - behind) / (2 * eps))
        if not np.isclose(estimates[0], estimates[1], rtol=1e-4, atol=1e-6):
            return None
        if self.reads is not None and self.reads.diverged:
            return None
        if estimates[0] == estimates[1] == 0.0 and self.absorbed(target, u, total):
            return None
        analytic = float(np.sum(np.asarray(grad.asnumpy(), np.float64) * u))
        if np.isclose(analytic, estimates[0], rtol=1e-5, atol=1e-5):
            return None
        if again is not None:
            nearby = float(np.sum(np.asarray(self.shifted(target, 1e-6 * u, again).asnumpy(), np.float64) * u))
            if not np.isclose(nearby, analytic, rtol=1e-3, atol=1e-5):
                return None
        return f"<grad, u> = {analytic}, central differences {estimates[0]}"

    def choose(self):
        floats = self.float_positions
        chosen = self.rng.choice(floats, size=int(self.rng.integers(1, len(floats) + 1)), replace=False).tolist()
        positions = tuple(sorted(chosen))
        weights = None
        if self.rng.random() < 0.5:
            weights = [p for p in self.params if self.rng.random() < 0.5] or self.params[:1]
        if weights is not None and self.rng.random() < 0.3:
            positions = None
        return positions, weights

    def gradient(self):
        positions, weights = self.choose()
        fn = self.ms.grad(self.net, positions, weights)
        self.check_grads(positions, weights, fn, "grad")

    @staticmethod
    def by_target(positions, weights, result) -> list:
        """The gradients of a result in the order of ``positions`` then ``weights``."""
        if positions is None:
            by_position, by_weight = (), result
        elif weights is None:
            by_position, by_weight = result, ()
        else:
            by_position, by_weight = result
        if positions is not None and len(positions) == 1:
            by_position = (by_position,)
        if weights is not None and not isinstance(by_weight, tuple):
            by_weight = (by_weight,)
        return list(by_position) + list(by_weight)

    def check_grads(self, positions, weights, fn, label, first_only=False, pick=lambda result: result):
        """Check every gradient ``fn`` (``pick`` takes them out of its result) gives."""
        targets = list(positions or ()) + list(weights or ())
        grads = self.by_target(positions, weights, pick(self.call(fn)))
        for k, (target, g) in enumerate(zip(targets, grads)):
            again = lambda inputs, k=k: self.by_target(positions, weights, pick(self.call(fn, inputs)))[k]  # noqa: E731
            wrong = self.directional(target, g, first_only, again=again)
            name = target if isinstance(target, int) else target.name
            if wrong:
                raise Finding(f"{label} d/{name}: {wrong}")

    def aux(self):
        out = self.eager()
        if not isinstance(out, tuple):
            return
        positions, weights = self.choose()
        fn = self.ms.value_and_grad(self.net, positions, weights, has_aux=True)
        value, _ = self.call(fn)
        if not self.matches_eager(leaves(value), leaves(out)):
            raise Finding(f"value_and_grad(has_aux) value {leaves(value)} != eager {leaves(out)}")
        self.check_grads(positions, weights, fn, "value_and_grad(has_aux)", first_only=True,
                         pick=lambda result: result[1])
        if positions is not None and weights is None:
            ids = self.call(self.ms.grad(self.net, positions, None, return_ids=True))
            ids = (ids,) if len(positions) == 1 else ids
            if [i for i, _ in ids] != list(positions):
                raise Finding(f"return_ids gave positions {[i for i, _ in ids]}, expected {list(positions)}")

    def integer_gradients(self):
        """The gradient of each integer input has its dtype (MindSpore casts it), with and without
        ``has_aux``."""
        integers = [k for k in range(len(self.inputs)) if k not in self.float_positions]
        if not integers:
            return
        positions = tuple(sorted(self.float_positions[:1] + integers))
        grads = self.call(self.ms.grad(self.net, positions))
        with_aux = isinstance(self.eager(), tuple)
        if with_aux:
            grads = grads + self.call(self.ms.value_and_grad(self.net, positions, has_aux=True))[1]
        for k, g in zip(positions * (2 if with_aux else 1), grads):
            if g.dtype != self.inputs[k].dtype:
                raise Finding(f"the gradient of input {k} ({self.inputs[k].dtype}) is {g.dtype}")

    def second_order(self):
        """grad(grad) against central differences of the first gradient; with values read, which the
        first gradient reads again at each shifted point (no constant there), it only has to run."""
        x = self.float_positions[0]
        first = self.ms.grad(self.net, x)
        second = self.ms.grad(first, x)
        if self.reading:
            self.call(second)
            return
        wrong = self.directional(x, self.call(second),
                                 total=lambda inputs: float(np.sum(self.call(first, inputs).asnumpy())),
                                 again=lambda inputs: self.call(second, inputs))
        if wrong:
            raise Finding(f"grad(grad) d/x{x}: {wrong}")


def check(source: str, n_inputs: int, seed: int, directory: str, ms, limit=None, traced=False) -> str | None:
    """The failure of one program: a message, or None when every check passes (or eager rejects
    the program, which makes it no test). Taking longer than ``limit`` seconds (default
    ``TIME_LIMIT``) is a failure too. With ``traced`` the program runs through ``exec`` (traced)."""
    limit = TIME_LIMIT if limit is None else limit
    try:
        with time_limit(limit):
            return _check(source, n_inputs, seed, directory, ms, traced)
    except TooSlow:
        return f"too slow: compiling and checking took more than {limit:g} s of CPU time"


def _check(source, n_inputs, seed, directory, ms, traced):
    try:
        module = load(source, directory, traced)
        if hasattr(module, "SPEC"):  # a stateful program: make() and SPEC
            checker = spec_checker(ms, module)
        else:
            checker = Checker.generated(ms, module, np.random.default_rng(seed), n_inputs)
    except Exception:  # noqa: BLE001 - not a valid program (e.g. after shrinking)
        return None
    return run_checks(checker)


def run_checks(checker) -> str | None:
    """Every check of ``checker``'s program: its failure, or None (also when eager rejects the
    program or overflows, which makes it no test)."""
    try:
        out = leaves(checker.eager())
    except TooSlow:
        return None  # eager execution does not end either (a loop whose step a shrink deleted): no test
    except Exception:  # noqa: BLE001 - not a valid program (e.g. after shrinking)
        return None
    if not bounded(out):
        return None  # overflowing values make no precise test
    try:
        checker.record_reads()
        if checker.build is not None:
            first = checker.calls_in_a_row()
            checker.integer_gradients()
            if first is not None:
                checker.stateful_gradient(first)
            return None
        checker.forward()
        checker.integer_gradients()
        if checker.saved:
            # MindSpore's gradient does not flow through a Parameter's assignment (central differences
            # of the eager program see it): gradients of such a program must run, and are not compared
            checker.call(checker.ms.grad(checker.net, checker.float_positions[0]))
            checker.call(checker.ms.grad(checker.ms.grad(checker.net, checker.float_positions[0])))
            return None
        checker.gradient()
        checker.aux()
        checker.second_order()
    except Finding as finding:
        return f"wrong: {str(finding)[:300]}"
    except Exception as error:  # noqa: BLE001 - a crash or refusal of a program eager runs
        return classify(error)
    return None


def classify(error) -> str:
    """The message of an error raised by compiled code on a program eager runs: a clean refusal (see
    :data:`CLEAN_REFUSALS`) or a finding."""
    refusal = any(cls.__name__ == "NotSupportedError" for cls in type(error).__mro__)  # or ReadInCallee
    if refusal and any(reason in str(error) for reason in CLEAN_REFUSALS):
        return f"{REFUSED}: {str(error).splitlines()[0][:200]}"
    return f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}"


REFUSED = "refused"
# npspore's documented compile-time refusals of value reads it cannot guard (docs/compiled-execution.md):
# a clean NotSupportedError at the user's line, counted apart from findings
# (a traced program, run through exec, cannot record a gradient function called in it: it says so)
# (a traced program cannot record an in-place update or an index of several tensors; compiled code refuses tensor
# indices mixed with others in an item assignment: docs/known-differences.md)
CLEAN_REFUSALS = ("reading a tensor's value here", "this value decides how the code is compiled",
                  "a gradient function called on a traced tensor cannot be recorded",
                  "on a traced tensor cannot be recorded",
                  "assigning at tensor or list indices mixed with other indices")


def is_finding(message) -> bool:
    """Whether a check's result is a finding: not None and no clean refusal."""
    return message is not None and not message.startswith(REFUSED)


def spec_checker(ms, module, seed=None):
    """The checker of a program in the format of :func:`replay`: inputs drawn from ``seed`` (default
    ``SPEC['seed']`` or 0); a stateful one gets new instances from ``make``."""
    spec = module.SPEC
    rng = np.random.default_rng(spec.get("seed", 0) if seed is None else seed)
    net = module.make(np.float64)
    inputs = [ms.Tensor(rng.uniform(-1.0, 1.0, shape)) if kind == "f" else
              ms.Tensor(rng.integers(1, 3, shape).astype(np.int32)) for shape, kind in spec["inputs"]]
    build = (lambda: module.make(np.float64)) if spec.get("stateful") else None
    return Checker(ms, net, inputs, rng, assigns=spec.get("assign", False), build=build)


def replay(path: str, ms, seed=None, limit=None) -> str | None:
    """The failure of a saved program in the format of ``../shared/repros/compiler/fuzz/p*.py``
    (``make(dtype)`` returns a Cell or a function, ``SPEC`` gives its inputs' shapes and kinds, ``f``
    float or ``i`` int32, and whether it assigns Parameters; a ``stateful`` one is called several times
    in a row, from ``seed``'s inputs, run through ``exec`` if ``traced``), run in float64; None when
    every check passes. Taking longer than ``limit`` seconds is a failure too."""
    limit = TIME_LIMIT if limit is None else limit
    name = f"fuzz_replay_{os.getpid()}_{abs(hash(os.path.abspath(path)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if module.SPEC.get("traced"):
        with open(path) as f:
            module = load(f.read(), os.path.dirname(path), traced=True)
    try:
        with time_limit(limit):
            if "transform" in module.SPEC:  # a check of tools/fuzz_transforms.py
                return sibling("fuzz_transforms").check_module(ms, module)
            return run_checks(spec_checker(ms, module, seed))
    except TooSlow:
        return f"too slow: compiling and checking took more than {limit:g} s of CPU time"


def sibling(name: str):
    """The module ``tools/<name>.py`` (loaded once; tools/ is no package)."""
    loaded = sibling.loaded = getattr(sibling, "loaded", {})
    if name not in loaded:
        spec = importlib.util.spec_from_file_location(f"npspore_{name}",
                                                      os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py"))
        loaded[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded[name])
    return loaded[name]


def failure_class(message: str) -> str:
    return message.split(":")[0]


# ------------------------------------------------------------------------------ shrinking


def _deletions(stmts):
    """Every statement list obtained by deleting one statement or replacing a block by its body."""
    for k, stmt in enumerate(stmts):
        yield stmts[:k] + stmts[k + 1:]
        if isinstance(stmt, Block):
            yield stmts[:k] + stmt.body + stmts[k + 1:]
            if stmt.orelse:
                yield stmts[:k] + stmt.orelse + stmts[k + 1:]
            for body in _deletions(stmt.body):
                yield stmts[:k] + [Block(stmt.header, body, stmt.orelse, stmt.else_header)] + stmts[k + 1:]
            for orelse in _deletions(stmt.orelse or []):
                yield stmts[:k] + [Block(stmt.header, stmt.body, orelse, stmt.else_header)] + stmts[k + 1:]


def _bodies(program) -> list:
    """The generated statement lists of a program: Net's construct, and the stateful cells'."""
    return [program[2]] + ([program[3]["Acc"], program[3]["Nest"]] if len(program) > 3 else [])


def _candidates(program):
    """Every program with one statement deleted or one block replaced by its body, in Net's construct
    or a stateful cell's."""
    flag, n_inputs, stmts = program[:3]
    for smaller in _deletions(stmts):
        yield (flag, n_inputs, smaller) + tuple(program[3:])
    if len(program) > 3:
        for cell in ("Acc", "Nest"):
            for smaller in _deletions(program[3][cell]):
                yield (flag, n_inputs, stmts, {**program[3], cell: smaller})


def shrink(program, seed, message, directory, ms, limit=None, traced=False):
    """Delete statements and blocks while the program keeps failing the same way."""
    wanted = failure_class(message)
    improved = True
    while improved:
        improved = False
        for candidate in _candidates(program):
            if not all(names_defined_before_use(body) for body in _bodies(candidate)):
                continue
            found = check(render(candidate, seed, traced), candidate[1], seed, directory, ms, limit, traced)
            if found and failure_class(found) == wanted:
                program, message, improved = candidate, found, True
                break
    return program, message


# ------------------------------------------------------------------------------ driver


def is_stateful(seed: int, stateful=None) -> bool:
    """Whether ``seed`` makes a stateful program: ``stateful``, or by default every fourth seed."""
    return seed % 4 == 2 if stateful is None else stateful


def generate(seed: int, stateful=None, areas=AREAS):
    """The program of ``seed`` and whether it runs traced (through ``exec``; a quarter of them do);
    stateful as :func:`is_stateful` says; ``areas`` (of :data:`AREAS`) as :class:`Generator` says."""
    rng = random.Random(seed)
    program = Generator(rng, size=rng.choice((4, 8, 14, 24)), stateful=is_stateful(seed, stateful), areas=areas).program()
    return program, rng.random() < 0.25


def run_seed(seed: int, directory: str, ms, do_shrink=True, limit=None, stateful=None, areas=AREAS):
    """Generate and check the program of ``seed``: None, or (message, minimal source); a clean
    refusal is not shrunk. A stateful program's source is in the format :func:`replay` reads."""
    program, traced = generate(seed, stateful, areas)
    message = check(render(program, seed, traced), program[1], seed, directory, ms, limit, traced)
    if message is None:
        return None
    if do_shrink and is_finding(message):
        program, message = shrink(program, seed, message, directory, ms, limit, traced)
    return message, ("# traced: run through exec\n" if traced else "") + render(program, seed, traced)


def save(seed, message, source, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"finding_{seed}.py")
    with open(path, "w") as f:
        f.write(f'"""fuzz seed {seed}: {message}"""\n' + source)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=None, help="run random seeds for this long")
    parser.add_argument("--seeds", default="0:50", help="a range of seeds, start:stop (default 0:50)")
    parser.add_argument("--out", default="fuzz_findings", help="where shrunk failing programs go")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT,
                        help=f"seconds of CPU time one program may take (default {TIME_LIMIT:g}); more is a finding")
    parser.add_argument("--stateful", action="store_true",
                        help="only stateful programs (by default every fourth seed makes one)")
    parser.add_argument("--areas", default=",".join(AREAS + ("transforms",)),
                        help="what the programs use beside the core: index, itemassign, dtype (fuzz.py's generator), "
                             "transforms (vmap, jvp, vjp, Jacobians, training steps, low precision: one check of "
                             "tools/fuzz_transforms.py per seed); default all, '' for none")
    parser.add_argument("--replay", nargs="+", metavar="FILE",
                        help="check these saved programs (make(dtype) and SPEC, as in repros/compiler/fuzz) instead")
    args = parser.parse_args(argv)
    os.environ.setdefault("NPSPORE_CACHE_DIR", tempfile.mkdtemp(prefix="npspore-fuzz-cache-"))
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    import npspore as ms
    if args.replay:
        return replay_files(args.replay, ms, args.time_limit)
    areas = tuple(area for area in args.areas.split(",") if area)
    start, stop = (int(s) for s in args.seeds.split(":"))
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    seed, ran, found, refused, stateful = start, 0, 0, 0, 0
    with tempfile.TemporaryDirectory() as directory:
        sys.path.insert(0, directory)
        while (deadline is None and seed < stop) or (deadline is not None and time.time() < deadline):
            runs = [("", lambda: run_seed(seed, directory, ms, not args.no_shrink, args.time_limit,
                                          args.stateful or None, areas))]
            if "transforms" in areas:
                runs.append(("t", lambda: sibling("fuzz_transforms").run_seed(seed, directory, ms, not args.no_shrink,
                                                                              args.time_limit)))
            for prefix, run in runs:
                try:
                    result = run()
                except Exception:  # noqa: BLE001 - a bug of the fuzzer itself: report and go on
                    traceback.print_exc()
                    result = None
                ran += 1
                if result is not None and not is_finding(result[0]):
                    refused += 1
                elif result is not None:
                    found += 1
                    print(f"seed {prefix}{seed}: {result[0]} -> {save(prefix + str(seed), *result, args.out)}", flush=True)
            stateful += is_stateful(seed, args.stateful or None)
            seed += 1
            if ran % 20 == 0:
                print(f"{ran} programs ({stateful} stateful), {found} findings, {refused} refused (seed {seed})",
                      flush=True)
    print(f"{ran} programs ({stateful} stateful), {found} findings, {refused} refused (seeds {start}:{seed})")
    return 1 if found else 0


def replay_files(paths, ms, limit) -> int:
    """Check each saved program; prints one line per program and the summary line."""
    found = 0
    for path in paths:
        try:
            message = replay(path, ms, limit=limit)
        except Exception as error:  # noqa: BLE001 - a program that does not load is reported as such
            message = f"not loaded: {type(error).__name__}: {error}"
        found += message is not None
        print(f"{path}: {message or 'ok'}", flush=True)
    print(f"{len(paths)} programs, {found} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
