"""The Tailor of Ghent: graphs, rules, notation, the C core against the reference, the CLI."""

import json
import random
import subprocess
import sys

import pytest
from conftest import DATA, data_lines

from solver.gent import reference
from solver.gent.board import Board, PlaneGraph, load_graph
from solver.gent.engine import Engine
from solver.gent.errors import GraphError, IllegalMoveError, NotationError
from solver.gent.notation import format_game, format_move, parse_move, replay
from solver.gent.position import BUTTON, PASS, TAILOR, ButtonMove, Position, Start, TailorMove
from solver.checkpoint import Journal
from solver.gent.run import BoardRun

CUBE_EDGES = [[1, 2], [2, 3], [3, 4], [4, 1], [5, 6], [6, 7], [7, 8], [8, 5],
              [1, 5], [2, 6], [3, 7], [4, 8]]
CUBE_FACES = [[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 6, 5], [2, 3, 7, 6], [3, 4, 8, 7], [4, 1, 5, 8]]


def graph_source(name):
    return str(DATA / name) if name.endswith(".json") else name


# ---- graphs -------------------------------------------------------------------------------
@pytest.mark.parametrize("name,v,e,f,auts", [
    ("schneider17", 17, 32, 17, 2), ("ghent17", 17, 32, 17, 2), ("cube", 8, 12, 6, 48),
    ("prism", 6, 9, 5, 12), ("octahedron", 6, 12, 8, 48)])
def test_builtin_graphs(name, v, e, f, auts):
    g = load_graph(name)
    assert (len(g.labels), len(g.edges), len(g.faces), len(g.automorphisms())) == (v, e, f, auts)


@pytest.mark.parametrize("name", ["schneider17", "ghent17"])
def test_alternating_plane_graphs(name):
    # The rules page: no two adjacent vertices of equal degree, no two faces sharing an edge of
    # equal size; eight each of size 3, five of 4, four of 5; five quadrilaterals in three
    # classes of outer-face choice.
    g = load_graph(name)
    assert all(g.degree[i] != g.degree[j] for i, j in g.edges)
    assert all(len(g.faces[a]) != len(g.faces[b]) for a, b in g.edge_faces)
    assert sorted(g.degree).count(3) == 8 and sorted(g.degree).count(4) == 5
    quads = [f for f in range(len(g.faces)) if len(g.faces[f]) == 4]
    assert len(quads) == 5 and len(g.face_classes(quads)) == 3


def test_outer_face_by_cycle_in_any_rotation_or_direction():
    g = load_graph("ghent17")
    f = g.face_of_cycle("11-17-13-12")
    assert g.face_of_cycle("13-12-11-17") == f == g.face_of_cycle("12-13-17-11") == g.parse_face("f16")
    board = Board(g, "17-11-12-13")
    assert board.outer == f and len(board.symmetries) == 2 and len(board.start_classes()) == 9
    assert len(board.inner_faces) == 16


@pytest.mark.parametrize("edges,faces,message", [
    ([[1, 2], [2, 3]], [[1, 2, 3]], "not an edge"),
    ([[1, 2], [2, 3], [3, 1], [1, 2]], [[1, 2, 3], [1, 2, 3]], "listed twice"),
    ([[1, 1]], [[1, 1, 1]], "loop"),
    ([[1, 2], [2, 3], [3, 1]], [[1, 2, 3]], "exactly two"),
    ([[1, 2], [2, 3], [3, 1], [4, 5], [5, 6], [6, 4]], [[1, 2, 3], [1, 2, 3], [4, 5, 6], [4, 5, 6]],
     "not connected"),
    (CUBE_EDGES, CUBE_FACES[:5] + [[4, 1, 5, 8], [1, 2, 3, 4]], "exactly two"),
    ("x", CUBE_FACES, "non-empty list"),
    ([[1, "a"]], CUBE_FACES, "pair of integers"),
    (CUBE_EDGES, [[1, 2]], "at least 3"),
    (CUBE_EDGES, CUBE_FACES[:5] + [[4, 1, 9, 8]], "on no edge"),
    ([[-1, 2], [2, 3], [3, -1]], [[-1, 2, 3], [3, 2, -1]], "negative vertex label"),
])
def test_bad_graphs_are_refused(edges, faces, message):
    with pytest.raises(GraphError, match=message):
        PlaneGraph("bad", edges, faces)


def test_euler_formula_is_checked():
    # A 3x3 grid on the torus: every edge on two faces and every vertex's faces in one cycle,
    # but V - E + F = 9 - 18 + 9 = 0.
    def label(i, j):
        return 3 * (i % 3) + j % 3 + 1
    edges = [[label(i, j), label(i, j + 1)] for i in range(3) for j in range(3)]
    edges += [[label(i, j), label(i + 1, j)] for i in range(3) for j in range(3)]
    faces = [[label(i, j), label(i, j + 1), label(i + 1, j + 1), label(i + 1, j)]
             for i in range(3) for j in range(3)]
    with pytest.raises(GraphError, match="V - E \\+ F"):
        PlaneGraph("torus", edges, faces)


def test_rotation_is_checked_against_faces():
    g = json.loads((DATA / "gent" / "wheel5.json").read_text())
    PlaneGraph("wheel", g["edges"], g["faces"], g["rotation_clockwise"])
    bad = dict(g["rotation_clockwise"], **{"6": [1, 3, 2, 4, 5]})
    with pytest.raises(GraphError, match="rotation"):
        PlaneGraph("wheel", g["edges"], g["faces"], bad)


