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

Within allowed splits (``*_within``). One place may be limited to some of its splits:
``allowed`` (bool[``SPLITS``], indexed by :func:`split_code` of ``k``) says which ``k`` it may
receive (the sampling players draw the hand of a seat whose bid the auction model makes only
with some suit lengths among those lengths: ``solvers.worlds``). That place is then served as a
constrained place whatever its voids, its splits outside ``allowed`` count 0, and the worlds are
uniform over the consistent ones in which it receives an allowed split. It must receive cards
(``need`` > 0).
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
SPLITS = (_SUIT_CARDS + 1) ** 4  # the splits k (cards per suit, 0..13 each) one place may receive
_MOST_SPLITS = (_SUIT_CARDS + 1) ** 3  # splits of one need (the last suit's count follows from the others)


@njit(cache=True)
def split_code(k0, k1, k2, k3):
    """The index of the split ``(k_S, k_H, k_D, k_C)`` in an ``allowed`` table (bool[SPLITS])."""
    return k0 + (_SUIT_CARDS + 1) * (k1 + (_SUIT_CARDS + 1) * (k2 + (_SUIT_CARDS + 1) * k3))


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
def _splits(table, r, index, stride, voids, need, x, pick, allowed, sums, ks):
    """Walk every split ``k`` of ``need`` cards over the suits left in ``r`` (none of a void
    suit; only those in ``allowed`` when it is not empty), summing
    ``Π C(r_s, k_s) · table[index − Σ k_s stride_s]``. With ``x`` ≥ 0 the first split at which
    the running sum passes ``x`` is written to ``pick`` (int64[4]); the last split of positive
    weight if rounding leaves the sum at or below ``x``. With ``sums`` not empty, each split of
    positive weight in turn is recorded: the running sum in ``sums`` (float64[_MOST_SPLITS], the
    rest left as it was) and the split in ``ks`` (int64[_MOST_SPLITS, 4]). Returns the sum."""
    n = 0
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
                if k3 > lim3 or (allowed.shape[0] and not allowed[split_code(k0, k1, k2, k3)]):
                    continue
                rest = index - k0 * stride[0] - k1 * stride[1] - k2 * stride[2] - k3 * stride[3]
                w = table[rest]
                if w == 0.0:
                    continue
                total += w * w1 * _BINOM[r[2], k2] * _BINOM[r[3], k3]
                if sums.shape[0]:
                    sums[n] = total
                    ks[n, 0] = k0
                    ks[n, 1] = k1
                    ks[n, 2] = k2
                    ks[n, 3] = k3
                    n += 1
                if x >= 0.0:
                    pick[0] = k0
                    pick[1] = k1
                    pick[2] = k2
                    pick[3] = k3
                    if total > x:
                        return total
    return total


@njit(cache=True)
def _free_places(need, unseen, voids, place):
    """bool[m]: the places that receive cards and have no void that bites (``place``, limited, is not free)."""
    free = np.zeros(need.shape[0], dtype=np.bool_)
    for p in range(need.shape[0]):
        free[p] = need[p] > 0 and p != place
        for s in range(4):
            if (voids[p] >> s) & 1 and (unseen >> (16 * s)) & LANE:
                free[p] = False
    return free


@njit(cache=True)
def _world_table(need, unseen, voids, free, place, allowed):
    """The counting table (float64[T]): the constrained places in index order, then the pool."""
    u, stride, size = _suit_sizes(unseen)
    table = np.zeros(size, dtype=np.float64)
    table[0] = 1.0  # nothing left for nobody: one way (the level after the last place)
    r = np.empty(4, dtype=np.int64)
    pick = np.empty(4, dtype=np.int64)
    no_sums, no_ks = np.zeros(0), np.zeros((0, 4), dtype=np.int64)  # nothing recorded
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
        limit = allowed if p == place else allowed[:0]  # empty: any split
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
                        table[index] = _splits(table, r, index, stride, v, k, -1.0, pick, limit, no_sums, no_ks)
                        continue
                    table[index] = 1.0  # the last place takes what is left, if it may hold it
                    for s in range(4):
                        if (v >> s) & 1 and r[s]:
                            table[index] = 0.0
                    if limit.shape[0] and not limit[split_code(r[0], r[1], r[2], r[3])]:
                        table[index] = 0.0
    return table


