"""The MPI transport behind ``npspore.communication``: process groups and collectives on NumPy arrays.

npspore does not carry bytes itself: every collective is one MPI call through ``mpi4py`` (install
``npspore[mpi]``, which brings ``mpi4py`` and the ``mpich`` wheel, or use a system MPI). A process
that never called :func:`npspore.communication.init` is a group of one: collectives return their
input (``all_gather`` of one rank is the tensor itself) and no MPI library is loaded.

Failures do not hang. Every collective is started non-blocking (``Iallreduce`` ...) and polled
until a deadline (``NPSPORE_COMM_TIMEOUT`` seconds, 300 by default), checking every 50 ms while it
waits that the group's processes on this host are alive; MPI errors are returned, not fatal. When a collective fails or times out, :class:`CommunicationError` names the ranks that are
gone: at ``init`` every rank publishes its host and process id, so a rank on the same host that
exited, was killed or is stopped is reported as such. A process whose collective failed aborts the
MPI job when it exits (instead of waiting in ``MPI_Finalize`` for the lost rank).
"""
from __future__ import annotations

import atexit
import os
import sys
import time
from dataclasses import dataclass

import numpy as np

__all__ = ["CommunicationError", "Group", "MPI_INSTALL_HINT", "start", "stop", "group", "add_group",
           "remove_group", "is_started", "all_reduce", "all_gather", "reduce_scatter", "broadcast",
           "reduce", "barrier", "layout", "local_rank", "local_size", "timeout", "REDUCE_OPS"]

MPI_INSTALL_HINT = ("npspore.communication needs mpi4py and an MPI library: pip install 'npspore[mpi]' "
                    "(or pip install mpi4py mpich), then launch with: mpiexec -n 2 python your_script.py")

REDUCE_OPS = ("sum", "max", "min", "prod")

_DEFAULT_TIMEOUT = 300.0
_LIVENESS_PERIOD = 0.05  # seconds between checks that the group's processes on this host still run
_OUTPUT_FORWARD_SECONDS = 0.5  # before MPI_Abort: time for the launcher to forward this rank's last output


class CommunicationError(RuntimeError):
    """A collective failed or did not complete in time; the message names the lost ranks."""


CommunicationError.__module__ = "npspore.communication"  # where users import it from


@dataclass
class Group:
    """A communication group: its MPI communicator and the world ranks of its members, in group order."""

    name: str
    comm: object
    world_ranks: tuple

    @property
    def size(self) -> int:
        return len(self.world_ranks)

    @property
    def rank(self) -> int:
        """This process's rank in the group.

        Raises:
            ValueError: if this process is not a member of the group.
        """
        if self.comm is None:
            raise ValueError(f"This process (world rank {_WORLD.world.rank}) is not a member of the group "
                             f"{self.name!r} (world ranks {list(self.world_ranks)}).")
        return self.comm.Get_rank()


class _World:
    """What :func:`start` learnt: the MPI module, the world, each rank's host and process id."""

    def __init__(self):
        self.mpi = None
        self.groups: dict[str, Group] = {}
        self.peers: list = []          # world rank -> (host, pid)
        self.local_rank = 0
        self.local_size = 1
        self.failed = False
        self.world: Group | None = None


_WORLD = _World()


def _import_mpi():
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise ImportError(MPI_INSTALL_HINT) from error
    return MPI


def is_started() -> bool:
    """Whether :func:`start` has connected this process to its MPI job."""
    return _WORLD.mpi is not None


def start(world_names) -> Group:
    """Initialise MPI (once) and register the world group under each of ``world_names``.

    Raises:
        ImportError: if mpi4py (or its MPI library) is not installed.
    """
    if _WORLD.mpi is None:
        MPI = _import_mpi()
        world = MPI.COMM_WORLD.Dup()
        world.Set_errhandler(MPI.ERRORS_RETURN)
        local = world.Split_type(MPI.COMM_TYPE_SHARED)
        _WORLD.local_rank, _WORLD.local_size = local.Get_rank(), local.Get_size()
        local.Free()
        _WORLD.peers = world.allgather((_hostname(), os.getpid()))
        _WORLD.mpi = MPI
        atexit.register(_abort_if_failed)  # after mpi4py's own exit hook, so it runs before MPI_Finalize
        _WORLD.failed = False
        _WORLD.groups = {}
        _WORLD.world = Group("world", world, tuple(range(world.Get_size())))
    for name in world_names:
        _WORLD.groups[name] = Group(name, _WORLD.world.comm, _WORLD.world.world_ranks)
    return _WORLD.world


