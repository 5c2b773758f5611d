"""Move generation and ordering of the search (numba).

A node searches one card per sequence of equivalent legal cards (two cards of the
player are equivalent when every remaining card between them, in all hands and the
trick in progress, is the player's own), best first by card-play heuristics after the
ideas of DDS's move ordering (Moves.cpp): leads (:func:`_lead_suit`, :func:`_lead_card`);
the lead that last refuted a sibling at the same trick depth, the "killer"; the third
hand's cheapest card that forces out the fourth hand's top card; discards from long
suits; in the misère family leads that force the declarer to win and its safe exits
(:func:`_misere_lead_bonus`), and, following, the declarer's cards that a seat after it
must beat (:func:`_overtaken`) ranked with its cards below the winning one, the highest
first, and the defenders' cards highest first in a trick the declarer cannot take; the
table's best lead first, except for a partnership's leads. The weights are
below, each with where it comes from: "DDS" names the DDS weight function it follows (the
same number unless said), "ours" a weight of this project with the measurement that kept
it (trick nodes of 200 list1000 deals, exact questions) where one was made. Changing any
of them changes node counts, never a result.
"""

from __future__ import annotations

from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.dd.layout import CANDIDATES, KILLER_LEAD, PER_PLY, SCORES, scratch_view
from wiezen_sim.kernel.trick import beats

# ---------------------------------------------------------------- lead weights
# leads when everybody tries to win tricks (_lead_suit, _lead_card); DDS: WeightAllocNT0
# (no trump) and WeightAllocTrump0 (trumps in play); ours: taking them over cut the trick
# nodes of 200 list1000 deals from 30.28 M to 24.68 M

# what a suit is for the card scores (_lead_suit's ``kind``)
KIND_TRUMPS = 1  # trumps are in play
KIND_OWN_TOP = 2  # the suit's top card is the player's
KIND_MATE_TOP = 4  # the suit's top card is a teammate's
KIND_MATE_SECOND = 8  # the second-best card is a teammate's
KIND_OWN_SECOND = 16  # the second-best card is the player's
KIND_SINGLE_TOP = 32  # an opponent's top card is a singleton

