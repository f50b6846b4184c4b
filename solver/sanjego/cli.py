"""`python -m solver sanjego {solve,line,analyse,query,check-line,record,status,verify,perft,series,show,board,heads}`."""

import argparse
import json
import os
import re
import sys
import time

from ..cli import (NodeProgress, Progress, input_dir_arg, input_file_arg, nonnegative_int_arg, output_dir_arg,
                   positive_int_arg as _positive_int, seed_arg as _seed, table_mb_arg as _table_mb)
from .board import parse_board
from .engine import DEFAULT_TABLE_MB, MEASURES, Engine
from .notation import PASS_TOKEN, format_game, format_move, replay
from .parallel import ANSWER_HINTS, DEFAULT_FOCUS
from .position import FIRST, OUTCOME_NAMES, PLAYER_NAMES, Position, value_name

BOARD_HELP = ("board: WxH for the rectangle (e.g. 5x4), a built-in graph board (cube1, cube2, cube3, "
              "hex2 .. hex5, torusWxH) or a JSON board file (see `sanjego board --help`); at most 64 cells")


def format_value(value, measure):
    if measure == "outcome":
        return OUTCOME_NAMES[value]
    return f"{value:+d}" if value else "0"


def board_arg(text):
    import argparse
    from .errors import BoardSizeError
    try:
        return parse_board(text)
    except BoardSizeError as e:
        raise argparse.ArgumentTypeError(str(e))


def add_parser(games):
    p = games.add_parser("sanjego", help="San Jego: towers stacked onto neighbours",
                         description="San Jego solver. Moves are written E3-D3 (tower on E3 onto D3), "
                                     f"a forced pass {PASS_TOKEN}; move lists may carry move numbers "
                                     "(01. E3-D3 B3-C3). Values are from the first player's view.")
    commands = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(p))
    commands.required = True

    def common(sub, moves_help="moves from the start position (numbered or not)"):
        sub.add_argument("board", type=board_arg, help=BOARD_HELP)
        sub.add_argument("--moves", default="", help=moves_help)
        sub.add_argument("--heads", metavar="CELLS", default=None,
                         help="heads variant: the cells of the two head-towers before the first move, "
                              "one of each player, e.g. A1,B1 (no tower may be put onto a head-tower)")
        sub.add_argument("--measure", choices=MEASURES, default="margin",
                         help="margin: first player's tallest minus second's (default); "
                              "outcome: big/small win or draw by the rules")
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        sub.add_argument("--table-mb", type=_table_mb, default=DEFAULT_TABLE_MB,
                         help=f"transposition table size in MB (default {DEFAULT_TABLE_MB}; the table uses the largest power of two that fits)")
        sub.add_argument("--seed", type=_seed, default=None,
                         help="Zobrist seed; a second run with another seed re-verifies a value")
        sub.add_argument("--quiet", action="store_true", help="no progress display")

    s = commands.add_parser("solve", help="exact value of a position",
                            description="Exact value. With any of the parallel options (--workers, --run, --scheduler, "
                                        "--resume, --split-nodes, --focus, --answer-hints) the proof is "
                                        "split into sub-proofs a few plies deep and solved in parallel; "
                                        "with --run DIR it is checkpointed there and --resume continues it.")
    common(s)
    s.add_argument("--workers", type=_positive_int, default=None,
                   help="worker threads for a parallel proof (all sharing one table) (default with --run: all cores)")
    s.add_argument("--run", metavar="DIR", default=None, type=output_dir_arg,
                   help="run directory: manifest and journal of finished sub-proofs")
    s.add_argument("--resume", action="store_true", help="continue the run in --run DIR")
    s.add_argument("--depth", type=_positive_int, default=2,
                   help="plies from the position to the sub-proofs (default 2)")
    s.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the sub-proofs on a Dask distributed cluster, e.g. tcp://host:8786")
    s.add_argument("--split-nodes", metavar="N", type=_node_count, default=None,
                   help="abandon a sub-proof after N nodes and split its position into its children, "
                        "which become sub-proofs (journaled); part of the abandoned search is lost, while "
                        "a run stopped with Ctrl-C keeps most of its sub-proofs in flight in the warm table "
                        "(default: no limit)")
    s.add_argument("--focus", metavar="N", type=_focus, default=None,
                   help="once the first move searched first has N replies proven its way (and no first "
                        "move is settled against it), every worker takes its replies instead of hedging "
                        f"on other first moves; 'off': always hedge (default: {DEFAULT_FOCUS})")
    s.add_argument("--answer-hints", metavar="N", type=nonnegative_int_arg, default=None,
                   help="search first, in each new sub-proof, its N moves that settled most other "
                        f"sub-proofs the same way; 0: none (default: {ANSWER_HINTS})")
    s.set_defaults(handler=cmd_solve)
    s = commands.add_parser("line", help="an optimal continuation to the end, numbered")
    common(s)
    s.set_defaults(handler=cmd_line)
    s = commands.add_parser("analyse", aliases=["analyze"], help="every legal move with its exact value")
    common(s)
    s.set_defaults(handler=cmd_analyse)
    s = commands.add_parser("query", help="value of a position from a solved board's table, else by search")
    common(s)
    s.add_argument("--table", metavar="PATH", default=None, type=input_file_arg,
                   help="table file (default results/sanjego/WxH-MEASURE.sjt)")
    s.set_defaults(handler=cmd_query)
    s = commands.add_parser("check-line", help="check that every move of a game keeps the value")
    common(s, moves_help="moves played before the line starts")
    s.add_argument("line", help='the game, e.g. "01. E3-D3 B3-C3 02. ..."')
    s.add_argument("--from-ply", type=int, default=0,
                   help="check only the moves after this many plies of the line (the start of a big "
                        "board may be too expensive)")
    s.add_argument("--table", metavar="PATH", default=None, type=input_file_arg,
                   help="take the value of the line's first position, and the bounds the table holds on "
                        "later ones, from this table (default: the board's results/sanjego/WxH-MEASURE.sjt "
                        "when there is one); whatever it does not settle is searched")
    s.add_argument("--no-table", action="store_true",
                   help="search every position, the first one too, trusting no table (a check "
                        "independent of the proof that wrote the table)")
    s.set_defaults(handler=cmd_check_line)
    s = commands.add_parser("record", help="solve a board from the start, verify, and write results/")
    s.add_argument("board", type=board_arg, help=BOARD_HELP)
    s.add_argument("--measure", choices=MEASURES + ("both",), default=None,
                   help="margin, outcome or both (default both; with --from-run the run's own)")
    s.add_argument("--table-depth", type=nonnegative_int_arg, default=2,
                   help="store exact values of all positions this many plies deep (default 2)")
    s.add_argument("--table-mb", type=_table_mb, default=DEFAULT_TABLE_MB,
                   help=f"transposition table size in MB (default {DEFAULT_TABLE_MB}; the table uses the largest power of two that fits)")
    s.add_argument("--out", default=None, type=output_dir_arg, help="results directory (default results/sanjego)")
    s.add_argument("--from-run", metavar="DIR", default=None, type=input_dir_arg,
                   help="take the value from a finished `solve --run DIR` proof instead of solving; "
                        "of an unfinished one, record its verified bound (`verify --at-least`) in "
                        "results/sanjego/bounds/")
    s.set_defaults(handler=cmd_record)
    s = commands.add_parser("status", help="what a run directory has proven so far",
                            description="Reads a run directory of `solve --run` (manifest and journal) "
                                        "and prints the proven bounds on the value, the bounds after "
                                        "each first move, and the work done. Starts no search.")
    s.add_argument("run", metavar="DIR", type=input_dir_arg, help="run directory")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(handler=cmd_status)
    s = commands.add_parser("verify", help="re-verify a finished run, or a bound it has proven, with other hash keys",
                            description="Re-asks the leaf questions of one proof tree of a finished "
                                        "`solve --run DIR` proof, with another Zobrist seed and a fresh "
                                        "table, and checks every answer against the run's journal. "
                                        "With --at-least K, of the proof that the value is at least K, "
                                        "which an unfinished run may already hold; the verification of "
                                        "the value later reuses its answers. "
                                        "Journaled in DIR/verify/; running it again resumes it. Exit "
                                        "status 1 when an answer disagrees.")
    s.add_argument("run", metavar="DIR", type=input_dir_arg, help="run directory of a finished proof (or, with --at-least, of one "
                                              "that has proven the bound)")
    s.add_argument("--at-least", metavar="K", type=int, default=None,
                   help="verify only that the value is at least K (the run's journal must prove it)")
    s.add_argument("--seed", type=_seed, default=None,
                   help="Zobrist seed of the check (default: the one `record` verifies with; "
                        "never the run's own)")
    s.add_argument("--out", metavar="VDIR", default=None, type=output_dir_arg,
                   help="the verification's directory (default DIR/verify; another seed needs another)")
    s.add_argument("--workers", type=_positive_int, default=None, help="worker threads (default: all cores)")
    s.add_argument("--table-mb", type=_table_mb, default=DEFAULT_TABLE_MB,
                   help=f"the table the workers share, in MB (default {DEFAULT_TABLE_MB}; the largest power of two that fits is used)")
    s.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="ask the questions on a Dask distributed cluster, e.g. tcp://host:8786")
    s.add_argument("--no-order-hints", action="store_true",
                   help="search without the run's move-order hints (DIR/hints.log, the best moves of "
                        "the costliest positions of each sub-proof it answered; they only order moves, "
                        "so the answers are this verification's own either way)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--quiet", action="store_true", help="no progress display")
    s.set_defaults(handler=cmd_verify)
    s = commands.add_parser("perft", help="count move sequences of a given depth")
    s.add_argument("board", type=board_arg, help=BOARD_HELP)
    s.add_argument("depth", type=int, help="plies (a forced pass is a ply)")
    s.add_argument("--moves", default="", help="moves from the start position")
    s.add_argument("--heads", metavar="CELLS", default=None, help="heads variant: the two head cells, e.g. A1,B1")
    s.add_argument("--reference", action="store_true", help="use the plain-Python rules instead of the C core")
    s.set_defaults(handler=cmd_perft)
    add_series_and_show(commands, common)
    add_board_and_heads(commands)


