"""The MPI transport behind ``npspore.communication``: process groups and collectives on NumPy arrays.

npspore does not carry bytes itself: every collective is one MPI call through ``mpi4py`` (install
``npspore[mpi]``, which brings ``mpi4py`` and the ``mpich`` wheel, or use a system MPI). A process
that never called :func:`npspore.communication.init` is a group of one: collectives return their
input (``all_gather`` of one rank is the tensor itself) and no MPI library is loaded.

Failures end the job in seconds, never in a hang or a wrong answer:

* **Deadline.** :func:`start` (``init()``) and every collective run under a deadline
  (``NPSPORE_COMM_TIMEOUT`` seconds, 300 by default). Collectives are started non-blocking
  (``Iallreduce`` ...) and polled; the blocking steps of ``init`` and ``create_group``
  (``MPI_Init`` waits for every rank of the job) are watched by ``faulthandler``, which ends the
  process past the deadline, so a rank that failed before ``init`` does not leave the others
  waiting forever.
* **Matching calls.** Each collective carries its call's signature (which collective, reduce op,
  root, dtype and shape) in a 16-byte all-reduce on a companion communicator, started with it: ranks
  that disagree (``float32[4]`` against ``float64[2]``, ``all_reduce`` against ``broadcast``) raise
  :class:`CommunicationError` naming each rank's call, instead of exchanging garbage.
* **Dead and departed ranks.** While a collective waits, every 50 ms, it checks that the group's
  processes on this host are alive (``init`` publishes each rank's host and process id) and whether
  a rank announced its failure. An unhandled exception in any rank (``sys.excepthook``,
  ``threading.excepthook``) tells every other rank, which raises an error naming it, and then aborts
  the MPI job (``MPI_Abort``): every rank exits non-zero within about a second. A rank that leaves
  (its script ends, or :func:`stop`) first meets the others in a last collective, ``leave``: a rank
  that still calls a collective meets it instead of its partner's call, and both fail with an error
  saying which rank left. ``leave`` waits for the other ranks without a deadline (they may still be
  busy with work of their own, such as saving a checkpoint), as long as they are alive. A rank that
  vanishes without leaving (``os._exit``, killed) is found lost by the others; under MPICH's
  ``mpiexec``, a helper process keeps the launcher from ending the job first
  (:func:`_hold_launcher_connection`).

MPI errors are returned, not fatal. A process whose collective failed aborts the MPI job when it
exits (instead of waiting in ``MPI_Finalize`` for a lost rank).
"""
from __future__ import annotations

import atexit
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

__all__ = ["CommunicationError", "Group", "MPI_INSTALL_HINT", "start", "stop", "group", "add_group",
           "remove_group", "is_started", "all_reduce", "all_gather", "all_gather_text", "reduce_scatter",
           "broadcast", "reduce", "barrier", "before_next_collective", "layout", "local_rank", "local_size",
           "timeout", "REDUCE_OPS"]

MPI_INSTALL_HINT = ("npspore.communication needs mpi4py and an MPI library: pip install 'npspore[mpi]' "
                    "(or pip install mpi4py mpich), then launch with: mpiexec -n 2 python your_script.py")

REDUCE_OPS = ("sum", "max", "min", "prod")

_DEFAULT_TIMEOUT = 300.0
_LIVENESS_PERIOD = 0.05  # seconds between checks that the group's processes on this host still run
_OUTPUT_FORWARD_SECONDS = 0.5  # before MPI_Abort: time for the launcher to forward this rank's last output
_LAUNCHER_GRACE_SECONDS = 10  # after a rank vanished: time for the others to notice before MPICH's launcher does
_NOTICE_BYTES = 2048  # the longest failure notice a rank sends the others
_LEAVE = ("leave",)


class CommunicationError(RuntimeError):
    """A collective failed, did not complete in time, or the ranks' calls did not match; the message
    names the ranks at fault."""


CommunicationError.__module__ = "npspore.communication"  # where users import it from


