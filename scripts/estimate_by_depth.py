"""San Jego cost estimate by depth: solves the positions along one line of play, from
deep to shallow, each with a fresh table, and extrapolates the nodes per ply to the start.

    python scripts/estimate_by_depth.py --boards 6x4 5x5 --plies 16 --shallowest 4   # check it where ply 0 is known
    python scripts/estimate_by_depth.py --boards 6x6 --plies 24 --limit 300

The line is the core's static first choice at every ply (or --moves). The growth per ply
is fitted over the shallowest --fit positions solved (least squares on log nodes), and the
estimate for ply 0 is that fit carried up the remaining plies: a rough figure, to be set
against the full solves of the boards where both are known.
"""

import math
import os
import platform
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import timed_value  # noqa: E402  (this script's folder is on the path)
from solver.cli import ArgumentParser, table_mb_arg  # noqa: E402  (usage errors: one line, exit status 2)
from solver.provenance import commit  # noqa: E402
from solver.sanjego import Board, Position  # noqa: E402
from solver.sanjego.engine import Engine, ordered_moves  # noqa: E402
from solver.sanjego.errors import SanJegoError  # noqa: E402
from solver.sanjego.notation import PASS, format_moves, replay  # noqa: E402


def static_line(position, plies):
    """The positions after 0..plies moves of the core's first choice (fewer if the game ends)."""
    line, moves = [position], []
    while len(moves) < plies and not position.is_over():
        move = PASS if position.must_pass() else ordered_moves(position)[0]
        moves.append(move)
        position = position.play(move)
        line.append(position)
    return line, moves


def fit(points):
    """Least-squares slope and intercept of log(nodes) against ply."""
    n = len(points)
    xs = [p for p, _ in points]
    ys = [math.log(v) for _, v in points]
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", nargs="+", default=["6x4", "5x5"])
    ap.add_argument("--plies", type=int, default=16, help="depth of the deepest position solved")
    ap.add_argument("--moves", default="", help="the line to follow instead of the static first choices")
    ap.add_argument("--limit", type=float, default=120, help="seconds per position before stopping")
    ap.add_argument("--shallowest", type=int, default=0, help="the shallowest ply solved (default 0: the start)")
    ap.add_argument("--fit", type=int, default=4, help="positions (the shallowest solved) the growth is fitted to")
    ap.add_argument("--table-mb", type=table_mb_arg, default=2048)
    args = ap.parse_args()
    if args.plies < 1 or args.shallowest < 0 or args.fit < 2 or args.limit <= 0:
        ap.error("--plies >= 1, --shallowest >= 0, --fit >= 2 and --limit > 0")
    print(f"# python {shlex.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{os.cpu_count()} cores, table {args.table_mb:g} MB, limit {args.limit:g} s per position")
    for spec in args.boards:
        try:
            board = Board.parse(spec)
            if args.moves:
                moves = replay(board, args.moves)[1]
                line = [Position.start(board)]
                for move in moves:
                    line.append(line[-1].play(move))
            else:
                line, moves = static_line(Position.start(board), args.plies)
        except SanJegoError as e:
            ap.error(str(e))
        print(f"{spec}: line {format_moves(board, moves)}")
        print(f"{'board':>6} {'ply':>4} {'towers':>6} {'value':>6} {'nodes':>14} {'seconds':>9}")
        solved = []
        for ply in range(len(line) - 1, args.shallowest - 1, -1):
            position = line[ply]
            engine = Engine(board, table_mb=args.table_mb)
            value, seconds = timed_value(engine, position, args.limit)
            nodes = engine.nodes
            del engine
            print(f"{spec:>6} {ply:>4} {sum(1 for h in position.heights if h):>6} {value:>6} {nodes:>14} "
                  f"{seconds:>9.2f}", flush=True)
            if value == "limit":
                break
            solved.append((ply, nodes))
        points = solved[-args.fit:]
        if len(points) < 2 or points[-1][0] == points[0][0]:
            print(f"{spec}: too few positions solved to fit")
            continue
        slope, intercept = fit(points)
        top = points[-1][0]
        print(f"{spec}: x{math.exp(-slope):.2f} nodes per ply nearer the start (fitted to plies "
              f"{top}-{points[0][0]}); ply 0 by the fit: {math.exp(intercept):.3g} nodes"
              + (f", solved: {solved[-1][1]:,}" if top == 0 else ""))


if __name__ == "__main__":
    main()
