# The package's public types (docs/python.md).
import os
from typing import Any, Callable, NamedTuple, Optional, Union

from ._core import Puzzle as Puzzle
from ._core import PuzzleFileError as PuzzleFileError
from ._core import Result as Result
from ._core import Table as Table

__version__: str

PuzzleLike = Union[Puzzle, str, os.PathLike[str]]

class Level(NamedTuple):
    stage: str
    depth: int
    added: int
    total: int

class Bundle(NamedTuple):
    summary: dict[str, Any]
    distribution: Any
    farthest: Any
    hardest: Any

def puzzle(name: Union[str, os.PathLike[str]], symmetry: Optional[str] = ...) -> Puzzle: ...
def puzzle_from_toml(text: str, file: str = ..., symmetry: Optional[str] = ...) -> Puzzle: ...
def listed() -> list[str]: ...
def seeds() -> list[str]: ...
def analyze(
    p: PuzzleLike,
    engine: str = ...,
    threads: Optional[int] = ...,
    memory: Union[int, str, None] = ...,
    start: Optional[str] = ...,
    lookup: Optional[str] = ...,
    progress: Optional[Callable[[Level], Any]] = ...,
    symmetry: Optional[str] = ...,
    table: Union[str, os.PathLike[str], None] = ...,
) -> Result: ...
def solve(
    p: PuzzleLike,
    position: Optional[str] = ...,
    method: str = ...,
    goal: Optional[str] = ...,
    memory: Union[int, str, None] = ...,
    table: Optional[Table] = ...,
    pdb_dir: Union[str, os.PathLike[str], None] = ...,
) -> list[tuple[Optional[str], str]]: ...
def load_bundle(folder: Union[str, os.PathLike[str]]) -> Bundle: ...
def load_summary(folder: Union[str, os.PathLike[str]]) -> Any: ...
