"""Game flow: set-up, placement rounds, generations, the end and the result.

A game is the two set-ups followed by generations 1, 2, ...; before each generation for which
`options.placement_before(gen)` holds, each player (in the round's order) may place up to
`options.extra` tokens on empty cells next to their own tokens as they stand before the round.
After each generation the game ends when a colour has died out (the other wins; both at once:
`options.both_extinct`), or at the generation limit (`options.limit_score`).
"""

from dataclasses import dataclass, field
from itertools import combinations

from .board import FIRST, PLAYER_NAMES, SECOND, Board
from .errors import IllegalSetupError


def popcount(x):
    return bin(x).count("1")


@dataclass
class Generation:
    """The board after generation `gen` (0: the set-up), with the placements made before it."""
    gen: int
    a: int
    b: int
    placed: tuple = (0, 0)     # cells placed by the first and second player before this generation
    order: int = None          # who placed first in that round (None: no round)


@dataclass
class GameRecord:
    options: object
    setup: tuple
    generations: list = field(default_factory=list)
    result: int = None         # +1 first wins, 0 draw, -1 second wins
    reason: str = ""

    def to_dict(self, board):
        return {"options": self.options.to_dict(),
                "setup": [board.format_cells(m) for m in self.setup],
                "result": self.result, "reason": self.reason,
                "generations": [{"gen": g.gen, "first": board.format_cells(g.a),
                                 "second": board.format_cells(g.b),
                                 "placed": [board.format_cells(m) for m in g.placed],
                                 "order": None if g.order is None else PLAYER_NAMES[g.order]}
                                for g in self.generations]}


class Game:
    """The rules of one options object."""

    def __init__(self, options):
        self.options = options
        self.board = Board(options)

    # ---- set-up ----
    def check_setup(self, player, mask):
        o, name = self.options, PLAYER_NAMES[player]
        if popcount(mask) != o.tokens:
            raise IllegalSetupError(f"the {name} player sets up exactly {o.tokens} tokens, got {popcount(mask)}")
        outside = mask & ~self.board.corner[player]
        if outside:
            raise IllegalSetupError(f"the {name} player's set-up must lie in the "
                                    f"{o.quarter}x{o.quarter} {'top-left' if player == FIRST else 'bottom-right'} "
                                    f"corner; {self.board.format_cells(outside)} is outside it")

    # ---- placements ----
    def placement_cells(self, a, b, player):
        own = a if player == FIRST else b
        return self.board.neighbours(own) & ~(a | b) & self.board.full

    def placements(self, a, b, player):
        """Every legal placement of `player` as a mask of new cells (0: place nothing)."""
        cells = self.board.cells(self.placement_cells(a, b, player))
        k = min(self.options.extra, len(cells))
        sizes = range(0, k + 1) if self.options.place_optional else (k,)
        return [sum(1 << i for i in combo) for n in sizes for combo in combinations(cells, n)]

    def check_placement(self, a, b, player, mask):
        allowed = self.placement_cells(a, b, player)
        name = PLAYER_NAMES[player]
        if mask & ~allowed:
            raise IllegalSetupError(f"the {name} player cannot place on "
                                    f"{self.board.format_cells(mask & ~allowed)} (not an empty cell "
                                    "next to one of their own tokens)")
        k = min(self.options.extra, popcount(allowed))
        n = popcount(mask)
        if n > self.options.extra or (not self.options.place_optional and n != k):
            raise IllegalSetupError(f"the {name} player places {'up to' if self.options.place_optional else 'exactly'} "
                                    f"{k} tokens in a round, got {n}")

    def fixed_order(self, gen):
        """Who places first before generation `gen`, or None when a coin decides."""
        o = self.options.order
        if o == "first":
            return FIRST
        if o == "second":
            return SECOND
        if o == "alternate":
            return self.options.placement_index(gen) % 2
        return None

    # ---- the end ----
    def result(self, a, b, gen):
        """(+1/0/-1, reason) once the game is over after generation `gen`, else None."""
        if not a or not b:
            if not a and not b:
                return self.options.both_extinct_value(), f"both colours died out in generation {gen}"
            return (1, f"the second player's tokens died out in generation {gen}") if a else \
                   (-1, f"the first player's tokens died out in generation {gen}")
        if gen >= self.options.generations:
            pa, pb = popcount(a), popcount(b)
            if self.options.limit_score == "draw":
                return 0, f"generation limit {gen} reached"
            return (pa > pb) - (pa < pb), f"generation limit {gen} reached, {pa} tokens against {pb}"
        return None

    def play(self, setup_a, setup_b, players, rng):
        """A whole game. `players[p]` is an object with setup(game, player, other_setup, rng)
        (not called here) and place(game, a, b, player, gen, known, rng) returning a placement
        mask; `known` is the other player's placement of this round when they placed first."""
        self.check_setup(FIRST, setup_a)
        self.check_setup(SECOND, setup_b)
        a, b = setup_a, setup_b
        rec = GameRecord(self.options, (setup_a, setup_b), [Generation(0, a, b)])
        gen = 0
        while True:
            gen += 1
            placed, order = [0, 0], None
            if self.options.placement_before(gen):
                order = self.fixed_order(gen)
                if order is None:
                    order = rng.randrange(2)
                for p in (order, 1 - order):
                    known = placed[1 - p] if p != order else None
                    m = players[p].place(self, a, b, p, gen, known, rng)
                    self.check_placement(a, b, p, m)
                    placed[p] = m
                    if p == FIRST:
                        a |= m
                    else:
                        b |= m
            a, b = self.board.step(a, b)
            rec.generations.append(Generation(gen, a, b, tuple(placed), order))
            end = self.result(a, b, gen)
            if end is not None:
                rec.result, rec.reason = end
                return rec
