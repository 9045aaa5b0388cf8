"""Collective communication, as ``mindspore.communication``, on MPI.

Launch a script with ``mpiexec -n N python train.py`` (MPI from ``pip install 'npspore[mpi]'``),
call :func:`init`, and each process learns its rank (:func:`get_rank`) and the group size
(:func:`get_group_size`). Without :func:`init` a process is rank 0 of a group of one.
``comm_func`` holds the functional collectives (``all_reduce`` ...); the primitives
(``ops.AllReduce`` ...) are in :mod:`npspore.ops`.
"""
import typing as _typing

from .management import *  # noqa: F401,F403
from .transport import CommunicationError  # noqa: F401
from . import comm_func, management  # noqa: F401

# mypy exports the star imports' names; it reads only a literal __all__, not one built from the submodules'
if not _typing.TYPE_CHECKING:
    __all__ = [*management.__all__, "CommunicationError", "comm_func"]
