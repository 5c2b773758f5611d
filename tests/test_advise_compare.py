"""``advise --compare`` as a player reads it (issue 19's fresh-user findings): the methods named after --compare,
--contracts with it, the expected settlement per method, rows never made left out with a note, what the play
methods do not play, an honest paired interval at small n, and the cap on --samples for PIMC play."""

from __future__ import annotations

import io
import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import gammaln
from scipy.stats import norm

from wiezen_sim.analysis.advise.report import Comparison
from wiezen_sim.analysis.stats import paired_difference
from wiezen_sim.cli import main
from wiezen_sim.defaults import MAX_PIMC_SAMPLES

LOW = ["S:5432", "H:432", "D:432", "C:432", "--turned", "AH"]  # every option is decided within a few tricks
QUICK = ["--samples", "3", "--seed", "1", "--jobs", "1", "--quiet"]


def _pairs(both: int, only_first: int, only_second: int, neither: int) -> tuple[np.ndarray, np.ndarray]:
    """Successes per trial of two methods on the same trials, from the four cells of the paired table."""
    first = np.repeat([True, True, False, False], [both, only_first, only_second, neither])
    second = np.repeat([True, False, True, False], [both, only_first, only_second, neither])
    return first, second


def test_paired_interval_not_a_point_without_discordant_pairs():
    """n = 6, both made every time: the old normal interval was [0, 0]; Newcombe's is ±(1 - the Wilson lower bound
    of 6 of 6), which is n / (n + z²) in closed form."""
    diff, low, high = paired_difference(*_pairs(6, 0, 0, 0))
    z2 = norm.ppf(0.975) ** 2
    assert diff == 0.0 and high == pytest.approx(1 - 6 / (6 + z2)) and low == pytest.approx(-high)
    diff, low, high = paired_difference(*_pairs(0, 0, 0, 6))  # never made by either: as wide
    assert diff == 0.0 and high == pytest.approx(1 - 6 / (6 + z2))
    diff, low, high = paired_difference(*_pairs(2, 0, 4, 0))  # second made it on 4 more deals
    assert diff == pytest.approx(4 / 6) and low < 4 / 6 < high <= 1.0 and low > 0


def test_paired_interval_exact_coverage_at_six_deals():
    """The exact coverage at n = 6, by enumerating every paired table (84 of them) under true cell probabilities
    on a grid: the probability that the interval holds the true difference stays near 95 % (the normal interval
    of the mean paired difference, which the comparison used before, covers 62 % at worst on this grid)."""
    n = 6
    tables = np.array([t for t in itertools.product(range(n + 1), repeat=4) if sum(t) == n])
    log_coef = gammaln(n + 1) - gammaln(tables + 1).sum(axis=1)
    intervals = np.array([paired_difference(*_pairs(*t))[1:] for t in tables])
    coverage = []
    for twentieths in itertools.product(range(1, 20, 2), repeat=3):  # 0.05, 0.15, … 0.95
        if sum(twentieths) >= 20:
            continue
        p = np.array([*twentieths, 20 - sum(twentieths)]) / 20
        true = p[2] - p[1]  # P(second) - P(first)
        pmf = np.exp(log_coef + (tables * np.log(p)).sum(axis=1))
        coverage.append(pmf[(intervals[:, 0] <= true + 1e-12) & (true - 1e-12 <= intervals[:, 1])].sum())
    worst, mean = min(coverage), float(np.mean(coverage))
    assert len(coverage) == 165 and worst >= 0.8 and mean >= 0.9, (worst, mean)


def test_paired_interval_refuses_unpaired_trials():
    with pytest.raises(ValueError, match="same trials"):
        paired_difference(np.ones(3, bool), np.ones(4, bool))
    assert all(math.isnan(x) for x in paired_difference(np.ones(0, bool), np.ones(0, bool)))


