"""npspore's version, readable without importing the package root (the compiler keys caches by it)."""

__version__ = "0.1.0"
