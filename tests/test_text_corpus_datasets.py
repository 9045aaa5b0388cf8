"""Text corpora in their published layouts (issue 26, data-nn-fn): AGNews, AmazonReview, DBpedia, SogouNews,
YahooAnswers, YelpReview (CSV), WikiText, PennTreebank (lines), SQuAD (JSON), IMDB (review folders), CoNLL2000,
UDPOS (sentences).

``RECORDED`` are the column names and rows MindSpore 2.10 reads from the fixtures of ``tests/text_corpus_fixtures.py``
(``shuffle=False``, one worker), or its error, printed by ``tools/observe_mindspore_text_corpora.py``.
"""
import numpy as np
import pytest

import npspore.dataset as ds
from text_corpus_fixtures import write_all

RECORDED = {
    ('AGNewsDataset', 'train'): (   ['index', 'title', 'description'],
                                    [   ('3', 'Great pick', 'Works well, "really" well.'),
                                        ('1', 'Bad', 'Broke\\non day one'),
                                        ('2', 'Meh', '')]),
    ('AGNewsDataset', 'test'): (   ['index', 'title', 'description'],
                                   [('1', 'Short', 'ok'), ('2', 'Two, parts', 'a,b')]),
    ('AGNewsDataset', 'all'): (   ['index', 'title', 'description'],
                                  [   ('1', 'Short', 'ok'),
                                      ('2', 'Two, parts', 'a,b'),
                                      ('3', 'Great pick', 'Works well, "really" well.'),
                                      ('1', 'Bad', 'Broke\\non day one'),
                                      ('2', 'Meh', '')]),
    ('AGNewsDataset', None): (   ['index', 'title', 'description'],
                                 [   ('1', 'Short', 'ok'),
                                     ('2', 'Two, parts', 'a,b'),
                                     ('3', 'Great pick', 'Works well, "really" well.'),
                                     ('1', 'Bad', 'Broke\\non day one'),
                                     ('2', 'Meh', '')]),
    ('AmazonReviewDataset', 'train'): (   ['label', 'title', 'content'],
                                          [   ('3', 'Great pick', 'Works well, "really" well.'),
                                              ('1', 'Bad', 'Broke\\non day one'),
                                              ('2', 'Meh', '')]),
    ('AmazonReviewDataset', 'test'): (   ['label', 'title', 'content'],
                                         [('1', 'Short', 'ok'), ('2', 'Two, parts', 'a,b')]),
    ('AmazonReviewDataset', 'all'): (   ['label', 'title', 'content'],
                                        [   ('1', 'Short', 'ok'),
                                            ('2', 'Two, parts', 'a,b'),
                                            ('3', 'Great pick', 'Works well, "really" well.'),
                                            ('1', 'Bad', 'Broke\\non day one'),
                                            ('2', 'Meh', '')]),
    ('AmazonReviewDataset', None): (   ['label', 'title', 'content'],
                                       [   ('1', 'Short', 'ok'),
                                           ('2', 'Two, parts', 'a,b'),
                                           ('3', 'Great pick', 'Works well, "really" well.'),
                                           ('1', 'Bad', 'Broke\\non day one'),
                                           ('2', 'Meh', '')]),
    ('DBpediaDataset', 'train'): (   ['class', 'title', 'content'],
                                     [   ('3', 'Great pick', 'Works well, "really" well.'),
                                         ('1', 'Bad', 'Broke\\non day one'),
                                         ('2', 'Meh', '')]),
    ('DBpediaDataset', 'test'): (['class', 'title', 'content'], [('1', 'Short', 'ok'), ('2', 'Two, parts', 'a,b')]),
    ('DBpediaDataset', 'all'): (   ['class', 'title', 'content'],
                                   [   ('1', 'Short', 'ok'),
                                       ('2', 'Two, parts', 'a,b'),
                                       ('3', 'Great pick', 'Works well, "really" well.'),
                                       ('1', 'Bad', 'Broke\\non day one'),
                                       ('2', 'Meh', '')]),
    ('DBpediaDataset', None): (   ['class', 'title', 'content'],
                                  [   ('1', 'Short', 'ok'),
                                      ('2', 'Two, parts', 'a,b'),
                                      ('3', 'Great pick', 'Works well, "really" well.'),
                                      ('1', 'Bad', 'Broke\\non day one'),
                                      ('2', 'Meh', '')]),
    ('SogouNewsDataset', 'train'): (   ['index', 'title', 'content'],
                                       [   ('3', 'Great pick', 'Works well, "really" well.'),
                                           ('1', 'Bad', 'Broke\\non day one'),
                                           ('2', 'Meh', '')]),
    ('SogouNewsDataset', 'test'): (['index', 'title', 'content'], [('1', 'Short', 'ok'), ('2', 'Two, parts', 'a,b')]),
    ('SogouNewsDataset', 'all'): (   ['index', 'title', 'content'],
                                     [   ('3', 'Great pick', 'Works well, "really" well.'),
                                         ('1', 'Bad', 'Broke\\non day one'),
                                         ('2', 'Meh', ''),
                                         ('1', 'Short', 'ok'),
                                         ('2', 'Two, parts', 'a,b')]),
    ('SogouNewsDataset', None): (   ['index', 'title', 'content'],
                                    [   ('3', 'Great pick', 'Works well, "really" well.'),
                                        ('1', 'Bad', 'Broke\\non day one'),
                                        ('2', 'Meh', ''),
                                        ('1', 'Short', 'ok'),
                                        ('2', 'Two, parts', 'a,b')]),
    ('YahooAnswersDataset', 'train'): (   ['class', 'title', 'content', 'answer'],
                                          [   ('3', 'Great pick', 'Works well, "really" well.', 'an answer'),
                                              ('1', 'Bad', 'Broke\\non day one', 'no'),
                                              ('2', 'Meh', '', '')]),
    ('YahooAnswersDataset', 'test'): (   ['class', 'title', 'content', 'answer'],
                                         [('1', 'Short', 'ok', 'yes'), ('2', 'Two, parts', 'a,b', 'c')]),
    ('YahooAnswersDataset', 'all'): (   ['class', 'title', 'content', 'answer'],
                                        [   ('1', 'Short', 'ok', 'yes'),
                                            ('2', 'Two, parts', 'a,b', 'c'),
                                            ('3', 'Great pick', 'Works well, "really" well.', 'an answer'),
                                            ('1', 'Bad', 'Broke\\non day one', 'no'),
                                            ('2', 'Meh', '', '')]),
    ('YahooAnswersDataset', None): (   ['class', 'title', 'content', 'answer'],
                                       [   ('1', 'Short', 'ok', 'yes'),
                                           ('2', 'Two, parts', 'a,b', 'c'),
                                           ('3', 'Great pick', 'Works well, "really" well.', 'an answer'),
                                           ('1', 'Bad', 'Broke\\non day one', 'no'),
                                           ('2', 'Meh', '', '')]),
    ('YelpReviewDataset', 'train'): (   ['label', 'text'],
                                        [   ('3', 'Works well, "really" well.'),
                                            ('1', 'Broke\\non day one'),
                                            ('2', '')]),
    ('YelpReviewDataset', 'test'): (['label', 'text'], [('1', 'ok'), ('2', 'a,b')]),
    ('YelpReviewDataset', 'all'): (   ['label', 'text'],
                                      [   ('3', 'Works well, "really" well.'),
                                          ('1', 'Broke\\non day one'),
                                          ('2', ''),
                                          ('1', 'ok'),
                                          ('2', 'a,b')]),
    ('YelpReviewDataset', None): (   ['label', 'text'],
                                     [   ('3', 'Works well, "really" well.'),
                                         ('1', 'Broke\\non day one'),
                                         ('2', ''),
                                         ('1', 'ok'),
                                         ('2', 'a,b')]),
    ('WikiTextDataset', 'train'): (['text'], [(' = Title = ',), (' Some words here . ',), (' @-@ more ',)]),
    ('WikiTextDataset', 'test'): (['text'], [(' test line ',)]),
    ('WikiTextDataset', 'all'): (   ['text'],
                                    [   (' test line ',),
                                        (' = Title = ',),
                                        (' Some words here . ',),
                                        (' @-@ more ',),
                                        (' valid ',)]),
    ('WikiTextDataset', None): (   ['text'],
                                   [   (' test line ',),
                                       (' = Title = ',),
                                       (' Some words here . ',),
                                       (' @-@ more ',),
                                       (' valid ',)]),
    ('PennTreebankDataset', 'train'): (['text'], [(' = Title = ',), (' Some words here . ',), (' @-@ more ',)]),
    ('PennTreebankDataset', 'test'): (['text'], [(' test line ',)]),
    ('PennTreebankDataset', 'all'): (   ['text'],
                                        [   (' test line ',),
                                            (' = Title = ',),
                                            (' Some words here . ',),
                                            (' @-@ more ',),
                                            (' valid ',)]),
    ('PennTreebankDataset', None): (   ['text'],
                                       [   (' test line ',),
                                           (' = Title = ',),
                                           (' Some words here . ',),
                                           (' @-@ more ',),
                                           (' valid ',)]),
    ('SQuADDataset', 'train'): (   ['context', 'question', 'text', 'answer_start'],
                                   [   ('The cat sat on the mat.', 'Where did the cat sit?', ['on the mat'], [12]),
                                       ('The cat sat on the mat.', 'Who sat?', ['The cat', 'cat'], [0, 4]),
                                       ('The cat sat on the mat.', 'Why?', [''], [4294967295])]),
    ('SQuADDataset', 'test'): ('ValueError', "Input usage is not within the valid set of ['train', 'dev', 'all']."),
    ('SQuADDataset', 'all'): (   ['context', 'question', 'text', 'answer_start'],
                                 [   ('The cat sat on the mat.', 'Where did the cat sit?', ['on the mat'], [12]),
                                     ('The cat sat on the mat.', 'Who sat?', ['The cat', 'cat'], [0, 4]),
                                     ('The cat sat on the mat.', 'Why?', [''], [4294967295]),
                                     ('Dev text.', 'What?', ['Dev'], [0])]),
    ('SQuADDataset', None): (   ['context', 'question', 'text', 'answer_start'],
                                [   ('The cat sat on the mat.', 'Where did the cat sit?', ['on the mat'], [12]),
                                    ('The cat sat on the mat.', 'Who sat?', ['The cat', 'cat'], [0, 4]),
                                    ('The cat sat on the mat.', 'Why?', [''], [4294967295]),
                                    ('Dev text.', 'What?', ['Dev'], [0])]),
    ('WikiTextDataset', 'valid'): (['text'], [(' valid ',)]),
    ('SQuADDataset', 'dev'): (   ['context', 'question', 'text', 'answer_start'],
                                 [('Dev text.', 'What?', ['Dev'], [0])]),
    ('AGNewsDataset', 'valid'): (   'ValueError',
                                    "Input usage is not within the valid set of ['train', 'test', 'all']."),
    ('IMDBDataset', 'train'): (['text', 'label'],
                               [('great movie', 1), ('really', 1), ('bad', 0), ('x', 0), ('y', 0)]),
    ('IMDBDataset', 'test'): (['text', 'label'], [('ok <br /> fine', 1), ('awful ', 0)]),
    ('IMDBDataset', 'all'): (['text', 'label'],
                             [('great movie', 1), ('really', 1), ('bad', 0), ('x', 0), ('y', 0),
                              ('ok <br /> fine', 1), ('awful ', 0)]),
    ('IMDBDataset', None): (['text', 'label'],
                            [('great movie', 1), ('really', 1), ('bad', 0), ('x', 0), ('y', 0),
                             ('ok <br /> fine', 1), ('awful ', 0)]),
    ('IMDBDataset', 'valid'): ('ValueError',
                               "Input usage is not within the valid set of ['train', 'test', 'all']."),
    ('CoNLL2000Dataset', 'train'): (['word', 'pos_tag', 'chunk_tag'],
                                    [(['Confidence', 'in'], ['NN', 'IN'], ['B-NP', 'B-PP'])]),
    ('CoNLL2000Dataset', 'test'): (['word', 'pos_tag', 'chunk_tag'], [(['Rockwell'], ['NNP'], ['B-NP'])]),
    ('CoNLL2000Dataset', 'all'): (['word', 'pos_tag', 'chunk_tag'],
                                  [(['Rockwell'], ['NNP'], ['B-NP']),
                                   (['Confidence', 'in'], ['NN', 'IN'], ['B-NP', 'B-PP'])]),
    ('CoNLL2000Dataset', 'valid'): ('ValueError',
                                    "Input usage is not within the valid set of ['train', 'test', 'all']."),
    ('UDPOSDataset', 'train'): (['word', 'universal', 'stanford'],
                                [(['Al', '-'], ['PROPN', 'PUNCT'], ['NNP', 'HYPH'])]),
    ('UDPOSDataset', 'valid'): (['word', 'universal', 'stanford'], []),
    ('UDPOSDataset', 'test'): (['word', 'universal', 'stanford'], [(['y'], ['Y'], ['YY'])]),
    ('UDPOSDataset', 'all'): (['word', 'universal', 'stanford'],
                              [(['y'], ['Y'], ['YY']), (['Al', '-'], ['PROPN', 'PUNCT'], ['NNP', 'HYPH'])]),
    ('UDPOSDataset', None): (['word', 'universal', 'stanford'],
                             [(['y'], ['Y'], ['YY']), (['Al', '-'], ['PROPN', 'PUNCT'], ['NNP', 'HYPH'])]),
}


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpora")
    write_all(root)
    return root


