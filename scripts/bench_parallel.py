"""Parallel proof speed-up: the same board with 1, 2, ... workers (no run directory).

    python scripts/bench_parallel.py --board 6x4 --workers 1 2 --depth 2
"""

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.sanjego import Board, Position  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402
from solver.sanjego.parallel import ParallelProof  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="6x4")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--table-mb", type=float, default=2048, help="the one table the workers share")
    args = ap.parse_args()
    board = Board.parse(args.board)
    print(f"# python {' '.join(sys.argv)}")
    print(f"# {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"table {args.table_mb:g} MB shared, depth {args.depth}")
    print(f"{'workers':>7} {'value':>6} {'sub-proofs':>10} {'nodes':>13} {'wall s':>8} {'speed-up':>8}")
    base = None
    for n in args.workers:
        engine = Engine(board, table_mb=1)
        proof = ParallelProof(engine, Position.start(board), [], args.depth, workers=n, table_mb=args.table_mb)
        t0 = time.perf_counter()
        value = proof.solve()
        wall = time.perf_counter() - t0
        base = base or wall
        print(f"{n:>7} {value:>+6d} {proof.subproofs:>10} {proof.nodes:>13} {wall:>8.2f} "
              f"{base / wall:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
