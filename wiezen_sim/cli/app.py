"""The ``wiezen-sim`` parser (one sub-command per verb module) and its entry points.

``main`` returns the exit code; ``entry`` is the console script.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import NoReturn

from wiezen_sim.cli import advise, demo, experiment, romanian, score, serve, simulate, solve
from wiezen_sim.cli.args import EXIT_SIGNAL, EXIT_USAGE, Parser, UsageError, one_line, same_file
from wiezen_sim.stops import early_handler

__all__ = ["VERBS", "build_parser", "entry", "main"]

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


def _out_is_not_an_input(args: argparse.Namespace) -> None:
    """Refuse an ``--out`` that names a file the command reads (``--deals``, a ``--rules`` file): the result
    would replace it."""
    out = getattr(args, "out", None)
    for option in ("deals", "rules"):
        given = getattr(args, option, None)
        if isinstance(given, str) and os.path.isfile(given) and same_file(given, out):
            raise UsageError(f"--out {out} is the --{option} file this command reads: the result would replace it")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``wiezen-sim``; returns the exit code: 0, 2 on bad input, 128 + the signal
    number when stopped (130 after Ctrl-C, 143 after SIGTERM).

    A stopped run says on stderr how many samples it had finished; a verb with a result
    over them prints it first, marked PARTIAL (:class:`wiezen_sim.parallel.Interrupted`).
    """
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)
    previous = signal.signal(signal.SIGINT, early_handler)  # a Ctrl-C in one of the imports below is put off
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before the run's own handler was in place
        print("wiezen-sim: stopped by SIGINT before the run started", file=sys.stderr)
        return EXIT_SIGNAL + signal.SIGINT
    finally:
        signal.signal(signal.SIGINT, previous)


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main` (its SIGINT handler in place)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from wiezen_sim.parallel import Interrupted, stop_signals  # after parsing: --help and refusals answer at once

    verb = " ".join(v for v in (args.command, getattr(args, "romanian_command", None)) if v)  # as argparse says it
    try:
        _out_is_not_an_input(args)
        with stop_signals():
            args.func(args)
    except BrokenPipeError:
        # the reader stopped early (e.g. ``| head``): not an error of the command
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:
        print(f"wiezen-sim {verb}: error: not enough memory for this run (ask for less)", file=sys.stderr)
        return EXIT_USAGE
    except (UsageError, ValueError, OSError) as exc:
        message = str(exc)
        if isinstance(exc, OSError) and exc.filename and exc.strerror:  # not "[Errno 20] Not a directory: 'x'"
            message = f"cannot use {exc.filename}: {exc.strerror}"
        print(f"wiezen-sim {verb}: error: {one_line(message)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:
        stop = exc if isinstance(exc, Interrupted) else Interrupted()
        said = f"wiezen-sim {verb}: stopped by {signal.Signals(stop.signum).name}"
        if stop.total:
            said += f" after {stop.summary()}"
        if stop.partial is not None:
            said += "; the result printed is over them, marked PARTIAL"
        if stop.hint:
            said += f"; {stop.hint}"
        print(said, file=sys.stderr)
        return EXIT_SIGNAL + stop.signum
    return 0


def entry() -> NoReturn:
    """The ``wiezen-sim`` console script: exits with :func:`main`'s code.

    A stopped run (the worker processes already killed, files closed) exits once its
    output is flushed and the exit handlers have run (``atexit``: multiprocessing's release
    of its semaphores among them); the rest of the interpreter's teardown, most of a
    second with numba and pandas loaded, is skipped, so that Ctrl-C ends the command
    within a second.
    """
    code = main()
    if code > EXIT_SIGNAL:
        with contextlib.suppress(OSError):
            sys.stdout.flush()
            sys.stderr.flush()
        atexit._run_exitfuncs()
        os._exit(code)
    sys.exit(code)
