"""paddle.batch, paddle.reader and the paddle.dataset readers against what real Paddle 1.8.5 yields on the same
small files (tests/goldens/data18.json, tools/oracle/rec_data18.py)."""

from __future__ import annotations

import json
import math
import os
import random
import re

import pytest

from tests.data import formats
from tests.data.conftest import golden, have

G = golden("data18")
ALL_DOCS = re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")


def same(ours, theirs, path="", rel=1e-6, abs_=1e-9) -> None:
    """ours (made plain data) equals the golden; floats to `rel` / `abs_`."""
    ours = json.loads(json.dumps(ours))
    if isinstance(theirs, float) or isinstance(ours, float):
        assert math.isclose(ours, theirs, rel_tol=rel, abs_tol=abs_), (path, ours, theirs)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), (path, ours, theirs)
        for k in theirs:
            same(ours[k], theirs[k], f"{path}.{k}", rel, abs_)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), (path, ours, theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{i}]", rel, abs_)
    else:
        assert ours == theirs, (path, ours, theirs)


def test_reader_decorators_match_paddle():
    import paddle

    same(formats.decorator_cases(paddle.reader, paddle.batch, random), G["decorators"])


def _dict_rows(d: dict) -> list:
    return sorted([k.decode() if isinstance(k, bytes) else k, v] for k, v in d.items())


def _movielens(paddle, is_test):
    ml = paddle.dataset.movielens
    rows = list((ml.test if is_test else ml.train)()())
    return {"count": len(rows),
            "rows": [formats.movielens_canonical(r, ml.movie_categories(), ml.get_movie_title_dict()) for r in rows]}


def _conll(paddle):
    c = paddle.dataset.conll05
    word, verb, label = c.get_dict()
    return {"word_dict": sorted(word.items()), "verb_dict": sorted(verb.items()), "labels": sorted(label),
            "rows": [formats.conll05_canonical(r, label) for r in c.test()()],
            "emb": os.path.basename(c.get_embedding())}


