"""A session ended by a kill still counts in the run's totals, as far as it journaled."""

import concurrent.futures
import shutil
import subprocess
import sys
import time

import pytest

from solver.checkpoint import CheckpointError, Journal, RunDir
from solver.sanjego import Board, Position, sessions
from solver.sanjego.engine import Engine
from solver.sanjego.parallel import ParallelProof, open_run
from solver.sanjego.sessions import SessionLog, SessionTally
from solver.sanjego.verify import _totals

A, B = "aa" * 4, "bb" * 4  # two leaf keys


def tally_of(records):
    tally = SessionTally()
    for record in records:
        if not tally.take(record) and ("key" in record or "interrupted" in record):
            tally.finished(record.get("key") or record["interrupted"], record["k"])
    return tally.killed()


def test_only_a_session_without_its_end_counts_and_no_node_twice():
    clean = [{"session": "s1", "wall": 0.0, "in_flight": []},
             {"session": "s1", "wall": 600.0, "in_flight": [[A, 2, 10, 1.0]]},
             {"interrupted": A, "k": 2, "nodes": 15, "seconds": 1.5},
             {"session_wall": 700.0, "session": "s1"}]
    assert tally_of(clean) == []
    killed = [{"session": "s2", "wall": 0.0, "in_flight": []},
              {"session": "s2", "wall": 600.0, "in_flight": [[A, 2, 10, 1.0], [B, 2, 20, 2.0]]},
              # A finishes after the last session record: its own record has all its nodes.
              {"key": A, "k": 2, "lo": -5, "hi": 1, "nodes": 12, "seconds": 1.2}]
    last, = tally_of(clean + killed)
    assert last["wall"] == 600.0 and last["in_flight"] == [[B, 2, 20, 2.0]]
    # The next session's own records leave the killed one's in-flight work alone, even the
    # same question asked again (its first record comes before any of its work).
    resumed = [{"session": "s3", "wall": 0.0, "in_flight": []},
               {"key": B, "k": 2, "lo": -5, "hi": 1, "nodes": 7, "seconds": 0.7},
               {"session_wall": 50.0, "session": "s3"}]
    last, = tally_of(clean + killed + resumed)
    assert last["in_flight"] == [[B, 2, 20, 2.0]]


def test_the_verification_counts_a_killed_session_s_wall_time():
    records = [{"session": "v1", "wall": 0.0, "in_flight": []},
               {"key": A, "k": 1, "nodes": 5, "seconds": 0.5, "ok": True},
               {"session": "v1", "wall": 600.0, "in_flight": []},
               {"session_wall": 30.0}]  # an end from before session records
    assert _totals(records) == {"answers": 1, "nodes": 5, "cpu_seconds": 0.5, "wall_seconds": 630.0}


