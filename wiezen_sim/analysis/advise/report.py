"""The advisor's results and their reports: plain-text table, CSV and JSON (issues 4, 5).

:class:`Advice` is what :func:`~wiezen_sim.analysis.advise.advise` returns,
:class:`Comparison` what :func:`~wiezen_sim.analysis.advise.compare` returns; each
prints itself as a table (``format_table``), CSV (``to_csv``) and a JSON-ready dict
(``to_dict``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["METHOD_WORDS", "Advice", "Comparison", "describe_pimc", "option_name"]

METHOD_WORDS = {"dd": "double dummy", "pimc": "played by four PIMC players", "heuristic": "heuristic play"}


def describe_pimc(meta: dict) -> str:
    """PIMC effort of a run: decisions, and the worlds left out as too deep to solve of all drawn."""
    return (f"{meta['pimc_decisions']:,} decisions; worlds left out as too deep to solve: "
            f"{meta['worlds_dropped']:,} of at most {meta['pimc_decisions'] * meta['worlds']:,} drawn")  # fmt: skip


def option_name(option: dict) -> str:
    """``solo in H``, ``miserie``: an option (a row's ``contract`` and ``trump``) in words."""
    return option["contract"] + (f" in {option['trump']}" if option.get("trump") else "")


def _records(table: pd.DataFrame) -> list[dict]:
    """The table's rows as dicts, NaN as None (JSON null)."""
    return table.astype(object).where(table.notna(), None).to_dict(orient="records")


@dataclass
class Advice:
    """Result of :func:`~wiezen_sim.analysis.advise.advise`.

    Attributes:
        table: one row per contract option (see ``advise``).
        distribution: probabilities of 0..13 tricks per row (rows with exact counts).
        recommendation: the row recommended (``contract``, ``trump``, ``ev_units``).
        runner_up: the second best option, and ``p_order`` the probability that the
            recommendation's expected value really exceeds it.
        meta: hand, seat, turned card, rules, samples, seed, method; for ``pimc`` also
            ``worlds``, ``pimc_decisions`` and ``worlds_dropped`` (worlds left out of a
            decision because a double-dummy question passed the node limit).
        success: per row, ``bool[n]`` success per deal counted.
    """

    table: pd.DataFrame
    distribution: pd.DataFrame
    recommendation: dict
    runner_up: dict | None
    p_order: float
    meta: dict = field(default_factory=dict)
    success: list[np.ndarray] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """The JSON form (issue 4 schema): meta keys, ``contracts`` rows, ``recommendation``."""
        rows = _records(self.table)
        for row, (_, dist) in zip(rows, self.distribution.iterrows(), strict=True):
            row["trick_distribution"] = None if dist.isna().all() else [round(float(x), 6) for x in dist]
        return {
            **self.meta,
            "contracts": rows,
            "recommendation": self.recommendation,
            "runner_up": self.runner_up,
            "p_order": self.p_order,
        }

    def to_csv(self) -> str:
        """The table as CSV, one line per row (no trailing newline)."""
        return self.table.to_csv(index=False).rstrip("\n")

    def format_table(self) -> str:
        """A plain-text report: the position, the table, the recommendation."""
        m = self.meta
        cols = [c for c in ("contract", "trump", "partner", "level", "discard") if c in self.table]
        shown = self.table[cols].astype(object).where(self.table[cols].notna(), "")
        shown["p_success"] = self.table["p_success"].map("{:.3f}".format)
        shown["95% CI"] = [f"{lo:.3f}–{hi:.3f}" for lo, hi in zip(self.table.ci_low, self.table.ci_high, strict=True)]
        shown["mean_tricks"] = self.table["mean_tricks"].map(lambda x: "" if math.isnan(x) else f"{x:.2f}")
        shown["ev_units"] = self.table["ev_units"].map(lambda x: "" if math.isnan(x) else f"{x:+.2f}")
        shown["n"] = self.table["n"]
        rec, run = self.recommendation, self.runner_up
        worlds = f"{m['worlds']} world{'s' if m['worlds'] != 1 else ''}" if m["method"] == "pimc" else ""
        lines = [
            f"hand {m['hand']}  seat {m['seat']}  turned {m['turned']}  rules {m['rules']}",
            f"{m['samples']} sampled deals, seed {m['seed']}, method {m['method']}"
            + (f", {worlds} per card decision ({describe_pimc(m)})" if worlds else ""),
            "",
            shown.to_string(index=False),
            "",
            f"recommendation: {option_name(rec)}  ({rec['ev_units']:+.2f} units)",
        ]
        if run is not None:
            lines.append(
                f"runner-up: {option_name(run)}  ({run['ev_units']:+.2f} units); "
                f"P(recommendation really better) = {self.p_order:.3f}"
            )
        lines += [
            "",
            f"p_success: probability the contract is made ({METHOD_WORDS[m['method']]}); 95% CI: Wilson interval;",
            "mean_tricks: tricks of the declaring side (blank where only a target test is run);",
            "ev_units: your expected settlement in units (chips), RULES.md 1.6; blank for a partner seat",
            "(you cannot choose it); n: deals counted.",
            "partner: the partner's seat (0 eldest … 3 dealer); 'accepting' = the first seat that accepts",
            "under the acceptance rule (its n counts those deals, its ev_units counts 0 when nobody accepts).",
        ]
        if m.get("troel_obligation"):
            lines.append("three or four aces: troel is obligatory (only open miserie or solo slim may replace it)")
        return "\n".join(lines)


@dataclass
class Comparison:
    """Result of :func:`~wiezen_sim.analysis.advise.compare`: ``table`` has one row per option played by every method.

    Columns: ``contract``, ``trump``, ``partner``, ``level``, ``n`` (deals counted),
    ``p_<method>`` (success probability per method), and for every method but the
    first ``diff_<method>`` = ``p_<method> - p_<first>`` with ``diff_<method>_low`` /
    ``_high``, a 95 % normal interval of the paired difference (same deals), clipped to [-1, 1].
    """

    table: pd.DataFrame
    meta: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON form: meta keys and ``contracts`` rows."""
        return {**self.meta, "contracts": _records(self.table)}

    def to_csv(self) -> str:
        """The table as CSV, one line per row (no trailing newline)."""
        return self.table.to_csv(index=False).rstrip("\n")

    def format_table(self) -> str:
        """A plain-text report."""
        m = self.meta
        shown = self.table.astype(object).where(self.table.notna(), "")
        for col in self.table.columns:
            if col.startswith(("p_", "diff_")):
                form = "{:+.3f}" if col.startswith("diff_") else "{:.3f}"
                shown[col] = self.table[col].map(lambda x, form=form: "" if math.isnan(x) else form.format(x))
        return "\n".join([
            f"hand {m['hand']}  seat {m['seat']}  turned {m['turned']}  rules {m['rules']}",
            f"{m['samples']} sampled deals (the same for every method), seed {m['seed']}, pimc worlds {m['worlds']}"
            + (f" ({describe_pimc(m)})" if "pimc_decisions" in m else ""),
            "",
            shown.to_string(index=False),
            "",
            "p_<method>: probability the contract is made: dd = double dummy, pimc / heuristic = four such players;",
            "diff_<method>: p_<method> - p_dd with a 95% interval of the paired difference (same deals).",
        ])  # fmt: skip