CARD_SCALE = 4  # the two per-card weights below are in quarters
NT_CARD = 27  # per card the opponents choose from (void: tricks left), no trump; DDS 128 / 19 ≈ 6.7
TRUMP_CARD = 39  # the same with trumps; DDS 128 / 13 ≈ 9.8
# no trump (DDS WeightAllocNT0)
NT_MATES_VOID = -9  # DDS: the teammates hold no card of the suit
NT_WIN = 45  # DDS: a winning lead, the second-best card with no guarded opponent
NT_WIN_SECOND_OUT = 18  # DDS: a winning lead, the second-best card with a guarded opponent
NT_WIN_SECOND_NEXT = 22  # DDS: added when the next hand holds the second-best card, guarded
NT_WIN_SECOND_NEXT_SINGLE = 16  # DDS: the next hand holds the second-best card as a singleton
NT_WIN_SECOND_LAST = -1  # DDS: the last hand holds the second-best card, guarded
NT_THROUGH = 31  # DDS (Joël Bradmetz's case): through the next hand's top card to a teammate's second-best
NT_LAST_TOP = -10  # DDS: the last hand holds the top or second-best card, guarded
NT_NEXT_ROUND_MATES = 35  # DDS: the teammates hold the second- and third-best cards
NT_NEXT_ROUND_SHARED = 25  # DDS: the player and a guarded teammate hold them
NT_SINGLE_TOP = 28  # DDS: an opponent's top card is a singleton
NT_UNDERLEAD = -17  # DDS: leading below one's own top card
NT_SINGLE_CARD = 12  # DDS: a card that is no sequence
NT_SECOND_SEQUENCE = 48  # DDS: the second-best card, heading a sequence
NT_SEQUENCE = 29  # DDS: another sequence (less its rank among the remaining cards)
KILLER_NT_WIN = 126  # DDS (bestMove): the killer lead, winning, no trump (ours, killers: 24.02 M -> 22.57 M)
KILLER_NT_LOSE = 47  # DDS (bestMove): the killer lead, not winning, no trump
# trumps in play (DDS WeightAllocTrump0)
TRUMP_OPPONENT_RUFFS = -12  # DDS: an opponent void in the side suit can ruff it
TRUMP_MATE_RUFFS = 17  # DDS: a teammate ruffs the side suit (the last hand follows)
TRUMP_THROUGH = 27  # DDS (Joël Bradmetz's case): through the next hand's top card to a teammate's second-best
TRUMP_LAST_TOP = -12  # DDS: the last hand holds the top or second-best card, guarded
TRUMP_RUFF_RETURN = 19  # DDS: the teammate wins and returns the suit for the player's ruff
TRUMP_NEXT_ROUND_MATES = 20  # DDS: the teammates hold the second- and third-best cards
TRUMP_NEXT_ROUND_SHARED = 13  # DDS: the player and a guarded teammate hold them
TRUMP_WIN_SINGLE_TOP = 35  # DDS: a winning lead that fells an opponent's singleton top card
TRUMP_WIN_OWN_TOP_MATE_SECOND = 48  # DDS: from one's own top card, a teammate holding the second
TRUMP_WIN_OWN_TOP = 31  # DDS: one's own top card
TRUMP_WIN_UNDERLEAD = -3  # DDS: below one's own top card
TRUMP_WIN_MATE_TOP_OWN_SECOND = 42  # DDS: to a teammate's top card, holding the second-best
TRUMP_WIN_MATE_TOP = 28  # DDS: to a teammate's top card
TRUMP_WIN_SECOND_SEQUENCE = 40  # DDS: the second-best card, heading a sequence
TRUMP_WIN_SEQUENCE = 22  # DDS: another sequence
TRUMP_WIN_SINGLE_CARD = 11  # DDS: a card that is no sequence
TRUMP_LOSE_SINGLE_TOP = 2  # DDS: a losing lead, an opponent's top card a singleton
TRUMP_LOSE_OWN_TOP_MATE_SECOND = 33  # DDS: from one's own top card, a teammate holding the second (ruffed)
TRUMP_LOSE_OWN_TOP = 38  # DDS: one's own top card (ruffed)
TRUMP_LOSE_UNDERLEAD = -14  # DDS: below one's own top card
TRUMP_LOSE_MATE_TOP = 34  # DDS: to a teammate's top card (ruffed)
TRUMP_LOSE_SECOND_SEQUENCE = 35  # DDS: the second-best card, heading a sequence
TRUMP_LOSE_SINGLE_CARD = 17  # DDS: another card (less its rank)
KILLER_TRUMP_WIN = 55  # DDS (bestMove): the killer lead, winning, with trumps
KILLER_TRUMP_LOSE = 18  # DDS (bestMove): the killer lead, not winning, with trumps

# ---------------------------------------------------------------- other weights (_gen_moves)
DUCK_LEAD = 30  # ours (first version, not tuned): everybody ducks, a lead scores this less its rank
DUCK_CARD = 20  # ours (first version): ... less this per card the opponents choose from (void: tricks left)
DUCK_TOP = -40  # ours (first version): ... and the suit's top card (it wins the trick) comes late
DUCK_WINS = -50  # ours (first version): everybody ducks, a following card that wins the trick comes last
# (not a misère declarer's card that a later seat must beat: ranked as a duck, _overtaken; ours, misere5
# branch: misère-family trick nodes of misere_tail.py's hands 129.2 M -> 120.5 M, no question worse by 10 %)
# (a defender before a misère declarer that must overtake: its winning cards lowest first, _gen_moves)
MISERE_FORCE = 300  # ours (speed-misere branch): misère family, a lead forcing the declarer to win, or a safe exit
DISCARD_CARD = 3  # per card of the suit discarded from; DDS about 64 / 24 (ours: 24.68 M -> 24.02 M with the two below)
DISCARD_GUARD = -5  # not from a guarded second-best card; DDS -2 .. -6 ("don't pitch from Kx")
DISCARD_BARE_TOP = -6  # not a bare top card; DDS -3 .. -8 ("stiff ace")
TAKES = 60  # DDS (WeightAllocNTNotvoid2 "we will win"): third hand, the team then takes the trick, less the rank
TAKES_RUFF = -10  # ours (first version): ... by ruffing
FORCES_TOP = 20  # DDS (RankForcesAce): third hand's cheapest card forcing out the fourth's top (22.57 M -> 20.94 M)
SURE_WIN = 60  # ours: second hand, a card no opponent after it beats, less its rank (a list1000 sample 6.3 s -> 2.1 s)
RUFF_MATES_TRICK = -50  # DDS (WeightAllocTrumpVoid2): do not ruff the team's winning card
WINS_FOR_NOW = 50  # ours (first version): a card that wins the trick so far, less its rank
WINS_RUFF = -10  # ours (first version): ... by ruffing
MATE_WINS = 70  # ours: second hand low when a teammate after it wins the trick anyway
# ours: the table's best lead before any other card, but not a partnership's lead (two against two, everybody
# trying to win tricks), where the killer and the card-play weights order better: 200 list1000 tables (a fresh
# 64 MB table each) 188,847,169 -> 185,008,558 trick nodes; DDS's small bonuses for it (bestMoveTT: 32 / 19 in no
# trump, 18 with trumps) 185,274,883, half of them 184,979,210. Left for a lone declarer's side (its exact counts
# in solo_corpus.py 29.91 M -> 30.04 M trick nodes without it) and the misère family's ducking order.
TT_LEAD = 1000


