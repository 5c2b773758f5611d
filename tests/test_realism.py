"""The realism experiment's core (experiments/realism.py, issue 19 part 6) on a handful of deals."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wiezen_sim.cards import FULL_DECK, SUITS, card_count, card_suit, cards_of, parse_card, parse_hand
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.rules.dealing import Deal, deal_packets, new_deck
from wiezen_sim.rules.play import setup_play
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import Player, play_deal
from wiezen_sim.vocabulary import DEALER, SEATS

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


@pytest.fixture(scope="module")
def realism():
    """experiments/realism.py as a module (the scripts are not a package; it imports dd_vs_pimc beside it)."""
    spec = importlib.util.spec_from_file_location("realism", EXPERIMENTS / "realism.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("dd_vs_pimc", None)


def exact_tricks(deal, decl) -> int:
    """The declaring side's double-dummy trick count, by the exact search (not the target test the script uses)."""
    setup = setup_play([decl], deal, get_rules())
    return int(DDSolver(tt_mb=16).solve(list(deal.hands), setup.trump, setup.leader, setup.side))


def test_contract_records_and_paired_table_agree(compiled_kernels, realism):
    tasks = [(c, i, d, decl, 2, 7) for c in ("abondance", "solo_slim")
             for i, (d, decl) in enumerate(realism.make_deals(c, 2, 7))]  # fmt: skip
    rows = [realism.evaluate_contract(t) for t in tasks]
    for (contract, _, deal, decl, _, _), row in zip(tasks, rows, strict=True):
        target = setup_play([decl], deal, get_rules()).target
        assert row["dd"] == (exact_tricks(deal, decl) >= target), contract
        assert contract_spec(contract).objective.name == "MAX"
    assert realism.evaluate_contract(tasks[0]) == rows[0]  # seeded: the same record again
    records = pd.DataFrame(rows)
    table = realism.contract_table(records, deals=3, contracts=("abondance", "solo_slim"))
    for _, entry in table.iterrows():
        part = records[records.contract == entry.contract]
        assert entry.n == len(part) == 2 and entry.unfinished == 1
        for m in realism.METHODS:
            assert entry[f"k_{m}"] == part[m].sum()
            assert entry[f"{m}_low"] <= entry[f"p_{m}"] <= entry[f"{m}_high"]
        assert entry.pimc_minus_dd == pytest.approx(entry.p_pimc - entry.p_dd)
        assert entry.pimc_minus_dd_a_only + entry.pimc_minus_dd_b_only == (part.pimc != part.dd).sum()
        assert entry.pimc_decisions == part.pimc_decisions.sum() > 0
        assert entry.contradicted_share == pytest.approx(part.pimc_auction_contradicted.sum() / entry.pimc_decisions)


def test_paired_counts_and_mcnemar(realism):
    a = np.array([1, 1, 1, 1, 1, 0, 0, 1], bool)
    b = np.array([0, 0, 0, 0, 0, 0, 0, 1], bool)
    out = realism.paired(a, b)
    assert (out["a_only"], out["b_only"]) == (5, 0)
    assert out["diff"] == pytest.approx(5 / 8)
    assert out["mcnemar_p"] == pytest.approx(2 * 0.5**5)  # exact two-sided binomial test of 5 of 5
    assert out["low"] < out["diff"] < out["high"]
    assert realism.paired(b, b)["mcnemar_p"] == 1.0


def test_forced_lead_is_from_the_longest_side_suit(compiled_kernels, realism):
    deal, decl = realism.make_deals("solo", 1, 11, realism.LEAD_OFFSET)[0]
    eldest = (deal.dealer + 1) % SEATS
    assert eldest not in decl.declarers  # a defender leads
    row = realism.evaluate_lead(("solo", 0, deal, decl, 2, 11))
    lead = parse_card(row["forced_lead"])
    assert deal.hands[eldest] >> lead & 1
    assert SUITS[card_suit(lead)] == row["longest_side_suit"] and row["forced_in_longest"]
    assert card_suit(lead) != card_suit(deal.turned)  # solo: the turned suit is trump
    assert row["free_in_longest"] == (SUITS[card_suit(parse_card(row["free_lead"]))] == row["longest_side_suit"])


def test_forced_lead_breaks_a_length_tie_by_the_higher_holding(realism):
    """Eldest holds four spades and four clubs: the clubs (the higher holding) are led, whatever the inner
    player would lead from a free hand (the heuristic's own tie-break is the lower suit)."""
    eldest = parse_hand("S:9876 H:32 D:432 C:T987")
    declarer = parse_hand("S:AK H:AKQJT98 D:AK C:AK")
    dealer = parse_hand("S:QJT5432 H:7654 D:QJ")
    third = FULL_DECK & ~eldest & ~declarer & ~dealer
    deal = Deal((eldest, declarer, third, dealer), 3, parse_card("4H"))
    free = play_deal(deal, Declaration("solo", (1,)), [Player()] * SEATS)
    assert card_suit(free.tricks[0][1][0]) == 0  # the heuristic alone: spades
    forced = play_deal(deal, Declaration("solo", (1,)), [realism.LongestSideSuitLead(Player()), *[Player()] * 3])
    assert card_suit(forced.tricks[0][1][0]) == 3 and forced.tricks[0][1][0] in cards_of(eldest)


