"""Move-order hints: a verification that takes its move order from the run's (the best moves
of the costliest positions of each sub-proof the run answered) while its answers come from
its own keys and table alone."""

import json
import random

import pytest

from solver._sanjego import Core
from solver.sanjego import Board, Position, order_hints, subtrees
from solver.sanjego.engine import Engine
from solver.sanjego.notation import replay
from solver.sanjego.parallel import LocalPool, ParallelProof, open_run
from solver.sanjego.verify import Verification


def core_for(board, seed, table_mb=16, measure="margin"):
    return Core(measure=measure, table_bytes=table_mb << 20, seed=seed, **dict(board.core_geometry()))


def hints_from(core):
    """A core with the keys of `core` holding its table's entries of at least 256 nodes
    (the C interface: another core's table, keyed afresh)."""
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


def booked(board, p, k, seed=SEED_RUN):
    """The book entries (at least 4^4 nodes) of a search of p's question ">= k"."""
    core = core_for(board, seed)
    core.book_start(4, 1 << 16)
    core.search(*p.core_args, k - 1, k)
    return core.book_take()


def hint_table(entries, seed):
    hints = core_for(BOARD, seed, table_mb=4)
    assert hints.book_put(entries, moves=True) == len(entries) // Core.BOOK_ENTRY_BYTES
    return hints


def table_moves(core):
    """{(slot, key): (from, to)} of the core's table entries."""
    import numpy as np
    rows = np.frombuffer(core.table_export(0), dtype="<u8").reshape(-1, 3)
    return {(int(slot), int(check ^ data)): (int(data >> 32 & 0xFF), int(data >> 40 & 0xFF))
            for slot, check, data in rows}


BOARD_6X4 = Board.parse("6x4")


def searched_6x4(min_work):
    """A core that searched 6x4 after E3-D3, ">= 2", with its book entries of at least 4^min_work nodes."""
    p = replay(BOARD_6X4, "e3-d3")[0]
    searched = core_for(BOARD_6X4, SEED_RUN, table_mb=64)
    searched.book_start(min_work, 1 << 16)
    searched.search(*p.core_args, 1, 2)
    return searched, searched.book_take()


def test_book_entries_carry_the_best_move_into_another_table():
    searched, entries = searched_6x4(4)
    size = Core.BOOK_ENTRY_BYTES
    moves = [entries[i + subtrees.MOVE_AT:i + size] for i in range(0, len(entries), size)]
    assert len(moves) > 1000 and sum(m != subtrees.NO_MOVE for m in moves) > len(moves) // 2
    # Put into a table of the same keys and size, each entry names the move the search's own
    # entry stored (both tables hold the positions at the same slots); without `moves`, none.
    original = table_moves(searched)
    for with_moves in (True, False):
        put = core_for(BOARD_6X4, SEED_RUN, table_mb=64)
        assert put.book_put(entries, moves=with_moves) == len(moves)
        common = [(original[slot_key], move) for slot_key, move in table_moves(put).items() if slot_key in original]
        assert len(common) > len(moves) // 4
        if with_moves:
            assert all(mine == theirs for mine, theirs in common)
            assert sum(move != (0, 0) for _, move in common) > len(common) // 2
        else:
            assert all(move == (0, 0) for _, move in common)


def test_a_move_that_is_not_the_positions_is_not_stored():
    entry = bytearray(searched_6x4(8)[1][:Core.BOOK_ENTRY_BYTES])
    occ = int.from_bytes(entry[:8], "little")
    empty = next(c for c in range(24) if not occ >> c & 1)
    for bad in ((24, 0), (0, 24), (empty, empty ^ 1), (0xFF, 1), (3, 3)):  # off the board, ..., a bad tempo move
        entry[subtrees.MOVE_AT:] = bytes(bad)
        put = core_for(BOARD_6X4, SEED_RUN, table_mb=64)
        assert put.book_put(bytes(entry), moves=True) == 1
        assert set(table_moves(put).values()) == {(0, 0)}, bad


def test_select_keeps_the_costliest_that_name_a_move():
    size = Core.BOOK_ENTRY_BYTES

    def entry(first, work, move):
        return bytes([first]) + bytes(subtrees.BOUNDS_AT - 1) + bytes([0, 0, work]) + move

    earlier = entry(1, 12, bytes([3, 4])) + entry(2, 13, subtrees.NO_MOVE)  # a stopped session's
    now = entry(3, 9, bytes([5, 6])) + entry(1, 10, bytes([7, 8]))
    assert order_hints.select(earlier + now, size) == entry(1, 12, bytes([3, 4])) + entry(3, 9, bytes([5, 6]))


def test_hints_with_the_verifications_own_keys_reuse_its_key_and_find_the_same_moves():
    start = Position.start(BOARD)
    entries = booked(BOARD, start, 2)
    results = {}
    for seed in (SEED_RUN, SEED_CHECK):  # keyed afresh, and with the checking core's own keys
        checked = core_for(BOARD, SEED_CHECK)
        checked.set_order_hints(hint_table(entries, seed), 10)
        assert checked.stats["hints_same_keys"] == (seed == SEED_CHECK)
        v = checked.search(*start.core_args, 1, 2)
        results[seed] = (v >= 2, checked.nodes, checked.stats["hint_hits"])
    plain = core_for(BOARD, SEED_CHECK)
    plain.search(*start.core_args, 1, 2)
    assert results[SEED_RUN] == results[SEED_CHECK]
    assert results[SEED_CHECK][2] > 0 and results[SEED_CHECK][1] < plain.nodes