@njit(cache=True, inline="always")
def _best_card(hand, lead_suit, trump):
    """The card of ``hand`` that best contests a trick led in ``lead_suit``: its highest of the suit, else its
    highest trump; -1 when it holds neither."""
    lane = hand & (LANE << (16 * lead_suit))
    if lane:
        return highest_index(lane)
    if trump >= 0 and hand & (LANE << (16 * trump)):
        return highest_index(hand & (LANE << (16 * trump)))
    return -1


@njit(cache=True, inline="always")
def _can_beat(hand, card, lead_suit, trump):
    """Can a player holding ``hand`` beat ``card`` in a trick led in ``lead_suit`` (following suit)?"""
    best = _best_card(hand, lead_suit, trump)
    return best >= 0 and beats(best, card, trump)


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
    card scores (``KIND_*`` bits), whether the top card and whether any card wins the trick,
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
    kind = (KIND_TRUMPS if trumps else 0) | (KIND_OWN_TOP if h1 == player else 0) | (KIND_MATE_TOP if mate1 else 0)
    kind |= (KIND_MATE_SECOND if mate2 else 0) | (KIND_OWN_SECOND if h2 == player else 0)
    kind |= KIND_SINGLE_TOP if single_top else 0
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
        d = d * NT_CARD // CARD_SCALE
        if mates == 0:
            d += NT_MATES_VOID
        w = d + (NT_WIN_SECOND_OUT if second_next or second_prev else NT_WIN)
        if second_next:
            w += NT_WIN_SECOND_NEXT
        elif h2 == nxt and nxt_opp:
            w += NT_WIN_SECOND_NEXT_SINGLE
        elif second_prev:
            w += NT_WIN_SECOND_LAST
        lose = d + NT_THROUGH if through > 0 else d + NT_LAST_TOP * (through < 0)
        lose += (0, NT_NEXT_ROUND_SHARED, NT_NEXT_ROUND_MATES)[next_round]
        return first, second, kind, True, mates_high, w, lose
    d = d * TRUMP_CARD // CARD_SCALE
    if opp_tr:
        d += TRUMP_OPPONENT_RUFFS
    if side and mates == 0 and mates_tr and cnt_p > 0:
        d += TRUMP_MATE_RUFFS
    d += TRUMP_THROUGH if through > 0 else TRUMP_LAST_TOP * (through < 0)
    ruffs_back = popcount((hands[player] >> sh) & LANE) == 1 and (hands[player] >> (16 * trump)) & LANE
    if side and mate1 and ruffs_back and popcount((hands[h1] >> sh) & LANE) > 1:
        d += TRUMP_RUFF_RETURN
    mate_ruff = mates == 0 and mates_tr != 0 and (opp_tr == 0 or highest_index(mates_tr) > highest_index(opp_tr))
    if not side:
        wins_top = True
        wins_any = mates_high
    else:
        wins_top = opp_tr == 0 or mate_ruff
        wins_any = (mates_high and wins_top) or mate_ruff
    lose = d + (0, TRUMP_NEXT_ROUND_SHARED, TRUMP_NEXT_ROUND_MATES)[next_round]
    return first, second, kind, wins_top, wins_any, d, lose


