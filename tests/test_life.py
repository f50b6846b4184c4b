"""Buntes Leben: the C step against the plain-Python reference, Life patterns with colours,
majority colour at birth, edges, the game flow, the exact search and the command line."""

import json
import random
import xml.etree.ElementTree as ET
from itertools import product

import pytest

from solver.cli import main
from solver.errors import InputError
from solver.life import reference
from solver.life.analysis import best_replies, survivors
from solver.life.board import FIRST, SECOND, Board
from solver.life.errors import IllegalSetupError, NotationError, OptionError
from solver.life.game import Game
from solver.life.players import PassPlayer, SearchPlayer
from solver.life.rules import Options
from solver.life.solve import CSolver, Solver


def board(w=8, h=8, edge="dead"):
    return Board(Options(width=w, height=h, quarter=1, tokens=1, edge=edge))


def cells(b, text):
    return b.parse_cells(text)


def run_gens(b, a, o, n):
    for _ in range(n):
        a, o = b.step(a, o)
    return a, o


# ---- the C step against the reference ----------------------------------------------------
@pytest.mark.parametrize("w,h,edge", [(8, 8, "dead"), (8, 8, "torus"), (6, 6, "dead"),
                                      (5, 7, "torus"), (7, 3, "dead"), (3, 3, "torus"), (8, 4, "torus")])
def test_step_matches_reference(w, h, edge):
    b = board(w, h, edge)
    rng = random.Random(w * 100 + h + (edge == "torus"))
    for _ in range(250):
        x = rng.getrandbits(w * h)
        y = rng.getrandbits(w * h) & ~x
        if rng.random() < 0.6:  # sparser boards, where births and survivals are common
            x &= rng.getrandbits(w * h)
            y &= rng.getrandbits(w * h)
        assert b.step(x, y) == reference.step(w, h, edge == "torus", x, y)


def test_neighbours_match_reference():
    for edge in ("dead", "torus"):
        b = board(6, 5, edge)
        for i in range(30):
            r, c = divmod(i, 6)
            want = sum(1 << (rr * 6 + cc) for rr, cc in reference.neighbours(6, 5, edge == "torus", r, c))
            assert b.neighbours(1 << i) == want


# ---- patterns with colours --------------------------------------------------------------
@pytest.mark.parametrize("first,second", [
    ("c3,d3,c4", "d4"),                     # block, mixed
    ("c3,d2,e2", "f3,d4,e4"),               # beehive, three and three
    ("c3,d3,c4", "e4,d5"),                  # boat, mixed
    ("c3,d3,c4,d4", "-"),                   # block, one colour
])
def test_still_lifes_keep_cells_and_colours(first, second):
    b = board()
    a, o = cells(b, first), cells(b, second)
    assert b.step(a, o) == (a, o)
    assert reference.step(8, 8, False, a, o) == (a, o)


def test_blinker_with_colours():
    b = board()
    a, o = cells(b, "c4,e4"), cells(b, "d4")          # X O X in a row
    a1, o1 = b.step(a, o)
    # the centre survives in its colour; d3 and d5 are born from X, O, X: the majority is X
    assert (a1, o1) == (cells(b, "d3,d5"), cells(b, "d4"))
    a2, o2 = b.step(a1, o1)
    assert (a2, o2) == (a, o)                          # period 2, colours restored
    # O X O: births are O
    assert b.step(o, a) == (cells(b, "d4"), cells(b, "d3,d5"))


def test_glider_moves_and_keeps_one_colour():
    b = board()
    glider = cells(b, "b1,c2,a3,b3,c3")
    a, o = run_gens(b, glider, 0, 4)
    assert o == 0 and a == glider << 9                 # one cell right and one down
    # the same glider in the other colour moves the same way
    assert run_gens(b, 0, glider, 4) == (0, glider << 9)


def test_mixed_glider_moves_as_a_shape():
    b = board()
    x, o = cells(b, "b1,a3,c3"), cells(b, "c2,b3")
    a4, o4 = run_gens(b, x, o, 4)
    assert a4 | o4 == (x | o) << 9
    assert popcount(a4) + popcount(o4) == 5


def popcount(x):
    return bin(x).count("1")


def test_glider_on_torus_comes_back():
    b = board(6, 6, "torus")
    glider = cells(b, "b1,c2,a3,b3,c3")
    assert run_gens(b, glider, 0, 24) == (glider, 0)


@pytest.mark.parametrize("neigh,colour", [("X X O", FIRST), ("O O X", SECOND), ("X X X", FIRST),
                                          ("O O O", SECOND)])
