"""``grad``, ``value_and_grad`` and ``get_grad``: MindSpore's gradient transforms, compiled.

``grad(fn, ...)`` returns a :class:`GradFunction`. Its first call with a new input signature traces
``fn`` (``compiler.pipeline.trace_program``), differentiates the typed module
(``compiler.differentiate``) and builds one kernel that returns the forward values and the requested
gradients; later calls with the same signature dispatch straight to that kernel through the same
:class:`~npspore.jit.KernelCache` that ``jit`` uses. The kernel's flat results are rebuilt into
MindSpore's return structure by an :class:`~npspore.compiler.signature.OutputTree` computed once per
signature (see :func:`gradient_tree`).

Gradient kernels go to the disk cache like forward kernels (the options and the weights' attribute
paths are part of the key). A GradFunction can itself be differentiated (``grad(grad(f))``,
``value_and_grad(grad(f))``): its :meth:`GradFunction.program` is a traced program like any other, so
the differentiate stage runs again on its output. Called inside compiled code (``GradNetWrtX``'s
``construct`` in GRAPH mode, a ``@jit`` function) it is staged there (:meth:`GradFunction.stage`).
Backward hooks of the differentiated Cell run in eager calls (:meth:`GradFunction._call_with_hooks`);
hooks of sub-cells, and of any cell inside compiled code, are not run.

npspore follows MindSpore's GRAPH-mode (documented) behaviour in every mode; see the "Decisions"
section of the semantics notes: out-of-range positions raise ``IndexError``, ``return_ids`` always has
the documented form, ``mutable`` tuple/list/dict inputs get gradients of the same container type.
"""
from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass

import numpy as np

from .compiler.pipeline import leaf_slices
from .compiler.signature import input_key, map_tensors, tensor_leaves

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
    from .common.tensor import Tensor

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


# ----------------------------------------------------------------------------------- the spec


@dataclass(frozen=True)
class GradSpec:
    """What a gradient function computes and how it packages the result.

    ``positions``: the input positions to differentiate (``None``: no input part). ``position_form``:
    ``"auto"`` (one gradient bare, several a tuple: ``grad``, ``GradOperation()``) or ``"all"`` (every
    input, always a tuple: ``get_all``). ``by_weights``: the result has a weights part (a single
    Parameter gives a bare gradient, a list a tuple). ``has_aux``, ``return_ids``, ``sens_param``: as
    in :func:`grad`. ``with_value``: the result is ``(value, gradients)``.
    """

    positions: tuple | None
    position_form: str = "auto"
    by_weights: bool = False
    has_aux: bool = False
    return_ids: bool = False
    sens_param: bool = False
    with_value: bool = False


# ----------------------------------------------------------------------------------- result trees


def _tuple_node(children) -> tuple:
    return ("tuple", tuple(children))


def gradient_tree(spec: GradSpec, position_grads, weight_grads, single_weight: bool, value_node, aux_node):
    """The OutputTree node of a gradient function's result, in MindSpore's structure.

    Args:
        spec: the gradient options.
        position_grads: ``[(position, node)]`` for the differentiable inputs among the requested
            positions (Python-scalar and constant-container inputs already dropped), in request order.
        weight_grads: ``[(name, node)]`` per weight, in the order given.
        single_weight: the weights were given as one Tensor/Parameter (bare gradient), not a list.
        value_node: the node of fn's whole output (used when ``spec.with_value``).
        aux_node: the node of ``tuple(out[1:])`` (used when ``spec.has_aux``).

    Returns:
        A node for :class:`~npspore.compiler.signature.OutputTree`.
    """
    def tag(identifier, node):
        return _tuple_node((("const", identifier), node)) if spec.return_ids else node

    positions = [tag(p, node) for p, node in position_grads]
    weights = [tag(name, node) for name, node in weight_grads]
    if spec.positions is None:
        position_part = None
    elif spec.position_form == "all":
        position_part = _tuple_node(positions)
    elif len(positions) == 1:
        position_part = positions[0]
    else:
        position_part = _tuple_node(positions)
    if not spec.by_weights:
        weight_part = None
    elif single_weight and len(weights) == 1:
        weight_part = weights[0]
    else:
        weight_part = _tuple_node(weights)
    if position_part is None:
        grads = weight_part
    elif weight_part is None:
        grads = position_part
    else:
        grads = _tuple_node((position_part, weight_part))
    if spec.has_aux and not spec.with_value:  # value_and_grad returns the aux in the value only
        grads = _tuple_node((grads, aux_node))
    if spec.with_value:
        return _tuple_node((value_node, grads))
    return grads


