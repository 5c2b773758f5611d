"""The notebooks run end to end at a small size (issue 6), through the public API only."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SMALL = {"01_advise_a_hand": "SAMPLES = 3\nJOBS = 1", "02_strategy_charts": "SAMPLES = 2\nJOBS = 1"}
SMALL["03_batch_experiment"] = "SAMPLES = 2\nJOBS = 1\nUSE_DASK = False"


@pytest.mark.parametrize("name", sorted(SMALL))
def test_notebook_runs_small(name, compiled_kernels):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "one cell tagged 'parameters' holds the size"
    cells[0].source = SMALL[name]
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors


@pytest.mark.parametrize("name", sorted(SMALL))
def test_notebook_outputs_are_stripped(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")
