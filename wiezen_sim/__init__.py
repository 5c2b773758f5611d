"""wiezen-sim: Monte Carlo contract analyser for Wiezen and Romanian whist.

The top-level names are imported when first used (a module ``__getattr__``, PEP 562), so
``import wiezen_sim`` (and every ``wiezen_sim.…`` module, the command line's and the
worker processes' included) does not load the analysis layer before it is needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wiezen_sim.analysis.advise import advise
    from wiezen_sim.analysis.sessions import simulate_sessions
    from wiezen_sim.solvers.players import play_deal

_HOMES = {
    "advise": "wiezen_sim.analysis.advise",
    "play_deal": "wiezen_sim.solvers.players",
    "simulate_sessions": "wiezen_sim.analysis.sessions",
}
__all__ = ["advise", "play_deal", "simulate_sessions"]


def __getattr__(name: str) -> object:
    """``advise``, ``play_deal``, ``simulate_sessions``: imported from their modules on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module 'wiezen_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