def add_series_and_show(commands, common):
    """The `series` and `show` commands (issue 8)."""
    from .series import MAX_SOLVE_CELLS
    s = commands.add_parser(
        "series", help="how a series (Serienspiel) of games ends with both players optimal",
        description="Plays out a series by the rules' scoring: the right to start alternates game by "
                    "game (A starts games 1, 3, 5, ...; B games 2, 4, 6, ...); a big win scores 3-0, a "
                    "small win 2-1, a draw 0-0; whoever first has 10 or more points wins, and 11-10 is a "
                    "small overall win. Assumes both players play every game optimally for the rules "
                    "outcome (big win > small win > draw, i.e. for the most points ahead in that game), so "
                    "every game with the same starter ends the same: as the board's solved outcome "
                    "from its starter's view. A series of draws never ends and is reported so. "
                    "The outcome comes from results/sanjego/WxH.json (or the transposed board's, the "
                    "same game), else small boards are solved on the spot.")
    s.add_argument("board", type=board_arg, help=BOARD_HELP)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--results", metavar="DIR", default=None, type=input_dir_arg,
                   help="directory of solved boards (default results/sanjego of this checkout)")
    s.add_argument("--max-cells", type=_positive_int, default=MAX_SOLVE_CELLS,
                   help="solve a board without a recorded outcome only up to this many cells "
                        f"(default {MAX_SOLVE_CELLS}: well under a second); larger ones are refused")
    s.add_argument("--table-mb", type=_table_mb, default=64,
                   help="transposition table size in MB when solving (default 64)")
    s.set_defaults(handler=cmd_series)

    s = commands.add_parser(
        "show", help="a picture of a position: text, or SVG files one per ply",
        description="Draws the position after --moves as text (a tower as height and owner letter, "
                    "a: first player, b: second; the last move's target marked *, its vacated cell o). "
                    "--line appends an optimal continuation to the end of the game (for --measure). "
                    "--svg DIR writes one SVG picture per ply from the start of the game (DIR/000.svg is "
                    "the start, 001.svg after the first move, ...; towers coloured by owner, first "
                    "player yellow and second green, heights written on them, the last move an arrow) "
                    "and DIR/index.html showing them in order; older numbered pictures in DIR beyond "
                    "this game's are removed.")
    common(s, moves_help="moves from the start position (numbered or not)")
    s.add_argument("--line", action="store_true",
                   help="append an optimal continuation to the end of the game (solves the position)")
    s.add_argument("--svg", metavar="DIR", default=None,
                   help="write DIR/000.svg, DIR/001.svg, ... (one per ply) and DIR/index.html")
    s.set_defaults(handler=cmd_show)


