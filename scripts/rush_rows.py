#!/usr/bin/python3
"""Writes hard Rush Hour rows in Michael Fogleman's database format (MOVES BOARD
CLUSTER), for checking many rows at once (bench/rush_rows.sh, tests/data/rush-1000.txt).

The database itself ("Solving Rush Hour, the puzzle", 2018) is one row per cluster:
the position of the cluster farthest from the exit, its distance in slides (a move
slides one car any number of cells), and the cluster's size (every position its
moves reach). This script makes rows of the same kind from the database's own rows
(examples/rushhour/fogleman.txt): it changes a known board a little (takes a car
away, moves one elsewhere, adds one, or adds a wall), explores the new board's
whole cluster by a breadth-first search written here, apart from statespace's
engines, and writes the cluster's hardest position with its distance and size.
Each cluster is taken once (known by its least hardest board), and gives up to
PER_CLUSTER rows: its hardest position, then positions drawn from those at least
half as far from the exit (then from the others), each with its own distance (every position of a cluster
is a valid row with the cluster's size; a checker explores the whole cluster for
each row all the same). The rows come in the order they were found, from a fixed
seed: the same arguments give the same file.

    scripts/rush_rows.py COUNT [SEED] [MIN_MOVES] [MAX_CLUSTER] [PER_CLUSTER] > rows.txt

Defaults: seed 46, clusters whose hardest position needs at least 30 moves, of at
most 25,000 positions, 63 rows per cluster (1,000 rows: 16 clusters)."""
import random
import sys
from collections import deque

N = 6
EXIT = 2 * N + N - 2  # the red car's anchor when it is at the exit
SEEDS = [
    "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM",  # 60 moves, 2,332 positions
    "BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN",  # 58 moves, 9,192 positions
]


def pieces_of(board):
    """(letter, horizontal, length, first cell) of every car, A first."""
    cells = {}
    for i, c in enumerate(board):
        if c not in "ox":
            cells.setdefault(c, []).append(i)
    out = []
    for letter in sorted(cells, key=lambda l: (l != "A", l)):
        cs = cells[letter]
        out.append((letter, cs[1] - cs[0] == 1, len(cs), cs[0]))
    return out


def cells_of(horizontal, length, anchor):
    return [anchor + (j if horizontal else j * N) for j in range(length)]


def anchors(horizontal, length, fixed):
    """Every anchor a car can take along its line (the row or column of `fixed`)."""
    if horizontal:
        r = fixed // N
        return [r * N + c for c in range(N - length + 1)]
    c = fixed % N
    return [r * N + c for r in range(N - length + 1)]


def explore(board, most):
    """The cluster of `board` (its states) and every state's
    slides to the exit, or None when the exit is out of reach or the cluster passes
    `most` positions."""
    pieces = pieces_of(board)
    walls = 0
    for i, c in enumerate(board):
        if c == "x":
            walls |= 1 << i
    # For each car: its anchors in line order, each anchor's cell mask.
    lines, masks, where = [], [], []
    for _, h, n, first in pieces:
        line = anchors(h, n, first)
        lines.append(line)
        masks.append({a: sum(1 << c for c in cells_of(h, n, a)) for a in line})
        where.append({a: k for k, a in enumerate(line)})
    # A state is one integer: car k's anchor in bits 6k to 6k+5.
    start = sum(p[3] << (6 * k) for k, p in enumerate(pieces))
    index = {start: 0}
    states = [start]
    edges = []
    cars = range(len(pieces))
    for s in states:  # grows while it is read: a breadth-first sweep
        at = [s >> (6 * k) & 63 for k in cars]
        occupied = walls
        for k in cars:
            occupied |= masks[k][at[k]]
        out = []
        for k in cars:
            line, mask, a = lines[k], masks[k], at[k]
            others = occupied & ~mask[a]
            base = s & ~(63 << (6 * k))
            for step in (-1, 1):
                j = where[k][a] + step
                while 0 <= j < len(line) and not mask[line[j]] & others:
                    t = base | line[j] << (6 * k)
                    i = index.get(t)
                    if i is None:
                        i = len(states)
                        index[t] = i
                        states.append(t)
                        if i >= most:
                            return None
                    out.append(i)
                    j += step
        edges.append(out)
    # Distances from every position with A at the exit, over the same (undirected) moves.
    distance = [-1] * len(states)
    queue = deque(i for i, s in enumerate(states) if s & 63 == EXIT)
    if not queue:
        return None
    for i in queue:
        distance[i] = 0
    while queue:
        i = queue.popleft()
        for j in edges[i]:
            if distance[j] < 0:
                distance[j] = distance[i] + 1
                queue.append(j)
    return pieces, walls, states, distance


