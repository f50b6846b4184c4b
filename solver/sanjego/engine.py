"""Exact values of San Jego positions, computed by the C core.

    engine = Engine(Board(5, 4))
    engine.value(Position.start(engine.board))   # margin, first player's view
"""

import time

from .._sanjego import Core
from .board import parse_board
from .position import PASS

MEASURES = ("margin", "outcome")
DEFAULT_TABLE_MB = 512


def move_order(position, move):
    """The core's static ordering (csrc/sanjego.c), on the whole board: onto the opponent
    first, then moves that take away more of the opponent's replies, taller targets,
    shorter movers."""
    if move is None:
        return 0
    f, t = move
    h, o, side, heads, nbs = position.heights, position.owners, position.side, position.heads, position.board.neighbours

    def theirs(c):
        return h[c] and o[c] != side

    def targetable(c):
        return h[c] and c not in heads

    taken = sum(1 for c in nbs[f] if theirs(c)) if targetable(f) else 0
    if theirs(t):
        taken += sum(1 for c in nbs[t] if c != f and targetable(c))
    return (256 if theirs(t) else 0) + 8 * taken + 8 * h[t] - 2 * h[f]


def ordered_moves(position):
    """The legal moves in the core's order (move_order, best first)."""
    return sorted(position.legal_moves(), key=lambda m: -move_order(position, m))


class Engine:
    """Solver for one board and measure; its transposition table lives across calls.

    symmetry=False keys every tower by its cell: no board symmetries and no small groups
    keyed free of their place, so a second run checks a value independently of both."""

    def __init__(self, board, measure="margin", table_mb=DEFAULT_TABLE_MB, seed=None, symmetry=True,
                 heads=False):
        board = parse_board(board)
        if measure not in MEASURES:
            raise ValueError(f"unknown measure {measure!r}: expected one of {', '.join(MEASURES)}")
        if table_mb <= 0:
            raise ValueError(f"table size must be positive, got {table_mb} MB")
        self.board = board
        self.measure = measure
        self.table_mb = table_mb
        self.seed = seed
        self.heads = heads
        kwargs = dict(board.core_geometry(), symmetry=symmetry, heads=heads)
        if seed is not None:
            kwargs["seed"] = seed
        table_bytes = int(table_mb * (1 << 20))
        self.margin_core = None
        if measure == "outcome":
            # A big win is a forced margin >= 1 (or <= -1 for the second player), so the
            # outcome needs its own search only where the margin is 0; there it lies in
            # [-1, 1]. The margin search is far cheaper (group reduction applies).
            table_bytes //= 2
            self.margin_core = Core(measure="margin", table_bytes=table_bytes, **kwargs)
        self.core = Core(measure=measure, table_bytes=table_bytes, **kwargs)
        self.seconds = 0.0

    def _check(self, position):
        if position.board != self.board:
            raise ValueError(f"position is on a {position.board} board, engine on {self.board}")
        if position.heads and not self.heads:
            raise ValueError("position has heads: use Engine(..., heads=True)")

    @property
    def nodes(self):
        return self.core.nodes + (self.margin_core.nodes if self.margin_core else 0)

    def set_progress(self, callback):
        """callback(nodes) is called every 2^20 nodes of search; an exception it raises
        (KeyboardInterrupt, say) stops the search and propagates; None removes it."""
        for core in (self.core, self.margin_core):
            if core is not None:
                core.progress = None if callback is None else (lambda _n: callback(self.nodes))

    def value(self, position):
        """Exact value of the position (first player's view)."""
        self._check(position)
        t0 = time.perf_counter()
        args = position.core_args
        try:
            if self.margin_core is None:
                return self.core.solve(*args)
            margin = self.margin_core.solve(*args)
            if margin != 0:
                return 2 if margin > 0 else -2
            return self.core.solve(*args, -1, 1)
        finally:
            self.seconds += time.perf_counter() - t0

    def at_least(self, position, k):
        """True when the value is >= k (one null-window search)."""
        self._check(position)
        return self.core.search(*position.core_args, k - 1, k) >= k

    def analyse(self, position):
        """[(move, value)] for every legal move, best for the side to move first."""
        values = [(m, self.value(position.play(m))) for m in position.legal_moves()]
        values.sort(key=lambda mv: -mv[1] if position.side == 0 else mv[1])
        return values

    def keeps(self, child, value, maximise):
        """Whether a child of a position of this value keeps it. Every child of a max node is
        worth at most the value, so one null-window search decides (at least it, for a min
        node at most it)."""
        if child.is_over():
            return child.score(self.measure) == value
        return self.at_least(child, value) if maximise else not self.at_least(child, value + 1)

    def line(self, position, value=None):
        """An optimal continuation to the end: (moves, final position). `value`: the
        position's value when known."""
        if value is None and not position.is_over():
            value = self.value(position)
        moves = list(self.line_moves(position, value))
        for move in moves:
            position = position.play(move)
        return moves, position

    def line_moves(self, position, value):
        """The moves of an optimal continuation of a position of this value, one at a time
        (each found with null-window searches); ValueError when no move keeps the value."""
        while not position.is_over():
            if position.must_pass():
                move = PASS
            else:
                maximise = position.side == 0
                move = next((m for m in ordered_moves(position) if self.keeps(position.play(m), value, maximise)),
                            None)
                if move is None:
                    raise ValueError(f"no move keeps the value {value}: the position is worth "
                                     f"{'less' if maximise else 'more'}")
            yield move
            position = position.play(move)

    def perft(self, position, depth):
        self._check(position)
        return self.core.perft(*position.core_args, depth)


__all__ = ["Engine", "MEASURES"]
