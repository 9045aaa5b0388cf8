"""``nn.Cell``: the base class of every network, as ``mindspore.nn.Cell`` defines it.

A Cell owns three ordered tables that ``__setattr__`` fills: ``_params`` (Parameters, keyed by
attribute name), ``_cells`` (sub-cells) and ``_buffers`` (non-trainable state Tensors). Parameter
names are attribute paths: assigning a sub-cell to ``self.sub`` renames every parameter inside it
to ``'sub.' + <its path inside the sub-cell>`` when ``auto_prefix`` is on. Calling a Cell runs
``construct`` eagerly in PYNATIVE mode (with forward hooks and ``to_float`` casts) and hands it to
the compiler (``npspore.jit``) in GRAPH mode or when the cell is marked jitted.
"""
from __future__ import annotations

import inspect
from collections import OrderedDict, namedtuple
from typing import Any

import numpy as np

from npspore import context as _context
from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter, ParameterTuple
from npspore.common.tensor import Tensor
from npspore.compiler.errors import CompileError, without_internal_frames
from npspore.compiler.kernel import HookVersions
from npspore.compiler.library import LIBRARY, RECORDERS, CellParts, check_attribute_not_traced
from npspore.core.constructs import Constructs, P, R
from npspore.jit import KERNELS_ATTRIBUTE, call_cell, cell_cache_info, compile_cell

__all__ = ["Cell", "Buffer"]

# Attribute names the framework owns; the seed page forbids subclasses to redefine them.
_RESERVED_ATTRIBUTES = frozenset({"phase", "cells"})
# to_float's flags and the dtype each selects.
_MIXED_PRECISION = (("fp16", mstype.float16), ("fp32", mstype.float32), ("bf16", mstype.bfloat16))


def _check_hook(hook_fn):
    if not callable(hook_fn):
        raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")


def _name_taken_error(method, name, what):
    """The KeyError for inserting a `what` ('parameter', 'child cell') under a name the Cell already uses."""
    return KeyError(f"For '{method}', the {name} {what} already exists in the network."
                    f"Cannot insert another {what} with the same name.")


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _is_parameter_sequence(value):
    return isinstance(value, (list, tuple)) and len(value) > 0 and all(isinstance(v, Parameter) for v in value)


