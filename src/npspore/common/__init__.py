"""Tensors, Parameters, dtypes, initializers and mutable: the data side of npspore."""
