"""Dealing (RULES.md 1.2): 4-4-5 packets with the turned card, gather-and-cut, Vuilbakwiezen.

A deck is a list of 52 card bit numbers, top card first. Hands are masks in seat
order; seats are numbered in playing order, eldest = dealer + 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from wiezen_sim.cards import (
    FULL_DECK,
    SUITS,
    card_count,
    card_name,
    card_rank,
    card_suit,
    cards_of,
    parse_card,
    parse_hand,
)
from wiezen_sim.vocabulary import DEALER, SEATS, is_whole, parse_seat

__all__ = [
    "PACKETS",
    "VUILBAK_DISCARDS",
    "VUILBAK_PACKETS",
    "Deal",
    "DiscardPolicy",
    "check_position",
    "deal_packets",
    "deal_vuilbak",
    "gather_and_cut",
    "lowest_cards_discard",
    "new_deck",
]

PACKETS = (4, 4, 5)
VUILBAK_PACKETS = (4, 4, 4, 5)  # 17 cards to each opponent of the dealer
VUILBAK_DISCARDS = 4

DiscardPolicy = Callable[[int], list[int]]
"""Vuilbak discard choice: given a 17-card hand mask, return the 4 cards (bit numbers) to discard."""


@dataclass(frozen=True)
class Deal:
    """A dealt hand of Wiezen.

    Attributes:
        hands: four 13-card masks in seat order.
        dealer: dealer seat.
        turned: the turned card (bit number); it is in the dealer's hand and its
            suit is the turned trump (RULES.md 1.2).
    """

    hands: tuple[int, int, int, int]
    dealer: int
    turned: int

    @property
    def trump(self) -> int:
        """The turned trump suit (0..3 = S H D C)."""
        return card_suit(self.turned)


def new_deck(rng: np.random.Generator) -> list[int]:
    """A uniformly shuffled 52-card deck (list of card bit numbers, top first)."""
    deck = cards_of(FULL_DECK)
    return [deck[i] for i in rng.permutation(len(deck))]


def _check_deck(deck: Sequence[int]) -> None:
    if len(deck) != 52 or len(set(deck)) != 52 or sum(1 << c for c in deck) != FULL_DECK:
        raise ValueError("a deck must hold each of the 52 cards exactly once")


def deal_packets(deck: Sequence[int], dealer: int) -> Deal:
    """Deal ``deck`` in packets of 4, 4 and 5 starting with eldest (RULES.md 1.2).

    The dealer's last card (the deck's last card) is the turned card.

    Raises:
        ValueError: the deck is not the 52 distinct cards, or a bad dealer seat.
    """
    _check_deck(deck)
    if not 0 <= dealer < SEATS:
        raise ValueError(f"dealer must be a seat 0..3, got {dealer}")
    hands = [0] * SEATS
    pos = 0
    for size in PACKETS:
        for i in range(1, SEATS + 1):
            seat = (dealer + i) % SEATS
            for card in deck[pos : pos + size]:
                hands[seat] |= 1 << card
            pos += size
    return Deal((hands[0], hands[1], hands[2], hands[3]), dealer, deck[-1])


def gather_and_cut(played: Sequence[int], rng: np.random.Generator) -> list[int]:
    """The next deck without a shuffle: the played cards in order, cut at a random point.

    Args:
        played: the 52 cards of the previous hand in the order they were gathered
            (its tricks in order, or the hands stacked after a throw-in).

    Returns:
        The new deck, ``played[k:] + played[:k]`` for a uniform cut ``k`` in 1..51.

    Raises:
        ValueError: ``played`` is not the 52 distinct cards.
    """
    _check_deck(played)
    k = int(rng.integers(1, 52))
    return [*played[k:], *played[:k]]


def lowest_cards_discard(hand: int) -> list[int]:
    """Default Vuilbak discard: the four lowest cards, shortest suit first on equal rank.

    A plain heuristic: keep high cards and long suits; the discarding player does
    not know trump yet (the dealer's card is face down, RULES.md 1.2).
    """
    lengths = [sum(1 for c in cards_of(hand) if card_suit(c) == s) for s in range(len(SUITS))]
    ordered = sorted(cards_of(hand), key=lambda c: (card_rank(c), lengths[card_suit(c)], card_suit(c)))
    return ordered[:VUILBAK_DISCARDS]


def deal_vuilbak(deck: Sequence[int], dealer: int, discard: DiscardPolicy = lowest_cards_discard) -> Deal:
    """Vuilbakwiezen (RULES.md 1.2): 17 cards to each opponent, one to the dealer.

    Opponents get packets of 4, 4, 4, 5 starting with eldest; the deck's last card
    goes face down to the dealer and becomes the turned card. Each opponent
    discards 4 cards (``discard`` is called in turn from eldest); the 12 discards
    plus the dealer's card make the dealer's hand.

    Raises:
        ValueError: a bad deck or dealer, or a discard policy that does not return
            4 distinct cards of the hand it was given.
    """
    _check_deck(deck)
    if not 0 <= dealer < SEATS:
        raise ValueError(f"dealer must be a seat 0..3, got {dealer}")
    hands = [0] * SEATS
    opponents = [(dealer + i) % SEATS for i in range(1, SEATS)]
    pos = 0
    for size in VUILBAK_PACKETS:
        for seat in opponents:
            for card in deck[pos : pos + size]:
                hands[seat] |= 1 << card
            pos += size
    turned = deck[-1]
    hands[dealer] = 1 << turned
    for seat in opponents:
        chosen = discard(hands[seat])
        mask = sum(1 << c for c in set(chosen))
        if len(chosen) != VUILBAK_DISCARDS or len(set(chosen)) != VUILBAK_DISCARDS or mask & ~hands[seat]:
            raise ValueError(f"seat {seat} must discard 4 distinct cards of its hand, got {chosen}")
        hands[seat] &= ~mask
        hands[dealer] |= mask
    return Deal((hands[0], hands[1], hands[2], hands[3]), dealer, turned)


def check_position(hand: str | int, seat: str | int, turned: str | int) -> tuple[int, int, int]:
    """Validate what the player knows; returns ``(hand mask, seat 0..3, turned card)``.

    Args:
        hand: 13 cards (any notation of :mod:`wiezen_sim.cards`) or a mask.
        seat: a seat name or number (:func:`wiezen_sim.vocabulary.parse_seat`).
        turned: the turned card (text or bit number).

    Raises:
        ValueError: not 13 distinct cards, an unknown seat, a bad turned card, the
            turned card in the hand of a player who is not the dealer, or missing
            from the dealer's hand.
        TypeError: a hand or turned card that is neither text nor a whole number.
    """
    if isinstance(hand, str):
        mask = parse_hand(hand, size=13)
    elif is_whole(hand, 0):
        mask = int(hand)
    else:
        raise TypeError(f"hand: 13 cards as text (e.g. 'S:AKQ H:T987 D:- C:AK5432') or a card mask, got {hand!r}")
    if mask & ~FULL_DECK:
        raise ValueError(f"hand: {hand!r} is not a card mask (bits outside the 52 cards)")
    if card_count(mask) != 13:
        raise ValueError(f"a hand needs 13 cards, got {card_count(mask)}")
    p = parse_seat(seat)
    if isinstance(turned, str):
        card = parse_card(turned)
    elif not is_whole(turned):
        raise TypeError(f"turned: a card as text (e.g. '7H') or its bit number, got {turned!r}")
    elif not (0 <= turned < 64 and FULL_DECK >> int(turned) & 1):
        raise ValueError(f"turned: {turned!r} is not a card's bit number")
    else:
        card = int(turned)
    inside = bool(mask >> card & 1)
    if p == DEALER and not inside:
        raise ValueError(f"the turned card {card_name(card)} must be in the dealer's own hand")
    if p != DEALER and inside:
        raise ValueError(
            f"the turned card {card_name(card)} is in your hand, but it lies in the dealer's (you are not the dealer)"
        )
    return mask, p, card
