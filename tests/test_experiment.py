"""Experiments over hand classes (issue 6): same table whatever the jobs, batches, backend or interruption."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wiezen_sim.analysis.advise import advise
from wiezen_sim.analysis.experiment import _dask_client, decisions, redraw_charts, run_experiment
from wiezen_sim.analysis.experiment_file import hand_class, load_experiment, sample_position
from wiezen_sim.cards import card_count, card_suit
from wiezen_sim.cli import main

SPEC = """
name = "small"
seed = 5
samples = {samples}
batch_size = {batch}
contracts = ["miserie", "open_miserie"]
seats = ["eldest", "dealer"]

[defaults]
points = [16, 40]  # strong hands: their misère fails fast (the tests stay quick)

[grid]
name = "{{aces}} aces"
aces = [2, 3]

[[charts]]
kind = "lines"
file = "misere"
x = "aces"
hue = "seat"
contract = "miserie"

[[charts]]
kind = "decision"
file = "decision"
row = "aces"
col = "seat"
facet = "method"
"""


def write_spec(tmp_path: Path, samples: int = 6, batch: int = 2, name: str = "small.toml") -> Path:
    path = tmp_path / name
    path.write_text(SPEC.format(samples=samples, batch=batch), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reference(tmp_path_factory, compiled_kernels) -> pd.DataFrame:
    """The table of an uninterrupted sequential run (6 hands per class and seat)."""
    tmp = tmp_path_factory.mktemp("ref")
    return run_experiment(write_spec(tmp), out=tmp / "out", n_jobs=1, progress=False).table


def test_outputs_and_meta(tmp_path, compiled_kernels):
    result = run_experiment(write_spec(tmp_path), out=tmp_path / "out", n_jobs=1, progress=False)
    out = tmp_path / "out"
    for name in ("table.parquet", "table.csv", "hands.parquet", "meta.json", "decisions.csv"):
        assert (out / name).exists(), name
    for stem in ("misere", "decision"):
        assert (out / f"{stem}.png").stat().st_size > 1000 and (out / f"{stem}.svg").exists()
    table = result.table
    assert len(table) == 2 * 2 * 2  # classes × seats × contracts
    assert set(table.columns) >= {"class", "contract", "method", "p_success", "ci_low", "ci_high", "ev_units", "n"}
    assert (table.ci_low <= table.p_success).all() and (table.p_success <= table.ci_high).all()
    assert (table.n == 6).all()
    pd.testing.assert_frame_equal(pd.read_parquet(out / "table.parquet"), table)
    # open miserie is the same double-dummy question as miserie, paid 16 instead of 10 (RULES.md 1.6)
    mis, opened = (table[table.contract == c].reset_index(drop=True) for c in ("miserie", "open_miserie"))
    assert (mis.successes == opened.successes).all()
    assert np.allclose(opened.ev_units, 1.6 * mis.ev_units)
    for key in ("git_commit", "seed", "parameters", "versions", "machine", "wall_time_s"):
        assert key in result.meta
    assert result.meta["seed"] == 5 and result.meta["hands"] == 24


def test_hands_belong_to_their_class(tmp_path, compiled_kernels):
    result = run_experiment(write_spec(tmp_path), out=tmp_path / "out", n_jobs=1, progress=False, charts=False)
    from wiezen_sim.cards import parse_hand

    exp = load_experiment(write_spec(tmp_path))
    by_name = {c.name: c for c in exp.classes}
    for row in result.hands.itertuples():
        assert by_name[row[1]].matches(parse_hand(row.hand))


def test_same_table_for_any_jobs_and_batch_size(tmp_path, reference):
    other = run_experiment(write_spec(tmp_path, batch=5), out=tmp_path / "out", n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(other.table, reference)


def test_more_samples_keep_the_first_hands(tmp_path, reference):
    """Prefix-stable seeds: 9 hands start with the same 6 hands."""
    small = run_experiment(write_spec(tmp_path, samples=6), out=tmp_path / "a", n_jobs=1, progress=False)
    big = run_experiment(write_spec(tmp_path, samples=9), out=tmp_path / "b", n_jobs=1, progress=False)
    first = big.hands[big.hands["sample"] < 6].reset_index(drop=True)
    pd.testing.assert_frame_equal(first, small.hands)


def test_killed_run_resumes_to_the_same_table(tmp_path, compiled_kernels):
    """Start a real run in a subprocess, SIGKILL it mid-way, finish it with --resume: the same table."""
    spec = write_spec(tmp_path, samples=100, batch=1)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "wiezen_sim.cli", "experiment", str(spec), "--out-dir", str(out), "--jobs", "1"]
    proc = subprocess.Popen([*cmd, "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list((out / "batches").glob("*.parquet"))) < 5:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "no batch finished in time"
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = len(list((out / "batches").glob("*.parquet")))
    assert 5 <= finished < 400 and not (out / "table.parquet").exists()
    part = run_experiment(spec, out=out, collect=True, progress=False, charts=False)
    assert len(part.hands) == 2 * finished and len(part.meta["missing_batches"]) == 400 - finished
    assert subprocess.run([*cmd, "--resume", "--quiet"], capture_output=True).returncode == 0
    resumed = pd.read_parquet(out / "table.parquet")
    meta = __import__("json").loads((out / "meta.json").read_text())
    assert meta["batches_resumed"] >= finished
    whole = run_experiment(spec, out=tmp_path / "whole", n_jobs=2, progress=False, charts=False).table
    pd.testing.assert_frame_equal(resumed, whole)


def test_the_shipped_abondance_experiment_runs_its_three_ace_class(tmp_path, compiled_kernels):
    """Nine trumps with A-K-Q and two outside aces: three aces, so troel is obligatory and pass is no bid
    (RULES.md 1.4); an experiment asking abondance only still gets its table rows."""
    spec = tomllib.loads((Path(__file__).resolve().parents[1] / "experiments" / "abondance.toml").read_text())
    spec["grid"] = {**spec["grid"], "trump_length": [9], "trump_honours": ["AKQ"], "outside_aces": [2]}
    res = run_experiment({**spec, "samples": 2}, out=tmp_path / "out", n_jobs=1, progress=False, charts=False)
    assert len(res.hands) == 4  # 2 hands × 2 seats
    assert set(res.table.contract) == {"abondance"} and (res.table.n == 2).all()


def test_resume_refuses_other_parameters(tmp_path, compiled_kernels):
    run_experiment(write_spec(tmp_path, samples=2), out=tmp_path / "out", n_jobs=1, progress=False, charts=False)
    with pytest.raises(ValueError, match="different experiment"):
        run_experiment(write_spec(tmp_path, samples=3), out=tmp_path / "out", resume=True, progress=False)


def test_dask_local_cluster_gives_the_loky_table(tmp_path, reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        result = run_experiment(
            write_spec(tmp_path), out=tmp_path / "out", backend="dask", scheduler=c.scheduler_address, progress=False
        )
    pd.testing.assert_frame_equal(result.table, reference)


def test_decisions_pass_when_everything_loses(reference, tmp_path):
    hands = pd.DataFrame(
        {
            "class": "c",
            "seat": "eldest",
            "method": "dd",
            "sample": [0, 1, 0, 1],
            "contract": ["solo"] * 2 + ["miserie"] * 2,
            "ev_units": [-3.0, -6.0, 30.0, -31.0],
        }
    )
    table = pd.DataFrame(
        {"class": ["c"], "seat": ["eldest"], "method": ["dd"], "contract": ["solo"], "trump_length": [5]}
    )
    d = decisions(table, hands).iloc[0]
    assert d.best == "pass" and d.runner_up == "miserie" and not d.clear and d.trump_length == 5


def test_contracts_filter_gives_the_full_tables_rows(compiled_kernels):
    args = ("S:2345 H:2345 D:2345 C:2", "second", "AH")
    full = advise(*args, samples=6, seed=3, n_jobs=1, progress=False).table
    part = advise(*args, samples=6, seed=3, n_jobs=1, progress=False, contracts=["miserie", "pico"]).table
    expect = full[full.contract.isin(["miserie", "pico"])].dropna(axis=1, how="all").reset_index(drop=True)
    pd.testing.assert_frame_equal(part.dropna(axis=1, how="all"), expect)


def test_turned_card_follows_the_class_and_seat():
    hc = hand_class({"trump": "D", "trump_length": 4})
    for seat in (0, 3):
        for word in range(20):
            hand, turned = sample_position(hc, seat, word)
            assert card_suit(turned) == 2 and bool(hand >> turned & 1) == (seat == 3) and card_count(hand) == 13


@pytest.mark.parametrize(
    "change,message",
    [
        ({"contracts": ["slam"]}, "unknown contract"),
        ({"colour": 3}, "unknown experiment key"),
        ({"seats": ["north"]}, "unknown seat"),
        ({"samples": 0}, "samples must be a whole number from 1 to 10000000, got 0"),
        ({"defaults": {"shape": "9-9-0-0"}}, "four suit lengths summing to 13"),
        ({"defaults": {"width": 3}}, "unknown hand-class field"),
        ({"defaults": {"lengths": "5-5-5-x"}}, "is empty"),
        ({"defaults": {"trump_length": 4}}, "trump features need trump"),
        ({"charts": [{"kind": "pie"}]}, "unknown chart kind"),
        ({"grid": {}}, "no hand classes"),
        ({"methods": ["oracle"]}, "unknown method"),
        ({"name": "../../../tmp/x"}, "name = '../../../tmp/x' is not a folder name"),
        ({"name": ".."}, "is not a folder name"),
        ({"name": "/tmp/x"}, "is not a folder name"),
        ({"contracts": ["troel"]}, "troel needs"),
    ],
)
def test_bad_experiments(tmp_path, change, message, compiled_kernels):
    spec = {**tomllib.loads(SPEC.format(samples=1, batch=1)), **change}
    with pytest.raises(ValueError, match=message):
        run_experiment(spec, out=tmp_path / "out", n_jobs=1, progress=False)
    assert not (tmp_path / "out").exists()  # a rejected experiment leaves nothing behind


@pytest.mark.parametrize(
    "change,message",
    [
        (
            {"grid": {"name": "{nope} trumps", "aces": [2]}},
            r"grid.name = '\{nope\} trumps': unknown placeholder \{nope\}; "
            r"placeholders allowed: \{aces\}",
        ),
        ({"grid": {"name": "{0} trumps", "aces": [2]}}, r"grid.name = .*unknown placeholder \{0\}"),
        ({"grid": {"name": "{aces trumps", "aces": [2]}}, r"grid.name = .*expected '\}'.*allowed: \{aces\}"),
        ({"grid": {"name": "{aces:{x}}", "aces": [2]}}, r"grid.name = .*unknown placeholder \{x\}"),
        ({"grid": {"name": 3, "aces": [2]}}, "grid.name must be a text"),
        ({"samples": 2.5}, "samples must be a whole number from 1 to 10000000, got 2.5"),
        ({"samples": 10**8}, "samples must be a whole number from 1 to 10000000"),
        ({"deals": True}, "deals must be a whole number"),
        ({"batch_size": "4"}, "batch_size must be a whole number"),
        ({"seed": 2.5}, "seed must be a non-negative integer, got 2.5"),
        ({"accept_tricks": "4"}, "accept_tricks must be a number of playing tricks from 0 to 13"),
        ({"accept_tricks": 14}, "accept_tricks must be a number"),
        ({"turned": "nope"}, "turned must be one of trump, other, any"),
        ({"contracts": "abondance"}, "contracts must be a list of contract names, got 'abondance'"),
        ({"seats": "eldest"}, "seats must be a list of seats, got 'eldest'"),
        ({"methods": "dd"}, "methods must be a list of method names, got 'dd'"),
        ({"classes": [{"name": "x", "contracts": "solo"}]}, "classes.contracts must be a list of contract names"),
        ({"classes": {"name": "x"}}, "classes must be a list of tables"),
        ({"charts": {"kind": "lines"}}, "charts must be a list of tables"),
        ({"grid": ["aces"]}, "grid must be a table"),
        ({"defaults": 3}, "defaults must be a table"),
        # a second tester's file wrote its charts outside the results folder, and counted a seat twice
        ({"charts": [{"kind": "lines", "x": "aces", "file": "../../../../tmp/evil"}]}, "is not a file name"),
        ({"charts": [{"kind": "lines", "x": "aces", "file": "/tmp/evil"}]}, "file = '/tmp/evil' is not a file name"),
        ({"charts": [{"kind": "lines", "x": "aces", "file": ""}]}, "file = '' is not a file name"),
        ({"seats": ["eldest", "eldest"]}, r"seats must name at least one, each once, got \['eldest', 'eldest'\]"),
        ({"methods": []}, r"methods must name at least one, each once, got \[\]"),  # was "No objects to concatenate"
        ({"grid": {"trump_length": ["67"]}, "defaults": {"trump": "H"}}, "trump_length must be a whole number or a"),
        ({"grid": {"trump_length": [True]}, "defaults": {"trump": "H"}}, "trump_length must be a whole number or a"),
        ({"grid": {"trump_length": [6.5]}, "defaults": {"trump": "H"}}, "trump_length must be a whole number or a"),
    ],
)
def test_experiment_file_values_are_checked_when_loaded(change, message):
    """A typo in grid.name or a value of the wrong type is refused by name when the file is read (no traceback,
    no 2.5 samples run as 2, no string taken letter by letter as a list)."""
    spec = {**tomllib.loads(SPEC.format(samples=1, batch=1)), **change}
    with pytest.raises(ValueError, match=message):
        load_experiment(spec)


def test_samples_override_is_checked():
    with pytest.raises(ValueError, match=r"samples must be a whole number from 1 to 10000000, got 2\.5"):
        load_experiment(tomllib.loads(SPEC.format(samples=1, batch=1)), samples=2.5)


@pytest.mark.parametrize(
    "chart,message",
    [
        ({"kind": "lines", "x": "nosuchcol", "contract": "miserie"}, "no column 'nosuchcol'"),
        ({"kind": "bars", "colour": "red"}, "unexpected keyword"),
        ({"kind": "decision", "row": "aces", "col": "nosuchcol"}, "nosuchcol"),
    ],
)
def test_bad_chart_fails_before_solving(tmp_path, chart, message, compiled_kernels):
    spec = {**tomllib.loads(SPEC.format(samples=1, batch=1)), "charts": [chart]}
    with pytest.raises(ValueError, match=message):
        run_experiment(spec, out=tmp_path / "out", n_jobs=1, progress=False)
    assert not (tmp_path / "out").exists()


def test_rejected_rerun_keeps_the_earlier_batches(tmp_path, compiled_kernels):
    out = tmp_path / "out"
    run_experiment(write_spec(tmp_path, samples=2), out=out, n_jobs=1, progress=False, charts=False)
    batches = sorted((out / "batches").iterdir())
    spec = {**tomllib.loads(SPEC.format(samples=2, batch=2)), "charts": [{"kind": "pie"}]}
    with pytest.raises(ValueError, match="unknown chart kind"):
        run_experiment(spec, out=out, n_jobs=1, progress=False)
    assert sorted((out / "batches").iterdir()) == batches


def test_collect_on_a_missing_folder_creates_nothing(tmp_path, compiled_kernels):
    with pytest.raises(ValueError, match="no finished batches"):
        run_experiment(write_spec(tmp_path), out=tmp_path / "missing" / "out", collect=True, progress=False)
    assert not (tmp_path / "missing").exists()


def test_redraw_charts_from_the_hands_of_a_run(tmp_path, compiled_kernels):
    out = tmp_path / "out"
    with pytest.raises(ValueError, match="no finished run under"):
        redraw_charts(write_spec(tmp_path), out=out)
    first = run_experiment(write_spec(tmp_path), out=out, n_jobs=1, progress=False)
    for chart in out.glob("*.png"):
        chart.unlink()
    again = redraw_charts(write_spec(tmp_path, samples=99), out=out)  # the sample count comes from meta.json
    assert again.meta["charts"] == ["misere", "decision"] and (out / "decision.png").stat().st_size > 1000
    pd.testing.assert_frame_equal(again.table, first.table)
    pd.testing.assert_frame_equal(again.decisions, first.decisions)
    spec = {**tomllib.loads(SPEC.format(samples=6, batch=2)), "seed": 6}
    with pytest.raises(ValueError, match="other parameters"):
        redraw_charts(spec, out=out)


def test_bad_toml(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("= broken\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_experiment(path)
    path.write_bytes(bytes(range(256)))
    with pytest.raises(ValueError, match=f"{path}: not a TOML file"):
        load_experiment(path)
    with pytest.raises(ValueError, match=f"no experiment file {tmp_path / 'missing.toml'}"):
        load_experiment(tmp_path / "missing.toml")


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["experiment", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "missing.toml" in err
    spec = write_spec(tmp_path)
    assert main(["experiment", str(spec), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--backend dask" in capsys.readouterr().err
    assert os.path.exists(spec)


def test_local_dask_cluster_has_the_workers_asked_for(monkeypatch):
    """--jobs N gives N dask workers, -1 one per core (an operator-precedence slip once gave every core)."""
    distributed = pytest.importorskip("distributed")
    started = []
    monkeypatch.setattr(distributed, "LocalCluster", lambda n_workers, **kwargs: started.append(n_workers) or "cluster")
    monkeypatch.setattr(distributed, "Client", lambda cluster: ("client", cluster))
    assert _dask_client(None, 1) == (("client", "cluster"), "cluster")
    _dask_client(None, 3)
    _dask_client(None, -1)
    assert started == [1, 3, os.cpu_count()]


def test_an_experiment_files_rules_file_is_read_from_its_folder(tmp_path, monkeypatch):
    """``rules = "house.toml"`` beside the experiment file, run from another folder (a tester's report: it was
    looked for in the current folder)."""
    folder = tmp_path / "ex"
    folder.mkdir()
    (folder / "house.toml").write_text('preset = "classic"\n', encoding="utf-8")
    spec = SPEC.format(samples=1, batch=1).replace('contracts = ["miserie", "open_miserie"]', 'contracts = ["miserie"]')
    (folder / "e.toml").write_text('rules = "house.toml"\n' + spec, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_experiment(folder / "e.toml").rules == str(folder / "house.toml")


def test_resume_over_a_damaged_stamp_names_the_file(tmp_path, compiled_kernels):
    """A damaged batches/experiment.json (a tester's run) said only "Expecting value: line 1 column 1 (char 0)"."""
    run_experiment(write_spec(tmp_path, samples=2), out=tmp_path / "out", n_jobs=1, progress=False, charts=False)
    stamp = tmp_path / "out" / "batches" / "experiment.json"
    stamp.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match=f"{re.escape(str(stamp))} is damaged .*--overwrite replaces"):
        run_experiment(write_spec(tmp_path, samples=2), out=tmp_path / "out", resume=True, progress=False)


