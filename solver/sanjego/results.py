"""Solved boards in results/sanjego/: values of both measures, an optimal game,
a table of positions, and provenance. Everything here is computed, never typed in.

Each value is solved twice: by the default engine, and again with other Zobrist
keys and no symmetry reduction, so a hash collision would have to strike twice
the same way to go unnoticed; a mismatch stops the recording.
"""

import contextlib
import json
import os
import shlex
import sys
import time

from ..checkpoint import atomic_write
from ..provenance import REPO, commit, machine
from . import warm
from .book import write_positions
from .engine import Engine
from .notation import format_game, format_move, format_moves, parse_move
from .position import Position, value_name

VERIFY_SEED = 0x2F6E1D55
DEFAULT_DIR = os.path.join(REPO, "results", "sanjego")


def positions_to_depth(start, depth):
    """Distinct positions (up to symmetry) within `depth` plies of start."""
    seen, layer, out = {start.canonical_key()}, [start], [start]
    for _ in range(depth):
        nxt = []
        for p in layer:
            for m in p.legal_moves():
                q = p.play(m)
                k = q.canonical_key()
                if k not in seen:
                    seen.add(k)
                    nxt.append(q)
        out += nxt
        layer = nxt
    return out


def line_positions(start, line, value):
    """(position, value, value) after each move of an optimal line."""
    entries, p = [], start
    for m in line:
        p = p.play(m)
        entries.append((p, value, value))
    return entries


def final_score(position):
    return f"{position.tallest(0)}-{position.tallest(1)}"


def record_measure(board, measure, table_depth, table_mb, out_dir, log=print, progress=None):
    """One measure's record. progress(engine, label): a context manager that shows that
    engine's search while it is open (cli.NodeProgress), or None for none: a solve, its
    verification or the table can each take an hour on the bigger boards."""
    watch = progress or (lambda engine, label: contextlib.nullcontext())
    start = Position.start(board)
    engine = Engine(board, measure, table_mb=table_mb)
    t0 = time.perf_counter()
    with watch(engine, f"{board} {measure}: solving"):
        value = engine.value(start)
    wall, nodes = time.perf_counter() - t0, engine.nodes
    log(f"{board} {measure}: {value} ({nodes} nodes, {wall:.1f} s); verifying")
    check = Engine(board, measure, table_mb=table_mb, seed=VERIFY_SEED, symmetry=False)
    t1 = time.perf_counter()
    with watch(check, f"{board} {measure}: verifying (other keys, no symmetry)"):
        verified = check.value(start)
    verify = {"seed": VERIFY_SEED, "symmetry": False, "nodes": check.nodes,
              "wall_seconds": round(time.perf_counter() - t1, 3)}
    if verified != value:
        raise RuntimeError(f"{board} {measure}: second run gives {verified}, first {value}")
    del check
    log(f"{board} {measure}: verified ({verify['nodes']} nodes, {verify['wall_seconds']:.1f} s); the line")
    with watch(engine, f"{board} {measure}: the line"):
        line, final = engine.line(start, value)
    table = []
    positions = positions_to_depth(start, table_depth)
    for i, p in enumerate(positions):
        with watch(engine, f"{board} {measure}: table position {i + 1} of {len(positions)}"):
            v = engine.value(p)
        table.append((p, v, v))
    table += line_positions(start, line, value)
    name = f"{board}-{measure}.sjt"
    count = write_positions(os.path.join(out_dir, name), board, measure, table,
                            provenance={"commit": commit(), "date": time.strftime("%Y-%m-%d")})
    log(f"{board} {measure}: line and {count} table positions written")
    return {
        "value": value_name(value, measure),
        "game": format_game(board, line),
        "final": final_score(final),
        "table": name, "table_positions": count, "table_depth": table_depth,
        "nodes": nodes, "wall_seconds": round(wall, 3),
        "verify": verify,
    }


