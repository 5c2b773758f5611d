"""What a job process runs: one advisor call, its progress, its downloads and charts (issue 22).

Each computation of the web page runs in its own process (started by
:mod:`wiezen_sim.web.server`), which sends dict messages on a ``multiprocessing``
connection:

- ``{"type": "progress", "done": k}`` after each batch of sampled deals, and
  ``{"type": "progress", "done": k, "note": ...}`` after each round the stop rule judged (how far
  it is from stopping, as the CLI's bar says) (Wiezen only; the Romanian advisor has no progress hook);
- then either ``{"type": "result", ...}`` or ``{"type": "error", "message": ...}``
  (one line: the advisor's ``ValueError``, or the name of an unexpected exception,
  whose traceback goes to the server's log);
- or, stopped by SIGTERM (the page's stop button), ``{"type": "stopped", ...}`` with the
  result over the sampled deals finished (the advisor's ``partial``; nothing before the
  first batch has finished); a stop that comes after the run has ended changes nothing: the
  result is sent.

The numbers are the advisor's own for the same seed; the downloads are produced as the
CLI produces ``--format json`` and ``--format csv``. Each job leads a process group of
its own (:func:`job`), which its joblib workers join: the server stops them all with one
signal to the group.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
from matplotlib import rc_context
from matplotlib.figure import Figure

from wiezen_sim.analysis.advise import Advice, advise
from wiezen_sim.analysis.advise.report import partner_words
from wiezen_sim.analysis.charts import COLOURS, label
from wiezen_sim.defaults import ADVISE_WORKER_MODULE, ROMANIAN_WORKER_MODULE
from wiezen_sim.parallel import hold_stops_between_runs, resolve_backend, workers_started
from wiezen_sim.rules.auction import OVERCALL_ONLY
from wiezen_sim.web.forms import METHOD_WORDS, romanian_api


def finite(value: object) -> object:
    """``value`` with every NaN or infinite float replaced by None (JSON as browsers parse it)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def job(target: Callable[[Connection, dict, int], None], conn: Connection, kwargs: dict, n_jobs: int) -> None:
    """A job process: ``target(conn, kwargs, n_jobs)`` as the leader of a new process group, which the
    processes it starts (joblib's workers) join, so that the server stops them all with one signal. A stop
    that comes when the run has ended (the stop rule settled as the page's stop button was pressed) lets the
    job send its whole result (:func:`~wiezen_sim.parallel.hold_stops_between_runs`)."""
    os.setpgid(0, 0)
    hold_stops_between_runs()
    target(conn, kwargs, n_jobs)


def run_wiezen(conn: Connection, kwargs: dict, n_jobs: int) -> None:
    """Job process: :func:`wiezen_sim.analysis.advise.advise` with progress messages, then its result.

    As the CLI runs it: in loky's worker processes, one worker included (a search in this process
    would hear the stop button only when it ends, and one deal's search can take seconds), in
    adaptive batches (one deal at first, then about half a second of work: the bar moves on slow
    hands too, and every worker has work within a round; the batch size changes no number).
    """
    options = {"n_jobs": n_jobs, "backend": "loky", "progress": False, "on_progress": _progress(conn),
               "on_round": _round(conn)}  # fmt: skip
    _run(conn, lambda: advise(**kwargs, **options), _wiezen_result, n_jobs, ADVISE_WORKER_MODULE)


def run_romanian(conn: Connection, kwargs: dict, n_jobs: int) -> None:
    """Job process: the Romanian advisor, then its result. Its batches take a fraction of a second (a stop is heard
    between two), so with ``n_jobs`` 1 they run in this process (a worker process would cost its start-up, about a
    second); with more, in loky's worker processes."""
    module = ROMANIAN_WORKER_MODULE if resolve_backend(None, n_jobs) == "loky" else None  # the advisor's backend
    _run(conn, lambda: romanian_api.advise(**kwargs, n_jobs=n_jobs), _romanian_result, n_jobs, module)


def _progress(conn: Connection):
    return lambda done: conn.send({"type": "progress", "done": int(done)})


def _round(conn: Connection):
    return lambda done, note: conn.send({"type": "progress", "done": int(done), "note": note})


