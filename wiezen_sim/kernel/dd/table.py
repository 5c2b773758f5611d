"""The search's transposition table (partition search, as in DDS; numba).

An entry does not describe one position but every position with the same suit lengths
in every hand, the same leader and question, and the same owners of the *relevant* top
cards of each suit, in relative ranks. The search returns with every result the set of
cards that decided it (the winning card of a trick that beat a card of its own suit, the
top cards behind a quick trick, the top trump); in every suit the cards at or above the
lowest decisive card form the relevant segment, and all cards below it are
interchangeable small cards. Entries are stored at trick boundaries only.

An entry's row (columns named in :mod:`.layout`):
    ``TT_LENGTHS``: bit 16 * seat + 4 * suit .. +3 = cards of that suit the seat holds;
    ``TT_QUESTION``: leader | tag << TAG_SHIFT | pattern code << CODE_SHIFT | top-card
        owners << OWNERS_SHIFT (tag: maximising seats, counted set, exact target; code:
        per suit whether the segment is empty, the suit's top card alone, the whole suit,
        or part of the suit with at least its top two cards (``_CODE_*``), and for the
        misère family's and exact questions (``_refined``) also whether that part has
        four cards or more; owners: per suit with a segment 3 bits = 1 + seat holding
        its top card). The hash chain of an entry is also chosen by the owners of every
        card of its whole suits, of the top two cards of its other suits with two or more
        relevant cards (the top four with four or more, where the code says so): the
        entries of a question with the same lengths, code and top-card owners differ in
        the owners of lower cards, and a lookup walked chains of 50-70 of them without
        this (an exact solo count, issue 18), and of 11 on average in a misère proof
        whose segments run four to eight cards deep (session 53);
    ``TT_SEGMENT``: ``pext(relevant cards, remaining cards)`` — the relevant cards in the
        packed order of the remaining cards (lowest spade first);
    ``TT_OWNERS_LOW``, ``TT_OWNERS_HIGH``: ``pext(hand1 | hand3, remaining) & segment``
        and ``pext(hand2 | hand3, remaining) & segment`` — the 2-bit owner of each
        relevant card;
    ``TT_NEXT``: the next entry of its hash chain + 1 (0: end of chain);
    ``TT_BOUNDS``: lower bound | upper bound << UPPER_SHIFT | (best lead + 1) << LEAD_SHIFT:
        the bounds are on the counted tricks of the canonical question, the best lead is
        ``suit * 16 + number of remaining cards above it`` (0: none).
Entries fill rows 0, 1, ... up to 7/8 of the table; the last eighth (``HEAD_SHARE``)
holds, from the last row backwards, the chain heads (at most a quarter as many as rows,
``HEADS_PER_ROW`` to a row): ``tt[_head_row(n, h), h % HEADS_PER_ROW]`` = the first entry
of the chain of hash value h + 1; then the code sets (:func:`_code_set`: a quarter as many
as the heads for the ordinary questions, ``CODE_WORDS`` words each; a sixteenth as many
for the refined ones, ``REFINED_CODE_WORDS`` words each): bit c of a set = an entry with
pattern code c is stored for a code-free key ``kw1 & QUESTION_MASK`` hashing there. A
lookup reads one code set and walks the chains of its codes only.

One-sided questions share entries through a canonical form: "at least lo counted
tricks" for maximising seats that include seat 0 (else both seat sets are complemented,
"flip", and the question is read on the other seats' counted tricks); exact questions
are keyed by their target. :func:`_tt_probe` and :func:`_tt_save` are the search's
lookup and store at a trick's start.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, pdep, pext, popcount
from wiezen_sim.kernel.dd.layout import (
    CODE_SETS_PER_ROW,
    CODE_WORDS,
    HEAD_SHARE,
    HEADS_PER_ROW,
    MIN_HEADS,
    REFINED_CODE_WORDS,
    REFINED_SET_ROWS,
    STAT_HEAD_DOUBLINGS,
    STAT_TT_ENTRIES,
    STAT_TT_HITS,
    STAT_TT_PROBES,
    STAT_TT_PRUNES,
    STAT_TT_STORES,
    TT_BOUNDS,
    TT_COLUMNS,
    TT_LENGTHS,
    TT_NEXT,
    TT_OWNERS_HIGH,
    TT_OWNERS_LOW,
    TT_QUESTION,
    TT_SEGMENT,
    table_view,
)

# the fields of an entry's question word (TT_QUESTION)
TAG_SHIFT = 2  # below it: the leader
CODE_SHIFT = 12  # below it: the code-free question (leader and tag)
OWNERS_SHIFT = 22  # below it: the pattern code (< N_CODES)
QUESTION_MASK = (1 << CODE_SHIFT) - 1
CODE_MASK = (1 << (OWNERS_SHIFT - CODE_SHIFT)) - 1
TAG_MISERE = 1 << 4  # tag: the counted seats are not the maximising ones
TAG_EXACT = 1 << 5  # tag: an exact target, in the bits from TARGET_SHIFT
TARGET_SHIFT = 6
# the fields of an entry's value word (TT_BOUNDS)
BOUND_MASK = 255
UPPER_SHIFT = 8
LEAD_SHIFT = 16
# what an entry keeps when the table is pruned (its chain link is made again)
_KEPT_COLUMNS = (TT_LENGTHS, TT_QUESTION, TT_SEGMENT, TT_OWNERS_LOW, TT_OWNERS_HIGH, TT_BOUNDS)

# per suit pattern (bit = suit), the 3-bit fields of those suits in a top-owners word
_PAT_OWNER_MASK = np.array([sum(7 << (3 * s) for s in range(4) if pat >> s & 1) for pat in range(16)], dtype=np.int64)
# a table pattern code is sum(state(suit) * base ** suit), state 0: no relevant card, 1: the
# segment is the suit's top card alone, 2: the whole suit, 3: part of the suit, at least
# its top two cards; base 4, or for a refined question (_refined) base 5 with state 3 only
# up to three cards and 4: part of the suit, at least its top four cards. Indexed
# [refined, code]: its suits of state 2, of state 3, of state 4, and of any state but 0
N_CODES = 5**4
REFINED_DEPTH = 4  # a refined question's state 4: at least this many relevant cards in a suit, not all of it
_STATES = [[[code // base**s % base if code < base**4 else 0 for s in range(4)] for code in range(N_CODES)]
           for base in (4, 5)]  # fmt: skip


def _suits_of_state(state: int) -> np.ndarray:
    return np.array([[sum(1 << s for s in range(4) if st[s] == state) for st in states] for states in _STATES],
                    dtype=np.int64)  # fmt: skip


_CODE_WHOLE = _suits_of_state(2)
_CODE_TOP_TWO = _suits_of_state(3)
_CODE_TOP_FOUR = _suits_of_state(4)
_CODE_SUITS = _suits_of_state(1) | _CODE_WHOLE | _CODE_TOP_TWO | _CODE_TOP_FOUR


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
def _head_row(n_rows, h):
    """Row of the chain head of hash value ``h`` (its column: ``h % HEADS_PER_ROW``)."""
    return n_rows - 1 - h // HEADS_PER_ROW


@njit(cache=True, inline="always")
def _refined(kw1):
    """1 for a question of the misère family or an exact one (its tag in the question word ``kw1``), whose
    codes also tell a suit's segment of four cards or more (``_CODE_TOP_FOUR``), else 0."""
    return 1 if (kw1 >> TAG_SHIFT) & (TAG_MISERE | TAG_EXACT) else 0


