"""The command line answers at once (issue 18): ``wiezen-sim --help``, every verb's help and refusals, and the
light verbs such as ``score`` do not import the numerical stack (numba, pandas, scipy, matplotlib); each verb
imports its work only when it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numba", "pandas", "scipy", "matplotlib")

PROBE = """
import contextlib, io, json, sys
from wiezen_sim.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["advise", "--help"],
        ["advise", "--compare", "dd,bogus"],  # a refusal while parsing
        ["advise", "--method", "pimc", "--samples", "20000"],  # a refusal before the run
        ["score", "solo", "--declarer", "0", "--tricks", "7"],
    ],
)
def test_cli_does_not_import_the_numerical_stack(argv):
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert "wiezen_sim" in loaded and not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_advise_workers_import_the_module_of_their_task():
    """``advise`` starts its workers first, each importing ``ADVISE_WORKER_MODULE`` while the command imports the
    rest: it must be the module of the task they run, or they would import the wrong thing."""
    from wiezen_sim.analysis.advise.play import DealBatch
    from wiezen_sim.defaults import ADVISE_WORKER_MODULE

    assert DealBatch.__module__ == ADVISE_WORKER_MODULE
