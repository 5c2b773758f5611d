"""Static bounds of the search (numba): results decided without searching the moves.

Every bound returns with its answer the cards that decided it (partition search,
:mod:`.table`), and every one is exact (a proof, never a guess):
- quick tricks of the side on lead (a line of sure winners and entries played out,
  :func:`_cash_tricks`) and of the second hand's side (it surely takes the trick, in no
  trump also the winner's sure winners after it, :func:`_second_hand_tricks`), as DDS's
  quick tricks;
- the trump bounds: the highest trump takes a trick for its holder's side, the two
  highest take two in one hand or on a side that wants tricks, and when one side holds
  no trump the other takes a trick with every trump of its longest trump hand
  (:func:`_trump_bound`), and a hand's trumps beyond the opponents' higher ones win
  for its side (:func:`_trump_length_tricks`);
- one declarer against three: mid-trick, a trick it surely takes and its trumps after
  it (:func:`_lone_sure_trick`); on lead, a trump lead counted one trick ahead
  (:func:`_lone_trump_lead`);
- a set of seats not on lead that can never win a trick never gets the lead back
  (:func:`_never_wins`; misère proofs: for a seat that ducks, the ducks condition over
  the rounds a suit can still be led, and guarded suits, :func:`_guarded_suit`), and the
  others can force a misère player to win a trick (:func:`_forced_win`); a misère
  declarer on lead must win this trick, or can exit and never win again
  (:func:`_misere_exit`);
- the last trick, whose cards are all forced (:func:`_last_trick`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.dd.layout import CASH_HANDS, PER_PLY
from wiezen_sim.kernel.trick import beats


@njit(cache=True, inline="always")
def _never_wins_bound(hands, trump, mmask, cmask, lo, hi, tl, leader):
    """``(answer, decisive cards)`` at a trick's start from the seats that can never win a
    trick again or must win one; answer -1: neither applies.

    A set of seats not on lead that can never win a trick (see :func:`_never_wins`) never
    gets the lead back: the counted tricks are then 0 or all of them (misère proofs). The
    group wants to lose when it is a minimiser counted, or a maximiser not counted. A
    misère declarer on lead may have a safe exit and never win again, or must win this
    trick (:func:`_misere_exit`); one not on lead may be forced to win it
    (:func:`_forced_win`).
    """
    if not (cmask >> leader) & 1:
        nw = _never_wins(hands, trump, cmask, (cmask & mmask) == 0, -1)
        if nw >= 0:
            return (1 if lo <= 0 <= hi else 0), nw
        # misère, the declarer on lead (see _misere_exit): it loses every trick from
        # here (the others take all tl), or it must win this one (they take at most tl - 1)
        if trump < 0 and cmask == 15 ^ mmask and mmask == 1 << leader:
            ex, ex_rel = _misere_exit(hands, leader)
            if ex > 0 or (ex < 0 and lo == tl):
                return (1 if ex > 0 and lo <= tl <= hi else 0), ex_rel
    else:
        nw = _never_wins(hands, trump, 15 ^ cmask, ((15 ^ cmask) & ~mmask) == 0, -1)
        if nw >= 0:
            return (1 if lo <= tl <= hi else 0), nw
        # misère (one seat wants to lose every trick, the others want it to win one)
        if lo == tl and trump < 0 and mmask == 15 ^ cmask and popcount(mmask) == 1:
            fw = _forced_win(hands, leader, mmask)
            if fw >= 0:
                return 0, fw
    return -1, 0


@njit(cache=True, inline="always")
def _last_trick(hands, leader, trump):
    """``(winner, decisive cards)`` of the last trick, in which every card is forced."""
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
    return ws, (1 << best) if same else 0


@njit(cache=True, inline="always")
def _trump_bound(hands, rem, trump, mmask, cmask, lo, hi, tl, one_sided):
    """``(answer, decisive cards)`` at a trick's start from the trumps; answer -1: undecided.

    The highest trump takes a trick for its holder's side, the two highest take two when
    one hand holds both, or when a side that wants tricks holds both with another trump
    beside either (so they need never fall in the same trick); when one side holds no
    trump the other wins a trick with every trump of its longest trump hand (only trumps
    can win a trick that contains a trump); a hand's trumps beyond the opponents' higher
    trumps win for its side (:func:`_trump_length_tricks`). The question is decided when the bounds on
    the counted tricks lie inside ``[lo, hi]`` or outside it.
    """
    if trump < 0:
        return -1, 0
    tr = rem & (LANE << (16 * trump))
    if not tr:
        return -1, 0
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
    dec_lb = dec
    dec_ub = dec
    # a hand's trumps beyond the opponents' higher ones win for its side (_trump_length_tricks),
    # for both counted sets
    lb_len, rel_len = _trump_length_tricks(hands, tr, cmask)
    if lb_len > lb:
        lb = lb_len
        dec_lb = rel_len
    ob_len, rel_len = _trump_length_tricks(hands, tr, 15 ^ cmask)
    if tl - ob_len < ub:
        ub = tl - ob_len
        dec_ub = rel_len
    if lb >= lo and ub <= hi:
        return 1, dec_lb | dec_ub
    if ub < lo:
        return 0, dec_ub
    if lb > hi:
        return 0, dec_lb
    return -1, 0


@njit(cache=True, inline="always")
def _unmatched(mine, opp):
    """Cards of ``mine`` left over by a maximum match of them to higher cards of ``opp``
    (bit masks of one suit, each ``opp`` card matched at most once). Scanned from the top,
    an ``opp`` card seen and not yet matched takes the next card of ``mine``; this greedy
    match is a maximum one."""
    free = 0
    won = 0
    m = mine | opp
    while m:
        c = highest_index(m)
        m ^= 1 << c
        if (opp >> c) & 1:
            free += 1
        elif free:
            free -= 1
        else:
            won += 1
    return won


@njit(cache=True)
def _trump_length_tricks(hands, tr, group):
    """Tricks the seats in ``group`` take for sure with their trumps, and the card that proves it.

    ``tr`` = the remaining trumps (at a trick's start). For one seat X of the group, match
    X's trumps to the opponents' (seats not in ``group``) higher trumps, each opponent
    trump at most once, as many as possible (:func:`_unmatched`). The group takes at
    least the trumps of X left over, whatever anybody plays: every trump X holds is
    played to a different trick (one card a seat a trick); a trick that holds a trump is
    won by the highest trump in it, so a trick of X's trump that the group loses is won
    by an opponent's trump above X's; those winning trumps are distinct (distinct
    tricks), which matches the lost trumps of X to higher opponent trumps. A teammate's
    trump above X's wins for the group. The bound holds for every play, so for every
    objective. It contains the older trump bounds' one-hand cases (the top trump, the two
    top trumps in one hand, every trump of a side whose opponents hold none) and proves
    more in long-trump endings of one declarer against three defenders (JT97 against A42
    and Q takes 2 tricks).

    Returns ``(tricks, decisive card)``: the best seat's count and its lowest trump (the
    match depends only on the owners of the trumps from that card up), ``(0, 0)`` when no
    seat of the group has a trump left over.
    """
    opp = 0
    for p in range(4):
        if not (group >> p) & 1:
            opp |= hands[p]
    opp &= tr
    best = 0
    rel = 0
    for x in range(4):
        mine = hands[x] & tr
        if not (group >> x) & 1 or popcount(mine) <= best:
            continue
        won = _unmatched(mine, opp)
        if won > best:
            best = won
            rel = 1 << lowest_index(mine)
    return best, rel


@njit(cache=True)
def _lone_sure_trick(hands, player, trump, lead_suit, win_card, pos):
    """A lone seat about to play takes this trick for sure: its tricks from here, and why.

    For one seat against three (every other seat an opponent), mid-trick (``pos`` cards
    played, ``win_card`` winning them). A card ``c`` of the player surely wins the trick
    when it beats ``win_card`` and no seat still to play can beat it: following suit, ``c``
    is above every later seat's cards of the suit led and no later seat void in it holds
    a trump (it might ruff); ruffing a side suit, ``c`` is above the trumps of every later
    seat void in the suit led (seats that hold the suit must follow). The card tried is
    the lowest such card of the suit led, else the lowest such trump. Then the player
    takes this trick and, after it, at least its trumps without ``c`` that are left over
    by a maximum match to the opponents' higher trumps (as in :func:`_trump_length_tricks`,
    a bound for every play, which only falls when opponent trumps are added: the
    opponents' trumps after the trick are among those they hold now). Decisive: ``c``
    (every card it was compared with by rank lies below it, so the owners of the cards
    from ``c`` up prove the comparisons) and the player's lowest trump left; voids and
    trump lengths are in the table key.

    Returns ``(tricks, decisive cards)``; ``(0, 0)`` when no card surely wins.
    """
    lane_led = (hands[player] >> (16 * lead_suit)) & LANE
    win_trump = trump >= 0 and (win_card >> 4) == trump
    c = -1
    if lane_led and (lead_suit == trump or not win_trump):
        # follow above the winning card and every later seat's top card of the suit
        bar = win_card & 15 if (win_card >> 4) == lead_suit else -1
        ruff = False
        for i in range(1, 4 - pos):
            q = (player + i) & 3
            lane = (hands[q] >> (16 * lead_suit)) & LANE
            if lane:
                bar = max(bar, highest_index(lane))
            elif lead_suit != trump and trump >= 0 and (hands[q] >> (16 * trump)) & LANE:
                ruff = True
        above = lane_led & ~((2 << bar) - 1) if bar >= 0 else lane_led
        if above and not ruff:
            c = 16 * lead_suit + lowest_index(above)
    elif lane_led == 0 and trump >= 0 and lead_suit != trump:
        # ruff above the winning trump and every later seat's trumps that may overruff
        bar = win_card & 15 if win_trump else -1
        for i in range(1, 4 - pos):
            q = (player + i) & 3
            lane_t = (hands[q] >> (16 * trump)) & LANE
            if lane_t and not (hands[q] >> (16 * lead_suit)) & LANE:
                bar = max(bar, highest_index(lane_t))
        mine = (hands[player] >> (16 * trump)) & LANE
        above = mine & ~((2 << bar) - 1) if bar >= 0 else mine
        if above:
            c = 16 * trump + lowest_index(above)
    if c < 0:
        return 0, 0
    rel = 1 << c
    tricks = 1
    if trump >= 0:
        mine = hands[player] & ~(1 << c) & (LANE << (16 * trump))
        if mine:
            opp = 0
            for q in range(4):
                if q != player:
                    opp |= hands[q]
            tricks += _unmatched(mine, opp & (LANE << (16 * trump)))
            rel |= 1 << lowest_index(mine)
    return tricks, rel


@njit(cache=True)
def _lone_trump_lead(hands, leader, trump, need):
    """Tricks a lone declarer on lead makes for sure by leading a trump now, and why.

    One seat (``leader``) against three, at a trick's start. The declarer leads his trump
    ``c``; every defender who holds a trump must follow with one. Then either (A) no
    defender plays a trump above ``c``: the declarer takes the trick, and each defender
    holding trumps has given up one below ``c``; or (B) a defender H plays one above
    ``c``: the trick is lost, H has given up one above ``c`` and each other defender
    with trumps one of any rank. After the trick :func:`_trump_length_tricks` counts the
    declarer's remaining trumps against the defenders' (a bound for every play). It
    falls as the defenders keep higher trumps, so the defenders' worst case for the
    declarer gives up each hand's lowest possible trump (the set left then dominates,
    card by card, every other choice's): in (A) every hand's lowest, in (B) H's lowest
    above ``c`` and the others' lowest. The bound for ``c`` is the least of (A) + 1 and
    each (B); the declarer takes the best ``c``. (When a hand holds no trump below ``c``,
    (A) cannot happen; its count is then that hand's (B) + 1, never the least.)
    Decisive: the lowest trump left (the match and which trumps are lowest depend on the
    owners of the whole trump suit from there; lengths are in the key). Tried after the
    quick tricks of :func:`_cash_tricks`; the same one-trick look-ahead for the
    defenders' leads gains nothing (a side-suit lead they choose leaves the trumps as
    they are).

    Returns ``(tricks, decisive card)``, stopping once a trump reaches ``need``;
    ``(0, 0)`` when the declarer has no trump.
    """
    sh = 16 * trump
    mine = (hands[leader] >> sh) & LANE
    if mine == 0:
        return 0, 0
    every = 0
    opp_a = 0  # the defenders' trumps after each has given up its lowest
    for q in range(4):
        y = (hands[q] >> sh) & LANE
        every |= y
        if q != leader and y:
            opp_a |= y ^ (1 << lowest_index(y))
    best = 0
    m = mine
    while m:
        c = highest_index(m)
        m ^= 1 << c
        left = mine ^ (1 << c)
        worst = 1 + _unmatched(left, opp_a)  # (A) the declarer's trump holds the trick
        # (B) defender h overtakes
        for h in range(4):
            yh = (hands[h] >> sh) & LANE
            over = yh & ~((2 << c) - 1)
            if h == leader or over == 0:
                continue
            opp_b = 0
            for q in range(4):
                y = (hands[q] >> sh) & LANE
                if q == leader or y == 0:
                    continue
                if q == h:
                    opp_b |= y ^ (1 << lowest_index(over))
                else:
                    opp_b |= y ^ (1 << lowest_index(y))
            b = _unmatched(left, opp_b)
            if b < worst:
                worst = b
        if worst > best:
            best = worst
            if best >= need:
                break
    return best, 1 << (sh + lowest_index(every))


@njit(cache=True, inline="always")
def _lead_quick_tricks(hands, leader, trump, mmask, lo, tl, scratch, ply):
    """``(answer, decisive cards)`` at a trick's start from the quick tricks of the side on
    lead (:func:`_cash_tricks`; a lone declarer on lead also from a trump lead,
    :func:`_lone_trump_lead`) for "at least ``lo`` tricks of the maximisers"; answer -1:
    undecided. The minimisers' quick tricks prove fewer than ``lo``, which also refutes
    an exact question (``hi < tl``); the maximisers' prove nothing about ``hi``."""
    if (mmask >> leader) & 1:
        qt, qrel = _cash_tricks(hands, leader, trump, mmask, scratch, ply, lo)
        if qt >= lo:
            return 1, qrel
        if trump >= 0 and popcount(mmask) == 1:
            lt, lrel = _lone_trump_lead(hands, leader, trump, lo)
            if lt >= lo:
                return 1, lrel
    else:
        qt, qrel = _cash_tricks(hands, leader, trump, 15 ^ mmask, scratch, ply, tl - lo + 1)
        if tl - qt < lo:
            return 0, qrel
    return -1, 0


