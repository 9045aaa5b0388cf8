"""Training and evaluation wrappers, as ``mindspore.nn.wrap.cell_wrapper``.

``TrainOneStepCell`` is one training step: the loss, its gradients with respect to the optimizer's
Parameters (``GradOperation(get_by_list=True, sens_param=True)``) and the optimizer's update, tied
to the returned loss with ``ops.depend``. Under ``jit`` or GRAPH mode the whole step compiles into
one kernel whose generated source shows the forward pass, the backward pass and the in-place
Parameter updates (``npspore show``).
"""
from __future__ import annotations

from types import FunctionType, MethodType

from npspore import ops
from npspore.common import dtype as mstype
from npspore.common.parameter import ParameterTuple
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import Identity
from npspore.nn.validation import check_bool
from npspore.nn.wrap.grad_reducer import DistributedGradReducer, synchronize_replicas
from npspore.core.parallel_context import check_trainable, data_parallel, gradients_mean

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell",
           "GradAccumulationCell"]


class WithLossCell(Cell):
    """A network followed by a loss: ``construct(data, label)`` returns ``loss_fn(backbone(data), label)``.

    Args:
        backbone (Cell): the network.
        loss_fn (Cell): the loss function.

    Parameter names are the backbone's own (no prefix is added).
    """

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Tensor, label: Tensor) -> Tensor:
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        """The wrapped network."""
        return self._backbone


class WithEvalCell(Cell):
    """A network and a loss for evaluation: ``construct(data, label)`` returns ``(loss, outputs, label)``.

    Args:
        network (Cell): the network.
        loss_fn (Cell): the loss function.
        add_cast_fp32 (bool): whether outputs and label are cast to float32 first. Default: ``False``.

    Raises:
        TypeError: If `add_cast_fp32` is not a bool.
    """

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = check_bool(add_cast_fp32, "add_cast_fp32", self.cls_name)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # as MindSpore's mixed_precision_cast: integer labels keep their dtype
            if label.dtype in mstype.float_type:
                label = ops.cast(label, mstype.float32)
            outputs = ops.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """The gradients of a network (with an optional loss) with respect to its trainable Parameters.

    Args:
        network (Cell): the network.
        loss_fn (Cell): the loss, or None when `network` returns the loss. Default: ``None``.
        sens (Union[None, Tensor, float]): the sensitivity of the loss, or None for ones. Default: ``None``.

    Outputs:
        tuple[Tensor], one gradient per trainable Parameter.
    """

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(self.network, self.loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ForwardValueAndGrad(Cell):
    """The output of a network and its gradients, as ``GradOperation`` gives them.

    Args:
        network (Union[Cell, Function, MethodType]): the network.
        weights (ParameterTuple): the Parameters to differentiate when `get_by_list`. Default: ``None``.
        get_all (bool): gradients of all inputs. Default: ``False``.
        get_by_list (bool): gradients of `weights`. Default: ``False``.
        sens_param (bool): the last input is the sensitivity. Default: ``False``.

    Outputs:
        ``(loss, grads)``.

    Raises:
        TypeError: If `network` is not a Cell or function, a flag is not a bool, or `get_by_list`
            is set without a list of `weights`.
    """

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                            f"method type, but got '{type(network)}'")
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'ForwardValueAndGrad', the type of '{name}' must be bool, but got "
                                f"'{type(value)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument 'weights' "
                            f"must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            self.network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        grad_inputs = inputs
        if self.sens_param:
            inputs = inputs[:-1]
        loss = self.network(*inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*grad_inputs)
        else:
            grads = self.grad(self.network)(*grad_inputs)
        return loss, grads


