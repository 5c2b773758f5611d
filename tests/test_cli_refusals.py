"""Bad experiment files, output paths and counts (issue 23): refused before any work, one line, exit 2,
nothing written anywhere. Run as a user would, in a subprocess started in a fresh folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wiezen_sim.cli import main
from wiezen_sim.rules.ruleset import PAYMENTS_DIR

SPEC = """
contracts = ["solo"]
samples = 1
[defaults]
trump = "H"
[grid]
trump_length = [5]
"""
HUGE = "99999999999999999999"


def files(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*")}


def refuse(cwd: Path, *argv: str) -> str:
    """Run ``wiezen-sim ARGV`` in ``cwd``; assert exit code 2 and one line on stderr, and return that line."""
    proc = subprocess.run(
        [sys.executable, "-m", "wiezen_sim.cli", *argv], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stderr.strip()


def test_experiment_name_cannot_leave_the_results_folder(tmp_path):
    cwd = tmp_path / "a" / "b"
    cwd.mkdir(parents=True)
    (cwd / "escape.toml").write_text('name = "../../../escaped"\n' + SPEC, encoding="utf-8")
    before = files(tmp_path)
    err = refuse(cwd, "experiment", "escape.toml")
    assert "escape.toml: name = '../../../escaped' is not a folder name" in err
    assert files(tmp_path) == before


def test_rejected_experiment_leaves_no_results_folder(tmp_path):
    (tmp_path / "bad.toml").write_text(SPEC + '[[charts]]\nkind = "pie"\n', encoding="utf-8")
    before = files(tmp_path)
    assert "unknown chart kind 'pie'" in refuse(tmp_path, "experiment", "bad.toml")
    assert files(tmp_path) == before  # no results/bad/batches/


def test_collect_into_a_missing_folder_leaves_nothing(tmp_path):
    (tmp_path / "small.toml").write_text(SPEC, encoding="utf-8")
    before = files(tmp_path)
    err = refuse(tmp_path, "experiment", "small.toml", "--collect", "--out-dir", "missing/out")
    assert "no finished batches under missing/out/batches" in err
    assert files(tmp_path) == before


def test_an_out_dir_under_a_file_is_refused_in_words(tmp_path):
    (tmp_path / "small.toml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    before = files(tmp_path)
    err = refuse(tmp_path, "experiment", "small.toml", "--out-dir", "afile/sub")
    assert "error: cannot use afile/sub" in err and "Not a directory" in err and "[Errno" not in err
    assert files(tmp_path) == before


def test_empty_out_dir_is_refused_before_any_work(tmp_path):
    """An empty --out-dir names no folder: it wrote table.csv, meta.json, batches/ into the current folder."""
    (tmp_path / "small.toml").write_text(SPEC, encoding="utf-8")
    before = files(tmp_path)
    for argv in (["--out-dir", ""], ["--out-dir", " ", "--charts-only"]):
        err = refuse(tmp_path, "experiment", "small.toml", *argv)
        assert err.endswith("error: argument --out-dir: an empty folder name (leave the option out for the default "
                            "folder)")  # fmt: skip
    assert files(tmp_path) == before
    from wiezen_sim.analysis.experiment import redraw_charts, run_experiment

    for verb in (run_experiment, redraw_charts):
        with pytest.raises(ValueError, match="an empty path names no results folder"):
            verb(tmp_path / "small.toml", out="")
    assert files(tmp_path) == before


def test_missing_and_binary_experiment_files_are_named(tmp_path):
    assert refuse(tmp_path, "experiment", "nope.toml").endswith("error: no experiment file nope.toml")
    (tmp_path / "binary.toml").write_bytes(bytes(range(256)))
    assert "binary.toml: not a TOML file" in refuse(tmp_path, "experiment", "binary.toml")


def test_missing_and_binary_rules_files_are_named(tmp_path):
    """As experiment files: the file named, no raw [Errno 2] or codec error (issue 23)."""
    assert refuse(tmp_path, "advise", "--rules", "nope.toml").endswith("advise: error: no rules file nope.toml")
    (tmp_path / "binary.toml").write_bytes(bytes(range(256)))
    err = refuse(tmp_path, "advise", "--rules", "binary.toml")
    assert err.endswith("advise: error: binary.toml: not a TOML file (not UTF-8 text)")
    (tmp_path / "bad.toml").write_text("= broken\n", encoding="utf-8")
    assert "advise: error: bad.toml: not valid TOML" in refuse(tmp_path, "advise", "--rules", "bad.toml")
    assert files(tmp_path) == {Path("binary.toml"), Path("bad.toml")}


def test_errors_name_the_whole_verb(tmp_path):
    err = refuse(tmp_path, "romanian", "advise", "AS KH 9D", "--players", "4", "--seat", "9", "--trump", "QD")
    assert err.startswith("wiezen-sim romanian advise: error: unknown seat '9'")


def test_simulate_out_in_a_missing_folder_is_refused_before_the_run(tmp_path):
    # 10000 sessions of 10000 hands would run for days: the refusal must come first
    err = refuse(tmp_path, "simulate", "--hands", "10000", "--sessions", "10000", "--log", "missing/log.parquet")
    assert "argument --log: cannot write missing/log.parquet" in err
    assert files(tmp_path) == set()


def test_simulate_log_and_out_in_the_same_file_are_refused_before_the_run(tmp_path):
    """The text table silently replaced the Parquet log."""
    err = refuse(tmp_path, "simulate", "--hands", "2", "--sessions", "2", "--log", "s.parquet", "--out", "./s.parquet")
    assert err.endswith("error: --log and --out name the same file (./s.parquet): the table would replace the log")
    assert files(tmp_path) == set()


@pytest.mark.parametrize(
    "argv,message",
    [
        (["simulate", "--hands", HUGE], f"argument --hands: must be from 1 to 10000, got {HUGE}"),
        (["simulate", "--sessions", HUGE], f"argument --sessions: must be from 1 to 10000000, got {HUGE}"),
        (["romanian", "simulate", "--players", "4", "--games", HUGE], "argument --games: must be from 1 to"),
        (["simulate", "--until-chips", HUGE], f"argument --until-chips: must be from 1 to 10000000, got {HUGE}"),
        # the solver's keyword (tt_mb must be ...) used to reach the user
        (
            ["solve", "--deal", "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "--table", "--tt-mb", "1e9"],
            "argument --tt-mb: must be a number above 0 and at most 1048576, got '1e9'",
        ),
        (
            ["solve", "--deal", "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "--table", "--tt-mb", "0"],
            "argument --tt-mb: must be a number above 0",
        ),
        (
            ["solve", "--deal", "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "--table", "--tt-mb", "nan"],
            "argument --tt-mb: must be a number above 0",
        ),
        (
            ["romanian", "advise", "AS", "--players", "4", "--trump", "QD", "--bid-sigma", "-1"],
            "argument --bid-sigma: must be a number ≥ 0, got '-1'",
        ),
    ],
)
def test_huge_counts_are_refused_before_any_work(tmp_path, argv, message):
    assert message in refuse(tmp_path, *argv)


def test_advise_outputs_that_name_no_file_or_the_same_file_are_refused(tmp_path):
    """A tester's runs: ``--out same.png --plot same.png`` left the table in a file named same.png, and
    ``--out -`` wrote a file named "-"; both now refused before the run, nothing written."""
    said = refuse(tmp_path, "advise", "--out", "same.png", "--plot", "./same.png")
    assert said.endswith("--out and --plot name the same file, ./same.png: the table would overwrite the chart")
    assert "'-' names no file (leave --out out to print the result)" in refuse(tmp_path, "advise", "--out", "-")
    assert "'' names no file" in refuse(tmp_path, "advise", "--out", "")
    assert list(tmp_path.iterdir()) == []
    assert files(tmp_path) == set()


def test_simulate_refuses_a_huge_payment_before_the_run(tmp_path):
    """A payment of 99999999999999999999 units was an OverflowError traceback in simulate."""
    table = (PAYMENTS_DIR / "tempelaere.toml").read_text(encoding="utf-8")
    (tmp_path / "huge.toml").write_text(
        table.replace("solo = { win = 1,", f"solo = {{ win = {HUGE},"), encoding="utf-8"
    )
    (tmp_path / "rules.toml").write_text('payments = "huge.toml"\n', encoding="utf-8")
    err = refuse(tmp_path, "simulate", "--rules", "rules.toml", "--hands", "2", "--sessions", "2", "--jobs", "1")
    assert f"contract 'solo': win must be a whole number of units from 0 to 1000000, got {HUGE}" in err


BAD_ADVICE = [
    ["S:AKQ", "--seat", "eldest", "--turned", "7H"],
    ["S:AKQJ98 H:AK2 D:K3 C:52", "--seat", "dealer", "--turned", "7H"],
    ["--rules", "no_such_rules.toml"],
]


@pytest.mark.parametrize("argv", BAD_ADVICE)
def test_advise_refuses_a_bad_position_or_rules_before_importing_the_kernel(argv):
    """The hand, turned card and rules are checked before numba and pandas load (seconds): the error is at once."""
    code = ("import sys; from wiezen_sim.cli import main; rc = main(['advise', *sys.argv[1:]]); "
            "sys.exit(rc if not {'numba', 'pandas'} & set(sys.modules) else 99)")  # fmt: skip
    run = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.startswith("wiezen-sim advise: error:"), (run.returncode, run.stderr)


def test_advise_says_a_bad_hand_before_asking_for_the_turned_card(capsys):
    """A 3-card hand without --turned: the hand's error first (it asked for the turned card, then refused the hand)."""
    assert main(["advise", "S:AKQ", "--seat", "eldest"]) == 2
    assert capsys.readouterr().err.strip() == "wiezen-sim advise: error: hand 'S:AKQ' has 3 cards, expected 13"
    assert main(["advise", "S:AKQJ98 H:AK2 D:K3 C:52", "--seat", "eldest"]) == 2
    assert "give the turned card with --turned CARD" in capsys.readouterr().err


