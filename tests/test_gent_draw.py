import math
import os
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from solver.gent import PASS, Board, ButtonMove, Position, TailorMove
from solver.gent.draw import layout, svg, text, write_svg_sequence

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def ghent():
    return Board.load("ghent17", "11-17-13-12")


@pytest.fixture(scope="module")
def cube():
    return Board.load("cube", "f3")


def classes(document):
    """Parse an SVG string; a count of its elements by class."""
    root = ET.fromstring(document)
    assert root.tag == SVG + "svg"
    counts = {}
    for el in root.iter():
        if "class" in el.attrib:
            counts[el.attrib["class"]] = counts.get(el.attrib["class"], 0) + 1
    return counts


def capture_move(position):
    return next(m for m in position.legal_moves() if isinstance(m, TailorMove)
                and m.capture is not None)


# ---- layout -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["ghent", "cube"])
def test_layout_outer_on_circle_inner_inside(name, request):
    board = request.getfixturevalue(name)
    coords = layout(board)
    assert len(coords) == len(board.graph.labels)
    outer = set(board.graph.faces[board.outer])
    for v, (x, y) in enumerate(coords):
        if v in outer:
            assert math.hypot(x, y) == pytest.approx(1.0)
        else:
            assert math.hypot(x, y) < 1 - 1e-6


def test_layout_is_barycentric_and_deterministic(ghent):
    g = ghent.graph
    coords = layout(ghent)
    assert coords == layout(ghent)
    outer = set(g.faces[ghent.outer])
    for v in range(len(g.labels)):
        if v not in outer:
            xs = [coords[w][0] for w in g.neighbours[v]]
            ys = [coords[w][1] for w in g.neighbours[v]]
            assert coords[v][0] == pytest.approx(sum(xs) / len(xs))
            assert coords[v][1] == pytest.approx(sum(ys) / len(ys))


def _orient(p, q, r):
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _segments_meet(p1, p2, q1, q2, eps=1e-9):
    """True if the closed segments touch or cross (collinear overlap included)."""
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and \
            ((d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)):
        return True

    def on_segment(a, b, c, d):
        return abs(d) <= eps and min(a[0], b[0]) - eps <= c[0] <= max(a[0], b[0]) + eps \
            and min(a[1], b[1]) - eps <= c[1] <= max(a[1], b[1]) + eps

    return (on_segment(q1, q2, p1, d1) or on_segment(q1, q2, p2, d2)
            or on_segment(p1, p2, q1, d3) or on_segment(p1, p2, q2, d4))


def test_segment_check_itself():
    assert _segments_meet((0, 0), (2, 2), (0, 2), (2, 0))
    assert _segments_meet((0, 0), (2, 0), (1, 0), (3, 0))
    assert not _segments_meet((0, 0), (1, 0), (0, 1), (1, 1))


def test_ghent_layout_is_a_plane_drawing(ghent):
    g = ghent.graph
    coords = layout(ghent)
    for (a, b), (c, d) in combinations(g.edges, 2):
        if {a, b} & {c, d}:
            continue
        assert not _segments_meet(coords[a], coords[b], coords[c], coords[d]), \
            f"{g.vertex_name(a)}-{g.vertex_name(b)} meets {g.vertex_name(c)}-{g.vertex_name(d)}"


# ---- svg --------------------------------------------------------------------------------
def test_svg_before_the_start(ghent):
    counts = classes(svg(Position.initial(ghent)))
    assert counts["button-free"] == len(ghent.inner_faces)
    assert counts["face-label"] == len(ghent.inner_faces)
    assert counts["vertex"] == len(ghent.graph.labels)
    assert counts["edge"] == len(ghent.graph.edges)
    for absent in ("thimble", "button-captured", "seam", "last-move", "title"):
        assert absent not in counts


def test_svg_counts_follow_the_game(ghent):
    p = Position.started(ghent, 0)
    counts = classes(svg(p))
    assert counts["thimble"] == 1
    assert counts["button-free"] == 16

    move = capture_move(p)
    q = p.play(move)
    counts = classes(svg(q, last_move=move))
    assert counts["button-free"] == 15
    assert counts["button-captured"] == 1
    assert counts["seam"] == 1
    assert counts["edge"] == len(ghent.graph.edges) - 1
    assert counts["last-move"] == 1
    assert counts["thimble"] == 1

    button = next(m for m in q.legal_moves() if isinstance(m, ButtonMove))
    r = q.play(button)
    counts = classes(svg(r, last_move=button))
    assert counts["button-free"] == 15
    assert counts["last-move"] == 1


def test_svg_thimble_and_caption(ghent):
    p = Position.started(ghent, 0)
    move = capture_move(p)
    q = p.play(move)
    root = ET.fromstring(svg(q, last_move=move))
    thimble = next(el for el in root.iter() if el.get("class") == "thimble")
    vertex_circles = [el for el in root.iter() if el.get("class") == "vertex"]
    target = vertex_circles[q.vertex]
    assert (thimble.get("cx"), thimble.get("cy")) == (target.get("cx"), target.get("cy"))
    caption = next(el for el in root.iter() if el.get("class") == "caption").text
    assert f"score {q.score}" in caption
    assert "Mr. Button" in caption


def test_svg_escapes_the_title(ghent):
    title = 'a <b> & "c"'
    root = ET.fromstring(svg(Position.started(ghent, 3), title=title))
    assert next(el for el in root.iter() if el.get("class") == "title").text == title


def test_svg_ignores_a_pass(cube):
    p = Position.started(cube, 0)
    q = p.play(p.legal_moves()[0]).play(PASS)
    assert "last-move" not in classes(svg(q, last_move=PASS))


# ---- text -------------------------------------------------------------------------------
def test_text_describes_the_position(ghent):
    g = ghent.graph
    p = Position.started(ghent, 0)
    move = capture_move(p)
    q = p.play(move)
    out = text(q)
    assert out == text(q)
    assert ghent.name in out
    assert f"thimble:  {g.vertex_name(q.vertex)}" in out
    assert f"score:    {q.score}" in out
    assert "Mr. Button" in out
    assert f"{g.vertex_name(move.src)}-{g.vertex_name(move.dst)}" in out
    assert f"{g.vertex_name(move.src)} (degree {g.degree[move.src]})" in out
    assert g.face_name(move.capture) not in out.split("free:")[1].splitlines()[0].split(", ")
    vertex_lines = out.split("vertices:\n")[1].splitlines()
    assert len(vertex_lines) == len(g.labels)
    assert vertex_lines[q.vertex].split()[-1] == "thimble"
    assert vertex_lines[move.src].split()[-1] == "button"


def test_text_before_the_start(cube):
    out = text(Position.initial(cube))
    assert "thimble:  -" in out
    assert "sewn:     none" in out


# ---- files ------------------------------------------------------------------------------
def test_write_svg_sequence(ghent, tmp_path):
    p = Position.started(ghent, 0)
    pairs = [(None, p)]
    for _ in range(3):
        move = p.legal_moves()[-1]
        p = p.play(move)
        pairs.append((move, p))
    out = tmp_path / "frames"
    paths = write_svg_sequence(pairs, str(out))
    assert [os.path.basename(x) for x in paths] == [f"ply-{k:03d}.svg" for k in range(4)]
    assert sorted(os.listdir(out)) == [f"ply-{k:03d}.svg" for k in range(4)]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            assert ET.fromstring(f.read()).tag == SVG + "svg"
    again = write_svg_sequence(pairs[:1], str(out), prefix="game")
    assert os.path.basename(again[0]) == "game-000.svg"