def test_for_question_takes_the_same_question_else_the_nearest():
    hints = {b"a": {1: b"one", 3: b"three"}}
    assert order_hints.for_question(hints, b"a", 3) == b"three"
    assert order_hints.for_question(hints, b"a", 2) == b"one"  # (a tie: the lower)
    assert order_hints.for_question(hints, b"a", 9) == b"three"
    assert order_hints.for_question(hints, b"b", 1) is None


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


def journal(path):
    return [json.loads(line.split(" ", 1)[1]) for line in open(path)]


def test_a_run_keeps_the_hints_of_each_sub_proof_it_answers(tmp_path):
    run, proof, value, notes = settled_run(tmp_path)
    assert value == 2
    answers = {(r["key"], r["k"]) for r in journal(run / "journal.log") if "key" in r and "lo" in r}
    records = journal(run / order_hints.FILE_NAME)
    assert records and {(r["key"], r["k"]) for r in records} <= answers
    hints = order_hints.load(run, Core.BOOK_ENTRY_BYTES)
    assert sum(len(q) for q in hints.values()) == len(records)
    assert all(0 < len(e) <= order_hints.PER_SUBPROOF * Core.BOOK_ENTRY_BYTES for q in hints.values() for e in q.values())
    assert not any(n.startswith("move-order hints") for n in notes.notes)  # quiet unless a save fails
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)], capture_output=True,
                       text=True)
    positions = sum(r["entries"] for r in records)
    assert r.returncode == 0 and (f"move-order hints for `verify` (commit them with the journal): {positions:,} "
                                  f"positions of {len(records)} answered sub-proof(s)") in r.stdout, r.stdout
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), "--json"],
                       capture_output=True, text=True)
    assert json.loads(r.stdout)["order_hints"] == {"subproofs": len(records), "positions": positions,
                                                  "bytes": (run / order_hints.FILE_NAME).stat().st_size}
    before = (run / order_hints.FILE_NAME).read_bytes()
    # Resumed, the finished run answers nothing new and leaves the file as it was.
    again = ParallelProof(Engine(proof.board, table_mb=1), proof.root.position, [], 2, run_dir=run,
                          resume=True, workers=1, progress=Notes(), table_mb=16)
    assert again.solve() == 2
    assert (run / order_hints.FILE_NAME).read_bytes() == before


def first_leaf_answered(tmp_path):
    """(proof, its first leaf, the core that answered its ">= 1" with a book, the answer)
    for a 5x4 run in tmp_path / "run"."""
    from solver.sanjego.parallel import prove
    board = Board.parse("5x4")
    proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=tmp_path / "run",
                          workers=1, table_mb=16)
    leaf = proof.leaves[0]
    core = core_for(board, SEED_RUN)
    core.book_start(4, 1 << 16)
    return proof, leaf, core, prove(None, *leaf.position.core_args, 1, core=core)


def test_an_answer_keeps_the_hints_of_its_searches_stopped_in_earlier_sessions(tmp_path):
    proof, leaf, core, result = first_leaf_answered(tmp_path)
    entries = order_hints.select(core.book_take(), Core.BOOK_ENTRY_BYTES)
    size = Core.BOOK_ENTRY_BYTES
    earlier, now = entries[:2 * size], entries[2 * size:]  # the costliest two: a search stopped before

    class Pool:
        answered_subtrees = {(leaf.key, 1): now}
    proof._take(Pool, (leaf.key, 1), result, {(leaf.key, 1): earlier})
    assert order_hints.load(tmp_path / "run", size) == {leaf.key: {1: entries}}


def test_an_answers_hints_are_saved_before_its_journal_line(tmp_path):
    """A kill between the two appends leaves hints of a question asked again, never an
    answer whose hints are lost."""
    proof, leaf, core, result = first_leaf_answered(tmp_path)

    entries = core.book_take()

    class Pool:
        answered_subtrees = {(leaf.key, 1): entries}

    class Killed(Exception):
        pass

    def killed(*args):
        raise Killed
    proof._finish = killed
    with pytest.raises(Killed):
        proof._take(Pool, (leaf.key, 1), result, {})
    assert list(order_hints.load(tmp_path / "run", Core.BOOK_ENTRY_BYTES)) == [leaf.key]
    log = tmp_path / "run" / "journal.log"
    assert not log.exists() or not any(r.get("key") == leaf.key.hex() for r in journal(log))
    # Asked again, the question's later record is the one that counts.
    size = Core.BOOK_ENTRY_BYTES
    again = order_hints.select(entries, size)[:size]
    order_hints.append(tmp_path / "run", leaf.key, 1, again, size)
    assert order_hints.load(tmp_path / "run", size) == {leaf.key: {1: again}}
    assert order_hints.describe(tmp_path / "run") == {
        "subproofs": 1, "positions": 1, "bytes": (tmp_path / "run" / order_hints.FILE_NAME).stat().st_size}


