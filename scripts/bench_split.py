"""One leaf searched whole against the leaf split into its children, asked one after another
on one table, as a run asks the children of a split leaf; and split with the answer hints,
each child first searching its move that settled most siblings so far.

    python scripts/bench_split.py --board 6x5 --moves 'E3-D3 B3-C3' --k 2 --table-mb 64

One core, so the node counts are exact. A leaf whose mover fails the question is the
interesting case: then every child must be settled, as in a run's refutation of a first move.
The table ages as in a run (parallel.RUN_AGE_WEIGHT).
"""

import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver._sanjego import Core  # noqa: E402
from solver.cli import ArgumentParser, table_mb_arg  # noqa: E402
from solver.provenance import bench_header  # noqa: E402
from solver.sanjego.parallel import RUN_AGE_WEIGHT, move_hint, prove  # noqa: E402
from bench_resume import board_and_position  # noqa: E402  (this script's folder is on the path)


def split(core, leaf, k, with_hints):
    """(distinct children asked, 1 if one was not settled for its mover (which settles the
    leaf, as in a run, so the rest are not asked) else 0, nodes)."""
    settled, seen, against, nodes = collections.Counter(), set(), 0, 0
    for move in leaf.legal_moves():
        child = leaf.play(move)
        key = core.key(*child.core_args)
        if key in seen:
            continue
        seen.add(key)
        hints = []
        if with_hints and settled:
            legal = set(child.legal_moves())
            hints = [move_hint(child, m) for m, _ in settled.most_common() if m in legal][:1]
        v, n, _, best = prove(None, *child.core_args, k, hints=hints, core=core)
        nodes += n
        if (v >= k) == (child.side == 0):
            if best is not None:
                settled[best] += 1
        else:
            against += 1
            break  # one child against its mover settles the leaf for the leaf's mover
    return len(seen), against, nodes


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="6x5")
    ap.add_argument("--moves", default="E3-D3 B3-C3", help="the leaf: the position after these moves")
    ap.add_argument("--k", type=int, default=2, help='the question "value >= k?" (default 2)')
    ap.add_argument("--table-mb", type=table_mb_arg, default=64.0)
    args = ap.parse_args()
    board, leaf, geometry, table_bytes = board_and_position(ap, args.board, args.moves, args.table_mb)

    def fresh():
        core = Core(measure="margin", table_bytes=table_bytes, **geometry)
        core.age_weight = RUN_AGE_WEIGHT
        return core

    bench_header(f"one core, table {args.table_mb:g} MB, question >= {args.k}")
    t = time.perf_counter()
    v, nodes, _, _ = prove(None, *leaf.core_args, args.k, core=fresh())
    answer = f">= {args.k}" if v >= args.k else f"< {args.k}"
    print(f"whole:             value {answer}, {nodes:>14,} nodes {time.perf_counter() - t:8.1f} s", flush=True)
    for label, with_hints in (("split:", False), ("split with hints:", True)):
        t = time.perf_counter()
        children, against, nodes = split(fresh(), leaf, args.k, with_hints)
        settles = " (the last settles the leaf)" if against else ""
        print(f"{label:<18} {children} children asked{settles}, {nodes:>14,} nodes "
              f"{time.perf_counter() - t:8.1f} s", flush=True)


if __name__ == "__main__":
    main()
