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