def _run(
    conn: Connection, compute: Callable[[], object], present: Callable[[Any], dict], n_jobs: int, module: str | None
) -> None:
    """Send ``present(compute())`` as the result, or the error, or when stopped ``present`` of the partial result.

    ``compute`` runs with ``n_jobs`` of loky's worker processes started, each importing ``module`` (its
    task's; None: it runs in this process), and killed as it ends, as the CLI's: left running (idle, or
    finishing a batch of a round the advisor's stop rule did not need) they held up the job's exit, and the
    page's answer, until the server killed them (``STOP_GRACE_S``, 10 s).
    """
    try:
        with workers_started(n_jobs, module) if module else contextlib.nullcontext():
            computed = compute()
        message = {"type": "result", **present(computed)}
    except ValueError as exc:
        message = {"type": "error", "message": str(exc)}
    except KeyboardInterrupt as exc:  # SIGTERM while the batches run: the page stopped the job
        partial = getattr(exc, "partial", None)  # the advisors' result over the deals finished (Interrupted)
        if partial is None:
            return
        message = {"type": "stopped", **present(partial)}
    except Exception as exc:  # never a traceback on the page; the log keeps it
        logging.getLogger(__name__).exception("the web job failed")
        message = {"type": "error", "message": f"the computation failed: {type(exc).__name__}: {exc}"}
    with contextlib.suppress(BrokenPipeError):  # the page went away (a closed tab): nobody to tell
        conn.send(message)


def _wiezen_result(advice: Advice) -> dict:
    data = advice.to_dict()
    rows, rec = data["contracts"], data["recommendation"]
    labels = [option_label(advice, row) for row in rows]
    biddable = advice.biddable().tolist()
    recommended = next((i for i, row in enumerate(rows) if is_recommended(row, rec)), None)  # None: pass
    # as the CLI's table: the options one may bid that were made in some deal (the others behind "show every row")
    made = [i == recommended or (row["p_success"] or 0) > 0 for i, row in enumerate(rows)]  # None: no deal counted
    shown = [ok and was_made for ok, was_made in zip(biddable, made, strict=True)]
    charts = [tricks_chart(row, data["deals"]) for row in rows]
    with_chart = [i for i, (show, chart) in enumerate(zip(shown, charts, strict=True)) if show and chart]
    bids = data["bids"] or []
    return {
        "advice": finite(data),
        "summary": summary(advice),
        "labels": labels,
        "bid_labels": [option_label(advice, row) for row in bids],
        "recommended_bid": next((i for i, row in enumerate(bids) if is_recommended(row, rec)), None),
        "not_biddable": [None if ok else why_not_biddable(row) for row, ok in zip(rows, biddable, strict=True)],
        "shown": shown,
        "recommended": recommended,
        # the trick distribution shown first: the recommendation's, else the first shown row's that has one
        "tricks_row": recommended if recommended in with_chart else next(iter(with_chart), None),
        "json": json.dumps(data, indent=2),  # as `wiezen-sim advise --format json`
        "csv": advice.to_csv() + "\n",  # as `--format csv`
        "ev_chart": ev_chart([(name, row) for name, row, show in zip(labels, rows, shown, strict=True) if show], rec),
        "trick_charts": charts,
    }


def _romanian_result(adv) -> dict:
    data = adv.to_dict()
    best = data["recommendation"]
    return {
        "advice": finite(data),
        "summary": (f"{note}. " if (note := adv.partial_note()) else "")
        + f"Bid {best['bid']}: expected score {best['expected_score']:+.2f} points "
        f"(the legal bid of highest expected score over {data['samples']:,} sampled deals).",
        "json": json.dumps(data),  # as `wiezen-sim romanian advise --format json`
        "csv": adv.to_frame().to_csv(index=False),  # as `--format csv`
    }


def option_label(advice: Advice, row: dict) -> str:
    """A row (or the recommendation) in words: the CLI's name (:meth:`Advice.label`, troel with its trump), its
    level and its partner: ``abondance 10 ♠``, ``troel ♣``, ``vraag ♥ with the first seat that accepts``."""
    level = row.get("level")
    name = row["contract"] if level is None else f"{row['contract']} {int(level)}"
    words = advice.label({**row, "contract": name}).replace("_", " ")
    partner = row.get("partner")
    return words if partner is None else f"{words} with {partner_words(partner)}"


