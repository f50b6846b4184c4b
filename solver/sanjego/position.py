"""San Jego positions and rules, in plain Python (the reference for the C core).

A move is a pair (from_cell, to_cell); a forced pass is PASS (None).
Players: 0 moves first, 1 second. Values are from player 0's view.

Heads variant ("Koepfchen"): `heads` holds the cells of the head-towers. No tower may be put
onto a head-tower; a head-tower may move and stays one (the head rides on top, so it lands
on the target cell). A side whose towers only touch head-towers passes; the game ends when
neither side can move, and every tower on the board counts.
"""

from .board import column_name, parse_board
from .errors import IllegalMoveError, WrongPlayerError

PASS = None
FIRST, SECOND = 0, 1
EMPTY = -1

OUTCOME_NAMES = {2: "first-big", 1: "first-small", 0: "draw", -1: "second-small", -2: "second-big"}
PLAYER_NAMES = ("first player", "second player")


def value_name(value, measure):
    """A value as reported: the margin as a number, the outcome by its name."""
    return OUTCOME_NAMES[value] if measure == "outcome" else value


class Position:
    """Immutable: heights[cell] (0 = empty), owners[cell] (0, 1 or EMPTY), side to move,
    and the cells of head-towers (heads variant; empty in the plain game)."""

    __slots__ = ("board", "heights", "owners", "side", "heads", "_moves")

    def __init__(self, board, heights, owners, side, heads=()):
        self.board = board
        self.heights = tuple(heights)
        self.owners = tuple(owners)
        self.side = side
        self.heads = tuple(sorted(heads))
        self._moves = None

    @classmethod
    def start(cls, board):
        if isinstance(board, str):
            board = parse_board(board)
        return cls(board, [1] * board.cells, [board.start_owner(i) for i in range(board.cells)], FIRST)

    def with_heads(self, cells):
        """The same position with a head on each of `cells` (one per player, on his own
        tower): the heads variant's set-up."""
        b = self.board
        cells = list(cells)
        players = [self.owners[c] for c in cells]
        if any(not self.heights[c] for c in cells):
            raise IllegalMoveError(f"a head must be put on a tower: {b.name(next(c for c in cells if not self.heights[c]))} is empty")
        if sorted(players) != sorted(set(players)):
            raise IllegalMoveError("each player puts one head on one of his own towers")
        return Position(b, self.heights, self.owners, self.side, set(self.heads) | set(cells))

    @property
    def core_owners(self):
        """Owners as the C core takes them: plus 2 on head-towers."""
        if not self.heads:
            return self.owners
        owners = list(self.owners)
        for c in self.heads:
            owners[c] |= 2
        return tuple(owners)

    @property
    def core_args(self):
        """(heights, owners, side): the position as the C core's calls take it."""
        return self.heights, self.core_owners, self.side

    def moves_of(self, player):
        h, o, nbs, heads = self.heights, self.owners, self.board.neighbours, self.heads
        return [(f, t) for f in range(self.board.cells) if o[f] == player
                for t in nbs[f] if h[t] and t not in heads]

    def legal_moves(self):
        """The moves of the side to move; [PASS] when it must pass; [] when the game is over."""
        if self._moves is None:
            moves = self.moves_of(self.side)
            if not moves and self.moves_of(1 - self.side):
                moves = [PASS]
            self._moves = moves
        return self._moves

    def is_over(self):
        return not self.legal_moves()

    def must_pass(self):
        return self.legal_moves() == [PASS]

    def play(self, move):
        """The position after `move`; raises IllegalMoveError (or WrongPlayerError)."""
        b, mover = self.board, PLAYER_NAMES[self.side]
        if self.is_over():
            raise IllegalMoveError("the game is over: no move is legal")
        if move is PASS:
            if not self.must_pass():
                raise IllegalMoveError(f"the {mover} has a legal move and may not pass")
            return Position(b, self.heights, self.owners, 1 - self.side, self.heads)
        f, t = move
        text = f"{b.name(f)}-{b.name(t)}"
        if not self.heights[f]:
            raise IllegalMoveError(f"{text}: {b.name(f)} is empty")
        if self.owners[f] != self.side:
            raise WrongPlayerError(
                f"{text}: the tower on {b.name(f)} belongs to the {PLAYER_NAMES[1 - self.side]}, "
                f"but the {mover} is to move")
        if t not in b.neighbours[f]:
            raise IllegalMoveError(f"{text}: {b.name(t)} is not a neighbour of {b.name(f)}")
        if not self.heights[t]:
            raise IllegalMoveError(f"{text}: {b.name(t)} is empty")
        if t in self.heads:
            raise IllegalMoveError(f"{text}: the tower on {b.name(t)} carries a head")
        heights, owners = list(self.heights), list(self.owners)
        heights[t] += heights[f]
        owners[t] = self.side
        heights[f], owners[f] = 0, EMPTY
        heads = [t if c == f else c for c in self.heads]
        return Position(b, heights, owners, 1 - self.side, heads)

    def owner_letter(self, cell):
        """a / b for the first / second player's tower, A / B for a head-tower."""
        letter = "ab"[self.owners[cell]]
        return letter.upper() if cell in self.heads else letter

    def towers(self, player):
        """Heights of the player's towers, tallest first."""
        return sorted((h for h, o in zip(self.heights, self.owners) if o == player), reverse=True)

    def tallest(self, player):
        """Height of the player's tallest tower (0 for no tower)."""
        return max((h for h, o in zip(self.heights, self.owners) if o == player), default=0)

    def margin(self):
        """First player's tallest tower minus the second player's."""
        return self.tallest(FIRST) - self.tallest(SECOND)

    def outcome(self):
        """Rules outcome: 2 big / 1 small win for the first player, 0 draw, -1 / -2 for the second."""
        a, b = self.towers(FIRST) + [0, 0], self.towers(SECOND) + [0, 0]
        if a[0] != b[0]:
            return 2 if a[0] > b[0] else -2
        if a[1] != b[1]:
            return 1 if a[1] > b[1] else -1
        return 0

    def score(self, measure):
        return self.margin() if measure == "margin" else self.outcome()

    def canonical_key(self):
        """Exact key, equal for positions that are images under a board symmetry:
        side to move, then per cell 0 (empty) or 2*height + owner, smallest image; with
        heads, 2 added to the side byte and a byte per cell, 1 on head-towers, after that."""
        cells = [0 if h == 0 else 2 * h + o for h, o in zip(self.heights, self.owners)]
        if self.heads:
            cells += [1 if i in self.heads else 0 for i in range(len(cells))]
        n, best = self.board.cells, None
        for perm in self.board.symmetries:
            image = [0] * len(cells)
            for i, c in enumerate(cells):
                image[perm[i % n] + i - i % n] = c
            if best is None or image < best:
                best = image
        return bytes([self.side + (2 if self.heads else 0)] + best)

    def key(self):
        return (self.heights, self.owners, self.side, self.heads)

    def __eq__(self, other):
        return isinstance(other, Position) and self.board == other.board and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __str__(self):
        """Rows top to bottom; a tower as height and owner letter (a: first, b: second; A
        and B on head-towers)."""
        b = self.board
        if not b.is_grid:
            from .draw import text
            return text(self)
        lines = []
        for r in reversed(range(b.height)):
            row = []
            for c in range(b.width):
                i = c + r * b.width
                row.append(f"{self.heights[i]:>2}{self.owner_letter(i)}" if self.heights[i] else "  .")
            lines.append(f"{r + 1:>2} " + " ".join(row))
        lines.append("   " + " ".join(f"{column_name(c):>3}" for c in range(b.width)))
        return "\n".join(lines)
