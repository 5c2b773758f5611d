"""Double-dummy solver against a brute-force plain-Python minimax on random endings.

Endings of 1–5 cards per hand, every trump, a trick in progress in most of them, sides
1 vs 3, 2 vs 2 with partners opposite and adjacent; objectives max, min, exact and the
target mode; per-card values. Plus invariants on larger endings: the two sides' tricks
sum to the tricks left, rotating seats rotates results, the transposition table changes
nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.dd_reference import assert_max_matches, ref_args, ref_exact, ref_value, start_trick
from wiezen_sim.cards import parse_deal, parse_hand
from wiezen_sim.kernel.dd import HEAD_SHARE, STAT_EXACT_BUDGET, STAT_TRICK_NODES, STAT_TT_ENTRIES, STAT_TT_PROBES
from wiezen_sim.solvers.dd import DDSolver, NodeLimitExceeded

SIDES = [0b0001, 0b0010, 0b0100, 0b1000, 0b0101, 0b1010, 0b0011, 0b0110, 0b1100, 0b1001, 0b1110, 0b0111]


def random_ending(rng: np.random.Generator, n_cards: int, in_progress: bool = True):
    """(hands int64[4], trump, leader, trick list) — a random ending, maybe mid-trick."""
    if rng.random() < 0.5:
        deck = [16 * s + r for s in range(4) for r in range(2, 15)]
    else:  # a compact deck: more suit contact, more interesting endings
        low = int(rng.integers(2, 10))
        deck = [16 * s + r for s in range(4) for r in range(low, 15)]
        if len(deck) < 4 * n_cards:
            deck = [16 * s + r for s in range(4) for r in range(2, 15)]
    chosen = rng.choice(deck, size=4 * n_cards, replace=False)
    hands = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(chosen):
        hands[i % 4] |= 1 << int(c)
    suit = int(rng.integers(-1, 4))
    trump = None if suit < 0 else suit  # the public value; the reference codes no trump -1
    leader = int(rng.integers(4))
    trick = start_trick(rng, hands, leader, int(rng.integers(0, 4))) if in_progress else []
    return hands, trump, leader, trick


def _sizes(rng, n):
    return rng.choice([1, 2, 3, 4, 5], size=n, p=[0.15, 0.25, 0.3, 0.22, 0.08])


@pytest.fixture(scope="module")
def solver(compiled_kernels):
    return DDSolver(tt_mb=16)


@pytest.mark.parametrize("seed", range(2))
def test_max_and_target_match_brute_force(solver, seed):
    rng = np.random.default_rng(100 + seed)
    for n in _sizes(rng, 120):
        hands, trump, leader, trick = random_ending(rng, int(n))
        assert_max_matches(solver, rng, hands, trump, leader, trick, int(rng.choice(SIDES)), (0, n + 2))


@pytest.mark.parametrize("seed", range(2))
def test_min_matches_brute_force(solver, seed):
    rng = np.random.default_rng(200 + seed)
    for n in _sizes(rng, 100):
        hands, trump, leader, trick = random_ending(rng, int(n))
        side = int(rng.choice(SIDES))
        want = ref_value(*ref_args(hands, trump, leader, trick, side), minimise=True)
        assert solver.solve(hands, trump, leader, side, "min", trick=trick) == want, (hands, trump, leader, trick, side)
        t = int(rng.integers(0, n + 1))
        assert solver.can_force(hands, trump, leader, side, t, "min", trick=trick) == (want <= t)


@pytest.mark.parametrize("seed", range(2))
def test_exact_matches_brute_force(solver, seed):
    rng = np.random.default_rng(300 + seed)
    for n in _sizes(rng, 100):
        hands, trump, leader, trick = random_ending(rng, int(n))
        side = int(rng.choice(SIDES))
        k = int(rng.integers(0, n + 1))
        want = ref_exact(*ref_args(hands, trump, leader, trick, side), k)
        got = solver.solve(hands, trump, leader, side, "exact", k=k, trick=trick)
        assert got is want, (hands, trump, leader, trick, side, k)


def _exact_questions(rng, sizes, n_endings):
    """Random endings with a trump suit and partners (two hands to crash the top trumps
    in), each with every k from the side's min to its max (min < max): the exact
    questions no bound settles (a uniform k mostly asks the easy ones)."""
    asked = 0
    while asked < n_endings:
        hands, trump, leader, trick = random_ending(rng, int(rng.choice(sizes)))
        if trump is None:
            continue
        side = int(rng.choice([s for s in SIDES if s.bit_count() == 2]))
        args = ref_args(hands, trump, leader, trick, side)
        low, high = ref_value(*args, minimise=True), ref_value(*args)
        if low == high:
            continue
        asked += 1
        for k in range(low, high + 1):
            yield hands, trump, leader, trick, side, k, ref_exact(*args, k)


@pytest.mark.parametrize("seed", range(2))
def test_exact_between_min_and_max_matches_brute_force(solver, seed):
    for hands, trump, leader, trick, side, k, want in _exact_questions(np.random.default_rng(350 + seed), [3, 4], 250):
        got = solver.solve(hands, trump, leader, side, "exact", k=k, trick=trick)
        assert got is want, (hands, trump, leader, trick, side, k)


@pytest.mark.parametrize("budget", [1, 2**40])
def test_exact_with_its_first_test_cut_off_or_not(compiled_kernels, budget):
    """An exact question first tests "at least k" within a budget of trick nodes
    (``entry.EXACT_PRECHECK_BUDGET``): cut off at once (budget 1) or never, every answer is the
    brute force's, on the questions no bound settles and on pico-like ones (one seat, no trump)."""
    s = DDSolver(tt_mb=4)
    s.stats[STAT_EXACT_BUDGET] = budget
    rng = np.random.default_rng(370)
    for hands, trump, leader, trick, side, k, want in _exact_questions(rng, [3, 4], 60):
        assert s.solve(hands, trump, leader, side, "exact", k=k, trick=trick) is want, (hands, trump, side, k)
    for n in _sizes(rng, 80):
        hands, _, leader, trick = random_ending(rng, int(n))
        side = 1 << int(rng.integers(4))
        k = int(rng.integers(0, 3))
        want = ref_exact(*ref_args(hands, None, leader, trick, side), k)
        assert s.solve(hands, None, leader, side, "exact", k=k, trick=trick) is want, (hands, leader, trick, side, k)


