"""The differential fuzzer (tools/fuzz.py) on a fixed set of seeds: each random program's compiled
forward, gradients, value_and_grad/has_aux/return_ids and second order must equal eager execution
and central differences; a stateful program's compiled forward, called several times in a row, must
leave every Parameter as eager execution does. ``python tools/fuzz.py --minutes N`` runs it longer."""
import ast
import importlib.util
import pathlib
import random
import time

import numpy as np
import pytest

import npspore as ms

_PATH = pathlib.Path(__file__).resolve().parents[1] / "tools" / "fuzz.py"
_SPEC = importlib.util.spec_from_file_location("npspore_fuzz", _PATH)
fuzz = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fuzz)


@pytest.fixture()
def program_dir(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    with np.errstate(all="ignore"):
        yield str(tmp_path)


# seeds whose programs every check runs on (traced seeds 4, 6, 8 and 10 are clean refusals: an item assignment,
# an index of several tensors, a gradient function in a traced program)
@pytest.mark.parametrize("seed", (0, 2, 3, 7, 12, 13))
def test_fuzz_seed(seed, program_dir):
    result = fuzz.run_seed(seed, program_dir, ms, do_shrink=False)
    assert result is None, f"{result[0]}\n{result[1]}"


def test_generated_programs_are_valid_and_shrinking_keeps_them_valid(program_dir):
    rng = random.Random(12)  # a program that reads tensor values
    program = fuzz.Generator(rng, size=14).program()
    flag, n_inputs, stmts = program
    assert fuzz.names_defined_before_use(stmts)
    source = fuzz.render(program)
    module = fuzz.load(source, program_dir)
    checker = fuzz.Checker.generated(ms, module, np.random.default_rng(12), n_inputs)
    checker.forward()
    assert not fuzz.names_defined_before_use(["v1 = v2"])


class WrongGrad:
    """npspore, except that ``grad`` applies ``wrong`` to every gradient it returns."""

    def __init__(self, wrong):
        self.wrong = wrong

    def grad(self, *args, **kwargs):
        inner = ms.grad(*args, **kwargs)
        return lambda *a: tuple_map(inner(*a), self.wrong)

    def __getattr__(self, name):
        return getattr(ms, name)


def test_a_wrong_gradient_is_found_and_shrunk(program_dir):
    """The checker catches a wrong derivative: here ms.grad is replaced by one that doubles."""
    doubled = WrongGrad(lambda g: g * 2)
    program = (False, 1, ["v1 = x0 * 2.0", "v2 = ops.sin(v1)", "return v1 * x0"])
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, doubled)
    assert message is not None and message.startswith("wrong: grad")
    small, message = fuzz.shrink(program, 0, message, program_dir, doubled)
    assert len(small[2]) == 2  # the unused sin is gone


def test_a_nonzero_gradient_of_a_flat_program_is_found(program_dir):
    """Central differences exactly 0 at every step size: the program is flat, not absorbed, so a
    gradient that is not 0 (here ms.grad adds 1) is a finding."""
    program = (False, 1, ["return ops.sin(x0) * 0.0"])
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, WrongGrad(lambda g: g + 1))
    assert message is not None and message.startswith("wrong: grad") and "central differences 0.0" in message


def tuple_map(value, fn):
    if isinstance(value, tuple):
        return tuple(tuple_map(v, fn) for v in value)
    return fn(value)


def test_a_program_over_the_time_limit_is_a_finding(program_dir):
    """A compile that does not finish (here ms.jit never returns) is reported, not waited for."""
    def stalled(*args, **kwargs):
        while True:
            time.sleep(0.01)

    class Fake:
        def __getattr__(self, name):
            return stalled if name == "jit" else getattr(ms, name)

    program = (False, 1, ["v1 = x0 * 2.0", "return v1 * x0"])
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, Fake(), limit=0.5)
    assert message is not None and message.startswith("too slow")


