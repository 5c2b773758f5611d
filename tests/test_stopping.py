"""The advisor's stop rule (issue 18): rounds fixed by the ceiling, dominated contracts stop, any jobs."""

import dataclasses

import numpy as np
import pytest

from wiezen_sim.analysis.advise import advise
from wiezen_sim.analysis.advise.options import BidRows, OptionRows
from wiezen_sim.analysis.advise.recommend import recommend
from wiezen_sim.analysis.advise.stopping import (
    DECIDED,
    DOMINATED,
    FIRST_LOOK,
    HALF_WIDTH,
    OVERLAP_FROM,
    ROUND_FIRST,
    contending_discards,
    in_contention,
    p_better,
    progress_note,
    round_ends,
)
from wiezen_sim.analysis.stats import prob_greater
from wiezen_sim.rules.ruleset import get_rules

HAND = "S:AKJ98 H:A52 D:K32 C:52"  # solo in spades made about 9 times in 10 (7S turned), miserie hopeless


def test_round_ends_double_then_grow_by_a_quarter():
    assert round_ends(1) == [1]
    assert round_ends(FIRST_LOOK) == [FIRST_LOOK]
    assert round_ends(ROUND_FIRST) == [8, 16, 32]
    assert round_ends(1000) == [8, 16, 32, 64, 128, 160, 200, 250, 312, 390, 487, 608, 760, 950, 1000]
    assert round_ends(129) == [8, 16, 32, 64, 128, 129]
    with pytest.raises(ValueError, match="positive"):
        round_ends(0)


def test_a_dominated_option_stops_and_a_close_one_keeps_the_run_going():
    rng = np.random.default_rng(0)
    best = rng.normal(10, 5, 64)
    dominated = best - 30 + rng.normal(0, 1, 64)
    close = best + rng.normal(0, 5, 64)
    options = [("solo", best, 0.01), ("pass", np.zeros(64), 0.0), ("miserie", dominated, 0.01)]
    keep, settled, _, _ = in_contention(options, 0)
    assert keep == {"solo"} and settled  # pass (0 < 10 by far) and miserie are dominated
    keep, settled, _, _ = in_contention([*options, ("vraag", close, 0.01)], 0)
    assert keep == {"solo", "vraag"} and not settled
    # a contending row whose interval of P(success) is still wide keeps the run going
    keep, settled, _, _ = in_contention([("solo", best, HALF_WIDTH + 0.01), ("pass", np.zeros(64), 0.0)], 0)
    assert keep == {"solo"} and not settled
    assert 0.99 < DOMINATED < 1


def test_a_contract_dropped_in_an_earlier_round_does_not_hold_the_run_open():
    """An option frozen at the first look (its contract no longer asked) against a later leader: not yet dominated
    by it, and its interval cannot narrow; it must not keep the run going to the ceiling (an all-low hand did)."""
    rng = np.random.default_rng(5)
    leader = 30 + rng.normal(0, 2, 200)
    frozen = leader[:FIRST_LOOK] - 5 + rng.normal(0, 12, FIRST_LOOK)  # asked on the first 8 deals only
    options = [("open_miserie", leader, 0.04), ("pass", np.zeros(200), 0.0), ("vraag", frozen, 0.3)]
    assert p_better(leader, frozen) < DOMINATED and prob_greater(leader[:FIRST_LOOK] - frozen) < DECIDED
    keep, settled, _, _ = in_contention(options, 0)
    assert "vraag" in keep and not settled  # still asked: it keeps the run going
    keep, settled, _, _ = in_contention(options, 0, frozenset({"vraag"}))
    assert keep == {"open_miserie"} and settled
    keep, *_ = in_contention(options, 0, frozenset({"open_miserie"}))  # the recommendation itself is never dropped
    assert "open_miserie" in keep