@njit(cache=True, inline="always")
def _code_set(n_rows, n_mask, h0, refined):
    """``(row, first column)`` of the code set of the code-free question with hash value ``h0``: its words
    run on into the next rows (:func:`_code_word`). An ordinary question's sets are a quarter as many as the
    chain heads, in the rows after theirs; a refined question's a sixteenth as many, in the rows after those."""
    heads = n_mask + 1
    if refined:
        g = h0 & (n_mask >> 4)
        return n_rows - heads // HEADS_PER_ROW - heads // (4 * CODE_SETS_PER_ROW) - REFINED_SET_ROWS * (g + 1), 0
    g = h0 & (n_mask >> 2)
    return n_rows - 1 - heads // HEADS_PER_ROW - g // CODE_SETS_PER_ROW, CODE_WORDS * (g % CODE_SETS_PER_ROW)


@njit(cache=True, inline="always")
def _code_word(row, col, word):
    """``(row, column)`` of word ``word`` of the code set at ``(row, col)``."""
    return row + (col + word) // TT_COLUMNS, (col + word) % TT_COLUMNS


@njit(cache=True, inline="always")
def _suit_totals(kw0):
    """Remaining cards per suit, 4 bits a suit, from a lengths key (the sum of the seats'
    fields never carries: a suit has at most 13 cards)."""
    return (kw0 & 0xFFFF) + ((kw0 >> 16) & 0xFFFF) + ((kw0 >> 32) & 0xFFFF) + ((kw0 >> 48) & 0xFFFF)


