"""The exact two-player solver: the C core (solver._serans) behind a Position-level API.

Values are the first player's (rules.final_value2): 0 a draw, +k a win by k-1 levels of
tallest tower, -k a loss by k-1. The core searches the set-up placements too (two players:
the colour placed follows from the side and the set-up option), with its transposition table
kept between calls."""

from .._serans import Core
from .errors import RulesError
from .rules import COL, ROW, LineMove

C_MAX_SIZE = 4


def c_options(rules):
    return {"rammer_front": rules.rammer == "front", "order_trailing": rules.order == "trailing",
            "chain": int(rules.chain), "spawn_next": rules.spawn == "next-line",
            "spawn_high": rules.spawn_tie == "high", "new_always": rules.new_piece == "always",
            "stuck": ("partial", "pass", "end").index(rules.stuck),
            "end_turn": rules.end_check == "turn", "tiebreak_none": rules.tiebreak == "none",
            "full_line": int(rules.full_line), "setup_own": int(rules.setup == "own")}


def encode_stack(stack):
    code = 1 << len(stack) if stack else 0
    for i, p in enumerate(stack):
        code |= p << i
    return code


def decode_stack(code):
    if not code:
        return ()
    h = code.bit_length() - 1
    return tuple((code >> i) & 1 for i in range(h))


def encode_move(n, m):
    return (m.kind * n + m.index) * 2 + int(m.forward)


def decode_move(n, code):
    kind, index = divmod(code >> 1, n)
    return LineMove(ROW if kind == 0 else COL, index, bool(code & 1))


class Engine:
    """Exact values for one rule set (two players, board up to 4x4), table kept between calls."""

    def __init__(self, rules, table_mb=256, **search_options):
        if rules.players != 2:
            raise RulesError("the exact solver is for two players")
        if rules.size > C_MAX_SIZE:
            raise RulesError(f"the exact solver handles boards up to {C_MAX_SIZE}x{C_MAX_SIZE}")
        if rules.target + (rules.end_check == "turn") > 7:
            raise RulesError("the exact solver handles towers up to 7 high "
                             "(target <= 7, <= 6 with end_check=turn)")
        self.rules = rules
        # search_options: no_symmetry, no_ordering, full_window (measurements and checks only)
        self.core = Core(rules.size, rules.target, {**c_options(rules), **search_options},
                         table_bytes=int(table_mb * (1 << 20)))

    @property
    def nodes(self):
        return self.core.nodes

    def set_progress(self, callback):
        self.core.progress = callback

    def key(self, position):
        if position.stopped:
            raise ValueError("the game has stopped")
        return (bytes(encode_stack(s) for s in position.board), position.to_move, position.passes,
                sum(len(h) for h in position.hands))

    def value(self, position):
        """The first player's result with best play from `position` (set-up included)."""
        if position.is_over():
            return position.result2()
        self._last_to_move = position.to_move
        v = self.core.solve(self.key(position))
        return v if position.to_move == 0 else -v

    def bounds(self):
        """(lo, hi): what the last core search from the start of value() proved of the first
        player's value, also when it was interrupted (None for no bound). Valid for the
        position last passed to value()."""
        lo, hi = self.core.bounds
        if self._last_to_move == 1:
            lo, hi = -hi, -lo
        return (None if lo <= -100 else lo), (None if hi >= 100 else hi)

    def analyse(self, position):
        """[(move, value)] for every legal move, best first for the side to move."""
        rows = [(m, self.value(position.play(m))) for m in position.legal_moves()]
        rows.sort(key=lambda t: -t[1] if position.to_move == 0 else t[1])
        return rows

    def best_move(self, position, target=None):
        target = self.value(position) if target is None else target
        for m in position.legal_moves():
            if self.value(position.play(m)) == target:
                return m
        raise AssertionError("no move keeps the value: the solver contradicts itself")

    def line(self, position):
        """An optimal game from `position`: [(move, position after)]."""
        target = self.value(position)
        out = []
        while not position.is_over():
            m = self.best_move(position, target)
            position = position.play(m)
            out.append((m, position))
        return out



def coop_search_core(position, max_states=2_000_000, table_mb=1):
    """coop_search (search.py) for two players on the C core: breadth-first over whole turns
    (set-up placements count no turn), one entry per position up to the board symmetries that
    commute with the rules (the highest tower and the number of turns are invariant under them).
    Same result dict as coop_search."""
    from collections import deque
    engine = Engine(position.rules, table_mb=table_mb)
    core, target = engine.core, position.rules.target

    def tallest_code(cells):
        return max((c.bit_length() - 1 for c in cells), default=0)

    start = core.canonical(engine.key(position))[0]
    seen, queue = {start}, deque([(start, 0)])
    highest, to_target, complete = tallest_code(start[0]), None, True
    while queue:
        key, d = queue.popleft()
        h = tallest_code(key[0])
        highest = max(highest, h)
        if h >= target:
            if to_target is None:
                to_target = d
            continue
        if core.terminal(key) is not None:
            continue
        children = core.turns(key)
        if children is None:  # stuck = end: the game stops here
            continue
        step = 0 if key[3] else 1
        for _, _, child in children:
            c = core.canonical(child)[0]
            if c not in seen:
                if len(seen) >= max_states:
                    complete = False
                    continue
                seen.add(c)
                queue.append((c, d + step))
    return {"highest": highest, "turns_to_target": to_target, "states": len(seen),
            "complete": complete}