def test_a_contract_dropped_earlier_is_neither_recommended_nor_the_runner_up():
    """Options valued on fewer deals were dropped by the stop rule: their means over those deals are not comparable.
    Ranked by mean alone, the short miserie below would be the runner-up of solo, compared on the 8 deals where solo
    was behind: 'better with probability 0.00'. And a short option with the highest mean would be recommended."""
    rng = np.random.default_rng(3)
    solo = np.concatenate([np.full(FIRST_LOOK, -20.0), 4.0 + rng.normal(0, 3, 192)])
    assert solo.mean() > 2.5
    # (with no option in contention left to be the runner-up, the best dropped one is, compared on its deals:
    # test_a_runner_up_the_bid_table_hides_is_said_to_be_hidden)
    bids = BidRows()
    for contract, ev in [("pass", np.zeros(200)), ("solo", solo), ("miserie", np.full(FIRST_LOOK, 2.5)),
                         ("abondance", np.full(FIRST_LOOK, 30.0))]:  # fmt: skip
        bids.rows.append({"contract": contract, "trump": None, "level": None, "ev_units": float(ev.mean())})
        bids.evs.append(ev)
        bids.halves.append(0.0)
    best, runner, p_order, ranked = recommend(OptionRows(get_rules(), 0), False, bids)
    assert best["contract"] == "solo" and runner["contract"] == "pass"
    assert p_order == prob_greater(solo) and p_order >= 0.5
    assert [contract for contract, _, _ in ranked] == ["solo", "pass", "abondance", "miserie"]


def test_dominance_is_a_student_t_test_and_needs_the_first_look():
    """At a few deals the paired t-test is surer of less than the normal approximation; below 8 deals it tells
    nothing; with no spread the sign decides."""
    rng = np.random.default_rng(3)
    diff = rng.normal(1.0, 1.0, FIRST_LOOK)
    zeros = np.zeros(FIRST_LOOK)
    assert 0.5 < p_better(diff, zeros) < prob_greater(diff)
    many = rng.normal(1.0, 1.0, 4096)
    assert p_better(many, np.zeros(4096)) == pytest.approx(prob_greater(many), abs=1e-9)
    assert p_better(diff[: FIRST_LOOK - 1], zeros) == 0.5
    assert p_better(zeros + 2.0, zeros) == 1.0 and p_better(zeros, zeros + 2.0) == 0.0
    # an option dominated by the normal approximation but not by the t-test stays in contention at the first look
    loser = -np.array([1.0, 0.0, 2.0, 0.5, 1.5, 3.0, 0.2, 2.8])
    assert prob_greater(-loser) >= DOMINATED > p_better(zeros, loser)
    keep, *_ = in_contention([("pass", zeros, 0.0), ("solo", loser, 0.1)], 0)
    assert keep == {"pass", "solo"}


def test_the_progress_note_says_how_far_the_stop_rule_is():
    """After a round the bar says who leads, how sure (the least P over the options in contention) and how wide
    the widest interval still is, each against what the rule needs; what is met is not asked for."""
    rng = np.random.default_rng(0)
    best = rng.normal(10, 5, 64)
    close = best + rng.normal(0, 5, 64)
    options = [("solo", best, 0.07), ("vraag", close, 0.01), ("pass", np.zeros(64), 0.0)]
    state = in_contention(options, 0)
    p_close = prob_greater(best - close)
    assert state.p_decided == p_close < DECIDED and state.widest == 0.07 and not state.settled
    assert state.contracts == {"solo", "vraag"}  # pass is dominated
    note = progress_note("solo ♥", "vraag ♥", state)
    assert note == f"solo ♥ leads vraag ♥ at P {p_close:.3f} (needs {DECIDED}), intervals ±0.07 (needs ±{HALF_WIDTH})"
    decided = in_contention([options[0], options[2]], 0)  # pass far behind: only the interval is missing
    assert decided.p_decided >= DECIDED and not decided.settled
    assert (
        progress_note("solo ♥", "pass", decided)
        == f"solo ♥ leads pass at P 1.000, intervals ±0.07 (needs ±{HALF_WIDTH})"
    )
    narrow = in_contention([("solo", best, 0.01), options[1]], 0)
    assert progress_note("solo ♥", "vraag ♥", narrow) == f"solo ♥ leads vraag ♥ at P {p_close:.3f} (needs {DECIDED})"
    assert progress_note("troel ♣", None, in_contention([("troel", best, 0.01)], 0)) == "troel ♣ leads"
    # just too wide, where "±0.05 (needs ±0.05)" would read as met
    just = in_contention([("solo", best, 0.0504), options[2]], 0)
    note = progress_note("solo ♥", "pass", just)
    assert note == "solo ♥ leads pass at P 1.000, intervals just over ±0.05 (needs ±0.05)"


