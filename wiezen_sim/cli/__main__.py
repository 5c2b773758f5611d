"""``python -m wiezen_sim.cli``: the ``wiezen-sim`` command."""

import sys

from wiezen_sim.cli.app import main

if __name__ == "__main__":
    sys.exit(main())
