"""Worlds that read the auction (issue 19 parts 1, 5): the sampled distribution is the exact posterior
of the model read with a tremble, no world contradicts the play, worlds off the model come with the
posterior's mass and are counted, a rare bid is read (not drowned by the tremble); the threshold bot as a
model; the auction behind an advised option (part 3)."""

import dataclasses
import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest, chisquare

from wiezen_sim import play_deal
from wiezen_sim.analysis.advise.play import auction_behind, default_model
from wiezen_sim.analysis.threshold import NEUTRAL, ThresholdBidder, misere_risk
from wiezen_sim.cards import FULL_DECK, SUITS, card_count, card_rank, card_suit, cards_of, parse_hand, suit_holding
from wiezen_sim.rules.auction import ACES_MASK, Bid, Declaration, apply, legal_bids, start_auction
from wiezen_sim.rules.bots import playing_tricks, random_policy
from wiezen_sim.rules.dealing import Deal, deal_packets, new_deck
from wiezen_sim.rules.play import play_hand, setup_play
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers import worlds as worlds_module
from wiezen_sim.solvers.players import PimcPlayer
from wiezen_sim.solvers.worlds import (
    RATE_HANDS,
    TREMBLE,
    AuctionEvidence,
    PosteriorWorlds,
    bid_rate,
    count_worlds,
    observe,
    reference_hands,
    sample_world,
)

RULES = get_rules()
BOT = ThresholdBidder()
LOW = "S:8642 H:732 D:53 C:9432"  # the miserie hand: the bot bids open miserie with it


def deal_with(rng, fixed, dealer=3):
    """A deal with the given hands (seat → text) and the rest dealt at random; turned = the dealer's lowest card."""
    hands = [parse_hand(fixed[s], size=13) if s in fixed else 0 for s in range(4)]
    rest = [int(c) for c in rng.permutation(cards_of(FULL_DECK & ~sum(hands)))]
    open_seats = [s for s in range(4) if s not in fixed]
    for i, c in enumerate(rest):
        hands[open_seats[i % len(open_seats)]] |= 1 << c
    return Deal(tuple(hands), dealer, cards_of(hands[dealer])[-1])


def bot_auction(deal, model=BOT):
    """The auction as the model bids it for every seat: the evidence, and the final state."""
    state, turns = start_auction(deal, RULES), []
    while not state.done:
        bid = model(state)
        turns.append((state, bid))
        state = apply(state, bid)
    return AuctionEvidence(tuple(turns), model), state


def rule_discard(hand):
    """The players' kleine-miserie discard, stated here on its own: the highest rank, then the first suit in S H D C
    order."""
    return max(cards_of(hand), key=lambda c: (card_rank(c), -card_suit(c)))


def played_by(history):
    played = [0] * 4
    for leader, cards in history:
        for i, c in enumerate(cards):
            played[(leader + i) % 4] |= 1 << c
    return played


def readings(world, info, history, evidence):
    """For each way to give the unseen discards back, which seats the observer cannot see bid otherwise than
    the model (the scalar bot, one auction state at a time): a list of sets of seats, None for a way in which
    a seat did not discard its highest card (when the information set has the discard rule)."""
    played = played_by(history)
    others = [s for s in range(4) if s != info.seat]
    pooled = cards_of(world[4]) if len(world) > 4 else []
    hidden = {s for s in range(4) if info.counts[s] > card_count(info.hands_known[s])}
    out = []
    for order in itertools.permutations(pooled):
        dealt = [world[s] | played[s] for s in range(4)]
        for s, c in zip(others, order, strict=False):
            dealt[s] |= 1 << c
        if info.dealt and any(rule_discard(dealt[s]) != c for s, c in zip(others, order, strict=True)):
            out.append(None)
            continue
        heard = [(state, bid) for state, bid in evidence.turns if state.to_act in hidden]
        out.append(
            {
                state.to_act
                for state, bid in heard
                if evidence.model(dataclasses.replace(state, hands=tuple(dealt))) != bid
            }
        )
    return out


def agrees(world, info, history, evidence):
    """The share of the ways to give the unseen discards back (by the discard rule) under which the model makes
    every hidden bid."""
    ways = [off for off in readings(world, info, history, evidence) if off is not None]
    return sum(not off for off in ways) / len(ways)


