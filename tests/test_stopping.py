"""The advisor's stop rule (issue 18): rounds fixed by the ceiling, dominated contracts stop, any jobs."""

import numpy as np
import pytest

from wiezen_sim.analysis.advise import advise
from wiezen_sim.analysis.advise.stopping import DOMINATED, HALF_WIDTH, ROUND_FIRST, in_contention, round_ends

HAND = "S:AKJ98 H:A52 D:K32 C:52"  # solo in spades made about 9 times in 10 (7S turned), miserie hopeless


def test_round_ends_double_up_to_the_ceiling():
    assert round_ends(1) == [1]
    assert round_ends(ROUND_FIRST) == [ROUND_FIRST]
    assert round_ends(1000) == [64, 128, 256, 512, 1000]
    assert round_ends(129) == [64, 128, 129]
    with pytest.raises(ValueError, match="positive"):
        round_ends(0)


def test_a_dominated_option_stops_and_a_close_one_keeps_the_run_going():
    rng = np.random.default_rng(0)
    best = rng.normal(10, 5, 64)
    dominated = best - 30 + rng.normal(0, 1, 64)
    close = best + rng.normal(0, 5, 64)
    options = [("solo", best, 0.01), ("pass", np.zeros(64), 0.0), ("miserie", dominated, 0.01)]
    keep, settled = in_contention(options, 0)
    assert keep == {"solo"} and settled  # pass (0 < 10 by far) and miserie are dominated
    keep, settled = in_contention([*options, ("vraag", close, 0.01)], 0)
    assert keep == {"solo", "vraag"} and not settled
    # a contending row whose interval of P(success) is still wide keeps the run going
    keep, settled = in_contention([("solo", best, HALF_WIDTH + 0.01), ("pass", np.zeros(64), 0.0)], 0)
    assert keep == {"solo"} and not settled
    assert 0.99 < DOMINATED < 1


def test_stop_rule_rows_and_reproducibility(compiled_kernels):
    kwargs = {"samples": 100, "seed": 11, "contracts": ["solo", "miserie"], "progress": False}
    one = advise(HAND, "eldest", "7S", n_jobs=1, **kwargs)
    two = advise(HAND, "eldest", "7S", n_jobs=2, batch_size=7, **kwargs)
    worker = advise(HAND, "eldest", "7S", n_jobs=1, backend="loky", **kwargs)  # one worker process, as the CLI
    for other in (two, worker):  # same rounds, same numbers, any jobs, batches or backend
        assert one.table.equals(other.table) and one.meta == other.meta
    n = dict(zip(one.table.contract, one.table.n, strict=True))
    assert n["miserie"] == ROUND_FIRST  # hopeless: asked on the first round only, and says so
    assert n["solo"] == one.meta["deals"] == 100  # still too wide at 64 deals: on to the ceiling
    assert one.recommendation["contract"] == "solo"
    # each row is exactly the row of a fixed run over its own first n deals
    for contract in ("solo", "miserie"):
        fixed = advise(HAND, "eldest", "7S", n_jobs=1, samples=n[contract], seed=11, contracts=[contract],
                       progress=False, stop=False)  # fmt: skip
        got = one.table[one.table.contract == contract].reset_index(drop=True)
        assert _records(got) == _records(fixed.table), contract


def _records(table):
    return table.astype(object).where(table.notna(), None).to_dict(orient="records")


def test_a_settled_run_stops_early(compiled_kernels):
    adv = advise(HAND, "eldest", "7S", samples=1000, seed=11, n_jobs=1, contracts=["miserie"], progress=False)
    assert adv.meta["deals"] == ROUND_FIRST and adv.meta["stopped_early"] and adv.recommendation["contract"] == "pass"


def test_without_the_stop_rule_every_row_has_every_deal(compiled_kernels):
    adv = advise(HAND, "eldest", "7S", samples=70, seed=2, n_jobs=1, contracts=["miserie"], progress=False, stop=False)
    assert adv.meta["deals"] == 70 and not adv.meta["stopped_early"] and (adv.table.n == 70).all()
