"""The Romanian whist bid advisor: exact enumeration on one-card deals, distributions, the dealer's hook, errors."""

import itertools
import math

import numpy as np
import pytest

from wiezen_sim.analysis.romanian import advise
from wiezen_sim.cards import card_name, cards_of, parse_card, parse_hand
from wiezen_sim.kernel.romanian import expected_tricks
from wiezen_sim.rules.romanian import deal_score, deck_mask, get_scoring


def exact_one_card_win(players: int, seat: int, own: int, turned: int, weight=None) -> float:
    """P(seat wins the only trick) by enumerating every placement of the other players' cards.

    Written from RULES.md Part 2 only: seat 0 leads; the highest trump wins, else the highest card of
    the suit led. The unseen cards are the deck minus the own card and the turned card.
    ``weight(others)`` (optional) weights each placement (for bid-conditioned sampling).
    """
    unseen = [c for c in cards_of(deck_mask(players)) if c not in (own, turned)]
    trump = turned >> 4
    wins = total = 0
    for others in itertools.permutations(unseen, players - 1):
        trick = [*others[:seat], own, *others[seat:]]
        trumps = [c for c in trick if c >> 4 == trump]
        led = [c for c in trick if c >> 4 == trick[0] >> 4]
        best = max(trumps) if trumps else max(led)
        w = 1.0 if weight is None else weight(others)
        wins += w * (trick.index(best) == seat)
        total += w
    return wins / total


@pytest.mark.parametrize(
    "own,turned,seat",
    [("KH", "9S", 0), ("KH", "9S", 1), ("KH", "9S", 2), ("TS", "AS", 2), ("AD", "QC", 1), ("9C", "JD", 0)],
)
def test_one_card_three_players_matches_exact_enumeration(own, turned, seat):
    samples = 20000
    bids = [0] * seat
    adv = advise(own, 3, seat, turned, bids, samples=samples, seed=seat)
    p = exact_one_card_win(3, seat, parse_card(own), parse_card(turned))
    p1 = next(o.p_exact for o in adv.options if o.bid == 1)
    p0 = next(o.p_exact for o in adv.options if o.bid == 0)
    assert math.isclose(p0 + p1, 1.0)  # one card: play is forced, both bids read the same distribution
    assert abs(p1 - p) <= 5 * math.sqrt(p * (1 - p) / samples) + 1e-12
    lo, hi = next(o.p_exact_ci for o in adv.options if o.bid == 1)
    assert lo - 0.01 <= p <= hi + 0.01


@pytest.mark.parametrize("own,turned,bid0", [("KH", "9S", 1), ("KH", "9S", 0), ("JS", "AD", 1)])
def test_bid_conditioned_weights_match_weighted_enumeration(own, turned, bid0):
    """With bid_sigma, seat 0's sampled card is weighted by exp(-(bid - E)^2 / 2σ^2) (E: heuristic estimate)."""
    sigma, samples = 0.5, 20000
    deck, t = deck_mask(3), parse_card(turned)

    def weight(others):
        e = expected_tricks(np.int64(1 << others[0]), 0, 3, 1, t >> 4, np.int64(deck), np.int64(1 << t))
        return math.exp(-0.5 * (bid0 - e) ** 2 / sigma**2)

    p = exact_one_card_win(3, 1, parse_card(own), t, weight)
    p_uniform = exact_one_card_win(3, 1, parse_card(own), t)
    adv = advise(own, 3, 1, turned, [bid0], samples=samples, seed=5, bid_sigma=sigma)
    p1 = adv.options[1].p_exact
    assert 0 < adv.effective_samples < samples
    assert abs(p1 - p) <= 5 * math.sqrt(p * (1 - p) / adv.effective_samples)
    assert abs(p - p_uniform) > 0.005  # the conditioning matters in these cases
    plain = advise(own, 3, 1, turned, [bid0], samples=samples, seed=5)
    assert plain.effective_samples == samples and plain.bid_sigma == 0


@pytest.mark.parametrize(
    "hand,players,seat,trump,bids",
    [
        ("AS KH 9D 8C 7C", 4, 1, "QD", [2]),
        ("AS KS QH JD TC 9C 8H 7D", 4, 3, None, [1, 2, 2]),
        ("AS 5H 6D 7C", 5, 2, "KH", [0, 1]),
        ("3S 4S AH KH QD", 6, 0, "3H", []),
    ],
)
def test_fixed_model_probabilities_sum_to_one_and_rows_are_distributions(hand, players, seat, trump, bids):
    fixed = advise(hand, players, seat, trump, bids, samples=3000, seed=4, model="fixed")
    assert math.isclose(sum(o.p_exact for o in fixed.options), 1.0)
    aim = advise(hand, players, seat, trump, bids, samples=3000, seed=4, model="aim")
    cards = len(cards_of(parse_hand(hand)))
    for adv in (fixed, aim):
        assert [o.bid for o in adv.options] == list(range(cards + 1))
        for o in adv.options:
            assert math.isclose(sum(o.tricks), 1.0)
            assert o.p_exact == o.tricks[o.bid]
            score = sum(p * deal_score(get_scoring("default"), o.bid, t, cards) for t, p in enumerate(o.tricks))
            assert math.isclose(o.expected_score, score, abs_tol=1e-9)
        assert adv.recommendation.legal
        assert adv.recommendation.expected_score == max(o.expected_score for o in adv.options if o.legal)


