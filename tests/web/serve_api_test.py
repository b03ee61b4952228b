#!/usr/bin/python3
"""The JSON API of `statespace serve`, against a server this test starts on a free
port of 127.0.0.1 over bundles it analyses first: every route, bad input (400 with
the message), paths that leave DIR (404), oversized requests, 100 concurrent
clients and SIGINT. The moves the server lists are checked against successors
computed here, independently of the models' C++ code.

Usage: serve_api_test.py BUILD/statespace SOURCE_DIR
Python's standard library only (/usr/bin/python3)."""

import concurrent.futures
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

BINARY = ""
SOURCE = ""
WORK = ""
OUT = ""
SERVER = None
PORT = 0

PUZZLES = {
    "tiles-3x3": "tiles:3x3",
    "klotski": "examples/puzzles/klotski.toml",
    "sokoban-yard": "examples/puzzles/sokoban-yard.toml",
    "theta0": "examples/puzzles/theta0.toml",
    "pyraminx-tipless": "examples/puzzles/pyraminx-tipless.tws",
}

TABLED = {"theta0": PUZZLES["theta0"], "sokoban-yard": PUZZLES["sokoban-yard"]}
THETA0_EDGES = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 6), (6, 3)]  # theta0.toml, from 0


def cells(position):
    return [w for w in position.split() if w != "/"]


