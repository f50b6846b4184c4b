"""Pictures of San Jego positions: an SVG drawing and a text picture for a terminal.

    svg(position, last_move, title)        a standalone SVG document, as a string
    text(position, last_move)              rows top to bottom, like Position.__str__, with
                                           the last move marked
    game_frames(board, moves)              (ply, move, position) from the start, one per ply
    write_svg_sequence(frames, directory)  000.svg, 001.svg, ... and index.html, atomically

Towers are drawn as bricks in the owner's colour (first player yellow, second green, as in
the photos of the original) with their height written on them; a tower of height h shows
min(h, 8) - 1 grey layers under its top brick. The last move is an arrow from the vacated
cell to the tower it landed on, both cells outlined in orange. Columns A, B, ... run along
the bottom, rows 1, 2, ... up the left side.

SVG elements carry one class each so that tools and tests can find them: "cell", "tower",
"tower-layer", "height", "head", "coordinate", "last-from", "last-to", "last-move", "title",
"caption" and "status".
"""

import html
import os
import re
import xml.etree.ElementTree as ET

from ..checkpoint import atomic_write
from ..svg import element as _add, number as _num
from .board import column_name
from .notation import format_move
from .position import EMPTY, OUTCOME_NAMES, PASS, PLAYER_NAMES, Position

SVG_NS = "http://www.w3.org/2000/svg"
CELL = 64
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 36, 16, 44, 76
BRICK = 42
MIN_WIDTH = 460  # room for the caption under small boards
LAYER_OFFSET = 2.5
MAX_LAYERS = 8

OWNER_FILL = ("#f2c200", "#2f9e5b")      # first player yellow, second green
OWNER_STROKE = ("#8a6d00", "#1b5e36")
OWNER_TEXT = ("#222222", "#ffffff")
OWNER_COLOUR_NAMES = ("yellow", "green")
LAYER_FILL = "#b8b8b8"
LAYER_STROKE = "#7a7a7a"
BOARD_FILL = ("#e9e4d8", "#ded7c6")     # faint chequer, the starting colours' pattern
HIGHLIGHT = "#e8590c"
TEXT_COLOUR = "#222222"
BACKGROUND = "#fbf8f1"

PICTURE_NAME = re.compile(r"^[0-9]{3,}\.svg$")


def size(board):
    """(width, height) of the picture in pixels."""
    return (max(MIN_WIDTH, MARGIN_LEFT + board.width * CELL + MARGIN_RIGHT),
            MARGIN_TOP + board.height * CELL + MARGIN_BOTTOM)


def _left(board):
    """x of the board's left edge: the board is centred in the picture."""
    return MARGIN_LEFT + (size(board)[0] - (MARGIN_LEFT + board.width * CELL + MARGIN_RIGHT)) / 2


def cell_centre(board, cell):
    """Pixel centre of a cell; row 1 (y = 0) at the bottom."""
    x, y = board.place(cell)
    return (_left(board) + (x + 0.5) * CELL, MARGIN_TOP + (board.height - y - 0.5) * CELL)


def side_to_move(position):
    if position.is_over():
        return "game over"
    mover = PLAYER_NAMES[position.side]
    return f"{mover} to move" + (" (must pass)" if position.must_pass() else "")


def move_text(position_before, move):
    """'C1-D1 by the second player' or 'the first player passes'."""
    if move is PASS:
        return f"the {PLAYER_NAMES[position_before.side]} passes"
    return f"{format_move(position_before.board, move)} by the {PLAYER_NAMES[position_before.side]}"


def status_line(position):
    """Tallest towers and, at the end, the result."""
    a, b = position.towers(0), position.towers(1)
    towers = (f"{OWNER_COLOUR_NAMES[0]} {' '.join(map(str, a)) or '-'}; "
              f"{OWNER_COLOUR_NAMES[1]} {' '.join(map(str, b)) or '-'}")
    if position.is_over():
        margin = position.margin()
        return (f"final {position.tallest(0)}-{position.tallest(1)}, margin "
                f"{f'{margin:+d}' if margin else '0'}, {OUTCOME_NAMES[position.outcome()]} | "
                f"towers: {towers}")
    return f"towers: {towers}"


def _arrow_marker(root):
    defs = _add(root, "defs")
    marker = _add(defs, "marker", id="arrow", viewBox="0 0 10 10", refX=8, refY=5,
                  markerWidth=5, markerHeight=5, orient="auto-start-reverse")
    _add(marker, "path", d="M 0 0 L 10 5 L 0 10 z", fill=HIGHLIGHT)


