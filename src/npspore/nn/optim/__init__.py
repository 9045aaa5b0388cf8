"""Optimizers, as ``mindspore.nn.optim``: the ``Optimizer`` base class and the update rules built on it."""
from typing import Any

from .optimizer import Optimizer
from .momentum import Momentum
from .sgd import SGD
from .adam import Adam, AdamWeightDecay
from .rmsprop import RMSProp
from .ada_grad import Adagrad
from .adadelta import Adadelta
from .adamw import AdamW
from .lamb import Lamb

__all__ = ["Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad", "AdamW", "Lamb", "Adadelta"]

# optimizers of the 2.10 usage list's tail
from .ftrl import FTRL  # noqa: E402
from .adafactor import AdaFactor  # noqa: E402
__all__ += ["FTRL", "AdaFactor"]