_RATES: dict = {}


def scalar_rate(evidence, seat):
    """How often the model (the scalar bot, one hand at a time) makes every bid of ``seat`` over the reference
    hands, at least 1 / RATE_HANDS: the off-model part of the tremble."""
    turns = tuple((state, bid) for state, bid in evidence.turns if state.to_act == seat)
    if turns not in _RATES:
        hits = 0
        for hand in reference_hands().tolist():
            placed = [
                dataclasses.replace(state, hands=tuple(hand if s == seat else h for s, h in enumerate(state.hands)))
                for state, _ in turns
            ]
            hits += all(evidence.model(p) == bid for p, (_, bid) in zip(placed, turns, strict=True))
        _RATES[turns] = max(hits / RATE_HANDS, 1 / RATE_HANDS)
    return _RATES[turns]


def heard_seats(info, evidence):
    """The seats whose bids the observer reads: hidden ones that chose a bid."""
    seats = {state.to_act for state, _ in evidence.turns}
    return {s for s in seats if info.counts[s] > card_count(info.hands_known[s])}


def unread_seats(worlds, info, history, evidence):
    """The heard seats that bid off the model in every (world, discard owners) way: their bids are left unread."""
    ways = [off for w in worlds for off in readings(w, info, history, evidence) if off is not None]
    return {s for s in heard_seats(info, evidence) if all(s in off for off in ways)}


def way_weights(world, info, history, evidence, unread, tremble=TREMBLE):
    """For each way to give the discards back: the product over the seats read of (1 - ε) + ε·rate for a seat
    whose bids are the model's and ε·rate for one whose are not; 0 for a way against the discard rule."""
    read = heard_seats(info, evidence) - unread
    out = []
    for off in readings(world, info, history, evidence):
        if off is None:
            out.append(0.0)
            continue
        w = 1.0
        for s in read:
            e = tremble * scalar_rate(evidence, s)
            w *= e if s in off else 1 - tremble + e
        out.append(w)
    return out


def tremble_weight(world, info, history, evidence, unread):
    """The likelihood of the auction in a world under the model read with a tremble, averaged over the ways."""
    weights = way_weights(world, info, history, evidence, unread)
    return sum(weights) / len(weights)


def off_mass(worlds, info, history, evidence, posterior, unread):
    """The posterior mass of the (world, discard owners) pairs in which a hidden seat bids off the model."""
    mass = 0.0
    for w, p in zip(worlds, posterior, strict=True):
        if p == 0:  # no way to give the discards back by the rule
            continue
        ways = readings(w, info, history, evidence)
        weights = way_weights(w, info, history, evidence, unread)
        mass += p * sum(x for x, off in zip(weights, ways, strict=True) if off) / sum(weights)
    return mass


def every_world(info):
    """Every deal consistent with the information set, by trying every owner of every unseen card."""
    cards = cards_of(info.unseen)
    out = []
    for owners in itertools.product(range(len(info.counts)), repeat=len(cards)):
        hands = list(info.hands_known)
        for card, owner in zip(cards, owners, strict=True):
            hands[owner] |= 1 << card
        if info.consistent(hands):
            out.append(tuple(hands))
    return out


def small_position(kind):
    """Late in a hand (two cards each, or one and the others' kleine-miserie discards) whose auction says
    something about the unseen cards: the first seed whose exact posterior is neither empty nor uniform.
    ``kind``: "miserie" (the issue's low hand bids it), "kleine_miserie" (and the discards), or "limited"
    (random hands: a seat proposed or waited, and the rejection limits its suit lengths to under half the
    consistent deals: the threshold bot's ``length_bound``)."""
    kleine = kind == "kleine_miserie"
    for seed in range(100):
        rng = np.random.default_rng(seed)
        deal = deal_packets(new_deck(rng), 3) if kind == "limited" else deal_with(rng, {1: LOW})
        evidence, _ = bot_auction(deal)
        contract = "solo" if kind == "limited" else kind
        setup = setup_play([Declaration(contract, (1,))], deal, RULES)
        discards = [rule_discard(h) for h in deal.hands] if kleine else None
        record = play_hand(setup, deal.hands, [random_policy(rng)] * 4,
                           None if discards is None else lambda s, h, d=discards: d[s])  # fmt: skip
        history = [(leader, cards) for leader, cards, _ in record.tricks[:11]]
        info = observe(2, deal.hands, history, deal.dealer, deal.turned, (), discards)
        if kind == "limited":
            limit = PosteriorWorlds(info, history, evidence, np.random.default_rng(1), enumerate_up_to=0).limit
            if limit is None or limit.share >= 0.5:
                continue
        worlds = every_world(info)
        unread = unread_seats(worlds, info, history, evidence)
        weights = np.array([tremble_weight(w, info, history, evidence, unread) for w in worlds])
        if len(set(weights.tolist())) > 1 and (info.dealt or not kleine):
            return info, history, evidence, worlds, weights / weights.sum(), unread
    raise AssertionError("no informative position")