@njit(cache=True, inline="always")
def _second_hand_quick_tricks(hands, player, trump, lead_suit, win_card, win_seat, mmask, lo, tl):
    """``(answer, decisive cards)`` for the second hand from its side's quick tricks
    (:func:`_second_hand_tricks`) for "at least ``lo`` tricks of the maximisers"; answer
    -1: undecided. With trumps only a need of one trick is tried. As for
    :func:`_lead_quick_tricks`, the minimisers' answer also refutes an exact question."""
    is_max = (mmask >> player) & 1
    need = lo if is_max else tl - lo + 1
    if need == 1 or trump < 0:
        qt, qrel = _second_hand_tricks(
            hands, player, trump, lead_suit, win_card, win_seat, mmask if is_max else 15 ^ mmask, need
        )
        if qt >= need:
            return is_max, qrel
    return -1, 0


@njit(cache=True, inline="always")
def _lone_sure_quick_tricks(hands, player, trump, lead_suit, win_card, pos, lo):
    """``(answer, decisive cards)`` mid-trick for a lone maximiser about to play (one seat
    against three) from the trick it surely takes and its trumps after it
    (:func:`_lone_sure_trick`) for "at least ``lo`` tricks"; answer -1: undecided."""
    tricks, rel = _lone_sure_trick(hands, player, trump, lead_suit, win_card, pos)
    if tricks >= lo:
        return 1, rel
    return -1, 0


