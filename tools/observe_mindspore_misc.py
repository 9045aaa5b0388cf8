"""Print MindSpore 2.10's behaviour for the parallel, profiler, train, top-level and private names of
tests/test_misc_apis.py (issue 26's "misc" list).

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_misc.py``. Each line is ``case -> repr(result)`` or ``case !! ErrorType message``;
the values are pasted into the tests as literals.
"""
import numpy as np

import mindspore as ms
from mindspore import _c_expression as C
from mindspore import nn, ops
from mindspore.common.api import _cell_graph_executor, _pynative_executor
from mindspore.parallel import Layout
from mindspore.parallel.auto_parallel import AutoParallel


def show(label, make):
    """Print ``label -> repr(make())`` or the error it raises."""
    try:
        print(label, "->", repr(make()))
    except Exception as error:  # noqa: BLE001  (every error is a recorded value)
        print(label, "!!", type(error).__name__, str(error).splitlines()[0][:300])


def train_with_auto_parallel():
    """Three SGD steps of a Dense(3, 2) (ones, zeros) on MSE through AutoParallel(train_step)."""
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.MSELoss()

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, net.trainable_params())

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    parallel_net = AutoParallel(train_step, parallel_mode="semi_auto")
    x = ms.Tensor(np.arange(12).reshape(4, 3).astype(np.float32) / 10)
    y = ms.Tensor(np.ones((4, 2), np.float32))
    losses = [float(parallel_net(x, y)) for _ in range(3)]
    return losses, net.weight.asnumpy().tolist()


def auto_parallel_cases():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    show("layout_doc", lambda: layout("dp", "mp").to_dict())
    show("layout_interleaved_doc", lambda: Layout((2, 2, 2), ("dp", "sp", "interleaved_parallel"))(
        ("dp", "interleaved_parallel"), "sp").to_dict())
    show("layout_none", lambda: layout("dp", "None").to_dict())
    show("layout_unknown_axis", lambda: layout("dp", "xx"))
    show("layout_repeated_axis", lambda: layout("dp", "dp"))
    show("layout_bad_rank_list", lambda: Layout((2, 2), ("a", "b"), [0, 1]))
    show("shard_tuple", lambda: repr(ops.MatMul().shard(((2, 4), (4, 1)))))
    show("shard_layout", lambda: repr(ops.MatMul().shard(in_strategy=(layout("dp", "mp"), layout("mp", "sp")))))
    show("shard_list", lambda: ops.MatMul().shard([2]))
    show("shard_out_only", lambda: ops.MatMul().shard(None, ((1, 1),)))
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    parallel_net = AutoParallel(net)
    show("ap_params", lambda: [p.name for p in parallel_net.trainable_params()])
    show("ap_repr", lambda: repr(parallel_net))
    show("ap_bad_mode", lambda: AutoParallel(net, "auto"))
    show("ap_hsdp_bad", lambda: parallel_net.hsdp(0))
    show("ap_pipeline_bad", lambda: parallel_net.pipeline(stages=0))
    show("ap_pipeline_scheduler", lambda: parallel_net.pipeline(scheduler="x"))
    show("ap_dataset_strategy_bad", lambda: parallel_net.dataset_strategy("x"))
    show("ap_dataset_strategy_list", lambda: parallel_net.dataset_strategy([1]))
    show("ap_save_op_relative", lambda: parallel_net.save_operator_strategy_file("a.json"))
    show("ap_save_op_ext", lambda: parallel_net.save_operator_strategy_file("/a.txt"))
    show("ap_save_param_int", lambda: parallel_net.save_param_strategy_file(1))
    show("ap_comm_fusion_int", lambda: parallel_net.comm_fusion(1))
    show("ap_pipeline_stages", lambda: (parallel_net.pipeline(stages=2), parallel_net.get_pipeline_stages()))
    show("ap_train", train_with_auto_parallel)


