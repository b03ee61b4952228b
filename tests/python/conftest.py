"""Shared fixtures: the CLI binary the module is compared with, and its runs."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def binary() -> str:
    path = os.path.abspath(os.environ.get("STATESPACE_BINARY", str(ROOT / "build" / "statespace")))
    if not os.path.exists(path):
        pytest.fail(f"no statespace binary at {path} (set STATESPACE_BINARY)")
    return path


@pytest.fixture(scope="session")
def cli(binary):
    """cli(*args) -> CompletedProcess of `statespace args...` (text, not checked)."""

    def run(*args, cwd=None):
        return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, cwd=cwd)

    return run


@pytest.fixture(scope="session")
def cli_bundles(cli, tmp_path_factory):
    """The CLI's report folder of the seed puzzles (analyze --all --threads 2)."""
    out = tmp_path_factory.mktemp("cli")
    done = cli("--threads", "2", "analyze", "--all", "--out", out, "-q")
    assert done.returncode == 0, done.stderr
    return out


def cli_error(done) -> str:
    """The CLI's one-line error, without its "statespace: " prefix; exit code 2."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("statespace: "), done.stderr
    return lines[0][len("statespace: ") :]

