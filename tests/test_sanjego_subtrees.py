"""A run's costly subtrees: positions with the bounds their finished subtrees proved, kept
from sub-proofs stopped with the run, for a new checkout to resume them."""

import shutil
import time

import pytest

from solver._sanjego import Core
from solver.checkpoint import Journal
from solver.sanjego import Board, Position, subtrees, warm
from solver.sanjego.board import board_spec
from solver.sanjego.engine import Engine
from solver.sanjego.notation import format_moves, replay
from solver.sanjego.parallel import ParallelProof, prove

SIZE = Core.BOOK_ENTRY_BYTES
WORK = subtrees.BOUNDS_AT + 2  # lo, hi, work


def core_for(board, table_mb=16, seed=None):
    kwargs = dict(board.core_geometry())
    if seed is not None:
        kwargs["seed"] = seed
    return Core(measure="margin", table_bytes=table_mb << 20, **kwargs)


def search(core, p, k, budget=None):
    return prove(None, *p.core_args, k, budget, core=core)[:2]


def test_a_stopped_search_leaves_subtrees_that_any_core_can_use():
    board = Board.parse("6x4")
    p = replay(board, "b2-c2 b3-c3")[0]
    value, _ = search(core_for(board), p, 2)
    stopped = core_for(board)
    stopped.book_start(8, 1 << 16)
    assert search(stopped, p, 2, (1 << 20) - 1) == (None, 1 << 20)
    entries = stopped.book_take()
    assert entries and len(entries) % SIZE == 0 and stopped.book_take() == b""
    assert min(entries[i + WORK] for i in range(0, len(entries), SIZE)) >= 8
    # Another seed and table size: the entries name positions, not table slots.
    cold, with_book = core_for(board, 4, seed=99), core_for(board, 4, seed=99)
    assert with_book.book_put(entries) == len(entries) // SIZE
    v_cold, n_cold = search(cold, p, 2)
    v_book, n_book = search(with_book, p, 2)
    assert v_cold == v_book == value
    assert n_book < n_cold - (1 << 19)  # most of the stopped search's 2^20 nodes


def test_a_full_book_keeps_the_costliest():
    board = Board.parse("5x4")
    core = core_for(board, 1)
    core.book_start(0, 50)
    start = Position.start(board)
    core.solve(*start.core_args)
    entries = core.book_take()
    works = [entries[i + WORK] for i in range(0, len(entries), SIZE)]
    assert 0 < len(works) <= 50 and min(works) > 0


def test_entries_that_are_not_positions_of_the_board_are_skipped():
    # (The file names its board; this is the core's own check on what it is given.)
    board = Board.parse("5x4")
    core = core_for(board)
    core.book_start(4, 1 << 12)
    start = Position.start(board)
    core.solve(*start.core_args)
    entries = core.book_take()
    n = len(entries) // SIZE
    assert core.book_put(entries) == n
    assert core_for(Board.parse("4x4")).book_put(entries) < n / 2  # towers off the board
    e = bytearray(entries[:SIZE])
    occ = int.from_bytes(e[:8], "little")
    cell = (occ & -occ).bit_length() - 1
    no_tower = bytearray(e)
    no_tower[24 + cell] = 0  # a cell of occ with no height
    lo_above_hi = bytearray(e)
    lo_above_hi[subtrees.BOUNDS_AT], lo_above_hi[subtrees.BOUNDS_AT + 1] = 5, 4
    a_banked_group = bytearray(e)
    a_banked_group[8:16] = occ.to_bytes(8, "little")  # all one player's: the search banks it
    assert core.book_put(bytes(e)) == 1
    for bad in (no_tower, lo_above_hi, a_banked_group):
        assert core.book_put(bytes(bad)) == 0
    with pytest.raises(ValueError, match="bytes each"):
        core.book_put(entries[:-1])