def fits(draws, worlds, posterior):
    """Whether ``draws`` (world tuples) look drawn from ``posterior``: none outside it, chi-square p > 0.001
    (the worlds expected fewer than 5 times pooled into one cell, as the test needs)."""
    counts = Counter(draws)
    if any(posterior[worlds.index(w)] == 0 for w in counts):
        return False
    expected = posterior * len(draws)
    observed = np.array([counts[w] for w in worlds])
    big, small = expected >= 5, (expected > 0) & (expected < 5)
    obs, exp = list(observed[big]), list(expected[big])
    if small.any():
        obs.append(observed[small].sum())
        exp.append(expected[small].sum())
    return len(obs) > 1 and chisquare(obs, exp).pvalue > 0.001


@pytest.mark.parametrize("kind", ["miserie", "kleine_miserie", "limited"])
def test_sampled_worlds_follow_the_exact_posterior(kind):
    kleine = kind == "kleine_miserie"
    info, history, evidence, worlds, posterior, unread = small_position(kind)
    n = 40 * int((posterior > 0).sum())
    rejection = PosteriorWorlds(info, history, evidence, np.random.default_rng(1), enumerate_up_to=0)
    draws = [tuple(rejection.draw()) for _ in range(n)]
    assert not rejection.exact and fits(draws, worlds, posterior)
    assert (rejection.limit is not None) == (kind != "kleine_miserie")  # miserie: the misère bound limits it too
    exact = PosteriorWorlds(info, history, evidence, np.random.default_rng(2))
    assert exact.exact and count_worlds(info) == len(worlds)
    p = {tuple(w): q for w, q in zip(exact.worlds.tolist(), exact.p, strict=True)}
    assert np.allclose([p[w] for w in worlds], posterior)
    assert fits([tuple(exact.draw()) for _ in range(n)], worlds, posterior)
    # worlds off the model come with the posterior's mass (each counted once), by both samplers
    mass = off_mass(worlds, info, history, evidence, posterior, unread)
    assert 0 < mass < 1 and rejection.unread == exact.unread == unread
    for sampler in (rejection, exact):
        assert sampler.drawn == n and binomtest(sampler.off_model, n, mass).pvalue > 0.001
    # the test can fail: uniform worlds (the auction ignored), and posterior draws skewed to the lower of two
    rng = np.random.default_rng(3)
    assert not fits([tuple(sample_world(info, rng)) for _ in range(n)], worlds, posterior)
    skewed = [min(tuple(rejection.draw()), tuple(rejection.draw())) for _ in range(n)]
    assert not fits(skewed, worlds, posterior)
    if kleine:  # and the discards dealt at random among the unseen cards (the discard rule left out)
        assert info.dealt and (posterior == 0).any()
        free = PosteriorWorlds(dataclasses.replace(info, dealt=()), history, evidence, np.random.default_rng(4),
                               enumerate_up_to=0)  # fmt: skip
        assert not fits([tuple(free.draw()) for _ in range(n)], worlds, posterior)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["solo", "abondance", "pico", "miserie", "open_miserie", "kleine_miserie"]),
    st.booleans(),
)
def test_no_sampled_world_contradicts_the_play_or_the_auction(seed, contract, low):
    rng = np.random.default_rng(seed)
    deal = deal_with(rng, {int(rng.integers(4)): LOW}) if low else deal_packets(new_deck(rng), int(rng.integers(4)))
    evidence, _ = bot_auction(deal)
    declarer = int(rng.integers(4))
    setup = setup_play([Declaration(contract, (declarer,))], deal, RULES)
    discards = [rule_discard(h) for h in deal.hands] if setup.n_tricks == 12 else None
    record = play_hand(setup, deal.hands, [random_policy(rng)] * 4,
                       None if discards is None else lambda s, h: discards[s])  # fmt: skip
    moves = [(leader, cards) for leader, cards, _ in record.tricks]
    cut = int(rng.integers(0, 4 * len(moves)))
    history = [(leader, cards[: max(0, min(4, cut - 4 * i))]) for i, (leader, cards) in enumerate(moves)]
    history = [h for h in history if h[1]]
    seat = int(rng.integers(4))
    exposed = (declarer,) if setup.exposed and len(history) > 1 else ()
    info = observe(seat, deal.hands, history, deal.dealer, deal.turned, exposed, discards)
    truth = [h & ~played for h, played in zip(deal.hands, played_by(history), strict=True)]
    if discards is not None:
        truth = [h & ~(1 << d) for h, d in zip(truth, discards, strict=True)]
        truth.append(sum(1 << d for s, d in enumerate(discards) if s != seat))
    assert info.consistent(truth) and agrees(truth, info, history, evidence) > 0  # the real deal is on the model
    posterior = PosteriorWorlds(info, history, evidence, rng)
    surely_off = maybe_off = 0
    for _ in range(4):
        world = posterior.draw()
        assert info.consistent(world)  # never against the play; against the model only as counted
        share = agrees(world, info, history, evidence)
        surely_off += share == 0
        maybe_off += share < 1  # with unseen discards: off under the owners drawn with the world, or not
    assert posterior.drawn == 4 and surely_off <= posterior.off_model <= maybe_off


