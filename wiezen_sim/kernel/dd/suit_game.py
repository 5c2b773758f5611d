"""The one-suit game of a misère declarer (numba): can the others force it to win a trick led in one suit?

No trump. The declarer (one seat that wants to lose every trick) is not on lead and, as long
as it wins no trick, never leads again, so every trick is led by one of the three others. The
one-suit game keeps only the cards of one suit ``s`` and gives the others every freedom the
other suits could give them, so that a declarer safe in it is safe in the deal:

* between tricks they may lead ``s`` from any seat of theirs that holds it (in the deal
  only the winner of the last trick leads: the game gives them every entry);
* in a trick led in ``s`` every seat that holds ``s`` plays a card of it, in seat order
  from the leader; the declarer wins the trick when its card is the highest;
* a seat X of theirs may discard a card of ``s`` of its choice in a trick led in another
  suit in which it is void: at most ``P_X`` times in all, the plain budget of
  :func:`~.misere._guarded_suit` (such a trick is led by one of the two others of the three
  and takes a card of that suit from each of them that holds it);
* they may play a trick led in another suit in which the declarer is void: it discards its
  highest card of ``s``, and each of them may discard a card of ``s`` in the same trick.

The declarer's discards: void in the suit led, it discards its highest card of a suit. When
the caller gives the declarer's discards to ``s`` alone (``declarer_discards``: no other suit
of the proof needs them, :func:`~.misere._never_wins`), it discards its highest card of ``s``
in every trick it is void in, so a discard of X's in a trick the declarer follows in is one
of at most ``R_X``, X's raced budget (:func:`~.misere._guarded_suit`: per other suit the
declarer's cards of it less X's; a card X discards to be void sooner is itself discarded in
a trick that counts), and any other discard of X's comes in a trick in which the declarer
discards too: X's first budget, ``min(R_X, P_X)``, is for discards alone, the second, ``P_X``,
for all of them. And X's first discard in a trick of the declarer's discard comes only after
``H_X - a`` discards of the declarer's, made in earlier tricks, where ``a`` is the number of
X's discards alone before it that went to the suit led there rather than to ``s``: ``H_X`` is
X's head start (:func:`discard_budgets`: in the tricks led in that suit the declarer is void
before X is). So X's first such discard spends ``a`` (as many as the declarer's discards
still missing) of its first budget. Otherwise both budgets are ``P_X``
(every discard of X's may come alone) and there is no head start.

The declarer is *safe* in ``s`` when the others cannot make it win a trick in this game. A
declarer safe in every suit it holds (or, suit by suit, safe by :func:`~.misere._never_wins`'s
own conditions) wins no trick: in a trick led in ``s`` it plays as its strategy for ``s``
says in the game's position made of the deal's cards of ``s`` and the budgets the others
have spent so far; void in the suit led, it discards as above. Every move of the deal is a
move of each suit's game, so the others never get the declarer to win.

The game is searched to the end with a table of positions (:func:`.layout.suit_game_view`:
a direct-mapped cache in the solver's scratch array, one word an entry, kept across
questions: a position's answer depends on nothing else). A position is the suit's cards in
rank order, 2 bits each for the owner relative to the declarer (0 the declarer, 1 the seat
after it, ...), with the others' budgets (each capped at the seat's cards) and head starts (0
for a seat with no discard beside one of the declarer's left: none in its budgets, or none
before the declarer is void in the suit); the entry holds
the position's key in 63 bits and the answer in the sign bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.dd.layout import SUIT_GAME_ENTRIES, suit_game_view

_I64 = types.int64
_TRAP_SIG = types.boolean(_I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64)  # own .. best_seat, scratch_at
_KEY = (1 << 63) - 1  # a cache entry: the position's key (63 bits), the answer in the sign bit
_ANSWER = -(1 << 63)
_HASH = -7046029254386353131  # 0x9E3779B97F4A7C15 as an int64 (Fibonacci hashing)


@njit(cache=True, inline="always")
def _owner(own, i):
    """The owner (relative to the declarer) of the ``i``-th lowest card of the position."""
    return (own >> (2 * i)) & 3


@njit(cache=True, inline="always")
def _run_start(own, i, p):
    """Whether the ``i``-th lowest card is seat ``p``'s lowest of a run of its cards next to each other in rank
    (the game tries one card of each run: the others of the run are the same card)."""
    return _owner(own, i) == p and (i == 0 or _owner(own, i - 1) != p)


@njit(cache=True, inline="always")
def _take(own, i):
    """The position without its ``i``-th lowest card (the cards above it move down one place)."""
    low = own & ((1 << (2 * i)) - 1)
    return low | ((own >> (2 * i + 2)) << (2 * i))


@njit(cache=True, inline="always")
def _top(own, n):
    """The place of the declarer's highest card among the ``n`` cards of the position (it holds one)."""
    top = n - 1
    while _owner(own, top) != 0:
        top -= 1
    return top


