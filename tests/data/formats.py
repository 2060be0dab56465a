"""Small files in Paddle's dataset formats, and a plain-data summary of what a reader yields.

Shared by the golden recorders (tools/oracle/rec_data18.py and rec_data26.py run it under real Paddle, python
3.8 / 3.11) and by our tests: numpy and the standard library only, no paddle_compat. `build(root, name)` writes
the files of dataset `name` under `root/<Paddle's cache sub-folder>/` with the file names Paddle downloads, and
returns {file key: path}. Content is fixed (seeded), so both sides read the same bytes.
"""

import gzip
import io
import os
import pickle
import struct
import tarfile
import zipfile

import numpy as np


def _tar(path, members, mode="w:gz"):
    """members: {name: bytes}; names kept as given (Paddle reads some with a leading './')."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tarfile.open(path, mode) as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            tf.addfile(info, io.BytesIO(data))
    return path


def _zip(path, members):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def _gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
        g.write(data)
    return buf.getvalue()


# ------------------------------------------------------------------------------------------------ formats


def idx_files(n, seed):
    """MNIST idx3 images (n x 28 x 28 uint8) and idx1 labels, gzipped."""
    rng = np.random.RandomState(seed)
    imgs = (rng.randint(0, 4, size=(n, 28, 28)) * 85).astype(np.uint8)
    labels = rng.randint(0, 10, size=n).astype(np.uint8)
    return (_gz(struct.pack(">IIII", 2051, n, 28, 28) + imgs.tobytes()),
            _gz(struct.pack(">II", 2049, n) + labels.tobytes()))


def cifar_batch(n, seed, label_key):
    rng = np.random.RandomState(seed)
    data = rng.randint(0, 256, size=(n, 3072)).astype(np.uint8)
    labels = [int(x) for x in rng.randint(0, 10 if label_key == b"labels" else 100, size=n)]
    return pickle.dumps({b"batch_label": b"x", b"data": data, label_key: labels}, protocol=2)


WORDS = ["the", "movie", "was", "good", "bad", "plot", "actor", "great", "awful", "fun"]


def _text(rng, n_words, vocab):
    return " ".join(vocab[i] for i in rng.randint(0, len(vocab), size=n_words))


def build(root, name):
    """Write dataset `name`'s files under root (Paddle's DATA_HOME layout); {key: path}. A cached file is
    named after the last part of its URL, unquoted as Paddle leaves it ('imdb%2FaclImdb_v1.tar.gz')."""
    return BUILDERS[name](root)


def _mnist(root, folder="mnist"):
    out = {}
    for split, n, seed in (("train", 100, 1), ("t10k", 100, 2)):
        img, lab = idx_files(n, seed)
        out[split + "_images"] = _write(os.path.join(root, folder, split + "-images-idx3-ubyte.gz"), img)
        out[split + "_labels"] = _write(os.path.join(root, folder, split + "-labels-idx1-ubyte.gz"), lab)
    return out


def _cifar(root):
    c10 = {"cifar-10-batches-py/data_batch_%d" % i: cifar_batch(3, 10 + i, b"labels") for i in (1, 2)}
    c10["cifar-10-batches-py/test_batch"] = cifar_batch(2, 20, b"labels")
    c10["cifar-10-batches-py/batches.meta"] = pickle.dumps({b"label_names": [b"a"]}, protocol=2)
    c100 = {"cifar-100-python/train": cifar_batch(4, 30, b"fine_labels"),
            "cifar-100-python/test": cifar_batch(2, 31, b"fine_labels")}
    return {"cifar10": _tar(os.path.join(root, "cifar", "cifar-10-python.tar.gz"), c10),
            "cifar100": _tar(os.path.join(root, "cifar", "cifar-100-python.tar.gz"), c100)}


def _uci_housing(root):
    rng = np.random.RandomState(3)
    data = np.round(rng.uniform(0, 50, size=(20, 14)), 4)
    text = "\n".join(" ".join("%.4f" % v for v in row) for row in data) + "\n"
    return {"data": _write(os.path.join(root, "uci_housing", "housing.data"), text.encode())}


def _imdb(root):
    rng = np.random.RandomState(4)
    members = {}
    for split in ("train", "test"):
        for lab in ("pos", "neg"):
            for i in range(4):
                words = _text(rng, 60, WORDS).split()
                words[3] = words[3].capitalize() + ","
                members["aclImdb/%s/%s/%d_7.txt" % (split, lab, i)] = (" ".join(words) + " rare%d.\n" % i).encode()
    members["aclImdb/README"] = b"readme"
    return {"data": _tar(os.path.join(root, "imdb", "imdb%2FaclImdb_v1.tar.gz"), members)}


def _imikolov(root):
    rng = np.random.RandomState(5)
    vocab = WORDS[:6]

    def lines(n):
        return "".join(" %s \n" % _text(rng, int(rng.randint(2, 7)), vocab) for _ in range(n)).encode()

    members = {"./simple-examples/data/ptb.%s.txt" % s: lines(n) for s, n in (("train", 9), ("valid", 4), ("test", 3))}
    return {"data": _tar(os.path.join(root, "imikolov", "imikolov%2Fsimple-examples.tgz"), members)}


def _movielens(root):
    movies = ["1::Toy Story (1995)::Animation|Children's|Comedy", "2::Jumanji (1995)::Adventure|Children's",
              "3::Grumpier Old Men (1995)::Comedy|Romance", "5::Father of the Bride Part II (1995)::Comedy"]
    users = ["1::F::1::10::48067", "2::M::56::16::70072", "3::M::25::15::55117", "4::M::45::7::02460"]
    rng = np.random.RandomState(6)
    ratings = ["%d::%d::%d::97830%04d" % (u, m, r, i) for i, (u, m, r) in enumerate(
        zip(rng.randint(1, 5, 30), rng.choice([1, 2, 3, 5], 30), rng.randint(1, 6, 30)))]
    members = {"ml-1m/movies.dat": "\n".join(movies).encode("latin") + b"\n",
               "ml-1m/users.dat": "\n".join(users).encode() + b"\n",
               "ml-1m/ratings.dat": "\n".join(ratings).encode() + b"\n"}
    return {"data": _zip(os.path.join(root, "movielens", "movielens%2Fml-1m.zip"), members)}


CONLL_WORDS = ["The", "cat", "sat", "on", "the", "mat", ".", "Dogs", "bark", "and", "run"]
CONLL_SENTENCES = [
    # (words, props rows: the verb column, then one column per predicate)
    (["The", "cat", "sat", "on", "the", "mat", "."],
     [["-", "(A0*"], ["-", "*)"], ["sat", "(V*)"], ["-", "(AM-LOC*"], ["-", "*"], ["-", "*)"], ["-", "*"]]),
    (["Dogs", "bark", "and", "run"],
     [["-", "(A0*)", "(A0*)"], ["bark", "(V*)", "*"], ["-", "*", "*"], ["run", "*", "(V*)"]]),
]


def _conll05(root):
    words, props = [], []
    for sent, cols in CONLL_SENTENCES:
        for w, c in zip(sent, cols):
            words.append(w)
            props.append(" ".join(c))
        words.append("")
        props.append("")
    members = {"conll05st-release/test.wsj/words/test.wsj.words.gz": _gz(("\n".join(words) + "\n").encode()),
               "conll05st-release/test.wsj/props/test.wsj.props.gz": _gz(("\n".join(props) + "\n").encode())}
    folder = os.path.join(root, "conll05st")
    labels = ["B-A0", "I-A0", "B-AM-LOC", "I-AM-LOC", "B-V", "I-V", "B-AM-MNR", "I-AM-MNR", "O"]
    emb = np.arange(len(CONLL_WORDS) * 4, dtype=np.float32).reshape(-1, 4)
    return {"data": _tar(os.path.join(folder, "conll05st-tests.tar.gz"), members),
            "word_dict": _write(os.path.join(folder, "conll05st%2FwordDict.txt"),
                                ("\n".join(["<unk>", "bos", "eos"] + CONLL_WORDS) + "\n").encode()),
            "verb_dict": _write(os.path.join(folder, "conll05st%2FverbDict.txt"), b"sat\nbark\nrun\nwalk\n"),
            "target_dict": _write(os.path.join(folder, "conll05st%2FtargetDict.txt"), ("\n".join(labels) + "\n").encode()),
            "emb": _write(os.path.join(folder, "conll05st%2Femb"), emb.tobytes())}


def _pairs(rng, n, src_vocab, trg_vocab):
    return "".join("%s\t%s\n" % (_text(rng, int(rng.randint(1, 6)), src_vocab), _text(rng, int(rng.randint(1, 6)),
                                                                                       trg_vocab))
                   for _ in range(n)).encode()


DE_WORDS = ["der", "film", "war", "gut", "schlecht", "spass", "toll"]


def _wmt14(root):
    rng = np.random.RandomState(7)
    src_dict = "\n".join(["<s>", "<e>", "<unk>"] + WORDS[:6]) + "\n"
    trg_dict = "\n".join(["<s>", "<e>", "<unk>"] + DE_WORDS[:5]) + "\n"
    members = {"wmt14/train/train": _pairs(rng, 6, WORDS, DE_WORDS) + b"bad line without tab\n",
               "wmt14/test/test": _pairs(rng, 3, WORDS, DE_WORDS),
               "wmt14/gen/gen": _pairs(rng, 2, WORDS, DE_WORDS),
               "wmt14/src.dict": src_dict.encode(), "wmt14/trg.dict": trg_dict.encode()}
    return {"data": _tar(os.path.join(root, "wmt14", "wmt14.tgz"), members)}


def _wmt16(root):
    rng = np.random.RandomState(8)
    members = {"wmt16/train": _pairs(rng, 8, WORDS, DE_WORDS), "wmt16/test": _pairs(rng, 3, WORDS, DE_WORDS),
               "wmt16/val": _pairs(rng, 2, WORDS, DE_WORDS)}
    return {"data": _tar(os.path.join(root, "wmt16", "wmt16.tar.gz"), members)}


def _sentiment(root):
    rng = np.random.RandomState(9)
    members = {}
    for lab in ("neg", "pos"):
        for i in range(3):
            members["movie_reviews/%s/cv00%d_%d.txt" % (lab, i, 100 + i)] = (
                _text(rng, 12, WORDS) + " , it's (fun) !\n" + _text(rng, 5, WORDS) + " .\n").encode()
    members["movie_reviews/README"] = b"readme\n"
    return {"data": _zip(os.path.join(root, "corpora", "movie_reviews.zip"), members)}


def _mq2007(root):
    rng = np.random.RandomState(10)
    lines = []
    for qid, n in ((10, 3), (11, 2), (12, 3)):
        for d in range(n):
            score = int(rng.randint(0, 3)) if qid != 11 else 0
            feats = " ".join("%d:%.6f" % (k + 1, v) for k, v in enumerate(rng.uniform(0, 1, 46)))
            lines.append("%d qid:%d %s #docid = GX%03d-%02d inc = 1 prob = 0.5" % (score, qid, feats, qid, d))
    text = ("\n".join(lines) + "\n").encode()
    # Paddle unpacks the .rar into DATA_HOME/MQ2007 and reads MQ2007/MQ2007/Fold1/*.txt below that
    folder = os.path.join(root, "MQ2007", "MQ2007", "MQ2007", "Fold1")
    return {"train": _write(os.path.join(folder, "train.txt"), text),
            "test": _write(os.path.join(folder, "test.txt"), text)}


# --- MATLAB 5 files (flowers' imagelabels.mat / setid.mat): 1 x n double matrices -----------------------------


def mat5(arrays):
    """A MATLAB 5.0 file of named 1 x n row vectors {name: (values, 'uint8' | 'uint16' | 'double')}; the
    flowers files hold their indexes as integer classes (Paddle indexes arrays with them)."""
    out = [b"MATLAB 5.0 MAT-file, written by tests/data/formats.py".ljust(116, b" "), b"\x00" * 8,
           struct.pack("<H", 0x0100), b"IM"]
    kinds = {"uint8": (9, 2, "<u1"), "uint16": (11, 4, "<u2"), "double": (6, 9, "<f8")}

    def element(dtype, payload):
        pad = (-len(payload)) % 8
        return struct.pack("<II", dtype, len(payload)) + payload + b"\x00" * pad

    for name, (values, kind) in arrays.items():
        mx, mi, np_type = kinds[kind]
        values = np.asarray(values, dtype=np_type).reshape(1, -1)
        body = (element(6, struct.pack("<II", mx, 0))  # array flags: the class
                + element(5, struct.pack("<ii", 1, values.shape[1]))  # dims
                + element(1, name.encode())  # name
                + element(mi, values.tobytes(order="F")))  # real part
        out.append(element(14, body))
    return b"".join(out)


def _image_bytes(rng, fmt, size=(6, 5), mode="RGB"):
    from PIL import Image

    shape = (size[1], size[0], 3) if mode == "RGB" else (size[1], size[0])
    img = Image.fromarray(rng.randint(0, 256, size=shape).astype(np.uint8), mode)
    buf = io.BytesIO()
    img.save(buf, format=fmt)
    return buf.getvalue()


FLOWER_MATS = {"imagelabels.mat": {"labels": ([3, 1, 2, 3, 1, 2], "uint8")},
               "setid.mat": {"trnid": ([1, 2], "uint16"), "valid": ([3], "uint16"), "tstid": ([4, 5, 6], "double")}}


def _flowers(root):
    rng = np.random.RandomState(11)
    members = {"jpg/image_%05d.jpg" % i: _image_bytes(rng, "JPEG", (8, 6)) for i in range(1, 7)}
    folder = os.path.join(root, "flowers")
    return {"data": _tar(os.path.join(folder, "102flowers.tgz"), members),
            "label": _write(os.path.join(folder, "imagelabels.mat"), mat5(FLOWER_MATS["imagelabels.mat"])),
            "setid": _write(os.path.join(folder, "setid.mat"), mat5(FLOWER_MATS["setid.mat"]))}


def _voc2012(root):
    rng = np.random.RandomState(12)
    names = ["2007_000032", "2007_000039", "2007_000063"]
    members = {}
    for n in names:
        members["VOCdevkit/VOC2012/JPEGImages/%s.jpg" % n] = _image_bytes(rng, "JPEG", (7, 5))
        members["VOCdevkit/VOC2012/SegmentationClass/%s.png" % n] = _image_bytes(rng, "PNG", (7, 5), "L")
    seg = "VOCdevkit/VOC2012/ImageSets/Segmentation/"
    members[seg + "trainval.txt"] = ("\n".join(names) + "\n").encode()
    members[seg + "train.txt"] = ("\n".join(names[:2]) + "\n").encode()
    members[seg + "val.txt"] = (names[2] + "\n").encode()
    return {"data": _tar(os.path.join(root, "voc2012", "VOCtrainval_11-May-2012.tar"), members, mode="w")}


def image_folder(root, ext="png"):
    """root/<class>/<files>: 2 classes x 2 images (and one file of another extension, skipped)."""
    rng = np.random.RandomState(13)
    for cls in ("cat", "dog"):
        for i in range(2):
            _write(os.path.join(root, cls, "%d.%s" % (i, ext)), _image_bytes(rng, "PNG", (4, 3)))
    _write(os.path.join(root, "dog", "notes.txt"), b"not an image")
    return root


BUILDERS = {"mnist": _mnist, "cifar": _cifar, "uci_housing": _uci_housing, "imdb": _imdb, "imikolov": _imikolov,
            "movielens": _movielens, "conll05": _conll05, "wmt14": _wmt14, "wmt16": _wmt16, "sentiment": _sentiment,
            "mq2007": _mq2007, "flowers": _flowers, "voc2012": _voc2012}
NEEDS_PIL = ("flowers", "voc2012")


# ------------------------------------------------------------------------------------------------ summaries


def summary(x):
    """Plain data describing a sample: arrays by dtype / shape / sum / first values, sequences item by item."""
    if hasattr(x, "getbands"):  # a PIL image
        return {"pil": x.mode, "size": list(x.size), "array": summary(np.array(x))}
    if hasattr(x, "numpy") and not isinstance(x, np.ndarray):
        x = x.numpy()
    if isinstance(x, np.ndarray):
        flat = x.reshape(-1)
        return {"dtype": str(x.dtype), "shape": list(x.shape),
                "sum": float(flat.astype(np.float64).sum()) if x.dtype.kind in "biuf" else None,
                "head": [v.item() if hasattr(v, "item") else v for v in flat[:6]]}
    if isinstance(x, (list, tuple)):
        return {"seq": type(x).__name__, "items": [summary(v) for v in x]}
    if isinstance(x, bytes):
        return {"bytes": x.decode("latin-1")}
    if isinstance(x, (bool, np.bool_)):
        return {"bool": bool(x)}
    if isinstance(x, (int, np.integer)):
        return {"int": int(x), "type": type(x).__name__}
    if isinstance(x, (float, np.floating)):
        return {"float": float(x), "type": type(x).__name__}
    return {"repr": type(x).__name__}


def reader_summary(reader, first=3):
    """{count, first: [summaries]} of a 1.x reader (a callable returning an iterable) or an iterable."""
    it = reader() if callable(reader) else reader
    items = list(it)
    return {"count": len(items), "first": [summary(s) for s in items[:first]],
            "last": summary(items[-1]) if items else None}


def dataset_summary(ds, first=3):
    """{count, first} of a 2.x map-style dataset."""
    n = len(ds)
    return {"count": n, "first": [summary(ds[i]) for i in range(min(first, n))],
            "last": summary(ds[n - 1]) if n else None}


def by_name(ids, table):
    """ids -> the names a dict maps to them (for dictionaries Paddle numbers in a process-dependent order)."""
    inverse = {v: k for k, v in table.items()}
    return [inverse[i] for i in ids]


def movielens_canonical(sample, categories, titles):
    """A movielens sample with category and title-word ids replaced by the names."""
    sample = list(sample)
    sample[5] = by_name(list(sample[5]), categories)
    sample[6] = by_name(list(sample[6]), titles)
    return [v.tolist() if isinstance(v, np.ndarray) else v for v in sample]


def conll05_canonical(sample, labels):
    sample = [list(np.asarray(v).tolist()) for v in sample]
    sample[8] = by_name(sample[8], labels)
    return sample


def decorator_cases(reader_mod, batch, random_mod):
    """Outputs of the paddle.reader decorators on small readers (deterministic ones, shuffle seeded)."""
    def rng(n, start=0):
        return lambda: iter(range(start, start + n))

    def tup(n):
        return lambda: iter([(i, -i) for i in range(n)])

    out = {}
    out["batch"] = list(batch(rng(7), 3)())
    out["batch_drop_last"] = list(batch(rng(7), 3, drop_last=True)())
    out["compose"] = list(reader_mod.compose(tup(3), rng(3, 10), rng(3, 20))())
    out["compose_unaligned_nocheck"] = list(reader_mod.compose(rng(2), rng(4), check_alignment=False)())
    try:
        list(reader_mod.compose(rng(2), rng(4))())
        out["compose_unaligned"] = "no error"
    except reader_mod.ComposeNotAligned as e:
        out["compose_unaligned"] = "ComposeNotAligned: %s" % e
    out["chain"] = list(reader_mod.chain(rng(2), tup(2), rng(1, 7))())
    out["map_readers"] = list(reader_mod.map_readers(lambda a, b: a * 10 + b, rng(4), rng(3, 5))())
    out["firstn"] = list(reader_mod.firstn(rng(10), 4)())
    out["firstn_more"] = list(reader_mod.firstn(rng(3), 9)())
    out["buffered"] = list(reader_mod.buffered(rng(6), 2)())
    out["cache"] = list(reader_mod.cache(rng(4))())
    out["xmap_ordered"] = list(reader_mod.xmap_readers(lambda x: x * x, rng(12), 3, 4, order=True)())
    out["xmap_unordered_sorted"] = sorted(reader_mod.xmap_readers(lambda x: x + 1, rng(12), 3, 4)())
    random_mod.seed(7)
    out["shuffle_seeded"] = list(reader_mod.shuffle(rng(10), 4)())
    out["multiprocess_pipe_sorted"] = sorted(reader_mod.multiprocess_reader([tup(3), tup(2)], use_pipe=True)())
    out["multiprocess_queue_sorted"] = sorted(reader_mod.multiprocess_reader([tup(3), tup(2)], use_pipe=False)())
    for k, v in list(out.items()):
        if isinstance(v, list):
            out[k] = [[list(x) if isinstance(x, tuple) else x for x in b] if isinstance(b, list) else
                      (["tuple"] + list(b) if isinstance(b, tuple) else b) for b in v]
    return out


def viterbi_cases():
    """(name, potentials, transitions, lengths, include_bos_eos_tag) inputs of paddle.text.viterbi_decode."""
    rng = np.random.RandomState(21)
    out = []
    for name, (b, t, n), lengths, tag in (("tags", (3, 5, 4), [5, 3, 1], True), ("no_tags", (3, 5, 4), [5, 3, 1], False),
                                          ("short_max", (2, 6, 5), [4, 2], True), ("one", (1, 1, 3), [1], False),
                                          ("wide", (4, 7, 6), [7, 7, 2, 5], True)):
        out.append((name, rng.randn(b, t, n).astype("float32"), rng.randn(n, n).astype("float32"),
                    np.array(lengths, dtype="int64"), tag))
    return out