def private_cases():
    show("disable_multi_thread", C.disable_multi_thread)
    show("empty_shape_dtype", lambda: (C._empty_instance((2, 3), dtype=ms.int32, device="CPU").shape,
                                       str(C._empty_instance((2, 3), dtype=ms.int32).dtype)))
    show("empty_int_size", lambda: C._empty_instance(3).shape)
    show("empty_negative", lambda: C._empty_instance((-1,), dtype=ms.float32))
    show("empty_gpu", lambda: C._empty_instance((2,), device="GPU"))
    context = C.MSContext.get_instance()
    show("mscontext", lambda: (context is C.MSContext.get_instance(), context.get_ascend_soc_version(),
                               context.is_pkg_support_device("CPU"), context.is_pkg_support_device("Ascend"),
                               context.is_ascend_plugin_loaded(), context.get_backend_policy()))
    show("profiler_steps", lambda: (C._framework_profiler_step_start(), C._framework_profiler_step_end()))
    show("memory_recycle", C._ms_memory_recycle)
    show("typing", lambda: (isinstance(ms.bfloat16, C.typing.BFloat), isinstance(ms.float32, C.typing.Number),
                            isinstance(ms.complex64, C.typing.Complex), isinstance(ms.float32, C.typing.BFloat)))
    show("tensorpy_cell", lambda: (isinstance(ms.Tensor(1), C.TensorPy), isinstance(nn.ReLU(), C.Cell_)))
    pe = _pynative_executor
    show("pynative_flags", lambda: (pe.grad_flag(), pe.enable_grad(), pe.requires_grad()))
    show("pynative_set", lambda: (pe.set_grad_flag(True), pe.grad_flag(), pe.set_enable_grad(False),
                                  pe.enable_grad(), pe.set_enable_grad(True), pe.set_grad_flag(False), pe.sync()))
    net = nn.Dense(3, 2)
    show("cell_graph_compile", lambda: _cell_graph_executor.compile(net, ms.Tensor(np.ones((1, 3), np.float32)))[1])
    show("cells_compile_cache", lambda: type(ms.common.api.cells_compile_cache))


def device_context_cases():
    precision = ms.device_context.ascend.op_precision
    show("precision_mode_doc", lambda: precision.precision_mode("force_fp16"))   # logs the CPU error
    show("op_precision_mode", lambda: precision.op_precision_mode("./op_precision_config_file"))
    show("ascend_device_count", ms.device_context.ascend.device_count)
    show("ascend_is_available", ms.device_context.ascend.is_available)
    show("gpu_device_count", ms.device_context.gpu.device_count)
    show("gpu_is_available", ms.device_context.gpu.device.is_available)
    show("cpu_device", lambda: (ms.device_context.cpu.is_available(), ms.device_context.cpu.device_count()))
    show("cpu_threads_bad_type", lambda: ms.device_context.cpu.op_tuning.threads_num("a"))
    show("cpu_threads_zero", lambda: ms.device_context.cpu.op_tuning.threads_num(0))
    show("cpu_threads_doc", lambda: ms.device_context.cpu.op_tuning.threads_num(10))
    show("cpu_threads_again", lambda: ms.device_context.cpu.op_tuning.threads_num(10))


def coo_tensor_cases():
    indices = ms.Tensor([[0, 1], [1, 2]], dtype=ms.int32)
    values = ms.Tensor([1, 2], dtype=ms.float32)
    coo = ms.COOTensor(indices, values, (3, 4))
    show("coo_repr_doc", lambda: coo)
    show("coo_to_dense", lambda: coo.to_dense().asnumpy().tolist())
    show("coo_attributes", lambda: (coo.dtype, coo.size, coo.itemsize, coo.ndim, coo.shape))
    show("coo_astype", lambda: coo.astype(ms.float64))
    show("coo_abs", lambda: ms.COOTensor(indices, ms.Tensor([-1.5, 2], ms.float32), (3, 4)).abs().values)
    show("coo_add_dense", lambda: (coo + ms.Tensor(np.ones((3, 4), np.float32))).asnumpy().tolist())
    show("coo_mul_div_neg", lambda: ((coo * ms.Tensor(np.full((3, 4), 2, np.float32))).values.asnumpy().tolist(),
                                     (coo / ms.Tensor(np.full((3, 4), 2, np.float32))).values.asnumpy().tolist(),
                                     (-coo).values.asnumpy().tolist()))
    repeated = ms.Tensor([[0, 1], [0, 1]], ms.int64)
    show("coo_repeated_to_dense", lambda: ms.COOTensor(repeated, values, (3, 4)).to_dense().asnumpy().tolist())
    show("coo_coalesce", lambda: ms.COOTensor(repeated, values, (3, 4)).coalesce())
    show("coo_bad_count", lambda: ms.COOTensor(ms.Tensor([[0, 1]], ms.int32), values, (3, 4)))
    show("coo_float_indices", lambda: ms.COOTensor(ms.Tensor([[0., 1], [1, 2]], ms.float32), values, (3, 4)))
    show("coo_3d", lambda: ms.COOTensor(indices, values, (2, 2, 2)))