def _draw_board(root, board):
    group = _add(root, "g", class_="board")
    for i in range(board.cells):
        x, y = cell_centre(board, i)
        _add(group, "rect", class_="cell", x=_num(x - CELL / 2), y=_num(y - CELL / 2), width=CELL,
             height=CELL, fill=BOARD_FILL[board.start_owner(i)], stroke="#c9c1ad", stroke_width=1)
    labels = _add(root, "g", class_="coordinates")
    if not board.is_grid:
        for i in range(board.cells):
            x, y = cell_centre(board, i)
            _add(labels, "text", board.name(i), class_="coordinate", x=_num(x - CELL / 2 + 3),
                 y=_num(y - CELL / 2 + 11), fill=TEXT_COLOUR, font_size=10, font_family="sans-serif")
        return
    bottom = MARGIN_TOP + board.height * CELL
    for c in range(board.width):
        _add(labels, "text", column_name(c), class_="coordinate", x=_num(_left(board) + (c + 0.5) * CELL),
             y=_num(bottom + 18), fill=TEXT_COLOUR, font_size=14, font_family="sans-serif",
             text_anchor="middle")
    for r in range(board.height):
        _add(labels, "text", str(r + 1), class_="coordinate", x=_num(_left(board) - 10),
             y=_num(MARGIN_TOP + (board.height - r - 0.5) * CELL + 5), fill=TEXT_COLOUR, font_size=14,
             font_family="sans-serif", text_anchor="end")


def _draw_towers(root, position):
    board = position.board
    group = _add(root, "g", class_="towers")
    for i in range(board.cells):
        h, owner = position.heights[i], position.owners[i]
        if not h or owner == EMPTY:
            continue
        x, y = cell_centre(board, i)
        layers = min(h, MAX_LAYERS) - 1
        # Layers below the top brick, drawn from the bottom up, each shifted up and right.
        base_x = x - BRICK / 2 - layers * LAYER_OFFSET / 2
        base_y = y - BRICK / 2 + layers * LAYER_OFFSET / 2
        tower = _add(group, "g", class_="tower", data_cell=board.name(i), data_height=h,
                     data_owner="first" if owner == 0 else "second")
        for k in range(layers):
            _add(tower, "rect", class_="tower-layer", x=_num(base_x + k * LAYER_OFFSET),
                 y=_num(base_y - k * LAYER_OFFSET), width=BRICK, height=BRICK, rx=5,
                 fill=LAYER_FILL, stroke=LAYER_STROKE, stroke_width=1)
        tx, ty = base_x + layers * LAYER_OFFSET, base_y - layers * LAYER_OFFSET
        _add(tower, "rect", x=_num(tx), y=_num(ty), width=BRICK, height=BRICK, rx=5,
             fill=OWNER_FILL[owner], stroke=OWNER_STROKE[owner], stroke_width=1.5)
        _add(tower, "text", str(h), class_="height", x=_num(tx + BRICK / 2), y=_num(ty + BRICK / 2 + 7),
             fill=OWNER_TEXT[owner], font_size=20, font_weight="bold", font_family="sans-serif",
             text_anchor="middle")
        if i in position.heads:
            _add(tower, "circle", class_="head", cx=_num(tx + BRICK / 2), cy=_num(ty + 2), r=7,
                 fill="#c92a2a", stroke="#ffffff", stroke_width=1.5)


def _draw_last_move(root, board, move):
    if move is None or move is PASS:
        return
    f, t = move
    group = _add(root, "g", class_="last")
    for cell, cls, dash in ((f, "last-from", "5 4"), (t, "last-to", None)):
        x, y = cell_centre(board, cell)
        attrs = {"stroke_dasharray": dash} if dash else {}
        _add(group, "rect", class_=cls, x=_num(x - CELL / 2 + 2), y=_num(y - CELL / 2 + 2),
             width=CELL - 4, height=CELL - 4, fill="none", stroke=HIGHLIGHT, stroke_width=3, **attrs)
    (x1, y1), (x2, y2) = cell_centre(board, f), cell_centre(board, t)
    # From the vacated cell's centre to the edge of the brick it landed on.
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    stop = BRICK / 2 + 4
    _add(group, "line", class_="last-move", x1=_num(x1), y1=_num(y1), x2=_num(x2 - dx * stop),
         y2=_num(y2 - dy * stop), stroke=HIGHLIGHT, stroke_width=4, stroke_linecap="round",
         marker_end="url(#arrow)")


def svg(position, last_move=None, title=None, caption=None):
    """A standalone SVG document drawing `position`. `last_move` (from, to) is marked;
    a pass or None marks nothing. `caption` defaults to the side to move."""
    board = position.board
    width, height = size(board)
    root = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                              "viewBox": f"0 0 {width} {height}"})
    _arrow_marker(root)
    _add(root, "rect", x=0, y=0, width=width, height=height, fill=BACKGROUND)
    _add(root, "text", str(title if title is not None else f"San Jego {board}"), class_="title",
         x=_num(width / 2), y=26, fill=TEXT_COLOUR, font_size=16, font_family="sans-serif",
         text_anchor="middle")
    _draw_board(root, board)
    _draw_towers(root, position)
    _draw_last_move(root, board, last_move)
    bottom = MARGIN_TOP + board.height * CELL
    _add(root, "text", caption if caption is not None else side_to_move(position), class_="caption",
         x=_num(width / 2), y=_num(bottom + 42), fill=TEXT_COLOUR, font_size=13, font_family="sans-serif",
         text_anchor="middle")
    _add(root, "text", status_line(position), class_="status", x=_num(width / 2), y=_num(bottom + 62),
         fill=TEXT_COLOUR, font_size=11, font_family="sans-serif", text_anchor="middle")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"


