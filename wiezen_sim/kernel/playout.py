"""Random numbers, deal sampling and playout policies (numba; DESIGN.md layer 3).

The random generator is SplitMix64 on an explicit state so that results depend only
on the seed (never on numba's global generator or on threads):

    rng: uint64[1] — ``rng[0]`` is the SplitMix64 state; create it with ``rng_new(seed)``.

Other arrays:
    hands: int64[n_players] — ``hands[seat]`` = mask of the cards the seat holds.
    need:  int64[n_players] — number of cards each seat must receive when sampling.
    tricks (returned by ``playout``): int64[n_players] — tricks won per seat.

Policies: ``POLICY_RANDOM`` plays a uniformly random legal card; ``POLICY_HEURISTIC``
cashes the highest remaining card of a suit when on lead (else leads low from the
longest suit), wins as cheaply as possible when an opponent is winning the trick and
otherwise plays its lowest card (non-trumps first). ``side_mask`` (bit s = seat s)
tells the heuristic who are partners.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.trick import beats, legal_mask

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


@njit(cache=True)
def rng_new(seed):
    """A new generator state (uint64[1]) from a non-negative integer seed."""
    state = np.zeros(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    return state


@njit(cache=True)
def rng_next(state):
    """Next 64-bit output (uint64) of SplitMix64; advances ``state`` in place."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def rng_below(state, n):
    """Uniform integer in ``0 .. n-1`` (int64; ``n`` ≥ 1, bias below 2**-50)."""
    return np.int64(rng_next(state) % np.uint64(n))


@njit(cache=True)
def random_card(mask, state):
    """A uniformly random card (bit number) of a non-empty mask."""
    k = rng_below(state, popcount(mask))
    m = mask
    for _ in range(k):
        m &= m - 1
    return lowest_index(m)


@njit(cache=True)
def sample_deal(state, hands, need, unseen):
    """Deal the ``unseen`` cards at random on top of the known cards.

    Args:
        state: uint64[1] generator state (advanced in place).
        hands: int64[n] known cards of each seat (not modified).
        need: int64[n] number of unseen cards each seat receives; must sum to the
            number of cards in ``unseen``.
        unseen: mask of the cards to distribute.

    Returns:
        int64[n]: the completed hands.
    """
    n = hands.shape[0]
    total = popcount(unseen)
    cards = np.empty(total, dtype=np.int64)
    m = unseen
    for i in range(total):
        cards[i] = lowest_index(m)
        m &= m - 1
    # Fisher–Yates shuffle
    for i in range(total - 1, 0, -1):
        j = rng_below(state, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    out = hands.copy()
    k = 0
    for seat in range(n):
        for _ in range(need[seat]):
            out[seat] |= 1 << cards[k]
            k += 1
    return out


@njit(cache=True)
def lowest_rank_card(mask, trump):
    """Lowest-ranked card of a non-empty ``mask``, side suits before trumps."""
    best = -1
    best_rank = 99
    for s in range(4):
        lane = (mask >> (16 * s)) & LANE
        if lane == 0 or s == trump:
            continue
        r = lowest_index(lane)
        if r < best_rank:
            best_rank = r
            best = 16 * s + r
    if best < 0:
        best = lowest_index(mask)
    return best


@njit(cache=True)
def _heuristic_card(hands, seat, n_players, pos, lead_suit, win_card, win_seat, trump, must_trump, side_mask):
    hand = hands[seat]
    legal = legal_mask(hand, lead_suit, trump, must_trump)
    if pos == 0:
        remaining = 0
        for p in range(n_players):
            remaining |= hands[p]
        # cash a top card (non-trump suits first, then trumps)
        for k in range(5):
            s = k if k < 4 else trump
            if k < 4 and s == trump:
                continue
            if s < 0:
                continue
            lane = (remaining >> (16 * s)) & LANE
            if lane and (hand >> (16 * s + highest_index(lane))) & 1:
                return 16 * s + highest_index(lane)
        # lead low from the longest suit
        best_s = -1
        best_len = -1
        for s in range(4):
            ln = popcount((hand >> (16 * s)) & LANE)
            if ln > best_len:
                best_len = ln
                best_s = s
        return 16 * best_s + lowest_index((hand >> (16 * best_s)) & LANE)
    same_side = ((side_mask >> seat) & 1) == ((side_mask >> win_seat) & 1)
    if not same_side:
        winners = 0
        m = legal
        while m:
            c = lowest_index(m)
            m &= m - 1
            if beats(c, win_card, trump):
                winners |= 1 << c
        if winners:
            # cheapest winner: lowest suit-lane card of a non-trump, else lowest trump
            return lowest_rank_card(winners, trump)
    return lowest_rank_card(legal, trump)


@njit(cache=True)
def playout(hands, n_players, leader, trump, must_trump, side_mask, policy, state):
    """Play the hands out to the end with a policy; returns int64[n_players] tricks per seat.

    ``hands`` (int64[n_players], equal card counts) is not modified. ``policy`` is
    ``POLICY_RANDOM`` or ``POLICY_HEURISTIC``; ``state`` is the uint64[1] generator.
    """
    h = hands.copy()
    tricks = np.zeros(n_players, dtype=np.int64)
    n_tricks = popcount(h[leader])
    for _ in range(n_tricks):
        lead_suit = -1
        win_card = -1
        win_seat = leader
        for pos in range(n_players):
            seat = (leader + pos) % n_players
            if policy == POLICY_RANDOM:
                card = random_card(legal_mask(h[seat], lead_suit, trump, must_trump), state)
            else:
                card = _heuristic_card(
                    h, seat, n_players, pos, lead_suit, win_card, win_seat, trump, must_trump, side_mask
                )
            h[seat] &= ~(1 << card)
            if pos == 0:
                lead_suit = card >> 4
                win_card = card
                win_seat = seat
            elif beats(card, win_card, trump):
                win_card = card
                win_seat = seat
        tricks[win_seat] += 1
        leader = win_seat
    return tricks
