"""Experiments over hand classes: a grid of classes × contracts × seat × method, resumable, on joblib or Dask (issue 6).

The experiment file's format and its hand classes: :mod:`wiezen_sim.analysis.experiment_file`.

A *sample* is one hand drawn uniformly from the class (:func:`~wiezen_sim.analysis.hands.sample_hand`),
the turned card (uniformly among the cards outside the hand, or in it for the dealer; by
default of the class's trump suit, so that solo, vraag and the trump features agree; with
``turned = "other"`` of another suit, as for an abondance in a suit of one's choice) and
``deals`` deals of the other 39 cards, each solved by :func:`~wiezen_sim.analysis.advise.advise`
for the experiment's contracts only. Each
sample has its own seed word (``sample_seeds(seed, samples, stream)``, the stream a hash
of the class name), so the table depends on the seed and the sample count only, never on
``n_jobs``, the batch size, the backend or an interruption.

Per hand, the row kept for each contract: ``vraag`` with the accepting partner (its
settlement is 0 when nobody accepts; ``p_success`` is conditional on acceptance,
``p_accept`` says how often); ``abondance`` and ``solo_slim`` in the class's trump suit,
or the hand's longest suit (most points on a tie) for a class without one; every other
contract its single row (troel needs three or four aces).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import math
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from wiezen_sim.analysis.advise import advise
from wiezen_sim.analysis.experiment_file import (
    Experiment,
    class_stream,
    declared_suit,
    load_experiment,
    sample_position,
)
from wiezen_sim.analysis.hands import HandClass
from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions
from wiezen_sim.analysis.stats import CONFIDENCE, mean_interval, prob_greater, wilson
from wiezen_sim.cards import SUITS, card_count, card_name, hand_name
from wiezen_sim.parallel import Interrupted, progress_bar, resolve_backend, run_tasks, sample_seeds
from wiezen_sim.rules.auction import LEVELS
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.vocabulary import SEAT_NAMES, parse_seat, seat_name

__all__ = ["KEYS", "ExperimentResult", "decisions", "redraw_charts", "run_experiment", "summarise"]

KEYS = ("class", "seat", "method", "contract", "level")


@dataclass
class ExperimentResult:
    """What :func:`run_experiment` produced.

    Attributes:
        table: one row per class × seat × method × contract (× level): the class's
            feature columns, ``trump``, ``hands``, ``n`` (deals counted), ``successes``,
            ``p_success``, ``ci_low``/``ci_high`` (Wilson 95 %), ``ev_units`` (mean
            settlement of the declarer, units, RULES.md 1.6) with ``ev_low``/``ev_high``
            (95 % t-interval over hands), ``mean_tricks`` (declaring side; NaN where only
            a target test is run), ``p_accept`` (vraag).
        hands: one row per sampled hand and contract (the raw data of the table).
        decisions: best contract per class (when the experiment has a decision chart).
        meta: what meta.json holds.
        out: the results directory.
    """

    table: pd.DataFrame
    hands: pd.DataFrame
    decisions: pd.DataFrame | None
    meta: dict
    out: Path


@dataclass(frozen=True)
class _Task:
    """One batch: consecutive samples of one class × seat × method (picklable for joblib and Dask)."""

    key: str
    class_index: int
    hc: HandClass
    seat: int
    method: str
    start: int
    words: tuple[int, ...]


def _run_task(task: _Task, exp: Experiment) -> pd.DataFrame:
    """The per-hand rows of one batch (columns of :attr:`ExperimentResult.hands`)."""
    rows = []
    for offset, word in enumerate(task.words):
        hand, turned = sample_position(task.hc, task.seat, word, exp.turned)
        advice = advise(
            hand,
            task.seat,
            turned,
            rules=exp.rules,
            samples=exp.deals,
            seed=word,
            n_jobs=1,
            method=task.method,
            accept_tricks=exp.accept_tricks,
            progress=False,
            contracts=exp.class_contracts[task.class_index],
            stop=False,  # every hand its deals: the experiment's tables pool them
        )
        table = advice.table
        suit = SUITS[declared_suit(hand, task.hc)]
        for contract in exp.class_contracts[task.class_index]:
            sel = table[table.contract == contract]
            if contract in ("abondance", "solo_slim"):
                sel = sel[sel.trump == suit]
            if contract == "vraag":
                sel = sel[sel.partner == "accepting"]
            if sel.empty:
                raise ValueError(f"class {task.hc.name!r}: no {contract} row for hand {hand_name(hand)}")
            for _, row in sel.iterrows():
                n = int(row["n"])
                rows.append(
                    {
                        "class": task.hc.name,
                        "seat": seat_name(task.seat),
                        "method": task.method,
                        "contract": contract,
                        "level": float(row["level"]) if "level" in row and pd.notna(row["level"]) else math.nan,
                        "sample": task.start + offset,
                        "hand": hand_name(hand),
                        "turned": card_name(turned),
                        "trump": row["trump"] if isinstance(row["trump"], str) else "",
                        "successes": round(float(row["p_success"]) * n) if n else 0,
                        "n": n,
                        "ev_units": float(row["ev_units"]),
                        "tricks_sum": float(row["mean_tricks"]) * n if n else 0.0,
                    }
                )
    return pd.DataFrame(rows)


def _tasks(exp: Experiment) -> list[_Task]:
    tasks = []
    for ci, hc in enumerate(exp.classes):
        words = [int(w) for w in sample_seeds(exp.seed, exp.samples, class_stream(hc))]
        for seat, method in itertools.product(exp.seats, exp.methods):
            p = parse_seat(seat)
            for start in range(0, exp.samples, exp.batch_size):
                part = tuple(words[start : start + exp.batch_size])
                tasks.append(_Task(f"c{ci:03d}-{seat}-{method}-{start:06d}", ci, hc, p, method, start, part))
    return tasks


def _check_classes(exp: Experiment) -> None:
    """Fail early, in this process, on an empty or too rare class or an impossible turned card."""
    for (hc, own), seat in itertools.product(zip(exp.classes, exp.class_contracts, strict=True), exp.seats):
        word = int(sample_seeds(exp.seed, 1, class_stream(hc))[0])
        hand, _ = sample_position(hc, parse_seat(seat), word, exp.turned)
        if "troel" in own and card_count(hand & 0x4000400040004000) < 3:
            raise ValueError(f"class {hc.name!r}: troel needs a class of hands with three or four aces")


def _check_charts(exp: Experiment) -> None:
    """Fail early on a bad ``[[charts]]`` entry: draw every chart from a stand-in table of the same shape."""
    from wiezen_sim.analysis.charts import chart_figures

    levels_on = get_rules(exp.rules).abondance_levels
    rows = []
    for (hc, own), seat, method in itertools.product(
        zip(exp.classes, exp.class_contracts, strict=True), exp.seats, exp.methods
    ):
        for contract, sample in itertools.product(own, range(2)):
            levels = LEVELS if contract == "abondance" and levels_on else (math.nan,)
            for level in levels:
                rows.append({"class": hc.name, "seat": seat_name(parse_seat(seat)), "method": method,
                             "contract": contract, "level": float(level), "sample": sample, "hand": "", "turned": "",
                             "trump": "", "successes": sample, "n": 1, "ev_units": float(sample),
                             "tricks_sum": 0.0})  # fmt: skip
    hands = pd.DataFrame(rows)
    table = summarise(hands, exp)
    decided = decisions(table, hands) if any(c.get("kind") == "decision" for c in exp.charts) else None
    chart_figures(exp.charts, table, decided)


def _stamp(path: Path) -> object:
    """The batches' stamp (``batches/experiment.json``) as written; ValueError naming the file when it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise ValueError(f"{path} is damaged ({exc}): --overwrite replaces the run in {path.parent.parent}") from None


