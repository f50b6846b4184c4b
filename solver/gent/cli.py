"""`python -m solver gent {info,solve,line,analyse,show}`."""

import json
import sys
import time

from ..cli import (NodeProgress as Progress, UsageError, input_dir_arg, output_dir_arg, output_file_arg,
                   positive_int_arg, table_mb_arg)
from .board import BUILTIN, Board, load_graph
from .notation import format_game, format_move, replay
from .position import SIDE_NAMES, Position
from .proof import SEARCH_CHOICES

DEFAULT_TABLE_MB = 1024


def match_result(score_first_tailor, score_second_tailor):
    """The two-game match: A is the Tailor in game 1 (scoring the first number), B in game 2.
    More points as Tailor wins; on equal scores A, the first Tailor, is the small winner."""
    if score_first_tailor > score_second_tailor:
        return "first Tailor wins"
    if score_first_tailor < score_second_tailor:
        return "second Tailor wins"
    return "first Tailor is the small winner"


def add_parser(games):
    p = games.add_parser(
        "gent", help="Der Schneider von Gent: the Tailor's thimble against Mr. Button",
        description="The Tailor of Ghent on a plane graph. Moves: @7 (start vertex), 7-14 (Tailor), "
                    "7-14 x12 (Tailor, capturing the button of face 12), f3>f5 (Mr. Button), "
                    "- (pass). Values are the Tailor's score with best play on both sides; before "
                    "the start Mr. Button chooses the start vertex that minimises it.")
    commands = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(p))
    commands.required = True

    def board_args(sub, outer=True):
        sub.add_argument("board", nargs="?", default=None,
                         help=f"built-in board ({', '.join(BUILTIN)}); or use --graph")
        sub.add_argument("--graph", metavar="FILE", default=None,
                         help="a plane graph as JSON (edges, faces, optional rotation_clockwise); "
                              "FILE#NAME picks one graph of a file holding several")
        if outer:
            sub.add_argument("--outer", metavar="CYCLE", default=None,
                             help="the outer face, by its vertex cycle in any rotation or direction "
                                  "(1-2-7-3) or its name (f4); required")

    def common(sub):
        board_args(sub)
        sub.add_argument("--moves", default="", help="moves played so far (numbered or not)")
        sub.add_argument("--start", metavar="V", default=None,
                         help="start vertex (same as --moves @V ...)")
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        sub.add_argument("--table-mb", type=table_mb_arg, default=DEFAULT_TABLE_MB,
                         help=f"transposition table size in MB (default {DEFAULT_TABLE_MB})")
        sub.add_argument("--quiet", action="store_true", help="no progress display")

    s = commands.add_parser("info", help="faces, symmetries and equivalent outer-face choices of a board",
                            description="Vertices with degrees, faces with names, the graph's "
                                        "automorphisms and which faces (outer-face choices) they make "
                                        "equivalent; with --outer also the classes of start vertices.")
    board_args(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(handler=cmd_info)

    s = commands.add_parser("solve", help="the value: the Tailor's score under best play",
                            description="Exact value for every start vertex (equivalent ones solved "
                                        "once) and for the game (Mr. Button picks the start). With "
                                        "--run DIR every finished probe is journaled there and --resume "
                                        "continues; a stopped run reports proven bounds.")
    common(s)
    s.add_argument("--run", metavar="DIR", default=None, type=output_dir_arg, help="run directory (manifest and journal)")
    s.add_argument("--resume", action="store_true", help="continue the run in --run DIR")
    s.add_argument("--value-only", action="store_true",
                   help="stop once the game's value is proven (the other start vertices keep the "
                        "bounds that proof needed); by default every start vertex is solved")
    s.add_argument("--workers", type=positive_int_arg, default=1,
                   help="threads that probe different start vertices at once (default 1); "
                        "--table-mb is shared out among them, one table each")
    s.add_argument("--climb", metavar="N", type=float, default=None,
                   help="first raise every start's lower bound one point at a time by proof-number "
                        "searches of at most N nodes each (e.g. 4e6; cheap where the Tailor has a "
                        "narrow way up), then probe as usual")
    s.add_argument("--ask-above", metavar="K", type=int, default=None,
                   help="ask every start first whether its value is above K (a cheap way to upper "
                        "bounds when K is well above the value), then bisect as usual")
    s.add_argument("--budget", metavar="N", type=float, default=None,
                   help="node budget of a search in the first round (default 2^24, or the largest a "
                        "resumed run reached); a larger one skips rounds whose searches a hard "
                        "'no' would only abandon (e.g. 2.7e8)")
    s.add_argument("--search", choices=SEARCH_CHOICES, default="pn+ab",
                   help="the searches each question tries in turn (default pn+ab: proof-number with "
                        "a quarter of the budget, at most 2^23 nodes, then alpha-beta; ab alone for questions whose "
                        "answer is expected to be 'no', where the proof-number search mostly fails)")
    s.set_defaults(handler=cmd_solve)

    s = commands.add_parser("line", help="an optimal game from the position to the end")
    common(s)
    s.set_defaults(handler=cmd_line)

    s = commands.add_parser("analyse", aliases=["analyze"], help="every legal move with its exact value")
    common(s)
    s.set_defaults(handler=cmd_analyse)

    s = commands.add_parser("status", help="what a board run has proven so far (searches nothing)")
    s.add_argument("run", metavar="DIR", type=input_dir_arg, help="run directory of `gent solve ... --run DIR`")
    s.add_argument("--graph", metavar="FILE", default=None, help="the graph file, for a run on one")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(handler=cmd_status)

    s = commands.add_parser("record", help="write a board run's proven value or bounds to results/gent/",
                            description="Writes results/gent/GRAPH-OUTER.json (bounds per start vertex, "
                                        "nodes, CPU time, commit, date, cores) from the run's journal and "
                                        "regenerates results/gent/README.md. An exact board is solved once "
                                        "more from scratch as a check and gets an optimal game.")
    s.add_argument("run", metavar="DIR", type=input_dir_arg, help="run directory of `gent solve ... --run DIR`")
    s.add_argument("--graph", metavar="FILE", default=None, help="the graph file, for a run on one")
    s.add_argument("--out", metavar="DIR", default=None, type=output_dir_arg, help="results directory (default results/gent)")
    s.add_argument("--line", action="store_true",
                   help="for a run stopped at the game's value (--value-only): also find an optimal "
                        "game from a start vertex Mr. Button picks (costs about as much as a few probes)")
    s.add_argument("--table-mb", type=table_mb_arg, default=DEFAULT_TABLE_MB,
                   help=f"transposition table of the check and the optimal game, in MB (default {DEFAULT_TABLE_MB})")
    s.add_argument("--quiet", action="store_true", help="no progress display")
    s.set_defaults(handler=cmd_record)

    s = commands.add_parser("show", help="draw a position (text, or SVG with --svg)")
    board_args(s)
    s.add_argument("--moves", default="", help="moves played so far")
    s.add_argument("--start", metavar="V", default=None, help="start vertex")
    s.add_argument("--svg", metavar="FILE", default=None, type=output_file_arg, help="write an SVG picture to FILE")
    s.set_defaults(handler=cmd_show)


def load_graph_arg(args):
    if (args.board is None) == (args.graph is None):
        raise UsageError(f"give exactly one of a built-in board ({', '.join(BUILTIN)}) and --graph FILE")
    return load_graph(args.board if args.board is not None else args.graph)


def load_board(args):
    graph = load_graph_arg(args)
    if getattr(args, "outer", None) is None:
        quads = [f for f in range(len(graph.faces)) if len(graph.faces[f]) == 4]
        choices = ", ".join(graph.face_text(c[0]) for c in graph.face_classes(quads or None))
        raise UsageError(f"choose the outer face with --outer (inequivalent "
                         f"{'quadrilaterals' if quads else 'faces'}: {choices})")
    return Board(graph, args.outer)


def setup(args):
    board = load_board(args)
    text = args.moves
    if getattr(args, "start", None) is not None:
        if text.strip().startswith("@"):
            raise UsageError("give the start vertex either with --start or in --moves, not both")
        text = f"@{args.start} {text}"
    played = replay(Position.initial(board), text)
    position = played[-1][1] if played else Position.initial(board)
    return board, position, [m for m, _ in played]


def make_engine(args, board, workers=1):
    """The engine of a command; with several workers, each gets a `workers`-th of --table-mb."""
    from .engine import Engine
    return Engine(board, table_mb=int(args.table_mb) // workers)


def _header(board, moves, position):
    if position.vertex is None:
        state = "Mr. Button chooses the start vertex"
    elif position.is_over():
        state = "game over"
    else:
        state = f"{SIDE_NAMES[position.to_move]} to move"
    return (f"Tailor of Ghent {board.name} (outer face {board.graph.face_text(board.outer)}), "
            f"after {len(moves)} moves, score {position.score} ({state})")


def cmd_info(args):
    graph = load_graph_arg(args)
    auts = graph.automorphisms()
    info = {"graph": graph.name, "vertices": len(graph.labels), "edges": len(graph.edges),
            "faces": len(graph.faces), "automorphisms": len(auts),
            "degrees": {graph.vertex_name(v): graph.degree[v] for v in range(len(graph.labels))},
            "face_cycles": {graph.face_name(f): graph.face_text(f) for f in range(len(graph.faces))},
            "equivalent_faces": [[graph.face_text(f) for f in c] for c in graph.face_classes()]}
    if args.outer is not None:
        board = Board(graph, args.outer)
        info["outer"] = graph.face_text(board.outer)
        info["symmetries"] = len(board.symmetries)
        info["start_classes"] = [[graph.vertex_name(v) for v in c] for c in board.start_classes()]
    if args.json:
        print(json.dumps(info))
        return 0
    print(f"{graph.name}: {info['vertices']} vertices, {info['edges']} edges, {info['faces']} faces, "
          f"{len(auts)} automorphisms")
    print("degrees: " + " ".join(f"{k}:{d}" for k, d in info["degrees"].items()))
    for f in range(len(graph.faces)):
        print(f"  {graph.face_name(f):>4}  {graph.face_text(f)}  ({len(graph.faces[f])} sides)")
    print("outer-face choices that are equivalent (one line per class):")
    for c in info["equivalent_faces"]:
        print("  " + " | ".join(c))
    if "start_classes" in info:
        print(f"outer {info['outer']}: {info['symmetries']} symmetries; start vertex classes: "
              + " ".join("{" + ",".join(c) + "}" for c in info["start_classes"]))
    return 0


def cmd_solve(args):
    from ..checkpoint import CheckpointError
    from .run import BoardRun
    board, position, moves = setup(args)
    if args.resume and not args.run:
        raise UsageError("--resume needs --run DIR")
    if args.climb is not None and not 1 <= args.climb <= 1e15:  # not nan or inf either
        raise UsageError("--climb must be a node count from 1 to 1e15")
    if args.budget is not None and not 1 <= args.budget <= 1e15:
        raise UsageError("--budget must be a node count from 1 to 1e15")
    just_start = len(moves) == 1 and position.vertex is not None
    if args.workers > 1 and (position.vertex is not None or args.table_mb // args.workers < 1):
        raise UsageError("--workers probes the start vertices of a whole board at once: drop --start "
                         "and --moves" if position.vertex is not None else
                         f"--table-mb {args.table_mb} is too small for {args.workers} workers")
    engine = make_engine(args, board, workers=args.workers)
    t0 = time.perf_counter()
    if position.vertex is not None and not (args.run and just_start):
        if args.run:
            raise UsageError("--run solves a board from its start, or from one start vertex; "
                             "drop the other --moves")
        with Progress(engine, args.quiet, "solving"):
            value = engine.value(position)
        result = {"value": value}
        if just_start:
            result["start_values"] = {board.graph.vertex_name(position.vertex): value}
    else:
        starts = {position.vertex} if just_start else None
        try:
            run = BoardRun(engine, starts=starts, run_dir=args.run, resume=args.resume, workers=args.workers,
                           searches=tuple(args.search.split("+")))
        except CheckpointError as e:
            raise UsageError(str(e))
        with Progress(engine, args.quiet, "solving") as progress:
            def on_probe(v, k):
                lo, hi = run.value_bounds()
                asking = "; ".join(f"start {board.graph.vertex_name(u)}: score > {j}?"
                                   for _, (u, j) in sorted(run.asking.items()))
                progress.describe(f"value in [{lo}, {hi}]; {asking}")
            try:
                result = run.solve(on_probe, ask_above=args.ask_above, value_only=args.value_only,
                                   climb=int(args.climb) if args.climb else None,
                                   first_budget=int(args.budget) if args.budget else None)
            except CheckpointError as e:
                raise UsageError(str(e))
            except KeyboardInterrupt:
                lo, hi = run.value_bounds()
                print(f"stopped: value proven in [{lo}, {hi}]"
                      + (f"; resume with --run {args.run} --resume" if args.run else ""),
                      file=sys.stderr)
                raise
        if not just_start:
            result["match"] = (f"both players score {result['value']} as Tailor; "
                               f"{match_result(result['value'], result['value'])}")
    seconds = time.perf_counter() - t0
    g = board.graph
    same_outer = next(c for c in g.face_classes() if board.outer in c)
    out = {"board": g.name, "outer": g.face_text(board.outer),
           "equivalent_outer": [g.face_text(f) for f in same_outer],
           "moves": [format_move(board, m) for m in moves], **result,
           "nodes": result.get("nodes", engine.nodes) if args.run or args.workers > 1 else engine.nodes,
           "seconds": round(seconds, 3)}
    if args.json:
        print(json.dumps(out))
        return 0
    print(_header(board, moves, position))
    if "match" in out:
        bounds = out.get("start_bounds") or {v: (x, x) for v, x in out["start_values"].items()}
        print("start values: " + " ".join(f"{v}:{a}" if a == b else f"{v}:{a}..{b}" for v, (a, b) in bounds.items()))
        print(f"value: {out['value']} (Mr. Button starts the thimble on "
              + ", ".join(v for v, x in out["start_values"].items() if x == out["value"]) + ")")
        print(f"match: {out['match']}")
    else:
        print(f"value: {out['value']} (the Tailor's final score; {position.score} already earned)")
    print(f"nodes: {out['nodes']}  time: {out['seconds']:.2f} s")
    return 0


def cmd_line(args):
    board, position, moves = setup(args)
    engine = make_engine(args, board)
    t0 = time.perf_counter()
    with Progress(engine, args.quiet, "line"):
        value = engine.value(position)
        line = engine.line(position)
    seconds = time.perf_counter() - t0
    game = format_game(board, [m for m, _ in line])
    final = line[-1][1].score if line else position.score
    if args.json:
        print(json.dumps({"board": board.graph.name, "outer": board.graph.face_text(board.outer),
                          "moves": [format_move(board, m) for m in moves], "value": value,
                          "line": game, "final_score": final, "nodes": engine.nodes,
                          "seconds": round(seconds, 3)}))
        return 0
    print(_header(board, moves, position))
    print(f"value: {value}")
    print(game or "(game over)")
    print(f"final score: {final}   nodes: {engine.nodes}  time: {seconds:.2f} s")
    return 0


def cmd_analyse(args):
    board, position, moves = setup(args)
    if position.is_over():
        raise UsageError("the game is over: no moves to analyse")
    engine = make_engine(args, board)
    t0 = time.perf_counter()
    with Progress(engine, args.quiet, "analyse"):
        rows = engine.analyse(position)
    seconds = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"board": board.graph.name, "outer": board.graph.face_text(board.outer),
                          "moves": [format_move(board, m) for m in moves],
                          "analysis": [{"move": format_move(board, m), "value": v} for m, v in rows],
                          "nodes": engine.nodes, "seconds": round(seconds, 3)}))
        return 0
    print(_header(board, moves, position))
    for m, v in rows:
        print(f"  {format_move(board, m):<12} {v}")
    print(f"nodes: {engine.nodes}  time: {seconds:.2f} s")
    return 0


