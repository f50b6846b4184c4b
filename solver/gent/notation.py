"""Move notation for the Tailor of Ghent.

    @7          Mr. Button puts the thimble on vertex 7 (the start)
    7-14        the Tailor walks from 7 to 14 and takes no button
    7-14 x12    ... and puts the button of face 12 onto vertex 7 ("7-14x12" and "xf12" too)
    f3>f5       Mr. Button moves the button of face 3 into face 5
    -           Mr. Button passes

Vertices are the graph file's labels; faces are numbered from 1 in the file's order. A game
is the start followed by numbered move pairs: "@7 1. 7-14 x12 - 2. 14-15 f3>f5". Move
numbers are optional when reading, and so are Mr. Button's forced passes (he has no other
move while no face is empty).
"""

import re

from .errors import GraphError, IllegalMoveError, NotationError
from .position import PASS, TAILOR, ButtonMove, Start, TailorMove

PASS_TOKEN = "-"
_TAILOR = re.compile(r"^(\d+)-(\d+)(?:x(f?\d+))?$", re.IGNORECASE)
_BUTTON = re.compile(r"^(f?\d+)>(f?\d+)$", re.IGNORECASE)
_NUMBER = re.compile(r"^\d+\.+$")


def format_move(board, move):
    g = board.graph
    if move is PASS:
        return PASS_TOKEN
    if isinstance(move, Start):
        return f"@{g.vertex_name(move.vertex)}"
    if isinstance(move, ButtonMove):
        return f"{g.face_name(move.src)}>{g.face_name(move.dst)}"
    text = f"{g.vertex_name(move.src)}-{g.vertex_name(move.dst)}"
    return text if move.capture is None else f"{text} x{move.capture + 1}"


def parse_move(board, text):
    """One move; a Tailor move's source vertex is checked when it is played."""
    g = board.graph
    t = text.strip().replace(" ", "")
    try:
        if t == PASS_TOKEN:
            return PASS
        if t.startswith("@"):
            return Start(g.parse_vertex(t[1:]))
        m = _TAILOR.match(t)
        if m:
            cap = None if m.group(3) is None else g.parse_face(m.group(3))
            return TailorMove(g.parse_vertex(m.group(1)), g.parse_vertex(m.group(2)), cap)
        m = _BUTTON.match(t)
        if m:
            return ButtonMove(g.parse_face(m.group(1)), g.parse_face(m.group(2)))
    except GraphError as e:
        raise NotationError(f"{text!r}: {e}") from None
    raise NotationError(f"cannot read move {text!r} (examples: @7, 7-14, 7-14 x12, f3>f5, -)")


def tokenize(text):
    """Move texts of a game: numbers dropped, capture suffixes joined to their move."""
    out = []
    for tok in text.replace(",", " ").split():
        if _NUMBER.match(tok):
            continue
        if re.match(r"^x(f?\d+)$", tok, re.IGNORECASE):
            if not out or not _TAILOR.match(out[-1]) or "x" in out[-1].lower():
                raise NotationError(f"{tok!r} does not follow a Tailor move")
            out[-1] += tok
            continue
        out.append(tok)
    return out


def replay(position, text):
    """[(move, position after)] for a game text, forced passes filled in."""
    out = []
    for tok in tokenize(text):
        move = parse_move(position.board, tok)
        if (isinstance(move, TailorMove) and position.vertex is not None
                and position.to_move != TAILOR and position.legal_moves() == [PASS]):
            position = position.play(PASS)
            out.append((PASS, position))
        try:
            position = position.play(move)
        except IllegalMoveError as e:
            n = sum(1 for m, _ in out if isinstance(m, TailorMove)) + 1
            raise IllegalMoveError(f"move {n} ({tok}): {e}") from None
        out.append((move, position))
    return out


def format_game(board, moves):
    """Start and numbered pairs (Tailor move, Mr. Button's reply)."""
    parts, number = [], 0
    for move in moves:
        if isinstance(move, Start):
            parts.append(format_move(board, move))
        elif isinstance(move, TailorMove):
            number += 1
            parts.append(f"{number}. {format_move(board, move)}")
        else:
            parts.append(format_move(board, move))
    return " ".join(parts)
