"""Transforms and training steps in the differential fuzzer (tools/fuzz.py), each against an independent reference.

A seed's program is fuzz.py's ``Net`` with a *plain* construct body (no value reads, hooks or closures; index
reads, item assignments and dtype mixes as in fuzz.py's default mix), its Parameters drawn by ``make``. One check of
:data:`CHECKS` is drawn with its arguments, which ``SPEC['transform']`` records:

* ``vmap``: ``ms.vmap(net, in_axes, out_axes)`` over a batch of 3 (an axis per input, ``None`` and negative axes
  among them, the int input mapped or not) equals a Python loop of eager calls over the batch, stacked at
  ``out_axes``;
* ``vmap_nested``: ``vmap(vmap(net, inner axes), outer axes)`` equals two nested loops;
* ``vmap_grad``: ``vmap(ms.grad(net, positions))`` (per-sample gradients) equals a loop of ``ms.grad`` calls (whose
  values fuzz.py's own checks hold against central differences);
* ``jvp``: ``ops.jvp``'s output equals eager, its tangent central differences of eager along the tangents;
* ``vjp``: ``ops.vjp``'s function of a random cotangent ``c`` gives each float input's gradient of ``<c, net>``,
  checked along a random direction by central differences;
* ``jacfwd``/``jacrev`` (one position or two): each block of the Jacobian times a random direction equals central
  differences of its output along it;
* ``train``: ``nn.TrainOneStepCell`` of a squared-error loss of the net with an optimizer (SGD with momentum and
  Nesterov, Momentum, Adam, AdamWeightDecay; weight decay) compiled by ``ms.jit`` and run eagerly from the same
  Parameters, three steps in a row: the loss and every Parameter (the optimizer's state among them) agree after
  each step;
* ``low_precision``: float inputs in float16 or float32 (promoted where they meet the float64 Parameters, which
  ``set_data`` keeps in their dtype): compiled and eager give the same dtypes, and values as close as eager's own
  values are to themselves when the inputs move by an ulp.

Central differences skip the elements where two step sizes disagree (a non-smooth point). ``python tools/fuzz.py``
runs one of these checks on every seed beside its own program (``--areas`` chooses); a finding is shrunk
(statements deleted while it fails the same way) and saved in the ``--replay`` format, ``SPEC['transform']`` in it.
"""
from __future__ import annotations

import ast
import importlib.util
import os
import random

import numpy as np

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz.py")
_SPEC = importlib.util.spec_from_file_location("npspore_fuzz_core", _PATH)
fuzz = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fuzz)

CHECKS = ("vmap", "vmap_nested", "vmap_grad", "jvp", "vjp", "jacfwd", "jacrev", "train", "low_precision")
BATCH = (3, 2)  # the batch sizes of the inner and the outer vmap
STEPS = 3
OPTIMIZERS = (
    "nn.SGD(params, learning_rate=0.1)",
    "nn.SGD(params, learning_rate=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)",
    "nn.Momentum(params, learning_rate=0.05, momentum=0.9)",
    "nn.Momentum(params, learning_rate=0.05, momentum=0.8, use_nesterov=True, weight_decay=0.01)",
    "nn.Adam(params, learning_rate=0.05)",
    "nn.Adam(params, learning_rate=0.05, weight_decay=0.01, use_nesterov=True)",
    "nn.AdamWeightDecay(params, learning_rate=0.05, weight_decay=0.01)",
)

# a squared-error loss of the net's first output (and a linear term of its second), and the training step
TRAIN = '''

class Loss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, ARGS, y):
        out = self.net(ARGS)
        return LOSS


def make_train(dtype=np.float64):
    net = make(dtype)
    params = net.trainable_params()
    return nn.TrainOneStepCell(Loss(net), OPTIMIZER)
'''


def arity(stmts) -> int:
    """How many outputs a generated body returns (its last statement is a return)."""
    value = ast.parse(fuzz.render_stmts(stmts[-1:], "")[0]).body[0].value
    return len(value.elts) if isinstance(value, ast.Tuple) else 1


