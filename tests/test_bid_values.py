"""Bid values in the context of the auction (issue 19 part 2): each bid the seat can make now, the rest of the
auction bid by a model, the contract that stands played double dummy and settled for the seat (RULES.md 1.4, 1.6)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from wiezen_sim.analysis.advise import advise
from wiezen_sim.analysis.advise.deals import sample_hands
from wiezen_sim.analysis.threshold import pass_or_lowest
from wiezen_sim.cards import card_suit
from wiezen_sim.cli import main
from wiezen_sim.parallel import sample_seeds
from wiezen_sim.rules.auction import AuctionState, Bid, legal_bids
from wiezen_sim.rules.contracts import ACCEPT
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.vocabulary import ELDEST, Objective

HAND = "S:AKQJ98 H:AK2 D:K3 C:52"  # two aces: no other seat can hold three (no troel obligation elsewhere)
TURNED = "7H"
SECOND, THIRD = ELDEST + 1, ELDEST + 2


class Model:
    """A deterministic bidding model read by PIMC players. These models read no card of the bidder's hand but its
    aces (the troel obligation), and beside HAND's two aces no seat can hold three: a bid's likelihood is the same,
    1 or 0, for every hand."""

    def likelihood(self, state: AuctionState, bid: Bid, hands: np.ndarray) -> np.ndarray:
        return np.full(len(hands), float(self(state) == bid))


class Passer(Model):
    """A bidding model that never bids (pass, or the lowest legal contract when pass is not legal)."""

    name = "passer"

    def __call__(self, state: AuctionState) -> Bid:
        return pass_or_lowest(legal_bids(state))


class SlimOvercaller(Model):
    """Second seat bids solo slim whenever it may; the others pass."""

    name = "slim overcaller"

    def __call__(self, state: AuctionState) -> Bid:
        legal = legal_bids(state)
        return Bid("solo_slim") if state.to_act == SECOND and Bid("solo_slim") in legal else pass_or_lowest(legal)


class VraagPair(Model):
    """Second seat proposes, third seat accepts; the others pass."""

    name = "vraag pair"

    def __call__(self, state: AuctionState) -> Bid:
        legal = legal_bids(state)
        for seat, bid in ((SECOND, Bid("vraag")), (THIRD, Bid(ACCEPT))):
            if state.to_act == seat and bid in legal:
                return bid
        return pass_or_lowest(legal)


def _run(model, samples=24, **kwargs):
    return advise(HAND, "eldest", TURNED, samples=samples, seed=3, n_jobs=1, stop=False, progress=False, model=model,
                  **kwargs)  # fmt: skip


def _bid(advice, contract, trump=None):
    b = advice.bids
    rows = b[(b.contract == contract) & ((b.trump == trump) if trump else True)]
    assert len(rows) == 1, (contract, trump)
    return rows.iloc[0]


def _table_ev(advice, contract, trump=None):
    t = advice.table
    alone = t.partner.isna() if "partner" in t else True
    rows = t[(t.contract == contract) & alone & ((t.trump == trump) if trump else True)]
    assert len(rows) == 1
    return rows.iloc[0]["ev_units"]


def test_a_model_that_never_bids_leaves_the_table_values(compiled_kernels):
    """Nobody else bids: a bid is worth its contract's "if I declare it" value, pass 0, an unaccepted vraag 0."""
    adv = _run(Passer())
    assert adv.meta["recommended_from"] == "bid values" and adv.meta["bid_questions"] == 0
    pas = _bid(adv, "pass")
    assert pas.ev_units == 0 and pas.all_pass == 1 and pas.n == 24
    for contract, trump in (("solo", None), ("miserie", None), ("abondance", "S"), ("abondance", "D")):
        row = _bid(adv, contract, trump)
        assert row.ev_units == pytest.approx(_table_ev(adv, contract, trump)), contract
        assert row.declares == 1 and row.n == 24
    vraag = _bid(adv, "vraag")  # nobody accepts, and the plan then passes: thrown in
    assert vraag.ev_units == 0 and vraag.all_pass == 1
    assert adv.recommendation["ev_units"] == max(adv.bids.ev_units)  # the recommendation comes from the bid values


