"""`python -m solver serans {show,solve,selfplay,play,coop}`."""

import json
import sys
import time

from ..errors import InputError
from ..cli import NodeProgress, UsageError, positive_int_arg, table_mb_arg
from .notation import COLOUR_NAMES, COLOURS, board_text, format_game, format_move, parse_board, parse_move, replay
from .rules import OPTIONS, Position, Rules

DEFAULT_TABLE_MB = 256


def _bool(text):
    if text in ("yes", "no"):
        return text == "yes"
    raise ValueError(text)


def add_parser(games):
    p = games.add_parser(
        "serans", help="Las Torres de Serans: slide lines, ram towers of equal height (2-4 players)",
        description="Las Torres de Serans under the reading of docs/serans-rules.md; every open point "
                    "is an option. Turns: 3>b^ (row 3 right, then column b up), - (pass); set-up: "
                    "Y@b2 (a yellow piece on b2). Players Y, B, R, G; row 1 is the top row.")
    commands = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(p))
    commands.required = True

    def rule_args(sub, size=4, target=7):
        g = sub.add_argument_group("rules")
        g.add_argument("--size", type=positive_int_arg, default=size, help=f"board n x n (default {size})")
        g.add_argument("--players", type=positive_int_arg, default=2, help="2, 3 or 4 (default 2)")
        g.add_argument("--target", type=positive_int_arg, default=target,
                       help=f"tower height that wins (default {target})")
        for name, (allowed, text) in OPTIONS.items():
            default = getattr(Rules, name)
            if isinstance(default, bool):
                g.add_argument(f"--{name.replace('_', '-')}", type=_bool, choices=(False, True),
                               metavar="{yes,no}", default=default,
                               help=f"{text} (default {'yes' if default else 'no'})")
            else:
                g.add_argument(f"--{name.replace('_', '-')}", choices=allowed, default=default,
                               help=f"{text} (default {default})")

    def position_args(sub):
        sub.add_argument("--moves", default="", help="moves played so far (set-up placements, then turns)")
        sub.add_argument("--board", default=None,
                         help="start from this board instead ('Y . BY ./. . . ./...' rows from the top)")
        sub.add_argument("--to-move", choices=COLOURS, default=None, help="who moves on --board (default Y)")

    s = commands.add_parser("show", help="the position with its legal turns")
    rule_args(s)
    position_args(s)
    s.set_defaults(handler=cmd_show)

    s = commands.add_parser("solve", help="exact two-player value (C core), every opening placement",
                            description="The first player's result with best play: 0 a draw, +k a win "
                                        "whose tallest tower is k-1 levels above the loser's, -k the same "
                                        "loss. From the start the set-up placements are searched too. "
                                        "With --record the result goes to results/serans/ with provenance.")
    rule_args(s, size=3, target=3)
    position_args(s)
    s.add_argument("--openings", action="store_true", help="also the value after each first placement")
    s.add_argument("--line", action="store_true", help="also an optimal game")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--record", action="store_true", help="write results/serans/ (from the start only)")
    s.add_argument("--table-mb", type=table_mb_arg, default=DEFAULT_TABLE_MB,
                   help=f"transposition table size in MB (default {DEFAULT_TABLE_MB})")
    s.add_argument("--quiet", action="store_true", help="no progress display")
    s.add_argument("--time-limit", type=positive_int_arg, default=None, metavar="SECONDS",
                   help="stop after this many seconds: print the nodes searched, the node rate and "
                        "the bounds proven so far, record nothing, exit status 3")
    s.set_defaults(handler=cmd_solve)

    s = commands.add_parser("selfplay", help="statistics of games between search players (fixed seed)")
    rule_args(s)
    s.add_argument("--games", type=positive_int_arg, default=100, help="number of games (default 100)")
    s.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    s.add_argument("--depth", type=int, default=1,
                   help="search depth in turns (default 1: best own turn; 0: random player)")
    s.add_argument("--mode", choices=("maxn", "paranoid"), default="maxn", help="search (default maxn)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--record", action="store_true", help="write the statistics to results/serans/")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(handler=cmd_selfplay)

    s = commands.add_parser("play", help="play against the engine in the terminal")
    rule_args(s)
    s.add_argument("--seat", choices=COLOURS, default="Y", help="your colour (default Y, moves first)")
    s.add_argument("--depth", type=positive_int_arg, default=None,
                   help="engine search depth in turns (default 1; not with --exact)")
    s.add_argument("--exact", action="store_true", help="two players: the engine plays perfectly (C solver)")
    s.add_argument("--seed", type=int, default=1, help="engine tie-break seed (default 1)")
    s.set_defaults(handler=cmd_play)

    s = commands.add_parser("coop", help="cooperative mode: highest tower and fewest turns to the target",
                            description="All players together (breadth-first over every reachable "
                                        "position, set-up included): the tallest tower reachable and the "
                                        "fewest turns until a tower of the target height stands.")
    rule_args(s, size=3, target=4)
    position_args(s)
    s.add_argument("--max-states", type=positive_int_arg, default=20_000_000,
                   help="stop after storing this many positions (default 20000000)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--record", action="store_true",
                   help="write results/serans/ (from the start only; only a complete search)")
    s.add_argument("--quiet", action="store_true", help="no progress display")
    s.set_defaults(handler=cmd_coop)