class NoHand:
    """A model with which no hand makes any bid."""

    def __call__(self, state):
        return legal_bids(state)[0]

    def likelihood(self, state, bid, hands):
        return np.zeros(len(hands))


def test_a_player_reports_decisions_whose_worlds_are_off_the_model():
    deal = deal_packets(new_deck(np.random.default_rng(4)), 3)
    evidence, final = bot_auction(deal)
    assert final.thrown_in and len(evidence.turns) == 4  # four passes: each says the hand holds no bid of the bot
    impossible = AuctionEvidence(evidence.turns, NoHand())
    players = [PimcPlayer(2, np.random.default_rng(s), auction=impossible) for s in range(4)]
    record = play_deal(deal, "miserie", players, declarer=1)
    assert sum(len(cards) for _, cards, _ in record.tricks) == 52
    assert all(p.auction_contradicted == p.decisions for p in players) and sum(p.decisions for p in players) > 0
    heard = [PimcPlayer(2, np.random.default_rng(s), auction=evidence) for s in range(4)]
    play_deal(deal, "miserie", heard, declarer=1)
    assert sum(p.auction_contradicted for p in heard) < sum(p.decisions for p in heard)


def test_rejection_off_the_model_is_fast_and_the_tremble_checked():
    """Early in a hand (rejection), an auction no hand makes: every world is off the model, drawn in about 1/ε^k
    candidates (k hidden seats) instead of never."""
    deal = deal_packets(new_deck(np.random.default_rng(5)), 3)
    evidence, _ = bot_auction(deal)
    info = observe(0, deal.hands, [], deal.dealer, deal.turned)
    impossible = AuctionEvidence(evidence.turns, NoHand())
    posterior = PosteriorWorlds(info, [], impossible, np.random.default_rng(6))
    worlds = [posterior.draw() for _ in range(20)]
    assert not posterior.exact and posterior.off_model == posterior.drawn == 20
    assert posterior.unread == {state.to_act for state, _ in evidence.turns} - {0}  # every bid heard left unread
    assert all(info.consistent(w) for w in worlds)
    for bad in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="tremble"):
            PosteriorWorlds(info, [], evidence, np.random.default_rng(6), tremble=bad)


