"""GradRequest: what a gradient function asks of the differentiate stage, and how the result is packaged.

A request says which inputs (``positions``) and which weights to differentiate and how MindSpore
packages the answer (bare or tuple, ``has_aux``, ``return_ids``, ``with_value``). Applied to a
specialized function (:func:`differentiate_request`) it

1. maps positions and weights to the function's parameters (``wrt``): the tensor leaves of each
   requested input, the captured Parameters among the weights;
2. chooses the seeds: ones for every output, the first output only (``has_aux``), or given
   sensitivities (``sens_param``);
3. runs ``differentiate`` (the reverse-mode transform), adds zeros for weights the function never
   reads, puts the sensitivity params after the input leaves;
4. packages the results as an :class:`~npspore.compiler.signature.OutputTree` node in
   MindSpore's structure (:func:`gradient_tree`).

The front doors (``npspore.grad``) build requests; they never edit IR. ``add_gradient`` does the
same for a gradient function called inside code being compiled (``grad`` of a Cell in a GRAPH-mode
``construct``), staging it into the program being built.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import tree
from ..opdef import Aval
from . import ir
from .builder import BlockBuilder, identifier
from .closures import FreeTensor, specialize_closure
from .differentiate import differentiate, function_names
from .gradspec import GradRequest, GradSpec, is_mutable_container
from .library import LIBRARY
from .specialize import FunctionSpecializer, function_name
from .targets import unbind
from .kernel import TensorHooks
from .tensorhooks import hook_gradients
from .signature import is_mutable_scalar
from .values import Closure, TensorValue, fresh_inputs


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
        aux_node: the node of ``tuple(out[1:])`` (used by ``grad`` with ``has_aux``: the result is
            ``(gradients, aux)``; ``value_and_grad`` returns the whole output as the value instead).

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
    if spec.with_value:
        return _tuple_node((value_node, grads))
    if spec.has_aux:
        return _tuple_node((grads, aux_node))
    return grads


def _aux_node(output_node):
    """``tuple(out[1:])`` of fn's output for ``has_aux``; raises MindSpore's ValueError otherwise."""
    if output_node[0] != "tuple" or len(output_node[1]) < 1:
        raise ValueError("When has_aux is True, origin fn requires more than one outputs.")
    return _tuple_node(output_node[1][1:])


def _constants(node):
    """The constant leaves of an OutputTree node, or None when it has a result leaf (a tensor)."""
    kind = node[0]
    if kind == "leaf":
        return None
    if kind == "const":
        return [node[1]]
    found = []
    for child in node[-1]:
        constants = _constants(child)
        if constants is None:
            return None
        found += constants
    return found


def _check_differentiable_output(node, fn) -> None:
    """Refuse to differentiate an output of ``None``s and strings only: a deliberate difference,
    MindSpore 2.10 returns zero gradients for it (as for a number, where npspore does too)."""
    constants = _constants(node)
    if constants is not None and all(c is None or isinstance(c, str) for c in constants):
        value = node[1] if node[0] == "const" else "of None and strings only"
        raise TypeError(f"cannot differentiate '{fn.source or fn.name}': its output {value!r} is not a Tensor; "
                        "return the value to differentiate")


def leaf_indices(node) -> list:
    """The result indices of an OutputTree node's leaves, in order."""
    kind = node[0]
    if kind == "leaf":
        return [node[1]]
    if kind == "const":
        return []
    return [i for child in node[-1] for i in leaf_indices(child)]


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


def is_tensor(value) -> bool:
    """A concrete Tensor, or a tensor value of code being compiled."""
    return isinstance(value, (LIBRARY.tensor_type, TensorValue))


def _gradient_node(value, next_leaf):
    """The OutputTree node of the gradient of an input: a leaf, or a container of the same type."""
    if is_tensor(value):
        return ("leaf", next_leaf())
    if isinstance(value, dict):
        return ("dict", tuple(value.keys()), tuple(_gradient_node(v, next_leaf) for v in value.values()))
    kind = "list" if isinstance(value, list) else "tuple"
    return (kind, tuple(_gradient_node(v, next_leaf) for v in value))


def leaf_slices(values) -> list:
    """For each call argument, the slice of the entry params that holds its tensor leaves (Tensors,
    or tensor values while compiling, and ``mutable`` scalars), in flattening order."""
    slices, start = [], 0
    for value in values:
        count = len(tree.leaves(value, lambda v: is_tensor(v) or is_mutable_scalar(v)))
        slices.append(slice(start, start + count))
        start += count
    return slices


