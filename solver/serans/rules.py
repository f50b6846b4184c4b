"""The rules of Las Torres de Serans under one explicit reading (see docs/serans-rules.md).

A board is a tuple of n*n stacks, cell r*n + c (row r from the top, column c from the left);
a stack is a tuple of player numbers from the bottom piece to the top one; () is an empty hole.
A tower belongs to the player of its top piece. Every open point of the rules page is a field
of `Rules` with a named default; `Rules()` is the project's reading.

A line move is LineMove(kind, index, forward): kind ROW or COL, forward True for right (rows)
or down (columns). A turn is a tuple of line moves (normally one row and one column move, in
the order played; shorter only as `Rules.stuck` allows; () is a pass). During the set-up a
move is a Placement(colour, cell).
"""

from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import NamedTuple

from .errors import IllegalMoveError, RulesError

ROW, COL = 0, 1
MAX_SIZE = 8
MAX_PLAYERS = 4

# Each field: (allowed values, one line for --help and the docs).
OPTIONS = {
    "rammer": (("rear", "front"),
               "open point 1: in a collision the rear (moving) tower passes its top piece onto the "
               "front one and leaves its residue (rear), or the other way round (front)"),
    "order": (("leading", "trailing"),
              "open point 2: collisions are resolved from the leading edge, as in 2048 (leading), "
              "or from the rear end of the line (trailing)"),
    "chain": ((False, True),
              "open point 2: a tower made by a collision may collide again in the same move"),
    "spawn": (("moved-line", "next-line"),
              "open point 3: a new piece or residue goes to the moved line first (moved-line), or "
              "to the parallel lines first, nearest first, the moved line last (next-line)"),
    "spawn_tie": (("low", "high"),
                  "open point 3: of two parallel lines at the same distance, try the one toward "
                  "row 1 / column a first (low) or the other one (high)"),
    "new_piece": (("unless-collision", "always"),
                  "open point 4: the mover's new piece is generated only by a move without a "
                  "collision (unless-collision), or after every move, after the residues (always)"),
    "setup": (("exchange", "own"),
              "open point 5: each player places the pieces handed over by the neighbours "
              "(exchange; with two players both come from the opponent) or their own (own)"),
    "stuck": (("partial", "pass", "end"),
              "open point 6: a player who cannot make a row and a column move plays one line move "
              "if possible, else passes (partial), passes at once (pass), or the game ends (end)"),
    "end_check": (("move", "turn"),
                  "open point 7: the game ends as soon as a tower reaches the target height "
                  "(move) or at the end of that turn (turn)"),
    "tiebreak": (("towers", "none"),
                 "end: equal tallest towers are compared by the next tallest and so on (towers), "
                 "or it is a draw between them (none)"),
    "full_line": ((False, True),
                  "a completely full line may move when it has a collision (the seed says full "
                  "lines never move)"),
}


@dataclass(frozen=True)
class Rules:
    size: int = 4
    players: int = 2
    target: int = 7
    rammer: str = "rear"
    order: str = "leading"
    chain: bool = False
    spawn: str = "moved-line"
    spawn_tie: str = "low"
    new_piece: str = "unless-collision"
    setup: str = "exchange"
    stuck: str = "partial"
    end_check: str = "move"
    tiebreak: str = "towers"
    full_line: bool = False

    def __post_init__(self):
        if not isinstance(self.size, int) or not 2 <= self.size <= MAX_SIZE:
            raise RulesError(f"board size must be 2..{MAX_SIZE}, got {self.size}")
        if not isinstance(self.players, int) or not 2 <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be 2..{MAX_PLAYERS}, got {self.players}")
        if 2 * self.players > self.size * self.size:
            raise RulesError(f"{self.players} players need {2 * self.players} holes for the set-up")
        if not isinstance(self.target, int) or not 2 <= self.target <= 15:
            raise RulesError(f"target height must be 2..15, got {self.target}")
        for name, (allowed, _) in OPTIONS.items():
            if getattr(self, name) not in allowed:
                raise RulesError(f"option {name} must be one of {', '.join(map(str, allowed))}, "
                                 f"got {getattr(self, name)!r}")

    def with_options(self, **kw):
        return replace(self, **kw)

    def differences(self):
        """{field: value} where these rules differ from the defaults (size/players/target too)."""
        base = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(base, f.name)}

    def options(self):
        return {name: getattr(self, name) for name in OPTIONS}


class LineMove(NamedTuple):
    kind: int       # ROW or COL
    index: int      # row or column number from 0
    forward: bool   # right (row) / down (column)


class Placement(NamedTuple):
    colour: int
    cell: int


@lru_cache(maxsize=None)
def line_cells(n, kind, index, forward):
    """The cells of a line from the leading edge (where towers slide to) backwards (a tuple;
    cached: it depends on the geometry only)."""
    cells = [index * n + i for i in range(n)] if kind == ROW else [i * n + index for i in range(n)]
    return tuple(cells[::-1] if forward else cells)


def owner(stack):
    return stack[-1] if stack else None