def test_a_program_whose_eager_run_does_not_end_is_no_finding(program_dir):
    """Fuzz seeds 900812 and 900946: shrinking deleted a while loop's step, so eager execution loops
    forever too; that is no test (it was saved as "too slow")."""
    program = (False, 1, ["n0 = Tensor(0, ms.int32)", fuzz.Block("while n0 < 1:", ["pass"]), "return x0 * 2.0"])
    assert fuzz.check(fuzz.render(program), 1, 0, program_dir, ms, limit=0.5) is None


def test_the_time_limit_counts_cpu_time_not_a_loaded_machine():
    """A program that waits (another process has the CPU) is stopped only after WALL_FACTOR times the
    limit; one that computes, after the limit of CPU time."""
    start = time.time()
    with pytest.raises(fuzz.TooSlow):
        with fuzz.time_limit(0.2):
            time.sleep(0.5)
            while True:
                pass
    assert time.time() - start > 0.5  # the sleep outlasted the limit of CPU time


def test_a_chaotic_point_is_no_finding(program_dir):
    """Fuzz seed 23487: x0 grows to 1e9 in the loop, so sin(x0) makes the first gradient oscillate
    faster than any difference step; the second derivative recomputed a step away disagrees with
    itself, which marks the point non-smooth (it is no wrong gradient)."""
    program = (False, 1, [
        fuzz.Block("for i0 in range(4):", [
            "x0 *= ((x0.sum() * x0)[0] + x0).reshape(3, 2).reshape(2, 3)", "x0 = x0 + i0 * 0.25"]),
        "x0 = (helper(ops.reduce_sum(x0, 1).reshape(2, 1) * x0, ops.abs(x0)).sum() * (x0.sum() * ops.sin(x0)))",
        "return ops.transpose(ops.transpose((ops.matmul(x0, self.w0) / (1.5 + (x0 * 2.0) * (x0 * 2.0))), (1, 0)), (1, 0))"])
    assert fuzz.check(fuzz.render(program), 1, 23487, program_dir, ms) is None


def test_an_ill_conditioned_forward_value_is_no_finding(program_dir):
    """Fuzz seed 51153: v2 reaches 1e8, so cos(v2) moves by 1e-8 with the summation order (the compiled
    sum(a * b) is a dot); eager moves as far when the inputs move by a few ulps, which marks the point
    ill-conditioned (it is no wrong value)."""
    program = (False, 1, [
        fuzz.Block("for i0 in range(4):", [
            "x0 = (ops.maximum(self.sub(x0), ops.cos(x0)) + (ops.mean(x0, 0) * x0).reshape(3, 2).reshape(2, 3))"]),
        "v2 = (self.mul(ops.sin(x0), (x0[0] + x0)).sum() * ops.relu((x0.sum() * x0)))",
        "v3 = (x0, (x0 * ops.cast(k, ms.float64)))",
        "v4, v5 = v3",
        "return (ops.cos(v2), v5)"])
    assert fuzz.check(fuzz.render(program), 1, 51153, program_dir, ms) is None


def test_a_gradient_below_float64_resolution_is_no_finding(program_dir):
    """Fuzz seed 309384: x0 reaches 1e20 in the loop, so x0 + w1 is x0 for every small move of w1 and
    central differences are exactly 0, while the gradient (through sin(sin(x0))) is not; a step of 1e4
    moves the total, which marks the steps absorbed (it is no wrong gradient)."""
    program = (True, 1, [
        fuzz.Block("for i1 in range(4):", [
            "x0 = ops.reduce_sum(ops.tanh(x0.reshape(3, 2).reshape(2, 3)), 1).reshape(2, 1) * (x0.sum() * x0)"]),
        "x0 = (ops.abs((ops.mean(x0, 0) * x0)) + self.w1)",
        "v4 = ops.expand_dims(ops.sin(ops.sin(x0)), 0).squeeze(0)",
        fuzz.Block("for i1 in range(2):", ["x0 = (ops.tanh(v4) / (1.5 + x0 * x0))"]),
        "return (ops.tanh(self.seq(x0)) * -1.25)"])
    assert fuzz.check(fuzz.render(program), 1, 309384, program_dir, ms) is None


