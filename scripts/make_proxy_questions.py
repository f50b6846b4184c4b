"""Makes a file of null-window questions ("value >= k?") near a run's line, a workload for
`scripts/bench.py --questions` that is small enough to measure an engine idea in minutes yet
shaped like the run's own sub-proofs.

    python scripts/make_proxy_questions.py --board 6x6 --prefix "D2-D3 C4-D4" --seeds 100 112 \\
        > scripts/data/6x6-questions.txt

For each seed: after the prefix, 4 plies (even seeds) or 5 (odd) of seeded random play among
the three moves the core orders first; then "value >= k?" for k = 2, 3, ... until the first
"no" (a refutation, the kind of proof that the 6x6 ">= +2" run is made of), each with a fresh
table. Questions that took more than --max-nodes are left out, so are the later ones of that
position. The answers come from the solver; bench.py checks them again on every run.
"""

import os
import random
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.cli import ArgumentParser  # noqa: E402
from solver.provenance import commit  # noqa: E402
from solver.sanjego import Board  # noqa: E402
from solver.sanjego.engine import Engine, ordered_moves  # noqa: E402
from solver.sanjego.errors import SanJegoError  # noqa: E402
from solver.sanjego.notation import format_moves, replay  # noqa: E402

TABLE_MB = 256


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="6x6")
    ap.add_argument("--prefix", default="D2-D3 C4-D4", help="moves played before the random ones")
    ap.add_argument("--seeds", type=int, nargs=2, default=[100, 112], metavar=("FIRST", "END"))
    ap.add_argument("--max-nodes", type=float, default=1e8, help="leave out questions that took more")
    ap.add_argument("--top", type=int, default=3, help="random moves among the first TOP in the core's order")
    args = ap.parse_args()
    try:
        board = Board.parse(args.board)
        start = replay(board, args.prefix)[0]
    except SanJegoError as e:
        ap.error(str(e))
    print(f"# made by: python {shlex.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, table {TABLE_MB} MB per question")
    print("# board | moves | k | is the value >= k?  (nodes: what the question took when made)")
    for seed in range(*args.seeds):
        rng = random.Random(seed)
        position, moves = start, []
        for _ in range(4 + seed % 2):
            if position.is_over() or position.must_pass():
                break
            move = rng.choice(ordered_moves(position)[:args.top])
            moves.append(move)
            position = position.play(move)
        line = " ".join(part for part in (args.prefix, format_moves(board, moves)) if part)
        for k in range(2, 37):
            engine = Engine(board, table_mb=TABLE_MB)
            answer = engine.at_least(position, k)
            nodes = engine.nodes
            del engine  # frees the table before the next one is made
            if nodes > args.max_nodes:
                break
            print(f"{board} | {line} | {k} | {'yes' if answer else 'no'}  # {nodes} nodes", flush=True)
            if not answer:
                break


if __name__ == "__main__":
    main()
