"""Spellings of one object under several MindSpore modules (observed on MindSpore 2.10: in each pair below,
``mindspore.<path>`` is the same object as ``mindspore.<canonical>``), which ported scripts write; npspore answers each
with its one object, and a name no module has still gets npspore's clear error."""
import importlib

import pytest

import npspore

SAME_OBJECTS = [
    ("ops.functional.pows", "ops.pows"), ("ops.functional.cross_entropy", "ops.cross_entropy"),
    ("ops.functional.tensor_scatter_update", "ops.tensor_scatter_update"), ("ops.functional.conv2d", "ops.conv2d"),
    ("ops.composite.uniform", "ops.uniform"), ("ops.composite.tensor_dot", "ops.tensor_dot"),
    ("mint.eye", "ops.eye"), ("mint.take", "ops.take"), ("ops.Tensor", "Tensor"), ("ops.P", "ops.operations"),
    ("ops.operations.ReduceOp", "ops.ReduceOp"), ("ops.operations.HookBackward", "ops.HookBackward"),
    ("ops.operations._inner_ops.GlobalComm", "communication.management.GlobalComm"),
    ("ops.operations._grad_ops.Primitive", "ops.Primitive"),
    ("ops.function.nn_func._get_cache_prim", "ops._primitive_cache._get_cache_prim"),
    ("common.jit", "jit"), ("common.float32", "float32"), ("common.is_tensor", "ops.is_tensor"), ("float", "float32"),
    ("nn.layer.activation.Tanh", "nn.Tanh"), ("nn.layer.activation.GELU", "nn.GELU"),
    ("dataset.BatchDataset", "dataset.engine.datasets.BatchDataset"), ("dataset.context", "context"),
    ("dataset.engine.datasets_vision.ImageFolderDataset", "dataset.ImageFolderDataset"),
    ("dataset.vision.transforms.Decode", "dataset.vision.Decode"),
    ("dataset.vision.transforms.RandomColorAdjust", "dataset.vision.RandomColorAdjust"),
    ("train.callback._time_monitor.TimeMonitor", "train.callback.TimeMonitor"),
    ("train.callback._loss_monitor.LossMonitor", "train.callback.LossMonitor"),
]


def _object(path: str):
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"npspore.{module}") if module else npspore, name)


@pytest.mark.parametrize("path, canonical", SAME_OBJECTS, ids=[pair[0] for pair in SAME_OBJECTS])
def test_each_spelling_is_the_canonical_object(path, canonical):
    assert _object(path) is _object(canonical)


def test_from_imports_of_the_spellings_work_and_an_unknown_name_is_still_named():
    from npspore.ops.functional import pows, threshold  # noqa: F401
    from npspore.nn.layer.activation import Softmax  # noqa: F401
    import npspore.ops.functional as F
    with pytest.raises(AttributeError, match="'mindspore.ops.functional.not_a_name' is not implemented in npspore"):
        F.not_a_name  # noqa: B018
