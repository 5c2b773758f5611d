"""The ``wiezen-sim`` command (DESIGN.md layer 7): parses, calls the library, prints.

One module per verb (``advise``, ``solve``, ``score``, ``demo``, ``simulate``,
``experiment``, ``romanian``, ``serve``), each with ``add(subparsers)`` and ``run(args)``;
what they share (argument types, ``--format``/``--out``/``--quiet``/``--jobs``, output) is
in :mod:`wiezen_sim.cli.args`; :mod:`wiezen_sim.cli.app` builds the parser and runs a verb.
Only this package prints. Bad input: one line on stderr and exit code 2.
"""

from wiezen_sim.cli.app import build_parser, main
from wiezen_sim.cli.args import EXIT_SIGNAL, EXIT_USAGE, UsageError

__all__ = ["EXIT_SIGNAL", "EXIT_USAGE", "UsageError", "build_parser", "main"]