def test_costliest_merges_repeats_and_keeps_the_most_work():
    position = bytes(subtrees.BOUNDS_AT)
    other = bytes([1]) + bytes(subtrees.BOUNDS_AT - 1)
    a, b = bytes([3, 4]), bytes([5, 6])  # moves
    entries = (position + bytes([0xFE, 5, 9]) + a + position + bytes([1, 7, 12]) + b  # lo -2 then 1
               + other + bytes([0, 0, 10]) + a + other + bytes([0, 0, 11]) + subtrees.NO_MOVE)
    kept = subtrees.costliest(entries, SIZE)
    # The move of the costliest search that named one.
    assert kept == position + bytes([1, 5, 12]) + b + other + bytes([0, 0, 11]) + a
    assert subtrees.costliest(entries, SIZE, limit=1) == position + bytes([1, 5, 12]) + b
    assert subtrees.costliest(entries, SIZE, min_work=12) == position + bytes([1, 5, 12]) + b


def test_a_file_saved_before_entries_had_moves_is_read_with_none(tmp_path):
    path = tmp_path / subtrees.FILE_NAME
    old = bytes(range(subtrees.LEGACY_ENTRY_BYTES))
    subtrees.save(path, IDENT, {(b"\x01", 2): old + old}, subtrees.LEGACY_ENTRY_BYTES)
    assert subtrees.load(path, IDENT, SIZE) == {(b"\x01", 2): (old + subtrees.NO_MOVE) * 2}


IDENT = {"board": board_spec(Board.parse("5x4")), "measure": "margin", "heads": False}


def test_save_and_load(tmp_path):
    path = tmp_path / subtrees.FILE_NAME
    groups = {(b"\x01\x02", 1): bytes(range(SIZE)), (b"\x03", 2): bytes(2 * SIZE)}
    subtrees.save(path, IDENT, groups, SIZE)
    assert subtrees.load(path, IDENT, SIZE) == groups
    subtrees.save(path, IDENT, {(b"\x01", 1): b""}, SIZE)  # nothing left to keep
    assert not path.exists()


@pytest.mark.parametrize("damage,message", [
    (lambda d: d[:30] + bytes([d[30] ^ 1]) + d[31:], "checksum"),
    (lambda d: d[:-9], "checksum"),
    (lambda d: b"XX" + d[2:], "not a costly-subtrees file"),
])
def test_damage_is_refused_and_the_session_starts_without_it(tmp_path, damage, message):
    path = tmp_path / subtrees.FILE_NAME
    subtrees.save(path, IDENT, {(b"\x01", 1): bytes(SIZE)}, SIZE)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(subtrees.SubtreesError, match=message):
        subtrees.load(path, IDENT, SIZE)
    notes = []
    assert subtrees.start_session(tmp_path, core_for(Board.parse("5x4")), IDENT, notes.append) == {}
    assert notes and notes[0].startswith("costly subtrees not used") and message in notes[0]


def test_a_file_for_another_board_is_refused(tmp_path):
    path = tmp_path / subtrees.FILE_NAME
    subtrees.save(path, IDENT, {(b"\x01", 1): bytes(SIZE)}, SIZE)
    with pytest.raises(subtrees.SubtreesError, match="another board"):
        subtrees.load(path, dict(IDENT, board=board_spec(Board.parse("4x5"))), SIZE)


class Notes:
    """A progress display that keeps the notes and stops the run after `seconds`."""

    def __init__(self, seconds=None):
        self.seconds, self.notes = seconds, []

    def __call__(self, *args):
        if self.seconds is not None:
            time.sleep(self.seconds)  # the sub-proof in flight searches meanwhile
            raise KeyboardInterrupt

    def note(self, text):
        self.notes.append(text)