SAVED_PROGRAM = '''import numpy as np
import npspore as ms
from npspore import nn, ops, Tensor, Parameter


def fn(a0, k1):
    c2 = Tensor(0, ms.int32)
    while c2 < 2:
        a0 = ops.tanh(a0 * -0.22 + a0) * ops.cast(k1, ms.float64)
        c2 = c2 + 1
    return a0.sum(), a0


def make(dtype=np.float32):
    return fn

SPEC = {'inputs': [[[2, 3], 'f'], [[2, 3], 'i']], 'kind': 'fn', 'n_out': 2, 'assign': False}
'''


def test_a_saved_program_is_replayed_and_a_wrong_gradient_found(tmp_path):
    """``--replay`` runs the programs of repros/compiler/fuzz (make(dtype) and SPEC): this one, a
    while loop over a Tensor counter built in compiled code, passes; with ms.grad doubling every
    gradient it is a finding."""
    path = tmp_path / "p1.py"
    path.write_text(SAVED_PROGRAM)
    with np.errstate(all="ignore"):
        assert fuzz.replay(str(path), ms) is None
        message = fuzz.replay(str(path), WrongGrad(lambda g: g * 2))
    assert message is not None and message.startswith("wrong: grad")


def test_the_generator_makes_tensor_counters_and_while_loops_over_them():
    sources = [fuzz.render(fuzz.Generator(random.Random(seed), size=24).program()) for seed in range(60)]
    counters = [s for s in sources if "= Tensor(0, ms.int32)" in s]
    assert counters and any("while (n" in s for s in counters) and any("while n" in s for s in counters)
    returning = [s for s in counters if any(isinstance(node, ast.While) and any(isinstance(n, ast.Return) for n in ast.walk(node))
                                            for node in ast.walk(ast.parse(s)))]
    assert returning  # a loop over a counter that returns under a tensor condition


def test_the_generator_makes_closures_and_passes_differentiates_and_returns_them(program_dir):
    """Lambdas and nested defs in construct: called, passed to a sub-cell and a helper whose names they may read,
    mapped, partially applied, differentiated by positions and weights; functions returned by callees; lambdas
    made in a comprehension over a loop index; and shrinking keeps a call of a deleted def invalid."""
    sources = [fuzz.render(fuzz.Generator(random.Random(seed), size=24).program()) for seed in range(100)]
    construct = [s.split("def construct(self, x")[-1] for s in sources]
    for form in (" = lambda u", "        def f", "self.applier(", "apply_fn(", "HyperMap()(", "partial(f",
                 "ms.grad(f", "ms.value_and_grad(f", "(self.w0,))", ", self.w1)(", "make_fn(", "self.maker(",
                 "for q in range("):
        assert any(form in c for c in construct), form
    assert any("class Applier(nn.Cell)" in s for s in sources) and not any("class Applier" in s and "self.applier("
                                                                          not in s for s in sources)
    deleted = ["v1 = f1(x0)", "return v1"]
    assert not fuzz.names_defined_before_use(deleted)
    assert fuzz.names_defined_before_use([fuzz.Block("def f1(u):", ["return u * x0"])] + deleted)
    assert not fuzz.names_defined_before_use([fuzz.Block("def f1(u):", [])] + deleted)  # its return deleted


FOUND = sorted((pathlib.Path(__file__).parent / "programs" / "fuzz").glob("p*.py"))
# found by the fuzzer and not fixed yet (none now: the stateful fuzzer's gradients that read a Parameter after
# its update are fixed by compiler/paramsnapshots.py), run as strict expected failures
OPEN: set = set()


OPEN_MARK = pytest.mark.xfail(strict=True, reason="open: a gradient reads a Parameter after its assignment")


@pytest.mark.parametrize("path", [pytest.param(p, marks=OPEN_MARK) if p.stem in OPEN else p for p in FOUND],
                         ids=lambda p: p.stem)
def test_programs_the_fuzzer_found_agree_with_eager_and_central_differences(path):
    """Issue 23's random programs (../shared/repros/compiler/fuzz): while loops over Tensor counters
    built in compiled code (the kernel never returned), returns under tensor conditions in while loops
    on Python values (refused), loop indices read after their loop (refused), an int32 input's
    gradient (float64 from value_and_grad); the stateful fuzzer's (``pstate_*``, Parameters updated over
    several calls in a row)."""
    with np.errstate(all="ignore"):
        assert fuzz.replay(str(path), ms) is None


