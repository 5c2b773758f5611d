"""The bid advisor in the deals where a player does not see its own hand (RULES.md Part 2):
forehead one-card deals (the others' cards seen, not one's own) and blind deals (bid before looking)."""

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

from wiezen_sim.analysis.romanian import advise
from wiezen_sim.cards import card_name, cards_of, parse_card
from wiezen_sim.rules.romanian import deck_mask


def _winner(cards: list[int], players: int, trump: int) -> int:
    """Seat winning a trick led by seat 0, written from the rules page: highest trump, else highest of the suit led."""
    trumps = [c for c in cards if c // 16 == trump]
    pool = trumps or [c for c in cards if c // 16 == cards[0] // 16]
    return cards.index(max(pool, key=lambda c: c % 16))


def _forehead_p_win(players: int, seat: int, others: list[int], turned: int) -> tuple[float, int]:
    """Enumerate the own card over every deck card not seen: P(win), number of cards."""
    unseen = [c for c in cards_of(deck_mask(players)) if c not in others and c != turned]
    wins = sum(_winner([*others[:seat], c, *others[seat:]], players, turned // 16) == seat for c in unseen)
    return wins / len(unseen), len(unseen)


def test_forehead_by_hand():
    # 3 players, trump hearts (TH turned); seat 1 sees KS at seat 0 and 9H at seat 2. The 9H
    # is a trump: only a higher heart wins, JH QH KH AH, 4 of the 21 cards seat 1 cannot see
    # (the 24-card deck minus KS, 9H, TH; the three undealt cards included).
    adv = advise(None, 3, 1, "TH", [0], visibility="forehead", others=["KS", "9H"])
    assert adv.samples == 21 and adv.model == "exact" and adv.hand == 0
    assert adv.options[1].p_exact == pytest.approx(4 / 21, abs=1e-15)
    assert adv.options[0].tricks == pytest.approx((17 / 21, 4 / 21), abs=1e-15)
    assert adv.options[0].expected_score == pytest.approx((5 * 17 - 4) / 21, abs=1e-12)
    assert adv.options[1].expected_score == pytest.approx((6 * 4 - 17) / 21, abs=1e-12)
    assert adv.options[1].p_exact_ci == (adv.options[1].p_exact,) * 2
    assert adv.recommendation.bid == 0
    d = adv.to_dict()
    assert d["hand"] is None and d["visibility"] == "forehead" and d["others"] == ["KS", None, "9H"]


def test_forehead_matches_enumeration_on_random_positions():
    rng = np.random.default_rng(2)
    for _ in range(40):
        players = int(rng.integers(3, 7))
        seat = int(rng.integers(players))
        deck = cards_of(deck_mask(players))
        picked = [deck[i] for i in rng.choice(len(deck), players, replace=False)]
        others, turned = picked[: players - 1], picked[-1]
        p, n = _forehead_p_win(players, seat, others, turned)
        bids = [int(b) for b in rng.integers(0, 2, seat)]
        if seat == players - 1 and sum(bids) == 1:
            bids[0] = 1 - bids[0]  # keep the earlier bids free of the dealer's constraint
        adv = advise(None, players, seat, card_name(turned), bids, visibility="forehead",
                     others=[card_name(c) for c in others])  # fmt: skip
        assert adv.samples == n
        assert adv.options[1].p_exact == pytest.approx(p, abs=1e-15)
        assert adv.options[0].p_exact == pytest.approx(1 - p, abs=1e-15)
        hook = 1 - sum(bids) if seat == players - 1 else None
        assert [o.legal for o in adv.options] == [b != hook for b in (0, 1)]


def test_blind_one_card_deal_matches_enumeration():
    # 3 players, trump QH turned, seat 1 bids before looking. Exact: every ordered triple of
    # distinct cards of the 23 left is equally likely (23 × 22 × 21 deals).
    turned = parse_card("QH")
    pool = [c for c in cards_of(deck_mask(3)) if c != turned]
    deals = list(itertools.permutations(pool, 3))
    p = sum(_winner(list(d), 3, turned // 16) == 1 for d in deals) / len(deals)
    samples = 20000
    adv = advise(None, 3, 1, "QH", [1], samples=samples, seed=7, visibility="blind")
    assert adv.cards == 1 and adv.visibility == "blind" and adv.hand == 0
    p_hat = adv.options[1].p_exact
    assert abs(p_hat - p) < 4 * (p * (1 - p) / samples) ** 0.5, (p_hat, p)
    assert adv.options[0].tricks == adv.options[1].tricks  # play of a one-card deal is forced
    lo, hi = adv.options[1].p_exact_ci
    assert lo < p < hi
    assert advise(None, 3, 1, "QH", [1], samples=samples, seed=7, visibility="blind") == adv


def test_blind_eight_card_end_deal():
    # 3 players, 8 cards: the whole 24-card deck is dealt, no trump. The three seats' hands
    # are exchangeable before the bids; seat 0 (on lead) bidding blind cannot know more.
    adv = advise(None, 3, 0, None, [], samples=2000, seed=1, visibility="blind")
    assert adv.cards == 8 and adv.turned is None and len(adv.options) == 9
    for o in adv.options:
        assert sum(o.tricks) == pytest.approx(1.0)
    # aiming at 0 takes fewer tricks on average than aiming at 8
    mean = [sum(t * q for t, q in enumerate(o.tricks)) for o in adv.options]
    assert mean[0] < mean[8]
    normal = advise("AS KS QS JS AH KH QH JH", 3, 0, None, [], samples=2000, seed=1)
    assert normal.recommendation.bid >= 6 > adv.recommendation.bid


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"hand": "AS", "visibility": "forehead", "others": ["KS", "9H"]}, "does not see its own hand"),
        ({"hand": None, "visibility": "forehead", "others": ["KS"]}, "the 2 other seats"),
        ({"hand": None, "visibility": "forehead", "others": ["KS", "KS"]}, "given twice"),
        ({"hand": None, "visibility": "forehead", "others": ["KS", "AS QS"]}, "one card"),
        ({"hand": None, "visibility": "forehead", "others": ["KS", "TH"]}, "cannot be in another seat's hand"),
        ({"hand": None, "visibility": "forehead", "others": ["KS", "8H"]}, "not in the 24-card deck"),
        ({"hand": None, "visibility": "forehead"}, "forehead deals only"),
        ({"hand": "AS", "others": ["KS", "9H"]}, "forehead deals only"),
        ({"hand": None, "visibility": "blind", "bid_sigma": 0.5}, "normal deals only"),
        ({"hand": "AS", "visibility": "blind"}, "does not see its own hand"),
        ({"hand": None}, "give the hand"),
        ({"hand": None, "visibility": "sideways"}, "visibility must be one of"),
    ],
)
def test_bad_hidden_hand_input(kwargs, match):
    hand = kwargs.pop("hand")
    with pytest.raises(ValueError, match=match):
        advise(hand, 3, 1, "TH", [0], **kwargs)


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wiezen_sim.cli", "romanian", "advise", *argv],
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_cli_forehead_and_blind():
    proc = _cli("--players", "3", "--seat", "1", "--trump", "TH", "--bids", "0", "--forehead", "KS 9H",
                "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["options"][1]["p_exact"] == pytest.approx(4 / 21) and out["samples"] == 21
    proc = _cli("--players", "3", "--seat", "1", "--trump", "TH", "--bids", "0", "--forehead", "KS,9H")
    assert proc.returncode == 0 and "exact: the own card is any of 21 unseen cards" in proc.stdout
    assert "cards by seat KS ? 9H" in proc.stdout
    proc = _cli("--blind", "--players", "4", "--seat", "dealer", "--trump", "none", "--bids", "2,2,2",
                "--samples", "300")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "8-card deal; blind deal, bid before looking" in proc.stdout and "recommended bid:" in proc.stdout


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["AS", "--forehead", "KS 9H"], "does not see its own hand"),
        (["--forehead", "KS"], "the 2 other seats"),
        (["--forehead", "KS 9H", "--blind"], "--forehead and --blind"),
        (["AS", "--blind"], "does not see its own hand"),
        ([], "give the hand"),
        (["--blind", "--bid-sigma", "1"], "normal deals only"),
        (["--forehead", "KS ZZ"], "ZZ"),
    ],
)
def test_cli_bad_hidden_hand_input(argv, match):
    proc = _cli("--players", "3", "--seat", "1", "--trump", "TH", "--bids", "0", *argv)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert match in proc.stderr
