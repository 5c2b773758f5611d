"""The notebooks (issue 6, 23): they run end to end at a small size from any working directory, through the
public API only, and are committed executed (``python notebooks/execute.py``) with their outputs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

from wiezen_sim.paths import ROOT_VARIABLE, repository_root

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SMALL = {"01_advise_a_hand": "SAMPLES = 3\nJOBS = 1", "02_strategy_charts": "SAMPLES = 2\nJOBS = 1"}
SMALL["03_batch_experiment"] = "SAMPLES = 2\nJOBS = 1\nUSE_DASK = False"
MAX_BYTES = 400_000  # a saved notebook with its PNGs stays small


def load_execute():
    spec = importlib.util.spec_from_file_location("execute", NOTEBOOKS / "execute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def test_every_notebook_is_covered():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(SMALL)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_notebook_runs_small_from_another_folder(name, compiled_kernels):
    """execute.py runs each notebook in a fresh temporary working directory: no path relative to it."""
    nb = load_execute().run_notebook(name, SMALL[name], timeout=300)
    errors = [o for c in code_cells(nb) for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    assert all(c.execution_count is not None for c in code_cells(nb))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_committed_notebook_has_its_outputs(name):
    path = NOTEBOOKS / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    cells = code_cells(nb)
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1)), "executed top to bottom in one run"
    outputs = [o for c in cells for o in c.get("outputs", [])]
    assert len(outputs) >= len(cells) - 2 and not [o for o in outputs if o.output_type == "error"]
    stderr = [o.text for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    assert not stderr, stderr
    if name != "03_batch_experiment":
        assert any("image/png" in o.get("data", {}) for o in outputs), "its charts are shown"
    assert path.stat().st_size < MAX_BYTES
    assert not any('".."' in c.source or "'..'" in c.source for c in cells), "results are found through the package"


def test_repository_root(tmp_path, monkeypatch):
    monkeypatch.delenv(ROOT_VARIABLE, raising=False)
    assert repository_root() == NOTEBOOKS.parent
    monkeypatch.setenv(ROOT_VARIABLE, str(tmp_path))
    with pytest.raises(FileNotFoundError, match=f"no results/ folder under {tmp_path}: set {ROOT_VARIABLE}"):
        repository_root()
    (tmp_path / "results").mkdir()
    assert repository_root() == tmp_path
