"""Speed-up of experiment (a) from 1 to 2 jobs on its 5-6-trump classes (no pathological DD hands).

Usage: python experiments/benchmarks/experiment_speedup.py HANDS_PER_CLASS (README: 4). Runs 1, 2, 1, 2 jobs.
"""

import json
import os
import sys
import tempfile

from wiezen_sim.analysis.experiment import load_experiment, run_experiment

exp = load_experiment("experiments/abondance.toml", samples=int(sys.argv[1]))
exp = exp.select([c.name for c in exp.classes if c.name.startswith(("5 trumps", "6 trumps"))])
out = {}
for jobs in (1, 2, 1, 2):
    load = os.getloadavg()[0]
    r = run_experiment(exp, out=tempfile.mkdtemp(), n_jobs=jobs, progress=False, charts=False)
    hands = r.meta["hands"]
    out.setdefault(jobs, []).append((r.meta["wall_time_s"], hands, round(load, 2)))
    wall = r.meta["wall_time_s"]
    print(f"jobs {jobs}: {wall} s, {hands} hands, {hands / wall:.2f} hands/s, load {load:.2f}", flush=True)
print(json.dumps(out))
