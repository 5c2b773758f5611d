"""The advisor (issue 4): certain outcomes, reproducibility, settlement, bad input."""

import json
import re

import numpy as np
import pytest

from wiezen_sim.analysis.advise import advise, sample_hands
from wiezen_sim.cards import FULL_DECK, card_count, parse_card, parse_hand
from wiezen_sim.cli import main
from wiezen_sim.parallel import sample_seeds
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.rules.payments import settle
from wiezen_sim.rules.ruleset import get_rules

SPADES = "S:AKQJT98765432"
LOW = "S:5432 H:432 D:432 C:432"


def row(table, contract, trump=None):
    """The one row of ``contract`` (in ``trump``); for vraag the acceptance-weighted row."""
    rows = table[(table.contract == contract) & (table.trump.fillna("-") == (trump or "-"))]
    if contract == "vraag":
        rows = rows[rows.partner == "accepting"]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def test_sampled_deals_respect_knowledge():
    hand = parse_hand("S:AKQJ98 H:AK2 D:A3 C:52")
    turned = parse_card("7H")
    for word in sample_seeds(3, 50):
        hands = [int(h) for h in sample_hands(word, hand, 1, turned)]
        assert hands[1] == hand and hands[3] >> turned & 1
        assert [card_count(h) for h in hands] == [13] * 4 and sum(hands) == FULL_DECK


def test_thirteen_spades_eldest():
    t = advise(SPADES, "eldest", "2H", samples=12, seed=1, n_jobs=1).table
    assert row(t, "solo_slim", "S").p_success == 1.0
    assert row(t, "abondance", "S").p_success == 1.0
    # eldest must lead a spade and nobody can follow: every trick is won
    assert row(t, "miserie").p_success == 0.0 and row(t, "pico").p_success == 0.0
    assert row(t, "open_miserie").p_success == 0.0 and row(t, "kleine_miserie").p_success == 0.0


def test_thirteen_spades_dealer_makes_miserie():
    t = advise(SPADES, "dealer", "AS", samples=12, seed=2, n_jobs=1).table
    assert row(t, "miserie").p_success == 1.0 and row(t, "open_miserie").p_success == 1.0
    assert row(t, "solo_slim", "S").p_success == 1.0


def test_lowest_cards_make_miserie():
    """2-3-4 of every suit plus the 5 of spades: the declarer never wins a trick.

    Every card the others hold is higher than the declarer's cards of its suit (they
    hold 5..A, or 6..A in spades), so whatever they lead the declarer follows lower
    or discards, and with no trump a discard never wins. If the declarer leads first,
    the others hold at least nine cards of every suit, so someone follows higher.
    Hence 0 tricks: miserie always succeeds and pico (exactly one) never does.
    """
    for seat in ("eldest", "third"):
        t = advise(LOW, seat, "AH", samples=12, seed=3, n_jobs=1).table
        assert row(t, "miserie").p_success == 1.0 and row(t, "open_miserie").p_success == 1.0
        assert row(t, "pico").p_success == 0.0
        assert row(t, "kleine_miserie").p_success == 1.0


def test_same_seed_same_numbers_any_jobs():
    a = advise("S:AKQJ98 H:AK2 D:A3 C:52", "second", "7H", samples=16, seed=9, n_jobs=1, batch_size=5).to_dict()
    b = advise("S:AKQJ98 H:AK2 D:A3 C:52", "second", "7H", samples=16, seed=9, n_jobs=2, batch_size=3).to_dict()
    assert json.dumps(a) == json.dumps(b)


