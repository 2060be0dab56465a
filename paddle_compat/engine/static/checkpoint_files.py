"""Checkpoints of several files are never torn (issue 27 item 2).

A save that writes several files (fluid.io.save_persistables with one file per variable, save_inference_model,
paddle.static.save, paddle.jit.save, paddle.Model.save, the fluid.save_dygraph pair, distributed checkpoints)
goes through `write_files`, a write-ahead journal:

1. every file is written to a temporary sibling (fsync'ed; `serialization.atomic_write`'s temporaries);
2. the directory's journal records, for each file, the size and CRC-32 of its new content under one generation id;
3. the temporaries are renamed over the files;
4. the journal drops the generation's entries (and is removed when empty).

A save killed at any point leaves the files all old (before step 3), all new (after it), or some of each with the
journal still naming the generation. Loading (`check_files`, called by every loader of these formats) looks for a
journal only: without one (a completed save, or a directory real Paddle wrote) nothing changes. With one, each
loaded file the journal names is new (its size and CRC match) or old; a mix is a CorruptFileError naming the new
and the old files. A file another save rewrote since then leaves the torn generation (its entry is dropped).

File names and formats stay Paddle's. The journal `__paddle_compat_journal__` is itself a Paddle tensor file (a
uint8 tensor of JSON bytes), so real Paddle's `load_program_state(dirname)`, which loads every file of a directory
as a variable, still reads a directory a killed save left. It exists only after a killed (or during a running)
save.

`fluid.save_dygraph` writes its `.pdparams` and `.pdopt` in two calls: the first of the pair (when the other file
exists) leaves its generation open with the other file `awaiting`; the second closes it. A killed script between
the two calls leaves a new `.pdparams` with an old `.pdopt`, which load_dygraph refuses.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
import zlib
from typing import Any, Iterable

import numpy as np

JOURNAL = "__paddle_compat_journal__"
_FORMAT = "paddle_compat.save_journal/1"


def _crc(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def _file_crc(path: str) -> tuple[int, int] | None:
    """(size, crc32) of a file's content, None when it cannot be read."""
    try:
        crc, size = 0, 0
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 22)
                if not chunk:
                    break
                crc = zlib.crc32(chunk, crc)
                size += len(chunk)
        return size, crc & 0xFFFFFFFF
    except OSError:
        return None


def _journal_path(d: str) -> str:
    return os.path.join(d, JOURNAL)


def read_journal(d: str) -> dict[str, dict]:
    """The journal's entries ({file name: entry}); {} when there is none (or it is unreadable)."""
    from paddle_compat.engine.static.io import tensor_from_bytes

    p = _journal_path(d)
    try:
        with open(p, "rb") as f:
            data = f.read()
    except OSError:
        return {}
    try:
        arr, _ = tensor_from_bytes(data)
        doc = json.loads(arr.astype(np.uint8).tobytes().decode("utf-8"))
    except Exception:  # noqa: BLE001 - a damaged journal is reported by the loader, see check_files
        return {"": {"damaged": True}}
    return dict(doc.get("files", {})) if doc.get("format") == _FORMAT else {}


def _write_journal(d: str, entries: dict[str, dict]) -> None:
    from paddle_compat.engine.static.serialization import atomic_write, fsync_dir
    from paddle_compat.engine.static.io import tensor_to_bytes

    p = _journal_path(d)
    if not entries:
        try:
            os.unlink(p)
        except FileNotFoundError:
            return
        fsync_dir(d)
        return
    doc = json.dumps({"format": _FORMAT, "files": entries}, sort_keys=True).encode("utf-8")
    atomic_write(p, tensor_to_bytes(np.frombuffer(doc, dtype=np.uint8)))


