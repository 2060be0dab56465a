"""Generated dataset files in Paddle's formats, sized and shaped for Paddle's fluid-era tests.

    python datasets.py DATA_HOME

Writes, under DATA_HOME (Paddle's `~/.cache/paddle/dataset` layout), the files the chosen tests read through
`paddle.dataset.*`, with the file names Paddle downloads. The container formats come from tests/data/formats.py;
what differs is the content: the tests train until a loss or accuracy threshold (the book chapters) or take a
number of batches (10 batches of 16 conll05 samples on 4 places, 5 batches of 8 imdb reviews, ...), so the
samples here are learnable (the label shows in the input) and numerous enough. Content is seeded: both sides
read the same bytes. run.py runs this with the 1.8.5 venv's Python (numpy 1.19), whose pickles (cifar) both
numpy 1.x and 2.x read; Python 3.8 and numpy only.
"""

import os
import pickle
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "tests", "data"))
from formats import _gz, _tar, _write, _zip  # noqa: E402

VOCAB = ["w%02d" % i for i in range(24)]


def mnist(root):
    """1300 train / 200 test images (Paddle reads them 100 at a time): class k is a bright 7x7 block at one of
    10 places, plus noise."""
    for split, n, seed in (("train", 1300, 1), ("t10k", 200, 2)):
        rng = np.random.RandomState(seed)
        labels = rng.randint(0, 10, size=n).astype(np.uint8)
        imgs = rng.randint(0, 60, size=(n, 28, 28)).astype(np.uint8)
        for i, k in enumerate(labels):
            r, c = 2 + 12 * (k // 5), 1 + 5 * (k % 5)
            imgs[i, r:r + 7, c:c + 7] = 255
        _write(os.path.join(root, "mnist", split + "-images-idx3-ubyte.gz"),
               _gz(struct.pack(">IIII", 2051, n, 28, 28) + imgs.tobytes()))
        _write(os.path.join(root, "mnist", split + "-labels-idx1-ubyte.gz"),
               _gz(struct.pack(">II", 2049, n) + labels.tobytes()))


def cifar(root):
    """cifar-10: 2 x 128 train, 128 test images; class k brightens channel k % 3 by 20 * k. cifar-100 small."""
    def batch(n, seed, label_key, classes):
        rng = np.random.RandomState(seed)
        labels = rng.randint(0, classes, size=n)
        data = rng.randint(0, 56, size=(n, 3, 1024))
        for i, k in enumerate(labels):
            data[i, k % 3] += 20 * (k % 10)
        return pickle.dumps({b"batch_label": b"x", b"data": data.reshape(n, 3072).astype(np.uint8),
                             label_key: [int(x) for x in labels]}, protocol=2)

    c10 = {"cifar-10-batches-py/data_batch_%d" % i: batch(128, 10 + i, b"labels", 10) for i in (1, 2)}
    c10["cifar-10-batches-py/test_batch"] = batch(128, 20, b"labels", 10)
    c10["cifar-10-batches-py/batches.meta"] = pickle.dumps({b"label_names": [b"c%d" % i for i in range(10)]}, 2)
    c100 = {"cifar-100-python/train": batch(64, 30, b"fine_labels", 100),
            "cifar-100-python/test": batch(32, 31, b"fine_labels", 100)}
    _tar(os.path.join(root, "cifar", "cifar-10-python.tar.gz"), c10)
    _tar(os.path.join(root, "cifar", "cifar-100-python.tar.gz"), c100)


def uci_housing(root):
    """506 rows as the real file: 13 features in their own ranges, price = 22 + a small linear effect."""
    rng = np.random.RandomState(3)
    lo, hi = rng.uniform(0, 10, 13), rng.uniform(20, 100, 13)
    x = rng.uniform(lo, hi, size=(506, 13))
    norm = (x - x.mean(0)) / (x.max(0) - x.min(0))
    y = 22 + norm.dot(rng.normal(0, 2, 13)) + rng.normal(0, 0.5, 506)
    text = "\n".join(" ".join("%.4f" % v for v in row) for row in np.hstack([x, y[:, None]])) + "\n"
    _write(os.path.join(root, "uci_housing", "housing.data"), text.encode())


def imdb(root):
    """200 + 200 reviews per split over 24 words, positive reviews biased to the first 12 words."""
    rng = np.random.RandomState(4)
    members = {}
    for split in ("train", "test"):
        for lab, half in (("pos", 0), ("neg", 12)):
            for i in range(200):
                ids = np.where(rng.rand(40) < 0.8, rng.randint(half, half + 12, 40), rng.randint(0, 24, 40))
                members["aclImdb/%s/%s/%d_7.txt" % (split, lab, i)] = (
                    " ".join(VOCAB[j] for j in ids) + ".\n").encode()
    members["aclImdb/README"] = b"readme"
    _tar(os.path.join(root, "imdb", "imdb%2FaclImdb_v1.tar.gz"), members)


def imikolov(root):
    """PTB-style text: 600 / 100 / 100 lines walking a cycle of 24 words (each word seen far above 50 times)."""
    rng = np.random.RandomState(5)

    def lines(n):
        out = []
        for _ in range(n):
            start, length = rng.randint(0, 24), rng.randint(6, 14)
            out.append(" %s \n" % " ".join(VOCAB[(start + j) % 24] for j in range(length)))
        return "".join(out).encode()

    members = {"./simple-examples/data/ptb.%s.txt" % s: lines(n) for s, n in (("train", 600), ("valid", 100),
                                                                              ("test", 100))}
    _tar(os.path.join(root, "imikolov", "imikolov%2Fsimple-examples.tgz"), members)


def movielens(root):
    """40 users, 800 movies, 3200 ratings; a rating follows the user's and the movie's parity. The book chapter
    infers on movie 783 with category 10 and title words up to 4140, so ids and dictionaries reach that far."""
    rng = np.random.RandomState(6)
    cats = ["Action", "Adventure", "Animation", "Children's", "Comedy", "Crime", "Documentary", "Drama", "Fantasy",
            "Film-Noir", "Horror", "Musical", "Mystery", "Romance", "Sci-Fi", "Thriller", "War", "Western"]
    movies = ["%d::%s (19%02d)::%s" % (m, " ".join("t%d" % (6 * m + j) for j in range(6)), m % 100,
                                      "|".join(cats[(m + j) % 18] for j in range(1 + m % 3)))
              for m in range(1, 801)]
    ages = [1, 18, 25, 35, 45, 50, 56]
    users = ["%d::%s::%d::%d::%05d" % (u, "FM"[u % 2], ages[u % 7], u % 21, u) for u in range(1, 41)]
    ratings = []
    for i in range(3200):
        u, m = rng.randint(1, 41), rng.randint(1, 801)
        ratings.append("%d::%d::%d::9783%06d" % (u, m, 1 + 2 * ((u + m) % 2) + (u % 3 == 0), i))
    members = {"ml-1m/movies.dat": ("\n".join(movies) + "\n").encode("latin"),
               "ml-1m/users.dat": ("\n".join(users) + "\n").encode(),
               "ml-1m/ratings.dat": ("\n".join(ratings) + "\n").encode()}
    _zip(os.path.join(root, "movielens", "movielens%2Fml-1m.zip"), members)


def conll05(root):
    """240 sentences of 5-10 words with one predicate each: an A0 span before the verb, an A1 span after."""
    rng = np.random.RandomState(7)
    verbs = ["sat", "ran", "saw", "ate", "got"]
    words, props = [], []
    for _ in range(240):
        n = rng.randint(5, 11)
        v = rng.randint(1, n - 1)
        sent = [VOCAB[j] for j in rng.randint(0, 24, n)]
        sent[v] = verbs[rng.randint(0, 5)]
        tags = ["*"] * n
        tags[0] = "(A0*" if v > 1 else "(A0*)"
        if v > 1:
            tags[v - 1] = "*)"
        tags[v] = "(V*)"
        tags[v + 1] = "(A1*" if v + 2 < n else "(A1*)"
        if v + 2 < n:
            tags[n - 1] = "*)"
        for i in range(n):
            words.append(sent[i])
            props.append("%s %s" % (sent[i] if i == v else "-", tags[i]))
        words.append("")
        props.append("")
    members = {"conll05st-release/test.wsj/words/test.wsj.words.gz": _gz(("\n".join(words) + "\n").encode()),
               "conll05st-release/test.wsj/props/test.wsj.props.gz": _gz(("\n".join(props) + "\n").encode())}
    folder = os.path.join(root, "conll05st")
    word_dict = ["<unk>", "bos", "eos"] + VOCAB + verbs
    labels = ["B-A0", "I-A0", "B-A1", "I-A1", "B-V", "I-V", "O"]
    emb = np.random.RandomState(8).normal(0, 0.1, (len(word_dict), 32)).astype(np.float32)
    _tar(os.path.join(folder, "conll05st-tests.tar.gz"), members)
    _write(os.path.join(folder, "conll05st%2FwordDict.txt"), ("\n".join(word_dict) + "\n").encode())
    _write(os.path.join(folder, "conll05st%2FverbDict.txt"), ("\n".join(verbs) + "\n").encode())
    _write(os.path.join(folder, "conll05st%2FtargetDict.txt"), ("\n".join(labels) + "\n").encode())
    _write(os.path.join(folder, "conll05st%2Femb"), b"\0" * 16 + emb.tobytes())


def _pairs(rng, n):
    """Translation pairs: the target is the source shifted by 3 words of the vocabulary, tab-separated."""
    out = []
    for _ in range(n):
        ids = rng.randint(0, 24, rng.randint(3, 9))
        out.append("%s\t%s\n" % (" ".join(VOCAB[j] for j in ids), " ".join("t%02d" % ((j + 3) % 24) for j in ids)))
    return "".join(out).encode()


def wmt14(root):
    rng = np.random.RandomState(9)
    marks = ["<s>", "<e>", "<unk>"]
    members = {"wmt14/train/train": _pairs(rng, 200), "wmt14/test/test": _pairs(rng, 40),
               "wmt14/gen/gen": _pairs(rng, 20),
               "wmt14/src.dict": ("\n".join(marks + VOCAB) + "\n").encode(),
               "wmt14/trg.dict": ("\n".join(marks + ["t%02d" % i for i in range(24)]) + "\n").encode()}
    _tar(os.path.join(root, "wmt14", "wmt14.tgz"), members)


def wmt16(root):
    rng = np.random.RandomState(10)
    members = {"wmt16/train": _pairs(rng, 200), "wmt16/test": _pairs(rng, 40), "wmt16/val": _pairs(rng, 20)}
    _tar(os.path.join(root, "wmt16", "wmt16.tar.gz"), members)


BUILDERS = (mnist, cifar, uci_housing, imdb, imikolov, movielens, conll05, wmt14, wmt16)


def main():
    root = sys.argv[1]
    for build in BUILDERS:
        build(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
