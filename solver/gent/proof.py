"""One question about one position, split when it does not fit a search, and nothing lost.

"Does the Tailor still earn more than k from here?" goes to the C core with a node budget.
Over budget, the question goes to the position's children instead: the Tailor needs one child
where he earns more than k less what the move captured, Mr. Button one where the Tailor does
not. Each child gets the same budget, and is split in turn, a few levels deep, while the whole
question stays within a total. Every answer, searched or derived from children, is handed to
`record` as bounds on the position's future score, so that a run journals it: a later round, a
resumed run or another question that those bounds decide does not search again. Before this,
a probe over budget was simply abandoned, and with it everything it had proven.
"""

import time

from ..checkpoint import tighten
from .position import TAILOR


# The smallest node budget a question tries before fourfold larger ones up to its round's,
# and how many of a try's budgets of nodes its searches and splits may spend in all.
FIRST_BUDGET = 1 << 20
SPLIT_TOTAL = 8
SEARCHES = ("pn", "ab")
SEARCH_CHOICES = ("pn+ab", "ab", "pn")  # the command lines' --search: the searches in turn, joined by "+"
PN_SHARE = 4  # the proof-number search gets 1/PN_SHARE of a try's budget before alpha-beta
# ... and at most PN_MAX nodes: in the runs' journals up to session 16, 715 proof-number
# searches answered, none with more than 3.94 M nodes, while 294 were abandoned, 17.8 M nodes
# each at the 2^26 budget, half of each such try's time (the alpha-beta search is 4x faster
# per node). A cap keeps its cost at a few seconds a question on the big "no" questions.
PN_MAX = 1 << 23


class OverBudget(Exception):
    pass


