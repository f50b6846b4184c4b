"""`python -m solver sanjego ARGS` for the tests: in this process (fast) or as a subprocess
(to see the real exit status and stderr)."""

import contextlib
import io
import pathlib
import signal
import subprocess
import sys

from solver.cli import main

REPO = pathlib.Path(__file__).resolve().parent.parent


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def solver_cli(*args):
    """`python -m solver ARGS` (any game) in this process."""
    out, err = io.StringIO(), io.StringIO()
    sigterm = signal.getsignal(signal.SIGTERM)  # main() installs its own handler
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:
                code = e.code
    finally:
        signal.signal(signal.SIGTERM, sigterm)
    return Result(code or 0, out.getvalue(), err.getvalue())


def cli(*args):
    """In this process."""
    return solver_cli("sanjego", *args)


def run(*args):
    """As a subprocess."""
    return subprocess.run([sys.executable, "-m", "solver", "sanjego", *args], capture_output=True,
                          text=True, timeout=120, cwd=REPO)
