"""A brute-force double-dummy reference in plain Python (independent of the kernel).

Cards are ``(suit, rank)`` tuples; hands are tuples of such cards. Nothing from
``wiezen_sim.kernel`` is used here: the rules (follow suit, no obligation to trump,
highest trump else highest card of the suit led) are written out again.
"""

from __future__ import annotations

from functools import cache

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
        results = []
        for card in _legal(hands[seat], trick):
            h2 = _play(hands, seat, card)
            t2 = (*trick, card)
            if len(t2) == 4:
                w = (leader + _winner_index(t2, trump)) % 4
                r = can(h2, w, (), need - (1 if w in side else 0))
            else:
                r = can(h2, leader, t2, need)
            results.append(r)
        return any(results) if seat in side else all(results)

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
