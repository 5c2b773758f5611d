"""The advise suite benchmark (issue 18): its positions and its instrumented contract table."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from experiments.benchmarks.advise_suite import TimedSolver, advise_internals, question_kind
from experiments.benchmarks.hand_suite import SUITE, suite_positions
from wiezen_sim.cards import card_name, hand_name
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.vocabulary import DEALER


@pytest.fixture(scope="module")
def suite():
    return suite_positions(18)


def test_suite_covers_every_seat_and_turns_a_card_of_the_dealer(suite):
    positions = suite
    assert len(positions) >= 100
    random = Counter(p.seat for p in positions if p.cls.startswith("random_"))
    assert sum(random.values()) >= 40 and sorted(random) == [0, 1, 2, 3]
    for p in positions:  # the turned card lies in the dealer's hand (RULES.md 1.2)
        assert check_position(hand_name(p.hand), p.seat, card_name(p.turned)) == (p.hand, p.seat, p.turned)
        assert bool(p.hand >> p.turned & 1) == (p.seat == DEALER)


def test_a_class_draws_the_same_positions_whatever_else_is_selected(suite):
    alone = suite_positions(18, ["pico"])
    assert alone == [p for p in suite if p.cls == "pico"]
    assert alone != suite_positions(19, ["pico"])
    assert len(alone) == next(c.count for c in SUITE if c.name == "pico")
    with pytest.raises(ValueError, match="unknown hand classes nope"):
        suite_positions(18, ["nope"])


def test_solo_candidates_turn_their_long_suit():
    for p in suite_positions(18, ["solo_top", "solo_no_top"]):
        suit = p.turned >> 4
        assert 5 <= ((p.hand >> (16 * suit)) & 0xFFFF).bit_count() <= 6


# cheap positions: their first two deals of suite seed 18 take under 0.3 CPU s each with these 8 MB tables
# (misere_low/0's second deal, dealt after the seats before the dealer pass, holds a miserie question of 137 CPU s)
@pytest.mark.parametrize("name", ["troel_3_aces/0", "random_third/0", "misere_low/1"])
def test_timed_table_asks_what_advise_asks_and_every_question_is_classified(compiled_kernels, suite, name):
    sample_deal, ask_table, ask_bids, tt_mb, _, deal_seeds = advise_internals()
    pos = next(p for p in suite if p.name == name)
    rules = get_rules()
    plain = {t: DDSolver(tt_mb=8) for t in tt_mb}
    log: list = []
    timed = {t: TimedSolver(8, 10**9, log) for t in tt_mb}
    for word in deal_seeds(pos, 2, 18, rules):  # the suite's first two deals of the hand
        expected = ask_table(word, pos, rules, plain)
        expected_bids = ask_bids(word, pos, rules, plain, expected)
        log.clear()
        got = ask_table(word, pos, rules, timed)
        assert all(np.array_equal(expected[k], got[k]) for k in expected)
        table = len(log)
        got_bids = ask_bids(word, pos, rules, timed, got)  # the bid values, through the same timed solvers
        assert expected_bids.keys() == got_bids.keys() and all(
            np.array_equal(expected_bids[k], got_bids[k]) for k in expected_bids
        )
        del log[table:]  # the bid values' questions are their own family, whatever their kind
        kinds = Counter(question_kind(q) for q in log)
        assert "other" not in kinds
        assert {"alone_exact", "abondance_test", "slim_test", "misere", "kleine", "pico"} <= set(kinds)
        assert "vraag_test" not in kinds  # a vraag with a fixed partner seat: only with advise's partner_rows
        assert ("troel" in kinds) == name.startswith("troel")
        assert all(q.seconds >= 0 and q.counters["trick_nodes"] > 0 for q in log)
        assert len(sample_deal(word, pos)) == 4


def test_a_question_past_the_node_limit_is_capped_not_answered(compiled_kernels):
    internals = advise_internals()
    ask_table, tt_mb = internals.ask_table, internals.tt_mb
    pos = suite_positions(18, ["random_second"])[0]
    word = np.random.SeedSequence(5).generate_state(1, dtype=np.uint64)[0]
    log: list = []
    ask_table(word, pos, get_rules(), {t: TimedSolver(1, 1, log) for t in tt_mb})
    assert log and all(q.capped and q.answer is None for q in log if q.counters["trick_nodes"] > 1)
    assert any(q.capped for q in log)


def test_advise_runs_stops_a_hand_at_its_cpu_budget_and_reports_it_as_a_lower_bound(compiled_kernels, suite):
    import signal

    from experiments.benchmarks.advise_runs import run_position, summary

    slow = next(p for p in suite if p.name == "random_eldest/8")  # its default run takes about 40 CPU s
    out = run_position(slow, budget_s=0.3, commit="c")
    # the CPU timer counts in clock ticks (4-10 ms), process_time exactly: it may fire a tick early
    assert out["over_budget"] and out["cpu_s"] >= 0.3 - 0.02 and "deals" not in out and out["git_commit"] == "c"
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # the timer is off again
    fast = {"name": "a", "hand": "", "seat": "eldest", "turned": "7H", "git_commit": "c", "over_budget": False,
            "cpu_s": 4.0, "deals": 32, "dds_solves": 2.0}  # fmt: skip
    s = summary([out, fast], start_s=1.0)
    assert s["over_budget"] == ["random_eldest/8"] and s["max_dds_solves"] == 2.0  # not timed: not among the costs
    assert s["p50_s"] == pytest.approx((1.0 + out["cpu_s"] / 2 + 1.0 + 4.0 / 2) / 2)  # start-up + CPU over 2 workers


def test_advise_wall_stops_a_hand_at_its_timeout_and_leaves_no_process(suite):
    """The measured CLI run (advise_wall.py): past its timeout the run is stopped, counted at the timeout (a lower
    bound) and none of its processes (the CLI, its loky workers) outlives it."""
    import contextlib
    import os
    import time

    import psutil

    from experiments.benchmarks.advise_wall import run_position, summary

    slow = next(p for p in suite if p.name == "random_eldest/8")
    before = {p.pid for p in psutil.process_iter()}
    out = run_position(slow, timeout=1.0, commit="c")
    assert out["timed_out"] and out["wall_s"] == 1.0 and "deals" not in out
    time.sleep(0.5)
    ours = os.getsid(0)  # the run's processes have a session of their own; other tests' processes share ours
    left = []
    for p in psutil.process_iter(["cmdline"]):
        with contextlib.suppress(ProcessLookupError):
            if p.pid not in before and "wiezen_sim" in " ".join(p.info["cmdline"] or []) and os.getsid(p.pid) != ours:
                left.append(p)
    assert not left, left
    fast = {"name": "a", "hand": "", "seat": "eldest", "turned": "7H", "git_commit": "c", "timed_out": False,
            "wall_s": 4.0, "deals": 32, "wall_over_dds": 3.0}  # fmt: skip
    s = summary([out, fast])
    assert s["timed_out"] == ["random_eldest/8"] and s["max_s"] == 4.0 and s["within_8_s"] == 2
    assert s["p50_wall_over_dds"] == 3.0  # a stopped run has no ratio