def test_advise_refuses_contracts_an_obligatory_troel_leaves_out(capsys):
    """Four aces and only abondance asked (a tester's run): the table recommended pass, which the obligation
    forbids (the Python API still answers the table: an experiment's question, tests/test_bid_values.py)."""
    argv = ["advise", "S:AKQJ H:A32 D:A32 C:A32", "--turned", "7H", "--contracts", "abondance", "--samples", "4"]
    assert main(argv) == 2
    want = (
        "with 4 aces troel is obligatory (RULES.md 1.4): only troel, open_miserie, solo_slim can be bid, not abondance"
    )
    assert capsys.readouterr().err.strip() == f"wiezen-sim advise: error: {want}"


def test_out_that_names_the_file_the_command_reads_is_refused(tmp_path):
    """A tester's runs: ``solve --deals in.pbn --out in.pbn`` replaced the deals with the results, and
    ``score ... --rules rr.toml --out rr.toml`` the rules file with the payments; both refused, nothing written."""
    deals = tmp_path / "in.pbn"
    deals.write_text("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3\n", encoding="utf-8")
    said = refuse(tmp_path, "solve", "--deals", "in.pbn", "--table", "--out", "./in.pbn")
    assert said.endswith("--out ./in.pbn is the --deals file this command reads: the result would replace it")
    rules = tmp_path / "rr.toml"
    rules.write_text('preset = "classic"\n', encoding="utf-8")
    said = refuse(
        tmp_path, "score", "solo", "--declarer", "0", "--tricks", "7", "--rules", "rr.toml", "--out", "rr.toml"
    )
    assert "is the --rules file this command reads" in said
    assert rules.read_text(encoding="utf-8") == 'preset = "classic"\n' and deals.read_text(encoding="utf-8").startswith(
        "N:"
    )


