"""dataset.text's BERT tokenizers: BertTokenizer, BasicTokenizer, WordpieceTokenizer. Every expected token list
and offset below was printed by MindSpore 2.10 for the same vocabulary, text and options."""
import numpy as np
import pytest

from npspore.dataset import text

VOCAB = text.Vocab.from_list(["[UNK]", "[CLS]", "[SEP]", "hello", "world", "!", "un", "##aff", "##able", "床", "前",
                              "明", "月", "光", "i", "am", "mak", "##ing", "small", "mistake", "##s", "during",
                              "work", "hour", "。", "é", ",", "naive", "café"])
SENTENCE = "I am making small mistakes during working hours"


@pytest.mark.parametrize("options, line, tokens", [
    ({}, "Hello World!", ["[UNK]", "[UNK]", "!"]),
    ({}, "unaffable café  naïve", ["un", "##aff", "##able", "café", "[UNK]"]),
    ({}, "床前明月光。", ["床", "前", "明", "月", "光", "。"]),
    ({}, "[CLS] hello [SEP] [unused3] x", ["[CLS]", "hello", "[SEP]", "[UNK]", "[UNK]"]),
    ({}, "Tab\there\u00adsoft\x07bell", ["[UNK]", "[UNK]", "[UNK]", "[UNK]"]),
    ({}, "", [""]),
    ({"lower_case": True}, "Hello World!", ["hello", "world", "!"]),
    ({"lower_case": True}, "unaffable café  naïve", ["un", "##aff", "##able", "[UNK]", "naive"]),
    ({"lower_case": True}, SENTENCE, ["i", "am", "mak", "##ing", "small", "mistake", "##s", "during", "work", "##ing",
                                      "hour", "##s"]),
    # MindSpore folds the text from its start up to each preserved word, repeating what precedes it
    ({"lower_case": True}, "[CLS] hello [SEP] [unused3] x",
     ["[CLS]", "[UNK]", "[UNK]", "[UNK]", "hello", "[SEP]", "[UNK]", "[UNK]", "[UNK]", "hello", "[UNK]", "[UNK]",
      "[UNK]", "[UNK]", "[UNK]"]),
    ({"lower_case": True, "preserve_unused_token": False}, "[CLS] hello [SEP] [unused3] x",
     ["[UNK]", "[UNK]", "[UNK]", "hello", "[UNK]", "[UNK]", "[UNK]", "[UNK]", "[UNK]", "[UNK]", "[UNK]"]),
    ({"keep_whitespace": True}, "unaffable café  naïve",
     ["un", "##aff", "##able", "[UNK]", "café", "[UNK]", "[UNK]"]),
    ({"unknown_token": "", "max_bytes_per_token": 4}, "ÅNGSTRÖM straße", ["ÅNGSTRÖM", "straße"]),
    ({"unknown_token": "", "max_bytes_per_token": 4}, "Tab\there\u00adsoft\x07bell", ["Tab", "here", "soft", "bell"]),
    ({"normalization_form": text.NormalizeForm.NFKC}, "unaffable café  naïve",
     ["un", "##aff", "##able", "café", "[UNK]"]),
])
def test_tokens_match_mindspore(options, line, tokens):
    assert text.BertTokenizer(VOCAB, **options)(line).tolist() == tokens


@pytest.mark.parametrize("line, tokens, starts, ends", [
    ("unaffable café  naïve", ["un", "##aff", "##able", "[UNK]", "naive"], [0, 2, 5, 10, 16], [2, 5, 9, 14, 21]),
    ("床前明月光。", ["床", "前", "明", "月", "光", "。"], [0, 3, 6, 9, 12, 15], [3, 6, 9, 12, 15, 18]),
    # NFKC case folding drops the soft hyphen, so the offsets are of 'tab\theresoft bell'
    ("Tab\there\u00adsoft\x07bell", ["[UNK]", "[UNK]", "[UNK]"], [0, 4, 13], [3, 12, 17]),
    ("ÅNGSTRÖM straße", ["[UNK]", "[UNK]"], [0, 9], [8, 16]),
    ("", [""], [0], [0]),
])
def test_offsets_are_utf8_bytes_of_the_normalised_text(line, tokens, starts, ends):
    out = text.BertTokenizer(VOCAB, lower_case=True, with_offsets=True)(line)
    assert [o.tolist() for o in out] == [tokens, starts, ends]
    assert out[1].dtype == out[2].dtype == np.uint32


def test_basic_and_wordpiece_tokenizers_alone():
    words = text.BasicTokenizer(lower_case=True)("Hello, World!")
    assert words.tolist() == ["hello", ",", "world", "!"]
    assert text.WordpieceTokenizer(VOCAB)(np.array(["unaffable", "works"])).tolist() == \
        ["un", "##aff", "##able", "work", "##s"]
    pieces = text.WordpieceTokenizer(VOCAB, with_offsets=True)(np.array(["unaffable", "works"]))
    assert [p.tolist() for p in pieces[1:]] == [[0, 2, 5, 0, 4], [2, 5, 9, 4, 5]]   # within each token


@pytest.mark.parametrize("options, error, message", [
    ({"vocab": 1}, TypeError, "Wrong input type for vocab, should be text.Vocab object."),
    ({"suffix_indicator": 1}, TypeError, "Wrong input type for suffix_indicator, should be string."),
    ({"max_bytes_per_token": -1}, ValueError, "Input is not within the required interval of [0, 4294967295]."),
    ({"unknown_token": 1}, TypeError, "Wrong input type for unknown_token, should be string."),
    ({"lower_case": 1}, TypeError, "Wrong input type for lower_case, should be boolean."),
    ({"normalization_form": 1}, TypeError, "Wrong input type for normalization_form, should be enum of "
                                           "'NormalizeForm'."),
])
def test_argument_errors_are_mindspore_s(options, error, message):
    with pytest.raises(error) as info:
        text.BertTokenizer(**{"vocab": VOCAB, **options})
    assert str(info.value) == message


def test_input_must_be_a_scalar_string():
    with pytest.raises(RuntimeError, match="BasicTokenizer: the input should be scalar with string datatype"):
        text.BertTokenizer(VOCAB)(np.array(["a", "b"]))