def test_a_seat_that_always_overcalls_makes_every_lower_bid_a_defence(compiled_kernels):
    """Second seat always bids solo slim: every lower bid ends with the seat defending it, and is worth the
    defender's settlement (RULES.md 1.6: 24 per opponent, paid or received), checked with the solver."""
    adv = _run(SlimOvercaller(), samples=12)
    mask, seat, turned = check_position(HAND, "eldest", TURNED)
    solver = DDSolver()
    expected = []
    for word in sample_seeds(3, 12):
        hands = sample_hands(word, mask, seat, turned)
        suits = [(bin(int(hands[SECOND]) >> (16 * s) & 0xFFFF).count("1"), int(hands[SECOND]) >> (16 * s) & 0xFFFF, s)
                 for s in range(4)]  # fmt: skip
        trump = max(suits)[2]  # the declarer's longest suit, ties by the higher holding (rules.play.longest_suit)
        made = solver.can_make(hands, trump, SECOND, 1 << SECOND, Objective.MAX, 13)
        expected.append(-24 if made else 24)
    value = float(np.mean(expected))
    assert adv.meta["bid_questions"] > 0
    for contract in ("pass", "vraag", "solo", "miserie", "open_miserie"):
        row = _bid(adv, contract)
        assert row.other_contract == 1 and row.ev_units == pytest.approx(value), contract
    own = _bid(adv, "solo_slim", "S")  # the highest bid: nobody can overcall it
    assert own.declares == 1 and own.ev_units == pytest.approx(_table_ev(adv, "solo_slim", "S"))


def test_a_defender_of_a_vraag_pays_as_the_rules_examples(compiled_kernels):
    """Second seat proposes and third accepts; the advised eldest passed: it defends. RULES.md 1.6 examples 1-4:
    8 tricks -2, 10 tricks -6, 7 tricks +4, 13 tricks -24 for each defender."""
    adv = _run(VraagPair(), samples=16)
    mask, seat, turned = check_position(HAND, "eldest", TURNED)
    trump = card_suit(turned)
    solver = DDSolver()
    examples = {8: -2, 10: -6, 7: 4, 13: -24}
    paid = []
    for word in sample_seeds(3, 16):
        hands = sample_hands(word, mask, seat, turned)
        tricks = solver.solve(hands, trump, ELDEST, (1 << SECOND) | (1 << THIRD))
        value = 1 + abs(tricks - 8)  # RULES.md 1.6: 1 per opponent, plus 1 per over- or undertrick, doubled at 13
        value *= 2 if tricks == 13 else 1
        paid.append(-2 * value if tricks >= 8 else 2 * value)  # 2 vs 2: a defender pays (or receives) it twice
        if tricks in examples:
            assert paid[-1] == examples[tricks]
    row = _bid(adv, "pass")
    assert row.other_contract == 1 and row.ev_units == pytest.approx(np.mean(paid))
    # a vraag of its own comes first: the second seat cannot propose, the third accepts it with the eldest
    vraag = _bid(adv, "vraag")
    assert vraag.with_partner == 1


def test_after_an_unaccepted_vraag_the_plans_part(compiled_kernels):
    """Nobody accepts: the vraag bid passes (thrown in, 0), the solo bid plays solo (the table's solo row)."""
    adv = _run(Passer(), samples=12, contracts=["solo"])
    assert set(adv.bids.contract) == {"pass", "solo"}  # the bids asked for, and pass
    assert set(adv.table.contract) == {"solo"}  # the table shows the contracts asked for (vraag asked only inside)
    solo = _bid(adv, "solo")
    assert solo.declares == 1 and solo.ev_units == pytest.approx(_table_ev(adv, "solo"))


