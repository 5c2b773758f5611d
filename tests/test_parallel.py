"""Batches (wiezen_sim.parallel): the same results for any batch size, worker count and backend;
a stop (SIGINT, SIGTERM) in the middle of a batch kills the worker processes at once and keeps
what was finished."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import numpy as np
import psutil
import pytest
from joblib.externals.loky import ProcessPoolExecutor

from wiezen_sim.parallel import (
    BATCH_SECONDS,
    STOP_GRACE_S,
    Interrupted,
    _kill,
    hold_stops_between_runs,
    progress_bar,
    resolve_backend,
    rounds_pipeline,
    run_batches,
    run_tasks,
    sample_seeds,
    stop_signals,
    workers_started,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


def residues(seeds: np.ndarray) -> list[int]:
    """A batch's result per sample (so that the grouping into batches is visible if it leaked)."""
    return [int(s) % 1000**2 for s in seeds]


def imported_where(seeds: np.ndarray) -> tuple[int, bool]:
    """This worker's pid and whether it imported the module :func:`workers_started` named (which nothing here
    imports)."""
    return os.getpid(), WARM_MODULE in sys.modules


def first_fast_then_stuck(seeds: np.ndarray) -> tuple[int, int]:
    """The batch holding sample 0 returns at once; every other one blocks for a minute, as a long
    double-dummy search does (no signal reaches it: the worker ignores SIGINT, SIGTERM goes to the parent)."""
    if seeds[0] != FIRST:
        time.sleep(60)
    return os.getpid(), len(seeds)


_TABLE: list[np.ndarray] = []


def grows_a_table(seeds: np.ndarray) -> int:
    """This worker's pid; the batch of sample 1 fills a 400 MB array that the worker keeps, as a solver's
    table fills during a run, and the batch of sample 2, the last, lets it go (the worker serves later
    tests); each waits past loky's 1 s between two memory checks first."""
    if seeds[0] == SEEDS[1]:
        _TABLE.append(np.ones(400 * 2**20 // 8))
    time.sleep(1.1)
    if seeds[0] == SEEDS[2]:
        _TABLE.clear()
    return os.getpid()


SEEDS = sample_seeds(7, 101)
FIRST = SEEDS[0]


@pytest.mark.parametrize(
    ("batch_size", "n_jobs", "backend"),
    [(None, 1, None), (3, 1, "sequential"), (None, 1, "loky"), (None, 2, None), (17, 2, "loky")],
)
def test_results_do_not_depend_on_batches_jobs_or_backend(batch_size, n_jobs, backend):
    parts = run_batches(residues, SEEDS, batch_size, n_jobs, backend, progress=False)
    assert [x for part in parts for x in part] == residues(SEEDS)
    if batch_size is not None:
        assert [len(p) for p in parts[:-1]] == [batch_size] * (len(parts) - 1)


def test_adaptive_batches_start_at_one_sample():
    """Progress comes after the first sample, not after a whole batch of guesswork; later batches grow
    towards BATCH_SECONDS of work."""
    done = []
    parts = run_batches(residues, SEEDS, None, 1, "sequential", progress=False, on_progress=done.append)
    assert len(parts[0]) == 1 and done[0] == 1 and done[-1] == len(SEEDS)
    assert max(len(p) for p in parts) > 1 and BATCH_SECONDS > 0


def stopped_in_the_second(seeds: np.ndarray) -> list[int]:
    """The batch of sample 1 receives a stop midway, then goes on in Python for a moment."""
    if seeds[0] == SEEDS[1]:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)
    return residues(seeds)


def test_a_stop_in_a_batch_of_this_process_is_raised_between_two():
    """A stop raised inside a batch run in this process could land in numba's own Python call (an object
    unpickled for a kernel) and turn into a SystemError (the web page's Romanian advisor answered one to its stop
    button); and the batches of a round ran all before any was collected, so a stop kept none of them. Now the
    stop is raised once the batch it came in is done, with every batch done so far."""
    with pytest.raises(Interrupted) as stopped:
        run_batches(stopped_in_the_second, SEEDS[:5], 1, 1, "sequential", progress=False)
    assert stopped.value.signum == signal.SIGTERM and stopped.value.done == 2
    assert stopped.value.results == [residues(SEEDS[i : i + 1]) for i in range(2)]


def test_run_tasks_yields_every_result_once():
    got = dict(run_tasks(abs, [-3, 4, -5, 6], 2, "loky"))
    assert got == {0: 3, 1: 4, 2: 5, 3: 6}


def test_backend_and_jobs_checked():
    assert resolve_backend(None, 1) == "sequential" and resolve_backend(None, -1) == "loky"
    assert resolve_backend("sequential", -1) == "sequential"
    with pytest.raises(ValueError, match="backend sequential runs in this process, one job: jobs 2 needs"):
        resolve_backend("sequential", 2)  # the worker count was ignored without a word
    with pytest.raises(ValueError, match="unknown backend"):
        resolve_backend("threads", 2)
    with pytest.raises(ValueError, match="worker count"):
        run_batches(residues, SEEDS, None, 0)
    for size in (0, 1.5, True):
        with pytest.raises(ValueError, match="batch_size must be a whole number ≥ 1"):
            run_batches(residues, SEEDS, size, 1)
    with pytest.raises(ValueError, match=r"worker count .*; got True"):  # a bool is not a count
        resolve_backend(None, True)


def _loky_workers() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if "popen_loky" in " ".join(p.cmdline())]


