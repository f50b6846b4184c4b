"""Move-order hints for a verification: for each sub-proof a run answered, the costliest
positions its search finished, each with the best move it found there.

`sanjego verify` searches each leaf question again with other keys and a fresh table. The
run's moves cannot change its answers, but they can save it the run's detours: each worker
puts the hints of the run's sub-proof of the same question (or, failing that, of another
question of the same leaf) into a small table of its own (Core.book_put), and its search
tries first, in positions of at least MIN_TOWERS towers whose own entry names no move, the
move that table stores (Core.set_order_hints). The entries name positions, not table
slots, so they mean the same to any core with these rules: the file is compact, committed
with the run, and serves a verification on another machine.

The run appends one record per answered sub-proof to DIR/hints.log (see checkpoint.Journal:
checksummed lines, a torn last line dropped): {"key", "k", "entry_bytes", "entries",
"book"}, "book" being the entries (Core.BOOK_ENTRY_BYTES each, see subtrees) as an LZ4
frame in base64. A damaged file only costs time: the verification says so in one line and
searches without hints.
"""

import base64
import binascii
import os

import lz4.frame

from ..checkpoint import CheckpointError, Journal
from . import subtrees

FILE_NAME = "hints.log"
PER_SUBPROOF = 4096  # positions kept from one sub-proof (the costliest): up to about 135 KB in the file
MIN_TOWERS = 16      # positions with fewer towers are not looked up (most are cheap to search)
MIN_WORK = 5         # a run's book records positions of at least 4^MIN_WORK nodes (small boards have few
                     # of subtrees.MIN_WORK; a big sub-proof's costliest have far more)


class OrderHintsError(Exception):
    """A hints file that cannot be read."""


def path_of(run_dir):
    return os.path.join(run_dir, FILE_NAME)


def select(entries, entry_bytes):
    """The hints to keep of a sub-proof's book entries (those of its earlier sessions' stopped
    searches included): the PER_SUBPROOF costliest that name a move."""
    with_moves = b"".join(entries[i:i + entry_bytes] for i in range(0, len(entries), entry_bytes)
                          if entries[i + subtrees.MOVE_AT:i + entry_bytes] != subtrees.NO_MOVE)
    return subtrees.costliest(with_moves, entry_bytes, PER_SUBPROOF)


def append(run_dir, key, k, entries, entry_bytes):
    """Appends the hints of the sub-proof of leaf `key`, question ">= k"."""
    Journal(path_of(run_dir)).append({
        "key": key.hex(), "k": k, "entry_bytes": entry_bytes, "entries": len(entries) // entry_bytes,
        "book": base64.b64encode(lz4.frame.compress(entries)).decode()})


def _records(run_dir):
    try:
        return Journal(path_of(run_dir)).read()
    except CheckpointError as e:
        raise OrderHintsError(str(e)) from None


def load(run_dir, entry_bytes):
    """{leaf key: {k: entries}} of the run's hints ({} without a file); raises
    OrderHintsError when the file is damaged or holds entries of another size."""
    hints = {}
    for record in _records(run_dir):
        try:
            if not (isinstance(record["key"], str) and isinstance(record["k"], int)
                    and isinstance(record["entries"], int) and isinstance(record["book"], str)):
                raise TypeError("bad field")
            if record["entry_bytes"] != entry_bytes:
                raise OrderHintsError(f"{path_of(run_dir)} holds entries of {record['entry_bytes']} bytes, "
                                      f"this core's are {entry_bytes}")
            entries = lz4.frame.decompress(base64.b64decode(record["book"], validate=True))
            if len(entries) != record["entries"] * entry_bytes:
                raise ValueError("wrong length")
            hints.setdefault(bytes.fromhex(record["key"]), {})[record["k"]] = entries
        except (KeyError, TypeError, ValueError, RuntimeError, binascii.Error):
            raise OrderHintsError(f"{path_of(run_dir)} is damaged (bad record)") from None
    return hints


def describe(run_dir):
    """{"subproofs", "positions", "bytes"} of the run's hints, a question's later record
    counting in place of its earlier one as in load; None without a file; raises
    OrderHintsError when it is damaged."""
    path = path_of(run_dir)
    if not os.path.exists(path):
        return None
    try:
        questions = {(record["key"], record["k"]): record["entries"] for record in _records(run_dir)}
        positions = sum(questions.values())
    except (KeyError, TypeError):
        raise OrderHintsError(f"{path} is damaged (bad record)") from None
    return {"subproofs": len(questions), "positions": positions, "bytes": os.path.getsize(path)}


def for_question(hints, key, k):
    """The entries for leaf `key`'s question ">= k": of the run's sub-proof of that question,
    else of the leaf's question nearest to it; None when the run left none."""
    questions = hints.get(key)
    if not questions:
        return None
    return questions[min(questions, key=lambda asked: (abs(asked - k), asked))]
