"""Independent re-verification of a parallel proof (`solve --run DIR`): of its value once
it has finished, or of a lower bound it has proven on the way ("value >= k").

A finished run proves the value v of its position through the frontier: every
leaf's bounds come from null-window searches that trusted one transposition
table. A 64-bit hash collision in that table could have changed an answer, so a
result that is published gets a second, independent check.

Re-running the whole proof would repeat its detours (questions that later
turned out to be irrelevant, searches lost in flight). The verification asks
only the leaf questions of one proof tree: for "value >= v" one child of every
max node and every child of every min node, for "value <= v" the reverse,
choosing among the children the one whose answers cost the first run the
fewest nodes. The tree above the frontier is rebuilt from the rules; each leaf
question is searched again with other Zobrist keys (another seed) and a fresh
table, and must come out as the first run said. The questions and answers are
journaled in DIR/verify/, so a stopped verification resumes where it stopped,
and the verification of the value reuses the answers of an earlier one of a bound.
A leaf whose answer went its mover's way in the run is first searched after the move
the run journaled as settling it (a witness): that child's answer, found with this
verification's keys, proves the leaf's; if it does not give it, the leaf is searched whole.
Each question is searched with the run's move-order hints for it (see order_hints): the
search tries first the moves that the run's sub-proof of the question found best in its
costliest positions. They change only the order, never an answer.
"""

import os
import time

from ..checkpoint import CheckpointError, RunDir, read_checked_json
from . import order_hints as hints_file, subtrees, warm
from .parallel import INTERRUPTED, PROGRESS_SECONDS, DaskPool, LocalPool, SavesOnTheWay, move_hint
from .board import board_spec
from .notation import format_move, format_moves, parse_move
from .results import VERIFY_SEED
from .sessions import SessionLog, SessionTally

DEFAULT_SEED = VERIFY_SEED     # not the core's default, which runs use
CORE_DEFAULT_SEED = 0x5A4E4A45474F


class VerificationFailed(Exception):
    """A leaf question came out otherwise than the run's journal says."""


def leaf_costs(records, k, at_least=True):
    """Nodes the first run spent on each node's question ">= k" (records: its journal),
    sub-proofs stopped and resumed, or split into the node's children, included. A leaf
    never asked ">= k" whose answer follows from another question (">= k + 1" answered yes,
    for one) costs what the cheapest such question did."""
    costs, implied = {}, {}
    for record in records:
        if "key" not in record:
            name = "split" if "split" in record else "interrupted" if "interrupted" in record else None
            if name and record["k"] == k:
                key = bytes.fromhex(record[name])
                costs[key] = costs.get(key, 0) + record["nodes"]
            continue
        key = bytes.fromhex(record["key"])
        if record["k"] == k:
            costs[key] = costs.get(key, 0) + record["nodes"]
        elif record["lo"] >= k if at_least else record["hi"] < k:
            implied[key] = min(implied.get(key, record["nodes"]), record["nodes"])
    return {**implied, **costs}


def certificate(proof, k, at_least, costs):
    """The leaves (keys) whose answers prove "value >= k" (at_least) or "value < k" for
    the root, as (estimated cost, frozenset of leaf keys)."""
    memo = proof.intervals()
    done = {}

    def holds(node):
        lo, hi = memo[node.key]
        return lo >= k if at_least else hi < k

    def cert(node):
        found = done.get(node.key)
        if found is not None:
            return found
        if not holds(node):
            raise CheckpointError("the run's journal does not prove its own result")
        own = proof.bounds.get(node.key)  # a leaf, or a split leaf that kept its answers
        if node.final is not None:
            found = (0, frozenset())
        elif node.children is None or own is not None and (own[0] >= k if at_least else own[1] < k):
            found = (costs.get(node.key, 0), frozenset({node.key}))
        else:  # a split leaf's own nodes (those before its split) come with its children's
            if node.maximise == at_least:  # one good child suffices
                below = min((cert(c) for c in node.children if holds(c)), key=lambda e: e[0])
            else:
                parts = [cert(c) for c in node.children]
                below = (sum(c for c, _ in parts), frozenset().union(*(s for _, s in parts)))
            found = (below[0] + costs.get(node.key, 0), below[1])
        done[node.key] = found
        return found

    return cert(proof.root)


