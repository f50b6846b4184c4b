"""Values: C solver against published values and the reference minimax."""

import random

import pytest

from solver.sanjego import Board, Position, reference
from solver.sanjego.engine import Engine
from solver.sanjego.notation import replay
from conftest import data_lines

VALUES = data_lines("values.txt")


@pytest.mark.parametrize("size,value", [("2x2", 4), ("3x2", 2), ("4x3", 2)])
def test_independently_published_values(size, value):
    board = Board.parse(size)
    assert Engine(board, table_mb=4).value(Position.start(board)) == value


@pytest.mark.parametrize("size,measure,value", VALUES)
def test_start_values(size, measure, value):
    board = Board.parse(size)
    assert Engine(board, measure, table_mb=1).value(Position.start(board)) == int(value)


def random_position(board, rng, plies):
    p = Position.start(board)
    for _ in range(plies):
        if p.is_over():
            break
        p = p.play(rng.choice(p.legal_moves()))
    return p


@pytest.mark.parametrize("measure", ["margin", "outcome"])
@pytest.mark.parametrize("size,min_plies", [("3x3", 0), ("4x2", 0), ("2x4", 0), ("5x2", 1),
                                            ("4x3", 4), ("3x4", 4), ("6x2", 3), ("7x1", 0)])
def test_random_positions_match_reference(size, min_plies, measure):
    board = Board.parse(size)
    rng = random.Random(f"{size}{measure}")
    engines = [Engine(board, measure, table_mb=1),
               Engine(board, measure, table_mb=0.0001, seed=7, symmetry=False)]  # one-bucket table
    for _ in range(12):
        p = random_position(board, rng, rng.randrange(min_plies, board.cells))
        expected = reference.solve(p, measure)
        for engine in engines:
            assert engine.value(p) == expected, (size, p.key())


@pytest.mark.parametrize("size", ["4x3", "3x4"])
def test_enhanced_transposition_cutoffs_keep_values(size):
    board = Board.parse(size)
    engine = Engine(board, table_mb=1)
    engine.core.etc_min_towers = 5  # normally only in big positions; force it here
    rng = random.Random(size + "etc")
    for _ in range(12):
        p = random_position(board, rng, rng.randrange(3, board.cells))
        assert engine.value(p) == reference.solve(p)


def test_search_window_is_fail_soft_correct():
    board = Board(4, 3)
    engine = Engine(board, table_mb=1)
    p, _ = replay(board, "B2-C2")
    v = reference.solve(p)
    for k in range(v - 3, v + 4):
        assert engine.at_least(p, k) == (v >= k)


def test_line_and_analysis_keep_the_value():
    board = Board(4, 3)
    engine = Engine(board, table_mb=4)
    start = Position.start(board)
    value = engine.value(start)
    moves, final = engine.line(start)
    assert final.is_over() and final.margin() == value
    p = start
    for m in moves:
        p = p.play(m)
        assert engine.value(p) == value
    analysis = engine.analyse(start)
    assert len(analysis) == len(start.legal_moves())
    assert analysis[0][1] == value
    assert all(v == reference.solve(start.play(m)) for m, v in analysis[:3])


@pytest.mark.parametrize("size,min_plies", [("4x3", 3), ("3x4", 3), ("4x2", 0), ("5x2", 0)])
def test_outcome_through_margin_matches_plain_outcome_search(size, min_plies):
    board = Board.parse(size)
    rng = random.Random(size)
    shortcut = Engine(board, "outcome", table_mb=2)
    plain = Engine(board, "outcome", table_mb=2)
    plain.margin_core = None
    for _ in range(20):
        p = random_position(board, rng, rng.randrange(min_plies, board.cells))
        assert shortcut.value(p) == plain.value(p) == reference.solve(p, "outcome")


def test_interrupted_search_leaves_table_sound():
    board = Board(5, 4)
    engine = Engine(board, table_mb=64)
    calls = []

    def stop(nodes):
        calls.append(nodes)
        raise KeyboardInterrupt

    engine.set_progress(stop)
    with pytest.raises(KeyboardInterrupt):
        engine.value(Position.start(board))
    assert calls
    engine.set_progress(None)
    assert engine.value(Position.start(board)) == 2


@pytest.mark.parametrize("measure", ["margin", "outcome"])
@pytest.mark.parametrize("size", ["4x3", "3x4", "5x2", "cube1", "hex2", "torus3x3"])
def test_static_bounds_hold_the_value(size, measure):
    """The core's static bounds (banked towers, largest group, a tower the side to move can
    bank at once) never exclude the true value, with or without heads."""
    from solver.sanjego.board import parse_board
    board = parse_board(size)
    rng = random.Random(f"bounds{size}{measure}")
    plain = Engine(board, measure, table_mb=1)
    heads = Engine(board, measure, table_mb=1, heads=True)
    for i in range(24):
        p = random_position(board, rng, rng.randrange(board.cells // 3, board.cells))
        engine = plain
        if i % 4 == 3 and not p.is_over():
            mine = [c for c in range(board.cells) if p.heights[c] and p.owners[c] == 0]
            theirs = [c for c in range(board.cells) if p.heights[c] and p.owners[c] == 1]
            if mine and theirs:
                p, engine = p.with_heads([rng.choice(mine), rng.choice(theirs)]), heads
        lo, hi = engine.core.bounds(p.heights, p.core_owners, p.side)
        assert lo <= reference.solve(p, measure) <= hi, (size, p.key())
