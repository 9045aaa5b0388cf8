"""``grad``, ``value_and_grad`` and ``get_grad``: MindSpore's gradient transforms, compiled.

``grad(fn, ...)`` returns a :class:`GradFunction`, a front door to the compiler. Its first call with
a new input signature builds a ``CompileRequest`` holding one ``GradRequest`` per level
(``grad(grad(f))`` has two) and hands it to ``compiler.compile``: specialize ``fn``,
differentiate once per level (``compiler.gradrequest`` chooses wrt, seeds and zeros and packages the
result in MindSpore's structure), optimize, generate one kernel returning the forward values and
the requested gradients. Later calls with the same signature dispatch straight to that kernel
through a :class:`~npspore.compiler.kernel.KernelCache`.

Gradient kernels go to the disk cache like forward kernels (the options and the weights' attribute
paths are part of the key). Called inside compiled code (``GradNetWrtX``'s ``construct`` in GRAPH
mode, a ``@jit`` function) a GradFunction is staged there: it registers itself with the compiler as
a stager (``compiler.library``). Backward hooks of the differentiated Cell run in eager calls
(:meth:`GradFunction._call_with_hooks`); hooks of sub-cells, and of any cell inside compiled code,
are not run.

npspore follows MindSpore's GRAPH-mode (documented) behaviour in every mode; see the "Decisions"
section of the semantics notes: out-of-range positions raise ``IndexError``, ``return_ids`` always has
the documented form, ``mutable`` tuple/list/dict inputs get gradients of the same container type.
"""
from __future__ import annotations

import contextlib
import dataclasses
import warnings
import weakref
from typing import Any, Callable

import numpy as np

from . import compiler   # its stages load on first use: compiler.pipeline, compiler.gradrequest, ...
from .common.kernel_random import pynative_draws
from .compiler.errors import CompileError, without_internal_frames
from .compiler.kernel import MISS, KernelCache, fast_path, no_fast_path
from .compiler.library import LIBRARY, RECORDERS, GuardFailed, check_not_traced
from .compiler.kernel import TensorHooks, hooks_key
from .context import PYNATIVE_MODE, get_context
from .context import _context as context_settings   # read by the fast path: the mode is in the key
from .compiler.signature import describe_key, input_key, map_tensors, tensor_leaves

__all__ = ["grad", "value_and_grad", "get_grad"]


# ----------------------------------------------------------------------------------- validation


def _check_position(grad_position):
    """``grad_position`` as a tuple of ints (None stays None); raises MindSpore's errors."""
    if grad_position is None:
        return None
    if isinstance(grad_position, tuple):
        for position in grad_position:
            if not isinstance(position, int):
                raise TypeError("For 'F.grad', the element in 'grad_position' must be int.")
            if position < 0:
                raise ValueError("The element in grad_position must be >= 0.")
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        return tuple([int(p) for p in grad_position])
    if isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        return (int(grad_position),)
    raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")


