"""Executes a notebook with nbclient in a scratch folder; fails on any cell's error.

    python3 tests/python/run_notebook.py examples/notebooks/seeds.ipynb FIGURES
"""

import os
import sys
import tempfile

import nbclient
import nbformat


def main(path: str, figures_expected: int) -> None:
    # The kernel starts in the scratch folder: PYTHONPATH (build/python) made absolute.
    entries = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    os.environ["PYTHONPATH"] = os.pathsep.join(os.path.abspath(e) for e in entries if e)
    os.environ.pop("MPLBACKEND", None)  # the kernel's inline backend, which shows the figures
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger warns of frozen modules
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as scratch:
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": scratch}})
        client.execute()
    figures = sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))
    print(f"{path}: {len(nb.cells)} cells run, {figures} figures")
    if figures != figures_expected:
        sys.exit(f"{path}: {figures} figures drawn, expected {figures_expected}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
