"""San Jego benchmark: solves a fixed set of boards from the start and prints
value, nodes, wall time, nodes per second and peak memory.

    python scripts/bench.py                      # 4x4 5x4 6x4, margin
    python scripts/bench.py --scaling            # 5x4 6x4 5x5 7x4 6x5, 600 s limit per board
    python scripts/bench.py --boards 5x4 --measure outcome --table-mb 256
    python scripts/bench.py --boards 6x4 5x5 --free-groups 0 5   # small groups keyed free or not
    python scripts/bench.py --boards 8x4 --moves "b2-c2 e2-d2 a3-b3 b1-c1 d4-d3 e4-e3"
    python scripts/bench.py --boards 8x4 --moves "b2-c2 e2-d2 a3-b3 b1-c1 d4-d3" --etc 16 22
    python scripts/bench.py --boards 6x4 5x5 --refute-bonus 0 16   # refutation-aware order off / on
    python scripts/bench.py --boards 6x4 --table-min 5 6 7          # the table from 5, 6 or 7 towers
    python scripts/bench.py --boards 6x5 --table-mb 16384 --near 0 12 14   # small positions near the table's start
    python scripts/bench.py --questions scripts/data/6x6-questions.txt --table-mb 256 --etc 20 26
                                                 # null-window questions shaped like the 6x6 run's
    python scripts/bench.py --questions scripts/data/6x6-questions.txt --one-table --table-mb 128 \
        --near-mb 4 --age-weight 0 3             # in a row with one table, as a run's sub-proofs
"""

import itertools
import os
import platform
import resource
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.cli import ArgumentParser, Progress, table_mb_arg  # noqa: E402
from solver.provenance import commit  # noqa: E402
from solver.sanjego import Board, Position  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402
from solver.sanjego.errors import SanJegoError  # noqa: E402
from solver.sanjego.notation import replay  # noqa: E402

SCALING = ["5x4", "6x4", "5x5", "7x4", "6x5"]
# The core's settings a run can override: (column, width, Core attribute, option's dest).
KNOBS = [("free", 4, "free_group_max", "free_groups"), ("etc", 4, "etc_min_towers", "etc"),
         ("refute", 6, "refute_bonus", "refute_bonus"), ("tmin", 4, "table_min_towers", "table_min"),
         ("near", 4, "near_towers", "near"), ("age", 3, "age_weight", "age_weight"),
         ("gen", 3, "age_shift", "age_shift")]


class TimeLimit(Exception):
    pass


def timed_value(engine, position, limit):
    """(the value as "+2", or "limit" after `limit` seconds; the seconds taken)."""
    t0 = time.perf_counter()

    def check(nodes):
        if time.perf_counter() - t0 > limit:
            raise TimeLimit

    engine.set_progress(check)
    try:
        value = f"{engine.value(position):+d}"
    except TimeLimit:
        value = "limit"
    finally:
        engine.set_progress(None)  # breaks the engine <-> callback cycle, so the table can be freed
    return value, time.perf_counter() - t0


def read_questions(path):
    """[(where, position, k, answer)] from a file of "board | moves | k | yes/no" lines (# comments);
    where is "FILE:LINE"."""
    questions = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                spec, moves, k, answer = (part.strip() for part in line.split("|"))
                if answer not in ("yes", "no"):
                    raise ValueError(f"answer {answer!r} is not yes or no")
                questions.append((f"{path}:{number}", replay(Board.parse(spec), moves)[0], int(k), answer == "yes"))
            except (ValueError, SanJegoError) as e:
                raise ValueError(f"{path}:{number}: {e}") from None
    return questions


def set_knobs(engine, settings, near_mb):
    for core in (engine.core, engine.margin_core):
        for (_, _, attribute, _), setting in zip(KNOBS, settings):
            if core is not None and setting is not None:
                setattr(core, attribute, setting)
        if core is not None and near_mb is not None:
            core.near_buckets = near_mb << 14  # 64-byte buckets


def knobs_in_force(core):
    """The KNOBS columns of a row: the core's settings as they are."""
    return " ".join(f"{getattr(core, attribute):>{width}}" for _, width, attribute, _ in KNOBS)


def print_header(detail):
    print(f"# python {shlex.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{os.cpu_count()} cores, {detail}")


def answer_questions(questions, settings, args):
    """(nodes, seconds, knobs_in_force) of all the questions, each with a fresh table (with
    --one-table, all with one); exits on a wrong answer."""
    nodes, t0, engine = 0, time.perf_counter(), None
    progress = Progress(not sys.stderr.isatty(), "questions", "question")  # a bar on a terminal
    for done, (where, position, k, expected) in enumerate(questions):
        progress.show(done, len(questions), f"{nodes:,} nodes")
        if engine is None or not args.one_table or engine.board != position.board:
            del engine  # frees the table before the next one is made
            engine = Engine(position.board, table_mb=args.table_mb)
            set_knobs(engine, settings, args.near_mb)
        n0 = engine.nodes
        if engine.at_least(position, k) != expected:
            sys.exit(f"{where}: wrong answer: the file says {'yes' if expected else 'no'}")
        nodes += engine.nodes - n0
        in_force = knobs_in_force(engine.core)
    progress.close()
    del engine
    return nodes, time.perf_counter() - t0, in_force


