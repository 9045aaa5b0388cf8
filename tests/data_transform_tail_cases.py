"""The cases of tests/test_data_transform_tail.py, shared with ``tools/observe_mindspore_data_transforms.py``:
``(key, expression)`` over ``T`` (``dataset.transforms``), ``text`` (``dataset.text``), ``ms`` and ``np``; each
expression calls a transform eagerly (the docstring examples of the MindSpore 2.10 pages first)."""

CASES = [
    ("fill_doc", "T.Fill(3)(np.array([4, 5, 6]))"),
    ("concatenate_doc", "T.Concatenate(0, np.array([1, 2]), np.array([6, 7, 8]))(np.array([3, 4, 5]))"),
    ("mask_doc", "T.Mask(T.Relational.EQ, 2)(np.array([1, 2, 3, 4, 5]))"),
    ("slice_doc", "T.Slice(slice(1, 3))(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))"),
    ("whitespace_doc", "text.WhitespaceTokenizer()('Welcome     To   BeiJing!')"),
    ("whitespace_offsets", "text.WhitespaceTokenizer(with_offsets=True)('Welcome     To   BeiJing!')"),
    ("unicode_char_doc", "text.UnicodeCharTokenizer()('Welcome     To   BeiJing!')"),
    ("unicode_char_offsets", "text.UnicodeCharTokenizer(with_offsets=True)('héllo 中')"),
    ("regex_replace_doc", "text.RegexReplace('apple', 'orange')('apple orange apple')"),
    ("regex_replace_first", "text.RegexReplace('\\\\s+', '_', replace_all=False)('a  b   c')"),
    ("ngram_doc", "text.Ngram(2, separator='-')(np.array(['WildRose', 'Country']))"),
    ("ngram_pad", "text.Ngram([1, 3], left_pad=('_', 2), right_pad=('.', 1))(np.array(['a', 'b', 'c']))"),
    ("ngram_short", "text.Ngram(4)(np.array(['a', 'b']))"),
    ("to_number_doc", "text.ToNumber(ms.uint32)(['1', '5', '7'])"),
    ("to_number_float", "text.ToNumber(ms.float32)(np.array(['1.5', '-2e3', ' 7']))"),
    ("to_number_bad", "text.ToNumber(ms.int8)(np.array(['300']))"),
    ("to_str_doc", "text.to_str(np.array([b'1', b'2', b'3']), encoding='utf-8')"),
    ("truncate_doc", "text.TruncateSequencePair(4)(np.array([1, 2, 3]), np.array([4, 5]))"),
    ("truncate_longer_first", "text.TruncateSequencePair(3)(np.array([1, 2, 3, 4]), np.array([5, 6]))"),
    # further cases
    ("fill_float", "T.Fill(2.5)(np.array([[1.0, 2.0]], np.float32))"),
    ("fill_str", "T.Fill('x')(np.array(['a', 'bb']))"),
    ("concatenate_2d", "T.Concatenate(-1, np.array([[0], [0]]))(np.array([[1, 2], [3, 4]]))"),
    ("mask_gt_float", "T.Mask(T.Relational.GT, 1.5, ms.int32)(np.array([[1.0, 2.0], [3.0, 0.5]], np.float32))"),
    ("mask_str", "T.Mask(T.Relational.NE, 'b')(np.array(['a', 'b', 'c']))"),
    ("slice_many", "T.Slice(slice(None), [0, 2])(np.arange(12).reshape(3, 4))"),
    ("slice_int", "T.Slice(1, slice(None, None, 2))(np.arange(12).reshape(3, 4))"),
    ("slice_ellipsis", "T.Slice(Ellipsis, 1)(np.arange(12).reshape(3, 4))"),
]
