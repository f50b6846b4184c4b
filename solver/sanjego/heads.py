"""The heads variant's set-up ("Koepfchen"): which head cells to choose, and what the game is
then worth.

Reading of the open points (docs/sanjego-variants.md): the first player puts his head first,
the second player answers seeing it, then the first player makes the first move. So the
variant's value is   max over a of min over b of value(a, b),   a one of the first player's
cells and b one of the second's. The other order (second player first) is
min over b of max over a, reported as well; both come from the same table of values.
Pairs that a symmetry of the board maps onto each other are solved once.
"""

import itertools
import time

from .engine import Engine
from .errors import SanJegoError
from .position import Position


def head_table(board, measure="margin", table_mb=256, progress=None, seed=None, symmetry=True):
    """{(a, b): value} for every first-player cell a and second-player cell b, plus the
    number of distinct (up to symmetry) pairs solved and the nodes spent."""
    start = Position.start(board)
    firsts = [c for c in range(board.cells) if start.owners[c] == 0]
    seconds = [c for c in range(board.cells) if start.owners[c] == 1]
    if not firsts or not seconds:
        raise SanJegoError(f"board {board}: the heads variant needs pieces of both players")
    engine = Engine(board, measure, table_mb=table_mb, heads=True, seed=seed, symmetry=symmetry)
    by_key, values = {}, {}
    pairs = list(itertools.product(firsts, seconds))
    for done, (a, b) in enumerate(pairs):
        position = start.with_heads((a, b))
        key = position.canonical_key()
        if key not in by_key:
            by_key[key] = engine.value(position)
        values[(a, b)] = by_key[key]
        if progress:
            progress(done + 1, len(pairs))
    return values, len(by_key), engine.nodes


def best_choices(values, maximise_first=True):
    """(value, first player's head, second player's answer) when the first player places
    first; with maximise_first=False the second player places first: (value, his head,
    the first player's answer)."""
    firsts = sorted({a for a, _ in values})
    seconds = sorted({b for _, b in values})
    if maximise_first:
        options = [(min(values[a, b] for b in seconds), a) for a in firsts]
        value, a = max(options, key=lambda va: (va[0], -va[1]))
        b = min(seconds, key=lambda b: (values[a, b], b))
        return value, a, b
    options = [(max(values[a, b] for a in firsts), b) for b in seconds]
    value, b = min(options, key=lambda vb: (vb[0], vb[1]))
    a = max(firsts, key=lambda a: (values[a, b], -a))
    return value, b, a


def analyse(board, measure="margin", table_mb=256, progress=None, verify=False):
    """Everything the `heads` command reports, as one JSON-ready dict. With verify, every
    pair is solved a second time with other hash keys and no symmetry reduction (so a hash
    collision would have to strike twice the same way); a disagreement raises
    VerificationError."""
    t0 = time.perf_counter()
    values, distinct, nodes = head_table(board, measure, table_mb, progress)
    check = None
    if verify:
        from .results import VERIFY_SEED
        again, _, check_nodes = head_table(board, measure, table_mb, progress, VERIFY_SEED, symmetry=False)
        wrong = [pair for pair in values if again[pair] != values[pair]]
        if wrong:
            a, b = wrong[0]
            raise VerificationError(f"heads {board.name(a)},{board.name(b)}: {values[a, b]} by the first "
                                    f"run, {again[a, b]} by the second: results not recorded")
        check = {"seed": VERIFY_SEED, "symmetry": False, "nodes": check_nodes, "agreed": True}
    plain_engine = Engine(board, measure, table_mb=table_mb)
    plain = plain_engine.value(Position.start(board))
    first = best_choices(values, True)
    second = best_choices(values, False)
    name = board.name
    return {
        "board": str(board), "measure": measure,
        "value": first[0],
        "first_places_first": {"value": first[0], "first_head": name(first[1]), "second_head": name(first[2])},
        "second_places_first": {"value": second[0], "second_head": name(second[1]),
                                "first_head": name(second[2])},
        "plain_value": plain,
        "pairs": len(values), "distinct_pairs": distinct,
        "values": {f"{name(a)},{name(b)}": v for (a, b), v in sorted(values.items())},
        "nodes": nodes + plain_engine.nodes, "seconds": round(time.perf_counter() - t0, 3),
        "verify": check,
    }


class VerificationError(RuntimeError):
    """Two independent solves disagree."""
