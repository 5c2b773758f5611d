"""One command-line convention for every verb (issue 23 part 3): a help with a description and an
example, ``--format json`` where a verb prints a result, ``--jobs`` checked the same way, seats by
name and number, numeric options refused before any work, ``--version``."""

from __future__ import annotations

import json
import os

import pytest

from wiezen_sim.cli import build_parser, main

DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
VERBS = [
    "advise",
    "solve",
    "score",
    "demo",
    "simulate",
    "experiment",
    "romanian",
    "romanian advise",
    "romanian simulate",
    "serve",
]
# a cheap run of each verb that prints a result (its --format json is parsed below)
# fmt: off
RUNS = {
    "advise": ["advise", "--samples", "2", "--jobs", "1", "--quiet"],
    "solve": ["solve", "--deal", DEAL, "--trump", "NT", "--leader", "E", "--side", "NS"],
    "score": ["score", "solo", "--declarer", "eldest", "--tricks", "7"],
    "demo": ["demo", "--seed", "3"],
    "simulate": ["simulate", "--hands", "2", "--sessions", "2", "--jobs", "1", "--quiet"],
    "romanian advise": [
        "romanian",
        "advise",
        "AS KH",
        "--players",
        "3",
        "--seat",
        "0",
        "--trump",
        "QD",
        "--samples",
        "50",
    ],
    "romanian simulate": [
        "romanian",
        "simulate",
        "--players",
        "3",
        "--games",
        "1",
        "--sequence",
        "1-8-1",
        "--policies",
        "random",
    ],
}
# fmt: on
WITH_JOBS = ["advise", "simulate", "experiment", "romanian advise", "romanian simulate", "serve"]


def exit_code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's refusals and --help
        return int(exc.code or 0)


def refused(capsys, argv: list[str]) -> str:
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("verb", VERBS)
def test_help_has_a_description_and_an_example(capsys, verb):
    assert exit_code([*verb.split(), "--help"]) == 0
    out = capsys.readouterr().out
    usage, _, rest = out.partition("\n\n")
    description = rest.splitlines()[0]
    assert usage.startswith("usage: wiezen-sim") and len(description) > 20, out
    example = out.split("example:\n", 1)[1]
    assert example.strip().startswith(f"wiezen-sim {verb.split()[0]}"), out


@pytest.mark.parametrize("verb", WITH_JOBS)
@pytest.mark.parametrize("count", ["0", "-3", str((os.cpu_count() or 1) + 1), "99999"])
def test_jobs_out_of_range_is_refused(capsys, verb, count):
    """0, negatives other than -1, and more workers than cores (99999 started 130 processes before this check)."""
    cores = os.cpu_count() or 1
    assert (f"argument --jobs: must be a worker count from 1 to {cores} (this machine's cores), or -1 for all "
            f"cores, got {count}") in refused(capsys, [*verb.split(), "--jobs", count])  # fmt: skip


@pytest.mark.parametrize("verb", sorted(RUNS))
def test_format_json_and_out(capsys, tmp_path, verb):
    assert main([*RUNS[verb], "--format", "json"]) == 0
    printed = capsys.readouterr().out
    json.loads(printed.splitlines()[0] if verb == "solve" else printed)  # solve: one object per deal
    out = tmp_path / "result.json"
    assert main([*RUNS[verb], "--format", "json", "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out == "" and out.read_text(encoding="utf-8") == printed


@pytest.mark.parametrize("verb", sorted(RUNS))
def test_out_in_a_missing_folder_is_refused(capsys, tmp_path, verb):
    err = refused(capsys, [*RUNS[verb], "--out", str(tmp_path / "missing" / "x.txt")])
    assert "argument --out: cannot write" in err
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("path", ["/proc/x.txt", "/proc/version"])
def test_out_that_cannot_be_made_is_refused_before_the_run(capsys, path):
    """/proc takes no new file and its files are read-only: refused when the command line is parsed."""
    err = refused(capsys, ["advise", "--samples", "2", "--jobs", "1", "--out", path])
    assert f"argument --out: cannot write {path}" in err and "sampled deals" not in err


def test_out_that_cannot_be_written_is_named(capsys):
    """/dev/full opens but refuses the write: the error names the file, not only the system's errno."""
    assert main(["score", "solo", "--declarer", "0", "--tricks", "7", "--out", "/dev/full"]) == 2
    assert "wiezen-sim score: error: cannot write /dev/full: No space left on device" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["score", "solo", "--declarer", "0", "--tricks", "7", "--target", "99"], "argument --target: must be from 0"),
        (["score", "solo", "--declarer", "0", "--tricks", "7", "--target", "-1"], "argument --target: must be from 0"),
        (["score", "abondance", "--declarer", "0", "--tricks", "9", "--level", "8"], "argument --level"),
        (["advise", "--samples", "0"], "argument --samples"),
        (["advise", "--worlds", "0", "--method", "pimc"], "argument --worlds"),
        (["advise", "--contracts", "grand"], "argument --contracts: unknown contract 'grand'"),
        (["advise", "--plot", "chart.txt"], "argument --plot: a chart file ends in"),
        (["demo", "--seed", "-1"], "argument --seed: must be at least 0"),
        (["serve", "--port", "70000"], "argument --port: must be from 0 to 65535"),
        (["solve", "--deal", DEAL, "--trump", "NT", "--leader", "X", "--side", "NS"], "argument --leader"),
        (
            ["romanian", "advise", "AS", "--players", "3", "--seat", "0", "--trump", "QD", "--samples", "-5"],
            "argument --samples",
        ),
    ],
)
def test_numbers_out_of_range_are_refused(capsys, argv, message):
    assert message in refused(capsys, argv)


def test_seats_by_name_and_number(capsys):
    for verb in ("score", "romanian advise"):
        outputs = []
        for seat in ("0", "eldest"):
            argv = list(RUNS[verb])
            argv[argv.index("--declarer" if verb == "score" else "--seat") + 1] = seat
            assert main([*argv, "--format", "json"]) == 0
            outputs.append(capsys.readouterr().out)
        assert outputs[0] == outputs[1]
    outputs = []
    for leader, side in (("1", "02"), ("E", "NS"), ("e", "0,2")):  # PBN seats: 0..3 = N E S W
        argv = ["solve", "--deal", DEAL, "--trump", "NT", "--leader", leader, "--side", side, "--format", "json"]
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize("verb", ["advise", "solve", "score", "demo", "romanian advise"])
def test_every_help_says_how_seats_are_numbered(capsys, verb):
    exit_code([*verb.split(), "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert ("0 = eldest" in out and "dealer" in out) or "0..3 = N E S W" in out, out


def test_version(capsys):
    assert exit_code(["--version"]) == 0
    assert capsys.readouterr().out.startswith("wiezen-sim ")


def test_every_verb_is_registered():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == {v.split()[0] for v in VERBS}
