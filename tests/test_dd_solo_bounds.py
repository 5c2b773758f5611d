"""The kernel's bounds for one declarer against three defenders, and for a side that needs every
trick left, against brute force.

Each bound claims a number of tricks "whatever anybody plays" (or under best play); the
brute force in :mod:`tests.dd_reference` checks the claim on random endings where the
bound has something to say (long trumps, a lone declarer), and the solver's values on
such endings (max, min, exact, with a trick in progress) against the minimax.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.dd_reference import SUIT_LANE, ref_args, ref_cards, ref_exact, ref_fewest, ref_value, start_trick
from wiezen_sim.cards import parse_deal
from wiezen_sim.kernel.dd.bounds import (
    _lone_sure_trick,
    _lone_trump_lead,
    _top_suit_tricks,
    _trump_behind,
    _trump_length_tricks,
)
from wiezen_sim.solvers.dd import DDSolver

ONE_VS_THREE = [0b0001, 0b0010, 0b0100, 0b1000, 0b1110, 0b1101, 0b1011, 0b0111]


def trump_ending(rng: np.random.Generator, n_cards: int, trump: int) -> np.ndarray:
    """Four hands of ``n_cards`` each, about half of the cards trumps (int64[4])."""
    trumps = [16 * trump + r for r in range(2, 15)]
    others = [16 * s + r for s in range(4) if s != trump for r in range(2, 15)]
    n_tr = min(len(trumps), int(rng.integers(n_cards, 2 * n_cards + 2)))
    chosen = [*rng.choice(trumps, size=n_tr, replace=False)]
    chosen += [*rng.choice(others, size=4 * n_cards - n_tr, replace=False)]
    order = rng.permutation(len(chosen))
    hands = np.zeros(4, dtype=np.int64)
    for i, j in enumerate(order):
        hands[i % 4] |= 1 << int(chosen[j])
    return hands


def _ref_hands(hands):
    return [ref_cards(int(h)) for h in hands]


def _trick_winner(trick, trump):
    """(winning card, its index in the trick) of a trick in progress."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if (c >> 4) == (b >> 4):
            best = i if c > b else best
        elif (c >> 4) == trump:
            best = i
    return trick[best], best


@pytest.mark.parametrize("seed", range(3))
def test_trump_length_tricks_never_claims_more_than_every_play_gives(compiled_kernels, seed):
    """The group takes at least the bound's tricks in every play (brute force over all plays),
    and the bound is tight somewhere (the test can fail both ways)."""
    rng = np.random.default_rng(1800 + seed)
    tight = 0
    for _ in range(150):
        n = int(rng.integers(1, 5))
        trump = int(rng.integers(4))
        hands = trump_ending(rng, n, trump)
        rem = int(hands[0] | hands[1] | hands[2] | hands[3])
        tr = rem & (SUIT_LANE << (16 * trump))
        group = int(rng.choice([*ONE_VS_THREE, 0b0101, 0b0011]))
        bound, rel = _trump_length_tricks(hands, tr, group)
        leader = int(rng.integers(4))
        fewest = ref_fewest(_ref_hands(hands), trump, leader, (), frozenset(s for s in range(4) if group >> s & 1))
        assert bound <= fewest, (hands.tolist(), trump, leader, group, bound, fewest)
        tight += bound == fewest and bound > 0
        if bound:  # the decisive card is one of the group's trumps
            assert rel & tr and any(int(hands[p]) & rel for p in range(4) if group >> p & 1)
    assert tight > 10