def _aux_node(output_node):
    """``tuple(out[1:])`` of fn's output for ``has_aux``; raises MindSpore's ValueError otherwise."""
    if output_node[0] != "tuple" or len(output_node[1]) < 1:
        raise ValueError("When has_aux is True, origin fn requires more than one outputs.")
    return _tuple_node(output_node[1][1:])


def _leaf_indices(node) -> list:
    kind = node[0]
    if kind == "leaf":
        return [node[1]]
    if kind == "const":
        return []
    return [i for child in node[-1] for i in _leaf_indices(child)]


def _renumber(node, mapping):
    """A copy of ``node`` whose leaves go through ``mapping(old_index) -> new_index``."""
    kind = node[0]
    if kind == "leaf":
        return ("leaf", mapping(node[1]))
    if kind == "const":
        return node
    if kind == "dict":
        return ("dict", node[1], tuple(_renumber(c, mapping) for c in node[2]))
    return (kind, tuple(_renumber(c, mapping) for c in node[1]))


# ----------------------------------------------------------------------------------- gradient functions


def _is_tensor(value) -> bool:
    """A concrete Tensor, or a tensor value of code being compiled."""
    from .common.tensor import Tensor
    from .compiler.specialize import TensorValue

    return isinstance(value, (Tensor, TensorValue))


def _is_mutable_container(value) -> bool:
    from .common.mutable import _Dict, _List, _Tuple

    return isinstance(value, (_Tuple, _List, _Dict)) or (
        isinstance(value, (tuple, list, dict)) and bool(getattr(value, "__ms_mutable__", False)))


def _gradient_node(value, next_leaf):
    """The OutputTree node of the gradient of an input: a leaf, or a container of the same type."""
    if _is_tensor(value):
        return ("leaf", next_leaf())
    if isinstance(value, dict):
        return ("dict", tuple(value.keys()), tuple(_gradient_node(v, next_leaf) for v in value.values()))
    kind = "list" if isinstance(value, list) else "tuple"
    return (kind, tuple(_gradient_node(v, next_leaf) for v in value))


_SHARED_CACHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _kernel_cache(owner_fn, options_key, label: str):
    """The KernelCache for (fn, options): shared by every gradient function built from the same
    callable with the same options, so ``grad(self.net)`` inside an eager ``construct`` compiles once.

    The caches hang off the callable weakly (nothing in them refers back to it), so they go with it.
    """
    from .jit import KernelCache

    anchor = getattr(owner_fn, "__self__", owner_fn)
    try:
        per_fn = _SHARED_CACHES.setdefault(anchor, {})
    except TypeError:
        return KernelCache(label)
    cache = per_fn.get(options_key)
    if cache is None:
        cache = KernelCache(label)
        per_fn[options_key] = cache
    return cache


@dataclass
class _Differentiated:
    """A gradient function added to a set of functions, and how to call it and read its results."""

    functions: dict           # the new functions (gradient entry, forward/backward pairs)
    name: str                 # the gradient entry: params are input leaves, sens leaves, captured arrays
    captured: list            # objects whose arrays follow the input and sensitivity leaves
    tree: tuple               # OutputTree node over the entry's results
    n_sens: int               # number of sensitivity leaves


