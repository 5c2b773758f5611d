"""Charts of experiment tables in the field's words, with their intervals (issue 6).

Three kinds, each a function returning a matplotlib ``Figure`` and named by the
``kind`` of an experiment file's ``[[charts]]`` entry:

- ``lines`` (:func:`plot_lines`): a measure (success probability with its Wilson
  interval, expected settlement with its t-interval, or mean tricks) against a hand
  feature such as trump length, one line per value of a second feature, one panel per
  value of a third (e.g. the seat);
- ``bars`` (:func:`plot_bars`): a measure per hand class, one bar per contract;
- ``decision`` (:func:`plot_decision`): the contract of highest expected value per cell
  of a two-feature grid, like a blackjack basic-strategy chart; hatched cells are those
  where the best and the runner-up are within sampling error.

Every chart has a caption (a figure text with gid ``caption``) that says how the
numbers were obtained (double dummy, PIMC or heuristic play), how many deals or hands
each point is (n) and which interval the error bars are (Wilson 95 % for a
probability, Student-t 95 % for a mean).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure  # figures without pyplot: no GUI backend, nothing global to close
from matplotlib.patches import Patch, Rectangle

if TYPE_CHECKING:
    from wiezen_sim.analysis.advise.report import Advice

__all__ = [
    "COLOURS",
    "INTERVALS",
    "LABELS",
    "draw_charts",
    "label",
    "plot_advice",
    "plot_bars",
    "plot_decision",
    "plot_lines",
]

LABELS = {
    "p_success": "P(contract made)",
    "ev_units": "expected settlement (units)",
    "mean_tricks": "tricks taken by the declaring side",
    "trump_length": "trump length (cards)",
    "trump_honours": "top trump honours held",
    "outside_aces": "aces outside trumps",
    "aces": "aces",
    "tricks": "playing tricks of your own",
    "points": "high-card points (A4 K3 Q2 J1)",
    "troel_points": "high-card points (A4 K3 Q2 J1)",
    "own_tricks": "playing tricks of your own",
    "dangerous": "dangerous suits (lowest card 6 or higher)",
    "doubleton_lowest": "lowest card of the doubleton",
    "shape": "shape (suit lengths)",
    "seat": "seat",
    "class": "hand class",
    "contract": "contract",
}
INTERVALS = {"p_success": ("ci_low", "ci_high"), "ev_units": ("ev_low", "ev_high")}
INTERVAL_NAMES = {"p_success": "Wilson 95\u00a0% interval", "ev_units": "Student-t 95\u00a0% interval over hands"}
METHOD_NAMES = {
    "dd": "double dummy (all four hands seen)",
    "pimc": "PIMC play reading the auction",
    "pimc-uniform": "PIMC play, uniform worlds",
    "heuristic": "heuristic play",
}
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":")
COLOURS = {
    "pass": "#d9d9d9",
    "vraag": "#a6cee3",
    "solo": "#1f78b4",
    "abondance": "#33a02c",
    "abondance_in_troef": "#b2df8a",
    "kleine_miserie": "#fdbf6f",
    "pico": "#ff7f00",
    "miserie": "#fb9a99",
    "open_miserie": "#e31a1c",
    "troel": "#cab2d6",
    "solo_slim": "#6a3d9a",
}


def label(column: str) -> str:
    """The axis label of a table column, in the field's words."""
    return LABELS.get(column, column.replace("_", " "))


