"""Parallel proofs, run directories, kill -9 and resume."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from solver.checkpoint import CheckpointError, Journal, RunDir
from solver.sanjego import Board, Position
from solver.sanjego.engine import Engine
from solver.sanjego.notation import format_moves
from solver.sanjego.parallel import ParallelProof


def solve_cmd(*args):
    return [sys.executable, "-m", "solver", "sanjego", "solve", *args, "--json", "--quiet"]


@pytest.mark.parametrize("size,workers,depth", [("4x3", 1, 1), ("4x4", 2, 2), ("3x3", 2, 4), ("6x2", 2, 3)])
def test_parallel_matches_sequential(size, workers, depth):
    board = Board.parse(size)
    start = Position.start(board)
    expected = Engine(board, table_mb=4).value(start)
    proof = ParallelProof(Engine(board, table_mb=8), start, [], depth, workers=workers)
    assert proof.solve() == expected


def test_parallel_from_a_position_and_outcome():
    board = Board(4, 3)
    engine = Engine(board, "outcome", table_mb=4)
    p = Position.start(board).play((board.cell("B2"), board.cell("C2")))
    assert ParallelProof(engine, p, [], 2, workers=2).solve() == engine.value(p)


def start_run_and_wait(run, args, lines=20, must_run=True):
    """Starts a run in its own process group; returns once its journal has `lines` lines.
    The run gets Ctrl-C as from a terminal even when this test runs in a background job
    (which starts with SIGINT ignored, and Python then leaves it ignored)."""
    proc = subprocess.Popen(solve_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    journal = run / "journal.log"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= lines:
            break
        time.sleep(0.02)
    assert not must_run or proc.poll() is None, "the run finished before it could be stopped"
    return proc, journal


def test_kill_9_and_resume(tmp_path):
    run = tmp_path / "run"
    args = ["5x4", "--run", str(run), "--workers", "2", "--depth", "3", "--table-mb", "64"]
    proc, journal = start_run_and_wait(run, args)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(Journal(journal).read())
    assert done >= 20 and not (run / "result.json").exists()
    r = subprocess.run(solve_cmd(*args, "--resume"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == 2
    assert out["subproofs"] >= done
    assert RunDir(run).read_result()["value"] == 2


def test_torn_last_line_is_dropped(tmp_path):
    j = Journal(tmp_path / "j.log")
    j.append({"a": 1})
    j.append({"a": 2})
    with open(j.path, "a") as f:
        f.write('deadbeef {"a": 3')
    before = open(j.path, "rb").read()
    assert j.read() == [{"a": 1}, {"a": 2}]
    assert open(j.path, "rb").read() == before  # reading never writes: a live run may be appending
    j.append({"a": 4})
    assert j.read() == [{"a": 1}, {"a": 2}, {"a": 4}]


def test_a_whole_last_line_that_lost_its_newline_is_kept_and_ended(tmp_path):
    j = Journal(tmp_path / "j.log")
    j.append({"a": 1})
    j.append({"a": 2})
    data = open(j.path, "rb").read()
    with open(j.path, "wb") as f:
        f.write(data.rstrip(b"\n"))
    assert j.read() == [{"a": 1}, {"a": 2}]
    j.append({"a": 3})
    assert j.read() == [{"a": 1}, {"a": 2}, {"a": 3}]
    assert open(j.path, "rb").read().count(b"\n") == 3


def test_damage_is_refused(tmp_path):
    run = tmp_path / "run"
    args = ["4x4", "--run", str(run), "--workers", "1", "--table-mb", "8"]
    assert subprocess.run(solve_cmd(*args), capture_output=True).returncode == 0
    lines = (run / "journal.log").read_text().splitlines()
    assert len(lines) >= 3
    lines[1] = lines[1].replace('"lo":', '"lo":1')
    (run / "journal.log").write_text("\n".join(lines) + "\n")
    r = subprocess.run(solve_cmd(*args, "--resume"), capture_output=True, text=True)
    assert r.returncode == 2 and "damaged" in r.stderr and len(r.stderr.splitlines()) == 1
    (run / "manifest.json").write_text((run / "manifest.json").read_text().replace("4x4", "4x5"))
    with pytest.raises(CheckpointError, match="damaged"):
        RunDir(run).open({})


def test_contradictory_answers_are_refused(tmp_path):
    run = tmp_path / "run"
    args = ["4x4", "--run", str(run), "--workers", "1", "--table-mb", "8"]
    assert subprocess.run(solve_cmd(*args), capture_output=True).returncode == 0
    journal = Journal(run / "journal.log")
    answer = next(r for r in journal.read() if "key" in r and r["hi"] < 32)
    journal.append(dict(answer, lo=answer["hi"] + 1, hi=32))  # sealed, so not damage: a contradiction
    r = subprocess.run(solve_cmd(*args, "--resume"), capture_output=True, text=True)
    assert r.returncode == 2 and "contradictory" in r.stderr and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("extra,message", [
    (["--depth", "3"], "depth"),
    (["--measure", "outcome"], "measure"),
    (["--moves", "b2-c2"], "moves"),
])
def test_resume_with_other_options_is_refused(tmp_path, extra, message):
    run = tmp_path / "run"
    base = ["4x3", "--run", str(run), "--workers", "1", "--table-mb", "8"]
    assert subprocess.run(solve_cmd(*base), capture_output=True).returncode == 0
    r = subprocess.run(solve_cmd(*base, *extra, "--resume"), capture_output=True, text=True)
    assert r.returncode == 2 and message in r.stderr


def test_new_run_into_existing_dir_or_resume_of_nothing_is_refused(tmp_path):
    run = tmp_path / "run"
    base = ["3x3", "--run", str(run), "--workers", "1", "--table-mb", "8"]
    r = subprocess.run(solve_cmd(*base, "--resume"), capture_output=True, text=True)
    assert r.returncode == 2 and "no run" in r.stderr
    assert subprocess.run(solve_cmd(*base), capture_output=True).returncode == 0
    r = subprocess.run(solve_cmd(*base), capture_output=True, text=True)
    assert r.returncode == 2 and "--resume" in r.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_stops_cleanly_and_resumes(tmp_path, sig):
    # The run may finish between the journal check and the signal on a loaded machine (the
    # whole proof takes about 2 s); then try again with a fresh run.
    for attempt in range(3):
        run = tmp_path / f"run{attempt}"
        args = ["7x3", "--run", str(run), "--workers", "2", "--depth", "2", "--table-mb", "64"]
        proc, journal = start_run_and_wait(run, args, lines=3, must_run=False)
        if proc.poll() is None:
            os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=60)
        if proc.returncode != 0:
            break
    assert proc.returncode == 130 and err.strip() == "python -m solver: interrupted"
    assert "session_wall" in Journal(journal).read()[-1]
    r = subprocess.run(solve_cmd(*args, "--resume"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == 2


def test_schedule_tries_deciding_moves_first_and_spreads_workers():
    board = Board.parse("4x3")
    proof = ParallelProof(Engine(board, table_mb=4), Position.start(board), [], 2, workers=2)
    k = 1
    root = proof.root
    first, second = root.children[0], root.children[1]
    # Pretend a later reply to the first move refuted it (< k); that reply,
    # where it is legal, must then be tried first after every other first move.
    # (A reply to no other first move's node, so that it decides one node only; the
    # first move may reach it by several replies, mirror images of each other.)
    nodes = {id(n): n for n in root.children}.values()

    def parents(c):
        return sum(any(x is c for x in n.children) for n in nodes)

    j = next(j for j, m in enumerate(first.moves) if j > 0 and m in second.moves[1:]
             and parents(first.children[j]) == 1)
    refuted = first.children[j]
    deciders = {m for m, c in zip(first.moves, first.children) if c is refuted}
    proof.bounds[refuted.key] = [-12, 0]
    memo = proof.intervals()
    # The replies decided their node; the first moves leading to that node (it and its
    # mirror image) failed at the root, which does not count against them.
    assert proof.deciding_moves(k, memo) == {(1, m): 1 for m in deciders}
    order = proof.schedule(k, memo, busy=set())
    assert len({leaf.key for leaf in order}) == len(order)
    undecided = {leaf.key for leaf, _ in proof.undecided_leaves(k, memo)}
    assert {leaf.key for leaf in order} == undecided
    assert first.key not in {leaf.key for leaf in order}  # decided: all its leaves are irrelevant
    assert order[0] is next(c for m, c in zip(second.moves, second.children) if m in deciders)
    assert order[0] is not second.children[0]
    # The second pick is the first reply to another first move, not a sibling of the first.
    assert order[1] not in second.children
    assert proof.schedule(k, memo, busy={order[0].key})[0] is order[1]


def test_a_reply_that_failed_elsewhere_keeps_its_place_among_untried_replies():
    # Session 24's 6x5 run e: one failure put a first move's cheap refuter behind
    # every untried reply. A failure is no evidence against the next first move.
    board = Board.parse("4x3")
    proof = ParallelProof(Engine(board, table_mb=4), Position.start(board), [], 2, workers=2)
    k = 1
    first, second = proof.root.children[0], proof.root.children[1]
    before = proof._search_order(second, {}, k, proof.intervals())
    for m, c in zip(first.moves, first.children):
        if m in second.moves:
            proof.bounds[c.key] = [k, 12]  # this reply failed to refute the first move
            break
    memo = proof.intervals()
    assert proof.deciding_moves(k, memo) == {}
    assert proof._search_order(second, proof.deciding_moves(k, memo), k, memo) == before


def test_status_reports_what_the_journal_proves(tmp_path):
    run = tmp_path / "run"
    r = subprocess.run(solve_cmd("4x3", "--run", str(run), "--workers", "1", "--depth", "2",
                                 "--table-mb", "16"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    value = json.loads(r.stdout)["value"]
    status = [sys.executable, "-m", "solver", "sanjego", "status", str(run)]
    done = json.loads(subprocess.run(status + ["--json"], capture_output=True, text=True).stdout)
    assert done["bounds"] == [value, value] and done["finished"]
    assert "undecided_for" not in done and done["subproofs"] > 0
    text = subprocess.run(status, capture_output=True, text=True).stdout
    assert f"value {value:+d}" in text
    # Keep only the first answers: the bounds widen and the next question is named.
    journal = run / "journal.log"
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:2]))
    (run / "result.json").unlink()
    part = json.loads(subprocess.run(status + ["--json"], capture_output=True, text=True).stdout)
    lo, hi = part["bounds"]
    assert lo <= value <= hi and lo < hi and not part["finished"]
    assert part["undecided_for"]["k"] == min(max(0, lo), hi - 1) + 1 and part["undecided_for"]["leaves"] > 0
    assert len(part["root_moves"]) == len(Position.start(Board.parse("4x3")).legal_moves())
    u = part["undecided_for"]
    assert u["maximise"] and 0 <= u["moves_settled"] < u["moves"] <= len(part["root_moves"])
    assert 0 <= u["replies_settled"] < u["replies"] and u["lead"] in [m["move"] for m in part["root_moves"]]
    text = subprocess.run(status, capture_output=True, text=True).stdout
    assert f"distinct root moves proven < {u['k']:+d}: {u['moves_settled']} of {u['moves']}; {u['lead']}" in text
    bad = subprocess.run(status[:-1] + [str(tmp_path / "none")], capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def finished_run(tmp_path, size="4x4", depth=2):
    run = tmp_path / "run"
    r = subprocess.run(solve_cmd(size, "--run", str(run), "--workers", "2", "--depth", str(depth),
                                 "--table-mb", "16"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return run, json.loads(r.stdout)["value"]


def verify_cmd(run, *args):
    return subprocess.run([sys.executable, "-m", "solver", "sanjego", "verify", str(run), "--table-mb", "16",
                           "--quiet", *args], capture_output=True, text=True, timeout=300)


def test_verify_asks_one_proof_tree_again_and_resumes(tmp_path):
    run, value = finished_run(tmp_path)
    r = verify_cmd(run, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] and out["value"] == value and out["seed"] != 0x5A4E4A45474F
    records = [json.loads(line.split(" ", 1)[1]) for line in (run / "verify" / "journal.log").read_text().splitlines()]
    questions = [q for q in records if "key" in q]
    assert len(questions) == out["questions"] > 0 and all(q["ok"] for q in questions)
    # Both halves: "value >= v" and "value < v + 1".
    assert {q["k"] for q in questions} == {value, value + 1}
    # The run's moves that settled leaves its movers' way are searched first, as witnesses.
    witnessed = [q for q in questions if "witness" in q]
    assert witnessed and any(q["by_witness"] for q in witnessed)
    # The proof tree asks fewer questions than the run answered.
    assert out["questions"] < sum(1 for _ in Journal(run / "journal.log").read())
    # Running it again asks nothing new; another seed is another verification directory's job.
    again = verify_cmd(run, "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["nodes"] == out["nodes"]
    assert (run / "verify" / "journal.log").read_text().count("\n") == len(records)
    other = verify_cmd(run, "--seed", "7")
    assert other.returncode == 2 and "seed" in other.stderr and len(other.stderr.strip().splitlines()) == 1
    default = verify_cmd(run, "--seed", str(0x5A4E4A45474F))
    assert default.returncode == 2


def test_a_run_or_verification_in_use_by_another_process_is_refused(tmp_path):
    """A second writer beside a live one would repeat its work and count its nodes twice."""
    run, value = finished_run(tmp_path, "4x3")
    resume = solve_cmd("4x3", "--run", str(run), "--workers", "1", "--table-mb", "16", "--resume")
    live = RunDir(run)
    live.claim()  # as the live run holds it
    try:
        r = subprocess.run(resume, capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and "in use" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        status = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), "--json"],
                                capture_output=True, text=True, timeout=300)
        assert status.returncode == 0 and json.loads(status.stdout)["bounds"] == [value, value]
        assert json.loads(status.stdout)["live"] is True and not live.in_use()  # only others' claims count
    finally:
        live.release()
    assert not RunDir(run).in_use()
    r = subprocess.run(resume, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == value
    assert verify_cmd(run).returncode == 0
    live = RunDir(run / "verify")
    live.claim()
    try:
        r = verify_cmd(run)
        assert r.returncode == 2 and "in use" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        status = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run), "--json"],
                                capture_output=True, text=True, timeout=300)
        assert (json.loads(status.stdout)["live"], json.loads(status.stdout)["verify_live"]) == (False, True)
    finally:
        live.release()
    assert verify_cmd(run).returncode == 0


@pytest.mark.parametrize("with_move", [False, True])
def test_verify_catches_a_wrong_answer_in_the_run(tmp_path, monkeypatch, with_move):
    """A run whose searches said "yes" for every leaf below its first move (as a hash
    collision might have) finishes with a value too high; the verification must fail,
    also where the run journaled a move as the witness of each false "yes"."""
    from solver.sanjego import parallel
    board = Board(4, 3)
    start = Position.start(board)
    truth = Engine(board, table_mb=4).value(start)
    first = start.play(start.legal_moves()[0])
    lied_about = {(tuple(first.play(m).heights), tuple(first.play(m).core_owners)): first.play(m).legal_moves()[0]
                  for m in first.legal_moves()}
    honest = parallel.prove

    def prove(config, heights, owners, side, k, budget=None, hints=(), core=None):
        lie = lied_about.get((tuple(heights), tuple(owners)))
        if lie is not None:
            return k, 1, 0.0, lie if with_move else None
        return honest(config, heights, owners, side, k, core=core)

    monkeypatch.setattr(parallel, "prove", prove)
    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, table_mb=4), start, [], 2, run_dir=run, workers=1)
    wrong = proof.solve()
    monkeypatch.setattr(parallel, "prove", honest)
    assert wrong > truth
    lies = [r for r in Journal(run / "journal.log").read() if "key" in r and r["nodes"] == 1]
    assert lies and with_move == any("move" in r for r in lies)
    r = verify_cmd(run)
    assert r.returncode == 1 and "FAILED" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_verify_refuses_an_unfinished_or_missing_run(tmp_path):
    r = verify_cmd(tmp_path / "none")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    run, _ = finished_run(tmp_path, "4x3")
    (run / "result.json").unlink()
    r = verify_cmd(run)
    assert r.returncode == 2 and "not finished" in r.stderr


def test_verify_a_bound_of_an_unfinished_run_then_its_value(tmp_path):
    """An unfinished run that has proven "value >= v" (here a finished one without its
    "< v + 1" half) gets that bound verified; once the run has finished, the verification
    of the value asks only the other half."""
    import shutil
    from solver.sanjego.parallel import open_run
    run, value = finished_run(tmp_path)
    part = tmp_path / "part"
    shutil.copytree(run, part)
    (part / "result.json").unlink()
    (part / "journal.log").unlink()
    journal = Journal(part / "journal.log")
    for record in Journal(run / "journal.log").read():
        if record.get("k") != value + 1:
            journal.append(record)
    lo, hi = open_run(part)[0].intervals()[open_run(part)[0].root.key]
    assert lo == value < hi
    r = verify_cmd(part)
    assert r.returncode == 2 and "--at-least" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = verify_cmd(part, "--at-least", str(value + 1))
    assert r.returncode == 2 and f"not >= {value + 1:+d}" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = verify_cmd(part, "--at-least", "-16")  # the rules alone prove it: nothing to verify
    assert r.returncode == 2 and "rules alone" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = verify_cmd(part, "--at-least", str(value), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] and out["at_least"] == value and "value" not in out and out["questions"] > 0
    asked = [q for q in Journal(part / "verify" / "journal.log").read() if "key" in q]
    assert len(asked) == out["questions"] and {q["k"] for q in asked} == {value} and all(q["ok"] for q in asked)
    status = [sys.executable, "-m", "solver", "sanjego", "status", str(part)]
    text = subprocess.run(status, capture_output=True, text=True).stdout
    assert f'"value >= {value:+d}" verified by a second run' in text
    js = json.loads(subprocess.run(status + ["--json"], capture_output=True, text=True).stdout)
    assert js["verified"] is None and js["verified_bound"]["at_least"] == value
    assert js["verify_journal"]["answers"] == len(asked)
    assert js["verify_journal"]["nodes"] == sum(q["nodes"] for q in asked)
    assert "verification journal" not in text  # it holds the verified bound's answers, nothing more
    # A weaker bound verified after it leaves the stronger one in result.json.
    assert verify_cmd(part, "--at-least", str(value - 1)).returncode == 0
    assert RunDir(part / "verify").read_result()["at_least"] == value
    weaker = [q for q in Journal(part / "verify" / "journal.log").read() if "key" in q][len(asked):]
    assert weaker and {q["k"] for q in weaker} == {value - 1} and sum(q["nodes"] for q in weaker) > 0
    text = subprocess.run(status, capture_output=True, text=True).stdout
    assert f"verification journal ({part / 'verify'}): {len(asked) + len(weaker)} answers" in text
    # The run finishes (here: its whole journal comes back); the value's verification
    # keeps the bound's answers and asks the "< v + 1" half only.
    shutil.copy(run / "journal.log", part / "journal.log")
    shutil.copy(run / "result.json", part / "result.json")
    r = verify_cmd(part, "--json")
    assert r.returncode == 0, r.stderr
    full = json.loads(r.stdout)
    now = [q for q in Journal(part / "verify" / "journal.log").read() if "key" in q]
    assert now[:len(asked)] == asked and {q["k"] for q in now[len(asked) + len(weaker):]} == {value + 1}
    assert full["value"] == value
    # Its nodes are its own certificate's, not those of the weaker bound's answers.
    assert full["nodes"] <= sum(q["nodes"] for q in now if q["k"] != value - 1)
    text = subprocess.run(status, capture_output=True, text=True).stdout
    assert "verified by a second run" in text and '"value >=' not in text
    # Verifying the bound again leaves the value's verification standing.
    assert verify_cmd(part, "--at-least", str(value)).returncode == 0
    assert "value" in RunDir(part / "verify").read_result()
    # Answers given for another run (one that expected "no" where this one proves "yes")
    # are refused, not taken.
    records = list(Journal(part / "verify" / "journal.log").read())
    (part / "verify" / "journal.log").unlink()
    (part / "verify" / "result.json").unlink()
    forged = Journal(part / "verify" / "journal.log")
    for record in records:
        if record.get("key") == asked[0]["key"] and record["k"] == value:
            record = dict(record, expected=False, v=value - 1)
        forged.append(record)
    r = verify_cmd(part, "--at-least", str(value))
    assert r.returncode == 2 and "another run" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_verify_estimates_what_is_left_from_its_own_answers(tmp_path):
    """Nodes to go: the run's cost of the open questions, scaled by this verification's
    nodes per node of the run's on the questions it has answered."""
    from solver.sanjego.parallel import open_run
    from solver.sanjego.verify import Verification
    run, value = finished_run(tmp_path)
    check = Verification(open_run(run)[0], run, table_mb=16)
    left, ratio = check.to_go()
    assert ratio == 1.0 and left == sum(check.run_costs.values()) > 0
    assert verify_cmd(run, "--at-least", str(value)).returncode == 0  # the ">= v" half
    check = Verification(open_run(run)[0], run, table_mb=16)
    mine = theirs = 0
    for leaf, k, _ in check.questions:
        if k == value and check.run_costs[leaf.key, k]:
            mine += check.answered[leaf.key, k]["nodes"]
            theirs += check.run_costs[leaf.key, k]
    open_cost = sum(check.run_costs[leaf.key, k] for leaf, k, _ in check.remaining())
    assert {k for _, k, _ in check.remaining()} == {value + 1}
    assert check.to_go() == (round(open_cost * mine / theirs), mine / theirs)
    check.live_nodes = 10 ** 15  # more than is left: nothing to go, never less
    assert check.to_go()[0] == 0


