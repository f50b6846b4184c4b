"""What the benchmarks of checkpointed runs share: their options, and one run solved with one
worker (so that node counts are exact)."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.cli import ArgumentParser, positive_int_arg, table_mb_arg  # noqa: E402
from solver.provenance import bench_header  # noqa: E402
from solver.sanjego import Position  # noqa: E402
from solver.sanjego.cli import board_arg  # noqa: E402
from solver.sanjego.engine import Engine  # noqa: E402
from solver.sanjego.parallel import ParallelProof  # noqa: E402


def run_options(doc, table_mb):
    """A parser with --board, --depth and --table-mb (default `table_mb`)."""
    ap = ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--board", type=board_arg, default="6x4")
    ap.add_argument("--depth", type=positive_int_arg, default=2)
    ap.add_argument("--table-mb", type=table_mb_arg, default=table_mb)
    return ap


def header(args):
    bench_header(f"one worker, table {args.table_mb:g} MB, depth {args.depth}")


def solve_run(args, run_dir):
    """(proof, value, wall seconds) of the start position's run in run_dir, one worker."""
    t0 = time.perf_counter()
    proof = ParallelProof(Engine(args.board, table_mb=1), Position.start(args.board), [], args.depth,
                          run_dir=run_dir, workers=1, table_mb=args.table_mb)
    value = proof.solve()
    return proof, value, time.perf_counter() - t0