class Prover:
    """Answers null-window questions on future scores, remembering bounds per position key."""

    def __init__(self, engine, record, share=None, searches=SEARCHES):
        """`share`: another Prover whose bounds and splits this one uses too (a worker thread
        of the same run, with its own core and table). `searches`: the searches a question
        tries in turn, each with the whole budget ("pn" proof-number, "ab" alpha-beta)."""
        self.searches = searches
        self.core = engine.core
        self.record = record  # record(dict) journals an answer; learn() must see it too
        self.known = {} if share is None else share.known  # position key -> [lo, hi] on the score still to come
        self.split = set() if share is None else share.split  # keys of positions whose children have been asked
        self._limit = None    # core.nodes at which the question in hand stops
        self.pn_max = PN_MAX  # the most nodes a proof-number search gets (when alpha-beta follows)

    def bounds(self, key):
        b = self.known.get(key)
        if b is None:  # setdefault: another worker may have made the entry meanwhile
            b = self.known.setdefault(key, [0, self.core.upper_bound(key)])
        return b

    def learn(self, key, lo, hi):
        tighten(self.bounds(key), lo, hi)

    def ask(self, position, k, budget, levels, display=None, total=None):
        """True when the score still to come from `position` is > k, False when it is <= k,
        None when that is not decided within `budget` nodes per search, `levels` of splitting
        and `total` nodes in all (default: no limit). `display(nodes)` is told the nodes as
        the search goes."""
        self._limit = None if total is None else self.core.nodes + total
        return self._ask(position, k, budget, levels, display)

    def ask_rising(self, position, k, budget, levels, display=None, budgets=SPLIT_TOTAL, first=FIRST_BUDGET):
        """ask() with budgets rising fourfold up to `budget`, from the smallest of budget/4^n
        that is at least `first`, each try with `budgets` times its budget in all; None when
        the last try leaves it undecided. Whatever the small tries prove stays in the table
        and in `known`, and where a cheap proof exists, searches with small budgets that split
        early find it before one big search has dug through a costly subtree
        (`scripts/bench_gent.py --question`, 512 MB tables, budget 2^26: ghent17 1-4-11-5
        "start 13 > 42?" 63.8 M nodes in one search, 8.3 M rising; "start 1 > 46?" 431 M in
        one search, 108 M rising, and with 2048 MB tables 206 M split at 64 M alone).
        The small tries add at most a third to the last."""
        tries = [budget]
        while tries[-1] // 4 >= max(first, 1):
            tries.append(tries[-1] // 4)
        for b in reversed(tries):
            answer = self.ask(position, k, b, levels, display, total=budgets * b)
            if answer is not None:
                return answer
        return None

    def _ask(self, position, k, budget, levels, display):
        moves = position.legal_moves()
        key = position.key()
        if moves:
            lo, hi = self.bounds(key)  # at least the static bounds
        answer = self._known(position, k)
        if answer is not None:
            return answer
        if len(moves) == 1:
            # A forced move (mostly Mr. Button's pass while every face holds a button): the
            # child's question is the same question, so it costs no level and no search here.
            return self._combine(position, k, budget, levels, display)
        if key in self.split:
            answer = self._combine(position, k, budget, levels, display, search=False)
            if answer is not None:
                return answer
        # Proof-number search first: where the Tailor has a narrow way above k it finds it
        # with a tiny fraction of the alpha-beta search's nodes. A "no" it mostly does not
        # find at all, so it gets a quarter of the budget (a question it needs more for gets
        # it in a later, fourfold try, up to PN_MAX) and alpha-beta the whole budget after it.
        for method in self.searches:
            share = min(budget // PN_SHARE, self.pn_max) if method == "pn" and len(self.searches) > 1 else budget
            answer = self._search(key, k, share, display, method, lo, hi)
            if answer is not None:
                return answer
        if levels == 0:
            return None
        return self._combine(position, k, budget, levels - 1, display)

    def _search(self, key, k, budget, display, method, lo, hi):
        """One search of the question within `budget` nodes, journaled: True, False or None
        (over budget)."""
        core = self.core
        if self._limit is not None and core.nodes >= self._limit:
            return None
        n0, t0 = core.nodes, time.perf_counter()

        def watch(nodes):
            if display is not None:
                display(nodes)
            if nodes - n0 > budget or (self._limit is not None and nodes > self._limit):
                raise OverBudget

        core.progress = watch
        try:
            if method == "pn":
                r = k + 1 if core.prove(key, k) else k
            else:
                r = core.search(key, k, k + 1)
        except OverBudget:
            r = None
        finally:
            core.progress = display
        seconds = round(time.perf_counter() - t0, 3)
        if r is None:
            self.record({"key": list(key), "k": k, "abandoned": True, "nodes": core.nodes - n0,
                         "seconds": seconds, "search": method})
            return None
        lo, hi = (lo, r) if r <= k else (r, hi)
        self.record({"key": list(key), "k": k, "lo": lo, "hi": hi, "nodes": core.nodes - n0,
                     "seconds": seconds, "search": method})
        return r > k

    def _combine(self, position, k, budget, levels, display, search=True):
        """The answer from the children's answers (searching them only if `search`)."""
        self.split.add(position.key())
        tailor = position.to_move == TAILOR
        children = []
        for m in position.legal_moves():
            c = position.play(m)
            kc = k - (c.score - position.score)
            room = (self.bounds(c.key())[1] if not c.is_over() else 0) - kc
            children.append((room, c, kc))
        # The Tailor's likeliest "yes" first (most room above the threshold), Mr. Button's
        # likeliest "no" first (least room).
        children.sort(key=lambda t: -t[0] if tailor else t[0])
        undecided, shifted = False, []
        for _, c, kc in children:
            if kc < 0:
                answer = True
            elif search:
                answer = self._ask(c, kc, budget, levels, display)
            else:
                answer = self._known(c, kc)
            if answer is None:
                undecided = True
                continue
            # The child's bounds, plus what its move captured, bound this position's score.
            gain = c.score - position.score
            lo_c, hi_c = (0, 0) if c.is_over() else self.bounds(c.key())
            if answer == tailor:  # the side to move has its move
                if tailor:
                    self._derived(position, k, lo=max(k + 1, gain + lo_c))
                else:
                    self._derived(position, k, hi=min(k, gain + hi_c))
                return tailor
            shifted.append((gain + lo_c, gain + hi_c))
        if undecided:
            return None
        if tailor:  # every move leaves him at most k
            self._derived(position, k, hi=min(k, max(hi for _, hi in shifted)))
        else:  # every move leaves him more than k
            self._derived(position, k, lo=max(k + 1, min(lo for lo, _ in shifted)))
        return not tailor

    def _known(self, position, k):
        """The answer if the game is over or known bounds decide it, else None."""
        if position.is_over():
            return 0 > k
        b = self.known.get(position.key())
        if b is not None and (b[0] > k or b[1] <= k):
            return b[0] > k
        return None

    def _derived(self, position, k, lo=0, hi=255):
        """Journals the bounds that the children's answers prove, with those known before."""
        known_lo, known_hi = self.bounds(position.key())
        lo, hi = max(lo, known_lo), min(hi, known_hi)
        self.record({"key": list(position.key()), "k": k, "lo": lo, "hi": hi, "derived": True,
                     "nodes": 0, "seconds": 0})


def listing_prover(engine, searches=SEARCHES):
    """(prover, records): a Prover that journals its answers to the list `records` and learns
    from them as a run learns from its journal (for benchmarks and tests)."""
    records = []

    def record(r):
        records.append(r)
        if "lo" in r:
            prover.learn(tuple(r["key"]), r["lo"], r["hi"])

    prover = Prover(engine, record, searches=searches)
    return prover, records
