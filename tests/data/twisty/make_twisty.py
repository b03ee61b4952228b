#!/usr/bin/env python3
"""Writes the twisty puzzles of tests/data/twisty/ as .tws files from their geometry.

A puzzle is a convex solid (cube, tetrahedron or octahedron, inradius 1) cut by
planes perpendicular to its face, edge or vertex axes at the given depths. Each
face is sampled on a fine grid; the samples on the same side of every cut form one
sticker, and the stickers on the same side of every cut one piece. A move turns the
part beyond one cut by the smallest rotation of the solid about that axis; the
pieces the moves carry into each other form a set. A piece's orientation is which
of its slot's stickers (in order around the slot, seen from outside) holds the
piece's first sticker, so a move's twist is the shift it gives that order.

Moves are written as twsearch's files write them (github.com/cubing/twsearch,
docs): a Move block lists, for each set, the place each place's new piece comes
from and the twist of the piece leaving each place. With --rotations the turns of
the whole solid about its axes are added, named NAMEv, as whole-puzzle rotations
(symmetries, not moves).

    tests/data/twisty/make_twisty.py          rewrite every file
    tests/data/twisty/make_twisty.py --check  fail when a file differs
"""

import itertools
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def rotate(p, axis, angle):
    """p turned by `angle` about the unit vector `axis` (right-handed)."""
    c, s = math.cos(angle), math.sin(angle)
    k = dot(axis, p)
    x = cross(axis, p)
    return tuple(p[i] * c + x[i] * s + axis[i] * k * (1 - c) for i in range(3))


# Each solid's face normals, with a name for each face; an edge's or a vertex's axis
# is named by the faces that meet there.
SOLIDS = {
    "cube": {
        "U": (0, 1, 0), "D": (0, -1, 0), "F": (0, 0, 1), "B": (0, 0, -1), "R": (1, 0, 0), "L": (-1, 0, 0),
    },
    "tetrahedron": {
        "F": (1, 1, 1), "D": (1, -1, -1), "L": (-1, 1, -1), "R": (-1, -1, 1),
    },
    "octahedron": {
        "URF": (1, 1, 1), "ULB": (-1, 1, -1), "UBR": (1, 1, -1), "UFL": (-1, 1, 1),
        "DFR": (1, -1, 1), "DLF": (-1, -1, 1), "DRB": (1, -1, -1), "DBL": (-1, -1, -1),
    },
}


def faces(solid):
    return {name: unit(n) for name, n in SOLIDS[solid].items()}


def face_samples(normal, normals, steps=150):
    """Points spread over the face whose outward normal is `normal`."""
    helper = (1, 0, 0) if abs(normal[0]) < 0.9 else (0, 1, 0)
    u = unit(cross(normal, helper))
    v = cross(normal, u)
    reach = 3.5
    # An irrational offset keeps the grid off every cut plane.
    off = math.sqrt(2) * 1e-3
    for i in range(steps):
        for j in range(steps):
            a = -reach + 2 * reach * (i + 0.5) / steps + off
            b = -reach + 2 * reach * (j + 0.5) / steps + off * math.sqrt(3)
            p = tuple(normal[k] + a * u[k] + b * v[k] for k in range(3))
            if all(dot(n, p) <= 1 + 1e-9 for n in normals):
                yield p


def axes(solid, kind):
    """name -> unit axis, and the order of the solid's rotation about it."""
    fs = faces(solid)
    names = list(fs)
    if kind == "f":
        out = dict(fs)
    else:
        # Edges: two faces meet along a line; vertices: three or more faces meet at a point.
        out = {}
        size = 2 if kind == "e" else 3
        for combo in itertools.combinations(names, size):
            ns = [fs[n] for n in combo]
            if kind == "e":
                # Adjacent faces: their normals are the closest pairs of the solid.
                closest = max(dot(fs[a], fs[b]) for a, b in itertools.combinations(names, 2) if a != b)
                if abs(dot(ns[0], ns[1]) - closest) > 1e-9:
                    continue
            else:
                point = solve3(ns)
                if point is None or any(dot(fs[n], point) > 1 + 1e-9 for n in names):
                    continue
            d = unit(tuple(sum(n[k] for n in ns) for k in range(3)))
            if any(all(abs(d[k] - e[k]) < 1e-9 for k in range(3)) for e in out.values()):
                continue
            out["".join(combo)] = d
    # A cut through the centre leaves two halves to turn: the axis's opposite too, named
    # by the faces it points between, when it is no axis of this kind (a tetrahedron's
    # face and the vertex across from it).
    for name, a in list(out.items()):
        b = tuple(-x for x in a)
        if not any(close(b, e) for e in out.values()):
            out["".join(n for n in names if dot(fs[n], b) > 1e-9)] = b
    orders = {}
    for name, a in out.items():
        # The largest n whose turn by 2 pi / n maps the face normals onto themselves.
        orders[name] = max(n for n in range(2, 7) if maps_onto(list(fs.values()), a, 2 * math.pi / n))
    return out, orders


