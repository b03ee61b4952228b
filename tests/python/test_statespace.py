"""The Python module against the seeds' numbers and against the CLI's own files."""

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

import statespace
from conftest import ROOT, cli_error

# The 8-puzzle's distances from 1 2 3 / 4 5 6 / 7 8 _ (Reinefeld 1993; seed 002).
TILES_3X3 = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
             16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2]


def same_bytes_as_cli(result, cli_summary: pathlib.Path) -> None:
    """json.dumps of result.summary is summary.json byte for byte, but for the run
    facts (threads, seconds, peak memory), which are the run's own."""
    text = cli_summary.read_text(encoding="utf-8")
    ours = result.summary
    ours["run"] = json.loads(text)["run"]
    assert json.dumps(ours, indent=2, ensure_ascii=False) + "\n" == text


@pytest.mark.parametrize("name", ["nooff", "hex6", "tiles:3x3"])
def test_seed_summaries_equal_the_cli_byte_for_byte(name, cli_bundles):
    r = statespace.analyze(name, threads=2)
    folder = "tiles-3x3" if name == "tiles:3x3" else name
    same_bytes_as_cli(r, cli_bundles / folder / "summary.json")
    assert r.summary_json.split('"run"')[0] == (cli_bundles / folder / "summary.json").read_text().split('"run"')[0]


def test_seed_numbers():
    nooff = statespace.analyze("nooff")
    assert (nooff.positions, nooff.eccentricity, len(nooff.farthest)) == (540, 56, 3)
    assert len(set(nooff.farthest)) == 3
    hex6 = statespace.analyze("hex6")
    assert (hex6.positions, hex6.eccentricity, len(hex6.farthest)) == (5040, 15, 24)
    tiles = statespace.analyze("tiles:3x3")
    assert tiles.distribution.tolist() == TILES_3X3
    assert tiles.distribution.dtype == np.int64 and tiles.positions == 181440 == tiles.distribution.sum()


def test_distribution_is_a_view_of_the_result():
    r = statespace.analyze("tiles:3x3")
    a, b = r.distribution, r.distribution
    # Both views point at the C++ vector: no copy on either access, and none is writable.
    assert a.ctypes.data == b.ctypes.data and not a.flags.owndata and not a.flags.writeable
    assert a.base is not None
    del r  # the views keep the result alive
    assert a.tolist() == TILES_3X3


def test_engines_agree_and_threads_do_not_change_the_facts():
    auto = statespace.analyze("tiles:3x3", threads=1)
    explicit = statespace.analyze("tiles:3x3", engine="explicit", threads=2)
    assert (auto.engine, explicit.engine) == ("implicit", "explicit")
    assert auto.distribution.tolist() == explicit.distribution.tolist()
    assert auto.farthest == explicit.farthest


def test_to_pandas_is_distribution_csv(cli_bundles):
    r = statespace.analyze("hex6")
    csv = pd.read_csv(cli_bundles / "hex6" / "distribution.csv")
    pd.testing.assert_frame_equal(r.to_pandas(), csv.astype("int64"))


def test_load_bundle_equals_the_analysis_in_process(cli_bundles):
    for name, folder in [("nooff", "nooff"), ("tiles:3x3", "tiles-3x3")]:
        r = statespace.analyze(name)
        b = statespace.load_bundle(cli_bundles / folder)
        pd.testing.assert_frame_equal(b.distribution, r.to_pandas())
        assert b.farthest["position"].tolist() == r.farthest
        assert set(b.farthest["distance"]) == {r.eccentricity}
        ours = r.summary
        del ours["run"], b.summary["run"]
        assert b.summary == ours
        assert b.hardest is None


def test_load_summary(cli_bundles):
    s = statespace.load_summary(cli_bundles)
    assert s["puzzle"].tolist() == ["nooff", "hex6", "oshidori", "tiles:3x3"]
    assert s["states"].tolist() == [540, 5040, 140, 181440]
    assert s["eccentricity"].tolist() == [56, 15, 6, 31]


