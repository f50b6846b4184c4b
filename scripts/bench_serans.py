"""Las Torres de Serans benchmark: solves fixed two-player instances from the start (set-up
placements included) and prints value, nodes, wall time and nodes per second, with the command
and commit, so that a before/after comparison can be rerun.

    python scripts/bench_serans.py                          # 3x3 target 3 and 4
    python scripts/bench_serans.py --instances 3x3:4 --table-mb 512
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.provenance import commit  # noqa: E402
from solver.serans.engine import Engine  # noqa: E402
from solver.serans.rules import Position, Rules  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", nargs="+", default=["3x3:3", "3x3:4"], help="NxN:TARGET")
    ap.add_argument("--table-mb", type=float, default=256)
    ap.add_argument("--without", nargs="*", default=[], choices=["symmetry", "ordering", "mtd", "etc", "eval"],
                    help="switch a search improvement off (to measure what it gives)")
    args = ap.parse_args()
    off = {"symmetry": "no_symmetry", "ordering": "no_ordering", "mtd": "full_window", "etc": "no_etc",
           "eval": "no_eval"}
    search_options = {off[w]: 1 for w in args.without}
    print("command: python " + " ".join(sys.argv) + f"   commit: {commit()}   cores: {os.cpu_count()}")
    print(f"{'instance':>9} {'value':>6} {'nodes':>14} {'seconds':>9} {'knodes/s':>9}")
    for inst in args.instances:
        size, target = inst.split(":")
        rules = Rules(size=int(size.split("x")[0]), target=int(target))
        engine = Engine(rules, table_mb=args.table_mb, **search_options)
        t0 = time.perf_counter()
        v = engine.value(Position.initial(rules))
        dt = time.perf_counter() - t0
        print(f"{inst:>9} {v:>+6d} {engine.nodes:>14,} {dt:>9.2f} {engine.nodes / dt / 1e3:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