@njit(cache=True, inline="always")
def _declarer_discarded(heads):
    """The head starts after one more discard of the declarer's (each one less, none below 0)."""
    for p in (1, 2, 3):
        if (heads >> (4 * p - 4)) & 15:
            heads -= 1 << (4 * p - 4)
    return heads


@njit(_TRAP_SIG, cache=True)
def _trap(own, n, budgets, heads, leader, pos, best_pos, best_seat, scratch_at):
    """Can the others make the declarer win a trick of the one-suit game (module docstring)?

    ``own``: the ``n`` cards left, 2 bits each from the lowest (owner relative to the declarer);
    ``budgets``: 8 bits per other seat p (from bit ``8 * p - 8``), its discards of the suit still allowed in
    tricks the declarer follows in (4 bits), then in all (4 bits); ``heads``: 4 bits per other seat p (from
    bit ``4 * p - 4``), the discards the declarer still makes before p's first beside one of its own, less p's
    discards alone spent on the suit led (:func:`discard_budgets`; 0 when the declarer's discards are not given
    to the suit, or p made such a discard). Between tricks ``leader`` is -1; in a trick led in
    the suit, ``leader`` led it, ``pos`` cards were played, the highest of them by ``best_seat``, with
    ``best_pos`` of the cards left below it; ``leader`` -1 - p (p = 1, 2, 3): in a trick led in another suit
    the declarer discarded, and seat p, then the ones after it, may discard.
    """
    # typed (not literal) constants for the recursive calls (as in .search: a literal argument would make
    # numba type another copy of this function)
    zero = np.int64(0)
    between = np.int64(-1)
    held = 0  # bit p: seat p holds the suit
    for i in range(n):
        held |= 1 << _owner(own, i)
    if leader < -1:  # a trick in which the declarer discarded: seat -1 - leader may discard too (its second budget)
        p = -1 - leader
        nxt = np.int64(leader - 1) if p < 3 else between
        after = heads if p < 3 else _declarer_discarded(heads)  # this trick's discard counts from the next on
        if not held & 1:
            return False
        if _trap(own, n, budgets, after, nxt, zero, zero, zero, scratch_at):
            return True
        alone = (budgets >> (8 * p - 8)) & 15
        total = (budgets >> (8 * p - 4)) & 15
        # (alone == total: a discard in a trick the declarer follows in, before this one, is the same); p's
        # first such discard spends as many discards alone as its head start has left (they shortened the suit
        # led, not this one), and it has none after
        wait = (heads >> (4 * p - 4)) & 15
        if alone < total and wait <= alone:
            left = budgets - ((16 + wait) << (8 * p - 8))
            after &= ~(15 << (4 * p - 4))
            for i in range(n):
                if not _run_start(own, i, p):
                    continue
                if _trap(_take(own, i), n - 1, left, after, nxt, zero, zero, zero, scratch_at):
                    return True
        return False
    if leader >= 0:
        if pos == 4:
            return best_seat == 0 or _trap(own, n, budgets, heads, between, zero, zero, zero, scratch_at)
        p = (leader + pos) & 3
        if not (held >> p) & 1:  # void: it discards another suit
            return _trap(own, n, budgets, heads, leader, pos + 1, best_pos, best_seat, scratch_at)
        for i in range(n):
            if not _run_start(own, i, p):
                continue
            if i >= best_pos:  # it takes the lead of the trick
                r = _trap(_take(own, i), n - 1, budgets, heads, leader, pos + 1, i, p, scratch_at)
            else:
                r = _trap(_take(own, i), n - 1, budgets, heads, leader, pos + 1, best_pos - 1, best_seat, scratch_at)
            if r != (p == 0):  # a card the seat wants: the others trap, or the declarer escapes
                return r
        return p == 0
    # between tricks: safe when the declarer is void, nobody else holds the suit, or its highest card is
    # below the others' lowest
    if not held & 1 or held == 1:
        return False
    lowest_other = 0
    while _owner(own, lowest_other) == 0:
        lowest_other += 1
    top = _top(own, n)
    if top < lowest_other:
        return False
    counts = 0  # 4 bits per owner: its cards
    for i in range(n):
        counts += 1 << (4 * _owner(own, i))
    capped = 0  # each budget no larger than the seat's cards (nor the first than the second)
    waits = 0  # the head starts, 0 for a seat with no discard beside the declarer's left
    for p in (1, 2, 3):
        total = min((budgets >> (8 * p - 4)) & 15, (counts >> (4 * p)) & 15)
        alone = min((budgets >> (8 * p - 8)) & 15, total)
        wait = (heads >> (4 * p - 4)) & 15
        if wait - alone >= counts & 15:  # the declarer is void in the suit before p's first discard beside it
            total = alone
        if total > alone:
            waits |= wait << (4 * p - 4)
        capped |= (alone | total << 4) << (8 * p - 8)
    # the key: the cards (a 1 above the last: n need not be stored), the budgets, the head starts (63 bits);
    # the answer in the sign bit
    key = own | 1 << (2 * n) | capped << 27 | waits << 51
    cache = suit_game_view(scratch_at)
    slot = ((key * _HASH) >> 40) & (SUIT_GAME_ENTRIES - 1)
    if cache[slot] & _KEY == key:
        return cache[slot] < 0
    # with head starts, a position safe without them is safe (they only take moves away from the others); the
    # game without them is mostly in the cache, and settles most of the positions the others fail in at once
    if waits and not _trap(own, n, capped, zero, between, zero, zero, zero, scratch_at):
        cache[slot] = key
        return False
    result = False
    # a discard of the suit by another seat in a trick the declarer follows in (its first budget; tried first:
    # the others' traps mostly need their discards, and their moves that fail cost a whole proof)
    for p in (1, 2, 3):
        if result or (capped >> (8 * p - 8)) & 15 == 0:
            continue
        for i in range(n):
            if not _run_start(own, i, p):
                continue
            if _trap(_take(own, i), n - 1, capped - (17 << (8 * p - 8)), waits, between, zero, zero, zero, scratch_at):
                result = True
                break
    for lead in (1, 2, 3):
        if not result and (held >> lead) & 1 and _trap(own, n, capped, waits, lead, zero, zero, lead, scratch_at):
            result = True
    if not result:  # a trick in which the declarer discards its highest card (and the others may: _trap's -1 - p)
        result = _trap(_take(own, top), n - 1, capped, waits, np.int64(-2), zero, zero, zero, scratch_at)
    cache[slot] = key | _ANSWER if result else key
    return result


