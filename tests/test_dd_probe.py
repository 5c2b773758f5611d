"""Probing a lone declarer's defenders' early leads (kernel/dd/search.py, PROBE_TL), and a misère
declarer's defenders' cards (MISERE_PROBE_TL).

The defenders' leads at a trick's start are searched within budgets of trick nodes before
any is searched in full; a search cut off by its budget stores nothing and is tried
again. Results must not change: against the brute-force minimax on random 1-vs-3 endings
with trumps (probing switched on from 2 tricks left, with budgets of 1-3 trick nodes so
that probes are cut off all the time; the declarer often weak), against the search without
probing on larger endings, and under the solver's node limit. And the slow question that
motivated it stays cheap.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from tests.dd_reference import assert_max_matches, check_misere_ending, misere_ending, start_trick
from wiezen_sim.kernel.dd import STAT_PROBE_BUDGET, STAT_PROBE_TL
from wiezen_sim.solvers.dd import DDSolver, NodeLimitExceeded


def _probing(budget: int, from_tl: int = 2, **kw) -> DDSolver:
    s = DDSolver(tt_mb=4, **kw)
    s.stats[STAT_PROBE_TL] = from_tl
    s.stats[STAT_PROBE_BUDGET] = budget
    return s


def lone_ending(rng: np.random.Generator, n_cards: int, in_progress: bool = True):
    """(hands, trump, leader, trick, declarer): a random ending with trumps for one seat
    against three; in half of them the declarer holds the lower half of its cards' pool
    (a weak declarer, whose defenders must prove it takes few tricks)."""
    low = int(rng.integers(2, 8)) if rng.random() < 0.5 else 2
    deck = [16 * s + r for s in range(4) for r in range(low, 15)]
    if len(deck) < 4 * n_cards:
        deck = [16 * s + r for s in range(4) for r in range(2, 15)]
    chosen = [int(c) for c in rng.choice(deck, size=4 * n_cards, replace=False)]
    declarer = int(rng.integers(4))
    hands = np.zeros(4, dtype=np.int64)
    if rng.random() < 0.5:
        pool = sorted(chosen[: 2 * n_cards], key=lambda c: c & 15)
        mine, rest = pool[:n_cards], pool[n_cards:] + chosen[2 * n_cards :]
    else:
        mine, rest = chosen[:n_cards], chosen[n_cards:]
    for c in mine:
        hands[declarer] |= 1 << c
    others = [s for s in range(4) if s != declarer]
    for i, c in enumerate(rest):
        hands[others[i % 3]] |= 1 << c
    trump = int(rng.integers(0, 4))
    leader = int(rng.integers(4))
    trick = start_trick(rng, hands, leader, int(rng.integers(0, 4))) if in_progress else []
    return hands, trump, leader, trick, declarer


@pytest.mark.parametrize("seed", range(3))
def test_probing_matches_brute_force_on_lone_endings(compiled_kernels, seed):
    rng = np.random.default_rng(900 + seed)
    solvers = [_probing(1), _probing(3), _probing(2, use_tt=False)]
    for n in rng.choice([2, 3, 4, 5], size=70, p=[0.2, 0.3, 0.35, 0.15]):
        hands, trump, leader, trick, declarer = lone_ending(rng, int(n), in_progress=rng.random() < 0.4)
        for s in solvers:
            assert_max_matches(s, rng, hands, trump, leader, trick, 1 << declarer, (1, n + 1))


@pytest.mark.parametrize("seed", range(2))
def test_probing_changes_no_answer_on_larger_endings(compiled_kernels, seed):
    rng = np.random.default_rng(950 + seed)
    plain = _probing(1, from_tl=99)  # probing off
    probing = [_probing(1), _probing(16, from_tl=5)]
    for _ in range(25):
        hands, trump, leader, _, declarer = lone_ending(rng, int(rng.integers(6, 9)), in_progress=False)
        side = 1 << declarer
        want = plain.solve(hands, trump, leader, side)
        for s in probing:
            assert s.solve(hands, trump, leader, side) == want, (hands, trump, leader, side)


def test_probing_keeps_the_node_limit(compiled_kernels):
    """A probe's budget never hides the question's own limit; after a question passed it the
    solver answers the next one correctly."""
    rng = np.random.default_rng(990)
    limited = _probing(1, node_limit=20)
    plain = _probing(1, from_tl=99)
    hits = 0
    for _ in range(30):
        hands, trump, leader, _, declarer = lone_ending(rng, 7, in_progress=False)
        side = 1 << declarer
        want = plain.solve(hands, trump, leader, side)
        try:
            got = limited.solve(hands, trump, leader, side)
        except NodeLimitExceeded:
            hits += 1
            assert limited.trick_nodes > 0
            continue
        assert got == want
    assert hits > 0


def test_the_weak_solo_declarers_count_is_cheap(compiled_kernels):
    """advise's solo count of deal 3 of ``S:T53 H:J964 D:732 C:T32`` third, turned QH, seed 1
    (hearts trumps, the declarer seat 2 takes no trick): 6.2 M trick nodes when the
    defenders' opening ace of trumps (the ordering's first lead, which gives the declarer a
    trick) was searched in full before the low trump that refutes; about 11 000 with probing."""
    hands = np.array([1166436840067065876, 630620564793066112, 291608677340677160, 7133720777202864448], np.int64)
    s = DDSolver(tt_mb=32, node_limit=200_000)
    with contextlib.suppress(NodeLimitExceeded):
        assert s.solve(hands, 1, 0, 4) == 0
    assert s.trick_nodes < 200_000


@pytest.mark.parametrize("seed", range(2))
def test_misere_probing_matches_brute_force(compiled_kernels, seed):
    """The misère defenders' probing (MISERE_PROBE_TL), switched on from 2 tricks left with budgets of 1-3
    trick nodes that grow 16-fold a round: every misère-family question of random no-trump endings is the
    brute force's."""
    rng = np.random.default_rng(1700 + seed)
    solvers = [_probing(1), _probing(3), _probing(2, use_tt=False)]
    for i in range(30):
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, int(rng.choice([3, 4])), declarer, in_progress=i % 3 == 0)
        for s in solvers:
            check_misere_ending(s, hands, leader, trick, declarer)


def test_misere_probing_changes_no_answer_on_larger_endings(compiled_kernels):
    """On misère endings of 8 and 9 cards the questions get the same answers with probing off, with the
    default probing (from 8 tricks left) and with budgets of one trick node from 5 tricks left."""
    rng = np.random.default_rng(1750)
    plain = _probing(1, from_tl=99)  # probing off
    probing = [DDSolver(tt_mb=4), _probing(1, from_tl=5)]
    for i in range(12):
        declarer = i % 4
        hands, leader, _ = misere_ending(rng, 8 + i % 2, declarer, in_progress=False)
        side = 1 << declarer
        for k in (0, 1):
            want = plain.can_force(hands, None, leader, side, k, "min")
            for s in probing:
                assert s.can_force(hands, None, leader, side, k, "min") == want, (hands.tolist(), leader, side, k)
