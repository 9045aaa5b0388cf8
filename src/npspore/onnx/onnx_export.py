"""``mindspore.onnx.export``: a network to an ONNX model, with its input and output names, dynamic axes
and how the Parameters are stored chosen (``ms.export(..., file_format="ONNX")`` chooses none)."""
from __future__ import annotations

from typing import Any

from ..common.tensor import Tensor
from ..export import check_file_name, check_proto_size, model_path, write_file
from ..export.graph import construct_parameter_names, export_graph
from ..export.onnx_writer import onnx_model   # imports the onnx package (pip install 'npspore[export]')
from ..nn.cell import Cell

__all__ = ["export"]


def export(net: Cell, *inputs: Any, file_name: str, input_names: list | None = None,
           output_names: list | None = None, export_params: bool = True, keep_initializers_as_inputs: bool = False,
           dynamic_axes: dict | None = None) -> None:
    """Export the network's forward computation for ``inputs`` to an ONNX model, as MindSpore does.

    The network runs in inference mode for the export (see :func:`npspore.export`).

    Args:
        net (Cell): the network.
        inputs (Union[Tensor, list, tuple, Number, bool]): the arguments of ``net``'s ``construct``.
        file_name (str): the file; ``".onnx"`` is appended when it does not end with it.
        input_names (list[str]): names of the model's inputs, in order (default: ``construct``'s
            parameter names).
        output_names (list[str]): names of the model's outputs, in order (default: ``"0"``, ``"1"``...).
        export_params (bool): False leaves the Parameters out of the file: they become inputs. Default: ``True``.
        keep_initializers_as_inputs (bool): list the Parameters among the inputs as well, so a runtime may
            replace them. Default: ``False``.
        dynamic_axes (dict[str, dict[int, str]]): ``{input name: {axis: symbol}}``: these dims of Tensor
            inputs are dynamic (compiled as ``net.set_inputs`` with ``None`` there would) and named
            ``symbol`` in the model.

    Raises:
        TypeError: if ``file_name`` is not a string.
        ValueError: if ``net`` is not a Cell, ``input_names``/``output_names`` not a list or
            ``dynamic_axes`` not a dict (MindSpore's messages), an axis is out of range, a name is used
            twice, or an op has no ONNX form (naming it and the user's source line).
        RuntimeError: if the Parameters take more than protobuf's 2 GB.
        ImportError: if the ``onnx`` package is not installed.
    """
    check_file_name(file_name)
    for name, value, kind in (("net", net, Cell), ("input_names", input_names or [], list),
                              ("output_names", output_names or [], list), ("dynamic_axes", dynamic_axes or {}, dict)):
        if not isinstance(value, kind):
            raise ValueError(f"The parameter '{name}' must be isinstance of {kind}, but got {value}.")
    # a dynamic axis names a Tensor argument standing where the model's input of that name is
    tensors = 0
    while tensors < len(inputs) and isinstance(inputs[tensors], Tensor):
        tensors += 1
    names = list(input_names or []) + construct_parameter_names(net)[len(input_names or []):]
    positions = {name: position for position, name in enumerate(names[:tensors])}
    axes = {}
    for name, symbols in (dynamic_axes or {}).items():
        if name in positions:   # MindSpore ignores a name that is no Tensor input
            rank = len(inputs[positions[name]].shape)
            if any(not isinstance(a, int) or not -rank <= a < rank for a in symbols):
                raise ValueError(f"For 'onnx.export', the axes of 'dynamic_axes[{name!r}]' must be ints in "
                                 f"[{-rank}, {rank}), but got {list(symbols)}.")
            axes[positions[name]] = {a % rank for a in symbols}
    graph = export_graph(net, *inputs, dynamic_axes=axes)
    check_proto_size(graph)
    dim_params = {name: {a % len(inputs[positions[name]].shape): str(s) for a, s in symbols.items()}
                  for name, symbols in (dynamic_axes or {}).items() if name in positions}
    model = onnx_model(graph, input_names=input_names or (), output_names=output_names or (),
                       dim_params=dim_params, export_params=export_params,
                       initializers_as_inputs=keep_initializers_as_inputs)
    write_file(model_path(file_name, "ONNX"), model.SerializeToString())