def draw(rng: random.Random, n_inputs: int, n_out: int) -> dict:
    """A check of :data:`CHECKS` and its arguments (``SPEC['transform']``)."""
    name = rng.choice(CHECKS)
    floats = list(range(n_inputs))
    spec = {"check": name}
    if name.startswith("vmap"):
        levels = 2 if name == "vmap_nested" else 1
        spec["in_axes"], spec["out_axes"] = [], []
        mapped = [0] * n_inputs  # how many levels map each float input so far (its rank is 2 + that)
        for level in range(levels):  # innermost first
            axes = [rng.choice((0, 1, 2 + mapped[k], -1, None)) for k in floats]
            if all(a is None for a in axes):
                axes[rng.choice(floats)] = 0
            mapped = [m + (a is not None) for m, a in zip(mapped, axes)]
            axes.append(0 if name != "vmap_grad" and rng.random() < 0.3 else None)  # the int input k
            spec["in_axes"].append(axes)
            spec["out_axes"].append(0 if name == "vmap_grad" else rng.choice((0, 1, -1, level + 1)))
    if name in ("vmap_grad", "jacfwd", "jacrev"):
        positions = sorted(rng.sample(floats, rng.randint(1, min(2, n_inputs))))
        spec["positions"] = positions[0] if len(positions) == 1 and rng.random() < 0.5 else positions
    if name == "train":
        spec["optimizer"] = rng.choice(OPTIMIZERS)
    if name == "low_precision":
        spec["input_dtype"] = rng.choice(("float16", "float32"))
    return spec


def render(program, seed: int, transform: dict) -> str:
    """The module text of a plain program with ``make``, ``SPEC`` and, for ``train``, ``make_train``."""
    flag, n_inputs, stmts = program
    text = fuzz.render(program, seed)
    text += fuzz.MAKE.replace("SEED", str(seed))
    if transform["check"] == "train":
        args = ", ".join([f"x{i}" for i in range(n_inputs)] + [fuzz.INT_INPUT])
        loss = "ops.reduce_mean(ops.square(out - y))" if arity(stmts) == 1 else \
            "ops.reduce_mean(ops.square(out[0] - y)) + ops.reduce_mean(out[1] * y)"
        text += TRAIN.replace("ARGS", args).replace("LOSS", loss).replace("OPTIMIZER", transform["optimizer"])
    spec = {"inputs": [[list(fuzz.SHAPE), "f"]] * n_inputs + [[[], "i"]], "kind": "cell", "seed": seed,
            "transform": transform}
    return text + f"\n\nSPEC = {spec!r}\n"


def generate(seed: int):
    """The plain program of ``seed`` and its check (``SPEC['transform']``)."""
    rng = random.Random(seed * 7919 + 17)  # not the stream of fuzz.py's program of the same seed
    generator = fuzz.Generator(rng, size=rng.choice((4, 8, 14)), plain=True)
    program = generator.program()
    return program, draw(rng, program[1], generator.arity)


# ------------------------------------------------------------------------------ references


def _axis(axis, ndim: int) -> int:
    """``axis`` (negative counting from the end) as a position in an array of ``ndim`` dimensions."""
    return axis + ndim if axis < 0 else axis


def _out_axis(axis, rank: int) -> int:
    """An output axis valid for an output of ``rank`` (the drawn one, or 0 when it is out of range)."""
    return axis if -(rank + 1) <= axis <= rank else 0