def _collide(rules, front, rear):
    """(new tower, residue) when `rear` runs into `front` of the same height."""
    if rules.rammer == "rear":
        return front + rear[-1:], rear[:-1]
    return rear + front[-1:], front[:-1]


def slide(rules, stacks):
    """Slide the stacks of one line (listed from the leading edge) toward the leading edge.
    Returns (new stacks, residues in the order of the collisions, number of collisions)."""
    towers = [s for s in stacks if s]
    if rules.order == "trailing":
        towers.reverse()
    out, merged, residues, collisions = [], [], [], 0
    for t in towers:
        if out and len(out[-1]) == len(t) and (rules.chain or not merged[-1]):
            if rules.order == "leading":
                front, rear = out[-1], t
            else:  # processing from the rear: the earlier tower is behind the later one
                front, rear = t, out[-1]
            out[-1], residue = _collide(rules, front, rear)
            merged[-1] = True
            collisions += 1
            if residue:
                residues.append(residue)
        else:
            out.append(t)
            merged.append(False)
    if rules.order == "trailing":
        out.reverse()
    return out + [()] * (len(stacks) - len(out)), residues, collisions


@lru_cache(maxsize=None)
def spawn_lines(rules, kind, index):
    """Lines (same kind) where generated pieces may go, in the order they are tried (a tuple;
    cached per rule set)."""
    n = rules.size
    others = []
    for d in range(1, n):
        pair = [index - d, index + d] if rules.spawn_tie == "low" else [index + d, index - d]
        others += [i for i in pair if 0 <= i < n]
    return tuple([index] + others if rules.spawn == "moved-line" else others + [index])


def line_move(rules, board, player, move):
    """The board after `player` plays line move `move`, or None if it is illegal.
    Returns (board, info) with info = {"collisions": k, "generated": [(cell, stack)]}."""
    n = rules.size
    kind, index, forward = move
    cells = line_cells(n, kind, index, forward)
    stacks = [board[c] for c in cells]
    if not any(owner(s) == player for s in stacks):
        return None
    if all(stacks) and not rules.full_line:
        return None
    new, residues, collisions = slide(rules, stacks)
    if new == stacks:
        return None
    b = list(board)
    for c, s in zip(cells, new):
        b[c] = s
    items = list(residues)
    new_piece = collisions == 0 or rules.new_piece == "always"
    if new_piece:
        items.append((player,))
    generated = []
    for j, item in enumerate(items):
        for line in spawn_lines(rules, kind, index):
            free = [c for c in reversed(line_cells(n, kind, line, forward)) if not b[c]]
            if free:
                b[free[0]] = item
                generated.append((free[0], item))
                break
        else:
            # Residues always fit (each collision frees a hole of the moved line); only the new
            # piece of a full line moved with full_line=True and new_piece=always can find the
            # board full: then it is not generated (see docs/serans-rules.md).
            if not (new_piece and j == len(items) - 1):
                raise AssertionError("no free hole for a residue")
    return tuple(b), {"collisions": collisions, "generated": generated}


def potential(board):
    """Sum of squared tower heights: every line move raises it (the finiteness argument)."""
    return sum(len(s) * len(s) for s in board)


def tallest(board):
    return max((len(s) for s in board), default=0)


def heights_of(board, player):
    return sorted((len(s) for s in board if s and s[-1] == player), reverse=True)


