"""Whole Romanian whist games: hook and scoring invariants, what players see (forehead, blind), special deals."""

import numpy as np
import pytest

from wiezen_sim.analysis.romanian import (
    BidView,
    Policy,
    bid_view,
    forehead_p_win,
    heuristic_bidder,
    make_policy,
    play_game,
    random_bidder,
    simulate,
)
from wiezen_sim.cards import cards_of
from wiezen_sim.rules.romanian import DealSpec, RomanianRules, deck_mask, score_game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_the_hook_and_count_every_trick(players):
    rules = RomanianRules.make(players, "1-8-1", "streak10")
    rng = np.random.default_rng(players)
    for g in range(3):
        names = ["random", "heuristic", "pimc", "mc", "random", "heuristic"][g : g + players]
        names += ["random"] * (players - len(names))
        rec = play_game(rules, [make_policy(n, bid_samples=16, worlds=4) for n in names], rng, first_dealer=g)
        cards = np.array(rec.cards)
        assert (rec.tricks.sum(axis=1) == cards).all()
        assert (rec.bids.sum(axis=1) != cards).all()  # the dealer's hook
        assert (rec.bids <= cards[:, None]).all() and (rec.bids >= 0).all()
        assert rec.dealers == [(g + d) % players for d in range(len(cards))]
        # the game driver scores exactly like the rules module (streaks included, one-card deals excluded)
        expected = score_game(rules.scoring, rec.cards, rec.bids.tolist(), rec.tricks.tolist(), "1-8-1")
        assert rec.points.tolist() == expected


class Recorder:
    def __init__(self):
        self.views: list[BidView] = []

    def __call__(self, view: BidView, rng: np.random.Generator) -> int:
        self.views.append(view)
        return random_bidder(view, rng)


def test_forehead_deals_hide_the_own_card_and_show_the_others():
    rec_bidder = Recorder()
    rules = RomanianRules.make(4, "1-8-1", one_card="forehead")
    policies = [Policy("rec", rec_bidder)] + [make_policy("heuristic")] * 3
    rng = np.random.default_rng(1)
    game = play_game(rules, policies, rng, first_dealer=0, record=True)
    one_card_views = [v for v in rec_bidder.views if v.cards == 1]
    assert len(one_card_views) == 8
    for v in rec_bidder.views:
        if v.cards == 1:
            assert v.visibility == "forehead" and v.hand is None and v.others[v.seat] is None
            assert all(v.others[s] is not None for s in range(4) if s != v.seat)
        else:
            assert v.visibility == "normal" and v.hand is not None and all(o is None for o in v.others)
    # the views match the dealt hands: others shown exactly, own card nowhere in the view
    assert len(rec_bidder.views) == len(game.deals)  # player 0 bids once per deal, in deal order
    for view, deal in zip(rec_bidder.views, game.deals, strict=True):
        seat = (0 - deal["dealer"] - 1) % 4  # player 0's bidding position in this deal
        assert view.seat == seat and view.bids_so_far == tuple(deal["bids"][:seat])
        if view.cards != 1:
            assert view.hand == deal["hands"][seat]
            continue
        assert [view.others[s] for s in range(4) if s != seat] == [deal["hands"][s] for s in range(4) if s != seat]
        shown = sum(o for o in view.others if o is not None) | (1 << view.turned)
        assert deal["hands"][seat] & shown == 0  # the own card is nowhere in the view


def test_forehead_bid_does_not_depend_on_the_own_card():
    spec = DealSpec(1, True, "forehead")
    deck = cards_of(deck_mask(4))
    others = [deck[0], deck[10], deck[20]]
    turned = deck[30]
    bids = []
    for own in deck[1:9]:
        hands = [1 << c for c in (own, *others)]  # masks; seat 0 is the forehead player
        view = bid_view(hands, 0, spec, turned, [])
        assert view.hand is None
        bids.append(heuristic_bidder(view, np.random.default_rng(0)))
    assert len(set(bids)) == 1


