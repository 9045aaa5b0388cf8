"""Where MindSpore's module paths live in npspore: the one table of the paths spelled differently.

MindSpore reaches one module by several paths: the 1.x names it still accepts
(``dataset.vision.c_transforms``), the files its classes are defined in (``nn.loss.loss``,
``nn.layer.basic``). npspore keeps each module once, at the path MindSpore documents, and
:data:`MODULE_ALIASES` maps every other path onto it. Any path not in the table is spelled the same
in both packages (``mindspore.common.initializer`` is ``npspore.common.initializer``).

The table serves both import hooks of :mod:`npspore.import_hook`: ``import
npspore.nn.loss.loss`` (always) and ``import mindspore.nn.loss.loss`` under ``npspore run``.
"""
from __future__ import annotations

__all__ = ["MODULE_ALIASES", "npspore_path"]

# MindSpore module path -> npspore module path, both relative to the package. An entry also maps
# the paths below it (``nn.layer.conv`` is ``nn.conv``); the longest matching entry wins. An
# aliased path that has submodules of its own must name a package (a module with ``__path__``).
MODULE_ALIASES: dict[str, str] = {
    "dataset.engine": "dataset",
    "dataset.transforms.c_transforms": "dataset.transforms",
    "dataset.transforms.py_transforms": "dataset.transforms",
    "dataset.vision.c_transforms": "dataset.vision",
    "dataset.vision.py_transforms": "dataset.vision",
    "nn.layer": "nn",
    "nn.layer.basic": "nn.layers",
    "nn.layer.math": "nn.math_cells",
    "nn.loss.loss": "nn.loss",
    "ops.auto_generate": "ops",
    "ops.auto_generate.gen_ops_prim": "ops.gen_ops_prim",
    "ops.function": "ops",
    "ops.primitive": "ops.primitives",
    "train.callback._callback": "train.callback.callback",
    "version": "core.version",
    "nn.layer.image": "nn.image_quality",
    "dataset.core": "dataset",
    "dataset.core.validator_helpers": "dataset.arguments",
    # the gradient primitives
    "ops.operations._grad_ops": "ops.grad_primitives",
    # functional modules MindSpore keeps under other paths
    "ops.function.nn_func": "ops.nn_func",
    "ops.auto_generate.pyboost_inner_prim": "ops.pyboost_inner_prim",
    # the modules MindSpore defines its primitive classes in
    "ops.operations.comm_ops": "ops.comm_ops",
    "ops.operations.nn_ops": "ops.operations",
    "ops.operations.math_ops": "ops.operations",
    "ops.operations.array_ops": "ops.operations",
    "ops.operations._inner_ops": "ops.operations",
    # the module MindSpore defines Metric in, and MindSpore 1.x's path of it (nn.metrics, 2.0's train.metrics)
    "train.metrics.metric": "train.metrics",
    "nn.metrics.metric": "train.metrics",
    # the module MindSpore defines _Function in
    "common._grad_function": "autograd_function",
    # mindspore.numpy's private helper modules
    "numpy.utils": "numpy_utils",
    "numpy.utils_const": "numpy_utils",
    # the modules MindSpore defines vision datasets and the monitors in
    "dataset.engine.datasets_vision": "dataset",
    "train.callback._time_monitor": "train.callback.monitors",
    "train.callback._loss_monitor": "train.callback.monitors",
    # train_thor's dataset helper
    "train.train_thor.dataset_helper": "train.dataset_helper",
}


def npspore_path(path: str) -> str:
    """The npspore module path of the MindSpore module path ``path`` (both without the package name).

    Args:
        path (str): a dotted module path below the package, e.g. ``'dataset.vision.c_transforms'``.

    Returns:
        str: the path npspore keeps that module at (``'dataset.vision'``); ``path`` itself when no
        entry of :data:`MODULE_ALIASES` is ``path`` or a package above it.
    """
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        target = MODULE_ALIASES.get(".".join(parts[:end]))
        if target is not None:
            return ".".join([target, *parts[end:]])
    return path
