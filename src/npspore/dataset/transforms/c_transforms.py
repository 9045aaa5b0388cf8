"""The legacy module ``mindspore.dataset.transforms.c_transforms``: the same transforms under their old path."""
from .transforms import Compose, OneHot, TypeCast

__all__ = ["Compose", "OneHot", "TypeCast"]