@pytest.mark.parametrize(("signum", "n_jobs"), [(signal.SIGINT, 1), (signal.SIGTERM, 2)])
def test_a_stop_in_a_long_batch_kills_the_workers_and_keeps_the_finished(signum, n_jobs):
    sent = []

    def progress(done: int) -> None:  # the first batch is back; the others are stuck for a minute
        timer = threading.Timer(0.3, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signum)))
        timer.start()

    with pytest.raises(Interrupted) as stopped:
        run_batches(first_fast_then_stuck, SEEDS, None, n_jobs, "loky", progress=False, on_progress=progress)
    took = time.monotonic() - sent[0]
    exc = stopped.value
    assert exc.signum == signum and exc.done == 1 and exc.total == len(SEEDS)
    assert [size for _, size in exc.results] == [1]
    assert took < 2, f"{took:.2f} s from the signal to the exception"
    deadline = time.monotonic() + 2
    while _loky_workers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _loky_workers(), "a worker outlived the stop"
    again = run_batches(residues, SEEDS[:5], None, n_jobs, "loky", progress=False)  # new workers
    assert [x for part in again for x in part] == residues(SEEDS[:5])


def test_stop_signals_raise_interrupted_and_restore_the_handlers():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Interrupted) as stopped, stop_signals():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert stopped.value.signum == signal.SIGTERM and isinstance(stopped.value, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGTERM) is before
    assert Interrupted(signal.SIGINT).summary() == "0 of 0 samples finished"


def test_a_stop_between_runs_is_held_for_the_next_run():
    """A web job stopped as its run ended (building the result) died of the default SIGTERM and its result over
    every deal was lost (CI, once in a few hundred runs): outside a run the stop is held; a run that begins
    after it raises Interrupted at once."""
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        hold_stops_between_runs()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)  # still here: the signal was held
        start = time.monotonic()
        with pytest.raises(Interrupted) as stopped, stop_signals():
            time.sleep(5)
        assert stopped.value.signum == signal.SIGTERM and time.monotonic() - start < 1
        with stop_signals():  # held once: the next run runs
            pass
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_stop_sent_again_at_once_does_not_break_off_the_clean_up():
    """``timeout -s INT`` signals the command and then its process group: the second SIGINT, a moment later, found
    the advisor computing its partial result and replaced the stop by a bare one (a new user's Ctrl-C printed no
    table). A signal within STOP_GRACE_S of the last one is the same stop; a later one is a new stop."""
    cleaned = []
    with pytest.raises(Interrupted) as stopped, stop_signals():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except Interrupted as first:
            first.done = 7
            os.kill(os.getpid(), signal.SIGINT)  # while cleaning up
            time.sleep(0.1)
            cleaned.append(True)
            raise
    assert cleaned and stopped.value.done == 7
    start = time.monotonic()
    with pytest.raises(Interrupted) as again, stop_signals():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except Interrupted:
            time.sleep(STOP_GRACE_S + 0.1)
            os.kill(os.getpid(), signal.SIGINT)  # after the grace: a new stop, raised at once
            time.sleep(5)
    assert again.value.done == 0 and time.monotonic() - start < 3
    with pytest.raises(Interrupted), stop_signals():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except Interrupted:
            pass  # lost, as where Python ignores an exception (a weakref callback during an import)
        os.kill(os.getpid(), signal.SIGINT)  # within the grace: put off, and sent again once it is over
        start = time.monotonic()
        time.sleep(5)
    assert time.monotonic() - start < 2


def test_the_time_left_counts_from_the_first_result():
    """The start-up before the first result (imports, worker processes) is not counted as work: the rate is
    the mean since the first update, and the bar says 'at most' for a ceiling."""
    with progress_bar(100, "deals", show=True, ceiling=True) as bar:
        time.sleep(0.5)  # start-up: nothing finished
        bar.update(1)
        time.sleep(0.1)
        bar.update(10)
        rate = bar.format_dict["rate"]
        assert 2 * 11 / 0.6 < rate <= 10 / 0.1, rate  # since the first update (10 / 0.1), not the start (11 / 0.6)
        text = str(bar)
    assert "11 of at most 100" in text and "at most" in text.split("elapsed")[1]