def test_graph_file_errors(tmp_path):
    with pytest.raises(GraphError, match="no graph file"):
        load_graph(str(tmp_path / "missing.json"))
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(GraphError, match="not JSON"):
        load_graph(str(tmp_path / "x.json"))
    (tmp_path / "two.json").write_text(json.dumps({"a": {"edges": CUBE_EDGES, "faces": CUBE_FACES},
                                                   "b": {"edges": CUBE_EDGES, "faces": CUBE_FACES}}))
    with pytest.raises(GraphError, match="several graphs"):
        load_graph(str(tmp_path / "two.json"))
    assert len(load_graph(str(tmp_path / "two.json") + "#b").labels) == 8
    with pytest.raises(GraphError, match="is not a face"):
        Board(load_graph("cube"), "1-2-3-5")


# ---- rules --------------------------------------------------------------------------------
def cube():
    return Board.load("cube", "1-2-3-4")


def test_opening_and_capture_scoring():
    b = cube()
    p = Position.initial(b)
    assert p.to_move == BUTTON and len(p.legal_moves()) == 8
    p = p.play(Start(0))
    assert p.to_move == TAILOR and p.score == 0
    # Vertex 1 (index 0): edges to 2, 4, 5; the edge 1-2 lies on the outer face and f3.
    assert TailorMove(0, 1, 2) in p.legal_moves() and TailorMove(0, 1, 0) not in p.legal_moves()
    q = p.play(TailorMove(0, 1, 2))
    assert q.score == 3 and q.captured == 1 and not q.free >> 2 & 1 and q.vertex == 1
    # Mr. Button can now move a button into the emptied face f3.
    assert ButtonMove(3, 2) in q.legal_moves() and PASS in q.legal_moves()
    r = q.play(ButtonMove(3, 2))
    assert r.free >> 2 & 1 and not r.free >> 3 & 1
    # The thimble cannot go back onto vertex 1 (it holds a button) nor reuse the sewn edge.
    assert all(m.dst != 0 for m in r.legal_moves())


def test_no_button_enters_the_outer_face():
    b = cube()
    p = Position.started(b, 0).play(TailorMove(0, 1, 2))
    assert all(not (isinstance(m, ButtonMove) and m.dst == b.outer) for m in p.legal_moves())
    with pytest.raises(IllegalMoveError, match="outer face"):
        p.play(ButtonMove(3, b.outer))


def test_game_ends_when_the_tailor_is_stuck():
    b = Board.load("prism", "1-2-5-4")
    p = Position.started(b, 0)
    rng = random.Random(5)
    while not p.is_over():
        p = p.play(rng.choice(p.legal_moves()))
    assert p.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        p.play(PASS)


@pytest.mark.parametrize("move,message", [
    (TailorMove(0, 6), "not an edge"), (TailorMove(1, 2), "thimble is on"),
    (TailorMove(0, 1, 3), "not beside"), (ButtonMove(2, 3), "Tailor is to move"), (Start(1), "already")])
def test_illegal_moves(move, message):
    p = Position.started(cube(), 0)
    with pytest.raises(IllegalMoveError, match=message):
        p.play(move)


# ---- notation -----------------------------------------------------------------------------
def test_notation_round_trip():
    b = Board.load("ghent17", "11-17-13-12")
    for text in ["@7", "7-14", "7-14 x12", "f3>f5", "-"]:
        assert format_move(b, parse_move(b, text)) == text
    assert parse_move(b, "7-14x12") == parse_move(b, "7-14 xf12")
    for bad in ["7=14", "f99>f1", "@99", "7-14x", "7-14 x99"]:
        with pytest.raises(NotationError):
            parse_move(b, bad)
    with pytest.raises(NotationError, match="does not follow"):
        replay(Position.initial(b), "@7 x12")


def test_replay_fills_forced_passes_and_numbers_games():
    b = cube()
    played = replay(Position.initial(b), "@1 1. 1-2 2. 2-3 x4")
    moves = [m for m, _ in played]
    assert moves == [Start(0), TailorMove(0, 1), PASS, TailorMove(1, 2, 3)]
    assert format_game(b, moves) == "@1 1. 1-2 - 2. 2-3 x4"
    assert played[-1][1].score == 3
    with pytest.raises(IllegalMoveError, match="move 2"):
        replay(Position.initial(b), "@1 1-2 2-1")


# ---- the C core against the reference ------------------------------------------------------
def _value_cases():
    return data_lines("gent_values.txt")


def test_core_values_match_the_reference_data():
    boards, engines = {}, {}
    cases = _value_cases()
    assert len(cases) > 200
    for name, outer, vertex, sewn, free, captured, side, value in cases:
        key = (name, outer)
        if key not in boards:
            boards[key] = Board(load_graph(graph_source(name)), outer)
            engines[key] = Engine(boards[key], table_mb=4)
        b = boards[key]
        p = Position(b, b.graph.parse_vertex(vertex), int(sewn, 16), int(free, 16),
                     int(captured, 16), 0, int(side))
        assert engines[key].future(p) == int(value), (name, outer, p)


def test_core_matches_reference_live():
    # A second, independent check: fresh random positions, solved both ways now.
    rng = random.Random(11)
    b = Board(load_graph(str(DATA / "gent" / "bipyramid.json")), 0)
    engine = Engine(b, table_mb=4)
    for _ in range(25):
        p = Position.started(b, rng.randrange(5))
        for _ in range(rng.randrange(2, 10)):
            if p.is_over():
                break
            p = p.play(rng.choice(p.legal_moves()))
        assert engine.future(p) == reference.future_value(p)


def test_upper_bound_holds_and_table_is_one_bucket_safe():
    b = Board(load_graph(str(DATA / "gent" / "wheel5.json")), 0)
    big, tiny = Engine(b, table_mb=8), Engine(b, table_mb=0)  # 0 MB: a single bucket
    for v in range(6):
        p = Position.started(b, v)
        assert big.future(p) == tiny.future(p) <= big.core.upper_bound(p.key())


