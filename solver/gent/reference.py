"""Plain minimax over the Python rules: slow, obviously right, for checking the C core."""

from functools import lru_cache

from .position import TAILOR, Position, Start


def future_value(position):
    """The score the Tailor still earns from `position` with best play on both sides."""

    @lru_cache(maxsize=None)
    def value(key):
        p = _from_key(position.board, key)
        moves = p.legal_moves()
        if not moves:
            return 0
        results = []
        for m in moves:
            q = p.play(m)
            results.append(q.score - p.score + value(q.key()))
        return max(results) if p.to_move == TAILOR else min(results)

    return value(position.key())


def _from_key(board, key):
    vertex, sewn, free, captured, to_move = key
    return Position(board, vertex, sewn, free, captured, 0, to_move)


def perft(position, depth):
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(m), depth - 1) for m in moves)


def start_values(board):
    """Value for every start vertex (the Tailor's whole score)."""
    p0 = Position.initial(board)
    return [future_value(p0.play(Start(v))) for v in range(len(board.graph.labels))]
