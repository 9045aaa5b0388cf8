"""MindSpore's default initializers draw from NumPy's global generator (repro r10): a network built after
``np.random.seed`` gets MindSpore's exact initial weights and leaves NumPy's generator where MindSpore leaves it.

``MINDSPORE_VALUES`` was printed by MindSpore 2.10.0 (CPU) with ``/work/msvenv/bin/python
tools/observe_mindspore_initializers.py``: per case, after ``np.random.seed(7)``, each parameter's name, first
four values and sum, then the next ``np.random.uniform()``; ``build(npspore, name)`` builds the same cases.
"""

import os
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from observe_mindspore_initializers import build  # noqa: E402

MINDSPORE_VALUES = {
    'dense': ([('weight',
                [-0.09033269435167313, -0.06317994743585587, -0.4560338854789734, 0.5381223559379578],
                0.250227689743042),
               ('bias', [0.3728247582912445, 0.576283872127533], 0.9491086304187775)],
              0.4384092314408935),
    'dense_no_bias': ([('weight',
                        [-0.06997140496969223, -0.04893897473812103, -0.35324233770370483, 0.4168277978897095],
                        -0.6626812294125557)],
                      0.7799187922401146),
    'conv2d': ([('weight',
                 [-0.03687816858291626, -0.025793105363845825, -0.18617506325244904, 0.2196875363588333],
                 0.26943533355370164),
                ('bias', [0.15220507979393005, 0.23526690900325775, 0.1662285327911377], 0.5537005215883255)],
               0.4384092314408935),
    'conv1d': ([('weight',
                 [-0.06387486308813095, -0.04467497020959854, -0.3224646747112274, 0.38051000237464905],
                 -0.0322011262178421),
                ('bias', [0.26362693309783936, 0.4074942469596863, 0.28791627287864685], 0.9590374529361725)],
               0.4384092314408935),
    'conv2d_transpose': ([('weight',
                           [-0.030110899358987808, -0.021059982478618622, -0.15201130509376526, 0.17937412858009338],
                           0.21999304508790374),
                          ('bias', [0.12427492439746857, 0.192094624042511, 0.1357250213623047], 0.45209456980228424)],
                         0.4384092314408935),
    'embedding': ([('embedding_table',
                    [0.003317623632028699, -0.00029898519278503954, -0.0053616296499967575, -0.004221366718411446],
                    0.06833402285701595)],
                  0.7799187922401146),
    'lstm': ([('weight_ih_l0',
               [-0.5991905927658081, 0.39586496353149414, -0.0871025025844574, 0.3160274922847748],
               -0.0639912506157998),
              ('weight_hh_l0',
               [0.5785949230194092, -0.5187767744064331, 0.03311038762331009, 0.3541330099105835],
               0.1886732392013073),
              ('bias_ih_l0',
               [-0.06669016182422638, -0.20791998505592346, 0.2225964516401291, -0.18335126340389252],
               0.4686761163175106),
              ('bias_hh_l0',
               [-0.4519096612930298, 0.34099358320236206, -0.10977967828512192, -0.10401035845279694],
               -0.9277282729744911)],
             0.09226234584675208),
    'gru_bidirectional': ([('weight_ih_l0',
                            [-0.5991905927658081, 0.39586496353149414, -0.0871025025844574, 0.3160274922847748],
                            -0.46785731814452447),
                           ('weight_ih_l0_reverse',
                            [0.2225964516401291, -0.18335126340389252, -0.057851266115903854, 0.3101711571216583],
                            -0.15309908986091614),
                           ('weight_hh_l0',
                            [0.609817385673523, -0.6718939542770386, 0.1421976387500763, 0.6365792155265808],
                            1.0443440936505795),
                           ('weight_hh_l0_reverse',
                            [0.6441294550895691, 0.25867924094200134, -0.6319714784622192, -0.27032312750816345],
                            1.4586340747773647),
                           ('bias_ih_l0',
                            [-0.4174064099788666, -0.01305900514125824, -0.18047530949115753, -0.031959593296051025],
                            -0.35467176139354706),
                           ('bias_ih_l0_reverse',
                            [-0.27049145102500916, -0.052331000566482544, 0.3420235812664032, -0.020046154037117958],
                            -0.7356525156646967),
                           ('bias_hh_l0',
                            [0.3799249529838562, -0.26305124163627625, 0.10270772874355316, -0.31671446561813354],
                            -0.37174317240715027),
                           ('bias_hh_l0_reverse',
                            [-0.24829889833927155, -0.2822502851486206, -0.473052442073822, -0.12034706771373749],
                            -0.8085493221879005)],
                          0.7963907007825485),
    'lstm_cell': ([('weight_ih',
                    [-0.3351801633834839, -0.5712381601333618, 0.07457149773836136, 0.5079113841056824],
                    -1.0155770843848586),
                   ('weight_hh',
                    [0.11188573390245438, -0.4066235423088074, 0.47991397976875305, -0.20663464069366455],
                    -0.4347127415239811),
                   ('bias_ih',
                    [-0.24439534544944763, 0.05589526891708374, 0.3493252992630005, -0.24777163565158844],
                    -1.6210267543792725),
                   ('bias_hh',
                    [-0.01085392851382494, -0.27993327379226685, -0.25914737582206726, 0.24903367459774017],
                    0.9708934070076793)],
                  0.8484008808376887),
    'batch_norm': ([('mean', [0.0, 0.0, 0.0], 0.0),
                    ('variance', [1.0, 1.0, 1.0], 3.0),
                    ('gamma', [1.0, 1.0, 1.0], 3.0),
                    ('beta', [0.0, 0.0, 0.0], 0.0)],
                   0.07630828937395717),
    'layer_norm': ([('gamma', [1.0, 1.0, 1.0], 3.0), ('beta', [0.0, 0.0, 0.0], 0.0)], 0.07630828937395717),
    'multihead_attention': ([('in_proj_weight',
                              [-0.09581229835748672, -0.06701245158910751, -0.4836970269680023, 0.57076495885849],
                              -0.23187188804149628),
                             ('in_proj_bias', [0.0, 0.0, 0.0, 0.0], 0.0),
                             ('out_proj.weight',
                              [0.3228757083415985, 0.4990764856338501, 0.35262396931648254, 0.008408226072788239],
                              1.9387123249471188),
                             ('out_proj.bias',
                              [-0.44022276997566223, 0.05108628422021866, 0.10804226249456406, 0.43727463483810425],
                              0.15618041157722473)],
                            0.7234651778309412),
    'normal': ([('w',
                 [0.003317623632028699, -0.00029898519278503954, -0.0053616296499967575, -0.004221366718411446],
                 -0.003227985609555617)],
               0.7799187922401146),
    'normal_float16': ([('w',
                         [0.0033168792724609375, -0.0002989768981933594, -0.00536346435546875, -0.004222869873046875],
                         -0.003242015838623047)],
                       0.7799187922401146),
    'uniform': ([('w',
                  [-0.010952257551252842, -0.00766016123816371, -0.05529117211699486, 0.06524387001991272],
                  -0.13002647133544087)],
                0.7799187922401146),
    'truncated_normal': ([('w',
                           [-0.003947369754314423, -0.0027516819536685944, -0.02506437338888645, 0.036507464945316315],
                           -0.033963429275900126)],
                         0.7799187922401146),
    'xavier_uniform': ([('w',
                         [-0.19162459671497345, -0.13402490317821503, -0.9673940539360046, 1.14152991771698],
                         -2.274989575147629)],
                       0.7799187922401146),
    'xavier_normal': ([('w',
                        [0.11729570478200912, -0.010570722632110119, -0.18956223130226135, -0.14924785494804382],
                        -0.11412640195339918)],
                      0.7799187922401146),
    'he_uniform': ([('w',
                     [-0.15646082162857056, -0.10943087935447693, -0.7898738980293274, 0.9320552945137024],
                     -1.8575211763381958)],
                   0.7799187922401146),
    'he_normal': ([('w',
                    [0.14836864173412323, -0.01337102334946394, -0.23977936804294586, -0.18878526985645294],
                    -0.14435988198965788)],
                  0.7799187922401146),
    'normal_mean': ([('w',
                      [1.1658811569213867, 0.9850507378578186, 0.7319185137748718, 0.788931667804718],
                      7.780589401721954)],
                    0.7799187922401146),
    'identity': ([('w', [1.0, 0.0, 0.0, 0.0], 3.0)], 0.07630828937395717),
    'sparse': ([('w', [0.0, -0.008969555608928204, -0.16084890067577362, -0.12664100527763367], 0.34719124529510736)],
               0.8688014582078086),
    'dirac': ([('w', [0.0, 0.0, 0.0, 1.0], 4.0)], 0.07630828937395717),
    'orthogonal': ([('w',
                     [0.42446792125701904, -0.038253169506788254, -0.6859849095344543, -0.540095865726471],
                     5.540365893393755)],
                   0.7799187922401146),
    'orthogonal_tall': ([('w',
                          [0.1992979794740677, -0.22419001162052155, -0.32208654284477234, 0.06720123440027237],
                          2.41190517693758)],
                        0.7799187922401146)}



