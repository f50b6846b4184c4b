"""San Jego series ("Serienspiel"): the right to start alternates game by game; a big win
scores 3-0, a small win 2-1, a draw 0-0; whoever first has 10 or more points wins the
series, and an 11-10 finish is a "small overall win".

    play_series(["first-small", "second-big", ...])      # given games, starter's view
    play_series([1], repeat=True)                         # every game ends the same
    optimal_series(board)                                 # both sides optimal in every game

Players of a series are called A and B; A starts games 1, 3, 5, ... unless first_starter=1.
A game's result is given from the view of the player who starts it, as the engine's
outcome measure gives it: 2 big win, 1 small win, 0 draw, -1 / -2 the other player wins
small / big (or the names first-big, first-small, draw, second-small, second-big).

Every game hands out 3 points or none, so the two totals always add up to a multiple of 3.
Hence nobody can reach 10 in a tie (10-10 adds up to 20), and 11-10 is the only finish by
one point: the rules' "small overall win". Every other finish is reported as an overall win.
For other targets (the `target` argument) a tie at or above the target can happen; then
nobody was first and the series goes on until one player leads.
"""

import json
import os
import time
from dataclasses import dataclass, field

from .board import parse_board
from .errors import SanJegoError
from .position import OUTCOME_NAMES

TARGET = 10
PLAYERS = ("A", "B")
# Points (starter, other player) for each outcome of a game from the starter's view.
POINTS = {2: (3, 0), 1: (2, 1), 0: (0, 0), -1: (1, 2), -2: (0, 3)}
OUTCOME_VALUES = {name: value for value, name in OUTCOME_NAMES.items()}
MAX_SOLVE_CELLS = 18  # boards this small solve from the start in well under a second
MAX_GAMES = 10_000


class SeriesError(SanJegoError):
    """A series that cannot be played out: a bad game result, or a board without a result."""


def outcome_value(result):
    """2, 1, 0, -1 or -2 from an int or an outcome name ("first-big", ...)."""
    if isinstance(result, str):
        if result not in OUTCOME_VALUES:
            raise SeriesError(f"unknown game result {result!r}: expected one of "
                              f"{', '.join(OUTCOME_VALUES)}")
        return OUTCOME_VALUES[result]
    if isinstance(result, bool) or not isinstance(result, int) or result not in POINTS:
        raise SeriesError(f"unknown game result {result!r}: expected -2, -1, 0, 1 or 2")
    return result


@dataclass
class Game:
    number: int     # from 1
    starter: int    # 0: A, 1: B
    result: int     # outcome from the starter's view
    points: tuple   # (A's, B's) points from this game
    score: tuple    # (A's, B's) totals after this game

    def as_dict(self):
        return {"game": self.number, "starter": PLAYERS[self.starter],
                "result": OUTCOME_NAMES[self.result], "winner": self.winner_name(),
                "points": list(self.points), "score": list(self.score)}

    def winner_name(self):
        if self.result == 0:
            return None
        return PLAYERS[self.starter if self.result > 0 else 1 - self.starter]


@dataclass
class Series:
    games: list = field(default_factory=list)
    status: str = "unfinished"  # "won", "unfinished" (results ran out) or "never-ends"
    winner: int = None          # 0: A, 1: B, None
    score: tuple = (0, 0)

    @property
    def kind(self):
        """"small overall win" (11-10), "overall win", or None while nobody has won."""
        if self.winner is None:
            return None
        return "small overall win" if sorted(self.score) == [10, 11] else "overall win"

    def as_dict(self):
        return {"status": self.status, "winner": None if self.winner is None else PLAYERS[self.winner],
                "score": list(self.score), "kind": self.kind, "games_played": len(self.games),
                "games": [g.as_dict() for g in self.games]}

    def summary(self):
        a, b = self.score
        n = len(self.games)
        if self.status == "won":
            w = self.winner
            return (f"{PLAYERS[w]} wins the series {self.score[w]}-{self.score[1 - w]} after {n} games"
                    f"{', a small overall win' if self.kind == 'small overall win' else ''}")
        if self.status == "never-ends":
            return (f"the series never ends: the games repeat and score no points, "
                    f"stuck at {a}-{b} (A-B)")
        return f"undecided after {n} games at {a}-{b} (A-B)"


def decided(score, target=TARGET):
    """The series winner (0 or 1) after a game that left `score`, or None to play on."""
    a, b = score
    if max(a, b) < target or a == b:
        return None
    return 0 if a > b else 1