@njit(cache=True)
def _cash_line(hands, leader, trump, team, scratch, ply, transfer_first):
    """One line of cashing for :func:`_cash_tricks`; returns ``(tricks, decisive cards)``."""
    otop = 0  # per opponent seat and suit 4 bits: its highest rank there at the start (0 = none)
    olen = 0  # per opponent seat and suit 4 bits: cards it can still hold
    for p in range(4):
        if (team >> p) & 1:
            scratch[PER_PLY, ply, CASH_HANDS + p] = hands[p]
        else:
            scratch[PER_PLY, ply, CASH_HANDS + p] = 0
            for s in range(4):
                lane = (hands[p] >> (16 * s)) & LANE
                if lane:
                    olen |= popcount(lane) << (4 * (4 * p + s))
                    otop |= highest_index(lane) << (4 * (4 * p + s))
    x = leader
    tricks = 0
    rel = 0
    while scratch[PER_PLY, ply, CASH_HANDS + x]:
        lead = -1
        winner_seat = -1
        bar = -1
        for step in range(2):
            transfer = (step == 0) == transfer_first
            for s in range(4):
                mine = (scratch[PER_PLY, ply, CASH_HANDS + x] >> (16 * s)) & LANE
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
                            lane = (scratch[PER_PLY, ply, CASH_HANDS + p] >> (16 * s)) & LANE
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
        scratch[PER_PLY, ply, CASH_HANDS + x] ^= 1 << lead
        best = lead
        best_seat = x
        played = 1 << lead
        for i in range(1, 4):
            p = (x + i) & 3
            if (team >> p) & 1:
                lane = (scratch[PER_PLY, ply, CASH_HANDS + p] >> (16 * s)) & LANE
                if lane:
                    c = 16 * s + (highest_index(lane) if p == winner_seat else lowest_index(lane))
                else:
                    # discard the lowest card of the longest side suit, else the lowest trump
                    su_d = trump
                    ln_d = 0
                    for su in range(4):
                        ln_ = popcount((scratch[PER_PLY, ply, CASH_HANDS + p] >> (16 * su)) & LANE)
                        if su != trump and ln_ > ln_d:
                            su_d = su
                            ln_d = ln_
                    c = 16 * su_d + lowest_index((scratch[PER_PLY, ply, CASH_HANDS + p] >> (16 * su_d)) & LANE)
                scratch[PER_PLY, ply, CASH_HANDS + p] ^= 1 << c
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
    played out in ``scratch[PER_PLY, ply, CASH_HANDS + seat]``. Only a count of at least ``need`` matters: the lines
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