def test_files_written_with_a_byte_order_mark_are_read(tmp_path):
    """Windows Notepad starts UTF-8 files with a byte-order mark: a PBN file and a rules file with one were
    refused ('a PBN deal starts with N:, ...', 'not valid TOML')."""
    from wiezen_sim.rules.ruleset import get_rules

    rules = tmp_path / "bom.toml"
    rules.write_text('\ufeffpreset = "classic"\n', encoding="utf-8")
    assert not get_rules(rules).pico
    deals = tmp_path / "bom.pbn"
    deals.write_text("\ufeffN:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "wiezen_sim.cli", "solve", "--deals", str(deals), "--trump", "NT",
                           "--leader", "1", "--side", "02"], capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.endswith("max tricks: 6\n"), proc.stderr


@pytest.mark.parametrize(
    "argv,option",
    [
        (["advise", "--contracts", "abondance,"], "--contracts"),
        (["advise", "--compare", "dd,,pimc"], "--compare"),
        (["simulate", "--bots", ",conservative"], "--bots"),
        (["romanian", "simulate", "--players", "4", "--games", "1", "--special", ","], "--special"),
    ],
)
def test_an_empty_list_entry_is_refused_by_every_verb(tmp_path, argv, option):
    """One comma list for every verb (cli.args.comma_entries): a second tester found empty entries dropped by
    advise and simulate while romanian refused them."""
    assert refuse(tmp_path, *argv).endswith(f"argument {option}: an empty entry in {argv[-1]!r} (a comma too many?)")


def test_experiment_collect_and_charts_only_are_one_or_the_other(tmp_path):
    said = refuse(tmp_path, "experiment", "x.toml", "--collect", "--charts-only")
    assert said.endswith("argument --charts-only: not allowed with argument --collect")


def test_experiment_sequential_backend_with_workers_is_refused(tmp_path):
    """--backend sequential --jobs 2 ran one job in this process and ignored --jobs without a word."""
    (tmp_path / "e.toml").write_text(SPEC)
    line = refuse(tmp_path, "experiment", "e.toml", "--backend", "sequential", "--jobs", "2", "--out-dir", "o")
    assert "backend sequential runs in this process, one job: jobs 2 needs backend loky or dask" in line
    assert files(tmp_path) == {Path("e.toml")}
