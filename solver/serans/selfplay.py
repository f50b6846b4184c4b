"""Reproducible self-play: every game is played by the same search player for every seat,
the set-up placements chosen by the same player, ties broken by a generator seeded from
(seed, game number), so the figures depend only on the options and the seed."""

import random
import statistics

from .rules import Position, tallest
from .search import RandomPlayer, SearchPlayer


def play_game(rules, player_for_seat, max_turns=100_000):
    """[(move, position)] of one game and the final position."""
    p = Position.initial(rules)
    moves = []
    while not p.is_over():
        m = player_for_seat[p.to_move].choose(p)
        p = p.play(m)
        moves.append(m)
        if p.turns > max_turns:
            raise AssertionError("a game longer than the finiteness bound")
    return moves, p


def selfplay(rules, games, seed, depth=1, mode="maxn", on_game=None):
    """Statistics over `games` games. `on_game(i, final)` is called after each game."""
    wins = [0.0] * rules.players   # a shared first place splits the point
    lengths, line_moves, tallest_towers, target_games, draws = [], [], [], 0, 0
    nodes = 0
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        if depth == 0:
            seats = [RandomPlayer(rng)] * rules.players
        else:
            seats = [SearchPlayer(depth, mode, rng)] * rules.players
        moves, final = play_game(rules, seats)
        nodes += sum(getattr(s, "nodes", 0) for s in set(seats))
        top = final.winners()
        for w in top:
            wins[w] += 1 / len(top)
        draws += len(top) > 1
        lengths.append(final.turns)
        line_moves.append(sum(len(m) for m in moves if isinstance(m, tuple) and not hasattr(m, "cell")))
        tallest_towers.append(tallest(final.board))
        target_games += final.target_reached()
        if on_game:
            on_game(g, final)
    return {
        "games": games, "seed": seed, "player": {"depth": depth, "mode": mode if depth else "random"},
        "win_share": [round(w / games, 4) for w in wins],
        "first_player_advantage": round(wins[0] / games - 1 / rules.players, 4),
        "shared_first_places": draws,
        "target_reached": target_games,
        "turns": {"mean": round(statistics.fmean(lengths), 2), "median": statistics.median(lengths),
                  "min": min(lengths), "max": max(lengths)},
        "line_moves_mean": round(statistics.fmean(line_moves), 2),
        "tallest_mean": round(statistics.fmean(tallest_towers), 2),
        "nodes": nodes,
    }
