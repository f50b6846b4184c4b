"""Bad paths and damaged run directories on every game's command line: exit status 2 and
one line on stderr, never a traceback (the contract of solver/cli.py)."""

import json

import pytest
from sanjego_cli import solver_cli

from solver.checkpoint import CheckpointError, Journal, RunDir, _seal, write_checked_json


def assert_refused(args, says):
    r = solver_cli(*args)
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert says in r.stderr, r.stderr


@pytest.fixture
def places(tmp_path):
    (tmp_path / "afile").write_text("not a directory\n")
    (tmp_path / "adir").mkdir()
    (tmp_path / "graph.json").write_text(json.dumps({"edges": [[1, 2], [2, 3], [3, 1]], "faces": [[1, 2, 3], [1, 3, 2]]}))
    return {name: str(tmp_path / name) for name in ("afile", "adir", "missing")} | {
        "graph": str(tmp_path / "graph.json")}


@pytest.mark.parametrize("args, says", [
    (["sanjego", "solve", "3x3", "--run", "{afile}"], "not a directory"),
    (["sanjego", "solve", "3x3", "--run", ""], "empty"),
    (["sanjego", "status", "{afile}"], "not a directory"),
    (["sanjego", "status", "{missing}"], "does not exist"),
    (["sanjego", "verify", "{afile}"], "not a directory"),
    (["sanjego", "verify", "{adir}", "--out", "{afile}"], "not a directory"),
    (["sanjego", "record", "3x3", "--out", "{afile}"], "not a directory"),
    (["sanjego", "record", "3x3", "--from-run", "{missing}", "--out", "{adir}"], "does not exist"),
    (["sanjego", "record", "3x3", "--table-depth", "-1", "--out", "{adir}"], "0 or a positive integer"),
    (["sanjego", "heads", "3x3", "--record", "--out", "{afile}"], "not a directory"),  # before the solves
    (["sanjego", "heads", "3x3", "--out", "{adir}"], "add --record"),
    (["sanjego", "series", "4x2", "--results", "{missing}"], "does not exist"),
    (["sanjego", "query", "3x3", "--table", ""], "empty"),
    (["sanjego", "check-line", "3x3", "A1-A2", "--table", "{missing}", "--no-table"], "exclude each other"),
    (["gent", "show", "cube", "--outer", "f1", "--svg", "{adir}"], "is a directory"),
    (["gent", "show", "cube", "--outer", "f1", "--svg", "{afile}/x.svg"], "x.svg"),
    (["gent", "info", "cube", "--outer", ""], "not a face"),
    (["gent", "info", "cube", "--outer", "-"], "not a face"),
    (["gent", "solve", "cube", "--outer", "f1", "--climb", "nan"], "--climb"),
    (["gent", "solve", "cube", "--outer", "f1", "--run", "{afile}"], "not a directory"),
    (["gent", "status", "{afile}"], "not a directory"),
    (["gent", "record", "{adir}", "--out", "{afile}"], "not a directory"),
    (["gent", "info", "--graph", "{graph}#nosuch"], "drop #nosuch"),
    (["serans", "show", "--to-move", "B"], "give --board too"),
    (["life", "solve", "--size", "4x4", "--quarter", "2", "--tokens", "2", "--generations", "2",
      "--order", "first", "--coin", "against-first"], "--coin is for --order coin"),
    (["serans", "play", "--depth", "0"], "positive integer"),
    (["serans", "play", "--exact", "--depth", "2"], "--depth"),
    (["sanjego", "solve", "3x3", "--split-nodes", "1.5"], "whole number"),
    (["life", "selfplay", "--place-every", "-1"], "0 or a positive integer"),
])
def test_bad_paths_and_options_exit_2_with_one_line(places, args, says):
    assert_refused([a.format(**places) for a in args], says)


def test_a_series_refuses_a_damaged_record_instead_of_solving_past_it(tmp_path):
    (tmp_path / "4x2.json").write_text("{not json")
    assert_refused(["sanjego", "series", "4x2", "--results", str(tmp_path)], "damaged")
    (tmp_path / "4x2.json").write_text("[1, 2]")
    assert_refused(["sanjego", "series", "4x2", "--results", str(tmp_path)], "damaged")


def _run_with_journal(tmp_path):
    run = tmp_path / "run"
    assert solver_cli("sanjego", "solve", "3x3", "--run", str(run), "--workers", "1", "--table-mb", "8").returncode == 0
    return run


def test_record_from_a_run_refuses_another_measure(tmp_path):
    run = _run_with_journal(tmp_path)
    assert_refused(["sanjego", "record", "3x3", "--from-run", str(run), "--measure", "outcome",
                    "--out", str(tmp_path / "results")], "proves the margin only")


@pytest.mark.parametrize("damage, says", [
    ("manifest_list", "not a JSON object"),
    ("manifest_dir", "cannot read"),
    ("manifest_depth", "bad manifest (depth -5)"),
    ("journal_list", "not a record"),
    ("journal_field", "bad record at line 1"),
    ("journal_dir", "cannot read"),
    ("result", "result.json: damaged"),
])
def test_a_damaged_run_with_sound_checksums_is_refused(tmp_path, damage, says):
    run = _run_with_journal(tmp_path)
    manifest, journal = run / "manifest.json", run / "journal.log"
    if damage == "manifest_list":
        manifest.write_text(_seal([1, 2]) + "\n")
    elif damage == "manifest_dir":
        manifest.unlink()
        manifest.mkdir()
    elif damage == "manifest_depth":
        from solver.checkpoint import read_checked_json
        write_checked_json(manifest, dict(read_checked_json(manifest), depth=-5))
    elif damage == "journal_list":
        journal.write_text(_seal(["key"]) + "\n")
    elif damage == "journal_field":
        journal.write_text(_seal({"key": "zz", "k": 1, "lo": 0, "hi": 1, "nodes": 1, "seconds": 0}) + "\n")
    elif damage == "journal_dir":
        journal.unlink()
        journal.mkdir()
    else:
        (run / "result.json").write_text("garbage\n")
    assert_refused(["sanjego", "status", str(run)], says)
    if damage not in ("result", "manifest_depth"):  # a resume compares the manifest with its options
        assert_refused(["sanjego", "solve", "3x3", "--run", str(run), "--resume", "--workers", "1"], says)


def test_checkpoint_files_of_the_wrong_shape(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(CheckpointError, match="cannot create"):
        RunDir(tmp_path / "afile" / "run").create({})
    (tmp_path / "j.log").write_text(_seal({"a": 1}) + "\n" + _seal({"b": 2}) + "\n")
    seen = []
    Journal(tmp_path / "j.log").replay(lambda record: seen.append(record.get("a")))
    with pytest.raises(CheckpointError, match="bad record at line 2"):
        Journal(tmp_path / "j.log").replay(lambda record: record["a"])
    assert seen == [1, None]