def looped(ms, fn, args, levels):
    """``fn`` mapped over ``args`` by Python loops, ``levels`` (``(in_axes, out_axes)``, outermost first): the
    leaves of each result (arrays, eager's dtypes) stacked at the output axis."""
    if not levels:
        return [np.asarray(leaf.asnumpy()) for leaf in _leaves(fn(*args))]
    (in_axes, out_axes), inner = levels[0], levels[1:]
    size = next(a.shape[_axis(ax, a.ndim)] for a, ax in zip(args, in_axes) if ax is not None)
    results = []
    for b in range(size):
        sample = [a if ax is None else ms.Tensor(np.take(a.asnumpy(), b, axis=_axis(ax, a.ndim)))
                  for a, ax in zip(args, in_axes)]
        results.append(looped(ms, fn, sample, inner))
    return [np.stack(column, axis=_axis(_out_axis(out_axes, column[0].ndim), column[0].ndim + 1))
            for column in zip(*results)]


def _leaves(value) -> list:
    return [leaf for v in value for leaf in _leaves(v)] if isinstance(value, (tuple, list)) else [value]


def differences(fn, inputs, directions):
    """Central differences of each output leaf of ``fn`` along ``directions`` (one per input, None to hold it),
    with a mask of the elements where two step sizes agree (elsewhere the point is not smooth)."""
    estimates = []
    for eps in (1e-6, 1e-5):
        def at(sign):
            moved = [x if u is None else x + sign * eps * u for x, u in zip(inputs, directions)]
            return [np.asarray(leaf.asnumpy(), np.float64) for leaf in _leaves(fn(moved))]
        estimates.append([(a - b) / (2 * eps) for a, b in zip(at(1.0), at(-1.0))])
    return [(e1, np.isclose(e1, e2, rtol=1e-4, atol=1e-6)) for e1, e2 in zip(*estimates)]


def agrees(analytic, estimate, smooth) -> bool:
    """Whether ``analytic`` equals central differences ``estimate`` where the point is smooth."""
    analytic = np.asarray(analytic, np.float64)
    return analytic.shape == estimate.shape and bool(np.all(
        np.isclose(analytic, estimate, rtol=1e-5, atol=1e-5) | ~smooth))


# ------------------------------------------------------------------------------ checks


