"""Static bounds of the misère family (numba): seats that can never win a trick again, or must win one.

Every bound returns with its answer the cards that decided it (partition search,
:mod:`.table`), and every one is exact (a proof, never a guess):
- a set of seats not on lead that can never win a trick never gets the lead back
  (:func:`_never_wins`; for a seat that ducks, the ducks condition over the rounds a
  suit can still be led, guarded suits, :func:`_guarded_suit`, and the one-suit game,
  :mod:`.suit_game`);
- the others can force a misère player to win a trick (:func:`_forced_win`);
- a misère declarer on lead must win this trick, or can exit and never win again
  (:func:`_misere_exit`).
:func:`_never_wins_bound` asks them at a trick's start for the search.
"""

from __future__ import annotations

from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.dd.suit_game import _trapped, discard_budgets, suit_safe

PLAIN = 16  # _guarded_suit: the suit is safe without a race


@njit(cache=True, inline="always")
def _never_wins_bound(hands, trump, mmask, cmask, lo, hi, tl, leader, scratch_at):
    """``(answer, decisive cards)`` at a trick's start from the seats that can never win a
    trick again or must win one; answer -1: neither applies.

    A set of seats not on lead that can never win a trick (see :func:`_never_wins`) never
    gets the lead back: the counted tricks are then 0 or all of them (misère proofs). The
    group wants to lose when it is a minimiser counted, or a maximiser not counted. A
    misère declarer on lead may have a safe exit and never win again, or must win this
    trick (:func:`_misere_exit`); one not on lead may be forced to win it
    (:func:`_forced_win`). ``scratch_at``: the search's scratch array (its address), whose
    one-suit game cache the proofs use (:mod:`.suit_game`).
    """
    if not (cmask >> leader) & 1:
        nw = _never_wins(hands, trump, cmask, (cmask & mmask) == 0, -1, scratch_at)
        if nw >= 0:
            return (1 if lo <= 0 <= hi else 0), nw
        # misère, the declarer on lead (see _misere_exit): it loses every trick from
        # here (the others take all tl), or it must win this one (they take at most tl - 1)
        if trump < 0 and cmask == 15 ^ mmask and mmask == 1 << leader:
            ex, ex_rel = _misere_exit(hands, leader, scratch_at)
            if ex > 0 or (ex < 0 and lo == tl):
                return (1 if ex > 0 and lo <= tl <= hi else 0), ex_rel
    else:
        nw = _never_wins(hands, trump, 15 ^ cmask, ((15 ^ cmask) & ~mmask) == 0, -1, scratch_at)
        if nw >= 0:
            return (1 if lo <= tl <= hi else 0), nw
        # misère (one seat wants to lose every trick, the others want it to win one)
        if lo == tl and trump < 0 and mmask == 15 ^ cmask and popcount(mmask) == 1:
            fw = _forced_win(hands, leader, mmask)
            if fw >= 0:
                return 0, fw
    return -1, 0


@njit(cache=True, inline="always")
def _ducks_top(mine, theirs, rounds):
    """The ducks condition of :func:`_never_wins` for one suit (``mine``: the seat's cards, ``theirs``: the
    others', lanes; ``rounds``: the most cards of it one other seat holds): 0 when it holds, else the
    seat's cards from the first that fails it up (the j-th lowest not below the others' j-th lowest)."""
    while mine and rounds:
        if lowest_index(mine) > lowest_index(theirs):
            return mine
        mine &= mine - 1
        theirs &= theirs - 1
        rounds -= 1
    return 0