def stop() -> None:
    """Free every communicator npspore created; this process is a group of one again."""
    if _WORLD.mpi is None:
        return
    freed = set()
    for entry in _WORLD.groups.values():
        if entry.comm is not None and id(entry.comm) not in freed and not _WORLD.failed:
            freed.add(id(entry.comm))
            entry.comm.Free()
    _WORLD.groups = {}
    _WORLD.mpi = None


def group(name: str) -> Group | None:
    """The group called ``name``, or None when communication is not started.

    Raises:
        ValueError: if communication is started and no group has that name.
    """
    if _WORLD.mpi is None:
        return None
    try:
        return _WORLD.groups[name]
    except KeyError:
        raise ValueError(f"The communication group {name!r} does not exist: create it with "
                         f"create_group first (known groups: {sorted(_WORLD.groups)}).") from None


def add_group(name: str, world_ranks) -> Group:
    """Create the group ``name`` of ``world_ranks`` (collective over those ranks)."""
    world = _WORLD.world.comm
    members = world.Get_group().Incl(list(world_ranks))
    comm = world.Create_group(members) if _WORLD.world.comm.Get_rank() in world_ranks else None
    members.Free()
    if comm is not None:
        comm.Set_errhandler(_WORLD.mpi.ERRORS_RETURN)
    entry = Group(name, comm, tuple(world_ranks))
    _WORLD.groups[name] = entry
    return entry


def remove_group(name: str) -> None:
    """Free the group ``name``."""
    entry = _WORLD.groups.pop(name)
    if entry.comm is not None:
        entry.comm.Free()


def layout() -> tuple:
    """This process's place in the job, ``(world rank, world size, ((group, size) ...))``, or ``()``
    before :func:`start`: part of every disk-cache key, since kernels specialise to their groups."""
    if _WORLD.mpi is None:
        return ()
    return (_WORLD.world.rank, _WORLD.world.size,
            tuple(sorted((name, entry.size) for name, entry in _WORLD.groups.items())))


def local_rank() -> int:
    """This process's rank among the processes of its host."""
    return _WORLD.local_rank


def local_size() -> int:
    """How many processes of the job run on this host."""
    return _WORLD.local_size


# ---------------------------------------------------------------- collectives on NumPy arrays


def _op(name: str):
    return {"sum": _WORLD.mpi.SUM, "max": _WORLD.mpi.MAX, "min": _WORLD.mpi.MIN, "prod": _WORLD.mpi.PROD}[name]


def _buffer(array) -> np.ndarray:
    array = np.asarray(array)
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def all_reduce(array, op: str, group_name: str) -> np.ndarray:
    """The elementwise ``op`` (``'sum'``, ``'max'``, ``'min'``, ``'prod'``) of ``array`` over the group."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.empty_like(send)
    _run(entry, "all_reduce", lambda comm: comm.Iallreduce(send, out, op=_op(op)))
    return out


def all_gather(array, group_name: str) -> np.ndarray:
    """Every rank's ``array`` concatenated along axis 0, in group rank order."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.empty((entry.size * send.shape[0],) + send.shape[1:], send.dtype) if send.ndim else \
        np.empty((entry.size,), send.dtype)
    _run(entry, "all_gather", lambda comm: comm.Iallgather(send, out))
    return out


def reduce_scatter(array, op: str, group_name: str) -> np.ndarray:
    """The ``op`` of ``array`` over the group, cut along axis 0 into one block per rank: this rank's block."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.empty((send.shape[0] // entry.size,) + send.shape[1:], send.dtype)
    _run(entry, "reduce_scatter", lambda comm: comm.Ireduce_scatter_block(send, out, op=_op(op)))
    return out


def broadcast(array, root: int, group_name: str) -> np.ndarray:
    """Rank ``root``'s ``array`` (``root`` is a rank of the group), on every rank."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    out = np.array(array, order="C")
    _run(entry, "broadcast", lambda comm: comm.Ibcast(out, root=root))
    return out


