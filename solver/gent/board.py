"""Plane graphs and boards (a plane graph with a chosen outer face).

A graph is read from JSON: `edges` (vertex pairs, any integer labels), `faces` (every face,
the outer one included, as vertex cycles in either orientation) and optionally
`rotation_clockwise` (each vertex's neighbours in clockwise order), which is checked against
the faces when present. Vertices are numbered 0..V-1 internally in the order of their labels;
faces keep the file's order and are named f1, f2, ... in it.
"""

import json
from importlib import resources
from pathlib import Path

from .errors import GraphError

BUILTIN = ("schneider17", "ghent17", "cube", "prism", "octahedron")
MAX_ITEMS = 64  # the C core keeps vertices, edges and faces in 64-bit sets


def cycle_key(cycle):
    """The same tuple for every rotation and direction of a cycle."""
    cycle = tuple(cycle)
    n = len(cycle)
    forms = []
    for seq in (cycle, cycle[::-1]):
        for i in range(n):
            forms.append(seq[i:] + seq[:i])
    return min(forms)


class PlaneGraph:
    """A simple connected plane graph given by its faces."""

    def __init__(self, name, edges, faces, rotation=None):
        self.name = name
        if not isinstance(edges, list) or not edges:
            raise GraphError(f"{name}: 'edges' must be a non-empty list of vertex pairs")
        if not isinstance(faces, list) or not faces:
            raise GraphError(f"{name}: 'faces' must be a non-empty list of vertex cycles")
        pairs = []
        for e in edges:
            if (not isinstance(e, list) or len(e) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in e)):
                raise GraphError(f"{name}: edge {e!r} is not a pair of integers")
            if e[0] < 0 or e[1] < 0:
                # Cycles (--outer 1-2-7-3) and moves (7-14) are written with "-" between labels.
                raise GraphError(f"{name}: edge {e!r} has a negative vertex label; labels must be 0 or more")
            if e[0] == e[1]:
                raise GraphError(f"{name}: edge {e[0]}-{e[1]} is a loop")
            pairs.append((e[0], e[1]))
        self.labels = sorted({x for p in pairs for x in p})
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.edges = []
        self.edge_index = {}
        for a, b in pairs:
            i, j = sorted((self.index[a], self.index[b]))
            if (i, j) in self.edge_index:
                raise GraphError(f"{name}: edge {a}-{b} is listed twice")
            self.edge_index[(i, j)] = len(self.edges)
            self.edges.append((i, j))
        V, E = len(self.labels), len(self.edges)
        self.neighbours = [[] for _ in range(V)]
        for i, j in self.edges:
            self.neighbours[i].append(j)
            self.neighbours[j].append(i)
        self.degree = [len(n) for n in self.neighbours]
        self._check_connected()

        self.faces = []
        sides = [[] for _ in range(E)]
        for f, cycle in enumerate(faces):
            if (not isinstance(cycle, list) or len(cycle) < 3
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in cycle)):
                raise GraphError(f"{name}: face {cycle!r} is not a cycle of at least 3 vertices")
            for x in cycle:
                if x not in self.index:
                    raise GraphError(f"{name}: face {self._cycle_text(cycle)} uses vertex {x}, "
                                     "which is on no edge")
            vs = tuple(self.index[x] for x in cycle)
            for k in range(len(vs)):
                a, b = vs[k], vs[(k + 1) % len(vs)]
                e = self.edge_index.get((min(a, b), max(a, b)))
                if e is None:
                    raise GraphError(f"{name}: face {self._cycle_text(cycle)} steps "
                                     f"{self.labels[a]}-{self.labels[b]}, which is not an edge")
                sides[e].append(f)
            self.faces.append(vs)
        for e, fs in enumerate(sides):
            if len(fs) != 2 or fs[0] == fs[1]:
                i, j = self.edges[e]
                raise GraphError(f"{name}: edge {self.labels[i]}-{self.labels[j]} lies on "
                                 f"{len(set(fs))} face(s); every edge must lie on exactly two")
        self.edge_faces = [tuple(fs) for fs in sides]
        F = len(self.faces)
        if V - E + F != 2:
            raise GraphError(f"{name}: V - E + F = {V} - {E} + {F} = {V - E + F}, not 2: "
                             "the faces do not describe a plane graph")
        self._check_vertex_links()
        if rotation is not None:
            self._check_rotation(rotation)
        if max(V, E, F) > MAX_ITEMS:
            raise GraphError(f"{name}: at most {MAX_ITEMS} vertices, edges and faces are supported")
        self._face_by_key = {}
        for f, vs in enumerate(self.faces):
            self._face_by_key.setdefault(cycle_key(vs), f)
        self._automorphisms = None

    def _cycle_text(self, cycle):
        return "-".join(str(x) for x in cycle)

    def _check_connected(self):
        seen, todo = {0}, [0]
        while todo:
            for w in self.neighbours[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        if len(seen) != len(self.labels):
            raise GraphError(f"{self.name}: the graph is not connected")

    def _check_vertex_links(self):
        """Around every vertex the face corners must close into one cycle (a sphere, not a
        pinched surface)."""
        corners = [[] for _ in self.labels]
        for vs in self.faces:
            n = len(vs)
            for k in range(n):
                corners[vs[k]].append((vs[k - 1], vs[(k + 1) % n]))
        for v, cs in enumerate(corners):
            if len(cs) != self.degree[v]:
                raise GraphError(f"{self.name}: vertex {self.labels[v]} has {len(cs)} face "
                                 f"corners but degree {self.degree[v]}")
            link = {}
            for a, b in cs:
                link.setdefault(a, []).append(b)
                link.setdefault(b, []).append(a)
            seen, todo = {cs[0][0]}, [cs[0][0]]
            while todo:
                for x in link[todo.pop()]:
                    if x not in seen:
                        seen.add(x)
                        todo.append(x)
            if (len(link) != self.degree[v] or len(seen) != len(link)
                    or any(len(x) != 2 for x in link.values())):
                raise GraphError(f"{self.name}: the faces around vertex {self.labels[v]} "
                                 "do not form one cycle")

    def _check_rotation(self, rotation):
        if not isinstance(rotation, dict):
            raise GraphError(f"{self.name}: 'rotation_clockwise' must map vertices to lists")
        rot = {}
        for key, nbrs in rotation.items():
            try:
                v = self.index[int(key)]
                order = [self.index[int(x)] for x in nbrs]
            except (KeyError, ValueError, TypeError):
                raise GraphError(f"{self.name}: rotation of vertex {key} names unknown vertices")
            if sorted(order) != sorted(self.neighbours[v]):
                raise GraphError(f"{self.name}: rotation of vertex {key} does not list exactly "
                                 "its neighbours")
            rot[v] = order
        if len(rot) != len(self.labels):
            raise GraphError(f"{self.name}: 'rotation_clockwise' does not cover every vertex")
        traced, used = set(), set()
        for i, j in self.edges:
            for dart in ((i, j), (j, i)):
                if dart in used:
                    continue
                cycle = []
                u, v = dart
                while (u, v) not in used:
                    used.add((u, v))
                    cycle.append(u)
                    order = rot[v]
                    u, v = v, order[(order.index(u) + 1) % len(order)]
                traced.add(cycle_key(cycle))
        if traced != {cycle_key(vs) for vs in self.faces}:
            raise GraphError(f"{self.name}: the faces traced from 'rotation_clockwise' differ "
                             "from the listed faces")

    # ---- naming -------------------------------------------------------------------------
    def vertex_name(self, v):
        return str(self.labels[v])

    def face_name(self, f):
        return f"f{f + 1}"

    def face_text(self, f):
        return "-".join(self.vertex_name(v) for v in self.faces[f])

    def parse_vertex(self, text):
        try:
            return self.index[int(text)]
        except (ValueError, KeyError):
            raise GraphError(f"{self.name}: no vertex {text!r}") from None

    def parse_face(self, text):
        t = text[1:] if text[:1] in ("f", "F") else text
        if t.isdigit() and 1 <= int(t) <= len(self.faces):
            return int(t) - 1
        raise GraphError(f"{self.name}: no face {text!r} (faces are f1..f{len(self.faces)})")

    def face_of_cycle(self, text):
        """The face whose boundary is the vertex cycle `text` ("1-2-7-3", any rotation or
        direction), or a face name ("f4")."""
        text = text.strip()
        if text[:1] in ("f", "F"):
            return self.parse_face(text)
        parts = text.replace(",", "-").split("-")
        vs = [self.parse_vertex(p.strip()) for p in parts if p.strip()]
        f = self._face_by_key.get(cycle_key(vs)) if vs else None
        if f is None:
            raise GraphError(f"{self.name}: {text} is not a face; faces are "
                             + ", ".join(self.face_text(g) for g in range(len(self.faces))))
        return f

    # ---- symmetry -----------------------------------------------------------------------
    def automorphisms(self):
        """Every vertex permutation (tuple, image of each vertex) mapping edges to edges and
        faces to faces, the identity first."""
        if self._automorphisms is None:
            self._automorphisms = self._find_automorphisms()
        return self._automorphisms

    def _find_automorphisms(self):
        V = len(self.labels)
        adj = [set(n) for n in self.neighbours]
        order = sorted(range(V), key=lambda v: -self.degree[v])
        # Search in BFS order so every vertex after the first has a mapped neighbour.
        bfs, seen = [order[0]], {order[0]}
        for v in bfs:
            for w in sorted(self.neighbours[v], key=lambda w: -self.degree[w]):
                if w not in seen:
                    seen.add(w)
                    bfs.append(w)
        face_keys = {cycle_key(vs) for vs in self.faces}
        found = []
        image = [-1] * V

        def extend(k, used):
            if k == V:
                if all(cycle_key([image[v] for v in vs]) in face_keys for vs in self.faces):
                    found.append(tuple(image))
                return
            v = bfs[k]
            for w in range(V):
                if w in used or self.degree[w] != self.degree[v]:
                    continue
                if all((image[u] in adj[w]) == (u in adj[v]) for u in bfs[:k]):
                    image[v] = w
                    used.add(w)
                    extend(k + 1, used)
                    used.discard(w)
                    image[v] = -1

        extend(0, set())
        identity = tuple(range(V))
        found.sort(key=lambda p: p != identity)
        return found

    def face_image(self, perm, f):
        return self._face_by_key[cycle_key([perm[v] for v in self.faces[f]])]

    def face_classes(self, faces=None):
        """Faces (all, or the given ones) grouped into classes of faces that an automorphism
        maps onto each other; each class sorted, classes by their first face."""
        faces = range(len(self.faces)) if faces is None else faces
        classes, placed = [], set()
        for f in faces:
            if f in placed:
                continue
            cls = sorted({self.face_image(p, f) for p in self.automorphisms()})
            placed.update(cls)
            classes.append(cls)
        return classes


def _builtin_text(name):
    return resources.files(__package__).joinpath("graphs", f"{name}.json").read_text()


def load_graph(source):
    """A built-in graph by name, or a JSON file (`path`, or `path#name` for a file that holds
    several named graphs)."""
    if source in BUILTIN:
        data, name = json.loads(_builtin_text(source)), source
    else:
        path, _, pick = str(source).partition("#")
        name = pick or Path(path).stem
        try:
            data = json.loads(Path(path).read_text())
        except FileNotFoundError:
            raise GraphError(f"no graph file {path} (built-in boards: {', '.join(BUILTIN)})") from None
        except (OSError, UnicodeDecodeError) as e:
            raise GraphError(f"cannot read {path}: {e}") from None
        except json.JSONDecodeError as e:
            raise GraphError(f"{path} is not JSON: {e}") from None
        if pick and isinstance(data, dict) and "edges" in data:
            raise GraphError(f"{path} holds one graph, not several: drop #{pick}")
        if isinstance(data, dict) and "edges" not in data:
            graphs = {k: v for k, v in data.items() if isinstance(v, dict) and "edges" in v}
            if pick:
                if pick not in graphs:
                    raise GraphError(f"{path} holds no graph {pick!r} "
                                     f"(it holds: {', '.join(graphs) or 'none'})")
                data = graphs[pick]
            elif len(graphs) == 1:
                name, data = next(iter(graphs.items()))
            else:
                raise GraphError(f"{path} holds several graphs ({', '.join(graphs) or 'none'}); "
                                 f"pick one with {path}#NAME")
        if not isinstance(data, dict) or "edges" not in data or "faces" not in data:
            raise GraphError(f"{path}: a graph needs 'edges' and 'faces'")
    return PlaneGraph(name, data["edges"], data["faces"], data.get("rotation_clockwise"))


class Board:
    """A plane graph with its outer face chosen: one button in every other (inner) face."""

    def __init__(self, graph, outer):
        self.graph = graph
        self.outer = graph.face_of_cycle(outer) if isinstance(outer, str) else outer
        g = graph
        self.inner_faces = [f for f in range(len(g.faces)) if f != self.outer]
        # Automorphisms that keep the outer face: they map positions to equivalent positions.
        self.symmetries = [p for p in g.automorphisms() if g.face_image(p, self.outer) == self.outer]

    @classmethod
    def load(cls, source, outer):
        return cls(load_graph(source), outer)

    @property
    def name(self):
        return f"{self.graph.name}/{self.graph.face_text(self.outer)}"

    def start_classes(self):
        """Vertices grouped by symmetry: equivalent start vertices have the same value."""
        classes, placed = [], set()
        for v in range(len(self.graph.labels)):
            if v not in placed:
                cls = sorted({p[v] for p in self.symmetries})
                placed.update(cls)
                classes.append(cls)
        return classes