def _write_atomic(frame: pd.DataFrame, path: Path) -> None:
    tmp = path.with_suffix(".tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def summarise(hands: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """The tidy table (:attr:`ExperimentResult.table`) from the per-hand rows."""
    order = {name: i for i, name in enumerate(c.name for c in exp.classes)}
    hands = hands.sort_values(["class", "seat", "method", "contract", "level", "sample"], key=_sort_key(order, exp))
    rows = []
    for key, g in hands.groupby(list(KEYS), sort=False, dropna=False):
        ci = order[str(key[0])]
        n, successes = int(g["n"].sum()), int(g["successes"].sum())
        low, high = wilson(successes, n)
        ev_mean, ev_low, ev_high = mean_interval(g["ev_units"].to_numpy(float))
        hc = exp.classes[ci]
        rows.append(
            {
                **dict(zip(KEYS, key, strict=True)),
                **exp.features[ci],
                "trump": SUITS[hc.trump] if hc.trump is not None else "longest",
                "hands": len(g),
                "n": n,
                "successes": successes,
                "p_success": successes / n if n else math.nan,
                "ci_low": low,
                "ci_high": high,
                "ev_units": ev_mean,
                "ev_low": ev_low,
                "ev_high": ev_high,
                "mean_tricks": float(g["tricks_sum"].sum(skipna=False)) / n if n else math.nan,
                "p_accept": n / (len(g) * exp.deals),
            }
        )
    table = pd.DataFrame(rows)
    table.loc[table.contract != "vraag", "p_accept"] = math.nan
    if table["level"].isna().all():
        table = table.drop(columns="level")
    return table


def _sort_key(order: dict, exp: Experiment):
    ranks = {
        "class": order,
        "seat": {s: i for i, s in enumerate(SEAT_NAMES)},
        "method": {m: i for i, m in enumerate(exp.methods)},
        "contract": {c: i for i, c in enumerate(exp.contracts)},
    }
    return lambda col: col.map(ranks[col.name]) if col.name in ranks else col


def decisions(table: pd.DataFrame, hands: pd.DataFrame) -> pd.DataFrame:
    """Per class × seat × method: the contract (or pass) of highest expected value, and the runner-up.

    ``hands`` is the number of sampled hands the expected values are means over.

    ``p_order`` is the probability that the best really beats the runner-up (paired over
    the same hands and deals, :func:`~wiezen_sim.analysis.stats.prob_greater`);
    ``clear`` is ``p_order ≥ 0.975`` (the 95 % interval of the difference excludes 0).
    """
    out = []
    key = ["class", "seat", "method"]
    for k, g in hands.groupby(key, sort=False):
        ev = g.pivot_table(index="sample", columns="contract", values="ev_units", aggfunc="first")
        ev.insert(0, "pass", 0.0)  # first, so that pass wins a tie (the sort is stable)
        means = ev.mean().sort_values(ascending=False, kind="stable")
        best, second = means.index[0], means.index[1]
        p = prob_greater((ev[best] - ev[second]).to_numpy(float))
        out.append(
            {
                **dict(zip(key, k, strict=True)),
                "hands": len(ev),
                "best": best,
                "best_ev": float(means.iloc[0]),
                "runner_up": second,
                "runner_up_ev": float(means.iloc[1]),
                "p_order": p,
                "clear": p >= 0.5 + CONFIDENCE / 2,
            }
        )
    frame = pd.DataFrame(out)
    feature_cols = [c for c in table.columns if c not in KEYS and c not in _TABLE_STATS]
    return frame.merge(table.drop_duplicates(key)[key + feature_cols], on=key, how="left")


_TABLE_STATS = ("trump", "hands", "n", "successes", "p_success", "ci_low", "ci_high", "ev_units", "ev_low", "ev_high",
                "mean_tricks", "p_accept")  # fmt: skip


def _solved(params: dict) -> dict:
    """The parameters the solved hands depend on (not the charts or the description)."""
    return {k: v for k, v in params.items() if k not in ("charts", "description")}


def _write_outputs(
    exp: Experiment, hands: pd.DataFrame, out: Path, charts: bool
) -> tuple[pd.DataFrame, pd.DataFrame | None, list[str]]:
    """Write the table, ``decisions.csv`` and the charts of the per-hand rows into ``out``.

    Returns the table, the decisions (None without a decision chart) and the chart stems drawn.
    """
    from wiezen_sim.analysis.charts import draw_charts

    table = summarise(hands, exp)
    decided = decisions(table, hands) if any(c.get("kind") == "decision" for c in exp.charts) else None
    table.to_parquet(out / "table.parquet", index=False)
    table.to_csv(out / "table.csv", index=False, float_format="%.6g")
    if decided is not None:
        decided.to_csv(out / "decisions.csv", index=False, float_format="%.6g")
    drawn = draw_charts(exp.charts, table, decided, out) if charts and exp.charts else []
    return table, decided, drawn


def _results_folder(out: str | Path | None, name: str) -> Path:
    """``out``, or ``results/<name>`` when None; ValueError for an empty text (it names no folder)."""
    if isinstance(out, str) and not out.strip():
        raise ValueError("an empty path names no results folder (give none for results/<name>)")
    return Path(out) if out is not None else Path("results") / name


def _dask_client(scheduler: str | None, n_jobs: int):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("the dask backend needs dask.distributed: pip install 'wiezen-sim[dask]'") from None
    if scheduler:
        return Client(scheduler), None
    workers = (os.cpu_count() or 1) if n_jobs < 0 else n_jobs
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def run_experiment(
    source: str | Path | dict | Experiment,
    out: str | Path | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    n_jobs: int = -1,
    samples: int | None = None,
    progress: bool | None = None,
    charts: bool = True,
    collect: bool = False,
    overwrite: bool = False,
) -> ExperimentResult:
    """Run an experiment and write its results (module docstring).

    Args:
        source: an experiment file, its content as a dict, or an :class:`Experiment`.
        out: results directory (default ``results/<name>`` under the current directory).
        backend: ``loky`` (worker processes, for any ``n_jobs``: a run can be stopped at
            once), ``sequential`` (this process) or ``dask`` (a ``dask.distributed``
            cluster: ``scheduler`` address, or a local cluster of ``n_jobs``
            single-threaded worker processes); default ``sequential`` for ``n_jobs=1``,
            else ``loky``.
        resume: keep the batches a previous run of the same experiment finished
            (``out/batches/``) and run only the others.
        n_jobs: parallel workers (-1 = all cores).
        samples: overrides the file's hands per class.
        progress: a progress bar on stderr (default: when stderr is a terminal).
        charts: draw the charts of the file.
        collect: solve nothing: write the outputs from the batches an earlier (interrupted)
            run finished; a class with missing batches has fewer ``hands``, and
            ``meta["missing_batches"]`` lists them.
        overwrite: replace the run ``out`` already holds (its batches and outputs); without
            it (and without ``resume`` or ``collect``) such a folder is refused, so that a
            finished or interrupted run is never removed by mistake.

    Writes ``table.parquet``/``table.csv``, ``hands.parquet``, ``decisions.csv`` (with a
    decision chart), the charts (``.png`` and ``.svg``) and ``meta.json`` into ``out``;
    every finished batch at once to ``out/batches/`` (atomic rename). Nothing is written
    (and no earlier batch removed) before every check has passed.

    Raises:
        ValueError: bad experiment, chart, backend or job count, batches of a different
            experiment under ``out`` on resume, ``out`` holding a run without ``resume``,
            ``collect`` or ``overwrite``, nothing to collect, or ``out`` a file or an empty
            text.
        OSError: ``out`` cannot be written.
        Interrupted: Ctrl-C or SIGTERM; every batch finished is kept in ``out/batches/``
            (``resume`` continues, ``collect`` writes the outputs from them).
    """
    start = time.perf_counter()
    exp = source if isinstance(source, Experiment) else load_experiment(source, samples)
    backend = resolve_backend(backend, n_jobs)
    if scheduler and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    out = _results_folder(out, exp.name)
    batch_dir = out / "batches"
    params = json.loads(json.dumps(exp.parameters(), default=str))
    stamp = batch_dir / "experiment.json"
    if overwrite and (resume or collect):
        raise ValueError("overwrite replaces the run in the folder: it cannot go with resume or collect")
    resume = resume or collect
    solved = _solved(params)
    if resume and stamp.exists() and _stamp(stamp) != solved:
        raise ValueError(f"{batch_dir} holds batches of a different experiment or size: --overwrite replaces them")
    _check_classes(exp)
    if charts and exp.charts:
        _check_charts(exp)
    tasks = _tasks(exp)
    done = {p.stem for p in batch_dir.glob("*.parquet")} if resume else set()
    todo = [] if collect else [t for t in tasks if t.key not in done]
    missing = [t.key for t in tasks if t.key not in done] if collect else []
    if collect and len(missing) == len(tasks):
        raise ValueError(f"no finished batches under {batch_dir} to collect")
    tasks = [t for t in tasks if t.key not in missing]
    if out.exists() and not out.is_dir():
        raise ValueError(f"the results folder {out} is a file")
    if not resume and not overwrite:
        held = len(list(batch_dir.glob("*.parquet")))
        if held or (out / "meta.json").exists():
            raise ValueError(
                f"{out} already holds a run ({held} finished batches): --resume continues it, "
                "--overwrite replaces it, --out-dir names another folder"
            )
    # every check passed: only now is anything written (a rejected run leaves nothing behind)
    if batch_dir.exists() and not resume:
        shutil.rmtree(batch_dir)
    batch_dir.mkdir(parents=True, exist_ok=True)
    stamp.write_text(json.dumps(solved, indent=1))
    load_start = os.getloadavg()
    client = cluster = None
    if backend == "dask":
        client, cluster = _dask_client(scheduler, n_jobs)
    total = sum(len(t.words) for t in tasks)
    finished = total - sum(len(t.words) for t in todo)
    try:
        with (
            progress_bar(total, f"{exp.name}: hands", progress, initial=finished) as bar,
            contextlib.closing(run_tasks(functools.partial(_run_task, exp=exp), todo, n_jobs, backend)) as results,
        ):
            for index, frame in results:
                _write_atomic(frame, batch_dir / f"{todo[index].key}.parquet")
                finished += len(todo[index].words)  # counted before the bar shows it: a stop then says it
                bar.update(len(todo[index].words))
    except Interrupted as exc:
        exc.done, exc.total, exc.unit = finished, total, "hands"
        exc.hint = f"their batches are kept in {batch_dir} (resume continues the run, collect writes its outputs)"
        raise
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    hands = pd.concat([pd.read_parquet(batch_dir / f"{t.key}.parquet") for t in tasks], ignore_index=True)
    hands = hands.sort_values(["class", "seat", "method", "contract", "level", "sample"], key=_sort_key(
        {c.name: i for i, c in enumerate(exp.classes)}, exp), ignore_index=True)  # fmt: skip
    hands.to_parquet(out / "hands.parquet", index=False)
    table, decided, drawn = _write_outputs(exp, hands, out, charts)
    wall = time.perf_counter() - start
    meta = {
        "experiment": exp.name,
        "description": exp.description,
        "git_commit": git_commit(),
        "seed": exp.seed,
        "parameters": params,
        "classes": [c.describe() for c in exp.classes],
        "backend": backend,
        "scheduler": scheduler,
        "n_jobs": n_jobs,
        "batches": len(tasks),
        "batches_resumed": len(tasks) - len(todo),
        "collected": collect,  # True: outputs of batches solved earlier; wall time is the collection's
        "missing_batches": missing,
        "hands": total,
        "deals": total * exp.deals,
        "wall_time_s": round(wall, 2),
        "deals_per_s": round(len(todo) and sum(len(t.words) for t in todo) * exp.deals / wall, 4),
        "charts": drawn,
        "versions": package_versions(),
        "machine": machine_info(load_start),
        "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1, default=str) + "\n")
    return ExperimentResult(table, hands, decided, meta, out)


def redraw_charts(source: str | Path | dict | Experiment, out: str | Path | None = None) -> ExperimentResult:
    """Solve nothing: rebuild the table, the decisions and the charts from an earlier run's ``hands.parquet``.

    For charts changed after a run (the file's ``[[charts]]`` or the chart code). The
    run's ``meta.json`` gives the sample count; the rest of what the hands depend on
    (classes, contracts, seats, methods, seed, deals, rules) must be the experiment's.
    Writes ``table.parquet``/``table.csv``, ``decisions.csv`` (with a decision chart),
    the charts, and the ``charts`` entry of ``meta.json`` into ``out`` (default
    ``results/<name>``).

    Raises:
        ValueError: a bad experiment or chart, ``out`` an empty text, no finished run under
            ``out``, or a run of other parameters.
    """
    exp = source if isinstance(source, Experiment) else load_experiment(source)
    out = _results_folder(out, exp.name)
    try:
        meta = json.loads((out / "meta.json").read_text())
        hands = pd.read_parquet(out / "hands.parquet")
    except FileNotFoundError:
        raise ValueError(f"no finished run under {out} (meta.json, hands.parquet): run the experiment") from None
    exp = dataclasses.replace(exp, samples=meta["parameters"]["samples"])
    params = json.loads(json.dumps(exp.parameters(), default=str))
    if _solved(params) != _solved(meta["parameters"]):
        raise ValueError(f"{out} holds a run of other parameters than the experiment {exp.name!r}'s")
    table, decided, drawn = _write_outputs(exp, hands, out, charts=True)
    meta["charts"] = drawn
    (out / "meta.json").write_text(json.dumps(meta, indent=1, default=str) + "\n")
    return ExperimentResult(table, hands, decided, meta, out)