def write_files(files: Iterable[tuple[str, bytes]], awaiting: Iterable[str] = (), close: bool = False) -> None:
    """Write each (path, data) of one checkpoint so that a kill leaves it all old, all new, or detectably torn
    (module docstring). The files are in one directory. `awaiting`: paths of files that belong to this
    checkpoint but are written by a later call (the save_dygraph pair); an existing one keeps the generation
    open until that call, with close=True, closes it. `files` may be a generator: each file's bytes are dropped
    once written."""
    from paddle_compat.engine.static.serialization import commit_temp, discard_temp, fsync_dir, write_temp

    gen = uuid.uuid4().hex[:16]
    temps: list[tuple[str, str, str]] = []  # (name, temporary, target)
    entries: dict[str, dict] = {}
    d = None
    try:
        for path, data in files:
            path = os.path.abspath(os.fspath(path))
            pd = os.path.dirname(path)
            if d is None:
                d = pd
            elif pd != d:
                raise ValueError(f"write_files: {path!r} is not in {d!r}; a checkpoint's files share a directory")
            tmp, target = write_temp(path, data)
            name = os.path.basename(path)
            temps.append((name, tmp, target))
            entries[name] = {"gen": gen, "size": len(data), "crc32": _crc(data)}
            del data
        if d is None:
            return
        names = {n for n, _, _ in temps}
        wait = [os.path.basename(p) for p in awaiting
                if os.path.basename(p) not in names and os.path.exists(os.path.join(d, os.path.basename(p)))]
        journal = read_journal(d)
        journal.pop("", None)
        # the second call of a pair completes the generation the first left open
        closing = {e.get("gen") for n, e in journal.items() if n in names and e.get("awaiting")} if close else set()
        pid = {"pid": os.getpid(), "host": socket.gethostname()}
        if closing:  # the awaited files' new content joins the open generation: once renamed in, it is complete
            for n in names:
                if journal.get(n, {}).get("awaiting"):
                    journal[n] = dict(entries[n], gen=journal[n]["gen"], **pid)
            _write_journal(d, journal)
        elif len(temps) > 1 or wait:
            journal.update({n: dict(e, **pid) for n, e in entries.items()})
            journal.update({n: {"gen": gen, "awaiting": True, **pid} for n in wait})
            _write_journal(d, journal)  # step 2: before any file is replaced
        for _, tmp, target in temps:
            commit_temp(tmp, target, sync_dir=False)
        for target_dir in {os.path.dirname(t) for _, _, t in temps}:
            fsync_dir(target_dir)
        temps = []
        journal = read_journal(d)  # step 4 (another save may have changed it meanwhile)
        journal.pop("", None)
        before = dict(journal)
        for n in names:  # a file written now leaves whatever generation it belonged to
            if n in journal and journal[n].get("gen") not in {gen} | closing:
                del journal[n]
        drop = set(closing) | ({gen} if not wait else set())
        journal = {n: e for n, e in journal.items() if e.get("gen") not in drop}
        if journal != before:
            _write_journal(d, journal)
    finally:
        for _, tmp, _ in temps:
            discard_temp(tmp)


_PAIR_FIRST: dict[str, str] = {}  # base path -> the file the first call of an unfinished pair wrote


def write_file_pair(path: str, data: bytes, partner: str, base: str) -> None:
    """One file of a pair saved by two calls (fluid.save_dygraph's .pdparams / .pdopt, either order): the first
    call leaves the pair open with `partner` awaiting (when it exists), the partner's call closes it. Two saves of
    the same file in a row start a new pair each (a params-only save beside an older .pdopt leaves it awaiting)."""
    key = os.path.abspath(base)
    first = _PAIR_FIRST.get(key)
    if first is None or first == os.path.abspath(path):
        _PAIR_FIRST[key] = os.path.abspath(path)
        write_files([(path, data)], awaiting=[partner])
    else:
        del _PAIR_FIRST[key]
        write_files([(path, data)], close=True)


def check_files(paths: Iterable[str], api: str) -> None:
    """Refuse a torn checkpoint: raise CorruptFileError when the files `paths` (about to be loaded together) mix
    the new content of a killed save with old content. Costs one stat per directory without a journal."""
    from paddle_compat.engine.static.serialization import CorruptFileError

    by_dir: dict[str, list[str]] = {}
    for p in paths:
        p = os.path.abspath(os.fspath(p))
        by_dir.setdefault(os.path.dirname(p), []).append(p)
    for d, ps in by_dir.items():
        if not os.path.exists(_journal_path(d)):
            continue
        journal = read_journal(d)
        if "" in journal:
            raise CorruptFileError(f"{api}: the save journal {_journal_path(d)!r} is damaged; a save into {d!r} "
                                   "was interrupted and the files there may mix two checkpoints. Save again, or "
                                   "delete the journal if the files are known to be consistent")
        gens: dict[str, tuple[list[str], list[str]]] = {}
        for p in ps:
            e = journal.get(os.path.basename(p))
            if e is None:
                continue
            new, old = gens.setdefault(e.get("gen", ""), ([], []))
            if not e.get("awaiting") and _file_crc(p) == (e.get("size"), e.get("crc32")):
                new.append(os.path.basename(p))
            else:
                old.append(os.path.basename(p))
        for gen, (new, old) in gens.items():
            if new and old:
                e = journal[new[0]]
                who = f"process {e.get('pid')} on {e.get('host')}" if e.get("pid") else "a save"
                raise CorruptFileError(
                    f"{api}: the checkpoint in {d!r} is torn: a save by {who} stopped part way (killed?), so the "
                    f"new values are in {_names(new)} and the old ones in {_names(old)}; these files were never "
                    f"saved together. Save the checkpoint again (or restore a copy); the journal {JOURNAL!r} "
                    "there names the files")


def _names(names: list[str]) -> str:
    names = sorted(names)
    s = ", ".join(repr(n) for n in names[:6])
    return f"{len(names)} file{'s' if len(names) > 1 else ''} ({s}{', ...' if len(names) > 6 else ''})"


def journal_name() -> str:
    return JOURNAL


def is_journal(name: Any) -> bool:
    return os.path.basename(str(name)) == JOURNAL
