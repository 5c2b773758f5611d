"""``wiezen-sim simulate``: whole Wiezen sessions between bidding bots (issue 8; RULES.md Part 1)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from wiezen_sim.cli.args import (
    UsageError,
    add_jobs,
    add_output,
    add_rules,
    add_verb,
    comma_entries,
    emit,
    int_range,
    note,
    output_path,
    same_file,
)
from wiezen_sim.defaults import MAX_HANDS, MAX_SESSIONS

if TYPE_CHECKING:
    from wiezen_sim.analysis.sessions import SessionsResult

__all__ = ["MAX_CHIP_LIMIT", "add", "run"]

MAX_CHIP_LIMIT = 10_000_000  # units: more than MAX_HANDS hands can move (a larger limit is no limit)


def _parquet_path(text: str) -> str:
    if not text.lower().endswith(".parquet"):
        raise argparse.ArgumentTypeError(f"the per-hand log is a Parquet file ending in .parquet, got {text!r}")
    return output_path(text)


def run(args: argparse.Namespace) -> None:
    """Play the sessions; print chips per hand per bot (and write the per-hand log with ``--log``).

    Stopped (Ctrl-C, SIGTERM): the summary and the log of the sessions finished, marked PARTIAL.
    """
    if same_file(args.log, args.out):
        raise UsageError(f"--log and --out name the same file ({args.out}): the table would replace the log")
    from wiezen_sim.analysis.sessions import SessionsResult, simulate_sessions
    from wiezen_sim.parallel import Interrupted

    try:
        result = simulate_sessions(args.hands, args.sessions, args.rules, args.bots, args.seed, args.jobs,
                                   chip_limit=args.until_chips, progress=False if args.quiet else None,
                                   backend="loky")  # fmt: skip
    except Interrupted as stop:
        if isinstance(stop.partial, SessionsResult):
            _write_log(args, stop.partial)
            _print(args, stop.partial)
        raise
    _write_log(args, result)
    _print(args, result)


def _write_log(args: argparse.Namespace, result: SessionsResult) -> None:
    if args.log:
        result.log.to_parquet(args.log, index=False)
        finished = " of the sessions finished (PARTIAL)" if result.meta.get("partial") else ""
        note(args, f"wrote the per-hand log ({len(result.log)} deals{finished}) to {args.log}")


def _print(args: argparse.Namespace, result: SessionsResult) -> None:
    if args.format == "json":
        emit(args, json.dumps(result.to_dict()))
    elif args.format == "csv":
        m = result.meta
        head = "# PARTIAL: the run was stopped; the sessions finished\n" if m.get("partial") else ""
        head += f"# sessions {m['sessions']}, hands {m['hands']}, rules {m['rules']}, seed {m['seed']}\n"
        emit(args, head + result.summary.round(4).to_csv(index=False).rstrip("\n"))
    else:
        emit(args, result.format_table())


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``simulate``."""
    p = add_verb(
        sub,
        "simulate",
        "play whole sessions between bidding bots: chips per hand per bot",
        "wiezen-sim simulate --hands 16 --sessions 200 --bots conservative,aggressive --seed 3",
        "Bots are rotated over the four seats; the same seed gives the same sessions for any --jobs.",
    )
    p.add_argument("--hands", type=int_range(1, MAX_HANDS), default=16, help="hands per session (default 16)")
    p.add_argument("--sessions", type=int_range(1, MAX_SESSIONS), default=100, help="sessions (default 100)")
    add_rules(p)
    p.add_argument(
        "--bots",
        type=comma_entries,
        default="conservative,neutral,aggressive",
        help="comma-separated BIDDER[@PLAYER], rotated over the seats; bidders conservative, neutral, aggressive, "
        "threshold:A, advisor[:S]; players heuristic (default), pimc[:M], random",
    )
    p.add_argument("--until-chips", type=int_range(1, MAX_CHIP_LIMIT),
                   help="end a session once a seat has won or lost this many chips")  # fmt: skip
    p.add_argument("--seed", type=int_range(0), default=1, help="seed (default 1; printed)")
    add_jobs(p)
    p.add_argument("--log", type=_parquet_path, metavar="FILE.parquet", help="also write the per-hand log (Parquet)")
    add_output(p)
    p.set_defaults(func=run)
