"""The command-line contract: `python -m solver sanjego ...`."""

import json
import re
import subprocess
import sys

import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True, text=True,
                          timeout=300)


def test_solve_json():
    r = run("sanjego", "solve", "4x3", "--json", "--table-mb", "8")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["board"] == "4x3" and out["moves"] == [] and out["measure"] == "margin"
    assert out["value"] == 2
    assert out["nodes"] > 0 and out["seconds"] >= 0


def test_solve_after_moves_outcome():
    r = run("sanjego", "solve", "4x3", "--moves", "01. b2-c2 B1-C1", "--measure", "outcome", "--json")
    out = json.loads(r.stdout)
    assert out["moves"] == ["B2-C2", "B1-C1"]
    assert out["value"] in ("first-big", "first-small", "draw", "second-small", "second-big")


def test_value_is_first_players_view_whoever_moves():
    # After one move the second player is to move; the value is still the first player's margin.
    r = run("sanjego", "analyse", "4x3", "--json")
    analysis = json.loads(r.stdout)["analysis"]
    for item in analysis[:2]:
        child = json.loads(run("sanjego", "solve", "4x3", "--moves", item["move"], "--json").stdout)
        assert child["value"] == item["value"]
    assert json.loads(r.stdout)["value"] == 2 == analysis[0]["value"]


def test_line_prints_numbered_game_to_the_end():
    r = run("sanjego", "line", "4x3")
    assert r.returncode == 0, r.stderr
    assert "01. " in r.stdout and "final heights:" in r.stdout and "margin +2" in r.stdout
    out = json.loads(run("sanjego", "line", "4x3", "--moves", "b2-c2", "--json").stdout)
    assert out["final_margin"] == out["value"] == 2
    assert out["game"].startswith("01. B2-C2 ")


def test_analyse_text():
    r = run("sanjego", "analyse", "3x3")
    assert r.returncode == 0
    assert r.stdout.count("*") >= 1 and "B2-" in r.stdout


def test_perft():
    r = run("sanjego", "perft", "5x4", "3")
    assert r.returncode == 0 and "19543" in r.stdout


@pytest.mark.parametrize("args", [
    ["sanjego", "solve", "9x8"],
    ["sanjego", "solve", "banana"],
    ["sanjego", "solve", "6x4", "--moves", "G1-F1"],
    ["sanjego", "solve", "6x4", "--moves", "A1-C1"],
    ["sanjego", "solve", "6x4", "--moves", "B1-C1"],
    ["sanjego", "solve", "6x4", "--moves", "A1B1"],
    ["sanjego", "solve", "6x4", "--moves", "A1-B1 --"],
    ["sanjego", "solve", "6x4", "--measure", "points"],
    ["sanjego", "solve", "6x4", "--table-mb", "-1"],
    ["sanjego", "solve", "6x4", "--table-mb", "lots"],
    ["sanjego", "perft", "4x3", "-1"],
    ["sanjego", "frobnicate", "4x3"],
    ["sanjego"],
    ["chess"],
    [],
])
def test_bad_input_exits_2_with_one_line(args):
    r = run(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in r.stderr


@pytest.mark.parametrize("args", [[], ["sanjego"], ["sanjego", "solve"], ["sanjego", "line"],
                                  ["sanjego", "analyse"], ["sanjego", "perft"]])
def test_help_everywhere(args):
    r = run(*args, "--help")
    assert r.returncode == 0 and "usage:" in r.stdout


def test_progress_in_a_log_is_timestamped_lines(tmp_path):
    # stderr is a pipe here, as in a batch job's log: lines, not a tqdm bar; --quiet: nothing.
    r = run("sanjego", "solve", "3x3", "--workers", "1", "--run", str(tmp_path / "run"), "--table-mb", "8")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines and all(re.fullmatch(r"\[\d\d:\d\d:\d\d\] San Jego 3x3: \d+ of \d+ sub-proofs, value in .*", s)
                         for s in lines), r.stderr
    r = run("sanjego", "solve", "3x3", "--workers", "1", "--run", str(tmp_path / "quiet"), "--table-mb", "8",
            "--quiet")
    assert r.returncode == 0 and r.stderr == ""


def test_progress_lines_are_rate_limited(capsys):
    from solver.cli import Progress
    p = Progress(False, "job", "step", every=3600)
    p.show(1, 10, "first")
    p.show(2, 10, "too soon")
    with Progress(True, "job", "step", every=0) as quiet:
        quiet.show(1, 10)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].endswith("job: 1 of 10 steps, first")
    p.every = 0
    p.describe("renamed")
    p.show(3)
    assert capsys.readouterr().err.rstrip().endswith("renamed: 3 steps")


def test_progress_outlives_its_log(monkeypatch):
    import io
    from solver.cli import Progress
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    p = Progress(False, "job", "step", every=0)
    p.show(1, 2)
    log.close()
    p.show(2, 2)  # writing to a closed log raises inside; the work must go on
    assert p.log is False
