"""Hand classes (issue 6): the sampler is uniform over the class, and errors are clear."""

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from wiezen_sim.analysis.hands import HandClass, hcp, lowest_ranks, parse_shape, sample_hand, sample_hands
from wiezen_sim.cards import FULL_DECK, card_count, cards_of, parse_card, parse_hand, suit_holding


def enumerate_class(hc: HandClass, fixed: str) -> list[int]:
    """Every hand of the class that contains ``fixed`` (brute force over the missing cards)."""
    base = parse_hand(fixed)
    rest = [c for c in cards_of(FULL_DECK) if not base >> c & 1]
    k = 13 - card_count(base)
    return [h for combo in itertools.combinations(rest, k) if hc.matches(h := base | sum(1 << c for c in combo))]


@pytest.mark.parametrize(
    "hc,fixed",
    [
        (HandClass("one ace", cards="S:KQJT98765 H:KQ", aces=1), "S:KQJT98765 H:KQ"),
        (HandClass("shape", cards="S:KQJT9876 H:KQJ", shape="9-4-0-0"), "S:KQJT9876 H:KQJ"),
        (
            HandClass("trump", cards="H:T98 D:AKQJT C:AK", trump=0, trump_length=(1, 3), trump_honours="K"),
            "H:T98 D:AKQJT C:AK S:K",
        ),
    ],
)
def test_sampler_uniform_by_exact_enumeration(hc, fixed):
    members = enumerate_class(hc, fixed)
    assert 10 < len(members) < 2000
    rng = np.random.default_rng(11)
    draws = Counter(sample_hand(hc, rng) for _ in range(20 * len(members)))
    assert set(draws) <= set(members)
    observed = [draws[h] for h in members]
    assert chisquare(observed).pvalue > 0.001


@pytest.mark.parametrize(
    "hc",
    [
        HandClass(shape="6-4-2-1"),
        HandClass(lengths=(5, 3, 3, 2)),
        HandClass(trump=1, trump_length=7, trump_honours="AQ", aces=(2, 3)),
        HandClass(points=(18, 20)),
        HandClass(shape="5-3-3-2", lowest_max=7, dangerous=(1, 1), danger_rank=5),
        HandClass(cards="AS KS", aces=(1, 1), exclude=parse_card("2H")),
        HandClass(trump=2, trump_length=6, trump_honours="AK", outside_aces=2),
        HandClass(trump=1, tricks=(4, 4.5)),
        HandClass(lengths=(5, 3, 3, 2), lowest=((2, 4), (2, 4), (2, 4), (6, 7))),
    ],
)
def test_every_sampled_hand_matches(hc):
    for hand in sample_hands(hc, 40, seed=2):
        assert card_count(hand) == 13 and hc.matches(hand)


def test_features():
    hand = parse_hand("S:AKQJ H:K32 D:Q2 C:J543")
    assert hcp(hand) == 4 + 3 + 2 + 1 + 3 + 2 + 1
    assert lowest_ranks(hand) == [11, 2, 2, 3]
    assert lowest_ranks(parse_hand("S:AKQJT98765432")) == [2, None, None, None]
    assert parse_shape("2-4-6-1") == (6, 4, 2, 1)
    trap = HandClass(shape="5-3-3-2", dangerous=1, danger_rank=5)
    assert trap.matches(parse_hand("S:KQ852 H:J42 D:953 C:76"))
    assert not trap.matches(parse_hand("S:KQ852 H:J42 D:953 C:72"))
    assert card_count(suit_holding(parse_hand("S:AK"), 0)) == 2


def test_errors():
    with pytest.raises(ValueError, match="empty"):
        sample_hand(HandClass("void", lengths=(13, 0, 0, 0), cards="AH"), np.random.default_rng(0))
    with pytest.raises(ValueError, match="too rare"):
        sample_hand(HandClass("rare", points=(37, 37)), np.random.default_rng(0), max_tries=200)
    with pytest.raises(ValueError, match="four suit lengths"):
        parse_shape("6-4-2")
    with pytest.raises(ValueError, match="trump features"):
        HandClass(trump_length=5)
    with pytest.raises(ValueError, match="aces"):
        HandClass(aces=5)
    with pytest.raises(ValueError, match="requires and forbids"):
        sample_hand(HandClass("x", cards="AS", trump=0, trump_honours="K"), np.random.default_rng(0))


def test_trump_and_misere_features():
    hand = parse_hand("S:AK H:AKQ5432 D:A2 C:J4")  # hearts trump: A 1, K guarded .5, 4 beyond 3
    assert HandClass(trump=1, outside_aces=2, tricks=8).matches(hand)  # + A, A, guarded K outside
    assert not HandClass(trump=1, outside_aces=3).matches(hand)
    assert not HandClass(trump=1, tricks=(8.5, 13)).matches(hand)
    trap = HandClass(lengths=(5, 3, 3, 2), lowest=(None, None, None, (6, 7)))
    assert trap.matches(parse_hand("S:KQ852 H:J42 D:953 C:T6"))
    assert not trap.matches(parse_hand("S:KQ852 H:J42 D:953 C:T5"))
    with pytest.raises(ValueError, match="trump features"):
        HandClass(outside_aces=1)
    with pytest.raises(ValueError, match="lowest"):
        HandClass(lowest=(1, None, None, None))