def test_bid_mix_tables_count_the_records(realism):
    records = pd.DataFrame({"hand_index": [0, 0, 1, 1, 2, 2, 3],
                            "method": ["dd", "pimc", "dd", "pimc", "dd", "pimc", "dd"],
                            "bid": ["vraag", "pass", "pass", "pass", "solo", "solo", "vraag"]})  # fmt: skip
    table = realism.bid_table(records)
    for m, n in (("dd", 4), ("pimc", 3)):
        part = table[table.method == m]
        assert part["count"].sum() == n and (part.hands == n).all()
    assert table.bid.iloc[0] == "pass"
    agreement = realism.bid_agreement(records)
    assert agreement["hands"] == 3 and agreement["same_bid"] == 2 and agreement["changes"] == {"vraag → pass": 1}
    fig = realism.bid_chart(table, {"samples": 32, "seed": 1, "label": "a test"})
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["advisor, dd", "advisor, pimc"]
    caption = " ".join(" ".join(t.get_text() for t in fig.texts if t.get_gid() == "caption").split())
    assert "(dd on 4, pimc on 3, the first ones;" in caption and "a test" in caption


def test_positions_are_legal(realism):
    for word in (1, 2, 3, 4, 5):
        hand, seat, turned = realism.position(word)
        assert hand.bit_count() == 13 and 0 <= seat < SEATS
        assert bool(hand >> turned & 1) == (seat == DEALER)  # the turned card lies in the dealer's hand


def test_committed_charts_say_what_they_show(realism):
    out = Path(__file__).resolve().parents[1] / "results" / "realism"
    meta = json.loads((out / "meta.json").read_text())
    contracts = pd.read_csv(out / "contracts.csv")
    fig = realism.contract_chart(contracts, meta | meta["settings"])
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["double dummy", "PIMC, uniform worlds", "PIMC reading the auction", "heuristic play"]
    text = " ".join(" ".join(t.get_text() for t in fig.texts if t.get_gid() == "caption").split())
    assert "Wilson 95 % interval" in text and meta["label"] in text
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == [f"{c.replace('_', ' ')}\n(n={n})" for c, n in zip(contracts.contract, contracts.n, strict=True)]
    bids = pd.read_csv(out / "bids.csv")
    records = pd.read_csv(out / "bids_records.csv")
    assert (bids.groupby("method")["count"].sum() == bids.groupby("method").hands.first()).all()
    assert bids.groupby("method").hands.first().to_dict() == records.groupby("method").size().to_dict()
    fig = realism.bid_chart(bids, meta | meta["settings"])
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["advisor, dd", "advisor, pimc"]


def test_the_bidding_model_declares_only_what_it_wishes(realism):
    """bid_deals runs the auction only on deals where some seat wishes the contract: every contract the bot
    declares on random deals is one its declarer's hand wishes (else bid_deals would lose such deals)."""
    model, rules = realism.default_model(realism.ACCEPT_TRICKS), realism.get_rules()
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(400):
        deal = deal_packets(new_deck(rng), int(rng.integers(4)))
        state = realism.start_auction(deal, rules)
        while not state.done:
            state = realism.apply(state, model(state))
        for d in state.declarations:
            hand = np.array([deal.hands[d.declarers[0]]], dtype=np.int64)
            assert model.wishing(hand, card_suit(deal.turned), d.contract)[0], (d, deal)
            seen.add(d.contract)
    assert {"vraag", "solo", "troel"} <= seen


def test_bid_deals_are_ones_the_model_declares(realism):
    deals, drawn = realism.bid_deals("miserie", 3, 7)
    again, _ = realism.bid_deals("miserie", 3, 7)
    assert len(deals) == 3 and drawn % realism.BID_CHUNK == 0 and deals == again
    model, rules = realism.default_model(realism.ACCEPT_TRICKS), realism.get_rules()
    for deal, decl in deals:
        state = realism.start_auction(deal, rules)
        while not state.done:
            state = realism.apply(state, model(state))
        assert list(state.declarations) == [decl]
        assert sorted(card_count(h) for h in deal.hands) == [13] * 4 and deal.hands[deal.dealer] >> deal.turned & 1
    none, drawn = realism.bid_deals("solo_slim", 1, 7, limit=realism.BID_CHUNK)
    assert none == [] and drawn == realism.BID_CHUNK
