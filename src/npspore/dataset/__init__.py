"""Data pipelines, as ``mindspore.dataset``: sources, pipeline operations, iterators and transforms.

``import npspore.dataset as ds`` in place of ``import mindspore.dataset as ds``. Sources
(``GeneratorDataset``, ``NumpySlicesDataset``, ``MnistDataset``, ``Cifar10Dataset``,
``ImageFolderDataset``) and
operations (``batch``, ``shuffle``, ``map``, ``repeat``, ``take``, ``skip``, ``project``,
``rename``, ``zip``, ``concat``, ``split``) build a lazy pipeline; ``create_tuple_iterator`` and
``create_dict_iterator`` stream its rows as npspore Tensors or NumPy arrays.
"""
from . import config, transforms, vision  # noqa: F401
from .cache import DatasetCache
from .datasets import ConcatDataset, Dataset, zip  # noqa: A004
from .iterators import DictIterator, TupleIterator
from .image_files import Cifar10Dataset, Cifar100Dataset, FashionMnistDataset, MnistDataset
from .image_folder import ImageFolderDataset
from .celeba import CelebADataset
from .text_files import CSVDataset, TextFileDataset
from .mind_dataset import MindDataset
from .sampling import (DistributedSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                       SubsetSampler, WeightedRandomSampler)
from .sources import GeneratorDataset, NumpySlicesDataset, PaddedDataset
from .schema import Schema
from .tfrecord import Shuffle, TFRecordDataset
from ..missing_names import module_getattr as _module_getattr

__all__ = ["config", "transforms", "vision", "Dataset", "zip", "Cifar10Dataset", "Cifar100Dataset",
           "FashionMnistDataset", "MnistDataset", "MindDataset", "ImageFolderDataset", "GeneratorDataset",
           "NumpySlicesDataset", "Sampler",
           "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetSampler", "SubsetRandomSampler",
           "DatasetCache", "Schema", "Shuffle", "TFRecordDataset", "ConcatDataset", "TupleIterator", "DictIterator",
           "CelebADataset", "CSVDataset", "TextFileDataset", "WeightedRandomSampler",
           "PaddedDataset"]

# text corpora in their published layouts, VOC, PKSampler
from .text_corpora import (AGNewsDataset, AmazonReviewDataset, CoNLL2000Dataset, DBpediaDataset,  # noqa: E402
                           IMDBDataset, PennTreebankDataset, SogouNewsDataset, SQuADDataset, UDPOSDataset,
                           WikiTextDataset, YahooAnswersDataset, YelpReviewDataset)
from .voc import VOCDataset  # noqa: E402
from .pk_sampler import PKSampler  # noqa: E402
from .audio_datasets import LJSpeechDataset, YesNoDataset  # noqa: E402
__all__ += ["VOCDataset", "PKSampler", "LJSpeechDataset", "YesNoDataset"]
__all__ += ["CoNLL2000Dataset", "UDPOSDataset"]
__all__ += ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "IMDBDataset", "PennTreebankDataset",
            "SogouNewsDataset", "SQuADDataset", "WikiTextDataset", "YahooAnswersDataset", "YelpReviewDataset"]

__getattr__ = _module_getattr("mindspore.dataset", globals(),   # names MindSpore's dataset package also holds
                              elsewhere={"BatchDataset": "npspore.dataset.datasets.BatchDataset",
                                         "context": "npspore.context"})
