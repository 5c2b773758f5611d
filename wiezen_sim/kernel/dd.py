"""Double-dummy search for four players (numba; DESIGN.md layer 3).

Everything is integers: a position is four hand masks, the trump suit (-1 for no
trump), who leads the current trick and the cards already played to it. The side is
a seat mask (bit s = seat s): 1 vs 3 or 2 vs 2 with partners in any seats.

The game searched
-----------------
``mmask`` are the maximising seats, ``cmask`` the seats whose tricks are counted.
``cmask == mmask`` is the ordinary game (the side wants many tricks);
``cmask == 15 ^ mmask`` is the misère game (the side wants the others to take the
tricks, i.e. as few as possible itself). The boolean search ``_search`` answers: can
the maximisers make the number of counted tricks from here (the trick in progress
included) land in ``[lo, hi]``? One-sided questions (``hi >= tricks left``) are the
zero-window tests of the usual alpha-beta; ``lo == hi`` is the pico question
(exactly K). At trick boundaries a "≤ hi" question is turned into "≥ tl - hi" for
the other counted set, so every one-sided question shares one transposition table.

Speed-ups (all exact): zero-window search on trick targets; a transposition table at
trick boundaries keyed on relative ranks (who holds the i-th highest remaining card of
every suit, so positions that differ only by already played cards share an entry),
restricted to the cards that decided the result (partition search, as in DDS), storing
lower/upper bounds and the best lead; equivalent-card (sequence) pruning;
lowest win (after a card is refuted without its rank mattering, the player's lower
cards of that suit are not searched); quick tricks of the side on lead (a line of sure
winners and entries played out) and of the second hand's side (it surely takes the
trick, in no trump also the winner's sure winners after it); the sure trick of the
highest trump; a side that can never win a trick again; the last trick evaluated
directly; move ordering by card-play heuristics after the ideas of DDS's (leads:
``_lead_suit``; the lead that last refuted a sibling at the same trick depth, the
"killer"; the third hand's cheapest card that forces out the fourth hand's top card;
discards from long suits) with the table's best lead first.

State arrays (allocated by the caller, passed down, never reallocated; as few as
possible, since every recursive call passes each array's whole descriptor):
    hands:   int64[4] — ``hands[seat]`` = mask of cards still held. The entry points copy
             it into the scratch array, where the search modifies it and restores it
             before returning.
    trick:   int64[4] — cards played to the current trick, in order from its leader.
    tt:      int64[n_entries, 8] — the transposition table (layout in the table section
             below); ``n_entries`` is a power of two.
    scratch: int64[4, 64, 16] — per search ply the candidate cards ``[0, ply, :]``,
             their ordering scores ``[1, ply, :]`` (first the lowest card of each
             one's sequence), in ``[2, ply, 0]`` the mask of the cards that decided the
             result of the node at that ply and in ``[2, ply, 1]`` its killer lead + 1
             (0: none; reset by every entry point); the hands in
             ``[STATE, HANDS, :4]`` and the statistics in ``[STATE, STATS, :N_STATS]``
             (the solver reads them through a view of that row).
    stats:   int64[13] — counters ``[nodes, tt hits, tt stores, quick-trick cutoffs,
             top-trump cutoffs, searches, table probes, trick nodes (searches at a trick's
             start, the count DDS reports as nodes)]``, the table's state ``[entries
             used, times pruned]``, a node limit ``[limit, exceeded]`` and the number
             of doublings of the table's chain heads ``[12]`` (``_head_mask``). When
             ``stats[10] > 0`` and the trick nodes pass it, ``stats[11]`` is set to 1 and
             every search frame returns at once, storing nothing (the result is then
             meaningless; every later trick start also passes the limit and returns).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from wiezen_sim.kernel.bits import LANE, borrowed, highest_index, lowest_index, pdep, pext, popcount
from wiezen_sim.kernel.trick import beats

OBJ_MAX = 0
OBJ_MIN = 1
OBJ_EXACT = 2

BIG = 99  # "no upper limit" for hi
SCRATCH_PLIES = 64
SCRATCH_MOVES = 16
N_STATS = 13
STATE = 3  # scratch[STATE, HANDS, :4] = the hands, scratch[STATE, STATS, :N_STATS] = the statistics
HANDS = 0
STATS = 1
KILLER_NT_WIN = 126
KILLER_NT = 47
KILLER_WIN = 55
KILLER = 18
MIN_HEADS = 1 << 16  # chain heads of an empty table (grown with the entries, _tt_grow)

# per suit pattern (bit = suit), the 3-bit fields of those suits in a top-owners word
_PAT_OWNER_MASK = np.array([sum(7 << (3 * s) for s in range(4) if pat >> s & 1) for pat in range(16)], dtype=np.int64)
# a table pattern code is sum(state(suit) * 3 ** suit), state 0: no relevant card, 1: the
# segment is part of the suit, 2: the whole suit; its suits of state 2 and of state 1 or 2
N_CODES = 81
_STATES = [[code // 3**s % 3 for s in range(4)] for code in range(N_CODES)]
_CODE_WHOLE = np.array([sum(1 << s for s in range(4) if st[s] == 2) for st in _STATES], dtype=np.int64)
_CODE_SUITS = np.array([sum(1 << s for s in range(4) if st[s]) for st in _STATES], dtype=np.int64)


@njit(cache=True)
def new_scratch():
    """Zeroed scratch array of one solver (int64[4, 64, 16], layout in the module docstring)."""
    return np.zeros((4, SCRATCH_PLIES, SCRATCH_MOVES), dtype=np.int64)


# ---------------------------------------------------------------- transposition table
#
# Partition search (as in DDS): an entry does not describe one position but every
# position with the same suit lengths in every hand, the same leader and question, and
# the same owners of the *relevant* top cards of each suit, in relative ranks. The
# search returns with every result the set of cards that decided it (the winning card
# of a trick that beat a card of its own suit, the top cards behind a quick trick, the
# top trump); in every suit the cards at or above the lowest decisive card form the
# relevant segment, and all cards below it are interchangeable small cards.
#
# tt[i, 0:5] = [lengths, question, segment, owner bits 0, owner bits 1] (the key):
#   lengths:  bit 16 * seat + 4 * suit .. +3 = cards of that suit the seat holds;
#   question: leader | tag << 2 | pattern code << 12 | top-card owners << 19 (tag:
#             maximising seats, counted set, exact target; code: per suit whether the
#             segment is empty, part of the suit or the whole suit (``_CODE_*``);
#             owners: per suit with a segment 3 bits = 1 + seat holding its top card).
#             The hash chain of an entry is also chosen by the owners of every card of
#             its whole suits: misère searches store mostly whole suits with the same
#             top-card owners, and walked chains of about a hundred entries per lookup
#             without this;
#   segment:  ``pext(relevant cards, remaining cards)`` — the relevant cards in the
#             packed order of the remaining cards (lowest spade first);
#   owner bits: ``pext(hand1 | hand3, remaining) & segment`` and
#             ``pext(hand2 | hand3, remaining) & segment`` — the 2-bit owner of each
#             relevant card.
# tt[i, 5] = the next entry of its hash chain + 1 (0: end of chain);
# tt[i, 6] = lower bound | upper bound << 8 | (best lead + 1) << 16: the bounds are on
#   the counted tricks of the canonical question, the best lead is ``suit * 16 + number
#   of remaining cards above it`` (0: none).
# Entries fill rows 0, 1, ... up to 15/16 of the table; the last sixteenth holds the
# chain heads (at most a quarter as many as rows), 4 hash values h to a row:
# tt[n - 1 - h // 4, 2 * (h % 4)] = the first entry of the chain of h + 1, and the word
# after it = the codes (bit code % 64) stored for the questions whose code-free key
# ``kw1 & 0xFFF`` hashes to h.


@njit(cache=True, inline="always")
def _lengths_key(hands):
    k = 0
    for p in range(4):
        for s in range(4):
            k |= popcount((hands[p] >> (16 * s)) & LANE) << (16 * p + 4 * s)
    return k


@njit(cache=True, inline="always")
def _tt_head(kw0, kw1, n_mask):
    # SplitMix64-style finaliser on signed int64 (wrapping multiplications)
    h = kw0 * -7046029254386353131 + kw1
    h = (h ^ ((h >> 30) & 0x3FFFFFFFF)) * -4658895280553007687
    h = (h ^ ((h >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685
    h ^= (h >> 31) & 0x1FFFFFFFF
    return h & n_mask


@njit(cache=True, inline="always")
def _suit_totals(kw0):
    """Remaining cards per suit, 4 bits a suit, from a lengths key (the sum of the seats'
    fields never carries: a suit has at most 13 cards)."""
    return (kw0 & 0xFFFF) + ((kw0 >> 16) & 0xFFFF) + ((kw0 >> 32) & 0xFFFF) + ((kw0 >> 48) & 0xFFFF)


@njit(cache=True, inline="always")
def _entry_head(kw0, kw1, c0, c1, n_mask):
    """Hash chain of an entry: of its key, and when its pattern has whole suits also of the
    owners of every card of those suits (``c0``/``c1`` restricted to them, the same for the
    position and for every matching entry, since the segment covers those suits)."""
    whole = _CODE_WHOLE[(kw1 >> 12) & 127]
    if whole:
        lens = _suit_totals(kw0)
        m = 0
        start = 0
        for s in range(4):
            ln = (lens >> (4 * s)) & 15
            if (whole >> s) & 1:
                m |= ((1 << ln) - 1) << start
            start += ln
        return _tt_head(kw0 ^ (c0 & m), kw1 ^ ((c1 & m) << 11), n_mask)
    return _tt_head(kw0, kw1, n_mask)


@njit(cache=True, inline="always")
def _segment(rel, rem):
    """Cards of ``rem`` at or above the lowest card of ``rel`` in each suit."""
    seg = 0
    for s in range(4):
        lane = (rel >> (16 * s)) & LANE
        if lane:
            low = lowest_index(lane)
            seg |= ((rem >> (16 * s)) & LANE & ~((1 << low) - 1)) << (16 * s)
    return seg


@njit(cache=True, inline="always")
def _top_owners(hands, rem, pat):
    """Per suit in ``pat`` (bit = suit), 1 + the seat holding its highest remaining card, 3 bits a suit."""
    out = 0
    for su in range(4):
        if (pat >> su) & 1:
            top_bit = 1 << (16 * su + highest_index((rem >> (16 * su)) & LANE))
            for p in range(4):
                if hands[p] & top_bit:
                    out |= (p + 1) << (3 * su)
    return out


@njit(cache=True)
def _tt_store(tt, stats, kw0, kw1, seg_m, c0, c1, tl, set_lb, value, move):
    """Tighten one bound (lower if ``set_lb`` else upper) of the entry for this segment.

    A full entry pool first drops its entries with the fewest tricks left (``_tt_prune``).
    """
    n = tt.shape[0]
    h = _entry_head(kw0, kw1, c0, c1, _head_mask(tt, stats))
    p0 = c0 & seg_m
    p1 = c1 & seg_m
    slot = -1
    idx = tt[n - 1 - (h >> 2), 2 * (h & 3)]
    while idx:
        i = idx - 1
        if tt[i, 0] == kw0 and tt[i, 1] == kw1 and tt[i, 2] == seg_m and tt[i, 3] == p0 and tt[i, 4] == p1:
            slot = i
            break
        idx = tt[i, 5]
    if slot < 0:
        if stats[8] >= n - n // 16:
            _tt_prune(tt, stats)
        slot = stats[8]
        stats[8] += 1
        tt[slot, 0] = kw0
        tt[slot, 1] = kw1
        tt[slot, 2] = seg_m
        tt[slot, 3] = p0
        tt[slot, 4] = p1
        tt[slot, 6] = tl << 8  # lower bound 0, upper bound tl, no best lead
        if _heads_short(tt, stats):
            _tt_grow(tt, stats)
        else:
            _tt_link(tt, slot, _head_mask(tt, stats))
    v = tt[slot, 6]
    if set_lb:
        if value > (v & 255):
            v = (v & ~255) | value
    elif value < ((v >> 8) & 255):
        v = (v & ~(255 << 8)) | (value << 8)
    if move >= 0:
        v = (v & 65535) | ((move + 1) << 16)
    tt[slot, 6] = v


@njit(cache=True, inline="always")
def _head_mask(tt, stats):
    """Hash mask of the chain heads in use (``MIN_HEADS`` doubled ``stats[12]`` times, at
    most a quarter of the table's rows)."""
    return (min(MIN_HEADS, tt.shape[0] // 4) << stats[12]) - 1


@njit(cache=True, inline="always")
def _heads_short(tt, stats):
    """Fewer than 4 chain heads per entry, and the heads may still double."""
    return 4 * stats[8] > _head_mask(tt, stats) + 1 < tt.shape[0] // 4


@njit(cache=True)
def _tt_grow(tt, stats):
    """Double the chain heads and link every entry again.

    Keeping the heads about as few as the entries (4 per entry), packed 4 to a row at
    the end of the table, keeps a lookup's reads of them within a few hundred kB
    instead of scattered over the whole table.
    """
    stats[12] += 1
    n_mask = _head_mask(tt, stats)
    n = tt.shape[0]
    for r in range(n - 1 - (n_mask >> 2), n):
        tt[r, :] = 0
    for i in range(stats[8]):
        _tt_link(tt, i, n_mask)


@njit(cache=True)
def _tt_link(tt, slot, n_mask):
    """Put the entry in row ``slot`` at the head of its chain and mark its code as stored."""
    n = tt.shape[0]
    kw0 = tt[slot, 0]
    kw1 = tt[slot, 1]
    h = _entry_head(kw0, kw1, tt[slot, 3], tt[slot, 4], n_mask)
    tt[slot, 5] = tt[n - 1 - (h >> 2), 2 * (h & 3)]
    tt[n - 1 - (h >> 2), 2 * (h & 3)] = slot + 1
    # which codes are stored for the question: bit code % 64 of the code word of its head
    h0 = _tt_head(kw0, kw1 & 0xFFF, n_mask)
    tt[n - 1 - (h0 >> 2), 2 * (h0 & 3) + 1] |= 1 << ((kw1 >> 12) & 63)


@njit(cache=True)
def _tt_prune(tt, stats):
    """Make room in a full table: keep the entries with the most tricks left, at most half.

    Those cost the most to find again (a deep misère proof that emptied the whole table
    whenever it filled up searched 3-4 times more nodes than in a table large enough).
    The kept entries move to the front of the pool and are linked again.
    """
    n = stats[8]
    per_tl = np.zeros(14, np.int64)
    for i in range(n):
        per_tl[_entry_tricks(tt[i, 0])] += 1
    kept = 0
    t = 13  # keep the entries with more than t tricks left
    while t > 0 and kept + per_tl[t] <= n // 2:
        kept += per_tl[t]
        t -= 1
    tt_clear(tt, stats)
    j = 0
    for i in range(n):
        if _entry_tricks(tt[i, 0]) > t:
            for col in (0, 1, 2, 3, 4, 6):
                tt[j, col] = tt[i, col]
            j += 1
    stats[8] = j
    while _heads_short(tt, stats):
        stats[12] += 1
    n_mask = _head_mask(tt, stats)
    for i in range(j):
        _tt_link(tt, i, n_mask)
    stats[9] += 1


@njit(cache=True, inline="always")
def _entry_tricks(kw0):
    """Tricks left in an entry's positions (all stored at the start of a trick) from its lengths key."""
    lens = _suit_totals(kw0)
    return ((lens & 15) + ((lens >> 4) & 15) + ((lens >> 8) & 15) + ((lens >> 12) & 15)) // 4


@njit(cache=True)
def tt_clear(tt, stats):
    """Empty the table by resetting only the hash heads its entries use.

    Costs time in proportion to the entries stored, not to the table size (a search
    of a few thousand nodes must not pay for zeroing a table of hundreds of MB).
    """
    n = tt.shape[0]
    n_mask = _head_mask(tt, stats)
    for i in range(stats[8]):
        kw0 = tt[i, 0]
        kw1 = tt[i, 1]
        h = _entry_head(kw0, kw1, tt[i, 3], tt[i, 4], n_mask)
        tt[n - 1 - (h >> 2), 2 * (h & 3)] = 0
        h0 = _tt_head(kw0, kw1 & 0xFFF, n_mask)
        tt[n - 1 - (h0 >> 2), 2 * (h0 & 3) + 1] = 0
    stats[8] = 0
    stats[12] = 0


# ---------------------------------------------------------------- static evaluation


@njit(cache=True)
def _cash_line(hands, leader, trump, team, scratch, ply, transfer_first):
    """One line of cashing for :func:`_cash_tricks`; returns ``(tricks, decisive cards)``."""
    otop = 0  # per opponent seat and suit 4 bits: its highest rank there at the start (0 = none)
    olen = 0  # per opponent seat and suit 4 bits: cards it can still hold
    for p in range(4):
        if (team >> p) & 1:
            scratch[2, ply, 4 + p] = hands[p]
        else:
            scratch[2, ply, 4 + p] = 0
            for s in range(4):
                lane = (hands[p] >> (16 * s)) & LANE
                if lane:
                    olen |= popcount(lane) << (4 * (4 * p + s))
                    otop |= highest_index(lane) << (4 * (4 * p + s))
    x = leader
    tricks = 0
    rel = 0
    while scratch[2, ply, 4 + x]:
        lead = -1
        winner_seat = -1
        bar = -1
        for step in range(2):
            transfer = (step == 0) == transfer_first
            for s in range(4):
                mine = (scratch[2, ply, 4 + x] >> (16 * s)) & LANE
                if mine == 0:
                    continue
                # never lead a side suit in which an opponent holding a trump is void;
                # a sure winner beats the top card of every opponent who may still follow
                safe = True
                bar = -1
                for p in range(4):
                    if (team >> p) & 1:
                        continue
                    sh = 4 * (4 * p + s)
                    if (olen >> sh) & 15:
                        if ((otop >> sh) & 15) > bar:
                            bar = (otop >> sh) & 15
                    elif trump >= 0 and s != trump and (olen >> (4 * (4 * p + trump))) & 15:
                        safe = False
                if not safe:
                    continue
                if transfer:
                    low = lowest_index(mine)
                    for p in range(4):
                        if p != x and (team >> p) & 1:
                            lane = (scratch[2, ply, 4 + p] >> (16 * s)) & LANE
                            if lane and highest_index(lane) > bar and highest_index(lane) > low:
                                lead = 16 * s + low
                                winner_seat = p
                                break
                else:
                    top = highest_index(mine)
                    if top > bar:
                        lead = 16 * s + top
                        winner_seat = x
                if lead >= 0:
                    break
            if lead >= 0:
                break
        if lead < 0:
            break
        s = lead >> 4
        scratch[2, ply, 4 + x] ^= 1 << lead
        best = lead
        best_seat = x
        played = 1 << lead
        for i in range(1, 4):
            p = (x + i) & 3
            if (team >> p) & 1:
                lane = (scratch[2, ply, 4 + p] >> (16 * s)) & LANE
                if lane:
                    c = 16 * s + (highest_index(lane) if p == winner_seat else lowest_index(lane))
                else:
                    # discard the lowest card of the longest side suit, else the lowest trump
                    su_d = trump
                    ln_d = 0
                    for su in range(4):
                        ln_ = popcount((scratch[2, ply, 4 + p] >> (16 * su)) & LANE)
                        if su != trump and ln_ > ln_d:
                            su_d = su
                            ln_d = ln_
                    c = 16 * su_d + lowest_index((scratch[2, ply, 4 + p] >> (16 * su_d)) & LANE)
                scratch[2, ply, 4 + p] ^= 1 << c
                played |= 1 << c
                if beats(c, best, trump):
                    best = c
                    best_seat = p
            else:
                sh = 4 * (4 * p + s)
                if (olen >> sh) & 15:
                    olen -= 1 << sh
        # the winner's rank is needed when it beat a teammate's card of its suit or an
        # opponent's top card; the other cards of the line are "lowest of a suit"
        if (played & (LANE << (16 * (best >> 4))) & ~(1 << best)) or ((best >> 4) == s and bar >= 0):
            rel |= 1 << best
        x = best_seat
        tricks += 1
    return tricks, rel


@njit(cache=True)
def _cash_tricks(hands, leader, trump, team, scratch, ply, need):
    """Tricks the leader's team can take in a row from here, whatever the others do.

    Two lines of play are played out: the team member on lead cashes its highest card
    of a suit when it is a sure winner, or leads low to a teammate's sure winner (an
    entry, also used to unblock), one line preferring the first, one the second;
    teammates follow low or discard from their longest side suit. A card is a sure
    winner when it beats the top card (at the start) of every opponent (seat not in
    ``team``) that may still hold a card of its suit. Side suits in which an opponent
    who still holds a trump is void are never led. Neither line depends on how the
    opponents play, so the better count is a lower bound on the team's tricks; the
    winning cards whose rank the line needs are returned with it. The team's hands are
    played out in ``scratch[2, ply, 4:8]``. Only a count of at least ``need`` matters: the lines
    are not played out when a cheap bound (per suit in which the team holds a card above
    every opponent's, its longest holding) is below it, and the second line only when
    the first falls short. Returns ``(tricks, decisive cards)``, ``(0, 0)`` when skipped.
    """
    bound = 0
    for s in range(4):
        top_team = -1
        top_opp = -1
        longest = 0
        for p in range(4):
            lane = (hands[p] >> (16 * s)) & LANE
            if lane:
                if (team >> p) & 1:
                    top_team = max(top_team, highest_index(lane))
                    longest = max(longest, popcount(lane))
                else:
                    top_opp = max(top_opp, highest_index(lane))
        if top_team > top_opp:
            bound += longest
    if bound < need:
        return 0, 0
    a, rel_a = _cash_line(hands, leader, trump, team, scratch, ply, False)
    if a >= need:
        return a, rel_a
    b, rel_b = _cash_line(hands, leader, trump, team, scratch, ply, True)
    if b > a:
        return b, rel_b
    return a, rel_a


@njit(cache=True)
def _second_hand_tricks(hands, player, trump, lead_suit, win_card, win_seat, team, need):
    """Tricks the second hand's team takes for sure, the trick in progress first (as DDS's
    quick tricks for the second hand).

    The team takes the current trick when its best card of the suit led among the seats
    still to play (or the lead itself, led by a teammate) beats every card of the suit
    the opponents still to play hold and no such opponent can ruff; or when a teammate
    still to play can ruff and no opponent still to play can ruff. Only in no trump, the
    winner ``hh`` of a trick won by rank then cashes its cards of the suit led that are
    above every other hand's, its top card of each other suit, and every card of a suit
    no other hand holds. Only a count of at least ``need`` matters: returns
    ``(tricks, decisive cards)``, ``(0, 0)`` when the team does not surely take the trick.
    """
    ss = lead_suit
    best = -1
    holder = -1
    opp_top = -1
    if (team >> win_seat) & 1:
        best = win_card & 15
        holder = win_seat
    else:
        opp_top = win_card & 15
    ruffer = -1
    for i in range(3):
        p = (player + i) & 3
        lane = (hands[p] >> (16 * ss)) & LANE
        ruffs = lane == 0 and trump >= 0 and ss != trump and (hands[p] >> (16 * trump)) & LANE
        if (team >> p) & 1:
            if lane and highest_index(lane) > best:
                best = highest_index(lane)
                holder = p
            elif ruffs:
                ruffer = p
        elif ruffs:
            return 0, 0
        elif lane:
            opp_top = max(opp_top, highest_index(lane))
    if best > opp_top:
        rel = 1 << (16 * ss + best)
    elif ruffer >= 0:
        return 1, 0
    else:
        return 0, 0
    tricks = 1
    if tricks >= need or trump >= 0:
        return tricks, rel
    hh = holder
    others = 0
    for p in range(4):
        if p != hh:
            others |= hands[p]
    for s in range(4):
        mine = (hands[hh] >> (16 * s)) & LANE
        if s == ss:
            mine &= ~(1 << best)
        if mine == 0:
            continue
        theirs = (others >> (16 * s)) & LANE
        if theirs == 0:
            tricks += popcount(mine)
            continue
        bar = highest_index(theirs)
        if s != ss and highest_index(mine) > bar:
            tricks += 1
            rel |= 1 << (16 * s + highest_index(mine))
        elif s == ss:
            while mine and highest_index(mine) > bar:
                top = highest_index(mine)
                tricks += 1
                rel |= 1 << (16 * s + top)
                mine ^= 1 << top
    return tricks, rel


# ---------------------------------------------------------------- move generation


@njit(cache=True, inline="always")
def _can_beat(hand, card, lead_suit, trump):
    """Can a player holding ``hand`` beat ``card`` in a trick led in ``lead_suit`` (following suit)?"""
    lane = (hand >> (16 * lead_suit)) & LANE
    if lane:
        return (card >> 4) == lead_suit and highest_index(lane) > (card & 15)
    if trump >= 0:
        tlane = (hand >> (16 * trump)) & LANE
        if tlane:
            return (card >> 4) != trump or highest_index(tlane) > (card & 15)
    return False


@njit(cache=True, inline="always")
def _safe_win(hands, player, card, lead_suit, trump, team_mask):
    """Second hand: no opponent after ``player`` in the trick can beat ``card``."""
    for i in (1, 2):
        p = (player + i) & 3
        if not (team_mask >> p) & 1 and _can_beat(hands[p], card, lead_suit, trump):
            return False
    return True


@njit(cache=True, inline="always")
def _sequence_low(top, lane_l, lane_r):
    """The lowest card of the sequence that starts at ``top`` among a player's cards of one
    suit (``lane_l``; every remaining card ``lane_r`` between two of its cards is the
    player's), and ``lane_l`` without the sequence."""
    lane_l ^= 1 << top
    x = top
    while True:
        below = lane_r & ((1 << x) - 1)
        if below == 0 or not (lane_l >> highest_index(below)) & 1:
            return x, lane_l
        x = highest_index(below)
        lane_l ^= 1 << x


@njit(cache=True, inline="always")
def _holder(hands, card):
    for p in range(4):
        if (hands[p] >> card) & 1:
            return p
    return -1


@njit(cache=True)
def _lead_suit(hands, player, team_mask, trump, s, lane_r, tl):
    """What the lead ordering (:func:`_lead_card`) needs to know about suit ``s``.

    The ideas of DDS's lead weights, everybody trying to win tricks: suits that leave
    the opponents few cards to choose from (a void opponent may discard anything) keep
    the search small; a card that wins the trick (its own or a teammate's top card, or
    a teammate's ruff no opponent can beat) is tried first, more so when the second-best
    card sits with the next hand; then leads through the next hand's top card towards a
    teammate and leads from a suit whose next two cards are the team's; underleading
    one's own top card comes late. With trumps, side suits an opponent can ruff are
    discouraged, those a teammate can ruff encouraged. "Teammates" are the other seats
    of ``team_mask``. Returns ``(first, second, kind, wins_top, wins_any, base_win,
    base_lose)``: the two highest remaining cards' ranks, the kind of the suit for the
    card scores (bits: 1 trumps in play, 2 the top card is the player's, 4 a teammate's,
    8 the second card a teammate's, 16 the second card the player's, 32 an opponent's
    top card is a singleton), whether the top card and whether any card wins the trick,
    and the suit's score terms when it wins and when it does not.
    """
    sh = 16 * s
    nxt = (player + 1) & 3  # plays second
    prv = (player + 3) & 3  # plays last
    nxt_opp = not (team_mask >> nxt) & 1
    prv_opp = not (team_mask >> prv) & 1
    trumps = trump >= 0 and (hands[0] | hands[1] | hands[2] | hands[3]) >> (16 * trump) & LANE != 0
    side = trumps and s != trump
    d = 0
    mates = 0
    mates_tr = 0
    opp_tr = 0  # the trumps of the opponents void in the suit
    opp_top = -1
    for p in range(4):
        lane = (hands[p] >> sh) & LANE
        if not (team_mask >> p) & 1:
            ln = popcount(lane)
            d -= ln if ln else tl
            if lane:
                opp_top = max(opp_top, highest_index(lane))
            elif side:
                opp_tr |= (hands[p] >> (16 * trump)) & LANE
        elif p != player:
            mates |= lane
            if trumps:
                mates_tr |= (hands[p] >> (16 * trump)) & LANE
    cnt_n = popcount((hands[nxt] >> sh) & LANE)
    cnt_p = popcount((hands[prv] >> sh) & LANE)
    first = highest_index(lane_r)
    h1 = _holder(hands, sh + first)
    rest = lane_r ^ (1 << first)
    h2 = -1
    h3 = -1
    second = -1
    if rest:
        second = highest_index(rest)
        h2 = _holder(hands, sh + second)
        rest ^= 1 << second
        if rest:
            h3 = _holder(hands, sh + highest_index(rest))
    mate1 = h1 != player and (team_mask >> h1) & 1
    mate2 = h2 >= 0 and h2 != player and (team_mask >> h2) & 1
    mate3 = h3 >= 0 and h3 != player and (team_mask >> h3) & 1
    single_top = (cnt_n == 1 and h1 == nxt and nxt_opp) or (cnt_p == 1 and h1 == prv and prv_opp)
    mates_high = mates != 0 and highest_index(mates) > opp_top
    kind = (1 if trumps else 0) | (2 if h1 == player else 0) | (4 if mate1 else 0) | (8 if mate2 else 0)
    kind |= (16 if h2 == player else 0) | (32 if single_top else 0)
    second_next = h2 == nxt and nxt_opp and cnt_n != 1
    second_prev = h2 == prv and prv_opp and cnt_p != 1
    if (h1 == prv or h2 == prv) and prv_opp and cnt_p != 1:
        through = -1  # the last hand holds a top card
    elif h1 == nxt and nxt_opp and mate2 and popcount((hands[h2] >> sh) & LANE) != 1:
        through = 1  # through the next hand's top card to a teammate's second
    else:
        through = 0
    next_round = 0  # the team holds the second and third cards
    if mate2 and mate3:
        next_round = 2
    elif (h2 == player and mate3 and popcount((hands[h3] >> sh) & LANE) > 1) or (
        mate2 and h3 == player and popcount((hands[h2] >> sh) & LANE) > 1
    ):
        next_round = 1
    if not trumps:
        d = d * 27 // 4  # about 6.7 a card
        if mates == 0:
            d -= 9
        w = d + (18 if second_next or second_prev else 45)
        if second_next:
            w += 22
        elif h2 == nxt and nxt_opp:
            w += 16
        elif second_prev:
            w -= 1
        lose = d + 31 * through if through > 0 else d - 10 * (through < 0)
        lose += (0, 25, 35)[next_round]
        return first, second, kind, True, mates_high, w, lose
    d = d * 39 // 4  # about 9.8 a card
    if opp_tr:
        d -= 12
    if side and mates == 0 and mates_tr and cnt_p > 0:
        d += 17  # a teammate ruffs
    d += 27 * through if through > 0 else -12 * (through < 0)
    ruffs_back = popcount((hands[player] >> sh) & LANE) == 1 and (hands[player] >> (16 * trump)) & LANE
    if side and mate1 and ruffs_back and popcount((hands[h1] >> sh) & LANE) > 1:
        d += 19  # the teammate wins and returns the suit for a ruff
    mate_ruff = mates == 0 and mates_tr != 0 and (opp_tr == 0 or highest_index(mates_tr) > highest_index(opp_tr))
    if not side:
        wins_top = True
        wins_any = mates_high
    else:
        wins_top = opp_tr == 0 or mate_ruff
        wins_any = (mates_high and wins_top) or mate_ruff
    return first, second, kind, wins_top, wins_any, d, d + (0, 13, 20)[next_round]


@njit(cache=True, inline="always")
def _lead_card(facts, top, sequence, rr, killer):
    """Ordering score of leading ``top`` (the highest card of a sequence, ``sequence``: of
    two or more cards; ``rr``: remaining cards of the suit below it) from a suit
    described by :func:`_lead_suit`; ``killer``: the card is the last lead that refuted
    a sibling at this trick depth (DDS's "best move" bonus)."""
    first, second, kind, wins_top, wins_any, w, lose = facts
    if not kind & 1:
        if wins_any or top == first:
            return w + rr + (KILLER_NT_WIN if killer else 0)
        if killer:
            lose += KILLER_NT
        if kind & 32:
            return lose + 28 + rr
        if kind & 2:
            return lose - 17 + rr
        if not sequence:
            return lose + 12 + rr
        return lose + 48 if top == second else lose + 29 - rr
    if wins_any or (top == first and wins_top):
        if killer:
            w += KILLER_WIN
        if kind & 32:
            return w + 35 + rr
        if kind & 2:
            if kind & 8:
                return w + 48 + rr
            return w + 31 if top == first else w - 3 + rr
        if kind & 4:
            return w + 42 + rr if kind & 16 else w + 28 + rr
        if sequence and top == second:
            return w + 40
        return w + 22 + rr if sequence else w + 11 + rr
    if killer:
        lose += KILLER
    if kind & 32:
        return lose + rr + 2
    if kind & 2:
        if kind & 8:
            return lose + 33 + rr
        return lose + 38 if top == first else lose - 14 + rr
    if kind & 4:
        return lose + 34 + rr
    if sequence and top == second:
        return lose + 35
    return lose + 17 - top


@njit(cache=True)
def _gen_moves(
    hands,
    player,
    legal,
    rem,
    pos,
    leader,
    lead_suit,
    win_card,
    win_seat,
    trump,
    tl,
    mmask,
    cmask,
    tt_move,
    scratch,
    ply,
):
    """Write one card per sequence of equivalent legal cards, ordered best-first, to
    ``scratch[0, ply, :]`` (their ordering scores to ``scratch[1, ply, :]``; indexed in
    place, not through row views, which numba would reference-count).

    Two cards of the player are equivalent when every remaining card between them
    (all hands and the trick in progress) is the player's own. Returns the count.
    """
    n = 0
    for s in range(4):
        lane_l = (legal >> (16 * s)) & LANE
        lane_r = (rem >> (16 * s)) & LANE
        while lane_l:
            top = highest_index(lane_l)
            low, lane_l = _sequence_low(top, lane_l, lane_r)
            scratch[0, ply, n] = 16 * s + top
            scratch[1, ply, n] = low
            n += 1
    if n < 2:
        return n
    ww = cmask == mmask  # everybody tries to win tricks (else: everybody ducks)
    my_team = (mmask >> player) & 1
    team_mask = mmask if my_team else 15 ^ mmask
    team_winning = pos > 0 and ((team_mask >> win_seat) & 1) == 1
    # second hand: does the fourth hand (a teammate) beat the card winning now?
    fourth_beats = (
        pos == 1
        and (team_mask >> ((player + 2) & 3)) & 1
        and _can_beat(hands[(player + 2) & 3], win_card, lead_suit, trump)
    )
    if fourth_beats and not (team_mask >> ((player + 1) & 3)) & 1:
        # ... and also beats the best card the third hand can play
        third = hands[(player + 1) & 3]
        lane3 = (third >> (16 * lead_suit)) & LANE
        if lane3:
            fourth_beats = _can_beat(hands[(player + 2) & 3], 16 * lead_suit + highest_index(lane3), lead_suit, trump)
        elif trump >= 0 and (third >> (16 * trump)) & LANE:
            b3 = 16 * trump + highest_index((third >> (16 * trump)) & LANE)
            fourth_beats = _can_beat(hands[(player + 2) & 3], b3, lead_suit, trump)
    last = (player + 1) & 3  # the fourth hand, for the third hand's choice
    last_opp = not (team_mask >> last) & 1
    # third hand: the cheapest card that forces out the fourth hand's top card of the suit
    # (above its second card and above the card winning now), as DDS tries it early
    force = -1
    if pos == 2 and ww and last_opp:
        lane4 = (hands[last] >> (16 * lead_suit)) & LANE
        mine = (legal >> (16 * lead_suit)) & LANE
        if mine and popcount(lane4) >= 2:
            bar = highest_index(lane4 ^ (1 << highest_index(lane4)))
            if (win_card >> 4) == lead_suit:
                bar = max(bar, win_card & 15)
            above = mine & ~((2 << bar) - 1)
            if above and lowest_index(above) < highest_index(lane4):
                force = 16 * lead_suit + lowest_index(above)
    facts = (0, 0, 0, False, False, 0, 0)
    fact_suit = -1
    for k in range(n):
        c = scratch[0, ply, k]
        s = c >> 4
        top = c & 15
        r = top
        lane_r = (rem >> (16 * s)) & LANE
        top_rem = highest_index(lane_r)
        if pos == 0 and ww:
            if s != fact_suit:  # the cards of a suit are consecutive
                facts = _lead_suit(hands, player, team_mask, trump, s, lane_r, tl)
                fact_suit = s
            sc = _lead_card(
                facts, top, scratch[1, ply, k] != top, popcount(lane_r & ((1 << top) - 1)), c == scratch[2, ply, 1] - 1
            )
        elif pos == 0:
            # everybody ducks: low leads first, from suits that leave the opponents few
            # choices (a void one may discard anything), as DDS orders its leads
            sc = 30 - r
            for p in range(4):
                if not (team_mask >> p) & 1:
                    ln = popcount((hands[p] >> (16 * s)) & LANE)
                    sc -= 20 * (ln if ln else tl)
            if top == top_rem:
                sc -= 40
        else:
            wins = beats(c, win_card, trump)
            discard = s != lead_suit and s != trump
            if discard:
                # from a long suit; not from a guarded second-best card or a bare top card
                mine = (legal >> (16 * s)) & LANE
                my_len = popcount(mine)
                sc = 3 * my_len - r
                if my_len == 2 and highest_index(mine) == highest_index(lane_r ^ (1 << top_rem)):
                    sc -= 5
                elif my_len == 1 and top == top_rem:
                    sc -= 6
            if ww and pos == 2:
                # third hand: does the team take the trick once the fourth hand has played?
                best_seat = player if wins else win_seat
                q = _can_beat(hands[last], c if wins else win_card, lead_suit, trump)
                if ((team_mask >> best_seat) & 1 and not q) if last_opp else ((team_mask >> best_seat) & 1 or q):
                    if discard:
                        sc += 60
                    else:
                        sc = 60 - r
                        if s == trump and s != lead_suit:
                            sc -= 10
                elif not discard:
                    sc = -r
                    if s == lead_suit and scratch[1, ply, k] == force - 16 * s:  # its sequence reaches down to it
                        sc += 20
            elif ww and pos == 1 and wins and _safe_win(hands, player, c, lead_suit, trump, team_mask):
                sc = 60 - r
            elif ww:
                if team_winning:
                    if not discard:
                        sc = -r
                        if s == trump and s != lead_suit:
                            sc -= 50
                elif wins:
                    sc = 50 - r
                    if s == trump and s != lead_suit:
                        sc -= 10
                elif not discard:
                    sc = -r
                    if fourth_beats and s == lead_suit:
                        sc += 70  # second hand low when the fourth hand wins anyway
            else:
                sc = r - 50 if wins else r
        if c == tt_move:
            sc += 1000
        scratch[1, ply, k] = sc
    # insertion sort, best first
    for i in range(1, n):
        mv = scratch[0, ply, i]
        sv = scratch[1, ply, i]
        j = i - 1
        while j >= 0 and scratch[1, ply, j] < sv:
            scratch[0, ply, j + 1] = scratch[0, ply, j]
            scratch[1, ply, j + 1] = scratch[1, ply, j]
            j -= 1
        scratch[0, ply, j + 1] = mv
        scratch[1, ply, j + 1] = sv
    return n


@njit(cache=True)
def _extend_rel(rel, legal, rem):
    """Extend the decisive cards over the sequences move generation pruned.

    A card was skipped as equivalent to a higher one of the same player because every
    remaining card between them is the player's own. If the higher card lies inside the
    relevant segment of its suit, the equivalence itself depends on ranks, so the
    segment must reach down to the lowest card of the sequence; below the segment all
    cards are interchangeable and nothing is needed.
    """
    for s in range(4):
        lane_rel = (rel >> (16 * s)) & LANE
        if lane_rel == 0:
            continue
        lane_l = (legal >> (16 * s)) & LANE
        if lane_l == 0:
            continue
        lane_r = (rem >> (16 * s)) & LANE
        low = lowest_index(lane_rel)
        while lane_l:
            top = highest_index(lane_l)
            x, lane_l = _sequence_low(top, lane_l, lane_r)
            if top >= low and x < low:
                low = x
        rel |= 1 << (16 * s + low)
    return rel


@njit(cache=True, inline="always")
def _legal(hand, lead_suit):
    if lead_suit < 0:
        return hand
    follow = hand & (LANE << (16 * lead_suit))
    return follow if follow else hand


# ---------------------------------------------------------------- the search

# An explicit signature: without it numba compiles one copy of the recursive search per
# combination of literal arguments, and such a family of mutually recursive copies does
# not survive numba's on-disk cache (segfault on reload).
_I64 = types.int64
_SEARCH_SIG = types.boolean(
    _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64,  # trump .. trick_mask
    types.int64[:, ::1],  # tt
    _I64,  # use_tt
    types.int64[:, :, ::1],  # scratch (with the hands and the statistics)
)  # fmt: skip


@njit(cache=True)
def _never_wins(hands, trump, group, ducks):
    """The cards that prove the seats in ``group`` win no trick while others lead, or -1.

    The group must hold no trump. Plain form: in every suit the group's highest card is
    below the others' lowest, so it cannot win whatever anybody plays. When ``ducks``
    (the group is one seat that wants to lose every trick) a weaker condition is enough,
    since the seat only has to be able to avoid winning: per suit, with its cards and the others'
    cards of the suit each sorted upwards, its j-th lowest is below the others' j-th
    lowest for every j up to the shorter length. Whatever card the others lead (or make
    the highest of a trick), the seat plays its highest card below it, and that keeps
    the condition (the others' extra cards in a trick only help); when the others run
    out of the suit it is never led again and the seat discards the rest.
    Since the winner leads next, a group not on lead never wins again.
    The proof needs, per suit held by both, the others' lowest card (plain form) or the
    lowest card of the two: the segment from it up holds every card that was compared
    (lengths do the rest).
    """
    mine = 0
    theirs = 0
    for p in range(4):
        if (group >> p) & 1:
            mine |= hands[p]
        else:
            theirs |= hands[p]
    if trump >= 0 and (mine >> (16 * trump)) & LANE:
        return -1
    single = ducks and popcount(group) == 1
    rel = 0
    for s in range(4):
        g = (mine >> (16 * s)) & LANE
        o = (theirs >> (16 * s)) & LANE
        if g == 0 or o == 0:
            continue
        low = min(lowest_index(g), lowest_index(o)) if single else lowest_index(o)
        if single:
            while g and o:
                if lowest_index(g) > lowest_index(o):
                    return -1
                g &= g - 1
                o &= o - 1
        elif highest_index(g) > lowest_index(o):
            return -1
        rel |= 1 << (16 * s + low)
    return rel


@njit(cache=True)
def _forced_win(hands, leader, group):
    """The cards that prove the others can make the one seat in ``group`` win this trick, or -1.

    No trump; the leader is not in ``group``. True when in some suit the seat's lowest
    card is above the leader's lowest card and above the lowest card of every other
    seat that holds the suit: the leader leads its lowest, the others follow low, and
    the seat must follow with a card that wins. Decisive: those lowest cards (the
    segment from the lowest of them up).
    """
    m = highest_index(group)
    for s in range(4):
        mine = (hands[m] >> (16 * s)) & LANE
        lead = (hands[leader] >> (16 * s)) & LANE
        if mine == 0 or lead == 0:
            continue
        low_m = lowest_index(mine)
        low = lowest_index(lead)
        if low > low_m:
            continue
        forced = True
        for p in range(4):
            lane = (hands[p] >> (16 * s)) & LANE
            if p != m and p != leader and lane:
                if lowest_index(lane) > low_m:
                    forced = False
                low = min(low, lowest_index(lane))
        if forced:
            return 1 << (16 * s + low)
    return -1


@njit(_SEARCH_SIG, cache=True)
def _search(
    trump,
    mmask,
    cmask,
    lo,
    hi,
    tl,
    ply,
    pos,
    leader,
    lead_suit,
    win_card,
    win_seat,
    trick_mask,
    tt,
    use_tt,
    scratch,
):
    """Can the maximisers make the counted tricks from here land in [lo, hi]?

    ``tl`` = tricks left including the one in progress; ``pos`` = cards already played
    to it; ``lead_suit``/``win_card``/``win_seat`` describe it (-1 when pos == 0);
    ``trick_mask`` = its cards. Returns a bool and leaves in ``scratch[2, ply, 0]`` the
    cards that decided it (see the transposition-table notes); ``hands`` is restored.
    The hands and the statistics are rows of ``scratch`` (fewer arguments to pass).
    """
    hands = scratch[STATE, HANDS]
    stats = scratch[STATE, STATS]
    stats[0] += 1
    # typed (not literal) constants for the recursive calls: a literal argument would
    # make numba type a second copy of this function
    zero = np.int64(0)
    no_card = np.int64(-1)
    player = (leader + pos) & 3
    if pos == 0:
        stats[7] += 1
        if stats[10] > 0 and stats[7] > stats[10]:
            stats[11] = 1  # the limit is checked at trick starts; frames above return as they resume
            return False
    store = False
    tt_move = -1
    flip = False
    kw0 = 0
    kw1b = 0
    c0 = 0
    c1 = 0
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    one_sided = True
    if pos == 0:
        if lo <= 0 and hi >= tl:
            scratch[2, ply, 0] = 0
            return True
        if lo > tl or hi < 0 or lo > hi:
            scratch[2, ply, 0] = 0
            return False
        if lo <= 0:
            # "at most hi counted tricks" == "at least tl - hi tricks for the others"
            cmask = 15 ^ cmask
            lo = tl - hi
            hi = BIG
        # a set of seats not on lead that can never win a trick (see _never_wins) never
        # gets the lead back: the counted tricks are then 0 or all of them (misère proofs)
        # (a group that wants to lose: a minimiser counted, or a maximiser not counted)
        if not (cmask >> leader) & 1:
            nw = _never_wins(hands, trump, cmask, (cmask & mmask) == 0)
            if nw >= 0:
                scratch[2, ply, 0] = nw
                return lo <= 0 <= hi
        else:
            nw = _never_wins(hands, trump, 15 ^ cmask, ((15 ^ cmask) & ~mmask) == 0)
            if nw >= 0:
                scratch[2, ply, 0] = nw
                return lo <= tl <= hi
            # misère (one seat wants to lose every trick, the others want it to win one)
            if lo == tl and trump < 0 and mmask == 15 ^ cmask and popcount(mmask) == 1:
                fw = _forced_win(hands, leader, mmask)
                if fw >= 0:
                    scratch[2, ply, 0] = fw
                    return False
        if tl == 1:
            # last trick: every card is forced
            best = lowest_index(hands[leader])
            ws = leader
            same = False
            for i in range(1, 4):
                p = (leader + i) & 3
                ci = lowest_index(hands[p])
                if (ci >> 4) == (best >> 4):
                    same = True
                    if ci > best:
                        best = ci
                        ws = p
                elif (ci >> 4) == trump:
                    same = False
                    best = ci
                    ws = p
            scratch[2, ply, 0] = (1 << best) if same else 0
            got = (cmask >> ws) & 1
            return lo <= got <= hi
        one_sided = hi >= tl
        # trump bounds: the highest trump takes a trick for its holder's side, the two
        # highest take two when one hand holds both, or when a side that wants tricks
        # holds both with another trump beside either (so they need never fall in the
        # same trick); when one side holds no trump the other wins a trick with every
        # trump of its longest trump hand (only trumps can win a trick that contains a trump)
        if trump >= 0:
            tr = rem & (LANE << (16 * trump))
            if tr:
                top = highest_index(tr)
                below = tr ^ (1 << top)
                second = highest_index(below) if below else -1
                c_len = 0
                o_len = 0
                top_seat = 0
                second_seat = -1
                for p in range(4):
                    ln = popcount(hands[p] & tr)
                    if (hands[p] >> top) & 1:
                        top_seat = p
                    if second >= 0 and (hands[p] >> second) & 1:
                        second_seat = p
                    if (cmask >> p) & 1:
                        c_len = max(c_len, ln)
                    else:
                        o_len = max(o_len, ln)
                sure = 1
                dec = 1 << top
                # (in two hands only when their side wants the tricks: else it may play both to
                # one trick; a side asked for an exact count may want either, so not then)
                if second_seat == top_seat or (
                    one_sided
                    and second_seat >= 0
                    and ((cmask >> top_seat) ^ (cmask >> second_seat)) & 1 == 0
                    and ((cmask ^ mmask) >> top_seat) & 1 == 0
                    and ((cmask ^ mmask) >> second_seat) & 1 == 0
                    and (popcount(hands[top_seat] & tr) > 1 or popcount(hands[second_seat] & tr) > 1)
                ):
                    sure = 2
                    dec = 1 << second
                c_top = (cmask >> top_seat) & 1 == 1
                lb = c_len if o_len == 0 else (sure if c_top else 0)
                ub = tl - (o_len if c_len == 0 else (0 if c_top else sure))
                if lb >= lo and ub <= hi:
                    stats[4] += 1
                    scratch[2, ply, 0] = dec
                    return True
                if ub < lo or lb > hi:
                    stats[4] += 1
                    scratch[2, ply, 0] = dec
                    return False
        if use_tt:
            tag = -1
            if one_sided:
                m = mmask
                c = cmask
                if not (m & 1):
                    flip = True
                    m = 15 ^ m
                    c = 15 ^ c
                tag = m | ((1 if c != m else 0) << 4)
            elif lo == hi and lo < 16:
                tag = mmask | ((1 if cmask != mmask else 0) << 4) | (1 << 5) | (lo << 6)
            if tag >= 0:
                store = True
                kw0 = _lengths_key(hands)
                kw1b = leader | (tag << 2)
                c0 = pext(hands[1] | hands[3], rem)
                c1 = pext(hands[2] | hands[3], rem)
                # the canonical value v (counted tricks of the canonical question) answers the
                # question by v >= thr (flipped: by v < thr); one matching entry whose bound
                # decides it is enough
                if one_sided:
                    thr = tl - lo + 1 if flip else lo
                    high_means = not flip
                else:
                    thr = 1
                    high_means = True
                n_mask = _head_mask(tt, stats)
                n_rows = tt.shape[0]
                h0 = _tt_head(kw0, kw1b, n_mask)
                present = tt[n_rows - 1 - (h0 >> 2), 2 * (h0 & 3) + 1]
                nonempty = 0
                for su in range(4):
                    if (rem >> (16 * su)) & LANE:
                        nonempty |= 1 << su
                owners = _top_owners(hands, rem, nonempty)
                while present:
                    code = lowest_index(present)
                    present &= present - 1
                    while code < N_CODES:
                        suits = _CODE_SUITS[code]
                        if suits & ~nonempty:
                            code += 64
                            continue
                        kw1 = kw1b | (code << 12) | ((owners & _PAT_OWNER_MASK[suits]) << 19)
                        h = _entry_head(kw0, kw1, c0, c1, n_mask)
                        idx = tt[n_rows - 1 - (h >> 2), 2 * (h & 3)]
                        code += 64
                        while idx:
                            i = idx - 1
                            idx = tt[i, 5]
                            stats[6] += 1
                            if tt[i, 0] != kw0 or tt[i, 1] != kw1:
                                continue
                            sm = tt[i, 2]
                            if (c0 & sm) != tt[i, 3] or (c1 & sm) != tt[i, 4]:
                                continue
                            v = tt[i, 6]
                            if (v & 255) >= thr or ((v >> 8) & 255) < thr:
                                stats[1] += 1
                                scratch[2, ply, 0] = pdep(sm, rem)
                                return high_means == ((v & 255) >= thr)
                            if v >> 16:
                                tt_move = (v >> 16) - 1
                if tt_move >= 0:
                    s = tt_move >> 4
                    lane = (rem >> (16 * s)) & LANE
                    for _ in range(tt_move & 15):
                        if lane:
                            lane ^= 1 << highest_index(lane)
                    if lane:
                        cand = 16 * s + highest_index(lane)
                        tt_move = cand if (hands[player] >> cand) & 1 else -1
                    else:
                        tt_move = -1
    # quick tricks of the side on lead (after the table: a table hit is cheaper)
    if pos == 0 and one_sided and cmask == mmask:
        if (mmask >> leader) & 1:
            qt, qrel = _cash_tricks(hands, leader, trump, mmask, scratch, ply, lo)
            if qt >= lo:
                stats[3] += 1
                scratch[2, ply, 0] = qrel
                return True
        else:
            qt, qrel = _cash_tricks(hands, leader, trump, 15 ^ mmask, scratch, ply, tl - lo + 1)
            if tl - qt < lo:
                stats[3] += 1
                scratch[2, ply, 0] = qrel
                return False
    if pos == 1 and cmask == mmask and hi >= tl:
        is_max = (mmask >> player) & 1
        need = lo if is_max else tl - lo + 1
        if need == 1 or trump < 0:
            qt, qrel = _second_hand_tricks(
                hands, player, trump, lead_suit, win_card, win_seat, mmask if is_max else 15 ^ mmask, need
            )
            if qt >= need:
                stats[3] += 1
                scratch[2, ply, 0] = qrel
                return is_max == 1
    legal = _legal(hands[player], lead_suit)
    n = _gen_moves(
        hands,
        player,
        legal,
        rem | trick_mask,
        pos,
        leader,
        lead_suit,
        win_card,
        win_seat,
        trump,
        tl,
        mmask,
        cmask,
        tt_move,
        scratch,
        ply,
    )
    is_max = (mmask >> player) & 1
    result = not is_max
    best = -1
    rel = 0
    # lowest win: per suit 5 bits, the rank below which the player's cards need no search
    # (0 = not set yet; ranks are 2..14, 16 = none of them)
    lowest_win = 0
    for i in range(n):
        c = scratch[0, ply, i]
        su = c >> 4
        rk = c & 15
        lw = (lowest_win >> (5 * su)) & 31
        if rk < lw:
            continue
        bit = 1 << c
        hands[player] ^= bit
        if pos == 0:
            r = _search(
                trump, mmask, cmask, lo, hi, tl, ply + 1, pos + 1, leader, c >> 4, c, player, bit,
                tt, use_tt, scratch,
            )  # fmt: skip
            crel = scratch[2, ply + 1, 0]
        elif pos < 3:
            if beats(c, win_card, trump):
                r = _search(
                    trump, mmask, cmask, lo, hi, tl, ply + 1, pos + 1, leader, lead_suit, c, player,
                    trick_mask | bit, tt, use_tt, scratch,
                )  # fmt: skip
            else:
                r = _search(
                    trump, mmask, cmask, lo, hi, tl, ply + 1, pos + 1, leader, lead_suit, win_card, win_seat,
                    trick_mask | bit, tt, use_tt, scratch,
                )  # fmt: skip
            crel = scratch[2, ply + 1, 0]
        else:
            if beats(c, win_card, trump):
                ws = player
                wc = c
            else:
                ws = win_seat
                wc = win_card
            got = (cmask >> ws) & 1
            r = _search(
                trump, mmask, cmask, lo - got, hi - got, tl - 1, ply + 1, zero, ws, no_card, no_card, no_card,
                zero,
                tt, use_tt, scratch,
            )  # fmt: skip
            crel = scratch[2, ply + 1, 0]
            # the winning card decided the trick if it beat another card of its suit
            if (trick_mask | bit) & (LANE << (16 * (wc >> 4))) & ~(1 << wc):
                crel |= 1 << wc
        hands[player] ^= bit
        if stats[11]:
            return False
        if r == is_max:
            result = r
            best = c
            rel = crel
            if pos == 0:
                scratch[2, ply, 1] = c + 1  # the killer lead of this trick depth
            break
        rel |= crel
        if lw == 0:
            lane_rel = (rel >> (16 * su)) & LANE
            low = lowest_index(lane_rel) if lane_rel else 16
            if rk < low:
                lowest_win |= low << (5 * su)
    if n < popcount(legal):  # some equivalent cards were not searched
        rel = _extend_rel(rel, legal, rem | trick_mask)
    if pos == 0:
        rel = _segment(rel, rem)
    scratch[2, ply, 0] = rel
    if store:
        stats[2] += 1
        seg_m = pext(rel, rem)
        code = 0
        weight = 1
        for su in range(4):
            lane = (rel >> (16 * su)) & LANE
            if lane:
                code += weight * (2 if lane == (rem >> (16 * su)) & LANE else 1)
            weight *= 3
        kw1 = kw1b | (code << 12) | (_top_owners(hands, rem, _CODE_SUITS[code]) << 19)
        mv = -1
        if best >= 0:
            s = best >> 4
            mv = s * 16 + popcount((rem >> (16 * s)) & LANE & ~((2 << (best & 15)) - 1))
        # which bound the answer tightens (value = counted tricks of the canonical question)
        if one_sided:
            if not flip:
                set_lb = result
                value = lo if result else lo - 1
            else:
                set_lb = not result
                value = tl - lo if result else tl - lo + 1
        else:
            set_lb = result
            value = 1 if result else 0
        _tt_store(tt, stats, kw0, kw1, seg_m, c0, c1, tl, set_lb, value, mv)
    return result


# ---------------------------------------------------------------- entry points


@njit(cache=True, inline="always")
def _start_question(hands, scratch):
    """Copy the hands into the scratch array and forget the killer leads, so that a
    question's search (and node count) does not depend on the questions before it."""
    scratch[STATE, HANDS, :4] = hands
    scratch[2, :, 1] = 0


@njit(cache=True)
def _trick_state(trick, n_trick, leader, trump):
    """(lead_suit, win_card, win_seat, trick_mask) of a trick in progress."""
    if n_trick == 0:
        return -1, -1, -1, 0
    lead_suit = trick[0] >> 4
    win_card = trick[0]
    win_seat = leader
    mask = 1 << trick[0]
    for i in range(1, n_trick):
        c = trick[i]
        mask |= 1 << c
        if beats(c, win_card, trump):
            win_card = c
            win_seat = (leader + i) & 3
    return lead_suit, win_card, win_seat, mask


@njit(cache=True)
def dd_test(
    hands,
    trump,
    mmask,
    cmask,
    lo,
    hi,
    leader,
    trick,
    n_trick,
    tt,
    use_tt,
    scratch,
):
    """Can the seats in ``mmask`` make the tricks of ``cmask`` from here land in [lo, hi]?

    ``trick[:n_trick]`` are the cards already played to the current trick (from
    ``leader``); tricks are counted from the current trick on. Returns a bool.
    """
    lead_suit, win_card, win_seat, tmask = _trick_state(trick, n_trick, leader, trump)
    player = (leader + n_trick) & 3
    tl = popcount(hands[player])
    _start_question(hands, scratch)
    scratch[STATE, STATS, 5] += 1
    return _search(
        trump,
        mmask,
        cmask,
        lo,
        hi,
        tl,
        0,
        n_trick,
        leader,
        lead_suit,
        win_card,
        win_seat,
        tmask,
        borrowed(tt),
        use_tt,
        borrowed(scratch),
    )


@njit(cache=True)
def dd_value(
    hands,
    trump,
    mmask,
    cmask,
    leader,
    trick,
    n_trick,
    guess,
    tt,
    use_tt,
    scratch,
):
    """Minimax number of ``cmask`` tricks from here when ``mmask`` maximises them.

    A sequence of zero-window tests: the first at ``guess``, then at the middle of the
    interval still open (each test reuses the bounds the previous ones left in the
    table). Tests a trick or two on the wrong side of the value are the expensive ones:
    stepping by one from a guess three tricks off (thomas1 at no trump, guess 9, value
    5) tested 8, 7 and 6 for 39 M trick nodes, halving tests 4 and 6 for 17 M; on 200
    list1000 deals halving costs 7 % more trick nodes than stepping by one. Returns an
    int.
    """
    lead_suit, win_card, win_seat, tmask = _trick_state(trick, n_trick, leader, trump)
    player = (leader + n_trick) & 3
    tl = popcount(hands[player])
    _start_question(hands, scratch)
    lo_b = 0
    hi_b = tl
    g = guess
    while lo_b < hi_b:
        t = g
        if t < lo_b + 1:
            t = lo_b + 1
        if t > hi_b:
            t = hi_b
        scratch[STATE, STATS, 5] += 1
        if _search(
            trump,
            mmask,
            cmask,
            t,
            BIG,
            tl,
            0,
            n_trick,
            leader,
            lead_suit,
            win_card,
            win_seat,
            tmask,
            borrowed(tt),
            use_tt,
            borrowed(scratch),
        ):
            lo_b = t
        else:
            hi_b = t - 1
        g = (lo_b + hi_b + 1) // 2
    return lo_b


@njit(cache=True)
def dd_solve(
    hands,
    trump,
    side,
    objective,
    k,
    leader,
    trick,
    n_trick,
    guess,
    tt,
    use_tt,
    scratch,
):
    """Solve a position for ``side`` (seat mask) under an objective.

    ``objective``: OBJ_MAX → most tricks the side can force; OBJ_MIN → fewest tricks the
    side can hold itself to; OBJ_EXACT → 1 if the side can force exactly ``k`` tricks,
    else 0. Tricks count from the current trick on. ``guess`` seeds the search (any value
    is correct; a close one is faster).
    """
    player = (leader + n_trick) & 3
    tl = popcount(hands[player])
    if objective == OBJ_MAX:
        return dd_value(
            hands,
            trump,
            side,
            side,
            leader,
            trick,
            n_trick,
            guess,
            tt,
            use_tt,
            scratch,
        )
    if objective == OBJ_MIN:
        return tl - dd_value(
            hands,
            trump,
            side,
            15 ^ side,
            leader,
            trick,
            n_trick,
            tl - guess,
            tt,
            use_tt,
            scratch,
        )
    ok = dd_test(
        hands,
        trump,
        side,
        side,
        k,
        k,
        leader,
        trick,
        n_trick,
        tt,
        use_tt,
        scratch,
    )
    return 1 if ok else 0


@njit(cache=True)
def dd_card_values(
    hands,
    trump,
    side,
    objective,
    k,
    leader,
    trick,
    n_trick,
    tt,
    use_tt,
    scratch,
    out,
):
    """Value of every legal card of the player to move, written to ``out`` (int64[64]).

    ``out[card]`` = the objective's value (tricks from the current trick on, or 1/0 for
    OBJ_EXACT) after that card and best play by everybody, -1 for cards that are not
    legal. Equivalent cards (a sequence) share one search.
    """
    for i in range(64):
        out[i] = -1
    lead_suit, _win_card, _win_seat, tmask = _trick_state(trick, n_trick, leader, trump)
    player = (leader + n_trick) & 3
    tl = popcount(hands[player])
    legal = _legal(hands[player], lead_suit)
    rem = hands[0] | hands[1] | hands[2] | hands[3] | tmask
    t2 = trick.copy()
    m = legal
    last = -1
    last_val = 0
    while m:
        c = highest_index(m)
        m ^= 1 << c
        # equivalent to the previous (higher) card when nothing remains between them
        if (
            last >= 0
            and (last >> 4) == (c >> 4)
            and (rem & ((1 << last) - (2 << c))) == (legal & ((1 << last) - (2 << c)))
        ):
            out[c] = last_val
            last = c
            continue
        hands[player] ^= 1 << c
        t2[n_trick] = c
        if n_trick < 3:
            v = dd_solve(
                hands,
                trump,
                side,
                objective,
                k,
                leader,
                t2,
                n_trick + 1,
                tl // 2,
                tt,
                use_tt,
                scratch,
            )
        else:
            _ls, _wc, ws, _ = _trick_state(t2, 4, leader, trump)
            got = (side >> ws) & 1
            if objective == OBJ_EXACT:
                ok = dd_test(
                    hands,
                    trump,
                    side,
                    side,
                    k - got,
                    k - got,
                    ws,
                    t2,
                    0,
                    tt,
                    use_tt,
                    scratch,
                )
                v = 1 if ok else 0
            elif tl == 1:
                v = got
            else:
                v = got + dd_solve(
                    hands,
                    trump,
                    side,
                    objective,
                    k,
                    ws,
                    t2,
                    0,
                    (tl - 1) // 2,
                    tt,
                    use_tt,
                    scratch,
                )
        hands[player] ^= 1 << c
        out[c] = v
        last = c
        last_val = v
    return 0
