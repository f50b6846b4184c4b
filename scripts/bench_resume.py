"""What a stop costs one long search: a null-window search stopped after a share of its
nodes, then searched again with nothing kept, with the run's costly subtrees (see
solver/sanjego/subtrees.py; also with their best moves, which a run does not put back), with only the entries a warm table keeps (those of at least
4^W nodes), or with the whole table, against the same search without a stop.

    python scripts/bench_resume.py --board 6x5 --moves 'e3-d3 b3-c3' --k 2 --at 0.25 0.5 0.75

One core, so the node counts are exact. The search looks at the stop every 2^20 nodes, so
the search must be much longer than that. This is what a run stopped with Ctrl-C pays for
each sub-proof in flight (journaled as "interrupted" and asked again with the warm table);
compare `solve --split-nodes`, which abandons such a search and asks its children instead.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver._sanjego import Core  # noqa: E402
from solver.cli import ArgumentParser, table_mb_arg  # noqa: E402
from solver.provenance import bench_header  # noqa: E402
from solver.sanjego import Board, Position, subtrees  # noqa: E402
from solver.sanjego.errors import SanJegoError  # noqa: E402
from solver.sanjego.notation import replay  # noqa: E402
from solver.sanjego.parallel import prove  # noqa: E402


def search(core, position, k, limit=None):
    """Nodes of the core's search "value >= k?", stopped after `limit` nodes if given (by
    the runs' own worker task)."""
    return prove(None, *position.core_args, k, limit, core=core)[1]


def share_arg(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise ValueError(f"a share between 0 and 1, not {text!r}")
    return value


def board_and_position(ap, board_text, moves, table_mb):
    """(board, the position after the moves, core geometry, table bytes) for a benchmark's
    arguments; a bad board or move, or a finished game, ends it with ap.error."""
    try:
        board = Board.parse(board_text)
        position = replay(board, moves)[0] if moves else Position.start(board)
    except SanJegoError as e:
        ap.error(str(e))
    if position.is_over():
        ap.error("the game is over in that position")
    return board, position, board.core_geometry(), int(table_mb * (1 << 20))


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="5x5")
    ap.add_argument("--moves", default="", help="search the position after these moves")
    ap.add_argument("--k", type=int, default=1, help='the question "value >= k?" (default 1)')
    ap.add_argument("--at", type=share_arg, nargs="+", default=[0.5], metavar="SHARE",
                    help="stop after this share of the unstopped search's nodes (default 0.5)")
    ap.add_argument("--min-work", type=int, nargs="+", default=[4], metavar="W",
                    help="keep the entries of at least 4^W nodes (default 4, as a warm table at most)")
    ap.add_argument("--table-mb", type=table_mb_arg, default=1024.0)
    args = ap.parse_args()
    if any(not 0 <= w <= 31 for w in args.min_work):
        ap.error("--min-work: from 0 to 31")
    board, position, geometry, table_bytes = board_and_position(ap, args.board, args.moves, args.table_mb)

    def fresh():
        return Core(measure="margin", table_bytes=table_bytes, **geometry)

    bench_header(f"one core, table {args.table_mb:g} MB, question >= {args.k}")
    full = search(fresh(), position, args.k)
    if full < 4 << 20:
        ap.error(f"that search takes {full:,} nodes, but a stop is seen only every 2^20 nodes: "
                 f"choose a longer one")
    print(f"{'stopped at':>10} {'before stop':>13} {'kept':>16} {'entries':>10} {'nodes':>13} {'extra':>7}")
    print(f"{'-':>10} {'-':>13} {'-':>16} {'-':>10} {full:>13} {'':>7}", flush=True)
    for share in args.at:
        core = fresh()
        core.book_start(subtrees.MIN_WORK, subtrees.CAPACITY)
        first = search(core, position, args.k, int(share * full))
        book = subtrees.costliest(core.book_take(), Core.BOOK_ENTRY_BYTES)
        for label, entries, moves in (("nothing", b"", False), ("costly subtrees", book, False),
                                      ("subtrees + moves", book, True)):
            resumed = fresh()
            resumed.book_put(entries, moves=moves)
            total = first + search(resumed, position, args.k)
            print(f"{share:>10g} {first:>13} {label:>16} {len(entries) // Core.BOOK_ENTRY_BYTES:>10} {total:>13} "
                  f"{100 * total / full - 100:>+6.1f}%", flush=True)
        kept = [(f">= 4^{w} nodes", core.table_export(w)) for w in args.min_work]
        for label, entries in kept:
            resumed = fresh()
            resumed.table_import(entries, resumed.table_buckets, resumed.near_part)
            total = first + search(resumed, position, args.k)
            print(f"{share:>10g} {first:>13} {label:>16} {len(entries) // 24:>10} {total:>13} "
                  f"{100 * total / full - 100:>+6.1f}%", flush=True)
        total = first + search(core, position, args.k)
        print(f"{share:>10g} {first:>13} {'the whole table':>16} {'':>10} {total:>13} "
              f"{100 * total / full - 100:>+6.1f}%",
              flush=True)


if __name__ == "__main__":
    main()