def test_stop_rule_rows_and_reproducibility(compiled_kernels, capsys):
    kwargs = {"samples": 100, "seed": 11, "contracts": ["solo", "miserie"], "progress": False}
    one = advise(HAND, "eldest", "7S", n_jobs=1, **{**kwargs, "progress": True})
    # after each round a line above the bar said how far the stop rule was: solo's interval still too wide
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("after ")]
    assert notes and all(" sampled deals: solo ♠ leads pass at P 1.000, intervals ±" in line for line in notes)
    assert not any(line.endswith("settled, the run stops") for line in notes)  # it ran to its ceiling
    two = advise(HAND, "eldest", "7S", n_jobs=2, batch_size=7, **kwargs)
    worker = advise(HAND, "eldest", "7S", n_jobs=1, backend="loky", **kwargs)  # one worker process, as the CLI
    for other in (two, worker):  # same rounds, same numbers, any jobs, batches or backend
        assert one.table.equals(other.table) and one.meta == other.meta
    n = dict(zip(one.table.contract, one.table.n, strict=True))
    assert n["miserie"] == FIRST_LOOK  # hopeless: asked on the first round only, and says so
    assert n["solo"] == one.meta["deals"] == 100  # still too wide after 32 and 64 deals: on to the ceiling
    assert one.recommendation["contract"] == "solo"
    # each row is exactly the row of a fixed run over its own first n deals
    for contract in ("solo", "miserie"):
        fixed = advise(HAND, "eldest", "7S", n_jobs=1, samples=n[contract], seed=11, contracts=[contract],
                       progress=False, stop=False)  # fmt: skip
        got = one.table[one.table.contract == contract].reset_index(drop=True)
        assert _records(got) == _records(fixed.table), contract


def test_rounds_handed_out_ahead_give_the_same_numbers_for_any_jobs(compiled_kernels):
    """From OVERLAP_FROM deals on, the next round is handed to the workers before this one is judged (the pipeline);
    the run settles after 160 deals with the round after it already started: one process and two workers give
    the same rows, bid values and meta (node counts included)."""
    kwargs = {"samples": 400, "seed": 11, "contracts": ["solo", "abondance"], "progress": False}
    one = advise(HAND, "eldest", "7S", n_jobs=1, **kwargs)
    assert one.meta["deals"] == 160 > OVERLAP_FROM and one.meta["stopped_early"]
    two = advise(HAND, "eldest", "7S", n_jobs=2, batch_size=3, **kwargs)
    assert one.table.equals(two.table) and one.bids.equals(two.bids) and one.meta == two.meta


def test_a_batchs_answers_and_node_counts_do_not_depend_on_its_deals_grouping(compiled_kernels):
    """Each deal's bid values are asked right after its own table (DealBatch): before, a bid's question found the
    table of the batch's last deal, so its trick nodes depended on the grouping (seeds 8-11 of this position:
    deal 9's were 418 in one batch, 171 alone)."""
    from wiezen_sim.analysis.advise.bids import PassedDeals
    from wiezen_sim.analysis.advise.play import DealBatch, default_model
    from wiezen_sim.rules.dealing import check_position

    mask, p, card = check_position("S:96 H:72 D:AT98763 C:76", "eldest", "4D")
    rules, model = get_rules("tempelaere"), default_model(4.0)
    seeds = PassedDeals(1, mask, p, card, rules, model).seeds(12)[8:]
    task = DealBatch(mask, p, card, rules, 4.0, None, "dd", 16, model)
    together = task(seeds)
    alone = [task(seeds[i : i + 1]) for i in reversed(range(len(seeds)))][::-1]
    assert together["bid_trick_nodes"].any()
    for key, value in together.items():
        assert np.array_equal(value, np.concatenate([part[key] for part in alone])), key