def make_rules(args):
    return Rules(size=args.size, players=args.players, target=args.target,
                 **{name: getattr(args, name) for name in OPTIONS})


def make_position(args):
    rules = make_rules(args)
    if args.to_move is not None and args.board is None:
        raise UsageError("--to-move says who moves on --board; give --board too")
    if args.board is not None:
        colour = args.to_move or "Y"
        to_move = COLOURS.index(colour)
        if to_move >= rules.players:
            raise UsageError(f"--to-move {colour}: no such player in a {rules.players}-player game")
        position = Position.from_board(rules, parse_board(rules, args.board), to_move)
    else:
        position = Position.initial(rules)
    played = replay(position, args.moves)
    return rules, (played[-1][1] if played else position), [m for m, _ in played]


def header(position, moves):
    r = position.rules
    if position.is_over():
        state = "game over: " + ", then ".join("=".join(COLOURS[p] for p in g) for g in position.ranking())
    elif position.in_setup():
        held = "".join(COLOURS[c] for c in position.hands[position.to_move])
        state = f"{COLOURS[position.to_move]} places ({held} in hand)"
    else:
        state = f"{COLOURS[position.to_move]} to move"
    return (f"Torres de Serans {r.size}x{r.size}, {r.players} players, target {r.target}, "
            f"after {len(moves)} moves, turn {position.turns} ({state})")


def cmd_show(args):
    rules, position, moves = make_position(args)
    print(header(position, moves))
    print(board_text(position))
    legal = position.legal_moves()
    if legal:
        print(f"legal ({len(legal)}): " + " ".join(format_move(rules.size, m) for m in legal))
    return 0


def cmd_solve(args):
    from .engine import Engine
    rules, position, moves = make_position(args)
    if args.record and (moves or args.board):
        raise UsageError("--record solves from the start; drop --moves/--board")
    engine = Engine(rules, table_mb=args.table_mb)
    t0 = time.perf_counter()
    out = {"game": "serans", "rules": {"size": rules.size, "players": 2, "target": rules.target,
                                       **rules.options()},
           "moves": [format_move(rules.size, m) for m in moves]}
    try:
        with NodeProgress(engine, args.quiet, "solving"):
            if args.time_limit:
                engine.set_progress(_time_limit(engine.core.progress, t0, args.time_limit))
            out["value"] = engine.value(position)
            if args.openings and position.in_setup():
                out["openings"] = {format_move(rules.size, m): v for m, v in engine.analyse(position)}
            if args.line or args.record:
                line = engine.line(position)
                out["line"] = format_game(rules.size, [m for m, _ in line])
                final = line[-1][1] if line else position
                out["final_ranking"] = ["=".join(COLOURS[p] for p in g) for g in final.ranking()]
    except SolveTimeLimit:
        return _unfinished(args, engine, position, moves, out, t0)
    out.update(nodes=engine.nodes, seconds=round(time.perf_counter() - t0, 3))
    out["meaning"] = describe(out["value"])
    if args.record:
        from .results import record_solve
        out["record"] = record_solve(out, sys.argv)
    if args.json:
        print(json.dumps(out))
        return 0
    print(header(position, moves))
    print(f"value: {out['value']:+d} ({out['meaning']})")
    if "openings" in out:
        print("after each first placement: " + " ".join(f"{k}:{v:+d}" for k, v in out["openings"].items()))
    if "line" in out:
        print(f"optimal game: {out['line']}")
    print(f"nodes: {out['nodes']}  time: {out['seconds']:.2f} s")
    if args.record:
        print(f"recorded in {out['record']}")
    return 0