def test_bid_rate_is_the_models_rate_over_the_reference_hands():
    """bid_rate (the bot's wish codes over many hands) against the scalar bot hand by hand."""
    for seed in (1, 2):
        deal = deal_packets(new_deck(np.random.default_rng(seed)), seed % 4)
        evidence, _ = bot_auction(deal)
        for seat in {state.to_act for state, _ in evidence.turns}:
            turns = tuple((state, bid) for state, bid in evidence.turns if state.to_act == seat)
            assert bid_rate(BOT, turns) == scalar_rate(evidence, seat)
    assert len(set(reference_hands().tolist())) == RATE_HANDS
    assert all(card_count(h) == 13 for h in reference_hands().tolist())


def test_a_rare_bid_is_read_not_drowned_by_the_tremble():
    """The bot bids open miserie with about 1 hand in 2000; a defender who heard it draws declarer hands the
    bot would bid it with, off the model only about ε of the time (a flat tremble ε per seat drowned such
    a rare bid: about 95 % of the worlds had an ordinary declarer hand)."""
    deal = deal_with(np.random.default_rng(0), {1: LOW})
    evidence, final = bot_auction(deal)
    assert [(d.contract, d.declarers) for d in final.declarations] == [("open_miserie", (1,))]
    turns = tuple((state, bid) for state, bid in evidence.turns if state.to_act == 1)
    assert bid_rate(BOT, turns) < 0.002
    info = observe(2, deal.hands, [], deal.dealer, deal.turned)
    posterior = PosteriorWorlds(info, [], evidence, np.random.default_rng(1))
    worlds = [posterior.draw() for _ in range(200)]
    assert not posterior.exact and not posterior.unread
    assert posterior.off_model < 0.2 * posterior.drawn
    declarer_on = [BOT.wishes(w[1], card_suit(deal.turned))["open_miserie"] for w in worlds]
    assert sum(declarer_on) > 0.8 * len(worlds)


def test_a_world_past_its_budget_leaves_the_rarest_bid_unread(monkeypatch):
    """Rejection gives each world a budget of candidates: the open miserie bidder (about 1 hand in 2000) needs
    far more than 64 a world, so with ``WORLD_BUDGET`` 64 its bid is left unread once a world has used them,
    and counted; the worlds still fit the play (two rare bidders at two seats, read together, would cost
    tens of millions of candidates a world with no budget)."""
    deal = deal_with(np.random.default_rng(0), {1: LOW})
    evidence, _ = bot_auction(deal)
    info = observe(2, deal.hands, [], deal.dealer, deal.turned)
    monkeypatch.setattr(worlds_module, "WORLD_BUDGET", 64)
    posterior = PosteriorWorlds(info, [], evidence, np.random.default_rng(1))
    assert not posterior.exact and not posterior.unread  # the pilot (PILOT candidates) read it
    worlds = [posterior.draw() for _ in range(50)]
    assert posterior.unread == {1} and all(info.consistent(w) for w in worlds)
    declarer_on = [BOT.wishes(w[1], card_suit(deal.turned))["open_miserie"] for w in worlds]
    assert sum(declarer_on) < 0.2 * len(worlds)  # its hand drawn from the play alone


def suit_lengths(hand):
    return np.array([[card_count(suit_holding(hand, s)) for s in range(4)]], dtype=np.int64)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([-1.0, 0.0, 1.0]))