@dataclass
class Group:
    """A communication group: its MPI communicator, the companion communicator that checks that the
    ranks' calls match, and the world ranks of its members, in group order."""

    name: str
    comm: object
    world_ranks: tuple
    control: object = None
    pending: list = field(default_factory=list)  # checks to run before the next collective

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
    """What :func:`start` learnt: the MPI module, the world, each rank's host and process id, and the
    receive posted for another rank's failure notice."""

    def __init__(self):
        self.mpi = None
        self.groups: dict[str, Group] = {}
        self.peers: list = []          # world rank -> (host, pid)
        self.local_rank = 0
        self.local_size = 1
        self.failure = ""             # why communication failed in this process ("" while it works)
        self.world: Group | None = None
        self.notices = None            # communicator of failure notices
        self.notice = None             # (receive request, buffer)
        self.peer_failure = ""         # the notice this process received, if any
        self.ending = False            # this process is ending the job (MPI_Abort under way)
        self.launcher_hold = None      # the process holding this rank's connection to MPICH's launcher


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

    Every blocking step (``MPI_Init`` and the exchange of hosts and process ids) runs under the
    deadline: past it this process prints why and exits with status 1, which ends the MPI job.

    Raises:
        ImportError: if mpi4py (or its MPI library) is not installed.
    """
    if _WORLD.mpi is None:
        with _deadline():
            MPI, world, control, notices = _join_job()
        _WORLD.mpi = MPI
        _WORLD.failure = ""
        _WORLD.groups = {}
        _WORLD.world = Group("world", world, tuple(range(world.Get_size())), control)
        _WORLD.notices = notices
        buffer = np.zeros(_NOTICE_BYTES, np.uint8)
        _WORLD.notice = (notices.Irecv(buffer, source=MPI.ANY_SOURCE), buffer)
        _install_exit_hooks()
        _WORLD.launcher_hold = _hold_launcher_connection()
    world = _WORLD.world
    for name in world_names:  # names of one group: they share its communicators and pending checks
        _WORLD.groups[name] = Group(name, world.comm, world.world_ranks, world.control, world.pending)
    return world


def _join_job():
    """``MPI_Init`` (it waits for every rank of the job), this process's communicators, and every
    rank's host and process id: the blocking steps of :func:`start`."""
    MPI = _import_mpi()
    world = MPI.COMM_WORLD.Dup()
    world.Set_errhandler(MPI.ERRORS_RETURN)
    control, notices = world.Dup(), world.Dup()
    local = world.Split_type(MPI.COMM_TYPE_SHARED)
    _WORLD.local_rank, _WORLD.local_size = local.Get_rank(), local.Get_size()
    local.Free()
    _WORLD.peers = world.allgather((_hostname(), os.getpid()))
    return MPI, world, control, notices


def stop() -> None:
    """Leave the job: meet the other ranks in a last collective (``leave``), then free every
    communicator npspore created; this process is a group of one again.

    Raises:
        CommunicationError: if a rank calls another collective while this one leaves.
    """
    if _WORLD.mpi is None or _WORLD.failure:  # after a failure the job is aborted at exit
        return
    _leave()
    _release_launcher_connection()
    request, _ = _WORLD.notice
    request.Cancel()
    request.Wait()
    freed = set()
    for entry in (_WORLD.world, *_WORLD.groups.values()):
        for comm in (entry.comm, entry.control):
            if comm is not None and id(comm) not in freed:
                freed.add(id(comm))
                comm.Free()
    _WORLD.notices.Free()
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
    """Create the group ``name`` of ``world_ranks`` (collective over those ranks, under the deadline)."""
    world = _WORLD.world.comm
    members = world.Get_group().Incl(list(world_ranks))
    with _deadline():
        comm = world.Create_group(members) if world.Get_rank() in world_ranks else None
        control = comm.Dup() if comm is not None else None
    members.Free()
    if comm is not None:
        comm.Set_errhandler(_WORLD.mpi.ERRORS_RETURN)
        control.Set_errhandler(_WORLD.mpi.ERRORS_RETURN)
    entry = Group(name, comm, tuple(world_ranks), control)
    _WORLD.groups[name] = entry
    return entry


