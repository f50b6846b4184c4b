"""The Tailor of Ghent solver: the C core behind a Position-level API."""

from .._gent import Core
from .position import TAILOR, Position, Start


class Engine:
    """Exact values on one board, with a transposition table kept between calls."""

    def __init__(self, board, table_mb=256):
        self.board = board
        self.table_mb = table_mb
        g = board.graph
        self.core = Core(len(g.labels), g.edges, g.edge_faces, len(g.faces), board.outer,
                         table_bytes=table_mb << 20)

    @property
    def nodes(self):
        return self.core.nodes

    def set_progress(self, callback):
        self.core.progress = callback

    def future(self, position, lo=0, hi=255):
        """Score the Tailor still earns from `position` (exact)."""
        if position.vertex is None:
            raise ValueError("choose the start vertex first")
        return self.core.solve(position.key(), lo, hi)

    def value(self, position):
        """The Tailor's final score with best play from `position`; before the start, Mr.
        Button picks the start vertex that minimises it."""
        if position.vertex is None:
            return min(self.start_values(position).values())
        return position.score + self.future(position)

    def start_values(self, position=None, starts=None):
        """{vertex: value} for the given start vertices (all by default), each symmetry class
        solved once."""
        position = position or Position.initial(self.board)
        starts = set(range(len(self.board.graph.labels)) if starts is None else starts)
        values = {}
        for cls in self.board.start_classes():
            wanted = [v for v in cls if v in starts]
            if wanted:
                val = self.value(position.play(Start(cls[0])))
                for v in wanted:
                    values[v] = val
        return dict(sorted(values.items()))

    def analyse(self, position):
        """[(move, value)] for every legal move, best first for the side to move."""
        if position.vertex is None:
            vals = self.start_values(position)
            return sorted(((Start(v), x) for v, x in vals.items()), key=lambda t: t[1])
        rows = [(m, self.value(position.play(m))) for m in position.legal_moves()]
        rows.sort(key=lambda t: -t[1] if position.to_move == TAILOR else t[1])
        return rows

    def best_move(self, position, target=None):
        """A move that keeps the value (PASS is None: ask `position.is_over()` first)."""
        if position.is_over():
            raise ValueError("the game is over")
        target = self.value(position) if target is None else target
        if position.vertex is None:
            for v, x in self.start_values(position).items():
                if x == target:
                    return Start(v)
        for m in position.legal_moves():
            if self.keeps(position.play(m), target):
                return m
        raise AssertionError("no move keeps the value: the solver contradicts itself")

    def keeps(self, child, target):
        """Whether `child`, a position one move after one worth `target`, is worth `target`
        too: one null-window search, not an exact value. After a Tailor move it is worth at
        most `target`, so it keeps it when worth more than target - 1; after Mr. Button's at
        least `target`, so when worth no more than it."""
        tailor_moved = child.to_move != TAILOR
        k = target - child.score - (1 if tailor_moved else 0)  # on the score still to come
        if child.is_over():
            above = 0 > k
        elif k < 0:
            above = True
        else:
            above = self.core.search(child.key(), k, k + 1) > k
        return above if tailor_moved else not above

    def line(self, position=None, target=None):
        """An optimal game from `position` (the start by default): [(move, position after)].
        `target`: the position's value when it is known already (it is not checked)."""
        position = position or Position.initial(self.board)
        target = self.value(position) if target is None else target
        out = []
        while not position.is_over():
            m = self.best_move(position, target)
            position = position.play(m)
            out.append((m, position))
        return out