def principal_line(proof):
    """Moves from the root of a finished parallel proof along children whose proven
    bounds pin them to the root value, down to the frontier; returns (moves, position)."""
    memo = proof.intervals()
    value = memo[proof.root.key][0]
    node, moves = proof.root, []
    while node.children:
        position = node.position
        for move in position.legal_moves():
            child = position.play(move)
            key = child.canonical_key()
            if memo.get(key) == (value, value):
                moves.append(move)
                node = next(c for c in node.children if c.key == key)
                break
        else:
            break
    # The node may be reached through a symmetric image: replay the moves from the root.
    position = proof.root.position
    for m in moves:
        position = position.play(m)
    return moves, position


def record_from_run(board, run_dir, table_mb, out_dir, log=print):
    """Record of a board solved by a finished `solve --run DIR` proof."""
    from ..checkpoint import RunDir
    from .parallel import ParallelProof
    run = RunDir(run_dir)
    manifest = run.open({"game": "sanjego", "board": str(board), "moves": ""})
    result = run.read_result()
    if result is None:
        raise RuntimeError(f"{run_dir}: the run has not finished; resume it first")
    measure = manifest["measure"]
    engine = Engine(board, measure, table_mb=table_mb, seed=manifest.get("seed"))  # a run keeps its keys
    proof = ParallelProof(engine, Position.start(board), [], manifest["depth"], run_dir=run_dir, resume=True)
    value = result["value"]
    if proof.intervals()[proof.root.key] != (value, value):
        raise RuntimeError(f"{run_dir}: journal and result.json disagree")
    reused = _earlier_line(out_dir, board, measure, run_dir, manifest, result)
    if reused is not None:
        log(f"{board} {measure}: {value} from {run_dir}; line and table kept from the earlier record of this run")
        warm.remove(os.path.join(run_dir, warm.FILE_NAME))  # kept by the run for the line, which is done
        reused["verify"] = run_verification(proof, run_dir)
        return measure, reused
    head, position = principal_line(proof)
    log(f"{board} {measure}: {value} from {run_dir}; completing the line after {len(head)} plies")
    warm_entries = 0

    def load_warm():  # the run's last table, where this machine has it (same keys: the run's seed)
        nonlocal warm_entries
        warm_entries = warm.start_session(run_dir, engine.core, lambda: proof.warm_identity(engine.core, engine.seed),
                                          log)

    with run.claimed():  # one line search at a time
        tail, final, line_nodes, line_seconds = complete_line(engine, run_dir, manifest, head, position, value,
                                                              load_warm, log)
    line = head + tail
    table = line_positions(Position.start(board), line, value) + proof.frontier_entries()
    name = f"{board}-{measure}.sjt"
    count = write_positions(os.path.join(out_dir, name), board, measure, table,
                            provenance={"commit": commit(), "date": time.strftime("%Y-%m-%d"), "run": run_dir})
    warm.remove(os.path.join(run_dir, warm.FILE_NAME))  # its last use
    return measure, {
        "value": value_name(value, measure),
        "game": format_game(board, line),
        "final": final_score(final),
        "table": name, "table_positions": count, "table_depth": manifest["depth"],
        "nodes": result["nodes"] + line_nodes, "cpu_seconds": result["cpu_seconds"],
        "wall_seconds": result.get("wall_seconds"),
        "line_seconds": round(line_seconds, 3), "line_warm_entries": warm_entries,
        "run": {"dir": os.path.relpath(run_dir, REPO), "subproofs": result["subproofs"],
                "depth": manifest["depth"], "created": manifest.get("created"),
                "code_version": manifest.get("code_version")},
        "verify": run_verification(proof, run_dir),
    }


LINE_LOG = "line.log"


def _line_identity(engine, manifest, head, value):
    """What DIR/line.log must have been made for: this very run (its creation, keys, measure,
    depth) and this line's frontier position and value."""
    return {"board": str(engine.board), "measure": manifest["measure"], "depth": manifest["depth"],
            "created": manifest.get("created"), "seed": manifest.get("seed"),
            "head": format_moves(engine.board, head), "value": value}


