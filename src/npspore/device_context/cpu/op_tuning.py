"""``mindspore.device_context.cpu.op_tuning.threads_num``: the CPU kernels' thread count."""
from ...core.threads import set_runtime_num_threads

__all__ = ["threads_num"]

_SET = []


def threads_num(num: int) -> None:
    """Run the CPU kernels on ``num`` threads: npspore's BLAS thread count, as
    ``set_context(runtime_num_threads=num)`` sets it (``core.threads``). Once per process, as in MindSpore.

    Raises:
        TypeError: if ``num`` is not an int.
        ValueError: if ``num`` is not positive.
        RuntimeError: if the count was set before ("The 'threads_num' can not be set repeatedly.").
    """
    if not isinstance(num, int):
        raise TypeError(f"The parameter 'num' must be {int}, but got {type(num)}")
    if num <= 0:
        raise ValueError(f"The 'num' must be int and must > 0, but got '{num}' with type 'int'.")
    if _SET:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    _SET.append(num)
    set_runtime_num_threads(num)
