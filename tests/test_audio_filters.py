"""dataset.audio's IIR filters: Biquad, BassBiquad, TrebleBiquad. Every output below was printed by MindSpore 2.10
for the same waveform and arguments (float16, float32 and float64 waveforms; equal to the last bit)."""
import numpy as np
import pytest

import npspore.dataset as ds
from npspore.dataset import audio

WAVE = (np.sin(np.arange(12) * 0.7) * 0.8).astype(np.float32)


def test_bass_boost_clamps_the_output_but_not_the_recursion():
    expected = np.float32([0., 0.615643, 1., 1., 1., 0.85980165, 0.38776135, 0.11403054, 0.19998187, 0.63778675,
                           1., 1.])
    np.testing.assert_array_equal(audio.BassBiquad(44100, 100.0)(WAVE), expected)


def test_bass_cut_filters_each_channel_from_rest():
    expected = np.float32([[0., 0.4958453, 0.7223398, 0.5783535, 0.13620651, -0.39222932],
                           [-0.67083967, -0.7072761, -0.3891455, 0.13064247, 0.60482085, 0.8079879]])
    np.testing.assert_array_equal(audio.BassBiquad(16000, -6.0, 300.0, 0.5)(WAVE.reshape(2, 6)), expected)


def test_bass_in_float64_and_float16():
    expected64 = [0., 0.9125445883994066, 1., 1., 1., 1., 1., -0.438494778017116, -1., -1., -1., -1.]
    out = audio.BassBiquad(8000, 20.0, 1000.0, 1.0)(WAVE.astype(np.float64))
    assert out.dtype == np.float64 and out.tolist() == expected64
    out16 = audio.BassBiquad(44100, 3.0)(WAVE.astype(np.float16))
    np.testing.assert_array_equal(out16, np.float16([0., 0.516, 0.792, 0.697, 0.2773, -0.2705, -0.6885, -0.7793,
                                                     -0.5, 0.01709, 0.5293, 0.7964]))


def test_treble_computes_its_coefficients_in_float32():
    expected = np.float32([0., 0.92791706, 1., 0.8390547, -0.040682495, -0.94578177, -1., -1., -0.45349765,
                           0.54845464, 1., 1.])
    np.testing.assert_array_equal(audio.TrebleBiquad(44100, 6.0)(WAVE), expected)
    expected64 = [0., 0.39726220486673963, 0.6708267956063164, 0.6782632201341189, 0.3915270698229972,
                  -0.07499265914340103, -0.5129266055337852, -0.7189342987486768, -0.5939057831763823,
                  -0.1930065300364644, 0.2981638680276645, 0.6501454404589426]
    assert audio.TrebleBiquad(16000, -3.0, 2000, 0.9)(WAVE.astype(np.float64)).tolist() == expected64


def test_biquad_normalises_by_a0_in_the_waveform_dtype():
    expected = np.float32([[0., 0.13743311, 0.2514592, 0.29165682], [0.07146414, -0.053394523, -0.18527958,
                                                                      -0.29132977],
                           [-0.13467021, -0.0368141, 0.09768988, 0.25733802]])
    np.testing.assert_array_equal(audio.Biquad(0.4, 0.2, 0.1, 1.5, 0.3, -0.2)(WAVE.reshape(3, 4)), expected)


def test_a_filter_in_a_dataset_map():
    data = ds.NumpySlicesDataset({"audio": WAVE.reshape(2, 6)}, shuffle=False)
    rows = [row["audio"] for row in data.map(audio.TrebleBiquad(44100, 6.0), ["audio"]).create_dict_iterator(
        output_numpy=True)]
    np.testing.assert_array_equal(np.stack(rows), audio.TrebleBiquad(44100, 6.0)(WAVE.reshape(2, 6)))


@pytest.mark.parametrize("make, error, message", [
    (lambda: audio.BassBiquad(0, 1.0), ValueError,
     "Input sample_rate is not within the required interval of [-2147483648, 0) and (0, 2147483647]."),
    (lambda: audio.BassBiquad(44100, "1"), TypeError,
     "Argument gain with value 1 is not of type [<class 'float'>, <class 'int'>], but got <class 'str'>."),
    (lambda: audio.BassBiquad(44100, 1.0, 100.0, 1.5), ValueError,
     "Input Q is not within the required interval of (0, 1]."),
    (lambda: audio.TrebleBiquad(1.5, 1.0), TypeError,
     "Argument sample_rate with value 1.5 is not of type [<class 'int'>], but got <class 'float'>."),
    (lambda: audio.Biquad(0.1, 0.2, 0.3, 0.0, 0.1, 0.1), ValueError,
     "Input a0 is not within the required interval of [-16777216, 0) and (0, 16777216]."),
    (lambda: audio.BassBiquad(44100, 1.0)(np.arange(4, dtype=np.int32)), RuntimeError,
     "BassBiquad: the data type of input tensor does not match the requirement of operator. Expecting tensor in "
     "type of [float, double]. But got type int32."),
])
def test_errors_are_mindspore_s(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message
