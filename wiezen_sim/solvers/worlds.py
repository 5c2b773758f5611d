"""Information sets and uniform world sampling for the sampling players (issue 5).

An :class:`InfoSet` is what one seat knows at a decision: its own cards, the cards it
knows other seats hold (the turned card in the dealer's hand, an exposed open-miserie
hand), the suits each seat has shown void in, and how many cards each seat holds. An
optional fifth "seat" holds the cards out of play that the observer has not seen (the
others' kleine-miserie discards).
:func:`sample_world` deals the unseen cards uniformly over every deal consistent with
it, constructively: the number of consistent deals is counted exactly by dynamic
programming over the suits (how many unseen cards of each suit each seat gets), a
count vector is drawn suit by suit in proportion to the completions it leaves, and the
cards of a suit are then shuffled among the seats that get them (the last suit's split is
forced by the needs left). No rejection; without any void, a shuffled pack is dealt.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from wiezen_sim.cards import card_count, cards_of, suit_holding
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


def _suit_counts(info: InfoSet) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(unseen cards per suit, cards needed per seat, eligible-suit mask per seat)."""
    per_suit = tuple(card_count(suit_holding(info.unseen, s)) for s in range(4))
    need = tuple(info.counts[s] - card_count(info.hands_known[s]) for s in range(len(info.counts)))
    return per_suit, need, info.voids


def _splits(n: int, need: tuple[int, ...], voids: tuple[int, ...], suit: int):
    """Every way to give ``n`` cards of ``suit`` to the seats (respecting voids and needs)."""

    def rec(seat: int, left: int):
        if seat == len(need):
            if left == 0:
                yield ()
            return
        top = 0 if voids[seat] >> suit & 1 else min(left, need[seat])
        for k in range(top + 1):
            for rest in rec(seat + 1, left - k):
                yield (k, *rest)

    yield from rec(0, n)


@functools.lru_cache(maxsize=8192)
def _completions(per_suit: tuple[int, ...], suit: int, need: tuple[int, ...], voids: tuple[int, ...]) -> int:
    """Number of ways to deal the unseen cards of suits ``suit..3`` to seats needing ``need``."""
    if suit == 4:
        return 1 if not any(need) else 0
    return sum(_suit_choices(per_suit, suit, need, voids)[1])


def count_worlds(info: InfoSet) -> int:
    """Exact number of deals consistent with the information set."""
    per_suit, need, voids = _suit_counts(info)
    return _completions(per_suit, 0, need, voids)


@functools.lru_cache(maxsize=8192)
def _suit_choices(per_suit: tuple[int, ...], suit: int, need: tuple[int, ...], voids: tuple[int, ...]
                  ) -> tuple[list[tuple[int, ...]], list[int]]:  # fmt: skip
    """The splits of ``suit`` that leave a completion, with their numbers of consistent deals."""
    options, weights = [], []
    if suit == 3:  # the last suit must fill every seat's remaining need exactly
        fits = sum(need) == per_suit[3] and not any(k and voids[s] >> 3 & 1 for s, k in enumerate(need))
        splits = [need] if fits else []
    else:
        splits = _splits(per_suit[suit], need, voids, suit)
    for split in splits:
        rest = tuple(need[s] - split[s] for s in range(len(need)))
        ways = _completions(per_suit, suit + 1, rest, voids)
        if ways:
            options.append(split)
            weights.append(math.factorial(per_suit[suit]) // math.prod(math.factorial(k) for k in split) * ways)
    return options, weights


def sample_world(info: InfoSet, rng: np.random.Generator) -> list[int]:
    """One deal drawn uniformly from the deals consistent with ``info`` (masks per seat; a fifth
    mask for the unseen discards when the information set has that pseudo-seat).

    Raises:
        ValueError: no consistent deal exists.
    """
    per_suit, need, voids = _suit_counts(info)
    hands = list(info.hands_known)
    if not any(voids):  # every deal with the right counts is consistent: deal a shuffled pack
        unseen = cards_of(info.unseen)
        cards = [unseen[i] for i in rng.permutation(len(unseen))]
        for seat, k in enumerate(need):
            hands[seat] |= sum(1 << c for c in cards[:k])
            cards = cards[k:]
        return hands
    if _completions(per_suit, 0, need, voids) == 0:
        raise ValueError("no deal is consistent with this information set")
    left = need
    for suit in range(4):
        options, weights = _suit_choices(per_suit, suit, left, voids)
        total = sum(weights)
        pick = int(rng.integers(total)) if total < 2**63 else int(rng.random() * total)
        index = 0
        while pick >= weights[index]:
            pick -= weights[index]
            index += 1
        split = options[index]
        cards = cards_of(suit_holding(info.unseen, suit) << (16 * suit))
        order = rng.permutation(len(cards))
        k = 0
        for s in range(len(split)):
            for _ in range(split[s]):
                hands[s] |= 1 << cards[order[k]]
                k += 1
        left = tuple(left[s] - split[s] for s in range(len(left)))
    return hands


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
