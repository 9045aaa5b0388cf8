"""``mindspore.mint.nn``: MindSpore 2.10's PyTorch-style layers (``Linear(in_features, out_features, bias)``,
``Conv2d(..., padding, bias)``, ``CrossEntropyLoss(weight, ignore_index, ...)``...) and ``mint.nn.functional``.

Where MindSpore's class is the very class in ``nn`` (``Cell``, ``ReLU``, ``Identity``), npspore's is too; the others
are npspore's ``nn`` layers built from ``mint``'s arguments (:mod:`.layers`) or hold the arguments of one
``mint.nn.functional`` function (:mod:`.functional_layers`).
"""
from __future__ import annotations

from ...missing_names import module_getattr
from ...nn import Cell, Identity, ReLU  # noqa: F401
from . import functional, functional_layers as _functional_layers, layers as _layers  # noqa: F401
from .functional_layers import *  # noqa: F401,F403
from .layers import *  # noqa: F401,F403

__all__ = ["Cell", "Identity", "ReLU", "functional", *_layers.__all__, *_functional_layers.__all__]

__getattr__ = module_getattr("mindspore.mint.nn", globals())
