"""One question about one position, split when it does not fit a search, and nothing lost.

"Does the Tailor still earn more than k from here?" goes to the C core with a node budget.
Over budget, the question goes to the position's children instead: the Tailor needs one child
where he earns more than k less what the move captured, Mr. Button one where the Tailor does
not. Each child gets the same budget, and is split in turn, a few levels deep. Every answer,
searched or derived from children, is handed to `record` as bounds on the position's future
score, so that a run journals it: a later round, a resumed run or another question that those
bounds decide does not search again. Before this, a probe over budget was simply abandoned,
and with it everything it had proven.
"""

import time

from .position import TAILOR


class OverBudget(Exception):
    pass


class Prover:
    """Answers null-window questions on future scores, remembering bounds per position key."""

    def __init__(self, engine, record):
        self.core = engine.core
        self.record = record  # record(dict) journals an answer; learn() must see it too
        self.known = {}       # position key -> [lo, hi] on the score still to come

    def bounds(self, key):
        b = self.known.get(key)
        if b is None:
            b = self.known[key] = [0, self.core.upper_bound(key)]
        return b

    def learn(self, key, lo, hi):
        b = self.bounds(key)
        b[0], b[1] = max(b[0], lo), min(b[1], hi)

    def ask(self, position, k, budget, levels, display=None):
        """True when the score still to come from `position` is > k, False when it is <= k,
        None when that is not decided within `budget` nodes per search and `levels` of
        splitting. `display(nodes)` is called as the search goes."""
        if position.is_over():
            return 0 > k
        key = position.key()
        lo, hi = self.bounds(key)
        if lo > k:
            return True
        if hi <= k:
            return False
        core = self.core
        n0, t0 = core.nodes, time.perf_counter()

        def watch(nodes):
            if display is not None:
                display(nodes)
            if nodes - n0 > budget:
                raise OverBudget

        core.progress = watch
        try:
            r = core.search(key, k, k + 1)
        except OverBudget:
            self.record({"key": list(key), "k": k, "abandoned": True, "nodes": core.nodes - n0,
                         "seconds": round(time.perf_counter() - t0, 3)})
            return self._split(position, k, budget, levels - 1, display) if levels > 0 else None
        finally:
            core.progress = display
        lo, hi = (lo, r) if r <= k else (r, hi)
        self.record({"key": list(key), "k": k, "lo": lo, "hi": hi, "nodes": core.nodes - n0,
                     "seconds": round(time.perf_counter() - t0, 3)})
        return r > k

    def _split(self, position, k, budget, levels, display):
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
        undecided = False
        for _, c, kc in children:
            answer = True if kc < 0 else self.ask(c, kc, budget, levels, display)
            if answer is None:
                undecided = True
            elif answer == tailor:  # the side to move has its move
                self._derived(position, k, above=tailor)
                return tailor
        if undecided:
            return None
        self._derived(position, k, above=not tailor)
        return not tailor

    def _derived(self, position, k, above):
        lo, hi = self.bounds(position.key())
        lo, hi = (max(lo, k + 1), hi) if above else (lo, min(hi, k))
        self.record({"key": list(position.key()), "k": k, "lo": lo, "hi": hi, "derived": True,
                     "nodes": 0, "seconds": 0})
