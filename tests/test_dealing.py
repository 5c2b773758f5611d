"""Dealing (RULES.md 1.2): 4-4-5 packets, the turned card, gather-and-cut, Vuilbakwiezen."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiezen_sim.cards import FULL_DECK, card_count, cards_of, parse_hand
from wiezen_sim.rules.dealing import deal_packets, deal_vuilbak, gather_and_cut, lowest_cards_discard, new_deck

DECK = cards_of(FULL_DECK)


def mask(cards):
    return sum(1 << c for c in cards)


def test_packets_start_with_eldest_and_turned_card_is_dealers_last():
    deck = DECK  # unshuffled, so positions are easy to follow
    deal = deal_packets(deck, dealer=2)
    eldest = 3
    assert deal.hands[eldest] == mask(deck[0:4] + deck[16:20] + deck[32:37])
    assert deal.hands[2] == mask(deck[12:16] + deck[28:32] + deck[47:52])
    assert deal.turned == deck[51] and deal.hands[2] >> deal.turned & 1
    assert deal.trump == deck[51] >> 4


@settings(max_examples=50)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_every_dealt_hand_is_13_distinct_cards(seed, dealer):
    deal = deal_packets(new_deck(np.random.default_rng(seed)), dealer)
    assert [card_count(h) for h in deal.hands] == [13] * 4
    assert sum(deal.hands) == FULL_DECK  # disjoint and complete
    assert deal.hands[dealer] >> deal.turned & 1


def test_gather_and_cut_is_a_cut_of_the_played_order():
    rng = np.random.default_rng(5)
    played = new_deck(rng)
    seen = set()
    for _ in range(200):
        deck = gather_and_cut(played, rng)
        k = deck.index(played[0])
        assert deck == played[-k:] + played[:-k] if k else False
        seen.add(k)
    assert len(seen) > 40  # the cut point is random
    assert gather_and_cut(played, np.random.default_rng(1)) == gather_and_cut(played, np.random.default_rng(1))


def test_bad_decks():
    with pytest.raises(ValueError, match="52 cards"):
        deal_packets(DECK[:51], 0)
    with pytest.raises(ValueError, match="52 cards"):
        gather_and_cut(DECK[:-1] + DECK[:1], np.random.default_rng(0))
    with pytest.raises(ValueError, match="dealer"):
        deal_packets(DECK, 4)


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_vuilbak(seed, dealer):
    deck = new_deck(np.random.default_rng(seed))
    calls = []

    def discard(hand):
        calls.append(hand)
        assert card_count(hand) == 17
        return lowest_cards_discard(hand)

    deal = deal_vuilbak(deck, dealer, discard)
    assert len(calls) == 3
    assert [card_count(h) for h in deal.hands] == [13] * 4 and sum(deal.hands) == FULL_DECK
    assert deal.turned == deck[-1] and deal.hands[dealer] >> deal.turned & 1
    discards = deal.hands[dealer] & ~(1 << deal.turned)
    for hand17 in calls:
        assert hand17 & discards == mask(lowest_cards_discard(hand17))


def test_default_vuilbak_discard_is_the_four_lowest():
    hand = parse_hand("S:AKQJT98765432 H:5432")
    assert mask(lowest_cards_discard(hand)) == parse_hand("2H 2S 3H 3S")


def test_vuilbak_rejects_bad_discard():
    with pytest.raises(ValueError, match="discard 4 distinct"):
        deal_vuilbak(DECK, 0, lambda hand: cards_of(hand)[:3])
