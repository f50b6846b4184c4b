"""Results in results/life/: JSON written by the program only, with provenance (the command,
the commit, the date, the machine's cores and the wall time)."""

import json
import os
import sys
import time

from ..checkpoint import atomic_write
from ..provenance import commit, machine

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DIR = os.path.join(REPO, "results", "life")


def provenance(wall_seconds, argv=None):
    return {"command": "python -m solver " + " ".join(argv if argv is not None else sys.argv[1:]),
            "commit": commit(), "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            **machine(), "wall_seconds": round(wall_seconds, 3)}


def write(path, obj, wall_seconds, argv=None):
    """Write obj plus its provenance to path atomically; returns the record written."""
    rec = dict(obj, provenance=provenance(wall_seconds, argv))
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    atomic_write(path, (json.dumps(rec, indent=1) + "\n").encode())
    return rec