def _records(table):
    return table.astype(object).where(table.notna(), None).to_dict(orient="records")


def test_a_settled_run_stops_early(compiled_kernels):
    """Hopeless miserie is dropped at the first look (8 deals); the run is settled then but goes on to 32 deals."""
    adv = advise(HAND, "eldest", "7S", samples=1000, seed=11, n_jobs=1, contracts=["miserie"], progress=False)
    assert adv.meta["deals"] == ROUND_FIRST and adv.meta["stopped_early"] and adv.recommendation["contract"] == "pass"
    assert adv.table.n.tolist() == [FIRST_LOOK]  # the miserie row shows its own n


def test_the_bar_says_when_the_answer_is_settled(compiled_kernels, capsys):
    """A run the rule stops ends its notes with the one that says so (the bar itself stays at "at most ... left")."""
    adv = advise(HAND, "eldest", "7S", samples=1000, seed=11, n_jobs=1, contracts=["miserie"], progress=True)
    last = [line for line in capsys.readouterr().err.splitlines() if line.startswith("after ")][-1]
    assert adv.meta["stopped_early"] and last.startswith(f"after {adv.meta['deals']} sampled deals: pass leads ")
    assert last.endswith(" at P 1.000: settled, the run stops"), last


def test_without_the_stop_rule_every_row_has_every_deal(compiled_kernels):
    adv = advise(HAND, "eldest", "7S", samples=70, seed=2, n_jobs=1, contracts=["miserie"], progress=False, stop=False)
    assert adv.meta["deals"] == 70 and not adv.meta["stopped_early"] and (adv.table.n == 70).all()


def test_rows_of_a_fixed_partner_seat_are_asked_in_the_first_round_only(compiled_kernels):
    """A vraag with a fixed partner seat is not a bid: it cannot change the recommendation. Asked only with
    ``partner_rows`` (the CLI's --all), and then on the first round only; every other number stays the same."""
    kwargs = {"seed": 11, "contracts": ["vraag"], "progress": False, "n_jobs": 1}
    adv = advise(HAND, "eldest", "7S", samples=100, partner_rows=True, **kwargs)
    t = adv.table
    fixed_seat = t[(t.contract == "vraag") & (t.partner != "accepting")]
    assert len(fixed_seat) == 3 and (fixed_seat.n == ROUND_FIRST).all()
    assert adv.meta["deals"] == 100  # the run itself went on (vraag, in contention throughout, still too wide)
    plain = advise(HAND, "eldest", "7S", samples=100, **kwargs)
    assert list(plain.table.partner) == ["accepting"] and not plain.meta["partner_rows"]
    assert _records(plain.table) == _records(t[t.partner == "accepting"]) and plain.bids.equals(adv.bids)
    assert "not asked: a vraag with a fixed partner seat" in plain.format_table()
    assert "not asked" not in adv.format_table() and "second seat (1)" in adv.format_table(show_all=True)
    first = advise(HAND, "eldest", "7S", samples=ROUND_FIRST, stop=False, partner_rows=True, **kwargs).table
    same = first[(first.contract == "vraag") & (first.partner != "accepting")].reset_index(drop=True)
    assert _records(fixed_seat.reset_index(drop=True)) == _records(same)


def test_rows_of_a_fixed_partner_seat_stop_with_vraag(compiled_kernels):
    """They are information about vraag's bid: once it is out of contention (here at the first look: three aces
    oblige troel, RULES.md 1.4) they are no longer asked, as its own questions are not."""
    adv = advise("S:A86 H:A8 D:QT98 C:AKT8", "eldest", "3H", samples=64, seed=1, n_jobs=1, progress=False,
                 contracts=["vraag", "troel"], partner_rows=True)  # fmt: skip
    t = adv.table
    fixed_seat = t[(t.contract == "vraag") & (t.partner != "accepting")]
    assert len(fixed_seat) == 3 and (fixed_seat.n == FIRST_LOOK).all(), fixed_seat
    assert adv.meta["deals"] >= ROUND_FIRST and (t[t.contract == "troel"].n == adv.meta["deals"]).all()


