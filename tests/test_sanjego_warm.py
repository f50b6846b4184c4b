"""The warm table: a run's costliest table entries kept from one session to the next."""

import re
import shutil
import subprocess
import sys

import pytest

from solver import checkpoint
from solver._sanjego import Core
from solver.sanjego import Board, Position
from solver.sanjego import warm
from solver.sanjego.engine import Engine
from solver.sanjego.parallel import ParallelProof


def core_for(board, table_mb, seed=None):
    kwargs = dict(board.core_geometry())
    if seed is not None:
        kwargs["seed"] = seed
    return Core(measure="margin", table_bytes=table_mb << 20, **kwargs)


def solve(core, p):
    n0 = core.nodes
    return core.solve(*p.core_args), core.nodes - n0


def test_exported_entries_answer_a_fresh_table_of_any_size():
    board = Board.parse("5x4")
    start = Position.start(board)
    full = core_for(board, 16)
    value, cold = solve(full, start)
    counts = full.table_work_counts()
    entries = full.table_export(4)
    assert len(entries) == 24 * sum(counts[4:]) > 0
    for mb in (16, 4, 64):
        fresh = core_for(board, mb)
        assert fresh.table_import(entries, full.table_buckets, full.near_part) == len(entries) // 24
        again, nodes = solve(fresh, start)
        assert again == value and nodes < cold / 100
    for buckets in (0, 3 * full.table_buckets):
        with pytest.raises(ValueError, match="cannot go into"):
            core_for(board, 16).table_import(entries, buckets, 0)
    with pytest.raises(ValueError, match="24-byte"):
        core_for(board, 16).table_import(entries[:-1], full.table_buckets, 0)


def test_entries_copied_into_a_bigger_table_answer_only_their_own_positions():
    """Into four times the buckets each entry goes into the four it could belong to; the
    positions along a line are still valued as by a search with an empty table."""
    board = Board.parse("4x4")
    small = core_for(board, 1)
    solve(small, Position.start(board))
    entries = small.table_export(0)
    big = core_for(board, 4)
    assert big.table_buckets == 4 * small.table_buckets
    assert big.table_import(entries, small.table_buckets, small.near_part) > 0
    assert len(big.table_export(0)) > len(entries)  # the copies
    engine = Engine(board, table_mb=1)
    p = Position.start(board)
    for pick in (0, -1, 1, 0, -1):
        assert solve(big, p)[0] == engine.value(p)
        p = p.play(p.legal_moves()[pick])


def test_fingerprint_follows_the_keys():
    board = Board.parse("4x3")
    start = Position.start(board)
    a, b = core_for(board, 1, seed=1), core_for(board, 1, seed=1)
    assert warm.fingerprint(a, start) == warm.fingerprint(b, start)
    assert warm.fingerprint(a, start) != warm.fingerprint(core_for(board, 1, seed=2), start)


def test_the_keys_are_those_the_cores_declared_the_same_had():
    # Recorded with core 62cab37ce0a4a168 (session 34), whose tables SAME_TABLES declares
    # usable by the cores after it: a core that keys positions otherwise must not be
    # declared the same (the fingerprint check at loading would refuse its files anyway).
    board = Board.parse("6x6")
    assert warm.fingerprint(core_for(board, 1), Position.start(board)) == "49a9595557c430bfaf59001bbe4ca899"
    board = Board.parse("6x5")
    assert warm.fingerprint(core_for(board, 1), Position.start(board)) == "8cd9cac0319672b779fd87ed9e45f673"


def test_choose_min_work_fits_the_share():
    counts = [0] * 256
    counts[4], counts[5], counts[9] = 1000, 100, 10
    assert warm.choose_min_work(counts, 64 * 2000) == 4
    assert warm.choose_min_work(counts, 64 * 500) == 5
    assert warm.choose_min_work(counts, 64 * 50) == 6
    assert warm.choose_min_work(counts, 64 * 5) == 10


def saved(tmp_path, seed=None):
    board = Board.parse("4x4")
    start = Position.start(board)
    core = core_for(board, 1, seed)
    solve(core, start)
    path = tmp_path / warm.FILE_NAME
    ident = warm.identity(core, start, "4x4", "margin", seed, False)
    n, work = warm.save(path, core, ident)
    assert n > 0 and work >= warm.MIN_WORK
    return board, start, path, ident


