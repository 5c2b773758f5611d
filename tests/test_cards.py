"""Card notation: parsers and printers round-trip; bad input names the token (cards.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiezen_sim.cards import (
    FULL_DECK,
    CardSet,
    card_bit,
    card_name,
    cards_of,
    deal_name,
    hand_name,
    parse_card,
    parse_deal,
    parse_hand,
    suit_holding,
)

ALL_CARDS = cards_of(FULL_DECK)
masks = st.sets(st.sampled_from(ALL_CARDS)).map(lambda cs: sum(1 << c for c in cs))


def test_encoding_layout_matches_design():
    # card bit = 16 * suit + rank, suit 0..3 = S H D C, rank 2..14
    assert parse_card("2S") == 2
    assert parse_card("AS") == 14
    assert parse_card("2H") == 18
    assert parse_card("AC") == 62
    assert len(ALL_CARDS) == 52
    assert FULL_DECK > 0 and FULL_DECK < 2**63
    assert suit_holding(parse_hand("S:AK2"), 0) == (1 << 14) | (1 << 13) | (1 << 2)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("AS", "AS"),
        ("10H", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        ("♥10", "TH"),
        ("10♥", "TH"),
        ("♥T", "TH"),
        ("1S", "AS"),
        ("RS", "KS"),
        ("DS", "QS"),
        ("VS", "JS"),
        ("SA", "AS"),
        ("CT", "TC"),
        ("DD", "QD"),
        ("2C", "2C"),
    ],
)
def test_card_forms(text, expected):
    assert card_name(parse_card(text)) == expected


@pytest.mark.parametrize("card", ALL_CARDS)
def test_card_round_trip(card):
    assert parse_card(card_name(card)) == card
    assert parse_card(card_name(card, symbols=True)) == card


@pytest.mark.parametrize(
    "text",
    [
        "S:AKQ H:T98 D:- C:AK5432",
        "♠AKQ ♥T98 ♦— ♣AK5432",
        "♠AKQ♥T98♦—♣AK5432",
        "♠AKQ♥T98♦-♣AK5432",
        "AS KS QS 10H 9H 8H AC KC 5C 4C 3C 2C",
        "A♠ K♠ Q♠ 10♥ 9♥ 8♥ A♣ K♣ 5♣ 4♣ 3♣ 2♣",
        "AKQ.T98..AK5432",
    ],
)
def test_hand_forms_agree(text):
    assert parse_hand(text) == parse_hand("S:AKQ H:T98 D:- C:AK5432")


def test_belgian_hand():
    assert parse_hand("S:1RDV H:- D:- C:-") == parse_hand("S:AKQJ")
    assert parse_hand("1S RS DS VS") == parse_hand("S:AKQJ")


@given(masks, st.sampled_from(["suits", "symbols", "cards", "pbn"]))
def test_hand_round_trip(mask, style):
    if mask == 0 and style == "cards":
        return  # an empty card list has no text
    assert parse_hand(hand_name(mask, style)) == mask


@given(st.permutations(ALL_CARDS), st.integers(0, 3))
def test_deal_round_trip(deck, first):
    hands = [sum(1 << c for c in deck[13 * i : 13 * i + 13]) for i in range(4)]
    text = deal_name(hands, first)
    assert text[0] == "NESW"[first]
    assert list(parse_deal(text)) == hands


def test_deal_any_first_seat():
    north = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
    east = "E:873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3 QJ6.K652.J85.T98"
    assert parse_deal(north) == parse_deal(east)
    assert parse_deal(north)[0] == parse_hand("QJ6.K652.J85.T98")


@pytest.mark.parametrize(
    "text,token",
    [
        ("S:AKX", "S:AKX"),  # unknown rank
        ("X:AK", "X:AK"),  # unknown suit
        ("AS KS AS", "AS"),  # duplicated card
        ("S:AKA", "S:AKA"),  # duplicated card in a holding
        ("ZS", "ZS"),
        ("AKQ.T98..AK54X2", "AKQ.T98..AK54X2"),
    ],
)
def test_bad_hand_names_token(text, token):
    with pytest.raises(ValueError, match=token.replace(".", r"\.")):
        parse_hand(text)


def test_a_card_listed_twice_is_named_alone():
    """Card by card, the token is the card itself: the message names it once, not "AS in 'AS'"."""
    with pytest.raises(ValueError, match=r"^duplicated card AS \(listed twice\)$"):
        parse_hand("AS KS AS")
    with pytest.raises(ValueError, match=r"^duplicated card AS in 'S:AKA'$"):
        parse_hand("S:AKA")


def test_wrong_count_for_full_hand():
    with pytest.raises(ValueError, match="12 cards, expected 13"):
        parse_hand("S:AKQJT9876543", size=13)
    assert parse_hand("S:AKQJT98765432", size=13) == sum(1 << card_bit(0, r) for r in range(2, 15))


def test_card_in_two_hands():
    with pytest.raises(ValueError, match="AS is in two hands"):
        parse_deal("N:AKQJ.T98.765.432 AT98.AKQ.J.T9876 .J765432.AKQ.AKQ 765432..T98432.J", None)


def test_deal_errors():
    with pytest.raises(ValueError, match="four hands"):
        parse_deal("N:AKQ... ... ...")
    with pytest.raises(ValueError, match="starts with"):
        parse_deal("X:AKQ... ... ... ...")
    with pytest.raises(ValueError, match="expected 13"):
        parse_deal("N:AKQ... JT9... 876... 543...")
    assert parse_deal("N:AKQ... JT9... 876... 543...", cards_per_hand=None)[3] == parse_hand("S:543")


def test_cardset_view():
    hand = CardSet("S:AKQ H:T98 D:- C:AK5432")
    assert len(hand) == 12
    assert "AS" in hand and parse_card("KC") in hand and "2H" not in hand
    assert hand.lengths() == (3, 3, 0, 6)
    assert hand.suit("C") == [14, 13, 5, 4, 3, 2]
    assert str(hand) == "S:AKQ H:T98 D:- C:AK5432"
    assert CardSet(hand.mask) == hand
    assert len(hand - CardSet("AS")) == 11 and len(hand | CardSet("2H")) == 13
    assert list(CardSet("2S AS")) == [parse_card("AS"), parse_card("2S")]
    with pytest.raises(ValueError, match="not a card mask"):
        CardSet(1)