@njit(cache=True, inline="always")
def _entry_head(kw0, kw1, c0, c1, n_mask):
    """Hash chain of an entry: of its key, and also of the owners of every card of its whole
    suits, of the top two cards of its suits of state 3 and of the top four of its suits of
    state 4 (``c0``/``c1`` restricted to them, the same for the position and for every matching
    entry, since the segment covers them)."""
    code = (kw1 >> CODE_SHIFT) & CODE_MASK
    refined = _refined(kw1)
    whole = _CODE_WHOLE[refined, code]
    two = _CODE_TOP_TWO[refined, code]
    four = _CODE_TOP_FOUR[refined, code]
    if whole | two | four:
        lens = _suit_totals(kw0)
        m = 0
        start = 0
        for s in range(4):
            ln = (lens >> (4 * s)) & 15
            if (whole >> s) & 1:
                m |= ((1 << ln) - 1) << start
            elif (two >> s) & 1:
                m |= 3 << (start + ln - 2)
            elif (four >> s) & 1:
                m |= ((1 << REFINED_DEPTH) - 1) << (start + ln - REFINED_DEPTH)
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


@njit(cache=True, inline="always")
def _question_tag(mmask, cmask, lo, hi, one_sided):
    """``(tag, flip)`` of the canonical question at a trick's start; tag -1: not stored.

    One-sided questions (at least ``lo`` counted tricks) share a tag whatever ``lo``;
    exact questions (``lo == hi``) are tagged with their target.
    """
    tag = -1
    flip = False
    if one_sided:
        m = mmask
        c = cmask
        if not (m & 1):
            flip = True
            m = 15 ^ m
            c = 15 ^ c
        tag = m | (TAG_MISERE if c != m else 0)
    elif lo == hi and lo < 16:
        tag = mmask | (TAG_MISERE if cmask != mmask else 0) | TAG_EXACT | (lo << TARGET_SHIFT)
    return tag, flip


@njit(cache=True, inline="always")
def _position_key(hands, rem, leader, tag):
    """``(kw0, kw1b, c0, c1)``: the lengths key, the code-free question word and the owner
    bits of every remaining card (seats 1 and 3, seats 2 and 3), packed."""
    return (
        _lengths_key(hands),
        leader | (tag << TAG_SHIFT),
        pext(hands[1] | hands[3], rem),
        pext(hands[2] | hands[3], rem),
    )