def test_length_bound_never_rules_out_a_hand_the_bot_bids_with(seed, aggression):
    """``ThresholdBidder.length_bound`` (the rejection's limited seat, solvers.worlds): for every bid of a bot
    auction, hands the bot makes the bid with are never ruled out, whatever cards are known to be held and
    which others could be; and with the hand's own cards known it is exact for abondance at level 9 (the
    best suit's playing tricks reach the threshold), miserie and kleine miserie, so it does rule hands out."""
    rng = np.random.default_rng(seed)
    bot = ThresholdBidder(aggression)
    for k in range(4):  # random deals, and deals with the low hand (its misère bids)
        deal = (
            deal_with(rng, {int(rng.integers(4)): LOW}) if k % 2 else deal_packets(new_deck(rng), int(rng.integers(4)))
        )
        evidence, _ = bot_auction(deal, bot)
        for state, bid in evidence.turns:
            hand = deal.hands[state.to_act]
            held = hand & int(rng.integers(2**62)) & int(rng.integers(2**62))  # about a quarter of its cards known
            cards = hand | (FULL_DECK & int(rng.integers(2**62)))
            assert bot.likelihood(state, bid, np.array([hand]))[0] == 1.0
            assert bot.length_bound(state, bid, suit_lengths(hand), held, cards)[0]
    hands = reference_hands()[:300].tolist()
    state = start_auction(Deal((0, 0, 0, 0), 3, cards_of(FULL_DECK)[0]), RULES)
    bound = [bot.length_bound(state, Bid("abondance", 9, None), suit_lengths(h), h, h)[0] for h in hands]
    wished = [2 * bot.wishes(h, 0)["abondance"][0] >= 2 * bot.threshold("abondance") for h in hands]
    assert bound == wished and not all(bound)
    low = [h for h in reference_hands().tolist() if misere_risk(h, bot.threshold("misere_step")) <= 2]
    for name in ("miserie", "kleine_miserie"):
        bound = [bot.length_bound(state, Bid(name), suit_lengths(h), h, h)[0] for h in low]
        assert bound == [bot.wishes(h, 0)[name] for h in low] and any(bound) and not all(bound)


def test_a_heard_abondance_is_read_within_the_suit_lengths_it_needs(monkeypatch):
    """A defender who heard abondance draws the declarer's hand among the suit lengths the bot could bid it with
    (the limited seat): as many declarer hands on the model as the plain rejection gets (about three in four:
    the tremble), for a hundredth of the candidates or less (400 worlds, seeds 1 and 2: 26,000 candidates against
    10,100,000); a model without ``length_bound`` gets the plain rejection."""

    class Plain:  # the threshold bot without its length bound
        def __call__(self, state):
            return BOT(state)

        def likelihood(self, state, bid, hands):
            return BOT.likelihood(state, bid, hands)

    deal = deal_with(np.random.default_rng(0), {1: "S:AKQJT9876 H:A2 D:K3"})
    evidence, final = bot_auction(deal)
    assert [(d.contract, d.declarers) for d in final.declarations] == [("abondance", (1,))]
    info = observe(2, deal.hands, [], deal.dealer, deal.turned)
    drawn = []
    monkeypatch.setattr(
        PosteriorWorlds,
        "_sample",
        lambda self, n, within=True, f=PosteriorWorlds._sample: drawn.append(n) or f(self, n, within),
    )
    on = []
    for model in (BOT, Plain()):
        drawn.clear()
        posterior = PosteriorWorlds(info, [], AuctionEvidence(evidence.turns, model), np.random.default_rng(1))
        worlds = [posterior.draw() for _ in range(100)]
        assert (posterior.limit is not None) == (model is BOT) and not posterior.unread
        on.append((sum(BOT.wishes(w[1], card_suit(deal.turned))["abondance"][0] >= 8.5 for w in worlds), sum(drawn)))
    (limited, cost), (plain, plain_cost) = on
    assert limited > 60 and plain > 60 and 100 * cost < plain_cost  # on the model but for about ε·rate / Q


def reference_wishes(bot, hand, turned_suit):
    """The threshold bot's wishes hand by hand (its rules before the wish codes: a slow reference)."""
    trump = playing_tricks(hand, turned_suit)
    best = max(range(len(SUITS)), key=lambda s: (playing_tricks(hand, s), s == turned_suit))
    best_tricks = playing_tricks(hand, best)
    step = bot.threshold("misere_step")
    risk = misere_risk(hand, step)
    without_ace = [hand & ~(1 << a) for a in range(64) if (hand & ACES_MASK) >> a & 1]
    return {
        "troel": True,
        "solo_slim": best_tricks >= bot.threshold("solo_slim"),
        "open_miserie": misere_risk(hand, bot.threshold("open_step")) == 0,
        "miserie": risk == 0,
        "pico": risk == 1 and any(misere_risk(h, step) == 0 for h in without_ace),
        "kleine_miserie": risk <= 1,
        "abondance": (best_tricks, best),
        "abondance_in_troef": trump >= bot.threshold("abondance"),
        **{name: trump >= bot.threshold(name) for name in ("solo", "vraag", "accept", "wait")},
    }


