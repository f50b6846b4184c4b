"""San Jego series ("Serienspiel"): scoring, alternating starts, the end, and `sanjego series`."""

import itertools
import json

import pytest

from solver.sanjego.errors import SanJegoError
from solver.sanjego.series import (POINTS, SeriesError, board_outcome, decided, optimal_series,
                                   play_series)
from sanjego_cli import cli, run


# ---- arithmetic -------------------------------------------------------------------------
@pytest.mark.parametrize("result, points", [(2, (3, 0)), (1, (2, 1)), (0, (0, 0)), (-1, (1, 2)),
                                            (-2, (0, 3)), ("first-big", (3, 0)), ("draw", (0, 0)),
                                            ("second-small", (1, 2))])
def test_one_game_scores_big_3_0_small_2_1_draw_0_0(result, points):
    series = play_series([result])
    assert series.games[0].points == points and series.score == points
    assert series.status == "unfinished" and series.winner is None and series.kind is None


def test_points_of_the_second_starter_are_mirrored():
    # Game 2 is started by B: B's big win gives B 3 points, A's small win gives A 2.
    series = play_series([0, 2, -1])
    assert [g.starter for g in series.games] == [0, 1, 0]
    assert [g.points for g in series.games] == [(0, 0), (0, 3), (1, 2)]
    assert series.score == (1, 5)


def test_starts_alternate_and_first_starter_can_be_b():
    series = play_series([0] * 5, first_starter=1)
    assert [g.starter for g in series.games] == [1, 0, 1, 0, 1]
    assert [g.number for g in series.games] == [1, 2, 3, 4, 5]
    with pytest.raises(SeriesError):
        play_series([0], first_starter=2)


def test_first_to_ten_wins_and_later_games_are_not_played():
    # A wins big every game it starts, and B every game B starts: 3-0, 3-3, 6-3, ... 12-9.
    series = play_series([2] * 20)
    assert series.status == "won" and series.winner == 0
    assert series.score == (12, 9) and len(series.games) == 7
    assert series.kind == "overall win"
    assert [g.score for g in series.games][-2:] == [(9, 9), (12, 9)]


def test_ten_exactly_is_enough():
    series = play_series([2, 0, 2, 0, 1, 0, 1])  # 3-0 3-0 6-0 6-0 8-1 8-1 10-2
    assert series.status == "won" and series.winner == 0 and series.score == (10, 2)
    assert len(series.games) == 7


def test_eleven_ten_is_a_small_overall_win():
    series = play_series([1], repeat=True)  # every starter wins small
    assert [g.score for g in series.games] == [(2, 1), (3, 3), (5, 4), (6, 6), (8, 7), (9, 9), (11, 10)]
    assert series.winner == 0 and series.kind == "small overall win"
    assert "11-10" in series.summary() and "small overall win" in series.summary()
    mirrored = play_series([-1], repeat=True)
    assert mirrored.winner == 1 and mirrored.score == (10, 11) and mirrored.kind == "small overall win"


def test_second_player_wins_every_game_so_b_wins_the_series():
    series = play_series(["second-big"], repeat=True)
    assert series.winner == 1 and series.score == (9, 12) and len(series.games) == 7


def test_all_draws_never_end_instead_of_looping():
    series = play_series([0], repeat=True)
    assert series.status == "never-ends" and series.winner is None and series.kind is None
    assert "never ends" in series.summary()
    assert len(series.games) == 1
    longer = play_series([0, 0, 0], repeat=True)
    assert longer.status == "never-ends" and len(longer.games) == 3


def test_finite_results_that_do_not_decide_are_unfinished():
    series = play_series([0] * 50)
    assert series.status == "unfinished" and series.score == (0, 0) and len(series.games) == 50
    assert "undecided" in series.summary()


def test_an_endless_generator_of_draws_stops_at_max_games():
    series = play_series(itertools.repeat(0), max_games=100)
    assert series.status == "unfinished" and len(series.games) == 100


def test_a_cycle_with_one_scoring_game_ends():
    series = play_series([0, 0, 1], repeat=True)
    assert series.status == "won"