def test_the_generator_makes_value_reads_traced_programs_and_hooks_that_read(program_dir):
    """Issue 23: fallback reads in data flow (``float(t)``, ``t.asnumpy()`` back into a Tensor,
    ``t.item()``) and deciding control flow (a Python ``if`` on a read, ``range(int(k))``), forward and
    backward hooks whose bodies read values, and programs run through ``exec`` (traced)."""
    sources = [fuzz.render(fuzz.Generator(random.Random(seed), size=24).program()) for seed in range(100)]
    construct = [s.split("def construct(self, x")[1] for s in sources]  # Net's, not Sub's
    assert any("* float(" in c for c in construct) and any("Tensor(np.tanh(" in c for c in construct)
    assert any(".item())" in c for c in construct) and any(".tolist()" in c for c in construct)
    assert any("    if float(" in c for c in construct) and any("    if int(k) > 1:" in c for c in construct)
    assert any(" in range(int(k)" in c for c in construct)
    for hook in ("register_forward_hook(scale_by_mean)", "register_forward_hook(halve_if_positive)",
                 "register_backward_hook(keep_if_finite)"):
        assert any(hook in s for s in sources)
    traced = [seed for seed in range(40) if fuzz.generate(seed)[1]]
    assert traced and len(traced) < 40
    module = fuzz.load(sources[0], program_dir, traced=True)
    assert module.Net.construct.__code__.co_filename.startswith("<")  # no source file: traced


READS = [fuzz.Block("if float(x0.mean()) > 0.0:", ["v1 = x0 * float(x0.sum())"], ["v1 = Tensor(np.tanh(x0.asnumpy())) + x0"]),
         fuzz.Block("for r0 in range(int(k)):", ["v1 = v1 * x0[0, 1].item() + r0 * 0.5"]),
         "return v1 * x0"]


@pytest.mark.parametrize("traced", [False, True])
def test_values_read_are_constants_to_the_central_differences(program_dir, traced):
    """A read value is a constant to MindSpore's gradient: the eager central differences hold the
    values the program reads (else d float(x0.sum())/dx0 would be counted and every such program be
    a finding); compiled and traced (exec) alike."""
    assert fuzz.check(fuzz.render((False, 1, READS)), 1, 0, program_dir, ms, traced=traced) is None


@pytest.mark.parametrize("traced", [False, True])
def test_a_wrong_gradient_of_a_program_that_reads_values_is_found(program_dir, traced):
    message = fuzz.check(fuzz.render((False, 1, READS)), 1, 0, program_dir, WrongGrad(lambda g: g * 2), traced=traced)
    assert message is not None and message.startswith("wrong: grad")


class StaleJit:
    """npspore, except that ``jit`` returns the first call's result for every later call (a kernel
    whose guard never fails: the other branch is never compiled)."""

    def jit(self, fn):
        results = []

        def stale(*args):
            if not results:
                results.append(ms.jit(fn)(*args))
            return results[0]
        return stale

    def __getattr__(self, name):
        return getattr(ms, name)


@pytest.mark.parametrize("traced", [False, True])
def test_a_kernel_that_does_not_compile_again_for_the_other_branch_is_found(program_dir, traced):
    """The compiled program is called again on other inputs (negated floats, another int), which take
    the other branch of a read ``if`` and another loop bound: a stale kernel gives wrong values."""
    message = fuzz.check(fuzz.render((False, 1, READS)), 1, 0, program_dir, StaleJit(), traced=traced)
    assert message is not None and message.startswith("wrong: forward on other inputs")


