"""Test-wide settings: kernels compiled by tests go to a private disk cache, never the user's.

The cache directory comes from npspore's own pytest plugin (``npspore.testing.plugin``).
"""
import pytest


@pytest.fixture(autouse=True, scope="session")
def private_kernel_cache(npspore_cache_dir, tmp_path_factory):
    """Every test uses the session's private ``NPSPORE_CACHE_DIR`` (npspore's pytest plugin) and a private
    cache secret (``XDG_CONFIG_HOME``)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("npspore-config")))
    yield npspore_cache_dir
    patch.undo()


@pytest.fixture
def isolated_seeds(monkeypatch):
    """Restore npspore's global seed, the data pipeline's seed and NumPy's and Python's global random states after
    the test."""
    import random

    import numpy as np

    from npspore.common import seed
    from npspore.dataset import config
    for module, names in ((seed, ("_seed", "_rng", "_op_seeds")), (config, ("_seed", "_generator_at_seed"))):
        for name in names:
            value = getattr(module, name)
            monkeypatch.setattr(module, name, dict(value) if isinstance(value, dict) else value)
    state, python_state = np.random.get_state(), random.getstate()
    yield
    np.random.set_state(state)
    random.setstate(python_state)


@pytest.fixture
def helpers():
    """``thread_pool.set_helpers`` for a test: the pool's size is put back afterwards."""
    from npspore.core import thread_pool

    before = thread_pool.helper_count()
    yield thread_pool.set_helpers
    thread_pool.set_helpers(before)