def test_a_leaf_never_asked_costs_what_the_question_that_settled_it_did():
    from solver.sanjego.verify import leaf_costs
    a, b = "aa", "bb"
    records = [{"key": a, "k": 1, "lo": 1, "hi": 9, "nodes": 50},
               {"key": b, "k": 2, "lo": 2, "hi": 9, "nodes": 70},
               {"key": b, "k": 3, "lo": 3, "hi": 9, "nodes": 30},
               {"key": a, "k": 2, "lo": -9, "hi": 1, "nodes": 5},
               {"split": a, "k": 1, "nodes": 1}]
    assert leaf_costs(records, 1) == {bytes.fromhex(a): 50 + 1, bytes.fromhex(b): 30}  # its split's node too
    assert leaf_costs(records, 2) == {bytes.fromhex(a): 5, bytes.fromhex(b): 70}
    assert leaf_costs(records, 3, at_least=False) == {bytes.fromhex(a): 5, bytes.fromhex(b): 30}
    assert leaf_costs(records, 4, at_least=False) == {bytes.fromhex(a): 5}


def test_verify_needs_other_keys_than_the_run_and_matching_files(tmp_path):
    run = tmp_path / "run"
    r = subprocess.run(solve_cmd("4x3", "--run", str(run), "--workers", "1", "--depth", "2", "--table-mb", "16",
                                 "--seed", "795745621"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    # The run's own seed (stored in its manifest) is refused, as is resuming with another.
    r = verify_cmd(run)
    assert r.returncode == 2 and "run's own" in r.stderr
    r = subprocess.run(solve_cmd("4x3", "--run", str(run), "--workers", "1", "--depth", "2", "--table-mb", "16",
                                 "--resume"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "seed" in r.stderr
    for bad in ("-1", str(1 << 64), "x"):
        r = verify_cmd(run, "--seed", bad)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert not (run / "verify").exists()
    assert verify_cmd(run, "--seed", "5").returncode == 0
    status = [sys.executable, "-m", "solver", "sanjego", "status", str(run), "--json"]
    assert "verified by a second run" in subprocess.run(status[:-1], capture_output=True, text=True).stdout
    # A verification of another run's value is not this run's.
    (run / "verify" / "result.json").write_text((run / "verify" / "result.json").read_text().replace(
        '"value":2', '"value":3'))
    r = subprocess.run(status, capture_output=True, text=True)
    assert r.returncode == 2 and "damaged" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_verification_left_from_another_run_does_not_count(tmp_path):
    run, _ = finished_run(tmp_path, "4x3")
    assert verify_cmd(run).returncode == 0
    other = tmp_path / "other"
    r = subprocess.run(solve_cmd("4x3", "--run", str(other), "--workers", "1", "--depth", "2", "--table-mb", "16",
                                 "--measure", "outcome"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    import shutil
    shutil.copytree(run / "verify", other / "verify")
    status = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(other)],
                            capture_output=True, text=True)
    assert status.returncode == 0 and "verified" not in status.stdout


def test_split_sub_proofs_resume_and_verify(tmp_path):
    """Sub-proofs over their node budget are split into their children (the C search checks
    the budget every 2^20 nodes, so on 4x5 from depth 1 a few are); the splits are journaled,
    rebuilt on resume, and the verification walks the deeper tree."""
    board = Board.parse("4x5")
    start = Position.start(board)
    expected = Engine(board, table_mb=16).value(start)
    run = tmp_path / "run"
    r = subprocess.run(solve_cmd("4x5", "--run", str(run), "--workers", "1", "--depth", "1", "--table-mb", "16",
                                 "--split-nodes", "1"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == expected and out["splits"] > 0
    records = list(Journal(run / "journal.log").read())
    splits = [rec for rec in records if "split" in rec]
    assert len(splits) == out["splits"] and all(rec["nodes"] > 1 for rec in splits)
    from solver.sanjego.parallel import open_run
    from solver.sanjego.verify import leaf_paths
    proof, _ = open_run(run)
    assert proof.splits == out["splits"] and proof.intervals()[proof.root.key] == (expected, expected)
    assert max(len(path) for path in leaf_paths(proof).values()) > 1  # leaves below the first ply
    v = verify_cmd(run, "--json")
    assert v.returncode == 0, v.stderr
    assert json.loads(v.stdout)["ok"]
    # What the run spent is counted in the estimate with the nodes of the split sub-proofs
    # above the proof tree's leaves (their children were cheap: the split left the table warm).
    from solver.sanjego.verify import certificate, leaf_costs
    more = []
    for k, at_least in ((expected, True), (expected + 1, False)):
        costs = leaf_costs(records, k, at_least)
        leaves_only = {key: c for key, c in costs.items() if key not in {
            bytes.fromhex(rec["split"]) for rec in splits}}
        more.append(certificate(proof, k, at_least, costs)[0] - certificate(proof, k, at_least, leaves_only)[0])
    assert min(more) >= 0 and max(more) > 0
    bad = subprocess.run(solve_cmd("4x3", "--split-nodes", "0"), capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_a_split_leaf_keeps_its_own_answers(tmp_path):
    proof = ParallelProof(Engine(Board.parse("4x3"), table_mb=8), Position.start(Board.parse("4x3")), [], 1,
                          workers=1)
    leaf = proof.leaves[0]
    proof.bounds[leaf.key] = [1, 3]
    proof._apply({"split": leaf.key.hex(), "k": 2, "nodes": 5, "seconds": 0.1})
    assert leaf.children and proof.splits == 1 and proof.nodes == 5
    lo, hi = proof.intervals()[leaf.key]
    assert lo >= 1 and hi <= 3
    assert proof.solve() == Engine(Board.parse("4x3"), table_mb=8).value(Position.start(Board.parse("4x3")))


def test_a_waiting_run_sees_the_nodes_of_its_sub_proofs_in_flight():
    # Progress of a run whose sub-proofs take hours must not wait for them to finish.
    from solver.sanjego.parallel import LocalPool
    board = Board(5, 4)
    p = Position.start(board)
    engine = Engine(board, "margin", table_mb=16)
    config = (board.core_geometry(), "margin", 16 << 20, None, False)
    pool = LocalPool(1, config)
    future = pool.submit(config, *p.core_args, 3, tag=(b"leaf", 3))
    seen, flights, done = [], [], set()
    while not done:
        done = pool.wait([future], timeout=0.01)
        seen.append(pool.live_nodes())
        flights += pool.in_flight()  # what a session journals on the way (sessions)
    v, nodes, _, _ = future.result()
    pool.close()
    assert v < 3 and engine.value(p) == 2
    assert 0 < max(seen) <= nodes and pool.live_nodes() == 0 and pool.in_flight() == []
    assert {f[:2] for f in flights} == {(b"leaf", 3)} and 0 < max(f[2] for f in flights) <= nodes


def _root_order(proof, k):
    """Indices of the root's children in the frontier's search order for ">= k", by the
    bounds the proof holds now."""
    memo = proof.intervals()
    return proof._search_order(proof.root, proof.deciding_moves(k, memo), k, memo)


def test_question_progress_names_the_root_move_searched_first_even_when_a_later_one_is_split():
    from solver.sanjego.notation import format_moves
    board = Board.parse("4x3")
    proof = ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 1, workers=1)
    root, k = proof.root, 1
    order = _root_order(proof, k)
    proof._split(root.children[order[1]])  # as after a sub-proof over --split-nodes
    memo = proof.intervals()
    u = proof.question_progress(k, memo)
    assert proof.undecided_leaves(k, memo)[0][0] is root.children[order[0]]
    assert u["lead"] == format_moves(board, [root.moves[order[0]]]) and "replies" not in u


def test_progress_rate_counts_the_sub_proofs_in_flight(capsys, monkeypatch):
    # A fresh run has no finished sub-proof for hours on a big board: the rate still shows.
    from types import SimpleNamespace
    from solver.sanjego.cli import FrontierProgress
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    progress = FrontierProgress(False, "6x6")
    progress.started -= 10.0
    proof = SimpleNamespace(subproofs=0, nodes=5_000_000, nodes_before=5_000_000, live_nodes=40_000_000,
                            workers=2, cpu_seconds=0.0)
    progress(proof, 811, (-36, 36), 1)
    line = capsys.readouterr().err
    assert "45,000,000 nodes" in line and ("2.00 M nodes/s/worker" in line or "1.99 M nodes/s/worker" in line), line


def test_a_decided_root_stops_the_sub_proofs_still_in_flight(monkeypatch):
    # A sub-proof can run a whole --split-nodes budget: once the root is decided, the run must
    # not wait for one that can no longer matter.
    from solver.sanjego import parallel
    closed = []

    class InOrder(parallel.LocalPool):
        """Hands back finished sub-proofs one at a time, oldest first, so that others are
        still in flight when the root is decided."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.order = []

        def submit(self, *args, **kwargs):
            future = super().submit(*args, **kwargs)
            self.order.append(future)
            return future

        def wait(self, futures, timeout=None):
            oldest = min(futures, key=self.order.index)
            oldest.result()
            return [oldest]

        def close(self, abort=False):
            closed.append(abort)
            super().close(abort)

    monkeypatch.setattr(parallel, "LocalPool", InOrder)
    board = Board.parse("4x4")
    proof = ParallelProof(Engine(board, "margin", table_mb=16), Position.start(board), [], 2, workers=2)
    assert proof.solve() == Engine(board, "margin", table_mb=16).value(Position.start(board))
    assert closed == [True]


def _distinct_children(node):
    return list({c.key: c for c in node.children}.values())


def _last_first_move_of_4x3(k):
    """A depth-2 proof of 4x3, its board, and the root move searched last for ">= k" with its
    distinct replies."""
    board = Board.parse("4x3")
    proof = ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 2, workers=1)
    move = proof.root.children[_root_order(proof, k)[-1]]
    return proof, board, move, _distinct_children(move)


def test_the_root_move_with_most_replies_proven_stays_searched_first():
    k = 1
    proof, board, later, replies = _last_first_move_of_4x3(k)
    root = proof.root
    proof.bounds[replies[0].key] = [k, 12]  # one reply to the last first move proven >= k
    memo = proof.intervals()
    order = _root_order(proof, k)
    assert root.children[order[0]] is later
    assert proof.question_progress(k, memo)["lead"] == format_moves(board, [root.moves[order[0]]])
    assert proof.question_progress(k, memo)["replies_settled"] == 1
    leaf, _ = proof.undecided_leaves(k, memo)[0]
    assert leaf in later.children and leaf is not replies[0]


def test_the_root_move_that_proved_the_last_question_leads_the_next():
    """Once every reply to the last first move is proven >= k, that move is the one
    searched first for ">= k + 1" (no reply of any move holds there yet)."""
    k = 1
    proof, board, last, replies = _last_first_move_of_4x3(k)
    for reply in replies:
        proof.bounds[reply.key] = [k, 12]
    memo = proof.intervals()
    assert memo[proof.root.key][0] == k
    assert proof.root.children[_root_order(proof, k + 1)[0]] is last
    assert proof.question_progress(k + 1, memo)["lead"] == format_moves(board, [proof.root.moves[
        proof.root.children.index(last)]])


def test_status_estimates_the_lead_s_open_replies_from_its_settled_ones():
    from solver.sanjego.cli import _last_session_rate, _reply_estimate
    k = 1
    proof, _, lead, replies = _last_first_move_of_4x3(k)
    records = [{"key": replies[0].key.hex(), "k": k, "lo": k, "hi": 12, "nodes": 3 * 10 ** 9, "seconds": 1000},
               {"session_wall": 900},
               {"interrupted": replies[1].key.hex(), "k": k, "nodes": 10 ** 9, "seconds": 1000},
               {"dropped": replies[2].key.hex(), "k": k + 1, "nodes": 5 * 10 ** 9, "seconds": 1000},
               {"session_wall": 1100}]
    for record in records:
        if "session_wall" not in record:
            proof._apply(record)
    u = proof.question_progress(k, proof.intervals())
    assert (u["replies_settled"], u["settled_nodes"], u["open_nodes"]) == (1, 3 * 10 ** 9, 10 ** 9)
    rate = _last_session_rate(records)  # the last session's: 6 x 10^9 nodes in 2,000 s
    assert rate == 3e6 and _last_session_rate(records[:1]) is None
    line = _reply_estimate(u, rate)
    left = len(replies) - 1
    assert f"took 3.00 x 10^9 nodes each on average; at that rate the other {left} need about " \
           f"{3 * left - 1} x 10^9 more (1.0 x 10^9 spent on them so far)" in line
    hours = (3 * left - 1) * 1e9 / 3e6 / 3600
    assert line.endswith(f", {hours:.0f} CPU-hours at the last session's 3.00 M nodes/s per worker")
    assert "CPU-hours" not in _reply_estimate(u, None)


def _run_of_4x3(tmp_path):
    """(board, run directory, proof) of a new depth-2 run of 4x3, nothing searched yet."""
    board, run = Board.parse("4x3"), tmp_path / "run"
    return board, run, ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 2, workers=1,
                                     run_dir=str(run))


def _lead_and_its_first_reply(tmp_path, k):
    """(board, run directory, proof, lead, reply): a new depth-2 run of 4x3, its first move
    searched first for ">= k" and that move's reply searched first."""
    board, run, proof = _run_of_4x3(tmp_path)
    lead = proof.root.children[_root_order(proof, k)[0]]
    memo = proof.intervals()
    return board, run, proof, lead, lead.children[proof._first_open(lead, proof.deciding_moves(k, memo), k, memo)]


def _refutation_begun(proof, reply, k, split_nodes, answer_nodes):
    """Journals for `reply` what a run refuting through it writes first: its split, then one of
    its last distinct reply proven < k. Returns (records, distinct replies)."""
    records = [{"split": reply.key.hex(), "k": k, "nodes": split_nodes, "seconds": 100}]
    proof._apply(records[0])
    answers = _distinct_children(reply)
    records.append({"key": answers[-1].key.hex(), "k": k, "lo": -12, "hi": k - 1, "nodes": answer_nodes,
                    "seconds": 100})
    proof._apply(records[1])
    return records, answers


def test_question_progress_follows_the_reply_that_would_refute_the_lead(tmp_path):
    # On 6x6 ">= +2" the lead D2-D3 had no reply proven >= +2 for hours: what moved was its
    # split reply C4-D4, whose first-player answers were being proven < +2 one by one.
    from solver.sanjego.cli import _reply_estimate
    k = 1
    board, run, proof, lead, reply = _lead_and_its_first_reply(tmp_path, k)
    assert "reply" not in proof.question_progress(k, proof.intervals())  # a leaf: one sub-proof
    records, answers = _refutation_begun(proof, reply, k, 10 ** 9, 2 * 10 ** 9)
    u = proof.question_progress(k, proof.intervals())
    r = u["reply"]
    assert r["move"] == format_moves(board, [lead.moves[lead.children.index(reply)]])
    assert (r["replies"], r["replies_settled"], r["settled_nodes"], r["open_nodes"]) == (len(answers), 1, 2 * 10 ** 9, 0)
    assert u["replies_settled"] == 0 and u["open_nodes"] == 3 * 10 ** 9  # the split's own nodes count with the reply
    line = _reply_estimate(dict(r, lead=f"{u['lead']} {r['move']}"), None)
    assert line.startswith(f"  {u['lead']} {r['move']}'s settled replies took 2.00 x 10^9 nodes each")
    for record in records:
        Journal(run / "journal.log").append(record)
    text = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)],
                          capture_output=True, text=True).stdout
    assert (f"  {u['lead']} {r['move']} (the reply searched first) has 1 of {len(answers)} distinct replies "
            f"proven < +1 (all must be, for it to refute {u['lead']})\n{line}") in text


def test_the_list_of_first_moves_says_where_each_refutation_stands(tmp_path):
    # Symmetric first moves share a node: each names the reply as played after it.
    from solver.sanjego.notation import replay
    k = 1
    board, run, proof = _run_of_4x3(tmp_path)
    children = proof.root.children
    move = next(c for c in children if children.count(c) > 1)
    memo = proof.intervals()
    reply = move.children[proof._first_open(move, proof.deciding_moves(k, memo), k, memo)]
    records, answers = _refutation_begun(proof, reply, k, 10 ** 9, 3 * 10 ** 9)
    shared = [e for e, c in zip(proof.summary()["root_moves"], children) if c is move]
    assert len(shared) > 1
    for e in shared:
        assert e["reply"]["replies"] == len(answers) and e["reply"]["replies_settled"] == 1
        # the split's own nodes count with the reply, not with its children
        assert (e["reply"]["settled_nodes"], e["reply"]["open_nodes"]) == (3 * 10 ** 9, 0)
        assert replay(board, f"{e['move']} {e['reply']['move']}")[0].canonical_key() == reply.key
    for record in records:
        Journal(run / "journal.log").append(record)
    text = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)],
                          capture_output=True, text=True).stdout
    for e in shared:
        assert (f"reply {e['reply']['move']} searched first: 1 of {len(answers)} of its replies proven < +1 "
                f"(3.00 x 10^9 nodes each; the other {len(answers) - 1} about {3 * (len(answers) - 1)} x 10^9 more)"
                in text)