def test_a_note_is_a_line_of_its_own_above_the_bar(capsys):
    """A note (the advisor's stop rule after a round) is printed whole on its own line, not on the bar's line,
    where a narrow terminal would cut it off; a hidden bar prints nothing."""
    note = "after 64 sampled deals: vraag ♠ leads pico at P 0.859 (needs 0.99), intervals ±0.12 (needs ±0.05)"
    with progress_bar(100, "deals", show=True, ceiling=True) as bar:
        bar.update(64)
        bar.note(note)
    assert note + "\n" in capsys.readouterr().err
    with progress_bar(100, "deals", show=False) as bar:
        bar.note(note)
    assert capsys.readouterr().err == ""


WARM_MODULE = "wiezen_sim.analysis.charts"  # matplotlib: imported by no task of these tests


def test_workers_started_are_the_runs_workers_and_imported_the_module():
    with workers_started(1, WARM_MODULE):
        started = {p.pid for p in _loky_workers()}
        out = run_batches(imported_where, SEEDS[:3], 1, 1, "loky", progress=False)
    assert {
        pid for pid, _ in out
    } <= started  # the run used the worker started before it (an earlier pool's may linger)
    assert all(imported for _, imported in out)


def _no_workers_within(seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _loky_workers() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _loky_workers()


def test_leaving_workers_started_kills_its_workers():
    """By an error, and also normally: a command leaves it at its end, where a batch still running (a round the
    advisor's stop rule did not need) would hold up the process's exit."""
    with pytest.raises(RuntimeError), workers_started(2, WARM_MODULE):
        assert _loky_workers()
        raise RuntimeError("stop")
    assert _no_workers_within(2), "a worker outlived the error"
    start = time.monotonic()
    with workers_started(1, WARM_MODULE), rounds_pipeline(1, 1, "loky") as pipe:
        pipe.submit(first_fast_then_stuck, SEEDS[:1])
        pipe.submit(first_fast_then_stuck, SEEDS[1:2])  # runs for a minute, never collected
        assert [size for _, size in pipe.collect()] == [1]
    assert _no_workers_within(2) and time.monotonic() - start < 10, "the uncollected round's batch held the exit"
    with pytest.raises(ValueError, match="jobs"), workers_started(0, WARM_MODULE):
        pass


def test_the_workers_die_though_a_cancelled_batch_is_still_queued():
    """:meth:`Pipeline.drop` cancels the batches not started. loky's shutdown, meeting such a cancelled task among
    its pending ones, died (``InvalidStateError`` in its manager thread) before it killed the workers, and
    ``wiezen-sim advise`` hung at its exit waiting for them."""
    pool = ProcessPoolExecutor(max_workers=1)  # its own (the reusable one may still run another test's batches)
    stuck = [pool.submit(first_fast_then_stuck, SEEDS[i : i + 1]) for i in range(1, 4)]  # the worker and loky's queue
    queued = pool.submit(first_fast_then_stuck, SEEDS[4:5])
    deadline = time.monotonic() + 10
    while not stuck[0].running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert queued.cancel(), "the last batch was handed to the worker's queue already"
    workers = [psutil.Process(pid) for pid in pool._processes]
    _kill(pool)
    # gone when _kill returns (left alone, this worker exits a moment later; the advisor's idle ones never did)
    _, alive = psutil.wait_procs(workers, timeout=0)
    assert not alive, "a worker outlived the shutdown"


def late_and_timed(seeds: np.ndarray) -> tuple[int, float, float]:
    """The sample's residue and when its batch started and ended (``time.time``, seconds); the batch of the
    first round's last sample takes 1 s."""
    start = time.time()
    if seeds[0] == SEEDS[5]:
        time.sleep(1)
    return int(seeds[0]) % 1000**2, start, time.time()


@pytest.mark.parametrize(("n_jobs", "backend"), [(2, "loky"), (1, "sequential")])
def test_a_round_submitted_ahead_fills_the_workers_and_gives_the_same_results(n_jobs, backend):
    """Rounds come back in submission order with the results a round alone would give; on worker processes the
    next round, submitted before this one is collected, starts while this one's slow last batch runs; in this
    process a round is run only when collected, so one left uncollected costs nothing."""
    with rounds_pipeline(1, n_jobs, backend) as pipe:
        pipe.submit(late_and_timed, SEEDS[:6])
        pipe.submit(late_and_timed, SEEDS[6:12])
        first = pipe.collect()
        if backend == "sequential":
            assert pipe.rounds[0].batches == []  # not run yet
        second = pipe.collect()
        pipe.submit(late_and_timed, SEEDS[12:14])  # dropped on leaving
    assert [r for r, _, _ in first + second] == residues(SEEDS[:12])
    if backend == "loky":
        slow_end = first[-1][2]
        assert min(start for _, start, _ in second) < slow_end - 0.5, "the next round waited for the slow batch"


def test_a_worker_whose_tables_grow_is_kept():
    # loky's leak check restarted a worker that grew by 300 MB after its first batch (a new pid for
    # the third batch, and a warning); the advisor's tables grow so during a long run
    pids = run_batches(grows_a_table, SEEDS[:3], 1, 1, "loky", progress=False)
    assert len(set(pids)) == 1