@njit(cache=True, inline="always")
def discard_budgets(hands, seat, s, x, exit_suit):
    """``(plain, raced, head)``: the budgets of another seat ``x``'s discards while ``seat`` (a misère declarer)
    never leads, outside suit ``s`` (:func:`~.misere._guarded_suit` gives the argument): plain, the tricks led in
    another suit in which ``x`` can be void (per suit the longest holding of the two others less ``x``'s); raced,
    those in which ``seat`` still follows (per suit also at most ``seat``'s cards less ``x``'s; with ``exit_suit``
    >= 0 ``x``'s cards of it count one less, the exit trick taking one); and ``x``'s head start, the discards
    ``seat`` surely makes before ``x``'s first discard in a trick ``seat`` discards in too, plus one for each
    discard of ``x``'s in a trick ``seat`` follows in that shortened the suit led there (0..13; 13 when there is
    none; not for an exit).

    The head start: that trick is led in a suit u (not ``s``: ``x`` then holds ``s``) in which both are void, so
    ``seat`` is void in it before the longest holding of the two others is. ``x``'s cards of u went in the tricks
    led in u and in its discards before, all in tricks ``seat`` followed in (this is its first discard beside one
    of ``seat``'s), a of them, at most ``raced``: after the ``|x_u| - a`` tricks led in u that took the others, in
    which ``seat`` was void after its ``|seat_u|``, it discarded in ``max(0, |x_u| - a - |seat_u|)`` of them. Over
    the suits u in which ``seat`` can be void and ``x`` too after ``raced`` such discards, the least of
    ``max(0, |x_u| - |seat_u|)``: the head start, less a."""
    plain = 0
    raced = 0
    for u in range(4):
        if u == s:
            continue
        longest, held, mine = _void_counts(hands, seat, x, u)
        void_tricks = max(0, longest - held)
        plain += void_tricks
        if u == exit_suit and held:
            held -= 1
        raced += min(void_tricks, max(0, mine - held))
    head = 13
    for u in range(4):
        if u == s:
            continue
        longest, held, mine = _void_counts(hands, seat, x, u)
        if longest > mine and longest > held - min(raced, plain):
            head = min(head, max(0, held - mine))
    return plain, raced, head