def test_same_numbers_for_any_jobs_and_counted_deals_at_a_later_seat(compiled_kernels):
    kwargs = {"samples": 20, "seed": 4, "progress": False, "contracts": ["solo", "miserie", "abondance"]}
    one = advise(HAND, "third", TURNED, n_jobs=1, **kwargs)
    two = advise(HAND, "third", TURNED, n_jobs=2, batch_size=3, **kwargs)
    assert one.bids.equals(two.bids) and one.meta == two.meta and one.recommendation == two.recommendation
    n = dict(zip(one.bids.contract, one.bids.n, strict=False))
    # every sampled deal is one where the seats before pass (bids.PassedDeals), so every one counts
    assert one.meta["deals"] == n["pass"]
    assert (one.bids.n <= one.meta["deals"]).all()  # a bid dropped at a look counts the deals before it


def test_outputs_carry_the_bid_values(capsys, compiled_kernels):
    argv = ["advise", "S:AKQJ98", "H:AK2", "D:K3", "C:52", "--turned", "7H", "--samples", "8", "--jobs", "1",
            "--quiet", "--contracts", "solo,miserie"]  # fmt: skip
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {row["contract"] for row in data["bids"]} == {"pass", "solo", "miserie"}
    assert data["recommended_from"] == "bid values" and "threshold bot" in data["bid_model"]
    assert {"ev_units", "ev_low", "ev_high", "n", "declares", "with_partner", "other_contract", "all_pass"} <= set(
        data["bids"][0]
    )
    assert main([*argv, "--format", "csv"]) == 0
    out = capsys.readouterr().out
    bids = [line[2:] for line in out.splitlines() if line.startswith("# ")]
    start = next(i for i, line in enumerate(bids) if line.startswith("bid values"))
    frame = pd.read_csv(io.StringIO("\n".join(bids[start + 1 :])))
    assert set(frame.contract) == {"pass", "solo", "miserie"} and "all_pass" in frame
    assert pd.read_csv(io.StringIO(out), comment="#").contract.tolist()  # the contract table still reads
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "bid values (the recommendation comes from these)" in text and "from the bid values" in text


def test_the_stop_rule_judges_the_bids(compiled_kernels):
    """A hopeless bid stops being valued after the first round; the recommendation and runner-up are bid values."""
    from wiezen_sim.analysis.advise.stopping import FIRST_LOOK

    adv = advise(HAND, "eldest", TURNED, samples=200, seed=2, n_jobs=1, progress=False, contracts=["solo", "miserie"])
    n = dict(zip(adv.bids.contract, adv.bids.n, strict=True))
    assert n["miserie"] == FIRST_LOOK  # dominated by the best bid after the first round: no longer valued
    ranked = adv.bids.sort_values("ev_units", ascending=False, kind="stable")
    assert adv.recommendation["contract"] == ranked.iloc[0].contract
    assert adv.runner_up["ev_units"] == pytest.approx(ranked.iloc[1].ev_units)


def test_the_play_methods_value_the_bids_with_their_players(compiled_kernels):
    """Heuristic players: a model that never bids leaves the table's values; PIMC players play another seat's
    contract (the same numbers for any jobs)."""
    adv = _run(Passer(), samples=8, method="heuristic", contracts=["solo", "miserie", "abondance"])
    assert adv.meta["recommended_from"] == "bid values" and adv.meta["bid_questions"] == 0
    for contract, trump in (("solo", None), ("miserie", None), ("abondance", "S")):
        assert _bid(adv, contract, trump).ev_units == pytest.approx(_table_ev(adv, contract, trump)), contract
    kwargs = {"samples": 3, "seed": 5, "progress": False, "stop": False, "method": "pimc", "worlds": 4,
              "contracts": ["miserie"], "model": SlimOvercaller()}  # fmt: skip
    one = advise(HAND, "eldest", TURNED, n_jobs=1, **kwargs)
    two = advise(HAND, "eldest", TURNED, n_jobs=2, batch_size=1, **kwargs)
    assert one.bids.equals(two.bids) and one.meta == two.meta
    assert one.meta["bid_questions"] == 2 * 3  # pass and miserie each end in the second seat's solo slim, played
    assert (one.bids.other_contract == 1).all()