def test_a_verification_takes_its_move_order_from_the_hints_and_agrees(tmp_path):
    run, proof, value, _ = settled_run(tmp_path)
    result = Verification(open_run(run)[0], run, workers=1, table_mb=16).verify()
    answers = [r for r in journal(run / "verify" / "journal.log") if "key" in r]
    assert result["ok"] and result["value"] == 2
    hinted = [r for r in answers if "order_hints" in r]
    assert hinted and all(0 < r["order_hints"] <= order_hints.PER_SUBPROOF for r in hinted)
    # Without them: the same answers, more nodes, no hints named.
    plain = Verification(open_run(run)[0], run, workers=1, table_mb=16, out_dir=tmp_path / "plain",
                         order_hints=False).verify()
    assert plain["ok"] and plain["questions"] == result["questions"] and plain["nodes"] > result["nodes"]
    assert not any("order_hints" in r for r in journal(tmp_path / "plain" / "journal.log"))


def test_a_damaged_hints_file_only_costs_time(tmp_path):
    run, proof, value, _ = settled_run(tmp_path)
    path = run / order_hints.FILE_NAME
    assert len(path.read_bytes().splitlines()) >= 3  # the byte changed is not in the last line
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x01
    path.write_bytes(bytes(data))
    notes = Notes()
    result = Verification(open_run(run)[0], run, workers=1, table_mb=16, progress=notes).verify()
    assert result["ok"] and result["value"] == 2
    assert not any("order_hints" in r for r in journal(run / "verify" / "journal.log"))
    used = [n for n in notes.notes if n.startswith("move-order hints not used:")]
    assert len(used) == 1 and "damaged" in used[0]
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "move-order hints for `verify`: not usable" in r.stdout


def test_a_hints_record_with_a_field_of_the_wrong_type_is_damage(tmp_path):
    from solver.checkpoint import Journal
    Journal(tmp_path / order_hints.FILE_NAME).append({"key": "01", "k": "2", "entry_bytes": Core.BOOK_ENTRY_BYTES,
                                                      "entries": 0, "book": ""})
    with pytest.raises(order_hints.OrderHintsError, match="damaged"):
        order_hints.load(tmp_path, Core.BOOK_ENTRY_BYTES)


def test_hints_that_cannot_be_put_in_place_are_one_note(tmp_path, monkeypatch):
    from solver.sanjego import parallel
    run, proof, value, _ = settled_run(tmp_path)
    new_core = parallel._new_core

    def no_small_tables(config):
        if config[2] == parallel.HINT_TABLE_BYTES:
            raise MemoryError("no memory")
        return new_core(config)
    monkeypatch.setattr(parallel, "_new_core", no_small_tables)
    notes = Notes()
    result = Verification(open_run(run)[0], run, workers=1, table_mb=16, progress=notes).verify()
    assert result["ok"] and result["value"] == 2
    assert not any("order_hints" in r for r in journal(run / "verify" / "journal.log"))
    assert [n for n in notes.notes if n.startswith("move-order hints")] == ["move-order hints not used: no memory"]


def test_hints_of_entries_of_another_size_are_refused(tmp_path):
    order_hints.append(tmp_path, b"\x01", 2, bytes(subtrees.LEGACY_ENTRY_BYTES), subtrees.LEGACY_ENTRY_BYTES)
    with pytest.raises(order_hints.OrderHintsError, match="entries of 98 bytes"):
        order_hints.load(tmp_path, Core.BOOK_ENTRY_BYTES)


def test_hints_that_cannot_be_saved_are_one_note(tmp_path, monkeypatch):
    def refuse(*args):
        raise OSError("disk full")
    monkeypatch.setattr(order_hints, "append", refuse)
    run, proof, value, notes = settled_run(tmp_path)
    assert value == 2 and proof.hints_unsaved > 1
    assert not (run / order_hints.FILE_NAME).exists()
    assert [n for n in notes.notes if n.startswith("move-order hints")] == ["move-order hints not saved: disk full"]


def test_a_pool_gives_each_question_its_own_hints(tmp_path):
    run, proof, value, _ = settled_run(tmp_path)
    check = Verification(open_run(run)[0], run, workers=2, table_mb=16)
    hints = order_hints.load(run, Core.BOOK_ENTRY_BYTES)
    nodes = {}
    for hinted in (True, False):
        pool = LocalPool(2, check.config)
        used = nodes[hinted] = 0
        try:
            for leaf, k, expected in check.questions:
                entries = order_hints.for_question(hints, leaf.key, k) if hinted else None
                used += entries is not None
                v, n = pool.submit(check.config, *leaf.position.core_args, k, None, [], order_hints=entries).result()[:2]
                assert (v >= k) == expected
                nodes[hinted] += n
                if entries is not None:  # (its core keeps them until its next question)
                    assert any(core.stats["hints_same_keys"] for core in pool.cores)
        finally:
            pool.close()
        assert (used > 0) == hinted
    assert nodes[True] < nodes[False]


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
