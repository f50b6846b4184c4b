"""Notation for Las Torres de Serans.

    a1 .. d4    cells: column letter, row number; row 1 is the top row
    3>  3<      row 3 slides right / left
    b^  bv      column b slides up / down
    3>b^        a turn: row 3 right, then column b up (in the order played)
    -           a pass (only when the rules leave no move)
    Y@b2  @b2   a set-up placement: a piece of colour Y on b2 (the colour may be left out when
                the placer holds one colour only)

Players (and their colours) are Y (yellow, first), B (blue), R (red), G (green). A game is its
moves separated by spaces; numbers like "1." are ignored.
"""

import re

from .errors import IllegalMoveError, NotationError
from .rules import COL, ROW, LineMove, Placement

COLOURS = "YBRG"
COLOUR_NAMES = ("yellow", "blue", "red", "green")
_LINE = re.compile(r"([1-9][0-9]?)([<>])|([a-z])([\^v])")
_PLACE = re.compile(r"^([A-Za-z])?@([a-z])([1-9][0-9]?)$")
_NUMBER = re.compile(r"^\d+\.+$")


def cell_name(n, cell):
    return f"{chr(ord('a') + cell % n)}{cell // n + 1}"


def parse_cell(n, text):
    m = re.fullmatch(r"([a-z])([1-9][0-9]?)", text.strip().lower())
    if not m:
        raise NotationError(f"cannot read cell {text!r} (examples: a1, d4)")
    c, r = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if not (0 <= c < n and 0 <= r < n):
        raise NotationError(f"cell {text!r} is off the {n}x{n} board")
    return r * n + c


def format_line_move(m):
    if m.kind == ROW:
        return f"{m.index + 1}{'>' if m.forward else '<'}"
    return f"{chr(ord('a') + m.index)}{'v' if m.forward else '^'}"


def format_move(n, move):
    if isinstance(move, Placement):
        return f"{COLOURS[move.colour]}@{cell_name(n, move.cell)}"
    if not move:
        return "-"
    return "".join(format_line_move(m) for m in move)


def format_game(n, moves):
    return " ".join(format_move(n, m) for m in moves)


def parse_turn(n, text):
    t = text.strip()
    if t == "-":
        return ()
    moves, pos = [], 0
    while pos < len(t):
        m = _LINE.match(t, pos)
        if not m:
            raise NotationError(f"cannot read turn {text!r} (examples: 3>b^, bv2<, 4>, -)")
        if m.group(1):
            idx = int(m.group(1)) - 1
            moves.append(LineMove(ROW, idx, m.group(2) == ">"))
        else:
            idx = ord(m.group(3)) - ord("a")
            moves.append(LineMove(COL, idx, m.group(4) == "v"))
        if not 0 <= idx < n:
            raise NotationError(f"{text!r}: line off the {n}x{n} board")
        pos = m.end()
    if len(moves) > 2 or (len(moves) == 2 and moves[0].kind == moves[1].kind):
        raise NotationError(f"{text!r}: a turn is one row move and one column move")
    return tuple(moves)


def parse_move(position, text):
    n = position.rules.size
    t = text.strip()
    m = _PLACE.match(t)
    if m:
        cell = parse_cell(n, m.group(2) + m.group(3))
        if m.group(1):
            letter = m.group(1).upper()
            if letter not in COLOURS[:position.rules.players]:
                raise NotationError(f"{text!r}: no colour {letter} in a {position.rules.players}-player game")
            colour = COLOURS.index(letter)
        else:
            hand = set(position.hands[position.to_move])
            if len(hand) != 1:
                raise NotationError(f"{text!r}: say which colour to place "
                                    f"({', '.join(COLOURS[c] for c in sorted(hand)) or 'none held'})")
            colour = hand.pop()
        return Placement(colour, cell)
    return parse_turn(n, t)


def tokenize(text):
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t and not _NUMBER.match(t)]


def replay(position, text):
    """[(move, position after)] for the game text played from `position`."""
    out = []
    for tok in tokenize(text):
        move = parse_move(position, tok)
        try:
            position = position.play(move)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"move {len(out) + 1} ({tok}): {e}") from None
        out.append((move, position))
    return out


def board_text(position):
    """The board as text: each hole shows its tower bottom-to-top (e.g. BY = blue under yellow),
    the tower's owner is the last letter."""
    n = position.rules.size
    cells = ["".join(COLOURS[p] for p in s) or "." for s in position.board]
    w = max(3, max(len(c) for c in cells) + 1)
    lines = ["   " + "".join(chr(ord("a") + c).rjust(w) for c in range(n))]
    for r in range(n):
        lines.append(f"{r + 1:>2} " + "".join(cells[r * n + c].rjust(w) for c in range(n)))
    return "\n".join(lines)


def parse_board(rules, text):
    """A board from rows separated by '/', holes separated by spaces or commas, each hole '.'
    or its stack bottom-to-top in colour letters: 'Y . BY ./. . . ./...'."""
    n = rules.size
    rows = [r for r in text.strip().split("/")]
    if len(rows) != n:
        raise NotationError(f"board needs {n} rows separated by '/', got {len(rows)}")
    board = []
    for r in rows:
        holes = [h for h in re.split(r"[\s,]+", r.strip()) if h]
        if len(holes) != n:
            raise NotationError(f"board row {r!r} needs {n} holes")
        for h in holes:
            if h == ".":
                board.append(())
                continue
            try:
                stack = tuple(COLOURS.index(ch) for ch in h.upper())
            except ValueError:
                raise NotationError(f"hole {h!r}: colours are {COLOURS[:rules.players]}") from None
            if any(p >= rules.players for p in stack):
                raise NotationError(f"hole {h!r}: colours are {COLOURS[:rules.players]}")
            # With the end checked after every move no tower passes the target; after each
            # turn one can pass it by one level.
            if len(stack) > rules.target + (rules.end_check == "turn"):
                raise NotationError(f"hole {h!r} is taller than the game allows")
            board.append(stack)
    return tuple(board)
