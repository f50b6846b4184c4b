"""Tailor of Ghent results in results/gent/: what a board run has proven, with provenance.

A record is written from a run directory's journal only (never typed in): per start vertex the
proven bounds on the Tailor's score, the game's bounds (Mr. Button picks the start), nodes and
CPU time summed over every probe (abandoned ones too, where the journal has them), the commits
that computed the probes, and the machine, commit and date of the recording.
An exact board also gets an optimal game, and its value is solved once more from scratch with
a fresh table as an independent check.
"""

import contextlib
import json
import os
import time

from ..checkpoint import atomic_write, read_checked_json
from ..provenance import commit, machine
from .board import BUILTIN, Board, load_graph
from .engine import Engine
from .notation import format_game
from .position import Position, Start
from .run import BoardRun, graph_digest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DIR = os.path.join(REPO, "results", "gent")


def board_of_run(run_dir, graph_source=None):
    manifest = read_checked_json(os.path.join(run_dir, "manifest.json"))
    source = graph_source or (manifest["graph"] if manifest["graph"] in BUILTIN else None)
    if source is None:
        raise ValueError(f"{run_dir} is a run on the graph file {manifest['graph']}; give it with --graph")
    graph = load_graph(source)
    if graph_digest(graph) != manifest["graph_digest"]:
        raise ValueError(f"{run_dir} was run on another graph than {source}")
    return Board(graph, manifest["outer"]), manifest


def status(run_dir, graph_source=None, table_mb=64):
    """What the run has proven so far (reads the journal; searches nothing)."""
    board, manifest = board_of_run(run_dir, graph_source)
    g = board.graph
    starts = {g.parse_vertex(v) for v in manifest["starts"]}
    whole = all(starts & set(c) for c in board.start_classes())
    run = BoardRun(Engine(board, table_mb=table_mb), starts=None if whole else starts, run_dir=run_dir,
                   resume=True)
    lo, hi = run.value_bounds()
    rel_run = os.path.relpath(os.path.abspath(run_dir), REPO)
    one = "" if whole else f" --start {manifest['starts'][0]}"
    same_outer = next(c for c in g.face_classes() if board.outer in c)
    return board, run, {
        "game": "gent", "graph": g.name, "outer": g.face_text(board.outer),
        # Outer faces that an automorphism maps onto this one: the same game, the same value.
        "equivalent_outer": [g.face_text(f) for f in same_outer if f != board.outer],
        "exact": run.exact(), "value_bounds": [lo, hi],
        "start_bounds": {g.vertex_name(v): list(b) for v, b in run.start_bounds().items()},
        "probes": run.probes, "abandoned_probes": run.abandoned,
        "nodes": run.nodes, "cpu_seconds": round(run.seconds, 1),
        # The code that proved the probes (journals from before session 8 did not say).
        "probe_commits": sorted(run.commits),
        "run": rel_run, "created": manifest.get("created"), "whole_board": whole,
        "command": (f"python -m solver gent solve {graph_source or g.name} --outer {g.face_text(board.outer)}{one} "
                    f"--run {rel_run} --resume")}


