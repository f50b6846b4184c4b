"""`python -m solver life {show,survivors,replies,solve,selfplay}`."""

import argparse
import json
import random
import sys
import time

from ..cli import (Progress as _Progress, UsageError, nonnegative_int_arg, output_dir_arg, output_file_arg,
                   positive_int_arg, table_mb_arg)
from .rules import (BOTH_EXTINCT, EDGES, LIMIT_SCORES, ORDERS, SETUPS, Options)

# The small version that `solve` searches unless told otherwise.
SOLVE_DEFAULTS = {"width": 6, "height": 6, "quarter": 3, "tokens": 3, "generations": 6}
DEFAULT_SURVIVOR_LIMIT = 200
DEFAULT_GAMES = 20
DEFAULT_SEED = 1


def size_arg(text):
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size like 8x8, got {text!r}")
    return w, h


def rule_args(sub, defaults=None):
    defaults = defaults or {}
    d = Options()
    def default(name):
        return defaults.get(name, getattr(d, name))
    g = sub.add_argument_group("rules (docs/life-rules.md explains every default)")
    g.add_argument("--size", type=size_arg, default=None, metavar="WxH",
                   help=f"board size, sides 3..8 (default {default('width')}x{default('height')})")
    g.add_argument("--quarter", type=positive_int_arg, default=None, metavar="Q",
                   help=f"set-up corners are QxQ (default {default('quarter')})")
    g.add_argument("--tokens", type=positive_int_arg, default=None, metavar="N",
                   help=f"tokens per player in the set-up (default {default('tokens')})")
    g.add_argument("--edge", choices=EDGES, default=None, help=f"board edge (default {d.edge})")
    g.add_argument("--setup", choices=SETUPS, default=None,
                   help=f"sequential: the second player sees the first set-up (default {d.setup})")
    g.add_argument("--place-first", type=positive_int_arg, default=None, metavar="G",
                   help=f"first placement round before generation G (default {d.place_first})")
    g.add_argument("--place-every", type=nonnegative_int_arg, default=None, metavar="K",
                   help=f"then before every K-th generation; 0: never (default {d.place_every})")
    g.add_argument("--extra", type=positive_int_arg, default=None, metavar="N",
                   help=f"tokens per player per placement round, 1..5 (default {d.extra})")
    g.add_argument("--place", choices=("optional", "mandatory"), default=None,
                   help="may a player place fewer tokens, or none? (default optional)")
    g.add_argument("--order", choices=ORDERS, default=None,
                   help=f"who places first in a round (default {d.order})")
    g.add_argument("--both-extinct", choices=BOTH_EXTINCT, default=None,
                   help=f"result when both colours die in the same generation (default {d.both_extinct})")
    g.add_argument("--generations", type=positive_int_arg, default=None, metavar="G",
                   help=f"generation limit (default {default('generations')})")
    g.add_argument("--limit-score", choices=LIMIT_SCORES, default=None,
                   help=f"at the limit: more tokens wins (count) or draw (default {d.limit_score})")
    sub.set_defaults(rule_defaults=defaults)


def options_from(args):
    kw = dict(args.rule_defaults)
    if args.size is not None:
        kw["width"], kw["height"] = args.size
    for name in ("quarter", "tokens", "edge", "setup", "place_first", "place_every", "extra",
                 "order", "both_extinct", "generations", "limit_score"):
        if getattr(args, name) is not None:
            kw[name] = getattr(args, name)
    if args.place is not None:
        kw["place_optional"] = args.place == "optional"
    return Options(**kw)


class Progress(_Progress):
    """Progress called as progress(done, total)."""

    def __call__(self, done, total):
        self.show(done, total)


def output_args(sub, record=True):
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument("--quiet", action="store_true", help="no progress display")
    if record:
        sub.add_argument("--out", metavar="FILE", default=None, type=output_file_arg,
                         help="also write the result with its provenance (command, commit, date, "
                              "cores, wall time) to FILE, e.g. results/life/NAME.json")


def players_arg(text):
    from .players import PLAYERS
    names = text.split(",")
    if len(names) != 2 or any(n not in PLAYERS for n in names):
        raise argparse.ArgumentTypeError(f"expected two players like search,random out of "
                                         f"{', '.join(PLAYERS)}; got {text!r}")
    return names


