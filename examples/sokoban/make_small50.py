"""Writes examples/sokoban/small50.xsb: fifty small levels of our own, made by pulling
boxes away from their goals (so every level is solvable), rooms of at most 30 floor
cells, 2 to 4 boxes. Deterministic: random.Random(46)."""
import random

rng = random.Random(46)
D = [(0, -1), (-1, 0), (0, 1), (1, 0)]


def level(n):
    while True:
        h, w = rng.randint(3, 5), rng.randint(4, 7)
        if h * w > 30:
            continue
        grid = [["-"] * w for _ in range(h)]
        for _ in range(rng.randint(0, 3)):
            grid[rng.randrange(h)][rng.randrange(w)] = "#"
        floor = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
        # connected?
        seen, stack = {floor[0]}, [floor[0]]
        while stack:
            r, c = stack.pop()
            for dr, dc in D:
                t = (r + dr, c + dc)
                if 0 <= t[0] < h and 0 <= t[1] < w and grid[t[0]][t[1]] == "-" and t not in seen:
                    seen.add(t)
                    stack.append(t)
        if len(seen) != len(floor) or len(floor) < 8:
            continue
        k = rng.randint(2, 4)
        goals = rng.sample(floor, k)
        boxes = set(goals)
        free = [f for f in floor if f not in boxes]
        keeper = rng.choice(free)
        for _ in range(200):
            # a random pull or step
            dr, dc = rng.choice(D)
            t = (keeper[0] + dr, keeper[1] + dc)
            if not (0 <= t[0] < h and 0 <= t[1] < w) or grid[t[0]][t[1]] == "#" or t in boxes:
                continue
            behind = (keeper[0] - dr, keeper[1] - dc)
            if behind in boxes and rng.random() < 0.6:
                boxes.remove(behind)
                boxes.add(keeper)
            keeper = t
        if boxes == set(goals):
            continue
        rows = ["#" * (w + 2)]
        for r in range(h):
            row = "#"
            for c in range(w):
                p = (r, c)
                ch = grid[r][c]
                if ch != "#":
                    g, b = p in goals, p in boxes
                    ch = "*" if g and b else "$" if b else "." if g else "-"
                    if p == keeper:
                        ch = "+" if g else "@"
                row += ch
            rows.append(row + "#")
        rows.append("#" * (w + 2))
        return "\n".join(rows)


out = ["; Fifty small Sokoban levels of our own (public domain), made by",
       "; examples/sokoban/make_small50.py: boxes pulled away from their goals.", ""]
for n in range(1, 51):
    out += [f"; {n}", level(n), ""]
open("examples/sokoban/small50.xsb", "w").write("\n".join(out))