def _check_bool(owner: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' should be bool, but got {type(value).__name__}")
    return value


def _check_weights(weights):
    """The weights as a list, or raise MindSpore's TypeError (checked when the gradient runs)."""
    Tensor = LIBRARY.tensor_type
    if weights is None:
        return []
    if isinstance(weights, Tensor):
        return [weights]
    if isinstance(weights, (list, tuple)):
        for weight in weights:
            if not isinstance(weight, Tensor):
                raise TypeError("The weights you provided is expected to be a tensor, or a list or tuple. "
                                f"but got {weights}")
        return list(weights)
    raise TypeError(f"The weights you provided is expected to be a tensor, or a list or tuple. but got {weights}")


# ----------------------------------------------------------------------------------- gradient functions


_SHARED_CACHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _kernel_cache(owner_fn, options_key, label: str):
    """The KernelCache for (fn, options): shared by every gradient function built from the same
    callable with the same options, so ``grad(self.net)`` inside an eager ``construct`` compiles once.

    The caches hang off the callable weakly (nothing in them refers back to it), so they go with it.
    """
    anchor = getattr(owner_fn, "__self__", owner_fn)
    try:
        per_fn = _SHARED_CACHES.setdefault(anchor, {})
    except TypeError:
        return KernelCache(label)
    cache = per_fn.get(options_key)
    if cache is None:  # setdefault: threads making the first calls at once share one cache
        cache = per_fn.setdefault(options_key, KernelCache(label))
    return cache


class GradFunction:
    """The gradient function returned by :func:`grad`, :func:`value_and_grad` and ``GradOperation``.

    Call it with ``fn``'s arguments (plus the sensitivity last when ``sens_param`` is set). The first
    call with a new input signature compiles; later calls run the cached kernel. Called from code that
    is being compiled (a Cell's ``construct`` in GRAPH mode, a ``@jit`` function), it is staged into
    that code instead (``compiler.gradrequest.stage_gradient``).
    """

    def __init__(self, fn, spec: compiler.gradspec.GradSpec, weights=None):
        self.fn = fn
        self.spec = spec
        self.weights = weights
        weight_ids = None
        if isinstance(weights, (list, tuple)):
            weight_ids = tuple(id(w) for w in weights)
        elif weights is not None:
            weight_ids = id(weights)
        options = (spec, weight_ids, getattr(fn, "__func__", None))
        label = f"grad of {getattr(fn, '__qualname__', type(fn).__name__)}"
        self._cache = _kernel_cache(fn, options, label)
        self._is_cell = LIBRARY.is_cell(fn)
        self._runs_hooks = self._is_cell
        # compiled as MindSpore's GRAPH mode runs it whatever the mode: jitted, or of a @jit function
        self._graph_only = hasattr(fn, "__npspore_function__")
        self._fast = no_fast_path       # the last signature called, for the next call (kernel.fast_path)
        self._fast_paths: dict = {}     # CompiledKernel -> its fast path from this gradient function

    def __reduce__(self):
        """Pickle fn, the options and the weights, not the kernels (rebuilt on demand after loading)."""
        return GradFunction, (self.fn, self.spec, self.weights), {"_runs_hooks": self._runs_hooks,
                                                                  "_graph_only": self._graph_only}

    def jitted(self) -> "GradFunction":
        """This gradient function as ``ms.jit`` compiles it: as in GRAPH mode, whatever the context's mode (no
        backward hooks; the Tensor methods MindSpore resolves by mode take GRAPH's meanings; random draws are the
        graph's, each call of a primitive its own engine). It shares this one's kernels."""
        variant = GradFunction(self.fn, self.spec, self.weights)
        variant._runs_hooks, variant._graph_only = self._runs_hooks, True
        return variant

    def _pynative(self) -> bool:
        """Whether a call now is compiled as MindSpore's PYNATIVE mode runs it: the cells' backward hooks run, the
        Tensor methods MindSpore resolves by mode take PYNATIVE's meanings (``compiler.library.MEANINGS``), random
        draws are the eager engines'. Not when this gradient is jitted or differentiates a ``@jit`` function."""
        return not self._graph_only and context_settings["mode"] == PYNATIVE_MODE

    # --- calling

    def _split_sens(self, args, kwargs):
        return compiler.gradspec.split_sens(self.spec, args, kwargs)

    def _key(self, args, kwargs):
        """``(key, input leaves)`` of a call. The key fixes the argument structure, so a call that
        hits the cache needs no validation (the compile that made the entry checked the arguments)."""
        names = ()
        if kwargs or self.spec.sens_param:
            args, kwargs, sens = self._split_sens(args, kwargs)
            names = tuple(kwargs)
            args = args + tuple(kwargs.values()) + sens
        key, leaves = input_key(args)
        if names:
            key = (key, names)
        if self._is_cell:
            key = (key, bool(self.fn.training))
        if self._pynative():
            key = (key, "pynative")
        if TensorHooks.live:   # inputs or weights with Tensor.register_hook hooks: their gradients pass through them
            weights = self.weights if isinstance(self.weights, (list, tuple)) else [self.weights]
            hooked = hooks_key((*args, *weights))
            if hooked:
                key = (key, "tensor hooks", hooked)
        return key, leaves

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # MindSpore's PYNATIVE mode runs this forward eagerly: its random draws are the eager engines'
        try:
            if not kwargs:   # a kernel that draws random numbers has no fast path: its draws depend on the mode
                result = self._fast(args)
                if result is not MISS:
                    return result
            with pynative_draws() if self._pynative() else _GRAPH_DRAWS:
                return self._run(args, kwargs)
        except CompileError as error:   # the user's frames and the located error, not npspore's stack
            raise without_internal_frames(error)

    def _run(self, args: tuple, kwargs: dict) -> Any:
        """The kernel's result for a call not on the fast path (compiling it first if needed)."""
        if RECORDERS:
            for tensor in tensor_leaves((args, kwargs)):
                check_not_traced(tensor, "a gradient function called")
        if self._runs_hooks and (self.fn._backward_hooks or self.fn._backward_pre_hooks):
            if self._pynative():
                return self._call_with_hooks(args, kwargs)
            warnings.warn(f"the backward hooks of {type(self.fn).__name__} take no effect in GRAPH mode "
                          "(as in MindSpore); they were skipped", stacklevel=2)
        key, leaves = self._key(args, kwargs)
        entry = self._cache.lookup(key)
        if entry is None:
            entry, from_disk = self._compile_entry(args, kwargs, key)
            self._cache.add(key, entry, from_disk=from_disk)
        try:
            result = entry.run(leaves)
        except GuardFailed as failure:  # specialized on a tensor value this call does not have
            result = self._cache.rerun(key, failure, leaves, lambda: self._compile_entry(args, kwargs, key))
            entry = self._cache.entries[key]
        if not kwargs and not TensorHooks.live:   # a kernel calling a Tensor's hooks is keyed on them
            self._fast = self._fast_path(entry, args, leaves)
        return result

    def _fast_path(self, entry, args, leaves):
        """The fast path of ``entry`` for calls like ``args`` (``kernel.fast_path``), built once per
        kernel. Besides the arguments it checks what else ``_key`` reads: the context mode and, for
        a Cell, its ``training`` flag and that it has no backward hooks."""
        fast = self._fast_paths.get(entry)
        if fast is None and "rt.draw_" in entry.source:   # the kernel draws random numbers (runtime.draw_*)
            fast = self._fast_paths[entry] = no_fast_path
        if fast is None:
            conditions = ["X['mode'] == MODE", "not H.live"]
            if self._is_cell:
                conditions.append("f.training is TR")
            if self._runs_hooks:
                conditions.append("not f._backward_hooks and not f._backward_pre_hooks")
            bound = {"X": context_settings, "MODE": get_context("mode"), "f": self.fn, "H": TensorHooks,
                     "TR": bool(getattr(self.fn, "training", False))}
            fast = fast_path(entry, self._cache, args, leaves, conditions, bound) or no_fast_path
            if len(self._fast_paths) >= 8:
                self._fast_paths.clear()
            self._fast_paths[entry] = fast
        return fast

    def _call_with_hooks(self, args, kwargs):
        """A call when fn is a Cell with backward hooks: the kernels compute the value and the
        gradients of all inputs; the hooks run in Python between them and the packaging.

        ``grad_output`` is the sensitivity of each output leaf (ones, or the given ``sens``); a
        backward pre-hook that replaces it makes the gradients be computed again from its value.
        ``grad_input`` holds the gradients of the differentiable inputs; a backward hook that
        returns a new tuple replaces them.
        """
        wrap = LIBRARY.wrap
        call_args, call_kwargs, sens = self._split_sens(args, kwargs)
        request = self._request()
        request.check_positions(call_args, call_kwargs)
        inputs = call_args + tuple(call_kwargs.values())
        differentiable = [p for p, v in enumerate(inputs) if compiler.gradrequest.is_tensor(v)
                          or compiler.gradspec.is_mutable_container(v)]
        spec = self.spec
        everything = dict(positions=(), position_form="all", return_ids=False, with_value=True)
        value, core = self._variant(**everything)(*args, **kwargs)
        differentiated = value[0] if spec.has_aux else value
        if spec.sens_param:
            grad_output = tuple(tensor_leaves(sens[0]))
        else:
            grad_output = tuple(wrap(np.ones_like(t._array)) for t in tensor_leaves(differentiated))
        replaced = self.fn._run_backward_pre_hooks(grad_output)
        if replaced is not grad_output:
            leaves = iter(replaced)
            first = map_tensors(differentiated, lambda t: next(leaves))
            given = first if not spec.has_aux else (first,) + tuple(
                map_tensors(v, lambda t: wrap(np.zeros_like(t._array))) for v in value[1:])
            value, core = self._variant(has_aux=False, sens_param=True, **everything)(
                *call_args, given, **call_kwargs)
            grad_output = replaced
        input_grads, weight_part = core if spec.by_weights else (core, None)
        grad_input = self.fn._run_backward_hooks(tuple(input_grads), grad_output)

        found = []

        def leaf(item):
            found.append(item)
            return ("leaf", len(found) - 1)

        position_grads = [(p, leaf(grad_input[differentiable.index(p)]))
                          for p in request.requested_positions(inputs) if p in differentiable]
        weight_values = [weight_part] if request.single_weight else list(weight_part or ())
        weight_grads = [(getattr(w, "name", None), leaf(g)) for w, g in zip(request.weights, weight_values)]
        aux = leaf(tuple(value[1:])) if spec.has_aux else None
        tree = compiler.gradrequest.gradient_tree(spec, position_grads, weight_grads, request.single_weight, leaf(value), aux)
        return compiler.gradrequest.build_abstract(tree, found)

    def _variant(self, **changes) -> "GradFunction":
        """The gradient function of the same fn and weights with other options (kernels are shared),
        which does not run the hooks itself."""
        variant = GradFunction(self.fn, dataclasses.replace(self.spec, **changes), self.weights)
        variant._runs_hooks, variant._graph_only = False, self._graph_only
        return variant

    def compile_request(self, args, kwargs=None) -> compiler.request.CompileRequest:
        """The ``CompileRequest`` of a call: the innermost callable and one GradRequest per level."""
        fn, grads = grad_levels(self)
        key, _ = self._key(args, kwargs or {})
        call_args, call_kwargs, sens = self._split_sens(args, kwargs or {})
        signature = describe_key(input_key(tuple(call_args) + tuple(call_kwargs.values()) + tuple(sens))[0])
        return compiler.request.CompileRequest(fn, tuple(args), dict(kwargs or {}), key, signature, grads=grads,
                                               pynative=self._pynative())

    def _request(self) -> compiler.gradspec.GradRequest:
        if not callable(self.fn) and not isinstance(self.fn, compiler.values.Closure):   # a lambda of compiled code
            raise TypeError(f"The fn should be callable, but got {type(self.fn).__name__}")
        single = self.weights is not None and not isinstance(self.weights, (list, tuple))
        return compiler.gradspec.GradRequest(self.spec, tuple(_check_weights(self.weights)), single)

    def _compile_entry(self, args, kwargs, key):
        """``(CompiledKernel, from_disk)`` for a call (see ``compiler.compile``). A compile
        error reaches the caller without the compiler's frames."""
        try:
            return compiler.compile(self.compile_request(args, kwargs))
        except compiler.errors.CompileError as error:
            raise compiler.errors.without_internal_frames(error)

    def cache_info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}`` of this gradient's compiled kernels."""
        return self._cache.info()

    def kernel_source(self, *args: Any, **kwargs: Any) -> str:
        """The generated module that computes this gradient for these arguments (compiling it if needed)."""
        key, _ = self._key(args, kwargs)
        if self._cache.lookup(key) is None:
            entry, from_disk = self._compile_entry(args, kwargs, key)
            self._cache.add(key, entry, from_disk=from_disk)
        return self._cache.entries[key].source

    def program(self, args, kwargs=None):
        """The typed program of this gradient function for a call with concrete ``args``/``kwargs``:
        the pipeline's output after the differentiate stage (``compiler.pipeline.Program``)."""
        return compiler.pipeline.run_stages(self.compile_request(args, kwargs), "differentiate")


