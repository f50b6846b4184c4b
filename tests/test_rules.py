"""Rules engine: scoring, published games, passes, notation, bad input."""

import pytest

from solver.sanjego import (PASS, Board, BoardSizeError, IllegalMoveError, NotationError, Position,
                            UnknownCellError, WrongPlayerError, format_game, format_move,
                            parse_moves, replay)
from solver.sanjego.position import EMPTY

GAME_6X5 = """
    01. E3-D3 B3-C3   02. B2-C2 D1-D2   03. B4-C4 C3-D3   04. E1-E2 D2-E2
    05. C5-D5 E4-E5   06. F2-E2 E5-D5   07. D4-D5 B1-C1   08. A5-B5 C1-C2
    09. A3-A2 F5-F4   10. A2-A1 F4-F3
"""
GAME_8X4 = """
    01. b2-c2 e2-d2   02. a3-b3 b1-c1   03. d4-d3 e4-e3   04. e1-d1 d2-c2
    05. b4-c4 f3-g3   06. g1-h1 g2-h2   07. f4-g4 e3-d3   08. d1-c1 d3-c3
    09. b3-c3 c2-c1   10. a1-a2 f1-f2   11. h1-h2 h3-h4   12. g4-h4
"""


def towers_position(first, second):
    """A finished position on a 1×n strip, towers separated by empty cells."""
    heights, owners = [], []
    for player, towers in ((0, first), (1, second)):
        for h in towers:
            heights += [h, 0]
            owners += [player, EMPTY]
    heights, owners = heights or [0], owners or [EMPTY]
    board = Board(len(heights), 1)
    return Position(board, heights, owners, 0)


def test_seed_scoring_examples():
    small_second = towers_position([7, 3, 1, 1], [7, 4, 1])
    assert small_second.is_over()
    assert small_second.outcome() == -1
    assert small_second.margin() == 0
    assert towers_position([7, 3, 1, 1], [7, 3, 2]).outcome() == 0
    assert towers_position([8], [7, 4]).outcome() == 2
    assert towers_position([5, 5], [5]).outcome() == 1
    assert towers_position([3], []).margin() == 3
    assert towers_position([], []).outcome() == 0


def test_start_position():
    p = Position.start(Board(6, 4))
    b = p.board
    assert p.owners[b.cell("A1")] == 0 and p.owners[b.cell("B1")] == 1 and p.owners[b.cell("A2")] == 1
    assert all(h == 1 for h in p.heights)
    assert len(p.legal_moves()) == 38  # one first-player move per edge of the grid


def test_published_6x5_game():
    board = Board(6, 5)
    position, moves = replay(board, GAME_6X5)
    assert len(moves) == 20 and PASS not in moves
    assert position.is_over()
    assert (position.towers(0)[0], position.towers(1)[0]) == (5, 4)
    assert position.margin() == 1


def test_published_8x4_game_ends_after_forced_pass():
    board = Board(8, 4)
    position, moves = replay(board, GAME_8X4)
    assert len(moves) == 23
    assert position.side == 1 and position.must_pass()
    position = position.play(PASS)
    c3, c4 = board.cell("C3"), board.cell("C4")
    assert sorted(position.legal_moves()) == sorted([(c4, c3), (c3, c4)])
    position = position.play((c4, c3))
    assert position.is_over()
    assert (position.towers(0)[0], position.towers(1)[0]) == (9, 8)
    # Explicit and implied passes give the same game.
    explicit, m1 = replay(board, GAME_8X4 + " -- 13. c4-c3")
    implied, m2 = replay(board, GAME_8X4 + " c4-c3")
    assert explicit == implied == position and m1 == m2 and m1[23] is PASS


def test_pass_rules():
    board = Board(8, 4)
    p, _ = replay(board, GAME_8X4)
    with pytest.raises(IllegalMoveError):
        replay(board, "b2-c2 --")  # second player has moves
    over, _ = replay(board, GAME_8X4 + " -- c4-c3")
    with pytest.raises(IllegalMoveError, match="over"):
        over.play(PASS)
    assert over.legal_moves() == []


def test_notation_round_trip():
    board = Board(8, 4)
    _, moves = replay(board, GAME_8X4 + " c4-c3")
    text = format_game(board, moves)
    assert text.splitlines()[0] == "01. B2-C2 E2-D2"
    assert "12. G4-H4 --" in text and text.endswith("13. C4-C3")
    assert parse_moves(board, text) == moves
    assert parse_moves(board, text.lower()) == moves
    assert parse_moves(board, " ".join(format_move(board, m) for m in moves)) == moves
    # A line that starts with the second player's move.
    assert format_game(board, moves[1:3], first_ply=1) == "01. ... E2-D2\n02. A3-B3"
    assert parse_moves(board, "01. ... E2-D2 02. A3-B3") == moves[1:3]


def test_wide_board_column_names():
    board = Board(30, 2)
    assert board.name(26) == "AA1" and board.cell("ab2") == 57
    with pytest.raises(UnknownCellError):
        board.cell("AE1")


@pytest.mark.parametrize("size,moves,error", [
    ("6x4", "G1-F1", UnknownCellError),
    ("6x4", "A5-A4", UnknownCellError),
    ("6x4", "A1-C1", IllegalMoveError),      # not neighbours
    ("6x4", "A1-B2", IllegalMoveError),      # diagonal
    ("6x4", "B1-C1", WrongPlayerError),      # second player's tower
    ("6x4", "A1-B1 A1-A2", IllegalMoveError),  # empty source
    ("6x4", "A1-B1 C1-B1 A2-A1", IllegalMoveError),  # empty target
    ("6x4", "E3D3", NotationError),
    ("6x4", "E3-", NotationError),
    ("6x4", "01. A1-B1 03. C1-B1", NotationError),  # move numbers skip
    ("6x4", "A1-B1 ?", NotationError),
])
def test_bad_moves(size, moves, error):
    with pytest.raises(error):
        replay(Board.parse(size), moves)


def test_wrong_player_is_an_illegal_move():
    assert issubclass(WrongPlayerError, IllegalMoveError)
    assert issubclass(UnknownCellError, NotationError)


@pytest.mark.parametrize("text", ["9x8", "65x1", "0x4", "5", "x4", "5x", "-5x4", "axb", ""])
def test_bad_boards(text):
    with pytest.raises(BoardSizeError):
        Board.parse(text)


def test_board_parse():
    assert Board.parse("5x4") == Board(5, 4)
    assert Board.parse("5X4") == Board(5, 4)
    assert Board.parse("8x8").cells == 64
    assert str(Board(6, 5)) == "6x5"