@njit(cache=True)
def _guarded_suit(hands, seat, s, exit_suit, top):
    """No trump, ``seat`` never leads (it wins no trick): can the others never make it win a
    trick led in suit ``s``? ``PLAIN``: yes; a slack 0..12: only if it races the suit, with
    at most that many discards of the seat spent on other raced suits first (see below and
    :func:`_races_fit`); -1: not shown. ``top``: its cards of ``s`` that fail the ducks
    condition and those above them (:func:`_ducks_top`, not 0).

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
    least j. Racing the suit, the seat, when void in the suit led, discards its highest
    card of ``s``, and only X's discards in tricks the seat follows suit in are counted. Of the tricks led in u, X is
    void only in those after its last card of u and the seat follows only up to its own
    last one, so per suit u at most the seat's cards of u less X's are such tricks (and at
    most those X is void in). A card of u that X discards to be void sooner adds one, but
    that discard is made in a trick the seat follows in (it uses one up) or in one the seat
    is void in (see next): X gains nothing. Every other trick X
    discards in takes a card of ``s`` from the seat too, as long as it holds one. If the
    seat still holds the suit in its j-th trick, it made at most ``|s| - j`` such
    discards, so X then holds at least its cards minus the smaller budget minus the
    seat's cards plus one: X lasts every trick when its cards minus that budget are at
    least the seat's cards of ``s``. Several suits may be raced one after the other (the
    seat, void in the suit led, discards the highest card of the first raced suit it still
    holds): a suit raced after others whose cards the seat held number k may see X discard
    in k more tricks the seat is void in, so X then needs k more; the slack returned is the
    largest k every card's guard (in the variant below that needs least) allows. A guard's
    discard in a trick the seat discards in too comes only after its head start of discards of
    the seat's, less one for each of its discards alone (in a trick the seat follows in) spent
    on shortening the suit led there (:func:`.suit_game.discard_budgets`; not with an exit, a
    trick the seat leads): with a of those, X discards s at most ``raced budget - a`` times
    alone and ``max(0, k + discards of s - (head start - a))`` times beside the seat, at most
    ``raced budget + max(0, k + discards of s - head start)`` in all. So where the seat's
    lowest cards or its right-hand neighbour's guard (below) last every trick racing alone, X
    holds at least its cards minus that minus the tricks led in ``s`` before: the slack grows
    by the head start.
    The suit is safe when every d_j (j up to ``rounds``) has a guard that lasts the
    j-th trick. It is safe too when the seat's cards in ``top`` (above its lowest ones that
    meet the ducks condition), e_1 < ... < e_h, each have a guard (its cards of ``s`` all above e_i) that
    lasts h + 1 - i tricks: the seat plays the highest of them it holds to each trick
    led in ``s`` (a guard of it follows above it), then keeps the ducks condition with
    the rest (the others' cards only leave: their j-th lowest rises, their longest
    holding shrinks). The card it plays to its t-th trick is the e_i with t plus its
    discards of them (the highest first) = h + 1 - i, so a guard whose cards minus the
    budget are at least h + 1 - i still holds the suit; raced, one whose cards minus the
    raced budget are (it also discarded at most one card per discard of the seat).
    The suit is safe too when the seat's right-hand neighbour R (the seat before it in
    every trick, as the seat never leads) lasts every trick (its cards minus its budget
    at least the seat's cards of ``s``; raced, minus the raced budget) and, both sorted
    upwards, R's j-th lowest card of ``s`` is above the seat's j-th lowest for every j up
    to the seat's length. In a trick
    led in ``s`` R plays, say, its i-th lowest before the seat, so the card winning at the
    seat's turn is above the seat's i-th lowest: the seat plays its highest card below it
    (its p-th lowest, p >= i) and loses the trick, and the condition holds on with both
    cards out (for j < i nothing moved; for i <= j < p the seat's j-th lowest stays below
    R's (j+1)-th; from p on both shift). A card R discards (any) keeps it too, as does the
    seat's discard of its highest card of ``s``. (Not for an exit: there R plays after the
    seat.) Decides: as below, the seat's lowest card (R's cards all lie above it).
    With ``exit_suit`` >= 0 the hands are those before a trick the seat
    leads in that suit (its card already taken out, :func:`_misere_exit`), which the
    argument above (every trick led by the others) does not cover, so a guard counts
    one card less when it holds that suit and it is ``s`` (it follows with a card of
    ``s``), or when it is void in it (it may discard; the plain budget counts that
    trick already, since the seat guarding the exit is one of the two others and
    follows, but the raced budget, capped by the seat's cards of the suit with its
    card taken out, does not). It follows in any other suit: its plain budget stays (its
    cards of that suit and the longest of the two others' both drop by one), and its
    raced budget counts its cards of that suit one less (the seat's card is out already).
    Decides: the seat's lowest card of the suit (the segment from it up, with the
    lengths, fixes every comparison and each seat's cards below it: none for the
    guards).
    """
    mine = (hands[seat] >> (16 * s)) & LANE
    rounds = 0
    for k in (1, 2, 3):
        rounds = max(rounds, popcount((hands[(seat + k) & 3] >> (16 * s)) & LANE))
    h = popcount(top)
    # per seat 4 bits: its cards of s less its budget of discards, plain and raced (at most 13, 0 for
    # none; the tricks led in s it surely still holds the suit in, see the docstring; both budgets from
    # one pass; words, not arrays: this runs at most trick starts of a misère search,
    # where an allocation cost as much as the rest)
    lasts = 0
    lasts_raced = 0
    heads = 0  # per seat 4 bits: its head start (.suit_game.discard_budgets; none with an exit)
    for k in (1, 2, 3):
        x = (seat + k) & 3
        lane_x = (hands[x] >> (16 * s)) & LANE
        if lane_x == 0:
            continue
        # raced: X void while the seat follows, only after X's last card of u and up to the seat's (the exit trick
        # takes one card of u from X, none from the seat: see the docstring)
        budget, budget_raced, head = discard_budgets(hands, seat, s, x, exit_suit)
        spent = 1 if exit_suit == s or (exit_suit >= 0 and (hands[x] >> (16 * exit_suit)) & LANE == 0) else 0
        lasts |= max(popcount(lane_x) - budget - spent, 0) << (4 * x)
        lasts_raced |= max(popcount(lane_x) - budget_raced - spent, 0) << (4 * x)
        if exit_suit < 0:
            heads |= head << (4 * x)
    # the seat's right-hand neighbour plays before it to every trick: the ducks condition against its cards alone, over
    # the seat's length (a neighbour that lasts holds that many)
    rho = (seat + 3) & 3
    n = popcount(mine)
    rho_plain = (lasts >> (4 * rho)) & 15 >= n
    slack = ((lasts_raced >> (4 * rho)) & 15) - n
    if exit_suit >= 0 or not (rho_plain or slack >= 0) or _ducks_top(mine, (hands[rho] >> (16 * s)) & LANE, n):
        slack = -1
    elif rho_plain:
        return PLAIN
    else:
        slack += (heads >> (4 * rho)) & 15
    # the top h cards, the highest first: the i-th lowest of them needs a guard above it that lasts h + 1 - i tricks
    first = True
    first_slack = 15
    g = top
    i = 1
    while g and (first or first_slack >= 0):
        covered, margin = _guard_lasts(hands, seat, s, lowest_index(g), lasts, h + 1 - i, lasts_raced, h + 1 - i, 0)
        first &= covered
        first_slack = min(first_slack, margin)
        g &= g - 1
        i += 1
    if first:
        return PLAIN
    slack = max(slack, first_slack)
    # the lowest card first: d_j needs a guard that lasts the j-th trick (raced: every trick the seat holds the suit in)
    plain = True
    low_slack = 15
    g = mine
    j = 1
    while g and j <= rounds and (plain or low_slack >= 0):
        guarded, margin = _guard_lasts(hands, seat, s, lowest_index(g), lasts, j, lasts_raced, n, heads)
        plain &= guarded
        low_slack = min(low_slack, margin)
        g &= g - 1
        j += 1
    return PLAIN if plain else min(max(slack, low_slack), 12)