def _hooks_of(index: int, tensor) -> list:
    """``[(index, hooks, aval)]`` for a Tensor holding ``Tensor.register_hook`` hooks (``compiler.tensorhooks``)."""
    hooks = TensorHooks.of(tensor)
    return [(index, hooks, Aval.of(tensor._array))] if hooks else []


@dataclass
class Differentiated:
    """A gradient function added to a set of functions, and how to call it and read its results."""

    functions: dict           # the new functions (gradient entry, forward/backward pairs)
    name: str                 # the gradient entry: params are input leaves, sens leaves, captured arrays
    captured: list            # objects whose arrays follow the input and sensitivity leaves
    tree: tuple               # OutputTree node over the entry's results
    n_sens: int               # number of sensitivity leaves


def differentiate_request(request: GradRequest, functions, name, inputs, slices, captured, output_node,
                          final=False) -> Differentiated:
    """Apply ``request`` to function ``name`` of ``functions``: its gradient, as new functions.

    ``inputs`` are the call's arguments (concrete or abstract), ``slices`` where each one's tensor
    leaves sit among the function's params, ``captured`` the objects behind the params after
    them, ``output_node`` the function's OutputTree node.
    """
    fn = functions[name]
    n_leaves = sum(s.stop - s.start for s in slices)
    n_params = len(fn.params)
    wrt: list = []
    unread: list = []            # weights fn does not read (or plain Tensors): zero gradients

    def next_wrt(index):
        wrt.append(index)
        return len(wrt) - 1

    position_grads = []
    hooked: list = []            # (wrt index, hooks, aval) of Tensors holding hooks (compiler.tensorhooks)
    for position in request.requested_positions(inputs):
        value = inputs[position]
        if is_tensor(value) or is_mutable_container(value):
            indices = iter(range(slices[position].start, slices[position].stop))
            position_grads.append((position, _gradient_node(value, lambda: next_wrt(next(indices)))))
            hooked += _hooks_of(position_grads[-1][1][1], value)
    weight_grads = []
    for weight in request.weights:
        index = next((k for k, obj in enumerate(captured) if obj is weight), None)
        if index is not None and isinstance(weight, LIBRARY.parameter_type):
            node = ("leaf", next_wrt(n_leaves + index))
            hooked += _hooks_of(node[1], weight)
        else:
            unread.append(weight)
            node = ("unread", len(unread) - 1)
        weight_grads.append((getattr(weight, "name", None), node))

    aux = _aux_node(output_node) if request.spec.has_aux else None
    _check_differentiable_output(output_node[1][0] if request.spec.has_aux else output_node, fn)
    seeds: str | tuple
    if request.spec.sens_param:
        seeds = "given"
    elif request.spec.has_aux:
        seeds = tuple(leaf_indices(output_node[1][0]))
    else:
        seeds = "ones"
    module = differentiate(ir.Module(dict(functions), name), tuple(wrt), seeds, final=final)
    gradient = module.functions[module.entry]
    n_results = len(fn.body.results)
    forward = gradient.body.results[:n_results]
    grads = list(gradient.body.results[n_results:])
    sens_params = tuple(gradient.params[n_params:])

    builder = BlockBuilder(function_names(gradient), gradient.body)
    loc = gradient.loc or ir.Loc("<grad>", 0)
    hook_gradients(builder, grads, hooked, loc)
    for weight in unread:
        aval = Aval.of(weight._array)
        grads.append(builder.apply("zeros", (), {"shape": aval.shape, "dtype": aval.dtype}, loc=loc,
                                   hint="d_" + identifier(getattr(weight, "name", None) or "weight")))
    gradient.params = tuple(gradient.params[:n_leaves]) + sens_params + tuple(gradient.params[n_leaves:n_params])

    results = []

    def take(atom):
        results.append(atom)
        return len(results) - 1

    def grad_leaf(node):
        if node[0] == "unread":
            return ("leaf", take(grads[len(wrt) + node[1]]))
        return _renumber(node, lambda k: take(grads[k]))

    value_node = _renumber(output_node, lambda i: take(forward[i])) if request.spec.with_value else None
    if aux is not None and not request.spec.with_value:
        aux = _renumber(aux, lambda i: take(forward[i]))
    position_grads = [(p, grad_leaf(node)) for p, node in position_grads]
    weight_grads = [(weight_name, grad_leaf(node)) for weight_name, node in weight_grads]
    tree = gradient_tree(request.spec, position_grads, weight_grads, request.single_weight, value_node, aux)
    gradient.body.results = tuple(results)
    new = {k: f for k, f in module.functions.items() if k not in functions}
    return Differentiated(new, module.entry, list(captured), tree, len(sens_params))


