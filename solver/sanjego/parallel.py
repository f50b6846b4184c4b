"""Parallel, resumable proof of a San Jego value.

The tree is expanded a few plies deep into a frontier (transpositions and
symmetric positions merged by their canonical key). Each frontier leaf carries
bounds [lo, hi] on its value; interior nodes get theirs by minimax over the
children. The root value is found with null-window questions "is it >= k?",
choosing k as the single-process solver does (`probes`: step out from 0, then
bisect).
A question is answered by sending undecided leaves to the workers as
null-window searches; each answer tightens that leaf's bounds and is appended to
the run's journal before it counts. With a node budget per sub-proof
(`split_nodes`), a search that exceeds it is abandoned and its leaf is split into
its children, which become leaves themselves; the split is journaled too, and the
leaf keeps its earlier bounds. Splitting can cost: 6x5 after two plies at depth 2
took 190.7 M nodes unsplit and 205.9 M, 214.8 M, 245.7 M with budgets of 10^7, 3 x 10^6
and 10^6 (3, 19 and 57 splits), though at depth 1 one or two splits cost nothing. A run
stopped by Ctrl-C or SIGTERM journals the nodes of its sub-proofs in flight
("interrupted") and asks them again next session, with the warm table (see warm):
that loses 10-25 % of what they had searched (a search stopped halfway and resumed
with the warm share of its table).
Leaves that earlier answers made irrelevant (a max node already has a child
>= k, a min node one < k) are never sent: alpha-beta at the frontier. A local
sub-proof in flight whose leaf becomes irrelevant is stopped (journaled as
dropped, with its nodes): a refutation costs up to 10^9 nodes on 6x5, and
two workers often race to refute the same first move.

Order matters because one answer can make others irrelevant. Within a node, the
child with the most of its own children already settled in the node's mover's favour
comes first: it is the one the proof is being built on (at the root, the first move
with the most replies proven), so the search stays on it rather than wander off to a
move that merely looks good. Then moves that already decided other nodes of the
frontier for the same question (a refutation that works for one first move often
works for the next) are tried first, by how many nodes they decided; ties keep the
core's static order. A failure elsewhere does not count against a move: in session
24's 6x5 runs one failure put the cheap refuter of a first move behind every untried
reply and cost 2 x 10^9 nodes (counting successes only: 9.56 -> 8.44 x 10^9 nodes).
Inside a leaf, its move that settled most other leaves the same way (each answer journals
the move that settled it) is searched first, on its own (see prove and ANSWER_HINTS).
With several workers, every second free worker takes the depth-first next leaf and
the others take leaves that are first choices below the root, so that the workers
spread over the root's moves instead of racing each other for the same reply
(keeping a free worker off a move another worker is on was measured worse: when the
order there changes, the racing worker tries the better refuter). With `focus` = N,
once the root's first choice (the lead) has N of its children settled its way, the
other root moves count as detours too, so that all workers take the lead's leaves:
on a big board a reply costs hours, and the hedge on other first moves is wasted
whenever the lead holds. Not while a root move is settled against the root's mover
for the question: then the question likely fails at the root, every move must be
settled, and the hedge is work the proof needs. The default, 2, comes from the
journals: the hedge of the "≥ +1" question took 0.68 of 10.15 x 10^9 nodes of 6x5
from scratch and 7.0 of 46.0 x 10^9 of 8x4 (replies to a second first move while the
first one held).
"""

import concurrent.futures
import os
import threading
import time

from .. import __version__
from .._sanjego import Core
from ..checkpoint import CheckpointError, RunDir, claimed, read_checked_json, tighten
from .board import board_from_spec, board_spec
from .engine import ordered_moves
from .notation import format_move, format_moves, parse_move, replay
from .probes import Probes
from . import order_hints, subtrees, warm
from .sessions import SessionLog, SessionTally

_core = None  # this process's table for _core_config (a Dask worker's), owned by its first core
_core_config = None
_core_lock = threading.Lock()
_thread = threading.local()


# A run's table ages its entries (Core.age_weight): a sub-proof's costly entries otherwise
# stay long after it, in slots the next ones need. Measured (session 33) with 15 6x6 proxy
# questions answered in a row with one 128 MB table, 4 MB near (scripts/bench.py
# --questions scripts/data/6x6-questions.txt --one-table --table-mb 128 --near-mb 4, as the
# run's sub-proofs share its 16 GB): by work alone 902.3 M nodes; work less 1 per generation
# of four times the table's slots 814.2 M (-9.8 %); less 3 per generation of a quarter of
# them 747-750 M (-17 %). But one search that lasts many generations loses by aging: 6x4
# ">= 3" from the start with a 16 MB table (16 table-fills of nodes) took +40 % nodes with
# the second and -1.6 % with the first, with a 1 MB table (385 fills) +85 % with the first.
# A 6x6 sub-proof lasts up to about 14 fills of 16 GB, so the run takes the mild one.
RUN_AGE_WEIGHT = 1
# In a run, only positions of at most this many towers keep to the table's first 512 MB
# (Core.near_towers; the core's default, 20, suits searches of up to a few 10^8 nodes).
# The near part makes a probe cheaper, but in a run's sub-proofs of 10^9-10^10 nodes its
# 2^25 slots are crowded out many times over. Measured (session 37) with the 6x6 proxy
# questions in a row on one table scaled down as aging's below (128 MB, 4 MB near, nodes
# exact): near 20 814.2 M nodes, 14 694.4 M, 11 623.0 M (-23 %), 8 554.1 M, 5 502.3 M, none
# 498.6 M; the mid-sized positions that near 11 sends further in did no better in a 16 MB
# part of their own (692.7 M). Speed per node on the full 16 GB table with the run stopped:
# near 20 2.58 M nodes/s, 11 2.52, 8 2.28, none 2.09 (scripts/bench.py --questions
# scripts/data/6x6-questions.txt --one-table --table-mb 16384 --near 20 11 8 0 --age-weight 1).
# By nodes / speed, 11, 8 and none are all about -22 to -25 % time; 11 gives up the least
# speed where the scaled table overstates the crowding.
RUN_NEAR_TOWERS = 11
SETTLED_LOOKUP_BYTES = 4 << 20  # the table that stopped_progress reads costly subtrees into


