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
  (:func:`_trump_bound`; with the later tricks below, :func:`_count_bounds`), and a
  hand's trumps beyond the opponents' higher ones win for its side
  (:func:`_trump_length_tricks`);
- one declarer against three: mid-trick, a trick it surely takes and its trumps after
  it (:func:`_lone_sure_trick`); on lead, a trump lead counted one trick ahead
  (:func:`_lone_trump_lead`);
- a side that needs every trick left, as DDS's LaterTricks: the other side not on lead
  takes one with its top trump when the higher trumps are all its right-hand opponent's
  and fewer than its trumps (:func:`_trump_behind`); without trumps, a side takes
  tricks only in the suits it heads, at most its longest holding there
  (:func:`_top_suit_tricks`);
- the seats that can never win a trick again or must win one (misère proofs, in
  :mod:`.misere`);
- the last trick, whose cards are all forced (:func:`_last_trick`).
"""

from __future__ import annotations

from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.dd.layout import CASH_HANDS, PER_PLY, scratch_view
from wiezen_sim.kernel.trick import beats


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


# not inlined into the search: numba's code for the recursive search ran slower with it (list1000's first 60 deals,
# 2 vs 2 exact in hearts and spades, the same 9.49 M trick nodes in 5.3-5.5 s inlined, 5.1-5.2 s called; the
# example's 284 costliest PIMC questions 5.9-6.2 s -> 5.5-5.6 s). The later tricks are asked in here for the same
# reason: called from the search itself, they made every trick node about 5 % slower (session 43, advise's
# questions of advise_suite's 125 hands, 2 deals each: CPU ratio 1.05 for 2.1 % fewer trick nodes)
@njit(cache=True)
def _count_bounds(hands, rem, trump, mmask, cmask, lo, hi, tl, one_sided, leader):
    """``(answer, decisive cards)`` at a trick's start from the trumps (:func:`_trump_bound`), else, when
    one side needs every trick left, from the later tricks (:func:`_later_tricks`); answer -1: undecided."""
    answer, dec = _trump_bound(hands, rem, trump, mmask, cmask, lo, hi, tl, one_sided)
    if answer < 0 and one_sided and cmask == mmask and (lo == 1 or lo == tl):
        answer, dec = _later_tricks(hands, rem, trump, mmask, leader, lo, tl)
    return answer, dec


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
def _lead_quick_tricks(hands, leader, trump, mmask, lo, tl, scratch_at, ply):
    """``(answer, decisive cards)`` at a trick's start from the quick tricks of the side on
    lead (:func:`_cash_tricks`; a lone declarer on lead also from a trump lead,
    :func:`_lone_trump_lead`) for "at least ``lo`` tricks of the maximisers"; answer -1:
    undecided. The minimisers' quick tricks prove fewer than ``lo``, which also refutes
    an exact question (``hi < tl``); the maximisers' prove nothing about ``hi``."""
    if (mmask >> leader) & 1:
        qt, qrel = _cash_tricks(hands, leader, trump, mmask, scratch_at, ply, lo)
        if qt >= lo:
            return 1, qrel
        if trump >= 0 and popcount(mmask) == 1:
            lt, lrel = _lone_trump_lead(hands, leader, trump, lo)
            if lt >= lo:
                return 1, lrel
    else:
        qt, qrel = _cash_tricks(hands, leader, trump, 15 ^ mmask, scratch_at, ply, tl - lo + 1)
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
def _cash_line(hands, leader, trump, team, scratch_at, ply, transfer_first):
    """One line of cashing for :func:`_cash_tricks`; returns ``(tricks, decisive cards)``."""
    scratch = scratch_view(scratch_at)
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
def _cash_tricks(hands, leader, trump, team, scratch_at, ply, need):
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
    a, rel_a = _cash_line(hands, leader, trump, team, scratch_at, ply, False)
    if a >= need:
        return a, rel_a
    b, rel_b = _cash_line(hands, leader, trump, team, scratch_at, ply, True)
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


