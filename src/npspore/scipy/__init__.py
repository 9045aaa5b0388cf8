"""``mindspore.scipy``: the parts of SciPy's API MindSpore 2.10 reimplements, as far as npspore has them
(:mod:`npspore.scipy.linalg`'s ``eigh``)."""
from . import linalg

__all__ = ["linalg"]