def _show(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "none" if value == "" else str(value)


def method_name(method: str) -> str:
    """How a method's numbers were obtained, in words (``dd`` → double dummy)."""
    return METHOD_NAMES.get(method, method)


def _counts(values: pd.Series, unit: str) -> str:
    low, high = int(values.min()), int(values.max())
    return f"n = {low} {unit}" if low == high else f"n = {low}–{high} {unit}"


def measure_caption(table: pd.DataFrame, y: str) -> str:
    """The caption of a chart of ``y`` from ``table``: method, n per point and the interval of the error bars.

    n is the ``n`` column (deals) for a probability or mean tricks, ``hands`` for an
    expected settlement (its t-interval is over hands).
    """
    methods = ", ".join(method_name(m) for m in dict.fromkeys(table["method"])) if "method" in table else ""
    n = _counts(table["hands"], "hands") if y == "ev_units" else _counts(table["n"], "deals")
    bars = f"error bars: {INTERVAL_NAMES[y]}" if y in INTERVAL_NAMES else "no interval"
    text = "; ".join(part for part in (methods, f"{n} per point", bars) if part)
    return text[:1].upper() + text[1:]


def _select(
    table: pd.DataFrame, contract: str | None, method: str | None, where: dict | None = None, x: str | None = None
) -> pd.DataFrame:
    """The rows of one contract and method, those whose columns take the ``where`` values, and with an ``x``."""
    if contract is not None:
        table = table[table.contract == contract]
    for col, values in (where or {}).items():
        if col not in table:
            raise ValueError(f"the table has no column {col!r}")
        table = table[table[col].isin(values if isinstance(values, list) else [values])]
    if x is not None and x in table:
        table = table[table[x].notna()]
    if method is not None:
        table = table[table.method == method]
    if table.empty:
        raise ValueError(f"nothing to chart for contract {contract!r}, method {method!r}")
    return table


def plot_lines(
    table: pd.DataFrame,
    x: str,
    y: str = "p_success",
    hue: str | None = None,
    facet: str | None = None,
    contract: str | None = None,
    method: str | None = None,
    title: str | None = None,
    where: dict | None = None,
) -> Figure:
    """A measure against a feature with its interval as error bars; lines by ``hue``, panels by ``facet``.

    Lines differ by colour, marker and line style; the caption gives the method, n and
    the interval (:func:`measure_caption`).

    Args:
        table: an experiment table (:attr:`~wiezen_sim.analysis.experiment.ExperimentResult.table`).
        x, hue, facet: its columns (features or ``seat``/``contract``).
        y: ``p_success`` (Wilson 95 % bars), ``ev_units`` (t-interval bars) or ``mean_tricks``.
        contract, method: keep only these rows; ``where`` maps columns to the values kept.

    Raises:
        ValueError: no rows left, or an unknown column.
    """
    table = _select(table, contract, method, where, x)
    for col in (x, y, hue, facet):
        if col is not None and col not in table:
            raise ValueError(f"the table has no column {col!r}")
    point = [c for c in (facet, hue, x) if c is not None]
    if table.duplicated(point).any():
        raise ValueError(f"several rows per point of {point}: narrow them with where= (e.g. one seat) or facet/hue")
    panels = list(dict.fromkeys(table[facet])) if facet else [None]
    fig = Figure(figsize=(4.2 * len(panels) + 1.2, 3.4))
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)
    xs = list(dict.fromkeys(table[x]))
    numeric = all(isinstance(v, int | float | np.integer | np.floating) for v in xs)
    hues = list(dict.fromkeys(table[hue])) if hue else [None]
    handles: dict = {}  # one legend entry per hue, in hue order
    for ax, panel in zip(axes[0], panels, strict=True):
        part = table if panel is None else table[table[facet] == panel]
        for k, h in enumerate(hues):
            line = part if h is None else part[part[hue] == h]
            if line.empty:
                continue
            pos = line[x].to_numpy(float) if numeric else np.array([xs.index(v) for v in line[x]], float)
            pos = pos + (k - (len(hues) - 1) / 2) * 0.06 * (1 if numeric else 2)  # dodge the error bars
            yerr = None
            if y in INTERVALS:
                lo, hi = INTERVALS[y]
                yerr = np.vstack([line[y] - line[lo], line[hi] - line[y]]).clip(min=0)
            style = {"marker": MARKERS[k % len(MARKERS)], "linestyle": LINESTYLES[k % len(LINESTYLES)]}
            drawn = ax.errorbar(pos, line[y], yerr=yerr, capsize=3, label=_show(h), color=f"C{k % 10}", **style)
            handles.setdefault(k, drawn)
        if not numeric:
            ax.set_xticks(range(len(xs)), [_show(v) for v in xs])
        elif all(float(v).is_integer() for v in xs):
            ax.set_xticks(sorted(xs), [_show(v) for v in sorted(xs)])
        ax.set_xlabel(label(x))
        if panel is not None and facet is not None:
            ax.set_title(f"{label(facet)}: {_show(panel)}", fontsize=10)
        if y == "p_success":
            ax.set_ylim(-0.03, 1.03)
        if y == "ev_units":
            ax.axhline(0, color="grey", lw=0.8)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel(label(y))
    legend = ([handles[k] for k in sorted(handles)], label(hue)) if hue else (None, None)
    finish_figure(fig, title or f"{contract or ''} {label(y)}".strip(), measure_caption(table, y), *legend)
    return fig