def complete_line(engine, run_dir, manifest, head, position, value, before_search=None, log=print):
    """An optimal game's tail from the frontier position after `head` (the run's principal
    line), whose value the run proved: (moves, final position, nodes, seconds), over all
    sessions. On a big board this is hours of search on one core, so each step is journaled
    in DIR/line.log (the frontier position's value checked again, then every move found; the
    nodes of a step stopped midway too) and a stopped completion resumes after the last move
    found. A log made for another run or line is set aside as line.log.old, not followed.
    before_search() runs once, before the first search (if one is needed)."""
    from ..checkpoint import Journal
    path = os.path.join(run_dir, LINE_LOG)
    journal = Journal(path)
    records = journal.read()
    ident = _line_identity(engine, manifest, head, value)
    if records and {key: records[0].get(key) for key in ident} != ident:
        os.replace(path, path + ".old")
        log(f"{path} was made for another run or line; set aside as {LINE_LOG}.old, the line starts over")
        records = []
    try:
        nodes = sum(r["nodes"] for r in records)
        seconds = sum(r["seconds"] for r in records)
        tail = [parse_move(engine.board, r["move"]) for r in records[1:] if "move" in r]
        for move in tail:
            position = position.play(move)
    except (KeyError, TypeError, ValueError) as e:
        raise RuntimeError(f"{path} does not fit this run's line ({type(e).__name__}: {e}); "
                           f"move it away to start the line over") from None
    if tail:
        log(f"{engine.board}: the line resumes after {len(head) + len(tail)} plies ({path})")
    if records and position.is_over():
        return tail, position, nodes, seconds
    if before_search is not None:
        before_search()
    started = bool(records)  # (a value check stopped midway is not journaled: it is redone whole)
    n0, t0 = engine.nodes, time.perf_counter()

    def took():
        nonlocal n0, t0
        n, t = engine.nodes - n0, time.perf_counter() - t0
        n0, t0 = engine.nodes, time.perf_counter()
        return n, t

    try:
        if not records:
            if engine.value(position) != value:
                raise RuntimeError(f"{engine.board}: the line's frontier position does not keep the value")
            n, t = took()
            journal.append(dict(ident, commit=commit(), nodes=n, seconds=round(t, 3)))
            nodes, seconds, started = nodes + n, seconds + round(t, 3), True
        for move in engine.line_moves(position, value):
            n, t = took()
            journal.append({"move": format_move(engine.board, move), "nodes": n, "seconds": round(t, 3)})
            nodes, seconds = nodes + n, seconds + round(t, 3)
            tail.append(move)
            position = position.play(move)
            log(f"{engine.board}: ply {len(head) + len(tail)}: {format_move(engine.board, move)} "
                f"({n:,} nodes, {t:.1f} s)")
    except KeyboardInterrupt:
        if started:
            n, t = took()
            journal.append({"interrupted": n, "nodes": n, "seconds": round(t, 3)})
        raise
    except ValueError as e:
        raise RuntimeError(f"{engine.board}: after {format_moves(engine.board, head + tail)}, {e} "
                           f"(moves from {path} included)") from None
    if position.score(engine.measure) != value:
        raise RuntimeError(f"{engine.board}: the line ends {final_score(position)}, not at the value {value} "
                           f"(moves from {path} included)")
    return tail, position, nodes, seconds


