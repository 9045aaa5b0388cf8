"""NumPy's floating-point RuntimeWarnings kept out of npspore's own frames, as MindSpore's kernels print none.

``x / 0``, ``np.exp(1000.0)`` or ``np.log(0.0)`` in an op's lowering or a generated kernel make NumPy warn
(``RuntimeWarning: divide by zero encountered in floor_divide``), naming an npspore file the user never
wrote; MindSpore gives the same ``inf`` and NaN silently. One ``warnings`` filter, added when npspore is
imported, ignores exactly these warnings (``divide by zero``, ``overflow``, ``invalid value``,
``underflow ... encountered``) raised from npspore's modules (``npspore.*``) and its kernel modules (named
``npspore_kernel``, ``compiler/cache.execute``). Python consults filters only when a warning is raised, so
the common path costs nothing (a per-call ``np.errstate`` costs 3 us); the user's own NumPy code warns as
usual. A ``warnings.catch_warnings()`` block restores the filters it found when it ends: npspore imported
inside one adds the filter again when it next loads a kernel (:func:`ignore_numpy_float_warnings`).
"""
from __future__ import annotations

import re
import warnings

_MESSAGE = r"(divide by zero|overflow|invalid value|underflow) encountered"
_MODULES = r"npspore(\.|_kernel\Z|\Z)"


def ignore_numpy_float_warnings() -> None:
    """Add the filter (module doc) unless the filters hold it already; adding it again would reset
    the registries of warnings shown once."""
    for action, message, category, module, _ in warnings.filters:
        if (action == "ignore" and category is RuntimeWarning and isinstance(message, re.Pattern)
                and message.pattern == _MESSAGE and isinstance(module, re.Pattern) and module.pattern == _MODULES):
            return
    warnings.filterwarnings("ignore", message=_MESSAGE, category=RuntimeWarning, module=_MODULES)