@njit(cache=True, inline="always")
def _guard_lasts(hands, seat, s, card, lasts, need, lasts_raced, need_raced, heads):
    """``(plain, margin)``: does another seat hold cards of ``s`` only above ``card`` (a guard of it) and surely
    hold the suit for ``need`` tricks led in it (its count in ``lasts``, 4 bits per seat); and the most by which
    a guard's raced count (in ``lasts_raced``) exceeds ``need_raced``, plus its head start (in ``heads``, 4 bits
    per seat) when it does (-1: none reaches it). See :func:`_guarded_suit`."""
    plain = False
    margin = -1
    for k in (1, 2, 3):
        x = (seat + k) & 3
        lane_x = (hands[x] >> (16 * s)) & LANE
        if lane_x and lowest_index(lane_x) > card:
            plain |= (lasts >> (4 * x)) & 15 >= need
            over = ((lasts_raced >> (4 * x)) & 15) - need_raced
            margin = max(margin, over + ((heads >> (4 * x)) & 15) if over >= 0 else over)
    return plain, margin


@njit(cache=True)
def _never_wins(hands, trump, group, ducks, exit_suit, scratch_at):
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
    discards its highest, and in the suits only a race guards (raced suits) discards it
    whenever void in the suit led, one raced suit after the other, in an order that gives
    each the slack it needs (:func:`_races_fit`). A suit that fails all of these may still be safe
    in the one-suit game (:mod:`.suit_game`, when ``scratch_at`` gives its cache; 0: not asked):
    first with every discard of the others' allowed alone, else, for one suit only and with no
    raced suit, with the declarer's discards all given to it. Since the winner leads next, a group not on lead never
    wins again. ``exit_suit`` (-1: none): the hands are those before a trick the seat
    leads in that suit, with its card taken out (see :func:`_guarded_suit`; the ducks
    condition holds on after it, as :func:`_misere_exit` argues).
    The proof needs, per suit held by both, the others' lowest card (plain form) or the
    lowest card of the two: the segment from it up holds every card that was compared
    (lengths, which give ``rounds``, do the rest); for a guarded suit the seat's lowest
    card of it; for a suit safe in the one-suit game every card of it (the lowest of the two).
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
    raced = 0  # the suits only a race guards: per suit 8 bits, its slack and the seat's cards of it
    games = 0  # the suits the closed forms do not prove: bit s, for the one-suit game (.suit_game)
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
            top = _ducks_top(g, o, rounds)
            if top:
                slack = -1
                if trump < 0:
                    slack = _guarded_suit(hands, highest_index(group), s, exit_suit, top)
                if slack >= 0:
                    if slack != PLAIN:
                        raced |= (slack | popcount(g) << 4) << (8 * s)
                    low = lowest_index(g)
                elif trump < 0 and scratch_at and not (s != exit_suit and _trapped(hands, highest_index(group), s)):
                    games |= 1 << s  # for the one-suit game, below
                else:
                    return -1
        elif highest_index(g) > lowest_index(o):
            return -1
        rel |= 1 << (16 * s + low)
    if not _races_fit(raced):
        return -1
    if games:
        # the one-suit game (.suit_game). The declarer's discards may all go to one suit when no other needs
        # them (no race): a suit safe without them is safe with them (every move of the others in that game is
        # one in the other), so a lone such suit asks only that game, several ask the one without first and
        # give the discards to the one suit that fails it
        seat = highest_index(group)
        given = exit_suit < 0 and raced == 0
        if given and games & (games - 1) == 0:
            return rel if suit_safe(hands, seat, lowest_index(games), False, True, scratch_at) else -1
        failed = -1
        while games:
            s = lowest_index(games)
            games &= games - 1
            if not suit_safe(hands, seat, s, s == exit_suit, False, scratch_at):
                if not given or failed >= 0:
                    return -1
                failed = s
        if failed >= 0 and not suit_safe(hands, seat, failed, False, True, scratch_at):
            return -1
    return rel


