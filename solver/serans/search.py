"""Plain-Python search: the reference two-player minimax (the C solver is checked against it),
a depth-limited player for 2-4 players (max^n or paranoid), and the cooperative search.

Two-player values are the first player's (see rules.final_value2): 0 a draw, +k a win whose
tallest tower is k-1 levels above the opponent's tallest, -k the same loss.
"""

from collections import deque

from .rules import heights_of, tallest


# ---- exact two-player reference ------------------------------------------------------------
class SearchLimit(Exception):
    """minimax2 met more than its node limit."""


def minimax2(position, memo=None, limit=None):
    """Exact value (first player's view) of a two-player position, set-up included. Plain
    recursion with a memo: for tiny boards only; SearchLimit after `limit` positions."""
    memo = {} if memo is None else memo
    stats = {"nodes": 0}

    def value(p):
        k = p.key()
        if k in memo:
            return memo[k]
        stats["nodes"] += 1
        if limit is not None and stats["nodes"] > limit:
            raise SearchLimit(limit)
        if p.is_over():
            v = p.result2()
        else:
            vals = [value(p.play(m)) for m in p.legal_moves()]
            v = max(vals) if p.to_move == 0 else min(vals)
        memo[k] = v
        return v

    if position.rules.players != 2:
        raise ValueError("minimax2 is for two players")
    return value(position)


# ---- heuristic players ---------------------------------------------------------------------
WIN_BONUS = 10_000


def evaluate(position):
    """A score per player: the sum of squared heights of the towers they own (tall towers count
    most), plus WIN_BONUS for the winners of a finished game."""
    b = position.board
    scores = [sum(h * h for h in heights_of(b, p)) for p in range(position.rules.players)]
    if position.is_over():
        for p in position.winners():
            scores[p] += WIN_BONUS
    return scores


class SearchPlayer:
    """Depth-limited search over whole turns. mode 'maxn': every player maximises their own
    evaluation; 'paranoid': the others minimise the searching player's lead over the best of
    them. depth 1 looks at one's own turn only. Ties are broken by `rng` (reproducible)."""

    def __init__(self, depth=1, mode="maxn", rng=None):
        if mode not in ("maxn", "paranoid"):
            raise ValueError("mode is maxn or paranoid")
        self.depth, self.mode, self.rng, self.nodes = depth, mode, rng, 0

    def _children(self, p):
        return p.successors()

    def _maxn(self, p, depth):
        self.nodes += 1
        if depth == 0 or p.is_over():
            return evaluate(p)
        best = None
        for _, q in self._children(p):
            v = self._maxn(q, depth - 1)
            if best is None or v[p.to_move] > best[p.to_move]:
                best = v
        return best

    def _lead(self, scores, me):
        return scores[me] - max(s for i, s in enumerate(scores) if i != me)

    def _paranoid(self, p, depth, me, alpha, beta):
        self.nodes += 1
        if depth == 0 or p.is_over():
            return self._lead(evaluate(p), me)
        maximise = p.to_move == me
        best = -float("inf") if maximise else float("inf")
        for _, q in self._children(p):
            v = self._paranoid(q, depth - 1, me, alpha, beta)
            if maximise:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if alpha >= beta:
                break
        return best

    def choose(self, p):
        children = self._children(p)
        if self.rng is not None:
            self.rng.shuffle(children)
        me, best, best_v = p.to_move, None, None
        for m, q in children:
            if self.mode == "maxn":
                v = self._maxn(q, self.depth - 1)[me]
            else:
                v = self._paranoid(q, self.depth - 1, me, -float("inf"), float("inf"))
            if best_v is None or v > best_v:
                best, best_v = m, v
        return best


class RandomPlayer:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, p):
        return self.rng.choice(p.legal_moves())


# ---- cooperative mode ----------------------------------------------------------------------
def coop_search(position, max_states=2_000_000):
    """All players together: breadth-first over every reachable position (whole turns).
    Returns {"highest": the tallest tower reachable, "turns_to_target": fewest turns until a
    tower of the target height stands (None if never), "states": positions seen, "complete":
    False if max_states stopped the search (then both figures are lower/upper bounds only)}."""
    start = position
    seen = {start.key()}
    queue = deque([(start, 0)])
    highest, to_target = tallest(start.board), None
    complete = True
    while queue:
        p, d = queue.popleft()
        h = tallest(p.board)
        highest = max(highest, h)
        if h >= p.rules.target:
            if to_target is None:
                to_target = d
            continue
        if p.is_over():
            continue
        for m in p.legal_moves():
            q = p.play(m)
            k = q.key()
            if k not in seen:
                if len(seen) >= max_states:
                    complete = False
                    continue
                seen.add(k)
                queue.append((q, d + (0 if p.in_setup() else 1)))
    return {"highest": highest, "turns_to_target": to_target, "states": len(seen),
            "complete": complete}
