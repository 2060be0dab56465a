"""paddle.vision.datasets: MNIST, FashionMNIST, Cifar10, Cifar100, Flowers, VOC2012, DatasetFolder, ImageFolder.

Each reads Paddle's files through the parser of paddle_compat/paddle2/dataset/ (the 1.x readers use the same ones), from
`data_file`-style paths or the download helper's cache. Samples are what Paddle 2.6 gives: with backend 'pil'
a PIL image (Pillow needed), with 'cv2' a numpy array cast to paddle.get_default_dtype(); labels int64 arrays.
"""

from __future__ import annotations

import os
import tarfile
from typing import Any

import numpy as np

from paddle_compat.paddle2.dataset import cifar as _cifar
from paddle_compat.paddle2.dataset import flowers as _flowers
from paddle_compat.paddle2.dataset import mnist as _mnist
from paddle_compat.paddle2.dataset import voc2012 as _voc
from paddle_compat.paddle2.io.dataloader import Dataset
from paddle_compat.engine.framework.registry import export
from paddle_compat.paddle2.dataset.common import check_mode as _mode
from paddle_compat.paddle2.dataset.common import default_dtype as _default_dtype
from paddle_compat.paddle2.utils.download import check_exists_and_download as _file
from paddle_compat.engine.core.optional import require
from paddle_compat.paddle2.vision.datasets.backend import dataset_backend


def _pil(api: str) -> Any:
    return require("PIL.Image", f"{api} with the 'pil' image backend")


class MNIST(Dataset):
    """MNIST(image_path=None, label_path=None, mode='train', transform=None, download=True, backend=None)."""

    NAME = "mnist"
    URL_PREFIX = _mnist.URL_PREFIX
    TEST_IMAGE_URL, TEST_IMAGE_MD5 = _mnist.TEST_IMAGE_URL, _mnist.TEST_IMAGE_MD5
    TEST_LABEL_URL, TEST_LABEL_MD5 = _mnist.TEST_LABEL_URL, _mnist.TEST_LABEL_MD5
    TRAIN_IMAGE_URL, TRAIN_IMAGE_MD5 = _mnist.TRAIN_IMAGE_URL, _mnist.TRAIN_IMAGE_MD5
    TRAIN_LABEL_URL, TRAIN_LABEL_MD5 = _mnist.TRAIN_LABEL_URL, _mnist.TRAIN_LABEL_MD5

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None, download=True, backend=None):
        api = f"paddle.vision.datasets.{type(self).__name__}"
        self.mode = _mode(mode, ("train", "test"), api)
        self.backend = dataset_backend(backend)
        train = self.mode == "train"
        self.image_path = _file(image_path, self.TRAIN_IMAGE_URL if train else self.TEST_IMAGE_URL,
                                self.TRAIN_IMAGE_MD5 if train else self.TEST_IMAGE_MD5, self.NAME, download,
                                "image_path", api)
        self.label_path = _file(label_path, self.TRAIN_LABEL_URL if train else self.TEST_LABEL_URL,
                                self.TRAIN_LABEL_MD5 if train else self.TEST_LABEL_MD5, self.NAME, download,
                                "label_path", api)
        self.transform = transform
        images, labels = _mnist.read_idx(self.image_path, self.label_path)
        self.images = list(images.astype("float32"))
        self.labels = [np.array([v]).astype("int64") for v in labels]
        self.dtype = _default_dtype()

    def __getitem__(self, idx):
        image, label = np.reshape(self.images[idx], [28, 28]), self.labels[idx]
        if self.backend == "pil":
            image = _pil(f"paddle.vision.datasets.{type(self).__name__}").fromarray(image.astype("uint8"), mode="L")
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(self.dtype), label.astype("int64")

    def __len__(self):
        return len(self.labels)