def plot_bars(
    table: pd.DataFrame,
    y: str = "p_success",
    x: str = "class",
    hue: str = "contract",
    contract: str | None = None,
    method: str | None = None,
    title: str | None = None,
    where: dict | None = None,
) -> Figure:
    """A measure per ``x`` (default the hand class) with one bar per ``hue`` and interval bars (captioned).

    Raises:
        ValueError: no rows left.
    """
    table = _select(table, contract, method, where, x)
    xs = list(dict.fromkeys(table[x]))
    hues = list(dict.fromkeys(table[hue]))
    width = 0.8 / len(hues)
    fig = Figure(figsize=(max(6.0, 1.1 * len(xs) + 2), 3.8))
    ax = fig.subplots()
    for k, h in enumerate(hues):
        part = table[table[hue] == h]
        pos = np.array([xs.index(v) for v in part[x]]) + (k - (len(hues) - 1) / 2) * width
        yerr = None
        if y in INTERVALS:
            lo, hi = INTERVALS[y]
            yerr = np.vstack([part[y] - part[lo], part[hi] - part[y]]).clip(min=0)
        ax.bar(pos, part[y], width, yerr=yerr, capsize=3, label=_show(h), color=COLOURS.get(str(h)))
    ax.set_xticks(range(len(xs)), [_show(v) for v in xs], rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(label(y))
    if y == "ev_units":
        ax.axhline(0, color="grey", lw=0.8)
    if len(hues) > 1:
        ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    finish_figure(fig, title or label(y), measure_caption(table, y))
    return fig


def text_colour(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (WCAG relative luminance above 0.179: black)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(background)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "black" if luminance > 0.179 else "white"


def plot_decision(
    decided: pd.DataFrame,
    row: str,
    col: str,
    facet: str | None = "seat",
    method: str | None = None,
    title: str | None = None,
) -> Figure:
    """The best contract per cell of a ``row`` × ``col`` feature grid (a basic-strategy chart).

    Each cell is coloured by the contract of highest expected value and shows its EV in
    units (pass is 0), its text black or white by the cell's luminance. A hatched cell,
    with "or X" below the EV, means the runner-up X is as good within sampling error
    (``clear`` is False in :func:`~wiezen_sim.analysis.experiment.decisions`). The
    caption gives the method and the hands per cell.

    Raises:
        ValueError: no rows, an unknown column, or two classes in one cell.
    """
    for c in (row, col, facet):
        if c is not None and c not in decided:
            raise ValueError(f"the decisions have no column {c!r}")
    if method is not None:
        decided = decided[decided.method == method]
    if decided.empty:
        raise ValueError("no decisions to chart")
    panels = list(dict.fromkeys(decided[facet])) if facet else [None]
    rows = list(dict.fromkeys(decided[row]))
    cols = list(dict.fromkeys(decided[col]))
    fig = Figure(figsize=(1.3 * len(cols) * len(panels) + 2.5, 0.75 * len(rows) + 1.8))
    axes = fig.subplots(1, len(panels), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        part = decided if panel is None else decided[decided[facet] == panel]
        if part.duplicated([row, col]).any():
            raise ValueError(f"two hand classes fall into one cell of {row} × {col}")
        for d in part.to_dict(orient="records"):
            i, j = rows.index(d[row]), cols.index(d[col])
            colour = COLOURS.get(d["best"], "white")
            hatch = None if d["clear"] else "///"
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor=colour, edgecolor="white", hatch=hatch))
            text = f"{str(d['best']).replace('_', ' ')}\n{d['best_ev']:+.1f}"
            if not d["clear"]:
                text += f"\nor {str(d['runner_up']).replace('_', ' ')}"
            box = {"facecolor": colour, "edgecolor": "none", "pad": 1.5}  # hides the hatching behind the text
            ax.text(j + 0.5, i + 0.5, text, ha="center", va="center", fontsize=7, color=text_colour(colour), bbox=box)
        ax.set_xlim(0, len(cols))
        ax.set_ylim(len(rows), 0)
        ax.set_xticks(np.arange(len(cols)) + 0.5, [_show(c) for c in cols])
        ax.set_yticks(np.arange(len(rows)) + 0.5, [_show(r) for r in rows])
        ax.set_xlabel(label(col))
        ax.set_ylabel(label(row))
        if panel is not None and facet is not None:
            ax.set_title(f"{label(facet)}: {_show(panel)}", fontsize=10)
    present = list(dict.fromkeys(decided["best"]))
    handles = [Patch(facecolor=COLOURS.get(c, "white"), label=c.replace("_", " ")) for c in present]
    close = 'hatched, "or X": X as good within sampling error'
    handles.append(Patch(facecolor="white", edgecolor="black", hatch="///", label=close))
    methods = ", ".join(method_name(m) for m in dict.fromkeys(decided["method"]))
    caption = (
        f"Each cell: the contract of highest expected settlement (units per hand, pass = 0); {methods}; "
        f"{_counts(decided['hands'], 'hands')} per cell. Hatched: the runner-up's expected settlement is "
        "within sampling error (the normal 95\u00a0% interval of the paired difference includes 0)."
    )
    finish_figure(fig, title or "best contract (highest expected settlement, units)", caption, handles)
    return fig


def _fit(text: str, fig: Figure, size: float = 12.0) -> str:
    """The text broken into lines that fit the figure's width at ``size`` points (about 120/size characters an inch)."""
    return textwrap.fill(text, width=max(20, int(fig.get_figwidth() * 120 / size)))


def finish_figure(
    fig: Figure, title: str, caption: str, handles: list | None = None, legend_title: str | None = None
) -> None:
    """Title the figure, put the caption (gid ``caption``) at its foot, a legend of ``handles`` above it, and lay out.

    The figure grows by the height these take, so that the axes keep theirs. Heights in
    inches: about 0.15 a line of 8-point text, 0.2 a legend row, 0.22 a title line.
    """
    text = _fit(caption, fig, size=8)
    heading = _fit(title, fig)
    inches = (text.count("\n") + 1) * 0.15 + 0.1
    ncol = min(10 if legend_title else 4, len(handles or ()))
    legend = (-(-len(handles) // ncol) + (legend_title is not None)) * 0.2 + 0.15 if handles else 0.0
    fig.set_figheight(fig.get_figheight() + inches + legend + heading.count("\n") * 0.22)
    fig.text(0.01, 0.01, text, fontsize=8, ha="left", va="bottom", gid="caption")
    if handles:
        anchor = (0.5, inches / fig.get_figheight())
        fig.legend(handles=handles, loc="lower center", bbox_to_anchor=anchor, ncol=ncol, fontsize=8,
                   title=legend_title, title_fontsize=8)  # fmt: skip
    fig.suptitle(heading)
    fig.tight_layout(rect=(0, (inches + legend) / fig.get_figheight(), 1, 1))


def chart_figures(specs: list[dict], table: pd.DataFrame, decided: pd.DataFrame | None) -> dict[str, Figure]:
    """The figures of an experiment file's ``[[charts]]``, by file stem.

    Each entry: ``kind`` (``lines``, ``bars`` or ``decision``), ``file`` (stem, default
    ``chart<i>``) and the keyword arguments of that kind's function.

    Raises:
        ValueError: an unknown kind or argument.
    """
    figures = {}
    for i, spec in enumerate(specs):
        spec = dict(spec)
        kind, stem = spec.pop("kind", "lines"), spec.pop("file", f"chart{i}")
        kinds: dict[str, tuple[Callable[..., Figure], pd.DataFrame | None]] = {
            "lines": (plot_lines, table),
            "bars": (plot_bars, table),
            "decision": (plot_decision, decided),
        }
        if kind not in kinds:
            raise ValueError(f"unknown chart kind {kind!r}; known: {', '.join(kinds)}")
        plot, data = kinds[kind]
        try:
            figures[stem] = plot(data, **spec)
        except TypeError as exc:
            raise ValueError(f"chart {stem!r}: {exc}") from None
    return figures


def draw_charts(specs: list[dict], table: pd.DataFrame, decided: pd.DataFrame | None, out: Path) -> list[str]:
    """Draw an experiment file's ``[[charts]]`` (:func:`chart_figures`) into ``out`` as PNG and SVG; returns the stems.

    Raises:
        ValueError: an unknown kind or argument.
    """
    figures = chart_figures(specs, table, decided)
    for stem, fig in figures.items():
        fig.savefig(out / f"{stem}.png", dpi=110)
        fig.savefig(out / f"{stem}.svg", metadata={"Date": None})
    return list(figures)


def plot_advice(advice: Advice) -> Figure:
    """The advice as a chart: expected settlement per biddable option (and pass) with its Student-t 95 %
    interval, and the trick distribution of the recommended contract (issue 23).

    The caption gives the method, the deals per option (n) and the interval; rows without
    trick counts (a target test only) get a note instead of the distribution.
    """
    t = advice.table[advice.biddable()].sort_values("ev_units", kind="stable")
    names = [advice.label(r) for r in t.to_dict(orient="records")]
    fig = Figure(figsize=(10, 0.35 * len(t) + 2.5))
    ev_ax, dist_ax = fig.subplots(1, 2, width_ratios=(3, 2))
    colours = [COLOURS.get(c, "#999999") for c in t["contract"]]
    ev_ax.barh(names, t["ev_units"], color=colours, xerr=[t["ev_units"] - t["ev_low"], t["ev_high"] - t["ev_units"]],
               error_kw={"elinewidth": 1, "capsize": 3})  # fmt: skip
    ev_ax.axvline(0, color="black", linewidth=0.8)
    ev_ax.text(0, -0.9, " pass = 0", fontsize=8, va="center")
    ev_ax.set_xlabel(label("ev_units"))
    rec = advice.recommendation
    best = t[(t["contract"] == rec["contract"]) & (t["trump"].fillna("") == (rec["trump"] or ""))]
    dist = advice.distribution.loc[best.index[0]] if len(best) else None
    if dist is None or dist.isna().all():
        dist_ax.text(0.5, 0.5, f"{advice.label(rec)}:\nno trick counts", ha="center", va="center")
        dist_ax.set_axis_off()
    else:
        dist_ax.bar(dist.index.astype(int), dist.to_numpy(), color=COLOURS.get(rec["contract"], "#999999"))
        dist_ax.set_xlabel(f"tricks of the declaring side ({advice.label(best.iloc[0].to_dict())})")
        dist_ax.set_ylabel("probability")
        dist_ax.set_xticks(range(0, 14))
    m = advice.meta
    caption = (f"{method_name(m['method'])}; hand {m['hand']}, seat {m['seat']}, turned {m['turned']}, "
               f"seed {m['seed']}; "
               f"{_counts(t['n'], 'deals')} per option; error bars: Student-t 95\u00a0% interval of the expected "
               "settlement over deals")  # fmt: skip
    finish_figure(fig, f"expected settlement per contract; recommended: {advice.label(rec)}", caption)
    return fig