@njit(cache=True, inline="always")
def _later_tricks(hands, rem, trump, mmask, leader, lo, tl):
    """``(answer, decisive cards)`` at a trick's start when one side needs every trick left (``lo``
    is 1 or ``tl``, both sides wanting tricks): the other side surely takes one with a trump behind
    the higher ones when not on lead (:func:`_trump_behind`), or, without trumps, outside the suits
    the needing side heads (:func:`_top_suit_tricks`); answer -1: undecided."""
    needer = mmask if lo == tl else 15 ^ mmask
    other = 15 ^ needer
    if trump >= 0 and rem & (LANE << (16 * trump)):
        if (other >> leader) & 1:
            return -1, 0
        dec = _trump_behind(hands, other, trump)
        if dec == 0:
            return -1, 0
    else:
        tricks, dec = _top_suit_tricks(hands, needer)
        if tricks >= tl:
            return -1, 0
    return (0 if needer == mmask else 1), dec


@njit(cache=True, inline="always")
def _trump_behind(hands, team, trump):
    """A team not on lead takes a trick with a trump behind the higher ones: the decisive card, or 0.

    At a trick's start with an opponent of the team on lead. For a seat P of the team let X
    be P's highest trump, k its trumps, H the other seats' trumps above X. When every card
    of H is held by P's right-hand opponent (RHO, not of the team) and |H| <= k - 1, the
    team takes at least one trick. Until the team wins a trick none of its seats leads, so
    in every trick RHO plays before P. P never plays X in a trick in which RHO played a
    card of H (an H-trick): there, when it must play a trump (a trump led, or void with
    only trumps), it plays its lowest trump. In any other trick in which it has to play a
    trump it plays X, which wins: the trumps above X are RHO's, who played none of them, so
    no card before X beats it and no seat after it holds a higher trump. Otherwise it
    follows suit or discards a side card (its teammates play as they like: a trick they
    win is the team's). So its lower trumps go only in H-tricks, one in each, at most
    |H| <= k - 1 of them: in an H-trick it still holds a lower trump (at most |H| - 1 went
    before), and since X is played in some trick at the latest the last one, X is played
    in a trick that is not an H-trick, and wins. (|H| = 0 is the top-trump bound; a guarded
    second-best trump behind the top one is DDS's case, LaterTricks.) Decisive: X (the
    owners of the cards from X up give H and where it lies; trump lengths are in the
    table key).
    """
    sh = 16 * trump
    for p in range(4):
        rho = (p + 3) & 3
        if not (team >> p) & 1 or (team >> rho) & 1:
            continue
        mine = (hands[p] >> sh) & LANE
        if mine == 0:
            continue
        x = highest_index(mine)
        above = ~((2 << x) - 1) & LANE
        h = popcount((hands[rho] >> sh) & LANE & above)
        if h <= popcount(mine) - 1 and not (hands[(p + 1) & 3] | hands[(p + 2) & 3]) >> sh & LANE & above:
            return 1 << (sh + x)
    return 0


@njit(cache=True)
def _top_suit_tricks(hands, team):
    """No trump left: can ``team`` take every trick left? At most one trick in each suit led, per
    card of its longest holding there (every seat holding the suit follows) and only in the suits in
    which it holds the highest card (elsewhere the opponent holding it wins), as DDS's LaterTricks.

    Returns ``(tricks, decisive cards)``: the bound on the team's tricks and the opponents' highest
    cards in the suits they head where another seat also holds cards (their ranks prove they head it;
    the other suits' heads need only the lengths of the table key).
    """
    tricks = 0
    rel = 0
    for s in range(4):
        top = -1
        top_seat = -1
        longest = 0
        holders = 0
        for p in range(4):
            lane = (hands[p] >> (16 * s)) & LANE
            if lane:
                holders += 1
                if highest_index(lane) > top:
                    top = highest_index(lane)
                    top_seat = p
                if (team >> p) & 1:
                    longest = max(longest, popcount(lane))
        if top_seat < 0:
            continue
        if (team >> top_seat) & 1:
            tricks += longest
        elif holders > 1:
            rel |= 1 << (16 * s + top)
    return tricks, rel