def test_trump_length_tricks_example(compiled_kernels):
    """♥JT97 against ♥A42 and ♥Q (hearts trump): the J and the T can fall to the A and the
    Q, the 9 and the 7 win (only the 4 and the 2 are left, below them); with the ♥8 beside
    the A the 7 can fall to it too."""
    hands = np.zeros(4, dtype=np.int64)
    for seat, ranks in enumerate(([11, 10, 9, 7], [14, 4, 2], [], [12])):
        for r in ranks:
            hands[seat] |= 1 << (16 + r)
    tr = int(hands[0] | hands[1] | hands[3])
    assert _trump_length_tricks(hands, tr, 0b0001) == (2, 1 << (16 + 7))
    assert _trump_length_tricks(hands, tr, 0b1110)[0] == 1  # the A
    hands[1] |= 1 << (16 + 8)
    assert _trump_length_tricks(hands, tr | 1 << (16 + 8), 0b0001) == (1, 1 << (16 + 7))


def _fewest_after(hands, trump, leader, trick, card, side):
    """Brute force: the fewest tricks ``side`` takes over every play once ``card`` is added to the
    trick in progress (its trick included)."""
    seat = (leader + len(trick)) % 4
    h2 = hands.copy()
    h2[seat] &= ~(1 << card)
    t2 = [*trick, card]
    if len(t2) < 4:
        return ref_fewest(_ref_hands(h2), trump, leader, tuple((c >> 4, c & 15) for c in t2), side)
    _, i = _trick_winner(t2, trump)
    w = (leader + i) % 4
    return (w in side) + ref_fewest(_ref_hands(h2), trump, w, (), side)


@pytest.mark.parametrize("seed", range(2))
def test_lone_sure_trick_never_claims_more_than_a_card_guarantees(compiled_kernels, seed):
    """Mid-trick, a lone seat about to play: some legal card guarantees the claimed tricks
    against every play (brute force), and the bound fires and is tight often enough for the
    test to mean something."""
    rng = np.random.default_rng(2000 + seed)
    fired = tight = 0
    for _ in range(200):
        n = int(rng.integers(1, 5))
        trump = int(rng.integers(-1, 4))
        hands = trump_ending(rng, n, max(trump, 0))
        leader = int(rng.integers(4))
        pos = int(rng.integers(1, 4))
        trick = start_trick(rng, hands, leader, pos)
        player = (leader + pos) % 4
        tricks, rel = _lone_sure_trick(hands, player, trump, trick[0] >> 4, _trick_winner(trick, trump)[0], pos)
        if tricks == 0:
            continue
        fired += 1
        hand = int(hands[player])
        legal = (hand & (SUIT_LANE << (16 * (trick[0] >> 4)))) or hand
        side = frozenset([player])
        best = max(_fewest_after(hands, trump, leader, trick, c, side) for c in range(64) if legal >> c & 1)
        assert tricks <= best, (hands.tolist(), trump, leader, trick, tricks, best)
        assert rel & hand  # the decisive cards include the card that wins
        tight += tricks == best
    assert fired > 30 and tight > 10


@pytest.mark.parametrize("seed", range(2))
def test_lone_trump_lead_never_claims_more_than_a_trump_lead_guarantees(compiled_kernels, seed):
    """A lone declarer on lead: leading one of his trumps guarantees the claimed tricks against
    every play (brute force), and the bound is tight often enough for the test to mean something."""
    rng = np.random.default_rng(2100 + seed)
    tight = 0
    for _ in range(150):
        n = int(rng.integers(1, 5))
        trump = int(rng.integers(4))
        hands = trump_ending(rng, n, trump)
        leader = int(rng.integers(4))
        tricks, rel = _lone_trump_lead(hands, leader, trump, 99)
        mine = int(hands[leader]) & (SUIT_LANE << (16 * trump))
        if not mine:
            assert tricks == 0
            continue
        side = frozenset([leader])
        best = max(_fewest_after(hands, trump, leader, [], c, side) for c in range(64) if mine >> c & 1)
        assert tricks <= best, (hands.tolist(), trump, leader, tricks, best)
        assert rel >> (16 * trump) & SUIT_LANE  # a trump decides
        tight += tricks == best and tricks > 0
    assert tight > 10