def test_puzzle_and_moves():
    p = statespace.puzzle("tiles:3x3")
    assert (p.name, p.kind, p.goal) == ("tiles:3x3", "tiles:RxC", "1 2 3 / 4 5 6 / 7 8 _")
    assert p.moves(p.goal) == [(None, "1 2 3 / 4 5 _ / 7 8 6"), (None, "1 2 3 / 4 5 6 / 7 _ 8")]
    assert p.parse("1 2 3 / 4 5 6 / 7 8 0") == p.goal
    assert p.format(p.goal) == "1 2 3\n4 5 6\n7 8 _"
    klotski = statespace.puzzle(ROOT / "examples" / "puzzles" / "klotski.toml")
    assert (klotski.name, klotski.kind) == ("klotski", "blocks")
    assert klotski.start == "B A A C / B A A C / D F F E / D G H E / I _ _ J"
    assert klotski.goal == "* * * * / * * * * / * * * * / * A A * / * A A *"
    assert len(klotski.moves(klotski.start)) == 4


def test_puzzle_from_toml_equals_the_file():
    text = (ROOT / "examples" / "puzzles" / "klotski.toml").read_text()
    r = statespace.analyze(statespace.puzzle_from_toml(text))
    assert r.positions == 25955
    from_file = statespace.analyze(ROOT / "examples" / "puzzles" / "klotski.toml").summary
    ours = r.summary
    del ours["run"], from_file["run"]
    assert ours == from_file
    assert r.goal["shortest"] is not None and r.goal["reached"] > 0


def test_solve_is_shortest_and_follows_the_moves():
    p = statespace.puzzle("hex6")
    start = "1 5 / 2 6 3 / 4 _"
    steps = statespace.solve(p, start)
    assert len(steps) == 11 and steps[-1][1] == p.goal
    at = start
    for _, position in steps:
        assert position in [q for _, q in p.moves(at)]
        at = position
    assert statespace.solve(p, p.goal) == []


def test_unsolvable_is_a_value_error_with_the_cli_message(cli):
    message = cli_error(cli("solve", "tiles:3x3", "2 1 3 / 4 5 6 / 7 8 _"))
    with pytest.raises(ValueError) as e:
        statespace.solve("tiles:3x3", "2 1 3 / 4 5 6 / 7 8 _")
    assert str(e.value) == message and "other parity class" in message


def test_progress_gets_every_level():
    levels = []
    r = statespace.analyze("tiles:3x3", progress=levels.append)
    assert [lv.depth for lv in levels] == list(range(1, r.eccentricity + 1))
    assert [lv.added for lv in levels] == TILES_3X3[1:] and levels[-1].total == r.positions


def test_an_exception_in_progress_stops_the_run():
    def stop(level):
        if level.depth == 3:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        statespace.analyze("tiles:3x3", progress=stop)
    assert statespace.analyze("nooff").positions == 540


def test_bad_position_is_a_value_error_with_the_cli_message(cli, tmp_path):
    message = cli_error(cli("analyze", "nooff", "--from", "N O L L / F O F X", "--out", tmp_path))
    with pytest.raises(ValueError) as e:
        statespace.analyze("nooff", start="N O L L / F O F X")
    assert str(e.value) == message and type(e.value) is ValueError
    with pytest.raises(ValueError) as e:
        statespace.puzzle("nooff").moves("N O L L / F O F X")
    assert str(e.value) == message


def test_unknown_puzzle_is_a_value_error_with_the_cli_message(cli, tmp_path):
    message = cli_error(cli("analyze", "tiles:9x9", "--out", tmp_path))
    with pytest.raises(ValueError) as e:
        statespace.puzzle("tiles:9x9")
    assert str(e.value) == message


