"""What the run's move-order hints save a verification: one checkpointed run (which saves
the hints as moves at its root are settled), then its verification with and without them.

    python scripts/bench_hints.py --board 6x4 --table-mb 256

One worker, so the node counts are exact. The hints only order moves; both verifications
answer every question with their own keys and table (and must agree with the run).
"""

import os
import platform
import shlex
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.cli import ArgumentParser, positive_int_arg, table_mb_arg  # noqa: E402
from solver.provenance import commit  # noqa: E402
from solver.sanjego import Board, Position  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402
from solver.sanjego.errors import SanJegoError  # noqa: E402
from solver.sanjego.parallel import ParallelProof, open_run  # noqa: E402
from solver.sanjego.verify import Verification  # noqa: E402


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="6x4")
    ap.add_argument("--depth", type=positive_int_arg, default=2)
    ap.add_argument("--table-mb", type=table_mb_arg, default=256.0)
    args = ap.parse_args()
    try:
        board = Board.parse(args.board)
    except SanJegoError as e:
        ap.error(str(e))
    print(f"# python {shlex.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"one worker, table {args.table_mb:g} MB, depth {args.depth}")
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run")
        t0 = time.perf_counter()
        proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], args.depth, run_dir=run,
                              workers=1, table_mb=args.table_mb)
        value = proof.solve()
        print(f"{'':>22} {'value':>6} {'questions':>9} {'nodes':>13} {'wall s':>8}")
        print(f"{'run':>22} {value:>+6d} {proof.subproofs:>9} {proof.nodes:>13} {time.perf_counter() - t0:>8.2f}")
        for label, hints in (("verify, no hints", False), ("verify, order hints", True)):
            out = os.path.join(tmp, label.replace(" ", "").replace(",", "-"))
            t0 = time.perf_counter()
            result = Verification(open_run(run)[0], run, workers=1, table_mb=args.table_mb, out_dir=out,
                                  order_hints=hints).verify()
            print(f"{label:>22} {result['value']:>+6d} {result['questions']:>9} {result['nodes']:>13} "
                  f"{time.perf_counter() - t0:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
