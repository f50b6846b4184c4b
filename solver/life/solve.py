"""Exact search of small versions: can a player force a win?

Values are the first player's result with best play on both sides: +1 (first wins), 0 (draw),
-1 (second wins). The game tree is the first player's set-up, the second player's set-up (seeing
the first; with hidden set-ups the same numbers are the first player's guarantee), then for
every placement round the two placements in the round's order, and the generations. Where a
coin decides the order of a placement round the search is asked twice: once with the coin
always falling against the first player (the value the first player can guarantee whatever the
coin shows) and once against the second player. Alpha-beta search with a transposition table of
bounds over (first tokens, second tokens, generation): CSolver runs it in the C core, Solver
is the same search in plain Python, kept as its reference.
"""

from .board import FIRST, SECOND
from .game import Game

COIN_MODES = ("against-first", "against-second")


ORDER_CODES = {"first": 0, "second": 1, "alternate": 2, "coin": 3}
DEFAULT_TABLE_MB = 256


class SetupQueries:
    """Questions about set-ups, asked of a search's value(a, b, gen, alpha, beta)."""

    def setup_value(self, a, b):
        """Exact value once both set-ups stand."""
        return self.value(a, b, 0, -1, 1)

    def best_reply(self, a):
        """(value, the second player's first best reply, replies searched) for set-up a."""
        best, reply, searched = 2, None, 0
        for b in self.game.board.setups(SECOND):
            v = self.value(a, b, 0, -1, best)
            searched += 1
            if v < best:
                best, reply = v, b
                if best == -1:
                    break
        return best, reply, searched

    def reply_values(self, a):
        """[(reply, exact value)] for every second-player set-up against set-up a."""
        return [(b, self.value(a, b, 0, -1, 1)) for b in self.game.board.setups(SECOND)]


class CSolver(SetupQueries):
    """The same search in the C core (csrc/life.c, bl_search); the Python Solver below is its
    readable reference, and the tests check that both agree."""

    def __init__(self, options, coin="against-first", table_mb=DEFAULT_TABLE_MB):
        self.game = Game(options)
        self.options = options
        self.core = self.game.board.core
        o = options
        self.core.configure_search(o.place_first, o.place_every, o.extra, o.place_optional,
                                   ORDER_CODES[o.order], COIN_MODES.index(coin),
                                   o.both_extinct_value(), o.limit_score == "count",
                                   o.generations, int(table_mb * (1 << 20)))

    @property
    def nodes(self):
        return self.core.nodes

    def set_progress(self, callback):
        self.core.progress = callback

    def value(self, a, b, gen, alpha=-1, beta=1):
        return self.core.search(a, b, gen, alpha, beta)



class Solver(SetupQueries):
    """Plain-Python alpha-beta search (the reference for CSolver)."""

    def __init__(self, options, coin="against-first"):
        self.game = Game(options)
        self.options = options
        self.coin = coin
        self.table = {}
        self.nodes = 0
        self.step = self.game.board.step
        self.cells = self.game.board.cells

    # ---- the game after the set-up ----
    def child(self, a, b, gen, alpha, beta):
        """Value after generation `gen` has produced (a, b)."""
        end = self.game.result(a, b, gen)
        if end is not None:
            return end[0]
        return self.value(a, b, gen, alpha, beta)

    def value(self, a, b, gen, alpha=-1, beta=1):
        """Value of (a, b) after `gen` generations, the game not over; fail-soft."""
        self.nodes += 1
        key = (a, b, gen)
        lo, hi = self.table.get(key, (-1, 1))
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha0, beta0 = max(alpha, lo), min(beta, hi)
        if self.options.placement_before(gen + 1):
            order = self.game.fixed_order(gen + 1)
            if order is None:
                v = self.round(a, b, gen, self.coin == "against-second", alpha0, beta0)
                # the coin picks the order that is worse for the player it is against
                if (self.coin == "against-first" and v > alpha0) or (self.coin == "against-second" and v < beta0):
                    w = self.round(a, b, gen, self.coin == "against-first", alpha0, beta0)
                    v = min(v, w) if self.coin == "against-first" else max(v, w)
            else:
                v = self.round(a, b, gen, order == FIRST, alpha0, beta0)
        else:
            na, nb = self.step(a, b)
            v = self.child(na, nb, gen + 1, alpha0, beta0)
        if v <= alpha0:
            hi = min(hi, v)
        elif v >= beta0:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.table[key] = (lo, hi)
        return v

    def round(self, a, b, gen, first_places_first, alpha, beta):
        """A placement round before generation gen+1, then that generation."""
        p = FIRST if first_places_first else SECOND
        return self.place(a, b, gen, p, True, alpha, beta)

    def place(self, a, b, gen, player, opening, alpha, beta):
        maximise = player == FIRST
        best = -2 if maximise else 2
        for m in self.game.placements(a, b, player):
            na, nb = (a | m, b) if player == FIRST else (a, b | m)
            if opening:
                v = self.place(na, nb, gen, 1 - player, False, alpha, beta)
            else:
                sa, sb = self.step(na, nb)
                v = self.child(sa, sb, gen + 1, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best
