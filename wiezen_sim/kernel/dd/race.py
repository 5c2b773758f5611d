"""A lone declarer's sure tricks in the game without side-suit ranks (numba): a floor for its count.

The costliest questions of the advisor's table are the proofs that a weak lone declarer with
trumps takes its few tricks (issue 18): every way three defenders can keep it from them has to
be refuted, and in the real game they differ by their side cards' ranks, which mostly do not
matter. The *race game* forgets them:
- trumps keep their ranks; a trick with a trump in it is won by the highest trump, as in play;
- a side suit is only a number of cards per seat, except the declarer's *top cards* of it: its
  cards above every defender's card of that suit (they stay above: cards only leave the hands);
- a trick without a trump is won by the declarer when it played a top card of the suit led, and
  otherwise by any seat that followed the suit led, the defenders' choice (the declarer too);
- every seat follows suit as in play (the numbers of cards tell who can), and a seat that cannot
  follow plays any card.
Every line of play of the real game is a line of the race game that gives the declarer the same
tricks (the real winner of a trick is among the race game's choices), so the tricks the declarer
can make sure of in the race game it can make sure of in play: a floor (:func:`race_test`). The
game has far fewer positions than the real one (no side ranks, trumps packed to relative ranks),
and its own small table keyed on whole positions (:data:`~.layout.RACE_COLUMNS`).

A position of the race game is four words, one per seat (:func:`race_words`): the seat's trumps
as rank bits (``LANE``), its number of cards in each side suit (4 bits each from ``SIDE_SHIFT``, the
side suits in suit order without the trump) and, for the declarer, its top cards of each side
suit (4 bits each from ``TOPS_SHIFT``). A card played is its trump rank (< ``SIDE_CARD``), a side
card ``SIDE_CARD + k`` or the declarer's top card ``TOP_CARD + k``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from wiezen_sim.kernel.bits import LANE, address, highest_index, pext, popcount
from wiezen_sim.kernel.dd.bounds import _unmatched
from wiezen_sim.kernel.dd.layout import (
    CANDIDATES,
    RACE_COLUMNS,
    RACE_HASH,
    RACE_VALUE,
    RACE_WAYS,
    RACE_WORD,
    RACE_WORDS,
    SCORES,
    STAT_RACE_LIMIT,
    STAT_RACE_NODES,
    STATE,
    STATS,
    check_shapes,
    scratch_view,
    table_view,
)

SIDE_SHIFT = 16  # a seat's cards of side suit k: 4 bits from SIDE_SHIFT + 4 * k
TOPS_SHIFT = 28  # the declarer's top cards of side suit k: 4 bits from TOPS_SHIFT + 4 * k
SIDE_CARD = 16  # a side card of side suit k played: SIDE_CARD + k
TOP_CARD = 20  # the declarer's top card of side suit k played: TOP_CARD + k
START = 100  # _race's pos for the first card of a trick whose start was already looked at
_VALUE_SHIFT = 8  # a table row's RACE_VALUE: its tag | result << _VALUE_SHIFT


@njit(cache=True, inline="always")
def _side(w, k):
    return (w >> (SIDE_SHIFT + 4 * k)) & 15


@njit(cache=True, inline="always")
def _tops(w, k):
    return (w >> (TOPS_SHIFT + 4 * k)) & 15


@njit(cache=True, inline="always")
def _race_hash(a, b, c, d, e):
    h = a * -7046029254386353131 + b
    h = (h ^ ((h >> 29) & 0x7FFFFFFFF)) * -4658895280553007687 + c
    h = (h ^ ((h >> 31) & 0x1FFFFFFFF)) * -7723592293110705685 + d
    h = (h ^ ((h >> 27) & 0x1FFFFFFFFF)) * -7046029254386353131 + e
    h ^= (h >> 31) & 0x1FFFFFFFF
    return h


@njit(cache=True)
def race_words(hands, trump, declarer, words):
    """The race game's position of ``hands`` (int64[4]) with ``declarer`` alone, into ``words`` (int64[4])."""
    for p in range(4):
        w = (hands[p] >> (16 * trump)) & LANE
        k = 0
        for s in range(4):
            if s != trump:
                w |= popcount((hands[p] >> (16 * s)) & LANE) << (SIDE_SHIFT + 4 * k)
                k += 1
        words[p] = w
    k = 0
    for s in range(4):
        if s == trump:
            continue
        theirs = 0
        for p in range(4):
            if p != declarer:
                theirs |= (hands[p] >> (16 * s)) & LANE
        above = ((hands[declarer] >> (16 * s)) & LANE) & ~((2 << highest_index(theirs)) - 1 if theirs else 0)
        words[declarer] |= popcount(above) << (TOPS_SHIFT + 4 * k)
        k += 1