def _behind_ending(rng: np.random.Generator, declarer: int, seat_above: int):
    """A trump ending (1-4 cards a hand) in which the defenders' trumps above the declarer's
    top trump are moved, as far as card counts allow, to ``seat_above``."""
    n = int(rng.integers(1, 5))
    trump = int(rng.integers(4))
    hands = trump_ending(rng, n, trump)
    lane = SUIT_LANE << (16 * trump)
    mine = int(hands[declarer]) & lane
    if mine:
        x = mine.bit_length() - 1
        for q in range(4):
            if q in (declarer, seat_above):
                continue
            for c in [b for b in range(x + 1, 16 * trump + 15) if int(hands[q]) >> b & 1]:
                # swap with a card of seat_above that is not a trump above x
                swap = [b for b in range(64) if int(hands[seat_above]) >> b & 1 and not (b > x and lane >> b & 1)]
                if swap:
                    b = int(rng.choice(swap))
                    hands[q] ^= (1 << c) | (1 << b)
                    hands[seat_above] ^= (1 << c) | (1 << b)
    return hands, trump


@pytest.mark.parametrize("seed", range(2))
def test_lone_trump_behind_is_a_proof(compiled_kernels, seed):
    """When the bound claims a trick (the defenders' trumps above the declarer's top one all
    with its right-hand opponent, fewer than its trumps, a defender on lead), the declarer
    takes one under best play (brute force). The same claim with the higher trumps in the
    left-hand opponent's hand is false in some of these endings: the test can fail. The
    solver (which asks the bound at trick starts) finds the brute force's value on all of them."""
    rng = np.random.default_rng(2200 + seed)
    s = DDSolver(tt_mb=4, keep_table=True)
    fired = 0
    lho_false = 0
    for _ in range(250):
        declarer = int(rng.integers(4))
        rho, lho = (declarer + 3) & 3, (declarer + 1) & 3
        seat_above = rho if rng.random() < 0.7 else lho
        hands, trump = _behind_ending(rng, declarer, seat_above)
        leader = int(rng.choice([q for q in range(4) if q != declarer]))
        dec = _trump_behind(hands, 1 << declarer, trump)
        if not dec and seat_above == rho:
            continue
        best = ref_value(_ref_hands(hands), trump, leader, (), frozenset([declarer]))
        assert s.solve(hands, trump, leader, 1 << declarer) == best, (hands.tolist(), trump, leader, declarer)
        if dec:
            fired += 1
            assert best >= 1, (hands.tolist(), trump, leader, declarer)
            assert dec >> (16 * trump) & SUIT_LANE  # the declarer's top trump decides
        else:
            # the mirrored claim (higher trumps with the LHO, fewer than the declarer's trumps)
            mine = int(hands[declarer]) & (SUIT_LANE << (16 * trump))
            if mine:
                x = mine.bit_length() - 1
                h = [bin(int(hands[q]) & (SUIT_LANE << (16 * trump)) & ~((2 << x) - 1)).count("1") for q in range(4)]
                if h[lho] > 0 and h[lho] < bin(mine).count("1") and sum(h) == h[lho]:
                    lho_false += best == 0
    assert fired > 50
    assert lho_false > 0


@pytest.mark.parametrize("seed", range(2))
def test_trump_behind_is_a_proof_for_any_side(compiled_kernels, seed):
    """The same bound for a side of two or three seats (a vraag pair, three defenders): when it claims
    a trick for the side not on lead, the side takes one under best play (brute force), and the solver
    finds the brute force's value. The claim for the side on lead is false in some of these endings
    (the proof needs the right-hand opponent to play first in every trick): the test can fail."""
    rng = np.random.default_rng(2300 + seed)
    s = DDSolver(tt_mb=4, keep_table=True)
    fired = 0
    on_lead_false = 0
    for _ in range(250):
        seat = int(rng.integers(4))
        rho = (seat + 3) & 3
        mates = [q for q in range(4) if q not in (seat, rho) and rng.random() < 0.5]
        team = (1 << seat) | sum(1 << q for q in mates)
        hands, trump = _behind_ending(rng, seat, rho)
        dec = _trump_behind(hands, team, trump)
        if not dec:
            continue
        leader = int(rng.choice([q for q in range(4) if not team >> q & 1]))
        best = ref_value(*ref_args(hands, trump, leader, (), team))
        assert best >= 1, (hands.tolist(), trump, leader, team)
        assert s.solve(hands, trump, leader, team) == best, (hands.tolist(), trump, leader, team)
        assert dec >> (16 * trump) & SUIT_LANE  # a trump of the side decides
        fired += 1
        on_lead_false += ref_value(*ref_args(hands, trump, seat, (), team)) == 0
    assert fired > 40
    assert on_lead_false > 0