def test_the_list_of_first_moves_drops_the_reply_of_a_refuted_move(tmp_path):
    # On 6x6 ">= +2", D2-D3 fell to C4-D4 and was still listed with its next open reply, C4-C3.
    k = 1
    _, _, proof, move, reply = _lead_and_its_first_reply(tmp_path, k)
    _refutation_begun(proof, reply, k, 10 ** 9, 3 * 10 ** 9)
    listed = [e for e, c in zip(proof.summary()["root_moves"], proof.root.children) if c is move]
    assert listed and all("reply" in e for e in listed)
    other = next(c for c in _distinct_children(move) if c is not reply)  # split, still open
    proof._apply({"split": other.key.hex(), "k": k, "nodes": 10 ** 9, "seconds": 100})
    for answer in _distinct_children(reply):
        proof.bounds[answer.key] = [-12, k - 1]
    memo = proof.intervals()
    assert memo[move.key][1] < k and memo[other.key][0] < k <= memo[other.key][1]
    listed = [e for e, c in zip(proof.summary()["root_moves"], proof.root.children) if c is move]
    assert listed and not any("reply" in e for e in listed)


@pytest.mark.parametrize("focus", [None, 1, 2])
def test_focus_sends_every_worker_to_the_lead_once_it_holds_enough_replies(focus):
    board = Board.parse("4x3")
    proof = ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 2, workers=2, focus=focus)
    root, k = proof.root, 1
    lead = root.children[_root_order(proof, k)[0]]
    proof.bounds[_distinct_children(lead)[0].key] = [k, 12]  # the lead holds one reply
    memo = proof.intervals()
    order = proof.schedule(k, memo, busy=set())
    assert order[0] in lead.children
    assert (order[1] in lead.children) == (focus == 1)  # the second worker's pick
    assert proof.schedule(k, memo, busy={order[0].key})[0] is order[1]