def _comparison() -> Comparison:
    rows = [
        {"contract": "miserie", "trump": None, "n": 6, "p_dd": 0.5, "p_pimc": 1.0, "ev_dd": 0.0, "ev_pimc": 30.0},
        {"contract": "solo", "trump": "H", "n": 6, "p_dd": 0.0, "p_pimc": 0.0, "ev_dd": -90.0, "ev_pimc": -90.0},
        {"contract": "vraag", "trump": "H", "partner": "accepting", "n": 0, "p_dd": math.nan, "p_pimc": math.nan,
         "ev_dd": 0.0, "ev_pimc": 0.0},
    ]  # fmt: skip
    for row in rows:
        row.update(diff_pimc=row["p_pimc"] - row["p_dd"], diff_pimc_low=-0.1, diff_pimc_high=0.9)
    meta = {"hand": "S:5432 H:432 D:432 C:432", "seat": 0, "turned": "AH", "rules": "tempelaere", "samples": 6,
            "seed": 1, "methods": ["dd", "pimc"], "worlds": 2, "fixed_partner_rows": 3,
            "bid_model": "threshold bot"}  # fmt: skip
    bids = pd.DataFrame([
        {"bid": "pass", "recommended_by": "dd", "ev_dd": 0.0, "ev_dd_low": 0.0, "ev_dd_high": 0.0, "made_dd": math.nan,
         "ev_pimc": 0.0, "ev_pimc_low": 0.0, "ev_pimc_high": 0.0, "made_pimc": math.nan},
        {"bid": "miserie", "recommended_by": "pimc", "ev_dd": -1.5, "ev_dd_low": -9.0, "ev_dd_high": 6.0,
         "made_dd": 0.5, "ev_pimc": 30.0, "ev_pimc_low": 30.0, "ev_pimc_high": 30.0, "made_pimc": 1.0},
        {"bid": "solo ♥", "recommended_by": "", "ev_dd": -90.0, "ev_dd_low": -90.0, "ev_dd_high": -90.0,
         "made_dd": 0.0, "ev_pimc": -90.0, "ev_pimc_low": -90.0, "ev_pimc_high": -90.0, "made_pimc": 0.0},
    ])  # fmt: skip
    return Comparison(pd.DataFrame(rows), meta, bids)


def test_comparison_shows_each_methods_bid_values():
    """Each method recommends from its own bid values; the comparison showed only the contract table."""
    out = _comparison().format_table()
    lines = out.splitlines()
    assert any(line.startswith("bid values per method") for line in lines)
    assert any(line.split()[:2] == ["pass", "+0.00"] and line.rstrip().endswith("dd") for line in lines)
    assert any(line.split()[:4] == ["miserie", "-1.50", "(-9.0", "…"] and "+30.00" in line and
               line.rstrip().endswith("pimc") for line in lines)  # fmt: skip
    assert "1 bid whose contract no method made in these deals not shown" in out
    assert not any(line.lstrip().startswith("solo ♥") for line in lines)
    assert any(line.lstrip().startswith("solo ♥") for line in _comparison().format_table(show_all=True).splitlines())
    assert [b["bid"] for b in _comparison().to_dict()["bids"]] == ["pass", "miserie", "solo ♥"]


def test_comparison_says_which_methods_recommendation_is_a_close_call():
    """A few samples leave a method's choice unsettled: its entry says so, a settled one does not."""
    comparison = _comparison()
    comparison.meta["recommendations"] = {
        "dd": {"bid": "pass", "ev_units": 0.0, "from": "bid values", "runner_up": "miserie", "p_order": 0.628},
        "pimc": {"bid": "miserie", "ev_units": 30.0, "from": "bid values", "runner_up": "pass", "p_order": 0.999},
    }
    line = next(x for x in comparison.format_table().splitlines() if x.startswith("recommended by each method"))
    assert line.endswith(
        "dd: pass (+0.0 units), a close call (better than miserie with probability 0.62 only) · "
        "pimc: miserie (+30.0 units)"
    )


def test_comparison_csv_carries_the_run_and_the_bid_values():
    """README: CSV carries the hand, seat, seed, methods and recommendations as '#' lines before the table."""
    comparison = _comparison()
    comparison.meta["recommendations"] = {
        "dd": {"bid": "pass", "ev_units": 0.0, "from": "bid values", "runner_up": "miserie", "p_order": 0.628},
        "pimc": {"bid": "miserie", "ev_units": 30.0, "from": "bid values", "runner_up": "pass", "p_order": 0.999},
    }
    text = comparison.to_csv()
    head = [line for line in text.splitlines() if line.startswith("# ")]
    assert head[:4] == ["# hand S:5432 H:432 D:432 C:432, seat 0, turned AH, rules tempelaere",
                        "# samples 6, seed 1, methods dd,pimc",
                        "# recommendation dd pass (+0.00 units), from the bid values",
                        "# recommendation pimc miserie (+30.00 units), from the bid values"]  # fmt: skip
    assert head[4] == "# bid values (the other seats bid by the threshold bot):" and head[5].startswith("# bid,")
    table = pd.read_csv(io.StringIO(text), comment="#")
    assert list(table.contract) == ["miserie", "solo", "vraag"] and table.p_pimc[0] == 1.0