def start_heads(board, text):
    """--heads A1,B1 -> the cells; SanJegoError for anything else."""
    from .errors import NotationError
    if text is None:
        return ()
    names = [t for t in text.replace(",", " ").split() if t]
    if len(names) != 2:
        raise NotationError(f"--heads {text!r}: give two cells, one head for each player, e.g. A1,B1")
    # the first player's head first, whatever the order typed (run manifests compare them)
    return tuple(sorted((board.cell(n) for n in names), key=board.start_owner))


def _start(args):
    """The start position, with the heads of --heads put on."""
    start = Position.start(args.board)
    heads = start_heads(args.board, getattr(args, "heads", None))
    return start.with_heads(heads) if heads else start


def _setup(args, table_mb=None):
    start = _start(args)
    engine = Engine(args.board, args.measure, table_mb=table_mb or args.table_mb, seed=args.seed,
                    heads=bool(start.heads))
    position, moves = replay(engine.board, args.moves, start)
    return engine, position, moves


def _header(args, engine, moves, position):
    to_move = "game over" if position.is_over() else f"{PLAYER_NAMES[position.side]} to move"
    return f"San Jego {engine.board}, {args.measure}, after {len(moves)} moves ({to_move})"


def _stats(engine, seconds):
    rate = engine.nodes / seconds / 1e6 if seconds > 0 else 0.0
    return f"nodes: {engine.nodes}  time: {seconds:.2f} s  ({rate:.2f} M nodes/s)"


def _base_json(args, engine, moves, seconds):
    out = {"board": str(engine.board), "moves": [format_move(engine.board, m) for m in moves],
           "measure": args.measure, "nodes": engine.nodes, "seconds": round(seconds, 3)}
    if engine.heads:
        out["heads"] = [engine.board.name(c) for c in start_heads(engine.board, args.heads)]
    return out


def _node_count(text):
    """argparse type: a positive node count, also written like 2e9."""
    try:
        x = float(text)
        n = int(x)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"not a node count: {text!r}") from None
    if n != x:
        raise argparse.ArgumentTypeError(f"a node count is a whole number, not {text!r}")
    if n < 1:
        raise argparse.ArgumentTypeError(f"a node count must be positive, not {text!r}")
    return n


class FrontierProgress(Progress):
    """Sub-proofs done of done + still needed, with the interval, the question and node rate."""

    def __init__(self, quiet, board):
        super().__init__(quiet, f"San Jego {board}", "sub-proof")
        self.started = time.monotonic()

    def __call__(self, proof, todo, interval, k):
        # This session's nodes, sub-proofs in flight included, over its wall time: the journal's
        # finished sub-proofs alone say nothing until the first one ends, which can take hours.
        seconds = time.monotonic() - self.started
        session = proof.nodes - proof.nodes_before + proof.live_nodes
        rate = session / seconds / proof.workers / 1e6 if seconds > 0 else 0
        self.show(proof.subproofs, proof.subproofs + todo,
                  f"value in [{interval[0]}, {interval[1]}], asking >= {k}, "
                  f"{proof.nodes + proof.live_nodes:,} nodes, {rate:.2f} M nodes/s/worker")


def _focus(text):
    if text == "off":
        return text
    try:
        return _positive_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'off', got {text!r}") from None


def solve_parallel(args, engine, position, moves):
    from ..checkpoint import CheckpointError
    from ..cli import UsageError
    from .parallel import ParallelProof
    if args.resume and not args.run:
        raise UsageError("--resume needs --run DIR")
    progress = FrontierProgress(args.quiet, engine.board)
    try:
        proof = ParallelProof(engine, position, moves, args.depth, run_dir=args.run, resume=args.resume,
                              workers=args.workers, scheduler=args.scheduler, progress=progress,
                              table_mb=args.table_mb, start_heads=start_heads(engine.board, args.heads),
                              split_nodes=args.split_nodes,
                              focus={None: DEFAULT_FOCUS, "off": None}.get(args.focus, args.focus),
                              answer_hints=ANSWER_HINTS if args.answer_hints is None else args.answer_hints)
        value = proof.solve()
    except (CheckpointError, RuntimeError) as e:
        raise UsageError(str(e)) from None
    finally:
        progress.close()
    return value, proof


def cmd_solve(args):
    parallel = bool(args.workers or args.run or args.scheduler or args.resume or args.split_nodes
                    or args.focus is not None or args.answer_hints is not None)
    # In a parallel proof the workers hold the tables; this process only needs bounds.
    engine, position, moves = _setup(args, table_mb=1 if parallel else None)
    t0 = time.perf_counter()
    proof = None
    if parallel:
        value, proof = solve_parallel(args, engine, position, moves)
        engine.core.nodes = proof.nodes
    else:
        with NodeProgress(engine, args.quiet, f"San Jego {engine.board}"):
            value = engine.value(position)
    seconds = time.perf_counter() - t0
    if args.json:
        out = _base_json(args, engine, moves, seconds)
        if proof is not None:
            out.update(workers=proof.workers, subproofs=proof.subproofs, splits=proof.splits, run=args.run)
        out["value"] = value_name(value, args.measure)
        out["to_move"] = None if position.is_over() else ("first" if position.side == FIRST else "second")
        print(json.dumps(out))
    else:
        print(_header(args, engine, moves, position))
        print(f"value: {format_value(value, args.measure)}")
        if proof is not None:
            splits = f" ({proof.splits} split after too many nodes)" if proof.splits else ""
            print(f"sub-proofs: {proof.subproofs}{splits} on {proof.workers} workers, "
                  f"{proof.cpu_seconds:.2f} s of worker time")
        if proof is not None and proof.nodes_before:
            session = proof.nodes - proof.nodes_before
            rate = session / seconds / 1e6 if seconds > 0 else 0.0
            print(f"nodes: {proof.nodes} in the whole run, {session} in this session  "
                  f"time: {seconds:.2f} s  ({rate:.2f} M nodes/s)")
        else:
            print(_stats(engine, seconds))


def _last_session_rate(records):
    """Nodes per CPU-second of the last session that has ended (a journal's records), or None:
    the machine and the table of now, where the run's lifetime mean mixes in older ones."""
    nodes = seconds = 0
    rate = None
    for record in records:
        if "session_wall" in record:
            if seconds > 0:
                rate = nodes / seconds
            nodes = seconds = 0
        elif "nodes" in record:
            nodes += record["nodes"]
            seconds += record.get("seconds", 0)
    return rate


