"""The double-dummy solver's public interface refuses bad input with a ValueError or TypeError that
names what is wrong, before any search (never a traceback from deep inside, nor a silently changed question)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from wiezen_sim.cards import parse_deal
from wiezen_sim.solvers.dd import DDSolver, check_position

ENDING = "N:AK2... QJ3... T94... 875..."  # three spades each
HANDS = parse_deal(ENDING, cards_per_hand=None)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([float(h) for h in HANDS], "int card mask"),  # used to be truncated to ints without a word
        (np.array(HANDS, dtype=np.float64), "int card mask"),
        ([str(h) for h in HANDS], "int card mask"),
        (["AK2...", "QJ3...", "T94...", "875..."], "a PBN deal is one string"),
        ([HANDS[0], None, HANDS[2], HANDS[3]], "int card mask"),
        (None, "PBN deal string or four int card masks"),
        (5, "PBN deal string or four int card masks"),
        (np.array([HANDS, HANDS]), "int card mask"),
    ],
)
def test_hands_that_are_not_card_masks_are_refused(hands, message):
    with pytest.raises(TypeError, match=message):
        check_position(hands, "NT", 0)


def test_a_full_deal_as_floats_is_refused_not_rounded():
    """float64 keeps 53 bits of a 62-bit mask: a full deal as floats is other cards."""
    deal = parse_deal("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3")
    assert any(int(float(h)) != h for h in deal)
    with pytest.raises(TypeError, match="int card mask"):
        DDSolver(tt_mb=1).solve(np.array(deal, dtype=np.float64), "NT", 1, (0, 2))


def test_numpy_integer_masks_are_hands():
    for dtype in (np.int64, np.uint64):
        assert check_position(np.array(HANDS, dtype=dtype), "NT", 0).tolist() == list(HANDS)


TRICK_LED = "N:K2... QJ3... T94... 875..."  # north has led the ace of spades


@pytest.mark.parametrize(
    ("trick", "error", "message"),
    [
        ([14.0], TypeError, "a name such as 'AS' or a bit number, got 14.0"),  # was read as the AS
        ([None], TypeError, "got None"),
        ("AS", TypeError, "not the string 'AS'"),  # was read as the cards 'A' and 'S'
        (None, TypeError, "a sequence of cards"),
        (np.array([[14]]), TypeError, "a name such as 'AS' or a bit number"),
    ],
)
def test_trick_cards_of_the_wrong_type_are_refused(trick, error, message):
    with pytest.raises(error, match=message):
        check_position(TRICK_LED, "NT", 0, trick)


def test_played_cards_of_the_wrong_type_are_refused():
    from wiezen_sim.solvers.dd import replay

    with pytest.raises(TypeError, match=r"got 14\.9"):  # was played as the AS
        replay(ENDING, "NT", 0, [14.9])
    with pytest.raises(TypeError, match="not the string 'AS QS'"):
        replay(ENDING, "NT", 0, "AS QS")
    with pytest.raises(TypeError, match="not the string 'AS'"):
        DDSolver(tt_mb=1).solve(ENDING, "NT", 0, (0, 2), played="AS")


def test_kleine_miserie_discards_are_named():
    from wiezen_sim.solvers.dd import solve_kleine_miserie

    deal = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    with pytest.raises(ValueError, match="seat 0 does not hold its discard 2S"):  # said "discard 2"
        solve_kleine_miserie(deal, ["2S", "5H", "6S", "7S"], 0, 0)
    with pytest.raises(TypeError, match=r"got 14\.0"):
        solve_kleine_miserie(deal, [14.0, "7S", "6S", "2S"], 0, 0)
    with pytest.raises(TypeError, match="not the string"):
        solve_kleine_miserie(deal, "AS 7S 6S 2S", 0, 0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"tt_mb": "16"}, TypeError, "tt_mb must be a number of MB, got '16'"),  # '<' not supported ...
        ({"tt_mb": None}, TypeError, "tt_mb must be a number of MB, got None"),
        ({"tt_mb": True}, TypeError, "tt_mb must be a number of MB, got True"),  # was 1 MB
        ({"tt_mb": float("nan")}, ValueError, "tt_mb must be a number of MB in"),
        ({"node_limit": 1.5}, TypeError, "whole number of trick nodes or None, got 1.5"),  # was accepted
        ({"node_limit": True}, TypeError, "got True"),  # "needed more than True trick nodes"
        ({"node_limit": "10"}, TypeError, "got '10'"),
        ({"node_limit": float("inf")}, TypeError, "got inf"),  # OverflowError at the first question
        ({"node_limit": 2**63}, ValueError, "node_limit must be 1..4611686018427387904"),  # the same
        ({"node_limit": 0}, ValueError, "node_limit must be 1.."),
    ],
)
def test_solver_settings_are_checked_when_it_is_made(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        DDSolver(**{"tt_mb": 1, **kwargs})


def test_the_largest_node_limit_answers(compiled_kernels):
    from wiezen_sim.solvers.dd import MAX_NODE_LIMIT

    assert DDSolver(tt_mb=1, node_limit=MAX_NODE_LIMIT).solve(ENDING, "NT", 0, (0, 2)) == 2
    assert DDSolver(tt_mb=1, node_limit=np.int64(10**6)).solve(ENDING, "NT", 0, (0, 2)) == 2


@pytest.mark.parametrize("target", [-1, 14, 2**63, 2**70, 1.0, True, "2", None])
def test_can_force_targets_are_numbers_of_tricks(target):
    with pytest.raises(ValueError, match=re.escape(f"target must be a number of tricks 0..13, got {target!r}")):
        DDSolver(tt_mb=1).can_force(ENDING, "NT", 0, (0, 2), target)  # 2**63: OverflowError from the kernel call


def test_can_force_reads_its_objective_as_solve_does(compiled_kernels):
    from wiezen_sim.vocabulary import Objective

    s = DDSolver(tt_mb=1)
    for objective in ("MAX", " Max", Objective.MAX):  # "MAX" was refused although solve takes it
        assert s.can_force(ENDING, "NT", 0, (0, 2), 2, objective) is True
    assert s.can_force(ENDING, "NT", 0, (0, 2), 1, "Min") is False
    with pytest.raises(ValueError, match="'max' or 'min'"):
        s.can_force(ENDING, "NT", 0, (0, 2), 1, "exact")
    assert s.can_make(ENDING, "NT", 0, (0, 2), "exact", 2) is True  # type: ignore[arg-type]


@pytest.mark.parametrize("side", [1.5, None, object()])
def test_a_side_that_is_no_seats_is_refused(side):
    from wiezen_sim.solvers.dd import parse_side

    with pytest.raises(TypeError, match="a side is its seats"):  # "'float' object is not iterable"
        parse_side(side)


def test_solve_batch_checks_its_contract_and_its_deals_argument():
    from wiezen_sim.solvers.dd import solve_batch

    with pytest.raises(ValueError, match="leader must be a seat"):  # no deals: an empty result
        solve_batch([], "NT", 9, (0, 2))
    with pytest.raises(ValueError, match="unknown trump"):
        solve_batch([], "X", 0, (0, 2))
    with pytest.raises(TypeError, match="put one PBN deal string in a list"):  # "deal 0: ... got 'N'"
        solve_batch(ENDING, "NT", 0, (0, 2))