def test_a_new_checkout_resumes_a_stopped_sub_proof_from_its_costly_subtrees(tmp_path):
    # 6x4's first sub-proof at depth 1 takes a few seconds: stopped before it ends, it is
    # journaled as "interrupted", and its costly subtrees go to the file that a checkout
    # would commit (the warm table stays on the machine that made it).
    board = Board(6, 4)
    start = Position.start(board)
    run = tmp_path / "run"
    first = Notes(0.3)
    proof = ParallelProof(Engine(board, "margin", table_mb=16), start, [], 1, run_dir=str(run), workers=1,
                          progress=first)
    with pytest.raises(KeyboardInterrupt):
        proof.solve()
    stopped = [r for r in Journal(run / "journal.log").read() if "interrupted" in r]
    ident = {"board": board_spec(board), "measure": "margin", "heads": False}
    groups = subtrees.load(run / subtrees.FILE_NAME, ident, SIZE)
    assert [(key.hex(), k) for key, k in groups] == [(r["interrupted"], r["k"]) for r in stopped] != []
    assert any("kept for the next session" in note for note in first.notes)
    (key, k), = groups
    leaf = next(leaf.position for leaf in proof.leaves if leaf.key == key)
    # Another machine: another table size (and here another seed too).
    with_file, cold, notes = core_for(board, 4, seed=99), core_for(board, 4, seed=99), []
    assert subtrees.start_session(run, with_file, ident, notes.append) == groups
    assert notes[0].startswith("costly subtrees:") and "put back" in notes[0]
    v_file, n_file = search(with_file, leaf, k)
    v_cold, n_cold = search(cold, leaf, k)
    assert v_file == v_cold and n_file < n_cold - stopped[0]["nodes"] / 2


class KilledAfterSaves:
    """A progress display that, once the run has saved on the way, copies what a kill -9 would
    leave and then stops the run."""

    def __init__(self, run, kept):
        self.run, self.kept, self.calls, self.notes = run, kept, 0, []

    def __call__(self, *args):
        self.calls += 1
        if self.calls == 1:
            time.sleep(0.5)  # the sub-proof in flight searches meanwhile
            return
        shutil.copy(self.run / subtrees.FILE_NAME, self.kept)
        raise KeyboardInterrupt

    def note(self, text):
        self.notes.append(text)


def test_a_killed_run_leaves_the_costly_subtrees_of_its_sub_proofs_in_flight(tmp_path, monkeypatch):
    # Session 26's run was cut off by a restart: a file saved only at the stop was never
    # written. The run saves it on the way, with the sub-proofs in flight so far.
    from solver.sanjego import parallel
    monkeypatch.setattr(parallel, "SUBTREES_SAVE_SECONDS", 0)
    monkeypatch.setattr(parallel, "PROGRESS_SECONDS", 0.2)
    board = Board(6, 4)
    start = Position.start(board)
    run, kept = tmp_path / "run", tmp_path / "after-kill.bin"
    killed = KilledAfterSaves(run, kept)
    proof = ParallelProof(Engine(board, "margin", table_mb=16), start, [], 1, run_dir=str(run), workers=1,
                          progress=killed)
    with pytest.raises(KeyboardInterrupt):
        proof.solve()
    ident = {"board": board_spec(board), "measure": "margin", "heads": False}
    groups = subtrees.load(kept, ident, SIZE)
    (key, k), = groups
    stopped, = [r for r in Journal(run / "journal.log").read() if "interrupted" in r]
    assert (key.hex(), k) == (stopped["interrupted"], stopped["k"])
    at_stop = subtrees.load(run / subtrees.FILE_NAME, ident, SIZE)[(key, k)]
    assert len(at_stop) >= len(groups[(key, k)])
    leaf = next(leaf.position for leaf in proof.leaves if leaf.key == key)
    with_file, cold = core_for(board, 4, seed=99), core_for(board, 4, seed=99)
    assert with_file.book_put(groups[(key, k)]) == len(groups[(key, k)]) // SIZE
    v_file, n_file = search(with_file, leaf, k)
    v_cold, n_cold = search(cold, leaf, k)
    assert v_file == v_cold and n_file < n_cold