class Verification:
    """The verification of one run directory: of its value (finished runs), or of the
    bound "value >= at_least" that its journal proves."""

    def __init__(self, proof, run_dir, seed=DEFAULT_SEED, out_dir=None, workers=None, scheduler=None,
                 table_mb=None, progress=None, at_least=None, order_hints=True):
        self.proof = proof
        self.order_hints = order_hints and not scheduler  # (only a LocalPool's workers take them)
        self.run_hints = {}  # the run's move-order hints, once loaded (see order_hints)
        self.hints_failed = 0  # questions asked without the hints they were given (an error)
        self.run = RunDir(run_dir)
        self.at_least = at_least
        self.value = None
        lo, _ = proof.intervals()[proof.root.key]
        if at_least is not None:
            if lo < at_least:
                raise CheckpointError(f"{run_dir}: the run has proven value >= {lo:+d}, not >= {at_least:+d}")
            p = proof.root.position
            ruled, _ = proof.engine.core.bounds(*p.core_args)
            if at_least <= ruled:
                raise CheckpointError(f"value >= {at_least:+d} needs no verification: the rules alone "
                                      f"give value >= {ruled:+d}")
            halves = ((at_least, True),)
        else:
            result = self.run.read_result()
            if result is None:
                raise CheckpointError(f"{run_dir}: the run has not finished; resume it first "
                                      f"(or verify a bound it has proven, with --at-least)")
            if not isinstance(result.get("value"), int):
                raise CheckpointError(f"{run_dir}: result.json holds no value")
            self.value = result["value"]
            if proof.intervals()[proof.root.key] != (self.value, self.value):
                raise CheckpointError(f"{run_dir}: journal and result.json disagree")
            halves = ((self.value, True), (self.value + 1, False))
        run_seed = proof.engine.seed if proof.engine.seed is not None else CORE_DEFAULT_SEED
        if seed == run_seed:
            raise CheckpointError(f"seed {seed} is the run's own; a verification needs other keys")
        self.seed = seed
        self.workers = workers or os.cpu_count() or 1
        self.scheduler = scheduler
        self.progress = progress
        geometry, measure, table_bytes, _, heads = proof.config
        if table_mb is not None:
            table_bytes = int(table_mb * (1 << 20))
        self.config = (geometry, measure, table_bytes, seed, heads)
        self.dir = RunDir(out_dir or os.path.join(run_dir, "verify"))
        # No value in it: the verification of the value goes on from one of a bound.
        manifest = dict(verify_manifest(proof), depth=proof.depth, seed=seed)
        self.live_nodes = 0  # searched by the questions in flight, as last seen
        own = []  # this verification's journal (the run's is read below)
        if self.dir.exists():
            self.dir.open(manifest)
            own = self.dir.journal.read()
        else:
            self.dir.create(manifest)
        self.answered = {(bytes.fromhex(r["key"]), r["k"]): r for r in own if "key" in r}
        totals = _totals(own)
        self.nodes, self.cpu_seconds, self.wall_before = totals["nodes"], totals["cpu_seconds"], totals["wall_seconds"]
        self._check_answers()
        nodes = {leaf.key: leaf for leaf in proof.leaves}
        self.paths = leaf_paths(proof)
        # (leaf, k, expected answer to ">= k") for each half of the proof
        self.questions = []
        self.run_costs = {}  # (leaf key, k): what the question's own sub-proofs cost the run
        # In the run's order: its answers were found with the table its earlier ones left.
        order, records = {}, self.run.journal.read()
        for record in records:
            if "key" in record:
                order.setdefault((bytes.fromhex(record["key"]), record["k"]), len(order))
        for k, at_least in halves:
            costs = leaf_costs(records, k, at_least)
            # Questions this verification has answered cost nothing more: a certificate
            # that the run's later answers would draw elsewhere keeps them.
            chosen = {**costs, **{key: 0 for key, kk in self.answered if kk == k}}
            _, keys = certificate(proof, k, at_least, chosen)
            for key in keys:
                if not static_answer(proof, nodes[key], k, at_least):
                    self.questions.append((nodes[key], k, at_least))
                    self.run_costs[key, k] = costs.get(key, 0)
                    done = self.answered.get((key, k))
                    if done is not None and done["expected"] != at_least:
                        raise CheckpointError(
                            f"{self.dir.path} answered the leaf after {done['moves']} for another run "
                            f"(it expected {'yes' if done['expected'] else 'no'} to \">= {k}\"); "
                            f"verify into another directory (--out)")
        self.questions.sort(key=lambda q: (order.get((q[0].key, q[1]), len(order)), q[0].key))
        # Where the run journaled the move that settled a leaf its mover's way, that child is
        # searched first (with this verification's keys): if it gives the answer, the leaf's
        # other moves need no search; if not, the leaf's own search follows, as without it.
        self.witnesses = {}  # leaf key -> [(lo, hi, the move that settled it)] of the run's answers
        for record in records:
            if "key" in record and "move" in record:
                self.witnesses.setdefault(bytes.fromhex(record["key"]), []).append(
                    (record["lo"], record["hi"], record["move"]))

    def _check_answers(self):
        for (key, k), record in self.answered.items():
            if (record["v"] >= k) != record["expected"]:
                raise VerificationFailed(
                    f"the leaf after {record['moves']} answered {record['v']} to \">= {k}\"; "
                    f"the run's journal says {'yes' if record['expected'] else 'no'}")

    def remaining(self):
        return [q for q in self.questions if (q[0].key, q[1]) not in self.answered]

    def to_go(self):
        """(nodes still to search, about; ratio used): the run's cost of the questions not
        yet answered, times what this verification has needed per node of the run's on those
        it has answered, less what the questions in flight have searched so far. (On 6x6 the
        fresh table needed 1.75 times the run's nodes at first, 0.91 times once it had filled.)"""
        theirs = mine = left = 0
        for leaf, k, _ in self.questions:
            cost = self.run_costs[leaf.key, k]
            done = self.answered.get((leaf.key, k))
            if done is None:
                left += cost
            elif cost > 0:
                theirs += cost
                mine += done["nodes"]
        ratio = mine / theirs if theirs else 1.0
        return max(0, round(left * ratio) - self.live_nodes), ratio

    def verify(self):
        """Asks every question not yet answered; returns the verification's result
        (also written to DIR/verify/result.json), or raises VerificationFailed."""
        with self.dir.claimed():
            return self._verify()

    def _note(self, text):
        if self.progress is not None and hasattr(self.progress, "note"):
            self.progress.note(text)

    def _subtrees_identity(self):
        # The seed marks the file as this verification's own: a run's file is refused.
        return dict(self.proof._subtrees_identity(), seed=self.seed)

    def _keep_subtrees(self, before, now, entry_bytes):
        """Leaves in DIR/verify/ the costly subtrees of the questions stopped in this session
        or an earlier one and not answered since (see subtrees)."""
        asked = {(leaf.key, k) for leaf, k, _ in self.questions}
        subtrees.end_session(self.dir.path, self._subtrees_identity(), subtrees.merge(before, now, entry_bytes),
                             lambda key, k: (key, k) in asked and (key, k) not in self.answered,
                             self._note, entry_bytes)

    def _witness(self, leaf, k, expected):
        """prove's hints for the question: the move that settled the leaf in the run, when its
        answer there goes the leaf's mover's way and gives the expected answer to ">= k"."""
        p = leaf.position
        if expected != (p.side == 0):
            return []
        for lo, hi, name in self.witnesses.get(leaf.key, ()):
            if lo >= k if expected else hi < k:
                move = parse_move(self.proof.board, name)
                if move in p.legal_moves():
                    return [move_hint(p, move)]
        return []

    def _load_order_hints(self):
        """The run's move-order hints, or {} (none, turned off, or a damaged file: one note)."""
        if not self.order_hints:
            return {}
        try:
            return hints_file.load(self.run.path, self.proof.engine.core.BOOK_ENTRY_BYTES)
        except hints_file.OrderHintsError as e:
            self._note(f"move-order hints not used: {e}")
            return {}

    def _take(self, leaf, k, expected, hints, order_hints, result, pool):
        """Journals a question's answer (`hints`: those prove had; `order_hints`: the entries
        of the move-order hints it was given, or None); raises VerificationFailed when it
        disagrees."""
        v, nodes, seconds, move = result
        record = {"key": leaf.key.hex(), "k": k, "expected": expected, "v": v,
                  "ok": (v >= k) == expected, "nodes": nodes, "seconds": round(seconds, 4),
                  "moves": format_moves(self.proof.board, self.paths[leaf.key])}
        if hints:
            record["witness"] = format_move(self.proof.board, hints[0][0])
            record["by_witness"] = move == hints[0][0]
        error = pool.hint_failures.pop((leaf.key, k), None) if order_hints else None  # (only a LocalPool's)
        if error is not None and not self.hints_failed:
            self._note(f"move-order hints not used: {error}")  # (once; the answer is the same without)
        self.hints_failed += error is not None
        if order_hints and error is None:
            record["order_hints"] = len(order_hints) // self.proof.engine.core.BOOK_ENTRY_BYTES  # positions
        self.dir.journal.append(record)
        self.answered[leaf.key, k] = record
        self.nodes += nodes
        self.cpu_seconds += seconds
        self._check_answers()

    def _verify(self):
        todo = self.remaining()
        pool = warm_core = None
        stopped = {}
        finished = False
        t0 = time.perf_counter()

        def identify():
            return self.proof.warm_identity(warm_core, self.seed)

        if todo:  # (a stop while the files load leaves them as they were)
            pool = (DaskPool(self.scheduler) if self.scheduler
                    else LocalPool(self.workers, self.config, record_subtrees=True))
            if isinstance(pool, LocalPool):  # its own warm table and subtrees, from its own earlier sessions
                warm_core = pool.owner
                self.run_hints = self._load_order_hints()
                warm.start_session(self.dir.path, warm_core, identify, self._note)
                stopped = subtrees.start_session(self.dir.path, warm_core, self._subtrees_identity(), self._note)
        inflight = {}
        on_the_way = None if warm_core is None else SavesOnTheWay(
            lambda: warm.end_session(self.dir.path, warm_core, identify, self._note, finished=False),
            lambda: self._keep_subtrees(stopped, {**pool.stopped_subtrees, **pool.snapshot_subtrees()},
                                        warm_core.BOOK_ENTRY_BYTES))
        # Only the wall time: a verification counts the nodes of its answers alone.
        session = None if pool is None else SessionLog(self.dir.journal)
        try:
            while todo or inflight:
                if session is not None:
                    session()
                if on_the_way is not None:
                    on_the_way()
                while todo and len(inflight) < (pool.workers if self.scheduler else self.workers):
                    leaf, k, expected = todo.pop(0)
                    hints = self._witness(leaf, k, expected)
                    order = hints_file.for_question(self.run_hints, leaf.key, k)
                    future = pool.submit(self.config, *leaf.position.core_args, k, None, hints, tag=(leaf.key, k),
                                         order_hints=order)
                    inflight[future] = (leaf, k, expected, hints, order)
                if self.progress:
                    self.live_nodes = pool.live_nodes()
                    self.progress(self)
                # Saves on the way (session record, a local pool's warm table) must not wait for
                # a question that can take hours. (Every pool journals its session.)
                timeout = PROGRESS_SECONDS if self.progress or session is not None else None
                for future in pool.wait(list(inflight), timeout):
                    self._take(*inflight.pop(future), future.result(), pool)
        except BaseException as stop:
            if pool is not None:
                pool.close(abort=True)
            if isinstance(stop, KeyboardInterrupt) and isinstance(pool, LocalPool):
                # Ctrl-C or SIGTERM: a question that finished meanwhile is not lost.
                for future, question in inflight.items():
                    if future.done() and not future.cancelled() and future.exception() is None \
                            and future.result()[0] != INTERRUPTED:
                        self._take(*question, future.result(), pool)
            raise
        else:
            if pool is not None:
                pool.close()
            finished = True
        finally:
            self.seconds = time.perf_counter() - t0
            if session is not None:
                session.end(self.seconds)
            # The small file first: a second signal may cut the warm table's save short.
            if warm_core is not None:
                self._keep_subtrees(stopped, pool.stopped_subtrees, warm_core.BOOK_ENTRY_BYTES)
            elif not self.remaining() and self.at_least is None:
                # The value's verification is the last: files a kill left after its last answer
                # go. (Not a bound's: they may serve a verification of the value still under way.)
                subtrees.remove(os.path.join(self.dir.path, subtrees.FILE_NAME))
                warm.remove(os.path.join(self.dir.path, warm.FILE_NAME))
            if pool is not None:
                warm.end_session(self.dir.path, warm_core, identify, self._note, finished)
        # Only this certificate's answers: a verified bound's other answers are not its work.
        mine = [self.answered[q[0].key, q[1]] for q in self.questions]
        result = {"seed": self.seed, "symmetry": True, "method": "certificate",
                  "questions": len(self.questions), "nodes": sum(r["nodes"] for r in mine),
                  "cpu_seconds": round(sum(r["seconds"] for r in mine), 3),
                  "wall_seconds": round(self.wall_before + self.seconds, 3), "ok": True}
        if self.at_least is None:
            result = dict(value=self.value, **result)
        else:
            result = dict(at_least=self.at_least, **result)
            earlier = self.dir.read_result()
            if earlier and earlier.get("ok") and ("value" in earlier or earlier["at_least"] > self.at_least):
                return result  # a stronger verification stands in result.json
        self.dir.write_result(result)
        return result