@njit(cache=True)
def count_worlds(need, unseen, voids):
    """Number of consistent worlds (float64: exact below 2**53; module docstring for the arrays)."""
    return count_worlds_within(need, unseen, voids, -1, np.zeros(0, dtype=np.bool_))


@njit(cache=True)
def count_worlds_within(need, unseen, voids, place, allowed):
    """Number of consistent worlds in which ``place`` receives a split of ``allowed`` (module docstring;
    ``place`` −1: no place limited; ValueError: a limited place that receives no card)."""
    if place >= 0 and need[place] == 0:
        raise ValueError("a limited place must receive cards")
    have = 0
    for p in range(need.shape[0]):
        have += need[p]
    if have != popcount(unseen):
        return 0.0
    if have == 0:
        return 1.0
    free = _free_places(need, unseen, voids, place)
    u, stride, _ = _suit_sizes(unseen)
    top = u[0] * stride[0] + u[1] * stride[1] + u[2] * stride[2] + u[3] * stride[3]
    ways = _world_table(need, unseen, voids, free, place, allowed)[top]
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
def _deal_by_table(state, need, unseen, voids, free, table, out, place, allowed, first, sums, ks):
    """Voids bite: draw each constrained place's split from the counting table, then its
    cards; the cards left go to the free places by room. The first constrained place, ``first``,
    always starts from all the hidden cards: its splits and running sums are given (``sums``,
    ``ks``: :func:`_splits`' record), and its split is found by bisection, the split the walk
    would find."""
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
        if p == first:
            i = np.searchsorted(sums, x, side="right")  # the first running sum past x
            if i == sums.shape[0] or sums[i] == np.inf:  # rounding: the last split of positive weight
                i -= 1
            pick[:] = ks[i]
        else:
            limit = allowed if p == place else allowed[:0]
            _splits(table, r, index, stride, voids[p], need[p], x, pick, limit, sums[:0], ks[:0])
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
    return sample_worlds_within(state, known, need, unseen, voids, n_worlds, -1, np.zeros(0, dtype=np.bool_))


@njit(cache=True)
def sample_worlds_within(state, known, need, unseen, voids, n_worlds, place, allowed):
    """As :func:`sample_worlds` (the same arguments, result and errors), uniformly from the
    consistent worlds in which ``place`` receives a split of ``allowed`` (bool[SPLITS]; module
    docstring; ``place`` −1: none limited). Also ValueError: the limited place receives no card."""
    if place >= 0 and need[place] == 0:
        raise ValueError("a limited place must receive cards")
    m = known.shape[0]
    out = np.zeros((n_worlds, m), dtype=np.int64)
    for w in range(n_worlds):
        for p in range(m):
            out[w, p] = known[p]
    total = 0
    free = _free_places(need, unseen, voids, place)
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
    table = _world_table(need, unseen, voids, free, place, allowed)
    u, stride, _ = _suit_sizes(unseen)
    top = u[0] * stride[0] + u[1] * stride[1] + u[2] * stride[2] + u[3] * stride[3]
    if table[top] == 0.0:
        raise ValueError("no deal of the hidden cards is consistent with the voids shown")
    first = 0
    while need[first] == 0 or free[first]:  # the first constrained place (one exists: a void bites)
        first += 1
    sums, ks = np.full(_MOST_SPLITS, np.inf), np.zeros((_MOST_SPLITS, 4), dtype=np.int64)
    _splits(table, u, top, stride, voids[first], need[first], -1.0, np.zeros(4, dtype=np.int64),
            allowed if first == place else allowed[:0], sums, ks)  # fmt: skip
    for w in range(n_worlds):
        _deal_by_table(state, need, unseen, voids, free, table, out[w], place, allowed, first, sums, ks)
    return out


_CARD_ORDER = np.array([16 * s + r for s in range(4) for r in range(14, 1, -1)], dtype=np.int64)  # S H D C, high first


