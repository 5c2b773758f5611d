"""The ``wiezen-sim`` command (DESIGN.md layer 7): parses, calls the library, prints.

Bad input gives a one-line error on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

import numpy as np

from wiezen_sim.analysis.advise import EXAMPLE, METHODS, advise, compare
from wiezen_sim.analysis.sessions import MAX_HANDS, MAX_SESSIONS
from wiezen_sim.cards import card_name, hand_name
from wiezen_sim.cli_args import int_range
from wiezen_sim.cli_romanian import add_romanian
from wiezen_sim.rules.bots import random_policy, simple_bidder, simple_policy
from wiezen_sim.rules.contracts import CONTRACTS, contract_spec
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.game import play_one_hand
from wiezen_sim.rules.payments import add_payments, settle
from wiezen_sim.rules.play import Policy
from wiezen_sim.rules.ruleset import PRESETS, get_rules
from wiezen_sim.solvers.cli_solve import add_solve_command
from wiezen_sim.vocabulary import SEAT_NAMES, parse_seat

__all__ = ["EXIT_INTERRUPTED", "EXIT_USAGE", "UsageError", "build_parser", "main"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # as a shell reports a command stopped by Ctrl-C


class UsageError(Exception):
    """Bad command-line input: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints usage too)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _seat(text: str) -> int:
    try:
        return parse_seat(text)
    except ValueError as exc:  # argparse reports it on one line, exit 2
        raise argparse.ArgumentTypeError(str(exc)) from None


def _cmd_score(args: argparse.Namespace) -> None:
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
        rows = [
            settle(rules, spec.name, (d,), t, args.target, args.level)
            for d, t in zip(args.declarer, args.tricks, strict=True)
        ]
    payments = add_payments(*rows)
    if args.json:
        print(json.dumps({"payments": payments}))
    else:
        for seat, units in enumerate(payments):
            print(f"seat {seat}: {units:+d}")


def _cmd_demo(args: argparse.Namespace) -> None:
    rules = get_rules(args.rules)
    rng = np.random.default_rng(args.seed)
    deal = deal_packets(new_deck(rng), args.dealer)
    policies: list[Policy] = [simple_policy, simple_policy, simple_policy, simple_policy]
    if args.random_play:
        policies = [random_policy(rng)] * 4
    result = play_one_hand(deal, rules, [simple_bidder] * 4, policies)
    print(f"Rules demo (rules: {rules.name}, seed {args.seed}): one hand dealt, bid by simple bots, played, settled.")
    print(f"Dealer: seat {deal.dealer}; turned card {card_name(deal.turned)} (trump for solo and vraag)")
    for seat, hand in enumerate(deal.hands):
        role = " (dealer)" if seat == deal.dealer else " (eldest)" if seat == (deal.dealer + 1) % 4 else ""
        print(f"  seat {seat}{role:9} {hand_name(hand, 'symbols')}")
    print("Auction: " + ", ".join(f"{s}:{b}" for s, b in result.auction.history))
    if result.setup is None or result.record is None:  # (no play record without a play setup)
        print("Everybody passed: the hand is thrown in and the same dealer deals again.")
        return
    if result.setup.contracts:
        names = ", ".join(f"{d.contract} by seat(s) {'+'.join(map(str, d.declarers))}" for d in result.setup.contracts)
        trump = "no trump" if result.record.trump is None else f"trump {'SHDC'[result.record.trump]}"
        print(f"Contract: {names}; side {list(result.setup.side)}; {trump}; target {result.record.target}")
    else:
        print(f"Everybody passed: Ronde Pas game {result.ronde_pas}")
    for n, (leader, cards, winner) in enumerate(result.record.tricks, start=1):
        print(f"  trick {n:2}: seat {leader} leads  " + " ".join(card_name(c) for c in cards) + f"  → seat {winner}")
    print(f"Tricks per seat: {result.record.tricks_won}")
    print(f"Payments (units): {result.payments}")


