"""Functional ops, primitive classes and gradient operations, as in mindspore.ops."""
__all__ = []