def test_majority_colour_at_birth(neigh, colour):
    b = board()
    spots = ["c3", "e3", "d5"]                         # three neighbours of d4, no others
    a = cells(b, ",".join(s for s, k in zip(spots, neigh.split()) if k == "X"))
    o = cells(b, ",".join(s for s, k in zip(spots, neigh.split()) if k == "O"))
    na, no = b.step(a, o)
    d4 = cells(b, "d4")
    assert (na if colour == FIRST else no) & d4 and not (na if colour == SECOND else no) & d4


def test_dying_tokens_still_count_as_neighbours():
    b = board()
    # c2 has four neighbours and dies; its neighbour count of 4 rests on tokens that also die
    a = cells(b, "b1,c1,d1,b2,c2")
    assert b.step(a, 0) == reference.step(8, 8, False, a, 0)
    assert not b.step(a, 0)[0] & cells(b, "c2")


def test_dead_edge_against_torus():
    dead, torus = board(6, 6, "dead"), board(6, 6, "torus")
    line = cells(dead, "b1,c1,d1")                     # a blinker on the top edge
    a1, _ = dead.step(line, 0)
    assert a1 == cells(dead, "c1,c2")                  # c0 does not exist
    assert dead.step(a1, 0) == (0, 0)
    t1, _ = torus.step(line, 0)
    assert t1 == cells(torus, "c6,c1,c2")              # wraps to the bottom row
    assert torus.step(t1, 0)[0] == line
    corner = cells(dead, "a1,f1,a6")                   # neighbours of f6 only across the edges
    assert not dead.step(corner, 0)[0] & cells(dead, "f6")
    assert torus.step(corner, 0)[0] & cells(torus, "f6")


# ---- options, notation, set-ups ---------------------------------------------------------
def test_options_defaults_and_checks():
    o = Options()
    assert (o.width, o.height, o.quarter, o.tokens, o.edge) == (8, 8, 4, 5, "dead")
    assert [g for g in range(1, 9) if o.placement_before(g)] == [2, 4, 6, 8]
    assert [g for g in range(1, 8) if Options(place_first=1).placement_before(g)] == [1, 3, 5, 7]
    assert not any(Options(place_every=0).placement_before(g) for g in range(1, 9))
    for bad in ({"width": 9}, {"quarter": 5}, {"tokens": 17}, {"edge": "wrap"}, {"extra": 6},
                {"order": "dice"}, {"generations": 0}, {"tokens": "5"}, {"place_optional": 1}):
        with pytest.raises(OptionError):
            Options(**bad)
    assert issubclass(OptionError, InputError) and issubclass(NotationError, InputError)


def test_cell_names_and_bad_cells():
    b = Board(Options())
    assert b.cell_name(0) == "a1" and b.cell_name(63) == "h8" and b.cell_name(10) == "c2"
    assert b.parse_cells("a1, C2 h8") == 1 | 1 << 10 | 1 << 63
    for bad in ("i1", "a9", "a1,a1", "x", "a0"):
        with pytest.raises(NotationError):
            b.parse_cells(bad)
    with pytest.raises(NotationError):
        Board(Options(width=6, height=6, quarter=3)).parse_cells("g1")


def test_setups_and_symmetry_classes():
    b = Board(Options())
    assert len(b.setups(FIRST)) == 4368 and len(b.setups(SECOND)) == 4368
    classes = b.setups(FIRST, canonical=True)
    assert len(classes) == 2226                        # (4368 + 84 symmetric) / 2
    assert all(m & ~b.corner[FIRST] == 0 for m in classes)
    g = Game(Options())
    with pytest.raises(IllegalSetupError):
        g.check_setup(FIRST, b.parse_cells("a1,b1,c1,d1,e1"))       # e1 outside the corner
    with pytest.raises(IllegalSetupError):
        g.check_setup(SECOND, b.parse_cells("h8,g8,f8,e8"))         # four tokens


# ---- game flow --------------------------------------------------------------------------
class Scripted(PassPlayer):
    def __init__(self, moves):
        self.moves = list(moves)

    def place(self, game, a, b, player, gen, known, rng):
        return self.moves.pop(0) if self.moves else 0


def test_placements_next_to_own_tokens_only():
    g = Game(Options())
    b = g.board
    a, o = b.parse_cells("a1,b1,a2,b2"), b.parse_cells("g7,h7,g8,h8")
    assert g.placement_cells(a, o, FIRST) == b.parse_cells("c1,c2,a3,b3,c3")
    assert len(g.placements(a, o, FIRST)) == 6                      # five cells or none
    assert len(Game(Options(extra=2)).placements(a, o, FIRST)) == 1 + 5 + 10
    assert len(Game(Options(place_optional=False)).placements(a, o, FIRST)) == 5
    with pytest.raises(IllegalSetupError):
        g.check_placement(a, o, FIRST, b.parse_cells("d4"))
    with pytest.raises(IllegalSetupError):
        g.check_placement(a, o, FIRST, b.parse_cells("c1,c2"))


