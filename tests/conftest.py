"""Test-wide settings: kernels compiled by tests go to a private disk cache, never the user's."""
import pytest


@pytest.fixture(autouse=True, scope="session")
def private_kernel_cache(tmp_path_factory):
    """Point ``NPSPORE_CACHE_DIR`` (and the cache secret's ``XDG_CONFIG_HOME``) at fresh directories."""
    patch = pytest.MonkeyPatch()
    patch.setenv("NPSPORE_CACHE_DIR", str(tmp_path_factory.mktemp("npspore-cache")))
    patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("npspore-config")))
    yield
    patch.undo()


@pytest.fixture
def isolated_seeds(monkeypatch):
    """Restore npspore's global seed, the data pipeline's seed and NumPy's global state after the test."""
    import numpy as np

    from npspore.common import seed
    from npspore.dataset import config
    for module, names in ((seed, ("_seed", "_rng")), (config, ("_seed", "_generator_at_seed"))):
        for name in names:
            monkeypatch.setattr(module, name, getattr(module, name))
    state = np.random.get_state()
    yield
    np.random.set_state(state)
