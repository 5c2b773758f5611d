"""``compare``: the advisor's methods side by side on the same sampled deals (issue 5).

Every method sees the same deals (the same seed words); the difference of two methods'
success rates is a paired difference, with a 95 % normal interval.
"""

from __future__ import annotations

import math

import pandas as pd

from wiezen_sim.analysis.advise.recommend import advise
from wiezen_sim.analysis.advise.report import Advice, Comparison
from wiezen_sim.parallel import Interrupted, resolve_seed
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.players import DEFAULT_WORLDS

__all__ = ["compare"]


def compare(
    hand: str | int,
    seat: str | int,
    turned: str | int,
    rules: str | RuleSet = "tempelaere",
    samples: int = 200,
    seed: int | None = None,
    n_jobs: int = -1,
    worlds: int = DEFAULT_WORLDS,
    methods: tuple[str, ...] = ("dd", "pimc", "heuristic"),
    **kwargs,
) -> Comparison:
    """Success probabilities of every biddable option under several methods, on the same sampled deals.

    Runs :func:`~wiezen_sim.analysis.advise.advise` once per method with the same
    seed (so the same deals; kleine miserie: the dd row uses its best discard, the
    play rows the highest card). Arguments as there; ``kwargs`` go to ``advise``.

    Returns:
        :class:`Comparison` (table columns in its docstring).

    Raises:
        ValueError: as :func:`~wiezen_sim.analysis.advise.advise`, or fewer than two methods.
        Interrupted: Ctrl-C or SIGTERM, without a partial result.
    """
    if len(methods) < 2 or len(set(methods)) != len(methods):
        raise ValueError(f"compare needs two or more distinct methods, got {methods}")
    seed = resolve_seed(seed)
    runs = {}
    for m in methods:
        try:
            runs[m] = advise(hand, seat, turned, rules, samples, seed, n_jobs, m, worlds=worlds, stop=False, **kwargs)
        except Interrupted as exc:  # no comparison from part of the methods
            exc.partial, exc.unit = None, f"sampled deals of method {m} ({len(runs)} of {len(methods)} methods done)"
            raise

    def keyed(advice: Advice) -> dict:
        out = {}
        for (_, row), ok in zip(advice.table.iterrows(), advice.success, strict=True):
            if row.get("partner") in (None, "accepting") or _isnan(row.get("partner")):
                key = (row.contract, row.trump, row.get("partner"), row.get("level"))
                out[tuple(None if _isnan(x) else x for x in key)] = ok
        return out

    per = {m: keyed(a) for m, a in runs.items()}
    first = methods[0]
    rows = []
    for key in per[methods[1]]:
        if not all(key in per[m] for m in methods):
            continue
        oks = {m: per[m][key] for m in methods}
        row = dict(zip(("contract", "trump", "partner", "level"), key, strict=True), n=len(oks[first]))
        row.update({f"p_{m}": float(oks[m].mean()) if len(oks[m]) else math.nan for m in methods})
        for m in methods[1:]:
            d = oks[m].astype(float) - oks[first].astype(float)
            half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
            mean = float(d.mean()) if len(d) else math.nan
            row.update(
                {f"diff_{m}": mean, f"diff_{m}_low": max(mean - half, -1.0), f"diff_{m}_high": min(mean + half, 1.0)}
            )
        rows.append(row)
    table = pd.DataFrame(rows).dropna(axis=1, how="all")
    meta = {k: v for k, v in runs[first].meta.items() if k != "method"}
    meta.update(methods=list(methods), worlds=worlds)
    if "pimc" in runs:
        keys = ("pimc_decisions", "worlds_dropped", "auction_model", "auction_off_model", "auction_contradicted")
        meta.update({k: runs["pimc"].meta[k] for k in keys})
    return Comparison(table, meta)


def _isnan(x: object) -> bool:
    return isinstance(x, float) and math.isnan(x)