@pytest.mark.parametrize("name, usage", list(RECORDED))
def test_rows_are_mindspores(corpora, name, usage):
    want = RECORDED[(name, usage)]
    if isinstance(want[0], str):
        with pytest.raises(ValueError) as raised:
            getattr(ds, name)(str(corpora / name), usage=usage, shuffle=False)
        assert str(raised.value) == want[1]
        return
    dataset = getattr(ds, name)(str(corpora / name), usage=usage, shuffle=False)
    assert dataset.get_col_names() == want[0]
    rows = [tuple(column.tolist() for column in row) for row in dataset.create_tuple_iterator(output_numpy=True)]
    assert rows == want[1]
    assert dataset.get_dataset_size() == len(want[1])


def test_squad_columns_have_mindspores_dtypes(corpora):
    row = next(ds.SQuADDataset(str(corpora / "SQuADDataset"), "train", shuffle=False).create_tuple_iterator(
        output_numpy=True))
    assert [column.dtype.kind for column in row] == ["U", "U", "U", "u"] and row[3].dtype == np.uint32
    assert [column.ndim for column in row] == [0, 0, 1, 1]


def test_shuffle_shards_and_samples(corpora):
    folder = str(corpora / "AmazonReviewDataset")
    every = sorted(tuple(c.tolist() for c in row) for row in ds.AmazonReviewDataset(folder).create_tuple_iterator(
        output_numpy=True))
    assert every == sorted(RECORDED[("AmazonReviewDataset", "all")][1])
    shards = [[tuple(c.tolist() for c in row) for row in ds.AmazonReviewDataset(
        folder, shuffle=False, num_shards=2, shard_id=i).create_tuple_iterator(output_numpy=True)] for i in range(2)]
    assert [len(shard) for shard in shards] == [3, 3]   # equal shards: 5 rows padded by wrapping round
    assert sorted(set(shards[0] + shards[1])) == every
    assert ds.WikiTextDataset(str(corpora / "WikiTextDataset"), num_samples=2).get_dataset_size() == 2


def test_bad_directories_and_files_get_clear_errors(corpora, tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.YelpReviewDataset(str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="test.csv does not exist"):
        ds.DBpediaDataset(str(tmp_path))
    (tmp_path / "train-v1.1.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="Invalid SQuAD file"):
        ds.SQuADDataset(str(tmp_path), "train")


def test_imdb_labels_are_int32_and_shuffled_by_default(corpora):
    rows = list(ds.IMDBDataset(str(corpora / "IMDBDataset"), "train").create_tuple_iterator(output_numpy=True))
    assert all(label.dtype == np.int32 and label.ndim == 0 for _, label in rows)
    assert sorted(str(text) for text, _ in rows) == sorted(r[0] for r in RECORDED[("IMDBDataset", "train")][1])