# ----------------------------------------------------------------------------------- staged gradients


def add_gradient(program, fn, requests, args, kwargs) -> Differentiated:
    """Specialize ``fn`` for abstract ``args`` into ``program`` (a ``specialize.ProgramBuilder``) and
    add the gradient functions of ``requests`` (outermost first: ``grad(grad(f))`` has two).

    The gradient is final (its loops' tapes go from ``_fwd`` to ``_bwd``, so a loop runs once; see
    ``differentiate``) when the program is a forward kernel (``program.gradients_final``: nothing
    differentiates it again) and it is the outermost gradient staged, not one that an enclosing
    staged gradient, or the outer level of ``grad(grad(f))``, differentiates again."""
    request, inner = requests[0], requests[1:]
    args, kwargs, _ = request.split_sens(args, kwargs)
    request.check_positions(args, kwargs)
    final = program.gradients_final and program.staging_gradients == 0
    program.staging_gradients += 1
    try:
        if inner:
            done = add_gradient(program, fn, inner, args, kwargs)
            name, captured, output_node = done.name, done.captured, done.tree
        else:
            name, captured, output_node = specialize_into(program, fn, args, kwargs)
    finally:
        program.staging_gradients -= 1
    inputs = tuple(args) + tuple(kwargs.values())
    if isinstance(request, GradRequest):
        done = differentiate_request(request, program.functions, name, inputs, leaf_slices(inputs), captured,
                                     output_node, final=final)
    else:   # a JvpRequest (jvp of grad, grad of jvp): its module imports this one
        from .jvprequest import jvp_request
        done = jvp_request(request, program.functions, name, inputs, leaf_slices(inputs), captured, output_node)
    for new_name, function in done.functions.items():
        if program.names.fresh(new_name) != new_name:
            raise RuntimeError(f"function name {new_name!r} is already taken in the program")
        program.functions[new_name] = function
    return done


def stage_gradient(fn, requests, specializer, args, kwargs, loc):
    """Stage a call of a gradient function into code being compiled by ``specializer``.

    ``args``/``kwargs`` are the caller's abstract values. The differentiated function is added to
    the program being built and called; returns the packaged result as abstract values.
    """
    done = add_gradient(specializer.program, fn, requests, args, kwargs)
    specializer.program.staged_gradient = True
    call_args, call_kwargs, sens = requests[0].split_sens(args, kwargs)
    leaves = tree.leaves(call_args + tuple(call_kwargs.values()), lambda v: isinstance(v, TensorValue))
    # a sensitivity may be a Tensor the caller holds (``self.sens``): the gradient has a param for each
    # of its leaves, so such a Tensor is captured and passed like a computed one
    sens_leaves = [v if isinstance(v, TensorValue) else specializer.capture(v)
                   for v in tree.leaves(sens, lambda v: isinstance(v, (TensorValue, LIBRARY.tensor_type)))]
    captured = [obj.var if isinstance(obj, FreeTensor) else specializer.capture(obj).var for obj in done.captured]
    gradient = specializer.program.functions[done.name]
    targets = tuple(specializer.names.var(r.name, r.aval) for r in gradient.body.results)
    inputs = tuple(v.var for v in leaves) + tuple(v.var for v in sens_leaves) + tuple(captured)
    specializer.builder.append(ir.Call(targets, done.name, inputs, loc))
    return build_abstract(done.tree, [TensorValue(t) for t in targets])


def specialize_into(program, fn, args, kwargs):
    """Specialize a function or Cell for abstract args as a function of ``program``.

    Returns ``(function name, captured objects, output tree node)``.
    """
    if isinstance(fn, Closure):   # a lambda or nested def made in the code being compiled
        return specialize_closure(program, fn, args, kwargs)
    function, self_obj = unbind(fn)
    abstract_args, abstract_kwargs = fresh_inputs(tuple(args), dict(kwargs))
    specializer = FunctionSpecializer(program, function, self_obj,
                                      program.names.fresh(function_name(function, self_obj)))
    built = specializer.build(abstract_args, abstract_kwargs)
    program.functions[built.name] = built
    return built.name, [obj for obj, _ in specializer.captures.values()], built.output_tree.node


def build_abstract(node, leaves):
    """The structure an OutputTree node describes, with ``leaves`` at its leaves."""
    kind = node[0]
    if kind == "leaf":
        return leaves[node[1]]
    if kind == "const":
        return node[1]
    if kind == "dict":
        return {k: build_abstract(c, leaves) for k, c in zip(node[1], node[2])}
    items = [build_abstract(c, leaves) for c in node[1]]
    return items if kind == "list" else tuple(items)