def test_line_is_optimal_and_legal():
    b = Board(load_graph(str(DATA / "gent" / "pyramid.json")), 0)
    engine = Engine(b, table_mb=4)
    value = engine.value(Position.initial(b))
    line = engine.line()
    assert line[-1][1].is_over() and line[-1][1].score == value
    text = format_game(b, [m for m, _ in line])
    assert replay(Position.initial(b), text)[-1][1].score == value
    assert value == min(reference.start_values(b))


def test_board_run_resumes_and_refuses_other_boards(tmp_path):
    b = Board(load_graph(str(DATA / "gent" / "wheel5.json")), 0)
    first = BoardRun(Engine(b, 4), run_dir=tmp_path / "run").solve(first_budget=1)
    again = BoardRun(Engine(b, 4), run_dir=tmp_path / "run", resume=True)
    assert again.exact() and again.value_bounds() == (first["value"], first["value"])
    assert first["start_values"] == {b.graph.vertex_name(v): x
                                     for v, x in enumerate(reference.start_values(b))}
    from solver.checkpoint import CheckpointError
    with pytest.raises(CheckpointError, match="outer"):
        BoardRun(Engine(Board(b.graph, 1), 4), run_dir=tmp_path / "run", resume=True)


def test_climb_raises_lower_bounds_by_proof_number_search_first(tmp_path):
    graph = str(DATA / "gent" / "wheel5.json")
    b = Board(load_graph(graph), 0)
    board_run = BoardRun(Engine(b, 4), run_dir=tmp_path / "run")
    result = board_run.solve(first_budget=1, climb=1 << 20)
    assert result["start_values"] == {b.graph.vertex_name(v): x for v, x in enumerate(reference.start_values(b))}
    records = [r for r in board_run.run.journal.read() if "nodes" in r]
    searches = [r["search"] for r in records if "search" in r]
    # every class climbs to its value with "yes" answers and stops at its first "no": on a
    # board this small the proof-number search answers everything
    assert searches and set(searches) == {"pn"}
    r = run("solve", "--graph", graph, "--outer", "f1", "--climb", "0")
    assert r.returncode == 2 and "--climb" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run("solve", "--graph", graph, "--outer", "f1", "--climb", "1e6", "--run", str(tmp_path / "r2"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["start_values"] == result["start_values"]


def test_solve_search_and_budget_options(tmp_path):
    graph = str(DATA / "gent" / "wheel5.json")
    b = Board(load_graph(graph), 0)
    want = {b.graph.vertex_name(v): x for v, x in enumerate(reference.start_values(b))}
    r = run("solve", "--graph", graph, "--outer", "f1", "--search", "ab", "--budget", "1e3",
            "--run", str(tmp_path / "r"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["start_values"] == want
    records = list(Journal(str(tmp_path / "r" / "journal.log")).read())
    assert {r["search"] for r in records if "search" in r} == {"ab"}
    assert [r["round_budget"] for r in records if "round_budget" in r][0] == 1000
    for bad in (["--budget", "0"], ["--search", "pn+xx"]):
        r = run("solve", "--graph", graph, "--outer", "f1", *bad)
        assert r.returncode == 2 and bad[0] in r.stderr and len(r.stderr.strip().splitlines()) <= 2


def test_board_run_in_use_by_another_process_is_refused(tmp_path):
    graph = str(DATA / "gent" / "wheel5.json")
    b = Board(load_graph(graph), 0)
    BoardRun(Engine(b, 4), run_dir=tmp_path / "run").solve(first_budget=1)
    from solver.checkpoint import RunDir
    live = RunDir(tmp_path / "run")
    live.claim()
    try:
        r = run("solve", "--graph", graph, "--outer", "f1", "--run", str(tmp_path / "run"), "--resume")
        assert r.returncode == 2 and "in use" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        assert run("status", str(tmp_path / "run"), "--graph", graph).returncode == 0
    finally:
        live.release()
    r = run("solve", "--graph", graph, "--outer", "f1", "--run", str(tmp_path / "run"), "--resume")
    assert r.returncode == 0, r.stderr


def test_contradictory_journal_answers_are_refused_not_probed_for_ever(tmp_path):
    graph = str(DATA / "gent" / "wheel5.json")
    b = Board(load_graph(graph), 0)
    first = BoardRun(Engine(b, 4), run_dir=tmp_path / "run").solve(first_budget=1)
    v, x = next(iter(first["start_values"].items()))
    Journal(tmp_path / "run" / "journal.log").append(
        {"start": v, "k": x, "lo": x + 1, "hi": 99, "nodes": 1, "seconds": 0.0})
    from solver.checkpoint import ContradictoryBounds
    with pytest.raises(ContradictoryBounds, match="at least"):
        BoardRun(Engine(b, 4), run_dir=tmp_path / "run", resume=True)
    r = run("solve", "--graph", graph, "--outer", "f1", "--run", str(tmp_path / "run"), "--resume")
    assert r.returncode == 2 and "contradictory" in r.stderr and len(r.stderr.strip().splitlines()) == 1


# ---- command line -------------------------------------------------------------------------
def run(*args):
    return subprocess.run([sys.executable, "-m", "solver", "gent", *args], capture_output=True,
                          text=True, timeout=300)


def test_cli_solve_json_on_a_graph_file():
    r = run("solve", "--graph", str(DATA / "gent" / "pyramid.json"), "--outer", "1-2-3-4", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    b = Board(load_graph(str(DATA / "gent" / "pyramid.json")), "1-2-3-4")
    ref = reference.start_values(b)
    assert out["value"] == min(ref)
    assert out["start_values"] == {b.graph.vertex_name(v): x for v, x in enumerate(ref)}
    assert out["nodes"] > 0 and out["seconds"] >= 0 and "small winner" in out["match"]
    assert out["equivalent_outer"] == ["1-2-3-4"]  # the square is the only one of its kind
    r = run("solve", "cube", "--outer", "1-2-3-4", "--json")
    assert len(json.loads(r.stdout)["equivalent_outer"]) == 6


def test_cli_one_start_vertex_runs_and_resumes(tmp_path):
    graph = str(DATA / "gent" / "pyramid.json")
    b = Board(load_graph(graph), "1-2-3-4")
    ref = reference.start_values(b)
    args = ("solve", "--graph", graph, "--outer", "1-2-3-4", "--start", "5", "--run", str(tmp_path / "r"), "--json")
    r = run(*args)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == ref[b.graph.parse_vertex("5")] and out["start_values"] == {"5": out["value"]}
    assert "match" not in out  # one start's value is not the game's
    assert json.loads(run(*args, "--resume").stdout)["start_values"] == {"5": out["value"]}
    r = run("solve", "--graph", graph, "--outer", "1-2-3-4", "--start", "1", "--run", str(tmp_path / "r"), "--resume")
    assert r.returncode == 2 and "starts" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run("solve", "--graph", graph, "--outer", "1-2-3-4", "--moves", "@5 5-1", "--run", str(tmp_path / "s"))
    assert r.returncode == 2 and "drop the other --moves" in r.stderr
    r = run("status", str(tmp_path / "r"), "--graph", graph, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["start_bounds"] == {"5": [out["value"], out["value"]]}
    assert "--start 5" in json.loads(r.stdout)["command"]
    r = run("record", str(tmp_path / "r"), "--graph", graph, "--out", str(tmp_path / "results"))
    assert r.returncode == 2 and "one start vertex" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_cli_line_analyse_show_info():
    r = run("line", "cube", "--outer", "1-2-3-4", "--json")
    out = json.loads(r.stdout)
    assert out["final_score"] == out["value"] and out["line"].startswith("@")
    r = run("analyse", "cube", "--outer", "f1", "--moves", "@1", "--json")
    rows = json.loads(r.stdout)["analysis"]
    assert rows[0]["value"] == max(x["value"] for x in rows)
    r = run("show", "cube", "--outer", "1-2-3-4", "--moves", "@1 1-2 x3")
    assert r.returncode == 0 and "score" in r.stdout.lower()
    r = run("info", "ghent17", "--json")
    assert json.loads(r.stdout)["automorphisms"] == 2


@pytest.mark.parametrize("args,message", [
    (("solve", "ghent17"), "choose the outer face"),
    (("solve", "ghent17", "--outer", "1-2-3-4"), "not a face"),
    (("solve", "nosuch", "--outer", "1-2-3"), "no graph file"),
    (("solve", "cube", "--outer", "1-2-3-4", "--moves", "@1 1-7"), "not an edge"),
    (("solve", "cube", "--outer", "1-2-3-4", "--moves", "@1 zz"), "cannot read"),
    (("solve", "cube", "--graph", "x.json", "--outer", "1-2-3-4"), "exactly one of"),
    (("solve", "cube", "--outer", "1-2-3-4", "--resume"), "needs --run"),
    (("line", "cube", "--outer", "1-2-3-4", "--table-mb", "-1"), "table size"),
])
def test_cli_bad_input_is_one_line_exit_2(args, message):
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1 and not r.stdout


def test_cli_bad_graph_file(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"edges": [[1, 2], [2, 3], [3, 1]], "faces": [[1, 2, 3]]}))
    r = run("solve", "--graph", str(path), "--outer", "1-2-3")
    assert r.returncode == 2 and "exactly two" in r.stderr


# ---- results ------------------------------------------------------------------------------
RESULTS = DATA.parent.parent / "results" / "gent"


def _records():
    return sorted(RESULTS.glob("*.json"))


def test_results_exist_with_provenance():
    names = {p.name for p in _records()}
    assert {"cube-1-2-3-4.json", "octahedron-1-2-3.json", "ghent17-11-17-13-12.json"} <= names
    for path in _records():
        rec = json.loads(path.read_text())
        for key in ("command", "commit", "recorded", "cores", "nodes", "cpu_seconds", "run", "value_bounds"):
            assert key in rec, (path.name, key)
        assert path.name in (RESULTS / "README.md").read_text() or rec["graph"] in (RESULTS / "README.md").read_text()


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.name)
def test_results_follow_from_their_runs(path):
    # The journal of the run (committed) must prove at least what the record claims.
    from solver.gent.results import status
    rec = json.loads(path.read_text())
    _, _, now = status(str(DATA.parent.parent / rec["run"]))
    assert now["graph"] == rec["graph"] and now["outer"] == rec["outer"]
    assert now["value_bounds"][0] >= rec["value_bounds"][0]
    assert now["value_bounds"][1] <= rec["value_bounds"][1]
    for v, (lo, hi) in rec["start_bounds"].items():
        assert now["start_bounds"][v][0] >= lo and now["start_bounds"][v][1] <= hi


def test_results_readme_gives_an_unfinished_face_the_value_of_its_equivalent(tmp_path):
    from solver.gent.results import write_readme
    base = {"graph": "g", "start_bounds": {"1": [3, 9]}, "probes": 1, "nodes": 1, "cpu_seconds": 0.0,
            "commit": "c", "recorded": "r", "cores": 2, "command": "x"}
    rows = {"g-1-2-3.json": dict(base, outer="1-2-3", value_bounds=[3, 9], equivalent_outer=["4-5-6"]),
            "g-4-5-6.json": dict(base, outer="4-5-6", value_bounds=[7, 7], equivalent_outer=["1-2-3"]),
            "g-7-8-9.json": dict(base, outer="7-8-9", value_bounds=[2, 8], equivalent_outer=[])}
    for name, row in rows.items():
        (tmp_path / name).write_text(json.dumps(row))
    write_readme(str(tmp_path))
    table = {line.split("|")[2].split()[0]: line.split("|")[3].strip()
             for line in (tmp_path / "README.md").read_text().splitlines() if line.startswith("| g |")}
    assert table == {"1-2-3": "in [3, 9]; the same game as 4-5-6: 7", "4-5-6": "7", "7-8-9": "in [2, 8]"}


@pytest.mark.parametrize("path", [p for p in _records() if "optimal_game" in json.loads(p.read_text())],
                         ids=lambda p: p.name)
def test_recorded_optimal_games_replay_to_the_value(path):
    # Also for the 17-vertex boards, whose values are too costly to solve again here: the game
    # must be legal, end with the recorded value, and start where Mr. Button may start (a start
    # whose proven bounds allow the value).
    rec = json.loads(path.read_text())
    board = Board.load(rec["graph"], rec["outer"])
    played = replay(Position.initial(board), rec["optimal_game"])
    final = played[-1][1]
    assert final.is_over() and final.score == rec["value"]
    start = rec["optimal_game"].split()[0]
    assert start.startswith("@")
    lo, hi = rec["start_bounds"][start[1:]]
    assert lo <= rec["value"] <= hi


@pytest.mark.parametrize("path", [p for p in _records() if json.loads(p.read_text())["exact"]],
                         ids=lambda p: p.name)
def test_exact_results_solve_again_and_their_games_replay(path):
    rec = json.loads(path.read_text())
    board = Board.load(rec["graph"], rec["outer"])
    assert rec["value"] == Engine(board, table_mb=16).value(Position.initial(board))
    assert replay(Position.initial(board), rec["optimal_game"])[-1][1].score == rec["value"]
    if rec["graph"] == "prism":  # small enough for the plain minimax
        assert rec["value"] == min(reference.start_values(board))
    if rec["graph"] in ("cube", "octahedron"):  # their starts, by the plain minimax, are in the data
        started = {}
        for name, outer, vertex, sewn, free, captured, side, value in _value_cases():
            if name == rec["graph"] and int(sewn, 16) == 0 and int(captured, 16) == 0:
                started[board.graph.parse_vertex(vertex)] = int(value)
        classes = Board.load(rec["graph"], 0).start_classes()
        # Every outer face of these two is equivalent, so the first face's start classes serve.
        assert all(any(v in started for v in c) for c in classes)
        assert rec["value"] == min(started.values())


def test_match_result():
    from solver.gent.cli import match_result
    assert match_result(41, 39) == "first Tailor wins"
    assert match_result(39, 41) == "second Tailor wins"
    assert match_result(40, 40) == "first Tailor is the small winner"


def test_board_run_ask_above_gives_the_same_values(tmp_path):
    b = Board(load_graph(str(DATA / "gent" / "wheel5.json")), 0)
    plain = BoardRun(Engine(b, 4)).solve()
    run = BoardRun(Engine(b, 4), run_dir=tmp_path / "run")
    asked = run.solve(ask_above=plain["value"] + 1)
    first = [r for r in Journal(str(tmp_path / "run" / "journal.log")).read() if "k" in r][0]
    assert first["k"] == plain["value"] + 1 and first["hi"] <= plain["value"] + 1
    assert asked["start_values"] == plain["start_values"]


def test_resumed_board_run_keeps_its_node_budget(tmp_path):
    b = Board(load_graph(str(DATA / "gent" / "wheel5.json")), 0)
    run = BoardRun(Engine(b, 4), run_dir=tmp_path / "run")
    run.solve(first_budget=1)
    budgets = [r["round_budget"] for r in run.run.journal.read() if "round_budget" in r]
    assert budgets and budgets == sorted(budgets) and budgets[0] == 1
    again = BoardRun(Engine(b, 4), run_dir=tmp_path / "run", resume=True)
    assert again.round_budget == budgets[-1] and again.probes == run.probes
    # A journal without budget records (before they were written) goes by its costliest probe.
    old = tmp_path / "old"
    BoardRun(Engine(b, 4), run_dir=old)
    for r in run.run.journal.read():
        if "round_budget" not in r:
            BoardRun(Engine(b, 4), run_dir=old, resume=True).run.journal.append(r)
    resumed = BoardRun(Engine(b, 4), run_dir=old, resume=True)
    assert resumed.round_budget == 0 and resumed.largest_probe == max(
        r["nodes"] for r in run.run.journal.read() if "nodes" in r and not r.get("abandoned"))


@pytest.mark.parametrize("graph,outer", [("pyramid", 0), ("wheel5", 0), ("bipyramid", 0), ("cube", "1-2-3-4"),
                                         ("prism", "1-2-5-4")])
def test_proof_number_search_answers_like_the_alpha_beta_search(graph, outer):
    """Every start, thresholds around its value, with the alpha-beta search below 0 (pure
    proof-number search), 3 and 100 live edges (alpha-beta below the root). The alpha-beta
    search is checked against the plain minimax elsewhere."""
    b = (Board.load(graph, outer) if isinstance(outer, str)
         else Board(load_graph(str(DATA / "gent" / f"{graph}.json")), outer))
    plain = Engine(b, 16)
    for v in range(len(b.graph.labels)):
        p = Position.started(b, v)
        value = plain.future(p)
        for k in range(max(0, value - 3), value + 3):
            for ab_live in (0, 3, 100):
                engine = Engine(b, 4)
                engine.core.pn_ab_live = ab_live
                assert engine.core.prove(p.key(), k) == (value > k), (graph, v, k, ab_live)


def test_proof_number_search_on_the_17_vertex_boards():
    """Positions 14 plies into fixed-seed games (the benchmark's), thresholds at the value."""
    import sys
    sys.path.insert(0, str(DATA.parent.parent / "scripts"))
    from bench_gent import positions
    for name, outer in [("ghent17", "1-4-11-5"), ("schneider17", "8-16-10-9")]:
        board = Board.load(name, outer)
        for p, _ in positions(board, 14, 2, seed=5):
            value = Engine(board, 16).future(p)
            for k in (value - 1, value):
                for ab_live in (0, 12):
                    engine = Engine(board, 16)
                    engine.core.pn_ab_live = ab_live
                    assert engine.core.prove(p.key(), k) == (value > k)


class OverBudgetEvery:
    """A core whose questions go over budget every `period`-th time (small boards never reach
    a real budget: the C search reports its nodes only every 2^20)."""

    def __init__(self, core, period=2, proofs=True):
        """proofs=False: every proof-number search goes over budget, so that the alpha-beta
        search answers (with its fail-soft bounds)."""
        self.core, self.period, self.progress, self.calls, self.over = core, period, None, 0, False
        self.proofs = proofs

    def __getattr__(self, name):
        return getattr(self.core, name)

    def prove(self, *args):  # a question's first search: both of its searches go over budget
        if not self.proofs:
            self.over = True
            return self._search(self.core.prove, args)
        self._count()
        return self._search(self.core.prove, args)

    def search(self, *args):
        if not self.proofs:
            self._count()
        return self._search(self.core.search, args)

    def _count(self):
        self.calls += 1
        self.over = self.calls % self.period == 1 or self.period == 1

    def _search(self, method, args):
        if self.over:
            method(*args)
            self.progress(self.core.nodes + (1 << 40))  # raises: over any budget
        return method(*args)


def test_board_run_journals_its_commit_and_abandoned_work(tmp_path):
    from solver.provenance import commit
    b = Board(load_graph(str(DATA / "gent" / "wheel5.json")), 0)
    engine = Engine(b, 4)
    engine.core = OverBudgetEvery(engine.core)
    run = BoardRun(engine, run_dir=tmp_path / "run")
    result = run.solve()
    assert result["start_values"] == {b.graph.vertex_name(v): x for v, x in enumerate(reference.start_values(b))}
    records = [r for r in run.run.journal.read() if "nodes" in r]
    abandoned = [r for r in records if r.get("abandoned")]
    assert abandoned and all(r["commit"] == commit() for r in records)
    assert any("key" in r and not r.get("abandoned") for r in records)  # split: children's answers
    again = BoardRun(Engine(b, 4), run_dir=tmp_path / "run", resume=True)
    assert again.exact() and again.start_bounds() == run.start_bounds()
    assert again.nodes == sum(r["nodes"] for r in records) and again.abandoned == len(abandoned)
    assert again.probes == len([r for r in records if not r.get("abandoned") and not r.get("derived")])
    assert again.commits == {commit()}


def journaling_prover(board, period, proofs=True):
    """A Prover whose core goes over budget every `period`-th question, and the list it journals to."""
    from solver.gent.proof import listing_prover
    engine = Engine(board, 4)
    engine.core = OverBudgetEvery(engine.core, period, proofs)
    return listing_prover(engine)


@pytest.mark.parametrize("graph,period", [("bipyramid", 2), ("bipyramid", 3), ("pyramid", 1), ("wheel5", 2)])
def test_split_questions_answer_like_the_search(graph, period):
    # Questions over budget are answered from their children, split up to 3 levels; with a
    # core that is always over budget (period 1) many stay undecided (None), never wrong.
    rng = random.Random(period)
    b = Board(load_graph(str(DATA / "gent" / f"{graph}.json")), 0)
    plain = Engine(b, 4)
    answers = []
    for _ in range(6):
        p = Position.started(b, rng.randrange(len(b.graph.labels)))
        for _ in range(rng.randrange(0, 4)):
            if not p.is_over():
                p = p.play(rng.choice(p.legal_moves()))
        truth = plain.future(p)
        prover, records = journaling_prover(b, period)
        for k in range(max(0, truth - 2), truth + 2):
            answer = prover.ask(p, k, 1, 3)
            assert answer in (None, truth > k)
            answers.append(answer)
        for r in records:
            if "lo" in r:
                q = Position(b, r["key"][0], r["key"][1], r["key"][2], r["key"][3], 0, r["key"][4])
                assert r["lo"] <= plain.future(q) <= r["hi"], r
    assert (None in answers) if period == 1 else any(a is not None for a in answers)


def test_derived_bounds_take_the_childrens_bounds_not_just_the_threshold():
    # A split question's answer is journaled with the bounds its children prove (plus what
    # the moves captured), which are often tighter than "> k" or "<= k".
    rng = random.Random(2)
    b = Board(load_graph(str(DATA / "gent" / "bipyramid.json")), 0)
    plain = Engine(b, 4)
    tighter = 0
    for v in range(len(b.graph.labels)):
        p = Position.started(b, v)
        p = p.play(rng.choice(p.legal_moves()))
        prover, records = journaling_prover(b, 2, proofs=False)  # fail-soft answers
        truth = plain.future(p)
        for k in range(max(0, truth - 2), truth + 2):
            prover.ask(p, k, 1, 3)
        for r in records:
            if r.get("derived"):
                q = Position(b, r["key"][0], r["key"][1], r["key"][2], r["key"][3], 0, r["key"][4])
                assert r["lo"] <= plain.future(q) <= r["hi"], r
                tighter += r["lo"] > r["k"] + 1 or r["hi"] < r["k"]
    assert tighter > 0


class CostlyCore:
    """A core whose every search reports `cost` nodes before it answers: a question asked
    with a smaller budget is abandoned."""

    def __init__(self, core, cost):
        self.core, self.cost, self.progress = core, cost, None

    def __getattr__(self, name):
        return getattr(self.core, name)

    def search(self, *args):
        self.core.nodes += self.cost
        self.progress(self.core.nodes)
        return self.core.search(*args)

    def prove(self, *args):
        self.core.nodes += self.cost
        self.progress(self.core.nodes)
        return self.core.prove(*args)


def test_proof_number_search_gets_a_quarter_of_the_budget_up_to_its_cap():
    from solver.gent.proof import listing_prover
    b = Board(load_graph(str(DATA / "gent" / "bipyramid.json")), 0)
    p = Position.started(b, 0)
    for budget, pn_max, want in ((400, 1000, 100), (4000, 64, 64)):
        engine = Engine(b, 4)
        engine.core = CostlyCore(engine.core, 10 ** 6)  # every search is abandoned
        prover, _ = listing_prover(engine)
        prover.pn_max = pn_max
        seen = []
        search = prover._search

        def spy(key, k, budget, display, method, lo, hi):
            seen.append((method, budget))
            return search(key, k, budget, display, method, lo, hi)

        prover._search = spy
        assert prover.ask(p, 5, budget, 0) is None
        assert seen == [("pn", want), ("ab", budget)]


def test_a_rising_budget_tries_small_budgets_first_and_stays_right():
    from solver.gent.proof import listing_prover
    b = Board(load_graph(str(DATA / "gent" / "bipyramid.json")), 0)
    plain = Engine(b, 4)
    for v in range(len(b.graph.labels)):
        p = Position.started(b, v)
        truth = plain.future(p)
        for k in (truth - 1, truth):
            engine = Engine(b, 4)
            engine.core = CostlyCore(engine.core, 1000)
            prover, records = listing_prover(engine)
            # budgets 1, 4, ..., 256 are abandoned (and split, which the costly core abandons
            # too), 1024 decides: each try's proof-number search (with a quarter of the
            # budget) is abandoned, the alpha-beta search too where the try's total of 8
            # budgets leaves room for it (256), and with 1024 the alpha-beta search answers
            assert prover.ask_rising(p, k, 4 ** 5, 3, first=1) == (truth > k)
            root = [r for r in records if tuple(r["key"]) == p.key()]
            assert [r["search"] for r in root if r.get("abandoned")] == ["pn"] * 5 + ["ab", "pn"]
            assert not root[-1].get("abandoned") and root[-1]["search"] == "ab"
            # each try keeps to its total: with two budgets in all, the root's abandoned
            # searches use them up and no child is searched
            engine.core = CostlyCore(Engine(b, 4).core, 1000)
            prover, records = listing_prover(engine)
            assert prover.ask_rising(p, k, 4 ** 5, 3, budgets=2, first=1) == (truth > k)
            assert all(tuple(r["key"]) == p.key() for r in records if r.get("abandoned"))
            # with every try over budget the answer is None, never a guess
            engine.core = CostlyCore(Engine(b, 4).core, 1 << 30)
            prover, _ = listing_prover(engine)
            assert prover.ask_rising(p, k, 4 ** 5, 3, first=1) is None


def test_a_split_question_is_answered_again_from_its_childrens_journal():
    from solver.gent.proof import Prover
    b = Board(load_graph(str(DATA / "gent" / "bipyramid.json")), 0)
    p = Position.started(b, 0)
    truth = Engine(b, 4).future(p)
    prover, records = journaling_prover(b, 2)
    assert prover.ask(p, truth - 1, 1, 3) is True
    assert any(r.get("abandoned") and tuple(r["key"]) == p.key() for r in records)
    # A resumed run knows the children's answers and that the start was split, not the
    # start's own answer: it answers without a search (every search here would be abandoned).
    again = Engine(b, 4)
    again.core = OverBudgetEvery(again.core, 1)
    resumed = Prover(again, lambda r: None)
    for r in records:
        if tuple(r["key"]) == p.key():
            resumed.split.add(p.key())
        elif "lo" in r:
            resumed.learn(tuple(r["key"]), r["lo"], r["hi"])
    assert resumed.ask(p, truth - 1, 1, 0) is True and again.core.calls == 0


def test_a_value_only_run_is_recorded_as_not_rechecked(tmp_path):
    from solver.gent.results import record
    graph = str(DATA / "gent" / "pyramid.json")
    b = Board(load_graph(graph), 1)
    run = BoardRun(Engine(b, 4), run_dir=tmp_path / "run")
    run.solve(value_only=True)
    assert run.value_known() and not run.exact()
    rec = record(str(tmp_path / "run"), str(tmp_path / "results"), graph)
    assert rec["value"] == min(reference.start_values(b)) and rec["checked"] is False
    assert "(not re-checked)" in (tmp_path / "results" / "README.md").read_text()
    assert "optimal_game" not in rec
    rec = record(str(tmp_path / "run"), str(tmp_path / "results"), graph, line=True)
    final = replay(Position.initial(b), rec["optimal_game"])[-1][1]
    assert final.is_over() and final.score == rec["value"] and rec["line_nodes"] > 0
    again = record(str(tmp_path / "run"), str(tmp_path / "results"), graph)  # without --line: the game stays
    assert again["optimal_game"] == rec["optimal_game"]
    g = b.graph
    same = [g.face_text(f) for f in next(c for c in g.face_classes() if 1 in c) if f != 1]
    assert same and rec["equivalent_outer"] == same
    assert f"| {g.face_text(1)}" + "".join(f" (= {o})" for o in same) + " |" in (tmp_path / "results" / "README.md").read_text()


@pytest.mark.parametrize("outer", range(5))
def test_value_only_board_run_proves_the_value_first(outer):
    # On the pyramid the start vertices differ (10 or 13), so the value needs less than all of them.
    b = Board(load_graph(str(DATA / "gent" / "pyramid.json")), outer)
    truth = reference.start_values(b)
    full = BoardRun(Engine(b, 4))
    full.solve()
    run = BoardRun(Engine(b, 4))
    result = run.solve(value_only=True)
    assert result["value"] == min(truth) == full.value_bounds()[0]
    for v, (lo, hi) in run.start_bounds().items():
        assert lo <= truth[v] <= hi
    assert run.nodes <= full.nodes
    assert all(result["start_values"][b.graph.vertex_name(v)] == truth[v]
               for v, (lo, hi) in run.start_bounds().items() if lo == hi)


@pytest.mark.parametrize("outer", range(5))
def test_once_a_start_attains_the_games_upper_bound_the_others_are_asked_just_below_it(outer):
    b = Board(load_graph(str(DATA / "gent" / "pyramid.json")), outer)
    truth = reference.start_values(b)
    run = BoardRun(Engine(b, 4))
    weakest = min(run.bounds, key=lambda v: truth[v])
    value = truth[weakest]
    run.bounds[weakest][:] = [value, value]
    asked = []
    result = run.solve(on_probe=lambda v, k: asked.append((v, k)), value_only=True)
    assert result["value"] == value == min(truth)
    assert asked and all(k == value - 1 for _, k in asked)
    assert all(run.bounds[v][0] >= value for v in run.bounds)


# ---- several workers ----------------------------------------------------------------------
@pytest.mark.parametrize("graph,outer,value_only", [("pyramid", 0, False), ("pyramid", 2, True),
                                                     ("wheel5", 0, False), ("bipyramid", 1, True)])
def test_a_board_run_with_workers_proves_what_one_worker_proves(tmp_path, graph, outer, value_only):
    b = Board(load_graph(str(DATA / "gent" / f"{graph}.json")), outer)
    truth = reference.start_values(b)
    engine = Engine(b, 4)
    engine.core = OverBudgetEvery(engine.core, 2)  # the first worker's probes are split too
    run = BoardRun(engine, run_dir=tmp_path / "run", workers=3)
    result = run.solve(first_budget=1, value_only=value_only)
    assert result["value"] == min(truth)
    for v, (lo, hi) in run.start_bounds().items():
        assert lo <= truth[v] <= hi and (value_only or lo == hi)
    assert run.asking == {}
    again = BoardRun(Engine(b, 4), run_dir=tmp_path / "run", resume=True)
    assert again.start_bounds() == run.start_bounds() and again.nodes == run.nodes


def test_cli_workers_run_stops_on_sigterm_and_resumes(tmp_path):
    import signal
    import time
    cmd = [sys.executable, "-m", "solver", "gent", "solve", "ghent17", "--outer", "11-17-13-12",
           "--run", str(tmp_path / "r"), "--workers", "2", "--table-mb", "64"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped: value proven in" in err and "Traceback" not in err
    r = run("status", str(tmp_path / "r"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["probes"] > 0
    r = run("solve", "ghent17", "--outer", "11-17-13-12", "--workers", "3", "--table-mb", "2")
    assert r.returncode == 2 and "too small for 3 workers" in r.stderr


@pytest.mark.parametrize("graph", ["pyramid", "wheel5", "bipyramid"])
def test_keeps_tells_the_moves_that_keep_the_value(graph):
    rng = random.Random(5)
    b = Board(load_graph(str(DATA / "gent" / f"{graph}.json")), 0)
    engine, plain = Engine(b, 4), Engine(b, 4)
    for _ in range(8):
        p = Position.started(b, rng.randrange(len(b.graph.labels)))
        for _ in range(rng.randrange(0, 5)):
            if not p.is_over():
                p = p.play(rng.choice(p.legal_moves()))
        if p.is_over():
            continue
        target = plain.value(p)
        for m in p.legal_moves():
            c = p.play(m)
            assert engine.keeps(c, target) == (plain.value(c) == target), (p, m)


def test_a_stop_while_the_workers_start_stops_the_ones_started(tmp_path, monkeypatch):
    # Review 9: Ctrl-C landing while the round's threads start left the started ones running.
    import concurrent.futures
    import threading
    import time
    real_submit, calls = concurrent.futures.ThreadPoolExecutor.submit, []

    def submit(self, fn, *args):
        calls.append(fn)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_submit(self, fn, *args)

    monkeypatch.setattr(concurrent.futures.ThreadPoolExecutor, "submit", submit)
    b = Board(load_graph(str(DATA / "gent" / "wheel5.json")), 1)
    run = BoardRun(Engine(b, 4), run_dir=tmp_path / "run", workers=2)
    with pytest.raises(KeyboardInterrupt):
        run.solve(lambda v, k: time.sleep(0.05), first_budget=1)
    records = len(run.run.journal.read())
    time.sleep(0.5)
    assert len(run.run.journal.read()) == records
    assert not [t for t in threading.enumerate() if t.name.startswith("gent")]


def test_bench_question_in_one_search_and_split_agree():
    import pathlib
    import subprocess
    import sys
    script = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "bench_gent.py"

    def bench(*args):
        return subprocess.run([sys.executable, str(script), "--question", *args, "--table-mb", "16"],
                              capture_output=True, text=True)

    # 1.8 M nodes in one alpha-beta search; a budget of 10^6 abandons the first search and
    # splits it. The proof-number search (as runs ask first) needs a few hundred nodes.
    question = ("ghent17", "1-4-11-5", "13", "34")
    whole, split = bench(*question, "--search", "ab"), bench(*question, "--budget", "1e6", "--search", "ab")
    assert whole.returncode == split.returncode == 0, whole.stderr + split.stderr
    assert "start 13 > 34: True" in whole.stdout and "(abandoned searches 0)" in whole.stdout
    assert "start 13 > 34: True" in split.stdout and "(abandoned searches 0)" not in split.stdout
    proved = bench(*question)
    assert "start 13 > 34: True" in proved.stdout and "(abandoned searches 0)" in proved.stdout
    assert int(proved.stdout.split("nodes ")[1].split()[0].replace(",", "")) < 100_000
    bad = bench("ghent17", "1-4-11-5", "99", "30")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no vertex '99'" in bad.stderr
    alone = subprocess.run([sys.executable, str(script), "--budget", "1e6"], capture_output=True, text=True)
    assert alone.returncode == 2 and "--budget needs --question" in alone.stderr
    for option in ("--first", "--levels", "--budgets"):
        alone = bench("ghent17", "1-4-11-5", "13", "34", option, "1")
        assert alone.returncode == 2 and f"{option} needs --budget" in alone.stderr
