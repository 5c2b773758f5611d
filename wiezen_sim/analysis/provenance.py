"""Where a result came from: the package versions, the machine and the git commit, for the
``meta.json`` of an experiment and the JSON of every benchmark."""

from __future__ import annotations

import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

__all__ = ["git_commit", "machine_info", "package_versions"]


def package_versions() -> dict:
    """Versions of Python and of this package's main dependencies, for a run's ``meta.json``."""
    out = {"python": platform.python_version()}
    for pkg in ("wiezen-sim", "numpy", "numba", "pandas", "scipy", "joblib", "matplotlib", "pyarrow", "dask"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            continue
    return out


def machine_info(load_start: tuple[float, ...]) -> dict:
    """The machine part of a run's ``meta.json``: platform, cores, load average at the start and now."""
    return {
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in load_start],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
    }


def git_commit() -> str | None:
    """The checked-out commit of this package's repository (``-dirty`` when modified), or None outside git."""
    try:
        here = Path(__file__).resolve().parent
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=here, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode:
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
