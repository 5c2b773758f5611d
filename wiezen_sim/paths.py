"""Where the repository's experiment files and committed results are, from any working directory.

Notebooks and scripts find ``experiments/`` and ``results/`` through
:func:`repository_root`, never through a path relative to the working directory.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT_VARIABLE = "WIEZEN_SIM_ROOT"


def repository_root() -> Path:
    """The wiezen-sim checkout that holds ``experiments/`` and ``results/``.

    ``$WIEZEN_SIM_ROOT`` when set, else the folder above this package (a source checkout
    or an editable install).

    Raises:
        FileNotFoundError: that folder has no ``results/`` (e.g. an installed wheel
            without ``WIEZEN_SIM_ROOT``).
    """
    root = Path(os.environ.get(ROOT_VARIABLE) or Path(__file__).resolve().parent.parent)
    if not (root / "results").is_dir():
        raise FileNotFoundError(f"no results/ folder under {root}: set {ROOT_VARIABLE} to a wiezen-sim checkout")
    return root
