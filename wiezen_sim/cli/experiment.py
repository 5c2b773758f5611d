"""``wiezen-sim experiment``: an experiment file over hand classes (issue 6; experiments/*.toml)."""

from __future__ import annotations

import argparse

from wiezen_sim.cli.args import UsageError, add_jobs, add_verb, folder_path, int_range, note

__all__ = ["add", "run"]


def run(args: argparse.Namespace) -> None:
    """Run (or collect, or redraw) the experiment; its tables and charts go to its results folder."""
    from wiezen_sim.analysis.experiment import redraw_charts, run_experiment

    if args.charts_only:
        if args.resume or args.overwrite:
            raise UsageError("--charts-only solves nothing: leave out --resume and --overwrite")
        result = redraw_charts(args.file, out=args.out_dir)
        note(args, f"{result.meta['experiment']}: charts {', '.join(result.meta['charts'])} redrawn → {result.out}")
        return
    result = run_experiment(
        args.file,
        out=args.out_dir,
        backend=args.backend,
        scheduler=args.scheduler,
        resume=args.resume,
        n_jobs=args.jobs,
        samples=args.samples,
        progress=False if args.quiet else None,
        collect=args.collect,
        overwrite=args.overwrite,
    )
    m = result.meta
    note(args, f"{m['experiment']}: {m['hands']} hands, {m['deals']} deals, {m['wall_time_s']} s → {result.out}")


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``experiment``."""
    p = add_verb(
        sub,
        "experiment",
        "run an experiment file over hand classes: tables and charts in its results folder",
        "wiezen-sim experiment experiments/abondance.toml --samples 200",
        "The results (table.csv, charts, meta.json) go to results/<name>/ or --out-dir.",
    )
    p.add_argument("file", help="the experiment file (TOML)")
    p.add_argument(
        "--backend",
        choices=("loky", "dask", "sequential"),
        default="loky",
        help="loky: worker processes, stopped at once by Ctrl-C (default); sequential: this process, one job; dask",
    )
    p.add_argument("--scheduler", help="dask.distributed scheduler address (tcp://…); default a local cluster")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true", help="keep the batches an interrupted run finished")
    again.add_argument("--overwrite", action="store_true", help="replace the run the results folder holds")
    add_jobs(p)
    p.add_argument("--samples", type=int_range(1, 10_000_000), help="hands per class (overrides the file)")
    p.add_argument("--out-dir", type=folder_path, metavar="FOLDER", help="results folder (default results/<name>)")
    only = p.add_mutually_exclusive_group()  # both at once did charts only, without a word
    only.add_argument("--collect", action="store_true", help="solve nothing: outputs from the batches finished so far")
    only.add_argument("--charts-only", action="store_true", help="solve nothing: redraw the charts of a finished run")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(func=run)