def remove_group(name: str) -> None:
    """Free the group ``name``."""
    entry = _WORLD.groups.pop(name)
    if entry.comm is not None:
        entry.comm.Free()
        entry.control.Free()


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


def before_next_collective(group_name: str, check) -> None:
    """Run ``check()`` at the start of the next collective on the group (whichever code calls it:
    eager, or a compiled kernel); every rank must register the same check at the same point of its
    program, since ``check`` may itself communicate. Nothing is registered in a group of one."""
    entry = group(group_name)
    if entry is not None and entry.size > 1:
        entry.pending.append(check)


# ---------------------------------------------------------------- collectives on NumPy arrays


def _op(name: str):
    return {"sum": _WORLD.mpi.SUM, "max": _WORLD.mpi.MAX, "min": _WORLD.mpi.MIN, "prod": _WORLD.mpi.PROD}[name]


def _buffer(array) -> np.ndarray:
    array = np.asarray(array)
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def _signature(what: str, array: np.ndarray, **static) -> tuple:
    return (what, *sorted(static.items()), array.dtype.str, array.shape)


def all_reduce(array, op: str, group_name: str) -> np.ndarray:
    """The elementwise ``op`` (``'sum'``, ``'max'``, ``'min'``, ``'prod'``) of ``array`` over the group."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.empty_like(send)
    _run(entry, _signature("all_reduce", send, op=op), lambda comm: comm.Iallreduce(send, out, op=_op(op)))
    return out


def all_gather(array, group_name: str) -> np.ndarray:
    """Every rank's ``array`` concatenated along axis 0, in group rank order."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.empty((entry.size * send.shape[0],) + send.shape[1:], send.dtype) if send.ndim else \
        np.empty((entry.size,), send.dtype)
    _run(entry, _signature("all_gather", send), lambda comm: comm.Iallgather(send, out))
    return out


def all_gather_text(text: str, group_name: str) -> list:
    """Every rank's ``text``, in group rank order (each rank's may have another length)."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return [text]
    _run(entry, ("all_gather_text",), None)
    return _gather_text(entry, entry.comm, text)


def reduce_scatter(array, op: str, group_name: str) -> np.ndarray:
    """The ``op`` of ``array`` over the group, cut along axis 0 into one block per rank: this rank's block."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.empty((send.shape[0] // entry.size,) + send.shape[1:], send.dtype)
    _run(entry, _signature("reduce_scatter", send, op=op),
         lambda comm: comm.Ireduce_scatter_block(send, out, op=_op(op)))
    return out


def broadcast(array, root: int, group_name: str) -> np.ndarray:
    """Rank ``root``'s ``array`` (``root`` is a rank of the group), on every rank."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    out = np.array(array, order="C")
    _run(entry, _signature("broadcast", out, root=root), lambda comm: comm.Ibcast(out, root=root))
    return out


def reduce(array, op: str, root: int, group_name: str) -> np.ndarray:
    """The ``op`` of ``array`` over the group on rank ``root``; zeros on the other ranks."""
    entry = group(group_name)
    if entry is None or entry.size == 1:
        return np.array(array)
    send = _buffer(array)
    out = np.zeros_like(send)
    _run(entry, _signature("reduce", send, op=op, root=root),
         lambda comm: comm.Ireduce(send, out, op=_op(op), root=root))
    return out


def barrier(group_name: str) -> None:
    """Wait until every rank of the group has reached this call."""
    entry = group(group_name)
    if entry is not None and entry.size > 1:
        _run(entry, ("barrier",), None)  # the check that the calls match is itself a barrier


# ---------------------------------------------------------------- deadlines, matching calls, lost ranks


def timeout() -> float:
    """Seconds a collective may take before the job is declared broken (``NPSPORE_COMM_TIMEOUT``)."""
    value = os.environ.get("NPSPORE_COMM_TIMEOUT", "")
    try:
        return float(value) if value else _DEFAULT_TIMEOUT
    except ValueError:
        raise ValueError(f"NPSPORE_COMM_TIMEOUT must be a number of seconds, but got {value!r}.") from None


def _call_code(call: tuple) -> int:
    """A 56-bit digest of a call's signature, the same in every process (``hash`` is salted per process)."""
    code = _CALL_CODES.get(call)
    if code is None:
        import hashlib
        code = _CALL_CODES[call] = int.from_bytes(hashlib.blake2b(repr(call).encode(), digest_size=7).digest(),
                                                  "little")
    return code