@njit(cache=True, inline="always")
def _tt_probe(tt, stats, hands, rem, leader, key, lo, tl, one_sided, flip):
    """Look the position up: ``(answer, decisive cards, best lead)``.

    ``answer`` is 1 or 0 when a matching entry's bound decides the question (then
    ``decisive`` = its relevant cards), -1 when none does (then ``best lead`` is the card
    of the leader that the last matching entry with one names, -1: none). Every pattern
    code stored for the code-free question is tried.
    """
    kw0, kw1b, c0, c1 = key
    # the canonical value v (counted tricks of the canonical question) answers the
    # question by v >= thr (flipped: by v < thr); one matching entry whose bound
    # decides it is enough
    if one_sided:
        thr = tl - lo + 1 if flip else lo
        high_means = not flip
    else:
        thr = 1
        high_means = True
    tt_move = -1
    n_mask = _head_mask(tt, stats)
    n_rows = tt.shape[0]
    refined = _refined(kw1b)
    row0, col0 = _code_set(n_rows, n_mask, _tt_head(kw0, kw1b, n_mask), refined)
    nonempty = 0
    for su in range(4):
        if (rem >> (16 * su)) & LANE:
            nonempty |= 1 << su
    owners = _top_owners(hands, rem, nonempty)
    for word in range(REFINED_CODE_WORDS if refined else CODE_WORDS):
        row, col = _code_word(row0, col0, word)
        present = tt[row, col]
        while present:
            code = 64 * word + lowest_index(present)
            present &= present - 1
            suits = _CODE_SUITS[refined, code]
            if suits & ~nonempty:
                continue
            kw1 = kw1b | (code << CODE_SHIFT) | ((owners & _PAT_OWNER_MASK[suits]) << OWNERS_SHIFT)
            h = _entry_head(kw0, kw1, c0, c1, n_mask)
            idx = tt[_head_row(n_rows, h), h % HEADS_PER_ROW]
            while idx:
                i = idx - 1
                idx = tt[i, TT_NEXT]
                stats[STAT_TT_PROBES] += 1
                if tt[i, TT_LENGTHS] != kw0 or tt[i, TT_QUESTION] != kw1:
                    continue
                sm = tt[i, TT_SEGMENT]
                if (c0 & sm) != tt[i, TT_OWNERS_LOW] or (c1 & sm) != tt[i, TT_OWNERS_HIGH]:
                    continue
                v = tt[i, TT_BOUNDS]
                if (v & BOUND_MASK) >= thr or ((v >> UPPER_SHIFT) & BOUND_MASK) < thr:
                    stats[STAT_TT_HITS] += 1
                    return (1 if high_means == ((v & BOUND_MASK) >= thr) else 0), pdep(sm, rem), -1
                if v >> LEAD_SHIFT:
                    tt_move = (v >> LEAD_SHIFT) - 1
    if tt_move >= 0:
        s = tt_move >> 4
        lane = (rem >> (16 * s)) & LANE
        for _ in range(tt_move & 15):
            if lane:
                lane ^= 1 << highest_index(lane)
        if lane:
            cand = 16 * s + highest_index(lane)
            tt_move = cand if (hands[leader] >> cand) & 1 else -1
        else:
            tt_move = -1
    return -1, 0, tt_move


@njit(cache=True, inline="always")
def _tt_save(tt_at, tt_rows, stats, hands, rem, key, rel, best, result, lo, tl, one_sided, flip):
    """Store a search's result: the bound it gives on the canonical question, for the
    positions that share the cards in ``rel`` that decided it (``best``: the lead that
    succeeded, -1: none). The table comes by address (``tt_rows`` rows, :mod:`.layout`)."""
    stats[STAT_TT_STORES] += 1
    kw0, kw1b, c0, c1 = key
    seg_m = pext(rel, rem)
    refined = _refined(kw1b)
    code = 0
    weight = 1
    for su in range(4):
        lane = (rel >> (16 * su)) & LANE
        if not lane:
            state = 0
        elif lane == (rem >> (16 * su)) & LANE:
            state = 2
        elif refined and popcount(lane) >= REFINED_DEPTH:
            state = 4
        else:
            state = 3 if lane & (lane - 1) else 1
        code += weight * state
        weight *= 4 + refined
    kw1 = kw1b | (code << CODE_SHIFT) | (_top_owners(hands, rem, _CODE_SUITS[refined, code]) << OWNERS_SHIFT)
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
    _tt_store(tt_at, tt_rows, stats, kw0, kw1, seg_m, c0, c1, tl, set_lb, value, mv)


