"""The tangent of a call of a cell with a ``bprop``, as MindSpore 2.10 computes it.

MindSpore's ``jvp``/``jacfwd`` through a Cell with a custom ``bprop`` use the bprop, not the
derivative of ``construct``: forward mode there is the transpose of reverse mode, so the tangent of
the cell's output is the transpose of the bprop's map ``dout -> bprop(inputs, out, dout)`` applied to
the inputs' tangents (measured: ``construct`` ``3x²`` with ``bprop`` ``dout * 100`` gives the tangent
``100 v``, not ``6x v``). The transpose is the gradient of ``<bprop(..., dout), v>`` with respect to
``dout``: :func:`bprop_transpose` builds the function ``pairing(bprop's inputs) -> the bprop's results
for the inputs with tangents`` and differentiates it in reverse mode with the tangents as its
sensitivities (``differentiate(..., seeds="given")``). The bprop is linear in ``dout`` (a bprop
computes cotangents), so the point it is read at does not matter: zeros.
"""
from __future__ import annotations

from . import ir
from .builder import NameSupply
from .differentiate import differentiate
from .ir import Call, Const, Function, Module

__all__ = ["bprop_transpose"]


def bprop_transpose(source: dict, stmt: Call, active: tuple, function_names: NameSupply) -> tuple:
    """``(functions, entry name, kinds)``: new functions of the module, of which ``entry`` computes the
    tangents of ``stmt``'s results from the tangents of its arguments at ``active``.

    ``entry`` takes one value per non-constant argument of the bprop, in order (``kinds`` says which:
    ``("arg", j)``, ``("target", i)``, ``("dout", i)`` — zeros are passed for these — or ``("var", v)``),
    then the tangents of the arguments at ``active`` the bprop gives cotangents of (``kinds[-1]``: their
    positions), and returns ``(the bprop's results for them..., one tangent per ("dout", i) kind)``.
    """
    custom = stmt.custom
    assert custom is not None and custom.bprop is not None, "a call of a cell with a bprop"
    bprop = source[custom.bprop]
    names = NameSupply()
    params: list = []
    call_args: list = []
    kinds: list = []
    for kind, item in custom.bprop_args:
        if kind == "const":
            call_args.append(Const(item))
            continue
        like = {"arg": lambda j: stmt.args[j], "target": lambda i: stmt.targets[i],
                "dout": lambda i: stmt.targets[i], "var": lambda v: v}[kind](item)
        if isinstance(like, Const):
            call_args.append(like)
            continue
        params.append(names.var(kind if kind != "var" else like.name, like.aval))
        call_args.append(params[-1])
        kinds.append((kind, item))
    results = tuple(names.var("d_input", r.aval) for r in bprop.body.results)
    returned = [k for k, j in enumerate(custom.inputs) if j is not None and j in active]
    pairing_name = function_names.fresh(custom.bprop + "_pairing")
    pairing = Function(pairing_name, tuple(params), ir.Block([Call(results, custom.bprop, tuple(call_args), stmt.loc)],
                                                             tuple(results[k] for k in returned)),
                       source=bprop.source, loc=bprop.loc, param_names=(), output_tree=None)
    wrt = tuple(n for n, (kind, _) in enumerate(kinds) if kind == "dout")
    transposed = differentiate(Module({**source, pairing_name: pairing}, pairing_name), wrt, seeds="given")
    renamed = {name: name if name == pairing_name else function_names.fresh(name)
               for name in transposed.functions if name not in source}
    functions = {}
    for name, function in transposed.functions.items():
        if name not in renamed:
            continue
        function.name = renamed[name]
        for inner in ir.walk_stmts(function.body):
            if isinstance(inner, Call) and inner.callee in renamed:
                inner.callee = renamed[inner.callee]
        functions[function.name] = function
    return functions, renamed[transposed.entry], tuple(kinds) + (tuple(custom.inputs[k] for k in returned),)
