"""What the advised player knows, and the deals consistent with it (issue 4; RULES.md 1.2).

The player knows its own 13 cards and the turned card, which lies in the dealer's hand.
Seats are relative to the dealer (:mod:`wiezen_sim.vocabulary`): seat 0 = eldest (bids
and leads first), seat 3 = dealer.
"""

from __future__ import annotations

import numpy as np

from wiezen_sim.cards import FULL_DECK, card_count, card_name, parse_card, parse_hand
from wiezen_sim.defaults import EXAMPLE  # the CLI's built-in position
from wiezen_sim.kernel.playout import rng_new, sample_deal
from wiezen_sim.vocabulary import SEATS, parse_seat

__all__ = ["DEALER", "ELDEST", "EXAMPLE", "check_position", "sample_hands"]

ELDEST = 0
DEALER = SEATS - 1


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
    """
    mask = parse_hand(hand, size=13) if isinstance(hand, str) else hand
    if card_count(mask) != 13 or mask & ~FULL_DECK:
        raise ValueError(f"a hand needs 13 cards, got {card_count(mask)}")
    p = parse_seat(seat)
    card = parse_card(turned) if isinstance(turned, str) else turned
    inside = bool(mask >> card & 1)
    if p == DEALER and not inside:
        raise ValueError(f"the turned card {card_name(card)} must be in the dealer's own hand")
    if p != DEALER and inside:
        raise ValueError(f"the turned card {card_name(card)} lies in the dealer's hand, not in yours")
    return mask, p, card


def sample_hands(seed_word: np.uint64 | int, hand: int, seat: int, turned: int) -> np.ndarray:
    """One deal consistent with the player's knowledge: ``int64[4]`` hands, seat 3 = dealer.

    The unseen cards are dealt uniformly to the three others (the kernel's generator,
    seeded by ``seed_word``, one word of :func:`wiezen_sim.parallel.sample_seeds`); the
    turned card is in the dealer's hand. Inputs are trusted (:func:`check_position`).
    """
    known = np.zeros(SEATS, dtype=np.int64)
    known[seat] = hand
    known[DEALER] |= 1 << turned
    need = np.array([13 - card_count(int(k)) for k in known], dtype=np.int64)
    unseen = FULL_DECK & ~hand & ~(1 << turned)
    return sample_deal(rng_new(seed_word), known, need, unseen)
