"""npspore.communication, the collective ops and the auto-parallel context in one process (no MPI job:
a group of one). ``test_data_parallel.py`` runs the same APIs across MPI ranks."""
import json
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops
from npspore.communication import (GlobalComm, HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                                   comm_func, create_group, get_group_rank_from_world_rank, get_group_size,
                                   get_local_rank, get_local_rank_size, get_rank, init, transport)
from npspore.jit import cell_kernel_source
from npspore.nn.wrap.grad_reducer import plan_buckets

X = np.arange(6, dtype=np.float32).reshape(3, 2)


@pytest.fixture(autouse=True)
def fresh_parallel_context():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


# ---------------------------------------------------------------- process groups


def test_without_init_a_process_is_rank_0_of_a_group_of_one():
    # Observed on MindSpore 2.10 CPU: get_rank() == 0 and get_group_size() == 1 before init().
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    assert GlobalComm.WORLD_COMM_GROUP == HCCL_WORLD_COMM_GROUP == "hccl_world_group"
    assert (NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP) == ("nccl_world_group", "mccl_world_group")
    assert GlobalComm.INITED is False
    assert get_group_rank_from_world_rank(0, HCCL_WORLD_COMM_GROUP) == 0
    assert transport.layout() == ()


def test_init_checks_the_backend_name():
    with pytest.raises(TypeError, match="'backend_name' must be a str, but got int"):
        init(3)
    with pytest.raises(ValueError, match=r"must be one of \['hccl', 'mccl', 'nccl'\].*but got 'gloo'"):
        init("gloo")


def test_init_without_mpi4py_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(ImportError, match=r"needs mpi4py and an MPI library: pip install 'npspore\[mpi\]'"):
        init()
    assert GlobalComm.INITED is False


def test_group_arguments_are_checked():
    with pytest.raises(TypeError, match="For 'get_rank', the argument 'group' must be a str, but got int"):
        get_rank(0)
    with pytest.raises(RuntimeError, match="call npspore.communication.init\\(\\) first"):
        create_group("pair", [0, 1])
    with pytest.raises(ValueError, match="world group"):
        create_group(HCCL_WORLD_COMM_GROUP, [0])