def test_the_file_keeps_only_open_questions_and_a_solved_run_deletes_it(tmp_path):
    board = Board.parse("4x4")
    start = Position.start(board)
    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, table_mb=1), start, [], 1, run_dir=str(run), workers=1, table_mb=1)
    core = core_for(board, 1)
    core.book_start(0, 1 << 10)
    core.solve(*start.core_args)
    entries = core.book_take()[:SIZE]
    leaf = proof.leaves[0].key
    memo = {proof.root.key: (-16, 16), leaf: (-16, 16)}
    proof._keep_subtrees({(leaf, 1): entries, (leaf, 99): entries, (b"elsewhere", 1): entries}, {}, memo, SIZE)
    ident = {"board": board_spec(board), "measure": "margin", "heads": False}
    assert list(subtrees.load(run / subtrees.FILE_NAME, ident, SIZE)) == [(leaf, 1)]
    assert proof.solve() == Engine(board, table_mb=1).value(start)
    assert not (run / subtrees.FILE_NAME).exists()


def test_status_names_the_costly_subtrees(tmp_path):
    import json
    import subprocess
    import sys
    board = Board.parse("4x4")
    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 1, run_dir=str(run), workers=1,
                          table_mb=1)
    leaf = proof.leaves[0].key
    memo = {proof.root.key: (-16, 16), leaf: (-16, 16)}
    proof._keep_subtrees({(leaf, 1): bytes(3 * SIZE)}, {}, memo, SIZE)

    def status(*args):
        return subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), *args],
                              capture_output=True, text=True, timeout=120)

    r = status()
    assert r.returncode == 0 and "costly subtrees of stopped sub-proofs (commit them with the journal): " \
                                 "3 positions of 1 sub-proof(s)" in r.stdout
    described = json.loads(status("--json").stdout)["costly_subtrees"]
    assert described == {"subproofs": 1, "positions": 3, "bytes": (run / subtrees.FILE_NAME).stat().st_size}
    (run / subtrees.FILE_NAME).write_bytes(b"nonsense")
    r = status()
    assert r.returncode == 0 and "costly subtrees of stopped sub-proofs: not usable" in r.stdout
    (run / subtrees.FILE_NAME).unlink()
    assert "costly subtrees" not in status().stdout
    (run / "verify").mkdir()
    ident = {"board": board_spec(board), "measure": "margin", "heads": False}
    subtrees.save(run / "verify" / subtrees.FILE_NAME, ident, {(leaf, 1): bytes(2 * SIZE)}, SIZE)
    r = status()
    assert r.returncode == 0 and "costly subtrees of stopped verification questions (commit them with the " \
                                 "journal): 2 positions of 1 question(s)" in r.stdout
    assert json.loads(status("--json").stdout)["verify_costly_subtrees"]["positions"] == 2


class StopOnceProven:
    """A run's progress display that stops the run once its root is proven >= k."""

    def __init__(self, k):
        self.k = k

    def __call__(self, proof, todo, bounds, k):
        if bounds[0] >= self.k:
            raise KeyboardInterrupt


