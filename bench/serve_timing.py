#!/usr/bin/python3
"""Times `statespace serve`'s answer to a move: N requests of /api/play/FOLDER on one
connection, each for a position the previous answer listed (a random game, seeded),
and prints the median and the 90th percentile of the server's time (its
Server-Timing header) and of the client's (the round trip).

Usage: bench/serve_timing.py http://127.0.0.1:PORT FOLDER [N] [START]
  statespace analyze tiles:3x4 --table --out /tmp/t && statespace serve /tmp/t --port 8090 &
  bench/serve_timing.py http://127.0.0.1:8090 tiles-3x4 1000
Python's standard library only."""

import http.client
import json
import random
import statistics
import sys
import time
import urllib.parse


def main():
    base = urllib.parse.urlparse(sys.argv[1])
    folder = sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    position = sys.argv[4] if len(sys.argv) > 4 else None
    rng = random.Random(1)
    conn = http.client.HTTPConnection(base.hostname, base.port, timeout=30)
    server, client, distances = [], [], []
    for _ in range(n):
        path = "/api/play/" + folder + ("" if position is None else "?position=" + urllib.parse.quote(position))
        started = time.perf_counter()
        conn.request("GET", path)
        res = conn.getresponse()
        body = json.loads(res.read())
        client.append((time.perf_counter() - started) * 1000)
        if res.status != 200:
            sys.exit("serve_timing: " + path + ": " + body.get("error", str(res.status)))
        server.append(float(res.getheader("Server-Timing").split("dur=")[1]))
        if "distance" in body:
            distances.append(body["distance"])
        position = rng.choice(body["moves"])["position"]
    conn.close()

    def line(name, xs):
        xs = sorted(xs)
        return "%s: median %.3f ms, 90th percentile %.3f ms, most %.3f ms" % (
            name, statistics.median(xs), xs[int(0.9 * (len(xs) - 1))], xs[-1])

    print("%s: %d moves%s" % (folder, n, " at distances %d to %d" % (min(distances), max(distances))
                                    if distances else ", no distances"))
    print(line("server", server))
    print(line("client", client))


if __name__ == "__main__":
    main()
