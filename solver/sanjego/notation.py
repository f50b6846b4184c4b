"""Move and game notation: `E3-D3`, numbered games `01. E3-D3 B3-C3`, `--` for a pass.

Parsing is case-insensitive. Move numbers are optional; when present they must
count up by one; `...` stands for the first player's move before a line that
starts with the second player's. A forced pass may be written as `--` or left out: when the side
to move has no legal move, the pass is implied.
"""

import re

from .errors import IllegalMoveError, NotationError
from .position import PASS, Position

PASS_TOKEN = "--"
_MOVE = re.compile(r"^([A-Za-z0-9_.]+)-([A-Za-z0-9_.]+)$")  # cell names of graph boards too
_NUMBER = re.compile(r"^([0-9]+)\.(.*)$")


def format_move(board, move):
    return PASS_TOKEN if move is PASS else f"{board.name(move[0])}-{board.name(move[1])}"


def parse_move(board, token):
    """'E3-D3' -> (from, to); '--' -> PASS. Raises NotationError / UnknownCellError."""
    if token == PASS_TOKEN:
        return PASS
    m = _MOVE.match(token)
    if not m:
        raise NotationError(f"bad move {token!r}: expected FROM-TO like E3-D3, or {PASS_TOKEN} for a pass")
    return board.cell(m.group(1)), board.cell(m.group(2))


def tokenize(text):
    """Move tokens of a move list or numbered game, move numbers checked and dropped."""
    if isinstance(text, (list, tuple)):
        text = " ".join(text)
    tokens, last_number = [], None
    for word in text.replace(",", " ").split():
        m = _NUMBER.match(word)
        if m:
            number = int(m.group(1))
            if last_number is not None and number != last_number + 1:
                raise NotationError(f"move number {m.group(1)}. follows {last_number}.")
            last_number = number
            word = m.group(2)
        if word in ("", "...", "…"):
            continue
        tokens.append(word)
    return tokens


def parse_moves(board, text):
    """Moves (syntax only, not legality) of a move list or numbered game."""
    return [parse_move(board, token) for token in tokenize(text)]


def replay(board, text, start=None):
    """Plays a move list from the start (or `start`); returns (position, moves played).

    Forced passes that the text leaves out are inserted.
    """
    position = start if start is not None else Position.start(board)
    played = []
    for token in tokenize(text):
        move = parse_move(board, token)
        if move is not PASS and position.must_pass():
            played.append(PASS)
            position = position.play(PASS)
        try:
            position = position.play(move)
        except IllegalMoveError as e:
            raise type(e)(f"move {len(played) + 1}: {e}") from None
        played.append(move)
    return position, played


def format_moves(board, moves):
    return " ".join(format_move(board, m) for m in moves)


def format_game(board, moves, first_ply=0):
    """Numbered notation, one line per move pair: '01. E3-D3 B3-C3'.

    first_ply is the number of plies before `moves` (passes included); when odd,
    the first line starts with '...' in the first player's place.
    """
    words = ["..."] * (first_ply % 2) + [format_move(board, m) for m in moves]
    first_number = first_ply // 2 + 1
    lines = []
    for i in range(0, len(words), 2):
        lines.append(f"{first_number + i // 2:02d}. " + " ".join(words[i:i + 2]))
    return "\n".join(lines)