def solve3(ns):
    """The point where the three planes n . p = 1 meet, or None (Cramer's rule)."""
    det = dot(ns[0], cross(ns[1], ns[2]))
    if abs(det) < 1e-9:
        return None
    c = [cross(ns[1], ns[2]), cross(ns[2], ns[0]), cross(ns[0], ns[1])]
    return tuple(sum(c[i][k] for i in range(3)) / det for k in range(3))


def maps_onto(points, axis, angle):
    return all(any(close(rotate(p, axis, angle), q) for q in points) for p in points)


def close(a, b, eps=1e-6):
    return all(abs(a[k] - b[k]) < eps for k in range(3))


class Puzzle:
    def __init__(self, solid, kind, depths):
        fs = faces(solid)
        self.axes, self.orders = axes(solid, kind)
        self.cuts = [(a, d) for a in self.axes.values() for d in depths]
        groups = {}
        for normal in fs.values():
            for p in face_samples(normal, list(fs.values())):
                side = tuple(dot(a, p) > d for a, d in self.cuts)
                groups.setdefault((normal, side), []).append(p)
        # Stickers: the samples' centres; pieces: the stickers on the same sides.
        self.stickers = []
        pieces = {}
        for (normal, side), ps in groups.items():
            if len(ps) < 4:
                raise SystemExit("make_twisty.py: a sticker too small for the grid")
            centre = tuple(sum(p[k] for p in ps) / len(ps) for k in range(3))
            pieces.setdefault(side, []).append(len(self.stickers))
            self.stickers.append(centre)
        self.slots = [self.ordered(ss) for ss in pieces.values()]
        self.slot_of = {s: i for i, ss in enumerate(self.slots) for s in ss}

    def ordered(self, stickers):
        """A slot's stickers counterclockwise about its centre, seen from outside."""
        centre = unit(tuple(sum(self.stickers[s][k] for s in stickers) for k in range(3)))
        helper = (1, 0, 0) if abs(centre[0]) < 0.9 else (0, 1, 0)
        u = unit(cross(centre, helper))
        v = cross(centre, u)

        def angle(s):
            p = self.stickers[s]
            return math.atan2(dot(p, v), dot(p, u))

        return sorted(stickers, key=lambda s: (round(angle(s), 6), s))

    def sticker_at(self, p):
        # Centres of sampled regions are within a grid step of the true ones.
        found = [i for i, q in enumerate(self.stickers) if close(p, q, 0.05)]
        if len(found) != 1:
            raise SystemExit("make_twisty.py: a turned sticker lands on no sticker")
        return found[0]

    def turn(self, axis, order, depth):
        """sticker -> sticker for the part beyond depth turned by 2 pi / order."""
        return {
            s: self.sticker_at(rotate(p, axis, 2 * math.pi / order)) if dot(axis, p) > depth else s
            for s, p in enumerate(self.stickers)
        }

    def moves(self, depths, rotations, fixed=None):
        """The turns, then (with rotations) the turns of the whole solid. With `fixed`
        (a vertex axis: name, unit vector, order) only the turns that leave that
        vertex's piece still, and the rotations about it."""
        out = []
        for name, a in self.axes.items():
            for depth in depths:
                if fixed is None or dot(a, fixed[1]) <= depth:
                    out.append((name, self.turn(a, self.orders[name], depth)))
        if rotations:
            spins = [fixed] if fixed else [(name, a, self.orders[name]) for name, a in self.axes.items()]
            for name, a, order in spins:
                out.append((name + "v", self.turn(a, order, -2.0)))
        return out

    def sets(self, moves):
        """The slots in orbits of the moves (rotations left out), by sticker count."""
        parent = list(range(len(self.slots)))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for name, m in moves:
            if name.endswith("v"):
                continue
            for i, ss in enumerate(self.slots):
                parent[find(i)] = find(self.slot_of[m[ss[0]]])
        orbits = {}
        for i in range(len(self.slots)):
            orbits.setdefault(find(i), []).append(i)
        # Pieces that no move turns are left out, as they never change.
        still = [o for o in orbits.values() if len(o) > 1 or any(
            m[s] != s for name, m in moves if not name.endswith("v") for s in self.slots[o[0]])]
        return sorted(still, key=lambda o: (len(self.slots[o[0]]), o[0]))


