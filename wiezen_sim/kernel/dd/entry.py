"""Entry points of the double-dummy search (numba): one question about a position.

:func:`dd_test` asks whether the maximisers can make the counted tricks land in a
window, :func:`dd_value` finds the minimax trick count by zero-window tests,
:func:`dd_solve` answers an objective (``OBJ_*``) for a side and
:func:`dd_card_values` values every legal card of the player to move. Every entry
point takes the caller's state arrays (:mod:`.layout`, :func:`new_scratch`), copies the
hands into the scratch array and forgets the killer leads, so that a question's search
and node count do not depend on the questions before it (the table is emptied by the
caller, :func:`.table.tt_clear`). They trust their arguments: the solver layer validates.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wiezen_sim.kernel.bits import address, highest_index, popcount
from wiezen_sim.kernel.dd.layout import (
    BIG,
    HANDS,
    KILLER_LEAD,
    OBJ_EXACT,
    OBJ_MAX,
    OBJ_MIN,
    PER_PLY,
    SCRATCH_MOVES,
    SCRATCH_PLIES,
    SCRATCH_ROWS,
    STAT_EXACT_BUDGET,
    STAT_LIMIT_EXCEEDED,
    STAT_NODE_LIMIT,
    STAT_RACE_AFTER,
    STAT_RACE_FLOORS,
    STAT_SEARCHES,
    STAT_TRICK_NODES,
    STATE,
    STATS,
    TT_COLUMNS,
    check_shapes,
)
from wiezen_sim.kernel.dd.moves import _legal
from wiezen_sim.kernel.dd.race import race_test
from wiezen_sim.kernel.dd.search import _search
from wiezen_sim.kernel.trick import beats

# An exact question (exactly k tricks) first asks whether the side can force at least k, within
# this many trick nodes: refuted there, it is answered (a pico declarer that cannot force a trick:
# 2.6 M trick nodes -> 2,900 on misere_corpus.py's worst such deal; the exact search's defenders
# try first to force a second trick). Unbounded, that test cost up to 550,000 trick nodes where
# the exact search took 100 (misere_corpus.py --kinds pico,ge1).
EXACT_PRECHECK_BUDGET = 8192
# A count's zero-window tests after the first (at the greedy playout's count, the solver's guess) move the target by
# one trick toward the value this many times, then halve the interval still open (dd_value). The playout is
# mostly right or a trick or two too many (100 lone declarers' counts in advise: right on 50, one over on 42, two
# on 6), and the tests a trick off the value are the costly ones: stepping skips the far ones halving makes.
# Emulated test by test, against the first test one over the playout and halving: 200 list1000 deals
# (20 counts each) 197.5 M -> 188.7 M trick nodes (-4.5 %); the lone declarer's counts of four solo candidates,
# 40 deals each, 0 to -10 %; thomas1 at no trump, the playout three over, 97.6 M -> 105.6 M (+8 %). Stepping
# without limit gained another 0.5 % on list1000 and did not finish thomas1 in 10 minutes (results/benchmarks).
COUNT_STEPS = 2
# A lone declarer's count with trumps: a test that passes RACE_AFTER trick nodes is asked of the race game
# (kernel.dd.race, a floor: the side suits without ranks) within RACE_BUDGET of its trick starts; shown there, the
# test is answered without the rest of its proof, else searched in full (and the race game is not asked again
# above it). The dear part of a weak declarer's count is such a proof: "at least 1" of S:KT832 H:872 D:Q5 C:654
# took 7.8 M trick nodes (3.3 s), the race game shows it in 452,063 of its trick starts (0.07 s). The 543 lone
# declarers' counts of advise_suite's first 4 deals (session 49, answers identical): 55.84 M trick nodes ->
# 29.69 M and 28.07 M of the race game's, CPU 29.9 -> 19.3 s; budgets 50,000 / 200,000 / 400,000 / 2,000,000:
# 48.49 / 40.29 / 31.17 / 29.70 M trick nodes; RACE_AFTER 5,000 / 10,000 / 50,000 / 100,000 (budget 100,000 /
# 800,000 / 200,000 / 1,000,000): 44.74 / 28.74 / 42.17 / 34.73 M with more of the race game's
RACE_AFTER = 20_000
RACE_BUDGET = 800_000


@njit(cache=True)
def new_scratch():
    """Zeroed scratch array of one solver (int64[SCRATCH_ROWS, SCRATCH_PLIES, SCRATCH_MOVES],
    layout in :mod:`.layout`)."""
    return np.zeros((SCRATCH_ROWS, SCRATCH_PLIES, SCRATCH_MOVES), dtype=np.int64)


@njit(cache=True, inline="always")
def _start_budget(stats, budget):
    """Lower the node limit to ``budget`` more trick nodes (never past the question's own limit) for a
    search that may be cut off; returns the question's limit, for :func:`_end_budget`."""
    limit = stats[STAT_NODE_LIMIT]
    stats[STAT_NODE_LIMIT] = stats[STAT_TRICK_NODES] + budget
    if 0 < limit < stats[STAT_NODE_LIMIT]:
        stats[STAT_NODE_LIMIT] = limit
    return limit


@njit(cache=True, inline="always")
def _end_budget(stats, limit):
    """Put the question's limit back after a search within :func:`_start_budget`: 0 the search finished,
    1 only the budget ran out (the flag is cleared; its unfinished frames stored nothing), 2 the question's
    own limit was passed (the flag stays set: the caller reports it)."""
    stats[STAT_NODE_LIMIT] = limit
    if not stats[STAT_LIMIT_EXCEEDED]:
        return 0
    if 0 < limit < stats[STAT_TRICK_NODES]:
        return 2
    stats[STAT_LIMIT_EXCEEDED] = 0
    return 1


@njit(cache=True, inline="always")
def _start_question(hands, tt, scratch):
    """Copy the hands into the scratch array and forget the killer leads, so that a
    question's search (and node count) does not depend on the questions before it.

    Raises ValueError when ``tt`` or ``scratch`` is not shaped as :mod:`.layout` says (the
    search views them by address with those shapes and would read outside them).
    """
    check_shapes(tt, TT_COLUMNS, scratch)
    scratch[STATE, HANDS, : hands.shape[0]] = hands
    scratch[PER_PLY, :, KILLER_LEAD] = 0


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
    _start_question(hands, tt, scratch)
    scratch[STATE, STATS, STAT_SEARCHES] += 1
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
        address(tt),
        tt.shape[0],
        use_tt,
        address(scratch),
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
    steps,
    tt,
    use_tt,
    scratch,
    race,
):
    """Minimax number of ``cmask`` tricks from here when ``mmask`` maximises them.

    A sequence of zero-window tests (each reuses the bounds the previous ones left in
    the table): the first at ``guess``, then ``steps`` tests (at most) each one trick
    beyond the last toward the value, then each at the middle of the interval still open.
    Tests a trick or two on the wrong side of the value are the expensive ones: stepping
    by one all the way from a guess three tricks off (thomas1 at no trump, guess 9, value
    5) tested 8, 7 and 6 for 39 M trick nodes, halving tests 4 and 6 for 17 M; a guess
    mostly right or a trick off gains by a step or two (:data:`COUNT_STEPS`). A lone
    declarer's test at a trick's start with trumps may be answered by the race game
    (:data:`RACE_AFTER`; ``race``: its table, :func:`.race.race_test`; an empty one turns it off).
    Returns an int.
    """
    lead_suit, win_card, win_seat, tmask = _trick_state(trick, n_trick, leader, trump)
    player = (leader + n_trick) & 3
    tl = popcount(hands[player])
    _start_question(hands, tt, scratch)
    stats = scratch[STATE, STATS]
    racing = race.shape[0] > 0 and n_trick == 0 and trump >= 0 and cmask == mmask and popcount(mmask) == 1
    race_cap = tl + 1  # the race game did not show this many tricks (it shows fewer or none beyond)
    lo_b = 0
    hi_b = tl
    g = guess
    tests = 0
    while lo_b < hi_b:
        t = g
        if t < lo_b + 1:
            t = lo_b + 1
        if t > hi_b:
            t = hi_b
        stats[STAT_SEARCHES] += 1
        racing_t = racing and t < race_cap
        limit = stats[STAT_NODE_LIMIT]
        if racing_t:  # the test within RACE_AFTER trick nodes first
            limit = _start_budget(stats, stats[STAT_RACE_AFTER] if stats[STAT_RACE_AFTER] > 0 else RACE_AFTER)
        made = _search(
            trump, mmask, cmask, t, BIG, tl, 0, n_trick, leader, lead_suit, win_card, win_seat, tmask,
            address(tt), tt.shape[0], use_tt, address(scratch),
        )  # fmt: skip
        if racing_t:
            cut = _end_budget(stats, limit)
            if cut == 2:
                return lo_b  # the question's own limit: the caller reports it
            if cut == 1:
                if race_test(hands, trump, highest_index(mmask), leader, t, RACE_BUDGET, race, scratch):
                    stats[STAT_RACE_FLOORS] += 1
                    made = True
                else:
                    race_cap = t
                    made = _search(
                        trump, mmask, cmask, t, BIG, tl, 0, n_trick, leader, lead_suit, win_card, win_seat, tmask,
                        address(tt), tt.shape[0], use_tt, address(scratch),
                    )  # fmt: skip
        if made:
            lo_b = t
            g = t + 1
        else:
            hi_b = t - 1
            g = t - 1
        tests += 1
        if tests > steps:
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
    race,
):
    """Solve a position for ``side`` (seat mask) under an objective.

    ``objective``: OBJ_MAX → most tricks the side can force; OBJ_MIN → fewest tricks the
    side can hold itself to; OBJ_EXACT → 1 if the side can force exactly ``k`` tricks,
    else 0. Tricks count from the current trick on. ``guess`` seeds the search (any value
    is correct; a close one is faster): for OBJ_MAX the tests step from it (:data:`COUNT_STEPS`).
    ``race``: the race game's table (:func:`dd_value`).
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
            COUNT_STEPS,
            tt,
            use_tt,
            scratch,
            race,
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
            0,  # halving from the first test: the solver's guess here is the middle
            tt,
            use_tt,
            scratch,
            race,
        )
    # exactly k needs at least k: that one-sided test first, within EXACT_PRECHECK_BUDGET trick
    # nodes (a test's setting: stats[STAT_EXACT_BUDGET]); cut off, its unfinished frames stored
    # nothing (the table keeps only finished, correct results) and the exact search follows
    stats = scratch[STATE, STATS]
    limit = _start_budget(stats, stats[STAT_EXACT_BUDGET] if stats[STAT_EXACT_BUDGET] > 0 else EXACT_PRECHECK_BUDGET)
    reach = dd_test(hands, trump, side, side, k, BIG, leader, trick, n_trick, tt, use_tt, scratch)
    cut = _end_budget(stats, limit)
    if cut == 2 or (cut == 0 and not reach):
        return 0  # (2: the question's own limit, which the caller reports)
    ok = dd_test(hands, trump, side, side, k, k, leader, trick, n_trick, tt, use_tt, scratch)
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
    race,
):
    """Value of every legal card of the player to move, written to ``out`` (int64[64]).

    ``out[card]`` = the objective's value (tricks from the current trick on, or 1/0 for
    OBJ_EXACT) after that card and best play by everybody, -1 for cards that are not
    legal. Equivalent cards (a sequence) share one search. ``race``: the race game's table
    (:func:`dd_value`).
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
                race,
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
                    race,
                )
        hands[player] ^= 1 << c
        out[c] = v
        last = c
        last_val = v
    return 0