_CALL_CODES: dict = {}


def _run(entry: Group, call: tuple, start_request) -> None:
    """Check that every rank makes the same ``call``, start the non-blocking collective
    ``start_request(comm)`` (None: the check alone) and poll both until they complete or fail."""
    what = call[0]
    if entry.comm is None:
        raise ValueError(f"For '{what}', this rank is not a member of the group {entry.name!r}.")
    if _WORLD.failure:
        raise CommunicationError(f"For '{what}', communication already failed in this process: {_WORLD.failure}")
    while entry.pending:
        check = entry.pending.pop(0)
        try:
            check()
        except Exception as error:  # every rank fails alike; a caller that swallows it cannot go on either
            _WORLD.failure = str(error)
            raise
    code = _call_code(call)
    sent = np.array([code, -code], np.int64)
    agreed = np.empty(2, np.int64)  # max(code), -min(code): equal codes on every rank iff agreed[0] == -agreed[1]

    def check_agreed():
        if agreed[0] != -agreed[1]:
            _mismatch(entry, call)

    try:
        requests = [entry.control.Iallreduce(sent, agreed, op=_WORLD.mpi.MAX)]
        if start_request is not None:
            requests.append(start_request(entry.comm))
        _wait(entry, what, requests, deadline=call != _LEAVE, on_first=check_agreed)
    except _WORLD.mpi.Exception as error:
        _fail(entry, what, f"failed in MPI ({error.Get_error_string().strip()})")


def _wait(entry: Group, what: str, requests: list, deadline: bool = True, on_first=None) -> None:
    """Poll ``requests`` until they complete, calling ``on_first()`` once the first has; fail past the
    deadline, when a rank of the group on this host has exited, or when a rank announced its failure."""
    limit = timeout()
    started = time.monotonic()
    next_check = started + _LIVENESS_PERIOD
    polls = 0
    remaining = list(requests)
    while True:
        for request in tuple(remaining):
            if request.Test():
                remaining.remove(request)
                if request is requests[0] and on_first is not None:
                    on_first()
        if not remaining:
            return
        polls += 1
        if polls > 200:  # a fast collective completes while spinning; a slow one must not burn a core
            time.sleep(0.0002 if polls < 2000 else 0.002)
        now = time.monotonic()
        if deadline and now > started + limit:
            _fail(entry, what, f"did not complete within {limit:g} s (NPSPORE_COMM_TIMEOUT)")
        if now > next_check:  # a dead or failed rank is reported at once, not at the deadline
            next_check = now + _LIVENESS_PERIOD
            _check_notice(entry, what)
            if any(_process_state(rank) == "exited" for rank in entry.world_ranks):
                _fail(entry, what, "cannot complete")


def _mismatch(entry: Group, call: tuple):
    """The ranks' calls differ: exchange their descriptions and raise an error naming them."""
    _WORLD.failure = "the ranks' calls did not match"  # started collectives may never complete
    calls = _gather_text(entry, entry.control, _describe_call(call))
    ranks_of = {}
    for rank, text in zip(entry.world_ranks, calls):
        ranks_of.setdefault(text, []).append(rank)
    listed = "; ".join(f"{'rank' if len(ranks) == 1 else 'ranks'} {', '.join(map(str, ranks))}: {text}"
                       for text, ranks in ranks_of.items())
    left = [rank for rank, text in zip(entry.world_ranks, calls) if text == _describe_call(_LEAVE)]
    cause = (f"rank{'s' if len(left) > 1 else ''} {', '.join(map(str, left))} left the job while the others "
             "still call collectives" if left else "the ranks called different collectives or passed tensors "
             "of different shapes or dtypes")
    me = _WORLD.world.comm.Get_rank()
    raise _failed(f"npspore.communication: {call[0]} on group {entry.name!r} (world rank {me} of "
                  f"{_WORLD.world.size}): {cause}: {listed}.")


