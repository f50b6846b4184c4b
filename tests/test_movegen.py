"""Move generation: the C core against the plain-Python rules."""

import random

import pytest

from solver.sanjego import Board, Position, reference
from solver.sanjego.engine import Engine
from conftest import data_lines

PERFT = data_lines("perft.txt")


@pytest.mark.parametrize("size,depth,count", PERFT, ids=[f"{b}-d{d}" for b, d, _ in PERFT])
def test_perft_core(size, depth, count):
    board = Board.parse(size)
    assert Engine(board, table_mb=0.01).perft(Position.start(board), int(depth)) == int(count)


@pytest.mark.parametrize("size,depth,count", [row for row in PERFT if int(row[2]) < 100000])
def test_perft_reference(size, depth, count):
    assert reference.perft(Position.start(Board.parse(size)), int(depth)) == int(count)


@pytest.mark.parametrize("size", ["5x4", "6x4", "4x3", "8x2", "3x7"])
def test_perft_from_random_positions(size):
    board = Board.parse(size)
    engine = Engine(board, table_mb=0.01)
    rng = random.Random(size)
    for _ in range(15):
        p = Position.start(board)
        for _ in range(rng.randrange(board.cells)):
            if p.is_over():
                break
            p = p.play(rng.choice(p.legal_moves()))
        assert engine.perft(p, 3) == reference.perft(p, 3)