class Position:
    """A game state: board, player to move, the pieces still held in the set-up, consecutive
    passes, and whether the game has ended early (stuck='end')."""

    __slots__ = ("rules", "board", "to_move", "hands", "passes", "stopped", "turns")

    def __init__(self, rules, board, to_move=0, hands=None, passes=0, stopped=False, turns=0):
        self.rules = rules
        self.board = tuple(tuple(s) for s in board)
        self.to_move = to_move
        self.hands = tuple(tuple(sorted(h)) for h in (hands or [()] * rules.players))
        self.passes = passes
        self.stopped = stopped
        self.turns = turns

    @classmethod
    def initial(cls, rules=None):
        rules = rules or Rules()
        p = rules.players
        if rules.setup == "own":
            hands = [(i, i) for i in range(p)]
        else:  # the left and the right neighbour each hand over one piece
            hands = [((i - 1) % p, (i + 1) % p) for i in range(p)]
        return cls(rules, [()] * rules.size ** 2, 0, hands)

    @classmethod
    def from_board(cls, rules, board, to_move=0):
        return cls(rules, board, to_move)

    # -- identity -------------------------------------------------------------------------
    def key(self):
        return (self.board, self.to_move, self.hands, self.passes, self.stopped)

    def __eq__(self, other):
        return isinstance(other, Position) and self.rules == other.rules and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def _next(self, board, hands=None, passes=0, stopped=False, turn=True):
        return Position(self.rules, board, (self.to_move + 1) % self.rules.players,
                        hands if hands is not None else self.hands, passes, stopped,
                        self.turns + (1 if turn else 0))

    # -- phases ---------------------------------------------------------------------------
    def in_setup(self):
        return any(self.hands)

    def target_reached(self):
        return tallest(self.board) >= self.rules.target

    def is_over(self):
        return (not self.in_setup()) and (self.stopped or self.target_reached()
                                          or self.passes >= self.rules.players)

    # -- moves ----------------------------------------------------------------------------
    def line_moves(self, board=None, kind=None, player=None):
        """Legal line moves [(move, board after)] of `player` (the one to move)."""
        board = self.board if board is None else board
        player = self.to_move if player is None else player
        n = self.rules.size
        out = []
        for k in ((ROW, COL) if kind is None else (kind,)):
            for i in range(n):
                for fwd in (False, True):
                    r = line_move(self.rules, board, player, LineMove(k, i, fwd))
                    if r is not None:
                        out.append((LineMove(k, i, fwd), r[0]))
        return out

    def turns_after(self):
        """[(turn, board after)] for every legal turn (a pass is the turn ())."""
        if self.in_setup():
            raise ValueError("the set-up is not finished: use placements()")
        full, single = [], []
        for m1, b1 in self.line_moves():
            single.append(((m1,), b1))
            if self.rules.end_check == "move" and tallest(b1) >= self.rules.target:
                full.append(((m1,), b1))  # the game ended during the turn
                continue
            for m2, b2 in self.line_moves(b1, 1 - m1.kind):
                full.append(((m1, m2), b2))
        if full:
            return full
        if self.rules.stuck == "partial" and single:
            return single
        return [((), self.board)]

    def legal_turns(self):
        return [t for t, _ in self.turns_after()]

    def placements(self):
        hand = self.hands[self.to_move]
        return [Placement(c, cell) for c in sorted(set(hand))
                for cell in range(len(self.board)) if not self.board[cell]]

    def legal_moves(self):
        """Placements in the set-up, turns afterwards; [] when the game is over."""
        if self.is_over():
            return []
        return self.placements() if self.in_setup() else self.legal_turns()

    def successors(self):
        """[(move, position after)] for every legal move, in the order of legal_moves(): the
        same as [(m, self.play(m)) for m in self.legal_moves()], but each turn's board is
        computed once (play() regenerates every turn to check legality), which the search
        players need."""
        if self.is_over():
            return []
        if self.in_setup():
            return [(m, self.play(m)) for m in self.placements()]
        out = []
        for t, b in self.turns_after():
            if t == ():
                if self.rules.stuck == "end":
                    out.append((t, self._next(b, stopped=True)))
                else:
                    out.append((t, self._next(b, passes=self.passes + 1)))
            else:
                out.append((t, self._next(b)))
        return out

    def play(self, move):
        if self.is_over():
            raise IllegalMoveError("the game is over")
        if self.in_setup():
            if not isinstance(move, Placement):
                raise IllegalMoveError("the set-up is not finished: place a piece (e.g. @b2)")
            hand = list(self.hands[self.to_move])
            if move.colour not in hand:
                raise IllegalMoveError(f"player {self.to_move + 1} holds no piece of colour {move.colour + 1}")
            if not 0 <= move.cell < len(self.board) or self.board[move.cell]:
                raise IllegalMoveError("placements go to an empty hole")
            hand.remove(move.colour)
            hands = list(self.hands)
            hands[self.to_move] = tuple(hand)
            board = list(self.board)
            board[move.cell] = (move.colour,)
            return self._next(board, hands, turn=False)
        if isinstance(move, Placement):
            raise IllegalMoveError("the set-up is over: play line moves")
        turn = tuple(move)
        for t, b in self.turns_after():
            if t == turn:
                if turn == ():
                    if self.rules.stuck == "end":
                        return self._next(b, stopped=True)
                    return self._next(b, passes=self.passes + 1)
                return self._next(b)
        raise IllegalMoveError("not a legal turn here")

    # -- end ------------------------------------------------------------------------------
    def ranking(self):
        """Players grouped by rank, best first: [[p], [q, r], ...] (ties share a group)."""
        def score(p):
            h = heights_of(self.board, p)
            return tuple(h) if self.rules.tiebreak == "towers" else tuple(h[:1])
        groups = {}
        for p in range(self.rules.players):
            groups.setdefault(score(p), []).append(p)
        return [groups[s] for s in sorted(groups, reverse=True)]

    def winners(self):
        return self.ranking()[0]

    def result2(self):
        """Two players: the first player's result, + win / - loss / 0 draw, with magnitude
        1 + (winner's tallest tower - loser's tallest tower); see docs/serans-rules.md."""
        return final_value2(self.rules, self.board)


def final_value2(rules, board):
    h0, h1 = heights_of(board, 0), heights_of(board, 1)
    if rules.tiebreak == "none":
        h0, h1 = h0[:1], h1[:1]
    t0, t1 = (h0[0] if h0 else 0), (h1[0] if h1 else 0)
    if h0 == h1:
        return 0
    return 1 + t0 - t1 if h0 > h1 else -(1 + t1 - t0)