def test_the_collective_timeout_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("NPSPORE_COMM_TIMEOUT", "2.5")
    assert transport.timeout() == 2.5
    monkeypatch.setenv("NPSPORE_COMM_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="NPSPORE_COMM_TIMEOUT must be a number of seconds, but got 'soon'"):
        transport.timeout()


# ---------------------------------------------------------------- collectives in a group of one


def test_collective_primitives_return_their_input_in_a_group_of_one():
    x = ms.Tensor(X)
    for result in (ops.AllReduce()(x), ops.AllReduce(ops.ReduceOp.MAX)(x), ops.AllReduce(ops.ReduceOp.AVG)(x),
                   ops.AllGather()(x), ops.ReduceScatter(ops.ReduceOp.PROD)(x), ops.Broadcast(0)((x,))[0],
                   ops.Reduce(0)(x)):
        assert result.dtype == ms.float32
        np.testing.assert_array_equal(result.asnumpy(), X)
    assert repr(ops.AllReduce()) == "Prim[AllReduce]<op=sum, group=hccl_world_group>"
    assert ops.ReduceOp.SUM == "sum" and ops.ReduceOp.AVG == "avg"


def test_comm_func_returns_mindsporess_output_and_handle():
    x = ms.Tensor(X)
    out, handle = comm_func.all_reduce(x)
    assert handle is None
    np.testing.assert_array_equal(out.asnumpy(), X)
    out, handle = comm_func.all_gather_into_tensor(x, async_op=True)
    assert handle.wait() is None
    np.testing.assert_array_equal(out.asnumpy(), X)
    np.testing.assert_array_equal(comm_func.reduce_scatter_tensor(x, "max")[0].asnumpy(), X)
    np.testing.assert_array_equal(comm_func.broadcast(x, 0).asnumpy(), X)
    assert ms.ops.comm_func is comm_func


def test_collective_arguments_are_checked():
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        comm_func.all_reduce(X)
    with pytest.raises(TypeError, match="For all_reduce, the input op value must be one of sum, prod, min, max"):
        comm_func.all_reduce(ms.Tensor(X), "avg")
    with pytest.raises(TypeError, match="For broadcast, the src must be int"):
        comm_func.broadcast(ms.Tensor(X), "0")
    with pytest.raises(TypeError, match=r"For 'AllReduce', the 'op' must be one of .*, but got 'mean'"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="For 'Broadcast', the 'root_rank' must be an int, but got str"):
        ops.Broadcast("0")
    with pytest.raises(ValueError, match="the input must have at least one dimension"):
        ops.AllGather()(ms.Tensor(1.0))


class EveryCollective(nn.Cell):
    def __init__(self):
        super().__init__()
        self.all_reduce = ops.AllReduce()
        self.all_gather = ops.AllGather()
        self.reduce_scatter = ops.ReduceScatter()
        self.broadcast = ops.Broadcast(0)
        self.reduce = ops.Reduce(0, ops.ReduceOp.MAX)

    def construct(self, x):
        y = self.reduce_scatter(self.all_gather(self.all_reduce(x * 2)))
        return self.reduce(self.broadcast((y,))[0]) + 1


def test_compiled_code_calls_the_runtime_collectives():
    cell = EveryCollective()
    source = cell_kernel_source(cell, ms.Tensor(X))
    for call in ("rt.all_reduce(", "rt.all_gather(", "rt.reduce_scatter(", "rt.broadcast(", "rt.reduce("):
        assert call in source
    assert "'hccl_world_group'" in source
    np.testing.assert_array_equal(ms.jit(cell)(ms.Tensor(X)).asnumpy(), X * 2 + 1)


def test_compiling_runs_no_collective_only_the_kernel_call_does(monkeypatch):
    """Ranks meet in the order the kernel calls collectives: a compile (dtype probes, folding) that
    called one would pair with another rank's kernel call, or with nothing on a rank that loaded the
    kernel from the disk cache."""
    from npspore import runtime as rt
    calls = []
    for name in ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce"):
        monkeypatch.setattr(rt, name, lambda *args, _real=getattr(rt, name), _name=name: (
            calls.append(_name), _real(*args))[1])
    compiled = ms.jit(EveryCollective())
    compiled.kernel_source(ms.Tensor(X))
    assert calls == []
    np.testing.assert_array_equal(compiled(ms.Tensor(X)).asnumpy(), X * 2 + 1)
    assert sorted(calls) == ["all_gather", "all_reduce", "broadcast", "reduce", "reduce_scatter"]


def test_gradients_flow_through_collectives_in_a_group_of_one():
    def loss(x):
        gathered, _ = comm_func.all_gather_into_tensor(comm_func.all_reduce(x * x)[0])
        return gathered.sum()

    np.testing.assert_allclose(ms.grad(loss)(ms.Tensor(X)).asnumpy(), 2 * X)


# ---------------------------------------------------------------- the auto-parallel context


def test_auto_parallel_context_defaults_set_get_reset():
    # Defaults observed on MindSpore 2.10 CPU.
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False
    assert ms.get_auto_parallel_context("device_num") == 1
    assert ms.get_auto_parallel_context("global_rank") == 0
    assert ms.get_auto_parallel_context("parameter_broadcast") is False
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    assert ms.context.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    ms.context.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == ms.ParallelMode.STAND_ALONE
    assert ms.ParallelMode.MODE_LIST == ["stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel",
                                         "auto_parallel"]


def test_auto_parallel_context_errors_are_mindsporess():
    # Messages observed on MindSpore 2.10 CPU.
    with pytest.raises(ValueError, match="only support 'stand_alone', 'data_parallel', 'hybrid_parallel', "
                                         "'semi_auto_parallel' and 'auto_parallel', but got the value : bogus."):
        ms.set_auto_parallel_context(parallel_mode="bogus")
    with pytest.raises(ValueError, match="Get context keyword bogus is not recognized!"):
        ms.get_auto_parallel_context("bogus")
    with pytest.raises(ValueError, match="Set context keyword bogus is not recognized!"):
        ms.set_auto_parallel_context(bogus=1)
    with pytest.raises(TypeError, match="'gradients_mean' must be bool"):
        ms.set_auto_parallel_context(gradients_mean=1)
    with pytest.raises(ValueError, match="allreduce modes 'auto' and 'size', but got 'index'"):
        ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "index", "config": [2]}})


def two_layer_step():
    net = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))


def test_model_parallel_modes_and_shard_are_not_supported_for_training():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    with pytest.raises(NotImplementedError, match="parallel_mode 'semi_auto_parallel' .* is not supported in npspore"):
        two_layer_step()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL)
    with pytest.raises(NotImplementedError, match="'auto_parallel' .* not supported in npspore"):
        nn.DistributedGradReducer([])
    ms.reset_auto_parallel_context()
    net = nn.Dense(3, 2).shard(((2, 1),))
    with pytest.raises(NotImplementedError, match="has a shard strategy .* not supported in npspore"):
        nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))


def test_data_parallel_training_in_a_group_of_one_equals_stand_alone_training():
    data, label = ms.Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)), ms.Tensor(np.ones((4, 2),
                                                                                                      np.float32))
    ms.set_seed(1)
    plain_net, plain = two_layer_step()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    ms.set_seed(1)
    parallel_net, parallel = two_layer_step()
    assert parallel.reducer_flag and isinstance(parallel.grad_reducer, nn.DistributedGradReducer)
    assert (parallel.grad_reducer.mean, parallel.grad_reducer.degree) == (True, 1)
    for _ in range(3):
        np.testing.assert_array_equal(plain(data, label).asnumpy(), parallel(data, label).asnumpy())
    for a, b in zip(plain_net.trainable_params(), parallel_net.trainable_params()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


# ---------------------------------------------------------------- gradient buckets


def test_buckets_hold_runs_of_one_dtype_up_to_their_capacity():
    arrays = [np.zeros(4, np.float32), np.zeros(2, np.float32), np.zeros(8, np.float32), np.zeros(1, np.float16),
              np.zeros(1, np.float16)]
    assert plan_buckets(arrays, 24) == ((0, 2), (2, 3), (3, 5))
    assert plan_buckets(arrays, 1 << 20) == ((0, 3), (3, 5))
    assert plan_buckets(arrays, 0) == ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5))
    assert plan_buckets([], 10) == ()


