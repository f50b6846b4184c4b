"""What the run's warm table saves `record --from-run`: the optimal line after the frontier
searched from the table the finished run left, against the same search from an empty table.

    python scripts/bench_line.py --board 6x4 --table-mb 256

One checkpointed run (one worker, so node counts are exact) is solved; then its directory is
recorded twice, once without its warm table. Nodes are those of the line alone (the frontier
position's value checked again, then each move's null-window searches).
"""

import os
import shutil
import tempfile

from benchruns import header, run_options, solve_run  # (puts this checkout first on sys.path)
from solver.sanjego import warm
from solver.sanjego.results import record_from_run


def main():
    args = run_options(__doc__, 256.0).parse_args()
    board = args.board
    header(args)
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run")
        proof, value, seconds = solve_run(args, run)
        print(f"run: value {value:+d}, {proof.nodes:,} nodes, {seconds:.2f} s")
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
