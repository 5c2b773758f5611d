"""Monte Carlo estimation over deals consistent with what a player knows (DESIGN.md layer 5)."""
