"""Execute the notebooks and save them with their outputs (nbclient), as they are committed.

Run from anywhere: ``python notebooks/execute.py [NAME ...]`` (default: every notebook
here, at the size of its ``parameters`` cell). Each notebook runs in a fresh temporary
working directory, so it can rely only on the package (``wiezen_sim.paths``), never on
where it was started. A notebook in which a cell fails is not saved and the script
exits with status 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat import NotebookNode

HERE = Path(__file__).resolve().parent


def run_notebook(name: str, parameters: str | None = None, timeout: int = 1800) -> NotebookNode:
    """Execute ``notebooks/<name>.ipynb`` in a temporary working directory and return it with its outputs.

    Args:
        parameters: replaces the source of the one cell tagged ``parameters`` (e.g.
            ``"SAMPLES = 2"``); None keeps the notebook's own sizes.
        timeout: seconds allowed per cell.

    Raises:
        ValueError: the notebook has not exactly one ``parameters`` cell.
        nbclient.exceptions.CellExecutionError: a cell raised (its output is kept in the notebook).
    """
    nb = nbformat.read(HERE / f"{name}.ipynb", as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    if len(cells) != 1:
        raise ValueError(f"{name}: {len(cells)} cells tagged 'parameters', expected one")
    if parameters is not None:
        cells[0].source = parameters
    with tempfile.TemporaryDirectory() as cwd:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": cwd}}).execute()
    return nb


def main() -> int:
    names = sorted(p.stem for p in HERE.glob("*.ipynb"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"default all: {', '.join(names)}")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(names))
    if unknown:
        parser.error(f"no notebook {', '.join(unknown)}; known: {', '.join(names)}")
    for name in args.names or names:
        try:
            nb = run_notebook(name)
        except CellExecutionError as exc:
            print(f"{name}: not saved, a cell failed: {str(exc).strip().splitlines()[-1]}", file=sys.stderr)
            return 1
        nbformat.write(nb, HERE / f"{name}.ipynb")
        print(f"{name}: executed and saved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
