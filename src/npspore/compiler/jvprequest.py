"""JvpRequest applied: the forward-mode transform of a specialized function, packaged as MindSpore does.

Applied to a function (:func:`jvp_request`) a request

1. maps the inputs in ``spec.positions`` (every input by default) to the function's parameters
   (``wrt``): the tensor leaves of each;
2. chooses the outputs whose tangents are returned: every output leaf, or those of the first
   output with ``has_aux``;
3. runs ``forwardmode.jvp`` and puts the tangent params after the input leaves (before the
   captured Parameters);
4. packages the results as MindSpore's ``jvp`` returns them: ``(output, tangent)``, or
   ``(output[0], tangent, aux)`` with ``has_aux`` (``aux`` the second output alone when there are two);
   the tangent alone with ``spec.tangents_only``.
"""
from __future__ import annotations

import math

from . import ir
from .forwardmode import jvp
from .gradrequest import Differentiated, _renumber, leaf_indices
from .jvpspec import JvpRequest

HAS_AUX_ERROR = "'When 'has_aux' is True, origin 'fn' requires more than one outputs.'"


def _tuple_node(children) -> tuple:
    return ("tuple", tuple(children))


def tangent_slices(request: JvpRequest, inputs, slices) -> list:
    """Where the tangents' leaves sit among the params of the JVP entry: one slice per tangent
    argument, after the input leaves (each as many leaves as its input)."""
    start = sum(s.stop - s.start for s in slices)
    found = []
    for position in request.spec.positions if request.spec.positions is not None else range(len(inputs)):
        count = slices[position].stop - slices[position].start
        found.append(slice(start, start + count))
        start += count
    return found


def jvp_request(request: JvpRequest, functions, name, inputs, slices, captured, output_node,
                final=False) -> Differentiated:
    """Apply ``request`` to function ``name`` of ``functions``: its JVP, as new functions.

    ``inputs`` are the call's arguments (concrete or abstract), ``slices`` where each one's tensor
    leaves sit among the function's params, ``captured`` the objects behind the params after
    them, ``output_node`` the function's OutputTree node. (``final`` is the reverse mode's option:
    forward mode has no tapes to hand over.)
    """
    fn = functions[name]
    n_leaves = sum(s.stop - s.start for s in slices)
    n_params = len(fn.params)
    positions = request.spec.positions if request.spec.positions is not None else range(len(inputs))
    wrt: list[int] = []
    for position in positions:   # every tensor leaf of an input, in a plain tuple or list too (as MindSpore)
        wrt.extend(range(slices[position].start, slices[position].stop))
    if request.spec.has_aux:
        if output_node[0] != "tuple" or len(output_node[1]) < 2:
            raise ValueError(HAS_AUX_ERROR)
        differentiated = output_node[1][0]
    else:
        differentiated = output_node
    outputs = tuple(leaf_indices(differentiated))
    shape = fn.params[wrt[0]].aval.shape if len(wrt) == 1 else ()
    identities: tuple = ()
    if request.spec.identity and shape and None not in shape and math.prod(shape) == request.spec.batch:
        identities = tuple(wrt)   # one input: its basis is the identity (several: blocks of its rows)
    module = jvp(ir.Module(dict(functions), name), tuple(wrt), outputs, request.spec.batch, identities)
    entry = module.functions[module.entry]
    tangent_params = tuple(entry.params[n_params:])
    entry.params = tuple(entry.params[:n_leaves]) + tangent_params + tuple(entry.params[n_leaves:n_params])
    n_results = len(fn.body.results)
    forward, tangents = entry.body.results[:n_results], entry.body.results[n_results:]
    results = []

    def take(atom):
        results.append(atom)
        return len(results) - 1

    tangent_of = dict(zip(outputs, tangents))
    if request.spec.has_aux:
        rest = output_node[1][1:]
        aux = rest[0] if len(rest) == 1 else _tuple_node(rest)
        tree = _tuple_node((_renumber(differentiated, lambda i: take(forward[i])),
                            _renumber(differentiated, lambda i: take(tangent_of[i])),
                            _renumber(aux, lambda i: take(forward[i]))))
    elif request.spec.tangents_only:
        tree = _renumber(output_node, lambda i: take(tangent_of[i]))
    else:
        tree = _tuple_node((_renumber(output_node, lambda i: take(forward[i])),
                            _renumber(output_node, lambda i: take(tangent_of[i]))))
    entry.body.results = tuple(results)
    new = {k: f for k, f in module.functions.items() if k not in functions}
    return Differentiated(new, module.entry, list(captured), tree, len(tangent_params))
