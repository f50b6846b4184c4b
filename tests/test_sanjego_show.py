"""San Jego pictures: SVG and text drawing, `sanjego show`, and scripts/plot_cost.py."""

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from solver.sanjego import PASS, Board, Position, replay
from solver.sanjego.draw import game_frames, svg, text, write_svg_sequence
from sanjego_cli import REPO, Result, cli, run

SVG = "{http://www.w3.org/2000/svg}"
LINE_4X3 = "B2-C2 B1-C1 D2-D3 A2-A3 C2-C3 C1-D1 C3-D3 A3-B3"  # the recorded optimal 4x3 game


def parse(document):
    root = ET.fromstring(document)
    assert root.tag == SVG + "svg"
    return root


def by_class(root, name):
    return [el for el in root.iter() if el.attrib.get("class") == name]


# ---- SVG ----------------------------------------------------------------------------------
def test_start_position_svg():
    board = Board(6, 4)
    root = parse(svg(Position.start(board)))
    assert len(by_class(root, "cell")) == 24
    towers = by_class(root, "tower")
    assert len(towers) == 24 and all(t.attrib["data-height"] == "1" for t in towers)
    owners = {t.attrib["data-cell"]: t.attrib["data-owner"] for t in towers}
    assert owners["A1"] == "first" and owners["B1"] == "second" and owners["A2"] == "second"
    labels = [el.text for el in by_class(root, "coordinate")]
    assert labels == list("ABCDEF") + ["1", "2", "3", "4"]
    assert not by_class(root, "last-move") and not by_class(root, "tower-layer")
    assert "first player to move" in by_class(root, "caption")[0].text


def test_position_svg_heights_owners_and_last_move():
    board = Board(4, 3)
    position, moves = replay(board, LINE_4X3)
    root = parse(svg(position, moves[-1], title="end"))
    towers = {t.attrib["data-cell"]: (int(t.attrib["data-height"]), t.attrib["data-owner"])
              for t in by_class(root, "tower")}
    expected = {board.name(i): (h, "first" if o == 0 else "second")
                for i, (h, o) in enumerate(zip(position.heights, position.owners)) if h}
    assert towers == expected
    assert sorted(int(el.text) for el in by_class(root, "height")) == sorted(h for h, _ in expected.values())
    # height h shows min(h, 8) - 1 layers below its top brick
    assert len(by_class(root, "tower-layer")) == sum(min(h, 8) - 1 for h, _ in expected.values())
    assert len(by_class(root, "last-move")) == 1
    assert len(by_class(root, "last-from")) == 1 and len(by_class(root, "last-to")) == 1
    assert by_class(root, "title")[0].text == "end"
    assert "final 5-3" in by_class(root, "status")[0].text


def test_pass_marks_no_move():
    root = parse(svg(Position.start(Board(3, 3)), PASS))
    assert not by_class(root, "last-move")


def test_text_picture_marks_last_move():
    board = Board(4, 3)
    position, moves = replay(board, "B2-C2")
    picture = text(position, moves[-1]).splitlines()
    assert len(picture) == 4
    assert picture[1].split() == ["2", "1b", "o", "2a*", "1a"]
    assert picture[3].split() == ["A", "B", "C", "D"]
    assert text(Position.start(board)).splitlines()[0].split() == ["3", "1a", "1b", "1a", "1b"]


# ---- sequences ------------------------------------------------------------------------------
def test_one_file_per_ply_and_index(tmp_path):
    board = Board(4, 3)
    _, moves = replay(board, LINE_4X3)
    paths = write_svg_sequence(game_frames(board, moves), str(tmp_path), heading="4x3 <test>")
    names = sorted(os.listdir(tmp_path))
    assert names == [f"{k:03d}.svg" for k in range(len(moves) + 1)] + ["index.html"]
    assert [os.path.basename(p) for p in paths] == names[:-1]
    for name in names[:-1]:
        parse((tmp_path / name).read_text())
    index = (tmp_path / "index.html").read_text()
    positions = [index.index(f'src="{name}"') for name in names[:-1]]
    assert positions == sorted(positions)
    assert "4x3 &lt;test&gt;" in index