def test_pair_answers_agree_with_the_solver_for_every_partner_seat(compiled_kernels):
    """The accepting seat's pair answer comes from its exact count; the others from a target test."""
    from wiezen_sim.analysis.advise.dd_table import dd_batch
    from wiezen_sim.analysis.advise.deals import sample_hands
    from wiezen_sim.cards import card_suit
    from wiezen_sim.parallel import sample_seeds
    from wiezen_sim.rules.dealing import check_position
    from wiezen_sim.rules.ruleset import get_rules
    from wiezen_sim.solvers.dd import DDSolver
    from wiezen_sim.vocabulary import ELDEST, Objective

    mask, p, turned = check_position("S:Q6 H:KJ74 D:A852 C:J93", "second", "5H")
    rules, seeds = get_rules("tempelaere"), sample_seeds(3, 12)
    res = dd_batch(seeds, mask, p, turned, rules, 4.0)
    solver, trump = DDSolver(tt_mb=16), card_suit(turned)
    accepted = 0
    for i, word in enumerate(seeds):
        hands = sample_hands(word, mask, p, turned)
        for q in [(p + k) % 4 for k in (1, 2, 3)]:
            expected = solver.can_make(hands, trump, ELDEST, 1 << p | 1 << q, Objective.MAX, rules.target("vraag"))
            assert bool(res["pair_ok"][i, q]) == expected, (i, q)
        accepted += int(res["accepted"][i] >= 0)
    assert 0 < accepted < len(seeds)  # both cases (someone accepts, nobody does) are checked


def test_a_dominated_discard_stops_and_a_close_one_stays():
    rng = np.random.default_rng(1)
    best = rng.random(64) < 0.8
    close = best ^ (rng.random(64) < 0.1)  # differs on a few deals
    far = best & (rng.random(64) < 0.1)  # made on a few of the best's deals only
    made = np.column_stack([far, best, close, np.zeros(64, bool)])
    assert contending_discards(made, (True, True, True, True)) == (False, True, True, False)
    assert contending_discards(made, (True, True, False, True)) == (False, True, False, False)  # never comes back


@pytest.mark.parametrize("contracts", [["solo", "kleine_miserie"], ["vraag", "abondance_in_troef"]])
def test_played_rows_of_a_contract_dropped_early(compiled_kernels, contracts):
    """Played (not double-dummy) options: a contract no longer asked keeps the rows of its own first deals.

    A hopeless contract drops out after the first round; the deals after it hold no trick counts
    for it, and its rows are built from the deals it was asked on, as with ``dd``.
    """
    kwargs = {"samples": 100, "seed": 11, "method": "heuristic", "contracts": contracts, "progress": False}
    adv = advise(HAND, "eldest", "7S", n_jobs=1, **kwargs)
    n = dict(zip(adv.table.contract, adv.table.n, strict=False))
    assert adv.meta["deals"] == 100 and n[contracts[1]] == FIRST_LOOK  # dropped after the first round
    kwargs = {**kwargs, "samples": FIRST_LOOK, "contracts": [contracts[1]], "stop": False}
    fixed = advise(HAND, "eldest", "7S", n_jobs=1, **kwargs)
    got = adv.table.loc[adv.table.contract == contracts[1], list(fixed.table.columns)].reset_index(drop=True)
    assert _records(got) == _records(fixed.table)


def test_an_option_equal_to_the_best_on_every_deal_does_not_keep_the_run_going():
    rng = np.random.default_rng(1)
    best = rng.normal(10, 5, 64)
    options = [("abondance", best, 0.01), ("pass", np.zeros(64), 0.0), ("abondance_in_troef", best.copy(), 0.01)]
    keep, settled, _, _ = in_contention(options, 0)
    assert keep == {"abondance", "abondance_in_troef"} and settled
    almost = best.copy()
    almost[0] -= 1.0  # one deal differs: a real runner-up, too close to call
    keep, settled, _, _ = in_contention([*options[:2], ("abondance_in_troef", almost, 0.01)], 0)
    assert keep == {"abondance", "abondance_in_troef"} and not settled


