"""Kernel trick primitives, playouts and deal sampling (3–6 players)."""

from __future__ import annotations

import numpy as np
import pytest

from wiezen_sim.cards import FULL_DECK, parse_card, parse_hand
from wiezen_sim.kernel import playout as kp
from wiezen_sim.kernel import trick as kt


def test_legal_mask_follow_suit_and_must_trump(compiled_kernels):
    hand = parse_hand("S:A2 H:K D:- C:345")
    spades = parse_hand("S:A2")
    assert kt.legal_mask(hand, -1, 1, 0) == hand
    assert kt.legal_mask(hand, 0, 1, 0) == spades
    assert kt.legal_mask(hand, 0, 1, 1) == spades
    # void in diamonds: free discard in Wiezen, must trump (hearts) in Romanian whist
    assert kt.legal_mask(hand, 2, 1, 0) == hand
    assert kt.legal_mask(hand, 2, 1, 1) == parse_hand("H:K")
    # must trump without a trump: any card; no-trump deal: any card
    assert kt.legal_mask(hand, 2, 2, 1) == hand
    assert kt.legal_mask(hand, 2, -1, 1) == hand


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_trick_winner_matches_plain_rule(compiled_kernels, n):
    rng = np.random.default_rng(n)
    deck = [16 * s + r for s in range(4) for r in range(2, 15)]
    for _ in range(300):
        cards = rng.choice(deck, size=n, replace=False).astype(np.int64)
        leader = int(rng.integers(n))
        trump = int(rng.integers(-1, 4))
        lead = cards[0] >> 4
        trumps = [i for i in range(n) if cards[i] >> 4 == trump]
        pool = trumps if trumps else [i for i in range(n) if cards[i] >> 4 == lead]
        best = max(pool, key=lambda i: cards[i])
        assert kt.trick_winner(cards, n, leader, n, trump) == (leader + best) % n


def test_play_and_undo(compiled_kernels):
    hands = np.array([parse_hand("S:AK"), parse_hand("H:AK"), parse_hand("D:AK")], dtype=np.int64)
    before = hands.copy()
    c = parse_card("KS")
    kt.play_card(hands, 0, c)
    assert hands[0] == parse_hand("S:A")
    kt.undo_card(hands, 0, c)
    assert np.array_equal(hands, before)


@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
@pytest.mark.parametrize("policy", [kp.POLICY_RANDOM, kp.POLICY_HEURISTIC])
def test_playout_counts_every_trick_and_is_seeded(compiled_kernels, n_players, policy):
    per = 52 // n_players
    for seed in range(20):
        state = kp.rng_new(seed)
        hands = kp.sample_deal(state, np.zeros(n_players, np.int64), np.full(n_players, per, np.int64),
                               _deck_prefix(per * n_players, seed))  # fmt: skip
        tricks = kp.playout(
            hands, n_players, seed % n_players, (seed % 5) - 1, seed % 2, 0b101, policy, kp.rng_new(seed)
        )
        assert tricks.sum() == per
        again = kp.playout(
            hands, n_players, seed % n_players, (seed % 5) - 1, seed % 2, 0b101, policy, kp.rng_new(seed)
        )
        assert np.array_equal(tricks, again)


def _deck_prefix(n: int, seed: int) -> int:
    cards = [16 * s + r for s in range(4) for r in range(2, 15)]
    rng = np.random.default_rng(seed)
    mask = 0
    for c in rng.choice(cards, size=n, replace=False):
        mask |= 1 << int(c)
    return mask


def test_sample_deal_respects_known_cards_and_counts(compiled_kernels):
    known = np.array([parse_hand("S:AKQ"), 0, parse_hand("H:2"), 0], dtype=np.int64)
    unseen = FULL_DECK & ~int(known[0] | known[2])
    need = np.array([10, 13, 12, 13], dtype=np.int64)
    seen_masks = set()
    for seed in range(50):
        h = kp.sample_deal(kp.rng_new(seed), known, need, unseen)
        assert [int(x).bit_count() for x in h] == [13, 13, 13, 13]
        assert int(h[0] | h[1] | h[2] | h[3]) == FULL_DECK
        assert int(h[0]) & int(known[0]) == known[0] and int(h[2]) & int(known[2]) == known[2]
        seen_masks.add(int(h[1]))
        again = kp.sample_deal(kp.rng_new(seed), known, need, unseen)
        assert np.array_equal(h, again)
    assert len(seen_masks) == 50


def test_random_card_is_uniform(compiled_kernels):
    mask = parse_hand("S:AK H:2 C:T")
    state = kp.rng_new(7)
    counts: dict[int, int] = {}
    for _ in range(4000):
        c = kp.random_card(mask, state)
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) == {parse_card(x) for x in ("AS", "KS", "2H", "TC")}
    assert min(counts.values()) > 850