@pytest.mark.parametrize("traced", [False, True])
def test_hooks_reading_values_agree_with_eager_and_a_read_under_a_tensor_if_is_a_clean_refusal(program_dir, traced):
    """Forward hooks (compiled into the caller) reading a value in data flow and deciding a Python
    ``if`` on one, and a backward hook reading the gradient, agree with eager and central differences;
    a read under a tensor ``if`` is npspore's documented compile error: counted apart, no finding."""
    program = (False, 1, ["v1 = self.scaled(x0) + self.watched(x0) + self.gated(-x0) + self.gated(x0)", "return v1 * x0"])
    assert fuzz.check(fuzz.render(program), 1, 0, program_dir, ms, traced=traced) is None
    program = (False, 1, [fuzz.Block("if x0.sum() > 0.0:", ["x0 = x0 * float(x0.mean())"]), "return x0"])
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, ms)
    assert message.startswith("refused: reading a tensor's value here") and not fuzz.is_finding(message)
    assert fuzz.is_finding("wrong: grad d/0: ...") and fuzz.is_finding("RuntimeError: ...")


def test_a_wrong_value_under_a_read_is_found(program_dir):
    """A compiled forward off by a tiny relative error is found (the eager one is the reference)."""
    class Off:
        def jit(self, fn):
            return lambda *args: ms.jit(fn)(*args) * (1 + 1e-6)

        def __getattr__(self, name):
            return getattr(ms, name)

    message = fuzz.check(fuzz.render((False, 1, READS)), 1, 0, program_dir, Off())
    assert message is not None and message.startswith("wrong: forward: compiled")


SAVED_READING_PROGRAM = SAVED_PROGRAM.replace("    c2 = Tensor(0, ms.int32)",
                                              "    a0 = a0 * float(a0.mean()) + Tensor(np.tanh(a0.asnumpy()))\n"
                                              "    c2 = Tensor(0, ms.int32)")


def test_a_saved_program_that_reads_values_is_replayed_and_a_wrong_gradient_found(tmp_path):
    path = tmp_path / "p2.py"
    path.write_text(SAVED_READING_PROGRAM)
    assert "float(a0.mean())" in SAVED_READING_PROGRAM
    with np.errstate(all="ignore"):
        assert fuzz.replay(str(path), ms) is None
        message = fuzz.replay(str(path), WrongGrad(lambda g: g * 2))
    assert message is not None and message.startswith("wrong: grad")


# ---------------------------------------------------------------- stateful programs

# passing stateful seeds: traced and not, BatchNorm in training and inference mode, for and while loops
STATEFUL_SEEDS = (0, 2, 4, 9, 12, 13)


@pytest.mark.parametrize("seed", STATEFUL_SEEDS)
def test_fuzz_stateful_seed(seed, program_dir):
    result = fuzz.run_seed(seed, program_dir, ms, do_shrink=False, stateful=True)
    assert result is None, f"{result[0]}\n{result[1]}"


def _updates_and_where(source: str):
    """(the statement, the kinds of the blocks it is in) of every Parameter update and effect-only call
    of a stateful cell in the module text."""
    found = []

    def visit(body, inside):
        for node in body:
            text = ast.unparse(node) if not isinstance(node, (ast.If, ast.For, ast.While)) else ""
            if fuzz.UPDATES.search(text):
                found.append((text, inside))
            for field, kind in (("body", type(node).__name__), ("orelse", type(node).__name__)):
                if isinstance(node, (ast.If, ast.For, ast.While, ast.FunctionDef, ast.ClassDef)):
                    visit(getattr(node, field, []), inside + (kind,))

    visit(ast.parse(source).body, ())
    return found


