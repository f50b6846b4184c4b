"""The rules of the Tailor of Ghent, in plain Python (the reference for the C core).

A position holds the thimble's vertex, the sewn edges, the faces that still hold a free
button, the vertices that hold a captured button, the score so far and the side to move.
Sets are int bit masks over the board's vertex, edge and face numbers.

Before the first move Mr. Button chooses the start vertex (a `Start` move). Then the Tailor and
Mr. Button alternate, the Tailor first. The game ends as soon as the Tailor cannot move: Mr.
Button's moves never change where the thimble can go, so a last Button move would change nothing.
"""

from typing import NamedTuple, Optional

from .errors import IllegalMoveError

TAILOR, BUTTON = 0, 1
SIDE_NAMES = ("the Tailor", "Mr. Button")


class Start(NamedTuple):
    vertex: int


class TailorMove(NamedTuple):
    src: int
    dst: int
    capture: Optional[int] = None  # the face whose button goes onto `src`


class ButtonMove(NamedTuple):
    src: int  # face
    dst: int  # face


PASS = None  # Mr. Button's pass


class Position:
    __slots__ = ("board", "vertex", "sewn", "free", "captured", "score", "to_move")

    def __init__(self, board, vertex, sewn, free, captured, score, to_move):
        self.board = board
        self.vertex = vertex
        self.sewn = sewn
        self.free = free
        self.captured = captured
        self.score = score
        self.to_move = to_move

    @classmethod
    def initial(cls, board):
        """Before the start: Mr. Button is to choose the thimble's vertex."""
        free = 0
        for f in board.inner_faces:
            free |= 1 << f
        return cls(board, None, 0, free, 0, 0, BUTTON)

    @classmethod
    def started(cls, board, vertex):
        return cls.initial(board).play(Start(vertex))

    def key(self):
        """Everything that decides the rest of the game (the score so far does not)."""
        return (self.vertex, self.sewn, self.free, self.captured, self.to_move)

    def __eq__(self, other):
        return isinstance(other, Position) and self.key() == other.key() and self.score == other.score

    def __hash__(self):
        return hash((self.key(), self.score))

    def __repr__(self):
        g = self.board.graph
        v = "-" if self.vertex is None else g.vertex_name(self.vertex)
        return (f"Position({self.board.name}, thimble={v}, sewn={self.sewn:#x}, "
                f"free={self.free:#x}, captured={self.captured:#x}, score={self.score}, "
                f"to_move={SIDE_NAMES[self.to_move]!r})")

    # ---- moves --------------------------------------------------------------------------
    def tailor_moves(self):
        g = self.board.graph
        v = self.vertex
        moves = []
        for w in sorted(g.neighbours[v]):
            e = g.edge_index[(min(v, w), max(v, w))]
            if self.sewn >> e & 1 or self.captured >> w & 1:
                continue
            moves.append(TailorMove(v, w))
            for f in sorted(set(g.edge_faces[e])):
                if self.free >> f & 1:
                    moves.append(TailorMove(v, w, f))
        return moves

    def button_moves(self):
        g = self.board.graph
        targets = set()
        for e, (a, b) in enumerate(g.edge_faces):
            if self.sewn >> e & 1:
                continue
            for f, h in ((a, b), (b, a)):
                if self.free >> f & 1 and not self.free >> h & 1 and h != self.board.outer:
                    targets.add(ButtonMove(f, h))
        return [PASS] + sorted(targets)

    def is_over(self):
        return self.vertex is not None and not self.tailor_moves()

    def legal_moves(self):
        if self.vertex is None:
            return [Start(v) for v in range(len(self.board.graph.labels))]
        if self.is_over():
            return []
        return self.tailor_moves() if self.to_move == TAILOR else self.button_moves()

    def play(self, move):
        """The position after `move`; IllegalMoveError if the rules do not allow it."""
        g = self.board.graph
        if self.vertex is None:
            if not isinstance(move, Start):
                raise IllegalMoveError("the game begins with Mr. Button choosing the start vertex")
            if not 0 <= move.vertex < len(g.labels):
                raise IllegalMoveError(f"no vertex {move.vertex}")
            return Position(self.board, move.vertex, 0, self.free, 0, 0, TAILOR)
        if self.is_over():
            raise IllegalMoveError("the game is over: the Tailor cannot move")
        if isinstance(move, Start):
            raise IllegalMoveError("the start vertex is already chosen")
        if self.to_move == TAILOR:
            if not isinstance(move, TailorMove):
                raise IllegalMoveError("the Tailor is to move")
            if move not in self.tailor_moves():
                raise IllegalMoveError(self._why_not(move))
            e = g.edge_index[(min(move.src, move.dst), max(move.src, move.dst))]
            free, captured, score = self.free, self.captured, self.score
            if move.capture is not None:
                free &= ~(1 << move.capture)
                captured |= 1 << move.src
                score += g.degree[move.src]
            return Position(self.board, move.dst, self.sewn | 1 << e, free, captured, score, BUTTON)
        if isinstance(move, TailorMove):
            raise IllegalMoveError("Mr. Button is to move")
        if move is not PASS and move not in self.button_moves():
            raise IllegalMoveError(self._why_not(move))
        free = self.free if move is PASS else self.free & ~(1 << move.src) | 1 << move.dst
        return Position(self.board, self.vertex, self.sewn, free, self.captured, self.score, TAILOR)

    def _why_not(self, move):
        g = self.board.graph
        if isinstance(move, TailorMove):
            name = f"{g.vertex_name(move.src)}-{g.vertex_name(move.dst)}"
            if move.src != self.vertex:
                return f"{name}: the thimble is on {g.vertex_name(self.vertex)}"
            key = (min(move.src, move.dst), max(move.src, move.dst))
            if key not in g.edge_index:
                return f"{name} is not an edge"
            e = g.edge_index[key]
            if self.sewn >> e & 1:
                return f"{name} is already sewn"
            if self.captured >> move.dst & 1:
                return f"{name}: vertex {g.vertex_name(move.dst)} holds a button"
            if move.capture not in g.edge_faces[e]:
                return f"{name}: face {g.face_name(move.capture)} is not beside that edge"
            return f"{name}: face {g.face_name(move.capture)} holds no free button"
        a, b = g.face_name(move.src), g.face_name(move.dst)
        if not self.free >> move.src & 1:
            return f"{a}>{b}: {a} holds no free button"
        if move.dst == self.board.outer:
            return f"{a}>{b}: buttons never enter the outer face"
        if self.free >> move.dst & 1:
            return f"{a}>{b}: {b} already holds a button"
        return f"{a}>{b}: no unsewn edge between the two faces"
