"""``wiezen-sim advise``: which contract should this hand bid? (issues 4, 5, 23; RULES.md 1.3–1.6)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from wiezen_sim.cards import parse_hand
from wiezen_sim.cli.args import (
    WIEZEN_SEATS,
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
    wiezen_seat,
)
from wiezen_sim.defaults import ADVISE_WORKER_MODULE, COMPARED, EXAMPLE, MAX_PIMC_SAMPLES, MAX_WORLDS, METHODS
from wiezen_sim.rules.auction import obligation_refusal
from wiezen_sim.rules.contracts import CONTRACTS
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.vocabulary import seat_name

if TYPE_CHECKING:
    from wiezen_sim.analysis.advise import Advice, Comparison

__all__ = ["MAX_SAMPLES", "add", "run"]

MAX_SAMPLES = 10_000_000  # sampled deals (about 100 a second per core: more would run for days)
# sampled deals played by PIMC players: 3.4 CPU seconds a deal (README, 'How long it takes'): 5 hours on 2 cores
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def _contracts(text: str) -> list[str]:
    names = [p.lower() for p in comma_entries(text)]
    unknown = [n for n in names if n not in CONTRACTS]
    if not names or unknown:
        raise argparse.ArgumentTypeError(
            f"unknown contract {', '.join(unknown) or text!r}; known: {', '.join(CONTRACTS)}"
        )
    return names


def _methods(text: str) -> tuple[str, ...]:
    """``--compare``'s methods: two or more distinct names of :data:`METHODS`, comma-separated."""
    names = tuple(p.lower() for p in comma_entries(text))
    unknown = [n for n in names if n not in METHODS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown method {', '.join(unknown)!r}; known: {', '.join(METHODS)} (give the hand before --compare)"
        )
    if len(names) < 2 or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"compare two or more distinct methods, e.g. dd,pimc; got {text!r}")
    return names


def _plot_path(text: str) -> str:
    if not text.lower().endswith(PLOT_SUFFIXES):
        raise argparse.ArgumentTypeError(f"a chart file ends in {', '.join(PLOT_SUFFIXES)}, got {text!r}")
    return output_path(text)


def run(args: argparse.Namespace) -> None:
    """Estimate every contract of the hand and print the verdict and the table (or JSON, CSV)."""
    if args.hand:
        if args.turned is None:
            parse_hand(" ".join(args.hand), size=13)  # a bad hand is said first, not after the turned card is given
            raise UsageError("give the turned card with --turned CARD")
        hand, seat, turned = " ".join(args.hand), 0 if args.seat is None else args.seat, args.turned
    elif args.seat is not None or args.turned is not None:  # an empty $HAND must not ask about the example
        given = "--seat" if args.turned is None else "--turned"
        raise UsageError(f"{given} given but no hand: give your 13 cards first (without a hand, advise runs "
                         f"the built-in example {EXAMPLE['hand']!r} at its own seat and turned card)")  # fmt: skip
    else:
        hand, turned, seat = EXAMPLE["hand"], EXAMPLE["turned"], wiezen_seat(EXAMPLE["seat"])
    if args.compare and args.method != "dd":
        raise UsageError("--compare runs the methods it names (e.g. --compare dd,pimc); leave out --method")
    if args.compare and args.plot:
        raise UsageError("--plot is for a single method: leave out --compare")
    if same_file(args.out, args.plot):
        raise UsageError(f"--out and --plot name the same file, {args.plot}: the table would overwrite the chart")
    played = args.compare or (args.method,)
    if args.worlds is not None and not any(m.startswith("pimc") for m in played):
        raise UsageError("--worlds is for PIMC play: add --method pimc (or pimc-uniform), or compare a pimc method")
    if args.samples > MAX_PIMC_SAMPLES and any(m.startswith("pimc") for m in played):
        raise UsageError(f"--samples {args.samples:,} is too many for PIMC play (seconds a deal): at most "
                         f"{MAX_PIMC_SAMPLES:,} (hours already); ask for fewer or use --method dd")  # fmt: skip
    extra: dict = {"contracts": args.contracts}
    extra.update({"methods": args.compare} if args.compare else {"method": args.method})
    if args.worlds is not None:
        extra["worlds"] = args.worlds
    mask, _, _ = check_position(hand, seat, turned)  # a bad hand or rules file: refused before numba and pandas
    rules = get_rules(args.rules)
    if args.contracts and (refusal := obligation_refusal(args.contracts, rules, mask)):
        raise UsageError(f"{refusal}, not {', '.join(args.contracts)}")
    from wiezen_sim.parallel import Interrupted, workers_started

    with workers_started(args.jobs, ADVISE_WORKER_MODULE):  # they start while this process imports its work
        from wiezen_sim.analysis.advise import Advice, advise, compare  # numba, pandas: after the checks

        run_ = compare if args.compare else advise
        try:
            advice = run_(hand, seat, turned, rules=args.rules, samples=args.samples, seed=args.seed,
                          n_jobs=args.jobs, backend="loky", progress=False if args.quiet else None,
                          partner_rows=args.all, **extra)  # fmt: skip
        except Interrupted as stop:
            if isinstance(stop.partial, Advice):
                _print(args, stop.partial)
            raise
    if not args.hand:  # after the run, so that a bad input's error stays one line
        note(args, f"No hand given: the built-in example {hand!r}, seat {seat_name(seat)}, turned {turned}.")
    if args.plot and isinstance(advice, Advice):  # --plot is refused with --compare
        from wiezen_sim.analysis.charts import plot_advice

        plot_advice(advice).savefig(args.plot)
        note(args, f"wrote {args.plot}")
    _print(args, advice)