def _cost_to_go(u):
    """(mean nodes of a settled reply, nodes the open ones may still need at that mean) of a
    dict with replies, replies_settled, settled_nodes and open_nodes."""
    settled, left = u["replies_settled"], u["replies"] - u["replies_settled"]
    mean = u["settled_nodes"] / settled
    return mean, max(0.0, left * mean - u["open_nodes"])


def _reply_estimate(u, rate):
    """One line: what the lead's open replies may cost, if they cost what its settled ones did."""
    left = u["replies"] - u["replies_settled"]
    mean, more = _cost_to_go(u)
    line = (f"  {u['lead']}'s settled replies took {mean / 1e9:.2f} x 10^9 nodes each on average; at that rate the "
            f"other {left} need about {more / 1e9:.0f} x 10^9 more ({u['open_nodes'] / 1e9:.1f} x 10^9 "
            f"spent on them so far)")
    if rate:
        line += f", {more / rate / 3600:.0f} CPU-hours at the last session's {rate / 1e6:.2f} M nodes/s per worker"
    return line


def cmd_status(args):
    from ..checkpoint import CheckpointError, RunDir
    from ..cli import UsageError
    from . import order_hints, subtrees, warm
    from .parallel import open_run
    from .verify import journal_totals, read_verification
    try:
        proof, manifest = open_run(args.run)
        verified = read_verification(proof, args.run, bound=True)
        answered = journal_totals(args.run)
        run = RunDir(args.run)
        finished = run.read_result() is not None
    except CheckpointError as e:
        raise UsageError(str(e)) from None
    board = proof.board
    heads = tuple(board.cell(n) for n in manifest.get("heads") or ())
    out = dict(proof.summary(), board=str(board), measure=manifest["measure"],
               moves=manifest["moves"], depth=manifest["depth"], finished=finished)
    if heads:
        out["heads"] = [board.name(c) for c in heads]
    out["verified"] = verified if verified and "value" in verified else None
    if verified and "value" not in verified:
        out["verified_bound"] = verified  # "value >= at_least", not the value
    out["verify_journal"] = answered
    # Whether a run (a verification) writes the directory now: its work in flight is saved as it goes.
    out["live"], out["verify_live"] = run.in_use(), RunDir(os.path.join(args.run, "verify")).in_use()
    try:
        out["warm_table"] = warm.describe(os.path.join(args.run, warm.FILE_NAME))
    except warm.WarmTableError as e:
        out["warm_table"] = {"error": str(e)}
    for key, directory in (("costly_subtrees", args.run), ("verify_costly_subtrees", os.path.join(args.run, "verify"))):
        try:
            out[key] = subtrees.describe(os.path.join(directory, subtrees.FILE_NAME))
        except subtrees.SubtreesError as e:
            out[key] = {"error": str(e)}
    try:
        out["order_hints"] = order_hints.describe(args.run)
    except order_hints.OrderHintsError as e:
        out["order_hints"] = {"error": str(e)}
    try:
        out["stopped_subproofs"] = proof.stopped_progress()
    except subtrees.SubtreesError:
        out["stopped_subproofs"] = []  # said once, on the costly subtrees' line
    if args.json:
        print(json.dumps(out))
        return
    lo, hi = out["bounds"]
    measure = manifest["measure"]
    where = f" after {manifest['moves']}" if manifest["moves"] else ""
    if heads:
        where = f" with heads {', '.join(out['heads'])}" + where
    print(f"San Jego {board}{where}, {measure}, depth {manifest['depth']}: "
          + (f"value {format_value(lo, measure)}" if lo == hi else
             f"value in [{format_value(lo, measure)}, {format_value(hi, measure)}]"))
    splits = f" ({out['splits']} split after too many nodes)" if out.get("splits") else ""
    print(f"{out['subproofs']} sub-proofs{splits}, {out['nodes']:,} nodes, {out['cpu_seconds'] / 3600:.2f} CPU-hours, "
          f"{out['wall_seconds'] / 3600:.2f} hours of wall time in sessions that have ended"
          + (f" ({out['killed_sessions']} killed, counted as far as they journaled)"
             if out.get("killed_sessions") else ""))
    h = out["answer_hints"]
    if h["answers"]:
        print(f"answer hints: {h['settled_by_hint']} of {h['answers']} answers with a hint were settled by it "
              f"({h['nodes']:,} nodes in those {h['answers']} sub-proofs)")
    if verified:
        what = "" if "value" in verified else f"\"value >= {format_value(verified['at_least'], measure)}\" "
        print(f"{what}verified by a second run: seed {verified['seed']}, {verified['questions']} questions, "
              f"{verified['nodes']:,} nodes")
    # (Not when the journal holds only the verified bound's answers: nothing more is under way.)
    if answered and not out["verified"] and not (verified and answered["answers"] == verified["questions"]):
        print(f"verification journal ({os.path.join(args.run, 'verify')}): {answered['answers']} answers, "
              f"{answered['nodes']:,} nodes, {answered['cpu_seconds'] / 3600:.2f} CPU-hours so far "
              f"(`sanjego verify` with the same options resumes it)")
    if "undecided_for" in out:
        u = out["undecided_for"]
        print(f"next question \">= {format_value(u['k'], measure)}\": {u['leaves']} frontier leaves "
              f"still open (each answer can settle others)")
        if "moves" in u:
            k = format_value(u['k'], measure)
            below, above = (f"< {k}", f">= {k}") if u["maximise"] else (f">= {k}", f"< {k}")
            line = f"  distinct root moves proven {below}: {u['moves_settled']} of {u['moves']}"
            if "replies" in u:
                line += (f"; {u['lead']} (searched first) has {u['replies_settled']} of {u['replies']} "
                         f"distinct replies proven {above}")
            elif "lead" in u:
                line += f"; {u['lead']} searched first"
            print(line)
            r = u.get("reply")
            estimate = u.get("replies_settled") and u["replies_settled"] < u["replies"]
            rate = _last_session_rate(run.journal.read()) if estimate or r and r["replies_settled"] else None
            if estimate:
                print(_reply_estimate(u, rate))
            if r:
                print(f"  {u['lead']} {r['move']} (the reply searched first) has {r['replies_settled']} of "
                      f"{r['replies']} distinct replies proven {below} (all must be, for it to refute {u['lead']})")
                if r["replies_settled"]:
                    print(_reply_estimate(dict(r, lead=f"{u['lead']} {r['move']}"), rate))
    w = out["warm_table"]
    if w and "error" in w:
        print(f"warm table for the next session: not usable ({w['error']})")
    elif w:
        use = "for `record --from-run`'s line" if out["finished"] else "for the next session"
        print(f"warm table {use}: {w['entries']:,} entries of at least {4 ** w['min_work']:,} "
              f"nodes ({w['bytes'] / 2 ** 20:.1f} MB)")
    h = out["order_hints"]
    if h and "error" in h:
        print(f"move-order hints for `verify`: not usable ({h['error']})")
    elif h:
        print(f"move-order hints for `verify` (commit them with the journal): {h['positions']:,} positions "
              f"of {h['subproofs']} answered sub-proof(s) ({h['bytes'] / 2 ** 20:.1f} MB)")
    for key, live, things, thing in (("costly_subtrees", "live", "sub-proofs", "sub-proof"),
                                     ("verify_costly_subtrees", "verify_live", "verification questions", "question")):
        # While a run (verification) writes the directory, the file holds its work in flight too.
        what = f"{things} in flight or stopped" if out[live] else f"stopped {things}"
        c = out[key]
        if c and "error" in c:
            print(f"costly subtrees of {what}: not usable ({c['error']})")
        elif c:
            print(f"costly subtrees of {what} (commit them with the journal): {c['positions']:,} positions "
                  f"of {c['subproofs']} {thing}(s) ({c['bytes'] / 2 ** 10:.1f} KB)")
    for p in out["stopped_subproofs"]:
        k = format_value(p["k"], measure)
        when = (f"{p['nodes'] / 1e9:.1f} x 10^9 nodes journaled (its nodes in flight are not)" if out["live"] else
                f"stopped at {p['nodes'] / 1e9:.1f} x 10^9 nodes")
        print(f"  {p['moves']}, \">= {k}\", {when}: of its {p['children']} "
              f"distinct moves, at least {p['below']} proven < {k} and {p['at_least']} proven >= {k}")
    for m in out.get("root_moves", []):
        a, b = m["bounds"]
        shown = format_value(a, measure) if a == b else f"[{format_value(a, measure)}, {format_value(b, measure)}]"
        r = m.get("reply")
        if r and r["replies_settled"]:
            u = out["undecided_for"]
            sense = "<" if u["maximise"] else ">="
            mean, more = _cost_to_go(r)
            shown = f"{shown:<12} reply {r['move']} searched first: {r['replies_settled']} of {r['replies']} " \
                    f"of its replies proven {sense} {format_value(u['k'], measure)} ({mean / 1e9:.2f} x 10^9 " \
                    f"nodes each; the other {r['replies'] - r['replies_settled']} about {more / 1e9:.0f} x 10^9 more)"
        print(f"  {m['move']:>8} {shown}")