class SolveTimeLimit(Exception):
    """--time-limit ran out."""


def _time_limit(inner, t0, limit):
    def poll(nodes):
        if inner is not None:
            inner(nodes)
        if time.perf_counter() - t0 > limit:
            raise SolveTimeLimit()
    return poll


def _unfinished(args, engine, position, moves, out, t0):
    """--time-limit ran out: nodes, rate and what is proven; nothing is recorded; status 3."""
    seconds = time.perf_counter() - t0
    out.update(finished=False, nodes=engine.nodes, seconds=round(seconds, 3),
               nodes_per_second=round(engine.nodes / seconds) if seconds else None)
    if "value" not in out:  # interrupted in the value's own search: the bounds proven so far
        lo, hi = engine.bounds()
        out["value_at_least"], out["value_at_most"] = lo, hi
    if args.json:
        print(json.dumps(out))
        return 3
    print(header(position, moves))
    if "value" in out:
        print(f"value: {out['value']:+d} ({describe(out['value'])}); stopped later (openings or line)")
    else:
        lo, hi = out["value_at_least"], out["value_at_most"]
        print("value: not finished; proven so far: "
              + (f"{lo:+d} <= value" if lo is not None else "no lower bound") + ", "
              + (f"value <= {hi:+d}" if hi is not None else "no upper bound"))
    print(f"stopped at --time-limit {args.time_limit} s: nodes: {out['nodes']}  "
          f"time: {seconds:.2f} s  rate: {out['nodes_per_second']} nodes/s  (nothing recorded)")
    return 3


def describe(v):
    if v == 0:
        return "draw"
    who = "first player (Y)" if v > 0 else "second player (B)"
    return f"{who} wins, tallest tower {abs(v) - 1} level{'s' if abs(v) != 2 else ''} above the other's"


def cmd_selfplay(args):
    from .selfplay import selfplay
    rules = make_rules(args)
    if args.depth < 0:
        raise UsageError("--depth must be 0 (random) or more")
    t0 = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm
        bar = tqdm(total=args.games, unit="game", file=sys.stderr, leave=False, desc="self-play")
    try:
        stats = selfplay(rules, args.games, args.seed, args.depth, args.mode,
                         on_game=(lambda i, final: bar.update(1)) if bar else None)
    finally:
        if bar:
            bar.close()
    stats["rules"] = {"size": rules.size, "players": rules.players, "target": rules.target, **rules.options()}
    stats["seconds"] = round(time.perf_counter() - t0, 2)
    stats["seconds_per_game"] = round(stats["seconds"] / args.games, 4)
    if args.record:
        from .results import record_selfplay
        stats["record"] = record_selfplay(stats, sys.argv)
    if args.json:
        print(json.dumps(stats))
        return 0
    print(f"Torres de Serans {rules.size}x{rules.size}, {rules.players} players, target {rules.target}: "
          f"{args.games} games, seed {args.seed}, player "
          + ("random" if args.depth == 0 else f"{args.mode} depth {args.depth}"))
    print("win share by seat (+- standard error): " + "  ".join(
        f"{COLOURS[i]} {w:.3f} +- {se:.3f}" for i, (w, se) in enumerate(zip(stats["win_share"], stats["win_share_se"]))))
    lo, hi = stats["first_player_advantage_ci95"]
    print(f"first-player advantage: {stats['first_player_advantage']:+.3f} +- {stats['first_player_advantage_se']:.3f} "
          f"(win share minus 1/{rules.players}; 95% interval {lo:+.3f} .. {hi:+.3f})")
    t = stats["turns"]
    print(f"turns: mean {t['mean']} +- {t['se']} (sd {t['sd']}), median {t['median']}, min {t['min']}, max {t['max']}; "
          f"line moves mean {stats['line_moves_mean']}")
    print(f"target reached in {stats['target_reached']} games; shared first places {stats['shared_first_places']}; "
          f"mean tallest tower {stats['tallest_mean']}")
    print(f"time: {stats['seconds']:.1f} s")
    if args.record:
        print(f"recorded in {stats['record']}")
    return 0


