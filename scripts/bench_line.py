"""What the run's warm table saves `record --from-run`: the optimal line after the frontier
searched from the table the finished run left, against the same search from an empty table.

    python scripts/bench_line.py --board 6x4 --table-mb 256

One checkpointed run (one worker, so node counts are exact) is solved; then its directory is
recorded twice, once without its warm table. Nodes are those of the line alone (the frontier
position's value checked again, then each move's null-window searches).
"""

import os
import platform
import shlex
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.cli import ArgumentParser, positive_int_arg, table_mb_arg  # noqa: E402
from solver.provenance import commit  # noqa: E402
from solver.sanjego import Position  # noqa: E402
from solver.sanjego import warm  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402
from solver.sanjego.cli import board_arg  # noqa: E402
from solver.sanjego.parallel import ParallelProof  # noqa: E402
from solver.sanjego.results import record_from_run  # noqa: E402


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", type=board_arg, default="6x4")
    ap.add_argument("--depth", type=positive_int_arg, default=2)
    ap.add_argument("--table-mb", type=table_mb_arg, default=256.0)
    args = ap.parse_args()
    board = args.board
    print(f"# python {shlex.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"one worker, table {args.table_mb:g} MB, depth {args.depth}")
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run")
        t0 = time.perf_counter()
        proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], args.depth, run_dir=run,
                              workers=1, table_mb=args.table_mb)
        value = proof.solve()
        print(f"run: value {value:+d}, {proof.nodes:,} nodes, {time.perf_counter() - t0:.2f} s")
        cold = os.path.join(tmp, "cold")
        shutil.copytree(run, cold)
        warm.remove(os.path.join(cold, warm.FILE_NAME))
        print(f"{'line':>22} {'plies':>6} {'nodes':>13} {'s':>8}")
        for label, directory in (("from an empty table", cold), ("from the run's table", run)):
            out = os.path.join(tmp, "out-" + os.path.basename(directory))
            os.makedirs(out)
            _, record = record_from_run(board, directory, args.table_mb, out, log=lambda _: None)
            plies = len(record["game"].split()) - len(record["game"].splitlines())
            print(f"{label:>22} {plies:>6} {record['nodes'] - proof.nodes:>13,} {record['line_seconds']:>8.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