class Plan:
    """The advised seat's plan as a bidder for the game engine (bids.py): its first bid, then pass; after its own
    vraag nobody accepted, solo when ``solo``."""

    def __init__(self, first: Bid, solo: bool) -> None:
        self.first, self.solo = first, solo

    def __call__(self, state: AuctionState) -> Bid:
        if state.to_act not in state.spoken:
            return self.first
        own_vraag = state.highest == Bid("vraag") and state.holders == (state.to_act,)
        return Bid("solo") if own_vraag and self.solo and Bid("solo") in legal_bids(state) else Bid("pass")


def test_bid_values_agree_with_whole_hands_played_by_the_game_engine(compiled_kernels):
    """Heuristic players: each bid's value equals the mean payment of whole hands bid and played by the rules'
    game engine (rules.game.play_one_hand: the model for the others, the plan for the seat), over the deals where
    the seat before it passes — although the bid values reuse the table's plays and play only the others'."""
    from wiezen_sim.analysis.advise.play import default_model
    from wiezen_sim.rules.auction import apply, start_auction
    from wiezen_sim.rules.dealing import Deal
    from wiezen_sim.rules.game import play_one_hand
    from wiezen_sim.rules.ruleset import get_rules
    from wiezen_sim.solvers.players import Player

    samples, seed = 24, 6
    adv = advise(HAND, "second", TURNED, samples=samples, seed=seed, n_jobs=1, stop=False, progress=False,
                 method="heuristic", contracts=["vraag", "solo", "miserie", "open_miserie"])  # fmt: skip
    mask, seat, turned = check_position(HAND, "second", TURNED)
    rules, model = get_rules("tempelaere"), default_model(4.0)
    paid: dict[str, list[int]] = {"pass": [], "vraag": [], "solo": [], "miserie": [], "open_miserie": []}
    for word in sample_seeds(seed, 10 * samples):  # advise's deals: the first `samples` on which eldest passes
        hands = sample_hands(word, mask, seat, turned)
        deal = Deal(tuple(int(h) for h in hands), 3, turned)
        state = start_auction(deal, rules)
        if model(state) != Bid("pass"):  # eldest, before the seat, calls: advise does not draw the deal
            continue
        if len(paid["pass"]) == samples:
            break
        assert apply(state, Bid("pass")).to_act == seat
        for contract in paid:
            first = Bid("vraag") if contract == "solo" else Bid(contract)
            bidders = [model, Plan(first, contract == "solo"), model, model]
            hand_result = play_one_hand(deal, rules, bidders, [Player() for _ in range(4)])
            paid[contract].append(hand_result.payments[seat])
    assert len(paid["pass"]) == adv.meta["deals"] == samples
    assert (adv.bids.other_contract > 0).any() and (adv.bids.with_partner > 0).any()  # those branches are exercised
    for contract, payments in paid.items():
        assert _bid(adv, contract).ev_units == pytest.approx(np.mean(payments)), contract


def test_all_pass_under_ronde_pas_plays_its_first_game(compiled_kernels):
    """With the ronde_pas preset an all-pass is not worth 0: the first Ronde Pas game (the last trick pays,
    RULES.md 1.7), played by heuristic players, as the game engine plays a hand everybody passed."""
    from wiezen_sim.rules.dealing import Deal
    from wiezen_sim.rules.game import play_one_hand
    from wiezen_sim.rules.ruleset import get_rules
    from wiezen_sim.solvers.players import Player

    samples, seed = 6, 3
    adv = _run(Passer(), samples=samples, rules="ronde_pas", contracts=["miserie"])
    mask, seat, turned = check_position(HAND, "eldest", TURNED)
    rules = get_rules("ronde_pas")
    paid = []
    for word in sample_seeds(seed, samples):
        deal = Deal(tuple(int(h) for h in sample_hands(word, mask, seat, turned)), 3, turned)
        hand_result = play_one_hand(deal, rules, [Passer()] * 4, [Player() for _ in range(4)], ronde_pas=1)
        assert hand_result.auction.thrown_in and hand_result.ronde_pas == 1
        paid.append(hand_result.payments[seat])
    assert any(paid)  # the last trick paid somebody
    row = _bid(adv, "pass")
    assert row.all_pass == 1 and row.ev_units == pytest.approx(np.mean(paid))