def _earlier_line(out_dir, board, measure, run_dir, manifest, result):
    """The earlier record of this measure when it came from this very run, finished as it
    is now (same creation, value and sub-proofs), and its table file is the one written
    with it (its header names the run, its size is the record's): that line and table
    stand, so a re-record only has to take in the verification. Returns the record with
    "line_from" (the commit and date in the table's header, which computed the line);
    None when anything differs, and then the line is computed again."""
    from ..table import TableError
    from .book import open_table
    old = read_record(os.path.join(out_dir, f"{board}.json")) or {}
    entry = old.get(measure)
    if not isinstance(entry, dict) or not isinstance(entry.get("run"), dict) or not entry.get("table"):
        return None
    run = entry["run"]
    if (run.get("dir") != os.path.relpath(run_dir, REPO) or run.get("created") != manifest.get("created")
            or entry.get("value") != value_name(result["value"], measure)
            or run.get("subproofs") != result["subproofs"]):
        return None
    try:
        with open_table(os.path.join(out_dir, entry["table"])) as table:
            written, count = table.table.header.get("provenance") or {}, len(table)
    except (TableError, OSError, ValueError):
        return None
    same_run = written.get("run") and os.path.relpath(written["run"], REPO) == os.path.relpath(run_dir, REPO)
    if not same_run or count != entry.get("table_positions"):
        return None
    return dict(entry, line_from={"commit": written.get("commit"), "date": written.get("date")})


def run_verification(proof, run_dir):
    """What `sanjego verify DIR` checked of a finished run (its proof), or None when it has not."""
    from .verify import read_verification
    check = read_verification(proof, run_dir)
    if not check or not check.get("ok"):
        return None
    return _verification_summary(check)


def _verification_summary(check):
    """The part of a verification's result that a record keeps."""
    return {key: check[key] for key in ("seed", "symmetry", "method", "questions", "nodes",
                                        "cpu_seconds", "wall_seconds")}


def record_bound(board, run_dir, out_dir=DEFAULT_DIR):
    """Writes results/sanjego/bounds/WxH-MEASURE.json for an unfinished `solve --run DIR` proof
    of the board whose lower bound "value >= K" `sanjego verify DIR --at-least K` has verified;
    returns the record. A bound is published only once it is verified."""
    from ..checkpoint import RunDir
    from .parallel import open_run
    from .verify import read_verification
    t0 = time.perf_counter()
    RunDir(run_dir).open({"game": "sanjego", "board": str(board), "moves": ""})
    proof, manifest = open_run(run_dir)
    if manifest.get("heads"):
        raise RuntimeError(f"{run_dir}: a run of the heads variant has no place in results/sanjego")
    check = read_verification(proof, run_dir, bound=True)
    if not check or "at_least" not in check:
        raise RuntimeError(f"{run_dir}: the run has not finished, and no bound of it is verified "
                           f"(`sanjego verify {run_dir} --at-least K` first)")
    k, measure = check["at_least"], manifest["measure"]
    memo = proof.intervals()
    summary = proof.summary()
    record = {
        "game": "sanjego", "board": str(board), "measure": measure,
        "at_least": value_name(k, measure),
        "bounds": summary["bounds"],
        "first_moves": [format_moves(board, [m]) for m, c in zip(proof.root.moves, proof.root.children)
                        if memo[c.key][0] >= k],
        "run": {"dir": os.path.relpath(run_dir, REPO), "subproofs": summary["subproofs"],
                "depth": manifest["depth"], "created": manifest.get("created"),
                "code_version": manifest.get("code_version"), "nodes": summary["nodes"],
                "cpu_seconds": summary["cpu_seconds"], "wall_seconds": summary["wall_seconds"]},
        "verify": _verification_summary(check),
        "provenance": {
            "command": "python -m solver " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "record_bound()",
            "commit": commit(), "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
            "wall_seconds": round(time.perf_counter() - t0, 3), **machine()},
    }
    directory = os.path.join(out_dir, "bounds")
    os.makedirs(directory, exist_ok=True)
    atomic_write(os.path.join(directory, f"{board}-{measure}.json"), (json.dumps(record, indent=2) + "\n").encode())
    write_readme(out_dir)
    return record