def leaf_paths(proof):
    """Moves from the run's position to each frontier leaf (the first path found)."""
    paths, stack = {}, [(proof.root, [])]
    while stack:
        node, path = stack.pop()
        if node.key in paths:
            continue
        paths[node.key] = path
        for move, child in zip(node.moves or (), node.children or ()):
            stack.append((child, path + [move]))
    return paths


def verify_manifest(proof):
    """What a verification must share with its run: the position and the measure."""
    return {"game": "sanjego-verify", "board": board_spec(proof.board), "measure": proof.measure,
            "moves": format_moves(proof.board, proof.moves), "heads": proof.start_heads}


def static_answer(proof, leaf, k, at_least):
    """Whether the core's static bounds (from the rules alone, no table) already answer
    the question, so that it needs no search."""
    p = leaf.position
    lo, hi = proof.engine.core.bounds(*p.core_args)
    return lo >= k if at_least else hi < k


def read_verification(proof, run_dir, out_dir=None, bound=False):
    """The result of a finished, successful verification of run_dir's finished proof (as
    open_run gives it), or None (also for one left from another run); CheckpointError when
    its files are damaged. With bound, also that of a verified bound "value >= at_least"
    that the run's journal proves (its result has at_least instead of value)."""
    check = RunDir(out_dir or os.path.join(run_dir, "verify"))
    result = check.read_result() if check.exists() else None
    if result is None or not result.get("ok"):
        return None
    if "value" in result:
        run_result = RunDir(run_dir).read_result()
        if run_result is None or run_result.get("value") != result["value"]:
            return None
    elif not bound or proof.intervals()[proof.root.key][0] < result.get("at_least", float("inf")):
        return None
    stored = read_checked_json(check.manifest_path)
    expected = dict(verify_manifest(proof), depth=proof.depth)
    if "value" in stored and "value" in result and stored["value"] != result["value"]:
        return None  # a verification directory of the older kind, left from another run
    if any(stored.get(key) != value for key, value in expected.items()):
        return None  # left from another run in the same directory
    if not all(record.get("ok", True) for record in check.journal.read()):
        return None  # a later verification of the same run disagreed
    return result


def _totals(records, live=False):
    """Answers, nodes, CPU and wall seconds of a verification journal's records (a session
    that a kill ended counts as far as it journaled: see sessions; live: a verification
    writes the journal now, and its session is not one of those)."""
    out = {"answers": 0, "nodes": 0, "cpu_seconds": 0.0, "wall_seconds": 0.0}
    tally = SessionTally()
    for record in records:
        if tally.take(record):
            continue
        if "session_wall" in record:
            out["wall_seconds"] += record["session_wall"]
        else:
            out["answers"] += 1
            out["nodes"] += record["nodes"]
            out["cpu_seconds"] += record["seconds"]
    out["wall_seconds"] += sum(session["wall"] for session in tally.killed(live))
    return out


def journal_totals(run_dir, out_dir=None):
    """What run_dir's verification directory has answered so far (also one not finished,
    or one in use: reading never writes), or None when there is none."""
    check = RunDir(out_dir or os.path.join(run_dir, "verify"))
    return _totals(check.journal.read(), check.in_use()) if check.exists() else None
