"""paddle.vision.datasets, paddle.text datasets, viterbi_decode and the image backend against Paddle 2.6.2 on the
same small files (tests/goldens/data26.json, tools/oracle/rec_data26.py)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.data import formats
from tests.data.conftest import golden, have
from tests.data.test_dataset18 import same

G = golden("data26")
D = formats.dataset_summary
PIL_CASES = ("flowers", "voc")


@pytest.fixture
def files(data_files, data_home):
    return data_files


@pytest.fixture(autouse=True)
def pil_backend():
    import paddle

    yield
    paddle.vision.set_image_backend("pil")


def _vision(name, backend):
    def run(p, f):
        V, m, fl = p.vision.datasets, f["mnist"], f.get("flowers")
        return {
            "mnist_train": lambda: D(V.MNIST(m["train_images"], m["train_labels"], backend=backend)),
            "fashion_test": lambda: D(V.FashionMNIST(m["t10k_images"], m["t10k_labels"], mode="test",
                                                     backend=backend)),
            "cifar10_train": lambda: D(V.Cifar10(f["cifar"]["cifar10"], backend=backend)),
            "cifar100_test": lambda: D(V.Cifar100(f["cifar"]["cifar100"], mode="test", backend=backend)),
            "flowers_test": lambda: D(V.Flowers(fl["data"], fl["label"], fl["setid"], mode="test", backend=backend)),
            "voc_valid": lambda: D(V.VOC2012(f["voc2012"]["data"], mode="valid", backend=backend)),
        }[name]()

    return run


VISION = {f"{n}_{b}": _vision(n, b) for n in ("mnist_train", "fashion_test", "cifar10_train", "cifar100_test",
                                               "flowers_test", "voc_valid") for b in ("cv2", "pil")}


def _needs_pil(case: str) -> bool:
    return case.endswith("_pil") or case.startswith(PIL_CASES) or case.startswith(("folder", "image"))


@pytest.mark.parametrize("case", sorted(VISION))
def test_vision_dataset_matches_paddle(case, files):
    import paddle

    if _needs_pil(case) and not have("PIL"):
        pytest.skip("needs Pillow")
    same(VISION[case](paddle, files), G[case], case)


def test_mnist_transform_and_global_backend(files):
    import paddle

    m = files["mnist"]
    V = paddle.vision.datasets
    same(D(V.MNIST(m["train_images"], m["train_labels"], backend="cv2", transform=lambda x: x[:4, :5] + 1)),
         G["mnist_transform"])
    paddle.vision.set_image_backend("cv2")
    assert paddle.vision.get_image_backend() == "cv2"
    same(D(V.MNIST(m["train_images"], m["train_labels"]), first=1), G["mnist_global_cv2"])


@pytest.mark.skipif(not have("PIL"), reason="needs Pillow")
def test_folders_match_paddle(files):
    import paddle

    V, root = paddle.vision.datasets, files["folder"]
    ds = V.DatasetFolder(root)
    same({"classes": ds.classes, "class_to_idx": ds.class_to_idx,
          "samples": [[os.path.relpath(p, root), t] for p, t in ds.samples], "first": formats.summary(ds[0])},
         G["folder"])
    im = V.ImageFolder(root)
    same({"samples": [os.path.relpath(p, root) for p in im.samples], "first": formats.summary(im[0])},
         G["image_folder"])
    same(formats.summary(paddle.vision.image_load(os.path.join(root, "cat", "0.png"))), G["image_load_pil"])
    if have("cv2"):
        paddle.vision.set_image_backend("cv2")
        same(formats.summary(V.DatasetFolder(root)[1]), G["folder_cv2"])
        same(formats.summary(paddle.vision.image_load(os.path.join(root, "cat", "0.png"), backend="cv2")),
             G["image_load_cv2"])


def test_backend_errors(tmp_path, monkeypatch):
    import sys

    import paddle

    with pytest.raises(ValueError, match=r"Expected backend are one of \['pil', 'cv2', 'tensor'\], but got gpu"):
        paddle.vision.set_image_backend("gpu")
    assert "but got gpu" in G["backend_error"]["message"]
    with pytest.raises(ValueError, match=r"Expected backend are one of \['pil', 'cv2'\], but got tensor"):
        paddle.vision.datasets.Cifar10(str(tmp_path / "x.tar.gz"), backend="tensor")
    with pytest.raises(RuntimeError, match="Found 0 directories in subfolders of"):
        paddle.vision.datasets.DatasetFolder(str(tmp_path))
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    with pytest.raises(ImportError, match=r"paddle.vision.image_load\(backend='pil'\) needs the optional package "
                                          r"Pillow: `pip install Pillow` \(or `pip install paddle_compat\[vision\]`\)"):
        paddle.vision.image_load(str(tmp_path / "a.png"))


def test_dataset_file_arguments(files, tmp_path):
    import paddle

    with pytest.raises(ValueError, match="paddle.vision.datasets.MNIST: image_path is not set and downloading "
                                         "automatically is disabled"):
        paddle.vision.datasets.MNIST(download=False)
    with pytest.raises(ValueError, match=r"paddle.text.UCIHousing: mode should be one of \['train', 'test'\]"):
        paddle.text.UCIHousing(files["uci_housing"]["data"], mode="valid")
    # no data_file: the cached download in DATA_HOME (here the generated files)
    assert len(paddle.vision.datasets.Cifar10(backend="cv2")) == 6
    assert len(paddle.text.UCIHousing(mode="test")) == 4


def _text(p, f):
    T = p.text
    c = f["conll05"]

    def movielens(mode):
        ds = T.Movielens(f["movielens"]["data"], mode=mode)
        return {"count": len(ds), "rows": [formats.movielens_canonical(ds[i], ds.categories_dict,
                                                                       ds.movie_title_dict) for i in range(len(ds))]}

    def conll():
        ds = T.Conll05st(c["data"], c["word_dict"], c["verb_dict"], c["target_dict"], c["emb"])
        return {"count": len(ds), "rows": [formats.conll05_canonical(ds[i], ds.label_dict) for i in range(len(ds))],
                "labels": sorted(ds.get_dict()[2])}

    return {
        "uci_train": lambda: D(T.UCIHousing(f["uci_housing"]["data"])),
        "uci_test": lambda: D(T.UCIHousing(f["uci_housing"]["data"], mode="test")),
        "imdb_train": lambda: D(T.Imdb(f["imdb"]["data"], cutoff=20)),
        "imdb_test": lambda: D(T.Imdb(f["imdb"]["data"], mode="test", cutoff=20)),
        "imdb_dict": lambda: sorted([k.decode() if isinstance(k, bytes) else k, v]
                                    for k, v in T.Imdb(f["imdb"]["data"], cutoff=20).word_idx.items()),
        "imikolov_ngram": lambda: D(T.Imikolov(f["imikolov"]["data"], window_size=3, min_word_freq=3)),
        "imikolov_seq_test": lambda: D(T.Imikolov(f["imikolov"]["data"], data_type="SEQ", window_size=4,
                                                  mode="test", min_word_freq=3)),
        "movielens_train": lambda: movielens("train"),
        "movielens_test": lambda: movielens("test"),
        "conll05": conll,
        "wmt14_train": lambda: D(T.WMT14(f["wmt14"]["data"], dict_size=8)),
        "wmt14_gen": lambda: D(T.WMT14(f["wmt14"]["data"], mode="gen", dict_size=8)),
        "wmt14_dict": lambda: [sorted(d.items()) for d in T.WMT14(f["wmt14"]["data"], dict_size=8).get_dict(True)],
    }


TEXT = ["uci_train", "uci_test", "imdb_train", "imdb_test", "imdb_dict", "imikolov_ngram", "imikolov_seq_test",
        "movielens_train", "movielens_test", "conll05", "wmt14_train", "wmt14_gen", "wmt14_dict"]


@pytest.mark.parametrize("case", TEXT)
def test_text_dataset_matches_paddle(case, files):
    import paddle

    same(_text(paddle, files)[case](), G[case], case)


def test_wmt16_source_side_matches_paddle(files):
    """Paddle 2.6.2 builds the target dictionary from the source column (see paddle_compat/paddle2/dataset/wmt16.py);
    the source ids, the counts and the shapes match it, the target ids follow 1.x's dictionaries."""
    import paddle

    for key, kw in (("wmt16_train", dict(src_dict_size=10, trg_dict_size=8)),
                    ("wmt16_val_de", dict(mode="val", src_dict_size=9, trg_dict_size=7, lang="de"))):
        ours = D(paddle.text.WMT16(files["wmt16"]["data"], **kw))
        assert ours["count"] == G[key]["count"]
        for a, b in zip(ours["first"], G[key]["first"]):
            same(a["items"][0], b["items"][0], key)
            assert [x["shape"] for x in a["items"]] == [x["shape"] for x in b["items"]]
    ds = paddle.text.WMT16(files["wmt16"]["data"], src_dict_size=10, trg_dict_size=8)
    same(sorted(ds.get_dict("de").items()), golden("data18")["wmt16_dict"])


