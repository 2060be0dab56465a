"""Record what Paddle 1.8.5's paddle.reader decorators and paddle.dataset readers yield on the small files of
tests/data/formats.py -> tests/goldens/data18.json. Runs under the 1.8.5 venv:
    cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python -s <repo>/tools/oracle/rec_data18.py
The dataset files are written to a temporary DATA_HOME; Paddle's md5 check is made to accept them."""
import os
import random
import re
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data"))
from _common import save_json  # noqa: E402

import formats  # noqa: E402
import paddle  # noqa: E402
import paddle.dataset.common as common  # noqa: E402


class _AnyMd5(str):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False


def main():
    root = tempfile.mkdtemp()
    common.DATA_HOME = root
    common.md5file = lambda f: _AnyMd5("x")
    for name in formats.BUILDERS:
        formats.build(root, name)
    out = {"decorators": formats.decorator_cases(paddle.reader, paddle.batch, random)}
    S = formats.reader_summary
    ds = paddle.dataset

    def rec(key, fn):
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            out[key] = {"error": type(e).__name__, "message": str(e)[:300]}

    rec("mnist_train", lambda: S(ds.mnist.train()))
    rec("mnist_test", lambda: S(ds.mnist.test()))
    rec("cifar_train10", lambda: S(ds.cifar.train10()))
    rec("cifar_test10", lambda: S(ds.cifar.test10()))
    rec("cifar_train100", lambda: S(ds.cifar.train100()))
    rec("cifar_test100", lambda: S(ds.cifar.test100()))
    rec("uci_housing_train", lambda: S(ds.uci_housing.train()))
    rec("uci_housing_test", lambda: S(ds.uci_housing.test()))
    rec("uci_housing_predict", lambda: formats.summary(ds.uci_housing.predict_reader()))
    all_docs = re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")
    rec("imdb_dict", lambda: sorted([k.decode() if isinstance(k, bytes) else k, v]
                                    for k, v in ds.imdb.build_dict(all_docs, 20).items()))
    rec("imdb_train", lambda: S(ds.imdb.train(ds.imdb.build_dict(all_docs, 20))))
    rec("imdb_test", lambda: S(ds.imdb.test(ds.imdb.build_dict(all_docs, 20))))
    rec("imikolov_dict", lambda: sorted([k.decode() if isinstance(k, bytes) else k, v]
                                        for k, v in ds.imikolov.build_dict(3).items()))
    rec("imikolov_ngram", lambda: S(ds.imikolov.train(ds.imikolov.build_dict(3), 3)))
    rec("imikolov_seq", lambda: S(ds.imikolov.test(ds.imikolov.build_dict(3), 4, ds.imikolov.DataType.SEQ)))
    ml = ds.movielens

    def movielens(is_test):
        rows = list((ml.test if is_test else ml.train)()())
        return {"count": len(rows),
                "rows": [formats.movielens_canonical(r, ml.movie_categories(), ml.get_movie_title_dict()) for r in rows]}

    rec("movielens_train", lambda: movielens(False))
    rec("movielens_test", lambda: movielens(True))
    rec("movielens_meta", lambda: {"max_movie_id": ml.max_movie_id(), "max_user_id": ml.max_user_id(),
                                   "max_job_id": ml.max_job_id(), "n_titles": len(ml.get_movie_title_dict()),
                                   "categories": sorted(ml.movie_categories()),
                                   "user_1": str(ml.user_info()[1]), "movie_1": str(ml.movie_info()[1])})

    def conll():
        word, verb, label = ds.conll05.get_dict()
        return {"word_dict": sorted(word.items()), "verb_dict": sorted(verb.items()), "labels": sorted(label),
                "rows": [formats.conll05_canonical(r, label) for r in ds.conll05.test()()],
                "emb": os.path.basename(ds.conll05.get_embedding())}

    rec("conll05", conll)
    rec("wmt14_train", lambda: S(ds.wmt14.train(8)))
    rec("wmt14_test", lambda: S(ds.wmt14.test(8)))
    rec("wmt14_gen", lambda: S(ds.wmt14.gen(8)))
    rec("wmt14_dict", lambda: [sorted(d.items()) for d in ds.wmt14.get_dict(8)])
    rec("wmt16_train", lambda: S(ds.wmt16.train(10, 8)))
    rec("wmt16_test_de", lambda: S(ds.wmt16.test(9, 7, src_lang="de")))
    rec("wmt16_val", lambda: S(ds.wmt16.validation(10, 8)))
    rec("wmt16_dict", lambda: sorted(ds.wmt16.get_dict("de", 8).items()))
    rec("sentiment_train", lambda: S(ds.sentiment.train))
    rec("sentiment_dict", lambda: ds.sentiment.get_word_dict())
    mq = ds.mq2007
    setattr(mq, "__initialize_meta_info__", lambda: os.path.join(root, "MQ2007"))
    for fmt in ("pairwise", "plain_txt", "pointwise", "listwise"):
        rec("mq2007_" + fmt, lambda: S(lambda: mq.train(format=fmt)))
    rec("flowers_test_map", lambda: S(ds.flowers.test(use_xmap=False)))
    rec("flowers_valid", lambda: S(ds.flowers.valid(use_xmap=False)))
    rec("voc2012_train", lambda: S(ds.voc2012.train()))
    save_json("data18", out)


if __name__ == "__main__":
    main()
