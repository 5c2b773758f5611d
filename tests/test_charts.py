"""Charts say what they show (issue 23): method, n and interval type in the caption, titles that match the axes,
readable decision cells, distinguishable series. Drawn from the committed results, so solving nothing."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

from wiezen_sim.analysis.charts import chart_figures, label, plot_decision, plot_lines, text_colour
from wiezen_sim.analysis.experiment import decisions
from wiezen_sim.analysis.experiment_file import load_experiment

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = sorted(p for p in (ROOT / "experiments").glob("*.toml") if (ROOT / "results" / p.stem).is_dir())


def caption(fig: Figure) -> str:
    """The caption of a chart, its line breaks and no-break spaces made plain spaces."""
    return " ".join(" ".join(t.get_text() for t in fig.texts if t.get_gid() == "caption").split())


def title(fig: Figure) -> str:
    return " ".join(fig.get_suptitle().split())


def committed_figures(path: Path) -> tuple[list[dict], dict[str, Figure]]:
    """The charts of an experiment file drawn from its committed run (results/<name>/)."""
    out = ROOT / "results" / path.stem
    samples = json.loads((out / "meta.json").read_text())["parameters"]["samples"]
    exp = load_experiment(path, samples=samples)
    table, hands = pd.read_parquet(out / "table.parquet"), pd.read_parquet(out / "hands.parquet")
    decided = decisions(table, hands) if any(c.get("kind") == "decision" for c in exp.charts) else None
    return exp.charts, chart_figures(exp.charts, table, decided)


def test_every_experiment_has_a_committed_run():
    assert {p.stem for p in EXPERIMENTS} == {"abondance", "decision", "miserie", "rules_of_thumb", "strength"}


@pytest.mark.parametrize("path", EXPERIMENTS, ids=lambda p: p.stem)
def test_committed_experiment_charts_say_what_they_show(path):
    specs, figures = committed_figures(path)
    assert len(figures) == len(specs) > 0
    for spec, (stem, fig) in zip(specs, figures.items(), strict=True):
        text = caption(fig)
        assert "double dummy" in text.lower(), (stem, text)
        assert "n = " in text, (stem, text)
        if spec.get("kind") == "decision":
            assert "hands per cell" in text and "95 %" in text and "expected settlement" in title(fig)
            continue
        y = spec.get("y", "p_success")
        interval = {"p_success": "Wilson 95 % interval", "ev_units": "Student-t 95 % interval"}[y]
        assert interval in text, (stem, text)
        assert ("deals per point" if y == "p_success" else "hands per point") in text
        measure = label(y).split(" (units)")[0]
        assert measure in title(fig), (stem, title(fig))  # e.g. no "P(9 tricks)" over "P(contract made)"
        assert fig.axes[0].get_ylabel() == label(y)
        assert all(ax.get_xlabel() for ax in fig.axes)


def test_caption_names_the_method_and_the_range_of_n():
    table = pd.DataFrame(
        {
            "contract": "vraag",
            "method": "pimc",
            "seat": "eldest",
            "x": [1, 2, 3],
            "n": [10, 12, 11],
            "hands": 12,
            "p_success": 0.5,
            "ci_low": 0.3,
            "ci_high": 0.7,
            "ev_units": [1.0, 2.0, 3.0],
            "ev_low": 0.0,
            "ev_high": 4.0,
        }
    )
    fig = plot_lines(table, x="x")
    assert caption(fig) == "PIMC play reading the auction; n = 10–12 deals per point; error bars: Wilson 95 % interval"
    fig = plot_lines(table, x="x", y="ev_units")
    assert caption(fig) == (
        "PIMC play reading the auction; n = 12 hands per point; error bars: Student-t 95 % interval over hands"
    )


def test_lines_differ_by_colour_marker_and_style():
    table = pd.DataFrame(
        {
            "method": "dd",
            "x": [1, 2] * 4,
            "h": [a for a in "abcd" for _ in range(2)],
            "n": 5,
            "p_success": 0.5,
            "ci_low": 0.2,
            "ci_high": 0.8,
        }
    )
    fig = plot_lines(table, x="x", hue="h")
    lines = [bars.lines[0] for bars in fig.axes[0].containers]  # the data line of each errorbar
    assert len(lines) == 4
    styles = {(line.get_color(), line.get_marker(), line.get_linestyle()) for line in lines}
    assert len({s[0] for s in styles}) == len({s[1] for s in styles}) == len({s[2] for s in styles}) == 4
    legend = fig.legends[0]
    assert legend.get_title().get_text() == "h" and [t.get_text() for t in legend.get_texts()] == list("abcd")


def test_text_colour_follows_luminance():
    assert text_colour("white") == "black" and text_colour("black") == "white"
    assert text_colour("#1f78b4") == "white"  # solo's dark blue
    assert text_colour("#d9d9d9") == "black"  # pass's light grey


def test_decision_cells_are_readable_and_explained():
    decided = pd.DataFrame(
        {
            "class": ["a", "b"],
            "seat": "eldest",
            "method": "dd",
            "hands": 16,
            "best": ["solo", "pass"],
            "best_ev": [7.5, 0.0],
            "runner_up": ["vraag", "vraag"],
            "runner_up_ev": [1.0, -0.2],
            "p_order": [0.999, 0.6],
            "clear": [True, False],
            "points": [10, 20],
            "trump_length": [5, 5],
        }
    )
    fig = plot_decision(decided, row="points", col="trump_length")
    cells = {t.get_text(): t.get_color() for t in fig.axes[0].texts}
    assert cells == {"solo\n+7.5": "white", "pass\n+0.0\nor vraag": "black"}
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend[:2] == ["solo", "pass"] and "as good within sampling error" in legend[-1]
    text = caption(fig)
    assert "n = 16 hands per cell" in text and "double dummy" in text and "95 % interval" in text
    assert "~" not in " ".join(cells)


def load_script(name: str):
    """An experiment script of experiments/ as a module (they are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "experiments" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dd_vs_pimc_chart():
    script = load_script("dd_vs_pimc")
    out = ROOT / "results" / "dd_vs_pimc"
    table = pd.read_csv(out / "success.csv")
    fig = script.chart(table, json.loads((out / "meta.json").read_text()))
    text = caption(fig)
    assert f"n = {table.n.min()}–{table.n.max()} deals per contract" in text and "Wilson 95 % interval" in text
    assert "double dummy" in title(fig) and "PIMC" in title(fig)
    assert fig.axes[0].get_ylabel() == "P(contract made)" and "P(contract made)" in title(fig)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["double dummy", "PIMC play (16 worlds per card)", "heuristic play"]


def test_romanian_bid_value_chart_has_distinct_series_and_bands():
    script = load_script("romanian_bid_value")
    out = ROOT / "results" / "romanian"
    summary = script.summarise(pd.read_csv(out / "bid_value_by_strength.csv"))
    several = summary[summary.hands > 1]  # one hand has no interval
    assert (several.E0_low <= several.E0).all() and (several.E0_high >= several.E0).all()
    fig = script.chart(summary, json.loads((out / "bid_value_meta.json").read_text()))
    text = caption(fig)
    assert "Student-t 95 % interval over hands" in text and "n = " in text and "3000 sampled deals" in text
    ax = fig.axes[0]
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) > 2]
    styles = {(line.get_color(), line.get_marker(), line.get_linestyle()) for line in lines}
    assert len(styles) == len(lines) >= 8
    assert len(ax.collections) == len(lines)  # one interval band per line


def test_romanian_policies_chart():
    script = load_script("romanian_policies")
    out = ROOT / "results" / "romanian"
    fig = script.chart(pd.read_csv(out / "policies.csv"), json.loads((out / "policies_meta.json").read_text()))
    text = caption(fig)
    assert "n = 1200 games" in text and "Student-t 95 %" in text and "Wilson 95 %" in text and "PIMC" in text


@pytest.mark.parametrize("part", ["tournament", "house_rules", "shuffle"])
def test_sessions_charts(part):
    script = load_script("sessions")
    out = ROOT / "results" / f"sessions_{part}"
    fig = script.CHARTS[part][1](out, json.loads((out / "meta.json").read_text())["parameters"])
    text = caption(fig)
    assert "n = " in text and "heuristic card play" in text
    assert ("without interval" in text) == (part != "tournament")
    if part != "shuffle":
        assert "Student-t 95 %" in text