def test_save_and_load(tmp_path):
    board, start, path, ident = saved(tmp_path)
    fresh = core_for(board, 1)
    assert warm.load(path, fresh, ident) > 0
    assert solve(fresh, start)[0] == Engine(board, table_mb=1).value(start)


@pytest.mark.parametrize("change,message", [
    ({"seed": 7}, "another seed"),
    ({"board": "4x5"}, "another board"),
    ({"keys": "0" * 32}, "another keys"),
    ({"core": "0" * 16}, "another core (the core has changed since)"),
])
def test_a_file_for_other_options_is_refused(tmp_path, change, message):
    board, _, path, ident = saved(tmp_path)
    with pytest.raises(warm.WarmTableError, match=re.escape(message)):
        warm.load(path, core_for(board, 1), dict(ident, **change))


def test_a_file_from_a_core_declared_the_same_is_used(tmp_path, monkeypatch):
    board, start, path, ident = saved(tmp_path)
    newer = dict(ident, core="1" * 16)
    with pytest.raises(warm.WarmTableError, match="another core"):
        warm.load(path, core_for(board, 1), newer)
    monkeypatch.setitem(warm.SAME_TABLES, "1" * 16, (ident["core"],))
    fresh = core_for(board, 1)
    assert warm.load(path, fresh, newer) > 0
    assert solve(fresh, start)[0] == Engine(board, table_mb=1).value(start)
    with pytest.raises(warm.WarmTableError, match="another seed"):  # the rest must still match
        warm.load(path, core_for(board, 1), dict(newer, seed=7))


def test_same_tables_declares_only_earlier_cores():
    core = Core(4, 4)
    for newer, earlier in warm.SAME_TABLES.items():
        assert newer not in earlier and len(newer) == 16
    assert all(core.core_source not in earlier for earlier in warm.SAME_TABLES.values())


def test_a_smaller_saved_table_goes_into_a_bigger_one(tmp_path):
    board, start, path, ident = saved(tmp_path)
    bigger = core_for(board, 4)
    assert warm.load(path, bigger, ident) > 0
    assert solve(bigger, start)[0] == Engine(board, table_mb=1).value(start)