def record(run_dir, out_dir=DEFAULT_DIR, graph_source=None, table_mb=1024, line=False, progress=None):
    """Writes the run's record. `line`: for a run stopped at the game's value (--value-only),
    also find an optimal game from a start vertex Mr. Button picks (as costly as a few probes).
    `progress(engine)`: a context manager showing a search's progress."""
    board, run, rec = status(run_dir, graph_source)
    if not rec.pop("whole_board"):
        raise ValueError(f"{run_dir} is a run of one start vertex, not of the board: its bounds are not "
                         "the game's; record a run without --start")
    if rec["value_bounds"][0] == rec["value_bounds"][1] and not rec["exact"]:
        # The game's value without every start exact (--value-only): a fresh solve of the whole
        # game would take as long as the run, so the record says it was not re-checked.
        rec["value"] = rec["value_bounds"][0]
        rec["checked"] = False
        earlier = _read(os.path.join(out_dir, f"{board.graph.name}-{rec['outer']}.json"))
        if not line and earlier.get("value") == rec["value"] and "optimal_game" in earlier:
            # Recorded again without --line: keep the game found for the same value before.
            rec["optimal_game"], rec["line_nodes"] = earlier["optimal_game"], earlier.get("line_nodes")
        if line:
            v = next(v for v, b in run.bounds.items() if b[0] == b[1] == rec["value"])
            start = Position.initial(board).play(Start(v))
            engine = Engine(board, table_mb=table_mb)
            with progress(engine) if progress else contextlib.nullcontext():
                moves = [Start(v)] + [m for m, _ in engine.line(start, rec["value"])]
            rec["optimal_game"] = format_game(board, moves)
            rec["line_nodes"] = engine.nodes
    if rec["exact"]:
        engine = Engine(board, table_mb=table_mb)
        start = Position.initial(board)
        check = engine.value(start)
        if check != rec["value_bounds"][0]:
            raise RuntimeError(f"the run says {rec['value_bounds'][0]}, a fresh solve says {check}")
        rec["value"] = check
        rec["optimal_game"] = format_game(board, [m for m, _ in engine.line(start)])
        rec["check_nodes"] = engine.nodes
    rec.update(commit=commit(), recorded=time.strftime("%Y-%m-%dT%H:%M:%S%z"), **machine())
    os.makedirs(out_dir, exist_ok=True)
    name = f"{board.graph.name}-{rec['outer']}.json"
    atomic_write(os.path.join(out_dir, name), (json.dumps(rec, indent=1) + "\n").encode())
    write_readme(out_dir)
    return rec


def _read(path):
    """A record written before, or {} when there is none."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def write_readme(out_dir=DEFAULT_DIR):
    rows = []
    for name in sorted(os.listdir(out_dir)):
        if name.endswith(".json"):
            with open(os.path.join(out_dir, name)) as f:
                rows.append(json.load(f))
    lines = ["# Tailor of Ghent: results", "",
             "Generated by `python -m solver gent record RUN_DIR` from the journals of board runs",
             "(`python -m solver gent solve BOARD --outer CYCLE --run RUN_DIR`); never edited by hand.",
             "The value is the Tailor's score with best play on both sides, Mr. Button choosing the",
             "start vertex. Where the run has not finished, the proven bounds are given instead.",
             "Probes are finished null-window searches; since session 8 they include the searches",
             "of split probes' children, and nodes and CPU time include abandoned searches.",
             "An outer face written \"A (= B)\" is mapped onto B by an automorphism of the graph: the",
             "same game, so the runs of A and B bound one value together.", "",
             "| graph | outer face | value | per start vertex (lo..hi) | probes | nodes | CPU s | commit | recorded | cores |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    commands = []
    for r in rows:
        lo, hi = r["value_bounds"]
        value = (str(lo) + (" (not re-checked)" if r.get("checked") is False else "")) if lo == hi else f"in [{lo}, {hi}]"
        if lo != hi:  # another run of the same game (an equivalent outer face) may have its value
            same_game = [o for o in rows if o["graph"] == r["graph"] and o["value_bounds"][0] == o["value_bounds"][1]
                         and (o["outer"] in r.get("equivalent_outer", []) or r["outer"] in o.get("equivalent_outer", []))]
            value += "".join(f"; the same game as {o['outer']}: {o['value_bounds'][0]}" for o in same_game)
        starts = " ".join(f"{v}:{a}" if a == b else f"{v}:{a}..{b}" for v, (a, b) in r["start_bounds"].items())
        same = "".join(f" (= {o})" for o in r.get("equivalent_outer", []))
        lines.append(f"| {r['graph']} | {r['outer']}{same} | {value} | {starts} | {r['probes']} | {r['nodes']:,} "
                     f"| {r['cpu_seconds']} | {r['commit']} | {r['recorded']} | {r['cores']} |")
        code = r.get("probe_commits") or []
        commands.append(f"- {r['graph']}, outer {r['outer']}: `{r['command']}`"
                        + (f" (probes journaled since session 8 computed at commit {', '.join(code)})" if code else ""))
    lines += ["", "## Commands (each continues or re-checks its run)", ""] + commands
    games = [r for r in rows if r.get("optimal_game")]
    if games:
        lines += ["", "## Optimal games", ""]
        for r in games:
            lines.append(f"- {r['graph']}, outer {r['outer']}: `{r['optimal_game']}`")
    atomic_write(os.path.join(out_dir, "README.md"), ("\n".join(lines) + "\n").encode())
