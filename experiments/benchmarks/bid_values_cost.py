"""Benchmark: the extra double-dummy cost of the bid values (issue 19 part 2), in trick nodes.

    python experiments/benchmarks/bid_values_cost.py [--deals K] [--seed S]

For a few positions (the README's example at three seats, a middling and a weak hand), it
samples K deals exactly as ``wiezen-sim advise HAND --seed S`` samples its first K, asks the
whole default contract table of each deal (``dd_batch``, every question of the first round)
and then values every bid in the context of the auction (``bid_batch``, the threshold bot
accepting with 4). The bid values reuse the table's answers wherever the seat's own contract
stands; they ask the solver only about contracts other seats declare (and a vraag accepted by
another partner than the table's). Trick nodes are deterministic (the same on any machine and
load): the table's are the sum over this process's solvers, the bid values' are counted by
``bid_batch``. Also the CPU time of each (``time.process_time``; it depends on the machine and
its load, so only the ratio of the two, timed in the same run, means something): the bid values
run every auction in Python. Prints one line per position and the totals.
"""

from __future__ import annotations

import argparse
import time

from wiezen_sim.analysis.advise import dd_table
from wiezen_sim.analysis.advise.bids import PassedDeals, bid_batch
from wiezen_sim.analysis.advise.play import default_model
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.rules.ruleset import get_rules

POSITIONS = [
    ("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H"),
    ("S:AKQJ98 H:AK2 D:K3 C:52", "second", "7H"),
    ("S:AKQJ98 H:AK2 D:K3 C:52", "dealer", "2H"),
    ("S:Q6 H:KJ74 D:A852 C:J93", "third", "5H"),
    ("S:T762 H:Q84 D:J963 C:75", "eldest", "AD"),
]


def _table_nodes() -> int:
    return sum(solver.trick_nodes for solver in dd_table._SOLVERS.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = get_rules("tempelaere")
    model = default_model(4.0)
    total_table = total_bids = 0
    total_s = (0.0, 0.0)  # CPU seconds: the table, the bid values
    for hand, seat, turned in POSITIONS:
        mask, p, card = check_position(hand, seat, turned)
        seeds = PassedDeals(args.seed, mask, p, card, rules, model).seeds(args.deals)
        before, clock = _table_nodes(), time.process_time()
        answers = dd_table.dd_batch(seeds, mask, p, card, rules, 4.0)
        table, table_s = _table_nodes() - before, time.process_time() - clock
        clock = time.process_time()
        bids = bid_batch(seeds, answers, mask, p, card, rules, None, model)
        bids_s = time.process_time() - clock
        total_s = (total_s[0] + table_s, total_s[1] + bids_s)
        extra = int(bids["bid_trick_nodes"].sum())
        total_table, total_bids = total_table + table, total_bids + extra
        print(f"{hand:26s} {seat:7s} {turned}: table {table:>12,} trick nodes; bid values {extra:>10,} "
              f"({extra / table:.3f} of the table) in {int(bids['bid_questions'].sum())} questions; "
              f"CPU {table_s:.1f} s table, {bids_s:.1f} s bids")  # fmt: skip
    print(f"bid_values_cpu_ratio: {total_s[1] / total_s[0]:.4f}")
    print(f"bid_values_extra_trick_nodes_ratio: {total_bids / total_table:.4f}")


if __name__ == "__main__":
    main()