@pytest.mark.parametrize("damage,message", [
    (lambda d: d[:40] + bytes([d[40] ^ 1]) + d[41:], "checksum"),
    (lambda d: d[:-30], "checksum"),
    (lambda d: b"XX" + d[2:], "not a warm table"),
    (lambda d: b"", "not a warm table"),
])
def test_damage_is_refused(tmp_path, damage, message):
    board, _, path, ident = saved(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(warm.WarmTableError, match=message):
        warm.load(path, core_for(board, 1), ident)


def rewrite(path, header, entries):
    """A warm table file of this header and entries, with a valid checksum."""
    import json
    import struct
    import zlib
    head = json.dumps(header).encode()
    data = warm.MAGIC + struct.pack("<Q", len(head)) + head + bytes(entries)
    path.write_bytes(data + struct.pack("<I", zlib.crc32(data)))


@pytest.mark.parametrize("header", [[], {"format": 1}, "x", None])
def test_a_well_sealed_file_with_a_bad_header_is_refused(tmp_path, header):
    board, _, path, ident = saved(tmp_path)
    good, entries = warm.read(path)
    entries = bytes(entries)
    rewrite(path, good, entries)
    assert warm.load(path, core_for(board, 1), ident) > 0  # rewrite itself makes a good file
    if header is None:  # every field present, but not a power of two
        header = dict(good, buckets=3)
    for bad, data, message in ((header, entries, "damaged|format"), (dict(good, identity="4x4"), entries, "damaged"),
                               (good, b"", "wrong length")):
        rewrite(path, bad, data)
        with pytest.raises(warm.WarmTableError, match=message):
            warm.load(path, core_for(board, 1), ident)


def test_a_core_without_a_source_hash_uses_no_warm_table(tmp_path):
    board, _, path, ident = saved(tmp_path)
    assert ident["core"] != "unknown" and len(ident["core"]) == 16
    with pytest.raises(warm.WarmTableError, match="not built by setup.py"):
        warm.load(path, core_for(board, 1), dict(ident, core="unknown"))


def test_save_removes_what_a_killed_save_left(tmp_path):
    board, start, path, ident = saved(tmp_path)
    leftover = tmp_path / f".{warm.FILE_NAME}.0123456789ab.tmp"
    leftover.write_bytes(b"half")
    core = core_for(board, 1)
    solve(core, start)
    warm.save(path, core, ident)
    assert not leftover.exists() and path.exists()
    leftover.write_bytes(b"half")
    warm.remove(path)
    assert not leftover.exists() and not path.exists()


class StopAfter:
    """A progress display that records notes and stops the run after `calls` updates."""

    def __init__(self, calls):
        self.calls, self.notes = calls, []

    def __call__(self, *args):
        self.calls -= 1
        if self.calls < 0:
            raise KeyboardInterrupt

    def note(self, text):
        self.notes.append(text)


def test_a_stopped_run_leaves_a_warm_table_that_the_next_session_uses(tmp_path):
    board = Board.parse("5x4")
    start = Position.start(board)
    run = tmp_path / "run"

    def session(progress, resume):
        return ParallelProof(Engine(board, table_mb=1), start, [], 2, run_dir=run, resume=resume, workers=1,
                             progress=progress, table_mb=16)

    first = StopAfter(20)
    with pytest.raises(KeyboardInterrupt):
        session(first, False).solve()
    assert (run / warm.FILE_NAME).exists() and "saved for the next session" in first.notes[-1]
    cold = tmp_path / "cold"
    shutil.copytree(run, cold)
    (cold / warm.FILE_NAME).unlink()
    second = StopAfter(10 ** 6)
    proof = session(second, True)
    assert proof.solve() == 2
    placed = int(second.notes[0].split()[2].replace(",", ""))
    assert second.notes[0].endswith(")") and "from the last session" in second.notes[0] and placed > 0
    assert (run / warm.FILE_NAME).exists()  # kept for the line that `record --from-run` completes
    # The same journal resumed without it (one worker: node counts are exact) searches more.
    cold_proof = ParallelProof(Engine(board, table_mb=1), start, [], 2, run_dir=cold, resume=True, workers=1,
                               progress=StopAfter(10 ** 6), table_mb=16)
    assert cold_proof.solve() == 2
    assert proof.nodes - proof.nodes_before < cold_proof.nodes - cold_proof.nodes_before


def test_finished_work_without_a_local_table_removes_an_old_warm_table(tmp_path):
    notes = []
    (tmp_path / warm.FILE_NAME).write_bytes(b"old")
    warm.end_session(tmp_path, None, None, notes.append, finished=False)  # as a Dask session ends
    assert (tmp_path / warm.FILE_NAME).exists() and not notes
    warm.end_session(tmp_path, None, None, notes.append, finished=True)  # as a solved Dask run ends
    assert not (tmp_path / warm.FILE_NAME).exists() and not notes


def test_session_ends_never_raise(tmp_path):
    notes = []
    board = Board.parse("4x4")
    core = core_for(board, 1)

    def broken():
        raise MemoryError("no room")

    warm.end_session(tmp_path, core, broken, notes.append, finished=False)
    assert notes == ["warm table not saved: no room"]
    (tmp_path / warm.FILE_NAME).write_bytes(b"x")
    warm.start_session(tmp_path, core, broken, notes.append)
    assert notes[-1].startswith("warm table not used, starting with an empty table:")


def test_a_damaged_warm_table_only_costs_time(tmp_path):
    board = Board.parse("5x4")
    start = Position.start(board)
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        ParallelProof(Engine(board, table_mb=1), start, [], 2, run_dir=run, workers=1, progress=StopAfter(20),
                      table_mb=16).solve()
    path = run / warm.FILE_NAME
    data = path.read_bytes()
    path.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    progress = StopAfter(10 ** 6)
    proof = ParallelProof(Engine(board, table_mb=1), start, [], 2, run_dir=run, resume=True, workers=1,
                          progress=progress, table_mb=16)
    assert proof.solve() == 2
    assert progress.notes[0].startswith("warm table not used, starting with an empty table:")
    assert "damaged" in progress.notes[0]


def bench(*args, script="bench_warm.py"):
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "scripts" / script
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=300)


def test_bench_warm_solves_three_ways():
    r = bench("--board", "4x4", "--every", "2", "--table-mb", "1")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if not line.startswith("#")][1:]
    assert [row[0] for row in rows] == ["no", "stop", "stop"] and [row[-5] for row in rows] == ["+1"] * 3
    assert int(rows[0][-4]) == 1 and int(rows[1][-4]) == int(rows[2][-4]) > 1  # sessions


