"""Analyses of set-ups over the whole set-up corner, in the C core.

survivors(options, limit)   every set-up of the first player on its own (no opponent, no
                            placements), one per class under the diagonal reflection: when it
                            dies out, or the still life / oscillator it settles into.
best_replies(options, limit)  every first-player set-up class against every second-player
                            set-up in a duel without placements (set-ups only, then Life for
                            `limit` generations, scored by the options): the second player's
                            best result and one reply that reaches it.
"""

from .board import FIRST, SECOND, Board


def fate(died, start, period):
    if died:
        return "dies"
    if period == 1:
        return "still life"
    if period:
        return f"oscillator (period {period})"
    return "alive at the limit"


def survivors(options, limit, progress=None):
    board = Board(options)
    setups = board.setups(FIRST, canonical=True)
    rows = []
    for k, a in enumerate(setups):
        died, start, period, pop = board.core.alone(a, limit)
        rows.append({"setup": board.format_cells(a), "class_size": 1 if board.transpose(a) == a or not board.symmetric() else 2,
                     "fate": fate(died, start, period), "died_in": died or None,
                     "settled_at": start if period else None, "period": period or None,
                     "final_tokens": pop})
        if progress:
            progress(k + 1, len(setups))
    summary = {}
    for r in rows:
        key = r["fate"]
        summary.setdefault(key, [0, 0])
        summary[key][0] += 1
        summary[key][1] += r["class_size"]
    total = sum(r["class_size"] for r in rows)
    return {"limit": limit, "setups": total, "classes": len(rows),
            "surviving_classes": sum(r["fate"] != "dies" for r in rows),
            "surviving_setups": sum(r["class_size"] for r in rows if r["fate"] != "dies"),
            "by_fate": {k: {"classes": v[0], "setups": v[1]} for k, v in sorted(summary.items())},
            "rows": rows}


def best_replies(options, limit, progress=None, chunk=16):
    board = Board(options)
    firsts = board.setups(FIRST, canonical=True)
    seconds = board.setups(SECOND)
    rows = []
    count = options.limit_score == "count"
    for k in range(0, len(firsts), chunk):
        part = firsts[k:k + chunk]
        for a, (best, reply, counts) in zip(part, board.core.best_replies(
                part, seconds, limit, options.both_extinct_value(), count)):
            rows.append({"setup": board.format_cells(a), "value": best,
                         "best_reply": board.format_cells(seconds[reply]),
                         "replies_losing_wins_draws_wins": None,
                         "second_wins": counts[0], "draws": counts[1], "first_wins": counts[2]})
        if progress:
            progress(min(k + chunk, len(firsts)), len(firsts))
    for r in rows:
        del r["replies_losing_wins_draws_wins"]
    top = max(r["value"] for r in rows)
    return {"limit": limit, "first_classes": len(firsts), "second_setups": len(seconds),
            "value": top, "best_first": [r["setup"] for r in rows if r["value"] == top],
            "by_value": {str(v): sum(r["value"] == v for r in rows) for v in (-1, 0, 1)},
            "rows": rows}
