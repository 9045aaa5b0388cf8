"""``mindspore.common._stub_tensor.StubTensor``: the placeholder MindSpore's PyNative mode returns for an op's
output until it is computed (not a ``Tensor`` subclass). npspore computes each op when it is called and
returns Tensors, so no npspore value is a StubTensor; programs test ``isinstance(x, (Tensor, StubTensor))``."""

__all__ = ["StubTensor"]


class StubTensor:
    """MindSpore's not-yet-computed op output; npspore never makes one (see the module doc)."""

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("npspore has no StubTensor: ops return Tensors, computed when called.")