def test_bench_line_records_a_run_with_and_without_its_warm_table():
    r = bench("--board", "4x4", "--table-mb", "16", script="bench_line.py")
    assert r.returncode == 0, r.stderr
    cold, warm_row = [line.split() for line in r.stdout.splitlines() if line.startswith((" ", "from"))][-2:]
    assert cold[-3] == warm_row[-3] and int(cold[-2].replace(",", "")) > int(warm_row[-2].replace(",", ""))
    r = bench("--board", "banana", script="bench_line.py")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.parametrize("args", [["--board", "banana"], ["--every", "0"], ["--depth", "x"], ["--table-mb", "-5"]])
def test_bench_warm_bad_input_exits_2_with_one_line(args):
    r = bench(*args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_status_names_the_warm_table(tmp_path):
    import json
    board = Board.parse("5x4")
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, workers=1,
                      progress=StopAfter(20), table_mb=16).solve()

    def status(*args):
        return subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), *args],
                              capture_output=True, text=True, timeout=120)

    described = warm.describe(run / warm.FILE_NAME)
    assert described["entries"] > 0 and described["bytes"] == (run / warm.FILE_NAME).stat().st_size
    r = status()
    assert r.returncode == 0 and f"warm table for the next session: {described['entries']:,} entries" in r.stdout
    assert json.loads(status("--json").stdout)["warm_table"] == described
    (run / warm.FILE_NAME).write_bytes(b"nonsense")
    r = status()
    assert r.returncode == 0 and "warm table for the next session: not usable" in r.stdout
    (run / warm.FILE_NAME).unlink()
    assert "warm table" not in status().stdout and warm.describe(run / warm.FILE_NAME) is None


def test_a_stopped_verification_keeps_its_own_warm_table(tmp_path):
    from solver.sanjego.parallel import open_run
    from solver.sanjego.verify import Verification
    board = Board.parse("5x4")
    run = tmp_path / "run"
    ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, workers=1,
                  table_mb=16).solve()
    assert (run / warm.FILE_NAME).exists()  # the run's own (for its line), never the verification's
    first = StopAfter(3)
    with pytest.raises(KeyboardInterrupt):
        Verification(open_run(run)[0], run, workers=1, table_mb=16, progress=first).verify()
    assert (run / "verify" / warm.FILE_NAME).exists() and "saved for the next session" in first.notes[-1]
    second = StopAfter(10 ** 6)
    result = Verification(open_run(run)[0], run, workers=1, table_mb=16, progress=second).verify()
    assert result["ok"] and "from the last session" in second.notes[0]
    assert not (run / "verify" / warm.FILE_NAME).exists()


def test_a_run_saves_its_warm_table_as_it_goes(tmp_path, monkeypatch):
    # Sub-proofs can run for hours: kill -9 gives no time to save, so the run saves on the way.
    from solver.sanjego import parallel
    monkeypatch.setattr(parallel, "WARM_SAVE_SECONDS", 0)
    board = Board.parse("5x4")
    run = tmp_path / "run"
    progress = StopAfter(3)
    proof = ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, workers=1,
                          progress=progress, table_mb=16)
    seen = []
    monkeypatch.setattr(warm, "save", lambda *args, save=warm.save: seen.append(
        (run / warm.FILE_NAME).exists()) or save(*args))
    with pytest.raises(KeyboardInterrupt):
        proof.solve()
    saves = [n for n in progress.notes if "saved for the next session" in n]
    # On the way, then at the stop (the first, with no entry worth keeping yet, writes nothing).
    assert len(saves) >= 3 and len(seen) == len(saves) + 1
    assert seen[-1] and (run / warm.FILE_NAME).exists()  # there before the save at the stop


def test_bench_resume_stops_a_search_and_resumes_it():
    r = bench("--board", "6x4", "--moves", "e3-d3", "--k", "2", "--table-mb", "16", script="bench_resume.py")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if not line.startswith("#")][1:]
    full = int(rows[0][-1])
    nothing, costly, moves, stopped, whole = rows[1:6]
    assert nothing[2] == "nothing" and costly[2:4] == ["costly", "subtrees"] and int(costly[4]) > 0
    assert moves[2:5] == ["subtrees", "+", "moves"] and moves[5] == costly[4]  # the same positions
    assert 0 < int(stopped[1]) < full and int(stopped[-2]) > full  # the warm share redoes some work
    assert int(nothing[-2]) > int(costly[-2]) > full  # the subtrees keep some of it
    assert whole[2:5] == ["the", "whole", "table"] and int(whole[-2]) - full < 100  # the whole table: none


