"""The table's vocabulary (vocabulary.py): seat, trump and objective pairs round-trip; bad input
says what the numbers mean; the contract table decides success by its objective (RULES.md 1.3)."""

import numpy as np
import pytest

from wiezen_sim.rules.contracts import CONTRACTS, contract_spec, succeeded
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.vocabulary import (
    NO_TRUMP,
    SEAT_NAMES,
    SEATS,
    Objective,
    is_whole,
    objective_name,
    parse_objective,
    parse_seat,
    parse_trump,
    seat_name,
    seat_names,
    trump_name,
)


def test_wiezen_seats():
    assert SEATS == 4 and SEAT_NAMES == ("eldest", "second", "third", "dealer")
    assert parse_seat("eldest") == 0 and parse_seat("dealer") == 3


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seat_pair_round_trips(players):
    names = seat_names(players)
    assert len(names) == players and names[0] == "eldest" and names[-1] == "dealer"
    for seat in range(players):
        name = seat_name(seat, players)
        assert parse_seat(name, players) == seat
        assert parse_seat(name.upper(), players) == seat
        assert parse_seat(seat, players) == seat
        assert parse_seat(str(seat), players) == seat
        assert parse_seat(np.int64(seat), players) == seat


@pytest.mark.parametrize(
    "seat,players,message",
    [
        (4, 4, "0 = eldest (left of the dealer) .. 3 = dealer"),
        (-1, 4, "0 = eldest"),
        ("north", 4, "names eldest, second, third, dealer"),
        ("third", 3, "names eldest, second, dealer"),
        ("5", 5, "0 = eldest (left of the dealer) .. 4 = dealer"),
        (True, 4, "unknown seat True"),
        ("", 4, "unknown seat ''"),
        ("٣", 4, "unknown seat"),  # a non-ASCII digit
    ],
)
def test_bad_seat_says_what_the_numbers_mean(seat, players, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_seat(seat, players)
    if isinstance(seat, int):
        with pytest.raises(ValueError, match="0 = eldest"):
            seat_name(seat, players)


def test_trump_pair_round_trips():
    for trump in (0, 1, 2, 3, NO_TRUMP):
        assert parse_trump(trump_name(trump)) == trump
        assert parse_trump(trump) == trump
    assert [trump_name(t) for t in (0, 1, 2, 3, None)] == ["S", "H", "D", "C", "NT"]


@pytest.mark.parametrize(
    "text,trump", [("s", 0), (" H ", 1), ("♦", 2), ("C", 3), ("nt", None), ("none", None), ("-", None), ("SA", None)]
)
def test_trump_spellings(text, trump):
    assert parse_trump(text) == trump


@pytest.mark.parametrize("bad", [-1, 4, True, "X", "SH", "", 1.0])
def test_bad_trump(bad):
    with pytest.raises(ValueError, match="None / NT for no trump"):
        parse_trump(bad)


def test_objective_pair_round_trips():
    for objective, k in [(Objective.MAX, 0), (Objective.MIN, 0)] + [(Objective.EXACT, k) for k in range(14)]:
        assert parse_objective(objective_name(objective, k)) == (objective, k)
    assert parse_objective("exact", 3) == (Objective.EXACT, 3)
    assert parse_objective(Objective.EXACT, 1) == (Objective.EXACT, 1)
    assert parse_objective(" MAX ") == (Objective.MAX, 0)
    assert parse_objective("max", 0) == (Objective.MAX, 0)  # the k it returned goes back in
    assert parse_objective("exact:2", 2) == (Objective.EXACT, 2)


@pytest.mark.parametrize(
    ("objective", "k"), [("max", 5), ("min", 1), ("max", True), ("exact:1", 2), ("exact:0", False)]
)
def test_objective_and_k_that_disagree_are_refused(objective, k):
    """A k with max or min (a target?) or an exact:K with another k was ignored without a word."""
    with pytest.raises(ValueError, match=r"takes no trick count|ask for different trick counts"):
        parse_objective(objective, k)


@pytest.mark.parametrize("bad,k", [("most", None), ("exact", None), ("exact:14", None), ("exact:x", None),
                                   ("exact:1_0", None), ("exactly", None), ("exact", 14)])  # fmt: skip
def test_bad_objective(bad, k):
    with pytest.raises(ValueError, match="objective"):
        parse_objective(bad, k)


@pytest.mark.parametrize("bad", ["exact:-1", "exact:x", "exact:14"])
def test_a_bad_trick_count_names_the_range(bad):
    with pytest.raises(ValueError, match=r"trick count K in 0\.\.13"):
        parse_objective(bad)


def test_contract_success_follows_the_rules_page():
    """RULES.md 1.3: vraag and troel 8, solo 5, abondance 9, solo slim all 13 (at least);
    the misère family no trick, pico exactly one. One call per trick count and per array."""
    made = {
        "vraag": lambda t: t >= 8,
        "solo": lambda t: t >= 5,
        "kleine_miserie": lambda t: t == 0,
        "pico": lambda t: t == 1,
        "abondance": lambda t: t >= 9,
        "abondance_in_troef": lambda t: t >= 9,
        "miserie": lambda t: t == 0,
        "troel": lambda t: t >= 8,
        "open_miserie": lambda t: t == 0,
        "solo_slim": lambda t: t == 13,
    }
    assert set(made) == set(CONTRACTS)
    tricks = np.arange(14)
    for name, rule in made.items():
        spec = contract_spec(name)
        assert [succeeded(spec, int(t)) for t in tricks] == [rule(t) for t in tricks], name
        assert succeeded(spec, tricks).tolist() == [rule(t) for t in tricks], name
    # a target from the rules or the deal (vraag for 9, a troel free lead, an abondance level)
    assert succeeded(contract_spec("vraag"), np.array([8, 9]), 9).tolist() == [False, True]
    assert succeeded(contract_spec("troel"), np.array([8, 8]), np.array([8, 9])).tolist() == [True, False]


def test_the_solver_reads_the_one_no_trump_convention(compiled_kernels):
    solver = DDSolver(tt_mb=1)
    deal = "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"
    assert solver.solve(deal, None, 0, (0, 2)) == solver.solve(deal, "NT", 0, (0, 2)) == 4
    assert solver.solve(deal, "S", 1, (1, 3)) == solver.solve(deal, 0, 1, (1, 3))
    with pytest.raises(ValueError, match="unknown trump -1"):
        solver.solve(deal, -1, 0, (0, 2))
    # can_make asks the contract's question: at least, at most or exactly the target
    assert solver.can_make(deal, None, 0, (0, 2), Objective.MAX, 4)
    assert not solver.can_make(deal, None, 0, (0, 2), Objective.MIN, 3)
    assert solver.can_make(deal, None, 0, (0, 2), Objective.EXACT, 4)
    assert not solver.can_make(deal, None, 0, (1, 3), Objective.EXACT, 1)


@pytest.mark.parametrize(
    ("value", "low", "high", "whole"),
    [
        (3, None, None, True),
        (np.int8(3), 0, 3, True),
        (-1, 0, None, False),
        (0, 0, None, True),
        (14, 0, 13, False),
        (13, 0, 13, True),
        (True, 0, 1, False),
        (2.0, None, None, False),
        ("2", None, None, False),
        (None, None, None, False),
        (10**30, 1, None, True),
        (10**30, 1, 10**6, False),
    ],
)
def test_is_whole(value, low, high, whole):
    """Whole numbers: ints and numpy integers within the bounds; bools, floats, strings never."""
    assert is_whole(value, low, high) is whole
