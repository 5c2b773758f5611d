"""Parallel batches with joblib (DESIGN.md layer 6).

Every sample gets its own 64-bit seed word from ``numpy.random.SeedSequence(seed)``;
batches only group samples. So a result depends on the seed and the sample count,
never on ``n_jobs``, the batch size or the backend (sequential, loky, or Dask through
joblib's ``dask`` backend).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np
from joblib import Parallel, delayed, parallel_config
from tqdm.auto import tqdm

__all__ = ["BACKENDS", "batches", "resolve_seed", "run_batches", "sample_seeds"]

T = TypeVar("T")
BACKENDS = ("loky", "sequential", "dask", "threading")


def resolve_seed(seed: int | None) -> int:
    """The seed to use: ``seed`` itself, or a fresh 32-bit one from OS entropy (short enough to retype).

    The seed is reported with every result so that a run can be repeated.
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1)[0])
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return int(seed)


def sample_seeds(seed: int, n_samples: int, stream: int = 0) -> np.ndarray:
    """One seed word per sample: ``uint64[n_samples]``, prefix-stable in ``n_samples``.

    ``stream`` selects an independent sequence for the same seed (e.g. one per
    hand class in an experiment).
    """
    if n_samples <= 0:
        raise ValueError(f"the sample count must be positive, got {n_samples}")
    return np.random.SeedSequence(seed, spawn_key=(stream,)).generate_state(n_samples, dtype=np.uint64)


def batches(items: np.ndarray, batch_size: int) -> list[np.ndarray]:
    """Split a 1-D array into consecutive batches of at most ``batch_size``."""
    return [items[i : i + batch_size] for i in range(0, len(items), batch_size)]


def run_batches(
    task: Callable[[np.ndarray], T],
    seeds: np.ndarray,
    batch_size: int = 25,
    n_jobs: int = -1,
    backend: str = "loky",
    progress: bool | None = None,
    desc: str = "samples",
    on_progress: Callable[[int], None] | None = None,
) -> list[T]:
    """Run ``task(seed_batch)`` over batches of ``seeds`` in parallel, results in batch order.

    Args:
        task: a picklable function of one ``uint64`` seed array.
        seeds: ``uint64[n]`` from :func:`sample_seeds`.
        batch_size: samples per task call.
        n_jobs: joblib worker count (-1 = all cores; 1 runs in this process).
        backend: ``loky`` (default), ``sequential``, ``threading`` or ``dask`` (needs a
            ``dask.distributed`` client, see the experiments).
        progress: a progress bar on stderr; default only when stderr is a terminal.
        on_progress: called after each batch with the number of samples finished so far.

    Raises:
        ValueError: unknown backend or a bad batch size.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if batch_size <= 0:
        raise ValueError(f"batch_size must be positive, got {batch_size}")
    parts = batches(seeds, batch_size)
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=len(seeds), desc=desc, unit="sample", disable=not show, file=sys.stderr)
    results: list[T] = []
    done = 0
    with bar, _sigterm_as_interrupt():
        for part, result in zip(parts, _iterate(task, parts, n_jobs, backend), strict=True):
            results.append(result)
            bar.update(len(part))
            done += len(part)
            if on_progress is not None:
                on_progress(done)
    return results


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """While the batches run, SIGTERM raises ``KeyboardInterrupt`` like Ctrl-C does.

    joblib then stops its worker processes instead of leaving them to finish their
    batches as orphans (main thread only: signals are not delivered to other threads).
    """

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _iterate(task: Callable[[np.ndarray], T], parts: Sequence[np.ndarray], n_jobs: int, backend: str) -> Iterator[T]:
    if n_jobs == 1 or backend == "sequential" or len(parts) == 1:
        yield from (task(part) for part in parts)
        return
    with parallel_config(backend=backend, n_jobs=n_jobs):
        yield from Parallel(return_as="generator")(delayed(task)(part) for part in parts)