def test_a_folder_holding_a_run_is_refused_without_resume_or_overwrite(tmp_path, compiled_kernels):
    """A second run into a results folder used to remove its batches and outputs without a word."""
    out = tmp_path / "out"
    run_experiment(write_spec(tmp_path, samples=2), out=out, n_jobs=1, progress=False, charts=False)
    batches = sorted((out / "batches").iterdir())
    table = (out / "table.csv").read_bytes()
    with pytest.raises(ValueError, match=r"already holds a run \(\d+ finished batches\).*--overwrite"):
        run_experiment(write_spec(tmp_path, samples=2), out=out, n_jobs=1, progress=False, charts=False)
    assert sorted((out / "batches").iterdir()) == batches and (out / "table.csv").read_bytes() == table
    with pytest.raises(ValueError, match="cannot go with resume or collect"):
        run_experiment(write_spec(tmp_path, samples=2), out=out, resume=True, overwrite=True, progress=False)
    again = run_experiment(write_spec(tmp_path, samples=2), out=out, n_jobs=1, progress=False, charts=False,
                           overwrite=True)  # fmt: skip
    assert again.meta["batches_resumed"] == 0


def test_cli_refuses_an_experiment_folder_in_use(tmp_path, compiled_kernels):
    spec = write_spec(tmp_path, samples=2)
    cmd = [sys.executable, "-m", "wiezen_sim.cli", "experiment", str(spec), "--out-dir", str(tmp_path / "o"), "--jobs",
           "1", "--quiet"]  # fmt: skip
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert again.returncode != 0 and "already holds a run" in again.stderr and "Traceback" not in again.stderr
    assert subprocess.run([*cmd, "--overwrite"], capture_output=True).returncode == 0
    both = subprocess.run([*cmd, "--overwrite", "--resume"], capture_output=True, text=True)
    assert both.returncode == 2 and "not allowed with" in both.stderr