def cmd_show(args):
    from .draw import svg, text
    board, position, moves = setup(args)
    if args.svg:
        from ..checkpoint import atomic_write
        last = moves[-1] if moves else None
        title = f"{board.graph.name}, outer face {board.graph.face_text(board.outer)}, after {len(moves)} moves"
        atomic_write(args.svg, svg(position, last_move=last, title=title).encode())
        print(f"wrote {args.svg}")
    else:
        print(_header(board, moves, position))
        print(text(position))
    return 0


def _run_status(args):
    import os
    from ..checkpoint import CheckpointError
    from .results import status
    if not os.path.exists(os.path.join(args.run, "manifest.json")):
        raise UsageError(f"{args.run}: no run directory (manifest.json missing)")
    try:
        return status(args.run, args.graph)
    except KeyError as e:
        raise UsageError(f"{args.run}: bad manifest (no {e})") from None
    except (CheckpointError, ValueError) as e:
        raise UsageError(str(e)) from None


def cmd_status(args):
    board, run, rec = _run_status(args)
    if args.json:
        print(json.dumps(rec))
        return 0
    lo, hi = rec["value_bounds"]
    print(f"Tailor of Ghent {rec['graph']}, outer face {rec['outer']}: "
          + (f"value {lo}" if lo == hi else f"value proven in [{lo}, {hi}]"))
    print("start vertices: " + " ".join(f"{v}:{a}" if a == b else f"{v}:{a}..{b}"
                                        for v, (a, b) in rec["start_bounds"].items()))
    abandoned = f" ({rec['abandoned_probes']} more abandoned over budget)" if rec["abandoned_probes"] else ""
    print(f"{rec['probes']} probes{abandoned}, {rec['nodes']:,} nodes, {rec['cpu_seconds']} s of search"
          + ("" if rec["whole_board"] else f"; a run of start {', '.join(rec['start_bounds'])} and its class only"))
    return 0


def cmd_record(args):
    from .results import DEFAULT_DIR, record
    _run_status(args)
    try:
        rec = record(args.run, args.out or DEFAULT_DIR, args.graph, line=args.line, table_mb=int(args.table_mb),
                     progress=lambda engine: Progress(engine, args.quiet, "optimal game"))
    except ValueError as e:
        raise UsageError(str(e))
    lo, hi = rec["value_bounds"]
    print(f"recorded {rec['graph']}, outer {rec['outer']}: "
          + (f"value {lo}" if lo == hi else f"value in [{lo}, {hi}]") + f" in {args.out or DEFAULT_DIR}")
    return 0
