"""Which null-window questions find a San Jego value: the one policy behind Core.solve
(single process) and the parallel proof's root.

A value known to lie in [lo, hi] is found by questions "is it >= k?". The first asks
k = 1 (small margins are the common case); while the answers push one way the next
question steps out by one for the first LINEAR_ANSWERS answers and then gallops
(steps of 2, 4, 8, ...); once answers have come from both sides, bisect.

Why step by one first: every board solved so far is worth +1 or +2, and a question
that overshoots the value costs about as much as the one that then settles it. 6x4 is
worth +2; galloping from the first answer on asked 1, 2, 4, 3, and in a parallel
proof with one worker "no" to ">= +4" took 7.5 M of 32.2 M nodes (27.5 M now).
`python scripts/bench.py --boards 5x4 4x5 7x3 6x4 5x5` (one core): 11-19 % fewer nodes
on each, 6x4 33.1 M -> 28.4 M. Up to a value of 4, stepping asks no more questions than
galloping did; beyond that galloping soon takes over.
"""

LINEAR_ANSWERS = 4


class Probes:
    """The questions for one value. question(lo, hi) gives the k to ask while the value
    is known to lie in [lo, hi] (lo < hi): the same k until the bounds answer it, then
    the next."""

    def __init__(self):
        self.k = None
        self._med, self._step, self._answers = 0, 1, 0
        self._raised = self._lowered = False

    def question(self, lo, hi):
        if self.k is not None and (lo >= self.k or hi < self.k):
            self._raised |= lo >= self.k
            self._lowered |= hi < self.k
            if self._raised and self._lowered:
                self._med = lo + (hi - lo) // 2
            elif self._raised:
                self._med = lo + self._step - 1
            else:
                self._med = hi - self._step
            self._answers += 1
            if self._answers >= LINEAR_ANSWERS:
                self._step *= 2
            self.k = None
        if self.k is None:
            self.k = min(max(self._med, lo), hi - 1) + 1
        return self.k


def solve(search, lo, hi):
    """The value in [lo, hi], where search(k) is a fail-soft null-window search of the
    window (k - 1, k): >= k when the value is, else an upper bound below k."""
    probes = Probes()
    while lo < hi:
        k = probes.question(lo, hi)
        r = search(k)
        if r >= k:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
    return lo
