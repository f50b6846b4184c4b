"""Values: C solver against published values and the reference minimax."""

import random

import pytest

from solver._sanjego import Core
from solver.sanjego import Board, Position, reference
from solver.sanjego.engine import Engine
from solver.sanjego.position import EMPTY
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


def test_refutation_order_changes_the_search_but_not_the_values():
    """After a move fails, the moves that take away the reply that refuted it go first:
    the same values as with the static order alone, in another number of nodes."""
    board = Board.parse("4x4")
    rng = random.Random("refute")
    positions = [Position.start(board)] + [random_position(board, rng, rng.randrange(1, 6)) for _ in range(8)]
    values, nodes = {}, {}
    for bonus in (0, 16):
        engine = Engine(board, table_mb=8)
        engine.core.refute_bonus = bonus
        values[bonus] = [engine.value(p) for p in positions]
        nodes[bonus] = engine.nodes
    assert values[16] == values[0]
    assert nodes[0] != nodes[16]
    small = Board.parse("4x3")  # and against the plain minimax where that is quick
    engine = Engine(small, table_mb=1)
    for _ in range(6):
        p = random_position(small, rng, rng.randrange(1, 5))
        assert engine.value(p) == reference.solve(p), p.key()
    with pytest.raises(ValueError):
        engine.core.refute_bonus = -1
    with pytest.raises(ValueError):
        engine.core.refute_bonus = (1 << 16) + 1


def test_searching_small_positions_without_the_table_keeps_the_values():
    board = Board.parse("4x4")
    rng = random.Random("table-min")
    positions = [Position.start(board)] + [random_position(board, rng, rng.randrange(1, 6)) for _ in range(6)]
    values = {}
    for least in (0, 5, 9):
        engine = Engine(board, table_mb=8)
        engine.core.table_min_towers = least
        values[least] = [engine.value(p) for p in positions]
    assert values[0] == values[5] == values[9]
    for bad in (-1, 65):
        with pytest.raises(ValueError):
            engine.core.table_min_towers = bad


def test_small_positions_near_the_table_s_start_keep_the_values():
    # Only where entries are found changes: a tiny near part (one bucket) crowds them out.
    board = Board.parse("4x4")
    rng = random.Random("near")
    positions = [Position.start(board)] + [random_position(board, rng, rng.randrange(1, 6)) for _ in range(6)]
    runs = {}
    for towers, buckets in ((0, 1 << 10), (8, 1 << 10), (12, 1), (64, 1)):
        engine = Engine(board, table_mb=8)
        engine.core.near_towers, engine.core.near_buckets = towers, buckets
        runs[towers] = ([engine.value(p) for p in positions], engine.nodes)
    assert runs[0][0] == runs[8][0] == runs[12][0] == runs[64][0]
    assert runs[64][1] > runs[12][1] > runs[0][1]
    for attribute, bad in (("near_towers", -1), ("near_towers", 65), ("near_buckets", 0), ("near_buckets", 3)):
        with pytest.raises(ValueError):
            setattr(engine.core, attribute, bad)


@pytest.mark.parametrize("args", [["--near", "0", "20", "--near-mb", "1"], ["--near", "65"], ["--near-mb", "3"],
                                  ["--age-shift", "11"], ["--age-shift", "12", "64"]])
def test_bench_table_settings(args):
    import pathlib
    import subprocess
    import sys
    bench = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "bench.py"
    r = subprocess.run([sys.executable, str(bench), "--boards", "4x4", "--table-mb", "16"] + args,
                       capture_output=True, text=True, timeout=120)
    if args[-1] == "1":
        rows = [line.split() for line in r.stdout.splitlines() if line.startswith("   4x4")]
        assert r.returncode == 0 and [row[5] for row in rows] == ["0", "20"]
        assert rows[0][6] == rows[1][6]  # the value
    else:
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and args[0] in r.stderr


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
        lo, hi = engine.core.bounds(*p.core_args)
        assert lo <= reference.solve(p, measure) <= hi, (size, p.key())


