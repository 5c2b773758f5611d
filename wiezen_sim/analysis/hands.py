"""Hand classes: declarative specs of the analysed player's hand and a uniform sampler (issue 6).

A :class:`HandClass` constrains the 13 cards by exact cards held, shape or per-suit
lengths, the trump suit's length and top honours (A, K, Q), the number of aces,
high-card points (A4 K3 Q2 J1) and misère features (the lowest card of each suit, the
number of dangerous suits). :func:`sample_hand` draws uniformly from the class:

1. constructive for what is per suit (lengths, required and forbidden cards): a
   suit-length pattern is drawn with probability proportional to its number of
   hands, then each suit's cards uniformly among the allowed ones; this is exactly
   uniform over the hands meeting those constraints;
2. bounded rejection for the rest (aces, points, misère features, the turned card):
   uniform over the class; after ``max_tries`` draws without a hit a ``ValueError``
   says the class is too rare (or empty).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from wiezen_sim.cards import SUITS, card_count, parse_hand, suit_holding
from wiezen_sim.rules.bots import playing_tricks

__all__ = [
    "HCP",
    "HONOURS",
    "MAX_TRIES",
    "HandClass",
    "hcp",
    "lowest_ranks",
    "parse_shape",
    "sample_hand",
    "sample_hands",
]

HONOURS = {"A": 14, "K": 13, "Q": 12}
HCP = {14: 4, 13: 3, 12: 2, 11: 1}
MAX_TRIES = 200_000


def _range(value: float | tuple[float, float] | None, what: str, lo: float, hi: float) -> tuple[float, float]:
    """``value`` (a number or a ``(low, high)`` pair) as a pair within ``lo``..``hi``, whole numbers unless
    ``lo`` is a float (playing tricks); ValueError naming ``what`` otherwise ("67", True, 6.5 cards, three)."""
    if value is None:
        return lo, hi
    pair = (value, value) if not isinstance(value, tuple | list) else tuple(value)
    kinds = int | float if isinstance(lo, float) else int
    numbers = len(pair) == 2 and all(isinstance(x, kinds) and not isinstance(x, bool) for x in pair)
    if not numbers or not lo <= pair[0] <= pair[1] <= hi:
        what_kind = "a number" if isinstance(lo, float) else "a whole number"
        raise ValueError(f"{what} must be {what_kind} or a [low, high] pair in {lo:g}..{hi:g}, got {value!r}")
    return pair[0], pair[1]


def parse_shape(shape: str) -> tuple[int, ...]:
    """``"6-4-2-1"`` → lengths sorted high to low.

    Raises:
        ValueError: not four lengths summing to 13.
    """
    try:
        lengths = tuple(sorted((int(x) for x in shape.split("-")), reverse=True))
    except ValueError:
        raise ValueError(f"bad shape {shape!r}; write e.g. '6-4-2-1'") from None
    if len(lengths) != 4 or sum(lengths) != 13 or min(lengths) < 0:
        raise ValueError(f"a shape has four suit lengths summing to 13, got {shape!r}")
    return lengths


def hcp(hand: int) -> int:
    """High-card points: A 4, K 3, Q 2, J 1."""
    return sum(points * card_count(hand & (0x0001000100010001 << rank)) for rank, points in HCP.items())


def lowest_ranks(hand: int) -> list[int | None]:
    """The lowest rank held in each suit (S H D C), None for a void."""
    out: list[int | None] = []
    for s in range(4):
        lane = suit_holding(hand, s)
        out.append((lane & -lane).bit_length() - 1 if lane else None)
    return out


@dataclass(frozen=True)
class HandClass:
    """A class of 13-card hands (all constraints must hold).

    Attributes:
        name: label used in tables and charts.
        cards: cards that must be held (any notation), e.g. ``"AS KS"``.
        shape: suit lengths in any order, e.g. ``"6-4-2-1"``.
        lengths: per-suit lengths S, H, D, C (``None`` entries are free).
        trump: suit 0..3 that the trump features refer to.
        trump_length: length of the trump suit (int or ``(lo, hi)``).
        trump_honours: exactly which of A, K, Q of trump are held, e.g. ``"AK"``
            (then the queen is not); ``None`` = free.
        aces: number of aces (int or range).
        outside_aces: number of aces outside the trump suit (int or range; needs ``trump``).
        tricks: playing tricks in the trump suit, :func:`wiezen_sim.rules.bots.playing_tricks`
            (A 1, guarded K 0.5, each trump beyond the third 1; number or range; needs ``trump``).
        points: high-card points A4 K3 Q2 J1 (int or range).
        lowest_max: every non-void suit's lowest card is at most this rank (misère).
        lowest: per suit S, H, D, C the rank range (2..14) of that suit's lowest card,
            ``None`` = free; e.g. ``(None, None, None, (6, 7))`` with ``lengths=(5, 3, 3, 2)``
            is the 5-3-3-2 misère trap (the doubleton's lowest card a 6 or 7).
        danger_rank: a suit is *dangerous* when its lowest card is above this rank.
        dangerous: number of dangerous suits (int or range).
        exclude: a card the hand must not hold (the turned card of a non-dealer).
    """

    name: str = "any"
    cards: str | None = None
    shape: str | None = None
    lengths: tuple[int | None, int | None, int | None, int | None] | None = None
    trump: int | None = None
    trump_length: int | tuple[int, int] | None = None
    trump_honours: str | None = None
    aces: int | tuple[int, int] | None = None
    outside_aces: int | tuple[int, int] | None = None
    tricks: float | tuple[float, float] | None = None
    points: int | tuple[int, int] | None = None
    lowest_max: int | None = None
    lowest: tuple[int | tuple[int, int] | None, ...] | None = None
    danger_rank: int = 5
    dangerous: int | tuple[int, int] | None = None
    exclude: int | None = None

    def __post_init__(self) -> None:
        trump_features = (self.trump_length, self.trump_honours, self.outside_aces, self.tricks)
        if any(x is not None for x in trump_features) and self.trump not in range(4):
            raise ValueError("trump features need trump = a suit 0..3")
        if self.lowest is not None:
            if len(self.lowest) != 4:
                raise ValueError("lowest needs four entries (S, H, D, C)")
            for r in self.lowest:
                _range(r, "lowest", 2, 14)
        if self.trump_honours is not None and set(self.trump_honours) - set(HONOURS):
            raise ValueError(f"trump_honours are letters among A, K, Q, got {self.trump_honours!r}")
        _range(self.trump_length, "trump_length", 0, 13)
        _range(self.aces, "aces", 0, 4)
        _range(self.outside_aces, "outside_aces", 0, 3)
        _range(self.tricks, "tricks", 0.0, 13.0)
        _range(self.points, "points", 0, 40)
        _range(self.dangerous, "dangerous", 0, 4)

    @property
    def _suit(self) -> int:
        """The trump suit, for a trump feature (``__post_init__`` allows one only with a trump)."""
        assert self.trump is not None
        return self.trump

    def matches(self, hand: int) -> bool:
        """Whether a hand (mask) belongs to the class."""
        if card_count(hand) != 13:
            return False
        required, forbidden = self._fixed()
        if hand & required != required or hand & forbidden:
            return False
        lengths = [card_count(suit_holding(hand, s)) for s in range(4)]
        return all(lengths[s] in allowed for s, allowed in enumerate(self._lengths_allowed())) and (
            self._shape_ok(lengths) and self._rest_ok(hand)
        )

    def _fixed(self) -> tuple[int, int]:
        """(required cards, forbidden cards) masks."""
        required = parse_hand(self.cards) if self.cards else 0
        forbidden = 0 if self.exclude is None else 1 << self.exclude
        if self.trump_honours is not None:
            for letter, rank in HONOURS.items():
                bit = 1 << (16 * self._suit + rank)
                if letter in self.trump_honours:
                    required |= bit
                else:
                    forbidden |= bit
        if required & forbidden:
            raise ValueError(f"class {self.name!r} requires and forbids the same card: it is empty")
        return required, forbidden

    def _lengths_allowed(self) -> list[range]:
        allowed = [range(14)] * 4
        if self.lengths is not None:
            if len(self.lengths) != 4:
                raise ValueError("lengths needs four entries (S, H, D, C)")
            allowed = [range(14) if x is None else range(x, x + 1) for x in self.lengths]
        if self.trump_length is not None:
            lo, hi = (int(v) for v in _range(self.trump_length, "trump_length", 0, 13))
            t = allowed[self._suit]
            allowed[self._suit] = range(max(lo, t.start), min(hi, t.stop - 1) + 1)
        return allowed

    def _shape_ok(self, lengths: list[int]) -> bool:
        return self.shape is None or tuple(sorted(lengths, reverse=True)) == parse_shape(self.shape)

    def _rest_ok(self, hand: int) -> bool:
        """The constraints checked by rejection."""
        if self.aces is not None:
            lo, hi = _range(self.aces, "aces", 0, 4)
            if not lo <= card_count(hand & 0x4000400040004000) <= hi:
                return False
        if self.outside_aces is not None:
            lo, hi = _range(self.outside_aces, "outside_aces", 0, 3)
            if not lo <= card_count(hand & 0x4000400040004000 & ~(0xFFFF << 16 * self._suit)) <= hi:
                return False
        if self.tricks is not None:
            lo, hi = _range(self.tricks, "tricks", 0.0, 13.0)
            if not lo <= playing_tricks(hand, self.trump) <= hi:
                return False
        if self.points is not None:
            lo, hi = _range(self.points, "points", 0, 40)
            if not lo <= hcp(hand) <= hi:
                return False
        by_suit = lowest_ranks(hand)
        for low, want in zip(by_suit, self.lowest or (), strict=False):
            if want is not None:
                lo, hi = _range(want, "lowest", 2, 14)
                if low is None or not lo <= low <= hi:
                    return False
        lows = [r for r in by_suit if r is not None]
        if self.lowest_max is not None and max(lows) > self.lowest_max:
            return False
        if self.dangerous is not None:
            lo, hi = _range(self.dangerous, "dangerous", 0, 4)
            if not lo <= sum(r > self.danger_rank for r in lows) <= hi:
                return False
        return True

    def describe(self) -> str:
        """A one-line description of the constraints that are set."""
        parts = [f"{k}={v}" for k, v in self.__dict__.items() if v is not None and k not in ("name", "danger_rank")]
        if self.trump is not None:
            parts.append(f"trump suit {SUITS[self.trump]}")
        return f"{self.name}: " + (", ".join(parts) or "any hand")


@functools.lru_cache(maxsize=256)
def _patterns(hc: HandClass, required: int, forbidden: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Every allowed suit-length pattern and its probability (∝ its number of hands; per-suit constraints only)."""
    allowed = hc._lengths_allowed()
    free = [13 - card_count(suit_holding(required | forbidden, s)) for s in range(4)]
    need = [card_count(suit_holding(required, s)) for s in range(4)]
    patterns, weights = [], []
    for lengths in itertools.product(*allowed):
        if sum(lengths) != 13 or not hc._shape_ok(list(lengths)):
            continue
        w = math.prod(math.comb(free[s], lengths[s] - need[s]) if lengths[s] >= need[s] else 0 for s in range(4))
        if w:
            patterns.append(lengths)
            weights.append(w)
    if not patterns:
        raise ValueError(f"hand class {hc.name!r} is empty (no suit lengths fit its constraints)")
    probs = np.array(weights, dtype=float)
    return patterns, probs / probs.sum()


def sample_hand(hc: HandClass, rng: np.random.Generator, max_tries: int = MAX_TRIES) -> int:
    """A hand drawn uniformly from the class (mask).

    Raises:
        ValueError: the class is empty, or no hand was found in ``max_tries`` draws
            (too rare for rejection; the message gives the acceptance seen).
    """
    required, forbidden = hc._fixed()
    patterns, probs = _patterns(hc, required, forbidden)
    for _ in range(max_tries):
        lengths = patterns[int(rng.choice(len(patterns), p=probs))]
        hand = required
        for s in range(4):
            pool = [16 * s + r for r in range(2, 15) if not (required | forbidden) >> (16 * s + r) & 1]
            k = lengths[s] - card_count(suit_holding(required, s))
            for c in rng.choice(pool, size=k, replace=False) if k else ():
                hand |= 1 << int(c)
        if hc._rest_ok(hand):
            return hand
    raise ValueError(f"hand class {hc.name!r} is too rare: no hand in {max_tries} draws (or it is empty)")


def sample_hands(hc: HandClass, n: int, seed: int) -> list[int]:
    """``n`` hands drawn uniformly from the class with ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    return [sample_hand(hc, rng) for _ in range(n)]
