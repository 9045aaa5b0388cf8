"""Checkpoints in MindSpore's own file formats: ``save_checkpoint``, ``load_checkpoint``,
``load_param_into_net``; ``export`` (``npspore.export``: a network to an ONNX or MindIR model) and ``load``
of a MindIR graph (``mindir_decode``).

``format="ckpt"`` writes MindSpore's protobuf ``Checkpoint`` messages (see ``checkpoint_proto``), one
message per Parameter, exactly as MindSpore 2.10 writes them, so real MindSpore reads npspore's files
and npspore reads MindSpore's. ``format="safetensors"`` writes a safetensors file with MindSpore's
metadata ``{"format": "ms"}``. The ``protobuf`` and ``safetensors`` packages are imported only when a
file of that format is read or written (``pip install 'npspore[checkpoint]'``).
"""
import binascii
import os

import numpy as np

from .. import context  # noqa: F401  (train.serialization.context, as MindSpore's module has it)
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..core.logs import warn
from ..core.safefile import FileReadError, write_durably
from ..export import export
from .checkpoint_decode import CRC_MARK, STRING_TYPE, read_ckpt, read_safetensors, safetensors_crc, safetensors_module
from .checkpoint_proto import checkpoint_message
from .mindir_decode import read_mindir
from ..nn.graph_cell import MindIRGraph

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "export", "load"]

_LOG = "npspore.checkpoint"   # the logger's name

_FORMATS = ("ckpt", "safetensors")
# MindSpore splits a Parameter larger than this many KB into several messages of the same tag.
_SLICE_SIZE_KB = 512 * 1024


# ---------------------------------------------------------------------------------------- saving

def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt",
                    **kwargs):
    """Save Parameters to a checkpoint file that MindSpore can load.

    Args:
        save_obj (Union[Cell, list, dict]): a Cell (all its Parameters), a list of Parameters (such as
            ``net.trainable_params()``) or of ``{"name": str, "data": Tensor}`` dicts, or a dict of
            name -> Parameter/Tensor/ndarray/str (such as what :func:`load_checkpoint` returns).
        ckpt_file_name (str): the file; ``".ckpt"`` (or ``".safetensors"``) is appended when the name
            does not end with the format. An existing file is replaced atomically: the data goes to a
            new file created in the same directory, which is ``fsync``-ed and renamed over the name (a
            symlink of that name is replaced, never followed), and the directory is ``fsync``-ed, so a
            crash leaves the old file or the complete new one. The file has mode 0600.
        integrated_save (bool): accepted for compatibility (there is no model parallelism to merge).
        async_save (Union[bool, str]): accepted; the file is always complete when the call returns.
        append_dict (dict): extra entries, str -> int/float/bool/str/Tensor (ints become Int64 scalars,
            floats Float32 scalars, as in MindSpore).
        enc_key (bytes): must be None; encrypted checkpoints are not supported.
        enc_mode (str): ignored when ``enc_key`` is None.
        choice_func (callable): ``choice_func(name) -> bool`` keeps only the Parameters it accepts.
        crc_check (bool): append MindSpore's CRC-32 record (``.ckpt``) or metadata (``.safetensors``).
        format (str): ``"ckpt"`` or ``"safetensors"``.

    Raises:
        TypeError: if ``save_obj``, ``ckpt_file_name``, ``append_dict`` or an entry has the wrong type.
        ValueError: if ``format`` is not ``"ckpt"`` or ``"safetensors"``.
        IsADirectoryError: if ``ckpt_file_name`` is a directory.
        NotImplementedError: if ``enc_key`` is given.
        ImportError: if protobuf (``.ckpt``) or safetensors (``.safetensors``) is not installed.
    """
    ckpt_file_name = _checked_save_path(save_obj, ckpt_file_name, format)
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', npspore does not support encrypted checkpoints "
                                  "('enc_key' must be None).")
    if not isinstance(crc_check, bool):
        raise TypeError(f"For 'save_checkpoint', 'crc_check' must be bool, but got {type(crc_check)}.")
    entries = _entries_of(save_obj, choice_func) + _entries_of_append_dict(append_dict)
    if format == "ckpt":
        write_durably(ckpt_file_name, lambda file: _write_ckpt(file, entries, crc_check))
    else:
        content = _safetensors_bytes(entries, crc_check)
        write_durably(ckpt_file_name, lambda file: file.write(content))