@pytest.mark.parametrize("seed", range(2))
def test_top_suit_tricks_side_cannot_take_every_trick(compiled_kernels, seed):
    """No trump: when a side's tricks in the suits it heads (its longest holding in each) fall short
    of the tricks left, it cannot take them all under best play (brute force), and the solver agrees.
    As a bound on the side's tricks in general it is false (a second-best card wins once the top one
    has fallen), as the last ending shows."""
    rng = np.random.default_rng(2400 + seed)
    s = DDSolver(tt_mb=4, keep_table=True)
    fired = 0
    tight = 0
    for _ in range(200):
        n = int(rng.integers(2, 5))
        deck = rng.permutation([16 * su + r for su in range(4) for r in range(2, 15)])[: 4 * n]
        hands = np.zeros(4, dtype=np.int64)
        for i, c in enumerate(deck):
            hands[i % 4] |= 1 << int(c)
        team = int(rng.choice([1, 3, 5, 7]) << int(rng.integers(4))) & 15 or 1
        leader = int(rng.integers(4))
        bound, rel = _top_suit_tricks(hands, team)
        if bound >= n:
            continue
        best = ref_value(*ref_args(hands, None, leader, (), team))
        fired += 1
        assert best <= n - 1, (hands.tolist(), leader, team, bound)
        assert s.solve(hands, None, leader, team) == best, (hands.tolist(), leader, team)
        assert not rel & ~int(hands[0] | hands[1] | hands[2] | hands[3])  # decisive cards are cards in play
        tight += best == n - 1
    assert fired > 40 and tight > 5
    # North's ♠KQ under East's ♠A: North heads no suit, yet its queen takes the second spade trick
    hands = np.array(parse_deal("N:KQ... A2... .32.. .54..", cards_per_hand=None), dtype=np.int64)
    assert _top_suit_tricks(hands, 0b0001)[0] == 0
    assert ref_value(*ref_args(hands, None, 0, (), 0b0001)) == 1 == s.solve(hands, None, 0, 0b0001)


@pytest.fixture(scope="module")
def solver(compiled_kernels):
    return DDSolver(tt_mb=16)


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])  # seed 1: 70-100 s of brute force
def test_one_vs_three_trump_endings_match_brute_force(solver, seed):
    """Max, min and exact values of a lone seat (and of its three opponents) in trump-rich
    endings of 2–5 cards, some with a trick in progress."""
    rng = np.random.default_rng(1900 + seed)
    for _ in range(60):
        n = int(rng.integers(2, 6))
        trump = int(rng.integers(4))
        hands = trump_ending(rng, n, trump)
        leader = int(rng.integers(4))
        trick = start_trick(rng, hands, leader, int(rng.integers(0, 3)))
        side = int(rng.choice(ONE_VS_THREE))
        args = ref_args(hands, trump, leader, trick, side)
        most = ref_value(*args)
        assert solver.solve(hands, trump, leader, side, trick=trick) == most, (hands.tolist(), trump, leader, trick)
        fewest = ref_value(*args, minimise=True)
        assert solver.solve(hands, trump, leader, side, "min", trick=trick) == fewest
        k = int(rng.integers(min(fewest, most), max(fewest, most) + 1))  # (min can exceed max: other games)
        assert solver.solve(hands, trump, leader, side, "exact", k=k, trick=trick) is ref_exact(*args, k)
