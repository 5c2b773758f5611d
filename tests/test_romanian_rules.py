"""Romanian whist rules as data (RULES.md Part 2): deck, sequences, bidding, scoring, deal variants."""

import itertools
import re
from pathlib import Path

import pytest

from wiezen_sim.cards import card_rank, card_suit, cards_of
from wiezen_sim.rules.romanian import (
    SCORING_PRESETS,
    RomanianRules,
    check_bids,
    deal_score,
    deal_sequence,
    deck_mask,
    forbidden_bid,
    game_winners,
    get_scoring,
    has_trump,
    legal_bids,
    score_game,
)

RULES_MD = Path(__file__).resolve().parents[1] / "wiezen_sim" / "rules" / "RULES.md"


def _rules_md_list(prefix: str) -> list[int]:
    """The 4-player 1-8-1 list exactly as printed on RULES.md Part 2."""
    text = RULES_MD.read_text(encoding="utf-8")
    part2 = text[text.index("Part 2") :]
    m = re.search(prefix + r"\s*([0-9 ]+)\(24 deals\)", part2)
    assert m, "the 4-player list is not on RULES.md any more"
    return [int(x) for x in m.group(1).split()]


def test_1_8_1_for_four_players_is_the_rules_md_list():
    expected = _rules_md_list("4 players:")
    assert len(expected) == 24
    assert list(deal_sequence(4, "1-8-1")) == expected
    assert list(deal_sequence(4)) == expected  # the default


