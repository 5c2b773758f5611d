"""The ``wiezen-sim`` command: score reproduces RULES.md 1.6 examples; bad input → one line, exit 2."""

import json
import subprocess
import sys

import pytest

from wiezen_sim.cli import main


def run_json(capsys, *argv):
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["payments"]


@pytest.mark.parametrize(
    "argv,payments",
    [
        (["vraag", "--declarer", "0", "--partner", "1", "--tricks", "8"], [2, 2, -2, -2]),  # example 1
        (["vraag", "--declarer", "0", "--partner", "1", "--tricks", "10"], [6, 6, -6, -6]),  # example 2
        (["vraag", "--declarer", "0", "--partner", "1", "--tricks", "7"], [-4, -4, 4, 4]),  # example 3
        (["vraag", "--declarer", "0", "--partner", "1", "--tricks", "13"], [24, 24, -24, -24]),  # example 4
        (["solo", "--declarer", "0", "--tricks", "7"], [9, -3, -3, -3]),  # example 5
        (
            [
                "pico",
                "--declarer",
                "0",
                "--tricks",
                "1",
                "--declarer",
                "1",
                "--tricks",
                "0",
                "--declarer",
                "2",
                "--tricks",
                "1",
            ],
            [18, -30, 18, -6],
        ),  # example 6
        (["abondance", "--declarer", "0", "--tricks", "11"], [24, -8, -8, -8]),  # example 7
        (["abondance", "--declarer", "0", "--tricks", "8"], [-24, 8, 8, 8]),  # example 7
        (["troel", "--declarer", "0", "--partner", "2", "--tricks", "9"], [8, -8, 8, -8]),  # example 8
        (["solo", "--declarer", "2", "--tricks", "4", "--rules", "italian"], [3, 3, -9, 3]),
        (["abondance", "--declarer", "1", "--tricks", "12", "--level", "12", "--rules", "levels"], [-14, 42, -14, -14]),
    ],
)
def test_score_examples(capsys, argv, payments):
    assert run_json(capsys, "score", *argv) == payments


@pytest.mark.parametrize(
    "argv,message",
    [
        (["score", "grand", "--declarer", "0", "--tricks", "8"], "invalid choice"),
        (["score", "solo", "--declarer", "4", "--tricks", "8"], "0 = eldest (left of the dealer) .. 3 = dealer"),
        (["score", "solo", "--declarer", "north", "--tricks", "8"], "unknown seat 'north'"),
        (["score", "solo", "--declarer", "0", "--tricks", "14"], "argument --tricks: must be from 0 to 13"),
        (["score", "vraag", "--declarer", "0", "--tricks", "8"], "--partner"),
        (["score", "solo", "--declarer", "0", "--partner", "1", "--tricks", "8"], "does not apply"),
        (["score", "solo", "--declarer", "0", "--tricks", "8", "--declarer", "1", "--tricks", "8"], "misère"),
        (["score", "pico", "--declarer", "0", "--tricks", "1", "--declarer", "1"], "one --tricks"),
        (
            ["score", "miserie", "--declarer", "0", "--tricks", "13", "--declarer", "1", "--tricks", "13"],
            "the declarers' tricks add up to 26, more than the 13 tricks of a miserie deal",
        ),
        (
            [
                *["score", "miserie", "--declarer", "0", "--declarer", "1", "--declarer", "2", "--declarer", "3"],
                *["--tricks", "0"] * 4,
            ],
            "four declarers leave nobody to defend",
        ),
        (["score", "miserie", "--declarer", "0", "--tricks", "1", "--target", "5"], "miserie: target must be 0"),
        (["score", "abondance", "--declarer", "0", "--tricks", "10", "--level", "10"], "level 10: only for abondance"),
        (["score", "pico", "--declarer", "0", "--tricks", "1", "--rules", "nope"], "unknown rules preset"),
        (
            ["score", "pico", "--declarer", "0", "--tricks", "1", "--rules", "classic"],
            "pico is not played under the rules 'classic'",
        ),
        (["score", "solo", "--declarer", "0", "--tricks", "x"], "argument --tricks: expected an integer"),
        (["demo", "--seed", "-1"], "argument --seed: must be at least 0"),
        (["nosuchverb"], "invalid choice"),
    ],
)
def test_bad_arguments_one_line_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        code = main(argv)
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_score_seat_by_name_or_number(capsys):
    by_number = run_json(capsys, "score", "vraag", "--declarer", "0", "--partner", "3", "--tricks", "8")
    assert (
        run_json(capsys, "score", "vraag", "--declarer", "eldest", "--partner", "dealer", "--tricks", "8") == by_number
    )


def test_demo_runs_and_settles(capsys):
    for seed in range(1, 6):
        assert main(["demo", "--seed", str(seed)]) == 0
        out = capsys.readouterr().out
        assert "Auction:" in out
        if "thrown in" not in out:
            payments = json.loads(out.strip().splitlines()[-1].split(":", 1)[1])
            assert sum(payments) == 0


def test_console_script_installed():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "wiezen_sim.cli",
            "score",
            "solo",
            "--declarer",
            "0",
            "--tricks",
            "7",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout) == {"payments": [9, -3, -3, -3]}
