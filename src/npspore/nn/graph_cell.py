"""``nn.GraphCell``: a graph loaded from a MindIR file (``npspore.load``), run as a Cell.

The graph's Parameters become the Cell's Parameters, named as in the file (``conv1.weight``), so
``parameters_dict()`` and ``load_checkpoint`` see them as MindSpore does. ``construct`` interprets
the graph's nodes in order with npspore's ops (``ops.mindir_primitives``); it is plain Python over a
tuple of nodes and a tuple of values, so eager calls run it op by op and ``jit`` compiles it into one
kernel like any other Cell, a tensor ``if`` (a ``Switch`` of two branch graphs) as a tensor ``if``.
A graph with a tensor ``while`` runs eagerly only: the loop carries a tuple of values, which compiled
loops do not carry (``jit`` refuses it at the loop, "assigned a Python value inside a loop").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..ops.mindir_primitives import PRIMITIVES
from .cell import Cell

__all__ = ["GraphCell"]


@dataclass(frozen=True)
class MindIRNode:
    """One primitive application: ``outputs[0] = primitive(*inputs, **attributes)``."""
    primitive: str
    inputs: tuple        # ("value", key) of a graph value, or ("constant", python value)
    output: str
    attributes: tuple    # (name, value) pairs, sorted


@dataclass(frozen=True)
class MindIRGraph:
    """A MindIR file's graph, as ``mindspore.load`` returns it: run it with ``nn.GraphCell(graph)``.

    ``inputs`` are ``(name, shape, dtype)`` and ``input_keys`` the keys they are read as;
    ``parameters`` map each Parameter's name (``conv1.weight``) to its array and ``parameter_keys``
    give each one's key; ``nodes`` run in order; ``outputs`` are the graph's results;
    ``constants`` hold every graph's constants by key; ``functions`` map the name of each function
    graph (a branch, a loop's header, body or exit) to its ``(input keys, nodes, outputs)``.
    """
    file_name: str
    name: str
    inputs: tuple
    input_keys: tuple
    parameters: dict
    parameter_keys: tuple
    nodes: tuple
    outputs: tuple
    constants: dict
    functions: dict

    def __repr__(self) -> str:
        return f"MindIRGraph({self.file_name!r}, {len(self.nodes)} nodes, {len(self.parameters)} parameters)"


def _constant(value):
    """A constant of the graph as the primitives take it: arrays as Tensors, Python values as they are."""
    return value if value is None or isinstance(value, (bool, int, float, str, tuple)) else Tensor(value)


class GraphCell(Cell):
    """Run a graph loaded by ``npspore.load`` (MindSpore's ``nn.GraphCell``).

    Args:
        graph (MindIRGraph): what ``npspore.load(file_name)`` returned.
        params_init (dict, optional): ``{name: Tensor or Parameter}`` replacing the values of the
            graph's Parameters of those names. Default: ``None``.
        obf_random_seed (int, optional): MindSpore's seed of obfuscated graphs, which npspore does
            not run. Default: ``None``.

    A graph runs eagerly and compiles under ``jit``, but one with a tensor ``while`` loop runs eagerly
    only.

    Raises:
        TypeError: if ``graph`` is not a loaded graph.
        KeyError: if ``params_init`` names a Parameter the graph does not have.
        ValueError: if a value of ``params_init`` does not have the Parameter's shape, for
            ``obf_random_seed``, or when the inputs given to a call do not match the graph's inputs
            in number.
    """

    def __init__(self, graph: Any, params_init: dict | None = None, obf_random_seed: int | None = None) -> None:
        super().__init__()
        if not isinstance(graph, MindIRGraph):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be what 'load' returns, but got "
                            f"{type(graph).__name__}.")
        if obf_random_seed is not None:
            raise ValueError("For 'GraphCell', npspore does not run obfuscated graphs, but got 'obf_random_seed'.")
        params_init = dict(params_init or {})
        unknown = sorted(set(params_init) - set(graph.parameters))
        if unknown:
            raise KeyError(f"For 'GraphCell', 'params_init' names {unknown}, which the graph does not have.")
        params = []
        for name, array in graph.parameters.items():
            value = params_init.get(name, Tensor(array))
            if tuple(value.shape) != array.shape:
                raise ValueError(f"For 'GraphCell', the Parameter '{name}' has the shape {array.shape} in the graph, "
                                 f"but 'params_init' gives the shape {tuple(value.shape)}.")
            params.append(value if isinstance(value, Parameter) else Parameter(value, name=name))
        self.graph = graph
        self.graph_params = ParameterTuple(params)
        self._parameter_keys = tuple(key for key, _ in graph.parameter_keys)
        self._constants = tuple((key, _constant(value)) for key, value in graph.constants.items())
        functions: dict = {}
        for name, (keys, nodes, outputs) in graph.functions.items():
            functions[name] = _GraphFunction(keys, nodes, outputs, functions)
        self._main = _GraphFunction(graph.input_keys, graph.nodes, graph.outputs, functions)
        self.set_train(False)

    def construct(self, *inputs):
        if len(inputs) != len(self.graph.input_keys):
            raise ValueError(f"For 'GraphCell', the graph takes {len(self.graph.input_keys)} inputs, but got "
                             f"{len(inputs)}.")
        shared = dict(self._constants)
        for key, param in zip(self._parameter_keys, self.graph_params):
            shared[key] = param
        return self._main.call(inputs, shared)


class _GraphFunction(Cell):
    """One graph of a MindIR file (the main graph, a branch, a loop's header, body or exit), run by
    interpreting its nodes. Each graph is its own instance, so a graph calling another is, to the
    compiler, a method of another Cell, never a recursion (a file's graphs call each other without
    cycles: ``train.mindir_decode`` refuses any other). A graph's values are a tuple that grows by one
    result per node (never a dict changed in place), so a loop's body compiles as a real loop."""

    def __init__(self, input_keys: tuple, nodes: tuple, outputs: tuple, functions: dict) -> None:
        super().__init__()
        slots = {key: index for index, key in enumerate(input_keys)}
        for node in nodes:
            slots[node.output] = len(slots)
        self.steps = tuple((node.primitive, _references(node.inputs, slots), tuple(node.attributes)) for node in nodes)
        self.outputs = _references(outputs, slots)
        self.functions = functions   # name -> _GraphFunction, shared by every graph of the file

    def call(self, args, shared):
        """Run the graph on ``args``: its result, or the tuple of its results."""
        results = _read(self.run_steps(self.steps, args, shared), self.outputs, shared)
        return results[0] if len(results) == 1 else results

    def run_steps(self, steps, args, shared):
        """The graph's inputs and the results of ``steps``, in order (constants and Parameters are in ``shared``)."""
        values = tuple(args)
        for primitive, operands, attributes in steps:
            values = values + (self._apply(primitive, _read(values, operands, shared), dict(attributes), shared),)
        return values

    def _apply(self, primitive, args, attributes, shared):
        if primitive == "@call":
            return self.functions[attributes["graph"]].call(args, shared)
        if primitive == "@if":
            split = attributes["split"]
            if args[0]:
                result = self.functions[attributes["then"]].call(args[1:split], shared)
            else:
                result = self.functions[attributes["else"]].call(args[split:], shared)
            return result
        if primitive == "@while":
            return self.functions[attributes["graph"]].loop(args, shared)
        return PRIMITIVES[primitive](*args, **attributes)

    def loop(self, args, shared):
        """This graph as a loop's header: its steps but the last give the condition and the arguments
        of the body and of the exit (the operands of the last, an ``@if``); the body's steps but its
        last (the call of this header) give the next arguments (that call's operands)."""
        branch = dict(self.steps[-1][2])
        body, exit_graph = self.functions[branch["then"]], self.functions[branch["else"]]
        condition, body_args, exit_args = self._branch_args(args, branch["split"], shared)
        while condition:
            args = _read(body.run_steps(body.steps[:-1], body_args, shared), body.steps[-1][1], shared)
            condition, body_args, exit_args = self._branch_args(args, branch["split"], shared)
        return exit_graph.call(exit_args, shared)

    def _branch_args(self, args, split, shared):
        operands = _read(self.run_steps(self.steps[:-1], args, shared), self.steps[-1][1], shared)
        return operands[0], operands[1:split], operands[split:]


def _read(values: tuple, references: tuple, shared: dict) -> tuple:
    """The values ``references`` name (built by concatenation: compiled loops may not grow a list)."""
    read: tuple = ()
    for local, ref in references:
        read = read + ((values[ref] if local else shared[ref]),)
    return read


def _references(operands: tuple, slots: dict) -> tuple:
    """Each ``(kind, key)`` operand as ``(True, position in the graph's values)`` or ``(False, key)``
    of a constant or Parameter."""
    return tuple((True, slots[key]) if key in slots else (False, key) for _, key in operands)
