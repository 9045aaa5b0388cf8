"""MindSpore's parallel-strategy protobuf messages (``mindspore.train.node_strategy_pb2``): the format of the
strategy files distributed training saves (``strategy_ckpt_save_file``, ``AutoParallel.save_param_strategy_file``)
and that ``build_searched_strategy``, ``merge_pipeline_strategys`` and ``load_distributed_checkpoint`` read.

The messages are those of MindSpore's ``node_strategy.proto`` (package ``mindspore.straspb``), built at run
time in a private descriptor pool (``core.protofile``)::

    message ParallelStrategy { repeated uint32 dim = 1; }
    message ParallelStrategys { required uint32 stage = 1; repeated ParallelStrategy parallel_strategy = 2; }
    message ParallelStrategyItem { required string node_name = 1; required ParallelStrategys parallel_strategys = 2; }
    message DevMatrix { repeated uint32 dim = 1; }
    message TensorMap { repeated int32 dim = 1; }
    message ParamSplitShape { repeated int64 dim = 1; }
    message IndicesOffset { repeated int64 dim = 1; }
    message ParallelLayouts {
      repeated DevMatrix dev_matrix = 1; repeated TensorMap tensor_map = 2;
      repeated ParamSplitShape param_split_shape = 3; repeated IndicesOffset indices_offset = 4;
      required int32 field = 5; required int32 opt_weight_shard_step = 6; required int32 opt_weight_shard_size = 7;
    }
    message ParallelLayoutItem { required string param_name = 1; required ParallelLayouts parallel_layouts = 2; }
    message ParallelGroupRanks { repeated uint32 dim = 1; }
    message ParallelGroupItem { required string group_name = 1; required ParallelGroupRanks parallel_group_ranks = 2; }
    message ParallelGroupMap {
      repeated ParallelGroupItem parallel_group_item = 1; required ParallelGroupRanks ckpt_restore_rank_list = 2;
    }
    message ParallelStrategyMap {
      required uint32 current_stage = 1; repeated ParallelStrategyItem parallel_strategy_item = 2;
      repeated ParallelLayoutItem parallel_layout_item = 3;
    }

The classes are built on first use, which needs the ``protobuf`` package (ImportError naming it otherwise).
"""
import functools

from ..core.protofile import add_field, field_types, file_descriptor_proto, message_classes

_WHAT = "strategy file"
_PACKAGE = "mindspore.straspb"
_DIMS = {"ParallelStrategy": "TYPE_UINT32", "DevMatrix": "TYPE_UINT32", "TensorMap": "TYPE_INT32",
         "ParamSplitShape": "TYPE_INT64", "IndicesOffset": "TYPE_INT64", "ParallelGroupRanks": "TYPE_UINT32"}
# message -> its fields (name, number, label, type or message name)
_MESSAGES = {
    "ParallelStrategys": [("stage", 1, "REQUIRED", "TYPE_UINT32"),
                          ("parallel_strategy", 2, "REPEATED", "ParallelStrategy")],
    "ParallelStrategyItem": [("node_name", 1, "REQUIRED", "TYPE_STRING"),
                             ("parallel_strategys", 2, "REQUIRED", "ParallelStrategys")],
    "ParallelLayouts": [("dev_matrix", 1, "REPEATED", "DevMatrix"), ("tensor_map", 2, "REPEATED", "TensorMap"),
                        ("param_split_shape", 3, "REPEATED", "ParamSplitShape"),
                        ("indices_offset", 4, "REPEATED", "IndicesOffset"), ("field", 5, "REQUIRED", "TYPE_INT32"),
                        ("opt_weight_shard_step", 6, "REQUIRED", "TYPE_INT32"),
                        ("opt_weight_shard_size", 7, "REQUIRED", "TYPE_INT32")],
    "ParallelLayoutItem": [("param_name", 1, "REQUIRED", "TYPE_STRING"),
                           ("parallel_layouts", 2, "REQUIRED", "ParallelLayouts")],
    "ParallelGroupItem": [("group_name", 1, "REQUIRED", "TYPE_STRING"),
                          ("parallel_group_ranks", 2, "REQUIRED", "ParallelGroupRanks")],
    "ParallelGroupMap": [("parallel_group_item", 1, "REPEATED", "ParallelGroupItem"),
                         ("ckpt_restore_rank_list", 2, "REQUIRED", "ParallelGroupRanks")],
    "ParallelStrategyMap": [("current_stage", 1, "REQUIRED", "TYPE_UINT32"),
                            ("parallel_strategy_item", 2, "REPEATED", "ParallelStrategyItem"),
                            ("parallel_layout_item", 3, "REPEATED", "ParallelLayoutItem")],
}


def _file_descriptor():
    field = field_types(_WHAT)
    proto = file_descriptor_proto("node_strategy.proto", package=_PACKAGE, what=_WHAT)
    for name, dim_type in _DIMS.items():
        add_field(proto.message_type.add(name=name), "dim", 1, field.LABEL_REPEATED, getattr(field, dim_type))
    for name, fields in _MESSAGES.items():
        message = proto.message_type.add(name=name)
        for field_name, number, label, kind in fields:
            if kind.startswith("TYPE_"):
                add_field(message, field_name, number, getattr(field, "LABEL_" + label), getattr(field, kind))
            else:
                add_field(message, field_name, number, getattr(field, "LABEL_" + label), field.TYPE_MESSAGE,
                          f".{_PACKAGE}.{kind}")
    return proto


_NAMES = [*_DIMS, *_MESSAGES]

__all__ = sorted(_NAMES)


@functools.lru_cache(maxsize=None)
def _classes() -> dict:
    return dict(zip(_NAMES, message_classes(_file_descriptor(), [f"{_PACKAGE}.{name}" for name in _NAMES], _WHAT)))


def __getattr__(name: str):
    """The message class ``name``, built on first use (it needs protobuf: ImportError naming it otherwise)."""
    if name in _NAMES:
        return _classes()[name]
    raise AttributeError(f"module 'mindspore.train.node_strategy_pb2' has no attribute {name!r}")