def test_no_focus_once_a_root_move_is_settled_against_the_root():
    board = Board.parse("4x3")
    proof = ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 2, workers=2, focus=1)
    root, k = proof.root, 1
    order = _root_order(proof, k)
    lead = root.children[order[0]]
    proof.bounds[_distinct_children(lead)[0].key] = [k, 12]  # the lead holds one reply
    memo = proof.intervals()
    assert proof.schedule(k, memo, busy=set())[1] in lead.children  # focused
    other = next(c for c in root.children if c.key != lead.key)
    proof.bounds[_distinct_children(other)[-1].key] = [-12, k - 1]  # a root move fails ">= 1"
    memo = proof.intervals()
    assert memo[other.key][1] < k
    second = proof.schedule(k, memo, busy=set())[1]
    assert second not in lead.children  # the hedge is back


def test_focus_is_on_by_default_and_off_on_request():
    r = subprocess.run(solve_cmd("4x3", "--focus", "x"), capture_output=True, text=True)
    assert r.returncode == 2 and "positive integer or 'off'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    for focus in ("off", "1"):
        r = subprocess.run(solve_cmd("4x3", "--focus", focus), capture_output=True, text=True)
        assert r.returncode == 0 and json.loads(r.stdout)["value"] == 2
    from solver.sanjego.parallel import DEFAULT_FOCUS
    board = Board.parse("4x3")
    assert ParallelProof(Engine(board, table_mb=1), Position.start(board), [], 2).focus == DEFAULT_FOCUS == 2


