"""Array and string transforms of the 2.10 usage list's tail (issue 26, data-nn-fn): ``transforms.Fill``,
``Concatenate``, ``Mask``/``Relational``, ``Slice``; ``text.WhitespaceTokenizer``, ``UnicodeCharTokenizer``,
``RegexReplace``, ``Ngram``, ``ToNumber``, ``TruncateSequencePair``, ``to_str``.

``RECORDED`` are MindSpore 2.10's outputs (dtype or string kind, shape, values; several columns as a list) or errors
for ``tests/data_transform_tail_cases.py``, printed by ``tools/observe_mindspore_data_transforms.py``.
"""
import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from data_transform_tail_cases import CASES
from npspore.dataset import text
from npspore.dataset import transforms as T

RECORDED = {'fill_doc': ('int64', (3,), [3, 3, 3]),
 'concatenate_doc': ('int64', (8,), [1, 2, 3, 4, 5, 6, 7, 8]),
 'mask_doc': ('bool', (5,), [False, True, False, False, False]),
 'slice_doc': ('int64', (2, 3), [4, 5, 6, 7, 8, 9]),
 'whitespace_doc': ('U', (3,), ['Welcome', 'To', 'BeiJing!']),
 'whitespace_offsets': [('U', (3,), ['Welcome', 'To', 'BeiJing!']), ('uint32', (3,), [0, 12, 17]),
                        ('uint32', (3,), [7, 14, 25])],
 'unicode_char_doc': ('U', (25,),
                      ['W', 'e', 'l', 'c', 'o', 'm', 'e', ' ', ' ', ' ', ' ', ' ', 'T', 'o', ' ', ' ', ' ', 'B',
                       'e', 'i', 'J', 'i', 'n', 'g', '!']),
 'unicode_char_offsets': [('U', (7,), ['h', 'é', 'l', 'l', 'o', ' ', '中']), ('uint32', (7,), [0, 1, 3, 4, 5, 6, 7]),
                          ('uint32', (7,), [1, 3, 4, 5, 6, 7, 10])],
 'regex_replace_doc': ('U', (), ['orange orange orange']),
 'regex_replace_first': ('U', (), ['a_b   c']),
 'ngram_doc': ('U', (1,), ['WildRose-Country']),
 'ngram_pad': ('U', (7,), ['a', 'b', 'c', '_ _ a', '_ a b', 'a b c', 'b c .']),
 'ngram_short': ('U', (1,), ['']),
 'to_number_doc': ('uint32', (3,), [1, 5, 7]),
 'to_number_float': ('float32', (3,), [1.5, -2000.0, 7.0]),
 'to_str_doc': ('U', (3,), ['1', '2', '3']),
 'truncate_doc': [('int64', (2,), [1, 2]), ('int64', (2,), [4, 5])],
 'truncate_longer_first': [('int64', (2,), [1, 2]), ('int64', (1,), [5])],
 'fill_float': ('float32', (1, 2), [2.5, 2.5]),
 'fill_str': ('U', (2,), ['x', 'x']),
 'concatenate_2d': ('ValueError', 'can only prepend 1D arrays.'),
 'mask_gt_float': ('int32', (2, 2), [0, 1, 1, 0]),
 'mask_str': ('bool', (3,), [True, False, True]),
 'slice_ellipsis': ('int64', (3, 1), [1, 5, 9])}


def _summary(out):
    if isinstance(out, (tuple, list)):
        return [_summary(v) for v in out]
    out = np.asarray(out)
    return (out.dtype.kind if out.dtype.kind in "USO" else out.dtype.name, out.shape, out.ravel().tolist())


@pytest.mark.parametrize("key, expression", [case for case in CASES if case[0] in RECORDED])
def test_outputs_and_errors_are_mindspores(key, expression):
    want = RECORDED[key]
    run = lambda: eval(expression, {"ms": ms, "T": T, "text": text, "np": np})  # noqa: E731
    if isinstance(want, tuple) and isinstance(want[0], str) and want[0].endswith("Error"):
        with pytest.raises({"ValueError": ValueError, "RuntimeError": RuntimeError}[want[0]]) as raised:
            run()
        assert str(raised.value) == want[1]
        return
    assert _summary(run()) == want


def test_npspore_choices_where_mindspore_fails():
    # MindSpore 2.10 fails on these (a kernel error); npspore follows its documented meaning
    with pytest.raises(RuntimeError, match="out of bounds if cast to int8"):
        text.ToNumber(ms.int8)(np.array(["300"]))
    with pytest.raises(RuntimeError, match="is not a valid int32"):
        text.ToNumber(ms.int32)(np.array(["1.5"]))
    assert T.Slice(slice(None), [0, 2])(np.arange(12).reshape(3, 4)).tolist() == [[0, 2], [4, 6], [8, 10]]
    assert T.Slice([0, 2], [1, 3])(np.arange(12).reshape(3, 4)).tolist() == [[1, 3], [9, 11]]
    with pytest.raises(TypeError, match="slices\\[0\\]"):
        T.Slice("a")


def test_tokenizers_in_a_pipeline():
    data = ds.NumpySlicesDataset(np.array(["a b  c", "dd e"]), ["text"], shuffle=False)
    data = data.map([text.WhitespaceTokenizer(), text.Ngram(2)], input_columns="text")
    rows = [row[0].tolist() for row in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [["a b", "b c"], ["dd e"]]