def cmd_play(args):
    import random
    from .search import SearchPlayer
    rules = make_rules(args)
    me = COLOURS.index(args.seat)
    if me >= rules.players:
        raise UsageError(f"--seat {args.seat}: no such player in a {rules.players}-player game")
    if args.exact and args.depth is not None:
        raise UsageError("--exact plays perfectly: it takes no --depth")
    if args.exact:
        from .engine import Engine
        engine = Engine(rules)
        bot = type("Exact", (), {"choose": lambda self, p: engine.best_move(p)})()
    else:
        bot = SearchPlayer(args.depth or 1, "maxn", random.Random(args.seed))
    p, moves = Position.initial(rules), []
    print(f"You are {COLOUR_NAMES[me]} ({args.seat}). Moves: Y@b2 / @b2 (set-up), 3>b^ (turn), "
          "- (pass), 'moves' lists the legal ones, 'quit' stops.")
    while not p.is_over():
        print(header(p, moves))
        print(board_text(p))
        if p.to_move == me:
            try:
                text = input("your move> ").strip()
            except EOFError:
                print()
                return 0
            if text in ("quit", "q", "exit"):
                return 0
            if text == "moves":
                print(" ".join(format_move(rules.size, m) for m in p.legal_moves()))
                continue
            try:
                m = parse_move(p, text)
                p = p.play(m)
            except InputError as e:  # say it and ask again
                print(f"  {e}")
                continue
        else:
            m = bot.choose(p)
            print(f"{COLOURS[p.to_move]} plays {format_move(rules.size, m)}")
            p = p.play(m)
        moves.append(m)
    print(header(p, moves))
    print(board_text(p))
    print("game: " + format_game(rules.size, moves))
    return 0


def cmd_coop(args):
    from .coop import coop
    rules, position, moves = make_position(args)
    if args.record and (moves or args.board):
        raise UsageError("--record searches from the start; drop --moves/--board")
    t0 = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm
        bar = tqdm(unit="pos", file=sys.stderr, leave=False, desc="coop, turn 0")

    def progress(states, turns):
        bar.set_description(f"coop, turn {turns}", refresh=False)
        bar.update(states - bar.n)

    try:  # the C core for two players within its limits (symmetries folded), else Python
        res = coop(position, args.max_states, progress if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    res["seconds"] = round(time.perf_counter() - t0, 2)
    res["rules"] = {"size": rules.size, "players": rules.players, "target": rules.target, **rules.options()}
    if args.record:
        if not res["complete"]:
            raise UsageError("the search stopped at --max-states: nothing recorded (raise it)")
        from .results import record_coop
        res["record"] = record_coop(res, sys.argv)
    if args.json:
        print(json.dumps(res))
        return 0
    print(header(position, moves))
    bound = "" if res["complete"] else " (search stopped at --max-states: a lower bound)"
    print(f"highest tower reachable: {res['highest']}{bound}")
    print("fewest turns to the target: "
          + (str(res["turns_to_target"]) if res["turns_to_target"] is not None else "never")
          + ("" if res["complete"] or res["turns_to_target"] is not None else " (not within the limit)"))
    print(f"positions: {res['states']} stored over {res['layers']} turn layers (largest {res['largest_layer']})"
          + ("; stopped once the answer was fixed" if res["stopped_early"] else "")
          + f"  time: {res['seconds']:.2f} s")
    if args.record:
        print(f"recorded in {res['record']}")
    return 0