def test_broken_file_is_a_puzzle_file_error_with_the_cli_message(cli, tmp_path, monkeypatch):
    # A short relative path: the CLI shortens long input in its messages.
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "broken.toml"
    path.write_text('name = "broken"\nkind = "blocks"\nstart = "A A / . B"\nmoves = "hop"\n')
    message = cli_error(cli("analyze", "broken.toml", "--out", "out", cwd=tmp_path))
    assert message == 'broken.toml:4:9: unknown moves \'hop\' (expected "step", "slide" or "path")'
    with pytest.raises(statespace.PuzzleFileError) as e:
        statespace.puzzle("broken.toml")
    assert e.value.args == (message, "broken.toml", 4, 9) and isinstance(e.value, ValueError)
    with pytest.raises(statespace.PuzzleFileError) as e:
        statespace.puzzle_from_toml(path.read_text(), file="inline.toml")
    assert e.value.args[0] == message.replace("broken.toml", "inline.toml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml"]


def test_refused_budget_is_a_memory_error_with_the_cli_message(cli, tmp_path):
    message = cli_error(cli("analyze", "tiles:3x4", "--memory", "1M", "--out", tmp_path / "out"))
    with pytest.raises(MemoryError) as e:
        statespace.analyze("tiles:3x4", memory="1M")
    assert str(e.value) == message
    with pytest.raises(MemoryError):
        statespace.analyze("tiles:3x4", memory=1 << 20)