def test_session_log_journals_its_start_on_the_way_and_its_end(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.log")
    log = SessionLog(journal, lambda: [(bytes.fromhex(A), 2, 99, 3.0)])
    log()  # within SAVE_SECONDS of the start: nothing
    monkeypatch.setattr(sessions, "SAVE_SECONDS", 0)
    log()
    log.end(12.5)
    first, second, end = journal.read()
    assert first["session"] == second["session"] == end["session"] == log.id
    assert second["in_flight"] == [[A, 2, 99, 3.0]] and second["wall"] >= first["wall"]
    assert end["session_wall"] == 12.5


class KilledAfterSessionRecords:
    """A progress display that copies the journal as a kill -9 would leave it, once the
    session has journaled work in flight, and then stops the run."""

    def __init__(self, journal, kept):
        self.journal, self.kept, self.calls = journal, kept, 0

    def __call__(self, *args):
        self.calls += 1
        if self.calls == 1:
            time.sleep(0.5)  # the sub-proof in flight searches meanwhile
            return
        shutil.copy(self.journal, self.kept)
        raise KeyboardInterrupt


def test_a_killed_run_counts_the_wall_time_and_the_nodes_in_flight_it_journaled(tmp_path, monkeypatch):
    # Session 43's 6x6 sitting was ended by the machine going away: four hours of wall time
    # and 61 x 10^9 nodes of unfinished sub-proofs were missing from the run's totals.
    from solver.sanjego import parallel
    monkeypatch.setattr(sessions, "SAVE_SECONDS", 0)
    monkeypatch.setattr(parallel, "PROGRESS_SECONDS", 0.2)
    board = Board(6, 5)  # a sub-proof at depth 1 takes some 10^8 nodes: still in flight when stopped
    run = tmp_path / "run"
    journal = run / "journal.log"
    killed = KilledAfterSessionRecords(journal, tmp_path / "after-kill.log")
    proof = ParallelProof(Engine(board, "margin", table_mb=16), Position.start(board), [], 1, run_dir=str(run),
                          workers=1, progress=killed)
    with pytest.raises(KeyboardInterrupt):
        proof.solve()
    after_stop = Journal(journal).read()
    after_kill = Journal(killed.kept).read()
    assert not any("session_wall" in r for r in after_kill) and "session_wall" in after_stop[-1]
    last = after_kill[-1]
    (key, k, in_flight, seconds), = last["in_flight"]
    assert in_flight > 0 and last["wall"] > 0.5 and not any("nodes" in r for r in after_kill)
    shutil.copy(killed.kept, journal)
    out = open_run(str(run))[0].summary()
    assert out["killed_sessions"] == 1 and out["wall_seconds"] == last["wall"] and out["nodes"] == in_flight
    resumed = ParallelProof(Engine(board, "margin", table_mb=16), Position.start(board), [], 1, run_dir=str(run),
                            workers=1, resume=True)
    assert resumed.nodes == resumed.nodes_before == in_flight and resumed.killed_sessions == 1
    r = subprocess.run([sys.executable, "-m", "solver", "sanjego", "status", str(run)], capture_output=True, text=True)
    assert r.returncode == 0 and "in sessions that have ended (1 killed, counted as far as they journaled)" in r.stdout
    # Beside a live run, its session is under way, not killed: status counts only what it journaled.
    with RunDir(run).claimed():
        out = open_run(str(run))[0].summary()
    assert out["killed_sessions"] == 0 and out["wall_seconds"] == 0 and out["nodes"] == 0
    # Stopped after its last session record, the sub-proof journaled all its nodes
    # ("interrupted"): killed then, the session counts them once.
    stopped, = [r for r in after_stop if "interrupted" in r]
    assert (stopped["interrupted"], stopped["k"]) == (key, k) and stopped["nodes"] >= in_flight
    journal.unlink()
    for record in after_stop[:-1]:
        Journal(journal).append(record)
    out = open_run(str(run))[0].summary()
    assert out["killed_sessions"] == 1 and out["nodes"] == stopped["nodes"]



class SlowCluster:
    """Stands in for DaskPool: sub-proofs on threads that each take a while, nothing known of
    them until they finish, and no table of the run's own."""

    answered_subtrees = {}

    def __init__(self, address):
        self.executor = concurrent.futures.ThreadPoolExecutor(2)
        self.workers = 2

    def submit(self, *args, tag=None, order_hints=None):
        from solver.sanjego.parallel import prove
        return self.executor.submit(lambda: (time.sleep(0.5), prove(*args))[1])

    def wait(self, futures, timeout=None):
        return concurrent.futures.wait(futures, timeout, return_when=concurrent.futures.FIRST_COMPLETED)[0]

    def live_nodes(self):
        return 0

    def in_flight(self):
        return []

    def drop(self, future):
        pass

    def close(self, abort=False):
        self.executor.shutdown(wait=True, cancel_futures=True)


def test_a_cluster_run_journals_its_session_while_no_sub_proof_finishes(tmp_path, monkeypatch):
    # A run on Dask shows no progress and has no warm table: it used to wait for the next
    # sub-proof to finish (hours on 6x6) before it journaled its session again.
    from solver.sanjego import parallel
    monkeypatch.setattr(parallel, "DaskPool", SlowCluster)
    monkeypatch.setattr(parallel, "PROGRESS_SECONDS", 0.05)
    monkeypatch.setattr(sessions, "SAVE_SECONDS", 0.1)
    board = Board.parse("4x4")
    run = tmp_path / "run"
    proof = ParallelProof(Engine(board, "margin", table_mb=16), Position.start(board), [], 1, run_dir=str(run),
                          scheduler="tcp://stand-in:8786")
    assert proof.solve() == 1
    records = Journal(run / "journal.log").read()
    finished = sum(1 for r in records if "key" in r)
    assert finished > 0 and sum(1 for r in records if "session" in r and "wall" in r) > finished + 1
    # So does its verification on the cluster.
    from solver.sanjego import verify
    monkeypatch.setattr(verify, "DaskPool", SlowCluster)
    monkeypatch.setattr(verify, "PROGRESS_SECONDS", 0.05)
    check = verify.Verification(open_run(str(run))[0], str(run), scheduler="tcp://stand-in:8786", table_mb=16)
    check.verify()
    records = Journal(run / "verify" / "journal.log").read()
    answered = sum(1 for r in records if "key" in r)
    assert answered > 0 and sum(1 for r in records if "session" in r and "wall" in r) > answered + 1


@pytest.mark.parametrize("flight", [[["not hex", 2, 5, 1.0]], [[A, 2, 5]], "none"])
def test_a_session_record_that_does_not_fit_is_a_damaged_journal(tmp_path, flight):
    journal = Journal(tmp_path / "journal.log")
    journal.append({"session": "s1", "wall": 1.0, "in_flight": flight})
    with pytest.raises(CheckpointError, match="line 1"):
        journal.replay(SessionTally().take)
