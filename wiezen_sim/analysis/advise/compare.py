"""``compare``: the advisor's methods side by side on the same sampled deals (issues 5, 19).

Every method sees the same deals (the same seed words); the difference of two methods'
success rates is a paired difference, with Newcombe's interval for paired proportions
(:func:`~wiezen_sim.analysis.stats.paired_difference`).
"""

from __future__ import annotations

import math

import pandas as pd

from wiezen_sim.analysis.advise.recommend import advise
from wiezen_sim.analysis.advise.report import Advice, Comparison
from wiezen_sim.analysis.stats import paired_difference
from wiezen_sim.defaults import COMPARED, DEFAULT_WORLDS  # the methods compared by default
from wiezen_sim.parallel import Interrupted, resolve_seed
from wiezen_sim.rules.ruleset import RuleSet

__all__ = ["COMPARED", "compare"]

PIMC_EFFORT = ("pimc_decisions", "worlds_dropped", "auction_model", "auction_off_model", "auction_contradicted")
KEY = ("contract", "trump", "partner", "level")  # what names an option across the methods' tables


def compare(
    hand: str | int,
    seat: str | int,
    turned: str | int,
    rules: str | RuleSet = "tempelaere",
    samples: int = 200,
    seed: int | None = None,
    n_jobs: int = -1,
    worlds: int = DEFAULT_WORLDS,
    methods: tuple[str, ...] = COMPARED,
    **kwargs,
) -> Comparison:
    """Success probabilities and expected settlements of every biddable option under several methods, on the same
    sampled deals.

    Runs :func:`~wiezen_sim.analysis.advise.advise` once per method (``dd``, ``pimc``,
    ``pimc-uniform``, ``heuristic``) with the same seed (so the same deals; kleine miserie:
    the dd row uses its best discard, the play rows the highest card), without the stop rule.
    Arguments as there; ``kwargs`` go to ``advise`` (``contracts`` among them: each method is
    asked only about those contracts). Only the options every method plays are compared:
    not the vraag rows with a fixed partner seat, which the play methods do not play.

    Returns:
        :class:`Comparison` (table columns in its docstring). ``meta`` as ``Advice.meta`` without
        ``method``, with ``methods``, ``worlds``, ``fixed_partner_rows`` (the rows left out as not
        played by every method), ``recommendations`` (per method the bid its own run recommends: ``bid`` in
        words, ``ev_units``, ``from`` the bid values or the table, ``runner_up`` in words or None and
        ``p_order``, the probability that the recommendation really beats it) and, with a PIMC method,
        ``pimc_effort``: per PIMC method its effort keys of ``Advice.meta`` (``pimc_decisions``,
        ``worlds_dropped``, ...).

    Raises:
        ValueError: as :func:`~wiezen_sim.analysis.advise.advise`, or fewer than two distinct methods.
        Interrupted: Ctrl-C or SIGTERM, without a partial result.
    """
    if len(methods) < 2 or len(set(methods)) != len(methods):
        raise ValueError(f"compare needs two or more distinct methods, got {', '.join(methods) or 'none'}")
    seed = resolve_seed(seed)
    runs = {}
    for m in methods:
        try:
            runs[m] = advise(hand, seat, turned, rules, samples, seed, n_jobs, m, worlds=worlds, stop=False, **kwargs)
        except Interrupted as exc:  # no comparison from part of the methods
            exc.partial, exc.unit = None, f"sampled deals of method {m} ({len(runs)} of {len(methods)} methods done)"
            raise
    per = {m: _keyed(a) for m, a in runs.items()}
    first = methods[0]
    rows = []
    for key in per[methods[1]]:
        if not all(key in per[m] for m in methods):
            continue
        row = dict(zip(KEY, key, strict=True), n=len(per[first][key][0]), asked=per[first][key][2])
        row.update({f"p_{m}": float(per[m][key][0].mean()) if len(per[m][key][0]) else math.nan for m in methods})
        row.update({f"ev_{m}": per[m][key][1] for m in methods})
        for m in methods[1:]:
            diff, low, high = paired_difference(per[first][key][0], per[m][key][0])
            row.update({f"diff_{m}": diff, f"diff_{m}_low": low, f"diff_{m}_high": high})
        rows.append(row)
    table = pd.DataFrame(rows).dropna(axis=1, how="all")
    meta = {k: v for k, v in runs[first].meta.items() if k != "method"}
    fixed = max(int(a.fixed_partner().sum()) for a in runs.values())
    meta.update(methods=list(methods), worlds=worlds, fixed_partner_rows=fixed)
    meta["recommendations"] = {
        m: {"bid": a.bid_label(a.recommendation), "ev_units": float(a.recommendation["ev_units"]),
            "from": a.meta.get("recommended_from", "table"),
            "runner_up": None if a.runner_up is None else a.bid_label(a.runner_up), "p_order": float(a.p_order)}
        for m, a in runs.items()
    }  # fmt: skip
    effort = {m: {k: runs[m].meta[k] for k in PIMC_EFFORT if k in runs[m].meta} for m in methods if "pimc" in m}
    if effort:
        meta["pimc_effort"] = effort
    return Comparison(table, meta, _bid_values(runs))


def _bid_values(runs: dict[str, Advice]) -> pd.DataFrame | None:
    """Per bid (named as the reports name it) each method's bid value: ``ev_<method>`` with ``ev_<method>_low`` /
    ``_high``, ``made_<method>`` (the table's P(success) of the bid's contract) and ``recommended_by`` (the
    methods that recommend it, comma-separated); in the first method's order. None when a method has none."""
    if any(a.bids is None for a in runs.values()):
        return None
    by_bid: dict[str, dict] = {}
    for m, a in runs.items():
        assert a.bids is not None
        best = a.bid_label(a.recommendation)
        for row in a.bids.to_dict(orient="records"):
            name = a.bid_label(row)
            entry = by_bid.setdefault(name, {"bid": name, "recommended_by": ""})
            entry.update({f"ev_{m}": row["ev_units"], f"ev_{m}_low": row["ev_low"], f"ev_{m}_high": row["ev_high"],
                          f"made_{m}": row["table_p_success"]})  # fmt: skip
            if name == best:
                entry["recommended_by"] = ",".join(x for x in (entry["recommended_by"], m) if x)
    return pd.DataFrame(list(by_bid.values()))


def _keyed(advice: Advice) -> dict[tuple, tuple]:
    """The options of ``advice`` one may bid (:meth:`Advice.biddable`: not a vraag with a fixed partner seat, nor
    abondance in troef after passes), by :data:`KEY`: ``(success per deal counted (bool[n]), expected settlement in
    units, deals asked (the vraag with the accepting partner, whose n counts the deals someone accepted; else
    None))``."""
    out = {}
    for (_, row), ok, biddable in zip(advice.table.iterrows(), advice.success, advice.biddable(), strict=True):
        if biddable:
            key = tuple(None if _isnan(row.get(k)) else row.get(k) for k in KEY)
            asked = row.get("asked")
            out[key] = (ok, float(row["ev_units"]), None if asked is None or _isnan(asked) else int(asked))
    return out


def _isnan(x: object) -> bool:
    return isinstance(x, float) and math.isnan(x)