@njit(cache=True, inline="always")
def _races_fit(raced):
    """Can the seat race every suit in ``raced`` (per suit 8 bits: the slack its guards allow, 4 bits, and the
    seat's cards of it, 4 bits; 0: not raced), one after the other? The seat races them in order (void in the
    suit led, it discards the highest card of the first it still holds), so a suit's guards may also have
    discarded in every trick the seat spent on the suits before it: their cards, at most the suit's slack.
    Earliest deadline first (slack plus cards, ascending) fits them when any order does."""
    used = 0
    while raced:
        pick = 0
        due = 99
        for s in range(4):
            r = (raced >> (8 * s)) & 255
            if r and (r & 15) + (r >> 4) < due:
                pick = s
                due = (r & 15) + (r >> 4)
        r = (raced >> (8 * pick)) & 255
        if used > (r & 15):
            return False
        used += r >> 4
        raced ^= r << (8 * pick)
    return True


@njit(cache=True)
def _forced_win(hands, leader, group):
    """The cards that prove the others can make the one seat in ``group`` win this trick, or -1.

    No trump; the leader is not in ``group``. True when in some suit the seat's lowest
    card is above the leader's lowest card and above the lowest card of every other
    seat that holds the suit: the leader leads its lowest, the others follow low, and
    the seat must follow with a card that wins. Decisive: the seat's lowest card of the
    suit (the segment from it up: the cards below it are the others', and a position with
    the same lengths and the same owners from it up has each of them holding as many of
    those, so each still holds a card below the seat's lowest).
    """
    m = highest_index(group)
    for s in range(4):
        mine = (hands[m] >> (16 * s)) & LANE
        lead = (hands[leader] >> (16 * s)) & LANE
        if mine == 0 or lead == 0:
            continue
        low_m = lowest_index(mine)
        if lowest_index(lead) > low_m:
            continue
        forced = True
        for p in range(4):
            lane = (hands[p] >> (16 * s)) & LANE
            if p != m and p != leader and lane and lowest_index(lane) > low_m:
                forced = False
        if forced:
            return 1 << (16 * s + low_m)
    return -1


@njit(cache=True)
def _misere_exit(hands, declarer, scratch_at):
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
    argument as above) and the cards of that condition. ``scratch_at``: as in
    :func:`_never_wins` (0: the one-suit game not asked).
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
        nw = _never_wins(hands, -1, bit_d, True, t, scratch_at)
        hands[declarer] ^= 1 << c
        if nw >= 0:
            return 1, nw | (1 << c)
        rel_win = -1
    if rel_win >= 0:
        return -1, rel_win
    return 0, 0
