"""Records in results/serans/ with provenance: written by `solve --record` and
`selfplay --record` only (never typed in): command, commit, date, machine, wall time, nodes."""

import json
import os
import shlex
import time

from ..checkpoint import atomic_write
from ..provenance import commit, machine

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DIR = os.path.join(REPO, "results", "serans")


def _name(rules, kind, player=None):
    """The record's file name: kind, board, players, target, options that differ from the
    defaults, and for self-play the player unless it is the default (max^n depth 1):
    -maxn2, -paranoid2, -random."""
    r = rules
    extra = "".join(f"-{k}={v}" for k, v in sorted(r.items()) if k not in ("size", "players", "target")
                    and v != _defaults().get(k))
    if player is not None and (player["mode"], player["depth"]) != ("maxn", 1):
        extra += "-random" if player["mode"] == "random" else f"-{player['mode']}{player['depth']}"
    return f"{kind}-{r['size']}x{r['size']}-p{r['players']}-t{r['target']}{extra}.json"


def _defaults():
    from .rules import Rules
    return Rules().options()


def _write(rec, kind, argv, out_dir):
    rec = dict(rec)
    rec.update(command="python -m solver " + " ".join(shlex.quote(a) for a in argv[1:]) if argv else "",
               commit=commit(), recorded=time.strftime("%Y-%m-%dT%H:%M:%S%z"), **machine())
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, _name(rec["rules"], kind, rec.get("player")))
    atomic_write(path, (json.dumps(rec, indent=1) + "\n").encode())
    write_readme(out_dir)
    return os.path.relpath(path, REPO)


def record_solve(out, argv, out_dir=DEFAULT_DIR):
    return _write(out, "solve", ["serans"] + argv[1:] if argv and argv[0].endswith("__main__.py") else argv,
                  out_dir)


def record_coop(res, argv, out_dir=DEFAULT_DIR):
    return _write(res, "coop", ["serans"] + argv[1:] if argv and argv[0].endswith("__main__.py") else argv,
                  out_dir)


def record_selfplay(stats, argv, out_dir=DEFAULT_DIR):
    return _write(stats, "selfplay", argv, out_dir)


def write_readme(out_dir=DEFAULT_DIR):
    solves, plays, coops = [], [], []
    for name in sorted(os.listdir(out_dir)):
        if name.endswith(".json"):
            with open(os.path.join(out_dir, name)) as f:
                rec = json.load(f)
            (solves if name.startswith("solve-") else coops if name.startswith("coop-") else plays).append((name, rec))
    lines = ["# Las Torres de Serans: results", "",
             "Written by `python -m solver serans solve ... --record` and `selfplay ... --record`;",
             "never edited by hand. Values are the first player's (Y) with best play, set-up",
             "placements included: 0 a draw, +k a win whose tallest tower is k-1 levels above the",
             "loser's tallest, -k the same loss (docs/serans-rules.md). Options not listed are the",
             "defaults of docs/serans-rules.md.", "",
             "## Exact two-player values", "",
             "Openings: the value after each first placement (Y places a piece; `--openings`).", "",
             "| file | board | target | value | meaning | openings | optimal game | nodes | wall s | commit | recorded | cores |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in solves:
        n = r["rules"]["size"]
        openings = " ".join(f"{k}:{v:+d}" for k, v in r.get("openings", {}).items())
        lines.append(f"| {name} | {n}x{n} | {r['rules']['target']} | {r['value']:+d} | {r['meaning']} "
                     f"| {openings} | `{r.get('line', '')}` | {r['nodes']:,} | {r['seconds']} | {r['commit']} "
                     f"| {r['recorded']} | {r['cores']} |")
    lines += ["", "## Self-play statistics", "",
              "Every seat is played by the same search player (`--depth` turns, `--mode`: max^n, each",
              "player maximising its own evaluation, or paranoid, the others minimising the mover's lead);",
              "ties between equal moves broken by a generator seeded from (seed, game), so each row is",
              "reproducible. A shared first place splits the point. First-player advantage: the first",
              "seat's win share minus 1/players, +- its standard error, with a 95% interval (normal",
              "approximation); the turns column is the mean game length +- its standard error.", "",
              "| file | board | players | target | games | seed | player | win share by seat | first-player advantage | 95% interval | mean turns | wall s per game | commit | recorded |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in plays:
        n = r["rules"]["size"]
        pl = r["player"]
        adv = f"{r['first_player_advantage']:+}"
        if "first_player_advantage_se" in r:
            adv += f" +- {r['first_player_advantage_se']}"
        ci = " .. ".join(f"{x:+}" for x in r["first_player_advantage_ci95"]) if "first_player_advantage_ci95" in r else ""
        turns = f"{r['turns']['mean']}" + (f" +- {r['turns']['se']}" if "se" in r["turns"] else "")
        per_game = r.get("seconds_per_game", round(r["seconds"] / r["games"], 4))
        player = "random" if pl["mode"] == "random" else f"{pl['mode']} depth {pl['depth']}"
        lines.append(f"| {name} | {n}x{n} | {r['rules']['players']} | {r['rules']['target']} | {r['games']} "
                     f"| {r['seed']} | {player} | {' '.join(map(str, r['win_share']))} "
                     f"| {adv} | {ci} | {turns} | {per_game} "
                     f"| {r['commit']} | {r['recorded']} |")
    lines += ["", "## Cooperative mode", "",
              "All players together from the start (set-up included): the tallest tower reachable",
              "(searched up to the target: a tower of the target height ends the game) and the fewest",
              "turns until a tower of the target height stands (set-up placements count no turn).", "",
              "| file | board | players | target | highest tower | fewest turns to target | positions | search | wall s | commit | recorded |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in coops:
        n = r["rules"]["size"]
        turns = r["turns_to_target"] if r["turns_to_target"] is not None else "never"
        lines.append(f"| {name} | {n}x{n} | {r['rules']['players']} | {r['rules']['target']} | {r['highest']} "
                     f"| {turns} | {r['states']:,} | {r.get('search', '')} | {r['seconds']} | {r['commit']} "
                     f"| {r['recorded']} |")
    lines += ["", "## Commands", ""] + [f"- {name}: `{r['command']}`" for name, r in solves + plays + coops]
    atomic_write(os.path.join(out_dir, "README.md"), ("\n".join(lines) + "\n").encode())