def test_a_stopped_verification_keeps_the_costly_subtrees_of_its_questions(tmp_path, monkeypatch):
    # A verification's question can run for hours too: stopped, it leaves its own file of
    # costly subtrees in DIR/verify/, which a new checkout (no warm table) puts back.
    from solver.sanjego.verify import Verification
    from solver.sanjego.parallel import open_run
    board = Board(6, 4)
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):  # ">= +1" is proven by the first first move that holds it
        ParallelProof(Engine(board, "margin", table_mb=16), Position.start(board), [], 1, run_dir=str(run),
                      workers=1, table_mb=16, progress=StopOnceProven(1)).solve()
    first = Notes(0.3)
    with pytest.raises(KeyboardInterrupt):
        Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1, progress=first).verify()
    from solver.sanjego.verify import DEFAULT_SEED
    ident = {"board": board_spec(board), "measure": "margin", "heads": False, "seed": DEFAULT_SEED}
    path = run / "verify" / subtrees.FILE_NAME
    groups = subtrees.load(path, ident, SIZE)
    (key, k), = groups
    assert k == 1 and any("kept for the next session" in note for note in first.notes)
    (run / "verify" / warm.FILE_NAME).unlink()  # a new checkout: only the committed files
    # A stop while the files load (a warm table of gigabytes takes a while) keeps them.
    monkeypatch.setattr(warm, "start_session", lambda *args: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1).verify()
    assert subtrees.load(path, ident, SIZE) == groups
    monkeypatch.undo()
    second = Notes()
    resumed = Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1, progress=second).verify()
    assert any("put back" in note for note in second.notes)
    assert not (run / "verify" / subtrees.FILE_NAME).exists()  # nothing left open
    cold = Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1,
                        out_dir=str(tmp_path / "cold")).verify()
    assert resumed["ok"] and cold["ok"] and resumed["questions"] == cold["questions"] == 1
    assert resumed["nodes"] < cold["nodes"]
    # Only its own file: one without its seed (a run's, say) is refused. With nothing left to
    # ask for a bound, a file there stays: it may serve a verification of the value under way.
    subtrees.save(path, {k: v for k, v in ident.items() if k != "seed"}, groups, SIZE)
    with pytest.raises(subtrees.SubtreesError, match="another seed"):
        subtrees.load(path, ident, SIZE)
    Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1).verify()
    assert path.exists()


def test_a_killed_verification_leaves_the_costly_subtrees_of_its_questions_in_flight(tmp_path, monkeypatch):
    from solver.sanjego import parallel, verify
    from solver.sanjego.parallel import open_run
    board = Board(6, 4)
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        ParallelProof(Engine(board, "margin", table_mb=16), Position.start(board), [], 1, run_dir=str(run),
                      workers=1, table_mb=16, progress=StopOnceProven(1)).solve()
    monkeypatch.setattr(parallel, "SUBTREES_SAVE_SECONDS", 0)
    monkeypatch.setattr(parallel, "WARM_SAVE_SECONDS", 0)
    monkeypatch.setattr(verify, "PROGRESS_SECONDS", 0.2)
    kept = tmp_path / "after-kill.bin"
    killed = KilledAfterSaves(run / "verify", kept)
    with pytest.raises(KeyboardInterrupt):
        # (Without the run's move-order hints: with them the question can finish before the kill.)
        verify.Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1, progress=killed,
                            order_hints=False).verify()
    ident = {"board": board_spec(board), "measure": "margin", "heads": False, "seed": verify.DEFAULT_SEED}
    (key, k), = subtrees.load(kept, ident, SIZE)
    question, = verify.Verification(open_run(run)[0], run, workers=1, table_mb=16, at_least=1).remaining()
    assert (key, k) == (question[0].key, question[1]) == (question[0].key, 1)
    assert any("saved for the next session" in note for note in killed.notes)  # the warm table on the way


def test_a_question_that_finished_as_the_verification_was_stopped_is_journaled(tmp_path):
    from solver.sanjego.parallel import open_run
    from solver.sanjego.verify import Verification
    board = Board.parse("5x4")
    run = tmp_path / "run"
    ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, workers=1,
                  table_mb=16).solve()

    def stop_once_it_has_finished(check):
        time.sleep(0.5)  # 5x4's questions take milliseconds: the first one finishes meanwhile
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Verification(open_run(run)[0], run, workers=1, table_mb=16, progress=stop_once_it_has_finished).verify()
    answers = [r for r in Journal(run / "verify" / "journal.log").read() if "key" in r]
    assert len(answers) == 1 and answers[0]["ok"]
    assert Verification(open_run(run)[0], run, workers=1, table_mb=16).verify()["ok"]
    # Files that a kill left after the value's last answer go with the next call.
    subtrees.save(run / "verify" / subtrees.FILE_NAME, {"board": board_spec(board)}, {(b"\x01", 1): bytes(SIZE)},
                  SIZE)
    (run / "verify" / warm.FILE_NAME).write_bytes(b"left by a kill")
    assert Verification(open_run(run)[0], run, workers=1, table_mb=16).verify()["ok"]
    assert not (run / "verify" / subtrees.FILE_NAME).exists() and not (run / "verify" / warm.FILE_NAME).exists()