@pytest.mark.parametrize("measure", ["margin", "outcome"])
@pytest.mark.parametrize("size,min_plies", [("4x4", 5), ("5x3", 5), ("3x5", 4), ("5x4", 9)])
def test_groups_keyed_free_of_their_place_keep_values(size, min_plies, measure):
    """Groups of up to five towers are keyed by their labelled graph, wherever they lie
    (the core's free_group_max). One table over many positions, a one-bucket table and the
    plain keys all agree with the reference, with and without heads."""
    board = Board.parse(size)
    rng = random.Random(f"free{size}{measure}")
    shared, tiny, plain = (Engine(board, measure, table_mb=1), Engine(board, measure, table_mb=0.0001, seed=3),
                           Engine(board, measure, table_mb=1))
    for core in (plain.core, plain.margin_core):
        if core is not None:
            core.free_group_max = 0
    heads = Engine(board, measure, table_mb=1, heads=True)
    assert shared.core.free_group_max == heads.core.free_group_max == 5
    for i in range(24):
        p = random_position(board, rng, rng.randrange(min_plies, board.cells))
        expected = reference.solve(p, measure)
        assert shared.value(p) == tiny.value(p) == plain.value(p) == expected, (size, p.key())
        if i % 3 == 2 and not p.is_over():
            mine = [c for c in range(board.cells) if p.heights[c] and p.owners[c] == 0]
            theirs = [c for c in range(board.cells) if p.heights[c] and p.owners[c] == 1]
            if mine and theirs:
                p = p.with_heads([rng.choice(mine), rng.choice(theirs)])
                assert heads.value(p) == reference.solve(p, measure), (size, p.key())


def drawn(board, rows, side=0):
    """A position from rows of cells, the top row first: '.' empty, 'a3' a tower of height 3
    of the first player, 'b2' one of the second."""
    heights, owners = [0] * board.cells, [EMPTY] * board.cells
    for r, row in enumerate(rows):
        for c, cell in enumerate(row.split()):
            if cell != ".":
                i = c + (len(rows) - 1 - r) * board.width
                heights[i], owners[i] = int(cell[1:]), "ab".index(cell[0])
    return Position(board, heights, owners, side)


BIG = "a1 b1 a1 b1 a1 ."  # a group of five towers that stays where it is
SAME_GROUPS = {  # the same small group (as a labelled graph) in two places and shapes
    "pair": (["b2 a3 . . . .", ". . . . . ."], [". . . . . .", ". . . . a3 b2"]),
    "path of 3": (["a2 b1 a1 . . .", ". . . . . ."], [". . . . . a1", ". . . . a2 b1"]),
    "path of 4": (["a2 b1 a1 b3 . .", ". . . . . ."], [". . a1 b3 . .", ". a2 b1 . . ."]),
    "star": ([". b1 . . . .", "a2 a3 b4 . . ."], [". . . . b1 .", ". . . b4 a3 a2"]),
    "square": (["a2 b1 . . . .", "b3 a1 . . . ."], [". . . . a1 b3", ". . . . b1 a2"]),
}


@pytest.mark.parametrize("shape", SAME_GROUPS)
def test_equal_groups_in_other_places_share_table_entries(shape):
    board = Board(6, 4)
    first, second = (drawn(board, [BIG, ". . . . . ."] + rows) for rows in SAME_GROUPS[shape])
    assert first.canonical_key() != second.canonical_key()
    values, nodes = [], []
    for free in (5, 0):
        engine = Engine(board, table_mb=16)
        engine.core.free_group_max = free
        values.append(engine.value(first))
        before = engine.nodes
        values.append(engine.value(second))
        nodes.append(engine.nodes - before)
    assert values == [reference.solve(first)] * 4
    assert nodes[0] <= 8 < nodes[1]  # free keys: the second position's value is in the table


SHAPES = {  # cells of a small group on a 6x4 board, west of a group of four on the F file
    "path of 3": ["A1", "B1", "B2"],
    "path of 4": ["A1", "B1", "B2", "C2"],
    "star": ["B1", "A1", "C1", "B2"],
    "square": ["A1", "B1", "B2", "A2"],
    "path of 5": ["A1", "B1", "C1", "C2", "D2"],
    "star of 5": ["B2", "A2", "C2", "B1", "B3"],
    "chair": ["B2", "A2", "C2", "B1", "D2"],
    "banner": ["A1", "B1", "B2", "A2", "C2"],
}


