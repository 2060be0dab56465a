"""Record what Paddle 2.6.2's paddle.vision.datasets, paddle.text datasets and viterbi_decode give on the small
files of tests/data/formats.py -> tests/goldens/data26.json. Runs under the 2.6.2 venv (Pillow and OpenCV):
    cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_data26.py"""
import os
import sys
import tempfile
import traceback

import numpy.random  # noqa: F401 - imported before paddle (numpy.random fails to import after it in this venv)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data"))
from _common import save_json  # noqa: E402

import formats  # noqa: E402
import paddle  # noqa: E402
import paddle.dataset.common as common  # noqa: E402


def _scipy_io_standin():
    """The 2.6.2 venv has no scipy: Flowers gets the .mat contents formats.py wrote (1.8.5 read the same files
    with scipy.io.loadmat, tests/goldens/data18.json)."""
    import types

    import numpy as np

    def loadmat(path):
        table = formats.FLOWER_MATS[os.path.basename(path)]
        return {k: np.asarray(v, dtype={"double": "float64"}.get(t, t)).reshape(1, -1) for k, (v, t) in table.items()}

    mod = types.ModuleType("scipy.io")
    mod.loadmat = loadmat
    sys.modules["scipy"] = types.ModuleType("scipy")
    sys.modules["scipy.io"] = mod


def main():
    _scipy_io_standin()
    root = tempfile.mkdtemp()
    common.DATA_HOME = root
    f = {name: formats.build(root, name) for name in formats.BUILDERS}
    folder = formats.image_folder(os.path.join(root, "folder"))
    out = {}
    D = formats.dataset_summary
    V, T = paddle.vision.datasets, paddle.text

    def rec(key, fn):
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            out[key] = {"error": type(e).__name__, "message": str(e)[:300]}

    m = f["mnist"]
    for backend in ("cv2", "pil"):
        rec("mnist_train_" + backend, lambda: D(V.MNIST(m["train_images"], m["train_labels"], backend=backend)))
        rec("fashion_test_" + backend, lambda: D(V.FashionMNIST(m["t10k_images"], m["t10k_labels"], mode="test",
                                                                backend=backend)))
        rec("cifar10_train_" + backend, lambda: D(V.Cifar10(f["cifar"]["cifar10"], backend=backend)))
        rec("cifar100_test_" + backend, lambda: D(V.Cifar100(f["cifar"]["cifar100"], mode="test", backend=backend)))
        fl = f["flowers"]
        rec("flowers_test_" + backend, lambda: D(V.Flowers(fl["data"], fl["label"], fl["setid"], mode="test",
                                                           backend=backend)))
        rec("voc_valid_" + backend, lambda: D(V.VOC2012(f["voc2012"]["data"], mode="valid", backend=backend)))
    rec("mnist_transform", lambda: D(V.MNIST(m["train_images"], m["train_labels"], backend="cv2",
                                             transform=lambda x: x[:4, :5] + 1)))
    rec("folder", lambda: (lambda ds: {"classes": ds.classes, "class_to_idx": ds.class_to_idx,
                                        "samples": [[os.path.relpath(p, folder), t] for p, t in ds.samples],
                                        "first": formats.summary(ds[0])})(V.DatasetFolder(folder)))
    rec("image_folder", lambda: (lambda ds: {"samples": [os.path.relpath(p, folder) for p in ds.samples],
                                              "first": formats.summary(ds[0])})(V.ImageFolder(folder)))
    paddle.vision.set_image_backend("cv2")
    rec("folder_cv2", lambda: formats.summary(V.DatasetFolder(folder)[1]))
    rec("mnist_global_cv2", lambda: D(V.MNIST(m["train_images"], m["train_labels"]), first=1))
    paddle.vision.set_image_backend("pil")
    rec("backend_error", lambda: str(paddle.vision.set_image_backend("gpu")))
    rec("image_load_cv2", lambda: formats.summary(paddle.vision.image_load(os.path.join(folder, "cat", "0.png"),
                                                                           backend="cv2")))
    rec("image_load_pil", lambda: formats.summary(paddle.vision.image_load(os.path.join(folder, "cat", "0.png"))))
    rec("uci_train", lambda: D(T.UCIHousing(f["uci_housing"]["data"])))
    rec("uci_test", lambda: D(T.UCIHousing(f["uci_housing"]["data"], mode="test")))
    rec("imdb_train", lambda: D(T.Imdb(f["imdb"]["data"], cutoff=20)))
    rec("imdb_test", lambda: D(T.Imdb(f["imdb"]["data"], mode="test", cutoff=20)))
    rec("imdb_dict", lambda: sorted([k.decode() if isinstance(k, bytes) else k, v]
                                    for k, v in T.Imdb(f["imdb"]["data"], cutoff=20).word_idx.items()))
    rec("imikolov_ngram", lambda: D(T.Imikolov(f["imikolov"]["data"], window_size=3, min_word_freq=3)))
    rec("imikolov_seq_test", lambda: D(T.Imikolov(f["imikolov"]["data"], data_type="SEQ", window_size=4,
                                                  mode="test", min_word_freq=3)))

    def movielens(mode):
        ds = T.Movielens(f["movielens"]["data"], mode=mode)
        return {"count": len(ds), "rows": [formats.movielens_canonical(ds[i], ds.categories_dict,
                                                                       ds.movie_title_dict) for i in range(len(ds))]}

    rec("movielens_train", lambda: movielens("train"))
    rec("movielens_test", lambda: movielens("test"))

    def conll():
        c = f["conll05"]
        ds = T.Conll05st(c["data"], c["word_dict"], c["verb_dict"], c["target_dict"], c["emb"])
        return {"count": len(ds), "rows": [formats.conll05_canonical(ds[i], ds.label_dict) for i in range(len(ds))],
                "labels": sorted(ds.get_dict()[2])}

    rec("conll05", conll)
    rec("wmt14_train", lambda: D(T.WMT14(f["wmt14"]["data"], dict_size=8)))
    rec("wmt14_gen", lambda: D(T.WMT14(f["wmt14"]["data"], mode="gen", dict_size=8)))
    rec("wmt14_dict", lambda: [sorted(d.items()) for d in T.WMT14(f["wmt14"]["data"], dict_size=8).get_dict(True)])
    rec("wmt16_train", lambda: D(T.WMT16(f["wmt16"]["data"], src_dict_size=10, trg_dict_size=8)))
    rec("wmt16_val_de", lambda: D(T.WMT16(f["wmt16"]["data"], mode="val", src_dict_size=9, trg_dict_size=7,
                                          lang="de")))
    for name, pot, trans, lengths, tag in formats.viterbi_cases():
        def vit(pot=pot, trans=trans, lengths=lengths, tag=tag):
            s, p = paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans),
                                              paddle.to_tensor(lengths), tag)
            s2, p2 = paddle.text.ViterbiDecoder(paddle.to_tensor(trans), tag)(paddle.to_tensor(pot),
                                                                             paddle.to_tensor(lengths))
            assert (p.numpy() == p2.numpy()).all()
            return {"scores": s.numpy().tolist(), "path": p.numpy().tolist(), "dtypes": [str(s.dtype), str(p.dtype)]}

        rec("viterbi_" + name, vit)
    save_json("data26", out)


if __name__ == "__main__":
    main()
