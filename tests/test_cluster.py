"""Sub-proofs on a real (local) Dask distributed cluster."""

import json
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as c:
        yield c


def test_solve_through_cluster_with_run_dir_and_resume(cluster, tmp_path):
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "solver", "sanjego", "solve", "4x4", "--scheduler",
           cluster.scheduler_address, "--run", str(run), "--table-mb", "16", "--json", "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == 1 and out["workers"] == 2 and out["subproofs"] > 0
    again = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and json.loads(again.stdout)["value"] == 1


def test_unreachable_scheduler_is_a_clear_error():
    cmd = [sys.executable, "-m", "solver", "sanjego", "solve", "3x3", "--scheduler",
           "tcp://127.0.0.1:9", "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_waiting_on_the_cluster_can_time_out(cluster):
    # A run waits in short slices so that its progress stays live.
    import time
    from solver.sanjego.parallel import DaskPool
    pool = DaskPool(cluster.scheduler_address)
    try:
        slow = pool.client.submit(time.sleep, 3, pure=False)
        assert pool.wait([slow], timeout=0.2) == set() and pool.live_nodes() == 0 and pool.in_flight() == []
        assert pool.wait([slow], timeout=30) == {slow}
    finally:
        pool.close()