def record_board(board, measures, table_depth, table_mb, out_dir=DEFAULT_DIR, log=print, from_run=None,
                 progress=None):
    """Solves, verifies and writes results/sanjego/WxH.json (+ tables); returns the record.

    With from_run, the value comes from a finished parallel proof instead; its "verify" is
    what `sanjego verify DIR` re-checked of that proof, null until it has. An unfinished one
    with a verified bound gets a bound record instead (record_bound)."""
    os.makedirs(out_dir, exist_ok=True)
    commit()  # the code that runs is the code of now
    if from_run:
        from ..checkpoint import RunDir
        if RunDir(from_run).exists() and RunDir(from_run).read_result() is None:
            return record_bound(board, from_run, out_dir)
    t0 = time.perf_counter()
    record = {"game": "sanjego", "board": str(board)}
    if from_run:
        measure, record[measure] = record_from_run(board, from_run, table_mb, out_dir, log)
        measures = (measure,)
    for measure in measures if not from_run else ():
        record[measure] = record_measure(board, measure, table_depth, table_mb, out_dir, log, progress)
    record["provenance"] = {
        "command": "python -m solver " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "record_board()",
        "commit": commit(), "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "wall_seconds": round(time.perf_counter() - t0, 3), "table_mb": table_mb, **machine(),
    }
    path = os.path.join(out_dir, f"{board}.json")
    old = read_record(path)
    for measure in ("margin", "outcome"):
        if measure not in record and old and measure in old:
            record[measure] = old[measure]
    derived = outcome_from_margin(record.get("margin"))
    if derived and ("outcome" not in record or "from_margin" in record["outcome"]):
        record["outcome"] = derived
    atomic_write(path, (json.dumps(record, indent=2) + "\n").encode())
    write_readme(out_dir)
    return record


def outcome_from_margin(margin):
    """The rules outcome that a margin record decides, or None. A big win is a taller
    highest tower, a margin of at least 1: so with the margin +v (v >= 1) the first player
    can force a big win, the best outcome there is, and with -v the second player can. The
    margin's optimal game ends so and is optimal for the outcome too. A margin of 0 decides
    nothing (the outcome is then searched within [-1, 1])."""
    value = (margin or {}).get("value")
    if not value:
        return None
    return {"value": value_name(2 if value > 0 else -2, "outcome"), "from_margin": value,
            "game": margin["game"], "final": margin["final"], "verify": margin.get("verify")}


def read_record(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def all_records(out_dir=DEFAULT_DIR):
    records = []
    for name in os.listdir(out_dir) if os.path.isdir(out_dir) else []:
        if name.endswith(".json"):
            records.append(read_record(os.path.join(out_dir, name)))
    return sorted(records, key=lambda r: (len(r["board"]), r["board"]))


def _board_measure_records(directory):
    names = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    records = [read_record(os.path.join(directory, n)) for n in names if n.endswith(".json")]
    return sorted(records, key=lambda r: (len(r["board"]), r["board"], r["measure"]))


def bound_records(out_dir=DEFAULT_DIR):
    return _board_measure_records(os.path.join(out_dir, "bounds"))


def heads_records(out_dir=DEFAULT_DIR):
    return _board_measure_records(os.path.join(out_dir, "heads"))


def _table_section(title, intro, columns, rows):
    """Lines of a README section: a title, intro lines, and a Markdown table."""
    return (["", f"## {title}", ""] + intro + ["", "| " + " | ".join(columns) + " |",
                                              "| " + " | ".join("---" for _ in columns) + " |"]
            + ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows])


def _shown(value, measure):
    if measure == "outcome":
        return value_name(value, measure)
    return f"{value:+d}" if value else "0"