def test_dd_solves_a_contract_once_a_deal_though_several_bids_lead_to_it(compiled_kernels):
    """Pass and miserie both end in the second seat's solo slim: double dummy solves it once a deal, and both bids
    settle it alike."""
    kwargs = {"samples": 3, "seed": 5, "progress": False, "stop": False, "contracts": ["miserie"],
              "model": SlimOvercaller()}  # fmt: skip
    adv = advise(HAND, "eldest", TURNED, n_jobs=1, **kwargs)
    assert adv.meta["bid_questions"] == 3 and (adv.bids.other_contract == 1).all()
    assert _bid(adv, "pass", None).ev_units == pytest.approx(_bid(adv, "miserie", None).ev_units)


def test_advise_draws_only_deals_where_the_seats_before_pass_prefix_stable(compiled_kernels):
    """PassedDeals keeps, in the order of sample_seeds, exactly the candidates on which the model passes with every
    seat before the advised one (the advisor knows no earlier bid, RULES.md 1.4): every deal it skips has a call
    before the seat's turn, and the first n kept do not depend on how many are asked for."""
    from wiezen_sim.analysis.advise.bids import PassedDeals, auction_to_seat, bid_batch
    from wiezen_sim.analysis.advise.play import default_model
    from wiezen_sim.rules.dealing import Deal
    from wiezen_sim.rules.ruleset import get_rules

    rules, model = get_rules("tempelaere"), default_model(4.0)
    mask, seat, turned = check_position("S:T85 H:KT D:KT75 C:T652", "dealer", "TH")
    deals = PassedDeals(5, mask, seat, turned, rules, model)
    kept = deals.seeds(40)
    assert np.array_equal(PassedDeals(5, mask, seat, turned, rules, model).seeds(7), kept[:7])
    assert np.array_equal(deals.seeds(12), kept[:12])  # asking for fewer later gives the same prefix

    def speaks(word):
        deal = Deal(tuple(int(h) for h in sample_hands(word, mask, seat, turned)), 3, turned)
        return auction_to_seat(deal, seat, rules, model) is not None

    candidates = sample_seeds(5, deals.drawn)
    passing = [w for w in candidates if speaks(w)]
    assert np.array_equal(kept, passing[:40])
    assert len(passing) < len(candidates)  # some deals were skipped: a seat before the dealer called
    skipped = next(w for w in candidates if not speaks(w))
    with pytest.raises(ValueError, match="a seat before dealer calls"):  # the bid values take kept deals only
        bid_batch(np.array([skipped], dtype=np.uint64), {}, mask, seat, turned, rules, None, model)


def test_three_aces_with_none_of_troel_open_miserie_solo_slim_asked_recommend_from_the_table(compiled_kernels):
    """With three aces pass is no bid (the troel obligation, RULES.md 1.4): asked only about abondance, no bid is
    valued and the table recommends (pass stays possible there: nothing the seat must bid was asked)."""
    adv = advise("S:AK4 H:A72 D:AQ5 C:J863", "eldest", "9C", samples=4, n_jobs=1, progress=False,
                 contracts=["abondance"])  # fmt: skip
    assert adv.bids is None and adv.meta["recommended_from"] == "table"
    assert set(adv.table.contract) == {"abondance"} and (adv.table.n == 4).all()
    text = adv.format_table()  # abondance is never made with this hand: no row shown, said in words
    assert "(no contract row shown)" in text and "Empty DataFrame" not in text


def test_a_position_where_the_seats_before_never_pass_is_refused(compiled_kernels):
    with pytest.raises(ValueError, match="the seats before third pass on only 0 of"):
        advise(HAND, "third", TURNED, samples=4, seed=1, n_jobs=1, progress=False, model=VraagPair())
