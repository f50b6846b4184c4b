"""Cooperative mode: all players together, breadth-first by turns over every reachable position.

Results (both exact when `complete`):
- `turns_to_target`: the fewest turns until a tower of the target height stands (set-up
  placements count no turn), None if never;
- `highest`: the tallest tower reachable, searched up to the target (a tower of the target height
  ends the game, so positions holding one are not expanded).

The search keeps only two layers (the positions reached after d turns and after d + 1), each
without repeats, instead of one table of every position seen: a position reachable after
different numbers of turns is expanded once per layer it lies in, which costs time, never
correctness (the first layer holding a target tower is still the fewest turns, and the set of
positions visited, hence the highest tower, is the same). Every turn of line moves raises the sum
of squared heights and a round of passes ends the game, so the layers run out.

It stops as soon as the answer cannot change: a tower of the target height has been found (the
layers before the current one held none, so the count is the fewest) and the highest tower has
reached the most any position can hold (the target when the game ends at once, the target + 1
when it ends at the end of the turn: a first line move builds at most the target, a second one
raises it by at most one). Otherwise it runs until the layers are empty.
"""

from .rules import tallest


def layered_search(start, key_of, expand, in_setup, tallest_of_start, target, cap,
                   max_states=2_000_000, progress=None):
    """The search over abstract positions: `key_of(p)` a hashable key (repeats in a layer
    merge), `expand(p)` -> [(child, tallest tower of child)] ([] when the game is over),
    `in_setup(p)`: p's moves are set-up placements (they count no turn). `progress(states,
    turns)` is called every 4096 stored positions. `max_states` bounds the positions stored
    over the whole search; beyond it the search stops with complete=False."""
    res = {"highest": tallest_of_start, "turns_to_target": None, "states": 1, "complete": True,
           "layers": 0, "largest_layer": 1, "stopped_early": False}
    if tallest_of_start >= target:
        res["turns_to_target"] = 0
        return res
    layer, d, states = {key_of(start): start}, 0, 1
    highest, to_target = tallest_of_start, None
    while layer:
        queue = list(layer.values())
        nxt = {}
        i = 0
        while i < len(queue):
            p = queue[i]
            i += 1
            setup = in_setup(p)
            depth, dest = (d, layer) if setup else (d + 1, nxt)
            for child, h in expand(p):
                if h > highest:
                    highest = h
                if h >= target:  # not expanded: the game is over there
                    if to_target is None or depth < to_target:
                        to_target = depth
                    if highest >= cap and not setup:
                        res.update(highest=highest, turns_to_target=to_target, states=states,
                                   layers=d + 1, stopped_early=True)
                        res["largest_layer"] = max(res["largest_layer"], len(layer), len(nxt))
                        return res
                    continue
                k = key_of(child)
                if k in dest:
                    continue
                if states >= max_states:
                    res["complete"] = False
                    continue
                dest[k] = child
                states += 1
                if setup:
                    queue.append(child)
                if progress is not None and states & 4095 == 0:
                    progress(states, d)
        res["largest_layer"] = max(res["largest_layer"], len(layer), len(nxt))
        layer = nxt
        d += 1
    res.update(highest=highest, turns_to_target=to_target, states=states, layers=d)
    return res


def height_cap(rules):
    """The tallest tower any position can hold (see the module text)."""
    return rules.target + (1 if rules.end_check == "turn" else 0)


def coop_python(position, max_states=2_000_000, progress=None):
    """Plain-Python rules, any board and number of players."""
    rules = position.rules
    return layered_search(
        position, lambda p: p.key(),
        lambda p: [(q, tallest(q.board)) for _, q in p.successors()],
        lambda p: p.in_setup(), tallest(position.board), rules.target, height_cap(rules),
        max_states, progress)


def coop_core(position, max_states=2_000_000, progress=None):
    """Two players within the C core's limits: the core's turn generator, positions folded by
    the board symmetries that commute with the rules (the highest tower and the number of
    turns are invariant under them). Raises RulesError outside the core's limits."""
    from .engine import Engine
    rules = position.rules
    engine = Engine(rules, table_mb=1)
    core = engine.core
    key = core.canonical(engine.key(position))[0]
    packed = key[0] + bytes(key[1:])
    n2 = rules.size * rules.size
    return layered_search(
        packed, lambda k: k, core.coop_children, lambda k: k[n2 + 2] > 0,
        tallest(position.board), rules.target, height_cap(rules), max_states, progress)


def coop(position, max_states=2_000_000, progress=None):
    """The core where it applies (result "search": "core"), else plain Python ("python")."""
    from .errors import RulesError
    try:
        res = coop_core(position, max_states, progress)
        res["search"] = "core"
    except RulesError:
        res = coop_python(position, max_states, progress)
        res["search"] = "python"
    return res
