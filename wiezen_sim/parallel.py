"""Parallel batches that can be stopped (DESIGN.md layer 6).

Every sample gets its own 64-bit seed word from ``numpy.random.SeedSequence(seed)``;
batches only group samples. So a result depends on the seed and the sample count,
never on ``n_jobs``, the batch size or the backend (this process, loky's worker
processes, or a ``dask.distributed`` cluster).

Batches run on an executor (:func:`run_batches` in sample order, :func:`run_tasks` in
the order they finish, :class:`Pipeline` in rounds, a round handed out before the one
before it is collected). With the ``loky`` backend they run in worker processes, one
worker included: a double-dummy search in numba does not look at signals, so only a
worker process can be stopped in the middle of one. While a run is on, Ctrl-C (SIGINT)
and SIGTERM raise :class:`Interrupted` in the main thread at once (:func:`stop_signals`);
the queued batches are dropped and the worker processes killed (SIGKILL, with any
process they started), and the exception carries what was finished. The workers
ignore SIGINT (a terminal's Ctrl-C reaches the whole process group): the parent decides.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, MutableMapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from multiprocessing import resource_tracker
from types import FrameType
from typing import Any, TypeVar

import numpy as np
from joblib import effective_n_jobs
from joblib.externals.loky import ProcessPoolExecutor, get_reusable_executor, process_executor
from joblib.externals.loky.backend.utils import kill_process_tree
from tqdm.auto import tqdm

from wiezen_sim.stops import put_off_in_import
from wiezen_sim.vocabulary import is_whole

__all__ = [
    "BACKENDS",
    "BATCH_SECONDS",
    "STOP_GRACE_S",
    "Interrupted",
    "Pipeline",
    "ProgressBar",
    "check_batch_size",
    "hold_stops_between_runs",
    "progress_bar",
    "resolve_backend",
    "resolve_seed",
    "rounds_pipeline",
    "run_batches",
    "run_tasks",
    "sample_seeds",
    "stop_signals",
    "workers_started",
]

T = TypeVar("T")
R = TypeVar("R")
BACKENDS = ("loky", "sequential", "dask")
BATCH_SECONDS = 0.5  # adaptive batches aim at about this much work each (progress and stopping granularity)
IDLE_SECONDS = 300  # loky's worker processes wait this long for the next batch before they exit (joblib's default)
AHEAD = 2  # batches handed out per worker before the first one is back
# loky restarts a worker whose memory grew by more than 300 MB after its first batch (a leak check,
# when psutil is installed). Our workers keep their solvers' tables for their whole life on purpose
# (advise's grow up to 1.5 GB as they fill: dd_table.TT_MB), so a long run lost its workers, their warm
# tables and a re-import mid-run, with loky's "A worker stopped while some jobs were given to the
# executor" on stderr. This limit is above the tables of advise and of the PIMC players; `solve --tt-mb`
# may ask for more, and its workers are then restarted as they grow (time lost, not results).
WORKER_MEMORY_GROWTH = 8 * 2**30  # bytes
PR_SET_PDEATHSIG = 1  # Linux's prctl option: a signal for this process when its parent thread ends
# a second SIGINT or SIGTERM this soon after the one that raised Interrupted is the same stop (stop_signals): the
# run's clean-up, its partial result among it, takes a fraction of a second
STOP_GRACE_S = 1.0


class _Stops:
    """What :func:`stop_signals` keeps in the main thread across its nested contexts."""

    def __init__(self) -> None:
        self.last = float("-inf")  # time.monotonic() of the last signal that raised Interrupted (outermost context)
        self.depth = 0  # contexts open
        self.resend: threading.Timer | None = None  # a signal put off in the grace, sent again at its end
        self.held: int | None = None  # a stop that came while no run was on (hold_stops_between_runs)
        self.in_task = False  # a batch of this process's executor runs (_InProcess)
        self.deferred: int | None = None  # a stop that came during it, raised once it is done


_stops = _Stops()
_STOPS = {signal.SIGINT, signal.SIGTERM}  # the signals that stop a run
_worker = False  # True in a worker process started by :func:`_executor` (:func:`_start_worker`)


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (SIGINT) or SIGTERM, with what it had finished.

    A ``KeyboardInterrupt``, so code that knows nothing of it stops as on Ctrl-C.

    Attributes:
        signum: the signal (``signal.SIGINT`` or ``signal.SIGTERM``).
        done: samples finished: the first ``done`` of the run, in sample order.
        total: samples the run was asked for; ``ceiling`` True when the run may stop
            earlier by itself (the advisor's stop rule), so ``total`` is an upper bound.
        unit: what a sample is, in words (``sampled deals``, ``sessions``, ``games``, ``hands``).
        results: the finished batches' results, in batch order (:func:`run_batches`).
        partial: the analysis result over the finished samples, or None (set by the analysis layer).
        hint: what can be done with what was finished, in words, or empty.
    """

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = int(signum)
        self.done, self.total, self.ceiling, self.unit = 0, 0, False, "samples"
        self.results: list = []
        self.partial: object = None
        self.hint = ""

    def summary(self) -> str:
        """``80 of at most 1000 sampled deals finished`` (the counts as set by the run)."""
        bound = "at most " if self.ceiling else ""
        return f"{self.done:,} of {bound}{self.total:,} {self.unit} finished"