def _checked_save_path(save_obj, ckpt_file_name, format):
    if format not in _FORMATS:
        raise ValueError(f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got {format}.")
    from ..nn.cell import Cell

    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, "
                        f"but got {type(save_obj)}.")
    if not isinstance(ckpt_file_name, str):
        raise TypeError("For 'save_checkpoint', 'ckpt_file_name' must be string, "
                        f"but got {type(ckpt_file_name)}.")
    # The directory is resolved, the file's own name is not: a symlink there is replaced, not followed.
    directory, name = os.path.split(os.path.abspath(ckpt_file_name))
    ckpt_file_name = os.path.join(os.path.realpath(directory), name)
    if os.path.isdir(ckpt_file_name) and not os.path.islink(ckpt_file_name):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {ckpt_file_name} "
                                "is a directory, it must be a file name.")
    if not ckpt_file_name.endswith(format):
        ckpt_file_name += f".{format}"
    return ckpt_file_name


def _entries_of(save_obj, choice_func):
    """``[(name, ndarray or str)]`` in the order MindSpore saves them."""
    def chosen(name):
        return choice_func is None or choice_func(name)

    if isinstance(save_obj, dict):
        entries = []
        for name, value in save_obj.items():
            if not isinstance(name, str) or not isinstance(value, (Tensor, np.ndarray, str)):
                raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key should be str "
                                "and value should be Parameter, Tensor, numpy.ndarray or str, but got the type "
                                f"of key is {type(name)} and the type of value is {type(value)}.")
            if chosen(name):
                entries.append((name, value if isinstance(value, str) else _as_array(value)))
        return entries
    if isinstance(save_obj, list):
        return [(name, _as_array(data)) for name, data in _named_list(save_obj) if chosen(name)]
    return [(param.name, _as_array(param)) for _, param in save_obj.parameters_and_names() if chosen(param.name)]


def _named_list(save_obj):
    for item in save_obj:
        if isinstance(item, Parameter):
            yield item.name, item
        elif isinstance(item, dict) and "name" in item and "data" in item:
            if not isinstance(item["name"], str):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the name in dict "
                                f"should be string, but got {type(item['name'])}.")
            if not isinstance(item["data"], Tensor):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the data in dict "
                                f"should be parameter, but got {type(item['data'])}.")
            yield item["name"], item["data"]
        else:
            raise TypeError("For save_checkpoint, save_obj should be a list of Parameters or of dicts with "
                            f"the keys 'name' and 'data', but got {type(item)}: {item!r}.")


def _entries_of_append_dict(append_dict):
    if append_dict is None:
        return []
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got {type(append_dict)}.")
    entries = []
    for name, value in append_dict.items():
        if not isinstance(name, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: "
                            f"int, float, bool, str or Tensor, but got key: {type(name)}, value: {type(value)}.")
        entries.append((name, value if isinstance(value, str) else _as_array(Tensor(value))))
    return entries


def _as_array(value):
    return value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)


def _type_name(array):
    """MindSpore's name of the array's dtype ("Float32", "Bool", ...)."""
    return str(mstype.nptype_to_dtype(array.dtype))