class TrainOneStepCell(Cell):
    """One training step: the loss, its gradients, and the optimizer's update of the Parameters.

    Args:
        network (Cell): the network with its loss (a ``WithLossCell``); it returns a scalar loss.
        optimizer (Cell): the optimizer; its ``parameters`` are differentiated.
        sens (numbers.Number): the loss's sensitivity (the gradients are multiplied by it), or None
            for 1.0. Default: ``None``.
        return_grad (bool): also return ``{parameter name: gradient}``. Default: ``False``.

    Inputs:
        - **\\*inputs** (tuple[Tensor]) - the inputs of `network`.

    Outputs:
        Tensor, the loss (before the update); with `return_grad`, ``(loss, {name: gradient})``.

    In DATA_PARALLEL mode (``set_auto_parallel_context``) the gradients are all-reduced over the MPI
    job by an ``nn.DistributedGradReducer`` (averaged when ``gradients_mean``) before the optimizer
    runs; building the cell is collective: every rank takes rank 0's Parameters (those not trained
    too), whether the cell then runs eagerly, under ``jit`` or in ``Model.train``.

    Raises:
        ValueError: If `sens` is 0, or in DATA_PARALLEL mode if the ranks' Parameters differ in number,
            name, shape or dtype.
        NotImplementedError: In SEMI_AUTO_PARALLEL or AUTO_PARALLEL mode, or when a sub-cell has a
            ``shard`` strategy.

    Examples:
        >>> net_with_loss = nn.WithLossCell(net, nn.MSELoss())
        >>> train_net = nn.TrainOneStepCell(net_with_loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))
        >>> loss = train_net(data, label)
    """

    def __init__(self, network: Cell, optimizer: Cell, sens: float | None = None, return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = ops.GradOperation(get_by_list=True)
        if sens is not None and not isinstance(sens, bool) and sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = check_bool(return_grad, "return_grad", self.cls_name)
        if return_grad:
            self.weights_name = [param.name for param in self.optimizer.parameters]
        self.reducer_flag = False
        self.grad_reducer = Identity()
        check_trainable(network, "TrainOneStepCell")
        if data_parallel():  # gradients all-reduced over the MPI job; ranks start from rank 0's weights
            self.reducer_flag = True
            trained = {id(weight) for weight in self.weights}
            synchronize_replicas([p for p in (network.parameters_broadcast_dict() or {}).values()
                                  if id(p) not in trained], who="TrainOneStepCell")
            # Built last, so that its check that no rank changed a Parameter runs at the first reduction.
            self.grad_reducer = DistributedGradReducer(self.weights, gradients_mean())

    def construct(self, *inputs):
        if self.sense_flag:
            loss = self.network(*inputs)
            sens = ops.fill(loss.dtype, loss.shape, self.sens)
            grads = self.grad(self.network, self.weights)(*inputs, sens)
        else:
            # The loss and its gradients from one pass: the same values as MindSpore's network call
            # followed by grad_no_sens, without computing the forward pass twice.
            loss, grads = ops.value_and_grad(self.network, None, self.weights)(*inputs)
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_grad:
            grad_with_param_name = {}
            for name, value in zip(self.weights_name, grads):
                grad_with_param_name[name] = value
            return loss, grad_with_param_name
        return loss


class GradAccumulationCell(Cell):
    """Split every input into `micro_size` micro-batches along the first axis and return the sum of
    the network's outputs over them (the loss whose gradient accumulates the micro-batches' ones).

    Args:
        network (Cell): the network with its loss.
        micro_size (int): the number of micro-batches, > 0.

    Inputs:
        - **\\*inputs** (tuple[Tensor]) - the inputs of `network`; their first dimension must be a
          multiple of `micro_size`.

    Outputs:
        Tensor, the sum of the micro-batch outputs.

    Raises:
        TypeError: If `network` is not a Cell or `micro_size` not an int.
        ValueError: If `micro_size` <= 0, or an input's first dimension is not a multiple of it.
    """

    def __init__(self, network, micro_size):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'GradAccumulationCell', the argument 'network' must cell type, but got the type : "
                            f"{type(network)}.")
        if isinstance(micro_size, bool) or not isinstance(micro_size, int):
            raise TypeError(f"For 'GradAccumulationCell', the argument 'micro_size' must be integer, but got the type "
                            f": {type(micro_size)}.")
        if micro_size <= 0:
            raise ValueError(f"For 'GradAccumulationCell', the argument 'micro_size' must be large than 0, but got "
                             f"{micro_size}.")
        self.network = network
        self.micro_size = micro_size

    def construct(self, *inputs):
        chunks = ()
        for each_input in inputs:
            if each_input.shape[0] % self.micro_size != 0:
                raise ValueError(f"For micro batch initialization, the 0th dimension shape of input("
                                 f"{each_input.shape[0]}) must be divided by micro size({self.micro_size})")
            chunks += (ops.split(each_input, each_input.shape[0] // self.micro_size),)
        ret = None
        for micro_inputs in zip(*chunks):
            output = self.network(*micro_inputs)
            ret = output if ret is None else ret + output
        return ret


class _VirtualDatasetCell(Cell):
    """Wraps `backbone` to mark where (semi-)auto parallel would lay its inputs out from data parallel to model
    parallel (MindSpore's private ``nn.wrap.cell_wrapper._VirtualDatasetCell``): the inputs reach `backbone`
    unchanged, as they do in data-parallel and stand-alone training; `backbone`'s Parameters keep their names.
    """

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *inputs):
        return self._backbone(*inputs)
