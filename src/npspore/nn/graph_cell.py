"""``nn.GraphCell``: a graph loaded from a MindIR file (``npspore.load``), run as a Cell.

The graph's Parameters become the Cell's Parameters, named as in the file (``conv1.weight``), so
``parameters_dict()`` and ``load_checkpoint`` see them as MindSpore does. ``construct`` interprets
the graph's nodes in order with npspore's ops (``ops.mindir_primitives``); it is plain Python over a
tuple of nodes and a dict of values, so eager calls run it op by op and ``jit`` compiles it into one
kernel like any other Cell.
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

    ``inputs`` are ``(name, shape, dtype)``; ``parameters`` map each Parameter's name (``conv1.weight``)
    to its array; ``values`` name the graph value each Parameter and input is read as; ``outputs``
    are the keys of the graph's results.
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

    Raises:
        TypeError: if ``graph`` is not a loaded graph.
        KeyError: if ``params_init`` names a Parameter the graph does not have.
        ValueError: if a value of ``params_init`` does not have the Parameter's shape, or the
            inputs given to a call do not match the graph's inputs in number.
    """

    def __init__(self, graph: Any, params_init: dict | None = None, obf_random_seed: int | None = None) -> None:
        super().__init__()
        if not isinstance(graph, MindIRGraph):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be what 'load' returns, but got "
                            f"{type(graph).__name__}.")
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
        self._nodes = tuple((node.primitive, node.inputs, node.output, node.attributes) for node in graph.nodes)
        self.set_train(False)

    def construct(self, *inputs):
        if len(inputs) != len(self.graph.input_keys):
            raise ValueError(f"For 'GraphCell', the graph takes {len(self.graph.input_keys)} inputs, but got "
                             f"{len(inputs)}.")
        values = {}
        for key, value in zip(self.graph.input_keys, inputs):
            values[key] = value
        for key, param in zip(self._parameter_keys, self.graph_params):
            values[key] = param
        constants = dict(self._constants)
        for primitive, operands, output, attributes in self._nodes:
            args = [constants[key] if kind == "constant" else values[key] for kind, key in operands]
            values[output] = PRIMITIVES[primitive](*args, **dict(attributes))
        results = [constants[key] if kind == "constant" else values[key] for kind, key in self.graph.outputs]
        return results[0] if len(results) == 1 else tuple(results)
