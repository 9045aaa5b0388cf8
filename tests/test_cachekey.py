"""compiler.cachekey: digests, fingerprints and the paths that find captured objects again."""
import numpy as np

import npspore as ms
from npspore import nn
from npspore.compiler.cachekey import ObjectPaths, digest, kernel_disk_key, object_fingerprint, resolve_path


class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")
        self.blocks = [nn.Dense(3, 2), nn.Dense(2, 2)]

    def construct(self, x):
        return x


GLOBAL_HOLDER = Holder()


def reads_global(x):
    return GLOBAL_HOLDER(x)


def test_digest_is_deterministic_and_order_sensitive():
    assert digest(1, "a", (2, 3)) == digest(1, "a", (2, 3))
    assert digest(1, "a") != digest("a", 1)
    assert len(digest()) == 64


def test_capture_paths_lead_back_to_the_object():
    holder = Holder()
    weight = holder.blocks[1].weight
    paths = ObjectPaths(holder)
    path = paths.capture_path(weight)
    assert path == ("self", ("blocks", 1, "_params", "weight"))
    assert resolve_path(path, holder) is weight
    assert paths.capture_path(holder.w) == ("self", ("_params", "w"))   # the same walk answers every target
    stranger = ms.Tensor([1.0])
    assert paths.capture_path(stranger) == ("obj", stranger)
    assert ObjectPaths(None).capture_path(weight) == ("obj", weight)


def test_a_shared_object_is_found_by_its_first_path():
    holder = Holder()
    holder.alias = holder.blocks[0]          # the attribute, read before ``blocks`` is walked into
    holder.deep = {"inner": [holder.w]}      # ``w`` is a direct child of ``_params``, found first
    paths = ObjectPaths(holder)
    assert paths.capture_path(holder.blocks[0].weight) == ("self", ("_cells", "alias", "_params", "weight"))
    assert paths.capture_path(holder.w) == ("self", ("_params", "w"))


def test_addressable_paths_go_through_self_or_a_global():
    holder = Holder()
    path = ObjectPaths(holder).addressable_path(Holder.construct, holder.w)
    assert path == ("self", ("_params", "w"))
    assert resolve_path(path, holder, Holder.construct) is holder.w
    bias = GLOBAL_HOLDER.blocks[0].bias
    path = ObjectPaths(None).addressable_path(reads_global, bias)
    assert path[:2] == ("global", "GLOBAL_HOLDER")
    assert resolve_path(path, None, reads_global) is bias
    assert ObjectPaths(None).addressable_path(reads_global, ms.Tensor([1.0])) is None


def test_fingerprints_see_state_not_identity():
    a, b = Holder(), Holder()
    assert object_fingerprint(a) == object_fingerprint(b)
    b.w = ms.Parameter(ms.Tensor(np.ones((3, 3), np.float32)), name="w")
    assert object_fingerprint(a) != object_fingerprint(b)
    b = Holder()
    b.training = True
    assert object_fingerprint(a) != object_fingerprint(b)
    a.compile_cache = {"bookkeeping"}
    assert object_fingerprint(a) == object_fingerprint(Holder())


def test_disk_key_depends_on_signature_and_options():
    holder = Holder()
    key = ((2, 3), np.dtype(np.float32))
    first = kernel_disk_key(Holder.construct, holder, key, ("forward", ()))
    assert first == kernel_disk_key(Holder.construct, Holder(), key, ("forward", ()))
    assert first != kernel_disk_key(Holder.construct, holder, key, ("forward", (True,)))
    assert first != kernel_disk_key(Holder.construct, holder, ((4, 3), np.dtype(np.float32)), ("forward", ()))


def test_state_only_this_process_can_name_is_never_keyed_on_disk():
    holder = Holder()
    holder.callback = lambda: None
    assert kernel_disk_key(Holder.construct, holder, (), ("forward", ())) is None


def _scaled_by(factor):
    def scale(x):
        return x * factor

    return scale


def _applying(op):
    def apply(x):
        return op(x)

    return apply


def test_closures_over_different_values_get_different_disk_keys():
    key = (((2,), np.dtype(np.float32)),)
    two, three = _scaled_by(2.0), _scaled_by(3.0)
    assert kernel_disk_key(two, None, key, ()) != kernel_disk_key(three, None, key, ())
    assert kernel_disk_key(two, None, key, ()) == kernel_disk_key(_scaled_by(2.0), None, key, ())
    assert kernel_disk_key(_applying(ms.ops.exp), None, key, ()) is None


def test_compiled_closures_over_different_ops_give_their_own_results():
    x = ms.Tensor(np.array([0.5, 1.0], np.float32))
    for op in (ms.ops.exp, ms.ops.sin):
        np.testing.assert_allclose(ms.jit(_applying(op))(x).asnumpy(), op(x).asnumpy())
    for factor in (2.0, 3.0):
        np.testing.assert_allclose(ms.jit(_scaled_by(factor))(x).asnumpy(), x.asnumpy() * factor)


SAME_LINE = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "add_one": lambda a, b: a + b + 1}


def test_lambdas_sharing_a_line_get_their_own_disk_keys_and_kernels():
    key = (((2,), np.dtype(np.float32)), ((2,), np.dtype(np.float32)))
    keys = {name: kernel_disk_key(fn, None, key, ()) for name, fn in SAME_LINE.items()}
    assert len(set(keys.values())) == 3
    a, b = ms.Tensor(np.array([5.0, 1.0], np.float32)), ms.Tensor(np.array([2.0, 3.0], np.float32))
    for name, want in (("add", [7.0, 4.0]), ("sub", [3.0, -2.0]), ("add_one", [8.0, 5.0])):
        np.testing.assert_array_equal(ms.jit(SAME_LINE[name])(a, b).asnumpy(), want)
