"""Process groups, as ``mindspore.communication.management``: ``init``, ``get_rank``, ``get_group_size`` ...

A script launched by ``mpiexec -n N python train.py`` calls :func:`init` and then sees ``N``
ranks. A script that never calls :func:`init` is one process: rank 0 of a group of size 1, as
MindSpore answers before initialisation, so the same script also runs without ``mpiexec``.
"""
from __future__ import annotations

from ..compiler.library import LIBRARY
from . import transport

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_local_rank_size", "get_world_rank_from_group_rank", "get_group_rank_from_world_rank",
           "create_group", "destroy_group", "get_process_group_ranks", "get_comm_name",
           "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"

_WORLD_GROUPS = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP, "mccl": MCCL_WORLD_COMM_GROUP}


class GlobalComm:
    """World communication information, as MindSpore's ``GlobalComm``.

    ``BACKEND`` names the backend a MindSpore script asked for (npspore always talks MPI);
    ``WORLD_COMM_GROUP`` is the name of the group of all ranks; ``INITED`` whether :func:`init` ran.
    """

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def init(backend_name=None):
    """Join the MPI job this process was launched in (``mpiexec -n N python script.py``).

    Args:
        backend_name (str): ``'hccl'``, ``'nccl'`` or ``'mccl'``, the backend a MindSpore script
            names; it only chooses the name of the world group (``GlobalComm.WORLD_COMM_GROUP``):
            npspore always communicates over MPI. Default: ``None`` (``'hccl'``).

    Raises:
        TypeError: if `backend_name` is not a str.
        ValueError: if `backend_name` is not one of the names above.
        ImportError: if mpi4py is not installed (``pip install 'npspore[mpi]'``).
    """
    if backend_name is None:
        backend_name = "hccl"
    if not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a str, but got "
                        f"{type(backend_name).__name__}.")
    if backend_name not in _WORLD_GROUPS:
        raise ValueError(f"For 'init', the argument 'backend_name' must be one of {sorted(_WORLD_GROUPS)} "
                         f"(npspore communicates over MPI whichever is named), but got {backend_name!r}.")
    transport.start(_WORLD_GROUPS.values())
    GlobalComm.BACKEND = backend_name
    GlobalComm.WORLD_COMM_GROUP = _WORLD_GROUPS[backend_name]
    GlobalComm.INITED = True


def release():
    """Leave the MPI job's groups: afterwards this process is a group of one again."""
    transport.stop()
    GlobalComm.INITED = False


def _group(group, api):
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be a str, but got {type(group).__name__}.")
    return transport.group(group)


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank in ``group`` (0 before :func:`init`).

    Raises:
        TypeError: if `group` is not a str.
        ValueError: if no group is called `group`.
    """
    entry = _group(group, "get_rank")
    return 0 if entry is None else entry.rank


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks in ``group`` (1 before :func:`init`).

    Raises:
        TypeError: if `group` is not a str.
        ValueError: if no group is called `group`.
    """
    entry = _group(group, "get_group_size")
    return 1 if entry is None else entry.size


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank among the ranks on its machine (0 before :func:`init`)."""
    _group(group, "get_local_rank")
    return transport.local_rank()


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks on this process's machine (1 before :func:`init`)."""
    _group(group, "get_local_rank_size")
    return transport.local_size()


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of ``group``'s members, in group rank order."""
    entry = _group(group, "get_process_group_ranks")
    return [0] if entry is None else list(entry.world_ranks)


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of the member ``group_rank_id`` of ``group``.

    Raises:
        ValueError: if `group_rank_id` is not a rank of `group`.
    """
    ranks = get_process_group_ranks(group)
    if not isinstance(group_rank_id, int) or not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For 'get_world_rank_from_group_rank', 'group_rank_id' must be a rank of group "
                         f"{group!r} (0 to {len(ranks) - 1}), but got {group_rank_id!r}.")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in ``group`` of the world rank ``world_rank_id``.

    Raises:
        ValueError: if `world_rank_id` is not a member of `group`.
    """
    ranks = get_process_group_ranks(group)
    if world_rank_id not in ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', world rank {world_rank_id!r} is not a member "
                         f"of group {group!r} (members: {ranks}).")
    return ranks.index(world_rank_id)


def create_group(group, rank_ids, options=None):
    """Create the group ``group`` of the world ranks ``rank_ids`` (every rank of the job calls it).

    Raises:
        TypeError: if `group` is not a str or `rank_ids` not a list of ints.
        ValueError: if `rank_ids` has repeated or out-of-range ranks, or `group` names a world group.
        RuntimeError: before :func:`init`.
    """
    if not isinstance(group, str):
        raise TypeError(f"For 'create_group', the argument 'group' must be a str, but got {type(group).__name__}.")
    if not isinstance(rank_ids, (list, tuple)) or not all(isinstance(r, int) for r in rank_ids):
        raise TypeError(f"For 'create_group', the argument 'rank_ids' must be a list of int, but got {rank_ids!r}.")
    if group in _WORLD_GROUPS.values():
        raise ValueError(f"For 'create_group', the group name {group!r} is the world group's.")
    if not transport.is_started():
        raise RuntimeError("For 'create_group', call npspore.communication.init() first.")
    size = get_group_size()
    if len(set(rank_ids)) != len(rank_ids) or not all(0 <= r < size for r in rank_ids) or not rank_ids:
        raise ValueError(f"For 'create_group', 'rank_ids' must be distinct world ranks in [0, {size}), "
                         f"but got {list(rank_ids)}.")
    transport.add_group(group, tuple(rank_ids))


def destroy_group(group):
    """Free the group ``group`` made by :func:`create_group`.

    Raises:
        ValueError: if `group` is a world group or does not exist.
    """
    if group in _WORLD_GROUPS.values():
        raise ValueError(f"For 'destroy_group', the world group {group!r} cannot be destroyed.")
    _group(group, "destroy_group")
    transport.remove_group(group)


# Compiled code calls these at compile time (the answers are facts of the process, constant between
# init and release): collectives specialise to their group's size, and so to the job's layout.
LIBRARY.register_process(frozenset((get_rank, get_group_size, get_local_rank, get_local_rank_size,
                                    get_process_group_ranks, get_world_rank_from_group_rank,
                                    get_group_rank_from_world_rank)),
                         transport.layout)


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP):
    """The name of ``group``'s communicator (the group's own name: npspore has one MPI communicator per group)."""
    _group(group, "get_comm_name")
    return group
