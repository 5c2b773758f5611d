"""Signals that find Python importing a module, or in a finalizer, are sent again a moment later (no
numpy: the command line installs :func:`early_handler` before its heavy imports;
:func:`wiezen_sim.parallel.stop_signals` uses :func:`put_off_in_import` for the run's own stop).

An exception raised inside Python's import machinery can leave a module's import lock held (a later
import of that module, such as a worker's result being unpickled, then waits for ever: ``advise``
stopped in its first 1.5 s hung) or turn into an ``ImportError`` (numba's; ``advise`` ended with exit 1
and its traceback, or a library that catches it loses the stop); one raised in a ``__del__`` is printed
and ignored (the stop is lost).
"""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

__all__ = ["IMPORT_RETRY_S", "early_handler", "put_off_in_import"]

IMPORT_RETRY_S = 0.05  # seconds before a signal put off during an import is sent again


def put_off_in_import(signum: int, frame: FrameType | None) -> bool:
    """When ``frame`` (the main thread's, as a signal handler gets it) is inside Python's import machinery
    or inside a finalizer (a ``__del__``, where Python prints an exception raised and ignores it: a stop
    raised while the garbage collector freed llvmlite's objects was lost, and the run went on to its end):
    send ``signum`` again in :data:`IMPORT_RETRY_S` seconds and return True (the handler returns at once);
    else False."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib") or frame.f_code.co_name == "__del__":
            retry = threading.Timer(IMPORT_RETRY_S, os.kill, (os.getpid(), signum))
            retry.daemon = True
            retry.start()
            return True
        frame = frame.f_back
    return False


def early_handler(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler until the run's own one is in place: ``KeyboardInterrupt``, put off while an
    import is in progress (:func:`put_off_in_import`)."""
    if not put_off_in_import(signum, frame):
        raise KeyboardInterrupt(signal.Signals(signum).name)