@njit(cache=True)
def enumerate_worlds(known, need, unseen, voids):
    """Every consistent world (module docstring for the arrays), in a fixed order: place 0's hidden cards
    as the subsets of its possible cards in lexicographic order (the cards in :data:`_CARD_ORDER`, the order
    of ``cards.cards_of``), then place 1's, and
    so on; the last place takes the cards left, if it may hold them (a depth-first walk, not recursive:
    numba's cache does not keep recursive functions).

    Returns:
        int64[W, m]: ``W`` = :func:`count_worlds` of the same arguments.
    """
    m = need.shape[0]
    void_cards = np.zeros(m, dtype=np.int64)
    for p in range(m):
        for s in range(4):
            if (voids[p] >> s) & 1:
                void_cards[p] |= LANE << (16 * s)
    out = np.zeros((int(count_worlds(need, unseen, voids)), m), dtype=np.int64)
    cards = np.zeros((m, 64), dtype=np.int64)  # per place: the cards it may take of those left
    n_cards = np.zeros(m, dtype=np.int64)
    idx = np.zeros((m, 64), dtype=np.int64)  # per place: the positions in ``cards`` of the subset it takes
    left = np.zeros(m, dtype=np.int64)  # the cards left for place p on
    hands = np.zeros(m, dtype=np.int64)
    n, p, fresh = 0, 0, True  # fresh: place p is entered with new cards left (else: its next subset)
    left[0] = unseen
    while out.shape[0] and p >= 0:
        k = need[p]
        if p == m - 1:
            if (left[p] & void_cards[p]) == 0:
                out[n, :p] = hands[:p]
                out[n, p] = known[p] | left[p]
                n += 1
            p, fresh = p - 1, False
            continue
        if fresh:
            n_cards[p] = 0
            rest = left[p] & ~void_cards[p]
            for card in _CARD_ORDER:
                if (rest >> card) & 1:
                    cards[p, n_cards[p]] = card
                    n_cards[p] += 1
            if k > n_cards[p]:
                p, fresh = p - 1, False
                continue
            for i in range(k):
                idx[p, i] = i
        else:
            i = k - 1
            while i >= 0 and idx[p, i] == n_cards[p] - k + i:
                i -= 1
            if i < 0:
                p, fresh = p - 1, False
                continue
            idx[p, i] += 1
            for j in range(i + 1, k):
                idx[p, j] = idx[p, j - 1] + 1
        taken = 0
        for i in range(k):
            taken |= 1 << cards[p, idx[p, i]]
        hands[p] = known[p] | taken
        left[p + 1] = left[p] & ~taken
        p, fresh = p + 1, True
    return out


# Kleine miserie: the three hidden seats each discarded their highest card (``highest_card``: the
# highest rank, then the first suit in S H D C order, a total order on the cards) face down. Worlds
# are drawn exactly under that rule: the seats' hands and discards are counted by dynamic
# programming over the ranks from the aces down, the state being which seats' discards are placed
# and how many hidden cards each seat's hand has received; a card goes to a seat's hand only once
# its discard is placed, before it in that order (a discard outranks the hand it leaves), so every
# world counted follows the rule and none is rejected.
_HIDDEN = 3  # the hidden seats of a kleine-miserie world: the three other than the observer
_OPTIONS = 2 * _HIDDEN  # per card: the discard of hidden seat 0..2, or a card of the hand of seat 0..2
_RANKS = 13


@njit(cache=True)
def highest_card(hand):
    """The players' kleine-miserie discard (RULES.md 1.3 lets each player choose): the highest-ranked
    card of a non-empty ``hand``, the first suit in S H D C order on a tie (-1 for an empty hand)."""
    for rank in range(14, 1, -1):
        for s in range(4):
            if (hand >> (16 * s + rank)) & 1:
                return 16 * s + rank
    return -1