class TransformChecker:
    """The check ``spec['transform']`` of a program loaded from :func:`render`'s text; :meth:`run` raises
    ``fuzz.Finding`` on a wrong value, gradient, shape or dtype."""

    def __init__(self, ms, module):
        self.ms, self.module, self.spec = ms, module, module.SPEC
        self.transform = self.spec["transform"]
        self.rng = np.random.default_rng(self.spec.get("seed", 0))
        self.net = module.make(np.float64)
        self.inputs = self.draw_inputs([()] * len(self.spec["inputs"]))

    def draw_inputs(self, batches):
        """The program's inputs, each with the batch dimensions ``batches[k]`` (``(position, size)`` pairs,
        innermost first) inserted: floats in [-1, 1), the int input 1 or 2."""
        out = []
        for (shape, kind), batch in zip(self.spec["inputs"], batches):
            shape = list(shape)
            for axis, size in batch:
                shape.insert(_axis(axis, len(shape) + 1), size)
            value = self.rng.uniform(-1.0, 1.0, shape) if kind == "f" else self.rng.integers(1, 3, shape).astype(np.int32)
            out.append(self.ms.Tensor(value))
        return out

    def floats(self) -> list:
        return [k for k, (_, kind) in enumerate(self.spec["inputs"]) if kind == "f"]

    def run(self):
        getattr(self, "check_" + self.transform["check"].replace("vmap_nested", "vmap"))()

    # ---------------------------------------------------------------- vmap

    def check_vmap(self):
        """vmap (nested when two levels of axes are given) against Python loops over the batch."""
        t = self.transform
        levels = list(zip(t["in_axes"], t["out_axes"]))  # innermost first
        batches = [[(axes[k], BATCH[level]) for level, axes in enumerate(t["in_axes"]) if axes[k] is not None]
                   for k in range(len(self.inputs))]
        args = self.draw_inputs(batches)
        want = looped(self.ms, self.net, args, list(reversed(levels)))
        fn, rank = self.net, want[0].ndim - len(levels)
        for level, (in_axes, out_axes) in enumerate(levels):  # out axes valid for the outputs, as the reference's
            out_axes = _out_axis(out_axes, rank + level)
            fn = self.ms.vmap(fn, in_axes=tuple(in_axes), out_axes=out_axes)
        self.compare("vmap", fn(*args), want)

    def check_vmap_grad(self):
        t = self.transform
        in_axes = t["in_axes"][0]
        args = self.draw_inputs([[(a, BATCH[0])] if a is not None else [] for a in in_axes])
        gradient = self.ms.grad(self.net, tuple(t["positions"]) if isinstance(t["positions"], list) else t["positions"])
        want = looped(self.ms, gradient, args, [(in_axes, 0)])
        self.compare("vmap(grad)", self.ms.vmap(gradient, in_axes=tuple(in_axes))(*args), want)

    def compare(self, label, result, want):
        got = _leaves(result)
        if [tuple(g.shape) for g in got] != [w.shape for w in want]:
            raise fuzz.Finding(f"{label}: shapes {[tuple(g.shape) for g in got]}, loop over the batch {[w.shape for w in want]}")
        if [str(g.dtype) for g in got] != [str(self.ms.Tensor(w).dtype) for w in want]:
            raise fuzz.Finding(f"{label}: dtypes {[str(g.dtype) for g in got]}, loop over the batch "
                               f"{[str(self.ms.Tensor(w).dtype) for w in want]}")
        if not fuzz.close([np.asarray(g.asnumpy(), np.float64) for g in got], [w.astype(np.float64) for w in want]):
            raise fuzz.Finding(f"{label}: {[g.asnumpy().tolist() for g in got]} != loop over the batch "
                               f"{[w.tolist() for w in want]}")

    # ---------------------------------------------------------------- forward mode, vjp, Jacobians

    def directions(self, only=None):
        """A random direction per float input (``only``: that input alone), None for the others."""
        return [self.rng.standard_normal(x.shape) if k in self.floats() and (only is None or k == only) else None
                for k, x in enumerate(self.inputs)]

    def eager_at(self, arrays):
        return self.net(*[self.ms.Tensor(a) if isinstance(a, np.ndarray) else a for a in arrays])

    def base(self):
        return [x.asnumpy() if k in self.floats() else x for k, x in enumerate(self.inputs)]

    def check_jvp(self):
        u = self.directions()
        tangents = [self.ms.Tensor(d) if d is not None else self.ms.Tensor(np.zeros(x.shape, np.int32))
                    for d, x in zip(u, self.inputs)]
        out, tangent = self.ms.ops.jvp(self.net, tuple(self.inputs), tuple(tangents))
        want = _leaves(self.net(*self.inputs))
        if not fuzz.close(fuzz.leaves(out), fuzz.leaves(tuple(want))):
            raise fuzz.Finding(f"jvp output {fuzz.leaves(out)} != eager {fuzz.leaves(tuple(want))}")
        for k, (leaf, (estimate, smooth)) in enumerate(zip(_leaves(tangent), differences(self.eager_at, self.base(), u))):
            if not agrees(leaf.asnumpy(), estimate, smooth):
                raise fuzz.Finding(f"jvp tangent {k}: {leaf.asnumpy().tolist()}, central differences {estimate.tolist()}")

    def check_vjp(self):
        out, vjp_fn = self.ms.ops.vjp(self.net, *self.inputs)
        cotangents = [self.rng.standard_normal(leaf.shape) for leaf in _leaves(out)]
        grads = vjp_fn(*[self.ms.Tensor(c) for c in cotangents])
        if len(_leaves(grads)) != len(self.inputs):
            raise fuzz.Finding(f"vjp gave {len(_leaves(grads))} gradients for {len(self.inputs)} inputs")

        def weighted(arrays):
            return (sum(float(np.sum(c * leaf.asnumpy())) for c, leaf in zip(cotangents, _leaves(self.eager_at(arrays)))),)
        for k in self.floats():
            u = self.directions(k)
            [(estimate, smooth)] = differences(lambda arrays: [self.ms.Tensor(np.array(v)) for v in weighted(arrays)],
                                               self.base(), u)
            analytic = float(np.sum(_leaves(grads)[k].asnumpy() * u[k]))
            if not agrees(analytic, estimate, smooth):
                raise fuzz.Finding(f"vjp d/x{k}: <grad, u> = {analytic}, central differences {float(estimate)}")

    def check_jacfwd(self):
        self.jacobian(self.ms.ops.jacfwd, "jacfwd")

    def check_jacrev(self):
        self.jacobian(self.ms.ops.jacrev, "jacrev")

    def jacobian(self, transform, label):
        position = self.transform["positions"]
        positions = position if isinstance(position, list) else [position]
        jac = transform(self.net, tuple(position) if isinstance(position, list) else position)(*self.inputs)
        outputs = _leaves(self.net(*self.inputs))
        if len(outputs) > 1 and len(positions) > 1:  # MindSpore's structure: a tuple per output, one block per input
            blocks = [list(row) for row in jac]
        elif len(positions) > 1:
            blocks = [list(jac)]
        else:  # bare, or a tuple over the outputs
            blocks = [[block] for block in (jac if len(outputs) > 1 else (jac,))]
        if len(blocks) != len(outputs) or any(len(row) != len(positions) for row in blocks):
            raise fuzz.Finding(f"{label}: {len(blocks)} rows of blocks for {len(outputs)} outputs and {len(positions)} inputs")
        for j, k in enumerate(positions):
            u = self.directions(k)
            for i, (estimate, smooth) in enumerate(differences(self.eager_at, self.base(), u)):
                block = blocks[i][j].asnumpy()
                want_shape = tuple(outputs[i].shape) + tuple(self.inputs[k].shape)
                if block.shape != want_shape:
                    raise fuzz.Finding(f"{label} block ({i}, x{k}): shape {block.shape}, expected {want_shape}")
                analytic = np.tensordot(block, u[k], axes=u[k].ndim)
                if not agrees(analytic, estimate, smooth):
                    raise fuzz.Finding(f"{label} block ({i}, x{k}) times u: {analytic.tolist()}, central differences "
                                       f"{estimate.tolist()}")

    # ---------------------------------------------------------------- training steps, low precision

    def check_train(self):
        """Three training steps compiled and eager, from the same Parameters; after each the loss and every
        Parameter (the optimizer's state among them) agree."""
        eager, mirror = self.module.make_train(np.float64), self.module.make_train(np.float64)
        compiled = self.ms.jit(mirror)
        label = self.ms.Tensor(self.rng.uniform(-1.0, 1.0, fuzz.SHAPE))
        for step in range(1, STEPS + 1):
            want = [np.asarray(eager(*self.inputs, label).asnumpy(), np.float64)] + fuzz.state_of(eager)
            if not fuzz.bounded(want):
                return
            got = [np.asarray(compiled(*self.inputs, label).asnumpy(), np.float64)] + fuzz.state_of(mirror)
            names = ["loss"] + [p.name for p in mirror.get_parameters()]
            for name, g, w in zip(names, got, want):
                if not fuzz.close([g], [w]):
                    raise fuzz.Finding(f"train step {step}: compiled {name} = {g.tolist()}, eager {w.tolist()}")

    def check_low_precision(self):
        """Float inputs in float16 or float32: compiled equals eager (dtypes, and values as far apart at most as
        eager's own when the inputs move by an ulp)."""
        dtype = np.dtype(self.transform["input_dtype"])
        net = self.module.make(np.float64)
        inputs = [self.ms.Tensor(x.asnumpy().astype(dtype)) if k in self.floats() else x for k, x in enumerate(self.inputs)]
        eager = net(*inputs)
        want = fuzz.leaves(eager)
        if not fuzz.bounded(want):
            return
        result = self.ms.jit(net)(*inputs)
        if fuzz.dtypes(result) != fuzz.dtypes(eager):
            raise fuzz.Finding(f"{dtype} inputs: compiled dtypes {fuzz.dtypes(result)} != eager {fuzz.dtypes(eager)}")
        got = fuzz.leaves(result)

        def moved():
            shifted = [self.ms.Tensor(np.nextafter(x.asnumpy(), np.where(self.rng.random(x.shape) < 0.5, -2.0, 2.0)
                                                   .astype(dtype))) if k in self.floats() else x
                       for k, x in enumerate(inputs)]
            return fuzz.leaves(net(*shifted))
        tolerance = float(np.finfo(np.float32).eps) * 8
        if not (fuzz.close(got, want, rtol=tolerance, atol=tolerance) or fuzz.conditioned(got, want, moved)):
            raise fuzz.Finding(f"{dtype} inputs: compiled {[g.tolist() for g in got]} != eager {[w.tolist() for w in want]}")