# ---- text ---------------------------------------------------------------------------------
def text(position, last_move=None):
    """Rows top to bottom; a tower as height and owner letter (a: first player, b: second),
    "." an empty cell; the last move's target is marked "*", its vacated cell "o"."""
    board = position.board
    f, t = (None, None) if last_move is None or last_move is PASS else last_move
    if not board.is_grid:
        return _graph_text(position, f, t)
    lines = []
    for r in reversed(range(board.height)):
        row = []
        for c in range(board.width):
            i = c + r * board.width
            if position.heights[i]:
                cell = f"{position.heights[i]}{position.owner_letter(i)}" + ("*" if i == t else " ")
            else:
                cell = ("o" if i == f else ".") + " "
            row.append(f"{cell:>5}")
        lines.append(f"{r + 1:>3}" + "".join(row))
    lines.append("   " + "".join(f"{column_name(c):>4} " for c in range(board.width)))
    return "\n".join(lines)


def _graph_text(position, f, t):
    """A graph board as its layout: each cell as NAME:tower, rows top to bottom."""
    board = position.board
    width = max(len(n) for n in board.names) + 6
    rows = {}
    for i in range(board.cells):
        x, y = board.place(i)
        if position.heights[i]:
            tower = f"{position.heights[i]}{position.owner_letter(i)}" + ("*" if i == t else "")
        else:
            tower = "o" if i == f else "."
        rows.setdefault(y, []).append((round(x * width), f"{board.name(i)}:{tower}"))
    lines = []
    for y in sorted(rows, reverse=True):
        line = ""
        for column, token in sorted(rows[y]):
            line = line.ljust(column) + " " + token if line else " " * column + " " + token
        lines.append(line.rstrip())
    return "\n".join(lines)


def legend():
    return ("a = first player (yellow), b = second player (green), A / B a head-tower; number = tower "
            "height; * = tower the last move landed on, o = cell it left")


# ---- sequences ----------------------------------------------------------------------------
def game_frames(board, moves, start=None):
    """[(ply, move, position before the move, position)] from `start` (default the start
    position): ply 0 with move None, then one per move of `moves` (passes included)."""
    position = start if start is not None else Position.start(board)
    frames = [(0, None, None, position)]
    for k, move in enumerate(moves, 1):
        before, position = position, position.play(move)
        frames.append((k, move, before, position))
    return frames


def frame_title(board, ply, move, before):
    if ply == 0:
        return f"San Jego {board}: start"
    number = f"{(ply - 1) // 2 + 1:02d}." + ("" if (ply - 1) % 2 == 0 else " ...")
    played = format_move(board, move) + (f" ({PLAYER_NAMES[before.side]} passes)" if move is PASS else "")
    return f"San Jego {board}, ply {ply}: {number} {played}"


def write_svg_sequence(frames, directory, heading=None, line_from=None):
    """Write DIR/000.svg, 001.svg, ... (one per frame of game_frames) and DIR/index.html
    showing them in order; numbered pictures left over from a longer sequence are removed.
    Plies after `line_from` are captioned as an optimal continuation. Returns the paths of
    the pictures."""
    os.makedirs(directory, exist_ok=True)
    paths, names = [], []
    for ply, move, before, position in frames:
        name = f"{ply:03d}.svg"
        board = position.board
        title = frame_title(board, ply, move, before)
        caption = side_to_move(position)
        if line_from is not None and ply > line_from:
            caption = f"optimal continuation; {caption}"
        document = svg(position, last_move=move, title=title, caption=caption)
        atomic_write(os.path.join(directory, name), document.encode())
        paths.append(os.path.join(directory, name))
        names.append((name, title, caption))
    keep = {n for n, _, _ in names}
    for entry in os.listdir(directory):
        if PICTURE_NAME.match(entry) and entry not in keep:
            os.unlink(os.path.join(directory, entry))
    atomic_write(os.path.join(directory, "index.html"), index_html(names, heading).encode())
    return paths


def index_html(names, heading=None):
    """A page showing the pictures in order; `names` holds (file, title, note) triples."""
    heading = heading or "San Jego"
    e = html.escape
    figures = "\n".join(
        f'<figure id="p{k}"><img src="{e(name)}" alt="{e(title)}"/>'
        f"<figcaption>{e(title)}; {e(note)}</figcaption></figure>"
        for k, (name, title, note) in enumerate(names))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>{e(heading)}</title>
<style>
body {{ font-family: sans-serif; background: {BACKGROUND}; margin: 1em 2em; }}
figure {{ display: inline-block; margin: 0 1em 1.5em 0; vertical-align: top; }}
figcaption {{ font-size: 0.9em; max-width: 30em; }}
</style>
</head>
<body>
<h1>{e(heading)}</h1>
<p>{len(names)} pictures, one per ply, in order of play.</p>
{figures}
</body>
</html>
"""
