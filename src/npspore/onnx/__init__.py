"""``mindspore.onnx``: exporting a network to ONNX with the model's names and dynamic axes chosen
(:func:`~npspore.onnx.onnx_export.export`)."""
from .onnx_export import export

__all__ = ["export"]
