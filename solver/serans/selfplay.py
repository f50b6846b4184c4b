"""Reproducible self-play: every game is played by the same search player for every seat,
the set-up placements chosen by the same player, ties broken by a generator seeded from
(seed, game number), so the figures depend only on the options and the seed."""

import math
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


def _mean_se(xs):
    """(mean, standard error of the mean) of a sample (se 0 for fewer than two values)."""
    m = statistics.fmean(xs)
    return m, (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0)


def selfplay(rules, games, seed, depth=1, mode="maxn", on_game=None):
    """Statistics over `games` games. `on_game(i, final)` is called after each game.

    A game's score for a seat is 1 for a sole first place, 1/k for a first place shared by k,
    else 0; the win share is its mean over the games, with the standard error of that mean
    (sample standard deviation / sqrt(games)) and a 95% interval mean +- 1.96 se (normal
    approximation, fine for hundreds of games). The first-player advantage is the first seat's
    win share minus 1/players (0 when the seats are equal), with the same se and interval."""
    scores = [[] for _ in range(rules.players)]
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
        for i in range(rules.players):
            scores[i].append(1 / len(top) if i in top else 0.0)
        draws += len(top) > 1
        lengths.append(final.turns)
        line_moves.append(sum(len(m) for m in moves if isinstance(m, tuple) and not hasattr(m, "cell")))
        tallest_towers.append(tallest(final.board))
        target_games += final.target_reached()
        if on_game:
            on_game(g, final)
    share = [_mean_se(s) for s in scores]
    adv, adv_se = share[0][0] - 1 / rules.players, share[0][1]
    turns_mean, turns_se = _mean_se(lengths)
    return {
        "games": games, "seed": seed, "player": {"depth": depth, "mode": mode if depth else "random"},
        "win_share": [round(m, 4) for m, _ in share],
        "win_share_se": [round(se, 4) for _, se in share],
        "first_player_advantage": round(adv, 4),
        "first_player_advantage_se": round(adv_se, 4),
        "first_player_advantage_ci95": [round(adv - 1.96 * adv_se, 4), round(adv + 1.96 * adv_se, 4)],
        "shared_first_places": draws,
        "target_reached": target_games,
        "turns": {"mean": round(turns_mean, 2), "se": round(turns_se, 2),
                  "sd": round(statistics.stdev(lengths), 2) if games > 1 else 0.0,
                  "median": statistics.median(lengths), "min": min(lengths), "max": max(lengths)},
        "line_moves_mean": round(statistics.fmean(line_moves), 2),
        "tallest_mean": round(statistics.fmean(tallest_towers), 2),
        "nodes": nodes,
    }