def _new_core(config):
    geometry, measure, table_bytes, seed, heads = config
    kwargs = dict(geometry, heads=heads)
    if seed is not None:
        kwargs["seed"] = seed
    core = Core(measure=measure, table_bytes=table_bytes, **kwargs)
    core.age_weight = RUN_AGE_WEIGHT
    core.near_towers = RUN_NEAR_TOWERS
    return core


def _get_core(config):
    """This thread's core for `config`. A Dask worker process runs as many sub-proofs at once
    as it has threads: each gets a core of its own (a core's search state, such as its group
    memo, is not shared between threads) on the process's one table."""
    global _core, _core_config
    with _core_lock:
        if _core_config != config:
            _core = _new_core(config)
            _core_config = config
        owner = _core
    if getattr(_thread, "owner", None) is not owner:
        _thread.core = Core(0, 0, share=owner)
        _thread.owner = owner
    return _thread.core


HINT_TABLE_BYTES = 4 << 20  # a worker's table of move-order hints (see order_hints): 2^16 buckets


class _OverBudget(Exception):
    pass


class _Dropped(Exception):
    """Raised in a worker whose sub-proof other answers made irrelevant."""


DROPPED = "dropped"  # prove's result for a sub-proof dropped that way
INTERRUPTED = "interrupted"  # prove's result for a sub-proof stopped with the run


# How many of a leaf's moves that settled other leaves for the same side and question are
# searched first, each on its own (see prove). Measured with one worker at depth 2 (README,
# "Within a leaf"): nodes 9x3 -28 %, 6x4 -23 %, 8x4 after 2 plies -17 %, 5x5 -8 %, 6x5 after
# E3-D3 -7 %, 7x4 +0.9 %, 8x4 after 4 plies +2.5 %; two instead of one did no better.
ANSWER_HINTS = 1


def prove(config, heights, owners, side, k, budget=None, hints=(), core=None):
    """Worker task: one null-window search "value >= k?" on a leaf, with the given core
    or this process's core for `config`, abandoned after `budget` nodes (if given).
    `hints`: (move, heights, owners, side) of the positions after some of the leaf's moves,
    each searched first: one that settles the question for the leaf's mover (>= k for the
    first player, < k for the second) answers it for the leaf, as a move that refutes (or
    proves) one leaf often does the same for its siblings. One that does not leaves its
    subtree in the table, where the leaf's own search finds it.

    Returns (fail-soft result, None when over budget, DROPPED when dropped or INTERRUPTED
    when the run stopped; nodes; seconds; the leaf's best move: the hint that settled it,
    else the core's (Core.last_move))."""
    core = core or _get_core(config)
    n0, t0 = core.nodes, time.perf_counter()
    outer = core.progress

    def check(nodes):
        if outer is not None:
            outer(nodes)
        if nodes - n0 > budget:
            raise _OverBudget

    if budget is not None:
        core.progress = check
    move = None
    try:
        for hint, h, o, s in hints:
            v = core.search(h, o, s, k - 1, k)
            if (v >= k) == (side == 0):  # the hint alone settles the leaf for its mover
                move = hint
                break
        else:
            v = core.search(heights, owners, side, k - 1, k)
            move = core.last_move
            if any(move == hint for hint, *_ in hints):  # read back from the table: proven not to settle it
                move = None
    except _OverBudget:
        v = None
    except _Dropped:
        v = DROPPED
    except _Stopped:
        v = INTERRUPTED
    finally:
        core.progress = outer
    return v, core.nodes - n0, time.perf_counter() - t0, move


def move_hint(position, move):
    """One of prove's hints: the move with the position it leads to."""
    return (move, *position.play(move).core_args)


def _favours_mover(node, key, k, memo):
    """Whether the answer to ">= k" at `key` is settled in favour of `node`'s mover
    (at a max node: >= k; at a min node: < k)."""
    lo, hi = memo[key]
    return lo >= k if node.maximise else hi < k


class Node:
    __slots__ = ("position", "key", "children", "moves", "maximise", "final")

    def __init__(self, position):
        self.position = position
        self.key = position.canonical_key()
        self.children = None
        self.moves = None
        self.maximise = position.side == 0
        self.final = None


def grow(nodes, leaves, position, depth, measure):
    """The node of `position` in the DAG `nodes` ({key: node}); a new one is expanded
    `depth` plies, and the new unfinished nodes at the bottom are appended to `leaves`."""
    key = position.canonical_key()
    node = nodes.get(key)
    if node is not None:
        return node
    node = nodes[key] = Node(position)
    if position.is_over():
        node.final = position.score(measure)
    elif depth == 0:
        leaves.append(node)
    else:
        node.moves = ordered_moves(position)
        node.children = [grow(nodes, leaves, position.play(m), depth - 1, measure) for m in node.moves]
    return node


def build_frontier(root, depth, measure):
    """The DAG of positions up to `depth` plies; returns (root node, leaves, {key: node})."""
    nodes, leaves = {}, []
    return grow(nodes, leaves, root, depth, measure), leaves, nodes


DEFAULT_FOCUS = 2  # see the module: every worker on the lead once 2 of its replies hold
PROGRESS_SECONDS = 10  # how often a waiting run looks at the nodes of its sub-proofs in flight
WARM_SAVE_SECONDS = 1800  # how often a run saves its warm table, for a kill that gives no time to save
SUBTREES_SAVE_SECONDS = 600  # and its costly subtrees (a save costs well under a second)


class _Stopped(Exception):
    pass


class SavesOnTheWay:
    """The saves a session with a local table makes as it goes, since a sub-proof or question
    can run for hours and kill -9 leaves no time to save at the stop: save_warm() every
    WARM_SAVE_SECONDS, save_subtrees() (those of the work in flight so far) every
    SUBTREES_SAVE_SECONDS. Call it once each time round the session's loop."""

    def __init__(self, save_warm, save_subtrees):
        self.save_warm, self.save_subtrees = save_warm, save_subtrees
        self.warm_at = self.subtrees_at = time.perf_counter()

    def __call__(self):
        if time.perf_counter() - self.warm_at >= WARM_SAVE_SECONDS:
            self.save_warm()
            self.warm_at = time.perf_counter()
        if time.perf_counter() - self.subtrees_at >= SUBTREES_SAVE_SECONDS:
            self.save_subtrees()
            self.subtrees_at = time.perf_counter()