# ------------------------------------------------------------------------------ driver


def check_module(ms, module) -> str | None:
    """The failure of a loaded program with ``SPEC['transform']``: a message, or None (also when eager rejects
    the program or overflows: no test)."""
    try:
        checker = TransformChecker(ms, module)
        out = fuzz.leaves(checker.net(*checker.inputs))
    except Exception:  # noqa: BLE001 - not a valid program (e.g. after shrinking)
        return None
    if not fuzz.bounded(out):
        return None
    try:
        checker.run()
    except fuzz.Finding as finding:
        return f"wrong: {str(finding)[:300]}"
    except Exception as error:  # noqa: BLE001 - a crash or refusal of a program eager runs
        if any(reason in str(error) for reason in REFUSALS):
            return f"{fuzz.REFUSED}: {str(error).splitlines()[0][:200]}"
        return fuzz.classify(error)
    return None


# compile errors at the user's line counted as refusals: the branches of a tensor if, or a loop that stays a loop,
# giving a name two dtypes (float16 in one, float64 after meeting a Parameter in the other), as MindSpore's graph
# mode's "Type Join Failed"; vmap of the gradient of a tensor while or if whose condition differs per sample
# (vectorize.vmap's documented VmapError; the backward of such a while is a for loop over its trip count)
REFUSALS = ("both branches must give the same shape and dtype", "changes shape or dtype inside a loop that stays a loop",
            "vmap cannot batch the gradient of", "vmap cannot batch a for loop whose range differs per sample")


