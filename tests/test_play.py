"""Play reference (RULES.md 1.5) and one hand end to end (deal, auction, play, settle)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiezen_sim.cards import FULL_DECK, card_count, card_suit, cards_of, parse_card, parse_hand
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.bots import random_policy, simple_bidder, simple_policy
from wiezen_sim.rules.contracts import CONTRACTS
from wiezen_sim.rules.dealing import Deal, deal_packets, new_deck
from wiezen_sim.rules.game import play_one_hand, settle_hand
from wiezen_sim.rules.play import legal_cards, play_hand, setup_play, trick_winner, troel_setup
from wiezen_sim.rules.ruleset import PRESETS, get_rules

T = get_rules()


def cards(text):
    return [parse_card(t) for t in text.split()]


def test_follow_suit_and_no_obligation_to_trump():
    hand = parse_hand("S:AK H:2 D:- C:5")
    assert legal_cards(hand, led_suit=1) == parse_hand("2H")
    assert legal_cards(hand, led_suit=2, trump=0) == hand  # void: any card, no need to trump
    assert legal_cards(hand, led_suit=None) == hand


def test_must_trump_flag_romanian():
    hand = parse_hand("S:AK H:2 D:- C:5")
    assert legal_cards(hand, led_suit=2, trump=0, must_trump=True) == parse_hand("AS KS")
    assert legal_cards(hand, led_suit=1, trump=0, must_trump=True) == parse_hand("2H")
    assert legal_cards(parse_hand("2H 5C"), led_suit=2, trump=0, must_trump=True) == parse_hand("2H 5C")


@pytest.mark.parametrize(
    "trick,trump,winner",
    [
        ("2S AS KS QS", None, 1),
        ("2S AH KH QH", None, 0),  # off-suit cards never win without trump
        ("2S AH 3S QH", 1, 1),  # a trump wins
        ("2S 3C 4C 5S", 3, 2),  # highest trump
        ("KD 2D AD 3D", 0, 2),
        ("2H 3H 4H 5H", 1, 3),
    ],
)
def test_trick_winner(trick, trump, winner):
    assert trick_winner(cards(trick), trump) == winner


def make_deal(texts, dealer=3):
    hands = tuple(parse_hand(t, size=13) for t in texts)
    assert sum(hands) == FULL_DECK
    return Deal(hands, dealer, next(c for c in cards_of(hands[dealer])))


# seat 1 holds three aces; AC is with seat 3
THREE = make_deal(
    [
        "S:KQJ H:KQJ D:KQJ C:KQJT",
        "S:AT9 H:AT9 D:AT9 C:9876",
        "S:8765 H:8765 D:8765 C:5",
        "S:432 H:432 D:432 C:A432",
    ]
)
# seat 0 holds four aces; KH with seat 2
FOUR = make_deal(
    [
        "S:A987 H:A98 D:A98 C:A98",
        "S:KQ6 H:QJ6 D:KQ6 C:KQ65",
        "S:JT5 H:KT5 D:JT5 C:JT74",
        "S:432 H:7432 D:7432 C:32",
    ]
)


def test_troel_three_aces():
    troel = troel_setup(THREE.hands, 1, T)
    assert (troel.partner, troel.trump, troel.lead, troel.target) == (3, 3, parse_card("AC"), 8)
    assert troel.holder_cards == parse_hand("S:A H:A D:A")  # the aces other than the called one
    setup = setup_play([Declaration("troel", (1,))], THREE, T)
    assert setup.leader == 3 and setup.side == (1, 3) and setup.trump == 3 and setup.forced_lead == parse_card("AC")


def test_troel_four_aces_partner_variants():
    troel = troel_setup(FOUR.hands, 0, T)
    assert (troel.partner, troel.trump, troel.lead) == (2, 1, parse_card("KH"))
    assert troel.holder_cards == parse_hand("S:A H:A D:A C:A")
    # variant: highest card the declarer lacks, kings in the order H D C S, then queens
    missing = troel_setup(FOUR.hands, 0, T.replace(four_ace_partner="highest_missing"))
    assert (missing.partner, missing.trump, missing.lead) == (2, 1, parse_card("KH"))
    hands = list(FOUR.hands)
    # swap KH (seat 2) with 7S... give seat 0 the KH: then KD (seat 1) is the highest card missing
    hands[0] = hands[0] & ~(1 << parse_card("9S")) | (1 << parse_card("KH"))
    hands[2] = hands[2] & ~(1 << parse_card("KH")) | (1 << parse_card("9S"))
    missing = troel_setup(hands, 0, T.replace(four_ace_partner="highest_missing"))
    assert (missing.partner, missing.trump, missing.lead) == (1, 2, parse_card("KD"))
    assert missing.holder_cards == parse_hand("S:A H:AK D:A C:A")  # KH comes before the called KD
    hearts = troel_setup(hands, 0, T)
    assert (hearts.partner, hearts.lead) == (1, parse_card("QH"))
    assert hearts.holder_cards == parse_hand("S:A H:AK D:A C:A")
    with pytest.raises(ValueError, match="three or four aces"):
        troel_setup(FOUR.hands, 1, T)


def troel_deal(seed: int, n_aces: int) -> Deal:
    """A random deal in which seat 0 holds ``n_aces`` aces (each ace it lacks swapped in for a card of its own)."""
    rng = np.random.default_rng(seed)
    hands = list(deal_packets(new_deck(rng), int(rng.integers(4))).hands)
    for ace in rng.permutation([16 * s + 14 for s in range(4)])[:n_aces]:
        owner = next(s for s in range(4) if hands[s] >> int(ace) & 1)
        if owner:
            spare = next(c for c in cards_of(hands[0]) if c & 15 != 14)
            hands[0] ^= 1 << spare | 1 << int(ace)
            hands[owner] ^= 1 << spare | 1 << int(ace)
    return Deal(tuple(hands), 0, cards_of(hands[0])[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([3, 4]), st.sampled_from(["highest_heart", "highest_missing"]))
def test_troel_holder_cards_are_held(seed, n_aces, partner_rule):
    """The cards the rules show in the troel holder's hand (RULES.md 1.5) are in it, and name the partner: the
    called card is the first of the partner order not among them."""
    deal = troel_deal(seed, n_aces)
    troel = troel_setup(deal.hands, 0, T.replace(four_ace_partner=partner_rule))
    assert troel.holder_cards & ~deal.hands[0] == 0
    assert card_count(troel.holder_cards) >= 3 and not troel.holder_cards >> troel.lead & 1


def first_trick_policy(card_text):
    """Play ``card_text`` when legal, else the lowest legal card."""

    def play(view):
        card = parse_card(card_text)
        return card if view.legal >> card & 1 else min(cards_of(view.legal))

    return play


def test_troel_forced_lead_and_free_lead():
    setup = setup_play([Declaration("troel", (1,))], THREE, T)
    record = play_hand(setup, THREE.hands, [simple_policy] * 4)
    assert record.tricks[0][0] == 3 and record.tricks[0][1][0] == parse_card("AC")
    with pytest.raises(ValueError, match="illegal"):
        play_hand(setup, THREE.hands, [simple_policy] * 3 + [lambda view: parse_card("2S")])
    free = T.replace(troel_free_lead=True)
    setup = setup_play([Declaration("troel", (1,))], THREE, free)
    policies = [simple_policy, simple_policy, simple_policy, first_trick_policy("2D")]
    record = play_hand(setup, THREE.hands, policies)
    first = record.tricks[0][1]
    assert first[0] == parse_card("2D") and first[2] == parse_card("AD")  # the declarer must play the ace
    assert record.trump == 2 and record.target == 9
    # four aces with free lead: always 9, the partner may lead anything
    setup = setup_play([Declaration("troel", (0,))], FOUR, free)
    assert setup.target == 9 and setup.leader == 2
    record = play_hand(setup, FOUR.hands, [simple_policy, simple_policy, first_trick_policy("4C"), simple_policy])
    first = record.tricks[0][1]
    assert first[0] == parse_card("4C") and first[2] == parse_card("AC") and record.trump == 3


def test_first_leaders_and_trumps():
    eldest = 0  # dealer 3
    for name, leader, trump in [
        ("vraag", eldest, card_suit(THREE.turned)),
        ("solo", eldest, card_suit(THREE.turned)),
        ("miserie", eldest, None),
        ("kleine_miserie", eldest, None),
        ("pico", eldest, None),
        ("open_miserie", eldest, None),
        ("abondance_in_troef", eldest, card_suit(THREE.turned)),
    ]:
        declarers = (2, 0) if name == "vraag" else (2,)
        setup = setup_play([Declaration(name, declarers)], THREE, T)
        assert (setup.leader, setup.trump) == (leader, trump), name
    slim = setup_play([Declaration("solo_slim", (2,))], THREE, T)
    assert slim.leader == 2 and slim.trump == 0  # declarer leads; default trump = longest suit (spades, tie high)
    named = setup_play([Declaration("abondance", (1,), trump=3)], THREE, T)
    assert named.trump == 3 and named.leader == 0 and named.target == 9
    level = setup_play([Declaration("abondance", (1,), level=11, trump=1)], THREE, get_rules("levels"))
    assert level.target == 11


def test_kleine_miserie_discards_and_12_tricks():
    setup = setup_play([Declaration("kleine_miserie", (1,))], THREE, T)
    record = play_hand(setup, THREE.hands, [simple_policy] * 4, discard=lambda seat, hand: min(cards_of(hand)))
    assert len(record.tricks) == 12 and sum(record.tricks_won) == 12 and len(record.discards) == 4
    played = {c for _, cs, _ in record.tricks for c in cs}
    assert played.isdisjoint(record.discards)


def test_open_miserie_exposure():
    setup = setup_play([Declaration("open_miserie", (2,))], THREE, T)
    seen = []

    def spy(view):
        seen.append((len(view.history), dict(view.exposed)))
        return simple_policy(view)

    play_hand(setup, THREE.hands, [spy] * 4)
    assert all(exposed == {} for n, exposed in seen if n == 0)  # not before the first trick is done
    later = [exposed for n, exposed in seen if n >= 1]
    assert later and all(set(e) == {2} for e in later)
    # the exposed cards are the declarer's remaining cards (it may have played to the current trick)
    assert all(e[2] & ~THREE.hands[2] == 0 and card_count(e[2]) in (12 - n, 13 - n) for n, e in seen if n >= 1)


def test_partners_count_together_and_settle():
    setup = setup_play([Declaration("vraag", (0, 2))], THREE, T)
    record = play_hand(setup, THREE.hands, [simple_policy] * 4)
    side = record.tricks_won[0] + record.tricks_won[2]
    assert record.side_tricks((0, 2)) == side
    payments = settle_hand(setup, record, T)
    assert sum(payments) == 0 and payments[0] == payments[2] and payments[1] == payments[3]
    assert (payments[0] > 0) == (side >= 8)


def test_simultaneous_misere_settled_separately():
    setup = setup_play([Declaration("miserie", (0,)), Declaration("miserie", (2,))], THREE, T)
    record = play_hand(setup, THREE.hands, [simple_policy] * 4)
    expected = [0, 0, 0, 0]
    for seat in (0, 2):
        sign = 1 if record.tricks_won[seat] == 0 else -1
        for other in range(4):
            if other != seat:
                expected[seat] += 30 // 3 * sign
                expected[other] -= 10 * sign
    assert settle_hand(setup, record, T) == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(CONTRACTS)))
def test_random_playout_every_contract(seed, contract):
    rng = np.random.default_rng(seed)
    deal = deal_packets(new_deck(rng), int(rng.integers(4)))
    declarer = int(rng.integers(4))
    if contract == "troel":
        # give the declarer three aces by dealing until one seat has them
        for _ in range(500):
            holders = [s for s in range(4) if card_count(deal.hands[s] & 0x4000400040004000) >= 3]
            if holders:
                declarer = holders[0]
                break
            deal = deal_packets(new_deck(rng), int(rng.integers(4)))
        else:
            return
    declarers = (declarer, (declarer + 1) % 4) if contract == "vraag" else (declarer,)
    setup = setup_play([Declaration(contract, declarers)], deal, T)
    record = play_hand(setup, deal.hands, [random_policy(rng)] * 4)
    assert len(record.tricks) == setup.n_tricks
    hands = list(deal.hands)
    for leader, trick, winner in record.tricks:
        assert winner == (leader + trick_winner(trick, record.trump)) % 4
        for i, card in enumerate(trick):
            seat = (leader + i) % 4
            assert hands[seat] >> card & 1
            hands[seat] &= ~(1 << card)
    assert sum(record.tricks_won) == setup.n_tricks
    assert sum(settle_hand(setup, record, T)) == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(PRESETS)), st.booleans())
def test_whole_hand_zero_sum(seed, preset, variants):
    rng = np.random.default_rng(seed)
    rules = get_rules(preset)
    if variants:
        rules = rules.replace(carte_blanche=True, troel_free_lead=True, all_pass="ronde_pas")
    deal = deal_packets(new_deck(rng), int(rng.integers(4)))
    game = int(rng.integers(1, 4))
    result = play_one_hand(deal, rules, [simple_bidder] * 4, [random_policy(rng)] * 4, ronde_pas=game)
    assert sum(result.payments) == 0
