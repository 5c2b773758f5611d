"""wiezen-sim: Monte Carlo contract analyser for Wiezen and Romanian whist."""

from wiezen_sim.analysis.sessions import simulate_sessions
from wiezen_sim.solvers.players import play_deal

__all__ = ["play_deal", "simulate_sessions"]
