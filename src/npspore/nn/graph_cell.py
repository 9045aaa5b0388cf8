"""``nn.GraphCell``: a graph loaded from a MindIR file (``npspore.load``), run as a Cell.

The graph's Parameters become the Cell's Parameters, named as in the file (``conv1.weight``), so
``parameters_dict()`` and ``load_checkpoint`` see them as MindSpore does. ``construct`` interprets
the graph's nodes in order with npspore's ops (``ops.mindir_primitives``); it is plain Python over a
tuple of nodes and a dict of values, so eager calls run it op by op and ``jit`` compiles a graph
without control flow into one kernel like any other Cell. A graph with control flow (a tensor ``if``
or ``while``: function graphs that call each other) runs eagerly; ``jit`` refuses it (a recursive
call of the interpreter), as compiled code does not recurse.
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


def _node_tuples(nodes) -> tuple:
    return tuple((node.primitive, node.inputs, node.output, node.attributes) for node in nodes)


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

    A graph without control flow runs eagerly and compiles under ``jit``; one with a tensor ``if`` or
    ``while`` (function graphs calling each other) runs eagerly only.

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
        self._nodes = _node_tuples(graph.nodes)
        self._functions = {name: (keys, _node_tuples(nodes), outputs)
                           for name, (keys, nodes, outputs) in graph.functions.items()}
        self._loops = {}   # header -> (split of its if's operands, body graph, exit graph)
        for nodes in [graph.nodes] + [nodes for _, nodes, _ in graph.functions.values()]:
            for node in nodes:
                if node.primitive == "@while":
                    last = dict(graph.functions[dict(node.attributes)["graph"]][1][-1].attributes)
                    self._loops[dict(node.attributes)["graph"]] = (last["split"], last["then"], last["else"])
        self.set_train(False)

    def construct(self, *inputs):
        if len(inputs) != len(self.graph.input_keys):
            raise ValueError(f"For 'GraphCell', the graph takes {len(self.graph.input_keys)} inputs, but got "
                             f"{len(inputs)}.")
        shared = dict(self._constants)
        for key, param in zip(self._parameter_keys, self.graph_params):
            shared[key] = param
        return self._call_graph(self.graph.input_keys, self._nodes, self.graph.outputs, inputs, shared)

    def _call_graph(self, input_keys, nodes, outputs, args, shared):
        """Run one graph on ``args``: its result, or the tuple of its results."""
        values = self._run_nodes(input_keys, nodes, args, shared)
        results = tuple(values[key] for _, key in outputs)
        return results[0] if len(results) == 1 else results

    def _run_nodes(self, input_keys, nodes, args, shared):
        """The values of a graph's inputs and nodes (besides the constants and Parameters of ``shared``)."""
        values = dict(shared)
        for key, value in zip(input_keys, args):
            values[key] = value
        for primitive, operands, output, attributes in nodes:
            values[output] = self._apply(primitive, [values[key] for _, key in operands], dict(attributes), shared)
        return values

    def _call(self, name, args, shared):
        input_keys, nodes, outputs = self._functions[name]
        return self._call_graph(input_keys, nodes, outputs, args, shared)

    def _apply(self, primitive, args, attributes, shared):
        if primitive == "@call":
            return self._call(attributes["graph"], args, shared)
        if primitive == "@if":
            split = attributes["split"]
            if args[0]:
                result = self._call(attributes["then"], args[1:split], shared)
            else:
                result = self._call(attributes["else"], args[split:], shared)
            return result
        if primitive == "@while":
            return self._loop(attributes["graph"], args, shared)
        return PRIMITIVES[primitive](*args, **attributes)

    def _loop(self, header, args, shared):
        """A MindIR loop: the header's nodes but its last give the condition and the arguments of the
        body and of the exit (the last node's operands); the body's nodes but its last (the call of the
        header) give the next arguments (that call's operands)."""
        split, body, exit_graph = self._loops[header]
        condition, body_args, exit_args = self._header(header, args, split, shared)
        while condition:
            input_keys, nodes, _ = self._functions[body]
            values = self._run_nodes(input_keys, nodes[:-1], body_args, shared)
            args = tuple(values[key] for _, key in nodes[-1][1])
            condition, body_args, exit_args = self._header(header, args, split, shared)
        return self._call(exit_graph, exit_args, shared)

    def _header(self, header, args, split, shared):
        input_keys, nodes, _ = self._functions[header]
        values = self._run_nodes(input_keys, nodes[:-1], args, shared)
        operands = [values[key] for _, key in nodes[-1][1]]
        return operands[0], tuple(operands[1:split]), tuple(operands[split:])
