"""A ``lambda`` or nested ``def`` made in compiled code, specialized as a function of its own: what a gradient
function called there differentiates (``ms.grad(lambda y: (y * y).sum())(x)`` inside ``construct``, as MindSpore's
graph mode allows).

A :class:`~npspore.compiler.values.Closure` is a lambda's or def's node and the frame it was made in. Called in
place, the specializer runs its body there (``calls.Calls._call_closure``); to be differentiated it must be an
``ir.Function``. The tensors it reads from that frame are values of the function being built, so they become
parameters of the new function, after the lambda's own, each passed by the caller as a captured tensor is (the
Closure's frame value stands in ``captures`` for its object): a gradient of the lambda holds them fixed, and a
gradient of the enclosing function differentiates through them.
"""
from __future__ import annotations

import ast

from ..core import tree
from . import ir
from .errors import located
from .specialize import FunctionSpecializer, capture_label
from .values import Closure, Frame, TensorValue, fresh_inputs


class ClosureSpecializer(FunctionSpecializer):
    """Specializes the body of a :class:`Closure` into one ``ir.Function`` (``lambda_``, or the def's name)."""

    def __init__(self, program, closure: Closure, name: str):
        super().__init__(program, None, None, name)
        self.closure = closure

    def build(self, args, kwargs) -> ir.Function:
        node, frame = self.closure.node, self.closure.frame
        names = [a.arg for a in node.args.args]
        loc = frame.source.loc(node)
        if kwargs or len(args) != len(names):
            raise located(TypeError(f"{getattr(node, 'name', '<lambda>')}() takes {len(names)} positional arguments "
                                    f"but {len(args) + len(kwargs)} were given"), loc)
        self._user_loc = self._line_loc = loc
        env = {name: self._materialize_param(name, value) for name, value in zip(names, args)}
        env.update(self._free_env(self.closure, set(names)))
        value = self._returned(self.closure_value(self.closure, dict(self.closure.env, **env)))
        return self.function_returning(value, frame.source.qualname, loc, tuple(self._labels))

    @property
    def _labels(self):
        return [getattr(obj, "label", None) or capture_label(obj) for obj, _ in self.captures.values()]

    def _free_env(self, closure: Closure, bound: set, done=None) -> dict:
        """The names ``closure``'s body reads from the frame it was made in (``bound``: its own), each value with
        its tensors new parameters; a closure read there (a def calling another) is made over such values too."""
        done = {} if done is None else done
        read = {n.id for n in ast.walk(closure.node) if isinstance(n, ast.Name)} - bound
        names = closure.env
        return {name: self._free(name, names[name], done) for name in read if name in names}

    def _free(self, name: str, value, done: dict):
        """``value``, read from the frame a closure was made in, with each tensor in it a new parameter."""
        def param(outer):
            if isinstance(outer, Closure):
                if id(outer) not in done:   # a def that calls itself reads itself
                    done[id(outer)] = Closure(outer.node, outer.frame)
                    own = {a.arg for a in outer.node.args.args}
                    done[id(outer)].frame = Frame(outer.frame.source,
                                                  dict(outer.env, **self._free_env(outer, own, done)))
                return done[id(outer)]
            entry = self.captures.get(id(outer))
            if entry is None:
                entry = (FreeTensor(outer, name), TensorValue(self.names.var(name, outer.var.aval)))
                self.captures[id(outer)] = entry
            return entry[1]
        return tree.tree_map(param, value, lambda v: isinstance(v, (TensorValue, Closure)))


class FreeTensor:
    """A tensor of the enclosing function that a specialized closure reads: the caller passes ``var``."""

    __slots__ = ("var", "label")

    def __init__(self, outer: TensorValue, label: str):
        self.var, self.label = outer.var, label


def specialize_closure(program, closure: Closure, args, kwargs) -> tuple:
    """Specialize ``closure`` for the abstract ``args``/``kwargs`` as a function of ``program``.

    Returns ``(function name, captured objects (Parameters, or the :class:`FreeTensor` of each tensor it reads from
    its frame), output tree node)``, as ``gradrequest.specialize_into``.
    """
    abstract_args, abstract_kwargs = fresh_inputs(tuple(args), dict(kwargs))
    specializer = ClosureSpecializer(program, closure, program.names.fresh(getattr(closure.node, "name", "lambda_")))
    built = specializer.build(abstract_args, abstract_kwargs)
    program.functions[built.name] = built
    return built.name, [obj for obj, _ in specializer.captures.values()], built.output_tree.node

