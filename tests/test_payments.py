"""Payments (RULES.md 1.6, 1.7): every worked example, both presets, zero-sum."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiezen_sim.rules.contracts import CONTRACTS, contract_spec
from wiezen_sim.rules.payments import add_payments, contract_value, settle, settle_ronde_pas
from wiezen_sim.rules.ruleset import PAYMENTS_DIR, PRESETS, PaymentTable, RuleSet, get_rules

T = get_rules("tempelaere")
IT = get_rules("italian")
A, B, C, D = 0, 1, 2, 3


# RULES.md 1.6 worked examples 1-8, written from the page.
def test_example_1_vraag_exactly_8():
    assert settle(T, "vraag", (A, B), 8) == [2, 2, -2, -2]


def test_example_2_vraag_10():
    assert settle(T, "vraag", (A, B), 10) == [6, 6, -6, -6]


def test_example_3_vraag_7():
    assert settle(T, "vraag", (A, B), 7) == [-4, -4, 4, 4]


def test_example_4_vraag_13_doubled():
    assert settle(T, "vraag", (A, B), 13) == [24, 24, -24, -24]


def test_example_5_solo_7():
    assert settle(T, "solo", (A,), 7) == [9, -3, -3, -3]


def test_example_6_simultaneous_pico():
    rows = [settle(T, "pico", (A,), 1), settle(T, "pico", (B,), 0), settle(T, "pico", (C,), 1)]
    assert add_payments(*rows) == [18, -30, 18, -6]


def test_example_7_abondance():
    assert settle(T, "abondance", (A,), 11) == [24, -8, -8, -8]
    assert settle(T, "abondance", (A,), 8) == [-24, 8, 8, 8]


def test_example_8_troel_9():
    assert settle(T, "troel", (A, C), 9) == [8, -8, 8, -8]


# RULES.md 1.7 worked examples
def test_ronde_pas_no_queens():
    assert settle_ronde_pas(2, [4, 3, 3, 3], [2, 2, 0, 0], 0, T) == [-8, -8, 8, 8]
    assert settle_ronde_pas(2, [4, 3, 3, 3], [1, 1, 1, 1], 0, T) == [0, 0, 0, 0]


def test_ronde_pas_last_trick_and_fewest():
    assert settle_ronde_pas(1, [4, 3, 3, 3], [1, 1, 1, 1], 2, T) == [4, 4, -12, 4]
    assert settle_ronde_pas(3, [5, 5, 3, 0], [1, 1, 1, 1], 2, T) == [-4, -4, -4, 12]
    assert settle_ronde_pas(3, [4, 3, 3, 3], [1, 1, 1, 1], 0, T) == [-12, 4, 4, 4]
    with pytest.raises(ValueError, match="1, 2 or 3"):
        settle_ronde_pas(4, [4, 3, 3, 3], [1, 1, 1, 1], 0, T)


@pytest.mark.parametrize(
    "contract,value",
    [
        ("kleine_miserie", 5),
        ("pico", 6),
        ("abondance", 8),
        ("abondance_in_troef", 8),
        ("miserie", 10),
        ("open_miserie", 16),
        ("solo_slim", 24),
    ],
)
def test_tempelaere_flat_values(contract, value):
    spec = contract_spec(contract)
    assert contract_value(T, contract, spec.target) == (True, value)


def test_solo_slim_and_misere_fail():
    assert settle(T, "solo_slim", (B,), 12) == [24, -72, 24, 24]
    assert settle(T, "miserie", (D,), 1) == [10, 10, 10, -30]
    assert settle(T, "open_miserie", (D,), 0) == [-16, -16, -16, 48]
    assert settle(T, "kleine_miserie", (A,), 0) == [15, -5, -5, -5]


def test_troel_13_doubled_and_undertricks():
    assert contract_value(T, "troel", 13) == (True, (2 + 2 * 5) * 2)
    assert contract_value(T, "troel", 6) == (False, 2 + 2 * 2)


def test_italian_preset():
    # RULES.md 1.6 "italian": vraag success 1 + 1/overtrick, failure 2 + 1/undertrick; no doubling
    assert contract_value(IT, "vraag", 10) == (True, 3)
    assert contract_value(IT, "vraag", 13) == (True, 6)
    assert contract_value(IT, "vraag", 7) == (False, 3)
    assert contract_value(IT, "solo", 9) == (True, 3)
    assert contract_value(IT, "solo", 2) == (False, 3)
    assert contract_value(IT, "kleine_miserie", 0) == (True, 10)
    assert contract_value(IT, "miserie", 0) == (True, 5)
    assert contract_value(IT, "open_miserie", 1) == (False, 20)
    assert contract_value(IT, "troel", 10) == (True, 4)
    assert contract_value(IT, "troel", 7) == (False, 2)
    assert contract_value(IT, "troel", 5) == (False, 6)


def test_abondance_levels_payments():
    same = T.replace(abondance_levels=True)
    rising = T.replace(abondance_levels=True, abondance_level_payment="rising")
    assert contract_value(same, "abondance", 11, level=11) == (True, 8)
    assert contract_value(same, "abondance", 10, level=11) == (False, 8)
    # announced level pays, not tricks actually taken
    assert [contract_value(rising, "abondance", 13, level=lv)[1] for lv in (9, 10, 11, 12)] == [8, 10, 12, 14]
    assert contract_value(rising, "abondance", 9, level=10) == (False, 10)


def test_vraag_for_9():
    v9 = get_rules("vraag9")
    assert contract_value(v9, "vraag", 8) == (False, 2)
    assert contract_value(v9, "vraag", 9) == (True, 1)
    assert contract_value(v9, "troel", 9) == (True, 2)


def test_target_override_troel_free_lead():
    assert contract_value(T, "troel", 8, target=9) == (False, 4)


def test_bad_settlements():
    with pytest.raises(ValueError, match="2 distinct"):
        settle(T, "vraag", (A,), 8)
    with pytest.raises(ValueError, match="1 distinct"):
        settle(T, "solo", (A, B), 8)
    with pytest.raises(ValueError, match="tricks must be a whole number from 0 to 12, got 13"):
        settle(T, "kleine_miserie", (A,), 13)
    with pytest.raises(ValueError, match="unknown contract"):
        settle(T, "grand", (A,), 8)
    with pytest.raises(TypeError, match="rules: a RuleSet"):
        settle("tempelaere", "solo", (A,), 8)  # was an AttributeError
    # the API refuses what the score command refused (session 22's note: the checks lived in the CLI)
    with pytest.raises(ValueError, match="pico is not played under the rules 'classic'"):
        settle(get_rules("classic"), "pico", (A,), 1)
    for target in (99, -1, 4, 7.5, True):  # a tester's `score vraag ... --target 0` paid a made vraag
        want = f"solo: target must be a whole number from 5 to 13 under the rules 'tempelaere', got {target!r}"
        with pytest.raises(ValueError, match=re.escape(want)):
            settle(T, "solo", (A,), 7, target=target)
    with pytest.raises(ValueError, match=re.escape("miserie: target must be 0 under the rules 'tempelaere', got 5")):
        settle(T, "miserie", (A,), 1, target=5)  # one trick paid as a made miserie
    assert settle(T, "miserie", (A,), 0, target=0) == settle(T, "miserie", (A,), 0)
    with pytest.raises(ValueError, match="level 10: only for abondance under abondance levels rules"):
        settle(T, "abondance", (A,), 10, level=10)  # was ignored silently
    with pytest.raises(ValueError, match=re.escape("tricks must be a whole number from 0 to 13, got 7.0")):
        settle(T, "solo", (A,), 7.0)


@given(
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from(sorted(CONTRACTS)),
    st.permutations(range(4)),
    st.integers(0, 13),
)
def test_every_settlement_is_zero_sum(preset, contract, seats, tricks):
    rules = get_rules(preset)
    spec = contract_spec(contract)
    tricks = min(tricks, spec.tricks)
    n = 2 if spec.side.value == "pair" else 1
    if contract not in rules.contracts():
        with pytest.raises(ValueError, match="is not played under the rules"):
            settle(rules, contract, tuple(seats[:n]), tricks)
        return
    payments = settle(rules, contract, tuple(seats[:n]), tricks)
    assert sum(payments) == 0
    winner = payments[seats[0]] > 0
    assert all((p > 0) != winner for i, p in enumerate(payments) if i not in seats[:n])


@given(st.lists(st.integers(0, 13), min_size=4, max_size=4), st.integers(1, 3), st.integers(0, 3))
def test_ronde_pas_zero_sum(raw, game, last):
    tricks = [*raw[:3], 0]
    total = sum(tricks[:3])
    if total > 13:
        return
    tricks[3] = 13 - total
    queens = [1, 1, 2, 0]
    assert sum(settle_ronde_pas(game, tricks, queens, last, T)) == 0


def test_payment_table_toml(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        (PAYMENTS_DIR / "tempelaere.toml")
        .read_text()
        .replace('name = "tempelaere"', 'name = "house"')
        .replace("miserie = { win = 10, lose = 10 }", "miserie = { win = 12, lose = 12 }")
    )
    table = PaymentTable.load(path)
    assert table.name == "house"
    assert contract_value(T.replace(payments=table), "miserie", 0) == (True, 12)
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(f'preset = "classic"\npayments = "{path}"\nvraag_tricks = 9\n')
    rules = get_rules(rules_file)
    assert not rules.pico and rules.vraag_tricks == 9 and rules.payments.name == "house"
    # a relative table path is read from the rules file's folder, not the current one (a tester's report)
    rules_file.write_text(f'payments = "{path.name}"\n')
    assert get_rules(rules_file).payments.name == "house"
    with pytest.raises(TypeError, match=r"rules: a preset name, a \.toml rules file or a RuleSet, got 5"):
        get_rules(5)  # was "expected str, bytes or os.PathLike object"
    bad = tmp_path / "bad.toml"
    bad.write_text("pico = true\ncolour = 'red'\n")
    with pytest.raises(ValueError, match="colour"):
        get_rules(bad)
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[contracts]\nvraag = { win = 1, lose = 1 }\n[abondance_rising]\n9 = 8\n')
    with pytest.raises(ValueError, match="missing"):
        PaymentTable.load(broken)


def test_ruleset_validation():
    with pytest.raises(ValueError, match="vraag_tricks"):
        RuleSet(vraag_tricks=10)
    with pytest.raises(ValueError, match="vraag_tricks must be 8 or 9, got True"):
        RuleSet(vraag_tricks=True)
    assert RuleSet(vraag_tricks=np.int64(9)).target("vraag") == 9  # a notebook's numpy int is a whole number
    with pytest.raises(ValueError, match="all_pass"):
        RuleSet(all_pass="shuffle")
    with pytest.raises(ValueError, match="needs abondance_levels"):
        RuleSet(abondance_suit_ranking=True)
    with pytest.raises(ValueError, match="unknown rules preset"):
        get_rules("belgian")


@pytest.mark.parametrize(
    "text,message",
    [
        ('kleine_miserie = "no"\n', "kleine_miserie must be true or false, got 'no'"),
        ("pico = 1\n", "pico must be true or false, got 1"),
        ("vraag_tricks = 8.0\n", "vraag_tricks must be 8 or 9, got 8.0"),
        ("name = 5\n", "name must be a text, got 5"),
        ("payments = 5\n", "payments in .* must be a table name, a .toml path or an inline table, got 5"),
    ],
)
def test_a_rules_file_with_a_wrong_type_is_refused(tmp_path, text, message):
    """A new user's rules files (session 21): a text or a number for a switch was read as on."""
    path = tmp_path / "rules.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        get_rules(path)