def add_parser(games):
    p = games.add_parser(
        "life", help="Buntes Leben: a two-colour Game of Life",
        description="Buntes Leben (Althöfer): two colours on Conway's Game of Life. Cells are named "
                    "by column letter and row number from the top: a1 is the top-left corner, the "
                    "first player's; the second player sets up in the bottom-right corner.")
    commands = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(p))
    commands.required = True

    s = commands.add_parser("show", help="print the generations of a game (or draw them with --svg)",
                            description="Plays one game and prints every generation: X first player, "
                                        "O second, lower case for tokens placed just before. Set-ups "
                                        "not given are chosen by the players.")
    rule_args(s)
    s.add_argument("--first", metavar="CELLS", default=None, help="first player's set-up, e.g. a1,b1,c1,b2,c3")
    s.add_argument("--second", metavar="CELLS", default=None, help="second player's set-up")
    s.add_argument("--players", type=players_arg, default=["pass", "pass"], metavar="P1,P2",
                   help="who places tokens: pass, random or search (default pass,pass)")
    s.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    s.add_argument("--svg", metavar="DIR", default=None, type=output_dir_arg,
                   help="write gen-NNN.svg per generation and generations.svg (all) to DIR")
    s.add_argument("--json", action="store_true", help="print the game as one JSON object")
    s.set_defaults(handler=cmd_show)

    s = commands.add_parser("survivors", help="which set-ups survive on their own",
                            description="Every set-up of the first player's corner, one per class "
                                        "under the diagonal reflection, alone on the board with no "
                                        "placements: does it die out, and if not, which still life or "
                                        "oscillator does it become within --limit generations?")
    rule_args(s)
    s.add_argument("--limit", type=positive_int_arg, default=DEFAULT_SURVIVOR_LIMIT,
                   help=f"generations to follow each set-up, at most 4096 (default {DEFAULT_SURVIVOR_LIMIT})")
    s.add_argument("--list", action="store_true", help="print every surviving class")
    output_args(s)
    s.set_defaults(handler=cmd_survivors)

    s = commands.add_parser("replies", help="the second player's best set-up reply, without placements",
                            description="Every first-player set-up class against every second-player "
                                        "set-up with no placements (set-ups, then Life up to the "
                                        "generation limit, scored by the rules): the second player's "
                                        "best result and one reply reaching it. Exact for this "
                                        "set-up duel; the full game with placements is `solve`.")
    rule_args(s)
    s.add_argument("--list", action="store_true", help="print every first set-up class")
    output_args(s)
    s.set_defaults(handler=cmd_replies)

    s = commands.add_parser("solve", help="exact value of a small version (who can force a win)",
                            description="Exact alpha-beta search of the whole game, set-ups and every "
                                        "placement included. Values: +1 the first player forces a win, "
                                        "0 a draw, -1 the second player forces a win. With --order coin "
                                        "the coin is taken to fall against one player in every round "
                                        "(--coin): the answers are what each player can guarantee "
                                        "whatever the coin shows. Defaults to the small version "
                                        + "x".join(str(SOLVE_DEFAULTS[k]) for k in ("width", "height"))
                                        + f" with {SOLVE_DEFAULTS['quarter']}x{SOLVE_DEFAULTS['quarter']} "
                                          f"corners, {SOLVE_DEFAULTS['tokens']} tokens and "
                                          f"{SOLVE_DEFAULTS['generations']} generations.")
    rule_args(s, SOLVE_DEFAULTS)
    s.add_argument("--coin", choices=("against-first", "against-second", "both"), default=None,
                   help="how a coin-decided order (--order coin) is searched (default both)")
    s.add_argument("--replies", action="store_true",
                   help="print the value and the best reply for every first set-up class")
    s.add_argument("--all-replies", action="store_true",
                   help="value every reply exactly (not only until a best one is found): list every "
                        "best reply and count the replies by value")
    s.add_argument("--table-mb", type=table_mb_arg, default=256,
                   help="transposition table size in MB (default 256)")
    output_args(s)
    s.set_defaults(handler=cmd_solve)

    s = commands.add_parser("selfplay", help="games between players (a search player by default)",
                            description="Plays --games games with a fixed --seed and reports wins, "
                                        "draws, losses and game lengths.")
    rule_args(s)
    s.add_argument("--games", type=positive_int_arg, default=DEFAULT_GAMES,
                   help=f"number of games (default {DEFAULT_GAMES})")
    s.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    s.add_argument("--players", type=players_arg, default=["search", "search"], metavar="P1,P2",
                   help="pass, random or search for the first and second player (default search,search)")
    s.add_argument("--horizon", type=positive_int_arg, default=None,
                   help="generations the search player looks ahead (default 6)")
    output_args(s)
    s.set_defaults(handler=cmd_selfplay)