def reduce(array, op: str, root: int, group_name: str) -> np.ndarray:
    """The ``op`` of ``array`` over the group on rank ``root``; zeros on the other ranks."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.zeros_like(send)
    _run(entry, "reduce", lambda comm: comm.Ireduce(send, out, op=_op(op), root=root))
    return out


def barrier(group_name: str) -> None:
    """Wait until every rank of the group has reached this call."""
    entry = group(group_name)
    if entry is not None and entry.size > 1:
        _run(entry, "barrier", lambda comm: comm.Ibarrier())


# ---------------------------------------------------------------- deadlines and lost ranks


def timeout() -> float:
    """Seconds a collective may take before the job is declared broken (``NPSPORE_COMM_TIMEOUT``)."""
    value = os.environ.get("NPSPORE_COMM_TIMEOUT", "")
    try:
        return float(value) if value else _DEFAULT_TIMEOUT
    except ValueError:
        raise ValueError(f"NPSPORE_COMM_TIMEOUT must be a number of seconds, but got {value!r}.") from None


def _run(entry: Group, what: str, start_request) -> None:
    """Start a non-blocking collective and poll it until it completes or the deadline passes."""
    if entry.comm is None:
        raise ValueError(f"For '{what}', this rank is not a member of the group {entry.name!r}.")
    if _WORLD.failed:
        raise CommunicationError(f"For '{what}', communication already failed in this process.")
    limit = timeout()
    try:
        request = start_request(entry.comm)
        started = time.monotonic()
        next_check = started + _LIVENESS_PERIOD
        polls = 0
        while not request.Test():
            polls += 1
            if polls > 200:  # a fast collective completes while spinning; a slow one must not burn a core
                time.sleep(0.0002 if polls < 2000 else 0.002)
            now = time.monotonic()
            if now > started + limit:
                _fail(entry, what, f"did not complete within {limit:g} s (NPSPORE_COMM_TIMEOUT)")
            if now > next_check:  # a rank of this host that died is reported at once, not at the deadline
                next_check = now + _LIVENESS_PERIOD
                if any(_process_state(rank) == "exited" for rank in entry.world_ranks):
                    _fail(entry, what, "cannot complete")
    except _WORLD.mpi.Exception as error:
        _fail(entry, what, f"failed in MPI ({error.Get_error_string().strip()})")


def _fail(entry: Group, what: str, how: str):
    _WORLD.failed = True
    me = _WORLD.world.comm.Get_rank()
    lost = [rank for rank in entry.world_ranks if rank != me and _process_state(rank) != "running"]
    if lost:
        message = "lost " + ", ".join(f"rank {rank} {_describe(rank)}" for rank in lost)
    else:
        others = [rank for rank in entry.world_ranks if rank != me]
        message = (f"no rank of the group has exited on this host; ranks {others} are stuck before this "
                   "collective, or run on another host that is unreachable")
    raise CommunicationError(f"npspore.communication: {what} on group {entry.name!r} (world rank {me} of "
                             f"{_WORLD.world.size}) {how}: {message}.")


def _hostname() -> str:
    """This machine's host name (``socket`` loads here, not with ``import npspore``)."""
    import socket
    return socket.gethostname()


def _process_state(rank: int) -> str:
    """``'running'``, ``'exited'``, ``'stopped'`` for a rank on this host; ``'running'`` if unknown."""
    host, pid = _WORLD.peers[rank]
    if host != _hostname():
        return "running"
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return "exited"
    except OSError:
        return "running"
    return {"Z": "exited", "X": "exited", "T": "stopped", "t": "stopped"}.get(state, "running")


def _describe(rank: int) -> str:
    host, pid = _WORLD.peers[rank]
    state = _process_state(rank)
    return f"(pid {pid} on {host}), which has exited" if state == "exited" else f"(pid {pid} on {host}), which is {state}"


def _abort_if_failed():
    """After a failed collective, end the whole MPI job instead of waiting for the lost rank."""
    if _WORLD.mpi is not None and _WORLD.failed:
        sys.stdout.flush()
        sys.stderr.flush()
        # MPI_Abort makes the launcher tear the job down at once, dropping output it has not forwarded
        # yet, such as the end of the traceback naming the lost rank: give it a moment to forward it.
        time.sleep(_OUTPUT_FORWARD_SECONDS)
        _WORLD.mpi.COMM_WORLD.Abort(1)
