"""Benchmark: speed-up of experiment (a) (abondance) from 1 to 2 jobs (issue 6, target ≥ 1.8×).

    python experiments/benchmarks/experiment_speedup.py [--hands N] [--repeats R]

Runs the 5- and 6-trump classes of ``experiments/abondance.toml`` (24 classes × 2 seats,
N hands each, the TOML's batch size) with 1 job and with 2 jobs (loky), alternating
R times so that load changes hit both alike, each run into a fresh output directory
(the worker start is inside the timed run, as for a user). Checks that both give the
same table. Writes results/benchmarks/experiment_speedup.json (per-run wall times,
hands per second, machine, versions) and prints last ``speedup_1_to_2_jobs: X.XX``
= median 1-job wall time / median 2-job wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

import pandas as pd

from wiezen_sim.analysis.experiment import run_experiment
from wiezen_sim.analysis.experiment_file import load_experiment
from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "experiment_speedup.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=128, help="hands per class and seat")
    ap.add_argument("--repeats", type=int, default=2, help="runs per job count")
    args = ap.parse_args()
    exp = load_experiment(ROOT / "experiments" / "abondance.toml", samples=args.hands)
    exp = exp.select([c.name for c in exp.classes if c.name.startswith(("5 trumps", "6 trumps"))])
    load_start = os.getloadavg()
    runs = []
    tables: dict[int, pd.DataFrame] = {}
    for _ in range(args.repeats):
        for jobs in (1, 2):
            load = os.getloadavg()[0]
            r = run_experiment(exp, out=tempfile.mkdtemp(), n_jobs=jobs, progress=False, charts=False)
            wall, hands = r.meta["wall_time_s"], r.meta["hands"]
            runs.append({"jobs": jobs, "wall_s": wall, "hands": hands, "hands_per_s": hands / wall, "load": load})
            tables.setdefault(jobs, r.table)
            print(f"jobs {jobs}: {wall:.1f} s, {hands} hands, {hands / wall:.1f} hands/s, load {load:.2f}", flush=True)
    pd.testing.assert_frame_equal(tables[1], tables[2])
    median = {j: statistics.median(x["wall_s"] for x in runs if x["jobs"] == j) for j in (1, 2)}
    speedup = median[1] / median[2]
    report = {
        "experiment": "abondance, 5-6 trumps",
        "classes": len(exp.classes),
        "hands_per_class_and_seat": args.hands,
        "batch_size": exp.batch_size,
        "runs": runs,
        "median_wall_s": median,
        "speedup_1_to_2_jobs": speedup,
        "git_commit": git_commit(),
        "machine": machine_info(load_start),
        "versions": package_versions(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    print(f"speedup_1_to_2_jobs: {speedup:.2f}")


if __name__ == "__main__":
    main()