@pytest.mark.parametrize("shape", SHAPES)
def test_groups_told_apart_by_their_labelled_graph(shape):
    """Towers of varied heights and owners on one shape, solved with one shared table: a code
    that merged two different groups would give one of them the other's value."""
    board = Board(6, 4)
    cells = [board.cell(name) for name in SHAPES[shape]]
    engine = Engine(board, table_mb=16)
    assert engine.core.free_group_max == 5
    east = drawn(board, [". . . . . a1", ". . . . . b1", ". . . . . a1", ". . . . . b2"])
    rng = random.Random(shape)
    values = set()
    for _ in range(150):
        labels = [rng.choice(["a1", "a2", "a3", "b1", "b2", "b5"]) for _ in cells]
        if len({label[0] for label in labels}) == 1:
            continue
        heights, owners = list(east.heights), list(east.owners)
        for c, label in zip(cells, labels):
            heights[c], owners[c] = int(label[1:]), "ab".index(label[0])
        p = Position(board, heights, owners, 0)
        expected = reference.solve(p)
        values.add(expected)
        assert engine.value(p) == expected, labels
    assert len(values) > 1


def test_proxy_questions_round_trip(tmp_path):
    """make_proxy_questions.py writes questions that bench.py --questions answers alike; a
    wrong answer in the file fails with one line, a bad line is a usage error."""
    import pathlib
    import subprocess
    import sys
    scripts = pathlib.Path(__file__).resolve().parent.parent / "scripts"
    made = subprocess.run([sys.executable, str(scripts / "make_proxy_questions.py"), "--board", "4x4",
                           "--prefix", "B2-C2", "--seeds", "0", "3"], capture_output=True, text=True, timeout=120)
    lines = [line for line in made.stdout.splitlines() if not line.startswith("#")]
    assert made.returncode == 0 and lines and all(line.startswith("4x4 | B2-C2 ") for line in lines)
    assert lines[-1].split("|")[3].split()[0] == "no"  # each position ends at its first "no"
    good = tmp_path / "good.txt"
    good.write_text(made.stdout)
    bench = [sys.executable, str(scripts / "bench.py"), "--table-mb", "8", "--questions"]
    r = subprocess.run(bench + [str(good), "--etc", "8", "16"], capture_output=True, text=True, timeout=120)
    rows = [line.split() for line in r.stdout.splitlines() if not line.startswith(("#", "free"))]
    assert r.returncode == 0 and [row[1] for row in rows] == ["8", "16"]
    r = subprocess.run(bench + [str(good), "--one-table", "--age-weight", "0", "3"], capture_output=True,
                       text=True, timeout=120)
    rows = [line.split() for line in r.stdout.splitlines() if not line.startswith(("#", "free"))]
    assert r.returncode == 0 and [row[5] for row in rows] == ["0", "3"] and "for all" in r.stdout
    r = subprocess.run(bench[:-1] + ["--one-table"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--one-table goes with --questions" in r.stderr
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(made.stdout.replace("| no", "| yes"))
    r = subprocess.run(bench + [str(wrong)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stderr.strip().count("\n") == 0 and "wrong answer" in r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("4x4 | Z9-C2 | 2 | yes\n")
    r = subprocess.run(bench + [str(bad)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "bad.txt:1" in r.stderr


def test_keys_of_towers_taller_than_the_board_has_pieces():
    # A position handed to the core may hold any height up to 64: its keys are those of the
    # same towers turned with the board, and another height gives another key.
    core = Core(3, 3, table_bytes=1 << 20)
    owners = [0, 1, 0, 1, 0, 1, 0, 1, 0]
    for cell, height in ((0, 20), (8, 64), (4, 40)):
        heights = [1] * 9
        heights[cell] = height
        mirror = [heights[3 * r + 2 - c] for r in range(3) for c in range(3)]
        mirror_owners = [owners[3 * r + 2 - c] for r in range(3) for c in range(3)]
        assert core.key(heights, owners, 0) == core.key(mirror, mirror_owners, 0)
        assert core.key(heights, owners, 0) != core.key([h - (i == cell) for i, h in enumerate(heights)], owners, 0)
