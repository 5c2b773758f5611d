"""A brute-force double-dummy reference in plain Python (independent of the kernel).

Cards are ``(suit, rank)`` tuples; hands are tuples of such cards. Nothing from
``wiezen_sim.kernel`` is used here: the rules (follow suit, no obligation to trump,
highest trump else highest card of the suit led) are written out again. Also the random
endings the tests share (the misère family's, with the check of all its questions).
"""

from __future__ import annotations

from functools import cache

import numpy as np

Card = tuple[int, int]
SUIT_LANE = 0x7FFC  # the ranks 2..A of one suit in a 16-bit lane of a card mask


def start_trick(rng, hands, leader: int, n_played: int) -> list[int]:
    """Play ``n_played`` random legal cards to a trick from ``leader``, taking them out of
    ``hands`` (card masks, ``int64[4]``, changed in place); returns the trick's cards.
    The test generators' helper (it draws from ``rng``); the reference itself is above."""
    trick: list[int] = []
    for i in range(n_played):
        seat = (leader + i) % 4
        hand = int(hands[seat])
        if trick:
            hand = (hand & (SUIT_LANE << (16 * (trick[0] >> 4)))) or hand
        card = int(rng.choice([b for b in range(64) if hand >> b & 1]))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return trick


def ref_cards(mask: int) -> tuple[Card, ...]:
    """The reference's cards of a kernel card mask (bit ``16 * suit + rank``)."""
    return tuple((b >> 4, b & 15) for b in range(64) if mask >> b & 1)


def ref_args(hands, trump, leader: int, trick, side: int):
    """The reference's arguments of a solver question: hands ``int64[4]`` masks, ``trump`` a suit or None
    (no trump, -1 here), the trick's cards, ``side`` a seat mask."""
    suit = -1 if trump is None else trump
    return ([ref_cards(int(h)) for h in hands], suit, leader, tuple((c >> 4, c & 15) for c in trick),
            frozenset(s for s in range(4) if side >> s & 1))  # fmt: skip


def assert_max_matches(solver, rng, hands, trump, leader: int, trick, side: int, targets: tuple[int, int]) -> None:
    """``solver.solve`` (max) equals the brute force, and ``can_force`` at a target drawn from ``targets``
    (``rng.integers(*targets)``) agrees with it."""
    want = ref_value(*ref_args(hands, trump, leader, trick, side))
    assert solver.solve(hands, trump, leader, side, trick=trick) == want, (hands, trump, leader, trick, side)
    t = int(rng.integers(*targets))
    assert solver.can_force(hands, trump, leader, side, t, trick=trick) == (want >= t), (hands, trump, t)


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    if not trick:
        return hand
    follow = tuple(c for c in hand if c[0] == trick[0][0])
    return follow if follow else hand


def _winner_index(trick: tuple[Card, ...], trump: int) -> int:
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c[0] == b[0]:
            if c[1] > b[1]:
                best = i
        elif c[0] == trump:
            best = i
    return best


def _play(hands, seat, card):
    return tuple(tuple(c for c in h if c != card) if i == seat else h for i, h in enumerate(hands))


def ref_value(hands, trump, leader, trick, side, minimise=False) -> int:
    """Tricks the side takes (from the current trick on) under best play.

    ``side`` is a frozenset of seats; with ``minimise`` the side tries to take as few
    tricks as possible and the others try to make it take many.
    """

    @cache
    def value(hands, leader, trick):
        if not trick and not any(hands):
            return 0
        seat = (leader + len(trick)) % 4
        side_moves = (seat in side) != minimise  # True: this seat wants a high value
        best = None
        for card in _legal(hands[seat], trick):
            h2 = _play(hands, seat, card)
            t2 = (*trick, card)
            if len(t2) == 4:
                w = (leader + _winner_index(t2, trump)) % 4
                v = (1 if w in side else 0) + value(h2, w, ())
            else:
                v = value(h2, leader, t2)
            if best is None or (v > best if side_moves else v < best):
                best = v
        return best

    return value(tuple(tuple(sorted(h)) for h in hands), leader, tuple(trick))


