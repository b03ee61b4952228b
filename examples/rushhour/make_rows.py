"""Writes Rush Hour rows in Michael Fogleman's database format (MOVES BOARD CLUSTER:
the fewest slides that drive the red car A to the exit, the 36-character board with
'o' empty and 'x' a wall, the positions its moves reach) for random boards, by a
breadth-first search written here, apart from statespace's blocks engine, which
the tests then check against it.
    python3 examples/rushhour/make_rows.py COUNT SEED > rows.txt
Boards whose moves reach more than 4,000 positions are left out, to keep it quick."""
import random
import sys
from collections import deque

N = 6


def pieces_of(board):
    cells = {}
    for i, c in enumerate(board):
        if c not in "ox":
            cells.setdefault(c, []).append(i)
    out = []
    for letter in sorted(cells):
        cs = cells[letter]
        horizontal = cs[1] - cs[0] == 1
        out.append((letter, horizontal, len(cs), cs[0]))
    return out


def search(board, most=4000):
    """(fewest moves to the exit or None, positions reached) from the board; (None,
    None) past `most` positions."""
    pieces = pieces_of(board)
    walls = {i for i, c in enumerate(board) if c == "x"}
    red = [k for k, p in enumerate(pieces) if p[0] == "A"][0]
    start = tuple(p[3] for p in pieces)

    def cells(k, anchor):
        _, h, n, _ = pieces[k]
        return [anchor + (j if h else j * N) for j in range(n)]

    depth = {start: 0}
    queue = deque([start])
    best = None
    while queue:
        s = queue.popleft()
        d = depth[s]
        if len(depth) > most:
            return None, None
        if best is None and s[red] == 2 * N + N - 2:
            best = d
        taken = set(walls)
        for k, a in enumerate(s):
            taken.update(cells(k, a))
        for k, a in enumerate(s):
            _, h, n, _ = pieces[k]
            step = 1 if h else N
            for sign in (-1, 1):
                b = a
                while True:
                    b += sign * step
                    if h and b // N != a // N or not 0 <= b < N * N:
                        break
                    if h and (b + n - 1) // N != a // N:
                        break
                    if not h and b + (n - 1) * N >= N * N:
                        break
                    new = cells(k, b)
                    if any(c in taken and c not in cells(k, a) for c in new):
                        break
                    t = s[:k] + (b,) + s[k + 1:]
                    if t not in depth:
                        depth[t] = d + 1
                        queue.append(t)
    return best, len(depth)


def can_move(board, piece):
    """Whether a car has a cell free of walls next to it along its length."""
    _, h, n, first = piece
    last = first + (n - 1) * (1 if h else N)
    before = first - 1 if h and first % N > 0 else first - N if not h else -1
    after = last + 1 if h and last % N < N - 1 else last + N if not h else -1
    return any(0 <= c < N * N and board[c] != "x" for c in (before, after))


def random_board(rng):
    board = ["o"] * (N * N)
    col = rng.randrange(0, 3)
    board[2 * N + col] = board[2 * N + col + 1] = "A"
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for _ in range(rng.randint(0, 2)):
        i = rng.randrange(N * N)
        if board[i] == "o":
            board[i] = "x"
    want = rng.randint(26, 32)
    for _ in range(200):
        if sum(c not in "ox" for c in board) >= want:
            break
        h, n = rng.random() < 0.5, rng.choice((2, 2, 2, 3))
        r, c = rng.randrange(N), rng.randrange(N)
        cs = [r * N + c + (j if h else j * N) for j in range(n)]
        if (c + n > N if h else r + n > N) or any(board[x] != "o" for x in cs):
            continue
        if h and r == 2:
            continue  # nothing else across the exit row
        letter = next(letters, None)
        if letter is None:
            break
        for x in cs:
            board[x] = letter
    return "".join(board)


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    made = 0
    while made < count:
        board = random_board(rng)
        if "x" in board[16:18] or any(not can_move(board, p) for p in pieces_of(board)):
            continue
        moves, cluster = search(board)
        if moves is None or moves < 3:
            continue
        print(moves, board, cluster)
        made += 1


if __name__ == "__main__":
    main()
