"""Exact uniform sampling of the hidden cards for the sampling (PIMC) players of both games
(numba; DESIGN.md layer 3).

A *world* is one way to deal the cards a player has not seen to the places they can be:
the other seats (3 to 6 players) and pseudo-seats such as the undealt stock or face-down
discards. Every world consistent with what the player knows is equally likely:

    known: int64[m] — ``known[p]`` = cards known to be in place ``p`` (the player's own
        hand in its seat, a card everybody saw go there); they stay where they are.
    need:  int64[m] — how many hidden cards place ``p`` still receives; the needs add up
        to the number of cards in ``unseen``.
    unseen: int64 mask — the hidden cards.
    voids: int64[m] — bit ``s`` set: place ``p`` holds no card of suit ``s`` (a seat that
        did not follow suit; under must-trump, one that also did not trump holds no
        trump either: ``kernel.trick.shown_voids``).
    free: bool[m] — a place that receives cards and has no void that bites (no void in
        a suit that has hidden cards).
    table: float64[T] — ``table[i]`` = number of ways to deal the hidden cards left in
        state ``i`` to the places still to serve (see below); float64, so exact below
        2**53 and within a relative 1e-15 above.

Method. Without a void that bites, every deal with the right counts is consistent: the
hidden cards are shuffled and each, in turn, goes to a place with probability
proportional to the room it has left (the procedure the Romanian PIMC player has always
used, so its decisions are unchanged where no void was shown). Otherwise the deals are
counted exactly by dynamic programming over the constrained places and then one *pool*
of the free places (which may hold anything, so they can be served together and split
afterwards like a void-free deal), the state being how many hidden cards of each suit
are left: ``r = (r_S, r_H, r_D, r_C)``, stored at index ``Σ r_s · stride_s`` (mixed
radix, ``stride_s = Π_{t<s} (u_t + 1)`` with ``u`` the hidden cards per suit). Place
``j`` takes ``k_s`` cards of each suit (``Σ k_s = need``, ``k_s = 0`` in its void suits)
in ``Π C(r_s, k_s)`` ways, so ``ways_j(r) = Σ_k Π_s C(r_s, k_s) · ways_{j+1}(r − k)``; the
last place takes what is left. Because every place served receives at least one card,
the number of cards left tells which place is next, and one table holds every level. A
world is then drawn place by place: a split ``k`` with probability
``Π C(r_s, k_s) · ways_{j+1}(r − k) / ways_j(r)``, then the ``k_s`` cards uniformly among
the ``r_s`` left of each suit; the pool's cards are dealt to the free places by room. No
rejection and no approximation beyond float64 rounding of the probabilities.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from wiezen_sim.kernel.bits import LANE, lowest_index, popcount
from wiezen_sim.kernel.playout import rng_below, rng_next

_SUIT_CARDS = 13
_BINOM = np.array([[math.comb(n, k) for k in range(_SUIT_CARDS + 1)] for n in range(_SUIT_CARDS + 1)],
                  dtype=np.float64)  # fmt: skip
_UNIT = 2.0**-53


@njit(cache=True)
def _suit_sizes(unseen):
    """int64[4]: hidden cards per suit, and the mixed-radix strides and table size."""
    u = np.empty(4, dtype=np.int64)
    stride = np.empty(4, dtype=np.int64)
    size = 1
    for s in range(4):
        u[s] = popcount((unseen >> (16 * s)) & LANE)
        stride[s] = size
        size *= u[s] + 1
    return u, stride, size


@njit(cache=True)
def _splits(table, r, index, stride, voids, need, x, pick):
    """Walk every split ``k`` of ``need`` cards over the suits left in ``r`` (none of a void
    suit), summing ``Π C(r_s, k_s) · table[index − Σ k_s stride_s]``. With ``x`` ≥ 0 the first
    split at which the running sum passes ``x`` is written to ``pick`` (int64[4]); the last
    split of positive weight if rounding leaves the sum at or below ``x``. Returns the sum."""
    lim0 = 0 if voids & 1 else min(r[0], need)
    lim1 = 0 if voids & 2 else min(r[1], need)
    lim2 = 0 if voids & 4 else min(r[2], need)
    lim3 = 0 if voids & 8 else min(r[3], need)
    total = 0.0
    for k0 in range(lim0 + 1):
        w0 = _BINOM[r[0], k0]
        for k1 in range(min(lim1, need - k0) + 1):
            w1 = w0 * _BINOM[r[1], k1]
            for k2 in range(min(lim2, need - k0 - k1) + 1):
                k3 = need - k0 - k1 - k2
                if k3 > lim3:
                    continue
                rest = index - k0 * stride[0] - k1 * stride[1] - k2 * stride[2] - k3 * stride[3]
                w = table[rest]
                if w == 0.0:
                    continue
                total += w * w1 * _BINOM[r[2], k2] * _BINOM[r[3], k3]
                if x >= 0.0:
                    pick[0] = k0
                    pick[1] = k1
                    pick[2] = k2
                    pick[3] = k3
                    if total > x:
                        return total
    return total


@njit(cache=True)
def _free_places(need, unseen, voids):
    """bool[m]: the places that receive cards and have no void that bites."""
    free = np.zeros(need.shape[0], dtype=np.bool_)
    for p in range(need.shape[0]):
        free[p] = need[p] > 0
        for s in range(4):
            if (voids[p] >> s) & 1 and (unseen >> (16 * s)) & LANE:
                free[p] = False
    return free


@njit(cache=True)
def _world_table(need, unseen, voids, free):
    """The counting table (float64[T]): the constrained places in index order, then the pool."""
    u, stride, size = _suit_sizes(unseen)
    table = np.zeros(size, dtype=np.float64)
    table[0] = 1.0  # nothing left for nobody: one way (the level after the last place)
    r = np.empty(4, dtype=np.int64)
    pick = np.empty(4, dtype=np.int64)
    pool = 0
    for p in range(need.shape[0]):
        if free[p]:
            pool += need[p]
    left = 0  # hidden cards the places from the current one on receive
    for p in range(need.shape[0], -1, -1):  # p == m: the pool
        if p == need.shape[0]:
            k, v = pool, 0
        elif need[p] > 0 and not free[p]:
            k, v = need[p], voids[p]
        else:
            continue
        if k == 0:
            continue
        last = left == 0
        left += k
        for r0 in range(min(u[0], left) + 1):  # every state with ``left`` cards: r_C follows
            r[0] = r0
            for r1 in range(min(u[1], left - r0) + 1):
                r[1] = r1
                for r2 in range(min(u[2], left - r0 - r1) + 1):
                    r[2] = r2
                    r[3] = left - r0 - r1 - r2
                    if r[3] > u[3]:
                        continue
                    index = r0 * stride[0] + r1 * stride[1] + r2 * stride[2] + r[3] * stride[3]
                    if not last:
                        table[index] = _splits(table, r, index, stride, v, k, -1.0, pick)
                        continue
                    table[index] = 1.0  # the last place takes what is left, if it may hold it
                    for s in range(4):
                        if (v >> s) & 1 and r[s]:
                            table[index] = 0.0
    return table


@njit(cache=True)
def count_worlds(need, unseen, voids):
    """Number of consistent worlds (float64: exact below 2**53; module docstring for the arrays)."""
    have = 0
    for p in range(need.shape[0]):
        have += need[p]
    if have != popcount(unseen):
        return 0.0
    if have == 0:
        return 1.0
    free = _free_places(need, unseen, voids)
    u, stride, _ = _suit_sizes(unseen)
    top = u[0] * stride[0] + u[1] * stride[1] + u[2] * stride[2] + u[3] * stride[3]
    ways = _world_table(need, unseen, voids, free)[top]
    dealt = 0  # the pool's cards split among the free places: a multinomial coefficient
    for p in range(need.shape[0]):
        if free[p]:
            for i in range(need[p]):
                dealt += 1
                ways *= dealt / (i + 1)
    return ways


@njit(cache=True)
def _deal_by_room(state, need, unseen, out):
    """Shuffle the ``unseen`` cards, then give each in turn to a place with probability
    proportional to the room it has left (``need``; the places in index order), into ``out``."""
    m = need.shape[0]
    total = popcount(unseen)
    cards = np.empty(total, dtype=np.int64)
    mask = unseen
    for i in range(total):
        cards[i] = lowest_index(mask)
        mask &= mask - 1
    for i in range(total - 1, 0, -1):  # Fisher–Yates
        j = rng_below(state, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    room = need.copy()
    left = total
    for i in range(total):
        r = rng_below(state, left)
        for p in range(m):
            if r < room[p]:
                out[p] |= 1 << cards[i]
                room[p] -= 1
                break
            r -= room[p]
        left -= 1


@njit(cache=True)
def _deal_by_table(state, need, unseen, voids, free, table, out):
    """Voids bite: draw each constrained place's split from the counting table, then its
    cards; the cards left go to the free places by room."""
    u, stride, _ = _suit_sizes(unseen)
    cards = np.zeros((4, _SUIT_CARDS), dtype=np.int64)  # cards[s, :r[s]] = hidden cards of suit s left
    r = u.copy()
    index = 0
    for s in range(4):
        index += u[s] * stride[s]
        lane = (unseen >> (16 * s)) & LANE
        for i in range(u[s]):
            cards[s, i] = 16 * s + lowest_index(lane)
            lane &= lane - 1
    pick = np.zeros(4, dtype=np.int64)
    pool_need = np.zeros(need.shape[0], dtype=np.int64)
    for p in range(need.shape[0]):
        if free[p]:
            pool_need[p] = need[p]
        if need[p] == 0 or free[p]:
            continue
        x = (rng_next(state) >> np.uint64(11)) * _UNIT * table[index]
        _splits(table, r, index, stride, voids[p], need[p], x, pick)
        for s in range(4):
            for _ in range(pick[s]):  # pick[s] of the r[s] cards left, uniformly: swap each to the end
                j = rng_below(state, r[s])
                c = cards[s, j]
                cards[s, j] = cards[s, r[s] - 1]
                cards[s, r[s] - 1] = c
                out[p] |= 1 << c
                r[s] -= 1
            index -= pick[s] * stride[s]
    pool = 0
    for s in range(4):
        for i in range(r[s]):
            pool |= 1 << cards[s, i]
    _deal_by_room(state, pool_need, pool, out)


@njit(cache=True)
def sample_worlds(state, known, need, unseen, voids, n_worlds):
    """``n_worlds`` worlds drawn independently and uniformly from the consistent ones.

    Args:
        state: uint64[1] SplitMix64 generator state (``kernel.playout.rng_new``), advanced.
        known, need, unseen, voids: as in the module docstring (``m`` places).
        n_worlds: number of worlds.

    Returns:
        int64[n_worlds, m]: ``[w, p]`` = the cards of place ``p`` in world ``w`` (``known[p]``
        and its share of ``unseen``).

    Raises:
        ValueError: the needs do not add up to the hidden cards, or no world is consistent.
    """
    m = known.shape[0]
    out = np.zeros((n_worlds, m), dtype=np.int64)
    for w in range(n_worlds):
        for p in range(m):
            out[w, p] = known[p]
    total = 0
    free = _free_places(need, unseen, voids)
    bites = False
    for p in range(m):
        total += need[p]
        bites |= need[p] > 0 and not free[p]
    if total != popcount(unseen):
        raise ValueError("the places' needs do not add up to the hidden cards")
    if not bites:
        for w in range(n_worlds):
            _deal_by_room(state, need, unseen, out[w])
        return out
    table = _world_table(need, unseen, voids, free)
    u, stride, _ = _suit_sizes(unseen)
    if table[u[0] * stride[0] + u[1] * stride[1] + u[2] * stride[2] + u[3] * stride[3]] == 0.0:
        raise ValueError("no deal of the hidden cards is consistent with the voids shown")
    for w in range(n_worlds):
        _deal_by_table(state, need, unseen, voids, free, table, out[w])
    return out
