"""core.tree: flatten/unflatten of nested call values, on plain Python values (no tensors needed)."""
from collections import namedtuple

import pytest

import npspore as ms
from npspore.core.tree import TreeDef, flatten, leaves, tree_map, unflatten

Point = namedtuple("Point", "x y")


def is_float(value):
    return isinstance(value, float)


@pytest.mark.parametrize("value", [
    1.5,
    "constant",
    (1.0, 2, "a"),
    [1.0, [2.0, (3.0,)]],
    {"b": 1.0, "a": (2.0, None)},
    Point(1.0, 2),
    (),
])
def test_unflatten_inverts_flatten(value):
    found, treedef = flatten(value, is_float)
    rebuilt = unflatten(treedef, found)
    assert rebuilt == value and type(rebuilt) is type(value)


def test_leaves_come_depth_first_and_dicts_in_insertion_order():
    assert leaves({"b": 1.0, "a": [2.0, (3.0, "c")]}, is_float) == [1.0, 2.0, 3.0]


def test_constants_live_in_the_treedef():
    found, treedef = flatten((1.0, 7, None), is_float)
    assert found == [1.0]
    assert treedef == TreeDef("tuple", (TreeDef("leaf"), TreeDef("const", data=7), TreeDef("const", data=None)))
    assert treedef.num_leaves == 1
    assert hash(treedef) == hash(flatten((2.0, 7, None), is_float)[1])


def test_tree_map_keeps_containers_and_namedtuples():
    assert tree_map(lambda v: v * 2, {"p": Point(1.0, 3), "q": [0.5]}, is_float) == {"p": Point(2.0, 3), "q": [1.0]}


def test_mutable_containers_keep_their_class_and_flag():
    value = ms.mutable((ms.Tensor([1.0]), ms.Tensor([2.0])))
    found, treedef = flatten(value, lambda v: isinstance(v, ms.Tensor))
    assert treedef.mutable and len(found) == 2
    rebuilt = unflatten(treedef, found)
    assert type(rebuilt) is type(value) and rebuilt.__ms_mutable__
    plain = flatten((ms.Tensor([1.0]),), lambda v: isinstance(v, ms.Tensor))[1]
    assert not plain.mutable and plain != treedef