def _cmd_advise(args: argparse.Namespace) -> None:
    if args.samples <= 0:
        raise UsageError(f"--samples must be positive, got {args.samples}")
    if args.hand:
        if args.turned is None:
            raise UsageError("give the turned card with --turned CARD")
        hand, seat, turned = " ".join(args.hand), args.seat or "eldest", args.turned
    else:
        hand, seat, turned = EXAMPLE["hand"], args.seat or EXAMPLE["seat"], args.turned or EXAMPLE["turned"]
    if args.compare and args.method != "dd":
        raise UsageError("--compare runs every method; leave out --method")
    if args.worlds is not None and not (args.compare or args.method == "pimc"):
        raise UsageError("--worlds is for PIMC play: add --method pimc or --compare")
    if args.out and not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
        # before the run, not after it: the output's directory must exist
        raise UsageError(f"cannot write --out {args.out}: No such file or directory")
    run = compare if args.compare else advise
    extra = {} if args.compare else {"method": args.method}
    if args.worlds is not None:
        extra["worlds"] = args.worlds
    advice = run(
        hand,
        seat,
        turned,
        rules=args.rules,
        samples=args.samples,
        seed=args.seed,
        n_jobs=args.jobs,
        progress=False if args.quiet else None,
        **extra,
    )
    if not args.hand and not args.quiet:  # after the run, so that a bad input's error stays one line
        print(f"No hand given: the built-in example {hand!r}, seat {seat}, turned {turned}.", file=sys.stderr)
    if args.format == "json":
        text = json.dumps(advice.to_dict(), indent=2)
    elif args.format == "csv":
        text = advice.to_csv()
    else:
        text = advice.format_table()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        if not args.quiet:
            print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)


def _cmd_experiment(args: argparse.Namespace) -> None:
    from wiezen_sim.analysis.experiment import redraw_charts, run_experiment

    if args.charts_only:
        result = redraw_charts(args.file, out=args.out)
        if not args.quiet:
            print(f"{result.meta['experiment']}: charts {', '.join(result.meta['charts'])} redrawn → {result.out}")
        return
    result = run_experiment(
        args.file,
        out=args.out,
        backend=args.backend,
        scheduler=args.scheduler,
        resume=args.resume,
        n_jobs=args.jobs,
        samples=args.samples,
        progress=False if args.quiet else None,
        collect=args.collect,
    )
    if not args.quiet:
        m = result.meta
        print(f"{m['experiment']}: {m['hands']} hands, {m['deals']} deals, {m['wall_time_s']} s → {result.out}")


