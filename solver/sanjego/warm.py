"""A run's warm table: the costliest entries of its transposition table, saved when a
session of a checkpointed run ends (and every half hour, for a kill that leaves no time
to save) and put back when the next session starts, so that the next one does not begin
with an empty table.

A cold start costs more than the sub-proofs in flight at the stop: later sub-proofs
reuse what earlier ones stored (the children of a split leaf are often answered from
the table at once). `scripts/bench_warm.py` measures it: 6×4 stopped after every 5
sub-proofs, 54.4 M nodes resumed cold, 44.7 M warm.

The file is only an accelerator: the journal alone decides what is proven. Its entries
are raw table words, meaningful only to the core that made them, so the file names the
board, measure, seed and heads, the hash of the core's sources compiled into it (a
changed core may store other things under the same keys, unless SAME_TABLES says that
the change cannot have) and a fingerprint of the keys
the core gives to a fixed set of positions; a file that does not match (or is damaged)
is not used, with a one-line reason, and the session starts cold. Results of a run are re-verified with other
keys by `sanjego verify` in any case.

Layout: MAGIC, 8-byte header length, JSON header, entries (24 bytes each: slot, check,
data as stored, little-endian), 4-byte CRC-32 of everything before it. The header says how
many buckets the table had and its near part (the buckets at its start that small
positions keep to; files saved before session 34 do not say, see LEGACY_NEAR_PART) and,
since session 37, how many towers a position may have to keep to it (files without it were
saved with LEGACY_NEAR_TOWERS).
"""

import hashlib
import json
import os
import random
import struct
import sys
import time

import numpy as np

from .. import __version__
from ..checkpoint import read_framed, write_framed

MAGIC = b"SJWARM\n"
FORMAT_VERSION = 1
FILE_NAME = "table.warm"
MIN_WORK = 4      # work is log4 of a subtree's nodes: below 256 nodes an entry is cheap to redo
MAX_SHARE = 64    # at most one table slot in MAX_SHARE is saved (8 GB table: 192 MB file)
ENTRY_BYTES = 24


# Cores whose tables mean the same as an earlier core's: {core: earlier cores}. A source
# change the table never sees (code outside the search, the keys and the entries) changes
# the hash too; each pair here was checked by reading the csrc/ diff between the commits.
SAME_TABLES = {
    # 72bd94f -> f1db205: sj_solve and sj_solve_between removed (the questions moved to probes.py)
    "bfa0e3c76cb97dfe": ("fa636a41a3d0fac8",),
    # -> session 26: sj_table_import copies entries into a bigger table (loading only), and
    # the search records costly subtrees for the run's file (see subtrees; no entry changes)
    "82b167b7c74de62b": ("bfa0e3c76cb97dfe", "fa636a41a3d0fac8"),
    # -> session 27: positions of at most 20 towers are kept in the table's first 512 MB
    # (bucket_of: only where an entry is looked for changes, not what it says; the import
    # also copies each old entry to the near bucket it would have if its position were small)
    "64fc05d6a6b1968f": ("82b167b7c74de62b", "bfa0e3c76cb97dfe", "fa636a41a3d0fac8"),
    # -> session 33: sj_table_import puts an entry saved with this table's near part only
    # where its position is looked for, and one copy of an entry met twice (loading only)
    "9453245bcb8a6aad": ("64fc05d6a6b1968f", "82b167b7c74de62b", "bfa0e3c76cb97dfe", "fa636a41a3d0fac8"),
    # -> table aging: an entry's top byte (0 before) is the generation it was stored in, set
    # to the importing table's at the import; keys, bounds, moves and work are as before
    "62cab37ce0a4a168": ("9453245bcb8a6aad", "64fc05d6a6b1968f", "82b167b7c74de62b", "bfa0e3c76cb97dfe",
                         "fa636a41a3d0fac8"),
    # -> session 35: the Zobrist keys laid out by symmetry for toggle (the same keys), and
    # largest_group stops once its answer cannot change the bounds, and is not called where
    # a pair that one move could stack already rules out a cut-off (the same bounds); and
    # sj_table_bounds reads an entry for status (outside the search); f7ef49481522d05e is
    # the same source before banked_with_now took the x-adjusted bests out of two places
    "cadcc792504b5c2b": ("f7ef49481522d05e", "62cab37ce0a4a168", "9453245bcb8a6aad", "64fc05d6a6b1968f",
                         "82b167b7c74de62b", "bfa0e3c76cb97dfe", "fa636a41a3d0fac8"),
    # -> session 46: sj_set_order_hints, move order read from another core's table (only a
    # verification sets it; entries, keys and the search without it are as before)
    "cef7e4a43dfb8597": ("cadcc792504b5c2b", "f7ef49481522d05e", "62cab37ce0a4a168", "9453245bcb8a6aad",
                         "64fc05d6a6b1968f", "82b167b7c74de62b", "bfa0e3c76cb97dfe", "fa636a41a3d0fac8"),
    # -> session 47: book entries carry the best move (book_put stores it only when asked,
    # for move-order hints; 4c764edcf4fbf7d2 always did, as a search would have), and order
    # hints with this core's own keys take its key (no entry changes; 64a4b118aaac4296 keyed
    # positions below table_min_towers afresh for them)
    "44df6df13626fb44": ("64a4b118aaac4296", "4c764edcf4fbf7d2", "cef7e4a43dfb8597", "cadcc792504b5c2b",
                         "f7ef49481522d05e", "62cab37ce0a4a168", "9453245bcb8a6aad", "64fc05d6a6b1968f",
                         "82b167b7c74de62b", "bfa0e3c76cb97dfe", "fa636a41a3d0fac8"),
}