def test_seat_by_number_or_name(capsys):
    """Seat 3 is the dealer (numbers count from the dealer's left): the same advice either way."""
    by_name = advise(SPADES, "dealer", "AS", samples=4, seed=2, n_jobs=1).to_dict()
    for seat in (3, "3", "Dealer"):
        assert json.dumps(advise(SPADES, seat, "AS", samples=4, seed=2, n_jobs=1).to_dict()) == json.dumps(by_name)
    argv = ["advise", SPADES, "--turned", "AS", "--samples", "4", "--seed", "2", "--jobs", "1", "--quiet"]
    outputs = []
    for seat in ("dealer", "3"):
        assert main([*argv, "--seat", seat, "--format", "json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and json.loads(outputs[0])["seat"] == "dealer"


def test_ev_matches_settlement():
    rules = get_rules()
    advice = advise("S:AKQJ98 H:AK2 D:A3 C:52", "eldest", "7H", samples=16, seed=4, n_jobs=1)
    for (_, r), (_, dist) in zip(advice.table.iterrows(), advice.distribution.iterrows(), strict=True):
        if r.contract not in ("solo", "abondance", "miserie", "open_miserie") or dist.isna().all():
            continue
        ev = sum(p * settle(rules, r.contract, (0,), t)[0] for t, p in dist.items() if p > 0)
        assert ev == pytest.approx(r.ev_units)


def test_troel_row_with_three_aces():
    advice = advise("S:AK2 H:A32 D:A32 C:5432", "second", "7C", samples=8, seed=5, n_jobs=1)
    assert "troel" in set(advice.table.contract)
    assert advice.recommendation["contract"] in ("troel", "open_miserie", "solo_slim")


def test_presets_omit_switched_off_contracts():
    t = advise(LOW, "eldest", "AH", rules="classic", samples=4, seed=1, n_jobs=1).table
    assert not {"kleine_miserie", "pico"} & set(t.contract)


@pytest.mark.parametrize(
    "argv,message",
    [
        (["S:AKQJT9876543", "--turned", "2H"], "12 cards"),
        (["S:AKQJT98765432", "H:2", "--turned", "3H"], "14 cards"),
        (["S:AKQJT98765432", "S:2", "--turned", "2H"], "duplicated card 2S"),
        (
            ["S:AKQJT98765432", "--turned", "AS"],
            "is in your hand, but it lies in the dealer's (you are not the dealer)",
        ),
        (["S:AKQJT98765432", "--seat", "dealer", "--turned", "2H"], "dealer's own hand"),
        (["S:AKQJT98765432", "--seat", "north", "--turned", "2H"], "unknown seat 'north'"),
        (["S:AKQJT98765432", "--seat", "4", "--turned", "2H"], "0 = eldest (left of the dealer) .. 3 = dealer"),
        (
            ["S:AKQJT98765432", "--turned", "2H", "--rules", "bogus"],
            "unknown rules preset 'bogus' (neither a preset nor",
        ),
        (["S:AKQJT98765432", "--turned", "2H", "--samples", "0"], "argument --samples: must be from 1 to"),
        (
            ["S:AKQJT98765432", "--turned", "2H", "--method", "pimc", "--samples", "0"],
            "must be from 1 to 10000000 (at most 10,000 with a PIMC method), got 0",
        ),
        (["S:AKQJT98765432", "--turned", "2X"], "not a card"),
        (["S:AKQJT98765432"], "--turned"),
        (["S:AKQJT98765432", "--turned", "2H", "--jobs", "0"], "argument --jobs: must be a worker count"),
        (["S:AKQJT98765432", "--turned", "2H", "--worlds", "8"], "--worlds is for PIMC play"),
        (
            ["S:AKQJT98765432", "--turned", "2H", "--samples", "2", "--out", "/nonexistent/dir/x.csv"],
            "not a file in an existing folder",
        ),
        (["S:AKQJT98765432", "--turned", "2H", "--samples", "2", "--out", ""], "argument --out: '' names no file"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, argv, message):
    try:
        code = main(["advise", *argv, "--quiet"])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


@pytest.mark.parametrize("argv", [["--turned", "2C"], ["--seat", "dealer"], ["--seat", "2", "--turned", "7H"]])
def test_seat_or_turned_without_a_hand_is_refused(capsys, argv):
    """An empty hand (say an unquoted empty $HAND) with --seat or --turned must not quietly
    advise on the built-in example at that seat."""
    assert main(["advise", "--samples", "2", "--quiet", *argv]) == 2
    err = capsys.readouterr().err
    assert "given but no hand" in err and err.count("\n") == 1, err


def test_a_huge_argument_is_not_echoed_whole(capsys, tmp_path):
    assert main(["advise", "S:" + "A" * 100_000, "--turned", "7H", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "duplicated card AS in 'S:AAA" in err and "…'" in err and len(err) < 400, err
    path = str(tmp_path / ("A" * 100_000))  # a path is printed unquoted
    assert main(["advise", "S:AKQJ98 H:AK2 D:K3 C:52", "--turned", "7H", "--quiet", "--out", path]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "…: File name too long" in err and len(err) < 400, err


def test_a_suit_given_twice_is_refused(capsys):
    """``D:K3 … D:-`` is a slip (which holding is meant?), not a void: refused, not merged."""
    assert main(["advise", "S:AKQJ98 H:AK2 D:K3 C:52 D:-", "--turned", "7H", "--quiet"]) == 2
    assert "suit D given twice" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--rules", "bogus"], ["--worlds", "4"]])
def test_example_bad_input_one_line_without_quiet(capsys, argv):
    """No hand (the built-in example) and no --quiet: the example's notice must not come
    before the error line."""
    assert main(["advise", "--samples", "2", *argv]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_json_and_example(capsys):
    assert main(["advise", "--samples", "4", "--seed", "1", "--jobs", "1", "--format", "json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"hand", "seat", "turned", "rules", "samples", "seed", "method", "contracts", "recommendation"}
    assert {"contract", "trump", "p_success", "ci_low", "ci_high", "mean_tricks", "ev_units", "n"} <= set(
        out["contracts"][0]
    )
    assert out["samples"] == 4 and out["seed"] == 1


def test_check_position_dealer_holds_turned():
    mask, seat, card = check_position(SPADES, "dealer", "AS")
    assert seat == 3 and mask >> card & 1
    assert np.uint64(sample_seeds(1, 1)[0]) > 0


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"turned": -1}, "turned: -1 is not a card's bit number"),  # was "negative shift count"
        ({"turned": 2**20}, "turned: 1048576 is not a card's bit number"),  # was an OverflowError
        ({"hand": 8191}, "hand: 8191 is not a card mask (bits outside the 52 cards)"),  # was "needs 13, got 13"
    ],
)
def test_the_python_api_refuses_a_number_that_is_no_card_or_hand(kwargs, message):
    args = {"hand": "S:AKQJ98 H:AK2 D:K3 C:52", "seat": "eldest", "turned": "7H", **kwargs}
    with pytest.raises(ValueError, match=re.escape(message)):
        advise(**args, samples=4, n_jobs=1)


@pytest.mark.parametrize("kwargs", [{"turned": True}, {"turned": None}, {"hand": ["AS"]}, {"hand": None}])
def test_the_python_api_refuses_a_hand_or_turned_card_of_another_type(kwargs):
    """A notebook user's types (a tester's list): each was a bare TypeError or a wrong card ('not a card mask')."""
    args = {"hand": "S:AKQJ98 H:AK2 D:K3 C:52", "seat": "eldest", "turned": "7H", **kwargs}
    with pytest.raises(
        TypeError, match=f"^{next(iter(kwargs))}: .*, got {re.escape(repr(next(iter(kwargs.values()))))}$"
    ):
        advise(**args, samples=4, n_jobs=1)


def test_troel_asked_of_a_hand_without_three_aces_is_an_error():
    with pytest.raises(ValueError, match="troel needs three or four aces"):
        advise("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H", samples=4, seed=1, n_jobs=1, contracts=["troel"])


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"contracts": "abondance"}, "contracts must be a non-empty list of contract names, got 'abondance'"),
        ({"contracts": []}, "contracts must be a non-empty list"),
        ({"samples": 2.5}, "samples must be a positive whole number, got 2.5"),
        ({"samples": True}, "samples must be a positive whole number, got True"),
        ({"seed": 1.5}, "seed must be a non-negative integer, got 1.5"),
        ({"accept_tricks": float("nan")}, "accept_tricks must be a number of playing tricks from 0 to 13, got nan"),
        ({"accept_tricks": True}, "accept_tricks must be a number of playing tricks from 0 to 13, got True"),
        ({"rules": "classic", "contracts": ["pico", "miserie"]}, "pico: not played under the rules 'classic'"),
        (
            {"n_jobs": True},
            "jobs must be a worker count ≥ 1, or negative for all cores (-1) and joblib's -2, …; got True",
        ),
        ({"batch_size": 1.5}, "batch_size must be a whole number ≥ 1 (or None: adaptive), got 1.5"),
        ({"on_progress": 5}, "on_progress must be a function of the deals finished, got 5"),
        ({"rules": "levels", "contracts": ["abondance_in_troef"]}, "abondance_in_troef: not played under the rules"),
        ({"accept_tricks": 14}, "accept_tricks must be a number of playing tricks from 0 to 13, got 14"),
    ],
)
def test_the_python_api_refuses_bad_arguments_before_work(kwargs, message):
    """A notebook user's mistakes (session 21): each was a bare IndexError or TypeError, or accepted silently."""
    with pytest.raises(ValueError, match=re.escape(message)):
        advise("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H", **{"samples": 8, "n_jobs": 1, **kwargs})
