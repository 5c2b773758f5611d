"""The advise commands the README gives a player work as written (with fewer samples, one job)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from wiezen_sim.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
COMMANDS = [line for line in README.read_text().splitlines() if re.match(r"wiezen-sim advise \S", line)]


def test_the_readme_gives_advise_commands():
    assert len(COMMANDS) >= 2


@pytest.mark.parametrize("command", COMMANDS)
def test_a_readme_advise_command_runs(compiled_kernels, capsys, command):
    argv = [*shlex.split(command)[1:], "--samples", "8", "--jobs", "1", "--quiet"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "recommendation:" in capsys.readouterr().out


def test_the_readme_python_example_runs(compiled_kernels):
    """The README's Python API block runs as written, with 8 sampled deals and one job per call."""
    block = re.search(r"## The Python API\n+```python\n(.*?)```", README.read_text(), re.S)
    assert block, "README.md has no Python API block"
    from wiezen_sim.analysis import advise as package

    def quick(*args, **kwargs):
        return package.advise(*args, **{**kwargs, "samples": 8, "n_jobs": 1})

    code = block.group(1).replace("from wiezen_sim.analysis.advise import advise\n", "")
    namespace = {"advise": quick, "print": lambda *a: None}
    exec(code, namespace)  # the README's own example
    assert namespace["advice"].recommendation["contract"]