def resolve_seed(seed: int | None) -> int:
    """The seed to use: ``seed`` itself, or a fresh 32-bit one from OS entropy (short enough to retype).

    The seed is reported with every result so that a run can be repeated.
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1)[0])
    if not is_whole(seed, 0):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def sample_seeds(seed: int, n_samples: int, stream: int = 0) -> np.ndarray:
    """One seed word per sample: ``uint64[n_samples]``, prefix-stable in ``n_samples``.

    ``stream`` selects an independent sequence for the same seed (e.g. one per
    hand class in an experiment).
    """
    if n_samples <= 0:
        raise ValueError(f"the sample count must be positive, got {n_samples}")
    return np.random.SeedSequence(seed, spawn_key=(stream,)).generate_state(n_samples, dtype=np.uint64)


def resolve_backend(backend: str | None, n_jobs: int) -> str:
    """The backend to use: ``backend`` itself, or by default ``sequential`` (this process) for
    ``n_jobs == 1`` and ``loky`` otherwise.

    Raises:
        ValueError: an unknown backend, ``n_jobs`` 0 or not a whole number (a bool is not one), or
            ``sequential`` with a worker count above 1 (it runs in this process: the count would be
            ignored without a word).
    """
    if not is_whole(n_jobs) or n_jobs == 0:
        raise ValueError(
            f"jobs must be a worker count ≥ 1, or negative for all cores (-1) and joblib's -2, …; got {n_jobs!r}"
        )
    if backend is None:
        return "sequential" if n_jobs == 1 else "loky"
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend == "sequential" and n_jobs > 1:
        raise ValueError(f"backend sequential runs in this process, one job: jobs {n_jobs} needs backend loky or dask")
    return backend


def check_batch_size(batch_size: int | None) -> None:
    """Refuse a batch size (samples per task call) that is not None or a whole number ≥ 1.

    Raises:
        ValueError: anything else (a bool is not a size).
    """
    if batch_size is not None and not is_whole(batch_size, 1):
        raise ValueError(f"batch_size must be a whole number ≥ 1 (or None: adaptive), got {batch_size!r}")


def run_batches(
    task: Callable[[np.ndarray], T],
    seeds: np.ndarray,
    batch_size: int | None = None,
    n_jobs: int = -1,
    backend: str | None = None,
    progress: bool | None = None,
    desc: str = "samples",
    on_progress: Callable[[int], None] | None = None,
) -> list[T]:
    """Run ``task(seed_batch)`` over consecutive batches of ``seeds``, results in batch order.

    Args:
        task: a picklable function of one ``uint64`` seed array.
        seeds: ``uint64[n]`` from :func:`sample_seeds`.
        batch_size: samples per task call; None: adaptive, from 1 up to what takes about
            :data:`BATCH_SECONDS` in a worker (measured on the batches finished), so that
            progress and stopping come within about a batch's time. A task whose result
            depends on how the samples are grouped (a float sum) needs a fixed size.
        n_jobs: workers (-1 = all cores).
        backend: ``loky`` (worker processes, for any ``n_jobs``), ``sequential`` (this
            process: cannot be stopped inside a batch) or ``dask`` (the current
            ``dask.distributed`` client); None: :func:`resolve_backend`.
        progress: a progress bar on stderr; default only when stderr is a terminal.
        on_progress: called after each batch with the number of samples finished so far.

    Raises:
        ValueError: unknown backend, ``n_jobs`` = 0 or a bad batch size.
        Interrupted: Ctrl-C or SIGTERM (the workers killed; ``done`` and ``results`` the
            batches finished before).
    """
    with rounds_pipeline(batch_size, n_jobs, backend) as pipe, progress_bar(len(seeds), desc, progress) as bar:

        def report(done: int) -> None:
            bar.update(done - bar.n)
            if on_progress is not None:
                on_progress(done)

        pipe.submit(task, seeds)
        return pipe.collect(report)


@contextlib.contextmanager
def rounds_pipeline(batch_size: int | None = None, n_jobs: int = -1, backend: str | None = None) -> Iterator[Pipeline]:
    """While inside, a :class:`Pipeline` on the backend's executor, with Ctrl-C and SIGTERM raising
    :class:`Interrupted` (:func:`stop_signals`). Leaving by an exception drops the queued batches and kills
    loky's workers; leaving normally drops the rounds not collected (:meth:`Pipeline.drop`).

    Args and errors: as :func:`run_batches` (``batch_size``, ``n_jobs``, ``backend``).
    """
    backend = resolve_backend(backend, n_jobs)
    check_batch_size(batch_size)
    with stop_signals(), _executor(n_jobs, backend) as (pool, workers):
        pipe = Pipeline(pool, workers, batch_size, overlap=backend != "sequential")
        yield pipe
        pipe.drop()


class _Round:
    """A submitted round: its task, seeds, batch sizes and batches handed out so far (in seed order)."""

    def __init__(self, task: Callable[[np.ndarray], Any], seeds: np.ndarray, sizes: _BatchSizes) -> None:
        self.task, self.seeds, self.sizes = task, seeds, sizes
        self.cut = 0  # seeds handed out
        self.batches: list[tuple[int, Future]] = []


class Pipeline:
    """Rounds of batches through one executor, collected in the order they were submitted.

    A round's batches are handed out after every batch of the rounds submitted before it, at most
    :data:`AHEAD` per worker at a time. A round submitted before the one before it is collected (the
    advisor's stop rule: the next round's questions are chosen before the last round is judged) so fills
    the workers that would otherwise wait for that round's slowest batch. Results do not depend on when
    a batch ran: only on the round's task and seeds. With ``overlap`` False (this process's executor runs
    a batch when it is handed out) a round's batches are handed out only when it is collected, so that a
    round dropped uncollected costs nothing.
    """

    def __init__(self, pool: Executor, workers: int, batch_size: int | None, overlap: bool = True) -> None:
        self.pool, self.workers, self.batch_size, self.overlap = pool, workers, batch_size, overlap
        self.rounds: deque[_Round] = deque()  # submitted, not collected
        self.running: dict[Future, tuple[_Round, int]] = {}  # handed out, not finished: round and batch size

    def submit(self, task: Callable[[np.ndarray], T], seeds: np.ndarray) -> None:
        """Queue a round: ``task`` over consecutive batches of ``seeds`` (``uint64[n]``), as :func:`run_batches`."""
        self.rounds.append(_Round(task, seeds, _BatchSizes(self.batch_size, len(seeds), self.workers)))

    def collect(self, on_progress: Callable[[int], None] | None = None) -> list[Any]:
        """The results of the oldest round not collected yet, in batch order, once all its batches are done;
        ``on_progress`` is called after each of its batches with its samples finished so far.

        Raises:
            IndexError: no round to collect.
            Interrupted: Ctrl-C or SIGTERM, with ``done``, ``total`` and ``results`` of this round (the
                batches finished before, in order).
        """
        this = self.rounds[0]
        results: list[Any] = []
        done = 0
        try:
            while this.cut < len(this.seeds) or len(results) < len(this.batches):
                self._hand_out()
                while len(results) < len(this.batches) and this.batches[len(results)][1].done():
                    size, future = this.batches[len(results)]
                    results.append(future.result()[0])
                    done += size
                    if on_progress is not None:
                        on_progress(done)
                _raise_deferred()
                if len(results) < len(this.batches):
                    self._wait()
        except KeyboardInterrupt as exc:
            stop = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
            stop.done, stop.total, stop.results = done, len(this.seeds), results  # this round's
            stop.ceiling, stop.unit, stop.partial, stop.hint = False, "samples", None, ""
            raise stop from None
        self.rounds.popleft()
        return results

    def drop(self) -> None:
        """Forget the rounds not collected: their batches not started are cancelled; those running finish in
        their workers, unread."""
        for future in self.running:
            future.cancel()
        self.rounds.clear()
        self.running.clear()

    def _hand_out(self) -> None:
        """Hand out batches, oldest round first, until every worker has :data:`AHEAD` (only the oldest
        round's without ``overlap``)."""
        for future in [future for future in self.running if future.done()]:
            self._finished(future)
        for this in list(self.rounds)[: None if self.overlap else 1]:
            while this.cut < len(this.seeds) and len(self.running) < AHEAD * self.workers:
                part = this.seeds[this.cut : this.cut + this.sizes.next()]
                future = _submit(self.pool, _timed, this.task, part)
                this.batches.append((len(part), future))
                this.cut += len(part)
                self.running[future] = (this, len(part))
                if future.done():  # this process's executor: already run; collected (its progress told, a stop
                    self._finished(future)  # come meanwhile raised) before the next one runs
                    return

    def _wait(self) -> None:
        """Wait for a running batch to finish, and let its round's batch sizes learn from it."""
        finished, _ = wait(self.running, return_when=FIRST_COMPLETED)
        for future in finished:
            self._finished(future)

    def _finished(self, future: Future) -> None:
        this, size = self.running.pop(future)
        if not future.cancelled() and future.exception() is None:
            this.sizes.observe(size, future.result()[1])


def run_tasks(
    fn: Callable[[Any], R], items: Iterable[Any], n_jobs: int = -1, backend: str | None = None
) -> Generator[tuple[int, R], None, None]:
    """``fn(item)`` for every item, yielding ``(index, result)`` as each finishes (any order).

    Backends as :func:`run_batches`. Close the iterator when leaving it early
    (``contextlib.closing``): that stops the work still running.

    Raises:
        ValueError: unknown backend or ``n_jobs`` = 0.
        Interrupted: Ctrl-C or SIGTERM (the workers killed).
    """
    backend = resolve_backend(backend, n_jobs)
    queue = iter(enumerate(items))
    with stop_signals(), _executor(n_jobs, backend) as (pool, workers):
        pending: dict[Future, int] = {}
        for index, item in queue:
            pending[_submit(pool, fn, item)] = index
            if len(pending) >= AHEAD * workers:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                yield index, future.result()
                for following, item in queue:
                    pending[_submit(pool, fn, item)] = following
                    break


def progress_bar(
    total: int, desc: str, show: bool | None = None, ceiling: bool = False, initial: int = 0
) -> ProgressBar:
    """A progress bar on stderr: ``desc: 120/1000 |███   | 00:10 elapsed, 01:13 left``.

    The time left is the work left at the mean rate since the first update (:class:`ProgressBar`):
    neither a recent burst nor the start-up before the first result (imports, worker
    processes, the kernels loaded) counts. ``initial`` samples, finished by an earlier run,
    are not counted in the rate either. ``ceiling``: the run may stop earlier by itself, so
    the bar reads ``120 of at most 1000`` and ``at most 01:13 left``. ``show``: None = only
    when stderr is a terminal. :meth:`ProgressBar.note` prints a line above the bar (the advisor's stop rule after
    each round: how far it is from stopping).
    """
    if ceiling:
        form = "{desc}: {n_fmt} of at most {total_fmt} |{bar}| {elapsed} elapsed, at most {remaining} left"
    else:
        form = "{desc}: {n_fmt}/{total_fmt} |{bar}| {elapsed} elapsed, {remaining} left"
    show = sys.stderr.isatty() if show is None else show
    return ProgressBar(total=total, desc=desc, disable=not show, file=sys.stderr, bar_format=form, initial=initial)


class ProgressBar(tqdm):
    """tqdm whose rate (and so the time left) is the mean since the first update, with notes above it."""

    def __init__(self, **kwargs: Any) -> None:
        self.first: tuple[float, float] | None = None  # (time, count) at the first update
        super().__init__(smoothing=0, **kwargs)

    def update(self, n: float | None = 1) -> bool | None:
        if self.first is None and n:
            self.first = (time.time(), self.n + n)
        return super().update(n)

    def note(self, text: str) -> None:
        """``text`` on a line of its own above the bar, when the bar is shown: a narrow terminal wraps it,
        where it would cut off a note on the bar's own line."""
        if not self.disable:
            self.write(text, file=self.fp)

    @property
    def format_dict(self) -> MutableMapping[str, Any]:
        form = super().format_dict
        if self.first is not None and self.n > self.first[1]:
            form["rate"] = (self.n - self.first[1]) / max(time.time() - self.first[0], 1e-9)
        return form


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """While inside, SIGINT and SIGTERM raise :class:`Interrupted` (with the signal) in the main thread.

    A signal within :data:`STOP_GRACE_S` of the last one raised, inside the same outermost
    context, is the same stop sent again (``timeout`` signals the command and then its process
    group; a second Ctrl-C) and is put off, so that it does not break off the first one's
    clean-up, the partial result: if the outermost context is still open when the grace is
    over (the first stop was lost, raised where Python ignores exceptions, or its clean-up is
    slow), the signal is sent again and stops anew.
    A stop held while no run was on (:func:`hold_stops_between_runs`) is raised on entering.
    Outside the main thread (signals are delivered only there) and in a worker process
    (whose parent stops it) nothing is changed. The handlers in place before are
    restored on leaving.
    """
    if _worker or threading.current_thread() is not threading.main_thread():
        yield
        return
    if not _stops.depth and _stops.held is not None:  # a stop held before this run began (hold_stops_between_runs)
        signum, _stops.held = _stops.held, None
        raise Interrupted(signum)

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if put_off_in_import(signum, frame):  # raised when the import is over
            return
        if _stops.in_task:  # raised between two batches (_raise_deferred)
            _stops.deferred = signum
            return
        _stop(signum)

    previous = {s: signal.signal(s, interrupt) for s in _STOPS}
    _stops.depth += 1
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _stops.depth -= 1
        if not _stops.depth:  # the outermost one: the stop is over, the next signal is a new stop
            if _stops.resend is not None:
                _stops.resend.cancel()
            # a stop deferred in the last batch: the run is over, it has nothing left to stop
            _stops.last, _stops.resend, _stops.deferred = float("-inf"), None, None


def _stop(signum: int) -> None:
    """Raise :class:`Interrupted` (``signum``), unless within :data:`STOP_GRACE_S` of the last one raised: then
    the same stop, put off and sent again once the grace is over (:func:`stop_signals`)."""
    now = time.monotonic()
    if now - _stops.last < STOP_GRACE_S:
        if _stops.resend is None:  # sent again once the grace is over, should this process still run then
            _stops.resend = threading.Timer(_stops.last + STOP_GRACE_S - now, os.kill, (os.getpid(), signum))
            _stops.resend.daemon = True
            _stops.resend.start()
        return
    _stops.last, _stops.resend = now, None
    raise Interrupted(signum)


def _raise_deferred() -> None:
    """Raise the stop that came while a batch ran in this process (:class:`_InProcess`), if one did."""
    if _stops.deferred is not None:
        signum, _stops.deferred = _stops.deferred, None
        _stop(signum)


def hold_stops_between_runs() -> None:
    """From now on in this process, SIGINT or SIGTERM while no run is on (outside :func:`stop_signals`) is held,
    not fatal: the next run raises :class:`Interrupted` as it begins; once the last run is over, the process
    finishes what it does with the result.

    For a process that runs one computation on request and sends its result (a job of the web page,
    :mod:`wiezen_sim.web.worker`): a stop that reached it as its run ended, while it built the result (the
    advisor's stop rule had settled), killed it by default and the result over every deal was lost.
    Only in the main thread (Python's signal handlers run there).
    """

    def hold(signum: int, frame: FrameType | None) -> None:
        _stops.held = signum

    for signum in _STOPS:
        signal.signal(signum, hold)


class _InProcess(Executor):
    """The ``sequential`` backend: every task runs in this process when it is submitted. A stop that comes
    while it runs is raised when it is done, between two tasks (:func:`_raise_deferred`): raised inside it, it
    could land in a Python call of numba's own (an object unpickled for a kernel) and turn into a
    ``SystemError`` (the web page's Romanian advisor answered one to its stop button)."""

    def submit(self, fn, /, *args, **kwargs):
        _raise_deferred()
        future: Future = Future()
        _stops.in_task = True
        try:
            future.set_result(fn(*args, **kwargs))
        finally:
            _stops.in_task = False
        return future


@contextlib.contextmanager
def _executor(n_jobs: int, backend: str) -> Iterator[tuple[Executor, int]]:
    """The backend's executor and its worker count. Leaving by an exception (Ctrl-C,
    SIGTERM, a failed batch) drops the queued batches and kills loky's worker processes."""
    if backend == "sequential":
        yield _InProcess(), 1
        return
    if backend == "dask":
        try:
            from distributed import get_client
        except ImportError:
            raise ValueError("the dask backend needs dask.distributed: pip install 'wiezen-sim[dask]'") from None
        client = get_client()
        pool = client.get_executor()
        try:
            yield pool, max(1, sum(client.nthreads().values()))
        finally:
            pool.shutdown(wait=False)
        return
    workers = effective_n_jobs(n_jobs)
    pool = _loky_pool(workers)
    try:
        yield pool, workers
    except BaseException:
        _kill(pool)
        raise


def _loky_pool(workers: int) -> ProcessPoolExecutor:
    """loky's reusable pool of ``workers`` processes: the same one for every call with the same count."""
    with _spawn_guard():
        return get_reusable_executor(
            max_workers=workers, timeout=IDLE_SECONDS, initializer=_start_worker, initargs=(os.getpid(),)
        )


@contextlib.contextmanager
def _spawn_guard() -> Iterator[None]:
    """While inside (a call that may start loky's worker processes), SIGINT and SIGTERM are blocked in
    this thread. A stop then does not break off a start half done (the worker failed with a traceback),
    and a process started meanwhile inherits the blocked signals, so a Ctrl-C sent to the process group
    while it starts up (``timeout`` signals the group, and so does a terminal) does not end it with a
    traceback before :func:`_start_worker` ignores both. A signal that arrives here meanwhile is
    delivered when the block ends (a fraction of a second: the ``fork``/``exec``)."""
    # started first: its start unblocks SIGINT in this thread (multiprocessing's code), and loky asks for it
    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _submit(pool: Executor, fn: Callable, *args: object) -> Future:
    """``pool.submit(fn, *args)``, within :func:`_spawn_guard` for loky's pool (a submission starts the
    workers that are missing, in this thread)."""
    if not isinstance(pool, ProcessPoolExecutor):  # this process's executor or dask's: nothing started here
        return pool.submit(fn, *args)
    with _spawn_guard():
        return pool.submit(fn, *args)


@contextlib.contextmanager
def workers_started(n_jobs: int, module: str) -> Iterator[None]:
    """While inside, loky's worker processes are started, each importing ``module`` (a dotted name).

    A run on the ``loky`` backend inside (:func:`run_batches`, :func:`run_tasks`) with the same
    ``n_jobs`` finds them started: their start-up (a Python process each, numba and the
    kernels imported) overlaps what this process does first, such as importing its own work.
    Nothing else changes: the same seeds give the same numbers. Leaving kills the workers (for
    a command about to end: a batch still running, such as one of a round the advisor's stop rule
    did not need, :class:`Pipeline`, would otherwise hold up this process's exit until it is done).

    Raises:
        ValueError: ``n_jobs`` = 0.
    """
    resolve_backend("loky", n_jobs)  # checks n_jobs
    workers = effective_n_jobs(n_jobs)
    pool = None
    try:
        pool = _loky_pool(workers)
        for _ in range(workers):
            _submit(pool, importlib.import_module, module)
        yield
    finally:
        if pool is not None:
            _kill(pool)


def _kill(pool: ProcessPoolExecutor) -> None:
    """Drop the queued tasks and kill loky's worker processes (quietly: the stop was asked for).

    loky's shutdown fails to kill them when a task cancelled by :meth:`Pipeline.drop` is still among its
    pending ones: its manager thread, setting that future's exception, dies of ``InvalidStateError`` before
    it kills the workers, and the command hung at its exit, where Python waits for its child processes (the
    advisor leaves so with a round handed out ahead, from 128 deals on: about one ``advise`` in 10 when every
    run ended so, in a trial). So the workers loky had when asked are killed here too, if still alive."""
    workers = list(pool._processes.values())  # loky's own map of pid -> worker process (no public one)
    with _quiet_manager_thread():
        pool.shutdown(wait=True, kill_workers=True)
    for worker in workers:
        if worker.is_alive():
            kill_process_tree(worker)  # as loky's shutdown would: SIGKILL, with any process it started, and join


@contextlib.contextmanager
def _quiet_manager_thread() -> Iterator[None]:
    """While inside, an exception in loky's ``ExecutorManagerThread`` is not printed: killing the
    workers under it is the stop that was asked for (it printed a traceback after about 1 stop
    in 9 under load). ``shutdown(wait=True)`` joins that thread before the hook is restored."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.thread is None or args.thread.name != "ExecutorManagerThread":
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def _start_worker(parent: int) -> None:
    """A worker process's start: SIGINT and SIGTERM ignored, now and by :func:`stop_signals` (the parent
    stops the workers, killing them), and so on Linux killed when the thread of ``parent`` (a pid) that
    started it ends, however it ends (:func:`_die_with_parent`); loky's memory-growth limit raised to
    :data:`WORKER_MEMORY_GROWTH`, and tqdm's lock a thread lock, not a semaphore of multiprocessing's that a
    killed worker could not give back (the resource tracker would warn of it)."""
    global _worker
    _worker = True
    _die_with_parent(parent)
    process_executor._MAX_MEMORY_LEAK_SIZE = WORKER_MEMORY_GROWTH
    for signum in _STOPS:  # a SIGTERM to the process group that ended a worker had loky start another
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)  # blocked by the parent's _spawn_guard
    tqdm.set_lock(threading.RLock())


def _die_with_parent(parent: int) -> None:
    """On Linux, SIGKILL to this process when the thread that started it ends (``prctl(PR_SET_PDEATHSIG)``), or
    at once if ``parent`` (its pid) has ended already. A parent killed by SIGKILL (the OOM killer, ``kill -9``,
    the web server's hard stop of a job) cannot kill its workers, and they ignore SIGTERM: they went on with
    their batch, unseen, for as long as it took (minutes for a hard deal). Elsewhere nothing is done."""
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
        return  # not allowed here (a sandbox): the workers end after their batch, as elsewhere
    if os.getppid() != parent:  # it ended before the request was made
        os.kill(os.getpid(), signal.SIGKILL)


def _timed(task: Callable[[np.ndarray], T], part: np.ndarray) -> tuple[T, float]:
    """``task(part)`` and its wall time in seconds, measured where it runs."""
    start = time.perf_counter()
    result = task(part)
    return result, time.perf_counter() - start


class _BatchSizes:
    """Batch sizes: fixed, or adaptive (1 at first, then what the last batch says takes about
    :data:`BATCH_SECONDS`, at most a share of the samples that keeps every worker busy to the end)."""

    def __init__(self, fixed: int | None, samples: int, workers: int) -> None:
        self.fixed = fixed
        self.cap = max(1, samples // (2 * AHEAD * workers))
        self.seconds_per_sample = 0.0

    def next(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.seconds_per_sample <= 0:
            return 1
        return int(min(self.cap, max(1, BATCH_SECONDS / self.seconds_per_sample)))

    def observe(self, size: int, seconds: float) -> None:
        self.seconds_per_sample = seconds / size