def test_local_pool_drops_a_sub_proof_on_request():
    from solver.sanjego.parallel import DROPPED, LocalPool
    board = Board(6, 4)
    p = Position.start(board)
    config = (board.core_geometry(), "margin", 16 << 20, None, False)
    pool = LocalPool(1, config)
    future = pool.submit(config, *p.core_args, 3)  # some 10^8 nodes
    while pool.live_nodes() == 0:
        time.sleep(0.01)
    pool.drop(future)
    v, nodes, _, _ = future.result(timeout=60)
    pool.close()
    assert v == DROPPED and nodes > 0


class _LastInFirstOut:
    """A pool on this thread that answers the newest sub-proof first, so that older ones
    stay in flight while newer answers decide their parents; a dropped one answers DROPPED."""

    def __init__(self, workers, config, record_subtrees=False, keep_hints=False):
        self.pending, self.dropped = [], []
        self.owner = None  # no table to keep warm (the run has no local pool)
        self.answered_subtrees = {}  # (no book: no move-order hints)

    def submit(self, config, heights, owners, side, k, budget, hints, tag=None):
        from concurrent.futures import Future
        from solver.sanjego.parallel import prove
        future = Future()
        self.pending.append((future, lambda: prove(config, heights, owners, side, k, budget, hints)))
        return future

    def wait(self, futures, timeout=None):
        from solver.sanjego.parallel import DROPPED
        for i, (future, _) in enumerate(self.pending):
            if future in self.dropped:  # a dropped sub-proof stops at once
                del self.pending[i]
                future.set_result((DROPPED, 0, 0.0, None))
                return [future]
        future, task = self.pending.pop()
        future.set_result(task())
        return [future]

    def drop(self, future):
        self.dropped.append(future)

    def live_nodes(self):
        return 0

    def in_flight(self):
        return []

    def close(self, abort=False):
        pass


