"""The ``solve`` verb (wiezen_sim/cli/solve.py): output formats, batches and PBN files, the play so far,
per-card results, the 20-result table, one-line errors."""

from __future__ import annotations

import argparse
import json
import re

import pytest

from wiezen_sim.cli import main, solve
from wiezen_sim.pbn import parse_dd_tricks, read_pbn

DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"  # list1000 deal 1


def _run(argv):
    parser = argparse.ArgumentParser(prog="wiezen-sim")
    solve.add(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    args.func(args)


def test_solve_json_max_and_exact(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--format", "json"])
    assert json.loads(capsys.readouterr().out) == {"deal": DEAL, "tricks": 6}  # DDS TABLE: NT, declarer N
    _run(["solve", "--deal", DEAL, "--trump", "S", "--leader", "2", "--side", "1,3", "--format", "json"])
    assert json.loads(capsys.readouterr().out) == {"deal": DEAL, "tricks": 8}  # spades, declarer E
    _run(
        [
            "solve",
            "--deal",
            DEAL,
            "--trump",
            "NT",
            "--leader",
            "1",
            "--side",
            "02",
            "--objective",
            "exact:6",
            "--format",
            "json",
        ]
    )
    assert set(json.loads(capsys.readouterr().out)) == {"deal", "success"}


def test_solve_plain_text_names_the_deal(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02"])
    assert capsys.readouterr().out == f"{DEAL}\tmax tricks: 6\n"


def test_solve_batch_file(compiled_kernels, capsys, tmp_path):
    f = tmp_path / "deals.txt"
    f.write_text(f"# two deals\n{DEAL}\n\nN:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J\n")
    _run(["solve", "--deals", str(f), "--trump", "S", "--leader", "1", "--side", "02", "--format", "json"])
    lines = capsys.readouterr().out.splitlines()
    # one object per deal, each naming its deal (a tester could not tell which result was which)
    assert [json.loads(x) for x in lines] == [
        {"deal": DEAL, "tricks": 5},
        {"deal": "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "tricks": 4},
    ]


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


# issue 21: --played, --cards, --table [--alone], --format, PBN files in and out.
DEAL2 = "E:QJT5432.T.6.QJ82 .J97543.K7532.94 87.A62.QJT4.AT75 AK96.KQ8.A98.K63"  # list1000 deal 2
TABLE1 = [5, 8, 5, 8, 6, 6, 6, 6, 5, 7, 5, 7, 7, 5, 7, 5, 6, 6, 6, 6]  # DDS's TABLE lines of deals 1 and 2
TABLE2 = [4, 9, 4, 9, 10, 2, 10, 2, 8, 3, 8, 3, 6, 7, 6, 7, 9, 3, 9, 3]
CONTRACT = ["--trump", "S", "--leader", "0", "--side", "13"]
PLAYED = "CT C4 CA CJ H8 H4 HK H9 D5"  # DDS's play record of deal 1 (first 9 cards): S wins, then N; E to play
ALL_16 = "AS KS QS JS AH KH QH JH AD KD QD JD AC KC QC JC"


def test_played_reports_the_position_and_the_tricks_from_the_trick_in_progress(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, *CONTRACT, "--played", PLAYED, "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert out == {"deal": DEAL, "played": 9, "won": 0, "trick": 3, "to_play": 1, "tricks": 8}
    _run(["solve", "--deal", DEAL, *CONTRACT, "--played", PLAYED])
    assert capsys.readouterr().out == f"{DEAL}\tplayed 9, side won 0\tmax tricks from trick 3: 8\n"


def test_cards_lists_every_legal_card(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, *CONTRACT, "--played", PLAYED, "--cards", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert out["to_play"] == 1 and out["cards"] == {"AD": 8, "TD": 8, "7D": 8, "6D": 8, "4D": 8}
    _run(["solve", "--deal", DEAL, *CONTRACT, "--played", PLAYED, "--cards", "--format", "csv"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "deal,played,won,trick,to_play,card,result" and len(lines) == 6
    assert lines[1] == f"{DEAL},9,0,3,1,AD,8"
    _run(["solve", "--deal", DEAL, "--trump", "NT", "--leader", "1", "--side", "02", "--cards", "--objective",
          "exact:6"])  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("seat 1 to play, exactly 6 after each card:") and len(lines) == 14
    assert {line.split("\t")[1] for line in lines[1:]} <= {"yes", "no"}


def test_table_formats_against_dds(compiled_kernels, capsys):
    _run(["solve", "--deal", DEAL, "--table", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert [out["table"][s][d] for s in ("S", "H", "D", "C", "NT") for d in "NESW"] == TABLE1
    assert out["alone"] is False
    _run(["solve", "--deal", DEAL, "--table"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{DEAL}\tpartners opposite" and lines[1].split() == list("NESW")
    assert [int(x) for line in lines[2:] for x in line.split()[1:]] == TABLE1
    _run(["solve", "--deal", DEAL, "--table", "--alone", "--format", "csv"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "deal,strain,N,E,S,W" and [x.split(",")[1] for x in lines[1:]] == ["S", "H", "D", "C", "NT"]
    alone = [int(x) for line in lines[1:] for x in line.split(",")[2:]]
    assert all(a <= p for a, p in zip(alone, TABLE1, strict=True))  # alone never takes more than with a partner


def test_pbn_file_in_and_out(compiled_kernels, capsys, tmp_path):
    """A PBN file's games come back as written, each with DDS's table in DoubleDummyTricks."""
    f = tmp_path / "club.pbn"
    f.write_text(f'% PBN 2.1\n\n[Board "1"]\n[Deal "{DEAL}"]\n[DoubleDummyTricks "00000000000000000000"]\n'
                 f'{{a note}}\n\n[Board "2"]\n[Deal "{DEAL2}"]\n[Contract "4S"]\n')  # fmt: skip
    _run(["solve", "--deals", str(f), "--table", "--format", "pbn"])
    out = capsys.readouterr().out
    games = read_pbn(out)
    assert [g.lines[0] for g in games] == ["% PBN 2.1", '[Board "1"]', '[Board "2"]']
    assert "{a note}" in games[1].lines and '[Contract "4S"]' in games[2].lines
    assert [parse_dd_tricks(g.tag("DoubleDummyTricks")).ravel().tolist() for g in games[1:]] == [TABLE1, TABLE2]
    _run(["solve", "--deals", str(f), "--trump", "NT", "--leader", "1", "--side", "02", "--format", "csv"])
    deal2 = "N:AK96.KQ8.A98.K63 QJT5432.T.6.QJ82 .J97543.K7532.94 87.A62.QJT4.AT75"  # DEAL2 from seat N
    assert capsys.readouterr().out.splitlines() == ["deal,tricks", f"{DEAL},{TABLE1[16]}", f"{deal2},{TABLE2[16]}"]
    lines = tmp_path / "deals.txt"
    lines.write_text(f"{DEAL}\n")
    _run(["solve", "--deals", str(lines), "--table", "--format", "pbn"])
    (game,) = read_pbn(capsys.readouterr().out)
    assert (
        game.lines[0] == f'[Deal "{DEAL}"]'
        and parse_dd_tricks(game.tag("DoubleDummyTricks")).ravel().tolist() == TABLE1
    )


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--deal", DEAL, *CONTRACT, "--played", "ZZ"], "--played: not a card"),
        (["--deal", DEAL, *CONTRACT, "--played", " "], "--played needs"),
        (["--deal", DEAL, *CONTRACT, "--played", "AS"], "played card 1 (AS): seat 0 to play does not hold it"),
        (["--deal", DEAL, *CONTRACT, "--played", "CT C4 CA SA"], "seat 3 still holds the suit led"),
        (["--deal", DEAL, *CONTRACT, "--played", "CT CT"], "played card 2 (TC)"),
        (["--deals", "x.txt", *CONTRACT, "--played", "CT"], "--played is the play of one deal"),
        (["--deal", "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", *CONTRACT, "--cards", "--played", ALL_16], "no card left"),
        (["--deal", DEAL, "--cards"], "missing --trump, --leader, --side"),
        (["--deal", DEAL, "--table", "--trump", "S"], "drop --trump"),
        (["--deal", DEAL, "--table", "--cards", "--played", "CT"], "drop --played, --cards"),
        (["--deal", DEAL, *CONTRACT, "--alone"], "--alone is for --table"),
        (["--deal", DEAL, "--table", "--alone", "--format", "pbn"], "--format pbn"),
        (["--deal", DEAL, *CONTRACT, "--format", "pbn"], "--format pbn"),
        (["--deal", "N:AKQ.. ...", "--table"], "four hands"),
        # the side as typed, not its seat digits ('0213', '0X')
        (["--deal", DEAL, "--trump", "NT", "--leader", "E", "--side", "NSEW"], "got 'NSEW'"),
        (["--deal", DEAL, "--trump", "NT", "--leader", "E", "--side", "nx"], "unknown seat 'X' in side 'nx'"),
        (["--deal", DEAL, "--trump", "NT", "--leader", "E", "--side", "N,N"], "seat 0 given twice in side 'N,N'"),
    ],
)
def test_new_options_bad_input(argv, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _run(["solve", *argv])


@pytest.mark.parametrize("content,message", [
    ('[Deal "N:A.A.A.A K.K.K.K"]\n', "line 1: a PBN deal has four hands"),
    ('% PBN 2.1\n\n[Event "x"]\n', "no deals in"),
    ('[Deal "#"]\n', "copied from the game before"),
    ('[Deal "N:A2.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"]\n', "line 1 of"),
    # a tester's file: two games with no empty line between them, the first solved never
    ('[Deal "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"]\n[Deal "N:K.K.K.K A.A.A.A Q.Q.Q.Q J.J.J.J"]\n',
     "line 2: a second Deal tag in one game (an empty line ends a game)"),
    # a tester's file: a bare deal line after a tagged game was skipped without a word
    ('[Deal "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"]\n\nN:K.K.K.K A.A.A.A Q.Q.Q.Q J.J.J.J\n',
     'line 3: a deal outside a Deal tag: write it as [Deal "N:K.K.K.K A.A.A.A Q.Q.Q.Q J.J.J.J"]'),
])  # fmt: skip
def test_bad_pbn_files_exit_2_with_one_line(tmp_path, capsys, content, message):
    f = tmp_path / "bad.pbn"
    f.write_text(content)
    assert main(["solve", "--deals", str(f), "--table"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1


def test_bad_format_exits_2_with_one_line(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "--deal", DEAL, "--table", "--format", "xml"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'xml'" in err and err.count("\n") == 1


def test_a_file_of_deals_gives_the_same_output_for_any_jobs(compiled_kernels, tmp_path, capsys):
    """A file's deals are solved in worker processes: their order and results do not depend on --jobs."""
    f = tmp_path / "deals.txt"
    f.write_text(f"{DEAL}\n{DEAL2}\n{DEAL}\n")
    outputs = []
    for jobs in ("1", "2"):
        assert main(["solve", "--deals", str(f), "--trump", "S", "--leader", "1", "--side", "02", "--cards",
                     "--format", "json", "--jobs", jobs]) == 0  # fmt: skip
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert [json.loads(line)["deal"] for line in outputs[0].splitlines()] == [DEAL, " ".join(DEAL2.split()), DEAL]