class LocalPool:
    """Sub-proofs on threads of this process. The C search runs without the GIL, and every
    thread's core searches with one table (made here), so each sub-proof sees what the
    others found. (Processes sharing a table through a shared mapping were measured first:
    the kernel backs such memory with small pages only, and 2 workers were no faster than 1.)"""

    def __init__(self, workers, config, record_subtrees=False, keep_hints=False):
        self.owner = _new_core(config)
        self.record_subtrees = record_subtrees
        self.stopped_subtrees = {}  # tag -> costly subtrees of its sub-proof, stopped with the run
        self.keep_hints = keep_hints and record_subtrees
        # Positions kept of a sub-proof in flight at each snapshot (see _record): for its costly
        # subtrees, and for its move-order hints once answered.
        self.record_limit = max(subtrees.MAX_PER_SUBPROOF, order_hints.PER_SUBPROOF if self.keep_hints else 0)
        self.answered_subtrees = {}  # tag -> its answered sub-proof's book entries, for order_hints
        self.hint_failures = {}  # tag -> why its move-order hints could not be used
        self.recorded = {}  # core -> [tag, costly subtrees so far, snapshot] of its sub-proof in flight
        self.snapshot = 0  # asked for by snapshot_subtrees; workers answer within 2^20 nodes
        self.snapshot_done = threading.Condition()
        self.local = threading.local()
        self.cores = []
        self.running = {}  # core -> (its node count, the time, tag) when its sub-proof in flight started
        self.stopping = threading.Event()
        self.drops = {}  # future -> the event that drops its sub-proof
        self.executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="sanjego")

    def _check(self, nodes):
        if self.stopping.is_set():
            raise _Stopped
        if self.local.drop.is_set():
            raise _Dropped
        if self.record_subtrees and self.recorded[self.local.core][2] != self.snapshot:
            self._record(self.local.core)

    def _record(self, core):
        """Moves what the core's book holds into `recorded` (on the core's own thread, while
        its search waits), the costliest kept."""
        with self.snapshot_done:
            tag, entries, _ = self.recorded[core]
            entries = subtrees.costliest(entries + core.book_take(), core.BOOK_ENTRY_BYTES, self.record_limit)
            self.recorded[core] = [tag, entries, self.snapshot]
            self.snapshot_done.notify_all()

    def snapshot_subtrees(self, timeout=60):
        """{tag: costly subtrees so far} of the sub-proofs in flight, for a save that a kill
        cannot take away; waits up to `timeout` seconds for the workers to answer."""
        with self.snapshot_done:
            self.snapshot += 1
            self.snapshot_done.wait_for(
                lambda: all(seen == self.snapshot for _, _, seen in self.recorded.values()), timeout)
            return {tag: subtrees.costliest(entries, Core.BOOK_ENTRY_BYTES, min_work=subtrees.MIN_WORK)
                    for tag, entries, _ in self.recorded.values() if tag is not None and entries}

    def _order_hints(self, core, config, entries, tag):
        """Sets the thread's core to take its move order from the hints `entries` (book
        entries, see order_hints; None: none), put into a small table of the thread's own
        with the core's keys (so that a look-up takes the core's key). Only an accelerator:
        on an error (kept in hint_failures[tag]) the question is asked without them."""
        core.set_order_hints(None)
        if not entries:
            return
        try:
            hints = getattr(self.local, "hint_core", None)
            if hints is None or self.local.hint_config != config:
                geometry, measure, _, seed, heads = config
                hints = self.local.hint_core = _new_core((geometry, measure, HINT_TABLE_BYTES, seed, heads))
                self.local.hint_config = config
            hints.clear()
            hints.book_put(entries, moves=True)
            core.set_order_hints(hints, order_hints.MIN_TOWERS)
        except Exception as e:  # noqa: BLE001
            core.set_order_hints(None)
            self.hint_failures[tag] = str(e) or type(e).__name__

    def _prove(self, drop, tag, hint_entries, config, *args):
        core = getattr(self.local, "core", None)
        if core is None:
            core = self.local.core = Core(0, 0, share=self.owner)
            core.progress = self._check
            if self.record_subtrees:
                core.book_start(min(subtrees.MIN_WORK, order_hints.MIN_WORK) if self.keep_hints
                                else subtrees.MIN_WORK, subtrees.CAPACITY)
            self.cores.append(core)
        self._order_hints(core, config, hint_entries, tag)
        self.local.drop = drop
        self.running[core] = (core.nodes, time.perf_counter(), tag)
        if self.record_subtrees:
            with self.snapshot_done:
                self.recorded[core] = [tag, b"", self.snapshot]
        try:
            result = prove(config, *args, core=core)
        finally:
            del self.running[core]
            if self.record_subtrees:
                with self.snapshot_done:
                    _, entries, _ = self.recorded.pop(core)
                    self.snapshot_done.notify_all()
                entries += core.book_take()
        if self.record_subtrees and result[0] == INTERRUPTED and tag is not None:
            self.stopped_subtrees[tag] = subtrees.costliest(entries, core.BOOK_ENTRY_BYTES,
                                                            min_work=subtrees.MIN_WORK)
        elif self.keep_hints and result[0] not in (None, DROPPED) and tag is not None:
            self.answered_subtrees[tag] = entries  # (ParallelProof._take selects the hints, once)
        return result

    def submit(self, *args, tag=None, order_hints=None):
        """Runs prove(*args) on a worker thread; `tag` names the sub-proof in stopped_subtrees
        and answered_subtrees; order_hints: the entries of its move-order hints (see
        order_hints), or None."""
        drop = threading.Event()
        future = self.executor.submit(self._prove, drop, tag, order_hints, *args)
        self.drops[future] = drop
        future.add_done_callback(lambda f: self.drops.pop(f, None))
        return future

    def drop(self, future):
        """Stops the future's sub-proof within 2^20 nodes (its result is then DROPPED)."""
        drop = self.drops.get(future)
        if drop is not None:
            drop.set()

    def wait(self, futures, timeout=None):
        """The futures done, waiting for at least one or `timeout` seconds (then maybe none)."""
        return concurrent.futures.wait(futures, timeout, return_when=concurrent.futures.FIRST_COMPLETED)[0]

    def live_nodes(self):
        """Nodes searched so far by the sub-proofs in flight (read unlocked: for progress only)."""
        return sum(core.nodes - start for core, (start, _, _) in list(self.running.items()))

    def in_flight(self):
        """(leaf key, k, nodes, seconds) so far of each tagged sub-proof in flight (unlocked, as live_nodes)."""
        running = list(self.running.items())
        now = time.perf_counter()
        return [(*tag, core.nodes - start, now - t0) for core, (start, t0, tag) in running if tag is not None]

    def close(self, abort=False):
        if abort:  # searches in flight stop within 2^20 nodes and are lost; finished ones are journaled
            self.stopping.set()
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.cores.clear()