def register_cases():
    from mindspore._extends import cell_attr_register
    from mindspore.train.callback import _callback, _set_cur_net

    class Bare(nn.Cell):
        @cell_attr_register
        def __init__(self, a, b=2, *, c=3):
            super().__init__()

    class Named(nn.Cell):
        @cell_attr_register(attrs=["has_bias", "activation", "missing"])
        def __init__(self, a):
            super().__init__()
            self.has_bias = True
            self.activation = "relu"

    class Numbered(nn.Cell):
        @cell_attr_register(attrs=5)
        def __init__(self, a):
            super().__init__()

    show("cell_attr_register_bare", lambda: Bare(1, c=5).cell_init_args)
    show("cell_attr_register_attrs", lambda: Named(1).cell_init_args)
    show("cell_attr_register_bad", lambda: Numbered(1))
    show("set_cur_net", lambda: (_set_cur_net(Named(1)), type(_callback.CUR_NET).__name__))


def profiler_cases():
    from mindspore.profiler import AicoreMetrics, ProfilerActivity, ProfilerLevel
    from mindspore.profiler.schedule import ProfilerAction
    cycle = ms.profiler.schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    show("schedule_actions", lambda: [cycle(step).name for step in range(7)])
    show("schedule_repr", lambda: cycle)
    show("schedule_to_dict", cycle.to_dict)
    show("schedule_invalid_reset", lambda: repr(ms.profiler.schedule(wait=-1, active=0, warmup=1.5)))
    show("schedule_negative_step", lambda: cycle(-1))
    show("schedule_forever", lambda: [ms.profiler.schedule(wait=0, active=2)(step).name for step in range(5)])
    show("profiler_enums", lambda: (ProfilerLevel.Level0.value, ProfilerActivity.CPU.value,
                                    AicoreMetrics.AiCoreNone.value, ProfilerAction.RECORD_AND_SAVE.value,
                                    ProfilerAction.get_by_value(1)))
    config = ms.profiler._ExperimentalConfig()
    show("experimental_config_defaults", lambda: (config.profiler_level, config.aic_metrics, config.l2_cache,
                                                  config.mstx, config.data_simplification, config.export_type))
    # profile(...) itself: on this CPU build MindSpore 2.10 logs "Call to step failed" (its Ascend path manager
    # is not set up) and writes nothing, so its schedule-driven hand-overs are taken from its transition table.