def test_game_with_placements_and_limit():
    g = Game(Options(generations=4, order="first"))
    b = g.board
    a, o = b.parse_cells("a1,b1,a2,c4,d4"), b.parse_cells("g7,h7,g8,e5,f6")
    c3 = b.parse_cells("c3")
    rec = g.play(a, o, [Scripted([c3]), PassPlayer()], random.Random(0))
    assert [x.gen for x in rec.generations] == [0, 1, 2, 3, 4]
    assert rec.generations[2].placed == (c3, 0) and rec.generations[2].order == FIRST
    assert rec.result in (-1, 0, 1) and "limit 4" in rec.reason


def test_extinction_and_both_extinct():
    g = Game(Options())
    b = g.board
    lone = b.parse_cells("a1,d1,a2,d2,a4")               # five scattered tokens die at once
    block = b.parse_cells("g7,h7,g8,h8,e5")
    rec = g.play(lone, block, [PassPlayer(), PassPlayer()], random.Random(0))
    assert rec.result == -1 and rec.generations[-1].gen == 1
    for rule, value in (("draw", 0), ("first", 1), ("second", -1)):
        g2 = Game(Options(both_extinct=rule))
        lone2 = g2.board.parse_cells("h5,e7,h7,e8,h8")
        assert g2.play(lone, lone2, [PassPlayer(), PassPlayer()], random.Random(0)).result == value
    assert g.result(1, 3, 40) == (-1, "generation limit 40 reached, 1 tokens against 2")
    assert Game(Options(limit_score="draw")).result(1, 3, 40)[0] == 0


# ---- analyses and exact search ----------------------------------------------------------
def test_survivors_small():
    res = survivors(Options(quarter=2, tokens=3), 50)
    assert res["setups"] == 4 and res["classes"] == 3
    assert res["by_fate"] == {"still life": {"classes": 3, "setups": 4}}   # every L becomes a block
    res = survivors(Options(width=6, height=6, quarter=3, tokens=3), 50)
    assert res["setups"] == 84
    rows = {r["setup"]: r for r in res["rows"]}
    assert rows["a2,b2,c2"]["fate"] == "oscillator (period 2)"
    assert rows["a1,b1,c1"]["fate"] == "dies"            # a blinker on the edge


def test_best_replies_rows():
    res = best_replies(Options(width=6, height=6, quarter=3, tokens=3), 10)
    assert res["first_classes"] == len(res["rows"])
    b = Board(Options(width=6, height=6, quarter=3, tokens=3))
    for r in res["rows"][:10]:
        a, o = b.parse_cells(r["setup"]), b.parse_cells(r["best_reply"])
        assert b.core.duel(a, o, 10)[0] == r["value"]
        assert r["first_wins"] + r["draws"] + r["second_wins"] == 84


def brute(game, a, b, gen, coin):
    """Plain minimax over the whole tree: the reference for the alpha-beta search."""
    end = game.result(a, b, gen) if gen else None
    if end is not None:
        return end[0]
    if not game.options.placement_before(gen + 1):
        return brute(game, *game.board.step(a, b), gen + 1, coin)
    order = game.fixed_order(gen + 1)
    values = []
    for first in ([order] if order is not None else [FIRST, SECOND]):
        second = 1 - first
        outer = []
        for m1 in game.placements(a, b, first):
            a1, b1 = (a | m1, b) if first == FIRST else (a, b | m1)
            inner = []
            for m2 in game.placements(a1, b1, second):
                a2, b2 = (a1 | m2, b1) if second == FIRST else (a1, b1 | m2)
                inner.append(brute(game, *game.board.step(a2, b2), gen + 1, coin))
            outer.append(max(inner) if second == FIRST else min(inner))
        values.append(max(outer) if first == FIRST else min(outer))
    return min(values) if coin == "against-first" else max(values)


@pytest.mark.parametrize("order,coin,extra,optional", [
    ("coin", "against-first", 1, True), ("coin", "against-second", 1, True),
    ("first", "against-first", 1, True), ("alternate", "against-first", 1, True),
    ("second", "against-first", 1, False), ("coin", "against-first", 2, True)])
def test_solvers_match_brute_force(order, coin, extra, optional):
    o = Options(width=5, height=5, quarter=2, tokens=3, generations=4 if extra == 1 else 2,
                order=order, place_first=1,
                extra=extra, place_optional=optional)
    solvers = [Solver(o, coin=coin), CSolver(o, coin=coin, table_mb=1)]
    g = solvers[0].game
    pairs = list(product(g.board.setups(FIRST), g.board.setups(SECOND)))
    for a, b in pairs[::3] if order == "coin" else pairs:     # the coin doubles every round
        want = brute(g, a, b, 0, coin)
        assert [s.setup_value(a, b) for s in solvers] == [want, want]
    a = g.board.setups(FIRST)[0]
    for s in (Solver(o, coin=coin), CSolver(o, coin=coin, table_mb=1)):
        v, reply, _ = s.best_reply(a)
        assert v == min(brute(g, a, b, 0, coin) for b in g.board.setups(SECOND))
        assert brute(g, a, reply, 0, coin) == v