def play_series(results, first_starter=0, repeat=False, target=TARGET, max_games=MAX_GAMES):
    """Play a series out game by game until someone wins.

    results: game results from each game's starter's view, in order. With repeat=True
    the list is played again and again (every game with the same place in the cycle ends
    the same); a whole cycle that scores no point means the series can never end, which
    is reported as status "never-ends" instead of looping. Without repeat a series that is
    still open when the results run out (or after max_games) is "unfinished".
    first_starter: who starts game 1 (0: A, 1: B); the start then alternates.
    """
    if first_starter not in (0, 1):
        raise SeriesError(f"first starter must be 0 (A) or 1 (B), got {first_starter!r}")
    if repeat:
        results = [outcome_value(r) for r in results]
        if not results:
            raise SeriesError("a repeated series needs at least one game result")
    series = Series()
    score = [0, 0]
    starter = first_starter

    def games():
        if not repeat:
            yield from results
            return
        while True:
            yield from results

    cycle_start = (0, 0)
    for n, result in enumerate(games(), 1):
        if n > max_games:
            break
        result = outcome_value(result)
        own, other = POINTS[result]
        points = (own, other) if starter == 0 else (other, own)
        score = [score[0] + points[0], score[1] + points[1]]
        series.games.append(Game(n, starter, result, points, tuple(score)))
        series.score = tuple(score)
        winner = decided(score, target)
        if winner is not None:
            series.status, series.winner = "won", winner
            return series
        starter = 1 - starter
        if repeat and n % len(results) == 0:
            # After a whole cycle the next cycle starts with the same results; if this one
            # scored nothing, every later one scores nothing too (the starters may swap,
            # but a drawless cycle always scores).
            if tuple(score) == cycle_start:
                series.status = "never-ends"
                return series
            cycle_start = tuple(score)
    return series


# ---- a board's series under optimal play ------------------------------------------------
def _record_outcome(path):
    """The board's record at path when it holds a solved outcome; None when there is no
    such file or it holds no outcome (a bound); SeriesError when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise SeriesError(f"cannot read {path}: {e.strerror}") from None
    except ValueError:
        raise SeriesError(f"{path} is damaged (not JSON)") from None
    if not isinstance(record, dict):
        raise SeriesError(f"{path} is damaged (not a board's record)")
    outcome = record.get("outcome")
    if not isinstance(outcome, dict) or outcome.get("value") not in OUTCOME_VALUES:
        return None
    return record


def board_outcome(board, results_dir=None, max_cells=MAX_SOLVE_CELLS, table_mb=64):
    """The rules outcome of `board` from the start under best play, first player's view,
    and where it comes from: (value, source dict).

    Looks for results_dir/WxH.json, then the transposed board's record (the same game:
    transposing keeps A1, neighbours and the starting colours), else solves boards of at
    most max_cells cells with the engine; raises SeriesError for larger ones."""
    board = parse_board(board)
    if results_dir is None:
        from .results import DEFAULT_DIR
        results_dir = DEFAULT_DIR
    names = [str(board)]
    if board.is_grid and board.width != board.height:
        names.append(f"{board.height}x{board.width}")
    for name in names:
        path = os.path.join(results_dir, f"{name}.json")
        record = _record_outcome(path)
        if record is None:
            continue
        outcome = record["outcome"]
        source = {"kind": "results", "file": path, "board": name,
                  "transposed": name != str(board), "nodes": outcome.get("nodes"),
                  "verified": bool(outcome.get("verify")),
                  "commit": record.get("provenance", {}).get("commit"),
                  "date": record.get("provenance", {}).get("date")}
        return OUTCOME_VALUES[outcome["value"]], source
    if board.cells > max_cells:
        raise SeriesError(f"no solved outcome for {board} in {results_dir}, and a board of "
                          f"{board.cells} cells is too big to solve here (at most {max_cells}; "
                          f"record it first with `python -m solver sanjego record {board}`)")
    from .engine import Engine
    from .position import Position
    engine = Engine(board, "outcome", table_mb=table_mb)
    t0 = time.perf_counter()
    value = engine.value(Position.start(board))
    source = {"kind": "solved", "nodes": engine.nodes,
              "seconds": round(time.perf_counter() - t0, 3)}
    return value, source


def optimal_series(board, results_dir=None, max_cells=MAX_SOLVE_CELLS, table_mb=64):
    """(series, outcome value, source): both players optimal in every game, so every game
    ends with the same result from its starter's view, and the start alternates."""
    value, source = board_outcome(board, results_dir, max_cells, table_mb)
    return play_series([value], repeat=True), value, source
