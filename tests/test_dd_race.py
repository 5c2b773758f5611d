"""The race game (a lone declarer's tricks with the side suits' ranks forgotten, ``kernel/dd/race.py``)
against brute force: it never shows more tricks than the declarer surely takes in play, it often
shows all of them, and the counts it answers stay the brute force's and DDS's."""

from __future__ import annotations

import numpy as np
import pytest

from tests.dd_reference import ref_args, ref_value
from tests.test_dd_solo_bounds import trump_ending
from wiezen_sim.cards import parse_deal
from wiezen_sim.kernel import dd as _k
from wiezen_sim.kernel.dd.race import race_test
from wiezen_sim.solvers.dd import DDSolver


def _side_ending(rng: np.random.Generator, n_cards: int, trump: int) -> np.ndarray:
    """An ending with fewer trumps than :func:`trump_ending` (side suits where ranks decide)."""
    cards = [16 * s + r for s in range(4) for r in range(2, 15)]
    chosen = rng.choice(cards, size=4 * n_cards, replace=False)
    hands = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(chosen):
        hands[i % 4] |= 1 << int(c)
    return hands


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
def test_race_never_shows_more_than_the_declarer_surely_takes(compiled_kernels, seed):
    """For every count it shows (a floor), the brute force gives the lone declarer at least that; and
    it shows the whole count on many endings (the test can fail both ways). Endings of 2–4 cards, and of
    5 in the slow seeds (20–30 s of brute force each)."""
    rng = np.random.default_rng(4900 + seed)
    table = np.zeros((1 << 12, _k.RACE_COLUMNS), dtype=np.int64)
    scratch = _k.new_scratch()
    whole = 0
    for i in range(120):
        n = int(rng.integers(2, 5 if seed == 0 else 6))
        trump = int(rng.integers(4))
        hands = (trump_ending if i % 2 else _side_ending)(rng, n, trump)
        declarer, leader = int(rng.integers(4)), int(rng.integers(4))
        most = ref_value(*ref_args(hands, trump, leader, (), 1 << declarer))
        shown = 0
        for need in range(1, n + 1):
            if race_test(hands, trump, declarer, leader, need, 1 << 20, table, scratch):
                shown = need
        assert shown <= most, (hands.tolist(), trump, declarer, leader, shown, most)
        whole += 0 < shown == most
    assert whole > 25


def _racing_solver(tt_mb: float) -> DDSolver:
    """A solver that asks the race game at every test of a lone declarer's count (not only past
    ``entry.RACE_AFTER`` trick nodes)."""
    solver = DDSolver(tt_mb=tt_mb)
    solver.stats[_k.STAT_RACE_AFTER] = 1
    return solver


def test_counts_answered_by_the_race_match_brute_force(compiled_kernels):
    """Lone declarers' counts with trumps, the race game asked at every test, equal the brute force's."""
    rng = np.random.default_rng(4950)
    solver = _racing_solver(4)
    for i in range(80):
        n = int(rng.integers(2, 5))
        trump = int(rng.integers(4))
        hands = (trump_ending if i % 2 else _side_ending)(rng, n, trump)
        declarer, leader = int(rng.integers(4)), int(rng.integers(4))
        want = ref_value(*ref_args(hands, trump, leader, (), 1 << declarer))
        assert solver.solve(hands, trump, leader, (declarer,)) == want, (hands.tolist(), trump, declarer, leader)
    assert solver.stats[_k.STAT_RACE_FLOORS] > 5


def test_a_weak_declarer_count_proved_by_the_race(compiled_kernels):
    """``S:KT832 H:872 D:Q5 C:654`` (second seat, spades trump, eldest leads) takes 1 trick: "at least 1"
    took 7.8 M trick nodes in the real game (results/benchmarks/README.md, session 41); the race game
    shows it, and the count stays 1 (DDS agrees: endplay's table in test_dd_endplay)."""
    deal = "N:Q.KQJT963.AT2.K7 KT832.872.Q5.654 A964.5.J963.T982 J75.A4.K874.AQJ3"
    hands = np.array(parse_deal(deal), dtype=np.int64)
    scratch = _k.new_scratch()
    table = np.zeros((1 << 18, _k.RACE_COLUMNS), dtype=np.int64)
    assert race_test(hands, 0, 1, 0, 1, 1 << 22, table, scratch)
    assert not race_test(hands, 0, 1, 0, 2, 1 << 22, table, scratch)  # a floor: it never shows more
    solver = _racing_solver(16)
    assert solver.solve(deal, "S", 0, (1,)) == 1
    assert solver.stats[_k.STAT_RACE_FLOORS] >= 1
    assert solver.trick_nodes < 100_000


def test_the_race_is_asked_only_of_a_lone_declarer_with_trumps(compiled_kernels):
    """Two against two, or without trump, the counts never ask it (their searches are unchanged)."""
    deal = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
    solver = _racing_solver(8)
    solver.solve(deal, "S", 1, (0, 2))
    solver.solve(deal, None, 1, (0,))
    assert solver.stats[_k.STAT_RACE_NODES] == 0


def test_a_wrongly_shaped_array_is_refused(compiled_kernels):
    """The race game views its arrays by address with the layout's shapes: another shape is an error."""
    hands = np.array(
        parse_deal("N:AKQ.AKQ.AKQ.AKQJ JT9.JT9.JT9.T987 876.876.876.6543 5432.5432.5432.2", None), np.int64
    )
    good_table = np.zeros((64, _k.RACE_COLUMNS), np.int64)
    assert race_test(hands, 0, 0, 0, 1, 100, good_table, _k.new_scratch())
    with pytest.raises(ValueError, match="not shaped"):
        race_test(hands, 0, 0, 0, 1, 100, np.zeros((64, _k.RACE_COLUMNS + 1), np.int64), _k.new_scratch())
    with pytest.raises(ValueError, match="not shaped"):
        race_test(hands, 0, 0, 0, 1, 100, good_table, np.zeros((4, 64, 16), np.int64))


def test_the_search_refuses_wrongly_shaped_arrays(compiled_kernels):
    """So does the search's entry point (its table and scratch array are viewed by address)."""
    hands = np.array(
        parse_deal("N:AKQ.AKQ.AKQ.AKQJ JT9.JT9.JT9.T987 876.876.876.6543 5432.5432.5432.2", None), np.int64
    )
    trick = np.zeros(4, np.int64)
    tt = np.zeros((1 << 12, _k.TT_COLUMNS), np.int64)
    assert _k.dd_test(hands, -1, 1, 1, 13, _k.BIG, 0, trick, 0, tt, True, _k.new_scratch())
    with pytest.raises(ValueError, match="not shaped"):
        _k.dd_test(hands, -1, 1, 1, 13, _k.BIG, 0, trick, 0, tt[:, :7].copy(), True, _k.new_scratch())
    with pytest.raises(ValueError, match="not shaped"):
        _k.dd_test(hands, -1, 1, 1, 13, _k.BIG, 0, trick, 0, tt, True, np.zeros((4, 32, 32), np.int64))
