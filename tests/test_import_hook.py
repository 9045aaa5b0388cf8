"""The alias table (``npspore.module_aliases``) and the import hooks over it (``npspore.import_hook``)."""
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

import npspore
from npspore.import_hook import mindspore_imports
from npspore.module_aliases import MODULE_ALIASES, npspore_path

SRC = Path(npspore.__file__).parent


@pytest.mark.parametrize("path, expected", [
    ("dataset.vision.c_transforms", "dataset.vision"),
    ("nn.layer", "nn"),
    ("nn.layer.conv", "nn.conv"),            # below an entry, the rest of the path follows it
    ("nn.layer.basic", "nn.layers"),         # the longest entry wins
    ("common.initializer", "common.initializer"),
    ("train.callback", "train.callback"),
])
def test_npspore_path_follows_the_longest_entry(path, expected):
    assert npspore_path(path) == expected


@pytest.mark.parametrize("alias", sorted(MODULE_ALIASES))
def test_each_alias_imports_its_module_under_npspore(alias):
    target = importlib.import_module(f"npspore.{MODULE_ALIASES[alias]}")
    assert importlib.import_module(f"npspore.{alias}") is target
    assert target.__name__ == target.__spec__.name == f"npspore.{MODULE_ALIASES[alias]}"
    # the finder answers first, so no alias may be a path a file provides
    assert not (SRC / f"{alias.replace('.', '/')}.py").exists() and not (SRC / alias.replace(".", "/")).exists()


def test_a_module_below_an_aliased_package_is_loaded_once():
    import npspore.nn.layer.conv as conv
    assert conv is npspore.nn.conv and conv.Conv2d is npspore.nn.Conv2d
    assert npspore.nn.conv.__name__ == "npspore.nn.conv"


def test_legacy_paths_are_attributes_of_their_packages():
    from npspore.dataset.vision import c_transforms
    import npspore.dataset as ds
    assert c_transforms is ds.vision and ds.transforms.py_transforms is ds.transforms
    import npspore.nn.loss.loss as loss_module
    assert loss_module is npspore.nn.loss
    assert c_transforms.Decode is ds.vision.Decode
    with pytest.raises(AttributeError, match="'mindspore.dataset.vision.GaussianBlur' is not implemented in npspore"):
        c_transforms.GaussianBlur


def test_metric_module_paths_of_mindspore_1_and_2():
    from npspore.nn.metrics.metric import Metric, rearrange_inputs
    import npspore.train.metrics.metric as metric_module
    assert Metric is npspore.train.Metric is npspore.nn.Metric and rearrange_inputs is metric_module.rearrange_inputs
    assert metric_module is npspore.train.metrics


@pytest.fixture
def installed_mindspore(tmp_path, monkeypatch):
    """A package named mindspore on sys.path, standing for an installed MindSpore."""
    (tmp_path / "mindspore").mkdir()
    (tmp_path / "mindspore" / "__init__.py").write_text("REAL = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield
    for name in [name for name in sys.modules if name.split(".")[0] == "mindspore"]:
        del sys.modules[name]


def test_mindspore_imports_are_npspore_only_inside_the_block(installed_mindspore):
    installed = importlib.import_module("mindspore")
    assert installed.REAL
    with mindspore_imports():
        import mindspore.nn.layer.basic
        from mindspore.common.initializer import Normal
        from mindspore.train import Model
        assert mindspore is npspore and mindspore.nn.layer.basic is npspore.nn.layers
        assert Normal is npspore.common.initializer.Normal and Model is npspore.Model
    assert importlib.import_module("mindspore") is installed


def test_npspore_alone_does_not_resolve_mindspore():
    assert "mindspore" not in sys.modules and importlib.util.find_spec("mindspore") is None


def test_a_mindspore_module_npspore_lacks_is_named():
    with mindspore_imports(), pytest.raises(ModuleNotFoundError) as raised:
        import mindspore.dataset.debug  # noqa: F401
    assert str(raised.value) == ("MindSpore's module 'mindspore.dataset.debug' is not implemented in npspore "
                                 "(npspore has no module 'npspore.dataset.debug')")
    assert raised.value.name == "mindspore.dataset.debug"