@njit(cache=True, inline="always")
def _lead_card(facts, top, sequence, rr, killer):
    """Ordering score of leading ``top`` (the highest card of a sequence, ``sequence``: of
    two or more cards; ``rr``: remaining cards of the suit below it) from a suit
    described by :func:`_lead_suit`; ``killer``: the card is the last lead that refuted
    a sibling at this trick depth (DDS's "best move" bonus)."""
    first, second, kind, wins_top, wins_any, w, lose = facts
    if not kind & KIND_TRUMPS:
        if wins_any or top == first:
            return w + rr + (KILLER_NT_WIN if killer else 0)
        if killer:
            lose += KILLER_NT_LOSE
        if kind & KIND_SINGLE_TOP:
            return lose + NT_SINGLE_TOP + rr
        if kind & KIND_OWN_TOP:
            return lose + NT_UNDERLEAD + rr
        if not sequence:
            return lose + NT_SINGLE_CARD + rr
        return lose + NT_SECOND_SEQUENCE if top == second else lose + NT_SEQUENCE - rr
    if wins_any or (top == first and wins_top):
        if killer:
            w += KILLER_TRUMP_WIN
        if kind & KIND_SINGLE_TOP:
            return w + TRUMP_WIN_SINGLE_TOP + rr
        if kind & KIND_OWN_TOP:
            if kind & KIND_MATE_SECOND:
                return w + TRUMP_WIN_OWN_TOP_MATE_SECOND + rr
            return w + TRUMP_WIN_OWN_TOP if top == first else w + TRUMP_WIN_UNDERLEAD + rr
        if kind & KIND_MATE_TOP:
            return w + TRUMP_WIN_MATE_TOP_OWN_SECOND + rr if kind & KIND_OWN_SECOND else w + TRUMP_WIN_MATE_TOP + rr
        if sequence and top == second:
            return w + TRUMP_WIN_SECOND_SEQUENCE
        return w + TRUMP_WIN_SEQUENCE + rr if sequence else w + TRUMP_WIN_SINGLE_CARD + rr
    if killer:
        lose += KILLER_TRUMP_LOSE
    if kind & KIND_SINGLE_TOP:
        return lose + rr + TRUMP_LOSE_SINGLE_TOP
    if kind & KIND_OWN_TOP:
        if kind & KIND_MATE_SECOND:
            return lose + TRUMP_LOSE_OWN_TOP_MATE_SECOND + rr
        return lose + TRUMP_LOSE_OWN_TOP if top == first else lose + TRUMP_LOSE_UNDERLEAD + rr
    if kind & KIND_MATE_TOP:
        return lose + TRUMP_LOSE_MATE_TOP + rr
    if sequence and top == second:
        return lose + TRUMP_LOSE_SECOND_SEQUENCE
    return lose + TRUMP_LOSE_SINGLE_CARD - top


@njit(cache=True, inline="always")
def _misere_lead_bonus(hands, player, decl, c):
    """Lead-order bonus in the misère family (no trump, ``decl`` ducks against three).

    A defender's lead that forces the declarer to win at once (the lead and, for every
    defender between the leader and the declarer that holds the suit, some card of it
    below the declarer's lowest) comes first, the highest such card first (the lower
    ones stay for later); the declarer's safe exits (a defender holds the suit and only
    cards above the lead) come first, the highest first. Move ordering only.
    """
    s = c >> 4
    rk = c & 15
    mine = (hands[decl] >> (16 * s)) & LANE
    if player == decl:
        for p in range(4):
            lane = (hands[p] >> (16 * s)) & LANE
            if p != decl and lane and lowest_index(lane) > rk:
                return MISERE_FORCE + rk
        return 0
    if mine == 0 or rk > lowest_index(mine):
        return 0
    low = lowest_index(mine)
    p = (player + 1) & 3
    while p != decl:
        lane = (hands[p] >> (16 * s)) & LANE
        if lane and lowest_index(lane) > low:
            return 0
        p = (p + 1) & 3
    return MISERE_FORCE + rk