def _messages_for(name, value):
    """The serialized ``Checkpoint`` messages for one entry, as MindSpore writes them."""
    if isinstance(value, str):
        dims, type_name, slices = [0], STRING_TYPE, [np.array(value)]
    else:
        dims, type_name = list(value.shape), _type_name(value)
        slice_count = -(-value.nbytes // (_SLICE_SIZE_KB * 1024))
        slices = np.array_split(value, slice_count) if slice_count > 1 else [value]
    for piece in slices:
        message = checkpoint_message()()
        entry = message.value.add()
        entry.tag = name
        entry.tensor.dims.extend(dims)
        entry.tensor.tensor_type = type_name
        entry.tensor.tensor_content = piece.tobytes()
        yield message.SerializeToString()


def _write_ckpt(file, entries, crc_check):
    crc = 0
    for name, value in entries:
        for data in _messages_for(name, value):
            crc = binascii.crc32(data, crc)
            file.write(data)
    if crc_check:
        file.write(CRC_MARK + crc.to_bytes(10, byteorder="big"))


def _safetensors_bytes(entries, crc_check):
    """The content of a .safetensors file holding ``entries``, with MindSpore's metadata."""
    tensors = {}
    for name, value in entries:
        if isinstance(value, str):
            raise TypeError(f"For 'save_checkpoint', a str entry ('{name}') cannot be saved in the safetensors "
                            "format; use format='ckpt'.")
        tensors[name] = value
    metadata = {"format": "ms"}
    if crc_check:
        metadata["crc_num"] = str(safetensors_crc((name, array.tobytes()) for name, array in tensors.items()))
    return safetensors_module().numpy.save(tensors, metadata=metadata if tensors else None)


# --------------------------------------------------------------------------------------- loading

def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):
    """Load a MindSpore checkpoint file into a dict of Parameters (and into ``net`` when given).

    Args:
        ckpt_file_name (str): the file; its name must end with ``format``.
        net (Cell): when given, the Parameters are loaded into it with :func:`load_param_into_net`.
        strict_load (bool): passed to :func:`load_param_into_net`.
        filter_prefix (Union[str, list[str], tuple[str]]): skip entries whose names start with one of these.
        dec_key (bytes): must be None; encrypted checkpoints are not supported.
        dec_mode (str): ignored when ``dec_key`` is None.
        specify_prefix (Union[str, list[str], tuple[str]]): load only entries starting with one of these.
        choice_func (callable): ``choice_func(name) -> bool``; used when neither prefix argument is given.
        crc_check (bool): verify the CRC-32 record a file saved with ``crc_check=True`` carries.
        remove_redundancy (bool): accepted for compatibility.
        format (str): ``"ckpt"`` or ``"safetensors"``.

    Only a regular file is read (a FIFO or a device, also behind a symlink, is refused at once), and
    memory stays bounded by the file's size: a declared shape must match the data the file holds.
    The slices of a large Parameter are decoded each by its own type and joined. ``BFloat16`` data
    loads as a Float32 Parameter with the same values (NumPy has no bfloat16; the widening is exact).

    Returns:
        dict: name -> Parameter (named after its entry), or -> str for string entries, in file order
        (``.ckpt``) or sorted by name (``.safetensors``).

    Raises:
        ValueError: if the file does not exist, or nothing is left after filtering.
        FileReadError: (a ValueError, from ``npspore.core.safefile``) if the file is not a regular
            file, is not a checkpoint of that format, is truncated or otherwise malformed, or fails
            its CRC check; the message and the error's ``path`` name the file.
        TypeError: if ``ckpt_file_name`` is not a str or a prefix is not a str.
    """
    specify_prefix = _checked_prefix(specify_prefix)
    filter_prefix = _checked_prefix(filter_prefix)
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', npspore does not support encrypted checkpoints "
                                  "('dec_key' must be None).")
    ckpt_file_name = _checked_load_path(ckpt_file_name, format)
    if specify_prefix is None and filter_prefix is None:
        def wanted(name):
            return choice_func is None or choice_func(name)
    else:
        def wanted(name):
            specified = specify_prefix is None or name.startswith(specify_prefix)
            return specified and not (filter_prefix is not None and name.startswith(filter_prefix))

    read = read_ckpt if format == "ckpt" else read_safetensors
    parameter_dict = {}
    for name, value in read(ckpt_file_name, crc_check, wanted):
        parameter_dict[name] = value if isinstance(value, str) else _parameter(ckpt_file_name, name, value)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load)
    return parameter_dict


def _parameter(path, name, array):
    try:
        return Parameter(array, name=name)
    except ValueError as error:  # a name longer than a Parameter's
        raise FileReadError(path, f"Failed to read the checkpoint file {path}: {error}") from None


def _checked_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {type(prefix)}.")
    prefix = (prefix,) if isinstance(prefix, str) else tuple(prefix)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty "
                         "when 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, item in enumerate(prefix):
        if not isinstance(item, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                            f"the element in it must be string, but got {type(item)} at index {index}.")
        if item == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' "
                             "can't include ''.")
    return prefix


