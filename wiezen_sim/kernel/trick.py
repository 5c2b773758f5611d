"""Trick primitives for 3–6 players (numba, int64 masks; DESIGN.md layer 3).

Cards are bit numbers ``16 * suit + rank`` (suit 0..3 = S H D C, rank 2..14) and a
set of cards is an int64 mask. ``trump`` is a suit 0..3 or ``NO_TRUMP`` (-1).
``must_trump`` (0/1) is the Romanian-whist rule: a player void in the led suit must
play a trump if they hold one. Wiezen has no such obligation (``must_trump = 0``).

State arrays used here:
    hands: int64[n_players] — ``hands[seat]`` = mask of the cards that seat still holds.
    trick: int64[n_players] — ``trick[i]`` = card (bit number) played i-th in the current
        trick, i.e. by seat ``(leader + i) % n_players``.
"""

from __future__ import annotations

from numba import njit

from wiezen_sim.kernel.bits import LANE, highest_index, lowest_index, popcount

NO_TRUMP = -1


@njit(cache=True, inline="always")
def suit_mask(suit):
    """Mask of the 13 card bits of ``suit``."""
    return LANE << (16 * suit)


@njit(cache=True)
def legal_mask(hand, lead_suit, trump, must_trump):
    """Mask of the cards of ``hand`` that may be played.

    ``lead_suit`` is the suit led to the current trick, or -1 when the player leads.
    Follow suit if possible; otherwise, with ``must_trump`` set and a trump held, a
    trump; otherwise any card.
    """
    if lead_suit < 0:
        return hand
    follow = hand & (LANE << (16 * lead_suit))
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & (LANE << (16 * trump))
        if trumps:
            return trumps
    return hand


@njit(cache=True)
def shown_voids(lead_suit, card, trump, must_trump):
    """Suits (4-bit mask) a player is known to lack after playing ``card`` to a trick led
    in ``lead_suit`` (-1 when the player leads: nothing learned).

    A card of another suit shows a void in the suit led; with ``must_trump`` set (Romanian
    whist, RULES.md Part 2: "otherwise play a trump if possible") a card that is neither of
    the suit led nor a trump shows a void in trumps too.
    """
    if lead_suit < 0 or card >> 4 == lead_suit:
        return 0
    out = 1 << lead_suit
    if must_trump and trump >= 0 and card >> 4 != trump:
        out |= 1 << trump
    return out


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """True when ``card`` beats ``best``, the card currently winning the trick."""
    cs = card >> 4
    if cs == best >> 4:
        return card > best
    return cs == trump


@njit(cache=True)
def trick_winner(trick, n_cards, leader, n_players, trump):
    """Seat that wins a trick: ``trick[:n_cards]`` played in order from ``leader``."""
    best = trick[0]
    win = 0
    for i in range(1, n_cards):
        if beats(trick[i], best, trump):
            best = trick[i]
            win = i
    return (leader + win) % n_players


@njit(cache=True, inline="always")
def play_card(hands, seat, card):
    """Remove ``card`` from ``hands[seat]`` (in place)."""
    hands[seat] &= ~(1 << card)


@njit(cache=True, inline="always")
def undo_card(hands, seat, card):
    """Give ``card`` back to ``hands[seat]`` (in place)."""
    hands[seat] |= 1 << card


@njit(cache=True, inline="always")
def card_count(mask):
    """Number of cards in a mask."""
    return popcount(mask)


@njit(cache=True, inline="always")
def lowest_card(mask):
    """Lowest card bit of a non-empty mask (lowest suit first)."""
    return lowest_index(mask)


@njit(cache=True, inline="always")
def highest_card(mask):
    """Highest card bit of a non-empty mask (highest suit first)."""
    return highest_index(mask)
