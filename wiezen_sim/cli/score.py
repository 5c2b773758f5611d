"""``wiezen-sim score``: settle a contract (RULES.md 1.6)."""

from __future__ import annotations

import argparse
import csv
import io
import json

from wiezen_sim.cli.args import WIEZEN_SEATS, UsageError, add_output, add_rules, add_verb, emit, int_range, wiezen_seat
from wiezen_sim.rules.contracts import CONTRACTS, contract_spec
from wiezen_sim.rules.payments import add_payments, settle
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.vocabulary import SEATS

__all__ = ["add", "run"]


def run(args: argparse.Namespace) -> None:
    """Settle the contract and print each seat's payment in units."""
    rules = get_rules(args.rules)
    spec = contract_spec(args.contract)
    if len(args.declarer) != len(args.tricks):
        raise UsageError("give one --tricks N per --declarer SEAT")
    if len(args.declarer) > 1 and not spec.misere:
        raise UsageError(f"only misère contracts are played simultaneously, not {spec.name}")
    if spec.side.value == "pair":
        if args.partner is None or len(args.declarer) != 1:
            raise UsageError(f"{spec.name} is 2 vs 2: give one --declarer and a --partner")
        rows = [settle(rules, spec.name, (args.declarer[0], args.partner), args.tricks[0], args.target, args.level)]
    else:
        if args.partner is not None:
            raise UsageError(f"{spec.name} is 1 vs 3: --partner does not apply")
        if len(set(args.declarer)) != len(args.declarer):
            raise UsageError("a seat is given twice as --declarer")
        if len(args.declarer) == SEATS:
            raise UsageError("four declarers leave nobody to defend: at most three play a misère contract at once")
        if sum(args.tricks) > spec.tricks:
            raise UsageError(f"the declarers' tricks add up to {sum(args.tricks)}, more than the {spec.tricks} "
                             f"tricks of a {spec.name} deal")  # fmt: skip
        rows = [
            settle(rules, spec.name, (d,), t, args.target, args.level)
            for d, t in zip(args.declarer, args.tricks, strict=True)
        ]
    payments = add_payments(*rows)
    if args.format == "json":
        emit(args, json.dumps({"payments": payments}))
    elif args.format == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows([("seat", "units"), *enumerate(payments)])
        emit(args, out.getvalue().rstrip("\n"))
    else:
        emit(args, "\n".join(f"seat {seat}: {units:+d}" for seat, units in enumerate(payments)))


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``score``."""
    p = add_verb(
        sub,
        "score",
        "settle a contract: what each seat pays or receives, in units (RULES.md 1.6)",
        "wiezen-sim score vraag --declarer eldest --partner third --tricks 9",
        f"Seats are {WIEZEN_SEATS}.",
    )
    p.add_argument("contract", choices=list(CONTRACTS), metavar="CONTRACT", help=", ".join(CONTRACTS))
    p.add_argument("--declarer", type=wiezen_seat, action="append", required=True,
                   help="the declarer's seat; repeat for simultaneous misère")  # fmt: skip
    p.add_argument("--tricks", type=int_range(0, 13), action="append", required=True,
                   help="tricks of the declaring side, 0..13; one per --declarer")  # fmt: skip
    p.add_argument("--partner", type=wiezen_seat, help="the partner's seat in vraag and troel")
    add_rules(p)
    p.add_argument("--target", type=int_range(0, 13),
                   help="tricks needed if a variant changed it, 0..13 (troel free lead: 9)")  # fmt: skip
    p.add_argument("--level", type=int_range(9, 12), help="announced abondance level 9..12 (abondance levels variant)")
    add_output(p)
    p.set_defaults(func=run)