S = formats.reader_summary
CASES = {
    "mnist_train": lambda p: S(p.dataset.mnist.train()),
    "mnist_test": lambda p: S(p.dataset.mnist.test()),
    "cifar_train10": lambda p: S(p.dataset.cifar.train10()),
    "cifar_test10": lambda p: S(p.dataset.cifar.test10()),
    "cifar_train100": lambda p: S(p.dataset.cifar.train100()),
    "cifar_test100": lambda p: S(p.dataset.cifar.test100()),
    "uci_housing_train": lambda p: S(p.dataset.uci_housing.train()),
    "uci_housing_test": lambda p: S(p.dataset.uci_housing.test()),
    "uci_housing_predict": lambda p: formats.summary(p.dataset.uci_housing.predict_reader()),
    "imdb_dict": lambda p: _dict_rows(p.dataset.imdb.build_dict(ALL_DOCS, 20)),
    "imdb_train": lambda p: S(p.dataset.imdb.train(p.dataset.imdb.build_dict(ALL_DOCS, 20))),
    "imdb_test": lambda p: S(p.dataset.imdb.test(p.dataset.imdb.build_dict(ALL_DOCS, 20))),
    "imikolov_dict": lambda p: _dict_rows(p.dataset.imikolov.build_dict(3)),
    "imikolov_ngram": lambda p: S(p.dataset.imikolov.train(p.dataset.imikolov.build_dict(3), 3)),
    "imikolov_seq": lambda p: S(p.dataset.imikolov.test(p.dataset.imikolov.build_dict(3), 4,
                                                        p.dataset.imikolov.DataType.SEQ)),
    "movielens_train": lambda p: _movielens(p, False),
    "movielens_test": lambda p: _movielens(p, True),
    "movielens_meta": lambda p: {
        "max_movie_id": p.dataset.movielens.max_movie_id(), "max_user_id": p.dataset.movielens.max_user_id(),
        "max_job_id": p.dataset.movielens.max_job_id(), "n_titles": len(p.dataset.movielens.get_movie_title_dict()),
        "categories": sorted(p.dataset.movielens.movie_categories()),
        "user_1": str(p.dataset.movielens.user_info()[1]), "movie_1": str(p.dataset.movielens.movie_info()[1])},
    "conll05": _conll,
    "wmt14_train": lambda p: S(p.dataset.wmt14.train(8)),
    "wmt14_test": lambda p: S(p.dataset.wmt14.test(8)),
    "wmt14_gen": lambda p: S(p.dataset.wmt14.gen(8)),
    "wmt14_dict": lambda p: [sorted(d.items()) for d in p.dataset.wmt14.get_dict(8)],
    "wmt16_train": lambda p: S(p.dataset.wmt16.train(10, 8)),
    "wmt16_test_de": lambda p: S(p.dataset.wmt16.test(9, 7, src_lang="de")),
    "wmt16_val": lambda p: S(p.dataset.wmt16.validation(10, 8)),
    "sentiment_train": lambda p: S(p.dataset.sentiment.train),
    "sentiment_dict": lambda p: p.dataset.sentiment.get_word_dict(),
    **{f"mq2007_{fmt}": (lambda fmt: lambda p: S(lambda: p.dataset.mq2007.train(format=fmt)))(fmt)
       for fmt in ("pairwise", "plain_txt", "pointwise", "listwise")},
}
NEEDS = {"flowers_test_map": "cv2", "flowers_valid": "cv2"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_dataset_reader_matches_paddle(case, data_home):
    import paddle

    if case == "wmt16_dict":  # the dictionary exists once a reader built it
        list(paddle.dataset.wmt16.train(10, 8)())
    same(CASES[case](paddle), G[case], case)


def test_wmt16_dict_built_by_reader(data_home):
    import paddle

    list(paddle.dataset.wmt16.train(10, 8)())
    same(sorted(paddle.dataset.wmt16.get_dict("de", 8).items()), G["wmt16_dict"])
    assert os.path.exists(os.path.join(data_home, "wmt16", "de_8.dict"))


@pytest.mark.skipif(not (have("cv2") and have("PIL")), reason="flowers needs OpenCV (and Pillow for its files)")
@pytest.mark.parametrize("case", ["flowers_test_map", "flowers_valid"])
def test_flowers_matches_paddle(case, data_home):
    import paddle

    fn = paddle.dataset.flowers.test if case == "flowers_test_map" else paddle.dataset.flowers.valid
    # JPEG decoding and bicubic resizing differ a little between OpenCV releases (1.8.5 ran with 4.2)
    same(S(fn(use_xmap=False)), G[case], case, rel=2e-3, abs_=2.0)


@pytest.mark.skipif(not have("PIL"), reason="voc2012 needs Pillow")
def test_voc2012_reads_images(data_home):
    """Paddle 1.8.5 cannot read this set on Python 3 (golden: KeyError on b'...' names); here it reads."""
    import paddle

    assert G["voc2012_train"]["error"] == "KeyError"
    rows = list(paddle.dataset.voc2012.train()())
    assert len(rows) == 3 and rows[0][0].shape == (5, 7, 3) and rows[0][1].shape == (5, 7)
    assert [len(list(paddle.dataset.voc2012.test()())), len(list(paddle.dataset.voc2012.val()()))] == [2, 1]


def test_flowers_mat_files_read_without_scipy(data_root):
    from paddle_compat.paddle2.dataset.flowers import loadmat, read_split

    labels, idx = read_split(os.path.join(data_root, "flowers", "imagelabels.mat"),
                             os.path.join(data_root, "flowers", "setid.mat"), "trnid") \
        if os.path.exists(os.path.join(data_root, "flowers")) else (None, None)
    if labels is None:  # the image tar needs Pillow to build; the .mat files do not
        root = os.path.join(data_root, "mat")
        os.makedirs(root, exist_ok=True)
        path = os.path.join(root, "setid.mat")
        with open(path, "wb") as f:
            f.write(formats.mat5({"trnid": ([1, 2], "uint16"), "tstid": ([4, 5], "double")}))
        m = loadmat(path)
        assert m["trnid"].tolist() == [[1, 2]] and m["trnid"].dtype.name == "uint16"
        assert m["tstid"].tolist() == [[4.0, 5.0]] and m["tstid"].dtype.name == "float64"
        return
    assert labels.tolist() == [3, 1, 2, 3, 1, 2] and idx.tolist() == [1, 2]


def test_image_helpers_name_opencv_when_missing(monkeypatch):
    import sys

    import numpy as np

    import paddle

    im = np.arange(6 * 4 * 3).reshape(6, 4, 3)
    assert paddle.dataset.image.center_crop(im, 2).shape == (2, 2, 3)
    assert paddle.dataset.image.to_chw(im).shape == (3, 6, 4)
    assert (paddle.dataset.image.left_right_flip(im)[:, 0] == im[:, -1]).all()
    monkeypatch.setitem(sys.modules, "cv2", None)
    with pytest.raises(ImportError, match=r"paddle.dataset.image.load_image needs the optional package "
                                          r"opencv-python"):
        paddle.dataset.image.load_image("x.jpg")


def test_batch_rejects_bad_size():
    import paddle

    with pytest.raises(ValueError, match="batch_size should be a positive integeral value, but got batch_size=0"):
        paddle.batch(lambda: iter([1]), 0)


def test_decorators_propagate_reader_errors():
    import paddle

    def bad():
        yield 1
        raise KeyError("boom")

    for dec in (lambda r: paddle.reader.buffered(r, 2), lambda r: paddle.reader.xmap_readers(lambda x: x, r, 2, 2)):
        with pytest.raises(KeyError, match="boom"):
            list(dec(bad)())
    with pytest.raises(ValueError, match="multiprocess reader raises an exception"):
        list(paddle.reader.multiprocess_reader([bad])())


def test_common_split_and_cluster_files_reader(tmp_path):
    import paddle

    suffix = str(tmp_path / "part-%05d.pickle")
    paddle.dataset.common.split(lambda: iter(range(7)), 3, suffix=suffix)
    files = sorted(os.listdir(tmp_path))
    assert files == ["part-00000.pickle", "part-00001.pickle"]  # Paddle's rule: the first file holds 4
    r0 = paddle.dataset.common.cluster_files_reader(str(tmp_path / "part-*.pickle"), 2, 0)
    r1 = paddle.dataset.common.cluster_files_reader(str(tmp_path / "part-*.pickle"), 2, 1)
    assert list(r0()) == [0, 1, 2, 3] and list(r1()) == [4, 5, 6]


def test_distributed_batch_reader_splits_batches_by_trainer(monkeypatch):
    import paddle.fluid as fluid

    batches = lambda: iter([[0], [1], [2], [3], [4]])  # noqa: E731
    assert list(fluid.contrib.reader.distributed_batch_reader(batches)()) == [[0], [1], [2], [3], [4]]
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "2")
    monkeypatch.setenv("PADDLE_TRAINER_ID", "1")
    assert list(fluid.contrib.distributed_batch_reader(batches)()) == [[1], [3]]


def test_program_parameter_helpers():
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    try:
        main = fluid.Program()
        with fluid.program_guard(main, fluid.Program()):
            x = fluid.data("x", [-1, 3], "float32")
            loss = fluid.layers.mean(fluid.layers.fc(x, 2))
            fluid.optimizer.Momentum(0.1, 0.9).minimize(loss)
        params = sorted(v.name for v in fluid.io.get_program_parameter(main))
        persist = sorted(v.name for v in fluid.io.get_program_persistable_vars(main))
    finally:
        paddle.disable_static()
    assert params == ["fc_0.b_0", "fc_0.w_0"]
    assert set(params) < set(persist) and "x" not in persist
    assert any("velocity" in n for n in persist)


def test_subset_random_sampler():
    import paddle

    s = paddle.io.SubsetRandomSampler([3, 5, 7])
    assert len(s) == 3 and sorted(s) == [3, 5, 7]
    with pytest.raises(ValueError, match="should be greater than 0"):
        paddle.io.SubsetRandomSampler([])