class GradFunction:
    """The gradient function returned by :func:`grad`, :func:`value_and_grad` and ``GradOperation``.

    Call it with ``fn``'s arguments (plus the sensitivity last when ``sens_param`` is set). The first
    call with a new input signature compiles; later calls run the cached kernel. Called from code that
    is being compiled (a Cell's ``construct`` in GRAPH mode, a ``@jit`` function), it is staged into
    that code instead (:meth:`stage`).
    """

    def __init__(self, fn, spec: GradSpec, weights=None):
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
        self._is_cell = hasattr(type(fn), "construct") and hasattr(fn, "training")
        self._runs_hooks = self._is_cell

    # --- calling

    def _split_sens(self, args, kwargs):
        if not self.spec.sens_param:
            return tuple(args), dict(kwargs), ()
        kwargs = dict(kwargs)
        if "sens" in kwargs:
            return tuple(args), kwargs, (kwargs.pop("sens"),)
        return tuple(args[:-1]), kwargs, tuple(args[-1:])

    def _check_call(self, args, kwargs):
        if not callable(self.fn):
            raise TypeError(f"The fn should be callable, but got {type(self.fn).__name__}")
        count = len(args) + len(kwargs)
        for position in self.spec.positions or ():
            if position >= count:
                raise IndexError(f"Position index {position} is exceed input size.")
        _check_weights(self.weights)

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
        return key, leaves

    def __call__(self, *args, **kwargs):
        if self._runs_hooks and (self.fn._backward_hooks or self.fn._backward_pre_hooks):
            return self._call_with_hooks(args, kwargs)
        key, leaves = self._key(args, kwargs)
        entry = self._cache.lookup(key)
        if entry is None:
            entry, from_disk = self._compile_entry(args, kwargs, key)
            self._cache.add(key, entry, from_disk=from_disk)
        return entry.run(leaves)

    def _call_with_hooks(self, args, kwargs):
        """A call when fn is a Cell with backward hooks: the kernels compute the value and the
        gradients of all inputs; the hooks run in Python between them and the packaging.

        ``grad_output`` is the sensitivity of each output leaf (ones, or the given ``sens``); a
        backward pre-hook that replaces it makes the gradients be computed again from its value.
        ``grad_input`` holds the gradients of the differentiable inputs; a backward hook that
        returns a new tuple replaces them.
        """
        from .common.tensor import Tensor

        call_args, call_kwargs, sens = self._split_sens(args, kwargs)
        self._check_call(call_args, call_kwargs)
        inputs = call_args + tuple(call_kwargs.values())
        differentiable = [p for p, v in enumerate(inputs) if _is_tensor(v) or _is_mutable_container(v)]
        spec = self.spec
        everything = dict(positions=(), position_form="all", return_ids=False, with_value=True)
        value, rest = self._variant(**everything)(*args, **kwargs)
        core = rest
        differentiated = value[0] if spec.has_aux else value
        if spec.sens_param:
            grad_output = tuple(tensor_leaves(sens[0]))
        else:
            grad_output = tuple(Tensor._wrap(np.ones_like(t._array)) for t in tensor_leaves(differentiated))
        replaced = self.fn._run_backward_pre_hooks(grad_output)
        if replaced is not grad_output:
            leaves = iter(replaced)
            first = map_tensors(differentiated, lambda t: next(leaves))
            given = first if not spec.has_aux else (first,) + tuple(
                map_tensors(v, lambda t: Tensor._wrap(np.zeros_like(t._array))) for v in value[1:])
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
                          for p in self._requested_positions(inputs) if p in differentiable]
        weights = _check_weights(self.weights)
        single_weight = self.weights is not None and not isinstance(self.weights, (list, tuple))
        weight_values = [weight_part] if single_weight else list(weight_part or ())
        weight_grads = [(getattr(w, "name", None), leaf(g)) for w, g in zip(weights, weight_values)]
        aux = leaf(tuple(value[1:])) if spec.has_aux else None
        tree = gradient_tree(spec, position_grads, weight_grads, single_weight, leaf(value), aux)
        return _build_abstract(tree, found)

    def _variant(self, **changes) -> "GradFunction":
        """The gradient function of the same fn and weights with other options (kernels are shared),
        which does not run the hooks itself."""
        variant = GradFunction(self.fn, dataclasses.replace(self.spec, **changes), self.weights)
        variant._runs_hooks = False
        return variant

    def _compile_entry(self, args, kwargs, key):
        """The kernel entry for a call: from the disk cache when verified there, else compiled.

        Returns ``(entry, from_disk)``.
        """
        from .compiler import pipeline
        from .compiler.signature import describe_key
        from .jit import KernelEntry, load_from_disk

        disk_key = self._kernel_disk_key(key)
        if disk_key is not None:
            target, self_obj = pipeline.unbind(self.fn)
            entry = load_from_disk(disk_key, target, self_obj)
            if entry is not None:
                entry.build = _result_builder(_layout_output(entry.source))
                return entry, True
        program = self.program(args, kwargs)
        layout = pipeline.layout_literal(program) if disk_key is not None else None
        signature = describe_key(input_key(_flat_inputs(*self._split_sens(args, kwargs)))[0])
        header = pipeline.header_for(program, signature, disk_key if layout else None, kind="gradient")
        header["grad"] = _describe_spec(self.spec)
        kernel, source, path = pipeline.build_kernel(program.module, layout=layout,
                                                     key=disk_key if layout else None, header=header)
        entry = KernelEntry(kernel, program.captured, program.output_tree, source, path)
        entry.build = _result_builder(program.output_tree.node)
        return entry, False

    def _kernel_disk_key(self, key):
        """The disk-cache key of a call, or None when this gradient cannot be named in another process
        (a gradient of a gradient, a weight that is not an attribute path from fn)."""
        from .compiler import pipeline
        from .jit import kernel_disk_key

        if isinstance(self.fn, GradFunction) or not callable(self.fn):
            return None
        target, self_obj = pipeline.unbind(self.fn)
        paths = tuple(pipeline.addressable_path(self_obj, target, w) for w in _check_weights(self.weights))
        if any(p is None for p in paths):
            return None
        single = self.weights is not None and not isinstance(self.weights, (list, tuple))
        try:
            return kernel_disk_key(target, self_obj, key, ("gradient", repr(self.spec), paths, single))
        except (AttributeError, TypeError):
            return None

    def cache_info(self) -> dict:
        """``{'hits', 'compiles', 'disk_loads', 'entries'}`` of this gradient's compiled kernels."""
        return self._cache.info()

    def kernel_source(self, *args, **kwargs) -> str:
        """The generated module that computes this gradient for these arguments (compiling it if needed)."""
        key, _ = self._key(args, kwargs)
        if self._cache.lookup(key) is None:
            entry, from_disk = self._compile_entry(args, kwargs, key)
            self._cache.add(key, entry, from_disk=from_disk)
        return self._cache.entries[key].source

    # --- tracing

    def program(self, args, kwargs=None):
        """The typed program of this gradient function for a call with concrete ``args``/``kwargs``.

        Returns a ``compiler.pipeline.Program`` whose entry takes the input leaves, the sensitivity
        leaves, then the captured arrays, and returns the leaves of the packaged result
        (``program.output_tree`` rebuilds it). A GradFunction is differentiated again through this.
        """
        from .compiler import ir, pipeline
        from .compiler.signature import OutputTree

        call_args, call_kwargs, sens = self._split_sens(args, kwargs or {})
        self._check_call(call_args, call_kwargs)
        base = _trace_callable(self.fn, call_args, call_kwargs)
        inputs = call_args + tuple(call_kwargs.values())
        done = self._differentiate(base.module.functions, base.module.entry, inputs, base.leaf_slices,
                                   base.captured, base.output_tree.node)
        functions = {**base.module.functions, **done.functions}
        n_leaves = sum(s.stop - s.start for s in base.leaf_slices)
        leaf_slices = list(base.leaf_slices)
        if self.spec.sens_param:
            leaf_slices.append(slice(n_leaves, n_leaves + done.n_sens))
        module = ir.Module(functions, done.name, dict(base.module.header))
        return pipeline.Program(
            module=module, captured=done.captured, capture_paths=list(base.capture_paths),
            output_tree=OutputTree(done.tree), leaf_slices=leaf_slices, sources=dict(base.sources),
            callable_name=base.callable_name, source_file=base.source_file)

    def stage(self, specializer, args, kwargs, loc):
        """Stage a call of this gradient function into code being compiled by ``specializer``.

        ``args``/``kwargs`` are the caller's abstract values. The differentiated function is added to
        the program being built and called; returns the packaged result as abstract values.
        """
        from .compiler import ir
        from .compiler.specialize import TensorValue

        call_args, call_kwargs, sens = self._split_sens(args, kwargs)
        done = self.stage_function(specializer.program, args, kwargs)
        leaves = []
        _collect_tensor_values(call_args + tuple(call_kwargs.values()) + sens, leaves)
        captured = [specializer.capture(obj).var for obj in done.captured]
        gradient = specializer.program.functions[done.name]
        targets = tuple(specializer.names.var(r.name, r.aval) for r in gradient.body.results)
        specializer.builder.append(ir.Call(targets, done.name, tuple(v.var for v in leaves) + tuple(captured), loc))
        return _build_abstract(done.tree, [TensorValue(t) for t in targets])

    def stage_function(self, program, args, kwargs) -> _Differentiated:
        """Specialize fn for abstract ``args`` (this gradient function's own arguments, sensitivity
        included) into ``program``, a ``specialize.ProgramBuilder``, and add its gradient function."""
        args, kwargs, _ = self._split_sens(args, kwargs)
        self._check_call(args, kwargs)
        if isinstance(self.fn, GradFunction):
            inner = self.fn.stage_function(program, args, kwargs)
            name, captured, output_node = inner.name, inner.captured, inner.tree
        else:
            name, captured, output_node = _specialize_into(program, self.fn, args, kwargs)
        inputs = tuple(args) + tuple(kwargs.values())
        done = self._differentiate(program.functions, name, inputs, leaf_slices(inputs), captured, output_node)
        for new_name, function in done.functions.items():
            if program.names.fresh(new_name) != new_name:
                raise RuntimeError(f"function name {new_name!r} is already taken in the program")
            program.functions[new_name] = function
        return done

    def _differentiate(self, functions, name, inputs, leaf_slices, captured, output_node) -> _Differentiated:
        """Add the gradient of function ``name`` to ``functions`` (returned as new functions)."""
        from .common.parameter import Parameter
        from .compiler import ir
        from .compiler.builder import BlockBuilder, identifier
        from .compiler.differentiate import differentiate, function_names
        from .opdef import Aval

        fn = functions[name]
        n_leaves = sum(s.stop - s.start for s in leaf_slices)
        n_params = len(fn.params)
        wrt: list = []
        extra: list = []            # weights fn does not read (or plain Tensors): zero gradients

        def next_wrt(index):
            wrt.append(index)
            return len(wrt) - 1

        position_grads = []
        for position in self._requested_positions(inputs):
            value = inputs[position]
            if _is_tensor(value) or _is_mutable_container(value):
                indices = iter(range(leaf_slices[position].start, leaf_slices[position].stop))
                position_grads.append((position, _gradient_node(value, lambda: next_wrt(next(indices)))))
        weight_grads = []
        for weight in _check_weights(self.weights):
            index = next((k for k, obj in enumerate(captured) if obj is weight), None)
            if index is not None and isinstance(weight, Parameter):
                node = ("leaf", next_wrt(n_leaves + index))
            else:
                extra.append(weight)
                node = ("extra", len(extra) - 1)
            weight_grads.append((getattr(weight, "name", None), node))

        aux = _aux_node(output_node) if self.spec.has_aux else None
        if self.spec.sens_param:
            seeds = "given"
        elif self.spec.has_aux:
            seeds = tuple(_leaf_indices(output_node[1][0]))
        else:
            seeds = "ones"
        module = differentiate(ir.Module(dict(functions), name), tuple(wrt), seeds)
        gradient = module.functions[module.entry]
        n_results = len(fn.body.results)
        forward = gradient.body.results[:n_results]
        grads = list(gradient.body.results[n_results:])
        sens_params = tuple(gradient.params[n_params:])

        builder = BlockBuilder(function_names(gradient), gradient.body)
        loc = gradient.loc or ir.Loc("<grad>", 0)
        for weight in extra:
            aval = Aval.of(weight._array)
            grads.append(builder.apply("zeros", (), {"shape": aval.shape, "dtype": aval.dtype}, loc=loc,
                                       hint="d_" + identifier(getattr(weight, "name", None) or "weight")))
        gradient.params = tuple(gradient.params[:n_leaves]) + sens_params + tuple(gradient.params[n_leaves:n_params])

        results = []

        def take(atom):
            results.append(atom)
            return len(results) - 1

        def grad_leaf(node):
            if node[0] == "extra":
                return ("leaf", take(grads[len(wrt) + node[1]]))
            return _renumber(node, lambda k: take(grads[k]))

        value_node = _renumber(output_node, lambda i: take(forward[i])) if self.spec.with_value else None
        if aux is not None:
            aux = _renumber(aux, lambda i: take(forward[i]))
        position_grads = [(p, grad_leaf(node)) for p, node in position_grads]
        weight_grads = [(weight_name, grad_leaf(node)) for weight_name, node in weight_grads]
        single_weight = self.weights is not None and not isinstance(self.weights, (list, tuple))
        tree = gradient_tree(self.spec, position_grads, weight_grads, single_weight, value_node, aux)
        gradient.body.results = tuple(results)
        new = {k: f for k, f in module.functions.items() if k not in functions}
        return _Differentiated(new, module.entry, list(captured), tree, len(sens_params))

    def _requested_positions(self, inputs) -> tuple:
        positions = self.spec.positions
        if positions is None:
            return ()
        if self.spec.position_form == "all":
            return tuple(range(len(inputs)))
        return positions