def _cmd_serve(args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, got {args.port}")
    if args.jobs == 0:
        raise UsageError("--jobs must be a worker count ≥ 1, or negative for all cores (-1)")
    try:
        from wiezen_sim.web.server import serve
    except ImportError as exc:
        raise UsageError(f"the web page needs the web extra: pip install -e '.[web]' ({exc})") from None

    def ready(url: str) -> None:
        print(f"wiezen-sim: the web page is at {url} (Ctrl-C stops the server)", flush=True)

    serve(args.host, args.port, args.jobs, ready)


def _cmd_simulate(args: argparse.Namespace) -> None:
    from wiezen_sim.analysis.sessions import simulate_sessions

    if args.out and (os.path.isdir(args.out) or not os.path.isdir(os.path.dirname(os.path.abspath(args.out)))):
        raise UsageError(f"cannot write --out {args.out}: not a file in an existing folder")  # before the run
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    result = simulate_sessions(args.hands, args.sessions, args.rules, bots, args.seed, args.jobs,
                               chip_limit=args.until_chips, progress=False if args.quiet else None)  # fmt: skip
    if args.out:
        result.log.to_parquet(args.out, index=False)
        if not args.quiet:
            print(f"wrote the per-hand log ({len(result.log)} deals) to {args.out}", file=sys.stderr)
    print(json.dumps(result.to_dict()) if args.format == "json" else result.format_table())


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``wiezen-sim`` (one subcommand per verb)."""
    parser = _Parser(prog="wiezen-sim", description="Monte Carlo contract analyser for Wiezen (Belgian whist).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    demo = sub.add_parser("demo", help="deal one hand, bid it with simple bots, play it and settle it")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--dealer", type=_seat, default=3)
    demo.add_argument("--rules", default="tempelaere", help=f"preset ({', '.join(PRESETS)}) or a TOML file")
    demo.add_argument("--random-play", action="store_true", help="play random legal cards")
    demo.set_defaults(func=_cmd_demo)

    score = sub.add_parser("score", help="settle a contract (RULES.md 1.6)")
    score.add_argument("contract", choices=list(CONTRACTS), metavar="CONTRACT", help=", ".join(CONTRACTS))
    score.add_argument("--declarer", type=_seat, action="append", required=True, help="repeat for misère")
    score.add_argument("--tricks", type=int, action="append", required=True, help="one per --declarer")
    score.add_argument("--partner", type=_seat, help="the partner seat in vraag and troel")
    score.add_argument("--rules", default="tempelaere", help=f"preset ({', '.join(PRESETS)}) or a TOML file")
    score.add_argument("--target", type=int, help="tricks needed if a variant changed it (troel free lead: 9)")
    score.add_argument("--level", type=int, help="announced abondance level 9..12 (abondance levels variant)")
    score.add_argument("--json", action="store_true", help='print {"payments": [p0, p1, p2, p3]}')
    score.set_defaults(func=_cmd_score)

    adv = sub.add_parser("advise", help="which contract should this hand bid? (Monte Carlo double dummy)")
    adv.add_argument("hand", nargs="*", help="13 cards, e.g. 'S:AKQJ98 H:AK2 D:A3 C:52'; none: a built-in example")
    adv.add_argument("--seat", help=f"seat relative to the dealer: {', '.join(SEAT_NAMES)} or 0..3 (default eldest)")
    adv.add_argument("--turned", help="the turned card, e.g. 7H (in the dealer's hand)")
    adv.add_argument("--rules", default="tempelaere", help=f"preset ({', '.join(PRESETS)}) or a TOML file")
    adv.add_argument("--samples", type=int, default=1000, help="sampled deals (default 1000)")
    adv.add_argument("--seed", type=int, help="seed (default: drawn and reported)")
    adv.add_argument("--jobs", type=int, default=-1, help="parallel workers (default all cores)")
    adv.add_argument("--method", choices=METHODS, default="dd", help="dd (double dummy), pimc or heuristic play")
    adv.add_argument("--compare", action="store_true", help="dd, pimc and heuristic side by side on the same deals")
    adv.add_argument("--worlds", type=int, help="pimc: worlds sampled per card decision (default 16)")
    adv.add_argument("--format", choices=("table", "json", "csv"), default="table")
    adv.add_argument("--out", help="write the output to this file")
    adv.add_argument("--quiet", action="store_true", help="no progress bar, no notes on stderr")
    adv.set_defaults(func=_cmd_advise)

    exp = sub.add_parser("experiment", help="run an experiment file over hand classes (experiments/*.toml)")
    exp.add_argument("file", help="the experiment file (TOML)")
    exp.add_argument("--backend", choices=("loky", "dask", "sequential"), default="loky")
    exp.add_argument("--scheduler", help="dask.distributed scheduler address (tcp://…); default a local cluster")
    exp.add_argument("--resume", action="store_true", help="keep the batches an interrupted run finished")
    exp.add_argument("--jobs", type=int, default=-1, help="parallel workers (default all cores)")
    exp.add_argument("--samples", type=int, help="hands per class (overrides the file)")
    exp.add_argument("--out", help="results directory (default results/<name>)")
    exp.add_argument("--collect", action="store_true", help="solve nothing: outputs from the batches finished so far")
    exp.add_argument("--charts-only", action="store_true", help="solve nothing: redraw the charts of a finished run")
    exp.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    exp.set_defaults(func=_cmd_experiment)

    sim = sub.add_parser("simulate", help="play whole sessions between bidding bots, chips per hand per bot")
    sim.add_argument("--hands", type=int_range(1, MAX_HANDS), default=16, help="hands per session (default 16)")
    sim.add_argument("--sessions", type=int_range(1, MAX_SESSIONS), default=100, help="sessions (default 100)")
    sim.add_argument("--rules", default="tempelaere", help=f"preset ({', '.join(PRESETS)}) or a TOML file")
    sim.add_argument(
        "--bots",
        default="conservative,neutral,aggressive",
        help="comma-separated BIDDER[@PLAYER], rotated over the seats; bidders conservative, neutral, aggressive, "
        "threshold:A, advisor[:S]; players heuristic (default), pimc[:M], random",
    )
    sim.add_argument(
        "--until-chips", type=int_range(1), help="end a session once a seat has won or lost this many chips"
    )
    sim.add_argument("--seed", type=int, help="seed (default: drawn and reported)")
    sim.add_argument("--jobs", type=int, default=1, help="parallel workers (results do not change)")
    sim.add_argument("--format", choices=("table", "json"), default="table")
    sim.add_argument("--out", help="write the per-hand log to this Parquet file")
    sim.add_argument("--quiet", action="store_true", help="no progress bar, no notes on stderr")
    sim.set_defaults(func=_cmd_simulate)

    web = sub.add_parser("serve", help="a local web page for advise and the Romanian bid advisor (needs the web extra)")
    web.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    web.add_argument("--jobs", type=int, default=1, help="parallel workers per computation (default 1; -1 all cores)")
    web.set_defaults(func=_cmd_serve)

    add_romanian(sub)  # romanian advise | simulate (RULES.md Part 2)
    add_solve_command(sub)  # solve: double-dummy tricks of PBN deals
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``wiezen-sim``; returns the exit code (0, or 2 on bad input)."""
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


if __name__ == "__main__":
    sys.exit(main())