@pytest.mark.parametrize(
    "row,message",
    [
        (
            '{ win = "8", lose = 8 }',
            "contract 'abondance': win must be a whole number of units from 0 to 1000000, got '8'",
        ),
        ("{ win = 8.5, lose = 8 }", "contract 'abondance': win must be a whole number"),
        (
            "{ win = 8, lose = -8 }",
            "contract 'abondance': lose must be a whole number of units from 0 to 1000000, got -8",
        ),
        (
            "{ win = 99999999999999999999, lose = 8 }",
            "contract 'abondance': win must be a whole number of units from 0 to 1000000, got 99999999999999999999",
        ),
        ("{ win = 8, lose = 8, lose_per_trick = 1000001 }", "lose_per_trick must be a whole number of units from 0"),
        ("{ win = 8 }", "contract 'abondance' needs win and lose"),
        ("{ win = 8, lose = 8, bogus = 1 }", "contract 'abondance' needs win and lose"),
        ('{ win = 8, lose = 8, double_on_all = "yes" }', "double_on_all must be true or false"),
    ],
)
def test_a_payment_table_with_a_bad_field_names_it(tmp_path, row, message):
    text = (PAYMENTS_DIR / "tempelaere.toml").read_text()
    path = tmp_path / "table.toml"
    path.write_text(text.replace("abondance = { win = 8, lose = 8 }", f"abondance = {row}"))
    with pytest.raises(ValueError, match=message):
        PaymentTable.load(path)
    no_rising = tmp_path / "no_rising.toml"
    no_rising.write_text(text.split("[abondance_rising]")[0])
    with pytest.raises(ValueError, match=r"it needs a \[abondance_rising\] table"):
        PaymentTable.load(no_rising)


@pytest.mark.parametrize(
    "old,new,message",
    [
        ("ronde_pas_stake = 4", "ronde_pas_stake = 1000001", "ronde_pas_stake must be a whole number of units from 0"),
        (
            "12 = 14",
            "12 = 99999999999999999999",
            "abondance_rising 12 must be a whole number of units from 0 to 1000000",
        ),
    ],
)
def test_a_payment_value_above_the_limit_is_refused_when_loaded(tmp_path, old, new, message):
    """99999999999999999999 units crashed simulate (OverflowError summing chips) while score and advise took it."""
    path = tmp_path / "table.toml"
    path.write_text((PAYMENTS_DIR / "tempelaere.toml").read_text().replace(old, new))
    with pytest.raises(ValueError, match=f"bad payment table {re.escape(str(path))}: {message}"):
        PaymentTable.load(path)
    rules = tmp_path / "rules.toml"
    rules.write_text(f'payments = "{path}"\n')
    with pytest.raises(ValueError, match=message):
        get_rules(rules)
