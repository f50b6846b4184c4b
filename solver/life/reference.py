"""A plain-Python coloured Life step, cell by cell, straight from the rules text; the tests
compare the C bitboard step against it on random boards."""


def neighbours(width, height, torus, r, c):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            rr, cc = r + dr, c + dc
            if torus:
                yield rr % height, cc % width
            elif 0 <= rr < height and 0 <= cc < width:
                yield rr, cc


def step(width, height, torus, a, b):
    """One generation on int masks (bit r*width + c). Marking first, then replacement: a token
    with fewer than 2 or more than 3 tokens (any colour) around it dies; an empty cell with
    exactly 3 around it is born in the colour of the majority of those 3."""
    colour = {}
    for r in range(height):
        for c in range(width):
            i = r * width + c
            if a >> i & 1:
                colour[(r, c)] = 0
            elif b >> i & 1:
                colour[(r, c)] = 1
    na = nb = 0
    for r in range(height):
        for c in range(width):
            # on a torus narrower than 3 a cell could be its own neighbour; sizes are >= 3
            around = [colour[n] for n in neighbours(width, height, torus, r, c) if n in colour]
            i = r * width + c
            me = colour.get((r, c))
            if me is not None:
                new = me if len(around) in (2, 3) else None
            elif len(around) == 3:
                new = 0 if around.count(0) >= 2 else 1
            else:
                new = None
            if new == 0:
                na |= 1 << i
            elif new == 1:
                nb |= 1 << i
    return na, nb
