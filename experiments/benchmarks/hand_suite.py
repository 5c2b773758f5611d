"""A fixed, seeded suite of advise positions (hand, seat, turned card) drawn by class (issue 18).

Each :class:`PositionClass` draws its positions from its own random stream (the suite
seed and the class name), so a class's positions do not change when other classes are
added, removed or selected. Hands are drawn uniformly from a
:class:`wiezen_sim.analysis.hands.HandClass` (constructive for per-suit constraints,
rejection for the rest); nothing is filtered by how fast it is to analyse.

Turned card (RULES.md 1.2): the dealer's last card. For a seat other than the dealer it
is uniform over the 39 cards the player does not hold; for the dealer it is uniform
over the player's own 13 cards. A class may ask for the turned card to be in the suit
its hand class is built around (solo candidates: the long suit is trump) with some
probability; the card is then uniform over that suit's cards the rule allows.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from wiezen_sim.analysis.hands import HCP, HandClass, sample_hand
from wiezen_sim.cards import FULL_DECK, SUITS, card_name, cards_of, hand_name
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.vocabulary import DEALER, SEAT_NAMES

DEFAULT_SEED = 18  # the number


@dataclass(frozen=True)
class Position:
    """What the player knows: ``hand`` (card mask), ``seat`` (0 eldest … 3 dealer), ``turned`` (card bit)."""

    cls: str
    index: int  # position within its class
    hand: int
    seat: int
    turned: int

    @property
    def name(self) -> str:
        """``class/index``, unique in the suite."""
        return f"{self.cls}/{self.index}"

    def describe(self) -> dict:
        """The position as ``wiezen-sim advise`` spells it."""
        return {"hand": hand_name(self.hand), "seat": SEAT_NAMES[self.seat], "turned": card_name(self.turned)}


@dataclass(frozen=True)
class PositionClass:
    """A class of advise positions.

    Attributes:
        name: label (also seeds the class's random stream).
        count: positions drawn.
        hand_class: the hand class of one draw, given the draw's generator (so a class can
            put its long suit or its high cards in a random suit).
        seat: 0..3 (eldest … dealer) or ``None`` for a uniformly random seat.
        turned_in_suit: probability that the turned card lies in ``hand_class.trump``
            (the class's own suit); otherwise it is uniform over the allowed cards.
        fixed: positions given as ``(hand, seat, turned)`` texts instead of drawn.
    """

    name: str
    count: int
    hand_class: Callable[[np.random.Generator], HandClass] | None = None
    seat: int | None = None
    turned_in_suit: float = 0.0
    fixed: tuple[tuple[str, str, str], ...] = ()

    def positions(self, seed: int) -> list[Position]:
        """The class's positions for a suite seed (same seed → same positions)."""
        if self.fixed:
            out = []
            for i, (hand, seat, turned) in enumerate(self.fixed):
                mask, p, card = check_position(hand, seat, turned)
                out.append(Position(self.name, i, mask, p, card))
            return out
        rng = np.random.default_rng([seed, zlib.crc32(self.name.encode())])
        return [self._draw(rng, i) for i in range(self.count)]

    def _draw(self, rng: np.random.Generator, index: int) -> Position:
        hc = self.hand_class(rng)
        seat = int(rng.integers(4)) if self.seat is None else self.seat
        hand = sample_hand(hc, rng)
        allowed = hand if seat == DEALER else FULL_DECK & ~hand
        if hc.trump is not None and rng.random() < self.turned_in_suit:
            allowed &= 0x7FFC << (16 * hc.trump)
        turned = int(rng.choice(cards_of(allowed)))
        return Position(self.name, index, hand, seat, turned)


def _suit(rng: np.random.Generator) -> int:
    return int(rng.integers(4))


def _honours(rng: np.random.Generator, n: int, ranks: str) -> str:
    """``n`` distinct honours (ranks among ``ranks``, random suits), e.g. ``"KS QD"``."""
    cards = [r + s for r in ranks for s in SUITS]
    return " ".join(str(c) for c in rng.choice(cards, size=n, replace=False))


def _points(cards: str) -> int:
    return sum(HCP["..23456789TJQKA".index(c[0])] for c in cards.split())


def _one_high(rng: np.random.Generator) -> HandClass:
    cards = _honours(rng, 1, "KQ")  # a king or queen: a likely loser of a trick, not a sure one
    return HandClass("misere_one_high", cards=cards, points=_points(cards), lowest_max=4)


def _two_high(rng: np.random.Generator) -> HandClass:
    cards = _honours(rng, 2, "AKQ")
    return HandClass("misere_two_high", cards=cards, points=_points(cards), lowest_max=4)


def _void(rng: np.random.Generator) -> HandClass:
    lengths: list[int | None] = [None] * 4
    lengths[_suit(rng)] = 0
    return HandClass("misere_void", lengths=tuple(lengths), points=(0, 5))


def _pico(rng: np.random.Generator) -> HandClass:
    s = _suit(rng)
    return HandClass("pico", cards="A" + SUITS[s], points=4, lowest_max=5)


def _solo(top: bool) -> Callable[[np.random.Generator], HandClass]:
    def draw(rng: np.random.Generator) -> HandClass:
        s = _suit(rng)
        if top:
            return HandClass("solo_top", cards=f"A{SUITS[s]} K{SUITS[s]}", trump=s, trump_length=(5, 6),
                             outside_aces=(0, 2))  # fmt: skip
        honours = str(rng.choice(["", "Q", "KQ", "K"]))  # never the ace
        return HandClass("solo_no_top", trump=s, trump_length=(5, 6), trump_honours=honours, outside_aces=(0, 2))

    return draw


def _abondance(top: bool) -> Callable[[np.random.Generator], HandClass]:
    def draw(rng: np.random.Generator) -> HandClass:
        s = _suit(rng)
        if top:
            return HandClass("abondance_top", cards=f"A{SUITS[s]} K{SUITS[s]}", trump=s, trump_length=(7, 8),
                             outside_aces=(0, 2))  # fmt: skip
        honours = str(rng.choice(["", "Q", "KQ", "K"]))
        return HandClass("abondance_no_top", trump=s, trump_length=(7, 8), trump_honours=honours, outside_aces=(0, 2))

    return draw


def _two_suiter(rng: np.random.Generator) -> HandClass:
    shape = str(rng.choice(["5-5-2-1", "5-5-3-0", "6-5-1-1", "6-5-2-0", "6-4-2-1", "5-4-4-0"]))
    return HandClass("two_suiter", shape=shape, points=(13, 40))


def _fixed_class(hc: HandClass) -> Callable[[np.random.Generator], HandClass]:
    return lambda rng: hc


# the hands issue 18 reported as slow (a user's first tries), kept in the suite as found
REPORTED = (
    ("H:AQJ95 S:A73 D:A8 C:962", "eldest", "4H"),
    ("S:T5 H:8432 D:7532 C:642", "third", "QD"),
    ("S:AK5 H:A93 D:A74 C:Q862", "second", "5D"),
    ("S:73 H:A3 D:632 C:AK8432", "eldest", "6S"),
    ("S:J6 H:JT973 D:KT97 C:J5", "eldest", "KH"),
)

SUITE: tuple[PositionClass, ...] = (
    *(PositionClass(f"random_{SEAT_NAMES[s]}", 12, _fixed_class(HandClass("random")), seat=s) for s in range(4)),
    PositionClass("solo_top", 6, _solo(True), turned_in_suit=1.0),
    PositionClass("solo_no_top", 6, _solo(False), turned_in_suit=1.0),
    PositionClass("abondance_top", 6, _abondance(True), turned_in_suit=0.5),
    PositionClass("abondance_no_top", 6, _abondance(False), turned_in_suit=0.5),
    PositionClass("misere_low", 6, _fixed_class(HandClass("misere_low", points=(0, 2), lowest_max=4))),
    PositionClass("misere_one_high", 5, _one_high),
    PositionClass("misere_two_high", 5, _two_high),
    PositionClass("misere_5332", 6, _fixed_class(HandClass("misere_5332", shape="5-3-3-2", points=(0, 5)))),
    PositionClass("misere_void", 6, _void),
    PositionClass("pico", 6, _pico),
    PositionClass("troel_3_aces", 5, _fixed_class(HandClass("troel_3_aces", aces=3))),
    PositionClass("troel_4_aces", 3, _fixed_class(HandClass("troel_4_aces", aces=4))),
    PositionClass("two_suiter", 6, _two_suiter),
    PositionClass("reported", len(REPORTED), fixed=REPORTED),
)


def suite_positions(
    seed: int = DEFAULT_SEED, classes: Sequence[str] | None = None, limit: int | None = None
) -> list[Position]:
    """The suite's positions, interleaved by class (any prefix mixes the classes).

    Args:
        seed: suite seed; the same seed gives the same positions.
        classes: class names to keep (``None``: all).
        limit: keep only the first ``limit`` positions of the interleaved order.

    Raises:
        ValueError: an unknown class name.
    """
    names = [c.name for c in SUITE]
    unknown = sorted(set(classes or ()) - set(names))
    if unknown:
        raise ValueError(f"unknown hand classes {', '.join(unknown)}; known: {', '.join(names)}")
    chosen = [c for c in SUITE if classes is None or c.name in classes]
    per_class = [c.positions(seed) for c in chosen]
    interleaved = [ps[i] for i in range(max(map(len, per_class), default=0)) for ps in per_class if i < len(ps)]
    return interleaved[:limit]
