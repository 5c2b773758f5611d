"""``wiezen_sim.analysis.romanian.play_deal``: one given deal with given bids and policies (RULES.md Part 2)."""

import numpy as np
import pytest

from wiezen_sim.analysis.romanian import DealRecord, Policy, heuristic_bidder, play_deal
from wiezen_sim.cards import card_name, cards_of, parse_card
from wiezen_sim.rules.romanian import deck_mask, legal_bids


def _suit(card: int) -> int:
    return card // 16


def _rank(card: int) -> int:
    return card % 16


def _winner(cards: list[int], leader: int, players: int, trump: int) -> int:
    """Written from the rules page: the highest trump, else the highest card of the suit led."""
    trumps = [c for c in cards if _suit(c) == trump]
    pool = trumps or [c for c in cards if _suit(c) == _suit(cards[0])]
    return (leader + cards.index(max(pool, key=_rank))) % players


def test_a_two_card_deal_checked_by_hand():
    # Trump hearts (turned TH). Whatever seat 0 leads, it takes one trick with AS and
    # seat 1, void in diamonds, must trump AD with 9H: tricks 1, 1, 0 for every policy.
    hands = ["AS AD", "KS 9H", "QS KD"]
    for policy in ("random", "heuristic", "pimc"):
        for seed in range(5):
            rec = play_deal(hands, "TH", [1, 0, 0], policy, seed=seed)
            assert rec.tricks == (1, 1, 0)
            assert rec.scores == (6, -1, 5)  # exact 5 + bid; off by one −1
            assert [t.winner for t in rec.played] in ([0, 1], [1, 0])
            ad_trick = next(t for t in rec.played if parse_card("AD") in t.cards)
            assert ad_trick.by_seat(3) == (parse_card("AD"), parse_card("9H"), parse_card("KD"))
            assert ad_trick.winner == 1


def test_one_card_deal_by_hand_and_the_record():
    rec = play_deal(["KS", "AS", "9H"], "TH", [0, 1, 1], "heuristic", seed=3, scoring="triangular")
    assert rec.tricks == (0, 0, 1)  # seat 2 cannot follow spades and must trump
    assert rec.scores == (5, -1, 6)  # triangular: exact 5 + n(n+1)/2, off by d −d(d+1)/2
    assert rec.played[0].leader == 0 and rec.played[0].winner == 2
    d = rec.to_dict()
    assert d["trump"] == "TH" and d["played"] == [{"leader": 0, "cards": ["KS", "AS", "9H"], "winner": 2}]
    assert d["policies"] == ["aim", "aim", "aim"]


def _random_deal(rng: np.random.Generator, players: int, cards: int) -> tuple[list[int], int | None]:
    deck = np.array(cards_of(deck_mask(players)))
    shuffled = deck[rng.permutation(len(deck))]
    hands = [sum(1 << int(c) for c in shuffled[p * cards : (p + 1) * cards]) for p in range(players)]
    return hands, (int(shuffled[players * cards]) if cards < 8 else None)


def _check_play(rec: DealRecord) -> None:
    """Every card from the right hand, each once, legal (follow suit, else trump, else any); winners and leaders."""
    n, cards = len(rec.hands), bin(rec.hands[0]).count("1")
    trump = -1 if rec.turned is None else _suit(rec.turned)
    held = list(rec.hands)
    leader = 0
    for trick in rec.played:
        assert trick.leader == leader and len(trick.cards) == n
        led = _suit(trick.cards[0])
        for i, card in enumerate(trick.cards):
            seat = (leader + i) % n
            hand = held[seat]
            assert hand >> card & 1, f"seat {seat} played {card_name(card)} it does not hold"
            suits = {_suit(c) for c in cards_of(hand)}
            if i > 0 and led in suits:
                assert _suit(card) == led, "did not follow suit"
            elif i > 0 and trump in suits:
                assert _suit(card) == trump, "did not trump (must-trump rule)"
            held[seat] = hand & ~(1 << card)
        assert trick.winner == _winner(list(trick.cards), leader, n, trump)
        leader = trick.winner
    assert held == [0] * n
    assert len(rec.played) == cards and sum(rec.tricks) == cards
    assert rec.tricks == tuple(sum(t.winner == s for t in rec.played) for s in range(n))


