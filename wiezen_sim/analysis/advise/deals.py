"""What the advised player knows, and the deals consistent with it (issue 4; RULES.md 1.2).

The player knows its own 13 cards and the turned card, which lies in the dealer's hand.
Seats are relative to the dealer (:mod:`wiezen_sim.vocabulary`): seat 0 = eldest (bids
and leads first), seat 3 = dealer.
"""

from __future__ import annotations

import numpy as np

from wiezen_sim.cards import FULL_DECK, card_count
from wiezen_sim.defaults import EXAMPLE  # the CLI's built-in position
from wiezen_sim.kernel.playout import rng_new, sample_deal
from wiezen_sim.vocabulary import DEALER, SEATS

__all__ = ["EXAMPLE", "sample_hands"]


def sample_hands(seed_word: np.uint64 | int, hand: int, seat: int, turned: int) -> np.ndarray:
    """One deal consistent with the player's knowledge: ``int64[4]`` hands, seat 3 = dealer.

    The unseen cards are dealt uniformly to the three others (the kernel's generator,
    seeded by ``seed_word``, one word of :func:`wiezen_sim.parallel.sample_seeds`); the
    turned card is in the dealer's hand. Inputs are trusted (:func:`wiezen_sim.rules.dealing.check_position`).
    """
    known = np.zeros(SEATS, dtype=np.int64)
    known[seat] = hand
    known[DEALER] |= 1 << turned
    need = np.array([13 - card_count(int(k)) for k in known], dtype=np.int64)
    unseen = FULL_DECK & ~hand & ~(1 << turned)
    return sample_deal(rng_new(seed_word), known, need, unseen)