def runtime_and_parallel_context_cases():
    import mindspore.hal as hal
    import mindspore.runtime as rt
    from mindspore.parallel import _cost_model_context as cost_model, _utils as parallel_utils
    show("runtime_memory", lambda: (rt.memory_allocated(), rt.max_memory_allocated(), rt.memory_reserved(),
                                    rt.max_memory_reserved(), rt.reset_peak_memory_stats(),
                                    rt.reset_max_memory_allocated(), rt.reset_max_memory_reserved(),
                                    rt.empty_cache()))
    show("runtime_memory_stats", rt.memory_stats)
    show("hal_device_properties", lambda: (hal.get_device_properties(0), hal.get_device_properties(0, "CPU"),
                                           hal.get_device_capability(0)))
    show("hal_device_properties_gpu", lambda: hal.get_device_properties(0, "GPU"))
    show("hal_device_properties_negative", lambda: hal.get_device_properties(-1))
    show("hal_device_properties_str", lambda: hal.get_device_properties("a"))
    show("hal_device_properties_tpu", lambda: hal.get_device_properties(0, "TPU"))
    show("parallel_utils", lambda: (parallel_utils._get_enable_parallel_optimizer(),
                                    parallel_utils._get_pipeline_stages(), parallel_utils._get_global_rank(),
                                    parallel_utils._get_parameter_broadcast(),
                                    parallel_utils._device_number_check("stand_alone", 1)))
    show("device_number_check_bad", lambda: parallel_utils._device_number_check("stand_alone", 2))
    show("cost_model_defaults", lambda: {key: cost_model.get_cost_model_context(key)
                                         for key in cost_model.get_cost_model_context_func_map})
    show("cost_model_flags", lambda: (cost_model._get_multi_subgraphs(), cost_model._get_rp_matmul_mem_coef(),
                                      cost_model._get_algo_single_loop()))
    show("cost_model_set", lambda: (cost_model.set_cost_model_context(costmodel_gamma=0.1),
                                    cost_model.get_cost_model_context("costmodel_gamma"),
                                    cost_model._set_multi_subgraphs(), cost_model._get_multi_subgraphs(),
                                    cost_model._set_rp_matmul_mem_coef(0.5), cost_model._get_rp_matmul_mem_coef()))
    show("cost_model_bad_type", lambda: cost_model.set_cost_model_context(costmodel_gamma="a"))
    show("cost_model_bad_key", lambda: cost_model.set_cost_model_context(foo=1))


