"""npspore's pytest plugin (entry point ``pytest11``), active wherever npspore is installed.

Fixtures:

- ``npspore_cache_dir``: a private kernel cache directory for the test session; requesting it points
  ``NPSPORE_CACHE_DIR`` there, so the suite never writes to ``~/.cache/npspore``. Use it with
  ``@pytest.mark.usefixtures("npspore_cache_dir")`` or ``usefixtures = npspore_cache_dir`` in the
  pytest configuration to cover every test.
- ``npspore_seed``: calls ``ms.set_seed`` with a fixed seed (``--npspore-seed``, default 0) before the
  test and returns the seed, so initializers and dropout draw the same numbers every run.

At the session's start the plugin adds npspore's filter of NumPy's floating-point warnings again
(``core/numpy_warnings.py``): pytest imports plugins inside a ``catch_warnings`` block, which drops the
filter npspore's import added, and each test starts from the filters the session had.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from ..core.numpy_warnings import ignore_numpy_float_warnings

__all__ = ["npspore_cache_dir", "npspore_seed"]


def pytest_sessionstart(session: Any) -> None:
    ignore_numpy_float_warnings()


def pytest_addoption(parser: Any) -> None:
    parser.addoption("--npspore-seed", type=int, default=0, help="the seed the npspore_seed fixture sets (default 0)")


@pytest.fixture(scope="session")
def npspore_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh kernel cache directory for the session; ``NPSPORE_CACHE_DIR`` points at it meanwhile."""
    directory = tmp_path_factory.mktemp("npspore-cache")
    patch = pytest.MonkeyPatch()
    patch.setenv("NPSPORE_CACHE_DIR", str(directory))
    yield directory
    patch.undo()


@pytest.fixture
def npspore_seed(request: pytest.FixtureRequest) -> int:
    """Seed npspore's global generator (``ms.set_seed``) for the test; returns the seed."""
    from ..common.seed import set_seed

    seed = int(request.config.getoption("--npspore-seed"))
    set_seed(seed)
    return seed