def test_comparison_leaves_out_rows_never_made_and_names_them():
    out = _comparison().format_table()
    lines = out.splitlines()
    assert any(line.split()[:1] == ["miserie"] and "+30.00" in line for line in lines)
    assert "never made under any method or no deal counted, not shown: solo ♥, vraag ♥" in out
    assert not any(line.lstrip().startswith(("solo", "vraag")) for line in lines)
    assert "3 rows not compared: a vraag with a fixed partner seat" in out
    assert lines[0].startswith("hand S:5432 H:432 D:432 C:432  seat 0 (0)") and "no stop rule" in lines[1]
    key = out.split("\n\np_<method>")[1]  # the key names the methods compared, not others (a new user's reading)
    assert "dd: double dummy, pimc: played by four PIMC players" in key and "heuristic" not in key
    everything = _comparison().format_table(show_all=True)
    assert "not shown: solo" not in everything
    assert any(line.lstrip().startswith("solo ♥") and "-90.00" in line for line in everything.splitlines())


def test_cli_compare_takes_methods_and_contracts(capsys):
    """--compare dd,heuristic --contracts miserie,vraag: each method asked only those contracts, with its EV."""
    argv = ["advise", *LOW, *QUICK, "--contracts", "miserie,vraag", "--compare", "dd,heuristic"]
    assert main([*argv, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["methods"] == ["dd", "heuristic"] and {r["contract"] for r in out["contracts"]} == {"miserie", "vraag"}
    miserie = next(r for r in out["contracts"] if r["contract"] == "miserie")
    assert miserie["p_dd"] == miserie["p_heuristic"] == 1.0 and miserie["ev_dd"] == miserie["ev_heuristic"] == 30.0
    assert miserie["diff_heuristic_low"] < 0 < miserie["diff_heuristic_high"]  # not a point at n = 3
    recs = out["recommendations"]  # each method's own run's recommendation, from its bid values
    assert list(recs) == ["dd", "heuristic"] and {r["bid"] for r in recs.values()} == {"miserie"}
    assert all(r["from"] == "bid values" and 0 < r["ev_units"] <= 30.0 for r in recs.values())
    assert all(r["runner_up"] != r["bid"] and 0.5 <= r["p_order"] <= 1 for r in recs.values())
    assert main(argv) == 0
    table = capsys.readouterr().out
    said = f"dd: miserie ({recs['dd']['ev_units']:+.1f} units)"
    assert f"recommended by each method (from its bid values): {said}" in table
    assert "not shown: vraag ♥" in table and "a vraag with a fixed partner seat" not in table  # not asked
    assert main([*argv, "--all"]) == 0  # --all asks them of --method dd, and the comparison names them
    assert "3 rows not compared: a vraag with a fixed partner seat" in capsys.readouterr().out


def test_cli_play_method_says_what_it_does_not_play(capsys):
    assert main(["advise", *LOW, *QUICK, "--contracts", "miserie,vraag", "--method", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert "not shown: a vraag with a fixed partner seat (the partner decides): the heuristic method" in out


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--compare", "dd,bogus"], "argument --compare: unknown method 'bogus'"),
        (["--compare", "dd"], "argument --compare: compare two or more distinct methods"),
        (["--compare", "dd,dd"], "argument --compare: compare two or more distinct methods"),
        (["--compare", "--plot", "x.png"], "--plot is for a single method"),
        (["--compare", "dd,heuristic", "--worlds", "2"], "--worlds is for PIMC play"),
        (["--method", "pimc", "--samples", str(MAX_PIMC_SAMPLES + 1)], f"at most {MAX_PIMC_SAMPLES:,}"),
        (["--compare", "dd,pimc-uniform", "--samples", "5000000"], "--samples 5,000,000 is too many for PIMC"),
    ],
)
def test_cli_compare_refusals_one_line_exit_2(capsys, extra, message):
    try:
        code = main(["advise", *LOW, "--quiet", *extra])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_compare_rows_are_the_biddable_ones_and_the_vraag_says_its_deals(compiled_kernels):
    """A new user saw abondance in troef ♠ compared as a row of its own after passes (it only overcalls, RULES.md
    1.3), and the vraag's n as a bare 23 where the plain table says "23 of 40"."""
    from wiezen_sim.analysis.advise.compare import compare

    comparison = compare("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H", samples=16, seed=1, n_jobs=1,
                         methods=("dd", "heuristic"), progress=False, partner_rows=True)  # fmt: skip
    table = comparison.table
    assert "abondance_in_troef" not in set(table.contract) and comparison.meta["fixed_partner_rows"] == 3
    vraag = table[table.contract == "vraag"].iloc[0]
    assert vraag.asked == 16 and 0 < vraag.n < 16
    text = comparison.format_table()
    row = next(line for line in text.splitlines() if "the first seat that accepts" in line)
    assert f" {vraag.n} of 16 " in row
    assert "its ev counts 0 for the others, where you pass" in text  # how the vraag's ev reads its n (a new user)
