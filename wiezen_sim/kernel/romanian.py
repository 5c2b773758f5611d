"""Romanian whist kernels (numba; DESIGN.md layer 3; rules: RULES.md Part 2).

The play uses the shared trick primitives of ``kernel/trick.py`` (``legal_mask`` with
``must_trump = 1``, ``beats``) and the generator and deal sampler of
``kernel/playout.py``; there is no second trick engine. Nothing here knows rule names:
it receives integers (trump suit or -1, the deck mask, bids).

Seats are positions in playing order for one deal: seat 0 is left of the dealer, bids
first and leads the first trick; seat ``n - 1`` is the dealer.

State arrays (all int64 unless said otherwise):
    hands: int64[n] — ``hands[seat]`` = mask of the cards the seat still holds.
    bids:  int64[n] — ``bids[seat]`` = the seat's bid (the number of tricks it aims at).
    won:   int64[n] — tricks won so far in this deal.
    policy: int64[n] — play policy of each seat: ``PLAY_RANDOM``, ``PLAY_AIM`` or ``PLAY_PIMC``.
    voids: int64[n] — bit ``s`` set when the seat has shown out of suit ``s`` (public knowledge).
    gone:  int64 scalar mask — cards everybody knows are not in any hand: the turned card and
        the cards already played.
    deck:  int64 scalar mask — the 8 × n card deck of this player count.
    state: uint64[1] — SplitMix64 generator state (``kernel.playout.rng_new``).
    counts (``advise_batch``): float64[cards + 1, cards + 1] — ``counts[b, t]`` = summed
        weight (1 per sample unless conditioning on earlier bids) of the samples in which
        the analysed seat, aiming at bid ``b``, took ``t`` tricks (``MODE_FIXED``: only
        row 0 is used).

Policies (documented rules, RULES.md Part 2 play: follow suit, else trump, else any):

``PLAY_AIM`` — the bid-aiming heuristic. A seat *wants* tricks while ``won < bid``,
otherwise it *avoids* them. "Outstanding" cards are the cards of the deck that are
neither in the seat's hand nor known gone (it does not look at other hands).
  * wants, on lead: lead a boss card (higher than every outstanding card of its suit;
    side suits first, then trumps); else its lowest card (side suits first).
  * wants, following: with a card that beats the trick so far: last to play → the
    cheapest such card; otherwise the cheapest boss winner, else the highest winner.
    Without one: the lowest card (side suits first).
  * avoids, on lead: its lowest card (side suits first).
  * avoids, following: the highest card that does not beat the trick so far; if every
    legal card beats it: the highest when last to play (the trick is lost anyway),
    else the lowest (hoping to be overtaken).

``PLAY_PIMC`` — perfect-information Monte Carlo aiming at the seat's own exact bid:
``worlds`` deals of the unknown cards consistent with what the seat knows (its hand,
the played cards, the turned card, the hand sizes, shown voids — a player who did not
follow is void in the led suit and, not having trumped, also in trumps:
``kernel.trick.shown_voids``) are sampled exactly uniformly by ``kernel.worlds``, the
undealt stock being a place of its own; for each legal card and world the deal is
played out with every seat — the PIMC seat included — playing ``PLAY_AIM`` towards its
own (public) bid. The card with the most worlds ending on exactly the bid wins; ties go
to the smaller total deviation ``|tricks − bid|``, then to the lower card.

``PLAY_RANDOM`` — a uniformly random legal card.

Heuristic bidder (``expected_tricks`` + ``heuristic_bid``): each card counts as a
trick with probability ``(1 − 0.7 f)^k``, where ``k`` is the number of outstanding
higher cards of its suit and ``f = (n − 1) × cards / #outstanding`` the chance that an
outstanding card is in an opponent's hand. A side-suit card (every card in a no-trump
deal) that is the ``i``-th highest the seat holds in its suit (``i`` = 0, 1, …) is
further multiplied by ``0.85^i`` (later rounds of a suit win less often), by
``(1 − r)^(n−1)`` with ``r = 0.75^cards × (1 − (2/3)^cards)`` (an opponent void in the
suit ruffs it; 0 without trump), and, for a seat that does not lead the first trick,
by 0.25 in one-card and 0.6 in two-card deals (it wins only a trick led in its suit).
The bid is the nearest integer to the sum (ties down), moved to the nearer neighbour
when the dealer's hook forbids it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount
from wiezen_sim.kernel.playout import lowest_rank_card, random_card, rng_new, sample_deal
from wiezen_sim.kernel.trick import beats, legal_mask, shown_voids
from wiezen_sim.kernel.worlds import sample_worlds

PLAY_RANDOM = 0
PLAY_AIM = 1
PLAY_PIMC = 2

MODE_AIM = 0  # advise: the analysed seat plays aiming at each candidate bid in turn
MODE_FIXED = 1  # advise: the analysed seat bids and plays like the heuristic bots (one distribution)

MUST_TRUMP = 1


@njit(cache=True)
def _highest_by_rank(mask):
    """Highest-ranked card of a non-empty ``mask`` (any suit; ties: the higher suit index)."""
    best = -1
    best_rank = -1
    for s in range(4):
        lane = (mask >> (16 * s)) & LANE
        if lane == 0:
            continue
        r = highest_index(lane)
        if r >= best_rank:
            best_rank = r
            best = 16 * s + r
    return best


@njit(cache=True)
def aim_card(hand, outstanding, pos, last, lead_suit, win_card, trump, want):
    """The ``PLAY_AIM`` card (bit number) for a seat holding ``hand``.

    Args:
        hand: the seat's cards (mask).
        outstanding: cards of the deck neither in ``hand`` nor known gone (mask).
        pos: position in the current trick (0 = on lead); ``last``: 1 when last to play.
        lead_suit, win_card: the suit led and the card winning so far (ignored on lead).
        trump: trump suit or -1.
        want: 1 when the seat still needs tricks (``won < bid``), else 0.
    """
    legal = legal_mask(hand, lead_suit, trump, MUST_TRUMP)
    if pos == 0:
        if want:
            for k in range(5):
                s = k if k < 4 else trump
                if s < 0 or (k < 4 and s == trump):
                    continue
                own = (hand >> (16 * s)) & LANE
                if own == 0:
                    continue
                top = highest_index(own)
                out = (outstanding >> (16 * s)) & LANE
                if out == 0 or top > highest_index(out):
                    return 16 * s + top
        return lowest_rank_card(legal, trump)
    winners = 0
    m = legal
    while m:
        c = lowest_index(m)
        m &= m - 1
        if beats(c, win_card, trump):
            winners |= 1 << c
    if want:
        if winners == 0:
            return lowest_rank_card(legal, trump)
        if last:
            return lowest_index(winners)  # winners are all of one suit (led suit or trumps)
        s = lowest_index(winners) >> 4
        out = (outstanding >> (16 * s)) & LANE
        bosses = winners
        if out:
            bosses = winners & ~((1 << (16 * s + highest_index(out) + 1)) - 1)
        if bosses:
            return lowest_index(bosses)
        return highest_index(winners)
    losers = legal & ~winners
    if losers:
        return _highest_by_rank(losers)
    if last:
        return highest_index(winners)
    return lowest_index(winners)


@njit(cache=True)
def _rollout(h, n, leader, pos, lead_suit, win_card, win_seat, trump, deck, gone, bids, won):
    """Play on from a trick in progress with ``PLAY_AIM`` for every seat (``h``, ``won`` in place)."""
    while True:
        while pos < n:
            seat = (leader + pos) % n
            if h[seat] == 0:
                return
            out = deck & ~gone & ~h[seat]
            card = aim_card(h[seat], out, pos, pos == n - 1, lead_suit, win_card, trump, won[seat] < bids[seat])
            h[seat] &= ~(1 << card)
            gone |= 1 << card
            if pos == 0:
                lead_suit = card >> 4
                win_card = card
                win_seat = seat
            elif beats(card, win_card, trump):
                win_card = card
                win_seat = seat
            pos += 1
        won[win_seat] += 1
        leader = win_seat
        pos = 0


@njit(cache=True)
def pimc_card(
    hands, seat, n, leader, pos, lead_suit, win_card, win_seat, trump, deck, gone, bids, won, voids, worlds, state
):
    """The ``PLAY_PIMC`` card (bit number) for ``seat``; only ``hands[seat]`` and public facts are used."""
    own = hands[seat]
    legal = legal_mask(own, lead_suit, trump, MUST_TRUMP)
    n_legal = popcount(legal)
    if n_legal == 1:
        return lowest_index(legal)
    moves = np.empty(n_legal, dtype=np.int64)
    m = legal
    for i in range(n_legal):
        moves[i] = lowest_index(m)
        m &= m - 1
    # places of the hidden cards: 0 = the undealt stock, 1 + p = seat p (the seat's own hand known)
    unknown = deck & ~gone & ~own
    known = np.zeros(n + 1, dtype=np.int64)
    need = np.zeros(n + 1, dtype=np.int64)
    place_voids = np.zeros(n + 1, dtype=np.int64)
    known[1 + seat] = own
    need[0] = popcount(unknown)
    for p in range(n):
        if p != seat:
            need[1 + p] = popcount(hands[p])  # public: everybody can count the cards in a hand
            need[0] -= need[1 + p]
        place_voids[1 + p] = voids[p]
    sampled = sample_worlds(state, known, need, unknown, place_voids, worlds)
    hits = np.zeros(n_legal, dtype=np.int64)
    dev = np.zeros(n_legal, dtype=np.int64)
    for k in range(worlds):
        for i in range(n_legal):
            c = moves[i]
            h = sampled[k, 1:].copy()
            w = won.copy()
            h[seat] &= ~(1 << c)
            if pos == 0:
                ls, wc, ws = c >> 4, c, seat
            elif beats(c, win_card, trump):
                ls, wc, ws = lead_suit, c, seat
            else:
                ls, wc, ws = lead_suit, win_card, win_seat
            _rollout(h, n, leader, pos + 1, ls, wc, ws, trump, deck, gone | (1 << c), bids, w)
            d = abs(w[seat] - bids[seat])
            if d == 0:
                hits[i] += 1
            dev[i] += d
    best = 0
    for i in range(1, n_legal):
        if hits[i] > hits[best] or (hits[i] == hits[best] and dev[i] < dev[best]):
            best = i
    return moves[best]


@njit(cache=True)
def play_deal(hands, trump, deck, turned_mask, bids, policy, worlds, seed, trace):
    """Play one deal to the end; returns int64[n] tricks per seat (seat 0 leads).

    Args:
        hands: int64[n] dealt hands (equal sizes; not modified).
        trump: suit 0..3 or -1; ``deck``: deck mask; ``turned_mask``: the turned card's
            bit (0 without trump).
        bids: int64[n]; ``policy``: int64[n] play policy per seat; ``worlds``: PIMC worlds.
        seed: generator seed (int ≥ 0) for random and PIMC seats.
        trace: int64[n × tricks] filled with the cards in playing order (trick by trick,
            leader first), or an empty array for no trace.
    """
    n = hands.shape[0]
    state = rng_new(seed)
    h = hands.copy()
    won = np.zeros(n, dtype=np.int64)
    voids = np.zeros(n, dtype=np.int64)
    gone = turned_mask
    leader = 0
    n_tricks = popcount(h[0])
    k = 0
    for _ in range(n_tricks):
        lead_suit = -1
        win_card = -1
        win_seat = leader
        for pos in range(n):
            seat = (leader + pos) % n
            if policy[seat] == PLAY_RANDOM:
                card = random_card(legal_mask(h[seat], lead_suit, trump, MUST_TRUMP), state)
            elif policy[seat] == PLAY_PIMC:
                card = pimc_card(
                    h,
                    seat,
                    n,
                    leader,
                    pos,
                    lead_suit,
                    win_card,
                    win_seat,
                    trump,
                    deck,
                    gone,
                    bids,
                    won,
                    voids,
                    worlds,
                    state,
                )
            else:
                out = deck & ~gone & ~h[seat]
                card = aim_card(h[seat], out, pos, pos == n - 1, lead_suit, win_card, trump, won[seat] < bids[seat])
            h[seat] &= ~(1 << card)
            gone |= 1 << card
            if trace.shape[0] > 0:
                trace[k] = card
                k += 1
            if pos == 0:
                lead_suit = card >> 4
                win_card = card
                win_seat = seat
            else:
                voids[seat] |= shown_voids(lead_suit, card, trump, MUST_TRUMP)
                if beats(card, win_card, trump):
                    win_card = card
                    win_seat = seat
        won[win_seat] += 1
        leader = win_seat
    return won


@njit(cache=True)
def expected_tricks(hand, seat, n, cards, trump, deck, gone):
    """The heuristic bidder's trick estimate (float) for ``hand`` held in ``seat`` (module docstring)."""
    outstanding = deck & ~gone & ~hand
    n_out = popcount(outstanding)
    f = 0.0
    if n_out > 0:
        f = min(1.0, (n - 1) * cards / n_out)
    base = 1.0 - 0.7 * f
    # one opponent ruffs a side suit: void in it (3/4 per card) and holding a trump
    ruff = 0.0
    if trump >= 0:
        ruff = 0.75**cards * (1.0 - (2.0 / 3.0) ** cards)
    no_ruff = (1.0 - ruff) ** (n - 1)
    # a side card of a very short deal wins only in a trick led in its suit
    lead = 1.0
    if seat > 0 and cards <= 2:
        lead = 0.25 if cards == 1 else 0.6
    e = 0.0
    for s in range(4):
        own = (hand >> (16 * s)) & LANE
        out = (outstanding >> (16 * s)) & LANE
        i = 0
        for r in range(14, 1, -1):
            if (own >> r) & 1:
                k = popcount(out >> (r + 1))
                p = base**k
                if s != trump:
                    p *= lead * no_ruff * 0.85**i
                e += p
                i += 1
    return e


