"""The auction state machine: one scenario per rule of RULES.md 1.4 and per variant."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiezen_sim.cards import FULL_DECK, card_bit, parse_card, parse_hand
from wiezen_sim.rules.auction import Bid, apply, legal_bids, parse_bid, start_auction
from wiezen_sim.rules.dealing import Deal, deal_packets, new_deck
from wiezen_sim.rules.ruleset import PRESETS, get_rules

T = get_rules()


def neutral_deal(dealer: int = 3) -> Deal:
    """Every seat holds one card of each rank (one ace each, faces each): no troel, no carte blanche."""
    hands = [0, 0, 0, 0]
    for rank in range(2, 15):
        for seat in range(4):
            hands[seat] |= 1 << card_bit((seat + rank) % 4, rank)
    turned = next(c for c in range(64) if hands[dealer] >> c & 1)
    return Deal(tuple(hands), dealer, turned)


def deal_with(dealer: int, seat: int, hand_text: str) -> Deal:
    """``seat`` holds ``hand_text``; the other 39 cards go to the others in card order."""
    hand = parse_hand(hand_text, size=13)
    rest = [c for c in range(64) if FULL_DECK >> c & 1 and not hand >> c & 1]
    hands = [0, 0, 0, 0]
    hands[seat] = hand
    others = [s for s in range(4) if s != seat]
    for i, card in enumerate(rest):
        hands[others[i % 3]] |= 1 << card
    turned = next(c for c in range(64) if hands[dealer] >> c & 1)
    return Deal(tuple(hands), dealer, turned)


def run(state, *bids):
    for bid in bids:
        state = apply(state, bid)
    return state


def names(state):
    return {str(b) for b in legal_bids(state)}


def test_all_pass_throws_in():
    state = run(start_auction(neutral_deal(), T), "pass", "pass", "pass", "pass")
    assert state.done and state.thrown_in and state.declarations == ()


def test_eldest_first_and_clockwise():
    state = start_auction(neutral_deal(dealer=1), T)
    assert state.to_act == 2
    assert run(state, "pass").to_act == 3
    assert run(state, "pass", "pass", "pass").to_act == 1


def test_wait_only_eldest_first_turn():
    state = start_auction(neutral_deal(), T)
    assert "wait" in names(state)
    assert "wait" not in names(run(state, "pass"))


def test_wait_then_three_pass_throws_in():
    state = run(start_auction(neutral_deal(), T), "wait", "pass", "pass", "pass")
    assert state.thrown_in
    assert [str(b) for _, b in state.history] == ["wait", "pass", "pass", "pass", "pass"]  # forced pass recorded


def test_wait_then_accept():
    state = run(start_auction(neutral_deal(), T), "wait", "vraag", "pass", "pass")
    assert state.to_act == 0
    assert names(state) == {"accept", "pass"}  # the waiter's second turn: accept or pass only
    state = apply(state, "accept")
    assert state.done
    assert state.declarations[0].contract == "vraag" and state.declarations[0].declarers == (1, 0)


def test_waiter_cannot_accept_after_overcall():
    state = run(start_auction(neutral_deal(), T), "wait", "vraag", "abondance", "pass")
    # accept is not possible; the forced pass is automatic, the proposer may overcall or pass
    assert state.to_act == 1 and 0 in state.passed


def test_accept_only_on_open_vraag_and_only_once():
    state = start_auction(neutral_deal(), T)
    assert "accept" not in names(state)
    state = run(state, "vraag")
    assert "accept" in names(state)
    state = run(state, "accept")
    assert "accept" not in names(state)
    state = run(state, "pass", "pass")
    assert state.done and state.declarations[0].declarers == (0, 1)


def test_accepted_vraag_can_be_overcalled():
    state = run(start_auction(neutral_deal(), T), "vraag", "accept", "miserie", "pass", "pass", "pass")
    assert [d.contract for d in state.declarations] == ["miserie"] and state.declarations[0].declarers == (2,)


def test_solo_only_after_unaccepted_vraag():
    state = start_auction(neutral_deal(), T)
    assert "solo" not in names(state)
    state = run(state, "vraag")
    assert "solo" not in names(state)  # not for the others
    state = run(state, "pass", "pass", "pass")
    assert state.to_act == 0 and "solo" in names(state) and "vraag" not in names(state)
    state = apply(state, "solo")
    assert state.done and state.declarations[0].contract == "solo" and state.declarations[0].declarers == (0,)


def test_unaccepted_vraag_then_pass_throws_in():
    state = run(start_auction(neutral_deal(), T), "vraag", "pass", "pass", "pass", "pass")
    assert state.thrown_in


def test_pass_is_final():
    state = run(start_auction(neutral_deal(), T), "pass", "vraag", "abondance", "pass")
    assert state.to_act == 1  # seat 0 passed and is skipped for good
    state = run(state, "miserie")
    assert state.to_act == 2


def test_must_bid_higher():
    state = run(start_auction(neutral_deal(), T), "abondance")
    legal = names(state)
    assert {"vraag", "solo", "kleine_miserie", "pico", "abondance"}.isdisjoint(legal)
    assert {"pass", "abondance_in_troef", "miserie", "open_miserie", "solo_slim"} <= legal
    assert "troel" not in legal  # only with three or four aces
    with pytest.raises(ValueError, match="illegal bid 'pico' for seat 1"):
        apply(state, "pico")


def test_abondance_in_troef_only_over_another_abondance():
    state = start_auction(neutral_deal(), T)
    assert "abondance_in_troef" not in names(state)
    state = run(state, "pico")
    assert "abondance_in_troef" not in names(state)
    state = run(state, "abondance", "abondance_in_troef", "pass", "pass", "pass")
    assert state.declarations[0].contract == "abondance_in_troef" and state.declarations[0].declarers == (2,)


def test_equal_misere_played_together():
    state = run(start_auction(neutral_deal(), T), "miserie", "miserie", "pass", "pass")
    assert state.done
    assert [(d.contract, d.declarers) for d in state.declarations] == [("miserie", (0,)), ("miserie", (1,))]


def test_higher_misere_displaces_and_displaced_may_raise():
    state = run(start_auction(neutral_deal(), T), "kleine_miserie", "kleine_miserie", "pico", "pass")
    assert state.to_act == 0 and "pico" in names(state) and "kleine_miserie" not in names(state)
    state = run(state, "pico", "pass")
    assert [(d.contract, d.declarers) for d in state.declarations] == [("pico", (2,)), ("pico", (0,))]


def test_non_misere_cannot_be_joined():
    state = run(start_auction(neutral_deal(), T), "abondance")
    assert "abondance" not in names(state)


TROEL_HAND = "S:AK2 H:A32 D:A32 C:5432"  # three aces; the fourth (AC) elsewhere


def test_troel_obligation():
    deal = deal_with(3, 1, TROEL_HAND)
    state = run(start_auction(deal, T), "pass")
    assert state.to_act == 1
    assert names(state) == {"troel", "open_miserie", "solo_slim"}  # no pass, no lower bid
    state = run(state, "troel")
    assert names(state) == {"pass", "open_miserie", "solo_slim"}  # troel overcalled only by these
    state = run(state, "pass", "pass")  # seat 0 has passed already
    assert state.declarations[0].contract == "troel" and state.declarations[0].declarers == (1,)


def test_troel_obligation_on_eldest_no_wait():
    deal = deal_with(3, 0, TROEL_HAND)
    assert names(start_auction(deal, T)) == {"troel", "open_miserie", "solo_slim"}


def test_troel_obligation_lifted_by_higher_bid_before():
    deal = deal_with(3, 1, TROEL_HAND)
    state = run(start_auction(deal, T), "open_miserie")
    assert names(state) == {"pass", "open_miserie", "solo_slim"}


def test_troel_before_auction():
    rules = T.replace(troel_before_auction=True)
    state = start_auction(deal_with(3, 2, TROEL_HAND), rules)
    assert state.history == ((2, Bid("troel")),)
    assert state.to_act == 0 and names(state) == {"pass", "open_miserie", "solo_slim"}
    state = run(state, "pass", "pass", "pass")
    assert state.declarations[0].contract == "troel"
    overcalled = run(start_auction(deal_with(3, 2, TROEL_HAND), rules), "pass", "open_miserie")
    assert overcalled.to_act == 2 and names(overcalled) == {"pass", "open_miserie", "solo_slim"}  # may join
    overcalled = run(overcalled, "pass", "pass")
    assert [(d.contract, d.declarers) for d in overcalled.declarations] == [("open_miserie", (1,))]
    # no troel in the deal: the normal auction starts
    assert "wait" in names(start_auction(neutral_deal(), rules))


CB_HAND = "S:A2 H:A32 D:A432 C:A432"  # no J, Q, K (and four aces)


def test_carte_blanche_limits_and_precedence_over_troel():
    rules = T.replace(carte_blanche=True)
    deal = deal_with(3, 1, CB_HAND)
    state = start_auction(deal, rules)
    assert state.phase == "carte_blanche" and state.to_act == 1
    state = apply(state, "carte_blanche")
    assert state.to_act == 0 and names(state) == {"pass", "open_miserie", "solo_slim"}
    state = apply(state, "pass")
    assert names(state) == {"pass", "open_miserie", "solo_slim"}  # no troel obligation any more
    state = run(state, "pass", "pass", "pass")
    assert state.thrown_in


def test_carte_blanche_declined():
    rules = T.replace(carte_blanche=True)
    state = run(start_auction(deal_with(3, 1, CB_HAND), rules), "pass")
    assert state.phase == "auction" and state.carte_blanche is None
    assert names(state) == {"pass", "vraag", "kleine_miserie", "pico", "abondance", "miserie"} | {
        "open_miserie",
        "solo_slim",
        "wait",
    }
    state = apply(state, "pass")
    assert state.to_act == 1 and "troel" in names(state) and "pass" not in names(state)


def test_abondance_levels_with_suit_ranking():
    rules = get_rules("levels")
    state = run(start_auction(neutral_deal(), rules), "abondance 9 H")
    legal = names(state)
    assert "abondance_in_troef" not in legal
    assert "abondance 9 D" not in legal and "abondance 9 C" not in legal  # lower suit, same level
    assert "abondance 10 C" in legal
    state = run(state, "abondance 10 C")
    assert "abondance 10 H" in names(state) and "abondance 10 S" not in names(state)
    state = run(state, "abondance 10 H", "pass", "pass", "pass")
    decl = state.declarations[0]
    assert (decl.contract, decl.declarers, decl.level, decl.trump) == ("abondance", (2,), 10, 1)
    assert "miserie" in names(run(start_auction(neutral_deal(), rules), "abondance 12 H"))


def test_abondance_levels_without_ranking():
    rules = T.replace(abondance_levels=True)
    state = run(start_auction(neutral_deal(), rules), "abondance 10")
    assert "abondance 10" not in names(state) and "abondance 11" in names(state)


def test_trump_with_bid():
    rules = T.replace(abondance_trump_with_bid=True)
    legal = names(start_auction(neutral_deal(), rules))
    assert {"abondance S", "abondance H", "abondance D", "abondance C"} <= legal and "abondance" not in legal


def test_optional_contracts_switched_off():
    legal = names(start_auction(neutral_deal(), get_rules("classic")))
    assert "kleine_miserie" not in legal and "pico" not in legal and "miserie" in legal


def test_errors():
    state = run(start_auction(neutral_deal(), T), "pass", "pass", "pass", "pass")
    with pytest.raises(ValueError, match="over"):
        apply(state, "pass")
    with pytest.raises(ValueError, match="unknown bid"):
        parse_bid("grand slam")
    with pytest.raises(ValueError, match="not finished"):
        start_auction(neutral_deal(), T).declarations  # noqa: B018


VARIANTS = [
    {},
    {"carte_blanche": True},
    {"troel_before_auction": True},
    {"abondance_levels": True, "abondance_suit_ranking": True},
    {"abondance_trump_with_bid": True},
]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(PRESETS)), st.sampled_from(VARIANTS))
def test_random_legal_auction_ends(seed, preset, variant):
    rng = np.random.default_rng(seed)
    rules = get_rules(preset).replace(**variant)
    deal = deal_packets(new_deck(rng), int(rng.integers(4)))
    state = start_auction(deal, rules)
    for _ in range(100):
        if state.done:
            break
        legal = legal_bids(state)
        assert legal and len(set(legal)) == len(legal)
        state = apply(state, legal[int(rng.integers(len(legal)))])
    assert state.done
    for decl in state.declarations:
        assert decl.contract in rules.contracts()
    assert parse_card("AS") >= 0