@njit(cache=True, inline="always")
def _void_counts(hands, seat, x, u):
    """``(longest, held, mine)`` in suit ``u``: the longest holding of the two others of the three but ``x``,
    ``x``'s cards and ``seat``'s."""
    longest = 0
    for q in (1, 2, 3):
        z = (seat + q) & 3
        if z != x:
            longest = max(longest, popcount((hands[z] >> (16 * u)) & LANE))
    return longest, popcount((hands[x] >> (16 * u)) & LANE), popcount((hands[seat] >> (16 * u)) & LANE)


@njit(cache=True, inline="always")
def _trapped(hands, seat, s):
    """Whether the others surely trap ``seat`` in suit ``s`` of the one-suit game, seen without the game: its
    lowest card of ``s`` above the lowest of each of theirs that holds it (that lowest led, the others' lowest
    played, it wins), or its top card above all theirs with one of them as long (that seat leads the suit until
    only the top card is left to it)."""
    mine = (hands[seat] >> (16 * s)) & LANE
    theirs = 0
    longest = 0
    lows = -1  # the highest of their lowest cards
    for k in (1, 2, 3):
        lane = (hands[(seat + k) & 3] >> (16 * s)) & LANE
        if lane:
            theirs |= lane
            longest = max(longest, popcount(lane))
            lows = max(lows, lowest_index(lane))
    return lowest_index(mine) > lows or (highest_index(mine) > highest_index(theirs) and popcount(mine) <= longest)


@njit(cache=True)
def suit_safe(hands, seat, s, in_trick, declarer_discards, scratch_at):
    """Whether ``seat`` (a misère declarer not on lead, no trump) is safe in suit ``s`` in the one-suit
    game (module docstring): the others cannot make it win a trick led in ``s``.

    ``hands``: int64[4] masks. ``in_trick``: the declarer has just led a card of ``s`` that loses the
    trick (a safe exit, :func:`~.misere._misere_exit`, its card taken out of ``hands``): the others first
    play to that trick, each a card of ``s`` of its choice if it holds one (the budgets count that trick
    already: for a seat void in the suit led, the longest holding of it among the two others is one card
    longer before it). ``declarer_discards``: the declarer, void in the suit led, always discards its
    highest card of ``s`` (the caller gives it no other suit to discard for): a seat's discards in
    tricks the declarer follows in are at most its raced budget (:func:`~.misere._guarded_suit`), the
    others come with a discard of the declarer's. ``scratch_at``: the address of the solver's scratch
    array (:mod:`.layout`), whose suit-game cache it uses. Decides: every card of ``s`` (with the hands'
    lengths, which give the budgets). The caller has already refused a suit :func:`_trapped` shows unsafe
    (:func:`~.misere._never_wins`, the one caller, does so before it asks).
    """
    lanes = 0  # the four lanes of s, relative to the seat, 16 bits each
    for k in range(4):
        lanes |= ((hands[(seat + k) & 3] >> (16 * s)) & LANE) << (16 * k)
    cards = (lanes | lanes >> 16 | lanes >> 32 | lanes >> 48) & LANE
    own = 0
    n = 0
    while cards:
        c = lowest_index(cards)
        cards &= cards - 1
        k = 0
        while not (lanes >> (16 * k + c)) & 1:
            k += 1
        own |= k << (2 * n)
        n += 1
    budgets = 0  # per other seat 8 bits: its discards alone (in tricks the declarer follows in), and in all
    heads = 0  # per other seat 4 bits: the declarer's discards before its first beside one (given the suit's discards)
    for k in (1, 2, 3):
        total, alone, head = discard_budgets(hands, seat, s, (seat + k) & 3, -1)
        total = min(total, 15)
        budgets |= (min(alone, total) if declarer_discards else total) << (8 * k - 8) | total << (8 * k - 4)
        if declarer_discards:
            heads |= head << (4 * k - 4)
    zero = np.int64(0)
    if in_trick:  # the others play to the declarer's exit, which a card of theirs beats (best: seat 1, below all)
        return not _trap(own, n, budgets, heads, zero, np.int64(1), zero, np.int64(1), scratch_at)
    return not _trap(own, n, budgets, heads, np.int64(-1), zero, zero, zero, scratch_at)
