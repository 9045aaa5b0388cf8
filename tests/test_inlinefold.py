"""codegen's folding of inlined template bodies (``compiler/inlinefold``): integer identities go only
where the operand is known to be a Python int, never on arrays (``1 * mask`` makes ints of booleans,
``x // 1`` floors); locals bound once to literals are substituted."""
import ast

from npspore.compiler.inlinefold import IntegerIdentities, literal_binding
from npspore.compiler.unparse import unparse


def fold(source: str) -> str:
    identities = IntegerIdentities()
    return "\n".join(unparse(identities.visit(statement)) for statement in ast.parse(source).body)


def test_identities_of_dims_strides_and_loop_indices_are_dropped():
    source = ("n, c, h, w = x.shape\ns = x.strides\noh = (h - 1 * (3 - 1) - 1) // 1 + 1\n"
              "v = (n * 1, 0 + c, s[2] * 1, len(x.shape) - 0)\n"
              "for i in range(3):\n    top = i * 1\n    g[:, top:top + oh:1] += 1")
    assert fold(source).splitlines() == [
        "n, c, h, w = x.shape", "s = x.strides", "oh = h - (3 - 1) - 1 + 1", "v = (n, c, s[2], len(x.shape))",
        "for i in range(3):", "    top = i", "    g[:, top:top + oh] += 1"]


def test_arrays_and_unknown_values_keep_their_arithmetic():
    source = "a = 1 * mask\nb = x // 1\nc = y + 0\nn = x.shape[0]\nn = x.sum()\nd = n * 1\ne = x[::1]"
    assert fold(source).splitlines() == ["a = 1 * mask", "b = x // 1", "c = y + 0", "n = x.shape[0]",
                                         "n = x.sum()", "d = n * 1", "e = x[:]"]


def test_literal_bindings_are_found_only_for_names_assigned_once():
    one, = ast.parse("kh = 5").body
    several, = ast.parse("cg, kh, kw = (6, 5, 5)").body
    computed, = ast.parse("kh = w.shape[2]").body
    assert {k: v.value for k, v in literal_binding(one, {"kh"}).items()} == {"kh": 5}
    assert {k: v.value for k, v in literal_binding(several, {"cg", "kh", "kw"}).items()} == {"cg": 6, "kh": 5, "kw": 5}
    assert literal_binding(one, set()) == {}
    assert literal_binding(computed, {"kh"}) == {}