class VerifyProgress(Progress):
    """Questions answered, with nodes against the first run's cost."""

    def __init__(self, quiet, run_dir):
        super().__init__(quiet, f"verify {run_dir}", "question")

    def __call__(self, check):
        left, ratio = check.to_go()
        self.show(len(check.answered), len(check.questions),
                  f"{(check.nodes + check.live_nodes) / 1e9:.2f} G nodes, about {left / 1e9:.2f} G to go "
                  f"(at {ratio:.2f} times the run's nodes, as on those answered)")


def cmd_verify(args):
    from ..checkpoint import CheckpointError
    from ..cli import UsageError
    from .parallel import open_run
    from .verify import DEFAULT_SEED, Verification, VerificationFailed
    progress = VerifyProgress(args.quiet, args.run)
    try:
        proof, _ = open_run(args.run)
        check = Verification(proof, args.run, seed=DEFAULT_SEED if args.seed is None else args.seed,
                             out_dir=args.out, workers=args.workers, scheduler=args.scheduler,
                             table_mb=args.table_mb, progress=progress, at_least=args.at_least,
                             order_hints=not args.no_order_hints)
        result = check.verify()
    except VerificationFailed as e:
        print(f"verification FAILED: {e}", file=sys.stderr)
        return 1
    except (CheckpointError, RuntimeError) as e:
        raise UsageError(str(e)) from None
    finally:
        progress.close()
    name = "value" if "value" in result else "at_least"
    if args.json:
        print(json.dumps(dict(result, **{name: value_name(result[name], proof.measure)}, run=args.run,
                              board=str(proof.board), measure=proof.measure)))
        return 0
    claim = f"value {format_value(result['value'], proof.measure)}" if name == "value" else \
        f"value >= {format_value(result['at_least'], proof.measure)}"
    print(f"San Jego {proof.board}, {proof.measure}: {claim} "
          f"verified (seed {result['seed']}, {result['questions']} questions, {result['nodes']:,} nodes, "
          f"{result['wall_seconds']:.1f} s)")
    return 0


def _final_heights(position):
    return {"first": position.towers(0), "second": position.towers(1)}


def cmd_line(args):
    engine, position, moves = _setup(args)
    t0 = time.perf_counter()
    with NodeProgress(engine, args.quiet, f"San Jego {engine.board}"):
        value = engine.value(position)
        line, final = engine.line(position)
    seconds = time.perf_counter() - t0
    heights = _final_heights(final)
    if args.json:
        out = _base_json(args, engine, moves, seconds)
        out.update(value=value_name(value, args.measure),
                   line=[format_move(engine.board, m) for m in line],
                   game=format_game(engine.board, moves + line), final_heights=heights,
                   final_margin=final.margin())
        print(json.dumps(out))
        return
    print(_header(args, engine, moves, position))
    print(f"value: {format_value(value, args.measure)}")
    if line:
        print(format_game(engine.board, line, first_ply=len(moves)))
    else:
        print("(the game is over)")
    first = " ".join(map(str, heights["first"])) or "-"
    second = " ".join(map(str, heights["second"])) or "-"
    print(f"final heights: first {first}; second {second}; final {final.tallest(0)}-{final.tallest(1)}, "
          f"margin {format_value(final.margin(), 'margin')}, outcome {OUTCOME_NAMES[final.outcome()]}")
    print(_stats(engine, seconds))


def cmd_analyse(args):
    engine, position, moves = _setup(args)
    t0 = time.perf_counter()
    with NodeProgress(engine, args.quiet, f"San Jego {engine.board}"):
        analysis = engine.analyse(position)
    seconds = time.perf_counter() - t0
    best = analysis[0][1] if analysis else None
    if args.json:
        out = _base_json(args, engine, moves, seconds)
        out["value"] = None if best is None else value_name(best, args.measure)
        out["analysis"] = [{"move": format_move(engine.board, m), "value": value_name(v, args.measure),
                            "optimal": v == best} for m, v in analysis]
        print(json.dumps(out))
        return
    print(_header(args, engine, moves, position))
    if not analysis:
        print("(the game is over)")
    for m, v in analysis:
        print(f"{format_move(engine.board, m):>8}  {format_value(v, args.measure):>12}"
              f"{'  *' if v == best else ''}")
    print(_stats(engine, seconds))