def test_forehead_p_win_by_enumeration():
    spec = DealSpec(1, True, "forehead")
    deck = cards_of(deck_mask(3))
    turned = deck[5]
    cards = [deck[8], deck[12], deck[19]]  # QH, AD, KC; seat 1 analyses; 9S turned: spades trump
    view = bid_view([1 << c for c in cards], 1, spec, turned, [0])
    pool = [c for c in deck if c not in (cards[0], cards[2], turned)]
    trump = turned >> 4
    wins = 0
    for c in pool:
        trick = [cards[0], c, cards[2]]
        trumps = [x for x in trick if x >> 4 == trump]
        led = [x for x in trick if x >> 4 == trick[0] >> 4]
        wins += trick.index(max(trumps) if trumps else max(led)) == 1
    assert forehead_p_win(view) == wins / len(pool)
    assert 0 < wins < len(pool)  # a non-trivial case


def test_blind_and_special_end_deals():
    rec_bidder = Recorder()
    rules = RomanianRules.make(4, "each", one_card="blind", special_end_deals=("blind", "zero", "eight"))
    policies = [Policy("rec", rec_bidder)] + [make_policy("mc", bid_samples=8)] * 3
    game = play_game(rules, policies, np.random.default_rng(2), first_dealer=1)
    blind = [v for v in rec_bidder.views if v.visibility == "blind"]
    assert len(blind) == 4 + 1  # four one-card deals and the blind end deal
    assert all(v.hand is None for v in blind)
    assert (game.bids[-2] == 0).all() and (game.bids[-1] == 8).all()
    assert game.cards[-3:] == [8, 8, 8]


def test_illegal_bid_from_a_bidder_is_reported():
    rules = RomanianRules.make(3, "each")
    bad = Policy("bad", lambda view, rng: 99)
    with pytest.raises(ValueError, match="bad bid 99"):
        play_game(rules, [bad, bad, bad], np.random.default_rng(0))


def test_simulate_table_and_determinism():
    a = simulate(players=4, games=3, policies=("heuristic", "random"), seed=5, bid_samples=16)
    b = simulate(players=4, games=3, policies=("heuristic", "random"), seed=5, bid_samples=16)
    assert a.table.equals(b.table)
    assert list(a.table.policy) == ["heuristic", "random"]
    assert (a.table.games == 3).all()
    row = a.table.iloc[0]
    assert row.score_lo <= row.mean_score <= row.score_hi
    assert 0 <= row.exact_lo <= row.exact_rate <= row.exact_hi <= 1
    assert 0 <= row.win_rate <= 1
    same = simulate(players=3, games=2, policies=("heuristic",), seed=1)
    assert same.table.win_rate.iloc[0] == pytest.approx(1 / 3)  # one policy everywhere: each player wins 1/3
    with pytest.raises(ValueError, match="unknown Romanian policy"):
        simulate(players=4, games=1, policies=("oracle",))
    with pytest.raises(ValueError, match="3 to 6"):
        simulate(players=8, games=1)
    # four policies over three players in one game: pimc never sat, and its row was all NaN
    with pytest.raises(ValueError, match=r"in 1 games random never plays \(give at least 2 games, or at most 3"):
        simulate(players=3, games=1, policies=("heuristic", "mc", "pimc", "random"))
    four = simulate(players=3, games=2, policies=("heuristic", "random", "heuristic", "random"), seed=1)
    assert (four.table.games == 2).all()


@pytest.mark.slow
def test_simulate_does_not_depend_on_n_jobs():
    a = simulate(players=3, games=4, policies=("heuristic", "mc"), seed=2, bid_samples=16, n_jobs=1)
    b = simulate(players=3, games=4, policies=("heuristic", "mc"), seed=2, bid_samples=16, n_jobs=2)
    assert a.table.equals(b.table)
