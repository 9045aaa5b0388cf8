"""dataset.text.Vocab: tables, look-ups and errors as MindSpore 2.10 printed them for the same calls."""
import numpy as np
import pytest

import npspore.dataset as ds
from npspore.dataset.text import Vocab


@pytest.fixture
def vocab():
    return Vocab.from_list(["home", "behind", "the", "world"], special_tokens=["<pad>", "<unk>"], special_first=True)


def test_from_list_and_look_ups(vocab):
    # MindSpore 2.10's outputs for these calls
    assert vocab.vocab() == {"<pad>": 0, "world": 5, "the": 4, "<unk>": 1, "behind": 3, "home": 2}
    assert vocab.tokens_to_ids(["home", "world", "nope"]) == [2, 5, -1]
    assert vocab.tokens_to_ids("the") == 4
    assert vocab.tokens_to_ids(np.array(["the", "home"])) == [4, 2]
    assert vocab.ids_to_tokens([0, 3, 99]) == ["<pad>", "behind", ""]
    assert vocab.ids_to_tokens(2) == "home"
    assert vocab.ids_to_tokens(np.array([2, 1])) == ["home", "<unk>"]
    assert Vocab.from_list(["a", "b"], special_tokens=["<s>"], special_first=False).vocab() == {"<s>": 2, "b": 1,
                                                                                                 "a": 0}
    assert Vocab.from_dict({"a": 3, "b": 0}).vocab() == {"a": 3, "b": 0}
    assert Vocab.from_dict({"a": 1, "b": 1}).vocab() == {"a": 1, "b": 1}


def test_from_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("apple,1\nbanana 2\ncherry\n\napple\n")
    # MindSpore 2.10: whole lines without a delimiter; with ',' and vocab_size=2 the first two lines' words
    assert Vocab.from_file(str(path)).vocab() == {"apple": 4, "banana 2": 1, "": 3, "cherry": 2, "apple,1": 0}
    assert Vocab.from_file(str(path), delimiter=",", vocab_size=2, special_tokens=["<unk>"],
                           special_first=True).vocab() == {"<unk>": 0, "banana 2": 2, "apple": 1}
    # MindSpore 2.10 stops its pipeline with a RuntimeError for the repeated 'apple'; npspore names the word
    with pytest.raises(ValueError, match="word_list contains duplicate word: apple."):
        Vocab.from_file(str(path), delimiter=",")
    with pytest.raises(ValueError, match="does not exist"):
        Vocab.from_file(str(tmp_path / "missing.txt"))


ROWS = [np.array(["b", "a", "c", "a"]), np.array(["d", "c", "a", "e"]), np.array(["b", "z"])]


def _rows():
    for row in ROWS:
        yield (row,)


def test_from_dataset_orders_by_count_then_word():
    dataset = ds.GeneratorDataset(_rows, ["text"], shuffle=False)
    # MindSpore 2.10's vocabularies of this dataset
    assert Vocab.from_dataset(dataset, columns=["text"]).vocab() == {"z": 5, "e": 4, "c": 2, "b": 1, "d": 3, "a": 0}
    assert Vocab.from_dataset(dataset, columns="text", top_k=3, special_tokens=["<pad>"]).vocab() == {
        "c": 3, "b": 2, "a": 1, "<pad>": 0}
    assert Vocab.from_dataset(dataset, freq_range=(2, 3)).vocab() == {"c": 2, "b": 1, "a": 0}
    assert Vocab.from_dataset(dataset, freq_range=(None, 1), special_tokens=["<unk>"],
                              special_first=False).vocab() == {"<unk>": 3, "z": 2, "e": 1, "d": 0}


def test_from_dataset_refuses_numbers():
    dataset = ds.GeneratorDataset(lambda: ((np.array([1, 2]),) for _ in range(2)), ["n"], shuffle=False)
    with pytest.raises(TypeError, match="'build_vocab' only supports string type of input, but got numeric type: "
                                        "int64"):
        Vocab.from_dataset(dataset)


@pytest.mark.parametrize("call, error, message", [
    (lambda v: Vocab.from_list(["a", "a"], special_tokens=["a"]), ValueError, "word_list contains duplicate word: a."),
    (lambda v: Vocab.from_list(["a", "<s>"], special_tokens=["<s>"]), ValueError,
     "special_tokens and word_list contain duplicate word :{'<s>'}."),
    (lambda v: Vocab.from_dict({"a": -1}), ValueError,
     r"Input word_id is not within the required interval of \[0, 2147483647\]."),
    (lambda v: Vocab.from_list("abc"), TypeError,
     r"Argument word_list with value abc is not of type \[<class 'list'>\], but got <class 'str'>."),
    (lambda v: Vocab.from_list([1, 2]), TypeError,
     r"Argument word_list with value 1 is not of type \[<class 'str'>\], but got <class 'int'>."),
    (lambda v: Vocab().vocab(), RuntimeError, r"The Vocab has not built yet, got type <class 'NoneType'>."),
    (lambda v: v.tokens_to_ids(3), TypeError, r"Argument tokens with value 3 is not of type"),
    (lambda v: v.ids_to_tokens("a"), TypeError, r"Argument ids with value a is not of type"),
    (lambda v: v.ids_to_tokens(-1), ValueError,
     r"Input ids is not within the required interval of \[0, 2147483647\]."),
])
def test_mindspore_errors(vocab, call, error, message):
    with pytest.raises(error, match=message):
        call(vocab)


def test_reached_as_dataset_text():
    assert ds.text.Vocab is Vocab


# ---- text.Lookup (MindSpore 2.10's values and messages)


def test_lookup_is_mindspores():
    import npspore as ms
    from npspore.dataset import text
    vocab = text.Vocab.from_list(["home", "behind", "the", "world", "<unk>"])
    out = text.Lookup(vocab, "<unk>")(np.array(["home", "world", "nope"]))  # the mindspore.dataset.text.Lookup page
    assert (out.dtype, out.tolist()) == (np.int32, [0, 3, 4])
    assert text.Lookup(vocab, "<unk>")("home").tolist() == 0
    assert text.Lookup(vocab, data_type=ms.float32)(np.array(["home", "the"])).tolist() == [0.0, 2.0]
    assert text.Lookup(vocab, data_type=ms.int64)(np.array(["behind"])).dtype == np.int64
    data = ds.NumpySlicesDataset({"t": np.array([["home", "the"], ["world", "x"]])}, shuffle=False)
    rows = [row[0] for row in data.map(text.Lookup(vocab, "<unk>")).create_tuple_iterator(output_numpy=True)]
    assert [row.tolist() for row in rows] == [[0, 2], [3, 4]] and rows[0].dtype == np.int32
    for call, error, message in [
            (lambda: text.Lookup(vocab)(np.array(["nope"])), RuntimeError,
             'Lookup: invalid data, token: "nope" doesn\'t exist in vocab and no unknown token is specified.'),
            (lambda: text.Lookup(vocab, "zzz")(np.array(["nope"])), RuntimeError,
             'Lookup: "zzz" doesn\'t exist in vocab.'),
            (lambda: text.Lookup("a"), TypeError, "Argument vocab is not an instance of text.Vocab."),
            (lambda: text.Lookup(vocab, 5), TypeError,
             "Argument unknown_token with value 5 is not of type [<class 'str'>], but got <class 'int'>."),
            (lambda: text.Lookup(vocab)(np.array([1, 2])), RuntimeError, "Lookup: input is not string datatype.")]:
        with pytest.raises(error) as raised:
            call()
        assert message in str(raised.value)
