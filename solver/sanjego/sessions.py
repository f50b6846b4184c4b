"""A session's wall time and work in flight, journaled as it goes.

A session that stops on Ctrl-C or SIGTERM journals the nodes of its sub-proofs in flight
("interrupted") and its wall time ("session_wall"). A kill -9, or a machine taken away
with the run still going, leaves no time for either, and the run's totals then lacked
the whole session's wall time and the nodes of its last sub-proofs: session 43's 6x6
sitting was ended so after about four hours, and 61 x 10^9 of its nodes (the sub-proofs
it never finished) and its wall time were missing from the run's totals. So a session
journals a "session" record when it starts and every SAVE_SECONDS after:

    {"session": id, "wall": seconds so far, "in_flight": [[leaf key, k, nodes, seconds], ...]}

and its "session_wall" at a clean stop names the same id. On replay (SessionTally), a
session with no "session_wall" was killed, and its last "session" record counts: its wall
time, and the nodes of the sub-proofs then in flight that the journal has no later record
of. The totals so lose at most SAVE_SECONDS of a killed session, and never count a node twice.
"""

import os
import time

SAVE_SECONDS = 600


class SessionLog:
    """The writing side, for one session of a run: call it each time round the session's
    loop, and end() at the end (clean or not: a kill never gets there)."""

    def __init__(self, journal, in_flight=lambda: ()):
        """in_flight(): (leaf key, k, nodes, seconds) of each sub-proof in flight."""
        self.journal, self.in_flight = journal, in_flight
        self.id = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        self.t0 = time.perf_counter()
        self.save()

    def __call__(self):
        if time.perf_counter() - self.saved_at >= SAVE_SECONDS:
            self.save()

    def save(self):
        self.saved_at = time.perf_counter()
        flight = [[key.hex(), k, nodes, round(seconds, 4)] for key, k, nodes, seconds in self.in_flight()]
        self.journal.append({"session": self.id, "wall": round(self.saved_at - self.t0, 3), "in_flight": flight})

    def end(self, seconds):
        self.journal.append({"session_wall": round(seconds, 3), "session": self.id})


class SessionTally:
    """The reading side: give it every record in order (take), tell it of each sub-proof
    record (finished), and ask killed() at the end."""

    def __init__(self):
        self.open = {}  # session id -> its last "session" record, until its "session_wall"
        self.current = None

    def take(self, record):
        """True when the record is a "session" record (and so nothing else)."""
        if "session_wall" in record:
            self.open.pop(record.get("session"), None)
            return False
        if "session" not in record:
            return False
        # Checked here, so that a record that does not fit is named by the journal's replay.
        flight = [[str(key), int(k), int(nodes), float(seconds)] for key, k, nodes, seconds in record["in_flight"]]
        for key, _, _, _ in flight:
            bytes.fromhex(key)
        self.open[record["session"]] = dict(record, wall=float(record["wall"]), in_flight=flight)
        self.current = record["session"]
        return True

    def finished(self, key_hex, k):
        """A sub-proof of the session being read journaled its end, with all its nodes."""
        last = self.open.get(self.current)
        if last is not None:
            last["in_flight"] = [entry for entry in last["in_flight"] if (entry[0], entry[1]) != (key_hex, k)]

    def killed(self, live=False):
        """The last "session" record of each session that journaled no end; live: the run is
        in use by another process now, so that the last session read is under way, not killed."""
        return [last for session, last in self.open.items() if not (live and session == self.current)]
