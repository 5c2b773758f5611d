"""The ``solve`` verb (wiezen_sim/solvers/cli_solve.py): JSON output, batches, one-line errors."""

from __future__ import annotations

import argparse
import json

import pytest

from wiezen_sim.solvers.cli_solve import add_solve_command

DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"  # list1000 deal 1


def _run(argv):
    parser = argparse.ArgumentParser(prog="wiezen-sim")
    add_solve_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    args.func(args)


def test_solve_json_max_and_exact(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--json"])
    assert json.loads(capsys.readouterr().out) == {"tricks": 6}  # DDS TABLE: NT, declarer N
    _run(["solve", "--deal", DEAL, "--trump", "S", "--leader", "2", "--side", "1,3", "--json"])
    assert json.loads(capsys.readouterr().out) == {"tricks": 8}  # spades, declarer E
    _run(
        ["solve", "--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--objective", "exact:6", "--json"]
    )
    assert set(json.loads(capsys.readouterr().out)) == {"success"}


def test_solve_plain_text_names_the_deal(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02"])
    assert capsys.readouterr().out == f"{DEAL}\tmax tricks: 6\n"


def test_solve_batch_file(compiled_kernels, capsys, tmp_path):
    f = tmp_path / "deals.txt"
    f.write_text(f"# two deals\n{DEAL}\n\nN:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J\n")
    _run(["solve", "--deals", str(f), "--trump", "S", "--leader", "1", "--side", "02", "--json"])
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(x) for x in lines] == [{"tricks": 5}, {"tricks": 4}]


@pytest.mark.parametrize(
    "argv",
    [
        ["--deal", "N:QJ6.K652.J85.T98 873", "--trump", "NT", "--leader", "1", "--side", "02"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "0123"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "00"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "0,,2"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "\u0660"],  # Arabic-Indic zero
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--objective", "exact:1_0"],
        ["--deal", "N:A... K... Q... J...", "--trump", "NT", "--leader", "1", "--side", "02", "--objective", "exact:2"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--objective", "exact:x"],
        ["--deals", "/nonexistent/deals.txt", "--trump", "NT", "--leader", "1", "--side", "02"],
        ["--trump", "NT", "--leader", "1", "--side", "02"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--tt-mb", "inf"],
        ["--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--tt-mb", "1e9"],
    ],
)
def test_solve_bad_input_raises_value_error(compiled_kernels, argv):
    with pytest.raises(ValueError):
        _run(["solve", *argv])


@pytest.mark.parametrize("bad", ["garbage", "N:AK... Q... J... T..."])
def test_batch_error_names_the_file_line_before_solving(compiled_kernels, tmp_path, capsys, bad):
    f = tmp_path / "deals.txt"
    f.write_text(f"# comment\n{DEAL}\n\n\n{bad}\n")
    with pytest.raises(ValueError, match="line 5 of"):
        _run(["solve", "--deals", str(f), "--trump", "S", "--leader", "1", "--side", "02"])
    assert capsys.readouterr().out == ""  # nothing solved before the bad line was found
