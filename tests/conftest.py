"""Test-wide settings: kernels compiled by tests go to a private disk cache, never the user's.

The cache directory comes from npspore's own pytest plugin (``npspore.testing.plugin``).
"""
import pytest


@pytest.fixture(autouse=True, scope="session")
def private_kernel_cache(npspore_cache_dir):
    """Every test uses the session's private ``NPSPORE_CACHE_DIR``."""
    return npspore_cache_dir
