"""Tailor of Ghent benchmark: exact values of fixed positions part-way into games on the two
17-vertex boards, with nodes and wall time, so each search idea's effect is a measured ratio.

    python scripts/bench_gent.py [--plies N] [--count N] [--table-mb MB]
    python scripts/bench_gent.py --question ghent17 1-4-11-5 1 46 [--search pn+ab|pn|ab] [--budget N [--first N] [--levels N] [--budgets N]]

Positions come from a fixed-seed playout in which the Tailor captures when he can, so they are
reproducible and typical of real play. `--question BOARD OUTER START K` instead asks one run
question ("from START, does the Tailor score more than K?") in one search, or with `--budget N`
as a run asks it in a round of budget N: with budgets rising fourfold from 2^20 (`--first`) up
to N, each try split into its children when a search passes its budget (3 levels, 8 budgets in
all; `--levels`, `--budgets`); `--first N` asks with the round's budget alone, as runs did
before session 13. `--search` picks the searches a question tries (since session 15 runs ask
the proof-number search first, then alpha-beta; `--search ab` asks as runs did before, though
with half the table: the proof-number table takes the other half).
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.gent.board import Board  # noqa: E402
from solver.provenance import commit  # noqa: E402
from solver.gent.engine import Engine  # noqa: E402
from solver.gent.errors import GraphError  # noqa: E402
from solver.gent.notation import format_game  # noqa: E402
from solver.gent.position import Position, Start, TailorMove  # noqa: E402
from solver.gent.proof import FIRST_BUDGET, SEARCH_CHOICES, SPLIT_TOTAL, listing_prover  # noqa: E402
from solver.gent.run import SPLIT_LEVELS  # noqa: E402

BOARDS = [("ghent17", "11-17-13-12"), ("schneider17", "8-16-10-9")]


def positions(board, plies, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = Position.initial(board)
        moves = [Start(rng.randrange(len(board.graph.labels)))]
        p = p.play(moves[0])
        while len(moves) <= plies and not p.is_over():
            legal = p.legal_moves()
            captures = [m for m in legal if isinstance(m, TailorMove) and m.capture is not None]
            m = rng.choice(captures or legal)
            moves.append(m)
            p = p.play(m)
        if not p.is_over():
            out.append((p, moves))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=12)
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--table-mb", type=int, default=1024)
    ap.add_argument("--etc", type=int, default=None,
                    help="enhanced transposition cut-offs from this many live edges (default: the core's)")
    ap.add_argument("--question", nargs=4, metavar=("BOARD", "OUTER", "START", "K"),
                    help="ask one question instead of solving the positions")
    ap.add_argument("--budget", type=float, default=None,
                    help="with --question: the round's node budget, as in a run (the largest try's)")
    ap.add_argument("--first", type=float, default=None,
                    help="with --budget: the smallest budget tried (default 2^20, as in a run)")
    ap.add_argument("--levels", type=int, default=None,
                    help=f"with --budget: levels a try is split (default {SPLIT_LEVELS}, as in a run)")
    ap.add_argument("--search", choices=SEARCH_CHOICES, default="pn+ab",
                    help="with --question: the searches a question tries in turn, as a run does "
                         "(default pn+ab: proof-number search, then alpha-beta; in one search "
                         "without --budget the first answers)")
    ap.add_argument("--budgets", type=int, default=None,
                    help=f"with --budget: a try's budgets of nodes in all (default {SPLIT_TOTAL}, as in a run)")
    args = ap.parse_args()
    if args.budget is not None and not args.question:
        ap.error("--budget needs --question")
    for name in ("first", "levels", "budgets"):
        if getattr(args, name) is not None and args.budget is None:
            ap.error(f"--{name} needs --budget")
    if args.first is not None and args.first < 1:
        ap.error("--first must be at least 1")
    if args.budgets is not None and args.budgets < 1:
        ap.error("--budgets must be at least 1")
    if args.levels is not None and args.levels < 0:
        ap.error("--levels must be at least 0")
    args.first = FIRST_BUDGET if args.first is None else args.first
    args.levels = SPLIT_LEVELS if args.levels is None else args.levels
    args.budgets = SPLIT_TOTAL if args.budgets is None else args.budgets
    if args.question:
        try:
            question(args)
        except (GraphError, ValueError) as e:
            print(f"bench_gent.py: {e}", file=sys.stderr)
            sys.exit(2)
        return
    print(f"# python scripts/bench_gent.py --plies {args.plies} --count {args.count} "
          f"--table-mb {args.table_mb} --etc {args.etc}   (commit {commit()})")
    total_nodes = total_time = 0
    for name, outer in BOARDS:
        board = Board.load(name, outer)
        for p, moves in positions(board, args.plies, args.count, seed=7):
            engine = Engine(board, args.table_mb)
            if args.etc is not None:
                engine.core.etc_min_live = args.etc
            t = time.perf_counter()
            value = engine.value(p)
            dt = time.perf_counter() - t
            total_nodes += engine.nodes
            total_time += dt
            print(f"{name:12} {format_game(board, moves):70} value {value:3}  "
                  f"nodes {engine.nodes:>12,}  {dt:7.2f} s")
    print(f"total nodes {total_nodes:,}  time {total_time:.2f} s")


def question(args):
    name, outer, start, k = args.question
    board = Board.load(name, outer)
    p = Position.started(board, board.graph.parse_vertex(start))
    k = int(k)
    engine = Engine(board, args.table_mb)
    print(f"# python scripts/bench_gent.py --question {name} {outer} {start} {k} --table-mb {args.table_mb}"
          f" --search {args.search}"
          + (f" --budget {args.budget:.0f} --first {args.first:.0f} --levels {args.levels} --budgets {args.budgets}"
             if args.budget is not None else "")
          + f"   (commit {commit()})")
    t = time.perf_counter()
    searches = tuple(args.search.split("+"))
    if args.budget is None:
        if searches[0] == "pn":
            answer = engine.core.prove(p.key(), k)
        else:
            answer = engine.core.search(p.key(), k, k + 1) > k
        abandoned = 0
    else:
        prover, records = listing_prover(engine, searches)
        budget = int(args.budget)
        answer = prover.ask_rising(p, k, budget, args.levels, budgets=args.budgets, first=int(args.first))
        abandoned = sum(r["nodes"] for r in records if r.get("abandoned"))
    print(f"{name} {outer} start {start} > {k}: {answer}  nodes {engine.nodes:,} "
          f"(abandoned searches {abandoned:,})  {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
