"""Speech corpora (issue 26, data-nn-fn): ``YesNoDataset`` and ``LJSpeechDataset``. ``RECORDED`` are the columns
and rows (dtype, shape, values) MindSpore 2.10 reads from ``tests/speech_fixtures.py``, printed by
``tools/observe_mindspore_audio_datasets.py``.
"""
import pytest

import npspore.dataset as ds
from speech_fixtures import write_speech

RECORDED = {'YesNoDataset': (['waveform', 'sample_rate', 'label'],
                  [(('float32', (1, 5),
                     [0.0, 0.030518509447574615, -1.000030517578125, 1.0, 0.00015259254723787308]),
                    ('int32', (), [8000]), ('int32', (8,), [0, 1, 0, 0, 1, 0, 1, 1])),
                   (('float32', (1, 3), [0.0002136295661330223, -0.0002136295661330223, 0.009155552834272385]),
                    ('int32', (), [8000]), ('int32', (8,), [1, 1, 0, 1, 1, 0, 0, 0]))]),
 'LJSpeechDataset': (['waveform', 'sample_rate', 'transcription', 'normalized_transcription'],
                     [(('float32', (1, 3), [0.0, 0.030518509447574615, -1.000030517578125]), ('int32', (), [22050]),
                       ('str', (), ['Printing, in the only sense']), ('str', (), ['Printing, in the only sense'])),
                      (('float32', (1, 4),
                        [0.0002136295661330223, -0.0002136295661330223, 0.009155552834272385,
                         6.103701889514923e-05]),
                       ('int32', (), [22050]), ('str', (), ['in being comparatively modern.']),
                       ('str', (), ['in being comparatively modern, 2']))])}


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("speech")
    write_speech(root)
    return root


@pytest.mark.parametrize("name", list(RECORDED))
def test_rows_are_mindspores(corpora, name):
    dataset = getattr(ds, name)(str(corpora / name), shuffle=False)
    rows = [tuple((c.dtype.name if c.dtype.kind != "U" else "str", c.shape, c.ravel().tolist()) for c in row)
            for row in dataset.create_tuple_iterator(output_numpy=True)]
    assert (dataset.get_col_names(), rows) == RECORDED[name]


def test_bad_files_get_clear_errors(corpora, tmp_path):
    (tmp_path / "yes.wav").write_bytes(b"RIFF....")
    with pytest.raises(RuntimeError, match="Invalid file name"):
        list(ds.YesNoDataset(str(tmp_path)).create_tuple_iterator(output_numpy=True))
    (tmp_path / "0_0_0_0_0_0_0_0.wav").write_bytes(b"not a wav")
    with pytest.raises(RuntimeError, match="Invalid wav file"):
        list(ds.YesNoDataset(str(tmp_path), sampler=[0]).create_tuple_iterator(output_numpy=True))
    with pytest.raises(ValueError, match="metadata.csv does not exist"):
        ds.LJSpeechDataset(str(tmp_path))