def test_random_deals_are_played_legally():
    rng = np.random.default_rng(21)
    for k in range(60):
        players, cards = int(rng.integers(3, 7)), int(rng.integers(1, 9))
        hands, turned = _random_deal(rng, players, cards)
        bids: list[int] = []
        for _ in range(players):
            legal = legal_bids(players, cards, bids)
            bids.append(int(legal[rng.integers(len(legal))]))
        kinds = ("random", "heuristic", Policy("pimc4", heuristic_bidder, "pimc", 4))
        policies = [kinds[(k + s) % 3] for s in range(players)]
        rec = play_deal(hands, turned, bids, policies, seed=k)
        _check_play(rec)


def test_same_seed_same_play_and_the_seed_matters():
    rng = np.random.default_rng(5)
    hands, turned = _random_deal(rng, 5, 7)
    bids = [1, 2, 0, 1, 2]
    first = play_deal(hands, turned, bids, "random", seed=11)
    assert play_deal(hands, turned, bids, "random", seed=11) == first
    assert any(play_deal(hands, turned, bids, "random", seed=s).played != first.played for s in range(12, 20))
    pimc = Policy("pimc", heuristic_bidder, "pimc", 8)
    assert play_deal(hands, turned, bids, pimc, seed=3) == play_deal(hands, turned, bids, "pimc:8", seed=3)


@pytest.mark.parametrize(
    ("hands", "trump", "bids", "policies", "match"),
    [
        (["AS", "KS"], "TH", [0, 0], "heuristic", "3 to 6 players"),
        (["AS", "KS", "QS KD"], "TH", [0, 0, 0], "heuristic", "same number of cards"),
        (["AS", "AS", "QS"], "TH", [0, 0, 0], "heuristic", "dealt twice"),
        (["AS", "KS", "8S"], "TH", [0, 0, 0], "heuristic", "not in the 24-card deck"),
        (["AS", "KS", "QS"], None, [0, 0, 0], "heuristic", "has a turned card"),
        (["AS", "KS", "QS"], "AS", [0, 0, 0], "heuristic", "cannot be in the hand"),
        (["AS", "KS", "QS"], "TH", [0, 0], "heuristic", "one bid per seat"),
        (["AS", "KS", "QS"], "TH", [0, 0, 1], "heuristic", "dealer may not"),
        (["AS", "KS", "QS"], "TH", [0, 2, 0], "heuristic", "must be 0..1"),
        (["AS", "KS", "QS"], "TH", [0, 0, 0], ["random", "aim"], "one policy per seat"),
        (["AS", "KS", "QS"], "TH", [0, 0, 0], "clever", "unknown Romanian policy"),
        (["AS", "KS", "QS"], "TH", [0, 0, 0], "pimc:0", "pimc:M with M ≥ 1"),
        (["AS", "KS", "QS"], "TH", [0, 0, 0], "random:4", "only pimc takes a world count"),
        (["AS", "KS", "QS"], "TH", [0, 0, 0], 3, "policies: a policy"),
        (["AS", "KS", "QS"], "XX", [0, 0, 0], "heuristic", "XX"),
    ],
)
def test_bad_input_is_refused(hands, trump, bids, policies, match):
    with pytest.raises(ValueError, match=match):
        play_deal(hands, trump, bids, policies)


def test_eight_card_deal_has_no_trump_and_a_negative_seed_is_refused():
    rng = np.random.default_rng(1)
    hands, turned = _random_deal(rng, 3, 8)
    assert turned is None
    with pytest.raises(ValueError, match="no turned card"):
        play_deal(hands, "AS", [0, 0, 0])
    with pytest.raises(ValueError, match="seed"):
        play_deal(hands, None, [0, 0, 0], seed=-1)
    _check_play(play_deal(hands, None, [3, 3, 3]))