def test_a_vraag_nobody_is_left_to_accept_is_no_runner_up(compiled_kernels):
    """The dealer's vraag after three passes settles as pass on every deal: the recommendation's runner-up is the
    next option that differs, so the verdict calls no close call (a fresh user's report: "probability 0.50 only")."""
    adv = advise("S:8642 H:T53 D:974 C:J95", "dealer", "9D", samples=ROUND_FIRST, seed=1, n_jobs=1, progress=False)
    vraag = adv.bids[adv.bids.contract == "vraag"]
    assert adv.recommendation["contract"] == "pass" and len(vraag) == 1 and (vraag.ev_units == 0).all()
    assert vraag.pays_as_pass.all() and not adv.bids[adv.bids.contract != "vraag"].pays_as_pass.any()
    assert adv.runner_up is not None and adv.runner_up["contract"] != "vraag"
    assert adv.p_order >= 0.99 and "close call" not in adv.verdict()
    # a dropped bid whose mean over its 8 deals is above the recommendation's: listed after it, not "pays as pass"
    bids = adv.bids.copy()
    solo = (bids.contract == "solo").to_numpy()
    bids.loc[solo, ["ev_units", "table_p_success"]] = [5.0, 0.5]
    shown = dataclasses.replace(adv, bids=bids)
    assert shown.verdict().startswith("pass: yes") and "solo ♦: no, +5.0 units" in shown.verdict()
    assert "pays as pass" in shown.verdict() and "solo ♦: pays" not in shown.verdict()
    # a bid that pays as pass, dropped after fewer deals: its value is pass's over those deals, and the verdict says
    # on how many next to "pays as pass" (a new user read "+0.6 units" against pass's "+2.38" as a contradiction)
    dropped = adv.bids.copy()
    vraag_row = (dropped.contract == "vraag").to_numpy()
    dropped.loc[vraag_row, ["n", "ev_units"]] = [8, 0.6]
    assert "vraag ♦: pays as pass over its 8 deals, +0.6 units" in dataclasses.replace(adv, bids=dropped).verdict()


KLEINE_HAND = "S:T5 H:8432 D:7532 C:642"  # a miserie candidate (issue 18), its discards made on some deals


def test_kleine_answers_with_the_table_kept_across_candidates(compiled_kernels):
    """dd_batch keeps the no-trump table across a deal's kleine miserie candidates: every answer equals a
    fresh solver's, and the solver empties its table for new deals again afterwards."""
    from wiezen_sim.analysis.advise.dd_table import dd_batch, kleine_candidates, solver_for
    from wiezen_sim.analysis.advise.deals import sample_hands
    from wiezen_sim.parallel import sample_seeds
    from wiezen_sim.rules.dealing import check_position
    from wiezen_sim.rules.ruleset import get_rules
    from wiezen_sim.solvers.dd import DDSolver
    from wiezen_sim.solvers.players import highest_discard
    from wiezen_sim.vocabulary import ELDEST, NO_TRUMP, Objective

    mask, p, turned = check_position(KLEINE_HAND, "third", "QD")
    rules, seeds = get_rules("tempelaere"), sample_seeds(5, 10)
    res = dd_batch(seeds, mask, p, turned, rules, 4.0, wanted=frozenset({"kleine_miserie"}))
    assert not solver_for(NO_TRUMP).keep_table
    candidates = kleine_candidates(mask)
    for i, word in enumerate(seeds):
        hands = sample_hands(word, mask, p, turned)
        after = np.array([int(h) & ~(1 << highest_discard(int(h))) for h in hands], dtype=np.int64)
        for j, c in enumerate(candidates):
            after[p] = mask & ~(1 << c)
            expected = DDSolver(tt_mb=16).can_make(after, NO_TRUMP, ELDEST, 1 << p, Objective.MIN, 0)
            assert bool(res["kleine"][i, j]) == expected, (i, c)
    assert 0 < res["kleine"].sum() < res["kleine"].size  # both answers are checked
