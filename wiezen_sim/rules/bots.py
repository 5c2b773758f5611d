"""Simple rule-based bots for the rules demo and the rules tests.

These are deliberately plain: a hand-strength bidder and a card player that
wants tricks or avoids them. Issue-level players (heuristic, PIMC) live in
``wiezen_sim.solvers``; these exist so the rules engine can be exercised end to end.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from wiezen_sim.cards import card_rank, card_suit, cards_of, suit_holding
from wiezen_sim.rules.auction import AuctionState, Bid, legal_bids
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.rules.play import PlayView, Policy, trick_winner

__all__ = ["PREFERENCE", "Bidder", "misere_safe", "playing_tricks", "random_policy", "simple_bidder", "simple_policy"]

Bidder = Callable[[AuctionState], Bid]
PREFERENCE = ("troel", "solo_slim", "miserie", "abondance", "solo", "accept", "vraag")  # highest first


def playing_tricks(hand: int, trump: int | None) -> float:
    """A rough count of the tricks a hand takes on its own (tricks).

    Aces count 1, kings with a guard 0.5, and each trump beyond the third 1.
    """
    total = 0.0
    for suit in range(4):
        holding = suit_holding(hand, suit)
        length = holding.bit_count()
        total += bool(holding >> 14 & 1) + 0.5 * bool(holding >> 13 & 1 and length >= 2)
        if suit == trump:
            total += max(0, length - 3)
    return total


def misere_safe(hand: int) -> bool:
    """Whether every suit's lowest card is a 4 or lower and no suit of 1–2 cards holds a card above 7."""
    for suit in range(4):
        ranks = [r for r in range(2, 15) if suit_holding(hand, suit) >> r & 1]
        if ranks and (ranks[0] > 4 or (len(ranks) <= 2 and ranks[-1] > 7)):
            return False
    return True


def simple_bidder(state: AuctionState) -> Bid:
    """A threshold bidder over :func:`playing_tricks` (RULES.md 1.4 legal bids only).

    Proposes or accepts with 4+ playing tricks in the turned trump, plays solo after
    an unaccepted vraag with 6+, abondance with 9+ in its best suit, miserie with a
    :func:`misere_safe` hand, troel when obliged; otherwise passes.
    """
    legal = legal_bids(state)
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    trump = card_suit(state.turned)
    best = max(playing_tricks(hand, s) for s in range(4))
    wishes = {
        "troel": True,
        "solo_slim": best >= 12.5,
        "miserie": misere_safe(hand),
        "abondance": best >= 9,
        "solo": playing_tricks(hand, trump) >= 6,
        "vraag": playing_tricks(hand, trump) >= 4,
        "accept": playing_tricks(hand, trump) >= 4,
    }
    for name in PREFERENCE:
        bid = next((b for b in legal if b.name == name), None)
        if bid is not None and wishes[name]:
            return bid
    return next((b for b in legal if b.name == "pass"), legal[0])


def random_policy(rng: np.random.Generator) -> Policy:
    """A policy that plays a uniformly random legal card."""

    def play(view: PlayView) -> int:
        cards = cards_of(view.legal)
        return cards[int(rng.integers(len(cards)))]

    return play


def simple_policy(view: PlayView) -> int:
    """Plain play: take the trick as cheaply as possible when the side wants tricks, else duck.

    The declaring side of an at-least contract and the defenders of a misère want
    tricks for their purpose as follows: the at-least side and its defenders both
    try to win tricks; a misère declarer plays its highest card that loses the trick.
    """
    cards = sorted(cards_of(view.legal), key=card_rank)
    setup = view.setup
    misere_declarer = bool(setup.contracts) and contract_spec(setup.contracts[0].contract).misere
    avoid = misere_declarer and view.seat in setup.side
    if not view.trick:
        return cards[0] if avoid else cards[-1]
    winners: list[int] = []
    losers: list[int] = []
    for card in cards:
        trick = [*view.trick, card]
        (winners if trick_winner(trick, setup.trump) == len(trick) - 1 else losers).append(card)
    if avoid:
        return losers[-1] if losers else winners[-1]
    if not misere_declarer or view.seat in setup.side:
        return winners[0] if winners else losers[0]
    return cards[0]