def test_sub_proofs_that_other_answers_made_irrelevant_are_dropped_and_journaled(tmp_path, monkeypatch):
    from solver.sanjego import parallel
    monkeypatch.setattr(parallel, "LocalPool", _LastInFirstOut)
    board = Board.parse("4x4")
    start = Position.start(board)
    expected = Engine(board, table_mb=4).value(start)
    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, table_mb=4), start, [], 2, run_dir=str(run), workers=3)
    assert proof.solve() == expected
    records = Journal(str(run / "journal.log")).read()
    dropped = [r for r in records if "dropped" in r]
    assert dropped and all(r["nodes"] == 0 for r in dropped)
    # A dropped sub-proof only adds its nodes: resumed, the journal proves the same value.
    again = ParallelProof(Engine(board, table_mb=4), start, [], 2, run_dir=str(run), resume=True, workers=3)
    assert tuple(again.intervals()[again.root.key]) == (expected, expected)
    assert again.subproofs == sum("key" in r for r in records)


def test_a_stopped_run_journals_the_nodes_of_its_sub_proofs_in_flight(tmp_path):
    # Without --split-nodes a big board's sub-proof runs for hours: what it searched before
    # Ctrl-C must still count in the run's nodes, and the resumed run asks it again.
    board = Board(6, 4)
    start = Position.start(board)

    def stop_soon(*args):
        time.sleep(0.5)  # the two sub-proofs in flight search meanwhile (each takes seconds)
        raise KeyboardInterrupt

    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, "margin", table_mb=16), start, [], 1, run_dir=str(run), workers=2,
                          progress=stop_soon)
    with pytest.raises(KeyboardInterrupt):
        proof.solve()
    records = [r for r in Journal(run / "journal.log").read() if "nodes" in r]
    interrupted = [r for r in records if "interrupted" in r]
    assert interrupted and all(r["nodes"] > 0 for r in interrupted)
    resumed = ParallelProof(Engine(board, "margin", table_mb=16), start, [], 1, run_dir=str(run), resume=True,
                            workers=2)
    assert resumed.nodes == sum(r["nodes"] for r in records)
    assert resumed.subproofs == len(records) - len(interrupted)
    assert resumed.solve() == 2


