"""Players for `selfplay` and `show`: one that never places, a random one and a search player.

The search player looks one placement round ahead: for each of its placements it assumes the
opponent's best answer in the same round (or takes the opponent's placement as known when the
opponent placed first), then lets the board run `horizon` generations without placements and
scores the result: a colour dying out is worth +-1000 (sooner is worth more), otherwise the
token difference. Ties are broken at random (the game's seeded generator).
"""

from .board import FIRST, SECOND
from .game import popcount

WIN = 1000
DEFAULT_HORIZON = 6


class PassPlayer:
    name = "pass"

    def setup(self, game, player, other, rng):
        return rng.choice(game.board.setups(player))

    def place(self, game, a, b, player, gen, known, rng):
        return 0


class RandomPlayer(PassPlayer):
    name = "random"

    def place(self, game, a, b, player, gen, known, rng):
        return rng.choice(game.placements(a, b, player))


class SearchPlayer:
    name = "search"

    def __init__(self, horizon=DEFAULT_HORIZON):
        self.horizon = horizon
        self._first_choices = {}

    def evaluate(self, game, a, b, gen):
        """The first player's score after `horizon` generations without placements."""
        step, limit = game.board.step, game.options.generations
        for k in range(self.horizon):
            if gen >= limit:
                break
            a, b = step(a, b)
            gen += 1
            if not a or not b:
                if not a and not b:
                    return WIN * game.options.both_extinct_value()
                return (WIN - k) if a else -(WIN - k)
        return popcount(a) - popcount(b)

    def setup(self, game, player, other, rng):
        board = game.board
        if player == SECOND and other is not None:
            scored = [(-self.evaluate(game, other, b, 0), b) for b in board.setups(SECOND)]
        else:
            # first player (or a hidden set-up): the best worst case over every reply in a
            # no-placement duel of `horizon` generations (computed once per options, in C)
            # the best worst case over every reply in a no-placement duel of `horizon`
            # generations (in C, once per options); the step treats both colours alike, so the
            # second player's question is the first player's with the colours swapped
            key = (game.options, self.horizon, player)
            if key not in self._first_choices:
                o = game.options
                mine, theirs = board.setups(player), board.setups(1 - player)
                both = o.both_extinct_value() * (1 if player == FIRST else -1)
                rows = board.core.best_replies(mine, theirs, self.horizon, both, o.limit_score == "count")
                self._first_choices[key] = [(best * 10 ** 6 + counts[2] - counts[0], m)
                                            for m, (best, _, counts) in zip(mine, rows)]
            scored = self._first_choices[key]
        top = max(s for s, _ in scored)
        return rng.choice([m for s, m in scored if s == top])

    def place(self, game, a, b, player, gen, known, rng):
        sign = 1 if player == FIRST else -1
        best, choices = None, []
        for m in game.placements(a, b, player):
            na, nb = (a | m, b) if player == FIRST else (a, b | m)
            if known is not None:
                replies = [0]
            else:
                replies = game.placements(na, nb, 1 - player)
            worst = None
            for r in replies:
                ra, rb = (na | r, nb) if player == SECOND else (na, nb | r)
                s = sign * self.evaluate(game, ra, rb, gen - 1)
                if worst is None or s < worst:
                    worst = s
                    if best is not None and worst < best:
                        break
            if best is None or worst > best:
                best, choices = worst, [m]
            elif worst == best:
                choices.append(m)
        return rng.choice(choices)


PLAYERS = {"pass": PassPlayer, "random": RandomPlayer, "search": SearchPlayer}