def _print(args: argparse.Namespace, advice: Advice | Comparison) -> None:
    """The advice (or comparison) as ``--format`` asks, to stdout or ``--out``."""
    if args.format == "json":
        emit(args, json.dumps(advice.to_dict(), indent=2))
    elif args.format == "csv":
        emit(args, advice.to_csv())
    else:
        emit(args, advice.format_table(show_all=args.all, key=not args.quiet))


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``advise``."""
    p = add_verb(
        sub,
        "advise",
        "which contract should this hand bid? Monte Carlo over the deals it can be in",
        "wiezen-sim advise S:AKQJ98 H:AK2 D:K3 C:52 --seat eldest --turned 7H --contracts abondance,miserie",
        "Hands: 13 cards as 'S:AKQ H:T98 D:- C:AK5432', '♠AKQ ♥T98 ♦- ♣AK5432' or a list of cards\n"
        "'AS KS QS …' (T or 10 for ten; French-style letters: 1 = ace, R = king, D = queen, V = jack).\n"
        f"The seat is {WIEZEN_SEATS}.\n"
        "Without a hand: a built-in example. The first lines give the verdict, then the bid values (each bid you\n"
        "can make now, the rest of the auction bid by the threshold bot on the same deals: the recommendation comes\n"
        "from these), then the table of each contract as if you declared it.",
    )
    p.add_argument("hand", nargs="*", help="13 cards, e.g. 'S:AKQJ98 H:AK2 D:K3 C:52'; none: a built-in example")
    p.add_argument("--seat", type=wiezen_seat, help=f"your seat, {WIEZEN_SEATS} (default eldest)")
    p.add_argument("--turned", help="the turned card, e.g. 7H (it lies in the dealer's hand; sets solo's trump)")
    add_rules(p)
    p.add_argument("--contracts", type=_contracts, help="only these contracts, e.g. abondance,miserie (default all)")
    p.add_argument(
        "--samples",
        type=int_range(1, MAX_SAMPLES, note=f"at most {MAX_PIMC_SAMPLES:,} with a PIMC method"),
        default=1000,
        help=f"sampled deals (default 1000; at most {MAX_PIMC_SAMPLES:,} with a PIMC method)",
    )
    p.add_argument("--seed", type=int_range(0), default=1, help="seed of the sampled deals (default 1; printed)")
    add_jobs(p)
    p.add_argument(
        "--method",
        choices=METHODS,
        default="dd",
        help="how each sampled deal is played out (default dd). dd: double dummy, every player sees every card "
        "(fast; it flatters the defenders of a misère, who see your cards); pimc: four sampling (PIMC) players who "
        "guess the unseen cards from what they saw and from the auction (a minute to hours; --samples at most "
        f"{MAX_PIMC_SAMPLES:,}); pimc-uniform: the same players guessing without the auction; heuristic: simple "
        "rule-of-thumb players (fast, weak)",
    )
    p.add_argument(
        "--compare",
        nargs="?",
        const=COMPARED,
        type=_methods,
        metavar="METHODS",
        help=f"methods side by side on the same deals: success, expected settlement and the paired difference of "
        f"each option (default {','.join(COMPARED)}; any two or more of {', '.join(METHODS)}, comma-separated, "
        "e.g. --compare dd,pimc-uniform,pimc); --contracts limits the options",
    )
    p.add_argument(
        "--worlds",
        type=int_range(1, MAX_WORLDS),
        help="pimc: worlds per card decision (default 16: a quarter of them first, doubled while two cards are close, "
        "up to 4 times as many)",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="show every row, the hopeless and those you may not bid too, and ask the rows of a vraag with "
        "a fixed partner seat (the partner decides; not asked otherwise)",
    )
    p.add_argument("--plot", type=_plot_path, metavar="FILE", help="a chart of EV per contract: FILE.png or .svg")
    add_output(p)
    p.set_defaults(func=run)