_GRAPH_DRAWS = contextlib.nullcontext()   # a graph's draws: each call of a primitive its own engine


def _stage(function, specializer, args, kwargs, loc):
    """A gradient function called inside code being compiled: staged there (``compiler.gradrequest``)."""
    fn, grads = grad_levels(function)
    return compiler.gradrequest.stage_gradient(fn, grads, specializer, args, kwargs, loc)


def grad_levels(function):
    """``(innermost callable, GradRequests outermost first)`` of a gradient function: ``grad(grad(f))``
    has two levels. Checks fn and the weights of every level."""
    grads = []
    while isinstance(function, GradFunction):
        grads.append(function._request())
        function = function.fn
    if LIBRARY.stager_for(function) is not None:   # a transform staged where it is called (a vmap)
        function = _calling(function)
    return function, tuple(grads)


def _calling(function):
    """A function whose body calls ``function``: compiled in its place, the call is staged."""
    def call(*args):
        return function(*args)
    return call


LIBRARY.register_stager(GradFunction, _stage)


class _no_grad:
    """``mindspore._no_grad``: a context manager (or decorator) whose block computes values no gradient
    flows through, like ``ops.stop_gradient`` on each value it binds or returns.

    In a function that is differentiated (``grad``, ``value_and_grad``, a training step) the compiler
    stops the gradient of what the block binds; run eagerly there is nothing to record, so it does
    nothing (MindSpore: "it can only be used in PyNative mode"; in GRAPH mode npspore honours it too).
    A function traced because its source is not available refuses it.
    """

    def __enter__(self) -> None:
        if RECORDERS:
            RECORDERS[-1].refuse("_no_grad")

    def __exit__(self, *exc_info: object) -> bool:
        return False

    def __call__(self, func: Callable) -> Callable:
        """``@_no_grad()``: ``func``'s results carry no gradient (a plain function the compiler reads,
        not ``contextlib``'s wrapper, whose ``__wrapped__`` points at other source)."""
        def no_grad_call(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        no_grad_call.__name__, no_grad_call.__doc__ = func.__name__, func.__doc__
        return no_grad_call


LIBRARY.register_no_grad(_no_grad)


# ----------------------------------------------------------------------------------- public API


def _make(fn, grad_position, weights, has_aux, return_ids, sens_param, with_value):
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    positions = _check_position(grad_position)
    _check_bool("_Grad", "has_aux", has_aux)
    _check_bool("_Grad", "return_ids", return_ids)
    _check_bool("_Grad", "sens_param", sens_param)
    spec = compiler.gradspec.GradSpec(positions=positions, position_form="auto", by_weights=weights is not None,
                                      has_aux=has_aux, return_ids=return_ids, sens_param=sens_param,
                                      with_value=with_value)
    return GradFunction(fn, spec, weights)


def grad(fn: Callable[..., Any], grad_position: int | tuple[int, ...] | None = 0, weights: Any = None,
         has_aux: bool = False, return_ids: bool = False, sens_param: bool = False) -> GradFunction:
    """A function that computes the gradient of ``fn``.

    Three cases: gradients with respect to inputs (``grad_position`` set, ``weights=None``), to
    network variables (``grad_position=None``, ``weights`` set), or both.

    Args:
        fn (Union[Cell, Function]): the function or network to differentiate.
        grad_position (Union[NoneType, int, tuple[int]]): the input position(s) to differentiate.
            An int or a 1-tuple gives a bare gradient, a longer tuple a tuple in the given order.
            Python-scalar and plain tuple/list/dict inputs are constants: their positions drop out
            of the result silently; ``mutable`` containers get a gradient of the same container type.
            Default: ``0``.
        weights (Union[ParameterTuple, Parameter, list[Parameter]]): the network variables to
            differentiate, e.g. ``net.trainable_params()``. A single Parameter gives a bare gradient,
            a list or tuple a tuple. Default: ``None``.
        has_aux (bool): fn returns a tuple of at least two outputs; only the first is differentiated
            and the result is ``(gradients, tuple(outputs[1:]))``. Default: ``False``.
        return_ids (bool): replace each gradient by ``(position, gradient)`` or
            ``(parameter name, gradient)``. Default: ``False``.
        sens_param (bool): the last positional argument is the sensitivity (the gradient of the
            output), with the output's structure. Default: ``False``.

    Returns:
        Function, which takes fn's arguments and returns the gradients.

    Raises:
        ValueError: ``grad_position`` and ``weights`` are both None, a position is negative or
            repeated, or (at call time) ``has_aux`` is set and fn returns a single output.
        TypeError: ``grad_position`` is not an int or a tuple of ints, a flag is not a bool, or (at
            call time) ``weights`` is not a Tensor/Parameter or a list/tuple of them, or fn is not
            callable.
        IndexError: (at call time) a position is not smaller than the number of inputs:
            ``Position index 3 is exceed input size.``

    Examples:
        >>> gradient = grad(net, grad_position=(1, 2))(x, y, z)
    """
    return _make(fn, grad_position, weights, has_aux, return_ids, sens_param, with_value=False)


def value_and_grad(fn: Callable[..., Any], grad_position: int | tuple[int, ...] | None = 0, weights: Any = None,
                   has_aux: bool = False, return_ids: bool = False, sens_param: bool = False) -> GradFunction:
    """A function that computes fn's value and its gradient: ``(value, gradients)``.

    The arguments and errors are those of :func:`grad`. ``value`` is fn's whole output;
    ``gradients`` has the structure :func:`grad` returns without ``has_aux``. With ``has_aux=True``
    only ``outputs[0]`` is differentiated, ``value`` is the whole output tuple
    ``(out0, out1, ...)`` and ``gradients`` holds no aux part: ``(loss, logits), grads = fn(x, y)``.

    Returns:
        Function, which takes fn's arguments and returns ``(value, gradients)``.
    """
    return _make(fn, grad_position, weights, has_aux, return_ids, sens_param, with_value=True)


def get_grad(gradients: Any, identifier: int | str | Any) -> Any:
    """The gradient for ``identifier`` in the result of a gradient function with ``return_ids=True``.

    Args:
        gradients: what ``grad(..., return_ids=True)`` returned (or the second element of
            ``value_and_grad(..., return_ids=True)``'s result).
        identifier (Union[int, Parameter]): an input position, or a Parameter (matched by name).

    Returns:
        Tensor, the gradient.

    Raises:
        TypeError: ``identifier`` is neither an int nor a Parameter.
        RuntimeError: no gradient is tagged with ``identifier``.
    """
    if isinstance(identifier, LIBRARY.parameter_type):
        wanted = identifier.name
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        wanted = identifier
    else:
        raise TypeError(f"For `get_grad`, the `x` should be an integer or a Parameter, but got {identifier}")

    def search(node):
        if not isinstance(node, tuple):
            return None
        if (len(node) == 2 and isinstance(node[0], (int, str)) and not isinstance(node[0], bool)
                and type(node[0]) is type(wanted) and node[0] == wanted and not isinstance(node[1], int)):
            return node[1]
        for child in node:
            if isinstance(child, LIBRARY.tensor_type):
                continue
            found = search(child)
            if found is not None:
                return found
        return None

    found = search(gradients)
    if found is None:
        raise RuntimeError(f"Can not find the gradient for position or Parameter {identifier}")
    return found
