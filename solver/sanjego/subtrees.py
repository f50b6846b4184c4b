"""A run's costly subtrees: the compact, committed record of the work inside sub-proofs
that were stopped with the run, so that a new checkout resumes them without starting over.

A sub-proof stopped at the end of a session is journaled as "interrupted" and asked again
next session. The warm table (see warm) keeps most of its work, but only on the machine
that made it: it is raw table words, too big to commit. This file keeps, for each such
sub-proof, the positions whose subtrees its search finished at a cost of at least 4^MIN_WORK
nodes (at most MAX_PER_SUBPROOF, the costliest), each with the bounds it proved. They name
the positions themselves (as the core holds them: active towers, banked towers, tempo
moves), so they mean the same to any core with these rules: another seed, table size or
build. Measured (`scripts/bench_resume.py`, 6x5 after E3-D3 B3-C3, "value >= 2", stopped
halfway, one core): a cold restart costs +50 % of the search, the 1,113 table entries of
at least 4^8 nodes +13 %, the 58 of at least 4^10 +18 %.

When the session ends, the file keeps the entries of every stopped sub-proof whose leaf is
still undecided for its question, and drops the rest; a finished run deletes it. A run also
saves it every 10 minutes with the entries of its sub-proofs in flight so far, for a kill that
gives no time to save (session 26's run was cut off by a restart of the machine). Like the
warm table it only saves time: the journal alone says what is proven, and a file that is
damaged or made for another board is not used (one line says why).

A verification (see verify) keeps one of its own in DIR/verify/, for its questions stopped
with it: made by its own searches, so the run's answers never enter the verification's table.

Layout: MAGIC, 8-byte header length, JSON header (format, board, measure, heads, and one
{"key", "k", "entries"} per sub-proof), the entries of all sub-proofs in that order as one
LZ4 frame (BOOK_ENTRY_BYTES each), 4-byte CRC-32 of everything before it.
"""

import os
import struct
import sys

import lz4.frame

from ..checkpoint import read_framed, write_framed

MAGIC = b"SJSUBT\n"
FORMAT_VERSION = 1
FILE_NAME = "subtrees.bin"
MIN_WORK = 8             # 4^8 = 65,536 nodes
MAX_PER_SUBPROOF = 1024  # about 100 KB each before compression
CAPACITY = 1 << 16       # entries a worker records in one sub-proof before keeping only costlier ones
# An entry (Core.BOOK_ENTRY_BYTES): the position, then lo, hi, work (at BOUNDS_AT) and the
# best move's two cells (at MOVE_AT; NO_MOVE: none). Files saved before session 47 hold
# entries of LEGACY_ENTRY_BYTES, without the move.
BOUNDS_AT = 95
MOVE_AT = 98
NO_MOVE = b"\0\0"
LEGACY_ENTRY_BYTES = 98


class SubtreesError(Exception):
    """A costly-subtrees file that cannot be used: damaged, or made for another run."""


def costliest(entries, entry_bytes, limit=MAX_PER_SUBPROOF, min_work=0):
    """The entries of distinct positions (bounds of repeats combined, the move of the
    costliest search that named one), at most `limit` of work at least `min_work`, the
    costliest first."""
    merged = {}
    for i in range(0, len(entries), entry_bytes):
        e = entries[i:i + entry_bytes]
        position, (lo, hi, work), move = e[:BOUNDS_AT], struct.unpack_from("<bbB", e, BOUNDS_AT), e[MOVE_AT:]
        old = merged.get(position)
        if old is not None:
            if move == NO_MOVE or old[2] > work and old[3] != NO_MOVE:
                move = old[3]
            lo, hi, work = max(lo, old[0]), min(hi, old[1]), max(work, old[2])
        merged[position] = (lo, hi, work, move)
    best = sorted((item for item in merged.items() if item[1][2] >= min_work), key=lambda item: -item[1][2])[:limit]
    return b"".join(position + struct.pack("<bbB", lo, hi, work) + move for position, (lo, hi, work, move) in best)


def merge(before, now, entry_bytes):
    """{tag: entries}: those of `before` with those of `now` added, the costliest kept per tag."""
    merged = dict(before)
    for tag, entries in now.items():
        merged[tag] = costliest(merged.get(tag, b"") + entries, entry_bytes)
    return merged


