"""What a warm table saves: one checkpointed run solved without stops, then stopped after
every N sub-proofs and resumed with an empty table, then the same with the warm table.

    python scripts/bench_warm.py --board 6x4 --table-mb 16 --every 5

One worker, so the node counts are exact. Nodes are those of the journal, the sub-proof in
flight at each stop included (journaled as interrupted, asked again after the stop).
A small table stands in for a long run's table, which overflows many times in a session.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.cli import ArgumentParser, positive_int_arg, table_mb_arg  # noqa: E402
from solver.provenance import bench_header  # noqa: E402
from solver.sanjego import Board, Position  # noqa: E402
from solver.sanjego import warm  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402
from solver.sanjego.errors import SanJegoError  # noqa: E402
from solver.sanjego.parallel import ParallelProof  # noqa: E402


class _StopAfter:
    """Progress display that ends a session once `subproofs` more sub-proofs are journaled."""

    def __init__(self, subproofs):
        self.subproofs, self.start = subproofs, None

    def __call__(self, proof, *args):
        if self.start is None:
            self.start = proof.subproofs + proof.splits
        if self.subproofs and proof.subproofs + proof.splits - self.start >= self.subproofs:
            raise KeyboardInterrupt


def run(board, depth, table_mb, every, keep_warm, run_dir):
    """(value, sessions, sub-proofs, journal nodes, wall seconds) of one run to the end."""
    sessions, t0 = 0, time.perf_counter()
    while True:
        sessions += 1
        if not keep_warm:
            warm.remove(os.path.join(run_dir, warm.FILE_NAME))
        proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], depth, run_dir=run_dir,
                              resume=sessions > 1, workers=1, progress=_StopAfter(every), table_mb=table_mb)
        try:
            value = proof.solve()
        except KeyboardInterrupt:
            continue
        return value, sessions, proof.subproofs, proof.nodes, time.perf_counter() - t0


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="6x4")
    ap.add_argument("--depth", type=positive_int_arg, default=2)
    ap.add_argument("--table-mb", type=table_mb_arg, default=16.0)
    ap.add_argument("--every", type=positive_int_arg, default=5, help="sub-proofs per session")
    args = ap.parse_args()
    try:
        board = Board.parse(args.board)
    except SanJegoError as e:
        ap.error(str(e))
    bench_header(f"one worker, table {args.table_mb:g} MB, depth {args.depth}")
    print(f"{'run':>22} {'value':>6} {'sessions':>8} {'sub-proofs':>10} {'nodes':>13} {'wall s':>8}")
    for label, every, keep in (("no stops", 0, False), (f"stop every {args.every}, cold", args.every, False),
                               (f"stop every {args.every}, warm", args.every, True)):
        with tempfile.TemporaryDirectory() as tmp:
            value, sessions, subproofs, nodes, wall = run(board, args.depth, args.table_mb, every, keep,
                                                          os.path.join(tmp, "run"))
        print(f"{label:>22} {value:>+6d} {sessions:>8} {subproofs:>10} {nodes:>13} {wall:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