def request(path, method="GET", headers=None, body=None, timeout=30):
    """(status, headers, body bytes); the path is sent exactly as given."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        res = conn.getresponse()
        return res.status, dict(res.getheaders()), res.read()
    finally:
        conn.close()


def get_json(path):
    status, headers, body = request(path)
    return status, json.loads(body)


def play(folder, position=None):
    path = "/api/play/" + folder
    if position is not None:
        path += "?position=" + urllib.parse.quote(position)
    return get_json(path)


def grid(position):
    return [row.split() for row in position.split(" / ")] if " / " in position else None


def tiles_successors(position):
    rows = [r.split() for r in position.split("/")]
    rows = [[c for c in r] for r in rows]
    n, m = len(rows), len(rows[0])
    (br, bc), = [(r, c) for r in range(n) for c in range(m) if rows[r][c] == "_"]
    out = set()
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = br + dr, bc + dc
        if 0 <= r < n and 0 <= c < m:
            t = [row[:] for row in rows]
            t[br][bc], t[r][c] = t[r][c], "_"
            out.add(" / ".join(" ".join(row) for row in t))
    return out


def block_successors(position, groups=("BCDE", "GHIJ")):
    """Sliding blocks, step moves: one piece one cell into empty cells; pieces of a
    group (klotski.toml's `same`) then lettered in reading order."""
    rows = [r.split() for r in position.split("/")]
    n, m = len(rows), len(rows[0])
    pieces = {}
    for r in range(n):
        for c in range(m):
            ch = rows[r][c]
            if ch not in "._#":
                pieces.setdefault(ch, []).append((r, c))
    out = set()
    for ch, where in pieces.items():
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            moved = [(r + dr, c + dc) for r, c in where]
            if all(0 <= r < n and 0 <= c < m and (rows[r][c] in "._" or (r, c) in where) for r, c in moved):
                t = [row[:] for row in rows]
                for r, c in where:
                    t[r][c] = "_"
                for r, c in moved:
                    t[r][c] = ch
                for group in groups:
                    firsts = sorted(min((r, c) for r in range(n) for c in range(m) if t[r][c] == g)
                                    for g in group)
                    cells_of = {f: [(r, c) for r in range(n) for c in range(m)
                                    if t[r][c] in group and t[r][c] == t[f[0]][f[1]]] for f in firsts}
                    for letter, f in zip(group, firsts):
                        for r, c in cells_of[f]:
                            t[r][c] = letter
                out.add(" / ".join(" ".join(row) for row in t))
    return out


def keeper_successors(position):
    """Sokoban: the keeper K walks into an empty cell or pushes a box B one cell."""
    rows = [r.split() for r in position.split("/")]
    (kr, kc), = [(r, c) for r in range(len(rows)) for c in range(len(rows[0])) if rows[r][c] == "K"]
    out = set()
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = kr + dr, kc + dc
        t = [row[:] for row in rows]
        if rows[r][c] == ".":
            t[kr][kc], t[r][c] = ".", "K"
        elif rows[r][c] == "B" and rows[r + dr][c + dc] == ".":
            t[kr][kc], t[r][c], t[r + dr][c + dc] = ".", "K", "B"
        else:
            continue
        out.add(" / ".join(" ".join(row) for row in t))
    return out


def token_successors(position, edges):
    now = cells(position)
    out = set()
    for a, b in edges:
        for x, y in ((a, b), (b, a)):
            if now[x] == "_" and now[y] != "_":
                t = now[:]
                t[x], t[y] = t[y], "_"
                out.add(" ".join(t))
    return out


def setUpModule():
    global WORK, OUT, SERVER, PORT
    WORK = tempfile.mkdtemp(prefix="serve-api-")
    OUT = os.path.join(WORK, "out")
    subprocess.run([BINARY, "analyze", *PUZZLES.values(), "--out", OUT, "-q"], cwd=SOURCE, check=True)
    # Distance tables for two of them: an undirected space (two bits a rank) and a
    # directed one (a byte a position, dead ends).
    subprocess.run([BINARY, "analyze", *TABLED.values(), "--table", "--out", OUT, "-q"], cwd=SOURCE, check=True)
    # Ways out of DIR that must stay shut: a folder and a file linked from outside.
    os.symlink("/etc", os.path.join(OUT, "escape"))
    os.symlink("/etc/passwd", os.path.join(OUT, "tiles-3x3", "passwd"))
    with open(os.path.join(WORK, "secret.txt"), "w") as f:
        f.write("outside\n")
    SERVER = subprocess.Popen([BINARY, "serve", OUT, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    line = SERVER.stdout.readline()
    assert line.startswith("statespace serve: http://127.0.0.1:"), line
    PORT = int(line.split("http://127.0.0.1:")[1].split("/")[0])


def tearDownModule():
    if SERVER and SERVER.poll() is None:
        SERVER.kill()
        SERVER.wait()
    shutil.rmtree(WORK, ignore_errors=True)


class Routes(unittest.TestCase):
    def test_home_and_play_pages_are_html_without_other_hosts(self):
        for path in ("/", "/play/tiles-3x3", "/play/klotski?position=x"):
            status, headers, body = request(path)
            self.assertEqual(status, 200, path)
            self.assertTrue(headers["Content-Type"].startswith("text/html"), path)
            text = body.decode()
            self.assertNotIn("http://", text.replace("http://127.0.0.1:8080/", ""), path)
            self.assertNotIn("https://", text, path)
            self.assertIn("default-src 'self'", headers["Content-Security-Policy"])

    def test_bundles_lists_every_bundle_with_its_facts(self):
        status, body = get_json("/api/bundles")
        self.assertEqual(status, 200)
        by_folder = {b["folder"]: b for b in body["bundles"]}
        self.assertEqual(set(by_folder), set(PUZZLES))
        self.assertEqual(by_folder["tiles-3x3"]["states"], 181440)
        self.assertEqual(by_folder["tiles-3x3"]["eccentricity"], 31)
        self.assertEqual(by_folder["tiles-3x3"]["farthest_count"], 2)
        self.assertEqual(by_folder["klotski"]["states"], 25955)
        self.assertTrue(by_folder["sokoban-yard"]["directed"])
        for b in body["bundles"]:
            self.assertTrue(b["playable"])
            self.assertEqual(b["play"], "/play/" + b["folder"])
            self.assertEqual(b["report"], "/reports/" + b["folder"] + "/index.html")

    def test_bundle_is_its_summary_json(self):
        for folder in PUZZLES:
            status, headers, body = request("/api/bundles/" + folder)
            self.assertEqual(status, 200)
            with open(os.path.join(OUT, folder, "summary.json"), "rb") as f:
                self.assertEqual(body, f.read())
        status, body = get_json("/api/bundles/nope")
        self.assertEqual(status, 404)
        self.assertIn("nope", body["error"])

    def test_report_files_are_the_files_on_disk(self):
        for rel in ("tiles-3x3/distribution.csv", "tiles-3x3/index.html", "klotski/farthest.csv", "index.html",
                    "summary.csv", "theta0/puzzle.toml", "pyraminx-tipless/puzzle.tws"):
            status, headers, body = request("/reports/" + rel)
            self.assertEqual(status, 200, rel)
            with open(os.path.join(OUT, rel), "rb") as f:
                self.assertEqual(body, f.read(), rel)
        status, _, body = request("/reports/tiles-3x3/")
        with open(os.path.join(OUT, "tiles-3x3", "index.html"), "rb") as f:
            self.assertEqual((status, body), (200, f.read()))
        status, headers, _ = request("/reports/tiles-3x3/summary.json", method="HEAD")
        self.assertEqual(status, 200)
        self.assertEqual(headers["Content-Type"], "application/json")

    def test_unknown_route_is_404(self):
        for path in ("/nope", "/api", "/api/play/", "/reports/nope.csv", "/api/play/nope"):
            status, body = get_json(path)
            self.assertEqual(status, 404, path)
            self.assertTrue(body["error"], path)


class Play(unittest.TestCase):
    def test_tiles_moves_are_the_blank_swaps(self):
        for position in ("1 2 3 / 4 5 6 / 7 8 _", "8 6 7 / 2 5 4 / 3 _ 1", "_ 1 2 / 3 4 5 / 6 7 8"):
            status, body = play("tiles-3x3", position)
            self.assertEqual(status, 200)
            self.assertEqual(body["position"], position)
            self.assertEqual(body["cells"], cells(position))
            self.assertEqual({m["position"] for m in body["moves"]}, tiles_successors(position))
            for m in body["moves"]:
                self.assertNotIn("distance", m)  # no distance table
                changed = [i for i, (a, b) in enumerate(zip(cells(position), cells(m["position"]))) if a != b]
                self.assertEqual(m["changed"], changed)
            self.assertEqual(body["distances"], "distances need a distance table: statespace analyze PUZZLE --table")
            self.assertIn('data-position="' + position + '"', body["svg"])

    def test_default_position_is_the_first_farthest(self):
        with open(os.path.join(OUT, "tiles-3x3", "summary.json")) as f:
            summary = json.load(f)
        status, body = play("tiles-3x3")
        self.assertEqual((status, body["position"]), (200, summary["farthest"][0]))

    def test_klotski_moves_are_one_piece_one_cell(self):
        with open(os.path.join(OUT, "klotski", "summary.json")) as f:
            summary = json.load(f)
        for position in [summary["start"], *summary["farthest"][:3]]:
            status, body = play("klotski", position)
            self.assertEqual(status, 200)
            self.assertEqual({m["position"] for m in body["moves"]}, block_successors(body["position"]), position)

    def test_sokoban_moves_are_walks_and_pushes(self):
        with open(os.path.join(OUT, "sokoban-yard", "summary.json")) as f:
            summary = json.load(f)
        position = summary["start"]
        for _ in range(6):  # a walk of six moves, each checked
            status, body = play("sokoban-yard", position)
            self.assertEqual(status, 200)
            self.assertEqual({m["position"] for m in body["moves"]}, keeper_successors(position))
            position = body["moves"][-1]["position"]

    def test_graph_moves_slide_a_token_along_an_edge(self):
        edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 6), (6, 3)]  # theta0.toml, from 0
        position = "1 2 3 4 5 6 _"
        for _ in range(5):
            status, body = play("theta0", position)
            self.assertEqual(status, 200)
            self.assertEqual({m["position"] for m in body["moves"]}, token_successors(position, edges))
            for m in body["moves"]:  # "TOKEN:FROM-TO", vertices numbered from 1
                token, way = m["name"].split(":")
                a, b = (int(v) - 1 for v in way.split("-"))
                self.assertEqual((cells(position)[a], m["position"].split()[b]), (token, token))
            position = body["moves"][0]["position"]

    def test_twisty_moves_come_back_and_are_named(self):
        status, body = play("pyraminx-tipless")
        self.assertEqual(status, 200)
        self.assertEqual(len(body["moves"]), 8)  # U L R B, each twice
        names = {m["name"] for m in body["moves"]}
        self.assertEqual(len(names), 8)
        for m in body["moves"]:  # every listed position reads back as itself
            status, back = play("pyraminx-tipless", m["position"])
            self.assertEqual((status, back["position"]), (200, m["position"]))

    def test_bad_positions_are_400_with_one_line(self):
        cases = {
            "tiles-3x3": ["1 2 3", "1 2 3 / 4 5 6 / 7 8 8", "", "x\ny"],
            "klotski": ["A A", "nonsense"],
            "theta0": ["1 2 3"],
            "sokoban-yard": ["# #"],
            "pyraminx-tipless": ["CORNERS 9"],
        }
        for folder, positions in cases.items():
            for position in positions:
                status, body = play(folder, position)
                self.assertEqual(status, 400, (folder, position))
                self.assertTrue(body["error"], (folder, position))
                self.assertNotIn("\n", body["error"])

    def test_bad_queries_are_400(self):
        for path in ("/api/play/tiles-3x3?position=%zz", "/api/play/tiles-3x3?position=%00",
                     "/api/play/tiles-3x3?move=1", "/api/play/tiles-3x3?position=" + "1" * 5000):
            status, body = get_json(path)
            self.assertEqual(status, 400, path[:60])
            self.assertTrue(body["error"])

    def test_move_time_median(self):
        position = urllib.parse.quote("8 6 7 / 2 5 4 / 3 _ 1")
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        times = []
        for _ in range(200):
            start = time.perf_counter()
            conn.request("GET", "/api/play/tiles-3x3?position=" + position)
            conn.getresponse().read()
            times.append(time.perf_counter() - start)
        conn.close()
        self.assertLess(statistics.median(times), 0.020)


def theta0_distances():
    """Every position of theta0's start's component at its distance to the goal (the
    start): a breadth-first search here, over successors computed here."""
    goal = "1 2 3 4 5 6 _"
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for p in frontier:
            for q in token_successors(p, THETA0_EDGES):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


def query(folder, position):
    r = subprocess.run([BINARY, "query", TABLED[folder], position, "--out", OUT, "--format", "json"], cwd=SOURCE,
                       check=True, capture_output=True, text=True)
    return json.loads(r.stdout)


class Tables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dist = theta0_distances()

    def test_play_gives_every_moves_distance(self):
        self.assertEqual(len(self.dist), 840)
        positions = sorted(self.dist)[::37]
        for position in positions:
            status, body = play("theta0", position)
            self.assertEqual(status, 200)
            self.assertNotIn("distances", body)
            self.assertEqual((body["standing"], body["distance"]), ("distance", self.dist[position]), position)
            self.assertEqual(body["table"]["layers"], [list(self.dist.values()).count(d)
                                                       for d in range(max(self.dist.values()) + 1)])
            closer = []
            for m in body["moves"]:
                d = self.dist[m["position"]]
                self.assertEqual(m["distance"], d)
                want = "closer" if d < body["distance"] else "same" if d == body["distance"] else "farther"
                self.assertEqual(m["change"], want)
                if want == "closer":
                    closer.append(m["index"])
            if closer:
                self.assertEqual(body["best"], closer[0])
            else:
                self.assertNotIn("best", body)
        # Another component's position: not in the table.
        status, body = play("theta0", "2 1 3 4 5 6 _")
        self.assertEqual((status, body["standing"]), (200, "not reachable"))
        self.assertNotIn("distance", body)
        self.assertNotIn("best", body)

    def test_line_walks_to_the_goal_one_closer_each_move(self):
        for position in sorted(self.dist)[::53]:
            status, body = get_json("/api/line/theta0?position=" + urllib.parse.quote(position))
            self.assertEqual(status, 200)
            self.assertEqual(body["distance"], self.dist[position])
            self.assertEqual(len(body["line"]), self.dist[position])
            at = position
            for step in body["line"]:
                self.assertIn(step["position"], token_successors(at, THETA0_EDGES))
                self.assertEqual(self.dist[step["position"]], self.dist[at] - 1)
                at = step["position"]
            self.assertEqual(at, "1 2 3 4 5 6 _")

    def test_random_at_every_distance(self):
        top = max(self.dist.values())
        for d in range(top + 1):
            status, body = get_json("/api/random/theta0?distance=%d&seed=%d" % (d, d + 7))
            self.assertEqual(status, 200, body)
            self.assertEqual((body["distance"], self.dist[body["position"]]), (d, d))
            self.assertEqual(get_json("/api/random/theta0?distance=%d&seed=%d" % (d, d + 7))[1], body)
        # Many draws at one distance: more than one position.
        drawn = {get_json("/api/random/theta0?distance=12&seed=%d" % k)[1]["position"] for k in range(20)}
        self.assertGreater(len(drawn), 5)
        self.assertTrue(all(self.dist[p] == 12 for p in drawn))
        status, body = get_json("/api/random/theta0?distance=%d" % (top + 1))
        self.assertEqual(status, 400)
        self.assertIn("the table's distances run 0 to %d" % top, body["error"])

    def test_directed_table_is_querys(self):
        start = play("sokoban-yard")[1]["start"]
        position = start
        seen_dead = False
        for step in range(6):
            status, body = play("sokoban-yard", position)
            self.assertEqual(status, 200)
            q = query("sokoban-yard", position)
            self.assertEqual(body["standing"], q["standing"])
            self.assertEqual(body.get("distance"), q.get("distance"))
            mine = sorted((m["position"], m.get("distance"), m["change"]) for m in body["moves"])
            theirs = sorted((m["position"], m.get("distance"), m["change"]) for m in q["moves"])
            self.assertEqual(mine, theirs)
            seen_dead = seen_dead or any(m["change"] == "dead" for m in body["moves"])
            position = body["moves"][step % len(body["moves"])]["position"]
        for d in (0, 3, 6):
            status, body = get_json("/api/random/sokoban-yard?distance=%d&seed=1" % d)
            self.assertEqual(status, 200, body)
            self.assertEqual(query("sokoban-yard", body["position"])["distance"], d)
        status, body = get_json("/api/line/sokoban-yard?position=" + urllib.parse.quote(start))
        self.assertEqual((status, len(body["line"])), (200, query("sokoban-yard", start)["distance"]))
        self.assertEqual(query("sokoban-yard", body["line"][-1]["position"])["distance"], 0)

    def test_dead_position_has_no_line(self):
        dead = None
        seen = {play("sokoban-yard")[1]["start"]}
        frontier = list(seen)
        while frontier and not dead:  # breadth first until a move leads to a dead position
            moves = play("sokoban-yard", frontier.pop(0))[1]["moves"]
            dead = next((m["position"] for m in moves if m["change"] == "dead"), None)
            for m in moves:
                if m["position"] not in seen:
                    seen.add(m["position"])
                    frontier.append(m["position"])
        self.assertIsNotNone(dead)
        self.assertEqual(play("sokoban-yard", dead)[1]["standing"], "dead")
        status, body = get_json("/api/line/sokoban-yard?position=" + urllib.parse.quote(dead))
        self.assertEqual(status, 400)
        self.assertIn("has no distance to the goal (dead)", body["error"])

    def test_bad_table_requests(self):
        for path in ("/api/random/theta0", "/api/random/theta0?distance=x", "/api/random/theta0?distance=-1",
                     "/api/random/theta0?distance=3&seed=y", "/api/random/theta0?position=1",
                     "/api/line/theta0?distance=3", "/api/line/theta0?position=1+2"):
            status, body = get_json(path)
            self.assertEqual(status, 400, path)
            self.assertTrue(body["error"], path)
            self.assertNotIn("\n", body["error"])
        for path in ("/api/line/tiles-3x3?position=1+2+3+/+4+5+6+/+7+_+8", "/api/random/tiles-3x3?distance=3"):
            status, body = get_json(path)
            self.assertEqual(status, 404, path)
            self.assertIn("statespace analyze PUZZLE --table", body["error"])
        self.assertEqual(get_json("/api/random/nope?distance=1")[0], 404)


class Safety(unittest.TestCase):
    def test_paths_out_of_dir_are_404(self):
        for path in ("/reports/../secret.txt", "/reports/../../etc/passwd", "/reports/%2e%2e/secret.txt",
                     "/reports/%2E%2E%2Fsecret.txt", "/reports//etc/passwd", "/reports/%2fetc%2fpasswd",
                     "/reports/escape/passwd", "/reports/escape/", "/reports/tiles-3x3/passwd", "/reports/.lock",
                     "/reports/tiles-3x3/..%2f..%2fsecret.txt", "/api/bundles/..", "/api/bundles/..%2fout",
                     "/api/bundles/escape", "/api/play/..%2f", "/api/play/%2e%2e", "/reports/tiles-3x3%00.csv",
                     "/reports/..\\secret.txt", "/../secret.txt"):
            status, headers, body = request(path)
            self.assertEqual(status, 404, path)
            self.assertNotIn(b"root:", body)
            self.assertNotIn(b"outside", body)

    def test_absolute_target_is_refused(self):
        status, _, body = request("http://example.com/reports/index.html")
        self.assertIn(status, (400, 404))

    def test_oversized_requests_are_refused(self):
        status, _, _ = request("/", headers={"X-Padding": "a" * 20000})
        self.assertEqual(status, 431)
        status, _, _ = request("/api/play/tiles-3x3?position=" + "1" * 9000)
        self.assertEqual(status, 431)
        status, _, _ = request("/", method="GET", body=b"x" * 5000)
        self.assertEqual(status, 413)

    def test_other_methods_are_405(self):
        for method in ("POST", "PUT", "DELETE"):
            status, headers, _ = request("/api/bundles", method=method, body=b"")
            self.assertEqual(status, 405, method)
            self.assertEqual(headers["Allow"], "GET, HEAD")

    def test_garbage_is_400_and_the_server_lives(self):
        with socket.create_connection(("127.0.0.1", PORT), timeout=10) as s:
            s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            self.assertIn(b" 400 ", s.recv(4096))
        self.assertEqual(request("/api/bundles")[0], 200)

    def test_hundred_concurrent_clients(self):
        positions = ["8 6 7 / 2 5 4 / 3 _ 1", "1 2 3 / 4 5 6 / 7 8 _", "_ 1 2 / 3 4 5 / 6 7 8"]

        def client(i):
            position = positions[i % len(positions)]
            # Each its own connection, all open before any is answered.
            status, body = play("tiles-3x3", position)
            return status, {m["position"] for m in body["moves"]} == tiles_successors(position)

        with concurrent.futures.ThreadPoolExecutor(max_workers=100) as pool:
            results = list(pool.map(client, range(100)))
        self.assertEqual(results, [(200, True)] * 100)


class Startup(unittest.TestCase):
    def test_bad_arguments_exit_2_with_one_line(self):
        for args, needle in (([os.path.join(WORK, "nope")], "is not a folder"),
                             ([OUT, "--host", "localhost:x"], "bad --host"),
                             ([OUT, "--port", "70000"], "--port")):
            r = subprocess.run([BINARY, "serve", *args], capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(r.stdout, "")
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn(needle, r.stderr)

    def test_port_in_use_is_refused(self):
        r = subprocess.run([BINARY, "serve", OUT, "--port", str(PORT)], capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot listen on 127.0.0.1:" + str(PORT), r.stderr)


class ZzShutdown(unittest.TestCase):  # last: it stops the server
    def test_sigint_stops_it_cleanly(self):
        idle = socket.create_connection(("127.0.0.1", PORT))  # an open connection does not hold it up
        SERVER.send_signal(signal.SIGINT)
        try:
            out, err = SERVER.communicate(timeout=10)
        finally:
            idle.close()
        self.assertEqual(SERVER.returncode, 0, err)
        self.assertIn("statespace serve: stopped", out)
        self.assertEqual(err, "")
        with self.assertRaises(OSError):
            socket.create_connection(("127.0.0.1", PORT), timeout=2).close()


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv[1])
    SOURCE = os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[3:])