def _describe_call(call: tuple) -> str:
    if call == _LEAVE:
        return "left the job (its script ended, or it called release())"
    if len(call) == 1:
        return call[0]
    what, *static, dtype, shape = call
    arguments = ", ".join(f"{key}={value!r}" for key, value in static)
    return f"{what}({arguments}) of {np.dtype(dtype).name}{list(shape)}"


def _gather_text(entry: Group, comm, text: str) -> list:
    """Every rank's ``text`` over ``comm`` (two polled all-gathers: the lengths, then the padded bytes)."""
    data = text.encode()
    lengths = np.empty(entry.size, np.int64)
    _wait(entry, "all_gather_text", [comm.Iallgather(np.array([len(data)], np.int64), lengths)])
    longest = int(lengths.max())
    padded = np.zeros(longest, np.uint8)
    padded[:len(data)] = np.frombuffer(data, np.uint8)
    gathered = np.empty((entry.size, longest), np.uint8)
    _wait(entry, "all_gather_text", [comm.Iallgather(padded, gathered)])
    return [row[:length].tobytes().decode() for row, length in zip(gathered, lengths)]


def _leave() -> None:
    """The last collective of a rank that leaves: the others' next call on the world meets it."""
    if _WORLD.world.size > 1:
        _run(_WORLD.world, _LEAVE, None)


def _check_notice(entry: Group, what: str) -> None:
    """Raise if another rank announced that it failed."""
    request, buffer = _WORLD.notice
    if _WORLD.peer_failure or request.Test():
        _WORLD.peer_failure = _WORLD.peer_failure or bytes(buffer).rstrip(b"\0").decode(errors="replace")
        me = _WORLD.world.comm.Get_rank()
        raise _failed(f"npspore.communication: {what} on group {entry.name!r} (world rank {me} of "
                      f"{_WORLD.world.size}) cannot complete: {_WORLD.peer_failure}")


def _failed(message: str) -> CommunicationError:
    """The error to raise for a failure after which this process cannot communicate any more."""
    _WORLD.failure = message
    return CommunicationError(message)


def _fail(entry: Group, what: str, how: str):
    me = _WORLD.world.comm.Get_rank()
    lost = [rank for rank in entry.world_ranks if rank != me and _process_state(rank) != "running"]
    if lost:
        message = "lost " + ", ".join(f"rank {rank} {_describe(rank)}" for rank in lost)
    else:
        others = [rank for rank in entry.world_ranks if rank != me]
        message = (f"no rank of the group has exited on this host; ranks {others} are stuck before this "
                   "collective, or run on another host that is unreachable")
    raise _failed(f"npspore.communication: {what} on group {entry.name!r} (world rank {me} of "
                  f"{_WORLD.world.size}) {how}: {message}.")


