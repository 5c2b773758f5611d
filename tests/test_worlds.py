"""World sampling for the sampling players (issue 5): exact counts, uniformity, consistency."""

import itertools
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from tests.test_play import troel_deal
from wiezen_sim.cards import card_count, card_rank, cards_of, parse_hand
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.bots import random_policy
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.play import play_hand, setup_play
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.players import highest_discard
from wiezen_sim.solvers.worlds import InfoSet, count_worlds, enumerate_worlds, observe, sample_world, sample_worlds


def brute_force_worlds(info: InfoSet) -> list[tuple[int, ...]]:
    """Every consistent deal, by trying every owner for every unseen card."""
    cards = cards_of(info.unseen)
    out = []
    for owners in itertools.product(range(len(info.counts)), repeat=len(cards)):
        hands = list(info.hands_known)
        for card, owner in zip(cards, owners, strict=True):
            hands[owner] |= 1 << card
        if info.consistent(hands):
            out.append(tuple(hands))
    return out


SMALL = [
    InfoSet(
        0,
        (parse_hand("S:AK H:A"), 0, parse_hand("2C"), 0),
        (3, 3, 3, 3),
        (0, 0b0001, 0, 0),
        parse_hand("S:QJT H:KQ D:AK C:A"),
    ),
    InfoSet(2, (0, 0, parse_hand("S:2 H:2"), 0), (2, 2, 2, 2), (0b0010, 0, 0, 0b0100), parse_hand("S:AK H:AK D:AK")),
    InfoSet(1, (0, parse_hand("C:AK"), 0, 0, 0), (2, 2, 1, 2, 1), (0, 0, 0b0001, 0, 0), parse_hand("S:AKQ H:AK D:A")),
    # no void known: the shuffled-pack path (a known card in the dealer's hand, a fifth pseudo-seat)
    InfoSet(
        0, (parse_hand("S:AK"), 0, 0, parse_hand("2C")), (2, 2, 2, 2), (0, 0, 0, 0), parse_hand("S:Q H:KQ D:A C:A")
    ),
    InfoSet(2, (0, 0, parse_hand("H:2"), 0, 0), (1, 1, 1, 1, 2), (0, 0, 0, 0, 0), parse_hand("S:AKQ H:A D:A")),
]


def test_exact_count_and_uniform_sampling():
    rng = np.random.default_rng(12)
    for info in SMALL:
        worlds = brute_force_worlds(info)
        assert count_worlds(info) == len(worlds) > 5
        draws = Counter(tuple(sample_world(info, rng)) for _ in range(40 * len(worlds)))
        assert set(draws) <= set(worlds)
        assert chisquare([draws[w] for w in worlds]).pvalue > 0.001


def test_enumeration_lists_every_consistent_deal_once():
    """The exact posterior's enumeration (voids, known cards, the discards' pseudo-seat) against the brute force."""
    for info in SMALL:
        listed = [tuple(w) for w in enumerate_worlds(info).tolist()]
        assert len(listed) == len(set(listed))
        assert set(listed) == set(brute_force_worlds(info))


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["solo", "vraag", "abondance", "pico", "miserie", "open_miserie", "kleine_miserie"]),
)
def test_sampled_worlds_never_contradict_the_information_set(seed, contract):
    rng = np.random.default_rng(seed)
    deal = deal_packets(new_deck(rng), int(rng.integers(4)))
    declarer = int(rng.integers(4))
    seats = (declarer, (declarer + 2) % 4) if contract == "vraag" else (declarer,)
    setup = setup_play([Declaration(contract, seats)], deal, get_rules())
    discards = [highest_discard(h) for h in deal.hands]
    record = play_hand(setup, deal.hands, [random_policy(rng)] * 4, discard=lambda s, h: highest_discard(h))
    moves = [(leader, cards) for leader, cards, _ in record.tricks]
    cut = int(rng.integers(0, 4 * len(moves)))
    history = [(leader, cards[: max(0, min(4, cut - 4 * i))]) for i, (leader, cards) in enumerate(moves)]
    history = [h for h in history if h[1]]
    seat = int(rng.integers(4))
    exposed = (setup.side[0],) if setup.exposed and len(history) > 1 else ()
    kleine = discards if setup.n_tricks == 12 else None
    info = observe(seat, deal.hands, history, deal.dealer, deal.turned, exposed, kleine)
    truth = [h for h in deal.hands]
    for s in range(4):
        for _, cards in history:
            for c in cards:
                truth[s] &= ~(1 << c)
    if kleine is not None:
        truth = [truth[s] & ~(1 << kleine[s]) for s in range(4)]
        truth.append(sum(1 << kleine[s] for s in range(4) if s != seat))
    assert info.consistent(truth)  # the real deal is one of the worlds
    assert bool(info.dealt) == (kleine is not None)  # every seat discarded its highest card: the rule is kept
    for _ in range(5):
        world = sample_world(info, rng)
        assert info.consistent(world)
        assert world[seat] == truth[seat]
        assert sum(card_count(h) for h in world) == sum(card_count(h) for h in truth)
        if kleine is not None:  # some way to give the unseen discards back has each seat discarding its highest
            assert any(by_rule(world, info, history, order) for order in itertools.permutations(cards_of(world[4])))


def by_rule(world, info, history, order):
    """Whether, with the unseen discards given to the other seats in seat order as ``order``, each discarded the
    highest card of its dealt hand (held, played, discarded), the rule stated here on its own."""
    others = [s for s in range(4) if s != info.seat]
    for s, card in zip(others, order, strict=True):
        dealt = world[s] | 1 << card | sum(1 << c for leader, cards in history for i, c in enumerate(cards)
                                           if (leader + i) % 4 == s)  # fmt: skip
        rule = max(cards_of(dealt), key=lambda c: (card_rank(c), -(c >> 4)))
        if rule != card:
            return False
    return True


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([3, 4]))
def test_troel_worlds_give_the_holder_the_cards_the_rules_show(seed, n_aces):
    """In a troel the holder's aces (and with four aces the cards before the called one) are public (RULES.md
    1.5): every world of every other seat gives the holder those it has not played, and the real deal is one."""
    rng = np.random.default_rng(seed)
    deal = troel_deal(seed, n_aces)
    setup = setup_play([Declaration("troel", (0,))], deal, get_rules())
    record = play_hand(setup, deal.hands, [random_policy(rng)] * 4)
    moves = [(leader, cards) for leader, cards, _ in record.tricks]
    cut = int(rng.integers(1, 4 * len(moves)))
    history = [(leader, cards[: max(0, min(4, cut - 4 * i))]) for i, (leader, cards) in enumerate(moves)]
    history = [h for h in history if h[1]]
    played = sum(1 << c for leader, cards in history for i, c in enumerate(cards) if (leader + i) % 4 == 0)
    seat = int(rng.integers(1, 4))
    info = observe(seat, deal.hands, history, deal.dealer, deal.turned, (), None, (setup.declarer_cards, 0, 0, 0))
    turned = 1 << deal.turned  # the holder (seat 0) is the dealer: its turned card is known too until played
    assert setup.declarer_cards and info.hands_known[0] == (setup.declarer_cards | turned) & ~played
    assert info.consistent([deal.hands[s] & ~sum(1 << c for _, cards in history for c in cards) for s in range(4)])
    for world in sample_worlds(info, 20, rng):
        assert int(world[0]) & setup.declarer_cards & ~played == setup.declarer_cards & ~played
