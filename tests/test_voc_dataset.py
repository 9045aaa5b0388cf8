"""``VOCDataset`` (issue 26, data-nn-fn): ``RECORDED`` are the columns, class indexing and rows (an encoded image as
its length; dtype, shape and first values otherwise) or errors MindSpore 2.10 gives for the tree of
``tests/voc_fixtures.py``, printed by ``tools/observe_mindspore_voc.py`` (``{root}`` stands for the tree's folder).
"""
import numpy as np
import pytest

import npspore.dataset as ds

from voc_fixtures import CASES, column_summary, write_voc

RECORDED = {'segmentation': (['image', 'target'], None,
                  [(('encoded', 701), ('encoded', 75)), (('encoded', 721), ('encoded', 83))]),
 'segmentation_decoded': (['image', 'target'], None,
                          [(('uint8', (6, 8, 3), [3, 0, 13, 15, 12, 23, 31, 25, 35, 39, 37, 42]),
                            ('uint8', (6, 8, 3), [0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0]))]),
 'detection': (['image', 'bbox', 'label', 'difficult', 'truncate'], {'cat': 0, 'dog': 1, 'person': 2},
               [(('encoded', 701), ('float32', (2, 4), [1.0, 2.0, 4.0, 4.0, 1.0, 1.0, 2.5, 3.75]),
                 ('uint32', (2, 1), [1, 2]), ('uint32', (2, 1), [0, 1]), ('uint32', (2, 1), [0, 0])),
                (('encoded', 721), ('float32', (1, 4), [2.0, 1.0, 5.0, 4.0]), ('uint32', (1, 1), [0]),
                 ('uint32', (1, 1), [0]), ('uint32', (1, 1), [1]))]),
 'detection_indexing': (['image', 'bbox', 'label', 'difficult', 'truncate'], {'cat': 0, 'dog': 1, 'person': 2},
                        [(('encoded', 701), ('float32', (2, 4), [1.0, 2.0, 4.0, 4.0, 1.0, 1.0, 2.5, 3.75]),
                          ('uint32', (2, 1), [1, 2]), ('uint32', (2, 1), [0, 1]), ('uint32', (2, 1), [0, 0])),
                         (('encoded', 721), ('float32', (1, 4), [2.0, 1.0, 5.0, 4.0]), ('uint32', (1, 1), [0]),
                          ('uint32', (1, 1), [0]), ('uint32', (1, 1), [1]))]),
 'bad_task': ('ValueError', 'Invalid task : Classification.'),
 'bad_usage': ('ValueError',
               'The file {root}/VOC2012/ImageSets/Main/test.txt does not exist or permission denied!'),
 'indexing_with_segmentation': ('ValueError', 'class_indexing is not supported in Segmentation task.')}


@pytest.fixture(scope="module")
def voc(tmp_path_factory):
    return write_voc(tmp_path_factory.mktemp("voc"))


@pytest.mark.parametrize("key, arguments", [case for case in CASES if case[0] in RECORDED])
def test_rows_are_mindspores(voc, key, arguments):
    want = RECORDED[key]
    if isinstance(want[0], str):
        with pytest.raises(ValueError) as raised:
            ds.VOCDataset(str(voc), shuffle=False, **arguments)
        assert str(raised.value) == want[1].format(root=voc.parent)
        return
    dataset = ds.VOCDataset(str(voc), shuffle=False, **arguments)
    assert dataset.get_col_names() == want[0]
    if arguments["task"] == "Detection":
        assert dataset.get_class_indexing() == want[1]
    rows = [tuple(column_summary(c) for c in row) for row in dataset.create_tuple_iterator(output_numpy=True)]
    assert rows == want[2]


def test_encoded_columns_are_the_files_and_errors_are_clear(voc, tmp_path):
    image, target = next(ds.VOCDataset(str(voc), shuffle=False).create_tuple_iterator(output_numpy=True))
    assert image.tobytes() == (voc / "JPEGImages" / "2007_000001.jpg").read_bytes()
    assert target.tobytes() == (voc / "SegmentationClass" / "2007_000001.png").read_bytes()
    with pytest.raises(ValueError, match="extra_metadata must be False"):
        ds.VOCDataset(str(voc), task="Detection", extra_metadata=True)
    partial = ds.VOCDataset(str(voc), task="Detection", class_indexing={"cat": 0}, shuffle=False)
    with pytest.raises(RuntimeError, match="the label dog of 2007_000001.xml is not in class_indexing"):
        list(partial.create_tuple_iterator(output_numpy=True))
    (voc / "Annotations" / "broken.xml").write_text("<annotation><object><name>x</name><bndbox><xmin>0</xmin>"
                                                    "<ymin>1</ymin><xmax>2</xmax><ymax>3</ymax></bndbox></object>"
                                                    "</annotation>", encoding="utf-8")
    (voc / "ImageSets" / "Main" / "broken.txt").write_text("broken\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="should be greater than 0"):
        ds.VOCDataset(str(voc), task="Detection", usage="broken")
    assert np.array_equal(ds.VOCDataset(str(voc), num_samples=1, shuffle=False).get_dataset_size(), 1)
