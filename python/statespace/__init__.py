"""statespace from Python: exact facts about a puzzle's whole state space.

    >>> import statespace
    >>> r = statespace.analyze("nooff")
    >>> r.positions, r.eccentricity, len(r.farthest)
    (540, 56, 3)

The analysis runs in this process on the library's engines (the same as
`statespace analyze`), without the GIL; Ctrl-C stops it with KeyboardInterrupt.
Counts come as numpy arrays that share memory with the C++ result, tables as pandas
objects. numpy and pandas are imported on first use, not by `import statespace`.
See docs/python.md.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, NamedTuple, Optional, Union

from . import _core
from ._core import Puzzle, PuzzleFileError, Result, Table

__version__ = _core.__version__
__all__ = [
    "Level",
    "Bundle",
    "Puzzle",
    "PuzzleFileError",
    "Result",
    "Table",
    "analyze",
    "listed",
    "load_bundle",
    "load_summary",
    "puzzle",
    "puzzle_from_toml",
    "seeds",
    "solve",
]

PuzzleLike = Union[Puzzle, str, "os.PathLike[str]"]


class Level(NamedTuple):
    """One finished level of an analysis, as `statespace analyze` prints it."""

    stage: str  # the engine's pass: "tiles:3x3 implicit bfs", "hex6 enumerate", ...
    depth: int
    added: int  # positions first reached at this depth
    total: int  # positions reached so far


def puzzle(name: Union[str, "os.PathLike[str]"], symmetry: Optional[str] = None) -> Puzzle:
    """A built-in puzzle ("nooff", "tiles:3x3", see `listed()`) or a puzzle file
    (a path ending in .toml or .tws). `symmetry` ("board" or "none") replaces a
    rules file's own `symmetry = ...`. ValueError for an unknown name or a symmetry
    on another kind, PuzzleFileError for a broken file."""
    return _core._puzzle(os.fspath(name), symmetry)


def puzzle_from_toml(text: str, file: str = "<string>", symmetry: Optional[str] = None) -> Puzzle:
    """The puzzle a TOML text describes (docs/puzzle-files.md); errors name `file`.
    `symmetry` as for `puzzle()`."""
    return _core._puzzle_from_toml(text, file, symmetry)


def listed() -> list[str]:
    """The built-in puzzles `statespace list` shows."""
    return _core._listed()


def seeds() -> list[str]:
    """The seed puzzles `statespace analyze --all` analyses."""
    return _core._seeds()


def _as_puzzle(p: PuzzleLike) -> Puzzle:
    return p if isinstance(p, Puzzle) else puzzle(p)


def analyze(
    p: PuzzleLike,
    engine: str = "auto",
    threads: Optional[int] = None,
    memory: Union[int, str, None] = None,
    start: Optional[str] = None,
    lookup: Optional[str] = None,
    progress: Optional[Callable[[Level], Any]] = None,
    symmetry: Optional[str] = None,
    table: Union[str, "os.PathLike[str]", None] = None,
) -> Result:
    """Analyses the whole space reachable from the goal (or from `start`), as
    `statespace analyze` does: engine as --engine, threads as --threads (default:
    every core), memory as --memory (bytes, or "512M"; default 75% of RAM), start as
    --from, lookup as --lookup (the explicit engine's visited set: linear,
    linear-sentinel, hashed, std-hashed, ranked; the linear ones count comparisons).
    `progress`, when given, is called with a Level after each finished level.
    `symmetry` ("board" or "none") replaces a rules file's own. `table`, a path:
    the distance table of every position to the goal is written there too, as
    `analyze --table` writes it into the bundle; open it with `Table(path, p)`.
    ValueError for a bad request, MemoryError when the run would not fit `memory`;
    both before any work."""
    callback = None
    if progress is not None:

        def callback(stage: str, depth: int, added: int, total: int) -> None:
            progress(Level(stage, depth, added, total))

    model = _as_puzzle(p)
    if symmetry is not None:
        model = _core._with_symmetry(model, symmetry)
    path = None if table is None else os.fspath(table)
    return _core._analyze(model, engine, threads, memory, start, lookup, path, callback)


def solve(
    p: PuzzleLike,
    position: Optional[str] = None,
    method: str = "auto",
    goal: Optional[str] = None,
    memory: Union[int, str, None] = None,
    table: Optional[Table] = None,
    pdb_dir: Union[str, "os.PathLike[str]", None] = None,
) -> list[tuple[Optional[str], str]]:
    """A shortest solution from `position` (default: a puzzle file's start) to the
    goal (or to `goal`): (move name or None, position after) for each move; empty
    when `position` is a goal. As `statespace solve`: method "auto" (IDA* over
    pattern databases on tiles:4x4, cached in `pdb_dir`, else breadth-first or
    graded chains), "bfs", "bidirectional" or "ida"; with `table`, a walk of best
    moves along it, no search. ValueError when there is no solution."""
    return _core._solve(
        _as_puzzle(p), position, method, goal, memory, table, None if pdb_dir is None else os.fspath(pdb_dir)
    )


def _summary(self: Result) -> dict[str, Any]:
    """summary.json's facts as a dict, in its key order:
    json.dumps(r.summary, indent=2, ensure_ascii=False) + "\\n" == r.summary_json."""
    return json.loads(self.summary_json)


def _to_pandas(self: Result):
    """The distribution as distribution.csv holds it: depth, count, cumulative
    (and positions, positions_cumulative when counted up to symmetry)."""
    import pandas as pd

    frame = pd.DataFrame({"depth": range(len(self.distribution)), "count": self.distribution})
    frame["cumulative"] = frame["count"].cumsum()
    if self.positions_distribution is not None:
        frame["positions"] = self.positions_distribution
        frame["positions_cumulative"] = frame["positions"].cumsum()
    return frame.astype("int64")


def _repr(self: Result) -> str:
    return (
        f"<statespace.Result {self.puzzle}: {self.positions} positions, eccentricity "
        f"{self.eccentricity}, {len(self.farthest)} farthest, engine {self.engine}, {self.seconds:.3f} s>"
    )


Result.summary = property(_summary)
Result.to_pandas = _to_pandas
Result.__repr__ = _repr


class Bundle(NamedTuple):
    """One puzzle's report folder as `statespace analyze` writes it."""

    summary: dict[str, Any]  # summary.json
    distribution: Any  # pandas.DataFrame of distribution.csv
    farthest: Any  # pandas.DataFrame of farthest.csv
    hardest: Any  # pandas.DataFrame of hardest.csv, or None


def load_bundle(folder: Union[str, "os.PathLike[str]"]) -> Bundle:
    """A report folder written by `statespace analyze` (OUT/<puzzle>/) as pandas
    objects. FileNotFoundError when it holds no summary.json."""
    import pandas as pd

    folder = os.fspath(folder)
    with open(os.path.join(folder, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)

    def table(name: str, **kw: Any):
        path = os.path.join(folder, name)
        return pd.read_csv(path, keep_default_na=False, **kw) if os.path.exists(path) else None

    return Bundle(
        summary=summary,
        distribution=table("distribution.csv").astype("int64"),
        farthest=table("farthest.csv", dtype={"position": str}),
        hardest=table("hardest.csv", dtype={"position": str}),
    )


def load_summary(folder: Union[str, "os.PathLike[str]"]):
    """The summary table of a report folder (OUT/summary.csv, one row a puzzle) as a
    pandas DataFrame."""
    import pandas as pd

    return pd.read_csv(os.path.join(os.fspath(folder), "summary.csv"), keep_default_na=False)