@njit(cache=True, inline="always")
def _overtaken(hands, player, c, leader):
    """Does a seat playing after ``player`` in this trick (led by ``leader``) hold the suit
    of ``c`` and only cards above it? It must then follow with a card that beats ``c``, so ``c``
    does not win the trick: for a misère declarer a safe duck, as safe as a card below
    the one winning now and ordered with those (the highest first: it keeps the lower
    cards for later tricks). ``c`` is of the suit led. Move ordering only: no answer
    depends on it.
    """
    s = c >> 4
    p = (player + 1) & 3
    while p != leader:
        lane = (hands[p] >> (16 * s)) & LANE
        if lane and lowest_index(lane) > (c & 15):
            return True
        p = (p + 1) & 3
    return False


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
    ducks,
    tt_move,
    scratch_at,
    ply,
):
    """Write one card per sequence of equivalent legal cards, ordered best-first, to
    ``scratch[CANDIDATES, ply, :]`` (their ordering scores to ``scratch[SCORES, ply, :]``; indexed in
    place, not through row views, which numba would reference-count).

    Two cards of the player are equivalent when every remaining card between them
    (all hands and the trick in progress) is the player's own. ``ducks``: order for a
    game where everybody ducks (misère), else everybody tries to win tricks. Returns
    the count.
    """
    scratch = scratch_view(scratch_at)
    n = 0
    for s in range(4):
        lane_l = (legal >> (16 * s)) & LANE
        lane_r = (rem >> (16 * s)) & LANE
        while lane_l:
            top = highest_index(lane_l)
            low, lane_l = _sequence_low(top, lane_l, lane_r)
            scratch[CANDIDATES, ply, n] = 16 * s + top
            scratch[SCORES, ply, n] = low
            n += 1
    if n < 2:
        return n
    ww = not ducks  # everybody tries to win tricks (else: everybody ducks)
    # the misère family (no trump, one seat against three, ducking): that seat, else -1
    decl = -1
    if not ww and trump < 0 and popcount(mmask) & 1:
        decl = highest_index(mmask if popcount(mmask) == 1 else 15 ^ mmask)
    my_team = (mmask >> player) & 1
    team_mask = mmask if my_team else 15 ^ mmask
    team_winning = pos > 0 and ((team_mask >> win_seat) & 1) == 1
    # second hand: does a teammate after it take the trick anyway? In the fourth seat: it beats the card winning
    # now and the best card the third hand (an opponent) can play. In the third seat (a partnership of neighbours;
    # ours, session 43: advise_suite's vraag tests with a fixed partner 63.16 M -> 61.47 M trick nodes, the
    # accepting pair's counts 19.35 M -> 18.74 M, troel 9.90 M -> 9.83 M): its best card beats the card winning now
    # and every card the fourth hand (an opponent) can play
    mate_wins = False
    if pos == 1:
        third = hands[(player + 1) & 3]
        fourth = hands[(player + 2) & 3]
        if (team_mask >> ((player + 2) & 3)) & 1:
            mate_wins = _can_beat(fourth, win_card, lead_suit, trump)
            if mate_wins and not (team_mask >> ((player + 1) & 3)) & 1:
                b3 = _best_card(third, lead_suit, trump)
                if b3 >= 0:
                    mate_wins = _can_beat(fourth, b3, lead_suit, trump)
        elif (team_mask >> ((player + 1) & 3)) & 1:
            b3 = _best_card(third, lead_suit, trump)
            mate_wins = b3 >= 0 and beats(b3, win_card, trump) and not _can_beat(fourth, b3, lead_suit, trump)
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
    # misère family, following: the declarer cannot take this trick (it played and is beaten, or it has
    # yet to play and holds no card of the suit led above the winning one): the defenders' cards decide
    # only who leads next and what they keep, so they go highest first (the low ones that could force
    # the declarer later are kept, the lead is taken). Ours (session 42): misere_corpus.py le0 39.24 M
    # -> 38.67 M, kleine 55.19 M -> 54.73 M, pico 17.26 M -> 16.82 M, le1 169.57 M -> 169.77 M trick
    # nodes; advise_suite's slow miserie question of abondance_no_top/3 (deal 7) 8.24 M -> 37.5 K
    decl_beaten = False
    if decl >= 0 and pos > 0:
        if ((decl - leader) & 3) < pos:
            decl_beaten = win_seat != decl
        else:
            lane_d = (hands[decl] >> (16 * lead_suit)) & LANE
            decl_beaten = lane_d == 0 or highest_index(lane_d) < (win_card & 15)
    facts = (0, 0, 0, False, False, 0, 0)
    fact_suit = -1
    # the table's best lead first, but not for a partnership's leads (TT_LEAD)
    tt_bonus = 0 if pos == 0 and ww and popcount(team_mask) == 2 else TT_LEAD
    for k in range(n):
        c = scratch[CANDIDATES, ply, k]
        s = c >> 4
        top = c & 15
        r = top
        lane_r = (rem >> (16 * s)) & LANE
        top_rem = highest_index(lane_r)
        if pos == 0 and ww:
            if s != fact_suit:  # the cards of a suit are consecutive
                facts = _lead_suit(hands, player, team_mask, trump, s, lane_r, tl)
                fact_suit = s
            killer = c == scratch[PER_PLY, ply, KILLER_LEAD] - 1
            sc = _lead_card(facts, top, scratch[SCORES, ply, k] != top, popcount(lane_r & ((1 << top) - 1)), killer)
        elif pos == 0:
            # everybody ducks: low leads first, from suits that leave the opponents few
            # choices (a void one may discard anything), as DDS orders its leads
            sc = DUCK_LEAD - r
            for p in range(4):
                if not (team_mask >> p) & 1:
                    ln = popcount((hands[p] >> (16 * s)) & LANE)
                    sc -= DUCK_CARD * (ln if ln else tl)
            if top == top_rem:
                sc += DUCK_TOP
            if decl >= 0:
                sc += _misere_lead_bonus(hands, player, decl, c)
        else:
            wins = beats(c, win_card, trump)
            discard = s != lead_suit and s != trump
            if discard:
                # from a long suit; not from a guarded second-best card or a bare top card
                mine = (legal >> (16 * s)) & LANE
                my_len = popcount(mine)
                sc = DISCARD_CARD * my_len - r
                if my_len == 2 and highest_index(mine) == highest_index(lane_r ^ (1 << top_rem)):
                    sc += DISCARD_GUARD
                elif my_len == 1 and top == top_rem:
                    sc += DISCARD_BARE_TOP
            if ww and pos == 2:
                # third hand: does the team take the trick once the fourth hand has played?
                best_seat = player if wins else win_seat
                q = _can_beat(hands[last], c if wins else win_card, lead_suit, trump)
                if ((team_mask >> best_seat) & 1 and not q) if last_opp else ((team_mask >> best_seat) & 1 or q):
                    if discard:
                        sc += TAKES
                    else:
                        sc = TAKES - r
                        if s == trump and s != lead_suit:
                            sc += TAKES_RUFF
                elif not discard:
                    sc = -r
                    if s == lead_suit and scratch[SCORES, ply, k] == force - 16 * s:  # its sequence reaches down to it
                        sc += FORCES_TOP
            elif ww and pos == 1 and wins and _safe_win(hands, player, c, lead_suit, trump, team_mask):
                sc = SURE_WIN - r
            elif ww:
                if team_winning:
                    if not discard:
                        sc = -r
                        if s == trump and s != lead_suit:
                            sc += RUFF_MATES_TRICK
                elif wins:
                    sc = WINS_FOR_NOW - r
                    if s == trump and s != lead_suit:
                        sc += WINS_RUFF
                elif not discard:
                    sc = -r
                    if mate_wins and s == lead_suit:
                        sc += MATE_WINS
            else:
                if decl_beaten and player != decl:
                    sc = r
                elif wins and decl >= 0 and player != decl and ((decl - leader) & 3) > pos and not discard:
                    sc = DUCK_WINS - r  # a defender before the declarer that must overtake: lowest first
                else:
                    if wins and player == decl and not discard and _overtaken(hands, player, c, leader):
                        wins = False  # the misère declarer's card is beaten by a seat after it: a safe duck
                    sc = r + DUCK_WINS if wins else r
        if c == tt_move:
            sc += tt_bonus
        scratch[SCORES, ply, k] = sc
    # insertion sort, best first
    for i in range(1, n):
        mv = scratch[CANDIDATES, ply, i]
        sv = scratch[SCORES, ply, i]
        j = i - 1
        while j >= 0 and scratch[SCORES, ply, j] < sv:
            scratch[CANDIDATES, ply, j + 1] = scratch[CANDIDATES, ply, j]
            scratch[SCORES, ply, j + 1] = scratch[SCORES, ply, j]
            j -= 1
        scratch[CANDIDATES, ply, j + 1] = mv
        scratch[SCORES, ply, j + 1] = sv
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
