"""Solving a whole board: every start vertex, by null-window probes that can be checkpointed.

The value of the game is the minimum over start vertices (Mr. Button chooses) of the Tailor's
score. Each start vertex of a symmetry class is solved once by bisection on the score; every
finished probe ("is the value above k?") narrows that start's bounds and, with a run
directory, is appended to the journal before it counts. A probe too big for its round's node
budget is split into its children's questions (proof.py), and those answers are journaled
too. A stopped run loses at most the search in flight, and a run stopped for good still
leaves proven bounds.
"""

import concurrent.futures
import hashlib
import json
import threading
import time

from .. import __version__
from ..checkpoint import RunDir, claimed
from ..provenance import commit
from .engine import Engine
from .position import Position, Start
from .proof import SEARCHES, Prover

# How many levels a question over budget is split in one try; with proof.SPLIT_TOTAL budgets in
# all per try and tries rising to the round's budget (Prover.ask_rising), a question spends at
# most about 10.7 round budgets, so that one hard start does not hold up the others for long.
SPLIT_LEVELS = 3
# The node budget of a search in a new run's first round (a resumed run goes on at its largest).
FIRST_ROUND_BUDGET = 1 << 24


def graph_digest(graph):
    data = json.dumps({"edges": graph.edges, "faces": graph.faces}, sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


class BoardRun:
    """Bounds on every start class's value, narrowed probe by probe."""

    def __init__(self, engine, starts=None, run_dir=None, resume=False, split_levels=SPLIT_LEVELS,
                 workers=1, searches=SEARCHES):
        """workers: threads that probe different start classes at once, each with its own
        core and a table of the engine's size (the first uses the engine). searches: what each
        question tries in turn (Prover)."""
        self.engine = engine
        self.prover = Prover(engine, self._record, searches=searches)
        self.split_levels = split_levels
        self.workers = max(1, workers)
        self.asking = {}  # worker -> (start vertex, k) of its question in hand
        self._lock = threading.Lock()  # the journal and the counters, for several workers
        board = self.board = engine.board
        g = board.graph
        wanted = set(range(len(g.labels)) if starts is None else starts)
        self.classes = [c for c in board.start_classes() if wanted & set(c)]
        self.wanted = wanted
        p0 = Position.initial(board)
        self.bounds = {}
        self.start_of_key = {}
        self.key_of_start = {}
        for cls in self.classes:
            key = p0.play(Start(cls[0])).key()
            # One list: the class's bounds are the prover's bounds on its start position.
            self.bounds[cls[0]] = self.prover.bounds(key)
            self.start_of_key[key] = cls[0]
            self.key_of_start[cls[0]] = key
        self.nodes = 0
        self.seconds = 0.0
        self.probes = 0
        self.largest_probe = 0  # nodes of the costliest finished probe
        self.round_budget = 0   # the largest node budget a round has used
        self.abandoned = 0      # probes given up over budget (their nodes and time count too)
        self.commits = set()    # the code that proved the journal's probes
        self.commit = commit()  # this process's code, taken now: a first search can take hours
        self.run = RunDir(run_dir) if run_dir else None
        manifest = {"game": "gent", "graph": g.name, "graph_digest": graph_digest(g),
                    "outer": g.face_text(board.outer),
                    "starts": sorted(g.vertex_name(c[0]) for c in self.classes)}
        if self.run is not None:
            if resume:
                self.run.open(manifest)
                self.run.journal.replay(self._apply)
            else:
                self.run.create(dict(manifest, code_version=__version__,
                                     created=time.strftime("%Y-%m-%dT%H:%M:%S%z")))

    def _record(self, record):
        """Journal (with a run directory) and apply one answer of the prover."""
        with self._lock:
            self._record_locked(record)

    def _record_locked(self, record):
        record["commit"] = self.commit
        v = self.start_of_key.get(tuple(record["key"]))
        if v is not None:  # a start position: written as before there were other positions
            record = {"start": self.board.graph.vertex_name(v),
                      **{name: x for name, x in record.items() if name != "key"}}
        if self.run is not None:
            self.run.journal.append(record)
        self._apply(record)

    def _apply(self, record):
        if "round_budget" in record:
            self.round_budget = max(self.round_budget, record["round_budget"])
            return
        self.nodes += record["nodes"]
        self.seconds += record["seconds"]
        if "commit" in record:
            self.commits.add(record["commit"])
        key = (tuple(record["key"]) if "key" in record
               else self.key_of_start.get(self.board.graph.parse_vertex(record["start"])))
        if key is not None and (record.get("abandoned") or record.get("derived")):
            self.prover.split.add(key)  # its children were (or will be) asked
        if record.get("abandoned"):
            self.abandoned += 1
            return
        if key is not None:  # a start's bounds are the prover's bounds on its position
            self.prover.learn(key, record["lo"], record["hi"])
        if not record.get("derived"):
            self.probes += 1
            self.largest_probe = max(self.largest_probe, record["nodes"])

    def exact(self):
        return all(lo == hi for lo, hi in self.bounds.values())

    def value_known(self):
        lo, hi = self.value_bounds()
        return lo == hi

    def value_bounds(self):
        """Proven bounds on the game's value over the chosen start vertices."""
        return (min(lo for lo, _ in self.bounds.values()),
                min(hi for _, hi in self.bounds.values()))

    def start_bounds(self):
        """{vertex: (lo, hi)} for every chosen start vertex."""
        out = {}
        for cls in self.classes:
            for v in cls:
                if v in self.wanted:
                    out[v] = tuple(self.bounds[cls[0]])
        return dict(sorted(out.items()))

    def solve(self, on_probe=None, first_budget=None, ask_above=None, value_only=False, climb=None):
        """Probes until every start class is exact (with `value_only`, until the game's value
        is). The game's value comes first: while it is open, a class whose lower bound already
        reaches the game's upper bound is skipped (Mr. Button would not pick it), and the others
        are asked only below that bound. Rounds go over the unfinished classes,
        each probe limited to a node budget that grows fourfold per round (and within the
        round rises from 2^20, Prover.ask_rising), so that bounds for
        all starts improve together and no single hard question holds up the rest. A probe
        over budget is split, `split_levels` deep, and what its parts decide is kept; one still
        undecided waits for the next round. With `ask_above` = K a class whose bounds
        contain K asks "value > K?" first instead of the midpoint: far above the value a "no"
        is cheap, so this gives upper bounds early. `on_probe(start, k)` is told each question.
        Ctrl-C stops between journal records, losing only the search in flight; each round's
        budget is journaled too, and a resumed run starts at the largest. With `climb` = N,
        every start's lower bound is first raised one point at a time by proof-number searches
        of at most N nodes alone (climb())."""
        with claimed(self.run):
            if climb:
                self.climb(climb, on_probe, value_only)
            return self._solve(on_probe, first_budget, ask_above, value_only)

    def climb(self, budget, on_probe=None, value_only=False):
        """Raises each start class's lower bound by asking "more than its lower bound?" with the
        proof-number search alone, `budget` nodes each, until a question is not answered "yes"
        (a "no" makes the class exact). Such a "yes" mostly takes 10^4-10^6 nodes, so every
        start's lower bound comes close to its value before the costly questions; with
        `value_only`, no class climbs above the game's upper bound."""
        climber = Prover(self.engine, self._record, share=self.prover, searches=("pn",))
        p0 = Position.initial(self.board)
        try:
            for cls in sorted(self.classes, key=lambda c: tuple(self.bounds[c[0]])):
                b, position = self.bounds[cls[0]], p0.play(Start(cls[0]))
                while b[0] < (min(b[1], self.value_bounds()[1]) if value_only else b[1]):
                    k = b[0]
                    self.asking[0] = (cls[0], k)
                    if on_probe:
                        on_probe(cls[0], k)
                    if climber.ask(position, k, budget, 0) is not True:
                        break
        finally:
            self.asking.clear()

    def _solve(self, on_probe, first_budget, ask_above, value_only):
        core = self.engine.core
        display = core.progress
        p0 = Position.initial(self.board)
        # A resumed run goes on at the budget it had reached (journals from before the budget
        # was journaled: the costliest finished probe's), not from the small first budget:
        # the small rounds would only re-ask, from scratch, what did not fit before.
        budget = first_budget or FIRST_ROUND_BUDGET
        while budget < (self.round_budget or self.largest_probe):
            budget *= 4
        provers = [self.prover] + [Prover(Engine(self.board, self.engine.table_mb), self._record,
                                          share=self.prover, searches=self.prover.searches)
                                   for _ in range(self.workers - 1)]
        try:
            while not (self.value_known() if value_only else self.exact()):
                if self.run is not None and budget > self.round_budget:
                    self.run.journal.append({"round_budget": budget})
                    self.round_budget = budget
                # The likeliest minimum first: its answers move both ends of the game's bounds.
                order = sorted(self.classes, key=lambda c: tuple(self.bounds[c[0]]))
                if len(provers) == 1:
                    for cls in order:
                        self._probe_class(self.prover, 0, cls[0], p0.play(Start(cls[0])), budget, on_probe,
                                          display, ask_above, value_only)
                else:
                    self._parallel_round(provers, order, budget, on_probe, display, ask_above, value_only)
                budget *= 4
        finally:
            core.progress = display
            self.asking.clear()
        lo, hi = self.value_bounds()
        names = self.board.graph.vertex_name
        result = {"value": lo, "start_values": {names(v): a for v, (a, b) in self.start_bounds().items() if a == b},
                  "nodes": self.nodes, "seconds": round(self.seconds, 3)}
        if not self.exact():
            result["start_bounds"] = {names(v): list(b) for v, b in self.start_bounds().items()}
        if self.run is not None:
            self.run.write_result(result)
        return result

    def _attained(self, score):
        """Whether some start class is proven worth exactly `score`."""
        return any(lo == hi == score for lo, hi in self.bounds.values())

    def _parallel_round(self, provers, order, budget, on_probe, display, ask_above, value_only):
        """One round over the classes in `order`, each taken by the next free worker. Ctrl-C
        (in the main thread) stops every worker within 2^20 nodes; what they finished is kept."""
        p0 = Position.initial(self.board)
        queue, stop, taken, shown_lock = list(order), threading.Event(), threading.Lock(), threading.Lock()

        def work(i):
            prover = provers[i]

            def shown(nodes):  # this worker's core, every 2^20 nodes: all workers' nodes
                if stop.is_set():
                    raise KeyboardInterrupt
                if display is not None:
                    with shown_lock:  # one display, several threads
                        display(sum(p.core.nodes for p in provers))

            def probed(v, k):
                if on_probe is not None:
                    with shown_lock:
                        on_probe(v, k)

            prover.core.progress = shown
            try:
                while not stop.is_set():
                    with taken:
                        if not queue:
                            return
                        cls = queue.pop(0)
                    self._probe_class(prover, i, cls[0], p0.play(Start(cls[0])), budget, probed, shown,
                                      ask_above, value_only)
            finally:
                prover.core.progress = None
                self.asking.pop(i, None)

        pool = concurrent.futures.ThreadPoolExecutor(len(provers), thread_name_prefix="gent")
        try:
            # Inside the try: a Ctrl-C while the threads start must stop the ones started.
            pending = [pool.submit(work, i) for i in range(len(provers))]
            while pending:  # short waits, so that Ctrl-C reaches this thread at once
                done, pending = concurrent.futures.wait(pending, timeout=1.0,
                                                        return_when=concurrent.futures.FIRST_EXCEPTION)
                for f in done:
                    f.result()  # a worker's error stops the others and is the run's
        except BaseException:
            stop.set()
            raise
        finally:
            pool.shutdown(wait=True)

    def _probe_class(self, prover, worker, v, position, budget, on_probe, display, ask_above=None,
                     value_only=False):
        b = self.bounds[v]
        while True:
            if value_only and self.value_known():
                return
            # Until the game's value is known, only scores below its upper bound matter.
            top = b[1] if self.value_known() else min(b[1], self.value_bounds()[1])
            if b[0] >= top:
                return
            if ask_above is not None and b[0] <= ask_above < top:
                k = ask_above
            elif not self.value_known() and self._attained(top):
                # Some start is worth exactly the game's upper bound, so that is the value unless
                # this start is worth less: the one question that tells is "> top - 1?", and its
                # "yes" is a part of the value's proof that bisecting up to it would repeat.
                k = top - 1
            else:
                k = (b[0] + top) // 2
            self.asking[worker] = (v, k)
            if on_probe:
                on_probe(v, k)
            if prover.ask_rising(position, k, budget, self.split_levels, display) is None:
                return