def test_exact_first_test_keeps_the_node_limit(compiled_kernels):
    """The first test's budget never hides the question's own node limit (smaller here); after a
    question passed it the solver answers the next one correctly."""
    rng = np.random.default_rng(380)
    limited = DDSolver(tt_mb=4, node_limit=20)
    plain = DDSolver(tt_mb=4)
    hits = 0
    for _ in range(30):
        hands, _, leader, _ = random_ending(rng, 7, in_progress=False)
        side = 1 << int(rng.integers(4))
        want = plain.solve(hands, None, leader, side, "exact", k=1)
        try:
            got = limited.solve(hands, None, leader, side, "exact", k=1)
        except NodeLimitExceeded:
            hits += 1
            continue
        assert got is want
    assert hits > 0 and limited.limit_hits == hits


def test_exact_when_the_side_can_crash_its_top_trumps(solver):
    """North–South (♦K5 with South, ♦9 with North, diamonds trump) can take exactly 1 trick:
    the brute force says so, and leading ♦9 (card 41) is the way.

    Regression: the trump bound counted the two top trumps in two hands of one side as two
    sure tricks also for an exact count, where the side may want to play both to one trick.
    """
    deal = "N:.A.9.J3 Q.Q.76. T..K5.K J9.2..8"
    hands = np.array(parse_deal(deal, cards_per_hand=None), dtype=np.int64)
    assert ref_exact(*ref_args(hands, 2, 0, [], 0b0101), 1)
    assert solver.solve(deal, "D", 0, 0b0101, "exact", k=1) is True
    assert solver.card_values(deal, "D", 0, 0b0101, "exact", k=1)[41] is True


@pytest.mark.parametrize("objective", ["max", "min", "exact"])
def test_card_values_match_brute_force(solver, objective):
    rng = np.random.default_rng(400 + len(objective))
    for n in _sizes(rng, 30):
        hands, trump, leader, trick = random_ending(rng, int(n))
        side = int(rng.choice(SIDES))
        k = int(rng.integers(0, n + 1))
        values = solver.card_values(hands, trump, leader, side, objective, k=k if objective == "exact" else None,
                                    trick=trick)  # fmt: skip
        seat = (leader + len(trick)) % 4
        hand = int(hands[seat])
        if trick:
            hand = (hand & (0x7FFC << (16 * (trick[0] >> 4)))) or hand
        assert sorted(values) == [b for b in range(64) if hand >> b & 1]
        for card, v in values.items():
            h2 = hands.copy()
            h2[seat] &= ~(1 << card)
            t2 = [*trick, card]
            if len(t2) == 4:  # finish the trick by hand with the reference's own rule
                args = ref_args(h2, trump, leader, [], side)
                cards = [(c >> 4, c & 15) for c in t2]
                best = 0
                for i in range(1, 4):
                    if cards[i][0] == cards[best][0]:
                        best = i if cards[i][1] > cards[best][1] else best
                    elif cards[i][0] == trump:
                        best = i
                w = (leader + best) % 4
                got_trick = 1 if side >> w & 1 else 0
                args = (args[0], args[1], w, (), args[4])
                if objective == "exact":
                    want = ref_exact(*args, k - got_trick)
                else:
                    want = got_trick + ref_value(*args, minimise=objective == "min")
            else:
                args = ref_args(h2, trump, leader, t2, side)
                want = ref_exact(*args, k) if objective == "exact" else ref_value(*args, minimise=objective == "min")
            assert v == want, (hands, trump, leader, trick, side, objective, k, card)