def draw(pieces, walls, state):
    """A state as a 36-character board, cars lettered in reading order after A."""
    board = ["x" if walls >> i & 1 else "o" for i in range(N * N)]
    placed = []
    for k, (_, h, n, _) in enumerate(pieces):
        anchor = state >> (6 * k) & 63
        placed.append((k != 0, anchor, h, n, anchor))
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for is_other, _, h, n, anchor in sorted(placed):
        letter = next(letters) if is_other else "A"
        for c in cells_of(h, n, anchor):
            board[c] = letter
    return "".join(board)


def movable(board, piece):
    """Whether a car has a cell free of walls next to it along its length."""
    _, h, n, first = piece
    last = first + (n - 1) * (1 if h else N)
    before = (first - 1 if first % N > 0 else -1) if h else first - N
    after = (last + 1 if last % N < N - 1 else -1) if h else last + N
    return any(0 <= c < N * N and board[c] != "x" for c in (before, after))


def place(board, rng, h, n, letter):
    """Puts a car of the given shape on a random free spot (never across the exit row)."""
    for _ in range(40):
        r, c = rng.randrange(N), rng.randrange(N)
        if (c + n > N) if h else (r + n > N):
            continue
        if h and r == 2:
            continue
        cs = cells_of(h, n, r * N + c)
        if all(board[x] == "o" for x in cs):
            for x in cs:
                board[x] = letter
            return True
    return False


def mutate(board, rng):
    """A board near `board`: one car taken away, moved, or added, or a wall added."""
    b = list(board)
    cars = [p for p in pieces_of(board) if p[0] != "A"]
    kind = rng.random()
    if kind < 0.15 and cars:
        letter = rng.choice(cars)[0]
        b = ["o" if x == letter else x for x in b]
    elif kind < 0.75 and cars:
        letter, h, n, _ = rng.choice(cars)
        b = ["o" if x == letter else x for x in b]
        if not place(b, rng, h, n, letter):
            return None
    elif kind < 0.95:
        used = {p[0] for p in pieces_of(board)}
        free = [l for l in "BCDEFGHIJKLMNOPQRSTUVWXYZ" if l not in used]
        if not free or not place(b, rng, rng.random() < 0.5, rng.choice((2, 2, 3)), free[0]):
            return None
    else:
        if board.count("x") >= 2:
            return None
        i = rng.randrange(N * N)
        if b[i] != "o" or i // N == 2:
            return None
        b[i] = "x"
    out = "".join(b)
    if any(not movable(out, p) for p in pieces_of(out)):
        return None
    return out


def main():
    count = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 46
    min_moves = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    most = int(sys.argv[4]) if len(sys.argv) > 4 else 25000
    per_cluster = int(sys.argv[5]) if len(sys.argv) > 5 else 63
    rng = random.Random(seed)
    pick = random.Random(seed + 1)
    pool = list(SEEDS)
    seen, tried = set(), set()
    made = 0
    while made < count:
        board = mutate(rng.choice(pool), rng)
        if board is None or board in tried:
            continue
        tried.add(board)
        found = explore(board, most)
        if found is None:
            continue
        pieces, walls, states, distance = found
        moves = max(distance)
        # The least of the hardest boards names the cluster.
        hardest = min(draw(pieces, walls, s) for s, d in zip(states, distance) if d == moves)
        if hardest in seen:
            continue
        seen.add(hardest)
        if moves < min_moves:
            continue
        pool.append(hardest)
        # The hardest position, then others of the cluster at least half as far, then
        # any others; drawn apart from the boards' changes, which stay the same
        # whatever the rows per cluster.
        rows = [(moves, hardest)]
        far = [i for i, d in enumerate(distance) if 2 * d >= moves]
        near = [i for i, d in enumerate(distance) if 2 * d < moves]
        chosen = pick.sample(far, min(len(far), per_cluster - 1))
        chosen += pick.sample(near, min(len(near), per_cluster - 1 - len(chosen)))
        for i in chosen:
            board = draw(pieces, walls, states[i])
            if board != hardest:
                rows.append((distance[i], board))
        for d, board in rows[: count - made]:
            print(d, board, len(states), flush=True)
            made += 1


if __name__ == "__main__":
    main()