def test_a_hint_that_settles_the_leaf_answers_it_and_one_that_fails_changes_nothing():
    from solver.sanjego.parallel import _new_core, move_hint, prove
    board = Board.parse("4x3")
    solve = Engine(board, table_mb=4).value
    config = (board.core_geometry(), "margin", 1 << 20, None, False)
    for p in (Position.start(board), Position.start(board).play((board.cell("B2"), board.cell("C2")))):
        v = solve(p)
        mover_wins = (lambda x, k: x >= k) if p.side == 0 else (lambda x, k: x < k)
        k = v if p.side == 0 else v + 1  # the question the mover wins
        children = {m: solve(p.play(m)) for m in p.legal_moves()}
        good = next(m for m, c in children.items() if c == v)
        bad = next(m for m, c in children.items() if not mover_wins(c, k))
        for hint, settles in ((good, True), (bad, False)):
            child = p.play(hint)
            core = _new_core(config)
            r, nodes, _, move = prove(config, *p.core_args, k, None,
                                      [(hint, *child.core_args)], core=core)
            assert mover_wins(r, k)
            if settles:
                assert move == hint
                alone = _new_core(config)
                alone.search(*child.core_args, k - 1, k)
                assert nodes == alone.nodes  # the hint's search and nothing else
            else:
                assert isinstance(move, tuple) and mover_wins(children[move], k)
        # where the mover loses the question, a hint cannot settle it either
        r, _, _, _ = prove(config, *p.core_args, k + (1 if p.side == 0 else -1), None,
                           [move_hint(p, good)], core=_new_core(config))
        assert not mover_wins(r, k + (1 if p.side == 0 else -1))