def main():
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", nargs="+", default=["4x4", "5x4", "6x4"])
    ap.add_argument("--scaling", action="store_true", help=f"boards {' '.join(SCALING)}")
    ap.add_argument("--measure", choices=["margin", "outcome"], default="margin")
    ap.add_argument("--table-mb", type=table_mb_arg, default=2048)
    ap.add_argument("--limit", type=float, default=600, help="seconds per board before giving up")
    ap.add_argument("--moves", default="", help="solve the position after these moves instead of the start")
    ap.add_argument("--questions", metavar="FILE",
                    help="answer the null-window questions of FILE (board | moves | k | yes/no lines, "
                         "see scripts/make_proxy_questions.py; margin) instead, each with a fresh table "
                         "and without --limit")
    ap.add_argument("--one-table", action="store_true",
                    help="with --questions: answer them in order with one table, as a run's sub-proofs share one")
    ap.add_argument("--free-groups", type=int, nargs="+", default=[None], metavar="N", choices=range(6),
                    help="key groups of at most N towers free of their place (0: off; "
                         "default: the core's, 5); one run per N")
    ap.add_argument("--etc", type=int, nargs="+", default=[None], metavar="N",
                    help="enhanced transposition cut-offs from N towers on (default: the core's, "
                         "max(16, cells - 10)); one run per N")
    ap.add_argument("--refute-bonus", type=int, nargs="+", default=[None], metavar="N",
                    help="after a move fails, N is added to the moves that take away the reply "
                         "that refuted it (0: off; default: the core's, 16); one run per N")
    ap.add_argument("--table-min", type=int, nargs="+", default=[None], metavar="N",
                    help="positions of fewer than N towers are searched without the table (default: "
                         "the core's, 5); one run per N")
    ap.add_argument("--near", type=int, nargs="+", default=[None], metavar="N",
                    help="positions of at most N towers use only the table's first --near-mb "
                         "(0: off; default: the core's); one run per N")
    ap.add_argument("--near-mb", type=int, default=None, metavar="M",
                    help="size of that part of the table, a power of two (default: the core's, 512)")
    ap.add_argument("--age-weight", type=int, nargs="+", default=[None], metavar="N",
                    help="a new table entry replaces the slot of least work less N per generation of "
                         "age (0: by work alone; default: the core's, 0); one run per N")
    ap.add_argument("--age-shift", type=int, nargs="+", default=[None], metavar="N",
                    help="a generation is 2^N nodes (default: the core's, four times the table's "
                         "slots); one run per N")
    args = ap.parse_args()
    if any(n is not None and not 0 <= n <= 64 for n in args.near):
        ap.error("--near: a number of towers from 0 to 64")
    if args.near_mb is not None and (args.near_mb < 1 or args.near_mb & (args.near_mb - 1)):
        ap.error("--near-mb: a power of two from 1")
    if any(n is not None and not 0 <= n <= 64 for n in args.etc):
        ap.error("--etc: a number of towers from 0 to 64")
    if any(n is not None and not 0 <= n <= 1 << 16 for n in args.refute_bonus):
        ap.error("--refute-bonus: a number from 0 to 65536")
    if any(n is not None and not 0 <= n <= 64 for n in args.table_min):
        ap.error("--table-min: a number of towers from 0 to 64")
    if any(n is not None and not 0 <= n <= 255 for n in args.age_weight):
        ap.error("--age-weight: a number from 0 to 255")
    if any(n is not None and not 12 <= n <= 63 for n in args.age_shift):
        ap.error("--age-shift: a number from 12 to 63 (the core's clock ticks every 2^12 nodes)")
    if args.one_table and not args.questions:
        ap.error("--one-table goes with --questions")
    columns = " ".join(f"{column:>{width}}" for column, width, _, _ in KNOBS)
    if args.questions and (args.scaling or args.moves or args.measure != "margin"):
        ap.error("--questions asks margin questions of its own positions: no --scaling, --moves or --measure outcome")
    if args.questions:
        try:
            questions = read_questions(args.questions)
        except OSError as e:
            ap.error(f"cannot read {args.questions}: {e.strerror}")
        except ValueError as e:
            ap.error(str(e))
        if not questions:
            ap.error(f"{args.questions} holds no question")
        print_header(f"table {args.table_mb:g} MB {'for all' if args.one_table else 'per question'}, "
                     f"{len(questions)} question(s)")
        print(f"{columns} {'nodes':>14} {'seconds':>9} {'Mnodes/s':>9}")
        for settings in itertools.product(*(getattr(args, dest) for *_, dest in KNOBS)):
            nodes, seconds, in_force = answer_questions(questions, settings, args)
            print(f"{in_force} {nodes:>14} {seconds:>9.2f} {nodes / seconds / 1e6:>9.2f}", flush=True)
        return
    boards = SCALING if args.scaling else args.boards
    try:
        starts = {spec: replay(Board.parse(spec), args.moves)[0] if args.moves else Position.start(spec)
                  for spec in boards}
    except SanJegoError as e:
        ap.error(str(e))
    print_header(f"table {args.table_mb:g} MB, measure {args.measure}, limit {args.limit:g} s")
    print(f"{'board':>6} {columns} {'value':>6} {'nodes':>14} {'seconds':>9} {'Mnodes/s':>9} "
          f"{'peak MB':>8}")  # peak of the process so far
    for spec, *settings in itertools.product(boards, *(getattr(args, dest) for *_, dest in KNOBS)):
        position = starts[spec]
        engine = Engine(position.board, args.measure, table_mb=args.table_mb)
        set_knobs(engine, settings, args.near_mb)
        value, seconds = timed_value(engine, position, args.limit)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{spec:>6} {knobs_in_force(engine.core)} {value:>6} {engine.nodes:>14} {seconds:>9.2f} "
              f"{engine.nodes / seconds / 1e6:>9.2f} {peak:>8.0f}", flush=True)
        del engine  # frees the table now


if __name__ == "__main__":
    main()