def test_comm_fusion_sets_the_bucket_size():
    params = [ms.Parameter(np.zeros((256, 256), np.float32), name=f"p{i}") for i in range(3)]  # 256 KB each
    assert nn.DistributedGradReducer(params).buckets == ((0, 3),)  # default: 25 MB buckets
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 0.5}})
    assert nn.DistributedGradReducer(params).buckets == ((0, 2), (2, 3))
    ms.set_auto_parallel_context(comm_fusion={"openstate": False})
    assert nn.DistributedGradReducer(params).buckets == ((0, 1), (1, 2), (2, 3))


def test_grad_reducer_arguments_are_checked():
    with pytest.raises(TypeError, match="'mean' must be a bool, but got int"):
        nn.DistributedGradReducer([], mean=1)
    with pytest.raises(ValueError, match="'degree' must be at least 1, but got 0"):
        nn.DistributedGradReducer([], degree=0)
    with pytest.raises(TypeError, match="'group' must be a str"):
        nn.DistributedGradReducer([], group=None)


def test_grad_reducer_divides_by_the_degree_when_averaging():
    params = [ms.Parameter(np.zeros((2, 2), np.float32), name="a"), ms.Parameter(np.zeros(3, np.float32), name="b")]
    grads = (ms.Tensor(np.full((2, 2), 4.0, np.float32)), ms.Tensor(np.full(3, 8.0, np.float32)))
    for reducer in (nn.DistributedGradReducer(params, mean=True, degree=4), ms.jit(
            nn.DistributedGradReducer(params, mean=True, degree=4))):
        reduced = reducer(grads)
        np.testing.assert_array_equal(reduced[0].asnumpy(), np.ones((2, 2)))
        np.testing.assert_array_equal(reduced[1].asnumpy(), np.full(3, 2.0))
    summed = nn.DistributedGradReducer(params, mean=False)(grads)
    np.testing.assert_array_equal(summed[1].asnumpy(), np.full(3, 8.0))


def other_rank_holds(monkeypatch, parameters):
    """Make the replica check see a second rank (world rank 1) holding ``parameters`` (name, dtype, shape)."""
    from npspore.nn.wrap import grad_reducer

    table = json.dumps([[name, dtype, list(shape)] for name, dtype, shape in parameters])
    monkeypatch.setattr(grad_reducer.management, "get_group_size", lambda group: 2)
    monkeypatch.setattr(grad_reducer.management, "get_process_group_ranks", lambda group: [0, 1])
    monkeypatch.setattr(grad_reducer.transport, "all_gather_text", lambda text, group: [text, table])


MINE = [ms.Parameter(np.zeros((2, 3), np.float32), name="w"), ms.Parameter(np.zeros(3, np.float32), name="b")]


@pytest.mark.parametrize("theirs, message", [
    ([("w", "float32", (3, 2)), ("b", "float32", (3,))],
     "Parameter 0 is 'w' (float32, shape (2, 3)) on rank 0 but 'w' (float32, shape (3, 2)) on rank 1"),
    ([("w", "float32", (2, 3)), ("c", "float32", (3,))],
     "Parameter 1 is 'b' (float32, shape (3,)) on rank 0 but 'c' (float32, shape (3,)) on rank 1"),
    ([("w", "float64", (2, 3)), ("b", "float32", (3,))],
     "Parameter 0 is 'w' (float32, shape (2, 3)) on rank 0 but 'w' (float64, shape (2, 3)) on rank 1"),
    ([("w", "float32", (2, 3))],
     "rank 0 has 2 Parameters, rank 1 has 1; rank 0's Parameter 'b' (float32, shape (3,)) is missing on the other"),
    ([("w", "float32", (2, 3)), ("b", "float32", (3,)), ("extra", "int32", (1,))],
     "rank 0 has 2 Parameters, rank 1 has 3; rank 1's Parameter 'extra' (int32, shape (1,)) is missing on the other"),
])
def test_the_replica_check_names_the_first_parameter_that_differs_between_ranks(monkeypatch, theirs, message):
    other_rank_holds(monkeypatch, theirs)
    with pytest.raises(ValueError) as error:
        nn.DistributedGradReducer(MINE)
    assert str(error.value) == (f"For 'DistributedGradReducer', the ranks' Parameters differ: {message}. Every rank "
                                "must build the same network.")