def test_shorter_sequence_removes_old_numbered_pictures(tmp_path):
    board = Board(4, 3)
    _, moves = replay(board, LINE_4X3)
    write_svg_sequence(game_frames(board, moves), str(tmp_path))
    (tmp_path / "notes.txt").write_text("keep me")
    write_svg_sequence(game_frames(board, moves[:2]), str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["000.svg", "001.svg", "002.svg", "index.html", "notes.txt"]


def test_frames_include_passes():
    board = Board(3, 3)
    _, moves = replay(board, "A1-B1 B3-A3 C1-C2 A2-A3 B1-B2 -- B2-C2")
    frames = game_frames(board, moves)
    assert len(frames) == len(moves) + 1 == 8
    assert frames[6][1] is PASS and frames[6][3].heights == frames[5][3].heights


# ---- command line -----------------------------------------------------------------------
def test_cli_show_text():
    r = cli("show", "4x3", "--moves", "B2-C2")
    assert r.returncode == 0, r.stderr
    assert "after 1 moves" in r.stdout and "last move B2-C2 by the first player" in r.stdout
    assert "2a*" in r.stdout and "a = first player" in r.stdout


def test_cli_show_line_text():
    r = cli("show", "4x3", "--moves", "B2-C2 B1-C1 D2-D3", "--line", "--table-mb", "8")
    assert r.returncode == 0, r.stderr
    assert "optimal continuation (margin, value +2)" in r.stdout
    assert "02. ..." in r.stdout and "final 5-3, margin +2" in r.stdout


def test_cli_show_line_svg_one_picture_per_ply(tmp_path):
    out = tmp_path / "pics"
    r = run("show", "3x3", "--moves", "A1-B1", "--line", "--svg", str(out), "--json", "--table-mb", "8")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    plies = 1 + len(result["line"])  # passes included
    assert result["moves"] == ["A1-B1"] and result["value"] == 3
    names = sorted(os.listdir(out))
    assert names == [f"{k:03d}.svg" for k in range(plies + 1)] + ["index.html"]
    assert len(result["svg"]) == plies + 1
    for name in names[:-1]:
        root = parse((out / name).read_text())
        assert by_class(root, "title")
    last = parse((out / names[-2]).read_text())
    assert "optimal continuation" in by_class(last, "caption")[0].text
    assert "game over" in by_class(last, "caption")[0].text


def test_cli_show_svg_without_line(tmp_path):
    r = cli("show", "4x3", "--moves", "01. B2-C2 B1-C1", "--svg", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["000.svg", "001.svg", "002.svg", "index.html"]
    assert "wrote 3 pictures" in r.stdout


@pytest.mark.parametrize("args", [["banana"], ["9x8"], ["4x3", "--moves", "B1-C1"],
                                  ["4x3", "--moves", "A1-C1"], ["4x3", "--moves", "E1-D1"],
                                  ["4x3", "--moves", "A1B1"], ["4x3", "--svg", "{file}"],
                                  ["4x3", "--measure", "points"], []])
def test_cli_show_bad_input_exits_2_with_one_line(args, tmp_path):
    afile = tmp_path / "a-file"
    afile.write_text("")
    r = cli("show", *[a.replace("{file}", str(afile)) for a in args])
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in r.stderr


def test_cli_show_bad_move_in_a_subprocess_is_one_line():
    r = run("show", "4x3", "--moves", "B1-C1")
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_cli_show_help():
    r = cli("show", "--help")
    assert r.returncode == 0
    for option in ("--moves", "--line", "--svg", "--measure", "--json"):
        assert option in r.stdout


# ---- scripts/plot_cost.py -------------------------------------------------------------------
BENCH = """\
# python scripts/bench.py --boards 4x4 5x4 7x4
# commit abc, made-up numbers for this test only
 board  value          nodes   seconds  Mnodes/s  peak MB
   4x4     +1          62038      0.03      2.00       50
   5x4     +2        1587738      0.53      3.00       60
   7x4  limit     1800000000    600.00      3.00     2100
"""


def _plot_module():
    spec = importlib.util.spec_from_file_location("plot_cost", REPO / "scripts" / "plot_cost.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plot_cost = _plot_module()


def plot(*args, stdin=None):
    """scripts/plot_cost.py ARGS in this process, with `stdin` as standard input."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = plot_cost.main(list(args))
            except SystemExit as e:
                code = e.code
    finally:
        sys.stdin = old_stdin
    return Result(code or 0, out.getvalue(), err.getvalue())


def test_plot_script_runs_standalone(tmp_path):
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "plot_cost.py"), "-", "-o",
                        str(tmp_path / "c.svg")], input=BENCH, capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    parse((tmp_path / "c.svg").read_text())


def test_plot_from_bench_output(tmp_path):
    out = tmp_path / "cost.svg"
    r = plot("-", "-o", str(out), stdin=BENCH)
    assert r.returncode == 0, r.stderr
    root = parse(out.read_text())
    assert len(by_class(root, "point")) == 4 and len(by_class(root, "point-limit")) == 2
    labels = {el.text for el in by_class(root, "point-label")}
    assert labels == {"4x4", "5x4", "7x4+"}


def test_plot_from_plain_table_and_results(tmp_path):
    table = tmp_path / "t.txt"
    table.write_text("2x2 4 0.0\n4x3 6314 0.003\n")
    r = plot(str(table), "-o", str(tmp_path / "a.svg"))
    assert r.returncode == 0, r.stderr
    root = parse((tmp_path / "a.svg").read_text())
    assert len(by_class(root, "point")) == 3  # 2x2's 0.0 s is not on a log scale
    r = plot("--results", str(REPO / "results" / "sanjego"), "-o", str(tmp_path / "b.svg"))
    assert r.returncode == 0, r.stderr
    parse((tmp_path / "b.svg").read_text())


@pytest.mark.parametrize("args, stdin", [([], None), (["-"], "5x4 lots 1.0\n"), (["-"], "banana 1 2\n"),
                                         (["-"], "# nothing\n"), (["/no/such/file"], None),
                                         (["--bogus"], None)])
def test_plot_bad_input_exits_2_with_one_line(args, stdin, tmp_path):
    r = plot(*args, "-o", str(tmp_path / "x.svg"), stdin=stdin)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "x.svg").exists()


def estimate(*args):
    return subprocess.run([sys.executable, str(REPO / "scripts" / "estimate_by_depth.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_estimate_by_depth_solves_the_static_line_and_fits_it():
    from solver.sanjego import Board, Position
    from solver.sanjego.engine import Engine, ordered_moves
    r = estimate("--boards", "4x4", "--plies", "6", "--table-mb", "16")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("   4x4")]
    assert [int(row[1]) for row in rows] == [6, 5, 4, 3, 2, 1, 0]
    board = Board.parse("4x4")
    line = [Position.start(board)]
    for _ in range(6):
        line.append(line[-1].play(ordered_moves(line[-1])[0]))
    engine = Engine(board, table_mb=16)
    for row in rows:
        assert int(row[3]) == engine.value(line[int(row[1])])  # the value of that ply's position
    assert "nodes per ply nearer the start" in r.stdout and f"solved: {int(rows[-1][4]):,}" in r.stdout


@pytest.mark.parametrize("args", [["--fit", "1"], ["--boards", "banana"], ["--moves", "A1-A9"],
                                  ["--plies", "0"], ["--shallowest", "-1"], ["--table-mb", "-5"]])
def test_estimate_by_depth_bad_input_exits_2_with_one_line(args):
    r = estimate(*args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