@njit(cache=True)
def _guarded_suit(hands, seat, s, race, exit_suit):
    """No trump, ``seat`` never leads (it wins no trick): can the others never make it win a
    trick led in suit ``s``?

    The seat plays its lowest card of the suit to every trick led in it (it discards its
    highest). Let d_j be its j-th lowest card; the suit is led at most ``rounds`` more
    times (the most cards of it another seat holds, as in :func:`_never_wins`). In the
    j-th trick led in ``s`` (j up to ``rounds``) the seat plays d_j, and does not win
    when some other seat holding only cards above d_j there still holds the suit: every
    seat holding the suit follows (before or after the seat), with a card above d_j (a
    *guard* of d_j; cards only leave the hands, so it stays one). A guard X still holds
    the suit in the j-th trick when its cards of ``s``, less the j - 1 taken by the
    earlier tricks led in it and its discards, are at least one. X discards only in
    tricks led in a suit u in which it is void; such a trick is led by one of the two
    other seats of the three (the seat never leads), and every trick led in u takes a
    card from each of those two that holds u, so the tricks led in u in which X is void
    number at most ``max(their cards of u) - (X's cards of u)`` (the tricks X followed
    in came first and took from the same longest holding; a card of u that X discarded
    elsewhere used up a discard of its own): X's discard budget is the sum over the
    other suits u, and X lasts the j-th trick when its cards minus the budget are at
    least j. With ``race`` the seat, when void in the suit led, discards its highest
    card of ``s`` (one suit at most may be raced: the caller's duty), and only X's
    discards in tricks the seat follows suit in are counted: at most the seat's cards of
    u such tricks per suit u (those X is void in, capped by that). Every other trick X
    discards in takes a card of ``s`` from the seat too, as long as it holds one. If the
    seat still holds the suit in its j-th trick, it made at most ``|s| - j`` such
    discards, so X then holds at least its cards minus the smaller budget minus the
    seat's cards plus one: X lasts every trick when its cards minus that budget are at
    least the seat's cards of ``s``.
    The suit is safe when every d_j (j up to ``rounds``) has a guard that lasts the
    j-th trick. With ``exit_suit`` >= 0 the hands are those before a trick the seat
    leads in that suit (its card already taken out, :func:`_misere_exit`), which the
    argument above (every trick led by the others) does not cover, so a guard counts
    one card less when it holds that suit and it is ``s`` (it follows with a card of
    ``s``), or when it is void in it (it may discard; the plain budget counts that
    trick already, since the seat guarding the exit is one of the two others and
    follows, but the raced budget, capped by the seat's cards of the suit with its
    card taken out, does not). It follows in any other suit: its budget stays (its
    cards of that suit and the longest of the two others' both drop by one).
    Decides: the seat's lowest card of the suit (the segment from it up, with the
    lengths, fixes every comparison and each seat's cards below it: none for the
    guards).
    """
    mine = (hands[seat] >> (16 * s)) & LANE
    rounds = 0
    for k in (1, 2, 3):
        rounds = max(rounds, popcount((hands[(seat + k) & 3] >> (16 * s)) & LANE))
    lasts = np.zeros(4, np.int64)  # per seat: the tricks led in s it surely still holds the suit in
    for k in (1, 2, 3):
        x = (seat + k) & 3
        lane_x = (hands[x] >> (16 * s)) & LANE
        if lane_x == 0:
            continue
        budget = 0
        for u in range(4):
            if u == s:
                continue
            longest = 0
            for q in (1, 2, 3):
                z = (seat + q) & 3
                if z != x:
                    longest = max(longest, popcount((hands[z] >> (16 * u)) & LANE))
            void_tricks = max(0, longest - popcount((hands[x] >> (16 * u)) & LANE))
            if race:  # only those the seat follows in (at most its cards of u) are not matched
                void_tricks = min(void_tricks, popcount((hands[seat] >> (16 * u)) & LANE))
            budget += void_tricks
        lasts[x] = popcount(lane_x) - budget
        if exit_suit == s or (exit_suit >= 0 and (hands[x] >> (16 * exit_suit)) & LANE == 0):
            lasts[x] -= 1
        if race:
            lasts[x] = rounds if lasts[x] >= popcount(mine) else 0
    g = mine
    j = 1
    while g and j <= rounds:
        d = lowest_index(g)
        guarded = False
        for k in (1, 2, 3):
            x = (seat + k) & 3
            lane_x = (hands[x] >> (16 * s)) & LANE
            if lane_x and lowest_index(lane_x) > d and lasts[x] >= j:
                guarded = True
        if not guarded:
            return False
        g &= g - 1
        j += 1
    return True


