"""The ``wiezen-sim`` parser (one sub-command per verb module) and its entry point ``main``."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from wiezen_sim.cli import advise, demo, experiment, romanian, score, serve, simulate, solve
from wiezen_sim.cli.args import EXIT_INTERRUPTED, EXIT_USAGE, Parser, UsageError

__all__ = ["VERBS", "build_parser", "main"]

VERBS = (advise, solve, score, demo, simulate, experiment, romanian, serve)  # the order of the help


def _version() -> str:
    try:
        return version("wiezen-sim")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def build_parser() -> Parser:
    """The argument parser of ``wiezen-sim`` (one sub-command per verb)."""
    parser = Parser(
        prog="wiezen-sim",
        description="Monte Carlo contract analyser for Wiezen (Belgian whist) and Romanian whist. "
        "Try: wiezen-sim advise --help",
    )
    parser.add_argument("--version", action="version", version=f"wiezen-sim {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="VERB")
    for verb in VERBS:
        verb.add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``wiezen-sim``; returns the exit code (0, 2 on bad input, 130 when interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except BrokenPipeError:
        # the reader stopped early (e.g. ``| head``): not an error of the command
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:
        print(f"wiezen-sim {args.command}: error: not enough memory for this run (ask for less)", file=sys.stderr)
        return EXIT_USAGE
    except (UsageError, ValueError, OSError) as exc:
        print(f"wiezen-sim {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"wiezen-sim {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0