def test_keyboard_interrupt_stops_a_long_analysis_cleanly(tmp_path):
    # A real SIGINT, sent at depth 5 of tiles:3x4 (239,500,800 positions, minutes on
    # two cores), in a fresh interpreter so that this one's signal handling is untouched.
    script = textwrap.dedent(
        """
        import os, signal, time, statespace
        def interrupt(level):
            if level.depth == 5:
                os.kill(os.getpid(), signal.SIGINT)
        began = time.monotonic()
        try:
            statespace.analyze("tiles:3x4", threads=2, progress=interrupt)
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted after %.1f s" % (time.monotonic() - began))
        print(statespace.analyze("nooff").positions)
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted after ") and float(lines[0].split()[2]) < 10, done.stdout
    assert lines[1] == "540"
    assert list(tmp_path.iterdir()) == []


def test_mpi_is_refused():
    with pytest.raises(ValueError, match="--engine mpi runs from the analyze command only"):
        statespace.analyze("tiles:3x3", engine="mpi")


def test_import_does_not_load_numpy_or_pandas():
    done = subprocess.run(
        [sys.executable, "-c", "import sys, statespace; print('numpy' in sys.modules, 'pandas' in sys.modules)"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.stdout.strip() == "False False", done.stderr


def test_table_distances_equal_the_analysis_and_the_cli(tmp_path, cli):
    path = tmp_path / "tiles.table"
    r = statespace.analyze("tiles:3x3", table=path)
    t = statespace.Table(path)  # the header names a built-in puzzle
    assert t.puzzle.name == "tiles:3x3" and t.encoding == "two-bits" and not t.directed
    assert t.distribution.tolist() == r.distribution.tolist() == TILES_3X3
    assert (t.entries, t.reached, t.dead) == (181440, 181440, 0)
    far = r.farthest[0]
    assert t.distance(far) == 31 and t.standing(far) == "distance" and t.distance(t.goal) == 0
    # Every move from a farthest position is one closer (31 is the diameter), and a
    # line of best moves reaches the goal in exactly the distance, each a legal move.
    assert [(m[4], m[3]) for m in t.moves(far)] == [("closer", 30)] * len(t.moves(far))
    line = t.line(far)
    assert len(line) == 31 and line[-1][1] == t.goal
    at = far
    for _, position in line:
        assert position in [q for _, q in t.puzzle.moves(at)]
        at = position
    # query --format json says the same of a position in the middle.
    middle = line[10][1]
    out = cli("query", "tiles:3x3", middle, "--table", path, "--format", "json")
    assert out.returncode == 0, out.stderr
    q = json.loads(out.stdout)
    assert q["distance"] == t.distance(middle) == 20
    assert [(m["position"], m["change"]) for m in q["moves"]] == [(m[1], m[4]) for m in t.moves(middle)]
    # solve walks the table: a solution of the same length as the search's.
    assert statespace.solve("tiles:3x3", far, table=t) == line
    assert len(statespace.solve("tiles:3x3", far)) == 31


def test_table_ranks_are_a_view_of_the_mapped_file(tmp_path):
    path = tmp_path / "hex6.table"
    statespace.analyze("hex6", table=path)
    t = statespace.Table(path)
    a, b = t.ranks(), t.ranks()
    assert a.dtype == np.uint8 and a.ctypes.data == b.ctypes.data and not a.flags.writeable and not a.flags.owndata
    # Two bits a rank: 5,040 ranks in 1,260 bytes; the codes 1 + d mod 3 count the distances.
    assert t.encoding == "two-bits" and len(a) == 1260
    codes = np.stack([(a >> (2 * k)) & 3 for k in range(4)], axis=1).reshape(-1)
    layers = t.distribution.tolist()
    assert [int((codes == c).sum()) for c in (1, 2, 3)] == [sum(layers[d::3]) for d in range(3)]
    del t
    assert a.sum() > 0  # the view keeps the mapping alive


def test_table_of_a_directed_file_counts_the_dead(tmp_path):
    yard = ROOT / "examples" / "puzzles" / "sokoban-yard.toml"
    path = tmp_path / "yard.table"
    r = statespace.analyze(yard, table=path)
    p = statespace.puzzle(yard)
    with pytest.raises(ValueError, match="is no built-in puzzle"):
        statespace.Table(path)
    t = statespace.Table(path, p)
    assert t.directed and t.encoding == "words" and t.dead == r.goal["dead_ends"] > 0
    assert t.distance() == r.goal["shortest"] == len(statespace.solve(p)) == len(statespace.solve(p, table=t))
    with pytest.raises(ValueError, match="is for"):
        statespace.Table(path, statespace.puzzle("tiles:3x3"))


def test_symmetry_argument_replaces_the_files(tmp_path):
    triangle = ROOT / "examples" / "puzzles" / "peg-triangle.toml"
    plain = statespace.analyze(triangle, symmetry="none")
    board = statespace.analyze(triangle, symmetry="board")
    # 3,016 positions from a corner hole either way, as 1,544 classes under the
    # stabiliser (Jaap's Puzzle Page's figure).
    assert plain.positions == 3016 and plain.positions_distribution is None
    assert board.distribution.sum() == 1544 and board.positions_distribution.sum() == 3016
    assert board.positions_distribution.tolist() == plain.distribution.tolist()
    with pytest.raises(ValueError, match="applies to rules files"):
        statespace.analyze("tiles:3x3", symmetry="board")
    with pytest.raises(ValueError, match="unknown symmetry"):
        statespace.puzzle(triangle, symmetry="mirror")


def test_solve_methods_agree():
    start = "1 5 / 2 6 3 / 4 _"
    bfs = statespace.solve("hex6", start, method="bfs")
    both = statespace.solve("hex6", start, method="bidirectional")
    assert len(bfs) == len(both) == 11 and bfs[-1][1] == both[-1][1] == "1 2 / 3 4 5 / 6 _"
    with pytest.raises(ValueError, match="unknown method"):
        statespace.solve("hex6", start, method="astar")
    with pytest.raises(ValueError, match="sliding tiles only"):
        statespace.solve("hex6", start, method="ida")


def test_ida_on_the_15_puzzle(tmp_path):
    # A 15-puzzle position 20 moves from the goal, solved optimally by IDA* over the
    # 5-5-5 pattern databases that a small budget chooses (built into tmp_path).
    start = "5 1 3 4 / 9 2 7 8 / 13 6 10 11 / 14 _ 15 12"
    steps = statespace.solve("tiles:4x4", start, memory="64M", pdb_dir=tmp_path)
    assert steps[-1][1] == "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _"
    p = statespace.puzzle("tiles:4x4")
    at = start
    for _, position in steps:
        assert position in [q for _, q in p.moves(at)]
        at = position
    assert len(steps) == len(statespace.solve("tiles:4x4", start, method="bidirectional", memory="1G"))
