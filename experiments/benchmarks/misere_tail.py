"""Benchmark: the misère-family questions of the hand suite's slowest hands, as ``advise`` asks them (issue 18).

    python experiments/benchmarks/misere_tail.py [--deals K] [--seed S] [--hands a,b] [--node-limit T]
                                                 [--out FILE] [--compare FILE]

For every hand of ``HANDS`` (the worst misère-family hands of ``advise_suite.py``) it draws
the first K deals ``advise --seed S`` draws (``sample_seeds``, ``sample_hands``, as
``advise_suite.py`` does) and asks only the misère family of the advisor's table, through
``dd_table.dd_batch`` itself (contracts miserie, pico and kleine miserie wanted): per deal
misère, pico, then kleine miserie after each candidate discard, in advise's order with one
no-trump solver (256 MB table, emptied for each new deal as advise's is). Every question
runs under ``--node-limit`` trick nodes (0: none); one past it is *capped* (no answer).

Reports per hand and family (misere, pico, kleine): CPU seconds of this process
(``time.process_time``), nodes, trick nodes (deterministic), capped questions and the
answers. ``--out`` writes the records (one per question) as JSON; ``--compare`` reads such
a file of an earlier run (e.g. the base commit) and prints the paired CPU seconds and
trick nodes per hand and family, and whether every answer both runs gave is the same.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# (name in the suite, hand, seat, turned card): the worst misère-family hands of advise_suite.json
HANDS = [
    ("abondance_no_top/3", "S:- H:93 D:KT987542 C:864", "dealer", "KD"),
    ("misere_void/2", "S:- H:965432 D:832 C:Q753", "eldest", "6D"),
    ("misere_void/1", "S:- H:KT6543 D:9632 C:762", "second", "JS"),
    ("misere_low/5", "S:J532 H:T98652 D:- C:753", "second", "TS"),
    ("random_eldest/2", "S:84 H:A8643 D:9842 C:86", "eldest", "KS"),
    ("misere_two_high/2", "S:QT94 H:954 D:QT2 C:854", "dealer", "QS"),
    ("misere_5332/3", "S:KT832 H:872 D:Q5 C:654", "second", "7S"),
]
FAMILIES = ("misere", "pico", "kleine")
WANTED = frozenset({"miserie", "pico", "kleine_miserie"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=18, help="advise's --seed (advise_suite.py's default)")
    parser.add_argument("--hands", default=None, help="comma-separated indices into HANDS (default all)")
    parser.add_argument("--node-limit", type=int, default=4_000_000, help="trick nodes per question (0: none)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--compare", default=None)
    args = parser.parse_args()

    import numpy as np

    from wiezen_sim.analysis.advise import dd_table
    from wiezen_sim.parallel import sample_seeds
    from wiezen_sim.rules.dealing import check_position
    from wiezen_sim.rules.ruleset import get_rules
    from wiezen_sim.solvers.dd import DDSolver, NodeLimitExceeded
    from wiezen_sim.vocabulary import NO_TRUMP, Objective

    records: list[dict] = []
    current: dict = {}

    class Logged(DDSolver):
        """The no-trump solver of ``dd_batch``, logging every question (capped ones answer False)."""

        def can_make(self, hands, trump, leader, side, objective, target, trick=()):
            if objective is Objective.EXACT:
                family = "pico"
            else:
                family = "kleine" if int(hands[leader]).bit_count() == 12 else "misere"
            nodes, trick_nodes = self.nodes, self.trick_nodes
            t0 = time.process_time()
            try:
                answer: bool | None = super().can_make(hands, trump, leader, side, objective, target, trick)
            except NodeLimitExceeded:
                answer = None
            records.append({**current, "family": family, "question": sum(r["deal"] == current["deal"] and
                            r["hand"] == current["hand"] for r in records), "answer": answer,
                            "s": time.process_time() - t0, "nodes": self.nodes - nodes,
                            "trick_nodes": self.trick_nodes - trick_nodes})  # fmt: skip
            return bool(answer)

    rules = get_rules()
    solver = Logged(tt_mb=dd_table.TT_MB[NO_TRUMP], node_limit=args.node_limit or None)
    own = dict(dd_table._SOLVERS)
    dd_table._SOLVERS[NO_TRUMP] = solver
    ids = [int(x) for x in args.hands.split(",")] if args.hands else list(range(len(HANDS)))
    try:
        # compile / load the kernel outside the timing
        pos = check_position(*HANDS[0][1:])
        current.update(hand="warmup", deal=-1)
        dd_table.dd_batch(sample_seeds(args.seed + 1, 1), *pos, rules, 0.0, WANTED)
        records.clear()
        for i in ids:
            name, *position = HANDS[i]
            pos = check_position(*position)
            for d, word in enumerate(sample_seeds(args.seed, args.deals)):
                current.update(hand=name, deal=d)
                dd_table.dd_batch(np.array([word], dtype=np.uint64), *pos, rules, 0.0, WANTED)
            _print_hand(name, [r for r in records if r["hand"] == name])
    finally:
        dd_table._SOLVERS.clear()
        dd_table._SOLVERS.update(own)
    if args.out:
        Path(args.out).write_text(json.dumps(records, indent=0))
    if args.compare:
        _compare(json.loads(Path(args.compare).read_text()), records)


def _print_hand(name: str, rs: list[dict]) -> None:
    for f in FAMILIES:
        fr = [r for r in rs if r["family"] == f]
        if fr:
            answers = "".join("-" if r["answer"] is None else "1" if r["answer"] else "0" for r in fr)
            print(f"{name:20s} {f:7s} n={len(fr):3d} cpu={sum(r['s'] for r in fr):8.2f}s "
                  f"nodes={sum(r['nodes'] for r in fr):11d} trick_nodes={sum(r['trick_nodes'] for r in fr):10d} "
                  f"capped={sum(r['answer'] is None for r in fr):2d} answers={answers}", flush=True)  # fmt: skip


def _compare(old: list[dict], new: list[dict]) -> None:
    """Paired figures per hand and family, and the answers both runs gave."""
    key = {(r["hand"], r["deal"], r["question"]): r for r in old}
    differ = 0
    rows: dict[tuple[str, str], list[float]] = {}
    for r in new:
        o = key.get((r["hand"], r["deal"], r["question"]))
        if o is None:
            continue
        if o["family"] != r["family"]:
            raise SystemExit(f"not the same question: {o} vs {r}")
        if o["answer"] is not None and r["answer"] is not None and o["answer"] != r["answer"]:
            differ += 1
            print("DIFFERENT ANSWER", o, r)
        acc = rows.setdefault((r["hand"], r["family"]), [0.0] * 6)
        for j, v in enumerate((o["s"], r["s"], o["trick_nodes"], r["trick_nodes"],
                               o["answer"] is None, r["answer"] is None)):  # fmt: skip
            acc[j] += v
    print(f"{'hand':20s} {'family':7s} {'cpu before':>10s} {'after':>8s} {'trick nodes before':>18s} "
          f"{'after':>10s} capped before/after")  # fmt: skip
    for (h, f), a in rows.items():
        print(f"{h:20s} {f:7s} {a[0]:10.2f} {a[1]:8.2f} {int(a[2]):18d} {int(a[3]):10d} {int(a[4])}/{int(a[5])}")
    tot = [sum(a[j] for a in rows.values()) for j in range(6)]
    print(f"{'total':28s} {tot[0]:10.2f} {tot[1]:8.2f} {int(tot[2]):18d} {int(tot[3]):10d} {int(tot[4])}/{int(tot[5])}")
    print("answers_differ:", differ)


if __name__ == "__main__":
    main()