SHARED_BOTS: dict[float, ThresholdBidder] = {}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([-1.0, 0.0, 0.5, 1.0]))
def test_threshold_bot_as_a_model_agrees_with_its_bids(seed, aggression):
    """Also with the other seats' hands of another deal: the bot keeps its likelihood's decisions per public
    state, across the deals (one bot per aggression for every example)."""
    rng = np.random.default_rng(seed)
    bot = SHARED_BOTS.setdefault(aggression, ThresholdBidder(aggression))
    deal = deal_packets(new_deck(rng), int(rng.integers(4)))
    others = deal_packets(new_deck(rng), deal.dealer).hands
    lows = [parse_hand(LOW, size=13), parse_hand("S:A5432 H:A432 D:A32 C:2", size=13)]  # misère, pico, troel
    hands = np.array([int(h) for h in deal.hands] + lows, dtype=np.int64)
    state = start_auction(deal, RULES)
    while not state.done:
        for h in hands.tolist():
            assert bot.wishes(h, card_suit(deal.turned)) == reference_wishes(bot, h, card_suit(deal.turned))
        bid = legal_bids(state)[int(rng.integers(len(legal_bids(state))))]
        made = [bot(dataclasses.replace(state, hands=tuple(h if s == state.to_act else x
                                                           for s, x in enumerate(state.hands))))
                for h in hands.tolist()]  # fmt: skip
        assert bot.likelihood(state, bid, hands).tolist() == [float(m == bid) for m in made]
        elsewhere = dataclasses.replace(state, hands=others)
        made = [bot(dataclasses.replace(elsewhere, hands=tuple(h if s == state.to_act else x
                                                               for s, x in enumerate(others))))
                for h in hands.tolist()]  # fmt: skip
        assert bot.likelihood(elsewhere, bid, hands).tolist() == [float(m == bid) for m in made]
        state = apply(state, bid)


# ------------------------------------------------------------ the auction behind an advised option


def test_auction_behind_an_option():
    """Every other seat bids as the model does, or passes where its bid would keep the option from standing."""
    model = default_model(4.0)
    assert misere_risk(parse_hand(LOW, size=13), NEUTRAL["open_step"]) == 0  # the bot would bid open miserie
    for seed in range(6):
        deal = deal_with(np.random.default_rng(seed), {1: LOW})
        evidence, off = auction_behind(deal, "miserie", None, 1, None, model, RULES)
        assert [str(b) for s, b in evidence.turns if s.to_act == 1] == ["miserie"]
        replaced = False
        for state, bid in evidence.turns:
            if state.to_act != 1:
                assert bid in (model(state), Bid("pass"))
                replaced |= bid != model(state)
        final = apply(evidence.turns[-1][0], evidence.turns[-1][1])
        assert off == (replaced or not final.done or final.declarations != (Declaration("miserie", (1,)),))
    # solo: a vraag nobody accepts, then solo; vraag: the accepting seat accepts (eldest waits first)
    hands = {0: "S:T975 H:T986 D:T98 C:T8", 1: LOW, 2: "S:AKQJ H:J D:AKQJ C:KQJ5"}  # seat 3: the rest, two aces
    deal = deal_with(np.random.default_rng(7), hands)
    evidence, off = auction_behind(deal, "solo", None, 1, None, model, RULES)
    assert [(s.to_act, str(b)) for s, b in evidence.turns] == [(0, "pass"), (1, "vraag"), (2, "pass"), (3, "pass"),
                                                                (1, "solo")]  # fmt: skip
    assert off and model(evidence.turns[2][0]) == Bid("accept")  # the third seat would have accepted
    evidence, off = auction_behind(deal, "vraag", None, 1, 0, model, RULES)
    assert [(s.to_act, str(b)) for s, b in evidence.turns if s.to_act in (0, 1)] == [(0, "wait"), (1, "vraag"),
                                                                                      (0, "accept")]  # fmt: skip
    assert off  # with no trick, the bot would neither wait nor accept
    # the troel obligation: the auction stops at the holder, whose pass would not be legal
    deal = deal_with(np.random.default_rng(8), {1: LOW, 2: "S:AKQ H:AKQ D:AK C:AKQJ5"})
    evidence, off = auction_behind(deal, "miserie", None, 1, None, model, RULES)
    assert off and [s.to_act for s, _ in evidence.turns] == [0, 1]