def check(source: str, directory: str, ms, limit=None) -> str | None:
    """The failure of a program's module text (see :func:`check_module`); more than ``limit`` seconds of CPU time
    is one too."""
    limit = fuzz.TIME_LIMIT if limit is None else limit
    try:
        with fuzz.time_limit(limit):
            try:
                module = fuzz.load(source, directory)
            except Exception:  # noqa: BLE001 - not a valid program (e.g. after shrinking)
                return None
            return check_module(ms, module)
    except fuzz.TooSlow:
        return f"too slow: compiling and checking took more than {limit:g} s of CPU time"


def shrink(program, seed, transform, message, directory, ms, limit=None):
    """Delete statements and blocks while the program keeps failing the same way."""
    wanted = fuzz.failure_class(message)
    improved = True
    while improved:
        improved = False
        for candidate in fuzz._candidates(program):
            if not fuzz.names_defined_before_use(candidate[2]):
                continue
            found = check(render(candidate, seed, transform), directory, ms, limit)
            if found and fuzz.failure_class(found) == wanted:
                program, message, improved = candidate, found, True
                break
    return program, message


def run_seed(seed: int, directory: str, ms, do_shrink=True, limit=None):
    """Generate and check the plain program of ``seed``: None, or (message, minimal source)."""
    program, transform = generate(seed)
    message = check(render(program, seed, transform), directory, ms, limit)
    if message is None:
        return None
    if do_shrink and fuzz.is_finding(message):
        program, message = shrink(program, seed, transform, message, directory, ms, limit)
    return message, render(program, seed, transform)
