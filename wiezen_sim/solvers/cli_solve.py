"""The ``wiezen-sim solve`` verb: double-dummy results of PBN deals (argparse setup + handler).

    wiezen-sim solve --deal PBN --trump {S,H,D,C,NT} --leader SEAT --side SEATS
                     [--objective max|min|exact:K] [--json]
    wiezen-sim solve --deals FILE ...          (one PBN deal per line; blank lines and # comments skipped)

Seats 0..3 are the PBN order N, E, S, W. ``--json`` prints one object per deal,
``{"tricks": N}`` for max/min and ``{"success": true|false}`` for exact. Bad input
raises ``ValueError``; the CLI's ``main`` turns that into a one-line error and exit 2.
"""

from __future__ import annotations

import argparse
import json

from wiezen_sim.solvers.dd import DDSolver, check_position, parse_side
from wiezen_sim.vocabulary import Objective, parse_objective, parse_trump

__all__ = ["add_solve_command", "cmd_solve"]


def _read_deals(args: argparse.Namespace) -> list[tuple[int, str]]:
    """``(line number, PBN text)`` of each deal asked for (line 0 for ``--deal``)."""
    if (args.deal is None) == (args.deals is None):
        raise ValueError("give exactly one of --deal PBN or --deals FILE")
    if args.deal is not None:
        return [(0, args.deal)]
    try:
        with open(args.deals, encoding="utf-8") as handle:
            lines = [line.strip() for line in handle]
    except OSError as exc:
        raise ValueError(f"cannot read {args.deals}: {exc.strerror}") from None
    deals = [(n, line) for n, line in enumerate(lines, 1) if line and not line.startswith("#")]
    if not deals:
        raise ValueError(f"no deals in {args.deals}")
    return deals


def cmd_solve(args: argparse.Namespace) -> None:
    """Handler of ``wiezen-sim solve`` (validates everything before solving anything)."""
    deals = _read_deals(args)
    trump = parse_trump(args.trump)
    side = parse_side(args.side)
    goal, k = parse_objective(args.objective)
    hands = []
    for line_no, text in deals:
        try:
            h = check_position(text.strip('"'), trump, args.leader)
            to_play = int(h[0]).bit_count()
            if goal is Objective.EXACT and k > to_play:
                raise ValueError(f"exact:{k} asks for more tricks than the {to_play} to play")
            hands.append(h)
        except ValueError as exc:
            where = f"line {line_no} of {args.deals}: " if args.deals else ""
            raise ValueError(f"{where}{exc}") from None
    solver = DDSolver(tt_mb=args.tt_mb)
    for (_, text), h in zip(deals, hands, strict=True):
        result = solver.solve(h, trump, args.leader, side, goal, k)
        text = " ".join(text.split())  # one output line per deal
        if args.json:
            key = "success" if goal is Objective.EXACT else "tricks"
            print(json.dumps({key: result}))
        elif goal is Objective.EXACT:
            print(f"{text}\texactly {k}: {'yes' if result else 'no'}")
        else:
            print(f"{text}\t{goal.value} tricks: {result}")


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"seat must be 0, 1, 2 or 3 (PBN order N E S W), got {text!r}")
    return int(text)


def add_solve_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``solve`` verb to a ``wiezen-sim`` subparsers object; returns its parser."""
    p = subparsers.add_parser("solve", help="double-dummy tricks of PBN deals (max, min or exact objective)")
    p.add_argument("--deal", help='one PBN deal, e.g. "N:AKQ.T98..AK5432 ... ... ..."')
    p.add_argument("--deals", metavar="FILE", help="a file with one PBN deal per line")
    p.add_argument("--trump", required=True, choices=("S", "H", "D", "C", "NT"), type=str.upper)
    p.add_argument("--leader", required=True, type=_seat, help="seat leading the first trick (0..3 = N E S W)")
    p.add_argument("--side", required=True, help="the side's seats, e.g. 02 or 0,2 (1 to 3 seats)")
    p.add_argument("--objective", default="max", help="max (default), min or exact:K")
    p.add_argument("--tt-mb", type=float, default=256, help="transposition-table memory in MB (default 256)")
    p.add_argument("--json", action="store_true", help='one JSON object per deal: {"tricks": N} or {"success": B}')
    p.set_defaults(func=cmd_solve)
    return p