# ---- players ----------------------------------------------------------------------------
def test_search_player_takes_a_winning_placement():
    g = Game(Options(generations=3, order="first"))
    b = g.board
    # the first player's pair b1,a2 dies without help; placing a1 makes a block
    a, o = b.parse_cells("b1,a2"), b.parse_cells("g7,h7,g8,h8")
    m = SearchPlayer(horizon=2).place(g, a, o, FIRST, 2, None, random.Random(0))
    na, _ = b.step(a | m, o)
    assert na                                          # it survives the next generation


# ---- command line -----------------------------------------------------------------------
def cli(capsys, *argv):
    code = main(["life", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("argv", [
    ["show", "--first", "a1,b1,c1,b2,z3"],
    ["show", "--first", "a1,b1,c1,b2,e5"],
    ["show", "--first", "a1,b1"],
    ["show", "--size", "9x9"],
    ["show", "--size", "8"],
    ["show", "--quarter", "5"],
    ["show", "--extra", "6"],
    ["show", "--edge", "wrap"],
    ["show", "--players", "search"],
    ["solve", "--tokens", "10"],
    ["survivors", "--limit", "5000"],
    ["selfplay", "--games", "0"],
    ["survivors", "--out", "/"],                       # a directory, not a file
    ["show", "--svg", "/dev/null"],                    # a file, not a directory
])
def test_bad_input_is_one_line_and_status_2(capsys, argv):
    try:
        code, out, err = cli(capsys, *argv)
    except SystemExit as e:
        code, err = e.code, capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_show_text_json_and_svg(capsys, tmp_path):
    code, out, _ = cli(capsys, "show", "--first", "a1,b1,a2,c3,d4", "--second", "h8,g8,h7,e5,f6",
                       "--generations", "3", "--svg", str(tmp_path))
    assert code == 0 and "generation 3" in out and "result:" in out
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["gen-000.svg", "gen-001.svg", "gen-002.svg", "gen-003.svg", "generations.svg"]
    root = ET.parse(tmp_path / "gen-000.svg").getroot()
    classes = [el.get("class") for el in root.iter()]
    assert classes.count("token-first") == 5 and classes.count("token-second") == 5
    overview = [el.get("class") for el in ET.parse(tmp_path / "generations.svg").getroot().iter()]
    assert overview.count("panel") == 4
    code, out, _ = cli(capsys, "show", "--players", "random,random", "--generations", "4", "--json")
    game = json.loads(out)
    assert [g["gen"] for g in game["generations"]][-1] <= 4 and game["result"] in (-1, 0, 1)


def test_survivors_and_replies_json(capsys, tmp_path):
    out_file = tmp_path / "s.json"
    code, out, _ = cli(capsys, "survivors", "--json", "--quiet", "--out", str(out_file))
    res = json.loads(out)
    assert code == 0 and res["setups"] == 4368 and res["classes"] == 2226
    assert sum(v["setups"] for v in res["by_fate"].values()) == 4368
    assert json.loads(out_file.read_text())["provenance"]["command"].startswith("python -m solver")
    code, out, _ = cli(capsys, "replies", "--size", "6x6", "--quarter", "3", "--tokens", "3",
                       "--generations", "8", "--json")
    assert json.loads(out)["first_classes"] == 47


def test_solve_small_json(capsys):
    code, out, _ = cli(capsys, "solve", "--size", "5x5", "--quarter", "2", "--generations", "4",
                       "--all-replies", "--json")
    res = json.loads(out)
    assert code == 0 and set(res["coin"]) == {"against-first", "against-second"}
    for row in res["coin"]["against-first"]["rows"]:
        assert row["best_reply"] in row["best_replies"]
        assert sum(row["replies_by_value"].values()) == 4
    assert res["coin"]["against-first"]["value"] <= res["coin"]["against-second"]["value"]


def test_selfplay_is_reproducible(capsys):
    argv = ["selfplay", "--games", "2", "--seed", "7", "--size", "6x6", "--quarter", "3",
            "--tokens", "4", "--generations", "8", "--players", "search,random", "--json"]
    first = json.loads(cli(capsys, *argv)[1])
    second = json.loads(cli(capsys, *argv)[1])
    first.pop("seconds"), second.pop("seconds")
    assert first == second and first["games"] == 2
    assert first["first_wins"] + first["draws"] + first["second_wins"] == 2
