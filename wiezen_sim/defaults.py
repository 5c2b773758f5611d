"""Names and limits shared by the library and the command-line parsers, importable without numba, pandas or
scipy, so that ``wiezen-sim --help`` and the light verbs answer at once (the verbs import their work only
when run). Each is re-exported by the module it belongs to; this is its one definition.
"""

from __future__ import annotations

__all__ = [
    "ADVISE_WORKER_MODULE",
    "COMPARED",
    "DEFAULT_TT_MB",
    "DEFAULT_WORLDS",
    "EXAMPLE",
    "MAX_HANDS",
    "MAX_SESSIONS",
    "MAX_TT_MB",
    "MAX_WORLDS",
    "METHODS",
]

# the double-dummy solver's transposition table (wiezen_sim.solvers.dd.DDSolver), in MB
DEFAULT_TT_MB = 256
MAX_TT_MB = 1 << 20  # 1 TB: beyond any machine; a table too large for this one raises MemoryError

# PIMC players (wiezen_sim.solvers.players): worlds sampled per card decision
DEFAULT_WORLDS = 16
MAX_WORLDS = 4096

# the advisor (wiezen_sim.analysis.advise): its play methods (wiezen_sim.analysis.advise.play), those
# ``compare`` runs by default, and the CLI's built-in position
METHODS = ("dd", "pimc", "pimc-uniform", "heuristic")
MAX_PIMC_SAMPLES = 10_000  # sampled deals of advise with a PIMC method (seconds a deal: hours already)
COMPARED = ("dd", "pimc", "heuristic")
EXAMPLE = {"hand": "S:AKQJ98 H:AK2 D:K3 C:52", "seat": "eldest", "turned": "7H"}
# the module of the task the advisor's worker processes run (``play.DealBatch``): the CLI has them import it
# while it imports the rest (wiezen_sim.parallel.workers_started)
ADVISE_WORKER_MODULE = "wiezen_sim.analysis.advise.play"
ROMANIAN_WORKER_MODULE = "wiezen_sim.analysis.romanian.bids"  # the Romanian advisor's (``bids._CountBatch``)

# sessions (wiezen_sim.analysis.sessions)
MAX_HANDS = 10_000  # hands of one session (RULES.md 1.8: commonly 16 or 24)
MAX_SESSIONS = 10_000_000  # sessions of one simulation (their chips and log are kept in memory)