def test_the_stateful_generator_updates_parameters_every_way_and_everywhere():
    """``ops.assign``/``assign_add``/``assign_sub``, the ``Assign``/``AssignAdd`` primitives, ``self.p = ...`` and
    ``self.p += ...``, on Net's own Parameters, a sub-cell's and one two levels down; in straight-line code,
    ``for range`` loops, tensor ``if`` and ``while``; stateful cells called for their effect alone and in
    expressions; BatchNorm in training and in inference mode."""
    sources = [fuzz.render(fuzz.generate(seed, stateful=True)[0], seed) for seed in range(100)]
    updates = [u for s in sources for u in _updates_and_where(s)]
    texts = [text for text, _ in updates]
    for form in ("ops.assign(self.", "ops.assign_add(self.", "ops.assign_sub(self.", "self.assign(self.",
                 "self.assign_add(self.", "self.s1 += ops.tanh(", "self.acc.acc",
                 "self.nest.inner.acc", "(self.inner.acc", "ops.assign(self.w0,"):
        assert any(form in text for text in texts), form
    assert any(text.startswith(f"self.{p} = self.{p} * 0.5") for text in texts for p in ("s0", "s1", "w1"))  # Net's own
    for effect in ("self.acc(", "self.nest(", "self.bn(", "self.inner("):   # called for the effect alone
        assert any(text.startswith(effect) for text in texts), effect
    assert any(where == ("ClassDef", "FunctionDef") for _, where in updates)    # straight-line code
    for block in ("For", "If", "While"):
        assert any(block in where for _, where in updates), block
    assert any("= self.bn(" in s or "self.bn(x" in s for s in sources)
    assert any("self.set_train(True)" in s for s in sources) and any("self.set_train(False)" in s for s in sources)
    assert sum(fuzz.is_stateful(seed) for seed in range(100)) == 25   # a quarter of the default mix


def _stateful(stmts):
    return (False, 1, stmts, {"Acc": ["return a"], "Nest": ["return a"], "train": True})


class ForgetsUpdates:
    """npspore, except that compiled code puts every Parameter back after each call (it updates nothing)."""

    def jit(self, net):
        compiled = ms.jit(net)

        def run(*args):
            saved = [p.asnumpy().copy() for p in net.get_parameters()]
            out = compiled(*args)
            for p, value in zip(net.get_parameters(), saved):
                p.set_data(ms.Tensor(value))
            return out
        return run

    def __getattr__(self, name):
        return getattr(ms, name)


def test_a_compiled_program_that_does_not_update_its_parameter_is_found(program_dir):
    program = _stateful(["ops.assign_add(self.s0, x0 * 0.5)", "return x0 * self.s0"])
    assert fuzz.check(fuzz.render(program), 1, 0, program_dir, ms) is None
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, ForgetsUpdates())
    assert message is not None and message.startswith("wrong: call 1: compiled s0 = ")


class StaleParameterRead:
    """npspore, except that compiled code returns what it returned at the first call (a value that
    reads a Parameter computed once)."""

    def jit(self, net):
        return StaleJit().jit(net)

    def __getattr__(self, name):
        return getattr(ms, name)


def test_a_compiled_program_that_reads_a_parameter_as_it_was_at_the_first_call_is_found(program_dir):
    program = _stateful(["ops.assign_add(self.s0, x0 * 0.5)", "return x0 * self.s0"])
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, StaleParameterRead())
    assert message is not None and message.startswith("wrong: call 2: compiled output 0 = ")


class WrongValueAndGrad:
    """npspore, except that ``value_and_grad`` applies ``wrong`` to every gradient it returns."""

    def __init__(self, wrong):
        self.wrong = wrong

    def value_and_grad(self, *args, **kwargs):
        inner = ms.value_and_grad(*args, **kwargs)

        def run(*a):
            value, grads = inner(*a)
            return value, tuple_map(grads, self.wrong)
        return run

    def __getattr__(self, name):
        return getattr(ms, name)


def test_a_value_written_into_a_parameter_is_a_constant_to_the_central_differences(program_dir):
    """MindSpore's gradient does not flow through an assignment: d/dx0 of ``v1 + s0`` after ``s0 <- v1`` is
    d v1/dx0 = 2 (eager central differences would count v1 twice, 4), as npspore computes it; a gradient
    off by a factor is found."""
    program = _stateful(["v1 = x0 * 2.0", "ops.assign(self.s0, v1)", "return v1 + self.s0"])
    assert fuzz.check(fuzz.render(program), 1, 0, program_dir, ms) is None
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, WrongValueAndGrad(lambda g: g * 2))
    assert message is not None and message.startswith("wrong: value_and_grad d/0")