def test_settled_children_are_read_from_the_entries_and_agree_with_the_values():
    board = Board.parse("5x4")
    engine = Engine(board, table_mb=4)
    start = Position.start(board)
    for first, second in ((0, 0), (-1, 3), (2, -1)):
        after = start.play(start.legal_moves()[first])
        leaf = after.play(after.legal_moves()[second])
        value = engine.value(leaf)
        recorder = core_for(board)
        recorder.book_start(0, 1 << 20)
        for k in (value, value + 1):  # the first player's move proven >= value; all refuted for value + 1
            search(recorder, leaf, k)
        entries = recorder.book_take()
        lookup = core_for(board, 1)
        distinct = {lookup.key(*c.core_args): c for c in map(leaf.play, leaf.legal_moves())}
        values = [engine.value(c) for c in distinct.values()]
        assert subtrees.settled_children(lookup, leaf, value + 1, entries) == (len(distinct), 0, len(distinct))
        children, at_least, below = subtrees.settled_children(lookup, leaf, value, entries)
        assert children == len(distinct) and 1 <= at_least <= values.count(value)
        assert below <= sum(v < value for v in values)
        assert subtrees.settled_children(lookup, leaf, value, b"") == (len(distinct), 0, 0)


def test_status_says_how_far_each_stopped_sub_proof_had_come(tmp_path):
    import json
    import subprocess
    import sys
    board = Board.parse("5x4")
    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=str(run), workers=1,
                          table_mb=1)
    memo = proof.intervals()
    leaf = proof.undecided_leaves(1, memo)[0][0]
    recorder = core_for(board)
    recorder.book_start(0, 1 << 20)
    search(recorder, leaf.position, 1)
    value = Engine(board, table_mb=4).value(leaf.position)
    proof._keep_subtrees({(leaf.key, 1): recorder.book_take()}, {}, memo, SIZE)
    expected = subtrees.settled_children(core_for(board, 1), leaf.position, 1, subtrees.load(
        run / subtrees.FILE_NAME, proof._subtrees_identity(), SIZE)[(leaf.key, 1)])
    assert expected[1 if value >= 1 else 2] >= 1
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)],
                       capture_output=True, text=True, timeout=120)
    moves = format_moves(board, proof.path_to(leaf.key))
    assert r.returncode == 0
    assert (f"  {moves}, \">= +1\", stopped at 0.0 x 10^9 nodes: of its {expected[0]} distinct moves, at least "
            f"{expected[2]} proven < +1 and {expected[1]} proven >= +1") in r.stdout
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), "--json"],
                       capture_output=True, text=True, timeout=120)
    out = json.loads(r.stdout)
    assert out["stopped_subproofs"] == [
        {"moves": moves, "k": 1, "nodes": 0, "children": expected[0], "at_least": expected[1],
         "below": expected[2]}]
    assert out["live"] is False
    # While a run writes the directory, the file holds its work in flight, saved as it goes
    # (the 6x6 run's status said "stopped at 0.0 x 10^9 nodes" of two sub-proofs in flight).
    from solver.checkpoint import RunDir
    with RunDir(run).claimed():
        r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)],
                           capture_output=True, text=True, timeout=120)
    assert "costly subtrees of sub-proofs in flight or stopped (commit them with the journal)" in r.stdout
    assert f"  {moves}, \">= +1\", 0.0 x 10^9 nodes journaled (its nodes in flight are not): of its " in r.stdout
    assert "stopped at" not in r.stdout