def save(path, ident, groups, entry_bytes):
    """Writes {(leaf key, k): entries} atomically (or deletes the file when there are none)."""
    groups = {tag: entries for tag, entries in groups.items() if entries}
    if not groups:
        remove(path)
        return
    header = dict(ident, format=FORMAT_VERSION, entry_bytes=entry_bytes,
                  subproofs=[{"key": key.hex(), "k": k, "entries": len(entries) // entry_bytes}
                             for (key, k), entries in groups.items()])
    write_framed(path, MAGIC, header, lz4.frame.compress(b"".join(groups.values())))


def _read(path):
    """(header, compressed body) of a file whose checksum holds; raises SubtreesError."""
    header, body = read_framed(path, MAGIC, "a costly-subtrees file", SubtreesError)
    if not isinstance(header.get("subproofs"), list):
        raise SubtreesError(f"{path} is damaged (bad header)")
    return header, body


def describe(path):
    """{"subproofs", "positions", "bytes"} of the file; None when there is none; raises
    SubtreesError when it is damaged."""
    if not os.path.exists(path):
        return None
    header, _ = _read(path)
    try:
        positions = sum(item["entries"] for item in header["subproofs"])
    except (KeyError, TypeError):
        raise SubtreesError(f"{path} is damaged (bad header)") from None
    return {"subproofs": len(header["subproofs"]), "positions": positions, "bytes": os.path.getsize(path)}


def load(path, ident, entry_bytes):
    """{(leaf key, k): entries} from the file; raises SubtreesError when it is damaged or
    was made for another board, measure or variant."""
    header, compressed = _read(path)
    if header.get("format") != FORMAT_VERSION:
        raise SubtreesError(f"{path} has format {header.get('format')!r}, this solver reads {FORMAT_VERSION}")
    try:
        body = lz4.frame.decompress(compressed)
    except RuntimeError:
        raise SubtreesError(f"{path} is damaged (bad body)") from None
    saved_bytes = header.get("entry_bytes")
    if saved_bytes == LEGACY_ENTRY_BYTES and entry_bytes == MOVE_AT + len(NO_MOVE):
        body = with_no_moves(body)
    elif saved_bytes != entry_bytes:
        raise SubtreesError(f"{path} holds entries of {saved_bytes} bytes, this core's are {entry_bytes}")
    other = [k for k in sorted(ident) if header.get(k) != ident[k]]
    if other:
        raise SubtreesError(f"{path} was made for another {', '.join(other)}")
    groups, at = {}, 0
    try:
        for item in header["subproofs"]:
            size = item["entries"] * entry_bytes
            groups[(bytes.fromhex(item["key"]), item["k"])] = body[at:at + size]
            at += size
    except (KeyError, TypeError, ValueError):
        raise SubtreesError(f"{path} is damaged (bad header)") from None
    if at != len(body):
        raise SubtreesError(f"{path} is damaged (wrong length)")
    return groups


def with_no_moves(body):
    """Legacy entries (LEGACY_ENTRY_BYTES, no move) as this core's, naming no move (a length
    that is not a multiple is caught by load's check of the lengths)."""
    return b"".join(body[i:i + LEGACY_ENTRY_BYTES] + NO_MOVE for i in range(0, len(body), LEGACY_ENTRY_BYTES))


def settled_children(core, position, k, entries):
    """What one stopped sub-proof's entries say of its leaf's moves for ">= k": (distinct
    children, how many are proven >= k, how many < k). A lower count than the search had:
    the file keeps only the costliest positions. The core's table is cleared first."""
    core.clear()
    core.book_put(entries)
    seen, at_least, below = set(), 0, 0
    for move in position.legal_moves():
        child = position.play(move)
        args = child.core_args
        key = core.key(*args)
        if key in seen:
            continue
        seen.add(key)
        bounds = core.table_bounds(*args)
        if bounds is not None and bounds[0] >= k:
            at_least += 1
        elif bounds is not None and bounds[1] < k:
            below += 1
    return len(seen), at_least, below


def remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def start_session(directory, core, ident, note):
    """Puts the file's entries into the core's table before a session searches; returns its
    {(leaf key, k): entries} ({} when there is none or it cannot be used: never raises)."""
    path = os.path.join(directory, FILE_NAME)
    if not os.path.exists(path):
        return {}
    try:
        if sys.byteorder != "little":
            raise SubtreesError("costly-subtrees files are little-endian only")
        groups = load(path, ident, core.BOOK_ENTRY_BYTES)
    except SubtreesError as e:
        note(f"costly subtrees not used: {e}")
        return {}
    placed = sum(core.book_put(entries) for entries in groups.values())
    note(f"costly subtrees: {placed:,} positions of {len(groups)} stopped sub-proof(s) put back")
    return groups


def end_session(directory, ident, groups, open_question, note, entry_bytes):
    """Leaves in `directory` the entries of the stopped sub-proofs whose question is still
    open (open_question(key, k)); deletes the file when none is. Never raises."""
    path = os.path.join(directory, FILE_NAME)
    keep = {tag: entries for tag, entries in groups.items() if open_question(*tag)}
    try:
        save(path, ident, keep, entry_bytes)
    except Exception as e:  # noqa: BLE001 - a failed save only costs time next session
        note(f"costly subtrees not saved: {e}")
        return
    if keep:
        n = sum(len(entries) for entries in keep.values()) // entry_bytes
        note(f"costly subtrees: {n:,} positions of {len(keep)} stopped sub-proof(s) kept for the next session")