def test_a_stateful_program_is_saved_replayable_and_shrunk_in_every_cell(program_dir, tmp_path):
    """A stateful finding is saved in the format ``--replay`` reads (``make`` and ``SPEC``); shrinking deletes
    statements of the sub-cells' bodies too."""
    program = (False, 1, ["v1 = self.nest(x0)", "ops.assign_add(self.s0, x0 * 0.5)", "return x0 * self.s0"],
               {"Acc": ["v1 = a * 2.0", "ops.assign_add(self.acc, a)", "return a"],
                "Nest": ["v2 = self.inner(a)", "return a * 3.0"], "train": True})
    message = fuzz.check(fuzz.render(program, 5), 1, 5, program_dir, ForgetsUpdates())
    small, message = fuzz.shrink(program, 5, message, program_dir, ForgetsUpdates())
    assert message.startswith("wrong: call 1: compiled")
    assert len(small[2]) < 3 and len(small[3]["Acc"]) < 3
    path = tmp_path / "p_state.py"
    path.write_text(fuzz.render(program, 5))
    with np.errstate(all="ignore"):
        assert fuzz.replay(str(path), ms) is None


def test_a_captured_parameter_is_never_taken_for_a_collected_value_at_its_address():
    """Stateful fuzz seed 910610: the specializer's record of how firmly each value is named was keyed by
    ``id(Var)``, so the Var of a captured Parameter made at the address of a collected Var inherited its
    entry, was renamed after a library's variable and shared that name with a later value, which the
    loop's ``ops.assign`` then wrote instead of the Parameter. Whether a Var lands on such an address
    depends on the heap, so the program is compiled with the heap shifted a little more each time (before
    the fix two of these eight compiles went wrong)."""
    path = pathlib.Path(__file__).parent / "programs" / "fuzz" / "pstate_stale_var_id_renames_parameter.py"
    spacers = []
    with np.errstate(all="ignore"):
        for shift in range(8):
            spacers.append([object() for _ in range(7 * shift)])
            assert fuzz.replay(str(path), ms) is None, f"heap shifted by {7 * shift} objects"


# ---------------------------------------------------------------- indexing, item assignment, dtypes; transforms

def test_the_generator_mixes_index_reads_item_assignments_and_dtypes():
    """Reads at int-tensor indices mixed with slices, ints and the int input (``gather``, ``gather_elements``,
    ``gather_nd``); item assignments (augmented, at bool masks, tensor rows, the int input and a loop's index, under a
    tensor ``if``); bool masks and int/float promotion. ``areas=()`` makes none of them."""
    sources = [fuzz.render(fuzz.Generator(random.Random(seed), size=24).program()) for seed in range(100)]
    construct = "\n".join(s.split("def construct(self, x")[1] for s in sources)
    for form in ("[Tensor([1, 0], ms.int32)] + ", "[:, Tensor([2, 0, 1], ms.int32)]", "[k - 1, Tensor(", "ops.gather(",
                 "ops.gather_elements(", "ops.gather_nd(", "] *= ", "] += ", "[Tensor([[True, False, True]", "[i0] = ",
                 "[:, None, 1] = ", "ops.where(", "ops.masked_fill(", "(k * 2)", "k * 0.5"):
        assert form in construct, form
    assert any(isinstance(node, ast.If) and "] " in ast.unparse(node.body[0]) and isinstance(node.body[0], ast.AugAssign)
               for s in sources for node in ast.walk(ast.parse(s)))
    plain = [fuzz.render(fuzz.Generator(random.Random(seed), size=24, areas=()).program()) for seed in range(40)]
    assert not any(form in s for s in plain for form in ("] = ", "] += ", "ops.where(", "ops.gather("))


def test_a_compiled_result_of_another_dtype_is_found(program_dir):
    """The forward compares dtypes too: a compiled float32 result where eager gives float64 is a finding."""
    class Float32:
        def jit(self, fn):
            return lambda *args: ms.jit(fn)(*args).astype(ms.float32)

        def __getattr__(self, name):
            return getattr(ms, name)

    program = (False, 1, ["v1 = ops.where(x0 > 0, x0, x0 * 0.5) + k * 0.5", "return v1"])
    assert fuzz.check(fuzz.render(program), 1, 0, program_dir, ms) is None
    message = fuzz.check(fuzz.render(program), 1, 0, program_dir, Float32())
    assert message is not None and message.startswith("wrong: forward: compiled dtypes")