@contextmanager
def _deadline():
    """Run blocking MPI steps under the deadline: past it, this process prints its threads' stacks
    (``Timeout (0:05:00)!`` and the call waiting, such as ``_join_job`` in ``init``) and exits with
    status 1, which ends the MPI job. The watchdog is ``faulthandler``'s, a C thread: ``MPI_Init``
    holds the GIL while it waits, so no Python timer could run."""
    import faulthandler
    faulthandler.dump_traceback_later(timeout(), exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


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
    return f"(pid {pid} on {host}), which {'has exited' if state == 'exited' else 'is ' + state}"


# ---------------------------------------------------------------- ending the job


def _install_exit_hooks() -> None:
    """Once per process: unhandled exceptions end the MPI job; a normal exit leaves it (:func:`stop`)."""
    import threading
    if getattr(sys.excepthook, "_npspore_ends_job", False):
        return
    previous_hook, previous_thread_hook = sys.excepthook, threading.excepthook

    def excepthook(kind, error, traceback):
        previous_hook(kind, error, traceback)
        _end_job(f"{kind.__name__}: {error}")

    def thread_excepthook(args):
        previous_thread_hook(args)
        if not issubclass(args.exc_type, SystemExit):  # a thread's SystemExit ends the thread alone
            _end_job(f"{args.exc_type.__name__} in thread {args.thread.name if args.thread else '?'}: "
                     f"{args.exc_value}")

    excepthook._npspore_ends_job = True
    sys.excepthook, threading.excepthook = excepthook, thread_excepthook
    atexit.register(_at_exit)  # after mpi4py's own exit hook, so it runs before MPI_Finalize


def _hold_launcher_connection():
    """Keep MPICH's launcher from ending the job before the ranks can say why.

    Hydra (MPICH's ``mpiexec``) kills every rank the moment one exits without ``MPI_Finalize``, and
    exits with that rank's status: a rank that calls ``os._exit(0)`` mid-training would end the job
    with status 0 before any other rank could report it. Hydra notices such an exit by the rank's
    launcher connection (the socket ``PMI_FD``) closing; a small process that holds a copy of it
    until ``_LAUNCHER_GRACE_SECONDS`` after this rank is gone lets the other ranks find the rank lost
    and abort the job (status 1). A rank that leaves cleanly, or aborts, ends it first. Returns the
    process, or None under another launcher or in a job of one.
    """
    descriptor = os.environ.get("PMI_FD", "")
    if not descriptor.isdigit() or _WORLD.world.size == 1:
        return None
    import subprocess
    script = 'while kill -0 "$1" 2>/dev/null; do sleep 0.1; done; sleep "$2"'
    try:
        return subprocess.Popen(["sh", "-c", script, "sh", str(os.getpid()), str(_LAUNCHER_GRACE_SECONDS)],
                                pass_fds=(int(descriptor),), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:  # no such descriptor or no shell: hydra keeps its usual behaviour
        return None


def _release_launcher_connection() -> None:
    hold, _WORLD.launcher_hold = _WORLD.launcher_hold, None
    if hold is not None:
        hold.kill()
        hold.wait()


def _end_job(reason: str) -> None:
    """After an unhandled exception: tell the other ranks why (unless another rank's failure is the
    reason), give the launcher time to forward the output, and abort the MPI job."""
    if _WORLD.mpi is None or _WORLD.ending or _WORLD.world.size == 1:  # a job of one ends as any process does
        return
    _WORLD.ending = True
    me, size = _WORLD.world.comm.Get_rank(), _WORLD.world.size
    host, pid = _WORLD.peers[me]
    text = f"world rank {me} of {size} (pid {pid} on {host}) failed: {reason.rstrip('.')}"
    sends = []
    if not _WORLD.peer_failure:
        notice = np.zeros(_NOTICE_BYTES, np.uint8)
        data = text.encode()[:_NOTICE_BYTES - 1]
        notice[:len(data)] = np.frombuffer(data, np.uint8)
        try:
            sends = [_WORLD.notices.Isend(notice, dest=rank) for rank in range(size) if rank != me]
        except _WORLD.mpi.Exception:  # a lost rank: the others learn from MPI_Abort
            sends = []
    print(f"npspore.communication: {text}; ending the MPI job.", file=sys.stderr, flush=True)
    _abort(sends)


def _abort(sends=()) -> None:
    """``MPI_Abort`` the job, after giving the launcher (and ``sends``) time to deliver this rank's
    last words: MPI_Abort tears the job down at once, dropping output not forwarded yet, such as the
    end of the traceback naming the lost rank."""
    _release_launcher_connection()
    sys.stdout.flush()
    sys.stderr.flush()
    until = time.monotonic() + _OUTPUT_FORWARD_SECONDS
    while time.monotonic() < until:
        if sends:
            try:
                _WORLD.mpi.Request.Testall(sends)
            except _WORLD.mpi.Exception:
                sends = []
        time.sleep(0.01)
    _WORLD.mpi.COMM_WORLD.Abort(1)


def _at_exit() -> None:
    """At exit: abort the job after a failed collective; otherwise leave it (the last collective)."""
    if _WORLD.mpi is None:
        return
    if not _WORLD.failure:
        try:
            stop()
            return
        except CommunicationError as error:
            print(error, file=sys.stderr, flush=True)
    _abort()