class DaskPool:
    """Sub-proofs on an existing Dask distributed cluster (pip install .[cluster])."""

    def __init__(self, address):
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError("--scheduler needs Dask distributed: pip install '.[cluster]'") from None
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            raise RuntimeError(f"cannot reach the Dask scheduler at {address}: "
                               f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        self.workers = max(1, sum(w.get("nthreads", 1)
                                  for w in self.client.scheduler_info()["workers"].values()))

    answered_subtrees = {}  # (no book on Dask workers: a run with a scheduler keeps no hints)

    def submit(self, *args, tag=None, order_hints=None):
        return self.client.submit(prove, *args, pure=False)  # (move-order hints only in a LocalPool)

    def wait(self, futures, timeout=None):
        from distributed import wait
        try:
            return wait(list(futures), timeout=timeout, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            return set()

    def live_nodes(self):
        return 0  # the cluster's workers report only finished sub-proofs

    def in_flight(self):
        return []

    def drop(self, future):
        pass  # a running Dask task cannot be interrupted: it finishes and is journaled

    def close(self, abort=False):
        self.client.close()


class ParallelProof:
    """One run: frontier, bounds, journal, workers."""

    def __init__(self, engine, position, moves, depth, run_dir=None, resume=False, workers=None,
                 scheduler=None, progress=None, table_mb=None, start_heads=(), split_nodes=None,
                 focus=DEFAULT_FOCUS, answer_hints=ANSWER_HINTS):
        """table_mb: the one transposition table that local workers share (default: the
        engine's size); each Dask worker process gets a table of this size. start_heads:
        the heads variant's head cells before the first move (for the manifest).
        split_nodes: the node budget of one sub-proof (None: no limit); focus: how many
        of the lead's children must be settled its way before every worker takes the
        lead's leaves (None: never, always hedge); answer_hints: see ANSWER_HINTS; see the
        module."""
        self.engine = engine
        self.board = engine.board
        self.measure = engine.measure
        self.moves = moves
        self.depth = depth
        self.scheduler = scheduler
        self.workers = workers or os.cpu_count() or 1
        self.progress = progress
        self.split_nodes = split_nodes
        self.focus = focus
        self.answer_hints = answer_hints
        self.root, self.leaves, self.tree = build_frontier(position, depth, self.measure)
        self.bounds = {}
        for leaf in self.leaves:
            self._static_bounds(leaf)
        self.run = RunDir(run_dir) if run_dir else None
        self.nodes = self.cpu_seconds = 0
        self.answers = {}  # (k, side, move) -> leaves it settled for that side (journaled "move")
        self.hinted = {}  # (leaf key, k) -> the hints of its sub-proof in flight
        self.hints_unsaved = 0  # answered sub-proofs whose move-order hints could not be saved
        self.hint_tally = {"answers": 0, "settled_by_hint": 0, "nodes": 0}  # of answers given hints
        self.question_nodes = {}  # (leaf key, k) -> nodes its sub-proofs searched, answered or not
        self.live_nodes = 0  # searched by the sub-proofs in flight, as last seen
        self.subproofs = 0
        self.splits = 0
        self.wall_before = 0.0  # wall time of earlier sessions of this run
        self.sessions = SessionTally()  # (replay only)
        self.killed_sessions = 0  # earlier sessions ended by a kill (counted as far as they journaled)
        manifest = {"game": "sanjego", "board": board_spec(self.board), "measure": self.measure,
                    "moves": format_moves(self.board, moves), "depth": depth}
        # None (as in manifests from before the heads variant) when there are no heads
        manifest["heads"] = self.start_heads = [self.board.name(c) for c in start_heads] or None
        if self.run is not None:
            if resume:
                stored = self.run.open(manifest)
                # Checked apart from the manifest above: runs without a seed stored none.
                if stored.get("seed") != engine.seed:
                    raise CheckpointError(f"{run_dir} was started with seed={stored.get('seed')!r}, "
                                          f"not {engine.seed!r}; resume with the run's own options")
                self.run.journal.replay(self._apply)
                self._count_killed_sessions()
            else:
                if engine.seed is not None:
                    manifest["seed"] = engine.seed
                self.run.create(dict(manifest, code_version=__version__,
                                     created=time.strftime("%Y-%m-%dT%H:%M:%S%z")))
        self.nodes_before = self.nodes  # searched by earlier sessions of this run
        # Local worker threads share one table; each Dask worker process has one of this size.
        table_bytes = int((table_mb or engine.table_mb) * (1 << 20))
        self.config = (self.board.core_geometry(), self.measure, table_bytes, engine.seed, engine.heads)

    def _finish(self, key, k, result):
        """Journals and applies a sub-proof's result (see prove) for leaf `key`, question ">= k"."""
        v, nodes, seconds, move = result
        if v is None or v == DROPPED or v == INTERRUPTED:  # no answer: only its nodes count
            kind = "split" if v is None else v  # None: over budget, so the leaf is split
            record = {kind: key.hex(), "k": k, "nodes": nodes, "seconds": round(seconds, 4)}
        else:
            b = self.bounds[key]
            record = {"key": key.hex(), "k": k, "lo": b[0], "hi": b[1],
                      "nodes": nodes, "seconds": round(seconds, 4)}
            if v >= k:
                record["lo"] = max(b[0], v)
            else:
                record["hi"] = min(b[1], v)
            # What settled it, for the hints: the core's best move, unless its search ended on a
            # table entry whose move is not the leaf's (a small group's entry serves it wherever
            # the group lies) or the leaf's mover had to pass.
            position = self.tree[key].position
            if (v >= k) == (position.side == 0) and move is not None and move in position.legal_moves():
                record["move"] = format_move(self.board, move)
        hints = self.hinted.pop((key, k), None)
        if hints:
            record["hints"] = hints  # searched first (the record's "move" says whether one settled it)
        if self.run is not None:
            self.run.journal.append(record)
        self._apply(record)

    def _hints(self, leaf, k, deciding):
        """For prove: the leaf's moves (at most answer_hints) that settled most other nodes
        for the same side and ">= k", as the answers of leaves (`answers`) and as the children
        of the frontier's interior nodes (`deciding`, deciding_moves(k, memo)), with the
        positions they lead to."""
        p = leaf.position
        # A leaf begun before (stopped with the run, or dropped) goes on as it began: its
        # costly subtrees are back in the table, and a hint would only delay them.
        if not self.answer_hints or p.is_over() or self.question_nodes.get((leaf.key, k)):
            return []
        scored = [(self.answers.get((k, p.side, m), 0) + deciding.get((p.side, m), 0), i, m)
                  for i, m in enumerate(p.legal_moves()) if m is not None]
        scored.sort(key=lambda e: (-e[0], e[1]))
        return [move_hint(p, m) for count, _, m in scored[:self.answer_hints] if count]

    def _static_bounds(self, leaf):
        p = leaf.position
        self.bounds[leaf.key] = list(self.engine.core.bounds(*p.core_args))

    def _apply(self, record):
        if self.sessions.take(record):
            return
        if "session_wall" in record:
            self.wall_before += record["session_wall"]
            return
        if "split" in record:
            node = self.tree.get(bytes.fromhex(record["split"]))
            if node is None:
                return
            self._split(node)
            self.splits += 1
        elif "dropped" in record or "interrupted" in record:
            pass  # stopped as irrelevant, or with the run: only its nodes count
        else:
            b = self.bounds.get(bytes.fromhex(record["key"]))
            if b is None:
                return
            tighten(b, record["lo"], record["hi"])
            self.subproofs += 1
            if "move" in record:
                side, k = self.tree[bytes.fromhex(record["key"])].position.side, record["k"]
                move = parse_move(self.board, record["move"])
                self.answers[k, side, move] = self.answers.get((k, side, move), 0) + 1
            if "hints" in record:
                self.hint_tally["answers"] += 1
                self.hint_tally["settled_by_hint"] += record.get("move") in record["hints"]
                self.hint_tally["nodes"] += record["nodes"]
        key = next(record[kind] for kind in ("key", "split", "dropped", "interrupted") if kind in record)
        self.sessions.finished(key, record["k"])
        self._count(key, record["k"], record["nodes"], record["seconds"])

    def _count(self, key_hex, k, nodes, seconds):
        self.nodes += nodes
        self.cpu_seconds += seconds
        tag = (bytes.fromhex(key_hex), k)
        self.question_nodes[tag] = self.question_nodes.get(tag, 0) + nodes

    def _count_killed_sessions(self):
        """Sessions that a kill ended count as far as they journaled (see sessions); not
        the session of a live run beside this reader (status)."""
        killed = self.sessions.killed(live=self.run.in_use())
        for session in killed:
            self.wall_before += session["wall"]
            for key_hex, k, nodes, seconds in session["in_flight"]:
                self._count(key_hex, k, nodes, seconds)
        self.killed_sessions = len(killed)

    def _split(self, leaf):
        """Makes the leaf's children part of the frontier (the leaf keeps its bounds)."""
        if leaf.children is not None or leaf.final is not None:
            return
        position, new = leaf.position, []
        leaf.moves = ordered_moves(position)
        leaf.children = [grow(self.tree, new, position.play(m), 0, self.measure) for m in leaf.moves]
        for child in new:
            self._static_bounds(child)
        self.leaves.extend(new)

    def frontier_entries(self):
        """(position, lo, hi) for every frontier position (leaves and the tree above
        them) with its proven bounds; the root and all decided nodes are exact."""
        memo = self.intervals()
        nodes, stack = {}, [self.root]
        while stack:
            node = stack.pop()
            if node.key not in nodes:
                nodes[node.key] = node
                stack.extend(node.children or ())
        return [(n.position, *memo[n.key]) for n in nodes.values()]

    def export(self, path):
        """Writes frontier_entries() as a table."""
        from .book import write_positions
        return write_positions(path, self.board, self.measure, self.frontier_entries(),
                               provenance={"subproofs": self.subproofs, "nodes": self.nodes})

    def intervals(self):
        """[lo, hi] of every node, by minimax over the frontier bounds."""
        memo = {}

        def iv(node):
            r = memo.get(node.key)
            if r is None:
                if node.final is not None:
                    r = (node.final, node.final)
                elif node.children is None:
                    r = tuple(self.bounds[node.key])
                else:
                    ivs = [iv(c) for c in node.children]
                    pick = max if node.maximise else min
                    r = (pick(lo for lo, _ in ivs), pick(hi for _, hi in ivs))
                    own = self.bounds.get(node.key)  # a split leaf's answers still hold
                    if own is not None:
                        r = (max(r[0], own[0]), min(r[1], own[1]))
                memo[node.key] = r
            return r

        iv(self.root)
        return memo

    def deciding_moves(self, k, memo):
        """For each (side, move): how many interior nodes it decided for ">= k" (a max
        node's child >= k, a min node's child < k)."""
        counts, seen, stack = {}, set(), [self.root]
        while stack:
            node = stack.pop()
            if node.key in seen or node.children is None:
                continue
            seen.add(node.key)
            side = node.position.side
            for move, child in zip(node.moves, node.children):
                if _favours_mover(node, child.key, k, memo):
                    counts[side, move] = counts.get((side, move), 0) + 1
                stack.append(child)
        return counts

    @staticmethod
    def _settled_for_mover(node, child, k, memo):
        """How many distinct children of `child` are settled in favour of `node`'s mover
        for ">= k"."""
        if child.children is None:
            return 0
        return sum(_favours_mover(node, g, k, memo) for g in {c.key for c in child.children})

    @staticmethod
    def _settled_against_mover(node, child, k, memo):
        """Whether the child's answer to ">= k" is settled against `node`'s mover."""
        lo, hi = memo[child.key]
        return hi < k if node.maximise else lo >= k

    def _search_order(self, node, deciding, k, memo):
        """Indices of the node's children: the one with the most children already settled
        for the node's mover for ">= k" first; at the root, then one that answered the
        question one step easier for the mover (the move that proved ">= k - 1" leads
        ">= k": if any move holds, it is the likeliest); then moves that decided others
        (stable). Below the root this is no guide: measured on small boards, it only
        shuffled the node counts (6x4 depth 3: +18 %)."""
        side = node.position.side
        held = {c.key: self._settled_for_mover(node, c, k, memo) for c in node.children}
        at_root = node is self.root

        def held_before(child):
            lo, hi = memo[child.key]
            return at_root and (lo >= k - 1 if node.maximise else hi < k + 1)

        return sorted(range(len(node.children)),
                      key=lambda i: (-held[node.children[i].key], -held_before(node.children[i]),
                                     -deciding.get((side, node.moves[i]), 0)))

    def question_progress(self, k, memo, deciding=None):
        """How far ">= k" has come at the top of the tree: the root's moves already
        settled against the side to move there, and the first undecided one in search order
        (the one the workers are on) with how many of its replies are settled for that side.
        (At a maximising root, ">= k" needs one move all of whose replies are >= k.)
        `deciding`: deciding_moves(k, memo) where the caller has it already."""
        root = self.root
        if root.children is None:
            return None

        distinct = {c.key: c for c in root.children}.values()  # symmetric moves share a node
        out = {"maximise": root.maximise, "moves": len(distinct),
               "moves_settled": sum(self._settled_against_mover(root, c, k, memo) for c in distinct)}
        if deciding is None:
            deciding = self.deciding_moves(k, memo)
        for i in self._search_order(root, deciding, k, memo):
            lead = root.children[i]
            if not self._settled_against_mover(root, lead, k, memo):
                # Symmetric moves share a node: named as the first of them, as the list of root moves does.
                first = next(m for m, c in zip(root.moves, root.children) if c is lead)
                out["lead"] = format_moves(self.board, [first])
                if lead.children is not None:  # else a leaf: one sub-proof, no replies to count
                    out.update(self._replies_settled(root, lead, k, memo), **self._reply_costs(root, lead, k, memo))
                    j = self._first_open_split(lead, deciding, k, memo)
                    if j is not None:
                        # The reply that would refute the lead, if one does: all its children must go its way.
                        reply = lead.children[j]
                        out["reply"] = dict(move=self._reply_name(first, reply),
                                            **self._replies_settled(lead, reply, k, memo),
                                            **self._reply_costs(lead, reply, k, memo))
                break
        return out

    def _replies_settled(self, node, child, k, memo):
        """{"replies": distinct children of `child`, "replies_settled": how many of them are
        settled in favour of `node`'s mover for ">= k"}."""
        return {"replies": len({c.key for c in child.children}),
                "replies_settled": self._settled_for_mover(node, child, k, memo)}

    def _first_open(self, node, deciding, k, memo):
        """The index of the node's first child in search order still undecided for ">= k"
        (symmetric moves share a child: the index says which move the search takes), or None."""
        for i in self._search_order(node, deciding, k, memo):
            lo, hi = memo[node.children[i].key]
            if lo < k <= hi:
                return i
        return None

    def _first_open_split(self, node, deciding, k, memo):
        """_first_open(...) when that child has been split (has children of its own), else None;
        None too when the node itself is decided for ">= k": its open children no longer matter."""
        lo, hi = memo[node.key]
        j = self._first_open(node, deciding, k, memo) if node.children is not None and lo < k <= hi else None
        return j if j is not None and node.children[j].children is not None else None

    def _reply_name(self, first, reply):
        """The reply of node `reply` as played after the root move `first`: symmetric first moves
        share a node, whose moves are in the frame of only one of them."""
        after = self.root.position.play(first)
        name = next(m for m in after.legal_moves() if after.play(m).canonical_key() == reply.key)
        return format_moves(self.board, [name])

    def _reply_costs(self, root, lead, k, memo):
        """Nodes that ">= k" has cost so far under the lead's replies settled for the root's
        mover and under its open ones (each reply's subtree counted once, split leaves included);
        also one level down (root: the lead, lead: its reply)."""
        costs = {"settled_nodes": 0, "open_nodes": 0}
        for reply in {c.key: c for c in lead.children}.values():
            seen, stack, nodes = set(), [reply], 0
            while stack:
                node = stack.pop()
                if node.key in seen:
                    continue
                seen.add(node.key)
                nodes += self.question_nodes.get((node.key, k), 0)
                stack.extend(node.children or ())
            costs["settled_nodes" if _favours_mover(root, reply.key, k, memo) else "open_nodes"] += nodes
        return costs

    def undecided_leaves(self, k, memo):
        """Leaves whose answer to ">= k" can still change the root's, depth-first in
        search order, each with the number of times its path below the root leaves
        a node by other than its first undecided child (at the root itself only once
        the lead has `focus` children settled its way)."""
        out, seen = [], set()
        deciding = self.deciding_moves(k, memo)
        focused = False
        root = self.root
        # A root move already settled against the root's mover makes it likely that
        # all are (then every one must be settled, and the hedge is needed work).
        may_focus = self.focus is not None and root.children is not None and not any(
            self._settled_against_mover(root, c, k, memo) for c in root.children)

        def walk(node, detours):
            nonlocal focused
            lo, hi = memo[node.key]
            if lo >= k or hi < k or node.key in seen:
                return
            seen.add(node.key)
            if node.children is None:
                out.append((node, detours))
                return
            first = True
            for i in self._search_order(node, deciding, k, memo):
                child = node.children[i]
                clo, chi = memo[child.key]
                if clo >= k or chi < k:
                    continue
                if node is root and first and may_focus:
                    focused = self._settled_for_mover(node, child, k, memo) >= self.focus
                walk(child, detours + (0 if first or (node is root and not focused) else 1))
                first = False

        walk(root, 0)
        return out

    def schedule(self, k, memo, busy, undecided=None):
        """Undecided leaves not in `busy`, in the order free workers should take
        them: alternately the depth-first next and the next with fewest detours
        (counting the busy workers as having taken the first turns). `undecided`:
        undecided_leaves(k, memo) where the caller has it already."""
        if undecided is None:
            undecided = self.undecided_leaves(k, memo)
        leaves = [(leaf, d) for leaf, d in undecided if leaf.key not in busy]
        deep = [leaf for leaf, _ in leaves]
        wide = [leaf for leaf, _ in sorted(leaves, key=lambda e: e[1])]  # stable: depth-first ties
        order, taken, heads = [], set(), [0, 0]
        while len(order) < len(leaves):
            lane = (len(order) + len(busy)) % 2
            queue = (deep, wide)[lane]
            while queue[heads[lane]].key in taken:
                heads[lane] += 1
            leaf = queue[heads[lane]]
            taken.add(leaf.key)
            order.append(leaf)
        return order

    def summary(self):
        """What the journal proves so far: the root's bounds, the bounds after each
        root move, and the leaves still undecided for the next question above the
        lower bound."""
        memo = self.intervals()
        lo, hi = memo[self.root.key]
        out = {"bounds": [lo, hi], "subproofs": self.subproofs, "splits": self.splits, "nodes": self.nodes,
               "cpu_seconds": round(self.cpu_seconds, 3), "wall_seconds": round(self.wall_before, 3),
               "killed_sessions": self.killed_sessions,
               "answer_hints": dict(self.hint_tally)}
        if lo < hi:
            k = Probes().question(lo, hi)  # as a resumed run asks first
            out["undecided_for"] = {"k": k, "leaves": len(self.undecided_leaves(k, memo))}
            deciding = self.deciding_moves(k, memo)
            top = self.question_progress(k, memo, deciding)
            if top:
                out["undecided_for"].update(top)
        if self.root.children:
            out["root_moves"] = [{"move": format_moves(self.board, [m]), "bounds": list(memo[c.key])}
                                 for m, c in zip(self.root.moves, self.root.children)]
            if lo < hi:  # where each move's refutation stands (the question fails at the root)
                for entry, first, move in zip(out["root_moves"], self.root.moves, self.root.children):
                    j = self._first_open_split(move, deciding, k, memo)
                    if j is not None:
                        reply = move.children[j]
                        entry["reply"] = dict(move=self._reply_name(first, reply),
                                              **self._replies_settled(move, reply, k, memo),
                                              **self._reply_costs(move, reply, k, memo))
        return out

    def solve(self):
        """Runs to the end; returns the exact value of the position."""
        with claimed(self.run):
            return self._solve()

    def _note(self, text):
        if self.progress is not None and hasattr(self.progress, "note"):
            self.progress.note(text)

    def warm_identity(self, core, seed):
        """What a warm table for this run's position must have been made with (see warm)."""
        return warm.identity(core, self.root.position, board_spec(self.board), self.measure, seed,
                             self.engine.heads)

    def path_to(self, key):
        """The moves from the root to the node of `key` (the first way in move order), or None."""
        stack = [(self.root, [])]
        seen = set()
        while stack:
            node, moves = stack.pop()
            if node.key == key:
                return moves
            if node.key in seen or node.children is None:
                continue
            seen.add(node.key)
            stack.extend((child, moves + [move]) for move, child in reversed(list(zip(node.moves, node.children))))
        return None

    def stopped_progress(self):
        """For each sub-proof stopped in flight whose costly subtrees the run keeps, and whose
        answer can still change the root's, how far its search had come one ply below its leaf
        (see subtrees.settled_children): a list of {"moves", "k", "nodes", "children",
        "at_least", "below"}. Raises SubtreesError."""
        path = os.path.join(self.run.path, subtrees.FILE_NAME)
        if not os.path.exists(path):
            return []
        groups = subtrees.load(path, self._subtrees_identity(), Core.BOOK_ENTRY_BYTES)
        geometry, measure, _, seed, heads = self.config
        core = _new_core((geometry, measure, SETTLED_LOOKUP_BYTES, seed, heads))
        memo, out, still_open = self.intervals(), [], {}
        for (key, k), entries in groups.items():
            if k not in still_open:  # leaves whose answer can still change the root's
                still_open[k] = {leaf.key for leaf, _ in self.undecided_leaves(k, memo)}
            leaf, moves = self.tree.get(key), self.path_to(key)
            if leaf is None or moves is None or key not in still_open[k]:  # settled or moot since
                continue
            children, at_least, below = subtrees.settled_children(core, leaf.position, k, entries)
            out.append({"moves": format_moves(self.board, self.moves + moves), "k": k,
                        "nodes": self.question_nodes.get((key, k), 0), "children": children,
                        "at_least": at_least, "below": below})
        return out

    def _take(self, pool, tag, result, stopped):
        """Journals a finished sub-proof (see _finish), for an answer after appending its
        move-order hints for the verification (see order_hints), with those of its searches
        stopped in earlier sessions (`stopped`: the costly subtrees put back). Hints first: a
        kill between the two appends leaves hints of a question asked again (the later record
        of a question wins), never an answer without its hints."""
        entries = pool.answered_subtrees.pop(tag, None)
        if entries and self.run is not None:
            try:
                entries = order_hints.select(stopped.get(tag, b"") + entries, Core.BOOK_ENTRY_BYTES)
                if entries:
                    order_hints.append(self.run.path, tag[0], tag[1], entries, Core.BOOK_ENTRY_BYTES)
            except Exception as e:  # noqa: BLE001 - only an accelerator of the verification: said once
                if not self.hints_unsaved:
                    self._note(f"move-order hints not saved: {getattr(e, 'strerror', None) or e}")
                self.hints_unsaved += 1
        self._finish(*tag, result)

    def _subtrees_identity(self):
        return {"board": board_spec(self.board), "measure": self.measure, "heads": bool(self.engine.heads)}

    def _keep_subtrees(self, before, now, memo, entry_bytes):
        """Leaves the costly subtrees of the sub-proofs stopped in this session or an earlier
        one whose leaf is still undecided for their question (see subtrees)."""
        merged = subtrees.merge(before, now, entry_bytes)
        root_lo, root_hi = memo[self.root.key]

        def open_question(key, k):
            lo, hi = memo.get(key, (k, k))
            return root_lo < root_hi and lo < k <= hi

        subtrees.end_session(self.run.path, self._subtrees_identity(), merged, open_question,
                             self._note, entry_bytes)

    def _solve(self):
        pool = (DaskPool(self.scheduler) if self.scheduler
                else LocalPool(self.workers, self.config, record_subtrees=self.run is not None, keep_hints=True))
        if self.scheduler:
            self.workers = pool.workers
        # A local pool's one table can be kept between the sessions of a checkpointed run.
        warm_core = pool.owner if self.run is not None and isinstance(pool, LocalPool) else None
        identify = lambda: self.warm_identity(warm_core, self.engine.seed)  # noqa: E731
        stopped = {}
        if warm_core is not None:
            warm.start_session(self.run.path, warm_core, identify, self._note)
            stopped = subtrees.start_session(self.run.path, warm_core, self._subtrees_identity(), self._note)
        inflight = {}
        probes = Probes()
        # The warm table stays on this machine; what a new checkout gets is the file of
        # costly subtrees, with those of the sub-proofs in flight so far.
        on_the_way = None if warm_core is None else SavesOnTheWay(
            lambda: warm.end_session(self.run.path, warm_core, identify, self._note, finished=False),
            lambda: self._keep_subtrees(stopped, {**pool.stopped_subtrees, **pool.snapshot_subtrees()},
                                        self.intervals(), warm_core.BOOK_ENTRY_BYTES))
        session = None if self.run is None else SessionLog(self.run.journal, pool.in_flight)
        k = None
        t0 = time.perf_counter()
        try:
            while True:
                if on_the_way is not None:
                    on_the_way()
                if session is not None:
                    session()
                memo = self.intervals()
                lo, hi = memo[self.root.key]
                if lo == hi:
                    break
                k = probes.question(lo, hi)
                # Sub-proofs whose answer can no longer matter are stopped: their partial
                # work stays in the table, and the worker is free for a leaf that matters.
                undecided = self.undecided_leaves(k, memo)
                relevant = {leaf.key for leaf, _ in undecided}
                for future, (key, fk) in inflight.items():
                    if key not in relevant:
                        pool.drop(future)
                todo = self.schedule(k, memo, {key for key, fk in inflight.values() if fk == k}, undecided)
                deciding = self.deciding_moves(k, memo) if todo and len(inflight) < self.workers else {}
                for leaf in todo[:max(0, self.workers - len(inflight))]:
                    hints = self._hints(leaf, k, deciding)
                    if hints:
                        self.hinted[leaf.key, k] = [format_move(self.board, h[0]) for h in hints]
                    inflight[pool.submit(self.config, *leaf.position.core_args, k, self.split_nodes,
                                         hints, tag=(leaf.key, k))] = (leaf.key, k)
                if not inflight:
                    raise RuntimeError("internal error: undecided root with no work left")
                if self.progress:
                    self.live_nodes = pool.live_nodes()
                    self.progress(self, len(todo), (lo, hi), k)
                # A run saves on the way (session record, a local pool's warm table) even
                # without a progress display, and without waiting for a sub-proof that can take
                # hours. (Only a run has a warm table, and every run journals its session.)
                timeout = PROGRESS_SECONDS if self.progress or session is not None else None
                for future in pool.wait(list(inflight), timeout):
                    self._take(pool, inflight.pop(future), future.result(), stopped)
        except BaseException as stop:
            pool.close(abort=True)
            if isinstance(stop, KeyboardInterrupt) and isinstance(pool, LocalPool):
                # Ctrl-C or SIGTERM: the sub-proofs in flight have stopped; their nodes are
                # journaled ("interrupted"), so that the run's totals count every node.
                for future, (key, fk) in inflight.items():
                    if future.done() and not future.cancelled() and future.exception() is None:
                        self._take(pool, (key, fk), future.result(), stopped)
            raise
        else:
            # The root is decided: sub-proofs still in flight can no longer matter, so stop
            # them rather than wait for them (one can run a whole split budget, ~20 minutes).
            pool.close(abort=bool(inflight))
        finally:
            self.seconds = time.perf_counter() - t0
            if session is not None:
                session.end(self.seconds)
            if self.run is not None:
                memo = self.intervals()
                lo, hi = memo[self.root.key]
                # The small file first: a second signal may cut the warm table's save short.
                if warm_core is not None:
                    self._keep_subtrees(stopped, pool.stopped_subtrees, memo, warm_core.BOOK_ENTRY_BYTES)
                # Also a finished run keeps it: `record --from-run` completes the optimal line from
                # it (6x4: 887 nodes against 1.7 M cold), then deletes it. Not a run that record
                # does not take (of the heads variant or after --moves), and a finished run
                # resumed, which searched nothing, leaves the file as it is.
                recordable = not self.engine.heads and not self.moves
                if lo < hi or recordable and self.nodes > self.nodes_before:
                    warm.end_session(self.run.path, warm_core, identify, self._note, finished=False,
                                     kept_for="the next session" if lo < hi else "`record --from-run`'s line")
                elif not recordable:
                    warm.end_session(self.run.path, warm_core, identify, self._note, finished=True)
        value = self.intervals()[self.root.key][0]
        if self.run is not None:
            self.export(os.path.join(self.run.path, "frontier.sjt"))
            self.run.write_result({"board": str(self.board), "measure": self.measure,
                                   "moves": format_moves(self.board, self.moves), "value": value,
                                   "nodes": self.nodes, "subproofs": self.subproofs, "splits": self.splits,
                                   "cpu_seconds": round(self.cpu_seconds, 3),
                                   "wall_seconds": round(self.wall_before + self.seconds, 3)})
        return value


def open_run(run_dir):
    """(proof, manifest) of an existing San Jego run directory, rebuilt from its manifest
    and journal (no search; the proof's engine has a minimal table)."""
    from .engine import Engine
    from .position import Position
    run = RunDir(run_dir)
    try:
        manifest = read_checked_json(run.manifest_path)
        if manifest.get("game") != "sanjego":
            raise CheckpointError(f"{run_dir} is not a San Jego run")
        board = board_from_spec(manifest["board"])
        heads = tuple(board.cell(n) for n in manifest.get("heads") or ())
        start = Position.start(board).with_heads(heads) if heads else Position.start(board)
        engine = Engine(board, manifest["measure"], table_mb=1, heads=bool(heads), seed=manifest.get("seed"))
        position, moves = replay(board, manifest["moves"], start)
        if type(manifest["depth"]) is not int or manifest["depth"] < 1:  # as solve's --depth
            raise CheckpointError(f"{run_dir}: bad manifest (depth {manifest['depth']!r})")
        proof = ParallelProof(engine, position, moves, manifest["depth"], run_dir=run_dir,
                              resume=True, workers=1, start_heads=heads)
    except KeyError as e:
        raise CheckpointError(f"{run_dir}: manifest lacks {e}") from None
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"{run_dir}: bad manifest ({e})") from None
    return proof, manifest