def write_readme(out_dir=DEFAULT_DIR):
    """results/README.md: one row per solved board, generated from the JSON records."""
    rows = ["# Results", "",
            "Generated by `python -m solver sanjego record` from the files in `sanjego/`; do not edit.",
            "Values are the first player's, with both sides playing perfectly; margin = first",
            "player's tallest tower minus the second's. Each value was solved twice (default",
            "engine, then other Zobrist keys without symmetry reduction) and both agreed; a",
            "board solved by a checkpointed run (`run` in its JSON) was checked instead by",
            "`sanjego verify`, which asks every question of the run's proof tree again with other",
            "keys (`verify` in its JSON, null until that is done). An outcome \"by the margin\"",
            "was not searched: a margin of +v or -v (v >= 1) means a big win for that player.", "",
            "## San Jego", "",
            "| board | margin | outcome | optimal game (margin) | final | nodes | wall s | cores | commit | date |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in all_records(out_dir):
        m, o, prov = r.get("margin", {}), r.get("outcome", {}), r["provenance"]
        value = m.get("value")
        game = " ".join(m.get("game", "").split("\n"))
        margin = "" if value is None else f"{value:+d}" if value else "0"
        outcome = o.get("value", "") + (" (by the margin)" if "from_margin" in o else "")
        rows.append(f"| {r['board']} | {margin} | {outcome} "
                    f"| {game} | {m.get('final', '')} | {m.get('nodes', '')} "
                    f"| {m.get('wall_seconds', '')} | {prov['cores']} | {prov['commit']} "
                    f"| {prov['date'][:10]} |")
    bounds = bound_records(out_dir)
    if bounds:
        rows += _table_section(
            "San Jego, bounds proven by runs not yet finished",
            ["Written by `python -m solver sanjego record WxH --from-run DIR` for a checkpointed run",
             "that has not found the value yet, once `sanjego verify DIR --at-least K` has asked every",
             "question of the run's proof of \"value >= K\" again with other keys and all agreed."],
            ["board", "measure", "value at least", "first moves that hold it", "run nodes", "run CPU hours",
             "verify questions", "verify nodes", "cores", "commit", "date"],
            [[r["board"], r["measure"],
              r["at_least"] if isinstance(r["at_least"], str) else _shown(r["at_least"], r["measure"]),
              ", ".join(r["first_moves"]), r["run"]["nodes"], f"{r['run']['cpu_seconds'] / 3600:.2f}",
              r["verify"]["questions"], r["verify"]["nodes"], r["provenance"]["cores"], r["provenance"]["commit"],
              r["provenance"]["date"][:10]] for r in bounds])
    heads = heads_records(out_dir)
    if heads:
        rows += _table_section(
            "San Jego, heads variant",
            ["Written by `python -m solver sanjego heads BOARD --record`: the value of every choice of",
             "head cells (docs/sanjego-variants.md); the first player places his head first, the",
             "second answers. Values are the first player's; every pair was solved twice (other",
             "Zobrist keys, no symmetry reduction the second time) and both agreed."],
            ["board", "measure", "value", "first's head, second's answer", "second places first",
             "without heads", "pairs (distinct)", "nodes", "wall s", "cores", "commit", "date"],
            [[r["board"], r["measure"], _shown(r["value"], r["measure"]),
              f"{r['first_places_first']['first_head']}, {r['first_places_first']['second_head']}",
              _shown(r["second_places_first"]["value"], r["measure"]), _shown(r["plain_value"], r["measure"]),
              f"{r['pairs']} ({r['distinct_pairs']})", r["nodes"], r["seconds"], r["provenance"]["cores"],
              r["provenance"]["commit"], r["provenance"]["date"][:10]] for r in heads])
    rows += ["", "Each `sanjego/WxH.json` holds both measures, the game, the command that made it and",
             "the machine; `sanjego/WxH-MEASURE.sjt` is a table of exact values for every position",
             "within `table_depth` plies of the start and along the game, read by",
             "`python -m solver sanjego query`."]
    atomic_write(os.path.join(os.path.dirname(out_dir), "README.md"), ("\n".join(rows) + "\n").encode())