def why_not_biddable(row: dict) -> str:
    """Why a row is not an option to bid now (:meth:`Advice.biddable`): abondance in troef (only an overcall,
    RULES.md 1.3), or any other contract under the troel obligation (RULES.md 1.4). (The page does not ask the
    rows of a vraag with a fixed partner seat, :func:`~wiezen_sim.analysis.advise.advise`'s ``partner_rows``.)"""
    if row["contract"] in OVERCALL_ONLY:
        return "not biddable now: it only overcalls another seat's abondance"
    return "not biddable: three or four aces oblige troel"


def is_recommended(row: dict, rec: dict) -> bool:
    """Whether a table row is the recommended bid's row (same contract, trump and abondance level; the
    recommendation's ``ev_units`` may be its bid value in the context of the auction, not the row's)."""
    same = all(row[k] == rec[k] for k in ("contract", "trump")) and row.get("level") == rec.get("level")
    return same and row.get("partner") in (None, "accepting")


def summary(advice: Advice) -> str:
    """The recommendation in one sentence, with the runner-up and how sure it is."""
    rec, run, meta = advice.recommendation, advice.runner_up, advice.meta
    context = ""
    if meta.get("recommended_from") == "bid values":
        context = f" in the context of the auction (the others bidding as the {meta['bid_model']})"
    text = f"Bid {option_label(advice, rec)}: {rec['ev_units']:+.2f} units expected{context}."
    if rec["contract"] == "pass":
        text = f"Pass: no contract is expected to gain (pass = {rec['ev_units']:+.2f} units)."
    if run is not None:
        text += (
            f" Runner-up: {option_label(advice, run)} ({run['ev_units']:+.2f} units); the recommendation is better "
            f"with probability {advice.p_order:.2f} over {meta['deals']:,} sampled deals."
        )
    if meta.get("troel_obligation"):
        text += " Three or four aces: troel is obligatory (only open miserie or solo slim may replace it)."
    hint = advice.misere_hint(pimc=f'the method "{METHOD_WORDS["pimc"]}"')
    text = f"{text} {hint}" if hint else text
    return f"{note}. {text}" if (note := advice.partial_note()) else text


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def ev_chart(options: list[tuple[str, dict]], rec: dict) -> str:
    """SVG: the expected settlement of the given options (label, row) with its 95 % t-interval, best on top;
    the recommendation outlined."""
    options = sorted(options, key=lambda option: option[1]["ev_units"])
    rows = [row for _, row in options]
    with rc_context({"svg.fonttype": "none"}):
        fig = Figure(figsize=(6.4, 0.32 * len(rows) + 1.3))
        ax = fig.subplots()
        evs = np.array([r["ev_units"] for r in rows], dtype=float)
        bounds = np.array([[math.nan if r[k] is None else r[k] for r in rows] for k in ("ev_low", "ev_high")], float)
        err = np.nan_to_num(np.abs(bounds - evs))  # float[2, rows]; no interval from a single deal: no whiskers
        edges = ["black" if is_recommended(r, rec) else "none" for r in rows]
        ax.barh(range(len(rows)), evs, xerr=err, capsize=3, color=[COLOURS.get(r["contract"]) for r in rows],
                edgecolor=edges, linewidth=1.5)  # fmt: skip
        ax.set_yticks(range(len(rows)), [name for name, _ in options], fontsize=9)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(label("ev_units") + ", 95 % interval")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        return _svg(fig)


def tricks_chart(row: dict, deals: int) -> str | None:
    """SVG: the trick distribution of one row over the run's ``deals`` (None where the row has only a success test)."""
    dist = row.get("trick_distribution")
    if dist is None:
        return None
    with rc_context({"svg.fonttype": "none"}):
        fig = Figure(figsize=(5.2, 2.8))
        ax = fig.subplots()
        ax.bar(range(14), dist, color=COLOURS.get(row["contract"], "#1f78b4"))
        ax.set_xticks(range(14))
        ax.set_xlabel(label("mean_tricks"))
        ax.set_ylabel("probability")
        ax.set_title(f"{row['n']:,} of {deals:,} sampled deals counted", fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        return _svg(fig)
