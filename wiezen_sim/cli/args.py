"""What every ``wiezen-sim`` verb shares (DESIGN.md layer 7): the parser, argument types, output.

One convention for all verbs:

* bad input is a :class:`UsageError` (or an ``argparse`` refusal): one line on stderr, exit
  code :data:`EXIT_USAGE`; argument types reject a value out of range while the command
  line is parsed, before any work, naming the option;
* Wiezen seats are relative to the dealer (:data:`WIEZEN_SEATS`: 0 = eldest … 3 = dealer,
  or the names); ``solve`` takes PBN seats (:data:`PBN_SEAT_HELP`: 0..3 = N E S W);
* ``--format``, ``--out FILE`` and ``--quiet`` (:func:`add_output`) wherever a verb prints a
  result, ``--jobs`` (:func:`add_jobs`: 1 to the cores, or -1 for all) wherever work runs in
  parallel; the output path is checked when parsed, before the run;
* every verb's help has a one-line description and an example (:func:`add_verb`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Callable
from typing import NoReturn

from wiezen_sim.cards import PBN_SEATS
from wiezen_sim.rules.ruleset import PRESETS
from wiezen_sim.vocabulary import SEAT_NAMES, parse_seat

__all__ = [
    "EXIT_SIGNAL",
    "EXIT_USAGE",
    "PBN_SEAT_HELP",
    "WIEZEN_SEATS",
    "Parser",
    "UsageError",
    "add_jobs",
    "add_output",
    "add_rules",
    "add_verb",
    "emit",
    "float_range",
    "folder_path",
    "int_range",
    "jobs",
    "note",
    "one_line",
    "output_path",
    "pbn_seat",
    "same_file",
    "wiezen_seat",
]

EXIT_USAGE = 2
EXIT_SIGNAL = 128  # + the signal number: 130 after Ctrl-C (SIGINT), 143 after SIGTERM, as a shell reports them

WIEZEN_SEATS = f"relative to the dealer: 0 = eldest (bids and leads first) … 3 = dealer, or {', '.join(SEAT_NAMES)}"
PBN_SEAT_HELP = "PBN seats: 0..3 = N E S W, or the letters N E S W"


class UsageError(Exception):
    """Bad command-line input: reported on one line, exit code 2."""


def comma_entries(text: str) -> list[str]:
    """An argparse ``type``: the comma-separated entries of ``text``, stripped (none for an empty text).

    Raises:
        argparse.ArgumentTypeError: an empty entry (``1,,0``, ``abondance,``: a comma too many).
    """
    if not text.strip():
        return []
    parts = [p.strip() for p in text.split(",")]
    if "" in parts:
        raise argparse.ArgumentTypeError(f"an empty entry in {text!r} (a comma too many?)")
    return parts


_LONG_QUOTE = re.compile(r"'([^'\n]{200})[^'\n]+'")  # an input quoted back longer than 200 characters
_LONG_WORD = re.compile(r"([^\s']{200})[^\s']{100,}?(?=[:;,.]?(?:\s|$))")  # or unquoted (a path), over 300


def one_line(message: str) -> str:
    """A refusal as printed: on one line, and an input it quotes back cut to its first 200 characters (any
    path a user types is shorter; a 100 kB argument or path is not echoed whole)."""
    return _LONG_WORD.sub(r"\1…", _LONG_QUOTE.sub(r"'\1…'", " ".join(message.split("\n"))))


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose refusals are one line on stderr and exit code 2 (no usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message)}\n")


def add_verb(sub: argparse._SubParsersAction, name: str, summary: str, example: str, details: str = "") -> Parser:
    """A sub-command whose help starts with ``summary`` (one line), then ``details``, and ends with ``example``."""
    return sub.add_parser(
        name,
        help=summary,
        description=summary + (f"\n\n{details}" if details else ""),
        epilog="example:\n  " + example.replace("\n", "\n  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def int_range(low: int, high: int | None = None, note: str = "") -> Callable[[str], int]:
    """An argparse ``type``: a decimal integer from ``low`` to ``high`` (no upper bound when None).

    The returned function raises ``argparse.ArgumentTypeError`` on a non-integer or a
    value out of range; ``note`` (e.g. a tighter limit that another option sets) is added
    in brackets after the range in that message.
    """
    extra = f" ({note})" if note else ""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}{extra}, got {value}")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}{extra}, got {value}")
        return value

    return parse


def float_range(low: float, high: float = float("inf"), above: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` (above it when ``above``) to ``high``.

    The returned function raises ``argparse.ArgumentTypeError`` on a non-number or a value out of range.
    """

    def shown(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else str(x)

    floor = f"above {shown(low)}" if above else f"≥ {shown(low)}"
    span = f"a number {floor}" + (f" and at most {shown(high)}" if high < float("inf") else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not ((low < value) if above else (low <= value)) or not value <= high or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be {span}, got {text!r}")
        return value

    return parse


def jobs(text: str) -> int:
    """An argparse ``type`` for ``--jobs``: a worker count from 1 to this machine's cores, or -1 for all cores
    (more workers than cores only slow the work down: 32 made 8 samples 8 times slower on 2 cores; with
    ``--backend dask``, -1 uses every worker of the cluster)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    cores = os.cpu_count() or 1
    if not (1 <= value <= cores or value == -1):
        raise argparse.ArgumentTypeError(f"must be a worker count from 1 to {cores} (this machine's cores), "
                                         f"or -1 for all cores, got {value}")  # fmt: skip
    return value


def wiezen_seat(text: str) -> int:
    """An argparse ``type``: a Wiezen seat relative to the dealer (0 = eldest … 3 = dealer, or its name)."""
    try:
        return parse_seat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def pbn_seat(text: str) -> int:
    """An argparse ``type``: a PBN seat, 0..3 or N E S W (any case)."""
    word = text.strip().upper()
    if word in PBN_SEATS:
        return PBN_SEATS.index(word)
    if word in ("0", "1", "2", "3"):
        return int(word)
    raise argparse.ArgumentTypeError(f"unknown seat {text!r}: {PBN_SEAT_HELP}")


def output_path(text: str) -> str:
    """An argparse ``type`` for ``--out``: a file (not a folder) in a folder that exists, that can be written.

    Checked when the command line is parsed, so that a bad path is refused before the run: an existing
    file is opened for appending (nothing written), else a temporary file is made in its folder and removed.
    """
    if not text.strip() or text == "-":
        raise argparse.ArgumentTypeError(f"{text!r} names no file (leave --out out to print the result)")
    folder = os.path.dirname(os.path.abspath(text))
    if os.path.isdir(text) or not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"cannot write {text}: not a file in an existing folder")
    try:
        if os.path.exists(text):
            open(text, "a").close()
        else:
            tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot write {text}: {exc.strerror or exc}") from None
    return text


def same_file(a: str | None, b: str | None) -> bool:
    """Whether two paths given on the command line name one file (after links and ``..``; None names none)."""
    if not a or not b:
        return False
    return os.path.realpath(a) == os.path.realpath(b)


def folder_path(text: str) -> str:
    """An argparse ``type`` for a results folder (``--out-dir``): any path but an empty one, which names no
    folder (it would write into the current folder), refused as :func:`output_path` refuses an empty file."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty folder name (leave the option out for the default folder)")
    return text


def add_output(parser: argparse.ArgumentParser, formats: tuple[str, ...] = ("table", "json", "csv")) -> None:
    """``--format`` (the first of ``formats`` by default), ``--out FILE`` and ``--quiet``."""
    parser.add_argument(
        "--format", choices=formats, default=formats[0], help=f"{' | '.join(formats)} (default {formats[0]})"
    )
    parser.add_argument("--out", type=output_path, metavar="FILE", help="write the result to FILE instead of stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress bar, no notes on stderr, no key to a "
                        "table's columns")  # fmt: skip


def add_jobs(parser: argparse.ArgumentParser, default: int = -1, what: str = "results do not change") -> None:
    """``--jobs``: parallel workers, 1 to the machine's cores, or -1 for all cores."""
    said = "all cores" if default == -1 else str(default)
    parser.add_argument("--jobs", type=jobs, default=default, help=f"parallel workers, 1 to the cores or -1 for all "
                        f"(default {said}; {what})")  # fmt: skip


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules``: a preset or a TOML file."""
    parser.add_argument("--rules", default="tempelaere", help=f"preset ({', '.join(PRESETS)}) or a TOML file")


def note(args: argparse.Namespace, text: str) -> None:
    """A note for the user on stderr, unless ``--quiet``."""
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr)


def emit(args: argparse.Namespace, text: str) -> None:
    """The verb's result: to ``--out`` (with a note on stderr) or to stdout.

    Raises:
        OSError: ``--out`` cannot be written, with a message that names it (``/proc/version``: the write
            itself fails, and the system's error names no file).
    """
    if getattr(args, "out", None):
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
        except OSError as exc:
            raise OSError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        note(args, f"wrote {args.out}")
    else:
        print(text)
