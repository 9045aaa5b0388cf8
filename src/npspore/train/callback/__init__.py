"""Callbacks of ``Model.train``/``Model.eval``, as in ``mindspore.train.callback``."""
import typing as _typing

from .callback import Callback, RunContext  # noqa: F401
from .callback import InternalCallbackParam as _InternalCallbackParam  # noqa: F401  (MindSpore's private spelling)
from .callback import CallbackManager as _CallbackManager  # noqa: F401  (MindSpore's private spelling)
from .checkpoint_callback import *  # noqa: F401,F403
from .monitors import *  # noqa: F401,F403
from .plateau import *  # noqa: F401,F403
from .lr_scheduler import LearningRateScheduler  # noqa: F401
from .summary_collector import SummaryCollector  # noqa: F401
from . import checkpoint_callback, monitors, plateau
from .callback import set_cur_net as _set_cur_net  # noqa: F401  (misc, issue 26: MindSpore's private spelling)
from .on_request_exit import OnRequestExit  # noqa: F401  (misc, issue 26)

# mypy exports the star imports' names; it reads only a literal __all__, not one built from the submodules'
if not _typing.TYPE_CHECKING:
    __all__ = ["Callback", "RunContext", "SummaryCollector"] + checkpoint_callback.__all__ + monitors.__all__
    __all__ += plateau.__all__ + ["LearningRateScheduler", "OnRequestExit"]
