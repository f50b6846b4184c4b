"""San Jego beyond the rectangle: graph boards (JSON, cube, hexagon, torus) and the heads
variant, each checked against the plain-Python rules."""

import itertools
import json
import random

import pytest

from sanjego_cli import cli, run
from solver._sanjego import Core
from solver.sanjego import reference
from solver.sanjego.board import Board, board_from_spec, board_spec, parse_board
from solver.sanjego.engine import Engine
from solver.sanjego.errors import IllegalMoveError
from solver.sanjego.graph import GraphBoard, GraphError, automorphisms, from_json
from solver.sanjego.heads import best_choices, head_table
from solver.sanjego.position import PASS, Position

RING6 = {"name": "ring6", "cells": ["a", "b", "c", "d", "e", "f"],
         "edges": [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"], ["f", "a"]]}


def rectangle_as_graph(w, h):
    b = Board(w, h)
    names = [b.name(i) for i in range(b.cells)]
    edges = [[names[x], names[y]] for x in range(b.cells) for y in b.neighbours[x] if x < y]
    return GraphBoard(f"r{w}x{h}", names, edges)


# ---- boards ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, cells, edges, automorphisms_, first", [
    ("cube1", 6, 12, 48, 3), ("cube2", 24, 48, 48, 12), ("cube3", 54, 108, 48, 27),
    ("hex2", 7, 12, 12, 4), ("hex3", 19, 42, 12, 11), ("torus4x4", 16, 32, 384, 8),
    ("torus5x3", 15, 30, 60, 8),
])
def test_builtin_boards(name, cells, edges, automorphisms_, first):
    board = parse_board(name)
    assert (board.cells, sum(map(len, board.neighbours)) // 2) == (cells, edges)
    assert board.automorphisms == automorphisms_
    assert board.owners.count(0) == first
    assert board.symmetries[0] == tuple(range(cells))
    assert 1 <= len(board.core_symmetries) <= 8
    for perm in board.core_symmetries:   # each an automorphism, and a group
        assert all(sorted(perm[d] for d in board.neighbours[c]) == sorted(board.neighbours[perm[c]])
                   for c in range(cells))
        for other in board.core_symmetries:
            assert tuple(perm[other[i]] for i in range(cells)) in board.core_symmetries


def test_cube_faces_meet_across_edges():
    cube = parse_board("cube3")
    centre = cube.cell("F5")
    assert {cube.name(c) for c in cube.neighbours[centre]} == {"F2", "F4", "F6", "F8"}
    # the top row of the front face touches the bottom row of the upper face
    assert cube.cell("U8") in cube.neighbours[cube.cell("F2")]
    assert all(len(nb) == 4 for nb in cube.neighbours)


def test_rectangle_automorphisms_are_its_symmetries():
    for w, h in ((3, 2), (4, 4), (5, 3)):
        assert sorted(automorphisms(Board(w, h).neighbours)) == sorted(Board(w, h).symmetries)


def test_json_round_trip(tmp_path):
    board = parse_board("hex2")
    path = tmp_path / "hex.json"
    path.write_text(json.dumps(board.to_json()))
    again = parse_board(str(path))
    assert again == board and str(again) == "hex2"
    assert board_from_spec(board_spec(board)) == board
    assert from_json(dict(RING6, comment="a note")) == from_json(RING6)
    ring = from_json(RING6)
    assert ring.owners == (0, 1, 0, 1, 0, 1)      # bipartite: coloured from the first cell
    assert board_spec(ring) == ring.to_json() and board_from_spec(ring.to_json()) == ring


@pytest.mark.parametrize("data, message", [
    ({"cells": ["a", "b"], "edges": [["a", "c"]]}, "unknown cell 'c'"),
    ({"cells": ["a", "b"], "edges": [["a", "a"]]}, "joins a cell to itself"),
    ({"cells": ["a", "A"], "edges": []}, "listed twice"),
    ({"cells": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"], ["c", "a"]]}, "not bipartite"),
    ({"cells": ["a-b"], "edges": []}, "bad cell name"),
    ({"cells": ["1.a"], "edges": []}, "bad cell name"),
    ({"cells": [f"a{i}" for i in range(20)] + [f"b{i}" for i in range(20)],
      "edges": [[f"a{i}", f"b{j}"] for i in range(20) for j in range(20)]}, "400 neighbour pairs"),
    ({"name": "5x4", "cells": ["a", "b"], "edges": [["a", "b"]]}, "is the rectangle's"),
    ({"name": "cube1", "cells": ["a", "b"], "edges": [["a", "b"]]}, "is a built-in board's"),
    ({"cells": ["a"], "edges": [], "layout": {"a": [float("nan"), 0]}}, "expected [x, y]"),
    ({"cells": ["a"], "edges": [], "layout": {"a": [1e400, 0]}}, "expected [x, y]"),
    ({"cells": [f"c{i}" for i in range(65)], "edges": []}, "at most 64"),
    ({"cells": ["a"], "edges": [], "colour": 1}, "unknown field"),
    ({"cells": ["a"], "edges": [], "layout": {"a": [0]}}, "expected [x, y]"),
    ({"cells": ["a", "b"], "edges": [["a", "b"]], "layout": {"a": [0, 0]}}, "lacks cell b"),
    ({"cells": "ab", "edges": []}, "needs a list 'cells'"),
    ({"cells": ["a"], "edges": [], "first": ["z"]}, "unknown cell 'z'"),
])
def test_bad_graph(data, message):
    with pytest.raises(GraphError, match=message.replace("[", r"\[").replace("]", r"\]")):
        from_json(data)


def test_bad_board_files_exit_2(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    loop = tmp_path / "loop.json"
    loop.write_text(json.dumps({"cells": ["a"], "edges": [["a", "a"]]}))
    for board, message in ((str(broken), "not valid JSON"), (str(loop), "joins a cell to itself"),
                           (str(tmp_path / "missing.json"), "cannot read board file"),
                           ("cube9", "bad board"), ("torus2x5", "at least 3 cells"), ("cube4", "at most 64")):
        r = run("solve", board)
        assert r.returncode == 2, board
        assert message in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


# ---- the C core on graphs ------------------------------------------------------------------
@pytest.mark.parametrize("w, h", [(3, 2), (4, 3), (5, 3), (4, 4)])
def test_rectangle_as_graph_matches_grid_core(w, h):
    graph, start = rectangle_as_graph(w, h), Position.start(Board(w, h))
    for measure in ("margin", "outcome"):
        grid = Core(w, h, measure, 1 << 22)
        other = Core(0, 0, measure, 1 << 22, graph=graph.core_geometry()["graph"])
        assert grid.solve(start.heights, start.owners, 0) == other.solve(start.heights, start.owners, 0)
    assert (Core(w, h).perft(start.heights, start.owners, 0, 4)
            == Core(0, 0, graph=graph.core_geometry()["graph"]).perft(start.heights, start.owners, 0, 4))


@pytest.mark.parametrize("name", ["cube1", "hex2", "torus3x3", "ring6"])
def test_graph_values_match_reference(name):
    board = from_json(RING6) if name == "ring6" else parse_board(name)
    start = Position.start(board)
    for measure in ("margin", "outcome"):
        expected = reference.solve(start, measure)
        assert Engine(board, measure, table_mb=4).value(start) == expected
        assert Engine(board, measure, table_mb=4, symmetry=False, seed=7).value(start) == expected


@pytest.mark.parametrize("name, depth", [("cube2", 3), ("hex3", 3), ("torus4x3", 4), ("cube1", 6)])
def test_graph_perft_matches_reference(name, depth):
    board = parse_board(name)
    start = Position.start(board)
    assert Engine(board, table_mb=1).perft(start, depth) == reference.perft(start, depth)


def test_graph_mid_game_positions_match_reference():
    rng = random.Random(5)
    for name in ("torus4x3", "hex3", "cube2"):
        board = parse_board(name)
        engine = Engine(board, table_mb=8)
        for _ in range(4):
            p = Position.start(board)
            while sum(1 for h in p.heights if h) > 9 and not p.is_over():
                p = p.play(rng.choice(p.legal_moves()))
            assert engine.value(p) == reference.solve(p)


def test_symmetry_off_agrees_on_a_torus():
    board = parse_board("torus4x3")
    start = Position.start(board)
    assert Engine(board, table_mb=4).value(start) == Engine(board, table_mb=4, symmetry=False, seed=3).value(start)


def test_a_plain_core_ignores_head_marks():
    start = Position.start(Board(3, 2))
    marked = [o | 2 for o in start.owners]
    plain = Core(3, 2)
    assert plain.solve(start.heights, marked, 0) == plain.solve(start.heights, start.owners, 0)


def test_bad_graph_reaches_the_core_refused():
    with pytest.raises(MemoryError):   # not symmetric: 0 lists 1, 1 does not list 0
        Core(0, 0, graph=((0b10, 0), (tuple(range(2)),)))
    with pytest.raises(MemoryError):   # a permutation that is no automorphism of the path a-b-c
        Core(0, 0, graph=((0b010, 0b101, 0b010), ((0, 1, 2), (1, 0, 2))))
    complete = tuple(((1 << 30) - 1) & ~(1 << c) for c in range(30))   # 435 pairs: too many moves
    with pytest.raises(MemoryError):
        Core(0, 0, graph=(complete, (tuple(range(30)),)))


# ---- heads ---------------------------------------------------------------------------------
def test_heads_rules():
    board = Board(3, 1)                              # A1 (first) B1 (second) C1 (first)
    p = Position.start(board).with_heads([board.cell("B1"), board.cell("A1")])
    assert p.heads == (0, 1)
    with pytest.raises(IllegalMoveError, match="carries a head"):
        p.play((2, 1))                               # C1 onto the head-tower B1
    # the first player's only tower that may move is the head A1 ... onto B1, a head: no move
    assert p.moves_of(0) == []
    assert p.must_pass()
    q = p.play(PASS)
    assert q.legal_moves() == [(1, 2)]               # B1 (head) onto C1; the head rides along
    r = q.play((1, 2))
    assert r.heads == (0, 2) and r.heights == (1, 0, 2)
    assert r.is_over() and r.margin() == -1


def test_two_stuck_heads_end_the_game():
    board = Board(2, 1)
    p = Position.start(board).with_heads([0, 1])
    assert p.is_over()
    assert Engine(board, heads=True, table_mb=1).value(p) == 0 == reference.solve(p)


def test_bad_heads(tmp_path):
    start = Position.start(Board(3, 2))
    with pytest.raises(IllegalMoveError, match="one head on one of his own towers"):
        start.with_heads([0, 2])                     # A1 and C1 both belong to the first player
    lonely = tmp_path / "lonely.json"
    lonely.write_text(json.dumps({"cells": ["a", "b"], "edges": [], "first": ["a", "b"]}))
    r = run("heads", str(lonely))
    assert r.returncode == 2 and "pieces of both players" in r.stderr
    for heads, message in (("A1", "give two cells"), ("A1,C1", "one of his own"), ("A1,Z9", "unknown cell")):
        r = run("solve", "3x2", "--heads", heads)
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("name", ["3x3", "4x2", "cube1", "hex2", "ring6"])
def test_heads_values_match_reference(name):
    board = from_json(RING6) if name == "ring6" else parse_board(name)
    start = Position.start(board)
    firsts = [c for c in range(board.cells) if start.owners[c] == 0]
    seconds = [c for c in range(board.cells) if start.owners[c] == 1]
    for measure in ("margin", "outcome"):
        engine = Engine(board, measure, table_mb=4, heads=True)
        for a, b in itertools.product(firsts, seconds):
            p = start.with_heads([a, b])
            assert engine.value(p) == reference.solve(p, measure), (board.name(a), board.name(b), measure)


def test_heads_mid_game_and_perft_match_reference():
    rng = random.Random(11)
    board = Board(4, 3)
    engine = Engine(board, table_mb=8, heads=True)
    for _ in range(12):
        start = Position.start(board)
        p = start.with_heads([rng.choice([c for c in range(12) if start.owners[c] == 0]),
                              rng.choice([c for c in range(12) if start.owners[c] == 1])])
        assert engine.perft(p, 3) == reference.perft(p, 3)
        for _ in range(rng.randrange(2, 6)):
            if p.is_over():
                break
            p = p.play(rng.choice(p.legal_moves()))
        assert engine.value(p) == reference.solve(p)


def test_head_table_and_choices():
    board = Board(3, 2)
    values, distinct, _ = head_table(board, table_mb=4)
    start = Position.start(board)
    for (a, b), v in values.items():
        assert v == reference.solve(start.with_heads([a, b]))
    assert distinct < len(values) == 9
    value, a, b = best_choices(values, True)
    assert value == max(min(values[x, y] for y in {y for _, y in values}) for x in {x for x, _ in values})
    assert values[a, b] == value


def test_heads_command_json():
    r = cli("heads", "3x2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["pairs"] == 9 and len(out["values"]) == 9
    board = Board(3, 2)
    values = {tuple(board.cell(n) for n in k.split(",")): v for k, v in out["values"].items()}
    assert out["value"] == out["first_places_first"]["value"] == best_choices(values, True)[0]
    assert out["second_places_first"]["value"] == best_choices(values, False)[0]
    assert out["plain_value"] == reference.solve(Position.start(board))


# ---- command line on graph boards -----------------------------------------------------------
def test_solve_line_show_on_a_json_board(tmp_path):
    path = tmp_path / "ring6.json"
    path.write_text(json.dumps(RING6))
    r = cli("solve", str(path), "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == reference.solve(Position.start(from_json(RING6)))
    r = cli("line", str(path), "--moves", "a-b")
    assert r.returncode == 0 and "01. ... " in r.stdout and "final" in r.stdout
    r = cli("show", str(path), "--moves", "a-b")
    assert r.returncode == 0 and "b:2a*" in r.stdout


def test_board_command(tmp_path):
    r = cli("board", "cube2")
    assert r.returncode == 0 and "24 cells" in r.stdout and "48 automorphisms" in r.stdout
    r = cli("board", "5x4", "--json")
    data = json.loads(r.stdout)
    board = from_json(data)
    assert str(board) == "grid5x4"
    path = tmp_path / "board-file"          # any file name, with or without .json
    path.write_text(r.stdout)
    assert parse_board(str(path)) == board
    assert board.cells == 20 and board.owners == tuple(Board(5, 4).start_owner(c) for c in range(20))
    assert sorted(board.symmetries) == sorted(Board(5, 4).symmetries)
    r = cli("board", "--help")  # names every built-in board, not only "Built-in examples:"
    text = " ".join(r.stdout.split())
    assert r.returncode == 0 and all(f"{name}:" in text for name in ("cube1, cube2, cube3", "hex2 .. hex5", "torusWxH"))
    r = cli("series", "cube1", "--json")  # every command takes every board
    assert r.returncode == 0 and json.loads(r.stdout)["board"] == "cube1"


def test_svg_of_a_graph_board_with_heads(tmp_path):
    r = cli("show", "hex2", "--heads", "B1,A2", "--moves", "B3-C2 A2-B2", "--svg", str(tmp_path / "pics"))
    assert r.returncode == 0, r.stderr
    second = (tmp_path / "pics" / "002.svg").read_text()
    assert 'class="head"' in second and 'class="last-move"' in second
    assert "B2:2B*" in r.stdout          # the second player's head rode onto B2
    r = cli("show", "hex2", "--heads", "A2,B1", "--moves", "B3-C2 A2-B2", "--json")
    assert json.loads(r.stdout)["heads"] == ["B1", "B2"]


def test_parallel_run_on_a_graph_board_with_heads(tmp_path):
    run_dir = tmp_path / "run"
    r = cli("solve", "torus4x3", "--heads", "A1,B1", "--workers", "2", "--run", str(run_dir), "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    board = parse_board("torus4x3")
    p = Position.start(board).with_heads([board.cell("A1"), board.cell("B1")])
    assert json.loads(r.stdout)["value"] == Engine(board, heads=True, table_mb=4).value(p)
    r = cli("status", str(run_dir), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["board"] == "torus4x3"
    assert json.loads(r.stdout)["heads"] == ["A1", "B1"]
    r = cli("solve", "torus4x3", "--workers", "2", "--run", str(run_dir), "--resume")
    assert r.returncode == 2 and "heads" in r.stderr     # the run was started with heads
    r = cli("solve", "torus4x3", "--heads", "B1,A1", "--workers", "2", "--run", str(run_dir), "--resume",
            "--json", "--quiet")
    assert r.returncode == 0, r.stderr                   # the same heads, typed the other way round


def test_heads_record_and_results_readme(tmp_path):
    out = tmp_path / "sanjego"
    r = cli("heads", "4x2", "--record", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    record = json.loads((out / "heads" / "4x2-margin.json").read_text())
    board = Board(4, 2)
    start = Position.start(board)
    values = {(a, b): reference.solve(start.with_heads([a, b]))
              for a in range(8) for b in range(8) if start.owners[a] == 0 and start.owners[b] == 1}
    assert record["value"] == best_choices(values, True)[0]
    assert record["provenance"]["command"].startswith("python -m solver")
    assert record["verify"]["agreed"] and record["verify"]["nodes"] > 0
    readme = (tmp_path / "README.md").read_text()
    assert "## San Jego, heads variant" in readme and "| 4x2 | margin |" in readme


def test_heads_record_reports_a_disagreement_as_failed(monkeypatch, tmp_path):
    from solver.sanjego import heads

    def disagree(*args, **kwargs):
        raise heads.VerificationError("heads A1,B1: +1 by the first solve, +2 by the second")

    monkeypatch.setattr(heads, "analyse", disagree)
    r = cli("heads", "3x2", "--record", "--out", str(tmp_path))
    assert r.returncode == 1 and r.stderr.startswith("verification FAILED: heads A1,B1")
    assert not list(tmp_path.iterdir())