def _emit(args, out, t0, lines):
    from .results import write
    seconds = time.perf_counter() - t0
    out = dict(out, seconds=round(seconds, 3))
    if getattr(args, "out", None):
        try:
            write(args.out, out, seconds)
        except OSError as e:
            raise UsageError(f"cannot write {args.out}: {e.strerror or e}") from None
    if args.json:
        print(json.dumps(out))
    else:
        print("\n".join(lines))
        print(f"time: {seconds:.2f} s" + (f"  (written to {args.out})" if getattr(args, "out", None) else ""))
    return 0


def make_players(names, horizon=None):
    from .players import PLAYERS, SearchPlayer
    return [SearchPlayer(horizon) if n == "search" and horizon else PLAYERS[n]() for n in names]


def choose_setups(game, players, rng, first=None, second=None):
    from .board import FIRST, SECOND
    a = first if first is not None else players[FIRST].setup(game, FIRST, None, rng)
    seen = a if game.options.setup == "sequential" else None
    b = second if second is not None else players[SECOND].setup(game, SECOND, seen, rng)
    return a, b


def cmd_show(args):
    from .draw import text_generations, write_svgs
    from .game import Game
    game = Game(options_from(args))
    board = game.board
    first = board.parse_cells(args.first) if args.first is not None else None
    second = board.parse_cells(args.second) if args.second is not None else None
    rng = random.Random(args.seed)
    players = make_players(args.players)
    a, b = choose_setups(game, players, rng, first, second)
    record = game.play(a, b, players, rng)
    if args.json:
        print(json.dumps(record.to_dict(board)))
    else:
        print(f"Buntes Leben {board.width}x{board.height} ({game.options.describe()}); "
              f"set-up X {board.format_cells(a)}, O {board.format_cells(b)}; players {','.join(args.players)}")
        print(text_generations(board, record), end="")
    if args.svg:
        try:
            paths = write_svgs(board, record, args.svg, f"Buntes Leben {board.width}x{board.height}")
        except OSError as e:
            raise UsageError(f"cannot write pictures to {args.svg}: {e.strerror or e}") from None
        print(f"wrote {len(paths)} SVG files to {args.svg}", file=sys.stderr if args.json else sys.stdout)
    return 0


def cmd_survivors(args):
    from .analysis import survivors
    options = options_from(args)
    if args.limit > 4096:
        raise UsageError(f"--limit must be at most 4096, got {args.limit}")
    t0 = time.perf_counter()
    with Progress(args.quiet, "set-ups", "class") as progress:
        res = survivors(options, args.limit, progress)
    out = {"question": "which first-player set-ups survive on their own (no opponent, no placements)",
           "options": options.to_dict(), **res}
    lines = [f"{res['setups']} set-ups of {options.tokens} tokens in the {options.quarter}x{options.quarter} corner "
             f"of {options.width}x{options.height} ({options.edge} edge), {res['classes']} classes under the diagonal",
             f"surviving {args.limit} generations alone: {res['surviving_setups']} set-ups "
             f"({res['surviving_classes']} classes)"]
    for fate, n in res["by_fate"].items():
        lines.append(f"  {fate:<26} {n['setups']:>6} set-ups  {n['classes']:>6} classes")
    if args.list:
        for r in res["rows"]:
            if r["fate"] != "dies":
                lines.append(f"  {r['setup']:<18} {r['fate']}, from generation {r['settled_at']}, "
                             f"{r['final_tokens']} tokens")
    return _emit(args, out, t0, lines)


def cmd_replies(args):
    from .analysis import best_replies
    options = options_from(args)
    t0 = time.perf_counter()
    with Progress(args.quiet, "first set-ups", "class") as progress:
        res = best_replies(options, options.generations, progress)
    out = {"question": "the second player's best set-up reply to each first set-up class in a "
                       "duel without placements", "options": options.to_dict(), **res}
    names = {1: "first wins", 0: "draw", -1: "second wins"}
    lines = [f"{res['first_classes']} first set-up classes against {res['second_setups']} replies, "
             f"{options.generations} generations without placements ({options.describe()})",
             f"value with best set-ups: {names[res['value']]}; classes by value with the best reply: "
             + ", ".join(f"{names[int(v)]} {n}" for v, n in res["by_value"].items())]
    if args.list:
        for r in res["rows"]:
            lines.append(f"  {r['setup']:<18} {names[r['value']]:<12} reply {r['best_reply']:<18} "
                         f"(replies: {r['first_wins']} lose, {r['draws']} draw, {r['second_wins']} win)")
    return _emit(args, out, t0, lines)


