"""The double-dummy search for four players (numba; DESIGN.md layer 3).

Everything is integers: a position is four hand masks, the trump suit (-1 for no
trump), who leads the current trick and the cards already played to it. The side is
a seat mask (bit s = seat s): 1 vs 3 or 2 vs 2 with partners in any seats.

The game searched
-----------------
``mmask`` are the maximising seats, ``cmask`` the seats whose tricks are counted.
``cmask == mmask`` is the ordinary game (the side wants many tricks);
``cmask == 15 ^ mmask`` is the misère game (the side wants the others to take the
tricks, i.e. as few as possible itself). The boolean search :func:`_search` answers:
can the maximisers make the number of counted tricks from here (the trick in progress
included) land in ``[lo, hi]``? One-sided questions (``hi >= tricks left``) are the
zero-window tests of the usual alpha-beta; ``lo == hi`` is the pico question (exactly
K). At trick boundaries a "≤ hi" question is turned into "≥ tl - hi" for the other
counted set, so every one-sided question shares one transposition table.

Speed-ups (all exact): zero-window search on trick targets; a transposition table at
trick boundaries keyed on relative ranks and restricted to the cards that decided the
result (partition search, as in DDS; :mod:`.table`), storing lower/upper bounds and
the best lead; equivalent-card (sequence) pruning; lowest win (after a card is refuted
without its rank mattering, the player's lower cards of that suit are not searched);
the static bounds of :mod:`.bounds` (quick tricks, the trump bounds, a lone declarer's
sure trick and trump lead, a side needing every trick left against a trump behind the
higher ones or, without trumps, against the suits it does not head (as DDS's LaterTricks),
a side that can never win a trick again (a misère declarer: suit by suit, closed forms or the
one-suit game, :mod:`.suit_game`), a misère declarer's exit, the last trick); move ordering by card-play
heuristics after the ideas of DDS's (:mod:`.moves`) with the table's best lead first
(not for a partnership's leads); a lone declarer's defenders probe their early leads,
each within a small budget of trick nodes, before searching any in full
(``PROBE_TL``), and a misère or pico declarer's defenders every card from the middle of
the deal on, within growing budgets (``MISERE_PROBE_TL``); a pico declarer's cards that
take the lead of a trick, or surely take the trick it leads to, are probed before its
ducks (``PICO_WIN_BUDGET``).

The state arrays and their layouts are described in :mod:`.layout`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.dd.bounds import (
    _count_bounds,
    _last_trick,
    _lead_quick_tricks,
    _lone_sure_quick_tricks,
    _second_hand_quick_tricks,
)
from wiezen_sim.kernel.dd.layout import (
    BIG,
    CANDIDATES,
    DECISIVE,
    HANDS,
    KILLER_LEAD,
    PER_PLY,
    STAT_LIMIT_EXCEEDED,
    STAT_NODE_LIMIT,
    STAT_NODES,
    STAT_PROBE_BUDGET,
    STAT_PROBE_TL,
    STAT_QUICK_TRICKS,
    STAT_TOP_TRUMPS,
    STAT_TRICK_NODES,
    STATE,
    STATS,
    TT_COLUMNS,
    scratch_view,
    table_view,
)
from wiezen_sim.kernel.dd.misere import _never_wins_bound
from wiezen_sim.kernel.dd.moves import _extend_rel, _gen_moves, _legal
from wiezen_sim.kernel.dd.table import _position_key, _question_tag, _segment, _tt_probe, _tt_save
from wiezen_sim.kernel.trick import beats

# Probing the early leads of a lone declarer's defenders (_search): at trick starts with at
# least PROBE_TL tricks left, each lead is first searched within PROBE_BUDGET trick nodes
# (the first one tried within as many as all of them together). The weak solo declarer's
# counts in advise (S:T53 H:J964 D:732 C:T32 third QH, seed 1, the test "at least 1 trick"
# failing): the ordering's first opening lead, the ace of trumps, gives the declarer a trick
# and was searched in full (6.2 M trick nodes on deal 3) before the low trump that refutes
# it in 24; with probing 11 000 in all (4 such counts of 14 slow ones: 9.4 M -> 43 000).
# 12 / 1024 / one round: the ordinary solo counts of advise_suite --hands 18 --deals 3
# 2.89 M -> 2.86 M trick nodes; more rounds with growing budgets or PROBE_TL 11 cost 1-3 %
# there and gained nothing on the slow ones.
PROBE_TL = 12
PROBE_BUDGET = 1024
# The same for the defenders of a misère declarer (no trump, one seat that wants to take no
# more trick: "at most 0" for it, or "all of them" for the others) at every card they play,
# leads and follows, from MISERE_PROBE_TL tricks left on, with the budget growing
# MISERE_PROBE_GROWTH-fold per round up to MISERE_PROBE_MAX (2048, 32768, 524288), then in
# full. A misère refutation (a line that forces the declarer to win a trick) is mostly cheap,
# while a defender's card that fails costs a full proof that the declarer escapes; without
# probing, the wrong cards tried first were nearly all the trick nodes of the slow questions
# that the declarer loses. On 120 slow misère questions collected from the PIMC defenders of
# `advise --method pimc` on the example (session 20, results/benchmarks/README.md): 88.6 M ->
# 61.3 M and 24.3 M -> 20.2 M trick nodes (answers identical), CPU -25 %; the advisor's first
# round of miserie under pimc 10-22 % less CPU; misere_corpus.py (double-dummy questions) about
# even. Tried: from 7, 9, 10 or 11 tricks left, first budgets 1024-32768, one round only
# (67.6 M on the first 60), the declarer's cards probed too (one more question past 4 M),
# "at most one" probed too (misere_corpus le1: median halved, total even).
# Pico's defenders too (the declarer wants exactly one trick and has not taken it: "exactly 1"
# for it), whose refutation is to force a second trick or none: misere_corpus.py --kinds pico
# --deals 16, 34.95 M -> 25.17 M trick nodes (answers identical; the one-sure-winner hand
# 8.05 M -> 1.07 M, the pico-or-vraag hand of issue 18 26.6 M -> 23.7 M); only at leads 89.8 M
# instead of 85.0 M on 72 pico questions of three pico candidates (91.9 M before).
MISERE_PROBE_TL = 8
MISERE_PROBE_BUDGET = 2048
MISERE_PROBE_GROWTH = 16
MISERE_PROBE_MAX = 1 << 20
# The exact question of a lone declarer without trump (pico: exactly one trick): when it
# follows, its cards that beat the card winning now are first searched within
# PICO_WIN_BUDGET trick nodes each, before the others in their order (ducks first, winners
# last) and the winners cut off, in full. Taking the trick mostly leaves a misère ending
# that the table or a static bound settles at once, while a duck that fails costs a whole
# proof. advise_suite.json's 10 costliest pico questions (8 of them True): 123.4 M -> 96.5 M
# trick nodes (random_second/6 0: 47.7 M -> 31.8 M); budgets 64 / 1024: 103.2 M / 95.0 M;
# the declarer's last card of the trick only (pos 3), budget 256: 112.1 M.
# Leading too (session 55), its top cards of a suit (they surely take the trick): the pico-or-vraag
# hand of issue 18 (misere_corpus.py --hands 0 --kinds pico --deals 100, answers identical)
# 126.2 M -> 107.4 M trick nodes; on deal 25 the ducking order's first lead, a low spade, made
# it too after 8.3 M while cashing the ace of hearts first proves it in 52 (a budget of 4096 for
# the leads: 107.5 M). The other 8 corpus hands and advise_suite's pico questions about even
# (31.94 M -> 31.85 M): mostly the declarer is not on lead before its trick.
PICO_WIN_BUDGET = 256

# An explicit signature: without it numba compiles one copy of the recursive search per
# combination of literal arguments, and such a family of mutually recursive copies does
# not survive numba's on-disk cache (segfault on reload).
_I64 = types.int64
_SEARCH_SIG = types.boolean(
    _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64,  # trump .. trick_mask
    _I64, _I64,  # tt's address and rows
    _I64,  # use_tt
    _I64,  # scratch's address (with the hands and the statistics)
)  # fmt: skip


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
    tt_at,
    tt_rows,
    use_tt,
    scratch_at,
):
    """Can the maximisers make the counted tricks from here land in [lo, hi]?

    ``tl`` = tricks left including the one in progress; ``pos`` = cards already played
    to it; ``lead_suit``/``win_card``/``win_seat`` describe it (-1 when pos == 0);
    ``trick_mask`` = its cards. Returns a bool and leaves in
    ``scratch[PER_PLY, ply, DECISIVE]`` the cards that decided it (see :mod:`.table`);
    ``hands`` is restored. The hands and the statistics are rows of ``scratch``; the table
    (``tt_rows`` rows) and the scratch array come by address (:mod:`.layout`).
    """
    tt = table_view(tt_at, tt_rows, TT_COLUMNS)
    scratch = scratch_view(scratch_at)
    hands = scratch[STATE, HANDS]
    stats = scratch[STATE, STATS]
    stats[STAT_NODES] += 1
    # typed (not literal) constants for the recursive calls: a literal argument would
    # make numba type a second copy of this function
    zero = np.int64(0)
    no_card = np.int64(-1)
    player = (leader + pos) & 3
    if pos == 0:
        stats[STAT_TRICK_NODES] += 1
        if stats[STAT_NODE_LIMIT] > 0 and stats[STAT_TRICK_NODES] > stats[STAT_NODE_LIMIT]:
            stats[STAT_LIMIT_EXCEEDED] = 1  # checked at trick starts; frames above return as they resume
            return False
    store = False
    tt_move = -1
    flip = False
    key = (0, 0, 0, 0)
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    one_sided = True
    if pos == 0:
        if lo <= 0 and hi >= tl:
            scratch[PER_PLY, ply, DECISIVE] = 0
            return True
        if lo > tl or hi < 0 or lo > hi:
            scratch[PER_PLY, ply, DECISIVE] = 0
            return False
        if lo <= 0:
            # "at most hi counted tricks" == "at least tl - hi tricks for the others"
            cmask = 15 ^ cmask
            lo = tl - hi
            hi = BIG
        answer, dec = _never_wins_bound(hands, trump, mmask, cmask, lo, hi, tl, leader, scratch_at)
        if answer >= 0:
            scratch[PER_PLY, ply, DECISIVE] = dec
            return answer == 1
        if tl == 1:
            ws, dec = _last_trick(hands, leader, trump)
            scratch[PER_PLY, ply, DECISIVE] = dec
            got = (cmask >> ws) & 1
            return lo <= got <= hi
        one_sided = hi >= tl
        # the trump bounds; when one side needs every trick left, does the other surely take one? (as DDS's
        # LaterTricks; ours, session 43: list1000's first 200 tables 185,008,558 -> 176,536,404 trick nodes;
        # solo_corpus.py's exact counts 29.91 M -> 28.97 M, in no trump 21.58 M -> 11.38 M; the vraag tests of
        # advise_suite's first 60 hands 11.76 M -> 11.57 M)
        answer, dec = _count_bounds(hands, rem, trump, mmask, cmask, lo, hi, tl, one_sided, leader)
        if answer >= 0:
            stats[STAT_TOP_TRUMPS] += 1
            scratch[PER_PLY, ply, DECISIVE] = dec
            return answer == 1
        if use_tt:
            tag, flip = _question_tag(mmask, cmask, lo, hi, one_sided)
            if tag >= 0:
                store = True
                key = _position_key(hands, rem, leader, tag)
                answer, dec, tt_move = _tt_probe(tt, stats, hands, rem, leader, key, lo, tl, one_sided, flip)
                if answer >= 0:
                    scratch[PER_PLY, ply, DECISIVE] = dec
                    return answer == 1
    # quick tricks (after the table: a table hit is cheaper)
    answer = -1
    dec = 0
    # (the minimisers' quick tricks also refute an exact question: they hold the count below lo)
    if pos == 0 and cmask == mmask and (one_sided or not (mmask >> leader) & 1):
        answer, dec = _lead_quick_tricks(hands, leader, trump, mmask, lo, tl, scratch_at, ply)
    elif pos > 0 and cmask == mmask:
        if hi >= tl and mmask == 1 << player:
            answer, dec = _lone_sure_quick_tricks(hands, player, trump, lead_suit, win_card, pos, lo)
        if answer < 0 and pos == 1 and (hi >= tl or not (mmask >> player) & 1):
            answer, dec = _second_hand_quick_tricks(hands, player, trump, lead_suit, win_card, win_seat, mmask, lo, tl)
    if answer >= 0:
        stats[STAT_QUICK_TRICKS] += 1
        scratch[PER_PLY, ply, DECISIVE] = dec
        return answer == 1
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
        # the ducking order also for the misère family's exact questions (pico: the
        # defenders' refutation is mostly to force a second trick)
        cmask != mmask or (trump < 0 and popcount(mmask) & 1 == 1 and lo == hi),
        tt_move,
        scratch_at,
        ply,
    )
    is_max = (mmask >> player) & 1
    result = not is_max
    best = -1
    rel = 0
    # lowest win: per suit 5 bits, the rank below which the player's cards need no search
    # (0 = not set yet; ranks are 2..14, 16 = none of them)
    lowest_win = 0
    # probing (a lone declarer's defenders choosing an early lead in a game with trumps, see
    # PROBE_TL): a first round in which every card is searched within a budget of trick
    # nodes, the first one tried with a budget as large as all the others' (the ordering is
    # mostly right); a search cut off by its budget returns at once, storing nothing (as at
    # the node limit), and the cards cut off are searched in full in a second round, in
    # their order. Every card is searched in full or a card refutes, as in the plain loop:
    # only the order in which the cards are searched changes, never the result.
    budget = 0
    probe_tl = stats[STAT_PROBE_TL] if stats[STAT_PROBE_TL] > 0 else PROBE_TL
    if pos == 0 and not is_max and cmask == mmask and trump >= 0 and popcount(mmask) == 1 and tl >= probe_tl:
        budget = stats[STAT_PROBE_BUDGET] if stats[STAT_PROBE_BUDGET] > 0 else PROBE_BUDGET
    grow = False  # misère probing: the budget grows between rounds (MISERE_PROBE_TL; a test's settings as above)
    if (
        budget == 0
        and not is_max
        and tl >= (stats[STAT_PROBE_TL] if stats[STAT_PROBE_TL] > 0 else MISERE_PROBE_TL)
        and trump < 0
        and popcount(mmask) == 1
        and ((cmask == 15 ^ mmask and lo == tl) or (cmask == mmask and lo <= 1 and hi == lo))
    ):
        budget = stats[STAT_PROBE_BUDGET] if stats[STAT_PROBE_BUDGET] > 0 else MISERE_PROBE_BUDGET
        grow = True
    # the first round's candidates (bit i; -1: all): a pico declarer's cards that take the lead
    # of the trick (following) or surely win it (leading the top card of a suit), within a
    # budget (PICO_WIN_BUDGET; a test's setting as above)
    only = -1
    if budget == 0 and is_max and lo == hi and cmask == mmask and trump < 0 and popcount(mmask) == 1:
        only = 0
        for i in range(n):
            c = scratch[CANDIDATES, ply, i]
            if beats(c, win_card, trump) if pos > 0 else (c & 15) == highest_index((rem >> (16 * (c >> 4))) & LANE):
                only |= 1 << i
        if only and only != (1 << n) - 1:
            budget = stats[STAT_PROBE_BUDGET] if stats[STAT_PROBE_BUDGET] > 0 else PICO_WIN_BUDGET
        else:
            only = -1
    done = 0  # candidates decided (bit i = scratch[CANDIDATES, ply, i])
    limit = stats[STAT_NODE_LIMIT]
    while True:
        pending = 0
        first = True
        for i in range(n):
            if (done >> i) & 1:
                continue
            c = scratch[CANDIDATES, ply, i]
            su = c >> 4
            rk = c & 15
            lw = (lowest_win >> (5 * su)) & 31
            if rk < lw:
                done |= 1 << i
                continue
            if not (only >> i) & 1:
                pending += 1
                continue
            if budget > 0:
                share = budget * (n if first and only < 0 else 1)
                first = False
                stats[STAT_NODE_LIMIT] = stats[STAT_TRICK_NODES] + share
                if 0 < limit < stats[STAT_NODE_LIMIT]:
                    stats[STAT_NODE_LIMIT] = limit
            bit = 1 << c
            hands[player] ^= bit
            if pos == 0:
                r = _search(
                    trump, mmask, cmask, lo, hi, tl, ply + 1, pos + 1, leader, c >> 4, c, player, bit,
                    tt_at, tt_rows, use_tt, scratch_at,
                )  # fmt: skip
                crel = scratch[PER_PLY, ply + 1, DECISIVE]
            elif pos < 3:
                if beats(c, win_card, trump):
                    r = _search(
                        trump, mmask, cmask, lo, hi, tl, ply + 1, pos + 1, leader, lead_suit, c, player,
                        trick_mask | bit, tt_at, tt_rows, use_tt, scratch_at,
                    )  # fmt: skip
                else:
                    r = _search(
                        trump, mmask, cmask, lo, hi, tl, ply + 1, pos + 1, leader, lead_suit, win_card, win_seat,
                        trick_mask | bit, tt_at, tt_rows, use_tt, scratch_at,
                    )  # fmt: skip
                crel = scratch[PER_PLY, ply + 1, DECISIVE]
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
                    tt_at, tt_rows, use_tt, scratch_at,
                )  # fmt: skip
                crel = scratch[PER_PLY, ply + 1, DECISIVE]
                # the winning card decided the trick if it beat another card of its suit
                if (trick_mask | bit) & (LANE << (16 * (wc >> 4))) & ~(1 << wc):
                    crel |= 1 << wc
            hands[player] ^= bit
            if budget > 0:
                stats[STAT_NODE_LIMIT] = limit
            if stats[STAT_LIMIT_EXCEEDED]:
                if budget == 0 or 0 < limit < stats[STAT_TRICK_NODES]:
                    return False
                stats[STAT_LIMIT_EXCEEDED] = 0  # only the budget ran out (the search stored nothing)
                pending += 1
                continue
            done |= 1 << i
            if r == is_max:
                result = r
                best = c
                rel = crel
                if pos == 0:
                    scratch[PER_PLY, ply, KILLER_LEAD] = c + 1  # the killer lead of this trick depth
                break
            rel |= crel
            if lw == 0:
                lane_rel = (rel >> (16 * su)) & LANE
                low = lowest_index(lane_rel) if lane_rel else 16
                if rk < low:
                    lowest_win |= low << (5 * su)
        if best >= 0 or pending == 0:
            break
        only = -1
        if grow and budget * MISERE_PROBE_GROWTH <= MISERE_PROBE_MAX:
            budget *= MISERE_PROBE_GROWTH  # misère: another round, the cards cut off with a larger budget
        else:
            budget = 0  # the cards cut off by their budget, searched in full
    if n < popcount(legal):  # some equivalent cards were not searched
        rel = _extend_rel(rel, legal, rem | trick_mask)
    if pos == 0:
        rel = _segment(rel, rem)
    scratch[PER_PLY, ply, DECISIVE] = rel
    if store:
        _tt_save(tt_at, tt_rows, stats, hands, rem, key, rel, best, result, lo, tl, one_sided, flip)
    return result