@njit(cache=True)
def _tt_store(tt_at, tt_rows, stats, kw0, kw1, seg_m, c0, c1, tl, set_lb, value, move):
    """Tighten one bound (lower if ``set_lb`` else upper) of the entry for this segment.

    A full entry pool first drops its entries with the fewest tricks left (``_tt_prune``).
    """
    tt = table_view(tt_at, tt_rows, TT_COLUMNS)
    n = tt.shape[0]
    h = _entry_head(kw0, kw1, c0, c1, _head_mask(tt, stats))
    p0 = c0 & seg_m
    p1 = c1 & seg_m
    slot = -1
    idx = tt[_head_row(n, h), h % HEADS_PER_ROW]
    while idx:
        i = idx - 1
        if (
            tt[i, TT_LENGTHS] == kw0
            and tt[i, TT_QUESTION] == kw1
            and tt[i, TT_SEGMENT] == seg_m
            and tt[i, TT_OWNERS_LOW] == p0
            and tt[i, TT_OWNERS_HIGH] == p1
        ):
            slot = i
            break
        idx = tt[i, TT_NEXT]
    if slot < 0:
        if stats[STAT_TT_ENTRIES] >= n - n // HEAD_SHARE:
            _tt_prune(tt, stats)
        slot = stats[STAT_TT_ENTRIES]
        stats[STAT_TT_ENTRIES] += 1
        tt[slot, TT_LENGTHS] = kw0
        tt[slot, TT_QUESTION] = kw1
        tt[slot, TT_SEGMENT] = seg_m
        tt[slot, TT_OWNERS_LOW] = p0
        tt[slot, TT_OWNERS_HIGH] = p1
        tt[slot, TT_BOUNDS] = tl << UPPER_SHIFT  # lower bound 0, upper bound tl, no best lead
        if _heads_short(tt, stats):
            _tt_grow(tt, stats)
        else:
            _tt_link(tt, slot, _head_mask(tt, stats))
    v = tt[slot, TT_BOUNDS]
    if set_lb:
        if value > (v & BOUND_MASK):
            v = (v & ~BOUND_MASK) | value
    elif value < ((v >> UPPER_SHIFT) & BOUND_MASK):
        v = (v & ~(BOUND_MASK << UPPER_SHIFT)) | (value << UPPER_SHIFT)
    if move >= 0:
        v = (v & ((1 << LEAD_SHIFT) - 1)) | ((move + 1) << LEAD_SHIFT)
    tt[slot, TT_BOUNDS] = v