def cmd_solve(args):
    from .board import Board, FIRST
    from .solve import CSolver
    options = options_from(args)
    board = Board(options)
    classes = board.setups(FIRST, canonical=True)
    if args.coin is not None and options.order != "coin":
        raise UsageError(f"--coin is for --order coin, not --order {options.order}")
    modes = ["against-first", "against-second"] if args.coin in (None, "both") else [args.coin]
    if options.order != "coin":
        modes = modes[:1]
    t0 = time.perf_counter()
    out = {"question": "the value of the whole game with best play (set-ups and placements), "
                       "+1 first player forces a win, 0 draw, -1 second player forces a win",
           "options": options.to_dict(), "first_classes": len(classes), "coin": {}}
    names = {1: "first player wins", 0: "draw", -1: "second player wins"}
    lines = [f"Buntes Leben {options.width}x{options.height}, {options.quarter}x{options.quarter} corners, "
             f"{options.tokens} tokens, {options.generations} generations ({options.describe()})"]
    with Progress(args.quiet, "solving", "class") as progress:
        for k, mode in enumerate(modes):
            solver = CSolver(options, coin=mode, table_mb=args.table_mb)
            rows = []
            for i, a in enumerate(classes):
                v, reply, searched = solver.best_reply(a)
                row = {"setup": board.format_cells(a), "value": v,
                       "best_reply": board.format_cells(reply), "replies_searched": searched}
                if args.all_replies:
                    values = solver.reply_values(a)
                    row["best_replies"] = [board.format_cells(b) for b, w in values if w == v]
                    row["replies_by_value"] = {str(x): sum(w == x for _, w in values) for x in (-1, 0, 1)}
                rows.append(row)
                progress(k * len(classes) + i + 1, len(modes) * len(classes))
            value = max(r["value"] for r in rows)
            key = mode if options.order == "coin" else "fixed order"
            out["coin"][key] = {"value": value, "best_first": [r["setup"] for r in rows if r["value"] == value],
                                "nodes": solver.nodes, "rows": rows}
            where = f"coin {mode.replace('-', ' ')}" if options.order == "coin" else f"order {options.order}"
            lines.append(f"{where}: {names[value]} (value {value:+d}); best first set-ups: "
                         + " ".join(out["coin"][key]["best_first"][:8])
                         + (" ..." if len(out["coin"][key]["best_first"]) > 8 else "")
                         + f"; {solver.nodes} nodes")
            if args.replies:
                for r in rows:
                    extra = ""
                    if "best_replies" in r:
                        n = r["replies_by_value"]
                        extra = (f"  ({len(r['best_replies'])} best replies; replies by value "
                                 f"-1:{n['-1']} 0:{n['0']} +1:{n['1']})")
                    lines.append(f"  {r['setup']:<12} {r['value']:+d}  best reply {r['best_reply']}{extra}")
    return _emit(args, out, t0, lines)


def cmd_selfplay(args):
    from .game import Game
    options = options_from(args)
    game = Game(options)
    rng = random.Random(args.seed)
    players = make_players(args.players, args.horizon)
    t0 = time.perf_counter()
    results = {1: 0, 0: 0, -1: 0}
    lengths, reasons, games = [], {}, []
    with Progress(args.quiet, "games", "game") as progress:
        for k in range(args.games):
            a, b = choose_setups(game, players, rng)
            rec = game.play(a, b, players, rng)
            results[rec.result] += 1
            n = rec.generations[-1].gen
            lengths.append(n)
            kind = "extinction" if "died" in rec.reason else "limit"
            reasons[kind] = reasons.get(kind, 0) + 1
            games.append({"setup": [game.board.format_cells(a), game.board.format_cells(b)],
                          "result": rec.result, "generations": n, "reason": rec.reason})
            progress(k + 1, args.games)
    out = {"options": options.to_dict(), "players": args.players, "seed": args.seed,
           "horizon": args.horizon or 6, "games": args.games,
           "first_wins": results[1], "draws": results[0], "second_wins": results[-1],
           "mean_generations": round(sum(lengths) / len(lengths), 2), "ended_by": reasons,
           "game_list": games}
    lines = [f"{args.games} games {args.players[0]} (first) against {args.players[1]} (second), seed {args.seed}, "
             f"{options.describe()}",
             f"first wins {results[1]}, draws {results[0]}, second wins {results[-1]}; "
             f"mean length {out['mean_generations']} generations; ended by "
             + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))]
    return _emit(args, out, t0, lines)