@njit(cache=True)
def heuristic_bid(e, cards, hook):
    """Nearest integer to ``e`` in 0..cards (ties down), avoiding ``hook`` (-1 = no restriction)."""
    b = int(np.floor(e + 0.5))
    if e - np.floor(e) == 0.5:
        b = int(np.floor(e))
    b = max(0, min(cards, b))
    if b == hook:
        up = b + 1
        down = b - 1
        if down < 0:
            b = up
        elif up > cards:
            b = down
        elif up - e < e - down:
            b = up
        else:
            b = down
    return b


@njit(cache=True)
def _complete_bids(bids, est, first, n, cards):
    """Fill ``bids[first:]`` with heuristic bids from the estimates ``est`` (dealer's hook applied)."""
    total = 0
    for p in range(first):
        total += bids[p]
    for p in range(first, n):
        hook = -1
        if p == n - 1:
            hook = cards - total
        bids[p] = heuristic_bid(est[p], cards, hook)
        total += bids[p]


@njit(cache=True)
def advise_batch(hand, seat, n, cards, trump, deck, turned_mask, bids_so_far, seeds, mode, sigma, blind):
    """Weighted trick counts of the analysed seat over one sampled deal per seed word.

    ``seeds``: uint64[n_samples], one generator seed per sampled deal
    (``wiezen_sim.parallel.sample_seeds``), so that a deal never depends on the batch it
    is in. The unseen cards (deck minus ``hand`` minus the turned card) are dealt uniformly,
    ``cards`` to each other seat and ``cards − |hand|`` to the analysed seat (the rest
    stays undealt). Seats after ``seat`` bid with the heuristic bidder (hearing the
    earlier bids, the dealer's hook applied); every seat plays ``PLAY_AIM`` towards its
    own bid. ``blind`` = 1 (a blind deal, RULES.md Part 2: every bid is made before
    looking; give ``hand`` = 0): the heuristic blind bid, the nearest legal bid to
    ``cards / n``, replaces the trick estimate of the sampled hand. ``MODE_AIM``: for every candidate bid ``b``
    (0..cards) the same sampled deal is played with the analysed seat bidding and aiming
    at ``b`` (common random numbers); ``MODE_FIXED``: the analysed seat bids heuristically
    and the deal is played once.

    ``sigma`` > 0 weights each sample by how well it explains the earlier bids:
    ``w = Π_{p < seat} exp(−(bid_p − E_p)² / 2σ²)`` with ``E_p`` the heuristic trick
    estimate of the sampled hand of seat ``p`` (importance weights; ``sigma`` = 0: every
    weight is 1, i.e. uniform sampling, counts are then whole numbers).

    Returns:
        (counts, sum_w2): counts float64[cards + 1, cards + 1] summed weights (see the
        module docstring), and the sum of squared weights (for the effective sample size).
    """
    unseen = deck & ~hand & ~turned_mask
    known = np.zeros(n + 1, dtype=np.int64)  # seat n = undealt stock
    need = np.zeros(n + 1, dtype=np.int64)
    known[seat] = hand
    for p in range(n):
        need[p] = cards - popcount(known[p])
    need[n] = popcount(unseen) - (n * cards - popcount(hand))
    bids = np.zeros(n, dtype=np.int64)
    for p in range(bids_so_far.shape[0]):
        bids[p] = bids_so_far[p]
    est = np.zeros(n, dtype=np.float64)
    counts = np.zeros((cards + 1, cards + 1), dtype=np.float64)
    sum_w2 = 0.0
    won = np.zeros(n, dtype=np.int64)
    for i in range(seeds.shape[0]):
        full = sample_deal(rng_new(seeds[i]), known, need, unseen)
        hands = full[:n].copy()
        w = 1.0
        if sigma > 0:
            for p in range(seat):
                d = bids[p] - expected_tricks(hands[p], p, n, cards, trump, deck, turned_mask)
                w *= np.exp(-0.5 * d * d / (sigma * sigma))
        sum_w2 += w * w
        for p in range(seat, n):
            if blind:
                est[p] = cards / n
            else:
                est[p] = expected_tricks(hands[p], p, n, cards, trump, deck, turned_mask)
        if mode == MODE_AIM:
            for b in range(cards + 1):
                bids[seat] = b
                _complete_bids(bids, est, seat + 1, n, cards)
                h = hands.copy()
                won[:] = 0
                _rollout(h, n, 0, 0, -1, -1, 0, trump, deck, turned_mask, bids, won)
                counts[b, won[seat]] += w
        else:
            _complete_bids(bids, est, seat, n, cards)
            h = hands.copy()
            won[:] = 0
            _rollout(h, n, 0, 0, -1, -1, 0, trump, deck, turned_mask, bids, won)
            counts[0, won[seat]] += w
    return counts, sum_w2
