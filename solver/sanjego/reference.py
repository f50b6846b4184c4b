"""Plain-Python reference: perft and an exhaustive minimax solver for tiny boards.

Deliberately simple (no pruning, no reduction) so it can check the C core.
"""

from functools import lru_cache

from .position import FIRST


def perft(position, depth):
    """Move sequences of `depth` plies; a forced pass is a ply, a finished game one leaf."""
    if depth == 0 or position.is_over():
        return 1
    return sum(perft(position.play(m), depth - 1) for m in position.legal_moves())


def solve(position, measure="margin"):
    """Exact value, first player's view, by full minimax with a memo."""

    @lru_cache(maxsize=None)
    def value(pos):
        if pos.is_over():
            return pos.score(measure)
        values = [value(pos.play(m)) for m in pos.legal_moves()]
        return max(values) if pos.side == FIRST else min(values)

    return value(position)
