"""Where a result came from: the commit of this checkout and the machine. Every record in
results/ and every benchmark line carries these."""

import functools
import os
import platform
import shlex
import subprocess
import sys
import time

from . import __version__

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=None)
def commit():
    """Short hash of HEAD, with "-dirty" when csrc/ or solver/ differ from it, as it was
    at this process's first call: a long job calls it when it starts, so that commits
    made while it runs do not end up in its provenance."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True).stdout.strip()
    try:
        rev = git("rev-parse", "--short=12", "HEAD") or "unknown"
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", "csrc", "solver")
    except OSError:
        return "unknown"
    return rev + ("-dirty" if dirty else "")


def machine():
    return {"machine": platform.machine(), "system": platform.system(), "cores": os.cpu_count(),
            "python": platform.python_version(), "solver": __version__}


def bench_header(details):
    """The two lines a benchmark starts with: the command that reproduces it, and where and
    when it ran (`details`: its own settings)."""
    print(f"# python {shlex.join(sys.argv)}")
    print(f"# commit {commit()}, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"{details}")