@njit(cache=True, inline="always")
def _head_mask(tt, stats):
    """Hash mask of the chain heads in use (``MIN_HEADS`` doubled ``stats[STAT_HEAD_DOUBLINGS]``
    times, at most a quarter of the table's rows)."""
    return (min(MIN_HEADS, tt.shape[0] // 4) << stats[STAT_HEAD_DOUBLINGS]) - 1


@njit(cache=True, inline="always")
def _heads_short(tt, stats):
    """Fewer than 4 chain heads per entry, and the heads may still double."""
    return 4 * stats[STAT_TT_ENTRIES] > _head_mask(tt, stats) + 1 < tt.shape[0] // 4


@njit(cache=True)
def _tt_grow(tt, stats):
    """Double the chain heads and link every entry again.

    Keeping the heads about as few as the entries (4 per entry), packed 4 to a row at
    the end of the table, keeps a lookup's reads of them within a few hundred kB
    instead of scattered over the whole table.
    """
    stats[STAT_HEAD_DOUBLINGS] += 1
    n_mask = _head_mask(tt, stats)
    n = tt.shape[0]
    for r in range(_code_set(n, n_mask, n_mask, 1)[0], n):  # from the last code set's row: the whole head region
        tt[r, :] = 0
    for i in range(stats[STAT_TT_ENTRIES]):
        _tt_link(tt, i, n_mask)


@njit(cache=True, inline="always")
def _entry_cells(tt, slot, n_mask):
    """``(head row, head column, code-set row, code-set column, code bit)`` of the entry in row ``slot``: the
    cell holding its chain's first entry, and the word and bit marking its pattern code in the code set of
    its code-free question."""
    n = tt.shape[0]
    kw0 = tt[slot, TT_LENGTHS]
    kw1 = tt[slot, TT_QUESTION]
    h = _entry_head(kw0, kw1, tt[slot, TT_OWNERS_LOW], tt[slot, TT_OWNERS_HIGH], n_mask)
    row0, col0 = _code_set(n, n_mask, _tt_head(kw0, kw1 & QUESTION_MASK, n_mask), _refined(kw1))
    code = (kw1 >> CODE_SHIFT) & CODE_MASK
    set_row, set_col = _code_word(row0, col0, code // 64)
    return _head_row(n, h), h % HEADS_PER_ROW, set_row, set_col, 1 << (code % 64)


@njit(cache=True)
def _tt_link(tt, slot, n_mask):
    """Put the entry in row ``slot`` at the head of its chain and mark its code as stored."""
    head_row, head_col, set_row, set_col, bit = _entry_cells(tt, slot, n_mask)
    tt[slot, TT_NEXT] = tt[head_row, head_col]
    tt[head_row, head_col] = slot + 1
    tt[set_row, set_col] |= bit


@njit(cache=True)
def _tt_prune(tt, stats):
    """Make room in a full table: keep the entries with the most tricks left, at most half.

    Those cost the most to find again (a deep misère proof that emptied the whole table
    whenever it filled up searched 3-4 times more nodes than in a table large enough).
    The kept entries move to the front of the pool and are linked again.
    """
    n = stats[STAT_TT_ENTRIES]
    per_tl = np.zeros(14, np.int64)
    for i in range(n):
        per_tl[_entry_tricks(tt[i, TT_LENGTHS])] += 1
    kept = 0
    t = 13  # keep the entries with more than t tricks left
    while t > 0 and kept + per_tl[t] <= n // 2:
        kept += per_tl[t]
        t -= 1
    tt_clear(tt, stats)
    j = 0
    for i in range(n):
        if _entry_tricks(tt[i, TT_LENGTHS]) > t:
            for col in _KEPT_COLUMNS:
                tt[j, col] = tt[i, col]
            j += 1
    stats[STAT_TT_ENTRIES] = j
    while _heads_short(tt, stats):
        stats[STAT_HEAD_DOUBLINGS] += 1
    n_mask = _head_mask(tt, stats)
    for i in range(j):
        _tt_link(tt, i, n_mask)
    stats[STAT_TT_PRUNES] += 1


@njit(cache=True, inline="always")
def _entry_tricks(kw0):
    """Tricks left in an entry's positions (all stored at the start of a trick) from its lengths key."""
    lens = _suit_totals(kw0)
    return ((lens & 15) + ((lens >> 4) & 15) + ((lens >> 8) & 15) + ((lens >> 12) & 15)) // 4


@njit(cache=True)
def tt_clear(tt, stats):
    """Empty the table by resetting only the hash heads its entries use.

    ``tt``: int64[n_rows, TT_COLUMNS], ``stats``: the counters (:mod:`.layout`); the
    entries' rows are left as they are. Costs time in proportion to the entries stored,
    not to the table size (a search of a few thousand nodes must not pay for zeroing a
    table of hundreds of MB).
    """
    n_mask = _head_mask(tt, stats)
    for i in range(stats[STAT_TT_ENTRIES]):
        head_row, head_col, set_row, set_col, _ = _entry_cells(tt, i, n_mask)
        tt[head_row, head_col] = 0
        tt[set_row, set_col] = 0
    stats[STAT_TT_ENTRIES] = 0
    stats[STAT_HEAD_DOUBLINGS] = 0
