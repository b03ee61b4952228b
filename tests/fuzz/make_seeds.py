#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz harnesses into tests/fuzz/<harness>/: every
example file and test data file of every kind (puzzle files, .tws files, the
manifest), and the inline files of the unit tests (every C++ string literal,
adjacent ones joined, that looks like a puzzle file, a .tws file or a manifest).
Seeds it no longer makes are removed; inputs added by hand (crash-*) stay. Seeds of
the position harness come from the harness itself (STATESPACE_FUZZ_WRITE_SEEDS,
scripts/fuzz.sh --seeds), which knows the models.
Run from anywhere: python3 tests/fuzz/make_seeds.py [--check]; --check writes
nothing and fails (exit 1), naming them, when the seeds on disk differ from what
it would write (the test FuzzSeeds.FilesAreCurrent runs it, so CI keeps them current)."""
import hashlib
import pathlib
import re
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FUZZ = ROOT / "tests" / "fuzz"

SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


def literals(source):
    """The string literals of a C++ file, adjacent ones joined (a crude lexer: it
    skips comments and character literals, and knows raw strings)."""
    out, i, current, last_end = [], 0, None, 0
    while i < len(source):
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = len(source) if i < 0 else i
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if source[i] == "'" and source[i - 1].isalnum():  # a digit separator: 10'000
            i += 1
            continue
        if source[i] == "'":
            i = source.index("'", i + 3 if source[i + 1] == "\\" else i + 2) + 1
            continue
        raw = re.match(r'R"([^(]*)\(', source[i:])
        if raw or source[i] == '"':
            if raw:
                end = source.index(")" + raw.group(1) + '"', i)
                text, next_i = source[i + raw.end():end], end + len(raw.group(1)) + 2
            else:
                j, text = i + 1, ""
                while source[j] != '"':
                    if source[j] == "\\":
                        esc = source[j + 1]
                        if esc == "x":
                            m = re.match(r"[0-9a-fA-F]+", source[j + 2:])
                            text += chr(int(m.group(0), 16))
                            j += 2 + len(m.group(0))
                            continue
                        text += SIMPLE.get(esc, esc)
                        j += 2
                    else:
                        text += source[j]
                        j += 1
                next_i = j + 1
            joined = current is not None and source[last_end:i].strip() == ""
            current = current + text if joined else text
            if joined:
                out[-1] = current
            else:
                out.append(current)
            last_end = i = next_i
            continue
        i += 1
    return out


SEEDS = {}  # harness -> {file name: bytes}
HAND_MADE = "crash-"  # seeds added by hand, never removed


def write(harness, name, data):
    SEEDS.setdefault(harness, {})[name] = data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape")


def from_tests(harness, files, keep):
    seen = set()
    for f in files:
        for n, text in enumerate(literals((ROOT / "tests" / f).read_text())):
            if keep(text) and text not in seen:
                seen.add(text)
                digest = hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:8]
                write(harness, f"test-{pathlib.Path(f).stem}-{digest}", text)


def checkpoint(puzzle, start, layers, tables, engine="implicit", identity="", counts=()):
    """A version-3 header as write_checkpoint lays it out; the harness patches size
    and checksum, so the checksum here is left zero."""
    body = b"SSPCKPT\0" + struct.pack("<II", 3, 0)
    for s in (engine, puzzle, identity, start):
        body += struct.pack("<I", len(s)) + s.encode()
    level = len(layers) - 1
    body += struct.pack("<I", level) + struct.pack("<Q", len(layers)) + b"".join(struct.pack("<Q", v) for v in layers)
    edges = layers[1:]
    body += struct.pack("<Q", len(edges)) + b"".join(struct.pack("<Q", v) for v in edges)
    body += struct.pack("<Q", len(counts)) + b"".join(struct.pack("<Q", v) for v in counts)
    body += struct.pack("<I", len(tables)) + b"".join(struct.pack("<Q", v) for v in tables) + struct.pack("<Q", 0)
    body += b"\0" * (-len(body) % 8)
    size = len(body) + 8
    return body[:12] + struct.pack("<I", size) + body[16:] + struct.pack("<Q", 0)


def looks_like_puzzle_file(text):
    return "=" in text and ("\n" in text or "kind" in text)


def looks_like_xsb(text):
    return "#" in text and "\n" in text and ("@" in text or "+" in text) and "=" not in text and "Set " not in text


def looks_like_tws(text):
    return "Set " in text and ("Solved" in text or "Move " in text)


def main():
    check = sys.argv[1:] == ["--check"]
    for f in sorted((ROOT / "examples" / "puzzles").glob("*.toml")):
        write("puzzle_file", "example-" + f.name, f.read_bytes())
    for f in sorted((ROOT / "examples" / "puzzles").glob("*.tws")):
        write("tws", "example-" + f.name, f.read_bytes())
    for f in sorted((ROOT / "tests" / "data" / "twisty").glob("*.tws")):
        write("tws", "test-data-" + f.name, f.read_bytes())
    for f in sorted((ROOT / "tests" / "blocks_corpus").glob("*.toml")):
        write("puzzle_file", "blocks-corpus-" + f.name, f.read_bytes())
    for f in sorted((ROOT / "bench" / "data").glob("*.toml")):
        write("puzzle_file", "bench-data-" + f.name, f.read_bytes())
    tests = sorted(p.name for p in (ROOT / "tests").glob("*.cpp"))
    from_tests("puzzle_file", tests, lambda t: looks_like_puzzle_file(t) and "[[analysis]]" not in t)
    from_tests("tws", tests, looks_like_tws)
    for f in sorted((ROOT / "examples" / "sokoban").glob("*")):
        if f.suffix in (".xsb", ".sok", ".txt"):
            write("xsb", "example-" + f.name, f.read_bytes())
    from_tests("xsb", tests, looks_like_xsb)
    for f in sorted((ROOT / "examples" / "rushhour").glob("*.txt")):
        write("rush", "example-" + f.name, f.read_bytes())
    from_tests("rush", tests, lambda t: re.search(r"^[0-9]+ [A-Za-z.]{36} [0-9]+$", t, re.M) is not None)
    write("manifest", "example-article.toml", (ROOT / "examples" / "article.toml").read_bytes())
    from_tests("manifest", tests, lambda t: "[[analysis]]" in t or "puzzle =" in t)
    write("checkpoint", "tiles-2x3-level0", checkpoint("tiles:2x3", "1 2 3 / 4 5 _", [1], [360, 360]))
    write("checkpoint", "tiles-2x3-level3", checkpoint("tiles:2x3", "1 2 3 / 4 5 _", [1, 2, 3, 6], [360, 360]))
    write("checkpoint", "tiles-4x4-level1", checkpoint("tiles:4x4", "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _",
                                                       [1, 2], [2615348736000, 2615348736000]))
    write("checkpoint", "ranked-cube2-level2", checkpoint("cube2", "UFR: 0 1 2 3 4 5 6", [1, 9, 54], [3674160, 3674160],
                                                          "ranked", "3674160 ranks, 9 moves, moves 0123456789abcdef",
                                                          [9, 0, 81, 0]))

    stale = []
    for harness, seeds in sorted(SEEDS.items()):
        folder = FUZZ / harness
        on_disk = {f.name: f.read_bytes() for f in folder.glob("*")} if folder.is_dir() else {}
        for name in sorted(set(on_disk) | set(seeds)):
            if name.startswith(HAND_MADE) or on_disk.get(name) == seeds.get(name):
                continue
            stale.append(f"tests/fuzz/{harness}/{name}")
            if check:
                continue
            folder.mkdir(exist_ok=True)
            if name in seeds:
                (folder / name).write_bytes(seeds[name])
            else:
                (folder / name).unlink()
    if check and stale:
        print(f"make_seeds.py: {len(stale)} seeds differ from the examples and tests, e.g. {stale[0]}"
              " (run python3 tests/fuzz/make_seeds.py and commit tests/fuzz/)", file=sys.stderr)
        sys.exit(1)
    if not check:
        print(f"make_seeds.py: {len(stale)} seeds written or removed", file=sys.stderr)


if __name__ == "__main__":
    main()