class FashionMNIST(MNIST):
    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    TEST_IMAGE_URL, TEST_IMAGE_MD5 = URL_PREFIX + "t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"
    TEST_LABEL_URL, TEST_LABEL_MD5 = URL_PREFIX + "t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310"
    TRAIN_IMAGE_URL, TRAIN_IMAGE_MD5 = URL_PREFIX + "train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"
    TRAIN_LABEL_URL, TRAIN_LABEL_MD5 = URL_PREFIX + "train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"


_CIFAR_FLAGS = {"train10": "data_batch", "test10": "test_batch", "train100": "train", "test100": "test"}


class Cifar10(Dataset):
    """Cifar10(data_file=None, mode='train', transform=None, download=True, backend=None): HWC uint8 images."""

    _classes = "10"

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        api = f"paddle.vision.datasets.{type(self).__name__}"
        self.mode = _mode(mode, ("train", "test"), api)
        self.backend = dataset_backend(backend)
        ten = self._classes == "10"
        self.data_url = _cifar.CIFAR10_URL if ten else _cifar.CIFAR100_URL
        self.data_md5 = _cifar.CIFAR10_MD5 if ten else _cifar.CIFAR100_MD5
        self.flag = _CIFAR_FLAGS[self.mode + self._classes]
        self.data_file = _file(data_file, self.data_url, self.data_md5, "cifar", download, "data_file", api)
        self.transform = transform
        self.data = list(_cifar.read_batches(self.data_file, self.flag, sort=True))
        self.dtype = _default_dtype()

    def __getitem__(self, idx):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            image = _pil(f"paddle.vision.datasets.{type(self).__name__}").fromarray(image.astype("uint8"))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype("int64")
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self):
        return len(self.data)


class Cifar100(Cifar10):
    _classes = "100"


_FLOWER_FLAGS = {"train": "tstid", "test": "trnid", "valid": "valid"}


class Flowers(Dataset):
    """Flowers(data_file=None, label_file=None, setid_file=None, mode='train', transform=None, download=True,
    backend=None): the tar is unpacked next to it (as Paddle does); images decoded with Pillow (both backends)."""

    def __init__(self, data_file=None, label_file=None, setid_file=None, mode="train", transform=None,
                 download=True, backend=None):
        api = "paddle.vision.datasets.Flowers"
        flag = _FLOWER_FLAGS[_mode(mode, ("train", "valid", "test"), api)]
        self.backend = dataset_backend(backend)
        data_file = data_file or _file(None, _flowers.DATA_URL, _flowers.DATA_MD5, "flowers", download,
                                       "data_file", api)
        label_file = label_file or _file(None, _flowers.LABEL_URL, _flowers.LABEL_MD5, "flowers", download,
                                         "label_file", api)
        setid_file = setid_file or _file(None, _flowers.SETID_URL, _flowers.SETID_MD5, "flowers", download,
                                         "setid_file", api)
        self.transform = transform
        self.data_path = _flowers.image_folder_of(data_file)
        with tarfile.open(data_file) as tar:
            tar.extractall(self.data_path)
        self.labels, self.indexes = _flowers.read_split(label_file, setid_file, flag)

    def __getitem__(self, idx):
        index = int(self.indexes[idx])
        label = np.array([self.labels[index - 1]])
        image = _pil("paddle.vision.datasets.Flowers").open(
            os.path.join(self.data_path, "jpg/image_%05d.jpg" % index))
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(_default_dtype()), label.astype("int64")

    def __len__(self):
        return len(self.indexes)


_VOC_FLAGS = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """VOC2012(data_file=None, mode='train', transform=None, download=True, backend=None): (image, class map)."""

    VOC_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
    VOC_MD5 = _voc.VOC_MD5

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        api = "paddle.vision.datasets.VOC2012"
        self.flag = _VOC_FLAGS[_mode(mode, ("train", "valid", "test"), api)]
        self.backend = dataset_backend(backend)
        self.data_file = _file(data_file, self.VOC_URL, self.VOC_MD5, _voc.CACHE_DIR, download, "data_file", api)
        self.transform = transform
        self._tar = _voc.VOCTar(self.data_file)
        pairs = self._tar.split(self.flag)
        self.data = [d for d, _ in pairs]
        self.labels = [lab for _, lab in pairs]
        self.dtype = _default_dtype()

    def __getitem__(self, idx):
        api = "paddle.vision.datasets.VOC2012"
        data = _voc.open_image(self._tar.read(self.data[idx]), api)
        label = _voc.open_image(self._tar.read(self.labels[idx]), api)
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self):
        return len(self.data)


