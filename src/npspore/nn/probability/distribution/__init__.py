"""Probability distributions, as ``mindspore.nn.probability.distribution``: ``Normal`` and ``Uniform``."""
from ....missing_names import module_getattr as _module_getattr
from .distribution import Distribution
from .normal import Normal
from .uniform import Uniform

__all__ = ["Distribution", "Normal", "Uniform"]

# distributions of the 2.10 usage list's tail
from .bernoulli import Bernoulli  # noqa: E402
__all__ += ["Bernoulli"]

__getattr__ = _module_getattr("mindspore.nn.probability.distribution", globals())