@pytest.mark.parametrize("name", sorted(MINDSPORE_VALUES))
def test_a_network_built_after_seeding_numpy_gets_mindspore_initial_weights(isolated_seeds, name):
    expected_params, expected_next = MINDSPORE_VALUES[name]
    net = build(ms, name)
    params = list(net.get_parameters())
    assert [p.name for p in params] == [entry[0] for entry in expected_params]
    # the quantile of the truncated normal agrees with MindSpore's to ~1e-9: a value can differ in its last bit
    rtol = 1e-6 if name == "truncated_normal" else 0
    for param, (_, first, total) in zip(params, expected_params):
        values = param.asnumpy()
        np.testing.assert_allclose(values.reshape(-1)[:4].astype(np.float64), first, rtol=rtol, atol=0)
        assert values.astype(np.float64).sum() == pytest.approx(total, rel=1e-6, abs=1e-9)
    assert np.random.uniform() == expected_next      # NumPy's generator is where MindSpore leaves it


def test_set_seed_seeds_the_initializers_through_numpy(isolated_seeds):
    ms.set_seed(7)
    weight = nn.Dense(3, 2).weight.asnumpy()
    np.random.seed(7)
    assert np.array_equal(weight, nn.Dense(3, 2).weight.asnumpy())
    np.testing.assert_array_equal(weight.reshape(-1)[:4], MINDSPORE_VALUES["dense"][0][0][1])




def test_the_tutorial_flow_draws_mindspore_data_after_building_a_net(isolated_seeds):
    """Repro r10: seed NumPy, build ``nn.Dense(1, 1)``, draw ``np.random.uniform(-10, 10)``: MindSpore 2.10
    prints 2.055267521432878."""
    np.random.seed(0)
    nn.Dense(1, 1)
    assert np.random.uniform(-10.0, 10.0) == 2.055267521432878


@pytest.mark.parametrize("initializer, shape, message", [
    ("identity", (2, 2, 2),
     "For Identity initializer, the dimension of the initialized tensor should be 2, but got 3."),
    (ms.common.initializer.Sparse(0.5), (4,),
     "For Sparse initializer, the dimension of the initialized tensor should be 2, but got 1."),
    ("dirac", (2, 2),
     "For Dirac initializer, only support to initialize tensor with dimension of 3, 4 or 5, but got 2."),
    ("orthogonal", (3,),
     "For Orthogonal initializer, the dimension of the initialized tensor should be no less than 2, but got 1."),
])
def test_an_initializer_given_an_array_of_the_wrong_rank_says_so(initializer, shape, message):
    with pytest.raises(ValueError) as info:
        ms.common.initializer.initializer(initializer, shape)
    assert str(info.value) == message