def test_8_1_8_and_each_for_four_players():
    # "8 8 8 8 7 … 2 1 1 1 1 2 … 7 8 8 8 8" and "1 1 1 1 2 2 2 2 … 8 8 8 8"
    assert list(deal_sequence(4, "8-1-8")) == [8] * 4 + [7, 6, 5, 4, 3, 2] + [1] * 4 + [2, 3, 4, 5, 6, 7] + [8] * 4
    assert list(deal_sequence(4, "each")) == [c for c in range(1, 9) for _ in range(4)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_sequences_other_table_sizes(players):
    s = deal_sequence(players, "1-8-1")
    assert len(s) == 3 * players + 12
    assert s[:players] == (1,) * players and s[-players:] == (1,) * players
    assert s.count(8) == players and all(s.count(c) == 2 for c in range(2, 8))
    s = deal_sequence(players, "8-1-8")
    assert s[:players] == (8,) * players and s.count(1) == players and s.count(8) == 2 * players
    s = deal_sequence(players, "each")
    assert len(s) == 8 * players and list(s) == sorted(s)


@pytest.mark.parametrize("players,cards,low", [(3, 24, 9), (4, 32, 7), (5, 40, 5), (6, 48, 3)])
def test_deck_by_player_count(players, cards, low):
    deck = cards_of(deck_mask(players))
    assert len(deck) == cards == 8 * players
    assert min(card_rank(c) for c in deck) == low
    assert {card_suit(c) for c in deck} == {0, 1, 2, 3}
    assert all(sum(1 for c in deck if card_rank(c) == r) == 4 for r in range(low, 15))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_trump_turned_except_in_eight_card_deals(players):
    for cards in range(1, 9):
        assert has_trump(players, cards) == (cards < 8)
        # a card is left to turn exactly when the deal does not use the deck up
        assert (players * cards < len(cards_of(deck_mask(players)))) == has_trump(players, cards)


@pytest.mark.parametrize("bad", [2, 7, 0, -1, "4", 4.0, True])
def test_players_outside_3_to_6_rejected(bad):
    with pytest.raises(ValueError, match="3 to 6 players"):
        deal_sequence(bad)
    with pytest.raises(ValueError, match="3 to 6 players"):
        deck_mask(bad)


def test_unknown_sequence_named():
    with pytest.raises(ValueError, match="'9-1-9'"):
        deal_sequence(4, "9-1-9")


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("cards", [1, 2, 3])
def test_dealer_can_never_bid_the_hook_total(players, cards):
    """Exhaustive: every sequence of earlier bids; the dealer's legal bids never complete the total to cards."""
    for earlier in itertools.product(range(cards + 1), repeat=players - 1):
        legal = legal_bids(players, cards, earlier)
        assert all(sum(earlier) + b != cards for b in legal)
        hook = cards - sum(earlier)
        if 0 <= hook <= cards:
            assert hook not in legal and len(legal) == cards
            assert forbidden_bid(players, cards, earlier) == hook
        else:
            assert legal == list(range(cards + 1))
        # earlier players are never restricted
        for k in range(players - 1):
            assert legal_bids(players, cards, earlier[:k]) == list(range(cards + 1))
        for b in range(cards + 1):
            if sum(earlier) + b == cards:
                with pytest.raises(ValueError, match="dealer"):
                    check_bids(players, cards, (*earlier, b))


def test_forced_bids_of_special_deals():
    assert legal_bids(4, 8, (0, 0, 0), forced=0) == [0]
    assert legal_bids(4, 8, (8, 8, 8), forced=8) == [8]


@pytest.mark.parametrize(
    "tricks,points", [(3, 8), (2, -1), (4, -1), (1, -2), (5, -2), (0, -3), (6, -3)]
)  # RULES.md: bid 3: 3 tricks +8; 2 or 4 → −1; 1 or 5 → −2; 0 or 6 → −3
def test_default_scoring_example(tricks, points):
    assert deal_score(get_scoring("default"), 3, tricks, 7) == points


@pytest.mark.parametrize("tricks,points", [(3, 11), (2, -1), (5, -3), (0, -6), (4, -1), (6, -6)])
def test_triangular_scoring_example(tricks, points):  # RULES.md (b): bid 3: exact +11, 2 → −1, 5 → −3, 0 → −6
    assert deal_score(get_scoring("triangular"), 3, tricks, 7) == points


def test_bid_plus_cards_variant_a():
    s = get_scoring("bid_plus_cards")
    assert deal_score(s, 3, 3, 7) == 10
    assert deal_score(s, 0, 0, 8) == 8
    assert deal_score(s, 3, 1, 7) == -2


def test_streak_bonus_paid_every_five_and_reset():
    s = get_scoring("streak10")
    cards = [5] * 12
    bids = [[2, 1, 1]] * 12
    tricks = [[2, 1, 0]] * 12  # seat 0, 1 always exact, seat 2 never
    pts = score_game(s, cards, bids, tricks, sequence="each")
    assert [row[0] for row in pts] == [7, 7, 7, 7, 17, 7, 7, 7, 7, 17, 7, 7]
    assert [row[2] for row in pts] == [-1] * 12
    # a miss breaks the run: exact ×4, miss, exact ×5 → bonus only at the 10th deal
    t0 = [2, 2, 2, 2, 0, 2, 2, 2, 2, 2]
    pts = score_game(s, [5] * 10, [[2, 1, 1]] * 10, [[t, 1, 1] for t in t0], sequence="each")
    assert [row[0] for row in pts] == [7, 7, 7, 7, -2, 7, 7, 7, 7, 17]


@pytest.mark.parametrize("preset,length,bonus", [("streak5", 5, 5), ("streak30", 10, 30)])
def test_other_streak_bonuses(preset, length, bonus):
    s = get_scoring(preset)
    pts = score_game(s, [4] * (2 * length), [[1, 1, 1]] * (2 * length), [[1, 1, 1]] * (2 * length), "each")
    paid = [i for i, row in enumerate(pts) if row[0] != 6]
    assert paid == [length - 1, 2 * length - 1]
    assert all(pts[i][0] == 6 + bonus for i in paid)


def test_one_card_deals_do_not_count_toward_streaks_in_1_8_1():
    s = get_scoring("streak10")
    seq = deal_sequence(4, "1-8-1")
    bids = [[0, 0, 0, 0] if c == 1 else [1, 0, 0, 0] for c in seq]  # legal: the total never equals the cards
    tricks = bids  # everybody exact every deal
    pts = score_game(s, seq, bids, tricks, sequence="1-8-1")
    bonus_deals = [i for i, row in enumerate(pts) if row[0] > 5 + bids[i][0]]
    # deals 0..3 are one-card deals and do not count: the 5th counted exact bid is deal index 8
    assert bonus_deals[0] == 8
    # in "each", the one-card deals count: the 5th exact bid is deal index 4
    seq_each = deal_sequence(4, "each")
    pts = score_game(s, seq_each, [[0, 0, 0, 0]] * len(seq_each), [[0, 0, 0, 0]] * len(seq_each), sequence="each")
    assert next(i for i, row in enumerate(pts) if row[0] > 5) == 4
    # one-card deals neither extend nor break a streak in 1-8-1: a miss in the last one-card deals changes nothing
    t = [list(r) for r in tricks]
    t[-1] = [1, 0, 0, 0]
    p_miss = score_game(s, seq, bids, t, sequence="1-8-1")
    assert sum(row[0] for row in p_miss) == sum(row[0] for row in score_game(s, seq, bids, tricks, "1-8-1")) - 6


def test_miss_streak_penalty_variant_d():
    s = get_scoring("streak5_penalty")
    pts = score_game(s, [3] * 10, [[1, 1, 1]] * 10, [[0, 1, 1]] * 10, "each")
    assert [row[0] for row in pts] == [-1, -1, -1, -1, -6, -1, -1, -1, -1, -6]


def test_zero_play_variant_e():
    s = get_scoring("zero_play")
    assert game_winners(s, [0, 12, 5], zero_play=[0]) == [0]
    assert game_winners(s, [1, 12, 5], zero_play=[0]) == [1]  # missed its 0: the highest total wins
    assert game_winners(get_scoring("default"), [0, 12, 5], zero_play=[0]) == [1]


def test_scoring_presets_cover_variants():
    assert {"default", "bid_plus_cards", "triangular", "streak10", "streak5", "streak30"} <= set(SCORING_PRESETS)
    with pytest.raises(ValueError, match="unknown Romanian scoring"):
        get_scoring("nope")


def test_game_deals_with_variants():
    rules = RomanianRules.make(4, "1-8-1", "default", one_card="forehead", special_end_deals=("blind", "zero", "eight"))
    deals = rules.deals()
    assert len(deals) == 27
    assert all(d.visibility == "forehead" for d in deals if d.cards == 1)
    assert all(d.visibility == "normal" for d in deals[:24] if d.cards > 1)
    assert [(d.special, d.cards, d.trump, d.visibility, d.forced_bid) for d in deals[24:]] == [
        ("blind", 8, False, "blind", None),
        ("zero", 8, False, "normal", 0),
        ("eight", 8, False, "normal", 8),
    ]
    assert all(d.trump == (d.cards < 8) for d in deals[:24])
    with pytest.raises(ValueError, match="one_card"):
        RomanianRules.make(4, one_card="upside")