def cmd_perft(args):
    from .errors import SanJegoError
    if args.depth < 0:
        raise SanJegoError(f"depth must be >= 0, got {args.depth}")
    position, _ = replay(args.board, args.moves, _start(args))
    t0 = time.perf_counter()
    if args.reference:
        from .reference import perft
        count = perft(position, args.depth)
    else:
        count = Engine(args.board, table_mb=1, heads=bool(args.heads)).perft(position, args.depth)
    print(f"perft({args.depth}) = {count}  ({time.perf_counter() - t0:.2f} s)")


def default_table_path(board, measure):
    from .results import DEFAULT_DIR
    for root in (os.path.join(os.getcwd(), "results", "sanjego"), DEFAULT_DIR):
        path = os.path.join(root, f"{board}-{measure}.sjt")
        if os.path.exists(path):
            return path
    return None


def cmd_query(args):
    engine, position, moves = _setup(args, table_mb=1)  # a real table only if we must search
    path = args.table or default_table_path(engine.board, args.measure)
    value, source = None, "search"
    t0 = time.perf_counter()
    if path is None:
        note = f"no table for {engine.board} {args.measure}"
    else:
        with open_board_table(path, engine.board, args.measure) as table:
            value = table_get(table, position)
        note = "found in table" if value is not None else "not in table"
        if value is not None:
            source = "table"
    if value is None:
        engine = Engine(engine.board, args.measure, table_mb=args.table_mb, seed=args.seed,
                        heads=engine.heads)
        with NodeProgress(engine, args.quiet, f"San Jego {engine.board}"):
            value = engine.value(position)
    seconds = time.perf_counter() - t0
    if args.json:
        out = _base_json(args, engine, moves, seconds)
        out.update(value=value_name(value, args.measure), source=source, table=path, note=note)
        print(json.dumps(out))
        return
    print(_header(args, engine, moves, position))
    print(f"value: {format_value(value, args.measure)}")
    print(f"source: {source} ({note}{': ' + path if path else ''})")
    if source == "search":
        print(_stats(engine, seconds))


def open_board_table(path, board, measure):
    """A San Jego table that must be of this board and measure; UsageError otherwise."""
    from ..cli import UsageError
    from ..table import TableError
    from .book import open_table
    try:
        table = open_table(path)
    except (TableError, OSError) as e:
        raise UsageError(str(e)) from None
    if (table.board, table.measure) != (board, measure):
        table.close()
        raise UsageError(f"{path} is a table of {table.board} {table.measure}, not {board} {measure}")
    return table


def table_get(table, position, bounds=False):
    """table.get (table.get_bounds with `bounds`), with a damaged block reported as bad
    input (exit status 2)."""
    from ..cli import UsageError
    from ..table import TableError
    try:
        return table.get_bounds(position) if bounds else table.get(position)
    except TableError as e:
        raise UsageError(str(e)) from None


def _open_board_table(args, engine):
    """The solved board's table for check-line (or None): --table, else the default one."""
    from ..cli import UsageError
    if engine.heads and args.table:
        raise UsageError("--table holds positions without heads; leave it out with --heads")
    if args.no_table and args.table:
        raise UsageError("--table and --no-table exclude each other")
    if args.no_table or engine.heads:
        return None, None
    path = args.table or default_table_path(engine.board, args.measure)
    if path is None:
        return None, None
    return open_board_table(path, engine.board, args.measure), path


def cmd_check_line(args):
    engine, start, before = _setup(args)
    line_position, played = replay(engine.board, args.line, start=start)
    if not 0 <= args.from_ply <= len(played):
        from ..cli import UsageError
        raise UsageError(f"--from-ply must be between 0 and {len(played)}")
    position = start
    for m in played[:args.from_ply]:
        position = position.play(m)
    table, table_path = _open_board_table(args, engine)
    bounds_from_table = 0

    def exact(p):
        """(p's value, whether it came from the table): the table's (a proof's result)
        when it holds it exactly, else searched."""
        v = table_get(table, p) if table is not None and not p.is_over() else None
        return (v, True) if v is not None else (engine.value(p), False)

    def at_least(p, v, bounds):
        """Whether p's value is >= v: from the table's bounds when they settle it, else searched."""
        nonlocal bounds_from_table
        if bounds is not None and (bounds[0] >= v or bounds[1] < v):
            bounds_from_table += 1
            return bounds[0] >= v
        return engine.at_least(p, v)

    def keeps(p, v):
        """Whether p's value is v, by two null-window questions (the rules for a game over)."""
        if p.is_over():
            return p.score(args.measure) == v
        bounds = table_get(table, p, bounds=True) if table is not None else None
        return at_least(p, v, bounds) and not at_least(p, v + 1, bounds)

    t0 = time.perf_counter()
    try:
        with NodeProgress(engine, args.quiet, f"San Jego {engine.board}"):
            value, from_table = exact(position)
            bad = None
            for i in range(args.from_ply, len(played)):
                child = position.play(played[i])
                if not keeps(child, value):
                    bad = (i, played[i], child.score(args.measure) if child.is_over() else exact(child)[0])
                    break
                position = child
    finally:
        if table is not None:
            table.close()
    seconds = time.perf_counter() - t0
    if args.json:
        out = _base_json(args, engine, before, seconds)
        out.update(value=value_name(value, args.measure), plies=len(played), from_ply=args.from_ply,
                   keeps_value=bad is None, game_over=line_position.is_over(),
                   table=table_path, start_from_table=bool(from_table), bounds_from_table=bounds_from_table)
        if bad:
            out.update(first_bad_ply=bad[0] + 1, first_bad_move=format_move(engine.board, bad[1]),
                       value_after=value_name(bad[2], args.measure))
        print(json.dumps(out))
    else:
        print(_header(args, engine, before, start))
        print(f"value after ply {args.from_ply}: {format_value(value, args.measure)}")
        if bad:
            i, m, v = bad
            print(f"ply {i + 1} ({(len(before) + i) // 2 + 1:02d}. {format_move(engine.board, m)}) changes "
                  f"the value from {format_value(value, args.measure)} to {format_value(v, args.measure)}")
        else:
            end = "the game is over" if line_position.is_over() else "the line stops before the end of the game"
            print(f"every move from ply {args.from_ply + 1} to {len(played)} keeps the value; {end}")
        if from_table or bounds_from_table:
            start = f"value after ply {args.from_ply}" if from_table else "no start value"
            print(f"{start} and {bounds_from_table} answer(s) on later positions from the table {table_path}; "
                  "everything else searched")
        print(_stats(engine, seconds))
    return 0 if bad is None else 1


