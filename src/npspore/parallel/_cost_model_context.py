"""MindSpore's private ``mindspore.parallel._cost_model_context``: the parameters of the cost model its
auto-parallel strategy search uses. npspore's parallel training is data parallel and searches no strategy, so
the parameters are recorded and read back (as ``set_algo_parameters``'s are), with MindSpore 2.10's defaults,
types and errors.
"""
from __future__ import annotations

import numpy as np

__all__ = ["set_cost_model_context", "get_cost_model_context", "reset_cost_model_context"]

# name -> (type, default); MindSpore's default costmodel_gamma is a float32 0.001
_PARAMETERS = {
    "device_memory_capacity": (float, 17179869184.0), "costmodel_alpha": (float, 1.0),
    "costmodel_beta": (float, 400.0), "costmodel_gamma": (float, 0.0010000000474974513),
    "costmodel_communi_threshold": (float, 2048.0), "costmodel_communi_const": (float, 3072.0),
    "costmodel_communi_bias": (float, 1024.0), "run_phase": (int, 0),
    "costmodel_allreduce_fusion_algorithm": (int, 0), "costmodel_allreduce_fusion_times": (int, 0),
    "costmodel_allreduce_fusion_tail_percent": (float, 0.1), "costmodel_allreduce_fusion_tail_time": (float, 0.1),
    "costmodel_allreduce_fusion_allreduce_inherent_time": (float, 0.1),
    "costmodel_allreduce_fusion_allreduce_bandwidth": (float, 0.1),
    "costmodel_allreduce_fusion_computation_time_parameter": (float, 0.1),
}
_values: dict = {}
_flags = {"multi_subgraphs": False, "rp_matmul_mem_coef": float(np.float32(0.1)), "algo_single_loop": False}


def set_cost_model_context(**kwargs) -> None:
    """Record cost-model parameters (``costmodel_gamma=0.1`` ...).

    Raises:
        TypeError: if a value is not of the parameter's type (float or int).
        ValueError: if a keyword is not a cost-model parameter.
    """
    for key, value in kwargs.items():
        if key in _PARAMETERS and not isinstance(value, _PARAMETERS[key][0]):
            raise TypeError(f"The parameter '{key}' must be {_PARAMETERS[key][0]}, but got {type(value)}")
    for key, value in kwargs.items():
        if key not in _PARAMETERS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        _values[key] = value


def get_cost_model_context(attr_key: str):
    """The value of the cost-model parameter ``attr_key``.

    Raises:
        ValueError: if ``attr_key`` is not a cost-model parameter.
    """
    if attr_key not in _PARAMETERS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values.get(attr_key, _PARAMETERS[attr_key][1])


def reset_cost_model_context() -> None:
    """Restore the cost-model parameters' defaults."""
    _values.clear()


def _set_multi_subgraphs(multi_subgraph: bool = True) -> None:
    """Record whether the graph holds several subgraphs (read by :func:`_get_multi_subgraphs`)."""
    _flags["multi_subgraphs"] = bool(multi_subgraph)


def _get_multi_subgraphs() -> bool:
    """The flag :func:`_set_multi_subgraphs` recorded (``False`` by default)."""
    return _flags["multi_subgraphs"]


def _set_algo_single_loop(single_loop: bool = True) -> None:
    """Record whether a for-loop's operators share one strategy (read by :func:`_get_algo_single_loop`)."""
    _flags["algo_single_loop"] = bool(single_loop)


def _get_algo_single_loop() -> bool:
    """The flag :func:`_set_algo_single_loop` recorded (``False`` by default)."""
    return _flags["algo_single_loop"]


def _set_rp_matmul_mem_coef(coef: float) -> None:
    """Record the MatMul memory coefficient of the recursive-programming search (float32, as MindSpore keeps it).

    Raises:
        TypeError: if ``coef`` is not a number.
    """
    if isinstance(coef, bool) or not isinstance(coef, (int, float)):
        raise TypeError(f"set_rp_matmul_mem_coef(): incompatible function arguments: got {type(coef).__name__}, "
                        "expected float")
    _flags["rp_matmul_mem_coef"] = float(np.float32(coef))


def _get_rp_matmul_mem_coef() -> float:
    """The coefficient :func:`_set_rp_matmul_mem_coef` recorded (0.1 in float32 by default)."""
    return _flags["rp_matmul_mem_coef"]
