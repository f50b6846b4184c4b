"""Move-order hints: a verification that takes its move order from the run's table (keyed with
the run's keys) while its answers come from its own keys and table alone."""

import json
import os
import random

import pytest

from solver._sanjego import Core
from solver.sanjego import Board, Position, warm
from solver.sanjego.engine import Engine
from solver.sanjego.parallel import ParallelProof, open_run
from solver.sanjego.verify import Verification


def core_for(board, seed, table_mb=16, measure="margin"):
    return Core(measure=measure, table_bytes=table_mb << 20, seed=seed, **dict(board.core_geometry()))


def hints_from(core):
    """A core with the keys of `core` holding its table's entries of at least 256 nodes."""
    hints = Core(measure="margin", table_bytes=4 << 20, seed=SEED_RUN, **GEOMETRY)
    hints.table_import(core.table_export(4), core.table_buckets, core.near_part)
    return hints


SEED_RUN, SEED_CHECK = 11, 22
BOARD = Board.parse("5x4")
GEOMETRY = dict(BOARD.core_geometry())


def positions(board, count, plies, seed=1):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        p = Position.start(board)
        for _ in range(plies):
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))
        found.append(p)
    return found


def test_hints_change_no_value_good_or_bad():
    run = core_for(BOARD, SEED_RUN)
    for p in positions(BOARD, 6, 4):
        run.solve(*p.core_args)
    good = hints_from(run)
    # Hints of another board position entirely: moves that mostly do not fit.
    other = core_for(BOARD, SEED_RUN)
    for p in positions(BOARD, 3, 9, seed=7):
        other.solve(*p.core_args)
    bad = hints_from(other)
    for p in positions(BOARD, 12, 4) + positions(BOARD, 6, 2, seed=3):
        plain = core_for(BOARD, SEED_CHECK).solve(*p.core_args)
        for hints in (good, bad):
            checked = core_for(BOARD, SEED_CHECK)
            checked.set_order_hints(hints, 0)
            assert checked.solve(*p.core_args) == plain


def test_hints_from_the_same_question_cut_the_nodes():
    start = Position.start(BOARD)
    run = core_for(BOARD, SEED_RUN)
    assert run.search(*start.core_args, 1, 2) >= 2
    plain = core_for(BOARD, SEED_CHECK)
    hinted = core_for(BOARD, SEED_CHECK)
    hinted.set_order_hints(hints_from(run), 10)
    assert plain.search(*start.core_args, 1, 2) >= 2 and hinted.search(*start.core_args, 1, 2) >= 2
    assert hinted.stats["hint_hits"] > 0 and plain.stats["hint_hits"] == 0
    assert hinted.nodes < plain.nodes
    # Off again: the same search as without.
    again = core_for(BOARD, SEED_CHECK)
    again.set_order_hints(hints_from(run), 10)
    again.set_order_hints(None)
    again.search(*start.core_args, 1, 2)
    assert again.nodes == plain.nodes


def test_hints_need_the_same_rules():
    core = core_for(BOARD, SEED_CHECK)
    for other in (core, core_for(Board.parse("4x4"), SEED_RUN), core_for(BOARD, SEED_RUN, measure="outcome")):
        with pytest.raises(ValueError, match="same rules"):
            core.set_order_hints(other)


class Notes:
    def __init__(self):
        self.notes = []

    def __call__(self, *args):
        pass

    def note(self, text):
        self.notes.append(text)


def settled_run(tmp_path, board="5x4"):
    run = tmp_path / "run"
    notes = Notes()
    board = Board.parse(board)
    proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, workers=1,
                          progress=notes, table_mb=16)
    value = proof.solve()
    return run, proof, value, notes


def test_a_run_saves_hints_for_each_move_it_settles_at_the_root(tmp_path):
    run, proof, value, notes = settled_run(tmp_path)
    assert value == 2
    files = sorted(os.listdir(run / warm.HINTS_DIR))
    children = {c.key.hex() for c in proof.root.children}
    assert files and {f.removesuffix(".warm") for f in files} <= children
    assert not any(n.startswith("move-order hints") for n in notes.notes)  # quiet unless a save fails
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)], capture_output=True,
                       text=True)
    assert r.returncode == 0 and f"move-order hints for `verify` (local, like the warm table): {len(files)} file(s)" \
        in r.stdout, r.stdout
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), "--json"],
                       capture_output=True, text=True)
    assert json.loads(r.stdout)["order_hints"]["files"] == len(files)
    before = {f: (run / warm.HINTS_DIR / f).stat().st_mtime_ns for f in files}
    # Resumed, the finished run settles nothing new and leaves the files as they were.
    again = ParallelProof(Engine(proof.board, table_mb=1), proof.root.position, [], 2, run_dir=run,
                          resume=True, workers=1, progress=Notes(), table_mb=16)
    assert again.solve() == 2
    assert {f: (run / warm.HINTS_DIR / f).stat().st_mtime_ns for f in files} == before


