"""The misère family (no trump, one declarer that wants few tricks) against the brute force.

Miserie (can the declarer lose every trick), the one-sided "at most one trick" test, pico
(exactly one trick), the declarer's fewest tricks and its per-card values, on random
no-trump endings of 3–4 cards per hand (5 in the slow test: the plain-Python brute force
takes about 10 s for one such ending) with the declarer at every seat, mostly holding
low cards (the positions the misère bounds of ``wiezen_sim.kernel.dd.bounds`` are about); one
solver answers every question of an ending in a row without emptying its table, as
``advise`` asks them.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.dd_reference import check_misere_ending, misere_ending, ref_args, ref_exact, ref_value
from wiezen_sim.solvers.dd import DDSolver


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
        check_misere_ending(solver, hands, leader, trick, declarer)


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
                args = ref_args(h2, None, leader, [*trick, card], side)
                want = ref_exact(*args, k) if objective == "exact" else ref_value(*args, minimise=True)
                assert v == want, (hands.tolist(), leader, trick, declarer, objective, card)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_misere_questions_larger_endings_slow(solver, seed):
    rng = np.random.default_rng(2000 + seed)
    for i in range(8):
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, 5, declarer, in_progress=i % 4 == 1)
        check_misere_ending(solver, hands, leader, trick, declarer)


def test_misere_declarer_tries_its_highest_safe_duck_first(compiled_kernels):
    """Following suit, the declarer's card that a later seat must beat is ordered as a duck (highest first).

    North leads the five of clubs; East (the declarer) holds C6 and C2; South, after it, holds
    only clubs above the six, so the six loses as surely as the two and is tried first (it keeps
    the two for a later club trick). With a club below the six in South's hand the six may win
    and comes after the two. Move ordering only: the answers are the brute force's (above).
    """
    from wiezen_sim.cards import parse_card, parse_deal
    from wiezen_sim.kernel.dd.entry import new_scratch
    from wiezen_sim.kernel.dd.layout import CANDIDATES
    from wiezen_sim.kernel.dd.moves import _gen_moves, _legal, _overtaken

    lead = parse_card("5C")
    for south, first in (("T98", "6C"), ("T94", "2C")):
        hands = np.array(parse_deal(f"N:AK... .2..62 ...{south} ..432.", cards_per_hand=None), dtype=np.int64)
        declarer, scratch = 1, new_scratch()
        legal = _legal(hands[declarer], lead >> 4)
        rem = int(hands[0] | hands[1] | hands[2] | hands[3])
        n = _gen_moves(hands, declarer, legal, rem | 1 << lead, 1, 0, lead >> 4, lead, 0, -1, 3, 1 << declarer,
                       True, -1, scratch, 0)  # fmt: skip
        assert n == 2
        assert int(scratch[CANDIDATES, 0, 0]) == parse_card(first), south
        assert _overtaken(hands, declarer, parse_card("6C"), 0) == (first == "6C")