@pytest.mark.parametrize("case", [c[0] for c in formats.viterbi_cases()])
def test_viterbi_decode_matches_paddle(case):
    import paddle

    _, pot, trans, lengths, tag = next(c for c in formats.viterbi_cases() if c[0] == case)
    s, p = paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), paddle.to_tensor(lengths), tag)
    s2, p2 = paddle.text.ViterbiDecoder(paddle.to_tensor(trans), tag)(paddle.to_tensor(pot),
                                                                     paddle.to_tensor(lengths))
    g = G["viterbi_" + case]
    np.testing.assert_allclose(s.numpy(), g["scores"], rtol=1e-5)
    assert p.numpy().tolist() == g["path"] and p2.numpy().tolist() == g["path"]
    assert [str(s.dtype), str(p.dtype)] == g["dtypes"]


def test_viterbi_decode_records_in_static_mode():
    import paddle

    _, pot, trans, lengths, tag = formats.viterbi_cases()[0]
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", list(pot.shape), "float32")
            t = paddle.static.data("t", list(trans.shape), "float32")
            n = paddle.static.data("n", list(lengths.shape), "int64")
            scores, path = paddle.text.viterbi_decode(x, t, n, tag)
        exe = paddle.static.Executor(paddle.CPUPlace())
        s, p = exe.run(main, feed={"x": pot, "t": trans, "n": lengths}, fetch_list=[scores, path])
    finally:
        paddle.disable_static()
    assert p.tolist() == G["viterbi_tags"]["path"]
    np.testing.assert_allclose(s, G["viterbi_tags"]["scores"], rtol=1e-5)