SET_NAMES = {1: "CENTER", 2: "EDGE", 3: "CORNER", 4: "C4RNER", 5: "C5RNER"}


def tws(stem, title, solid, kind, depths, rotations, fixed=None):
    p = Puzzle(solid, kind, depths)
    spin = None
    if fixed:
        vertices, orders = axes(solid, "v")
        spin = (fixed, vertices[fixed], orders[fixed])
    moves = p.moves(depths, rotations, spin)
    sets = p.sets(moves)
    lines = [
        "# Written by tests/data/twisty/make_twisty.py from the geometry: " + title + ",",
        f"# a {solid} turned about its {dict(f='face', e='edge', v='vertex')[kind]} axes, cut at depth "
        + ", ".join(f"{d:g}" for d in depths)
        + (f", the {fixed} corner held still" if fixed else "")
        + ((f", with its rotations about {fixed}" if fixed else ", with its rotations") if rotations else "") + ".",
        "Name " + stem,
        "",
    ]
    names = []
    for orbit in sets:
        k = len(p.slots[orbit[0]])
        base = SET_NAMES[k]
        name = base if base not in names else base + str(names.count(base) + 1)
        names.append(name)
        lines.append(f"Set {name} {len(orbit)} {k}")
    lines += ["", "Solved"]
    for name, orbit in zip(names, sets):
        lines += [name, " ".join(str(i + 1) for i in range(len(orbit))), " ".join("0" for _ in orbit)]
    lines.append("End")
    for move, m in moves:
        lines += ["", "Move " + move]
        for name, orbit in zip(names, sets):
            place = {slot: i for i, slot in enumerate(orbit)}
            source = [0] * len(orbit)
            twist = [0] * len(orbit)
            for i, slot in enumerate(orbit):
                ss = p.slots[slot]
                dest = p.slot_of[m[ss[0]]]
                if dest not in place:
                    raise SystemExit("make_twisty.py: a move carries a piece out of its set")
                source[place[dest]] = i + 1
                twist[i] = p.slots[dest].index(m[ss[0]]) % len(ss)
            lines += [name, " ".join(map(str, source)), " ".join(map(str, twist))]
        lines.append("End")
    return "\n".join(lines) + "\n"


# file -> (title, solid, axes, cut depths[, the vertex held still])
PUZZLES = {
    "cube2": ("2x2x2 cube", "cube", "f", [0.0]),
    "cube3": ("3x3x3 cube", "cube", "f", [1 / 3]),
    "pyramorphix": ("Pyramorphix", "tetrahedron", "e", [0.0]),
    "jing-pyraminx": ("Jing's pyraminx", "tetrahedron", "f", [0.0]),
    "skewb-diamond": ("Skewb diamond", "octahedron", "f", [0.0]),
    "cube2-fixed": ("2x2x2 cube", "cube", "f", [0.0], "DBL"),
    "skewb-fixed": ("Skewb", "cube", "v", [0.0], "DBL"),
}


def main():
    check = sys.argv[1:] == ["--check"]
    stale = []
    for stem, (title, solid, kind, depths, *fixed) in PUZZLES.items():
        for rotations in (False, True):
            path = HERE / (stem + ("-rotations" if rotations else "") + ".tws")
            text = tws(stem, title, solid, kind, depths, rotations, *fixed)
            if check:
                if not path.exists() or path.read_text() != text:
                    stale.append(path.name)
            else:
                path.write_text(text)
    if stale:
        print("make_twisty.py: out of date: " + ", ".join(stale) + " (run tests/data/twisty/make_twisty.py)")
        sys.exit(1)


if __name__ == "__main__":
    main()