def _checked_load_path(ckpt_file_name, format):
    if format not in _FORMATS:
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', "
                         "please input the correct 'format'.")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, "
                        f"but got {type(ckpt_file_name)}.")
    if not ckpt_file_name.endswith(format):
        raise ValueError("For 'load_checkpoint', the checkpoint file format must same with 'format', "
                         f"but got file_name:'{ckpt_file_name}', format:'{format}'")
    if not os.path.exists(ckpt_file_name):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {ckpt_file_name} does not exist, please "
                         "check whether the 'ckpt_file_name' is correct.")
    return ckpt_file_name


# ------------------------------------------------------------------------- loading into a network

def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Copy the values of ``parameter_dict`` into the Parameters of ``net`` with the same names.

    When ``strict_load`` is False, Parameters still missing are looked up once more with a prefix the
    checkpoint's names carry in front of the network's (``"backbone.dense.weight"`` for
    ``"dense.weight"``), and float (or int) values of another width are cast to the Parameter's dtype
    with MindSpore's warning (logger ``npspore.checkpoint``); when values do not survive the cast (an
    int out of range wraps, a finite float becomes inf), the warning says how many and shows one.

    Args:
        net (Cell): the network.
        parameter_dict (dict): name -> Parameter, as :func:`load_checkpoint` returns.
        strict_load (bool): require equal dtypes and exact names.
        remove_redundancy (bool): accepted for compatibility.

    Returns:
        tuple(list, list): ``(param_not_load, ckpt_not_load)``: names of the network's Parameters that
        got no value, and names in ``parameter_dict`` that were not used.

    Raises:
        TypeError: if ``net`` is not a Cell or ``parameter_dict`` not a dict of str -> Parameter/str.
        RuntimeError: if a value's shape (or, under ``strict_load``, dtype) differs from the Parameter's;
            the message names the Parameter and both shapes (dtypes).
    """
    from ..nn.cell import Cell

    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                        f"but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a "
                            f"'str' and 'Parameter' , but got {type(key)} and {type(value)}.")
    if not isinstance(strict_load, bool):
        raise TypeError(f"For 'load_param_into_net', 'strict_load' must be bool, but got {type(strict_load)}.")
    param_not_load = []
    ckpt_not_load = list(parameter_dict)
    for _, param in net.parameters_and_names():
        value = parameter_dict.get(param.name)
        if value is None:
            if not param.name.startswith("accu_grads"):
                param_not_load.append(param.name)
            continue
        if isinstance(value, str):
            continue
        _update_param(param, value, strict_load)
        ckpt_not_load.remove(param.name)
    if param_not_load and not strict_load:
        _load_with_prefix(net, parameter_dict, param_not_load, strict_load)
    if param_not_load:
        warn(_LOG, "For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not "
             "in the 'parameter_dict': %s", len(param_not_load), param_not_load)
    return param_not_load, ckpt_not_load


def _load_with_prefix(net, parameter_dict, param_not_load, strict_load):
    """Load the Parameters whose names appear in the checkpoint behind a prefix, one prefix at a time."""
    while param_not_load:
        prefix = next((key[:-len(name)] for name in param_not_load for key, value in parameter_dict.items()
                       if key.endswith(name) and key != name and isinstance(value, Parameter)), None)
        if prefix is None:
            return
        warn(_LOG, "For 'load_param_into_net', remove parameter prefix name: %s, continue to load.", prefix)
        for _, param in net.parameters_and_names():
            if param.name in param_not_load and isinstance(parameter_dict.get(prefix + param.name), Parameter):
                _update_param(param, parameter_dict[prefix + param.name], strict_load)
                param_not_load.remove(param.name)


def _update_param(param, new_param, strict_load):
    """Set ``param``'s data from ``new_param`` (MindSpore's rules for shapes and dtypes)."""
    value = new_param.asnumpy()
    if value.shape != param.shape:
        extra = value.shape[len(param.shape):]
        if len(value.shape) > len(param.shape) and all(dim == 1 for dim in extra) \
                and value.shape[:len(param.shape)] == param.shape:
            value = value.reshape(param.shape)
        else:
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in the argument "
                f"'net' and shape {value.shape} in the argument 'parameter_dict'.May you need to check whether the "
                "checkpoint you loaded is correct or the batch size and so on in the 'net' and 'parameter_dict' "
                "are same.")
    if param.dtype != new_param.dtype:
        same_kind = ({param.dtype, new_param.dtype} <= set(mstype.float_type)
                     or {param.dtype, new_param.dtype} <= set(mstype.int_type))
        if strict_load or not same_kind:
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
                f"{param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the argument "
                f"'net' and type {new_param.dtype} in the argument 'parameter_dict'.May you need to check whether "
                "the checkpoint you loaded is correct.")
        value = _converted(param, new_param, value)
    param.set_data(Tensor(value))


def _converted(param, new_param, value):
    """``value`` cast to ``param``'s dtype, warned about as MindSpore does (and louder when values change)."""
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below, with the values
        converted = value.astype(mstype.dtype_to_nptype(param.dtype))
    message = (f"The type of {new_param.name}:{new_param.dtype} in 'parameter_dict' is different from the type of it "
               f"in 'net':{param.dtype}, then the type convert from {new_param.dtype} to {param.dtype} in the "
               "network. May consume additional memory and time")
    if np.issubdtype(converted.dtype, np.integer):
        changed = converted != value  # compared exactly, in the wider type
    else:
        changed = np.isinf(converted) & np.isfinite(value)
    if changed.any():
        index = tuple(int(i) for i in np.argwhere(changed)[0])
        message += (f". {int(changed.sum())} of its values do not fit {param.dtype} and change, such as "
                    f"{value[index].item()} at {list(index)}, which becomes {converted[index].item()}")
    warn(_LOG, "%s.", message)
    return converted