class HookHandle:
    """A handle on a registered hook; ``remove()`` unregisters it.

    Returned by ``Cell.register_forward_pre_hook``, ``register_forward_hook``,
    ``register_backward_hook``, ``register_backward_pre_hook`` and the ``state_dict`` hook
    registrations. The removal takes effect at the next call, in every mode. Usable as a context
    manager: the hook is removed on leaving the ``with`` block.
    """

    _next_id = 0

    def __init__(self, hooks_dict, compiled_into=None):
        self.handle_id = HookHandle._next_id
        HookHandle._next_id += 1
        self._hooks_dict = hooks_dict
        self._cell = compiled_into
        self._bump_version()

    def _bump_version(self):
        """A forward (pre-)hook is compiled into kernels that call its cell: bump the cell's hook
        version so exactly those kernels recompile (see ``npspore.compiler.kernel``)."""
        if self._cell is not None:
            HookVersions.bump(self._cell)

    def remove(self):
        """Unregister the hook (a second call does nothing)."""
        if self._hooks_dict.pop(self.handle_id, None) is not None:
            self._bump_version()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """The result of ``Cell.load_state_dict``: the missing and the unexpected keys."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Buffer(Tensor):
    """A Tensor that becomes a buffer of the Cell it is assigned to.

    ``self.buf = nn.Buffer(tensor)`` in a Cell is ``self.register_buffer('buf', buffer, persistent)``:
    the attribute reads as this Buffer (sharing the tensor's data), listed by ``buffers()`` and, when
    persistent, saved in ``state_dict()``. ``str(buffer)`` separates elements by commas
    (``[4, 5, 6]``), as the Cell page's ``buffers()``/``get_buffer()``/``named_buffers()`` examples print.

    Args:
        data (Tensor): the buffer's value (its data is shared, not copied).
        persistent (bool, optional): whether the buffer is part of ``state_dict()``. Default: ``True``.
    """

    def __init__(self, data, persistent=True):
        super().__init__(data)
        self.persistent = persistent

    def __str__(self):
        return np.array2string(self.asnumpy(), separator=", ")


class Cell:
    """The base class of all neural networks; models and layers subclass it and define ``construct``.

    A Cell is in inference mode by default (``training`` is ``False``); call ``set_train()`` to
    select the training branch of layers such as ``Dropout``.

    Subclasses may not define a method named ``cast`` nor attributes named ``phase`` or ``cells``:
    defining them in the class body raises ``TypeError``, assigning ``cells`` raises ``AttributeError``
    (assigning ``phase`` sets it, as in MindSpore).

    Args:
        auto_prefix (bool, optional): whether sub-cells' parameter names get the attribute path of
            the sub-cell as a prefix (``'dense.weight'``). Backbones keep ``True``; wrappers such as
            training cells use ``False`` so the backbone's names are not changed. Default: ``True``.
        flags (dict, optional): attributes added with :meth:`add_flags`. Default: ``None``.

    Examples:
        >>> class MyCell(nn.Cell):
        ...     def __init__(self, forward_net):
        ...         super().__init__(auto_prefix=False)
        ...         self.net = forward_net
        ...     def construct(self, x):
        ...         return self.net(x)
        >>> print(MyCell(nn.Dense(2, 3)).trainable_params()[0].name)
        weight
    """

    _jit = False  # set by npspore.jit on cells (or classes) whose calls are compiled

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cast = cls.__dict__.get("cast")
        if isinstance(cast, (staticmethod, classmethod)) or inspect.isfunction(cast):
            raise TypeError(f"For 'Cell', the subclass '{cls.__name__}' can not define a method named 'cast'.")
        clashes = sorted(_RESERVED_ATTRIBUTES & cls.__dict__.keys())
        if clashes:
            raise TypeError(f"For 'Cell', the subclass '{cls.__name__}' can not define an attribute named "
                            f"'{clashes[0]}'.")

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        # Written to __dict__ directly: __setattr__ needs these tables to exist.
        self.__dict__.update(
            _params=OrderedDict(),
            _cells=OrderedDict(),
            _buffers=OrderedDict(),
            _non_persistent_buffers_set=set(),
            _container_param_keys={},  # list/tuple attribute -> the _params keys it registered
            _sequence_param_names={},  # plain list/tuple attribute -> {its members' names: member}
            _param_counter=1,  # next k for the 'Parameter$k' names of list/tuple members
            _forward_pre_hooks=OrderedDict(),
            _forward_hooks=OrderedDict(),
            _backward_hooks=OrderedDict(),
            _backward_pre_hooks=OrderedDict(),
            _state_dict_pre_hooks=OrderedDict(),
            _state_dict_hooks=OrderedDict(),
            _load_state_dict_pre_hooks=OrderedDict(),
            _load_state_dict_post_hooks=OrderedDict(),
            _auto_prefix=auto_prefix,
            _func_graph_flags={},
            _cast_dtype=None,
            _casting_params=False,
            _phase="train",
            _param_prefix="",
            _dynamic_shape_inputs=None,
            _pipeline_stage=0,
            _bprop_debug=False,
            _parallel_config={},
            cls_name=type(self).__name__,
            training=False,
            requires_grad=False,
            compile_cache=set(),
            arguments_key="",
        )
        if flags:
            self.add_flags(**flags)

    # ------------------------------------------------------------------ calling

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """Define the computation of the Cell. Every subclass must override it.

        Args:
            args (tuple): positional inputs. Default: ``()``.
            kwargs (dict): keyword inputs. Default: ``{}``.

        Returns:
            Tensor, the result of the computation.

        Raises:
            AttributeError: If the subclass does not define ``construct``.
        """
        raise AttributeError("For 'Cell', the method 'construct' is not defined.")

    def __getstate__(self):
        """The Cell's state for pickling, without its compiled kernels (rebuilt on demand after loading)."""
        state = dict(self.__dict__)
        state.pop(KERNELS_ATTRIBUTE, None)
        return state

    def __call__(self: Constructs[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run ``construct`` (compiled under ``@jit``/GRAPH mode), with the hooks and ``to_float`` casts."""
        try:
            cell: Cell = self  # type: ignore[assignment]  # self's type is for the caller: its construct's signature
            if RECORDERS:   # traced (no source): the kernel guards its training flag; the call carries its bprop
                RECORDERS[-1].cell_called(cell)
                if RECORDERS[-1].has_bprop(cell):
                    return RECORDERS[-1].record_bprop_call(cell, args, kwargs)
            if cell._jit or _context.get_context("mode") == _context.GRAPH_MODE:
                return call_cell(cell, args, kwargs)
            if cell._forward_pre_hooks or cell._forward_hooks or cell._cast_dtype is not None:
                return cell.run_construct(args, kwargs)
            return self.construct(*args, **kwargs)
        except CompileError as error:   # the user's frames and the located error, not npspore's stack
            raise without_internal_frames(error)

    def run_construct(self, cast_inputs, kwargs):
        """Run ``construct`` eagerly with the forward pre-hooks, the ``to_float`` casts and the forward hooks.

        Deprecated in MindSpore; calling the Cell is preferred.

        Args:
            cast_inputs (tuple): the positional inputs.
            kwargs (dict): the keyword inputs.

        Returns:
            The output of ``construct``, or what a forward hook replaced it with.
        """
        if self._forward_pre_hooks:
            cast_inputs = self._run_forward_pre_hooks(cast_inputs)
        casting = self.__dict__["_casting_params"]
        self.__dict__["_casting_params"] = self._cast_dtype is not None
        try:
            output = self.construct(*self.auto_cast_inputs(cast_inputs), **kwargs)
        finally:
            self.__dict__["_casting_params"] = casting
        if self._forward_hooks:
            output = self._run_forward_hooks(cast_inputs, output)
        return output

    def compile(self, *args, **kwargs):
        """Compile the Cell for these inputs (which must match ``construct``'s signature) without running it.

        Returns:
            None.
        """
        compile_cell(self, args, kwargs)

    def compile_and_run(self, *args, **kwargs):
        """Compile the Cell for these inputs if needed and run it. Calling the Cell is preferred.

        Returns:
            The output of the compiled ``construct``.
        """
        return call_cell(self, args, kwargs)

    def cache_info(self):
        """Statistics of this Cell's compiled-kernel cache (see ``npspore.jit``)."""
        return cell_cache_info(self)

    # ------------------------------------------------------------------ attribute protocol

    def __getattr__(self, name):
        # Only reached when normal lookup fails: parameters, sub-cells and buffers live in tables.
        d = self.__dict__
        for table in ("_params", "_cells", "_buffers"):
            entries = d.get(table)
            if entries is not None and name in entries:
                if d.get("_casting_params") and table == "_params" and entries[name].requires_grad:
                    return self.cast_param(entries[name])  # to_float: the weight in the compute dtype
                return entries[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __setattr__(self, name, value):
        if name == "phase":   # MindSpore 2.10 lets a script name the phase (nn.ParameterUpdate's example does)
            self.__dict__["_phase"] = value
            return
        if name in _RESERVED_ATTRIBUTES:
            raise AttributeError(f"For 'Cell', the attribute '{name}' is reserved by Cell and can not be assigned.")
        d = self.__dict__
        params, cells, buffers = d.get("_params"), d.get("_cells"), d.get("_buffers")
        if params is not None and name in params:
            self._assign_parameter_slot(name, value)
        elif cells is not None and name in cells:
            self._assign_cell_slot(name, value)
        elif buffers is not None and name in buffers:
            self._check_buffer_value(name, value)
            buffers[name] = value
        elif _is_parameter_sequence(value):
            self._set_parameter_sequence(name, value)
        else:
            if name in d.get("_container_param_keys", ()) or name in d.get("_sequence_param_names", ()):
                self._unregister_parameter_sequence(name)
            if isinstance(value, Parameter):
                self._set_parameter(name, value)
            elif isinstance(value, Buffer):
                d.pop(name, None)
                self.register_buffer(name, value, value.persistent)
            elif isinstance(value, Cell):
                self._set_cell(name, value)
            else:
                check_attribute_not_traced(value, name)
                object.__setattr__(self, name, value)

    def __delattr__(self, name):
        d = self.__dict__
        for table in ("_params", "_cells", "_buffers"):
            if name in d.get(table, ()):
                del d[table][name]
                d["_non_persistent_buffers_set"].discard(name)  # a buffer's persistence goes with it
                return
        if name in d.get("_container_param_keys", ()) or name in d.get("_sequence_param_names", ()):
            self._unregister_parameter_sequence(name)
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | self._params.keys() | self._cells.keys() | self._buffers.keys())

    def _assign_parameter_slot(self, name, value):
        params = self._params
        if isinstance(value, Parameter):
            self.insert_param_to_cell(name, value)
        elif value is None:
            params[name] = None
        elif isinstance(value, Tensor) and params[name] is not None:
            if RECORDERS and value.shape == params[name].shape:  # traced: an update the kernel makes at each call
                LIBRARY.assign(params[name], value)
            else:
                params[name].set_data(value)
        else:
            raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                            f"'{type(value)}' as a parameter.")

    def _assign_cell_slot(self, name, value):
        if isinstance(value, Cell):
            self._set_cell(name, value)
        elif value is None:
            self._cells[name] = None
        else:
            raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                            f"'{type(value)}' as a cell.")

    def _check_attribute_free(self, name, method, what):
        """KeyError unless `name` is free for a new table entry (a plain instance attribute may be replaced)."""
        if hasattr(type(self), name):
            raise _name_taken_error(method, name, what)

    def _require_params_table(self):
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")

    def _set_parameter(self, name, param):
        self._require_params_table()
        self._check_attribute_free(name, "insert_param_to_cell", "parameter")
        self.__dict__.pop(name, None)
        self.insert_param_to_cell(name, param)

    def _set_cell(self, name, cell):
        if "_cells" not in self.__dict__:
            raise AttributeError("For 'Cell', can not assign cells before Cell.__init__() is called.")
        self._check_attribute_free(name, "insert_child_to_cell", "child cell")
        self.__dict__.pop(name, None)
        if self._auto_prefix:
            cell.update_parameters_name(name + ".")
        self._cells[name] = cell

    def _set_parameter_sequence(self, name, value):
        """Name the Parameters of a list/tuple/ParameterTuple attribute; register a ParameterTuple's.

        Unnamed (generated-name) members are named ``'Parameter$k'`` from a per-cell counter (seed
        004, rule 2). Only the members of a ``ParameterTuple`` are registered in the cell's
        parameters; those of a plain list or tuple are not, as in MindSpore 2.10. A member whose name
        is already used by another Parameter of this cell, registered or a member of another list/tuple
        attribute, raises ``ValueError``; the same object twice, or an already registered Parameter, is
        fine. Nothing is renamed or registered unless the whole sequence is accepted.
        """
        self._require_params_table()
        params = self._params
        replaced = set(self._container_param_keys.get(name, ()))
        kept = [p for key, p in params.items() if p is not None and key not in replaced]
        owner_of_name = {p.name: id(p) for p in kept}
        for attribute, names in self._sequence_param_names.items():
            if attribute != name:
                for param_name, owner in names.items():
                    owner_of_name.setdefault(param_name, id(owner))
        registered = {id(p) for p in kept}
        counter = self._param_counter
        plan = []
        for param in value:
            if id(param) in registered:
                continue
            registered.add(id(param))
            new_name = None
            if param._name_is_generated:
                new_name = f"Parameter${counter}"
                counter += 1
            key = new_name or param.name
            if owner_of_name.setdefault(key, id(param)) != id(param):
                raise ValueError(f"The value {value} , its name '{key}' already exists. "
                                 f"Please set a unique name for the parameter.")
            if (key in params and key not in replaced) or (key not in params and hasattr(self, key)):
                raise _name_taken_error("insert_param_to_cell", key, "parameter")
            plan.append((key, new_name, param))
        for key in replaced:
            params.pop(key, None)
        register = isinstance(value, ParameterTuple)
        for key, new_name, param in plan:
            if new_name is not None:
                param.name = new_name
            if register:
                params[key] = param
        self._param_counter = counter
        if register:
            self._container_param_keys[name] = tuple(key for key, _, _ in plan)
            self._sequence_param_names.pop(name, None)
        else:
            self._container_param_keys.pop(name, None)
            self._sequence_param_names[name] = {param.name: param for param in value}
        object.__setattr__(self, name, value)

    def _unregister_parameter_sequence(self, name):
        for key in self._container_param_keys.pop(name, ()):
            self._params.pop(key, None)
        self._sequence_param_names.pop(name, None)

    # ------------------------------------------------------------------ structure

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Add a parameter to this Cell under `param_name` (``__setattr__`` uses it).

        A parameter with a generated name takes `param_name` as its name; an explicit name is kept.
        An existing parameter of the same name is replaced.

        Args:
            param_name (str): the key of the parameter.
            param (Parameter): the parameter, or None to keep an empty slot.
            check_name_contain_dot (bool): whether a ``'.'`` in `param_name` is an error. Default: ``True``.

        Raises:
            KeyError: If `param_name` is empty, contains ``'.'``, or names another attribute.
            TypeError: If `param_name` is not a str or `param` is not a Parameter.
        """
        if not isinstance(param_name, str):
            raise TypeError(f"For 'insert_param_to_cell', the type of parameter 'param_name' must be str, "
                            f"but got {type(param_name)}.")
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not contain'.' ")
        self._require_params_table()
        if hasattr(self, param_name) and param_name not in self._params:
            raise _name_taken_error("insert_param_to_cell", param_name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if param is not None and param._name_is_generated:
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name, child_cell):
        """Add a sub-cell under `child_name`, without prefixing its parameter names.

        An existing child of the same name is replaced.

        Args:
            child_name (str): the name of the child.
            child_cell (Cell): the child, or None to keep an empty slot.

        Raises:
            KeyError: If `child_name` is empty, contains ``'.'``, or names another attribute.
            TypeError: If `child_name` is not a str or `child_cell` is not a Cell.
        """
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' must be str, "
                            f"but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be None and "
                           "can not contain '.' ")
        if hasattr(self, child_name) and child_name not in self._cells:
            raise _name_taken_error("insert_child_to_cell", child_name, "child cell")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell

    def cells_and_names(self, cells=None, name_prefix=""):
        """Iterate over this Cell and all its sub-cells (pre-order, each once) with their paths.

        Args:
            cells (set): cells already visited, which are skipped. Default: ``None``.
            name_prefix (str): the path of this Cell. Default: ``''``.

        Returns:
            Iterator of ``(path, cell)``; this Cell comes first, with path `name_prefix`.
        """
        visited = cells if cells else set()
        if self in visited:
            return
        visited.add(self)
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                path = f"{name_prefix}.{name}" if name_prefix else name
                yield from cell.cells_and_names(visited, path)

    def name_cells(self):
        """The direct sub-cells by name (empty slots and repeated objects left out).

        Returns:
            OrderedDict[str, Cell].
        """
        seen = set()
        children = OrderedDict()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                children[name] = cell
        return children

    def cells(self):
        """The direct sub-cells.

        Returns:
            odict_values of the Cells of :meth:`name_cells`.
        """
        return self.name_cells().values()

    def get_sub_cell(self, target):
        """The sub-cell at the dotted path `target` (``''`` is this Cell).

        Args:
            target (str): a path such as ``'net_b.net_c'``.

        Returns:
            Cell.

        Raises:
            AttributeError: If a step of the path does not exist or is not a Cell.
        """
        cell = self
        if target == "":
            return cell
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(f"{type(cell).__name__} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, Cell):
                raise AttributeError(f"`{item}` is not an nn.Cell")
        return cell

    def apply(self, fn):
        """Apply `fn` to every sub-cell (children first) and then to this Cell.

        Args:
            fn (function): called with each Cell.

        Returns:
            Cell, this Cell.
        """
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ parameters

    def parameters_and_names(self, name_prefix="", expand=True):
        """Iterate over the parameters with their attribute paths.

        Own parameters come first, then the sub-cells' (pre-order); a parameter shared by several
        cells is given once, under its first path.

        Args:
            name_prefix (str): prefix of the paths. Default: ``''``.
            expand (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Returns:
            Iterator of ``(path, Parameter)``.
        """
        return self._named_entries("_params", name_prefix, expand)

    def _named_entries(self, table, prefix, recurse, remove_duplicate=True):
        """Iterate over ``(path, value)`` of the table `table` (``'_params'`` or ``'_buffers'``) of this
        Cell and, if `recurse`, of its sub-cells (pre-order); None entries are left out, and with
        `remove_duplicate` a value shared by several cells is given once, under its first path."""
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen = set()
        for cell_path, cell in cells:
            for key, value in getattr(cell, table).items():
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (f"{cell_path}.{key}" if cell_path else key), value

    def get_parameters(self, expand=True):
        """Iterate over the parameters.

        Args:
            expand (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Returns:
            Iterator of Parameter, in the order of :meth:`parameters_and_names`.
        """
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The parameters with ``requires_grad=True``.

        Args:
            recurse (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Returns:
            list[Parameter].
        """
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        """The parameters with ``requires_grad=False``.

        Args:
            recurse (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Returns:
            list[Parameter].
        """
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        """The parameters keyed by their names.

        Args:
            recurse (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Returns:
            OrderedDict[str, Parameter].
        """
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse=True):
        """The parameters to broadcast in data parallel training (those not ``layerwise_parallel``).

        Args:
            recurse (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Returns:
            OrderedDict[str, Parameter], or None when there are none.
        """
        params = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse)
                             if not getattr(p, "layerwise_parallel", False))
        return params or None

    def update_parameters_name(self, prefix="", recurse=True):
        """Rename every parameter to `prefix` + its attribute path inside this Cell.

        Args:
            prefix (str): the prefix. Default: ``''``.
            recurse (bool): whether to include the sub-cells' parameters. Default: ``True``.

        Raises:
            TypeError: If `prefix` is not a str.
        """
        if not isinstance(prefix, str):
            raise TypeError(f"For 'update_parameters_name', the argument 'prefix' must be str, but got {type(prefix)}.")
        for path, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + path

    @property
    def param_prefix(self):
        """The path of this Cell inside the Cell whose :meth:`update_cell_prefix` was called last."""
        return self._param_prefix

    def update_cell_prefix(self):
        """Set the ``param_prefix`` of every sub-cell to its path inside this Cell."""
        for path, cell in self.cells_and_names():
            cell._param_prefix = path

    def check_names(self):
        """Check that no two parameters share a name.

        Raises:
            ValueError: If two parameters have the same name.
        """
        names = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"The value of {path} is {param}, its name '{param.name}' already exists. "
                                 f"Please set a unique name for the parameter.")
            names.add(param.name)

    def init_parameters_data(self, auto_parallel_mode=False):
        """Initialise the parameters' data. Parameters here always hold their data, so nothing changes.

        Args:
            auto_parallel_mode (bool): accepted for compatibility. Default: ``False``.

        Returns:
            dict[Parameter, Parameter], each parameter mapped to itself.
        """
        return {param: param for param in self.get_parameters()}

    # ------------------------------------------------------------------ buffers

    def _check_buffer_value(self, name, tensor):
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                            f"(mindspore Tensor or None required)")

    def register_buffer(self, name, tensor, persistent=True):
        """Add a buffer: a Tensor that is state of the Cell but not a parameter (e.g. a running mean).

        The buffer reads as an attribute of that name. Persistent buffers are part of ``state_dict()``.

        Args:
            name (str): the name of the buffer.
            tensor (Tensor): the buffer, or None (then it is not part of ``state_dict()``).
            persistent (bool, optional): whether the buffer is part of ``state_dict()``. Default: ``True``.

        Raises:
            AttributeError: If ``Cell.__init__`` was not called.
            TypeError: If `name` is not a str or `tensor` is neither a Tensor nor None.
            KeyError: If `name` is empty, contains ``'.'`` or names another attribute.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Cell.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string, but got {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        self._check_buffer_value(name, tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """Iterate over the buffers with their paths.

        Args:
            prefix (str, optional): prefix of the paths. Default: ``''``.
            recurse (bool, optional): whether to include the sub-cells' buffers. Default: ``True``.
            remove_duplicate (bool, optional): whether a buffer shared by several cells is given once.
                Default: ``True``.

        Returns:
            Iterator of ``(path, Tensor)``.
        """
        return self._named_entries("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        """Iterate over the buffers.

        Args:
            recurse (bool, optional): whether to include the sub-cells' buffers. Default: ``True``.

        Returns:
            Iterator of Tensor.
        """
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_buffer(self, target):
        """The buffer at the dotted path `target` (see :meth:`get_sub_cell`).

        Args:
            target (str): a path such as ``'net_b.net_c.buffer_c'``.

        Returns:
            Tensor.

        Raises:
            AttributeError: If the path does not exist or does not end at a buffer.
        """
        cell_path, _, buffer_name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, buffer_name):
            raise AttributeError(f"{type(cell).__name__} has no attribute `{buffer_name}`")
        if buffer_name not in cell._buffers:
            raise AttributeError(f"`{buffer_name}` is not a buffer")
        return cell._buffers[buffer_name]

    # ------------------------------------------------------------------ state_dict

    def get_extra_state(self):
        """Extra state to store in ``state_dict()``; override together with :meth:`set_extra_state`.

        Returns:
            object, a picklable value saved under the key ``'_extra_state'``.

        Raises:
            RuntimeError: If called without being overridden.
        """
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state):
        """Restore the extra state returned by :meth:`get_extra_state`; called by ``load_state_dict``.

        Args:
            state (dict): the extra state from the state_dict.

        Raises:
            RuntimeError: If called without being overridden.
        """
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def _has_extra_state(self, method):
        return getattr(type(self), method) is not getattr(Cell, method)

    def register_state_dict_pre_hook(self, hook):
        """Register ``hook(cell, prefix, keep_vars) -> None``, run at the start of :meth:`state_dict`.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.
        """
        return self._add_hook(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """Register ``hook(cell, state_dict, prefix, local_metadata) -> None``, run at the end of :meth:`state_dict`.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.
        """
        return self._add_hook(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """Register a hook run before this Cell's entries are loaded by :meth:`load_state_dict`.

        Its signature is ``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs) -> None``; it may modify `state_dict` in place.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.
        """
        return self._add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook):
        """Register ``hook(cell, incompatible_keys) -> None``, run after :meth:`load_state_dict` loaded this Cell.

        `incompatible_keys` has the lists ``missing_keys`` and ``unexpected_keys``; a hook that
        clears them avoids the ``strict`` error, one that adds to them causes it.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.
        """
        return self._add_hook(self._load_state_dict_post_hooks, hook)

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """A dict referring to the whole state of the Cell: its parameters and persistent buffers.

        Keys are attribute paths; for each cell its own parameters come first, then its persistent
        buffers, then its sub-cells'. Entries set to None are left out. The values are the
        Parameter and Tensor objects themselves (a shallow copy).

        Args:
            destination (dict, optional): a dict to update and return. Default: a new OrderedDict.
            prefix (str, optional): prefix of the keys. Default: ``''``.
            keep_vars (bool, optional): accepted for compatibility; values are always references.
                Default: ``False``.

        Returns:
            OrderedDict[str, Tensor].
        """
        if args:  # the deprecated positional form (destination, prefix, keep_vars)
            destination, prefix, keep_vars = (args + (destination, prefix, keep_vars)[len(args):])[:3]
        if destination is None:
            destination = OrderedDict()
        for hook in tuple(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        for key, value in self._local_state().items():
            destination[prefix + key] = value
        if self._has_extra_state("get_extra_state"):
            destination[prefix + "_extra_state"] = self.get_extra_state()
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=f"{prefix}{name}.", keep_vars=keep_vars)
        for hook in tuple(self._state_dict_hooks.values()):
            hook(self, destination, prefix, {})
        return destination

    def _local_state(self):
        """This Cell's own parameters and persistent buffers, None entries left out."""
        state = OrderedDict((k, p) for k, p in self._params.items() if p is not None)
        state.update((k, b) for k, b in self._buffers.items()
                     if b is not None and k not in self._non_persistent_buffers_set)
        return state

    def load_state_dict(self, state_dict, strict=True):
        """Copy parameters and buffers from `state_dict` into this Cell and its sub-cells.

        Values are copied into the existing Parameters/Tensors (cast to their dtype).

        Args:
            state_dict (dict): parameters and persistent buffers keyed as :meth:`state_dict` keys them.
            strict (bool, optional): whether the keys must match :meth:`state_dict`'s exactly.
                Default: ``True``.

        Returns:
            A namedtuple ``(missing_keys, unexpected_keys)`` of lists of str.

        Raises:
            TypeError: If `state_dict` is not a dict.
            RuntimeError: If `strict` and keys are missing or unexpected, or if a shape does not match.
        """
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        self._load_recursively(dict(state_dict), "", missing_keys, unexpected_keys, error_msgs)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _load_recursively(self, state_dict, prefix, missing_keys, unexpected_keys, error_msgs):
        self._load_from_state_dict(state_dict, prefix, missing_keys, unexpected_keys, error_msgs)
        for name, cell in self._cells.items():
            if cell is not None:
                child_prefix = f"{prefix}{name}."
                child_state = {k: v for k, v in state_dict.items() if k.startswith(child_prefix)}
                cell._load_recursively(child_state, child_prefix, missing_keys, unexpected_keys, error_msgs)
        incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
        for hook in tuple(self._load_state_dict_post_hooks.values()):
            hook(self, incompatible_keys)

    def _load_from_state_dict(self, state_dict, prefix, missing_keys, unexpected_keys, error_msgs):
        for hook in tuple(self._load_state_dict_pre_hooks.values()):
            hook(self, state_dict, prefix, {}, True, missing_keys, unexpected_keys, error_msgs)
        local_state = self._local_state()
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                missing_keys.append(key)
                continue
            source = state_dict[key]
            if not isinstance(source, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected Tensor from checkpoint '
                                  f"but received {type(source)}")
            elif tuple(source.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {tuple(source.shape)} "
                                  f"from checkpoint, the shape in current model is {tuple(target.shape)}.")
            else:
                _copy_tensor_data(target, source)
        extra_key = prefix + "_extra_state"
        if self._has_extra_state("set_extra_state"):
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            else:
                missing_keys.append(extra_key)
        elif extra_key in state_dict:
            unexpected_keys.append(extra_key)
        for key in state_dict:
            if key.startswith(prefix) and key != extra_key:
                head, dot, _ = key[len(prefix):].partition(".")
                known = self._cells if dot else local_state
                if head not in known:
                    unexpected_keys.append(key)

    # ------------------------------------------------------------------ hooks

    @staticmethod
    def _add_hook(hooks, hook_fn, compiled_into=None):
        _check_hook(hook_fn)
        handle = HookHandle(hooks, compiled_into)
        hooks[handle.handle_id] = hook_fn
        return handle

    def register_forward_pre_hook(self, hook_fn):
        """Register ``hook_fn(cell, inputs) -> new inputs or None``, run before ``construct``.

        `inputs` is the tuple of positional inputs; a returned tuple replaces it (any other
        non-None value is wrapped in a 1-tuple). Hooks run in the order they were registered.

        Args:
            hook_fn (function): the hook.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.

        Raises:
            TypeError: If `hook_fn` is not callable.
        """
        return self._add_hook(self._forward_pre_hooks, hook_fn, compiled_into=self)

    def register_forward_hook(self, hook_fn):
        """Register ``hook_fn(cell, inputs, output) -> new output or None``, run after ``construct``.

        Args:
            hook_fn (function): the hook; a non-None result replaces the output.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.

        Raises:
            TypeError: If `hook_fn` is not callable.
        """
        return self._add_hook(self._forward_hooks, hook_fn, compiled_into=self)

    def register_backward_hook(self, hook_fn):
        """Register ``hook_fn(cell, grad_input, grad_output) -> new grad_input or None``, run while differentiating.

        `grad_output` is the tuple of gradients with respect to the cell's outputs (passed back to
        the cell), `grad_input` the tuple of gradients with respect to its positional inputs (the
        cell's backward result). A returned tuple replaces `grad_input` (any other non-None value
        is wrapped in a 1-tuple). The gradient transforms (``npspore.grad`` and friends) call
        :meth:`_run_backward_hooks` for every cell whose ``_backward_hooks`` is not empty.

        Args:
            hook_fn (function): the hook.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.

        Raises:
            TypeError: If `hook_fn` is not callable.
        """
        return self._add_hook(self._backward_hooks, hook_fn, compiled_into=self)

    def register_backward_pre_hook(self, hook_fn):
        """Register ``hook_fn(cell, grad_output) -> new grad_output or None``, run while differentiating.

        `grad_output` is the tuple of gradients with respect to the cell's outputs, before the
        cell's own backward runs; a returned tuple replaces it (any other non-None value is wrapped
        in a 1-tuple). The gradient transforms call :meth:`_run_backward_pre_hooks`.

        Args:
            hook_fn (function): the hook.

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.

        Raises:
            TypeError: If `hook_fn` is not callable.
        """
        return self._add_hook(self._backward_pre_hooks, hook_fn, compiled_into=self)

    def _run_hooks(self, hooks, value, *extra):
        """Pass `value` (a tuple) through `hooks`, each called as ``hook(self, value, *extra)``; a
        non-None result, made a tuple, replaces `value`."""
        for hook in tuple(hooks.values()):
            result = hook(self, value, *extra)
            if result is not None:
                value = _as_tuple(result)
        return value

    def _run_forward_pre_hooks(self, inputs):
        return self._run_hooks(self._forward_pre_hooks, inputs)

    def _run_forward_hooks(self, inputs, output):
        for hook in tuple(self._forward_hooks.values()):
            result = hook(self, inputs, output)
            if result is not None:
                output = result
        return output

    def _run_backward_pre_hooks(self, grad_output):
        """Apply the backward pre-hooks to `grad_output` (a tuple) and return the gradients to use."""
        return self._run_hooks(self._backward_pre_hooks, grad_output)

    def _run_backward_hooks(self, grad_input, grad_output):
        """Apply the backward hooks to `grad_input` (a tuple) and return the gradients to propagate."""
        return self._run_hooks(self._backward_hooks, grad_input, grad_output)

    # ------------------------------------------------------------------ flags and modes

    def add_flags(self, **flags):
        """Add attributes to this Cell: each flag is recorded in :meth:`get_flags` and set as an attribute.

        Args:
            flags (dict): the flags, e.g. ``sink_mode=True``.

        Returns:
            Cell, this Cell.
        """
        self._func_graph_flags.update(flags)
        self.__dict__.update(flags)
        if any(flag in flags for flag, _ in _MIXED_PRECISION):
            self.__dict__["_cast_dtype"] = self._mixed_precision_dtype()
        return self

    def add_flags_recursive(self, **flags):
        """Add the flags to this Cell and every sub-cell (see :meth:`add_flags`).

        Returns:
            Cell, this Cell.
        """
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self):
        """The flags added by :meth:`add_flags` (and ``set_train``/``to_float``).

        Returns:
            dict.
        """
        return self._func_graph_flags

    @property
    def phase(self):
        """``'train'`` or ``'predict'``, as set by :meth:`set_train` (initially ``'train'``)."""
        return self._phase

    def set_train(self, mode: bool = True) -> Cell:
        """Set this Cell and all sub-cells to training (`mode` True) or inference mode.

        Layers that train and infer differently (``Dropout``) branch on ``self.training``.

        Args:
            mode (bool): whether to train. Default: ``True``.

        Returns:
            Cell, this Cell.
        """
        self._phase = "train" if mode else "predict"
        self.add_flags_recursive(training=mode)
        return self

    def set_grad(self, requires_grad=True):
        """Mark this Cell (only this one) as needing gradients.

        Args:
            requires_grad (bool): Default: ``True``.

        Returns:
            Cell, this Cell.
        """
        self.requires_grad = requires_grad
        return self

    def to_float(self, dst_type):
        """Run this Cell and its sub-cells in `dst_type`: floating-point Tensor inputs of each cell are cast.

        Sets the flags ``fp16``/``fp32``/``bf16`` recursively. Inside ``construct`` the cell's trainable
        floating Parameters read as `dst_type` casts, while the Parameters themselves keep their dtype
        (float32 master weights); non-trainable state (such as BatchNorm's moving statistics) is read
        as is. Repeated calls override each other.

        Args:
            dst_type (mindspore.dtype): ``float16``, ``float32`` or ``bfloat16``.

        Returns:
            Cell, this Cell.

        Raises:
            ValueError: If `dst_type` is another dtype.
        """
        if not any(dst_type == dtype for _, dtype in _MIXED_PRECISION):
            raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
        flags = {flag: dst_type == dtype for flag, dtype in _MIXED_PRECISION}
        return self.add_flags_recursive(**flags)

    def _mixed_precision_dtype(self):
        flags = self._func_graph_flags
        for flag, dtype in _MIXED_PRECISION:
            if flags.get(flag):
                return dtype
        return None

    def cast_inputs(self, inputs, dst_type):
        """Cast the floating-point Tensors of `inputs` (recursively into tuples and lists) to `dst_type`.

        Args:
            inputs (tuple): the inputs.
            dst_type (mindspore.dtype): the target dtype.

        Returns:
            tuple, the inputs with floating-point Tensors cast.
        """
        nptype = mstype.dtype_to_nptype(dst_type)

        def cast(item):
            if isinstance(item, Tensor) and np.issubdtype(item._array.dtype, np.floating):
                return item if item._array.dtype == nptype else item.astype(nptype)  # an op: traced code records it
            if isinstance(item, (tuple, list)):
                return type(item)(cast(x) for x in item)
            return item

        return tuple(cast(item) for item in inputs)

    def auto_cast_inputs(self, inputs):
        """Cast `inputs` to this Cell's mixed-precision dtype (set by :meth:`to_float`), if any.

        Args:
            inputs (tuple): the inputs of ``construct``.

        Returns:
            tuple, the cast inputs.
        """
        if self._cast_dtype is None:
            return inputs
        return self.cast_inputs(inputs, self._cast_dtype)

    def cast_param(self, param):
        """The parameter cast to this Cell's mixed-precision dtype (set by :meth:`to_float`), if any.

        Args:
            param (Parameter): the parameter.

        Returns:
            The parameter itself, or a cast Tensor of its value.
        """
        if self._cast_dtype is None:
            return param
        return self.cast_inputs((param,), self._cast_dtype)[0]

    # ------------------------------------------------------------------ inputs for compilation

    def set_inputs(self, *inputs, **kwargs):
        """Declare the inputs compilation uses, e.g. placeholders ``Tensor(shape=[None, 3], dtype=float32)``.

        Dims given as ``None`` are dynamic: calls with any size there share one compiled kernel.
        Either all inputs are given positionally, or some are given by the name of their
        ``construct`` argument. PYNATIVE calls do not check them.

        Args:
            inputs (tuple): all inputs of ``construct``.
            kwargs (dict): some inputs, by argument name.

        Raises:
            ValueError: If both forms are used, or a keyword is not an argument of ``construct``.
        """
        if inputs and kwargs:
            raise ValueError("For 'set_inputs', the arguments 'inputs' and 'kwargs' can not be set at the same "
                             "time.")
        if not kwargs:
            self._dynamic_shape_inputs = inputs
            return
        arg_names = [name for name, p in inspect.signature(self.construct).parameters.items()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        infos = []
        for name, value in kwargs.items():
            if name not in arg_names:
                raise ValueError(f"For 'set_inputs', the keyword argument '{name}' is not an argument of "
                                 f"'{type(self).__name__}.construct', whose arguments are {arg_names}.")
            infos.append([arg_names.index(name), value])
        self._dynamic_shape_inputs = {"arg_specified_infos": sorted(infos, key=lambda info: info[0]),
                                      "total_arg_length": len(arg_names)}

    def get_inputs(self):
        """The inputs declared by :meth:`set_inputs`.

        Returns:
            tuple of the positional form; for the keyword form a dict
            ``{'arg_specified_infos': [[position, placeholder], ...], 'total_arg_length': n}``;
            None if ``set_inputs`` was never called.
        """
        return self._dynamic_shape_inputs

    # ------------------------------------------------------------------ distributed / device settings (recorded only)

    def recompute(self, **kwargs):
        """Recompute this Cell in the backward pass (gradient checkpointing): a compiled gradient
        keeps only the Cell's inputs and output, and its backward runs the Cell's forward again to
        get the intermediate values it needs (less memory, one more forward of the Cell).

        Args:
            mp_comm_recompute (bool): Default: ``True``. Accepted (no communication here).
            parallel_optimizer_comm_recompute (bool): Default: ``False``. Accepted.
        """
        self._parallel_config["recompute"] = kwargs
        HookVersions.bump(self)  # kernels that compiled a call of this Cell compile it again

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
        """Set the distribution strategy of the inputs/outputs. Recorded only (one CPU process here).

        Returns:
            Cell, this Cell (calling it runs as usual).
        """
        self._parallel_config["shard"] = dict(in_strategy=in_strategy, out_strategy=out_strategy,
                                              parameter_plan=parameter_plan, device=device, level=level)
        return self

    def place(self, role, rank_id):
        """Tag the Cell with the process (`role`, `rank_id`) it runs on. Recorded only.

        Args:
            role (str): the process role; only ``'MS_WORKER'``.
            rank_id (int): the process id within the role.

        Raises:
            ValueError: If `role` is not ``'MS_WORKER'``.
        """
        if role != "MS_WORKER":
            raise ValueError(f"For 'place', the argument 'role' must be 'MS_WORKER', but got {role}.")
        self._parallel_config["place"] = (role, rank_id)

    def offload(self, backward_prefetch="Auto"):
        """Offload activations to the host between forward and backward. Recorded only.

        Args:
            backward_prefetch (Union[str, int]): Default: ``'Auto'``.
        """
        self._parallel_config["offload"] = backward_prefetch

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Set the communication fusion type of the parameters. Recorded only.

        Args:
            fusion_type (int): the fusion type.
            recurse (bool): Default: ``True``.
        """
        self._parallel_config["comm_fusion"] = (fusion_type, recurse)

    def set_param_ps(self, recurse=True, init_in_server=False):
        """Let a parameter server update the trainable parameters. Recorded only.

        Args:
            recurse (bool): Default: ``True``.
            init_in_server (bool): Default: ``False``.
        """
        self._parallel_config["param_ps"] = (recurse, init_in_server)

    def set_boost(self, boost_type):
        """Enable a boost algorithm (``'less_bn'``) by flagging every sub-cell. It has no effect here.

        Args:
            boost_type (str): the algorithm.

        Returns:
            Cell, this Cell.

        Raises:
            ValueError: If `boost_type` is not in the algorithm library.
        """
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'Cell', the boost_type only support 'less_bn', but got {boost_type}.")
        return self.add_flags_recursive(less_bn=True)

    def set_data_parallel(self):
        """Give every operator a data-parallel strategy. Recorded only."""
        self._parallel_config["data_parallel"] = True

    def set_jit_config(self, jit_config):
        """Set the ``JitConfig`` used when the Cell is compiled: its ``jit_syntax_level``, when set,
        overrides ``set_context(jit_syntax_level=...)`` for the Cell's compiles.

        Args:
            jit_config (JitConfig): the configuration.
        """
        self._parallel_config["jit_config"] = jit_config

    def flatten_weights(self, fusion_size=0):
        """Group the weights into contiguous memory per dtype. No effect here (NumPy arrays stay separate).

        Args:
            fusion_size (int): the largest block in bytes, 0 for no limit. Default: ``0``.
        """
        self._parallel_config["flatten_weights"] = fusion_size

    def infer_param_pipeline_stage(self):
        """The parameters of the current pipeline stage: all of them (there is one stage here).

        Returns:
            list[Parameter].
        """
        return list(self.get_parameters())

    @property
    def pipeline_stage(self):
        """The pipeline stage of the Cell (an int >= 0). Recorded only."""
        return self._pipeline_stage

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be int type and be >= 0, but got "
                            f"{value!r}.")
        self._pipeline_stage = value

    @property
    def parameter_layout_dict(self):
        """The tensor layouts of the parameters under auto parallel: empty here."""
        return {}

    @property
    def bprop_debug(self):
        """Whether this Cell's custom ``bprop`` runs in the Python interpreter (True) or is compiled
        into the gradient kernel (False, the default), as MindSpore documents. Run in Python, the
        bprop may use anything Python can (``asnumpy()``, NumPy, ``print`` of values); such a
        gradient cannot be differentiated again. Raises TypeError when set to a non-bool."""
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        self._bprop_debug = value
        HookVersions.bump(self)  # kernels that compiled a call of this Cell compile it again

    # ------------------------------------------------------------------ printing

    def extend_repr(self):
        """Extra text shown inside this Cell's parentheses by ``repr``; override to describe settings.

        Returns:
            str. Default: ``''``.
        """
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + repr(cell).replace("\n", "\n  ") for name, cell in self._cells.items()]
        text = type(self).__name__ + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif extra_lines or child_lines:
            text += "\n  " + "\n  ".join(extra_lines + child_lines) + "\n"
        return text + ")"


def _copy_tensor_data(target, source):
    """Copy `source`'s values into `target` (a Parameter or buffer Tensor), cast to `target`'s dtype."""
    data = np.array(source._array, dtype=target._array.dtype)
    if isinstance(target, Parameter):
        target.set_data(Tensor._wrap(data))
    else:
        target._array = data


def _as_arrays(tensors, like) -> tuple:
    """A hook's result as arrays of the dtypes of the gradients it replaces (``like``)."""
    return tuple(np.asarray(t._array if isinstance(t, Tensor) else t, dtype=a.dtype) for t, a in zip(tensors, like))


def _backward_hook_runners(cell) -> tuple:
    """``(pre, post)``: the cell's backward pre-hooks and hooks as functions of arrays, for a
    compiled gradient to call (None where the cell has no such hook)."""
    wrap = Tensor._wrap
    pre = post = None
    if cell._backward_pre_hooks:
        def pre(grad_output):
            return _as_arrays(cell._run_backward_pre_hooks(tuple(map(wrap, grad_output))), grad_output)
    if cell._backward_hooks:
        def post(grad_input, grad_output):
            result = cell._run_backward_hooks(tuple(map(wrap, grad_input)), tuple(map(wrap, grad_output)))
            return _as_arrays(result, grad_input)
    return pre, post


def _compiled_view(cell) -> CellParts:
    """What the compiler reads of ``cell`` (see ``npspore.compiler.library``)."""
    construct = inspect.getattr_static(type(cell), "construct")
    construct = getattr(construct, "__npspore_function__", construct)  # a @jit construct: its function
    bprop = inspect.getattr_static(type(cell), "bprop", None)
    cast = cell._cast_dtype
    pre, post = _backward_hook_runners(cell)
    return CellParts(construct=None if construct is Cell.construct else construct,
                     pre_hooks=tuple(cell._forward_pre_hooks.values()), hooks=tuple(cell._forward_hooks.values()),
                     cast_dtype=None if cast is None else np.dtype(mstype.dtype_to_nptype(cast)),
                     has_parameters=any(True for _ in cell.get_parameters()),
                     backward_pre_hook=pre, backward_hook=post, recompute="recompute" in cell._parallel_config,
                     bprop=bprop if inspect.isfunction(bprop) else None, bprop_debug=cell._bprop_debug)


LIBRARY.register_cell(Cell, _compiled_view, bookkeeping=frozenset(("compile_cache", "arguments_key")),
                      storage=frozenset(("_params", "_cells", "_buffers")))
