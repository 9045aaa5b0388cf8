"""Testing helpers for npspore users: gradient checks, compiled-vs-eager checks and a pytest plugin.

- :func:`check_grads` — first and higher-order gradients against central finite differences, with
  the step and tolerances chosen from the precision of the values on the program's path.
- :func:`assert_kernels_equal` — a program's compiled kernel against its eager run, bit for bit.
- the pytest plugin (:mod:`npspore.testing.plugin`, loaded automatically): fixtures
  ``npspore_cache_dir`` and ``npspore_seed``.
"""
from .gradcheck import MODES, check_grads
from .kernels import assert_kernels_equal
from .tolerance import Tolerance, tolerance_for

__all__ = ["check_grads", "MODES", "assert_kernels_equal", "Tolerance", "tolerance_for"]