def load(file_name: str, **kwargs) -> MindIRGraph:
    """Load a MindIR file (MindSpore's ``mindspore.load``); run the graph with ``nn.GraphCell(graph)``.

    Args:
        file_name (str): the ``.mindir`` file, written by ``export(..., file_format="MINDIR")`` of
            npspore or of MindSpore.
        kwargs: MindSpore's ``dec_key``, ``dec_mode`` and ``obf_func`` (encrypted and obfuscated
            files), which npspore does not read: giving one raises ValueError.

    Returns:
        MindIRGraph: the graph, its Parameters and its inputs.

    Raises:
        ValueError: if ``file_name`` is not a string naming a ``.mindir`` file (``FileReadError``
            when the file cannot be read, is damaged, or uses a primitive npspore does not run,
            named in the message), or ``kwargs`` asks for decryption.
    """
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name).__name__}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', please input "
                         f"the correct 'file_name', but got {file_name}.")
    unsupported = sorted(name for name in kwargs if kwargs[name] is not None)
    if unsupported:
        raise ValueError(f"For 'load', npspore reads neither encrypted nor obfuscated MindIR files, but got {unsupported}.")
    return read_mindir(file_name)


# the checkpoint type names' tables and the argument checks MindSpore's module holds
from .. import _checkparam as Validator  # noqa: E402,N812  (MindSpore's name)

tensor_to_ms_type = {"Int8": mstype.int8, "UInt8": mstype.uint8, "Int16": mstype.int16, "UInt16": mstype.uint16,
                     "Int32": mstype.int32, "UInt32": mstype.uint32, "Int64": mstype.int64, "UInt64": mstype.uint64,
                     "Float16": mstype.float16, "Float32": mstype.float32, "Float64": mstype.float64,
                     "Bool": mstype.bool_, "str": mstype.string, "BFloat16": mstype.bfloat16}
_TENSOR_TO_NP_TYPE = {"Int8": np.int8, "UInt8": np.uint8, "Int16": np.int16, "UInt16": np.uint16, "Int32": np.int32,
                      "UInt32": np.uint32, "Int64": np.int64, "UInt64": np.uint64, "Float16": np.float16,
                      "Float32": np.float32, "Float64": np.float64, "Bool": np.bool_, "str": "U"}


def tensor_to_np_type(tensor_type_str: str):
    """The NumPy type of the checkpoint type name ``tensor_type_str`` (``"Float32"`` -> ``numpy.float32``,
    ``"str"`` -> ``"U"``); None for an unknown name.

    Raises:
        TypeError: for ``"BFloat16"``: NumPy (and so npspore) has no bfloat16 type.
    """
    if tensor_type_str == "BFloat16":
        raise TypeError("npspore cannot hold BFloat16 data: NumPy has no bfloat16 type.")
    return _TENSOR_TO_NP_TYPE.get(tensor_type_str)