@pytest.mark.parametrize("args", [["--board", "banana"], ["--at", "1"], ["--min-work", "40"],
                                  ["--board", "4x4"]])  # the last: too short a search to stop
def test_bench_resume_bad_input_exits_2_with_one_line(args):
    r = bench(*args, script="bench_resume.py")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_entries_of_a_table_without_a_near_part_are_found_in_one_with_it():
    # A warm table saved before session 27 placed small positions by the whole table's
    # bucket bits; loaded into a core that keeps them near the table's start, each entry
    # also goes to the near bucket it would have if its position were small.
    board = Board.parse("5x4")
    start = Position.start(board)
    old = core_for(board, 16)
    old.near_towers = 0
    value, cold = solve(old, start)
    entries = old.table_export(4)
    for near in (0, 20):
        fresh = core_for(board, 16)
        fresh.near_towers, fresh.near_buckets = near, 1 << 14
        assert fresh.table_import(entries, old.table_buckets, old.near_part) == len(entries) // 24
        again, nodes = solve(fresh, start)
        assert again == value and nodes < cold / 100
    unplaced = core_for(board, 16)
    unplaced.near_towers, unplaced.near_buckets = 20, 1 << 14
    unplaced.near_towers = 0
    unplaced.table_import(entries, old.table_buckets, old.near_part)
    unplaced.near_towers = 20  # as if the import had not known the near part
    assert solve(unplaced, start)[1] > cold / 10


def test_a_finished_run_keeps_its_warm_table_only_for_a_record_to_come(tmp_path):
    from solver.sanjego.notation import replay
    board = Board.parse("4x4")
    # After --moves: `record --from-run` takes no such run, so nothing is kept for it.
    position, moves = replay(board, "A1-B1")
    after = tmp_path / "after"
    ParallelProof(Engine(board, table_mb=1), position, moves, 2, run_dir=after, workers=1, table_mb=16).solve()
    assert not (after / warm.FILE_NAME).exists()
    # From the start: kept; once record has used it (deleted), a resume of the finished run,
    # which searches nothing, does not write it again.
    run = tmp_path / "run"
    ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, workers=1,
                  table_mb=16).solve()
    assert (run / warm.FILE_NAME).exists()
    status = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)], capture_output=True,
                            text=True, timeout=120)
    assert "warm table for `record --from-run`'s line: " in status.stdout
    (run / warm.FILE_NAME).unlink()
    ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2, run_dir=run, resume=True, workers=1,
                  table_mb=16).solve()
    assert not (run / warm.FILE_NAME).exists()


def near_core(board, table_mb=16):
    core = core_for(board, table_mb)
    core.near_towers, core.near_buckets = 12, 1 << 12
    return core


