"""The misère family (no trump, one declarer that wants few tricks) against the brute force.

Miserie (can the declarer lose every trick), the one-sided "at most one trick" test, pico
(exactly one trick), the declarer's fewest tricks and its per-card values, on random
no-trump endings of 3–4 cards per hand (5 in the slow test: the plain-Python brute force
takes about 10 s for one such ending) with the declarer at every seat, mostly holding
low cards (the positions the misère bounds of ``wiezen_sim.kernel.dd.misere`` are about); one
solver answers every question of an ending in a row without emptying its table, as
``advise`` asks them.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.dd_reference import ref_exact, ref_value
from tests.test_dd_reference import _ref_args
from wiezen_sim.solvers.dd import DDSolver


def misere_ending(rng: np.random.Generator, n_cards: int, declarer: int, in_progress: bool):
    """(hands int64[4], leader, trick list): no trump, the declarer dealt mostly low cards.

    The deck is a compact one (ranks from a random low rank up: more cards of a suit meet)
    or the full deck; the declarer draws its cards from the lower half of the deck with
    probability 0.7 each, so it holds some high cards too.
    """
    low = int(rng.integers(2, 8))
    deck = [16 * s + r for s in range(4) for r in range(low, 15)]
    if len(deck) < 4 * n_cards or rng.random() < 0.3:
        deck = [16 * s + r for s in range(4) for r in range(2, 15)]
    deck = [int(c) for c in rng.permutation(deck)]
    by_rank = sorted(deck, key=lambda c: c & 15)
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
    trick: list[int] = []
    if in_progress:
        for i in range(int(rng.integers(0, 4))):
            seat = (leader + i) % 4
            hand = int(hands[seat])
            if trick:
                hand = (hand & (0x7FFC << (16 * (trick[0] >> 4)))) or hand
            card = int(rng.choice([b for b in range(64) if hand >> b & 1]))
            hands[seat] &= ~(1 << card)
            trick.append(card)
    return hands, leader, trick


def _check_ending(solver, hands, leader, trick, declarer):
    side = 1 << declarer
    args = _ref_args(hands, None, leader, trick, side)
    fewest = ref_value(*args, minimise=True)
    most = ref_value(*args)
    where = (hands.tolist(), leader, trick, declarer)
    assert solver.can_force(hands, None, leader, side, 0, "min", trick=trick) == (fewest == 0), where
    assert solver.can_force(hands, None, leader, side, 1, "min", trick=trick) == (fewest <= 1), where
    for k in (1, 0, 2):
        assert solver.solve(hands, None, leader, side, "exact", k=k, trick=trick) is ref_exact(*args, k), (*where, k)
    assert solver.can_force(hands, None, leader, side, 1, trick=trick) == (most >= 1), where
    assert solver.solve(hands, None, leader, side, "min", trick=trick) == fewest, where


@pytest.fixture(scope="module")
def solver(compiled_kernels):
    return DDSolver(tt_mb=16, keep_table=True)


@pytest.mark.parametrize("seed", range(3))
def test_misere_questions_match_brute_force(solver, seed):
    rng = np.random.default_rng(1800 + seed)
    for i in range(50):
        n = int(rng.choice([3, 4], p=[0.4, 0.6]))
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, n, declarer, in_progress=i % 3 == 0)
        _check_ending(solver, hands, leader, trick, declarer)


@pytest.mark.parametrize("seed", range(2))
def test_misere_card_values_match_brute_force(solver, seed):
    rng = np.random.default_rng(1900 + seed)
    for _ in range(25):
        declarer = int(rng.integers(4))
        hands, leader, trick = misere_ending(rng, int(rng.choice([3, 4])), declarer, in_progress=True)
        side = 1 << declarer
        seat = (leader + len(trick)) % 4
        for objective, k in (("min", None), ("exact", 1)):
            values = solver.card_values(hands, None, leader, side, objective, k=k, trick=trick)
            for card, v in values.items():
                if len(trick) == 3:
                    continue  # the trick ends: checked through the questions of the next trick
                h2 = hands.copy()
                h2[seat] &= ~(1 << card)
                args = _ref_args(h2, None, leader, [*trick, card], side)
                want = ref_exact(*args, k) if objective == "exact" else ref_value(*args, minimise=True)
                assert v == want, (hands.tolist(), leader, trick, declarer, objective, card)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_misere_questions_larger_endings_slow(solver, seed):
    rng = np.random.default_rng(2000 + seed)
    for i in range(8):
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, 5, declarer, in_progress=i % 4 == 1)
        _check_ending(solver, hands, leader, trick, declarer)


def _rearranged(rng: np.random.Generator, hands: np.ndarray, rel: int, fixed: int = 0) -> np.ndarray:
    """A position matching ``hands`` on the table's key for the decisive cards ``rel`` (top
    segments, ``wiezen_sim.kernel.dd.table``): the same owners of every card at or above the
    lowest card of ``rel`` in its suit, the same cards of each suit in each hand, the cards
    below dealt again at random among their holders (``fixed``: cards left out, e.g. a trick's)."""
    out = hands.copy()
    for s in range(4):
        lane_rel = (rel >> (16 * s)) & 0x7FFC
        low = (lane_rel & -lane_rel).bit_length() - 1 if lane_rel else 15
        small = [16 * s + r for r in range(2, low) if any(int(h) >> (16 * s + r) & 1 for h in hands)]
        small = [c for c in small if not fixed >> c & 1]
        holders = [p for c in small for p in range(4) if int(hands[p]) >> c & 1]
        for c in small:
            for p in range(4):
                out[p] &= ~(1 << c)
        for c, p in zip(rng.permutation(small), rng.permutation(holders), strict=True):
            out[p] |= 1 << int(c)
    return out


def _fewest(hands, leader, trick, declarer):
    return ref_value(*_ref_args(hands, None, leader, trick, 1 << declarer), minimise=True)


def test_never_wins_and_its_decisive_cards_against_brute_force(compiled_kernels):
    """Where the misère declarer is shown never to win again (ducks condition, guarded suits),
    the brute force finds a play that loses every trick, also in positions that differ only
    below the decisive cards' segments (which the transposition table treats as the same)."""
    from wiezen_sim.kernel.dd.misere import _never_wins

    rng = np.random.default_rng(2100)
    shown = smaller = 0
    for i in range(300):
        declarer = i % 4
        hands, _leader, _ = misere_ending(rng, int(rng.choice([3, 4])), declarer, in_progress=False)
        rel = _never_wins(hands, -1, 1 << declarer, True, -1, 0)
        if rel < 0:
            continue
        shown += 1
        leader = (declarer + 1 + int(rng.integers(3))) % 4
        assert _fewest(hands, leader, [], declarer) == 0, (hands.tolist(), declarer)
        for _ in range(3):
            other = _rearranged(rng, hands, rel)
            smaller += int(not np.array_equal(other, hands))
            assert _fewest(other, leader, [], declarer) == 0, (hands.tolist(), other.tolist(), declarer, rel)
    assert shown >= 40 and smaller >= 40, (shown, smaller)


def test_misere_trick_bound_against_brute_force(compiled_kernels):
    """Mid-trick: a declarer that has lost the trick and is shown never to win again loses
    every trick under best play (also below its decisive segments), and one that is shown
    to take the trick if the defenders duck takes at least one (brute force)."""
    from wiezen_sim.kernel.dd.misere import _misere_trick_bound

    rng = np.random.default_rng(2200)
    seen = {0: 0, 1: 0}
    for i in range(400):
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, int(rng.choice([3, 4])), declarer, in_progress=True)
        if not trick:
            continue
        tl = int(hands[(leader + len(trick)) % 4]).bit_count()
        win_card = max(c for c in trick if c >> 4 == trick[0] >> 4)
        win_seat = (leader + trick.index(win_card)) % 4
        trick_mask = sum(1 << c for c in trick)
        others = 15 ^ (1 << declarer)
        # "the defenders take all tl tricks" (the declarer maximises, not counted)
        answer, rel = _misere_trick_bound(hands, 1 << declarer, others, tl, 99, tl, leader, len(trick), trick[0] >> 4,
                                          win_card, win_seat, trick_mask)  # fmt: skip
        if answer < 0:
            continue
        seen[answer] += 1
        fewest = _fewest(hands, leader, trick, declarer)
        assert (fewest == 0) == (answer == 1), (hands.tolist(), leader, trick, declarer)
        if answer == 1:
            for _ in range(2):
                other = _rearranged(rng, hands, rel, trick_mask)
                assert _fewest(other, leader, trick, declarer) == 0, (hands.tolist(), other.tolist(), trick, rel)
    assert seen[0] >= 15 and seen[1] >= 15, seen