def test_a_run_journals_what_settled_each_leaf_and_a_resumed_run_hints_with_it(tmp_path):
    from solver.sanjego.parallel import move_hint
    board, run, proof = _run_of_4x3(tmp_path)
    value = proof.solve()
    assert value == Engine(board, table_mb=4).value(Position.start(board))
    records = Journal(run / "journal.log").read()
    moved = [r for r in records if "move" in r]
    assert moved and proof.answers
    for r in moved:  # the move is the leaf's, and settled it for its mover
        leaf = proof.tree[bytes.fromhex(r["key"])]
        assert r["move"] in {format_moves(board, [m]) for m in leaf.position.legal_moves()}
        assert (r["lo"] >= r["k"]) == (leaf.position.side == 0)
    again = ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 2, workers=1,
                          run_dir=str(run), resume=True)
    assert again.answers == proof.answers
    (k, side, move), _ = max(proof.answers.items(), key=lambda e: e[1])
    leaf = next(n for n in proof.leaves if n.position.side == side and move in n.position.legal_moves())
    again.question_nodes.clear()  # as if the leaf were new
    hints = again._hints(leaf, k, {})
    assert hints == [move_hint(leaf.position, move)]
    again.question_nodes[leaf.key, k] = 1  # begun before: it goes on without hints
    assert again._hints(leaf, k, {}) == []
    hinted = [r for r in records if "hints" in r]  # journaled where they were tried
    assert hinted and all(len(r["hints"]) == 1 for r in hinted)
    answered = [r for r in hinted if "key" in r]
    by_hint = sum(r.get("move") == r["hints"][0] for r in answered)
    assert again.summary()["answer_hints"] == {"answers": len(answered), "settled_by_hint": by_hint,
                                               "nodes": sum(r["nodes"] for r in answered)}
    text = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)],
                          capture_output=True, text=True).stdout
    assert f"answer hints: {by_hint} of {len(answered)} answers with a hint were settled by it" in text
    plain = ParallelProof(Engine(board, "margin", table_mb=4), Position.start(board), [], 2, workers=1,
                          run_dir=str(tmp_path / "plain"), answer_hints=0)
    assert plain.solve() == value
    assert not any("hints" in r for r in Journal(tmp_path / "plain" / "journal.log").read())


def test_answer_hints_option():
    for bad in ("x", "-1"):
        r = subprocess.run(solve_cmd("4x3", "--answer-hints", bad), capture_output=True, text=True)
        assert r.returncode == 2 and "0 or a positive integer" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    for n in ("0", "2"):  # a parallel proof either way, with the same value
        r = subprocess.run(solve_cmd("4x3", "--answer-hints", n), capture_output=True, text=True)
        out = json.loads(r.stdout)
        assert r.returncode == 0 and out["value"] == 2 and out["subproofs"] > 0


def test_each_thread_of_a_worker_process_searches_with_a_core_of_its_own_on_one_table():
    # A Dask worker with several threads runs that many sub-proofs at once in one process.
    import threading
    from solver.sanjego import parallel
    board = Board.parse("4x3")
    config = (board.core_geometry(), "margin", 1 << 20, None, False)
    p = Position.start(board)
    cores, results = {}, {}

    def work(name):
        cores[name] = (parallel._get_core(config), parallel._get_core(config))
        results[name] = parallel.prove(config, *p.core_args, 2)[0]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a, a2), (b, b2) = cores[0], cores[1]
    assert a is a2 and b is b2 and a is not b  # one core per thread, kept between its sub-proofs
    assert a.table_buckets == b.table_buckets and a.age_weight == parallel.RUN_AGE_WEIGHT
    assert results[0] == results[1] >= 2
    a.clear()  # one table: what one thread stored, the other finds gone
    n = b.nodes
    b.search(*p.core_args, 1, 2)
    assert b.nodes - n > 1


def test_question_progress_names_a_symmetric_lead_and_its_reply_as_played(tmp_path):
    # On 6x6 status said "C5-C4 C4-D4 (the reply searched first)": the lead named by a later
    # symmetric copy of D2-D3 (searched first by the moves it decided elsewhere), the reply
    # in D2-D3's frame. Both are now named as the root move list names them.
    from solver.sanjego.notation import replay
    k = 1
    board, run, proof = _run_of_4x3(tmp_path)
    root = proof.root
    i = next(i for i, c in enumerate(root.children) if root.children.index(c) < i)  # a later copy
    lead = root.children[i]
    memo = proof.intervals()
    deciding = proof.deciding_moves(k, memo)
    deciding[root.position.side, root.moves[i]] = 10 ** 6  # makes the later copy the one searched first
    reply = lead.children[proof._first_open(lead, deciding, k, memo)]
    _refutation_begun(proof, reply, k, 10 ** 9, 2 * 10 ** 9)
    u = proof.question_progress(k, proof.intervals(), deciding)
    assert u["lead"] == format_moves(board, [root.moves[root.children.index(lead)]])
    assert u["lead"] == next(e["move"] for e, c in zip(proof.summary()["root_moves"], root.children) if c is lead)
    assert replay(board, f"{u['lead']} {u['reply']['move']}")[0].canonical_key() == reply.key
