"""``python -m wiezen_sim.cli``: the ``wiezen-sim`` command."""

from wiezen_sim.cli.app import entry

if __name__ == "__main__":
    entry()
