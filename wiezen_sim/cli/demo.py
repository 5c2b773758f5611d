"""``wiezen-sim demo``: one hand dealt, bid by simple bots, played and settled (RULES.md Part 1)."""

from __future__ import annotations

import argparse
import json

import numpy as np

from wiezen_sim.cards import card_name, hand_name
from wiezen_sim.cli.args import WIEZEN_SEATS, add_output, add_rules, add_verb, emit, int_range
from wiezen_sim.rules.bots import random_policy, simple_bidder, simple_policy
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.game import play_one_hand
from wiezen_sim.rules.play import Policy
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.vocabulary import DEALER, SEAT_NAMES, trump_name

__all__ = ["add", "run"]


def run(args: argparse.Namespace) -> None:
    """Deal, bid, play and settle one hand; print it as a story (table) or as JSON."""
    rules = get_rules(args.rules)
    rng = np.random.default_rng(args.seed)
    deal = deal_packets(new_deck(rng), DEALER)
    policies: list[Policy] = [simple_policy] * 4
    if args.random_play:
        policies = [random_policy(rng)] * 4
    result = play_one_hand(deal, rules, [simple_bidder] * 4, policies)
    setup, record = result.setup, result.record
    if args.format == "json":
        emit(args, json.dumps({
            "rules": rules.name,
            "seed": args.seed,
            "turned": card_name(deal.turned),
            "hands": [hand_name(h) for h in deal.hands],  # by seat, 0 = eldest … 3 = dealer
            "auction": [[s, str(b)] for s, b in result.auction.history],
            "contracts": [{"contract": d.contract, "declarers": list(d.declarers)} for d in setup.contracts]
            if setup is not None else [],
            "ronde_pas": result.ronde_pas,
            "trump": None if record is None or record.trump is None else trump_name(record.trump),
            "tricks": [{"leader": leader, "cards": [card_name(c) for c in cards], "winner": winner}
                       for leader, cards, winner in record.tricks] if record is not None else [],
            "tricks_won": None if record is None else list(record.tricks_won),
            "payments": result.payments,
        }))  # fmt: skip
        return
    lines = [
        f"Rules demo (rules: {rules.name}, seed {args.seed}): one hand dealt, bid by simple bots, played, settled.",
        f"Seats {WIEZEN_SEATS}. Turned card {card_name(deal.turned)} (trump for solo and vraag).",
    ]
    lines += [
        f"  seat {seat} {SEAT_NAMES[seat]:7} {hand_name(hand, 'symbols')}" for seat, hand in enumerate(deal.hands)
    ]
    lines.append("Auction: " + ", ".join(f"{s}:{b}" for s, b in result.auction.history))
    if setup is None or record is None:  # (no play record without a play setup)
        lines.append("Everybody passed: the hand is thrown in and the same dealer deals again.")
        emit(args, "\n".join(lines))
        return
    if setup.contracts:
        names = ", ".join(f"{d.contract} by seat(s) {'+'.join(map(str, d.declarers))}" for d in setup.contracts)
        trump = "no trump" if record.trump is None else f"trump {trump_name(record.trump)}"
        lines.append(f"Contract: {names}; side {list(setup.side)}; {trump}; target {record.target}")
    else:
        lines.append(f"Everybody passed: Ronde Pas game {result.ronde_pas}")
    for n, (leader, cards, winner) in enumerate(record.tricks, start=1):
        lines.append(
            f"  trick {n:2}: seat {leader} leads  " + " ".join(card_name(c) for c in cards) + f"  → seat {winner}"
        )
    lines.append(f"Tricks per seat: {record.tricks_won}")
    lines.append(f"Payments (units): {result.payments}")
    emit(args, "\n".join(lines))


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``demo``."""
    p = add_verb(
        sub,
        "demo",
        "deal one hand, bid it with simple bots, play it and settle it",
        "wiezen-sim demo --seed 7",
        f"Seats are {WIEZEN_SEATS}.",
    )
    p.add_argument("--seed", type=int_range(0), default=1, help="seed of the deal (default 1)")
    add_rules(p)
    p.add_argument("--random-play", action="store_true", help="play random legal cards")
    add_output(p, ("table", "json"))
    p.set_defaults(func=run)
