"""wiezen-sim: Monte Carlo contract analyser for Wiezen and Romanian whist."""