@njit(cache=True)
def _never_wins(hands, trump, group, ducks, exit_suit):
    """The cards that prove the seats in ``group`` win no trick while others lead, or -1.

    The group must hold no trump. Plain form: in every suit the group's highest card is
    below the others' lowest, so it cannot win whatever anybody plays. When ``ducks``
    (the group is one seat that wants to lose every trick) a weaker condition is enough,
    since the seat only has to be able to avoid winning: per suit, with its cards and the others'
    cards of the suit each sorted upwards, its j-th lowest is below the others' j-th
    lowest for every j up to ``rounds``, the most cards of the suit one other seat holds
    (and up to the shorter length). The suit is led at most ``rounds`` more times: only
    the others lead, and every trick led in it takes a card from each other seat that
    still holds it, so the longest such holding shrinks by one each time. The seat keeps
    its ``rounds`` lowest cards of the suit for those tricks (reserved cards): whatever
    card the others lead (or make the highest of the trick before the seat plays), the
    seat plays its highest reserved card below it (any reserved card below a ruff), and
    that keeps the condition, with ``rounds`` one less (the others' extra cards in a trick
    only help); void in the suit led, it discards its highest card of a suit, which is
    reserved only when all the seat's cards of that suit are, and then leaves the lower
    ones as they were. Without trump a suit that fails this may still be safe when
    guarded (:func:`_guarded_suit`): there the seat plays its lowest card of the suit,
    discards its highest, and in one such suit at most (the raced suit) discards it
    whenever void in the suit led. Since the winner leads next, a group not on lead never
    wins again. ``exit_suit`` (-1: none): the hands are those before a trick the seat
    leads in that suit, with its card taken out (see :func:`_guarded_suit`; the ducks
    condition holds on after it, as :func:`_misere_exit` argues).
    The proof needs, per suit held by both, the others' lowest card (plain form) or the
    lowest card of the two: the segment from it up holds every card that was compared
    (lengths, which give ``rounds``, do the rest); for a guarded suit the seat's lowest
    card of it.
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
    race_used = False
    rel = 0
    for s in range(4):
        g = (mine >> (16 * s)) & LANE
        o = (theirs >> (16 * s)) & LANE
        if g == 0 or o == 0:
            continue
        low = min(lowest_index(g), lowest_index(o)) if single else lowest_index(o)
        if single:
            rounds = 0
            for p in range(4):
                if not (group >> p) & 1:
                    rounds = max(rounds, popcount((hands[p] >> (16 * s)) & LANE))
            suit_g = g
            while g and rounds:
                if lowest_index(g) > lowest_index(o):
                    if trump < 0 and _guarded_suit(hands, highest_index(group), s, False, exit_suit):
                        low = lowest_index(suit_g)
                        break
                    if trump < 0 and not race_used and _guarded_suit(hands, highest_index(group), s, True, exit_suit):
                        race_used = True
                        low = lowest_index(suit_g)
                        break
                    return -1
                g &= g - 1
                o &= o - 1
                rounds -= 1
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


@njit(cache=True)
def _misere_exit(hands, declarer):
    """Misère, no trump, the declarer (one seat that wants to lose every trick) on lead:
    ``(1, cards)`` when it can lose this trick and every later one, ``(-1, cards)`` when
    it must win this trick, ``(0, 0)`` when neither is shown; ``cards`` decided it.

    A lead of card c of suit t surely loses the trick when some defender holds t and
    only cards above c there (it must follow above c); otherwise every defender can
    follow below c or discard, and the defenders, who want the declarer to take tricks,
    let it win. So when no suit the declarer holds has such a defender above the
    declarer's lowest card there, every lead wins the trick. Decisive: per suit the
    declarer holds, its lowest card (a position with the same owners from it up and the
    same lengths has each defender holding a card below it, or not, exactly as here).
    Otherwise, per suit with a safe lead, the declarer gives away its highest card c
    below that defender's lowest (the higher the card given away, the lower the rest);
    when its remaining cards then meet the ducks condition of :func:`_never_wins` against
    the defenders' cards before the trick (those the defenders play to it only remove
    cards of theirs, which keeps the condition: the others' j-th lowest card can only
    rise and their longest holding only shrink; a guarded suit counts a card less for
    its guards, see :func:`_guarded_suit`), a defender leads next and the declarer
    never wins again. Decisive: c (the defender's lowest card lies above it; the same
    argument as above) and the cards of that condition.
    """
    bit_d = 1 << declarer
    d = hands[declarer]
    rel_win = 0
    for t in range(4):
        lane = (d >> (16 * t)) & LANE
        if lane == 0:
            continue
        guard = -1  # the highest lowest card of a defender in the suit
        for p in range(4):
            other = (hands[p] >> (16 * t)) & LANE
            if p != declarer and other and lowest_index(other) > guard:
                guard = lowest_index(other)
        below = lane & ((1 << guard) - 1) if guard >= 0 else 0
        if below == 0:
            rel_win |= 1 << (16 * t + lowest_index(lane))
            continue
        c = 16 * t + highest_index(below)
        hands[declarer] ^= 1 << c
        nw = _never_wins(hands, -1, bit_d, True, t)
        hands[declarer] ^= 1 << c
        if nw >= 0:
            return 1, nw | (1 << c)
        rel_win = -1
    if rel_win >= 0:
        return -1, rel_win
    return 0, 0