def ref_exact(hands, trump, leader, trick, side, k) -> bool:
    """Can the side force exactly ``k`` tricks (from the current trick on)?"""

    @cache
    def can(hands, leader, trick, need):
        if not trick and not any(hands):
            return need == 0
        if need < 0:
            return False
        seat = (leader + len(trick)) % 4
        want = seat in side  # the side looks for one card that makes it, the others for one that breaks it
        for card in _legal(hands[seat], trick):
            h2 = _play(hands, seat, card)
            t2 = (*trick, card)
            if len(t2) == 4:
                w = (leader + _winner_index(t2, trump)) % 4
                r = can(h2, w, (), need - (1 if w in side else 0))
            else:
                r = can(h2, leader, t2, need)
            if r == want:
                return want
        return not want

    return can(tuple(tuple(sorted(h)) for h in hands), leader, tuple(trick), k)


def ref_fewest(hands, trump, leader, trick, side) -> int:
    """The fewest tricks the side takes over every possible play (everybody plays against it),
    from the current trick on: what a bound that holds "whatever anybody plays" may claim at most."""

    @cache
    def fewest(hands, leader, trick):
        if not trick and not any(hands):
            return 0
        seat = (leader + len(trick)) % 4
        best = None
        for card in _legal(hands[seat], trick):
            h2 = _play(hands, seat, card)
            t2 = (*trick, card)
            if len(t2) == 4:
                w = (leader + _winner_index(t2, trump)) % 4
                v = (1 if w in side else 0) + fewest(h2, w, ())
            else:
                v = fewest(h2, leader, t2)
            if best is None or v < best:
                best = v
        return best

    return fewest(tuple(tuple(sorted(h)) for h in hands), leader, tuple(trick))


def misere_ending(rng: np.random.Generator, n_cards: int, declarer: int, in_progress: bool,
                  void_suit: int | None = None):  # fmt: skip
    """(hands int64[4], leader, trick list): no trump, the declarer dealt mostly low cards.

    The deck is a compact one (ranks from a random low rank up: more cards of a suit meet)
    or the full deck; the declarer draws its cards from the lower half of the deck with
    probability 0.7 each, so it holds some high cards too, and none of ``void_suit``.
    """
    low = int(rng.integers(2, 8))
    deck = [16 * s + r for s in range(4) for r in range(low, 15)]
    if len(deck) < 4 * n_cards or rng.random() < 0.3:
        deck = [16 * s + r for s in range(4) for r in range(2, 15)]
    deck = [int(c) for c in rng.permutation(deck)]
    by_rank = sorted((c for c in deck if c >> 4 != void_suit), key=lambda c: c & 15)
    hands = np.zeros(4, dtype=np.int64)
    taken: set[int] = set()
    while len(taken) < n_cards:
        pool = by_rank[: len(by_rank) // 2] if rng.random() < 0.7 else by_rank
        c = int(rng.choice([c for c in pool if c not in taken]))
        taken.add(c)
        hands[declarer] |= 1 << c
    rest = [c for c in deck if c not in taken][: 3 * n_cards]
    others = [s for s in range(4) if s != declarer]
    for i, c in enumerate(rest):
        hands[others[i % 3]] |= 1 << c
    leader = int(rng.integers(4))
    trick = start_trick(rng, hands, leader, int(rng.integers(0, 4))) if in_progress else []
    return hands, leader, trick


def check_misere_ending(solver, hands, leader, trick, declarer) -> None:
    """Every misère-family question of an ending (no trump) asked of ``solver`` equals the brute force's."""
    side = 1 << declarer
    args = ref_args(hands, None, leader, trick, side)
    fewest = ref_value(*args, minimise=True)
    most = ref_value(*args)
    where = (hands.tolist(), leader, trick, declarer)
    assert solver.can_force(hands, None, leader, side, 0, "min", trick=trick) == (fewest == 0), where
    assert solver.can_force(hands, None, leader, side, 1, "min", trick=trick) == (fewest <= 1), where
    for k in (1, 0, 2):
        assert solver.solve(hands, None, leader, side, "exact", k=k, trick=trick) is ref_exact(*args, k), (*where, k)
    assert solver.can_force(hands, None, leader, side, 1, trick=trick) == (most >= 1), where
    assert solver.can_force_unchecked(hands, None, leader, trick, side, 1, False) == (fewest <= 1), where
    assert solver.can_force_unchecked(hands, None, leader, trick, side, 1, True) == (most >= 1), where
    assert solver.solve(hands, None, leader, side, "min", trick=trick) == fewest, where
