"""San Jego benchmark: solves a fixed set of boards from the start and prints
value, nodes, wall time, nodes per second and peak memory.

    python scripts/bench.py                      # 4x4 5x4 6x4, margin
    python scripts/bench.py --scaling            # 5x4 6x4 5x5 7x4 6x5, 600 s limit per board
    python scripts/bench.py --boards 5x4 --measure outcome --table-mb 256
"""

import argparse
import os
import platform
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.provenance import commit  # noqa: E402
from solver.sanjego import Board, Position  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402

SCALING = ["5x4", "6x4", "5x5", "7x4", "6x5"]


class TimeLimit(Exception):
    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", nargs="+", default=["4x4", "5x4", "6x4"])
    ap.add_argument("--scaling", action="store_true", help=f"boards {' '.join(SCALING)}")
    ap.add_argument("--measure", choices=["margin", "outcome"], default="margin")
    ap.add_argument("--table-mb", type=float, default=2048)
    ap.add_argument("--limit", type=float, default=600, help="seconds per board before giving up")
    args = ap.parse_args()
    boards = SCALING if args.scaling else args.boards
    print(f"# python {' '.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{os.cpu_count()} cores, table {args.table_mb:g} MB, measure {args.measure}, "
          f"limit {args.limit:g} s")
    print(f"{'board':>6} {'value':>6} {'nodes':>14} {'seconds':>9} {'Mnodes/s':>9} {'peak MB':>8}")  # peak of the process so far
    for spec in boards:
        board = Board.parse(spec)
        engine = Engine(board, args.measure, table_mb=args.table_mb)
        t0 = time.perf_counter()

        def check(nodes):
            if time.perf_counter() - t0 > args.limit:
                raise TimeLimit

        engine.set_progress(check)
        try:
            value = f"{engine.value(Position.start(board)):+d}"
        except TimeLimit:
            value = "limit"
        seconds = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{spec:>6} {value:>6} {engine.nodes:>14} {seconds:>9.2f} "
              f"{engine.nodes / seconds / 1e6:>9.2f} {peak:>8.0f}", flush=True)
        engine.set_progress(None)  # breaks the engine <-> callback cycle, so the table is freed now
        del engine


if __name__ == "__main__":
    main()