@njit(cache=True)
def highest_cards(hands):
    """:func:`highest_card` of each of ``hands`` (``int64[n]``): ``int64[n]``."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = highest_card(hands[i])
    return out


@njit(cache=True)
def _rank_cards(unseen, rank, cards):
    """The ``unseen`` cards of ``rank`` into ``cards`` (suit order); returns how many."""
    k = 0
    for s in range(4):
        if (unseen >> (16 * s + rank)) & 1:
            cards[k] = 16 * s + rank
            k += 1
    return k


@njit(cache=True)
def _outranks(card, other):
    """Whether ``card`` comes before ``other`` in the discard order (higher rank, then the first suit);
    False for ``card`` = -1 (none)."""
    if card < 0:
        return False
    return (card & 15) > (other & 15) or ((card & 15) == (other & 15) and card >> 4 < other >> 4)


@njit(cache=True)
def _assign(cards, k, code, placed, floor, voids, only, d, choice, at):
    """Decode ``code`` (base 6, one digit per card of a rank group, the cards in S H D C order) into where
    each card goes: the discard of hidden seat ``o`` (digit ``o`` < 3) or its hand (digit ``3 + o``), into
    ``choice``, the position of each seat's discard in the group into ``at`` (``k``: none), and count the
    cards each hand receives into ``d``. Returns the placed-discards mask after
    the group, or -1 when the code breaks a rule (a discard placed twice or below the highest card its seat
    is known to have been dealt, ``floor``; a hand card before its seat's discard, in a suit the seat
    showed void in, or known to be another seat's)."""
    new = 0
    for s in range(_HIDDEN):
        d[s] = 0
        at[s] = k
    for i in range(k):
        o = code % _OPTIONS
        code //= _OPTIONS
        choice[i] = o
        seat = o % _HIDDEN
        if only[i] >= 0 and only[i] != seat:
            return -1
        if o < _HIDDEN:
            if (placed | new) >> seat & 1 or _outranks(floor[seat], cards[i]):
                return -1
            new |= 1 << seat
            at[seat] = i
    for i in range(k):  # the hand cards, now that the group's discards are known
        if choice[i] >= _HIDDEN:
            seat = choice[i] - _HIDDEN
            if not (placed >> seat & 1 or at[seat] < i) or voids[seat] >> (cards[i] >> 4) & 1:
                return -1
            d[seat] += 1
    return placed | new


@njit(cache=True)
def _only_seats(cards, k, only, out):
    """For each card of a group: the hidden seat it must be dealt to (``only`` masks), or -1."""
    for i in range(k):
        out[i] = -1
        for s in range(_HIDDEN):
            if (only[s] >> cards[i]) & 1:
                out[i] = s


@njit(cache=True)
def _group_moves(unseen, voids, kept, only):
    """Every way to deal each rank group (aces first) given the discards already placed, grouped into
    classes of the same effect (the placed mask after it, the cards each hand receives).

    Returns ``(codes, n_classes, after, gain, start, length)``: per level and placed mask (``[13, 8]``)
    the rule-abiding codes of :func:`_assign` sorted by class (``codes[level, placed, :]``), and per
    class its placed mask after, its hand cards per seat (``gain[..., c, 3]``) and its codes' span."""
    floor = np.full(_HIDDEN, -1, dtype=np.int64)
    for s in range(_HIDDEN):
        if kept[s]:
            floor[s] = highest_card(kept[s])
    most = _OPTIONS**4
    codes = np.zeros((_RANKS, 8, most), dtype=np.int64)
    n_classes = np.zeros((_RANKS, 8), dtype=np.int64)
    after = np.zeros((_RANKS, 8, most), dtype=np.int64)
    gain = np.zeros((_RANKS, 8, most, _HIDDEN), dtype=np.int64)
    start = np.zeros((_RANKS, 8, most), dtype=np.int64)
    length = np.zeros((_RANKS, 8, most), dtype=np.int64)
    cards = np.empty(4, dtype=np.int64)
    owner = np.empty(4, dtype=np.int64)
    choice = np.empty(4, dtype=np.int64)
    d = np.empty(_HIDDEN, dtype=np.int64)
    at = np.empty(_HIDDEN, dtype=np.int64)
    key = np.empty(most, dtype=np.int64)
    for level in range(_RANKS):
        rank = 14 - level
        k = _rank_cards(unseen, rank, cards)
        _only_seats(cards, k, only, owner)
        for placed in range(8):
            n = 0
            for code in range(_OPTIONS**k):
                a = _assign(cards, k, code, placed, floor, voids, owner, d, choice, at)
                if a < 0:
                    continue
                codes[level, placed, n] = code
                key[n] = ((a * 5 + d[0]) * 5 + d[1]) * 5 + d[2]
                n += 1
            order = np.argsort(key[:n], kind="mergesort")
            sorted_codes = codes[level, placed, :n][order].copy()
            codes[level, placed, :n] = sorted_codes
            c = -1
            for j in range(n):
                if j == 0 or key[order[j]] != key[order[j - 1]]:
                    c += 1
                    kk = key[order[j]]
                    gain[level, placed, c, 2] = kk % 5
                    gain[level, placed, c, 1] = kk // 5 % 5
                    gain[level, placed, c, 0] = kk // 25 % 5
                    after[level, placed, c] = kk // 125
                    start[level, placed, c] = j
                length[level, placed, c] += 1
            n_classes[level, placed] = c + 1
    return codes, n_classes, after, gain, start, length


@njit(cache=True)
def discard_table(need, unseen, voids, kept, only):
    """The counting table of kleine-miserie worlds (see above), ``float64[14, 8, n0+1, n1+1, n2+1]``:
    ``[L, placed, r0, r1, r2]`` = ways to deal the unseen cards of ranks ``14 − L`` and below when the
    discards of the seats in ``placed`` are dealt and each hand has its ``r`` cards; and the moves of
    :func:`_group_moves`.

    Args (per hidden seat, ``int64[3]``): need: hidden cards its hand holds now; voids: suits it showed
    void in (its hand, not its discard); kept: the cards known to have been dealt to it and no longer
    held (played); only: unseen cards known to be dealt to it (the dealer's turned card)."""
    if need[0] + need[1] + need[2] + _HIDDEN != popcount(unseen):
        raise ValueError("the hands' needs and the three discards do not add up to the hidden cards")
    moves = _group_moves(unseen, voids, kept, only)
    _, n_classes, after, gain, _, length = moves
    ways = np.zeros((_RANKS + 1, 8, need[0] + 1, need[1] + 1, need[2] + 1), dtype=np.float64)
    ways[_RANKS, 7, need[0], need[1], need[2]] = 1.0
    cards = np.empty(4, dtype=np.int64)
    processed = np.zeros(_RANKS + 1, dtype=np.int64)
    for level in range(_RANKS):
        processed[level + 1] = processed[level] + _rank_cards(unseen, 14 - level, cards)
    for level in range(_RANKS - 1, -1, -1):
        for placed in range(8):
            held = processed[level] - popcount(placed)
            if held < 0:
                continue
            for c in range(n_classes[level, placed]):
                a, g, mult = after[level, placed, c], gain[level, placed, c], float(length[level, placed, c])
                for r0 in range(min(need[0] - g[0], held) + 1):
                    for r1 in range(min(need[1] - g[1], held - r0) + 1):
                        r2 = held - r0 - r1
                        if r2 < 0 or r2 + g[2] > need[2]:
                            continue
                        ways[level, placed, r0, r1, r2] += mult * ways[level + 1, a, r0 + g[0], r1 + g[1], r2 + g[2]]
    return ways, moves


@njit(cache=True)
def sample_discard_worlds(state, need, unseen, ways, moves, n_worlds):
    """``n_worlds`` kleine-miserie worlds drawn uniformly from those in which each hidden seat discarded
    its :func:`highest_card` (``need, unseen`` and ``ways, moves`` = :func:`discard_table` of the same
    arguments).

    Returns:
        ``(hands, discards)``: ``int64[n_worlds, 3]`` the hidden cards of each hidden seat's hand, and
        ``int64[n_worlds, 3]`` the card each discarded.

    Raises:
        ValueError: no world is consistent.
    """
    codes, n_classes, after, gain, start, length = moves
    if ways[0, 0, 0, 0, 0] == 0.0:
        raise ValueError("no deal of the hidden cards has every seat discarding its highest card")
    hands = np.zeros((n_worlds, _HIDDEN), dtype=np.int64)
    discards = np.zeros((n_worlds, _HIDDEN), dtype=np.int64)
    cards = np.empty(4, dtype=np.int64)
    r = np.empty(_HIDDEN, dtype=np.int64)
    for w in range(n_worlds):
        placed = 0
        for s in range(_HIDDEN):
            r[s] = 0
        for level in range(_RANKS):
            k = _rank_cards(unseen, 14 - level, cards)
            x = (rng_next(state) >> np.uint64(11)) * _UNIT * ways[level, placed, r[0], r[1], r[2]]
            total = 0.0
            pick = -1
            for c in range(n_classes[level, placed]):
                g = gain[level, placed, c]
                if r[0] + g[0] > need[0] or r[1] + g[1] > need[1] or r[2] + g[2] > need[2]:
                    continue
                weight = length[level, placed, c] * ways[level + 1, after[level, placed, c],
                                                           r[0] + g[0], r[1] + g[1], r[2] + g[2]]  # fmt: skip
                if weight == 0.0:
                    continue
                pick = c
                total += weight
                if total > x:
                    break
            code = codes[level, placed, start[level, placed, pick] + rng_below(state, length[level, placed, pick])]
            for i in range(k):
                o = code % _OPTIONS
                code //= _OPTIONS
                if o < _HIDDEN:
                    discards[w, o] = cards[i]
                else:
                    hands[w, o - _HIDDEN] |= 1 << cards[i]
            for s in range(_HIDDEN):
                r[s] += gain[level, placed, pick, s]
            placed = after[level, placed, pick]
    return hands, discards