def _specialize_into(program, fn, args, kwargs):
    """Specialize a function or Cell for abstract args as a function of ``program``.

    Returns ``(function name, captured objects, output tree node)``.
    """
    from .compiler.pipeline import unbind
    from .compiler.specialize import FunctionSpecializer, function_name, fresh_inputs

    function, self_obj = unbind(fn)
    abstract_args, abstract_kwargs = fresh_inputs(tuple(args), dict(kwargs))
    specializer = FunctionSpecializer(program, function, self_obj,
                                      program.names.fresh(function_name(function, self_obj)))
    built = specializer.build(abstract_args, abstract_kwargs)
    program.functions[built.name] = built
    return built.name, [obj for obj, _ in specializer.captures.values()], built.output_tree.node


def _collect_tensor_values(value, out):
    from .compiler.specialize import TensorValue

    if isinstance(value, TensorValue):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _collect_tensor_values(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _collect_tensor_values(v, out)


def _build_abstract(node, leaves):
    kind = node[0]
    if kind == "leaf":
        return leaves[node[1]]
    if kind == "const":
        return node[1]
    if kind == "dict":
        return {k: _build_abstract(c, leaves) for k, c in zip(node[1], node[2])}
    items = [_build_abstract(c, leaves) for c in node[1]]
    return items if kind == "list" else tuple(items)


def _layout_output(source: str):
    """The output tree node recorded in a cached kernel module's ``layout`` literal."""
    import ast

    return ast.literal_eval(source.rsplit("\nlayout = ", 1)[1])["output"]


def _flat_inputs(args, kwargs, sens) -> tuple:
    return tuple(args) + tuple(kwargs.values()) + tuple(sens)


def _result_builder(node):
    """A fast function from a kernel's results to the structure ``node`` describes (the same as
    ``OutputTree(node).build``, without walking the tree at every call). A kernel with one result
    returns it bare."""
    from .common.tensor import Tensor

    constants = []
    leaves = _leaf_indices(node)

    def text(n):
        kind = n[0]
        if kind == "leaf":
            return "w(r)" if len(leaves) == 1 else f"w(r[{n[1]}])"
        if kind == "const":
            constants.append(n[1])
            return f"c[{len(constants) - 1}]"
        items = ", ".join(text(child) for child in n[-1])
        if kind == "list":
            return f"[{items}]"
        if kind == "dict":
            constants.append(n[1])
            return f"dict(zip(c[{len(constants) - 1}], ({items},)))"
        return f"({items},)" if items else "()"

    return eval(f"lambda r: {text(node)}", {"w": Tensor._wrap, "c": constants})  # noqa: S307 (ints only)


def _describe_spec(spec: GradSpec) -> str:
    parts = [f"positions={spec.positions}"]
    for name in ("by_weights", "has_aux", "return_ids", "sens_param", "with_value"):
        value = getattr(spec, name)
        if value:
            parts.append(f"{name}={value}")
    return ", ".join(parts)


def _trace_callable(fn, args, kwargs):
    """The typed program of ``fn`` called with concrete ``args``: a gradient function's own program,
    or the pipeline's trace of a function or Cell."""
    if isinstance(fn, GradFunction):
        return fn.program(args, kwargs)
    from .compiler import pipeline

    return pipeline.trace_program(fn, args, kwargs)


# ----------------------------------------------------------------------------------- public API


def _make(fn, grad_position, weights, has_aux, return_ids, sens_param, with_value):
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    positions = _check_position(grad_position)
    _check_bool("_Grad", "has_aux", has_aux)
    _check_bool("_Grad", "return_ids", return_ids)
    _check_bool("_Grad", "sens_param", sens_param)
    spec = GradSpec(positions=positions, position_form="auto",
                    by_weights=weights is not None, has_aux=has_aux,
                    return_ids=return_ids, sens_param=sens_param, with_value=with_value)
    return GradFunction(fn, spec, weights)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
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


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function that computes fn's value and its gradient: ``(value, gradients)``.

    The arguments and errors are those of :func:`grad`. ``value`` is fn's whole output (with
    ``has_aux``, the whole output tuple); ``gradients`` has exactly the structure :func:`grad` returns.

    Returns:
        Function, which takes fn's arguments and returns ``(value, gradients)``.
    """
    return _make(fn, grad_position, weights, has_aux, return_ids, sens_param, with_value=True)


def get_grad(gradients, identifier):
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
    from .common.parameter import Parameter
    from .common.tensor import Tensor

    if isinstance(identifier, Parameter):
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
            if isinstance(child, Tensor):
                continue
            found = search(child)
            if found is not None:
                return found
        return None

    found = search(gradients)
    if found is None:
        raise RuntimeError(f"Can not find the gradient for position or Parameter {identifier}")
    return found