def test_every_short_series_adds_up_to_multiples_of_three_and_never_ties_at_ten():
    # The reason 11-10 is the only one-point finish and 10-10 cannot happen.
    for seq in itertools.product([2, 1, 0, -1, -2], repeat=6):
        series = play_series(seq)
        a, b = series.score
        assert (a + b) % 3 == 0
        if series.status == "won":
            assert max(a, b) >= 10 and a != b
            assert min(a, b) < 10 or sorted((a, b)) == [10, 11]
            if abs(a - b) == 1:
                assert series.kind == "small overall win"
        else:
            assert max(a, b) < 10


def test_a_tie_above_another_target_plays_on():
    assert decided((10, 10)) is None and decided((11, 10)) == 0 and decided((9, 9)) is None
    assert decided((9, 12)) == 1
    series = play_series([1, 0, -1, -2], target=3)  # 2-1, 2-1, 3-3 (tie: go on), 6-3
    assert [g.score for g in series.games] == [(2, 1), (2, 1), (3, 3), (6, 3)]
    assert series.winner == 0


@pytest.mark.parametrize("bad", [3, -3, "big", None, 1.0, True])
def test_bad_game_results_are_refused(bad):
    with pytest.raises(SanJegoError):
        play_series([bad])


def test_repeat_needs_results():
    with pytest.raises(SeriesError):
        play_series([], repeat=True)


def test_points_table_hands_out_three_or_none():
    assert all(sum(p) in (0, 3) for p in POINTS.values())


# ---- boards -------------------------------------------------------------------------------
def test_recorded_4x2_is_a_small_win_so_the_series_ends_11_10():
    series, value, source = optimal_series("4x2")
    assert value == 1 and source["kind"] == "results" and not source["transposed"]
    assert series.score == (11, 10) and series.kind == "small overall win"


def test_transposed_board_uses_the_same_record():
    value, source = board_outcome("2x4")
    assert value == 1 and source["transposed"] and source["board"] == "4x2"


def test_small_board_without_a_record_is_solved(tmp_path):
    value, source = board_outcome("1x5", results_dir=str(tmp_path), table_mb=4)
    assert source["kind"] == "solved" and value in (-2, -1, 0, 1, 2)
    # The engine agrees with the shipped record where there is one.
    assert board_outcome("4x3", results_dir=str(tmp_path), table_mb=4)[0] == board_outcome("4x3")[0]


def test_big_board_without_a_record_is_refused(tmp_path):
    with pytest.raises(SeriesError, match="too big"):
        board_outcome("7x4", results_dir=str(tmp_path))


# ---- command line -----------------------------------------------------------------------
def test_cli_series_text():
    r = run("series", "4x2")
    assert r.returncode == 0, r.stderr
    assert "first-small" in r.stdout and "4x2.json" in r.stdout
    assert "A wins the series 11-10 after 7 games, a small overall win" in r.stdout


def test_cli_series_json():
    r = cli("series", "6x4", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["outcome"] == "first-big" and out["status"] == "won" and out["winner"] == "A"
    assert out["score"] == [12, 9] and out["games_played"] == 7 and len(out["games"]) == 7
    assert out["games"][1] == {"game": 2, "starter": "B", "result": "first-big", "winner": "B",
                               "points": [0, 3], "score": [3, 3]}
    assert "optimal" in out["assumes"]


def test_cli_series_solves_small_boards(tmp_path):
    r = cli("series", "3x1", "--results", str(tmp_path), "--json", "--table-mb", "4")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["source"]["kind"] == "solved"


@pytest.mark.parametrize("args", [["banana"], ["9x8"], ["7x4", "--results", "{tmp}"],
                                  ["4x3", "--max-cells", "0"], ["4x3", "--table-mb", "-5"], []])
def test_cli_series_bad_input_exits_2_with_one_line(args, tmp_path):
    r = cli("series", *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in r.stderr


def test_cli_series_help_says_what_it_assumes():
    r = cli("series", "--help")
    assert r.returncode == 0 and "optimal" in r.stdout and "alternates" in r.stdout
    for option in ("--json", "--results", "--max-cells", "--table-mb"):
        assert option in r.stdout
