"""wiezen-sim: Monte Carlo contract analyser for Wiezen and Romanian whist."""

from wiezen_sim.solvers.players import play_deal

__all__ = ["play_deal"]