class LossNet(nn.Cell):
    """Dense(3, 1) (ones, zeros) and MSE: the network the micro-batch wrappers wrap."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        return self.loss(self.fc(x), y)


def micro_batch_cases():
    from mindspore.parallel.nn import GradAccumulation, MicroBatchInterleaved, Pipeline
    from mindspore.train.train_thor import ConvertModelUtils
    x = ms.Tensor(np.arange(12).reshape(4, 3).astype(np.float32) / 10)
    y = ms.Tensor(np.ones((4, 1), np.float32))
    for wrapper, parts in ((Pipeline, 2), (MicroBatchInterleaved, 2), (GradAccumulation, 4)):
        net = wrapper(LossNet(), parts)
        show(f"{wrapper.__name__}_loss", lambda: float(net(x, y)))
        show(f"{wrapper.__name__}_grads", lambda: [g.asnumpy().tolist() for g in
                                                   ms.grad(net, None, net.trainable_params())(x, y)])
    show("pipeline_indivisible", lambda: Pipeline(LossNet(), 3)(x, y))
    show("pipeline_zero", lambda: Pipeline(LossNet(), 0))
    show("grad_accumulation_function", lambda: GradAccumulation(lambda a: a, 2))
    show("interleaved_float", lambda: MicroBatchInterleaved(LossNet(), 1.5))
    staged = LossNet()
    show("pipeline_stage_config", lambda: (Pipeline(staged, 2, stage_config={"fc": 1}) is not None,
                                           staged.fc.pipeline_stage))
    show("pipeline_stage_config_unknown", lambda: Pipeline(LossNet(), 2, stage_config={"nope": 1}))
    model = object()
    show("convert_to_thor_model_sgd", lambda: ConvertModelUtils.convert_to_thor_model(
        model, None, optimizer=nn.SGD(nn.Dense(2, 2).trainable_params())) is model)


def last_lrs(scheduler):
    """The scheduler's last rates, rounded to float32's 7 digits."""
    return [round(float(lr), 7) for lr in scheduler.get_last_lr()]


def run_scheduler(scheduler, steps, metrics=None):
    """The rates after construction and after each of ``steps`` steps (``step(metric)`` with ``metrics``)."""
    rates = [last_lrs(scheduler)]
    for index in range(steps):
        scheduler.step(*([] if metrics is None else [ms.Tensor(metrics[index])]))
        rates.append(last_lrs(scheduler))
    return rates


def lr_scheduler_cases():
    from mindspore.experimental import optim
    schedulers = optim.lr_scheduler

    def adamw(lr=0.1):
        return optim.AdamW(nn.Dense(2, 1, weight_init="ones", bias_init="zeros").trainable_params(), lr=lr)

    optimizer = adamw()
    show("optimizer_group_lr", lambda: (type(optimizer.param_groups[0]["lr"]).__name__,
                                        optimizer.param_groups[0]["lr"].name))
    show("optimizer_repr", lambda: repr(optimizer))
    show("lambda_lr_doc", lambda: run_scheduler(schedulers.LambdaLR(optimizer, lambda epoch: 0.9 ** epoch), 3))
    show("lambda_lr_initial_lr", lambda: optimizer.param_groups[0]["initial_lr"])
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    trained = optim.AdamW(net.trainable_params(), lr=0.1)
    halving = schedulers.LambdaLR(trained, lr_lambda=lambda epoch: 0.5 ** epoch)
    loss_fn = nn.MSELoss()
    x = ms.Tensor(np.array([[1., 2.], [3., 4.]], np.float32))
    y = ms.Tensor(np.array([[1.], [2.]], np.float32))

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, trained.parameters)

    def train():
        losses = []
        for _ in range(3):
            loss, grads = grad_fn(x, y)
            trained(grads)
            halving.step()
            losses.append(float(loss))
        return losses, net.weight.asnumpy().tolist()

    show("lambda_lr_training", train)
    show("plateau_min", lambda: run_scheduler(schedulers.ReduceLROnPlateau(adamw(1.0), "min", factor=0.5, patience=1),
                                              9, [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]))
    show("plateau_max_abs_cooldown", lambda: run_scheduler(schedulers.ReduceLROnPlateau(
        adamw(1.0), "max", factor=0.1, patience=0, threshold=0.1, threshold_mode="abs", cooldown=1, min_lr=0.05),
        7, [1.0, 1.05, 1.2, 1.0, 1.0, 1.0, 1.0]))
    show("plateau_bad_mode", lambda: schedulers.ReduceLROnPlateau(adamw(), "avg"))
    show("plateau_bad_factor", lambda: schedulers.ReduceLROnPlateau(adamw(), factor=1.0))
    show("cosine", lambda: run_scheduler(schedulers.CosineAnnealingLR(adamw(), T_max=4, eta_min=0.01), 9))

    def sequential():
        optimizer = adamw()
        warmup = schedulers.LambdaLR(optimizer, lr_lambda=lambda epoch: (epoch + 1) / 3)
        cosine = schedulers.CosineAnnealingLR(optimizer, T_max=4, eta_min=0.0)
        return run_scheduler(schedulers.SequentialLR(optimizer, schedulers=[warmup, cosine], milestones=[2]), 7)

    show("sequential", sequential)
    show("cyclic_triangular", lambda: run_scheduler(schedulers.CyclicLR(adamw(), base_lr=0.01, max_lr=0.1,
                                                                        step_size_up=2), 6))
    show("cyclic_triangular2", lambda: run_scheduler(schedulers.CyclicLR(
        adamw(), base_lr=0.01, max_lr=0.1, step_size_up=1, step_size_down=2, mode="triangular2"), 7))
    show("cyclic_exp_range", lambda: run_scheduler(schedulers.CyclicLR(
        adamw(), base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9), 5))
    show("cyclic_bad_mode", lambda: schedulers.CyclicLR(adamw(), base_lr=0.01, max_lr=0.1, mode="x"))
    show("lambda_lr_count", lambda: schedulers.LambdaLR(adamw(), [lambda e: 1, lambda e: 1]))


DEVICE_MATRIX = [2, 2]
TENSOR_MAPS = {"weight": [1, 0], "bias": [1]}


def rank_slice(full, tensor_map, rank):
    """Rank ``rank``'s slice of ``full`` under DEVICE_MATRIX and ``tensor_map`` (the layout convention tested:
    MindSpore merging these slices back must give ``full``)."""
    coordinates = np.unravel_index(rank, DEVICE_MATRIX)
    index = []
    for size, axis in zip(full.shape, tensor_map):
        count = 1 if axis < 0 else DEVICE_MATRIX[len(DEVICE_MATRIX) - 1 - axis]
        position = 0 if axis < 0 else coordinates[len(DEVICE_MATRIX) - 1 - axis]
        index.append(slice(position * (size // count), (position + 1) * (size // count)))
    return full[tuple(index)].copy()


def distributed_checkpoint_cases(folder="/tmp/observe_mindspore_misc_dist"):
    import os
    os.makedirs(os.path.join(folder, "stages"), exist_ok=True)
    weight = np.arange(24, dtype=np.float32).reshape(6, 4)
    bias = np.arange(6, dtype=np.float32) * 10
    strategy = ms.train.node_strategy_pb2.ParallelStrategyMap()
    strategy.current_stage = 1
    item = strategy.parallel_strategy_item.add()
    item.node_name = "MatMul-op0"
    item.parallel_strategys.stage = 0
    for name, tensor_map in TENSOR_MAPS.items():
        layout_item = strategy.parallel_layout_item.add()
        layout_item.param_name = name
        layout = layout_item.parallel_layouts
        layout.dev_matrix.add().dim.extend(DEVICE_MATRIX)
        layout.tensor_map.add().dim.extend(tensor_map)
        layout.param_split_shape.add()
        layout.indices_offset.add()
        layout.field = layout.opt_weight_shard_step = layout.opt_weight_shard_size = 0
    strategy_file = os.path.join(folder, "strategy.ckpt")
    with open(strategy_file, "wb") as file:
        file.write(strategy.SerializeToString())
    files = []
    for rank in range(4):
        files.append(os.path.join(folder, f"rank_{rank}.ckpt"))
        ms.save_checkpoint([{"name": "weight", "data": ms.Tensor(rank_slice(weight, TENSOR_MAPS["weight"], rank))},
                            {"name": "bias", "data": ms.Tensor(rank_slice(bias, TENSOR_MAPS["bias"], rank))}],
                           files[-1])
    net = nn.Dense(4, 6, weight_init="zeros", bias_init="zeros")
    show("load_distributed_checkpoint", lambda: (ms.load_distributed_checkpoint(
        net, files, None, train_strategy_filename=strategy_file), net.weight.asnumpy().tolist(),
        net.bias.asnumpy().tolist()))
    show("load_distributed_checkpoint_count", lambda: ms.load_distributed_checkpoint(
        net, files[:2], None, train_strategy_filename=strategy_file))
    show("load_distributed_checkpoint_no_strategy", lambda: ms.load_distributed_checkpoint(net, files, None))
    show("load_distributed_checkpoint_not_cell", lambda: ms.load_distributed_checkpoint(1, files, None))
    show("load_distributed_checkpoint_missing_file", lambda: ms.load_distributed_checkpoint(
        net, [os.path.join(folder, "nope.ckpt")], None))
    searched = ms.build_searched_strategy(strategy_file)
    show("build_searched_strategy", lambda: (sorted(searched), list(searched["weight"].dev_matrix[0].dim),
                                             list(searched["weight"].tensor_map[0].dim)))
    pieces = [ms.Parameter(ms.Tensor(rank_slice(weight, TENSOR_MAPS["weight"], rank)), "weight") for rank in range(4)]
    show("merge_sliced_parameter_strategy", lambda: ms.merge_sliced_parameter(pieces, searched).asnumpy().tolist())
    show("merge_sliced_parameter_concat", lambda: ms.merge_sliced_parameter(pieces).shape)
    with open(os.path.join(folder, "stages", "stage0.ckpt"), "wb") as file:
        file.write(strategy.SerializeToString())
    strategy.parallel_strategy_item[0].parallel_strategys.stage = 1
    with open(os.path.join(folder, "stages", "stage1.ckpt"), "wb") as file:
        file.write(strategy.SerializeToString())
    merged_file = os.path.join(folder, "merged", "merged.ckpt")
    ms.merge_pipeline_strategys(os.path.join(folder, "stages"), merged_file)
    merged = ms.train.node_strategy_pb2.ParallelStrategyMap()
    with open(merged_file, "rb") as file:
        merged.ParseFromString(file.read())
    show("merge_pipeline_strategys", lambda: (merged.current_stage, [i.param_name for i in merged.parallel_layout_item],
                                              len(merged.parallel_strategy_item)))
    show("merge_pipeline_strategys_not_dir", lambda: ms.merge_pipeline_strategys(os.path.join(folder, "nope"),
                                                                                 merged_file))
    for rank, path in enumerate(files):
        os.makedirs(os.path.join(folder, "src", f"rank_{rank}"), exist_ok=True)
        os.replace(path, os.path.join(folder, "src", f"rank_{rank}", "net.ckpt"))

    def transformed(target, prefix, rank):
        return {name: value.asnumpy().tolist() for name, value in
                ms.load_checkpoint(os.path.join(folder, target, f"rank_{rank}", f"{prefix}{rank}.ckpt")).items()}

    show("transform_checkpoints_to_one", lambda: (ms.transform_checkpoints(
        os.path.join(folder, "src"), os.path.join(folder, "one"), "merged_", strategy_file, None),
        transformed("one", "merged_", 0)))
    show("transform_checkpoints_to_four", lambda: (ms.transform_checkpoints(
        os.path.join(folder, "one"), os.path.join(folder, "back"), "sliced_", None, strategy_file),
        transformed("back", "sliced_", 3)))
    show("transform_checkpoints_empty", lambda: ms.transform_checkpoints(strategy_file, folder, "p"))


def checkparam_cases():
    from mindspore import _checkparam as validator
    show("checkparam_relations", lambda: (validator.EQ, validator.GT, validator.LE))
    show("check_int_range", lambda: validator.check_int_range(3, 1, 5, validator.INC_BOTH, "x"))
    show("check_int_range_outside", lambda: validator.check_int_range(7, 1, 5, validator.INC_BOTH, "x", "P"))
    show("check_int_range_float", lambda: validator.check_int_range(7.0, 1, 5, validator.INC_LEFT, "x", "P"))
    show("check_type_name", lambda: validator.check_type_name("a", ms.float32, [ms.float32, ms.float16], "P"))
    show("check_type_name_bad", lambda: validator.check_type_name("a", ms.int32, [ms.float32, ms.float16], "P"))
    show("check_type_name_one", lambda: validator.check_type_name("a", ms.int32, ms.float32, "P"))
    show("check_eq", lambda: validator.check("a", 1, "b", 1, validator.EQ, "P"))
    show("check_eq_bad", lambda: validator.check("a", 1, "b", 2, validator.EQ, "P"))
    show("check_le_spaced_name", lambda: validator.check("x rank", 3, "y rank", 2, validator.LE))
    show("check_number", lambda: validator.check_number("a", 3, 2, validator.GT, "P"))
    show("check_number_bad", lambda: validator.check_number("a", 1, 2, validator.GT, "P"))
    show("check_string", lambda: validator.check_string("a", ["a", "b"], "x", "P"))
    show("check_string_bad", lambda: validator.check_string("c", ["a", "b"], "x", "P"))
    show("check_string_unnamed", lambda: validator.check_string(3, ["a", "b"]))
    show("get_current_device", lambda: (ms.get_current_device(), ms.get_current_device().device_target,
                                        ms.get_current_device().device_id))


def mindrecord_cases():
    # Cifar10ToMR itself needs OpenCV (cv2), which this MindSpore environment lacks: only its error is recorded
    from mindspore.mindrecord.common.exceptions import PathNotExistsError
    show("path_not_exists_error", lambda: str(PathNotExistsError("test_batch")))


def no_device_cases():
    import mindspore.common._stub_tensor as stub
    from mindspore.profiler import mstx
    show("mstx_cpu", lambda: (mstx.mark("x"), mstx.range_start("a"), mstx.range_end(0), mstx.enable))
    show("sync_pipeline_shared_parameters_one_stage", lambda: ms.sync_pipeline_shared_parameters(nn.Dense(2, 2)))
    show("stub_tensor", lambda: (stub.StubTensor.__mro__[1:], isinstance(ms.Tensor(1), stub.StubTensor)))


def on_request_exit_cases(folder="/tmp/observe_mindspore_misc_exit"):
    import os
    import signal

    import mindspore.dataset as ds
    from mindspore.train.callback import Callback, OnRequestExit

    class SignalAtFirstStep(Callback):
        def __init__(self):
            super().__init__()
            self.steps = 0

        def on_train_step_end(self, run_context):
            self.steps += 1
            if self.steps == 1:
                os.kill(os.getpid(), signal.SIGTERM)

    net = nn.Dense(3, 2)
    data = ds.NumpySlicesDataset({"x": np.ones((4, 3), np.float32), "y": np.zeros((4, 2), np.float32)},
                                 shuffle=False).batch(2)
    model = ms.train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    counter = SignalAtFirstStep()
    previous = signal.getsignal(signal.SIGTERM)
    model.train(2, data, callbacks=[OnRequestExit(directory=folder), counter], dataset_sink_mode=False)
    signal.signal(signal.SIGTERM, previous)
    show("on_request_exit_train", lambda: (counter.steps, sorted(os.listdir(os.path.join(folder, "rank_0")))))
    show("on_request_exit_bad_flag", lambda: OnRequestExit(save_ckpt=1))
    show("on_request_exit_sigkill", lambda: OnRequestExit(sig=signal.SIGKILL))


def small_private_cases():
    import sys

    from mindspore.communication import _comm_helper
    serialization = sys.modules["mindspore.train.serialization"]
    initializer = sys.modules["mindspore.common.initializer"]
    symbol = ms.Symbol(divisor=8)
    show("symbol_placeholder", lambda: (ms.Tensor(shape=[symbol, 3], dtype=ms.float32).shape, str(symbol),
                                        sorted(ms.Symbol(max=16, min=2, unique=True).to_dict())))
    show("symbol_min", lambda: ms.Symbol(min=0))
    show("symbol_remainder", lambda: ms.Symbol(divisor=4, remainder=4))
    show("symbol_float", lambda: ms.Symbol(max=1.5))
    show("backend", lambda: (_comm_helper.Backend("hccl"), _comm_helper.Backend("NCCL")))
    show("backend_unknown", lambda: _comm_helper.Backend("gloo"))
    show("initializer_alias", lambda: sorted(initializer._INITIALIZER_ALIAS))
    show("tensor_to_np_type", lambda: [serialization.tensor_to_np_type(name) for name in
                                       ("Int8", "Float32", "Bool", "str", "nope")])
    show("tensor_to_ms_type", lambda: serialization.tensor_to_ms_type["Float16"])
    show("check_isinstance", lambda: serialization.Validator.check_isinstance("network", 1, nn.Cell))
    warnings = []

    class Recorder:
        def warning(self, message):
            warnings.append(message)

    recorder = Recorder()

    @ms.log._LogActionOnce(recorder, "key")
    def warn():
        recorder.warning("w")

    show("log_action_once", lambda: (warn(), warn(), warnings))


def shard_cases():
    net = nn.Dense(2, 2)

    def double(x):
        return x * 2

    show("parallel_shard_one_process", lambda: (ms.parallel.shard(net, in_strategy=((1, 1),)) is net,
                                                ms.parallel.shard(double, in_strategy=((1, 1),)) is double))


if __name__ == "__main__":
    shard_cases()
    small_private_cases()
    on_request_exit_cases()
    no_device_cases()
    mindrecord_cases()
    checkparam_cases()
    distributed_checkpoint_cases()
    lr_scheduler_cases()
    micro_batch_cases()
    runtime_and_parallel_context_cases()
    profiler_cases()
    coo_tensor_cases()
    register_cases()
    auto_parallel_cases()
    private_cases()
    device_context_cases()
