"""Tables of solved positions, query, check-line and recording results."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.checkpoint import Journal
from solver.sanjego import Board, Position, open_table, replay
from solver.sanjego.engine import Engine
from solver.sanjego.results import record_board
from solver.table import TableError

RESULTS = Path(__file__).resolve().parent.parent / "results" / "sanjego"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "solver", "sanjego", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    out = tmp_path_factory.mktemp("results") / "sanjego"
    record = record_board(Board(4, 3), ("margin", "outcome"), 2, 16, str(out), log=lambda *a: None)
    return out, record


def test_record_holds_values_games_and_provenance(recorded):
    out, record = recorded
    assert record["margin"]["value"] == 2 and record["outcome"]["value"] == "first-big"
    for key in ("command", "commit", "date", "cores", "wall_seconds"):
        assert key in record["provenance"]
    final, _ = replay(Board(4, 3), record["margin"]["game"])
    assert final.is_over() and final.margin() == 2
    assert json.loads((out / "4x3.json").read_text()) == record
    assert "| 4x3 | +2 | first-big |" in (out.parent / "README.md").read_text()


def test_record_shows_progress_on_long_work(tmp_path, capsys):
    # 9x3's verification searched for over 20 minutes with no line in the log.
    from solver.cli import NodeProgress
    from solver.sanjego import results
    lines = []
    results.record_measure(Board(5, 4), "margin", 1, 16, str(tmp_path), log=lines.append,
                           progress=lambda engine, label: NodeProgress(engine, False, label, every=0.0))
    shown = capsys.readouterr().err.splitlines()
    for phase in ("solving", "verifying (other keys, no symmetry)"):
        ours = [line for line in shown if f"] 5x4 margin: {phase}: " in line]
        assert ours and all(line.endswith(" M nodes/s") for line in ours), shown
    assert any(line.startswith("5x4 margin: verified (") for line in lines)


def test_table_probe_get_and_bounds(recorded):
    out, _ = recorded
    engine = Engine(Board(4, 3), table_mb=4)
    with open_table(out / "4x3-margin.sjt") as table:
        assert table.probe("") == 2
        for moves in ("B2-C2", "b2-c2 B1-C1", "C1-B1 D1-D2"):
            assert table.probe(moves) == engine.value(replay(Board(4, 3), moves)[0])
        # Symmetric images share an entry: A3-A2 mirrors A1-A2.
        assert table.probe("A3-A2") == table.probe("A1-A2")
        with pytest.raises(KeyError):
            table.probe("B2-C2 B1-C1 C2-C3 A2-A3")
        assert table.get("B2-C2 B1-C1 C2-C3 A2-A3", default="absent") == "absent"
        assert table.get(Position.start(Board(4, 3))) == 2


def test_query_answers_from_table_or_search(recorded):
    out, _ = recorded
    path = str(out / "4x3-margin.sjt")
    hit = json.loads(cli("query", "4x3", "--moves", "B2-C2", "--table", path, "--json").stdout)
    assert hit["source"] == "table" and hit["value"] == 2
    miss = json.loads(cli("query", "4x3", "--moves", "B2-C2 B1-C1 C2-C3 A2-A3", "--table", path,
                          "--json").stdout)
    assert miss["source"] == "search" and miss["note"] == "not in table"
    r = cli("query", "4x3", "--measure", "outcome", "--table", path)
    assert r.returncode == 2 and "not 4x3 outcome" in r.stderr


def test_damaged_table_is_refused(recorded, tmp_path):
    out, _ = recorded
    data = bytearray((out / "4x3-margin.sjt").read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.sjt"
    bad.write_bytes(bytes(data))
    with pytest.raises(TableError):
        with open_table(bad) as table:
            for moves in ("", "B2-C2", "A1-A2", "C1-B1"):
                table.get(moves)
    r = cli("query", "4x3", "--table", str(bad), "--moves", "B2-C2")
    assert r.returncode in (0, 2)
    if r.returncode == 2:
        assert len(r.stderr.strip().splitlines()) == 1


def test_check_line_accepts_optimal_and_reports_first_bad_move():
    ok = cli("check-line", "4x3", "01. B2-C2 B1-C1 02. D2-D3 A2-A3 03. C2-C3 C1-D1 04. C3-D3 A3-B3",
             "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["keeps_value"] is True
    bad = cli("check-line", "4x3", "01. A1-A2 B1-C1", "--json")
    out = json.loads(bad.stdout)
    assert bad.returncode == 1 and out["keeps_value"] is False
    assert out["first_bad_ply"] == 1 and out["first_bad_move"] == "A1-A2"


GAME_6X5 = ("01. E3-D3 B3-C3 02. B2-C2 D1-D2 03. B4-C4 C3-D3 04. E1-E2 D2-E2 05. C5-D5 E4-E5 "
            "06. F2-E2 E5-D5 07. D4-D5 B1-C1 08. A5-B5 C1-C2 09. A3-A2 F5-F4 10. A2-A1 F4-F3")


def test_check_line_on_the_published_6x5_game_tail():
    r = cli("check-line", "6x5", GAME_6X5, "--from-ply", "8", "--json", "--table-mb", "256")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["keeps_value"] and out["value"] == 1 and out["game_over"]


def test_record_from_a_finished_parallel_run(tmp_path):
    run, out = tmp_path / "run", tmp_path / "results" / "sanjego"
    r = cli("solve", "4x4", "--run", str(run), "--workers", "2", "--table-mb", "16", "--quiet")
    assert r.returncode == 0, r.stderr
    r = cli("record", "4x4", "--from-run", str(run), "--out", str(out), "--table-mb", "16")
    assert r.returncode == 0, r.stderr
    assert "not yet verified" in r.stdout
    whole = json.loads((out / "4x4.json").read_text())
    record = whole["margin"]
    assert record["value"] == 1 and record["verify"] is None
    # A margin of +1 is a big win: the outcome follows without a search of its own.
    assert whole["outcome"] == {"value": "first-big", "from_margin": 1, "game": record["game"],
                                "final": record["final"], "verify": None}
    assert "| 4x4 | +1 | first-big (by the margin) |" in (out.parent / "README.md").read_text()
    from solver.sanjego.series import board_outcome
    assert board_outcome("4x4", results_dir=str(out))[0] == 2
    final, _ = replay(Board(4, 4), record["game"])
    assert final.is_over() and final.margin() == 1
    with open_table(out / "4x4-margin.sjt") as table:
        assert table.probe("") == 1
    r = cli("record", "4x4", "--from-run", str(tmp_path / "nothing"), "--out", str(out))
    assert r.returncode == 2 and "does not exist" in r.stderr
    (tmp_path / "empty").mkdir()
    r = cli("record", "4x4", "--from-run", str(tmp_path / "empty"), "--out", str(out))
    assert r.returncode == 2 and "no run" in r.stderr
    r = cli("verify", str(run), "--table-mb", "16", "--quiet")
    assert r.returncode == 0 and "verified" in r.stdout, r.stderr
    r = cli("record", "4x4", "--from-run", str(run), "--out", str(out), "--table-mb", "16")
    assert r.returncode == 0 and "verified by a second run" in r.stdout, r.stderr
    again = json.loads((out / "4x4.json").read_text())["margin"]
    check = again["verify"]
    assert check["method"] == "certificate" and check["questions"] > 0 and check["nodes"] > 0
    # The run is the same, so its line and table were kept, not computed again.
    assert again["game"] == record["game"] and again["line_seconds"] == record["line_seconds"]
    assert again["line_from"]["commit"] and again["line_from"]["date"]
    # Not when the table beside it is another one (here: a record of no run).
    from solver.sanjego.book import write_positions
    write_positions(str(out / "4x4-margin.sjt"), Board(4, 4), "margin", [(Position.start(Board(4, 4)), 1, 1)])
    r = cli("record", "4x4", "--from-run", str(run), "--out", str(out), "--table-mb", "16")
    assert r.returncode == 0, r.stderr
    redone = json.loads((out / "4x4.json").read_text())["margin"]
    assert "line_from" not in redone and redone["verify"] == check


def test_record_a_verified_bound_of_an_unfinished_run(tmp_path):
    """An unfinished run (here 4x4 without its "< +2" answers) whose "value >= +1" is
    verified gets a bound record; before the verification it gets none."""
    from solver.checkpoint import RunDir
    run, out = tmp_path / "run", tmp_path / "results" / "sanjego"
    r = cli("solve", "4x4", "--run", str(run), "--workers", "2", "--table-mb", "16", "--quiet")
    assert r.returncode == 0, r.stderr
    records = list(Journal(run / "journal.log").read())
    (run / "result.json").unlink()
    (run / "journal.log").unlink()
    journal = Journal(run / "journal.log")
    for record in records:
        if record.get("k") != 2:
            journal.append(record)
    r = cli("record", "4x4", "--from-run", str(run), "--out", str(out))
    assert r.returncode == 2 and "no bound of it is verified" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = cli("verify", str(run), "--at-least", "1", "--table-mb", "16", "--quiet")
    assert r.returncode == 0 and "value >= +1 verified" in r.stdout, r.stderr
    r = cli("record", "4x4", "--from-run", str(run), "--out", str(out))
    assert r.returncode == 0 and "value >= +1  (a bound" in r.stdout, r.stderr
    bound = json.loads((out / "bounds" / "4x4-margin.json").read_text())
    assert bound["at_least"] == 1 and bound["bounds"][0] == 1 < bound["bounds"][1]
    assert bound["first_moves"] and bound["verify"]["questions"] > 0 and bound["run"]["nodes"] > 0
    assert bound["verify"] == {key: RunDir(run / "verify").read_result()[key] for key in bound["verify"]}
    assert "| 4x4 | margin | +1 |" in (out.parent / "README.md").read_text()
    assert not (out / "4x4.json").exists()


def test_the_line_of_a_run_is_journaled_move_by_move_and_a_stopped_one_resumes(tmp_path):
    # On 6x6 the line after the frontier is hours of search on one core: a stop must not lose it.
    from solver.sanjego.results import LINE_LOG, record_from_run
    run = tmp_path / "run"
    r = cli("solve", "4x4", "--run", str(run), "--workers", "1", "--table-mb", "16", "--quiet")
    assert r.returncode == 0, r.stderr
    for name in "abc":
        (tmp_path / name).mkdir()
    notes = []
    assert (run / "table.warm").exists()  # a finished run leaves its table for the line
    _, first = record_from_run(Board(4, 4), str(run), 16, str(tmp_path / "a"), notes.append)
    assert any(n.startswith("warm table: ") and "from the last session" in n for n in notes)
    assert not (run / "table.warm").exists()  # and the line was its last use
    records = Journal(run / LINE_LOG).read()
    _, moves = replay(Board(4, 4), first["game"])
    head = records[0]["head"].split()
    assert records[0]["value"] == first["value"] == 1 and 0 < len(head) < len(moves)
    tail = [r["move"] for r in records[1:]]
    from solver.sanjego.notation import format_moves
    assert format_moves(Board(4, 4), moves).split() == head + tail and sum(r["nodes"] for r in records) > 0
    assert sum(1 for n in notes if ": ply " in n) == len(tail)
    # Stopped after two moves of the tail: the next record goes on from there.
    (run / LINE_LOG).unlink()
    for record in records[:3]:
        Journal(run / LINE_LOG).append(record)
    notes = []
    _, again = record_from_run(Board(4, 4), str(run), 16, str(tmp_path / "b"), notes.append)
    assert again["game"] == first["game"] and [r["move"] for r in Journal(run / LINE_LOG).read()[1:]] == tail
    assert any(f"the line resumes after {len(head) + 2} plies" in n for n in notes)
    assert sum(1 for n in notes if ": ply " in n) == len(tail) - 2
    # A journal of another run (here: one created at another time) is set aside, not followed.
    (run / LINE_LOG).unlink()
    Journal(run / LINE_LOG).append(dict(records[0], created="2026-01-01T00:00:00+0000"))
    Journal(run / LINE_LOG).append({"move": "A1-A2", "nodes": 1, "seconds": 0.0})
    notes = []
    _, third = record_from_run(Board(4, 4), str(run), 16, str(tmp_path / "c"), notes.append)
    assert third["game"] == first["game"] and any("made for another run or line" in n for n in notes)
    assert [r.get("move") for r in Journal(run / (LINE_LOG + ".old")).read()] == [None, "A1-A2"]
    # A journal that is not a line's gives one clear error.
    (run / LINE_LOG).unlink()
    Journal(run / LINE_LOG).append(records[0])
    Journal(run / LINE_LOG).append({"mov": "A1-A2"})
    r = cli("record", "4x4", "--from-run", str(run), "--out", str(tmp_path / "d"), "--table-mb", "16")
    assert r.returncode == 2 and "does not fit this run's line" in r.stderr and "Traceback" not in r.stderr


def test_a_line_search_stopped_midway_keeps_its_nodes_and_resumes(tmp_path, monkeypatch):
    from solver.sanjego.engine import Engine as RealEngine
    from solver.sanjego.results import LINE_LOG, record_from_run
    run = tmp_path / "run"
    r = cli("solve", "4x4", "--run", str(run), "--workers", "1", "--table-mb", "16", "--quiet")
    assert r.returncode == 0, r.stderr
    (run / "table.warm").unlink()  # from an empty table: every move costs a search
    for name in "ab":
        (tmp_path / name).mkdir()
    keeps, calls = RealEngine.keeps, []

    def stopped_at_the_fourth(self, *args):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return keeps(self, *args)

    monkeypatch.setattr(RealEngine, "keeps", stopped_at_the_fourth)
    with pytest.raises(KeyboardInterrupt):
        record_from_run(Board(4, 4), str(run), 16, str(tmp_path / "a"))
    records = Journal(run / LINE_LOG).read()
    assert "interrupted" in records[-1] and records[-1]["nodes"] == records[-1]["interrupted"]
    monkeypatch.setattr(RealEngine, "keeps", keeps)
    _, record = record_from_run(Board(4, 4), str(run), 16, str(tmp_path / "b"))
    final, _ = replay(Board(4, 4), record["game"])
    assert final.margin() == record["value"] == 1
    done = Journal(run / LINE_LOG).read()
    from solver.checkpoint import RunDir
    assert done[:len(records)] == records
    assert record["nodes"] - RunDir(run).read_result()["nodes"] == sum(r["nodes"] for r in done)


def test_record_from_a_run_with_its_own_seed_and_a_verification_that_later_disagreed(tmp_path):
    run, out = tmp_path / "run", tmp_path / "results" / "sanjego"
    r = cli("solve", "4x3", "--run", str(run), "--workers", "1", "--table-mb", "16", "--seed", "7", "--quiet")
    assert r.returncode == 0, r.stderr
    r = cli("verify", str(run), "--table-mb", "16", "--quiet")
    assert r.returncode == 0 and "verified" in r.stdout, r.stderr
    r = cli("record", "4x3", "--from-run", str(run), "--out", str(out), "--table-mb", "16")
    assert r.returncode == 0 and "verified by a second run" in r.stdout, r.stderr
    # A later verification of the same run that disagreed leaves the earlier result.json behind.
    journal = Journal(run / "verify" / "journal.log")
    answer = next(rec for rec in journal.read() if "key" in rec)
    journal.append(dict(answer, ok=False))
    r = cli("record", "4x3", "--from-run", str(run), "--out", str(out), "--table-mb", "16")
    assert r.returncode == 0 and "not yet verified" in r.stdout, r.stderr
    assert json.loads((out / "4x3.json").read_text())["margin"]["verify"] is None


def test_check_line_takes_values_and_bounds_from_the_boards_table_and_searches_the_rest(tmp_path):
    game = json.loads((RESULTS / "4x4.json").read_text())["margin"]["game"]
    r = cli("check-line", "4x4", game, "--json", "--table-mb", "16")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["keeps_value"] and out["start_from_table"]
    assert out["table"].endswith("4x4-margin.sjt")
    # The table holds this very line (the record's game), so nothing is searched: two
    # answers per ply but the last, whose finished game is scored by the rules.
    assert out["bounds_from_table"] == 2 * (len(replay(Board(4, 4), game)[1]) - 1) and out["nodes"] == 0
    searched = json.loads(cli("check-line", "4x4", game, "--json", "--table-mb", "16", "--no-table").stdout)
    assert searched["keeps_value"] and not searched["start_from_table"] and searched["nodes"] > out["nodes"]
    assert searched["bounds_from_table"] == 0
    # A table is trusted for what it holds (--no-table trusts none): one holding only a wrong
    # start value cannot make this line pass, since the first move is searched.
    from solver.sanjego.book import write_positions
    board = Board(4, 4)
    wrong = tmp_path / "wrong.sjt"
    write_positions(str(wrong), board, "margin", [(Position.start(board), 3, 3)])
    r = cli("check-line", "4x4", game, "--json", "--table-mb", "16", "--table", str(wrong))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["first_bad_ply"] == 1 and out["value"] == 3 and out["value_after"] == 1
    # Stored bounds settle only the questions they decide: [1, 5] after ply 1 answers ">= +1"
    # there, and ">= +2" is searched.
    after = replay(board, game)[1]
    p1 = Position.start(board).play(after[0])
    write_positions(str(wrong), board, "margin", [(Position.start(board), 1, 1), (p1, 1, 5)])
    r = cli("check-line", "4x4", game, "--json", "--table-mb", "16", "--table", str(wrong))
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["bounds_from_table"] == 1
    r = cli("check-line", "4x4", game, "--table", str(RESULTS / "5x4-margin.sjt"))
    assert r.returncode == 2 and "5x4" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = cli("check-line", "4x4", game, "--table", str(tmp_path / "none.sjt"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    r = cli("check-line", "4x4", "", "--heads", "A1,B1", "--table", str(RESULTS / "4x4-margin.sjt"))
    assert r.returncode == 2 and "heads" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_only_a_nonzero_margin_decides_the_outcome():
    from solver.sanjego.results import outcome_from_margin
    assert outcome_from_margin({"value": 0, "game": "", "final": "3-3"}) is None
    assert outcome_from_margin(None) is None
    lost = outcome_from_margin({"value": -2, "game": "01. A1-B1", "final": "2-4"})
    assert lost["value"] == "second-big" and lost["from_margin"] == -2
