"""``wiezen-sim romanian advise|simulate`` (RULES.md Part 2).

Seats count from the dealer's left, as in Wiezen: 0 = eldest (bids first) … players−1 =
dealer, or the names eldest, second, …, dealer.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import TYPE_CHECKING

from wiezen_sim.cards import card_name, hand_name
from wiezen_sim.cli.args import (
    UsageError,
    add_jobs,
    add_output,
    add_verb,
    comma_entries,
    emit,
    float_range,
    int_range,
)
from wiezen_sim.defaults import MAX_WORLDS
from wiezen_sim.rules.romanian import ONE_CARD_MODES, SCORING_PRESETS, SEQUENCES, SPECIAL_DEALS
from wiezen_sim.vocabulary import seat_name

if TYPE_CHECKING:
    from wiezen_sim.analysis.romanian.bids import Advice
    from wiezen_sim.analysis.romanian.games import SimulationResult

__all__ = ["add"]

MAX_GAMES = 1_000_000  # games of a simulation (a few a second: more would run for days)
MAX_SAMPLES = 10_000_000  # sampled deals of a bid estimate
SEATS_HELP = "0 = eldest (left of the dealer, bids first) … players-1 = dealer, or eldest, second, …, dealer"


def _players(text: str) -> int:
    if text not in ("3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"Romanian whist is played by 3 to 6 players, got {text!r}")
    return int(text)


def _bids(text: str) -> list[int]:
    parts = comma_entries(text)
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bids are comma-separated integers like 1,0,2, got {text!r}") from None


def _names(allowed: tuple[str, ...], what: str):
    def parse(text: str) -> list[str]:
        names = comma_entries(text)
        for name in names:
            if name not in allowed:
                raise argparse.ArgumentTypeError(f"unknown {what} {name!r}; known: {', '.join(allowed)}")
        return names

    return parse


def _fmt_ci(lo: float, hi: float, digits: int) -> str:
    return f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def _cmd_advise(args: argparse.Namespace) -> None:
    from wiezen_sim.analysis.romanian import Advice, advise
    from wiezen_sim.parallel import Interrupted

    if args.forehead is not None and args.blind:
        raise ValueError("--forehead and --blind are two different deals: give one of them")
    visibility = "forehead" if args.forehead is not None else "blind" if args.blind else "normal"
    others = None if args.forehead is None else args.forehead.replace(",", " ").split()
    try:
        adv = advise(
            args.hand,
            args.players,
            args.seat,
            args.trump,
            args.bids,
            scoring=args.scoring,
            samples=args.samples,
            seed=args.seed,
            model=args.model,
            n_jobs=args.jobs,
            bid_sigma=args.bid_sigma,
            visibility=visibility,
            others=others,
            backend="loky",
            progress=False if args.quiet else None,
        )
    except Interrupted as stop:
        if isinstance(stop.partial, Advice):
            _print_advice(args, stop.partial)
        raise
    _print_advice(args, adv)


def _print_advice(args: argparse.Namespace, adv: Advice) -> None:
    partial = adv.partial_note()
    if args.format == "json":
        emit(args, json.dumps(adv.to_dict()))
        return
    if args.format == "csv":
        emit(args, (f"# {partial}\n" if partial else "") + adv.to_frame().to_csv(index=False).rstrip("\n"))
        return
    lines = [partial] if partial else []
    trump = "none (8-card deal)"
    if adv.turned is not None:
        trump = f"{'SHDC'[adv.turned >> 4]} (turned {card_name(adv.turned)})"
    hand = f"hand {hand_name(adv.hand, 'symbols')}"
    if adv.visibility == "forehead":
        seen = " ".join(card_name(m.bit_length() - 1) if m else "?" for m in adv.others)
        hand = f"forehead deal, own card unseen, cards by seat {seen}"
    elif adv.visibility == "blind":
        hand = "blind deal, bid before looking"
    lines.append(
        f"Romanian whist, {adv.players} players, {adv.cards}-card deal; {hand}; "
        f"seat {adv.seat} ({seat_name(adv.seat, adv.players)}); trump {trump}; "
        f"bids so far: {','.join(map(str, adv.bids_so_far)) or '-'}"
    )
    cond = ""
    if adv.bid_sigma > 0:
        cond = (
            f"; weighted by the earlier bids (sigma {adv.bid_sigma:g}, effective samples {adv.effective_samples:.0f})"
        )
    if adv.model == "exact":
        lines.append(
            f"scoring {adv.scoring}; exact: the own card is any of {adv.samples} unseen cards, each equally likely"
        )
    else:
        lines.append(f"scoring {adv.scoring}; {adv.samples} sampled deals (seed {args.seed}); model {adv.model}{cond}")
    head = " ".join(f"{'t=' + str(t):>5}" for t in range(adv.cards + 1))
    cols = f"{'bid':>3}  {'legal':5}  {'P(exact)':>8}  {'95% CI':16}  {'E[score]':>8}  {'95% CI':16}"
    lines.append(f"{cols}  | P(tricks): {head}")
    for o in adv.options:
        dist = " ".join(f"{p:5.3f}" for p in o.tricks)
        legal = "yes" if o.legal else "NO"
        e_ci = _fmt_ci(*o.expected_score_ci, 2) if not math.isnan(o.expected_score_ci[0]) else "-"
        mark = "  <- recommended" if o.bid == adv.recommendation.bid else ""
        lines.append(
            f"{o.bid:>3}  {legal:5}  {o.p_exact:8.3f}  {_fmt_ci(*o.p_exact_ci, 3):16}  {o.expected_score:8.2f}  "
            f"{e_ci:16}  |            {dist}{mark}"
        )
    rec = adv.recommendation
    lines.append(f"recommended bid: {rec.bid} (expected score {rec.expected_score:.2f} points)")
    emit(args, "\n".join(lines))


def _cmd_simulate(args: argparse.Namespace) -> None:
    from wiezen_sim.analysis.romanian import SimulationResult, simulate
    from wiezen_sim.parallel import Interrupted

    if args.worlds is not None and "pimc" not in args.policies:
        raise UsageError("--worlds is for PIMC play: add pimc to --policies")
    try:
        res = simulate(
            players=args.players,
            games=args.games,
            sequence=args.sequence,
            scoring=args.scoring,
            policies=args.policies,
            seed=args.seed,
            one_card=args.one_card,
            special_end_deals=args.special or [],
            bid_samples=args.bid_samples,
            **({} if args.worlds is None else {"worlds": args.worlds}),
            n_jobs=args.jobs,
            backend="loky",
            progress=False if args.quiet else None,
        )
    except Interrupted as stop:
        if isinstance(stop.partial, SimulationResult):
            _print_simulation(args, stop.partial)
        raise
    _print_simulation(args, res)


def _print_simulation(args: argparse.Namespace, res: SimulationResult) -> None:
    table = res.table
    games = int(res.per_game["game"].nunique())  # the games played (fewer when stopped)
    partial = f"PARTIAL: the run was stopped; the {games} games finished"
    if args.format == "json":
        emit(args, json.dumps({"players": args.players, "games": games, **res.to_dict()}))
        return
    if args.format == "csv":
        emit(args, (f"# {partial}\n" if res.partial else "") + table.round(6).to_csv(index=False).rstrip("\n"))
        return
    lines = [partial] if res.partial else []
    lines += [
        f"Romanian whist: {games} games, {args.players} players, sequence {args.sequence}, "
        f"scoring {args.scoring}, seed {args.seed}",
        f"{'policy':10} {'games':>5}  {'mean score/game':>15}  {'95% t-interval':18}  {'exact bids':>10}  "
        f"{'95% Wilson':16}  {'wins':>5}",
    ]
    for r in table.to_dict(orient="records"):
        score_ci, exact_ci = _fmt_ci(r["score_lo"], r["score_hi"], 2), _fmt_ci(r["exact_lo"], r["exact_hi"], 3)
        lines.append(
            f"{r['policy']:10} {r['games']:>5}  {r['mean_score']:15.2f}  {score_ci:18}  "
            f"{r['exact_rate']:10.3f}  {exact_ci:16}  {r['win_rate']:5.3f}"
        )
    emit(args, "\n".join(lines))


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``romanian advise`` and ``romanian simulate``."""
    rom = add_verb(
        sub,
        "romanian",
        "Romanian whist (RULES.md Part 2): bid advice and game simulation",
        "wiezen-sim romanian advise 'AS KH 9D' --players 4 --seat dealer --trump QD --bids 1,0,1",
    )
    rsub = rom.add_subparsers(dest="romanian_command", required=True, parser_class=type(rom))
    scorings = ", ".join(SCORING_PRESETS)

    adv = add_verb(
        rsub,
        "advise",
        "probability and expected score of every bid for a hand",
        "wiezen-sim romanian advise 'AS KH 9D' --players 4 --seat dealer --trump QD --bids 1,0,1",
        f"Seats: {SEATS_HELP}. Cards as in Wiezen: 'AS KH 9D' or 'S:A H:K D:9 C:-'.",
    )
    adv.add_argument(
        "hand",
        nargs="?",
        help="the hand, e.g. 'AS KS 9H' or 'S:AK H:9 D:- C:-' (1 to 8 cards); none with --forehead, --blind",
    )
    adv.add_argument("--players", type=_players, required=True, help="3 to 6")
    adv.add_argument("--seat", required=True, help=f"your seat: {SEATS_HELP}")
    adv.add_argument("--trump", required=True, help="the turned card (e.g. QH), or 'none' in 8-card deals")
    adv.add_argument("--bids", type=_bids, default=[], help="bids of the seats before yours, in order, e.g. 1,0,2")
    adv.add_argument("--scoring", default="default", choices=list(SCORING_PRESETS), metavar="PRESET", help=scorings)
    adv.add_argument("--samples", type=int_range(1, MAX_SAMPLES), default=10000, help="sampled deals (default 10000)")
    adv.add_argument("--seed", type=int_range(0), default=1, help="seed (default 1; printed)")
    adv.add_argument("--model", default="aim", choices=["aim", "fixed"], help="how the analysed player plays")
    add_jobs(adv)
    adv.add_argument(
        "--bid-sigma",
        type=float_range(0),
        default=0.0,
        help="weight sampled hands by how well they explain the earlier bids (0 = uniform, e.g. 0.7)",
    )
    adv.add_argument(
        "--forehead",
        metavar="CARDS",
        help="forehead one-card deal: the cards seen on the other seats in seat order, own seat skipped: 'KS 9H AD'",
    )
    adv.add_argument(
        "--blind", action="store_true", help="blind deal, bid before looking (1 card with --trump, 8 with --trump none)"
    )
    add_output(adv)
    adv.set_defaults(func=_cmd_advise)

    sim = add_verb(
        rsub,
        "simulate",
        "play complete games between policies: mean score per game",
        "wiezen-sim romanian simulate --players 4 --games 50 --policies heuristic,mc,random",
        "Policies are rotated over the seats; the same seed gives the same games for any --jobs.",
    )
    sim.add_argument("--players", type=_players, required=True, help="3 to 6")
    sim.add_argument("--games", type=int_range(1, MAX_GAMES), required=True, help="games to play")
    sim.add_argument("--sequence", default="1-8-1", choices=list(SEQUENCES))
    sim.add_argument("--scoring", default="default", choices=list(SCORING_PRESETS), metavar="PRESET", help=scorings)
    sim.add_argument(
        "--policies",
        type=_names(("random", "heuristic", "mc", "pimc"), "policy"),
        default=["heuristic", "mc", "random"],
        help="comma-separated, rotated over the seats: random, heuristic, mc, pimc",
    )
    sim.add_argument("--one-card", default="normal", choices=list(ONE_CARD_MODES))
    sim.add_argument("--special", type=_names(SPECIAL_DEALS, "special deal"), help="end deals, e.g. blind,zero,eight")
    sim.add_argument("--bid-samples", type=int_range(1, MAX_SAMPLES), default=128, help="samples per MC bid")
    sim.add_argument("--worlds", type=int_range(1, MAX_WORLDS), help="pimc: worlds per card decision (default 16)")
    sim.add_argument("--seed", type=int_range(0), default=1, help="seed (default 1; printed)")
    add_jobs(sim)
    add_output(sim)
    sim.set_defaults(func=_cmd_simulate)