# Files that do not name their near part were saved by the cores of sessions 27 to 33 with
# the near part those had, 2^23 buckets (512 MB) in a bigger table, or before session 27
# by the cores above, with none. Those cores' sj_table_import also put a copy of every
# entry into the near part at each load, and each save kept the copies (see drop_copies).
LEGACY_NEAR_PART = 1 << 23
LEGACY_NEAR_TOWERS = 20  # the core's near_towers from session 27 on; files did not say it before session 37
CORES_BEFORE_THE_NEAR_PART = SAME_TABLES["64fc05d6a6b1968f"]  # the core that brought it declared them


class WarmTableError(Exception):
    """A warm table that cannot be used: damaged, or made for another board, seed or core."""


def fingerprint(core, position, playouts=8, seed=20261202):
    """A hash of the core's keys for the position and for positions along random games from
    it: cores that key any of them differently (another seed, board or core) differ here."""
    rng = random.Random(seed)
    digest = hashlib.sha256()
    for _ in range(playouts):
        p = position
        while True:
            for k in core.key(*p.core_args):
                digest.update(k.to_bytes(8, "little"))
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))
    return digest.hexdigest()[:32]


def identity(core, position, board_spec, measure, seed, heads):
    """What a warm table must have been made with to be used for this core."""
    return {"board": board_spec, "measure": measure, "seed": seed, "heads": bool(heads),
            "core": core.core_source, "keys": fingerprint(core, position)}


def choose_min_work(counts, slots):
    """The least work (at least MIN_WORK) whose entries and those above fit in slots / MAX_SHARE."""
    room, total = slots // MAX_SHARE, 0
    for work in range(len(counts) - 1, MIN_WORK - 1, -1):
        if total + counts[work] > room:
            return work + 1
        total += counts[work]
    return MIN_WORK