def test_top_trumps_are_certain():
    # 3 players, 2 cards: AH KH with the QH turned are the two highest trumps left: 2 tricks whatever the aim
    adv = advise("AH KH", 3, 1, "QH", [1], samples=500, seed=1)
    for o in adv.options:
        assert o.tricks[2] == 1.0
    assert adv.recommendation.bid == 2 and adv.recommendation.expected_score == 7.0


def test_dealer_hook_bid_marked_and_never_recommended():
    free = advise("AH 9S", 4, 3, "QH", [1, 0, 1], samples=4000, seed=3)
    assert free.recommendation.bid == 1  # the ace of trumps: one trick is by far the best bid
    hooked = advise("AH 9S", 4, 3, "QH", [1, 0, 0], samples=4000, seed=3)
    legal = {o.bid: o.legal for o in hooked.options}
    assert legal == {0: True, 1: False, 2: True}  # 1 + 0 + 0 + 1 = 2 cards: forbidden
    best_any = max(hooked.options, key=lambda o: o.expected_score)
    assert best_any.bid == 1 and hooked.recommendation.bid != 1


def test_same_seed_same_answer_and_seed_matters():
    a = advise("AS KH 9D 8C 7C", 4, 0, "QD", samples=2000, seed=9)
    b = advise("AS KH 9D 8C 7C", 4, 0, "QD", samples=2000, seed=9)
    c = advise("AS KH 9D 8C 7C", 4, 0, "QD", samples=2000, seed=10)
    assert a == b
    assert a.options != c.options


def test_seat_by_number_or_name():
    """Seat N−1 is the dealer, seat 0 eldest (left of the dealer), in any table size."""
    by_number = advise("AH 9S", 4, 3, "QH", [1, 0, 0], samples=500, seed=3)
    assert advise("AH 9S", 4, "dealer", "QH", [1, 0, 0], samples=500, seed=3) == by_number
    assert advise("AH 9S", 4, "3", "QH", [1, 0, 0], samples=500, seed=3) == by_number
    assert advise("AH", 5, "eldest", "QH", samples=500, seed=3) == advise("AH", 5, 0, "QH", samples=500, seed=3)


@pytest.mark.slow
def test_result_does_not_depend_on_n_jobs():
    a = advise("AS KH 9D 8C 7C", 4, 0, "QD", samples=9000, seed=9, n_jobs=1)
    b = advise("AS KH 9D 8C 7C", 4, 0, "QD", samples=9000, seed=9, n_jobs=2)
    assert a == b


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(hand="AS", players=2, seat=0, trump="KH"), "3 to 6 players"),
        (dict(hand="AS", players=7, seat=0, trump="KH"), "3 to 6 players"),
        (dict(hand="AS KS QS JS TS 9S 8S 7S AH", players=4, seat=0, trump=None), "1 to 8 cards"),
        (dict(hand="2S KS", players=4, seat=0, trump="KH"), "2S is not in the 32-card deck"),
        (dict(hand="AS KS", players=3, seat=0, trump="8H"), "trump: card 8H is not in the 24-card deck"),
        (dict(hand="AS KS", players=4, seat=0, trump="KS"), "turned card KS cannot be in the hand"),
        (dict(hand="AS KS", players=4, seat=0, trump=None), "has a turned card"),
        (dict(hand="AS KS QS JS TS 9S 8S 7S", players=4, seat=0, trump="AH"), "no turned card"),
        (dict(hand="AS KS", players=4, seat=2, trump="AH", bids_so_far=[1]), "give 2 bids"),
        (dict(hand="AS KS", players=4, seat=1, trump="AH", bids_so_far=[3]), "0..2"),
        (dict(hand="AS KS", players=4, seat=1, trump="AH", bids_so_far=[1.5]), "must be 0..2, got 1.5"),  # was bid 1
        (dict(hand="AS KS", players=4, seat=4, trump="AH"), "0 = eldest \\(left of the dealer\\) .. 3 = dealer"),
        (dict(hand="AS KS", players=3, seat="third", trump="AH"), "names eldest, second, dealer"),
        (dict(hand="AS KS", players=4, seat=0, trump="AH", scoring="nope"), "unknown Romanian scoring"),
        (dict(hand="AS KS", players=4, seat=0, trump="AH", model="dd"), "model must be"),
        (dict(hand="AS KS", players=4, seat=0, trump="AH", samples=0), "samples"),
        (dict(hand="AS ZZ", players=4, seat=0, trump="AH"), "ZZ"),
        (dict(hand="AS KS", players=4, seat=0, trump="AH", bid_sigma=-1), "bid_sigma"),
        (dict(hand="AS KS", players=4, seat=0, trump="AH", bid_sigma=math.inf), "finite"),
        # σ² underflows to 0 below about 1e-162: the weights exp(−d²/2σ²) divided by zero
        (dict(hand="AS KS", players=4, seat=1, trump="AH", bids_so_far=[1], bid_sigma=1e-300), "square is 0"),
    ],
)
def test_bad_input_is_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        advise(**kwargs)


def test_hand_as_mask_and_json_shape():
    mask = parse_hand("AS KH 9D")
    adv = advise(mask, 4, 0, "QD", samples=500, seed=1)
    d = adv.to_dict()
    for key in ("hand", "players", "seat", "trump", "bids_so_far", "scoring", "samples", "options", "recommendation"):
        assert key in d
    assert d["trump"] == card_name(parse_card("QD"))
    assert set(d["recommendation"]) == {"bid", "expected_score"}
    assert all({"bid", "legal", "p_exact", "expected_score"} <= set(o) for o in d["options"])