def cmd_record(args):
    from .results import DEFAULT_DIR, record_board
    measures = MEASURES if args.measure in (None, "both") else (args.measure,)
    tty = sys.stderr.isatty()

    def log(msg):  # a line search can take hours: in a log file each line says when
        print(msg if tty else f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    from ..checkpoint import CheckpointError
    from ..cli import NodeProgress, UsageError
    try:
        if args.from_run and args.measure is not None:
            from ..checkpoint import RunDir, read_checked_json
            proven = read_checked_json(RunDir(args.from_run).manifest_path).get("measure")
            if args.measure != proven:
                raise UsageError(f"--measure {args.measure}: the run in {args.from_run} proves the {proven} only")
        record = record_board(args.board, measures, args.table_depth, args.table_mb, args.out or DEFAULT_DIR,
                              log, from_run=args.from_run,
                              progress=lambda engine, label: NodeProgress(engine, False, label))
    except (CheckpointError, RuntimeError, OSError) as e:
        raise UsageError(str(e)) from None
    if "at_least" in record:
        k = record["at_least"]  # the margin as a number, the outcome by its name
        shown = format_value(k, "margin") if isinstance(k, int) else k
        print(f"{args.board} {record['measure']}: value >= {shown}  (a bound of the unfinished run, "
              f"verified by a second run: {record['verify']['questions']} questions)")
        return
    if args.from_run:
        measures = [m for m in MEASURES if m in record and "run" in record[m]]
    for measure in measures:
        r = record[measure]
        check = "verified by a second run" if r["verify"] else "not yet verified by a second run"
        print(f"{args.board} {measure}: {r['value']}  ({r['nodes']} nodes; {check}; "
              f"{r['table_positions']} table positions)")


def cmd_series(args):
    from .series import PLAYERS, optimal_series
    series, value, source = optimal_series(args.board, results_dir=args.results,
                                           max_cells=args.max_cells, table_mb=args.table_mb)
    if args.json:
        out = {"board": str(args.board), "outcome": OUTCOME_NAMES[value], "source": source,
               "assumes": "both players optimal in every game; the start alternates, A starts game 1; "
                          "each game's result is from its starter's view"}
        out.update(series.as_dict())
        print(json.dumps(out))
        return
    if source["kind"] == "results":
        path = source["file"]
        if not os.path.relpath(path).startswith(".."):
            path = os.path.relpath(path)
        where = f"from {path}" + (f", the transposed board {source['board']} (the same game)"
                                  if source["transposed"] else "")
        where += f", commit {source['commit']}" if source.get("commit") else ""
    else:
        where = f"solved now: {source['nodes']} nodes, {source['seconds']:.2f} s"
    print(f"San Jego {args.board} series, both players optimal in every game")
    print(f"each game under best play: {OUTCOME_NAMES[value]} for its starter ({where})")
    print("A starts games 1, 3, 5, ...; B starts games 2, 4, 6, ...")
    print(f"{'game':>4}  {'starter':<7}  {'result':<14}  {'points':>6}  {'score':>6}")
    for g in series.games:
        winner = g.winner_name()
        result = "draw" if winner is None else f"{winner} wins {'big' if abs(g.result) == 2 else 'small'}"
        print(f"{g.number:>4}  {PLAYERS[g.starter]:<7}  {result:<14}  {'%d-%d' % g.points:>6}  "
              f"{'%d-%d' % g.score:>6}")
    print(f"series: {series.summary()}")


def cmd_show(args):
    from ..cli import UsageError
    from . import draw
    if args.svg is not None and os.path.exists(args.svg) and not os.path.isdir(args.svg):
        raise UsageError(f"--svg {args.svg}: exists and is not a directory")
    start = _start(args)
    engine, position, moves = _setup(args) if args.line else (None, *replay(args.board, args.moves, start))
    line, final, value, seconds = [], position, None, 0.0
    if args.line:
        t0 = time.perf_counter()
        with NodeProgress(engine, args.quiet, f"San Jego {args.board}"):
            value = engine.value(position)
            line, final = engine.line(position)
        seconds = time.perf_counter() - t0
    paths = []
    if args.svg is not None:
        frames = draw.game_frames(args.board, moves + line, start)
        heads = f" (heads {', '.join(args.board.name(c) for c in start.heads)})" if start.heads else ""
        heading = f"San Jego {args.board}{heads}: " + (format_game(args.board, moves + line).replace("\n", " ")
                                                        or "start position")
        try:
            paths = draw.write_svg_sequence(frames, args.svg, heading=heading, line_from=len(moves))
        except OSError as e:
            raise UsageError(f"--svg {args.svg}: {e.strerror or e}") from None
    last = moves[-1] if moves else None
    if args.json:
        out = {"board": str(args.board), "moves": [format_move(args.board, m) for m in moves],
               "to_move": None if position.is_over() else ("first" if position.side == FIRST else "second"),
               "heights": list(position.heights), "owners": list(position.owners),
               "picture": draw.text(position, last)}
        if start.heads:
            out["heads"] = [args.board.name(c) for c in position.heads]
        if args.line:
            out.update(measure=args.measure, value=value_name(value, args.measure),
                       line=[format_move(args.board, m) for m in line], final_margin=final.margin(),
                       final_outcome=OUTCOME_NAMES[final.outcome()], nodes=engine.nodes,
                       seconds=round(seconds, 3))
        if args.svg is not None:
            out.update(svg=paths, index=os.path.join(args.svg, "index.html"))
        print(json.dumps(out))
        return
    to_move = draw.side_to_move(position)
    head = f"San Jego {args.board} after {len(moves)} moves ({to_move})"
    if moves:
        before = draw.game_frames(args.board, moves, start)[-1][2]
        head += f"; last move {draw.move_text(before, last)}"
    print(head)
    print(draw.text(position, last))
    print(draw.status_line(position))
    if args.svg is None:
        print(draw.legend())
    if args.line:
        print(f"optimal continuation ({args.measure}, value {format_value(value, args.measure)}):")
        if line:
            print(format_game(args.board, line, first_ply=len(moves)))
            before = draw.game_frames(args.board, line, start=position)[-1][2]
            print(f"final position; last move {draw.move_text(before, line[-1])}")
            print(draw.text(final, line[-1]))
            print(draw.status_line(final))
        else:
            print("(the game is over)")
        print(_stats(engine, seconds))
    if args.svg is not None:
        print(f"wrote {len(paths)} pictures ({os.path.basename(paths[0])} to {os.path.basename(paths[-1])}) "
              f"and index.html to {args.svg}")


def _builtin_entries(listing):
    """'name: what it is' of each entry of the graph module's indented list of built-in boards."""
    entries = re.split(r"\n    (?=\S)", "\n" + listing.strip("\n"))[1:]
    return [": ".join(" ".join(part.split()) for part in re.split(r"\s{2,}", e.strip(), maxsplit=1)) for e in entries]


def add_board_and_heads(commands):
    """The `board` and `heads` commands (issue 8: other boards, the heads variant)."""
    from .graph import __doc__ as graph_doc
    paragraphs = graph_doc.split("\n\n")
    s = commands.add_parser(
        "board", help="describe a board: cells, neighbours, start colours, symmetries",
        description="Prints a board's cells, start colours and symmetry count (automorphisms of "
                    "its graph), or with --json the board in the JSON format that any command "
                    "takes as a board file. " + " ".join(paragraphs[1].split()) + " "
                    + "; ".join(_builtin_entries(paragraphs[2])) + ".",
        epilog="JSON format: " + " ".join(graph_doc.split("JSON format")[1].split("\n\n", 1)[1].split()))
    s.add_argument("board", type=board_arg, help=BOARD_HELP)
    s.add_argument("--json", action="store_true", help="print the board as a JSON board file")
    s.set_defaults(handler=cmd_board)

    s = commands.add_parser(
        "heads", help="heads variant: the value for every choice of head cells",
        description="Heads variant (Koepfchen): before the first move each player puts a head on one "
                    "of his own pieces; no tower may be put onto a head-tower, which may itself move "
                    "and stays one. Solves the game for every pair of head cells (pairs equal under "
                    "a symmetry once) and reports the value when the first player places his head "
                    "first (the default reading) and when the second player does.")
    s.add_argument("board", type=board_arg, help=BOARD_HELP)
    s.add_argument("--measure", choices=MEASURES, default="margin",
                   help="margin (default) or outcome, as in solve")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--table-mb", type=_table_mb, default=256, help="transposition table size in MB (default 256)")
    s.add_argument("--record", action="store_true",
                   help="also write results/sanjego/heads/BOARD-MEASURE.json with provenance, after "
                        "solving every pair a second time with other hash keys and no symmetry "
                        "(a disagreement stops it)")
    s.add_argument("--out", default=None, type=output_dir_arg,
                   help="results directory for --record (default results/sanjego; the record goes to OUT/heads/)")
    s.add_argument("--quiet", action="store_true", help="no progress display")
    s.set_defaults(handler=cmd_heads)


def board_json(board):
    """Any board in the JSON board format."""
    if not board.is_grid:
        return board.to_json()
    names = [board.name(c) for c in range(board.cells)]
    # "5x4" names the built-in rectangle; the same board read from a file is a graph
    return {"name": f"grid{board}", "cells": names,
            "edges": [[names[a], names[b]] for a in range(board.cells) for b in board.neighbours[a] if a < b],
            "first": [n for c, n in enumerate(names) if board.start_owner(c) == 0],
            "layout": {n: list(board.place(c)) for c, n in enumerate(names)}}


def cmd_board(args):
    from . import draw
    board = args.board
    data = board_json(board)
    if args.json:
        print(json.dumps(data, indent=1))
        return
    degrees = sorted({len(nb) for nb in board.neighbours})
    automorphisms = board.automorphisms if not board.is_grid else len(board.symmetries)
    print(f"San Jego board {board}: {board.cells} cells, {len(data['edges'])} neighbour pairs, "
          f"{'degree' if len(degrees) == 1 else 'degrees'} {', '.join(map(str, degrees))}")
    print(f"start: {len(data['first'])} pieces of the first player, "
          f"{board.cells - len(data['first'])} of the second")
    core = len(board.core_symmetries) if not board.is_grid else len(board.symmetries)
    print(f"symmetries: {automorphisms}{'+' if automorphisms >= 4096 else ''} automorphisms"
          f" ({core} used by the search's table)")
    print(draw.text(Position.start(board)))


def cmd_heads(args):
    from . import heads
    if args.out and not args.record:
        from ..cli import UsageError
        raise UsageError("--out is where --record writes; add --record")
    with Progress(args.quiet, f"heads {args.board}", "pair") as bar:
        try:
            out = heads.analyse(args.board, args.measure, args.table_mb, bar.show, verify=args.record)
        except heads.VerificationError as e:  # not bad input: the two solves disagree, as in verify
            print(f"verification FAILED: {e}", file=sys.stderr)
            return 1
    if args.record:
        from .results import DEFAULT_DIR, REPO, commit, machine, write_readme
        from ..checkpoint import atomic_write
        import shlex
        record = dict(out, provenance={
            "command": "python -m solver " + shlex.join(sys.argv[1:]), "commit": commit(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "wall_seconds": out["seconds"], **machine()})
        out_dir = args.out or DEFAULT_DIR
        directory = os.path.join(out_dir, "heads")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{args.board}-{args.measure}.json")
        atomic_write(path, (json.dumps(record, indent=2) + "\n").encode())
        write_readme(out_dir)
        out["recorded"] = os.path.relpath(path, REPO) if args.out is None else path
    if args.json:
        print(json.dumps(out))
        return
    measure = args.measure
    ff, sf = out["first_places_first"], out["second_places_first"]
    print(f"San Jego {args.board}, heads variant, {measure}: {out['pairs']} pairs of head cells "
          f"({out['distinct_pairs']} up to symmetry)")
    print(f"first player places first: value {format_value(ff['value'], measure)} "
          f"(first player's head {ff['first_head']}, second player's answer {ff['second_head']})")
    print(f"second player places first: value {format_value(sf['value'], measure)} "
          f"(second player's head {sf['second_head']}, first player's answer {sf['first_head']})")
    print(f"without heads: {format_value(out['plain_value'], measure)}")
    print(f"nodes: {out['nodes']}  time: {out['seconds']:.2f} s")
    if "recorded" in out:
        print(f"recorded: {out['recorded']}")