def save(path, core, ident):
    """Writes the table's costliest entries (atomically; with none worth keeping, deletes the
    file instead); returns (entries, least work)."""
    slots = core.table_buckets * 4
    min_work = choose_min_work(core.table_work_counts(), slots)
    entries = core.table_export(min_work)
    if not entries:
        remove(path)
        return 0, min_work
    header = {"format": FORMAT_VERSION, "code_version": __version__, "identity": ident,
              "buckets": core.table_buckets, "near_part": core.near_part, "near_towers": core.near_towers,
              "min_work": min_work,
              "entries": len(entries) // ENTRY_BYTES}
    remove_leftovers(path)
    write_framed(path, MAGIC, header, entries)
    return len(entries) // ENTRY_BYTES, min_work


def read(path):
    """(header, entries) of a warm table file; raises WarmTableError if it is damaged."""
    header, entries = read_framed(path, MAGIC, "a warm table", WarmTableError)
    if header.get("format") != FORMAT_VERSION:
        raise WarmTableError(f"{path} has format {header.get('format')!r}, this solver reads {FORMAT_VERSION}")
    buckets, count = header.get("buckets"), header.get("entries")
    if (not isinstance(header.get("identity"), dict) or not isinstance(count, int) or not isinstance(buckets, int)
            or buckets < 1 or buckets & (buckets - 1)):
        raise WarmTableError(f"{path} is damaged (bad header)")
    near_part = header.get("near_part", 0)
    if not isinstance(near_part, int) or near_part < 0 or near_part & (near_part - 1):
        raise WarmTableError(f"{path} is damaged (bad header)")
    header.setdefault("near_towers", LEGACY_NEAR_TOWERS)
    if not isinstance(header["near_towers"], int) or not 0 <= header["near_towers"] <= 64:
        raise WarmTableError(f"{path} is damaged (bad header)")
    if len(entries) != ENTRY_BYTES * count:
        raise WarmTableError(f"{path} is damaged (wrong length)")
    return header, entries


def describe(path):
    """{"entries", "min_work", "bytes"} from a warm table's header (its checksum is only
    checked when it is loaded); None when there is no file; raises WarmTableError when
    the header cannot be read."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(MAGIC) + 8)
            if not start.startswith(MAGIC) or len(start) < len(MAGIC) + 8:
                raise WarmTableError(f"{path} is not a warm table")
            (length,) = struct.unpack("<Q", start[len(MAGIC):])
            header = json.loads(f.read(min(length, 1 << 20)))
            size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        return None
    except OSError as e:
        raise WarmTableError(f"cannot read {path}: {e.strerror}") from None
    except ValueError:
        raise WarmTableError(f"{path} is damaged (bad header)") from None
    if not isinstance(header, dict) or not all(isinstance(header.get(k), int) for k in ("entries", "min_work")):
        raise WarmTableError(f"{path} is damaged (bad header)")
    return {"entries": header["entries"], "min_work": header.get("min_work"), "bytes": size}


def load(path, core, ident):
    """Puts a warm table's entries into the core's (empty) table, of any size; returns how
    many were placed. Raises WarmTableError when the file is damaged or does not fit this core."""
    header, entries = read(path)
    if sys.byteorder != "little":
        raise WarmTableError("warm tables are little-endian only")
    if ident["core"] == "unknown":
        raise WarmTableError("this core was not built by setup.py (no source hash to match)")
    theirs = header["identity"]
    if theirs.get("core") in SAME_TABLES.get(ident["core"], ()):
        theirs = dict(theirs, core=ident["core"])
    if theirs != ident:
        what = [k for k in ("board", "measure", "seed", "heads", "core", "keys") if theirs.get(k) != ident[k]]
        raise WarmTableError(f"{path} was made with another {', '.join(what) or 'identity'}"
                             + (" (the core has changed since)" if "core" in what else ""))
    near_part = header.get("near_part")
    if near_part is None:
        near_part = 0 if header["identity"].get("core") in CORES_BEFORE_THE_NEAR_PART else LEGACY_NEAR_PART
        near_part = near_part if near_part < header["buckets"] else 0
        if near_part:
            entries = drop_copies(entries)
    if near_part and header["near_towers"] != core.near_towers:
        entries = drop_near_part(entries, near_part)
    return core.table_import(entries, header["buckets"], near_part)


def drop_near_part(entries, near_part):
    """The entries saved outside the near part. A file saved with another near_towers holds
    in its near part entries of positions that this core looks for elsewhere (or, for the
    smallest, in the same place: an entry does not say how many towers its position has).
    Imported, those would never be found, and their work would keep the slots of the small
    positions that are searched most for generations (session 37: from 20 to 11 towers)."""
    rows = np.frombuffer(entries, dtype="<u8").reshape(-1, 3)
    return rows[rows[:, 0] // 4 >= near_part].tobytes()


def drop_copies(entries):
    """The entries with one copy of each position's entry, the costliest (of equal work, the
    one furthest into the table). Files saved by the cores of sessions 27 to 33 hold a copy
    of almost every entry in the near part: a big position's copy there is never found, but
    it takes a slot from the small positions that are searched most. (A small position's
    entry made before session 27 could only be found as its copy there; it is lost.)"""
    rows = np.frombuffer(entries, dtype="<u8").reshape(-1, 3)
    key, lock, work = rows[:, 1] ^ rows[:, 2], rows[:, 2] & 0xFFFF, rows[:, 2] >> 48 & 0xFF
    order = np.lexsort((rows[:, 0], work, lock, key))
    key, lock = key[order], lock[order]
    last = np.ones(len(order), dtype=bool)
    last[:-1] = (key[1:] != key[:-1]) | (lock[1:] != lock[:-1])
    return rows[np.sort(order[last])].tobytes()


def remove_leftovers(path):
    """Deletes temporary files that a save killed midway left beside `path`."""
    directory, name = os.path.split(os.path.abspath(path))
    try:
        entries = os.listdir(directory)
    except FileNotFoundError:
        return
    for entry in entries:
        if entry.startswith(f".{name}.") and entry.endswith(".tmp"):
            try:
                os.remove(os.path.join(directory, entry))
            except FileNotFoundError:
                pass


def remove(path):
    """Deletes the warm table and any leftovers of it."""
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
    remove_leftovers(path)


def start_session(directory, core, identify, note):
    """Puts the warm table of `directory` (if any) into the core's table before a session
    searches; identify() gives the identity it must have, note(text) says what happened.
    Never raises: whatever is wrong with the file only means an empty table. Returns the
    number of entries placed (0 without a usable file)."""
    path = os.path.join(directory, FILE_NAME)
    if not os.path.exists(path):
        return 0
    t0 = time.perf_counter()
    try:
        placed = load(path, core, identify())
    except Exception as e:
        note(f"warm table not used, starting with an empty table: {e}")
        return 0
    note(f"warm table: {placed:,} entries from the last session ({time.perf_counter() - t0:.1f} s)")
    return placed


def end_session(directory, core, identify, note, finished, kept_for="the next session"):
    """Leaves the core's costliest entries in `directory` for the next session (core None:
    no local table), or deletes the warm table once the work is finished. Never raises: it
    runs as a session ends, often on Ctrl-C or SIGTERM, which must still end it as such."""
    path = os.path.join(directory, FILE_NAME)
    if finished or core is None:
        try:
            if finished:
                remove(path)
        except Exception as e:
            note(f"warm table of the finished work not removed: {e}")
        return
    t0 = time.perf_counter()
    try:
        entries, work = save(path, core, identify())
    except Exception as e:
        note(f"warm table not saved: {e}")
        return
    if entries:
        note(f"warm table: {entries:,} entries of at least {4 ** work:,} nodes saved for {kept_for} "
             f"({time.perf_counter() - t0:.1f} s)")