transforms = fuzz.sibling("fuzz_transforms")


@pytest.mark.parametrize("seed", (1, 5, 11, 12, 15, 16, 20, 25, 35))
def test_fuzz_transforms_seed(seed, program_dir):
    """vmap (nested 1, grad ...), jvp, vjp, jacfwd, jacrev, training steps and low precision on plain programs."""
    result = transforms.run_seed(seed, program_dir, ms, do_shrink=False)
    assert result is None, f"{result[0]}\n{result[1]}"


def test_the_transform_checks_are_all_drawn():
    checks = {transforms.generate(seed)[1]["check"] for seed in range(60)}
    assert checks == set(transforms.CHECKS)
    optimizers = {transforms.generate(seed)[1].get("optimizer") for seed in range(300)} - {None}
    assert optimizers == set(transforms.OPTIMIZERS)


# (the sibling loads fuzz.py itself: its own Block)
PLAIN = (False, 2, ["v1 = x0 * 1.0", "v1[x1 > 0] *= 0.5", "v1[0] += ops.sin(x1[1])",
                    transforms.fuzz.Block("if x0.sum() > 0.0:", ["v1 = v1 * 2.0"]), "return ops.matmul(v1, self.w0) + x1"])


class Wrapped:
    """``module`` (npspore, or npspore.ops for a ``name`` ``ops.x``), except that ``name`` gives its results made
    wrong by ``wrong``."""

    def __init__(self, module, name, wrong):
        self.module, self.name, self.wrong = module, name, wrong
        if module is ms:
            self.ops = Wrapped(ms.ops, name[4:], wrong) if name.startswith("ops.") else ms.ops

    def __getattr__(self, attr):
        original = getattr(self.module, attr)
        return (lambda *args, **kwargs: self.wrong(original(*args, **kwargs))) if attr == self.name else original


@pytest.mark.parametrize("check, name, wrong", [
    ({"check": "vmap", "in_axes": [[1, -1, None]], "out_axes": [2]}, "vmap",
     lambda fn: lambda *a: fn(*a) * 1.0001),
    ({"check": "vmap_grad", "in_axes": [[0, 0, None]], "out_axes": [0], "positions": [0, 1]}, "vmap",
     lambda fn: lambda *a: tuple(g * 2 for g in fn(*a))),
    ({"check": "jvp"}, "ops.jvp", lambda result: (result[0], result[1] * 1.01)),
    ({"check": "vjp"}, "ops.vjp", lambda result: (result[0], lambda *v: tuple(g * 2 for g in result[1](*v)))),
    ({"check": "jacfwd", "positions": [0, 1]}, "ops.jacfwd", lambda fn: lambda *a: tuple(j * 2 for j in fn(*a))),
    ({"check": "jacrev", "positions": 0}, "ops.jacrev", lambda fn: lambda *a: fn(*a).transpose(2, 3, 0, 1)),
    ({"check": "train", "optimizer": transforms.OPTIMIZERS[5]}, "jit",
     lambda step: lambda *a: (step(*a), [p.set_data(p * 1.0001) for p in step.cell.network.trainable_params()])[0]),
    ({"check": "low_precision", "input_dtype": "float16"}, "jit", lambda fn: lambda *a: fn(*a).astype(ms.float16)),
])
def test_each_transform_check_passes_and_finds_a_wrong_result(check, name, wrong, program_dir):
    """Each check of tools/fuzz_transforms.py passes on npspore and finds a result made wrong (a vmap off in its
    4th digit, a Jacobian transposed, a training step that moves the Parameters once more, a float16 result
    of what eager computes in float32...); nested vmap passes."""
    source = transforms.render(PLAIN, 3, check)
    assert transforms.check(source, program_dir, ms) is None
    nested = {"check": "vmap_nested", "in_axes": [[0, None, None], [1, 0, 0]], "out_axes": [1, -1]}
    assert transforms.check(transforms.render(PLAIN, 3, nested), program_dir, ms) is None
    message = transforms.check(source, program_dir, Wrapped(ms, name, wrong))
    assert message is not None and message.startswith("wrong: "), message