_RACE_SIG = types.boolean(
    types.int64,  # declarer
    types.int64,  # need
    types.int64,  # leader
    types.int64,  # pos
    types.int64,  # lead: the side suit led (-1: trump)
    types.int64,  # ply
    types.int64,  # the race table's address
    types.int64,  # its rows
    types.int64,  # the scratch array's address
)


@njit(_RACE_SIG, cache=True)
def _race(declarer, need, leader, pos, lead, ply, table_at, table_rows, scratch_at):
    """Can the declarer make ``need`` more tricks of the race game from here? The position is in
    ``scratch[STATE, RACE_WORDS]``, the trick's cards in ``scratch[SCORES, ply - pos + q]`` (q-th card);
    candidates in ``scratch[CANDIDATES, ply]``. A search that reaches ``stats[STAT_RACE_LIMIT]`` trick
    starts returns False at once and stores nothing. The arrays are passed by address (:mod:`.layout`)."""
    table = table_view(table_at, table_rows, RACE_COLUMNS)
    scratch = scratch_view(scratch_at)
    words = scratch[STATE, RACE_WORDS]
    stats = scratch[STATE, STATS]
    if pos == 0:
        if need <= 0:
            return True
        d = words[declarer]
        if popcount(d & LANE) + _side(d, 0) + _side(d, 1) + _side(d, 2) < need:
            return False
        if stats[STAT_RACE_NODES] >= stats[STAT_RACE_LIMIT]:
            return False
        stats[STAT_RACE_NODES] += 1
        mine = d & LANE
        theirs = (words[0] | words[1] | words[2] | words[3]) & LANE & ~mine
        if _unmatched(mine, theirs) >= need:  # trumps the defenders' higher ones cannot all beat
            return True
        u = mine | theirs
        k0 = pext(words[0] & LANE, u) | (words[0] & ~LANE)
        k1 = pext(words[1] & LANE, u) | (words[1] & ~LANE)
        k2 = pext(words[2] & LANE, u) | (words[2] & ~LANE)
        k3 = pext(words[3] & LANE, u) | (words[3] & ~LANE)
        tag = leader | (declarer << 2) | (need << 4)
        key = _race_hash(k0, k1, k2, k3, tag)
        first = (key & (table.shape[0] // RACE_WAYS - 1)) * RACE_WAYS  # RACE_WAYS rows per hash value
        for i in range(RACE_WAYS):
            row = first + i
            if (
                table[row, RACE_HASH] == key
                and table[row, RACE_VALUE] & 255 == tag
                and table[row, RACE_WORD] == k0
                and table[row, RACE_WORD + 1] == k1
                and table[row, RACE_WORD + 2] == k2
                and table[row, RACE_WORD + 3] == k3
            ):
                return table[row, RACE_VALUE] >> _VALUE_SHIFT == 1
        r = _race(declarer, need, leader, np.int64(START), np.int64(-1), ply, table_at, table_rows, scratch_at)
        if stats[STAT_RACE_NODES] < stats[STAT_RACE_LIMIT]:
            row = first + ((key >> 40) & (RACE_WAYS - 1))  # replace a pseudo-random way
            table[row, RACE_WORD] = k0
            table[row, RACE_WORD + 1] = k1
            table[row, RACE_WORD + 2] = k2
            table[row, RACE_WORD + 3] = k3
            table[row, RACE_HASH] = key
            table[row, RACE_VALUE] = tag | ((1 if r else 0) << _VALUE_SHIFT)
        return r
    if pos == START:
        pos = 0
    player = (leader + pos) & 3
    w = words[player]
    trumps = w & LANE
    live = (words[0] | words[1] | words[2] | words[3]) & LANE
    for q in range(pos):
        c = scratch[SCORES, ply - pos + q, 0]
        if c < SIDE_CARD:
            live |= 1 << c
    n = 0
    lone = player == declarer
    if pos > 0 and lead >= 0 and _side(w, lead) > 0:  # follows a side suit
        if lone and _tops(w, lead) > 0:
            scratch[CANDIDATES, ply, n] = TOP_CARD + lead
            n += 1
        if not lone or _side(w, lead) > _tops(w, lead):
            scratch[CANDIDATES, ply, n] = SIDE_CARD + lead
            n += 1
    else:
        t = trumps
        while t:  # a trump of each run of its own with no other live trump between
            c = highest_index(t)
            t ^= 1 << c
            if t and (live & ((1 << c) - (2 << highest_index(t)))) == 0:
                continue
            scratch[CANDIDATES, ply, n] = c
            n += 1
        if not (pos > 0 and lead < 0 and trumps):  # no trump to follow a trump lead with: any side card
            for k in range(3):
                if lone and _tops(w, k) > 0:
                    scratch[CANDIDATES, ply, n] = TOP_CARD + k
                    n += 1
                if _side(w, k) > (_tops(w, k) if lone else 0):
                    scratch[CANDIDATES, ply, n] = SIDE_CARD + k
                    n += 1
    for i in range(n):
        c = scratch[CANDIDATES, ply, i]
        if c < SIDE_CARD:
            change = 1 << c
        elif c < TOP_CARD:
            change = 1 << (SIDE_SHIFT + 4 * (c - SIDE_CARD))
        else:
            change = (1 << (SIDE_SHIFT + 4 * (c - TOP_CARD))) + (1 << (TOPS_SHIFT + 4 * (c - TOP_CARD)))
        words[player] -= change
        scratch[SCORES, ply, 0] = c
        led = lead
        if pos == 0:
            led = -1 if c < SIDE_CARD else (c - SIDE_CARD if c < TOP_CARD else c - TOP_CARD)
        if pos < 3:
            r = _race(declarer, need, leader, pos + 1, led, ply + 1, table_at, table_rows, scratch_at)
        else:
            top = -1
            winner = -1
            for q in range(4):
                cq = scratch[SCORES, ply - 3 + q, 0]
                if cq < SIDE_CARD and cq > top:
                    top = cq
                    winner = (leader + q) & 3
            if winner < 0 and scratch[SCORES, ply - 3 + ((declarer - leader) & 3), 0] == TOP_CARD + led:
                winner = declarer
            if winner >= 0:
                won = 1 if winner == declarer else 0
                r = _race(
                    declarer, need - won, winner, np.int64(0), np.int64(-1), ply + 1, table_at, table_rows, scratch_at
                )
            else:  # any seat that followed the suit led may have won it: the defenders choose
                r = True
                for q in range(4):
                    cq = scratch[SCORES, ply - 3 + q, 0]
                    if cq == SIDE_CARD + led or cq == TOP_CARD + led:
                        seat = (leader + q) & 3
                        won = 1 if seat == declarer else 0
                        if not _race(
                            declarer, need - won, seat, np.int64(0), np.int64(-1), ply + 1, table_at, table_rows,
                            scratch_at,
                        ):  # fmt: skip
                            r = False
                            break
        words[player] += change
        if stats[STAT_RACE_NODES] >= stats[STAT_RACE_LIMIT]:
            return False
        if lone and r:
            return True
        if not lone and not r:
            return False
    return not lone


@njit(cache=True)
def race_test(hands, trump, declarer, leader, need, budget, table, scratch):
    """Can a lone ``declarer`` surely take ``need`` tricks from this trick's start, shown in the race game
    within ``budget`` of its trick starts? False: not shown (the real game may still give them).

    ``hands``: int64[4] at a trick's start, ``leader`` to lead; ``trump`` 0..3; ``table``: the race game's
    table (int64[rows, RACE_COLUMNS], rows a power of two; its entries describe whole race positions, so it
    is never emptied); ``scratch``: the search's scratch array (its CANDIDATES and SCORES rows are used as a
    search's nodes use them, its counters ``STAT_RACE_*``, the position kept in ``scratch[STATE, RACE_WORDS]``).
    Raises ValueError when ``table`` or ``scratch`` is not shaped so (the race game views them by address).
    """
    check_shapes(table, RACE_COLUMNS, scratch)
    race_words(hands, trump, declarer, scratch[STATE, RACE_WORDS])
    stats = scratch[STATE, STATS]
    stats[STAT_RACE_LIMIT] = stats[STAT_RACE_NODES] + budget
    ok = _race(
        declarer, need, leader, np.int64(0), np.int64(-1), np.int64(0), address(table), table.shape[0], address(scratch)
    )
    return ok and stats[STAT_RACE_NODES] < stats[STAT_RACE_LIMIT]