def test_a_seat_that_could_duck_everything_still_wins_when_it_wants(solver):
    """West leads; South (♥Q3 ♦7) could play under every heart, but wants tricks: ♥Q wins one.

    Regression: a misère-only shortcut (the seat can avoid winning) was once applied to a
    seat that wants to win.
    """
    hands = np.array([parse_hand(h) for h in ("S:J C:T8", "S:4 D:3 C:3", "H:Q3 D:7", "H:J D:A C:J")], dtype=np.int64)
    args = ref_args(hands, None, 3, [], 0b0100)
    assert ref_value(*args) == 1
    assert solver.solve(hands, "NT", 3, 0b0100) == 1
    assert solver.solve(hands, "NT", 3, 0b0100, "min") == ref_value(*args, minimise=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_many_more_endings_slow(solver, seed):
    rng = np.random.default_rng(900 + seed)
    for n in _sizes(rng, 300):
        hands, trump, leader, trick = random_ending(rng, int(n))
        side = int(rng.choice(SIDES))
        args = ref_args(hands, trump, leader, trick, side)
        assert solver.solve(hands, trump, leader, side, trick=trick) == ref_value(*args)
        assert solver.solve(hands, trump, leader, side, "min", trick=trick) == ref_value(*args, minimise=True)
        k = int(rng.integers(0, n + 1))
        assert solver.solve(hands, trump, leader, side, "exact", k=k, trick=trick) is ref_exact(*args, k)
    for hands, trump, leader, trick, side, k, want in _exact_questions(rng, [4, 5], 100):
        assert solver.solve(hands, trump, leader, side, "exact", k=k, trick=trick) is want


# ------------------------------------------------------------------ invariants


def _rotate(hands, by):
    return np.array([hands[(s - by) % 4] for s in range(4)], dtype=np.int64)


def _rot_mask(mask, by):
    return sum(1 << ((s + by) % 4) for s in range(4) if mask >> s & 1)


@pytest.mark.parametrize("seed", range(2))
def test_sides_sum_rotation_and_table_off(compiled_kernels, seed):
    rng = np.random.default_rng(500 + seed)
    on = DDSolver(tt_mb=16)
    off = DDSolver(tt_mb=1, use_tt=False)
    for _ in range(20):
        n = int(rng.integers(5, 8))
        hands, trump, leader, trick = random_ending(rng, n)
        tl = n
        side = int(rng.choice(SIDES))
        v = on.solve(hands, trump, leader, side, trick=trick)
        other = on.solve(hands, trump, leader, 15 ^ side, trick=trick)
        assert v + other == tl
        assert off.solve(hands, trump, leader, side, trick=trick) == v
        by = int(rng.integers(1, 4))
        assert on.solve(_rotate(hands, by), trump, (leader + by) % 4, _rot_mask(side, by), trick=trick) == v
        vmin = on.solve(hands, trump, leader, side, "min", trick=trick)
        assert off.solve(hands, trump, leader, side, "min", trick=trick) == vmin
        k = int(rng.integers(0, n + 1))
        ex = on.solve(hands, trump, leader, side, "exact", k=k, trick=trick)
        assert off.solve(hands, trump, leader, side, "exact", k=k, trick=trick) is ex
        assert (
            on.solve(_rotate(hands, by), trump, (leader + by) % 4, _rot_mask(side, by), "exact", k=k, trick=trick) is ex
        )


def test_clear_empties_the_table(compiled_kernels):
    """Clearing resets exactly the heads the stored entries use: afterwards every chain head
    and code set (the last 1 / HEAD_SHARE of the rows) is zero again."""
    solver = DDSolver(tt_mb=16)
    heads = solver.tt[-(solver.tt.shape[0] // HEAD_SHARE) :]
    solver.solve("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "S", 1, 0b0101)
    assert solver.stats[STAT_TT_ENTRIES] > 0 and heads.any()
    solver.clear()
    assert solver.stats[STAT_TT_ENTRIES] == 0 and not heads.any()


def test_table_lookups_walk_short_chains(compiled_kernels):
    """A lone declarer's exact count (a suite deal of issue 18: dealer, diamonds trump, 705 k
    trick nodes) compares few table entries per lookup. Its entries share lengths, code and
    top-card owners and differ in the owners of lower cards; before the chain hash covered
    the top two cards of partly relevant suits, a lookup compared 44 entries a trick node."""
    solver = DDSolver(tt_mb=32)
    deal = "N:T8764.65.AJ5.K87 AJ2.A43.KT64.J64 KQ95.KJ8.Q982.QT 3.QT972.73.A9532"
    assert solver.solve(deal, "D", 0, 0b1000) == 1
    assert solver.stats[STAT_TT_PROBES] < 25 * solver.stats[STAT_TRICK_NODES]


def test_node_count_does_not_depend_on_earlier_questions(compiled_kernels):
    """After ``clear`` a question visits the same nodes whatever was asked before (the move
    ordering's killer leads are reset too), so ``node_limit`` depends only on the question."""
    first = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
    second = "N:AKQ2.J54.T98.K72 J98.AK76.Q54.Q98 T765.QT9.AK2.J43 43.832.J763.AT65"
    fresh = DDSolver(tt_mb=16)
    value = fresh.solve(second, "NT", 1, 0b0101)
    used = DDSolver(tt_mb=16)
    used.solve(first, "H", 2, 0b1010)
    used.clear()
    n0 = used.nodes
    assert used.solve(second, "NT", 1, 0b0101) == value
    assert used.nodes - n0 == fresh.nodes


def _low_side_ending(rng: np.random.Generator, n_cards: int, side: int):
    """(hands, trump, leader, trick): the side's seats dealt mostly low cards (each from the
    lower half of the deck with probability 0.8), the others the rest; maybe mid-trick."""
    hands, trump, leader, trick = random_ending(rng, n_cards, in_progress=False)
    deck = sorted((b for h in hands for b in range(64) if int(h) >> b & 1), key=lambda c: c & 15)
    mine = [s for s in range(4) if side >> s & 1]
    theirs = [s for s in range(4) if not side >> s & 1]
    hands[:] = 0
    pool = list(deck)
    for i in range(n_cards * len(mine)):
        low = pool[: max(1, len(pool) // 2)]
        c = int(rng.choice(low if rng.random() < 0.8 else pool))
        pool.remove(c)
        hands[mine[i % len(mine)]] |= 1 << c
    for i, c in enumerate(int(c) for c in rng.permutation(pool)):
        hands[theirs[i % len(theirs)]] |= 1 << c
    played = int(rng.integers(0, 4))
    for i in range(played):
        seat = (leader + i) % 4
        hand = int(hands[seat])
        if trick:
            hand = (hand & (0x7FFC << (16 * (trick[0] >> 4)))) or hand
        card = int(rng.choice([b for b in range(64) if hand >> b & 1]))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return hands, trump, leader, trick


@pytest.mark.parametrize("seed", range(2))
def test_exact_against_the_other_sides_quick_tricks_matches_brute_force(solver, seed):
    """Exact questions of a side holding low cards (pico's shape: the other side can often
    cash every trick, which settles "exactly k" for any k >= 1), every k from 0 to one
    above the side's most tricks, against the brute force."""
    rng = np.random.default_rng(380 + seed)
    for _ in range(60):
        side = int(rng.choice(SIDES))
        hands, trump, leader, trick = _low_side_ending(rng, int(rng.choice([2, 3, 4])), side)
        args = ref_args(hands, trump, leader, trick, side)
        for k in range(ref_value(*args) + 2):
            got = solver.solve(hands, trump, leader, side, "exact", k=k, trick=trick)
            assert got is ref_exact(*args, k), (hands, trump, leader, trick, side, k)


def test_pico_is_refuted_at_once_when_the_defenders_cash_every_trick(compiled_kernels):
    """North (♠A ♥32) cannot take exactly one trick: East leads ♥A, ♥K, ♥Q and North must
    discard the ♠A on the third. The defenders' quick tricks refute the exact question at
    the first trick's start, which the never-wins bound cannot (the ♠A is above the ♠K)."""
    deal = "N:A.32.. .AKQ.. K.JT.. .987.."
    args = ref_args(parse_deal(deal, cards_per_hand=None), None, 1, [], 0b0001)
    assert not ref_exact(*args, 1) and ref_value(*args) == 0
    fresh = DDSolver(tt_mb=16)
    assert fresh.solve(deal, "NT", 1, 0b0001, "exact", k=1) is False
    assert fresh.trick_nodes == 1