def table_contents(core):
    """The used entries as a sorted list of (bucket, check, data)."""
    import numpy as np
    rows = np.frombuffer(bytes(core.table_export(0)), dtype="<u8").reshape(-1, 3)
    return sorted((int(slot) // 4, int(check), int(data)) for slot, check, data in rows)


def test_entries_saved_with_the_near_part_go_back_where_they_were():
    # Each entry into its own bucket and nowhere else: a copy of a big position's entry in
    # the near part would never be found and would only take a small position's slot.
    board = Board.parse("5x4")
    start = Position.start(board)
    old = near_core(board)
    solve(old, start)
    saved = table_contents(old)
    assert any(b < old.near_part for b, _, _ in saved) and any(b >= old.near_part for b, _, _ in saved)
    entries = old.table_export(0)
    fresh = near_core(board)
    assert fresh.table_import(entries, old.table_buckets, old.near_part) == len(entries) // 24
    assert table_contents(fresh) == saved
    assert fresh.table_import(entries, old.table_buckets, old.near_part) == 0  # no second copies
    assert table_contents(fresh) == saved


def test_a_file_of_the_cores_before_session_33_loses_its_copies(tmp_path, monkeypatch):
    # Those cores copied every entry into the near part at each load and saved the copies.
    import numpy as np
    board = Board.parse("5x4")
    start = Position.start(board)
    old = near_core(board)
    solve(old, start)
    path = tmp_path / warm.FILE_NAME
    ident = warm.identity(old, start, "5x4", "margin", None, False)
    warm.save(path, old, ident)
    header, entries = warm.read(path)
    rows = np.frombuffer(bytes(entries), dtype="<u8").reshape(-1, 3)
    copies = rows.copy()
    copies[:, 0] = (copies[:, 0] // 4 & (old.near_part - 1)) * 4
    legacy = {k: v for k, v in header.items() if k != "near_part"}
    legacy["entries"] = 2 * len(rows)
    checkpoint.write_framed(path, warm.MAGIC, legacy, np.concatenate([rows, copies]).tobytes())
    monkeypatch.setattr(warm, "LEGACY_NEAR_PART", old.near_part)
    fresh = near_core(board)
    assert warm.load(path, fresh, ident) == len(rows)
    assert table_contents(fresh) == sorted((int(s) // 4, int(c), int(d)) for s, c, d in rows)
    assert solve(fresh, start)[0] == Engine(board, table_mb=1).value(start)


@pytest.mark.parametrize("legacy", [False, True])  # True: a file that does not say
def test_a_file_saved_with_another_near_towers_loses_its_near_part(tmp_path, monkeypatch, legacy):
    # Its near part holds positions this core looks for elsewhere: never found, and their
    # work would keep the slots of the small positions for generations.
    import numpy as np
    board = Board.parse("5x4")
    start = Position.start(board)
    old = near_core(board)
    old.near_towers = 14
    value, cold = solve(old, start)
    path = tmp_path / warm.FILE_NAME
    ident = warm.identity(old, start, "5x4", "margin", None, False)
    warm.save(path, old, ident)
    header, entries = warm.read(path)
    assert header["near_towers"] == 14
    if legacy:
        checkpoint.write_framed(path, warm.MAGIC, {k: v for k, v in header.items() if k != "near_towers"},
                                bytes(entries))
        monkeypatch.setattr(warm, "LEGACY_NEAR_TOWERS", 14)
    rows = np.frombuffer(bytes(entries), dtype="<u8").reshape(-1, 3)
    far = rows[rows[:, 0] // 4 >= old.near_part]
    assert 0 < len(far) < len(rows)
    same = near_core(board)
    same.near_towers = 14
    assert warm.load(path, same, ident) == len(rows)
    fewer = near_core(board)
    fewer.near_towers = 8
    assert warm.load(path, fewer, ident) == len(far)
    assert table_contents(fewer) == sorted((int(s) // 4, int(c), int(d)) for s, c, d in far)
    again, nodes = solve(fewer, start)
    assert again == value and nodes < cold


def test_a_bad_near_towers_is_a_damaged_file(tmp_path):
    board, _, path, ident = saved(tmp_path)
    header, entries = warm.read(path)
    checkpoint.write_framed(path, warm.MAGIC, dict(header, near_towers="20"), bytes(entries))
    with pytest.raises(warm.WarmTableError, match="bad header"):
        warm.load(path, core_for(board, 1), ident)


def test_a_bad_near_part_is_a_damaged_file(tmp_path):
    board, _, path, ident = saved(tmp_path)
    header, entries = warm.read(path)
    checkpoint.write_framed(path, warm.MAGIC, dict(header, near_part=3), bytes(entries))
    with pytest.raises(warm.WarmTableError, match="bad header"):
        warm.load(path, core_for(board, 1), ident)


def test_bench_split_answers_a_leaf_whole_and_split():
    r = bench("--board", "5x4", "--moves", "A1-B1 D1-C1", "--k", "2", "--table-mb", "4", script="bench_split.py")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if not line.startswith("#")]
    assert rows[0][:4] == ["whole:", "value", "<", "2,"]
    assert rows[1][:3] == ["split:", "26", "children"] and rows[2][:5] == ["split", "with", "hints:", "26", "children"]
    assert all(int(row[-4].replace(",", "")) > 0 for row in rows)


@pytest.mark.parametrize("args", [["--board", "banana"], ["--moves", "A1-B1 A1-A2"], ["--k", "x"]])
def test_bench_split_bad_input_exits_2_with_one_line(args):
    r = bench(*args, script="bench_split.py")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