# --- folders ----------------------------------------------------------------------------------------------------

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename: str, extensions: Any) -> bool:
    if not isinstance(extensions, (list, tuple)):
        raise TypeError("`extensions` must be list or tuple.")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _files_under(path: str, is_valid_file: Any) -> list:
    out = []
    for root, _, fnames in sorted(os.walk(path, followlinks=True)):
        out.extend(os.path.join(root, f) for f in sorted(fnames) if is_valid_file(os.path.join(root, f)))
    return out


def _validator(extensions: Any) -> Any:
    """Paddle checks extensions (IMG_EXTENSIONS by default), so an is_valid_file argument is never used."""
    return lambda x: has_valid_extension(x, extensions)


def make_dataset(dir: str, class_to_idx: dict, extensions: Any, is_valid_file: Any = None) -> list:  # noqa: A002
    if extensions is not None:
        is_valid_file = _validator(extensions)
    d = os.path.expanduser(dir)
    return [(p, class_to_idx[t]) for t in sorted(class_to_idx) if os.path.isdir(os.path.join(d, t))
            for p in _files_under(os.path.join(d, t), is_valid_file)]


def pil_loader(path: str) -> Any:
    with open(path, "rb") as f:
        return _pil("paddle.vision.datasets.folder.pil_loader").open(f).convert("RGB")


def cv2_loader(path: str) -> Any:
    cv2 = require("cv2", "paddle.vision.datasets.folder.cv2_loader")
    return cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)


def default_loader(path: str) -> Any:
    from paddle_compat.paddle2.vision.datasets.backend import get_image_backend

    return cv2_loader(path) if get_image_backend() == "cv2" else pil_loader(path)


class DatasetFolder(Dataset):
    """root/<class>/.../<file>: (sample, class index), classes in sorted order."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        self.transform = transform
        extensions = IMG_EXTENSIONS if extensions is None else extensions
        classes = sorted(d.name for d in os.scandir(root) if d.is_dir())
        class_to_idx = {c: i for i, c in enumerate(classes)}
        samples = make_dataset(root, class_to_idx, extensions, is_valid_file)
        if not samples:
            raise RuntimeError(f"Found 0 directories in subfolders of: {root}\nSupported extensions are: "
                               + ",".join(extensions))
        self.loader = default_loader if loader is None else loader
        self.extensions, self.classes, self.class_to_idx = extensions, classes, class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = _default_dtype()

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    """Every image file under root (sorted walk): [sample] per file, no labels."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        extensions = IMG_EXTENSIONS if extensions is None else extensions
        samples = _files_under(os.path.expanduser(root), _validator(extensions))
        if not samples:
            raise RuntimeError(f"Found 0 files in subfolders of: {root}\nSupported extensions are: "
                               + ",".join(extensions))
        self.loader = default_loader if loader is None else loader
        self.extensions, self.samples, self.transform = extensions, samples, transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)


_MODULES = {"MNIST": "mnist", "FashionMNIST": "mnist", "Cifar10": "cifar", "Cifar100": "cifar", "Flowers": "flowers",
            "VOC2012": "voc2012", "DatasetFolder": "folder", "ImageFolder": "folder"}
for _name, _mod in _MODULES.items():
    export(globals()[_name], f"paddle.vision.datasets.{_name}", f"paddle.vision.datasets.{_mod}.{_name}")
for _fn in (has_valid_extension, make_dataset, pil_loader, cv2_loader, default_loader):
    export(_fn, f"paddle.vision.datasets.folder.{_fn.__name__}")
