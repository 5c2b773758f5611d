"""``wiezen-sim romanian advise|simulate``: output formats; bad input → one line on stderr, exit 2."""

import json

import pytest

from wiezen_sim.cli import main


def run(argv):
    try:
        return main(argv)
    except SystemExit as exc:  # argparse errors
        return exc.code


def test_advise_json(capsys):
    argv = ["romanian", "advise", "AH 9S", "--players", "4", "--seat", "3", "--trump", "QH", "--bids", "1,0,0"]
    assert run([*argv, "--samples", "2000", "--seed", "3", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("hand", "players", "seat", "trump", "bids_so_far", "scoring", "samples", "options", "recommendation"):
        assert key in out
    assert out["players"] == 4 and out["seat"] == 3 and out["trump"] == "QH" and out["bids_so_far"] == [1, 0, 0]
    assert out["samples"] == 2000 and out["scoring"] == "default"
    assert [o["bid"] for o in out["options"]] == [0, 1, 2]
    assert [o["legal"] for o in out["options"]] == [True, False, True]
    assert out["recommendation"]["bid"] != 1
    best = max((o for o in out["options"] if o["legal"]), key=lambda o: o["expected_score"])
    assert out["recommendation"] == {"bid": best["bid"], "expected_score": best["expected_score"]}


def test_same_seed_same_output_for_any_jobs(capsys):
    """One seed word per sampled deal (wiezen_sim.parallel): --jobs never changes a number.

    4100 samples are two batches (4096 + 4), summed in batch order; with --bid-sigma the
    counts are float weights, whose sums would change with a different grouping. (Games:
    test_romanian_game.test_simulate_does_not_depend_on_n_jobs.)
    """
    argv = ["romanian", "advise", "AS KH 9D 8C 7C", "--players", "4", "--seat", "dealer", "--trump", "QD",
            "--bids", "1,1,1", "--samples", "4100", "--seed", "4", "--bid-sigma", "0.7",
            "--format", "json"]  # fmt: skip
    outputs = []
    for jobs in ("1", "2"):
        assert run([*argv, "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and json.loads(outputs[0])["effective_samples"] < 4100


def test_advise_table_and_csv(capsys):
    argv = ["romanian", "advise", "AS KS 9H 8D AC KC 7C QD", "--players", "4", "--seat", "0", "--trump", "none"]
    assert run([*argv, "--samples", "500"]) == 0
    out = capsys.readouterr().out
    assert "recommended bid:" in out and "8-card deal" in out
    assert run([*argv, "--samples", "500", "--format", "csv", "--scoring", "triangular"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("bid,legal,p_exact") and len(lines) == 10


def test_simulate_json(capsys):
    argv = [
        "romanian",
        "simulate",
        "--players",
        "3",
        "--games",
        "2",
        "--policies",
        "heuristic,random",
        "--format",
        "json",
    ]
    assert run(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["policy"] for r in out["rows"]] == ["heuristic", "random"]
    assert all(r["games"] == 2 for r in out["rows"])


def test_simulate_table(capsys):
    argv = ["romanian", "simulate", "--players", "4", "--games", "2", "--policies", "heuristic,random"]
    assert run([*argv, "--sequence", "each", "--scoring", "streak5"]) == 0
    out = capsys.readouterr().out
    assert "mean score/game" in out and "heuristic" in out


ADV = ["romanian", "advise"]


@pytest.mark.parametrize(
    "argv,message",
    [
        ([*ADV, "AS KS", "--players", "7", "--seat", "0", "--trump", "AH"], "3 to 6 players"),
        ([*ADV, "AS KS", "--players", "2", "--seat", "0", "--trump", "AH"], "3 to 6 players"),
        ([*ADV, "AS KS QS JS TS 9S 8S 7S AH", "--players", "4", "--seat", "0", "--trump", "none"], "1 to 8 cards"),
        ([*ADV, "AS KS QS JS TS 9S 8S 7S", "--players", "4", "--seat", "0", "--trump", "AH"], "no turned card"),
        ([*ADV, "AS KS", "--players", "4", "--seat", "0", "--trump", "none"], "has a turned card"),
        ([*ADV, "AS 2S", "--players", "4", "--seat", "0", "--trump", "AH"], "2S is not in the 32-card deck"),
        ([*ADV, "AS 8S", "--players", "3", "--seat", "0", "--trump", "AH"], "8S is not in the 24-card deck"),
        ([*ADV, "AS KS", "--players", "4", "--seat", "1", "--trump", "AH"], "give 1 bids"),
        ([*ADV, "AS KS", "--players", "4", "--seat", "1", "--trump", "AH", "--bids", "x"], "comma-separated"),
        ([*ADV, "AS KS", "--players", "4", "--seat", "0", "--trump", "XX"], "not a card"),
        ([*ADV, "AS KS", "--players", "4", "--seat", "0", "--trump", "AH", "--samples", "0"], "from 1 to"),
        ([*ADV, "AS KS", "--players", "4", "--seat", "0", "--trump", "AH", "--bid-sigma", "-1"], "number ≥ 0"),
        (["romanian", "simulate", "--players", "9", "--games", "2"], "3 to 6 players"),
        (["romanian", "simulate", "--players", "4", "--games", "0"], "--games: must be from 1 to"),
        (["romanian", "simulate", "--players", "4", "--games", "99999999999999999999"], "--games: must be from 1 to"),
        (["romanian", "simulate", "--players", "4", "--games", "1", "--policies", "oracle"], "unknown policy"),
        (["romanian", "simulate", "--players", "4", "--games", "1", "--scoring", "x"], "invalid choice"),
        # an empty entry was dropped: 1,,0 counted as two bids, heuristic,,random taken as two policies
        (
            [*ADV, "AS KS", "--players", "4", "--seat", "3", "--trump", "AH", "--bids", "1,,0"],
            "argument --bids: an empty entry in '1,,0'",
        ),
        (
            ["romanian", "simulate", "--players", "4", "--games", "1", "--policies", "heuristic,,random"],
            "argument --policies: an empty entry in 'heuristic,,random'",
        ),
        (
            ["romanian", "simulate", "--players", "4", "--games", "1", "--special", "blind,"],
            "argument --special: an empty entry in 'blind,'",
        ),
        (
            ["romanian", "simulate", "--players", "4", "--games", "1", "--policies", "heuristic,mc", "--worlds", "4"],
            "--worlds is for PIMC play: add pimc to --policies",
        ),
    ],
)
def test_bad_input_one_line_exit_2(capsys, argv, message):
    assert run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err


def _strict(text: str):
    """JSON as the standard has it: NaN or Infinity is an error."""

    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_json_has_null_not_nan(capsys):
    """One sampled deal or one game has no interval: null in the JSON, never NaN (invalid JSON)."""
    argv = ["romanian", "advise", "AS KH 9D", "--players", "4", "--seat", "dealer", "--trump", "QD", "--bids", "1,0,1"]
    assert run([*argv, "--samples", "1", "--format", "json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert all(o["expected_score_ci"] == [None, None] for o in out["options"]) and out["partial"] is False
    argv = ["romanian", "simulate", "--players", "3", "--games", "1", "--policies", "heuristic,random"]
    assert run([*argv, "--format", "json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert out["games"] == 1 and all(r["score_lo"] is None and r["score_hi"] is None for r in out["rows"])
