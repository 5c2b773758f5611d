"""The threshold bidding bot's wish codes of many hands at once (numba; DESIGN.md layer 3).

A *wish code* (``int64``) packs every hand feature the bot's decisions read
(``analysis/threshold.py``): bits 0-5 twice the playing tricks in the best suit, bits 6-7
that suit, then one bit per flag of :data:`FLAGS` from bit 8 (``holds_troel``: three or
four aces). The features are sums over the suits of per-suit tables indexed by a suit's
holding (ranks 2..14 at bits 0..12): twice the playing tricks as a side suit, the extra a
holding counts as the trump suit, and the misère risk under the two staircases.

Two hands with one code get one decision, so the bot decides once per distinct code.
This loop replaces a dozen numpy passes whose per-call cost dominated the posterior's
many small batches (session 37: 19 k calls of a few hundred hands each).
"""

from __future__ import annotations

import numpy as np
from numba import njit

FLAGS = ("solo_slim", "open_miserie", "miserie", "pico", "kleine_miserie", "abondance_in_troef", "solo", "vraag",
         "accept", "wait", "holds_troel")  # fmt: skip
FLAG_BIT = {name: 8 + i for i, name in enumerate(FLAGS)}
# the trick thresholds wish_codes reads, doubled, in this order (``need`` below; abondance in troef needs
# abondance's tricks in the turned suit)
NEEDS = ("solo_slim", "abondance", "solo", "vraag", "accept", "wait")
HOLDINGS = 1 << 13  # one suit's holding: ranks 2..14 at bits 0..12 (a suit lane shifted down by 2)
ACE = 1 << 12
_SUITS = 4
_LANE = 16  # bits per suit in a card mask; rank r of suit s at bit 16 s + r
_BEST_SUIT_SHIFT = 6


@njit(cache=True)
def wish_codes(
    hands: np.ndarray,
    turned_suit: int,
    side: np.ndarray,
    extra: np.ndarray,
    risk: np.ndarray,
    open_risk: np.ndarray,
    need: np.ndarray,
) -> np.ndarray:
    """The wish codes of ``hands`` (``int64[n]`` card masks) with ``turned_suit`` (0..3) turned.

    ``side``, ``extra``, ``risk``, ``open_risk``: ``int64[HOLDINGS]`` per-holding tables (twice the
    playing tricks as a side suit, the extra as trumps, the risky cards under the misère and the open
    miserie staircase); ``need``: ``float64[6]``, twice the thresholds of :data:`NEEDS`. The best suit is
    the first with the most tricks, the turned suit on a tie. Pico: one risky card, and it is an ace
    (taking away a suit's top card moves no other card). Returns ``int64[n]``.
    """
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    lanes = np.empty(_SUITS, dtype=np.int64)
    risks = np.empty(_SUITS, dtype=np.int64)
    for i in range(n):
        sides = 0
        total_risk = 0
        open_total = 0
        aces = 0
        for s in range(_SUITS):
            lane = (hands[i] >> (_LANE * s + 2)) & (HOLDINGS - 1)
            lanes[s] = lane
            risks[s] = risk[lane]
            sides += side[lane]
            total_risk += risks[s]
            open_total += open_risk[lane]
            if lane & ACE:
                aces += 1
        best = 0
        best_key = -1
        best_tricks = 0
        trump = 0
        pico_ace = False
        for s in range(_SUITS):
            tricks = sides + extra[lanes[s]]
            key = 2 * tricks + (1 if s == turned_suit else 0)
            if key > best_key:
                best, best_key, best_tricks = s, key, tricks
            if s == turned_suit:
                trump = tricks
            if lanes[s] & ACE and total_risk - risks[s] + risk[lanes[s] & ~ACE] == 0:
                pico_ace = True
        flags = (
            best_tricks >= need[0],  # solo_slim
            open_total == 0,  # open_miserie
            total_risk == 0,  # miserie
            total_risk == 1 and pico_ace,  # pico
            total_risk <= 1,  # kleine_miserie
            trump >= need[1],  # abondance_in_troef
            trump >= need[2],  # solo
            trump >= need[3],  # vraag
            trump >= need[4],  # accept
            trump >= need[5],  # wait
            aces >= 3,  # holds_troel
        )
        code = best_tricks | best << _BEST_SUIT_SHIFT
        bit = 8
        for flag in flags:
            if flag:
                code |= 1 << bit
            bit += 1
        out[i] = code
    return out
