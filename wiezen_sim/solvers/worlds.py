"""Information sets and uniform world sampling for the sampling players (issue 5).

An :class:`InfoSet` is what one seat knows at a decision: its own cards, the cards it
knows other seats hold (the turned card in the dealer's hand, an exposed open-miserie
hand), the suits each seat has shown void in, and how many cards each seat holds. An
optional fifth "seat" holds the cards out of play that the observer has not seen (the
others' kleine-miserie discards).
:func:`sample_world` deals the unseen cards uniformly over every deal consistent with
it, with the exact sampler both games share (``wiezen_sim.kernel.worlds``: the consistent
deals are counted exactly by dynamic programming, no rejection).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wiezen_sim.cards import card_count, suit_holding
from wiezen_sim.kernel import worlds as _kw
from wiezen_sim.kernel.playout import rng_new
from wiezen_sim.vocabulary import SEATS

__all__ = ["InfoSet", "count_worlds", "observe", "sample_world"]


@dataclass(frozen=True)
class InfoSet:
    """What ``seat`` knows about the current deal.

    Attributes:
        seat: the observer.
        hands_known: int masks per seat: the observer's own cards, and for the others
            the cards known to be in their hands now (turned card, exposed hand).
        counts: cards each seat holds now.
        voids: per seat a 4-bit mask of suits it cannot hold (shown void).
        unseen: the cards the observer has not seen (to be dealt to the others).
    """

    seat: int
    hands_known: tuple[int, ...]
    counts: tuple[int, ...]
    voids: tuple[int, ...]
    unseen: int

    def __post_init__(self) -> None:
        n = len(self.counts)
        if n not in (SEATS, SEATS + 1) or len(self.hands_known) != n or len(self.voids) != n:
            raise ValueError("an information set has 4 seats (and optionally the unseen discards)")
        need = [self.counts[s] - card_count(self.hands_known[s]) for s in range(n)]
        if min(need) < 0 or sum(need) != card_count(self.unseen):
            raise ValueError(f"inconsistent information set: needs {need} for {card_count(self.unseen)} unseen cards")
        if need[self.seat] != 0:
            raise ValueError("the observer's own hand must be fully known")
        for s in range(n):
            for suit in range(4):
                if self.voids[s] >> suit & 1 and suit_holding(self.hands_known[s], suit):
                    raise ValueError(f"seat {s} is void in suit {suit} but is known to hold a card of it")

    def consistent(self, hands: tuple[int, ...] | list[int]) -> bool:
        """Whether a full deal (masks per seat, and the unseen discards) agrees with everything known."""
        if len(hands) != len(self.counts) or sum(int(h) for h in hands) != sum(self.hands_known) + self.unseen:
            return False
        for s in range(len(self.counts)):
            h = int(hands[s])
            if card_count(h) != self.counts[s] or h & self.hands_known[s] != self.hands_known[s]:
                return False
            if h & ~self.hands_known[s] & ~self.unseen:
                return False
            if any(self.voids[s] >> suit & 1 and suit_holding(h, suit) for suit in range(4)):
                return False
        return True


def _places(info: InfoSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(known cards, cards needed, voids) per place: int64 arrays for ``kernel.worlds``."""
    need = [info.counts[s] - card_count(info.hands_known[s]) for s in range(len(info.counts))]
    return (np.array(info.hands_known, dtype=np.int64), np.array(need, dtype=np.int64),
            np.array(info.voids, dtype=np.int64))  # fmt: skip


def count_worlds(info: InfoSet) -> float:
    """Number of deals consistent with the information set (float: exact below 2**53)."""
    _, need, voids = _places(info)
    return float(_kw.count_worlds(need, np.int64(info.unseen), voids))


def sample_world(info: InfoSet, rng: np.random.Generator) -> list[int]:
    """One deal drawn uniformly from the deals consistent with ``info`` (masks per seat; a fifth
    mask for the unseen discards when the information set has that pseudo-seat).

    The kernel's generator is seeded with one draw from ``rng`` (``kernel.worlds``).

    Raises:
        ValueError: no consistent deal exists.
    """
    known, need, voids = _places(info)
    state = rng_new(int(rng.integers(2**63)))
    return [int(h) for h in _kw.sample_worlds(state, known, need, np.int64(info.unseen), voids, 1)[0]]


def observe(
    seat: int,
    start_hands: tuple[int, ...] | list[int],
    history: list[tuple[int, list[int]]],
    dealer: int | None = None,
    turned: int | None = None,
    exposed: tuple[int, ...] = (),
    discards: list[int] | None = None,
) -> InfoSet:
    """The information set of ``seat`` after the cards in ``history`` were played.

    Args:
        start_hands: the four hands as dealt (masks; before any kleine-miserie discard).
        history: tricks in order, each ``(leader, cards in play order)``; the last one
            may be incomplete (the trick in progress).
        dealer, turned: the turned card is known to be in the dealer's hand until played
            (not with discards: the dealer may have discarded it face down).
        exposed: seats whose hands lie face up now (open miserie after the first trick).
        discards: kleine miserie: each seat's face-down discard; the observer knows only
            its own, the others' go to the fifth pseudo-seat.

    Raises:
        ValueError: a card played by a seat that did not hold it.
    """
    played = [0] * SEATS
    voids = [0] * SEATS
    for leader, cards in history:
        for i, card in enumerate(cards):
            s = (leader + i) % SEATS
            if not start_hands[s] >> card & 1:
                raise ValueError(f"seat {s} played a card it was not dealt")
            played[s] |= 1 << card
            if i and card >> 4 != cards[0] >> 4:
                voids[s] |= 1 << (cards[0] >> 4)
    gone = [0] * SEATS if discards is None else [1 << d for d in discards]
    current = [start_hands[s] & ~played[s] & ~gone[s] for s in range(SEATS)]
    known = [0] * SEATS
    known[seat] = current[seat]
    if turned is not None and dealer is not None and discards is None and current[dealer] >> turned & 1:
        known[dealer] |= 1 << turned
    for s in exposed:
        known[s] = current[s]
    counts = [card_count(h) for h in current]
    seen = sum(played) | known[seat] | sum(known) | gone[seat]
    unseen = ((1 << 64) - 1) & sum(start_hands) & ~seen
    if discards is None:
        return InfoSet(seat, tuple(known), tuple(counts), tuple(voids), unseen)
    out = sum(1 for s in range(SEATS) if s != seat)
    return InfoSet(seat, (*known, 0), (*counts, out), (*voids, 0), unseen)