def journal(path):
    return [json.loads(line.split(" ", 1)[1]) for line in open(path)]


def test_a_verification_takes_its_move_order_from_the_hints_and_agrees(tmp_path):
    run, proof, value, _ = settled_run(tmp_path)
    result = Verification(open_run(run)[0], run, workers=1, table_mb=16).verify()
    answers = [r for r in journal(run / "verify" / "journal.log") if "key" in r]
    assert result["ok"] and result["value"] == 2
    hinted = [r for r in answers if "order_hints" in r]
    assert hinted and all((run / warm.HINTS_DIR / r["order_hints"]).exists() for r in hinted)
    # Without them: the same answers, no hints named.
    plain = Verification(open_run(run)[0], run, workers=1, table_mb=16, out_dir=tmp_path / "plain",
                         order_hints=False).verify()
    assert plain["ok"] and plain["questions"] == result["questions"]
    assert not any("order_hints" in r for r in journal(tmp_path / "plain" / "journal.log"))


def test_a_damaged_hints_file_only_costs_time(tmp_path):
    run, proof, value, _ = settled_run(tmp_path)
    for f in os.listdir(run / warm.HINTS_DIR):
        path = run / warm.HINTS_DIR / f
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    notes = Notes()
    result = Verification(open_run(run)[0], run, workers=1, table_mb=16, progress=notes).verify()
    assert result["ok"] and result["value"] == 2
    assert not any("order_hints" in r for r in journal(run / "verify" / "journal.log"))
    assert [n for n in notes.notes if n.startswith("move-order hints not used:")] \
        and all("damaged" in n or "checksum" in n for n in notes.notes if n.startswith("move-order hints not used"))


def bench(*args):
    import pathlib
    import subprocess
    import sys
    path = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "bench_hints.py"
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=300)


def test_bench_hints_verifies_a_run_both_ways():
    r = bench("--board", "5x4", "--table-mb", "16")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# python ") and "one worker" in r.stdout
    rows = {line[:23].strip(): line[23:].split() for line in r.stdout.splitlines()[3:]}
    assert list(rows) == ["run", "verify, no hints", "verify, order hints"]
    assert {row[0] for row in rows.values()} == {"+2"}
    assert rows["verify, no hints"][1] == rows["verify, order hints"][1]  # the same questions
    assert int(rows["verify, order hints"][2]) < int(rows["verify, no hints"][2])


@pytest.mark.parametrize("args", [["--board", "banana"], ["--depth", "0"], ["--table-mb", "-5"]])
def test_bench_hints_bad_input_exits_2_with_one_line(args):
    r = bench(*args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_hints_file_that_cannot_be_saved_is_one_note(tmp_path, monkeypatch):
    def refuse(*args):
        raise OSError("disk full")
    monkeypatch.setattr(warm, "save", refuse)
    run, proof, value, notes = settled_run(tmp_path)
    assert value == 2
    assert not (run / warm.HINTS_DIR).exists() or not os.listdir(run / warm.HINTS_DIR)
    failed = [n for n in notes.notes if n.startswith("move-order hints for")]
    assert failed and all(n.endswith("not saved: disk full") for n in failed)


def test_a_pool_loads_a_hints_file_once_for_all_its_workers(tmp_path, monkeypatch):
    from solver.sanjego import parallel
    run, proof, value, _ = settled_run(tmp_path)
    check = Verification(open_run(run)[0], run, workers=2, table_mb=16)
    loads = []

    def counted(*args):
        loads.append(args[0])
        return hint_core(*args)
    hint_core = parallel.hint_core
    monkeypatch.setattr(parallel, "hint_core", counted)
    pool = parallel.LocalPool(2, check.config)
    used = 0
    try:
        for leaf, k, expected in check.questions:
            order = check._order_hints(leaf)
            used += order is not None
            v = pool.submit(check.config, *leaf.position.core_args, k, None, [], order_hints=order).result()[0]
            assert (v >= k) == expected
            assert len(pool.hint_cores) <= 2
    finally:
        pool.close()
    assert used > 0 and 0 < len(loads) < used and not pool.hint_errors
