"""The Starlette app of ``wiezen-sim serve`` (issue 22).

Routes:

- ``GET /``: the page (one Jinja2 template, plain JavaScript and CSS from ``static/``;
  nothing is fetched from the internet);
- ``GET /api/check/{kind}?field=…``: the form of ``kind`` (``wiezen`` or ``romanian``)
  checked by :mod:`wiezen_sim.web.forms`; answers ``{"errors", "cards", "turned"}``;
- ``WS /ws/{kind}``: one computation. The page sends the form as a JSON object; the
  server answers ``{"type": "invalid", "errors"}``, or ``{"type": "started", "seed"}``
  (a blank seed is drawn here, so the page can put it in its URL) followed by the job's
  messages (:mod:`wiezen_sim.web.worker`) and closes. Any message from the page (the stop
  button) terminates the job's process and answers ``{"type": "stopped"}``, with the
  result over the sampled deals finished when the job sent one; the socket closing
  (closed tab, reload) terminates it too.

Every computation has its own process (forked from a ``forkserver`` that has the
package imported), the leader of a process group of its own, so computations of several
tabs run side by side and stopping one is signalling its group: the job and its joblib
workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import AsyncIterator, Callable
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from wiezen_sim.analysis.advise import EXAMPLE, METHODS
from wiezen_sim.cards import RANK_CHARS, SUIT_SYMBOLS, SUITS, card_name, cards_of
from wiezen_sim.parallel import resolve_seed
from wiezen_sim.rules.romanian import MAX_PLAYERS, MIN_PLAYERS, SCORING_PRESETS, deck_mask
from wiezen_sim.rules.ruleset import PRESETS
from wiezen_sim.vocabulary import SEAT_NAMES
from wiezen_sim.web import MAX_RUNNING, worker
from wiezen_sim.web.forms import (
    DEFAULTS,
    MAX_SAMPLES,
    MAX_SEED,
    METHOD_WORDS,
    check_romanian,
    check_wiezen,
    romanian_api,
)

HERE = Path(__file__).parent
KINDS = {"wiezen": (check_wiezen, worker.run_wiezen), "romanian": (check_romanian, worker.run_romanian)}
POLL_S = 0.05  # how often a computation's connection and process are looked at
STOP_GRACE_S = 10.0  # after SIGTERM, how long a job may take to stop its own workers before SIGKILL


class Jobs:
    """The running job processes of one app.

    Args:
        n_jobs: joblib workers inside each job (the ``n_jobs`` of the advisors).
    """

    def __init__(self, n_jobs: int) -> None:
        self.n_jobs = n_jobs
        self.running: set[BaseProcess] = set()
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["wiezen_sim.web.worker"])

    def start(self, target: Callable, kwargs: dict) -> tuple[BaseProcess, Connection]:
        """Start ``target(connection, kwargs, n_jobs)`` in a new process, the leader of a process group of its
        own (:func:`wiezen_sim.web.worker.job`); returns it and the receiving end."""
        receive, send = self.context.Pipe(duplex=False)
        # not a daemon: joblib starts worker processes only from a non-daemonic process
        process = self.context.Process(target=worker.job, args=(target, send, kwargs, self.n_jobs), daemon=False)
        process.start()
        send.close()  # the child holds the only sending end: its exit ends the connection
        self.running.add(process)
        return process, receive

    async def stop(self, process: BaseProcess) -> None:
        """Terminate a job and every process it started, its joblib workers: SIGTERM to its process group, even
        when the job itself has ended (a job ended by the signal between two batches leaves its idle workers
        behind); SIGKILL to the group if the job still runs after ``STOP_GRACE_S``."""
        _signal_group(process, signal.SIGTERM)
        for _ in range(int(STOP_GRACE_S / POLL_S)):
            if not process.is_alive():
                break
            await asyncio.sleep(POLL_S)
        else:
            _signal_group(process, signal.SIGKILL)
        await asyncio.to_thread(process.join)
        self.running.discard(process)

    async def stop_all(self) -> None:
        """Terminate every running job (the server is shutting down)."""
        await asyncio.gather(*(self.stop(p) for p in list(self.running)))


def _signal_group(process: BaseProcess, signum: int) -> None:
    """Send ``signum`` to the job's process group, or to the job alone if it has not made its group yet."""
    try:
        os.killpg(process.pid, signum)  # type: ignore[arg-type]  # a started process has a pid
    except ProcessLookupError:  # no such group: not made yet, or every process of it has ended
        with contextlib.suppress(ProcessLookupError):
            if process.is_alive():
                os.kill(process.pid, signum)  # type: ignore[arg-type]


def _page_context() -> dict:
    """What the template needs: the package's names of seats, methods, presets, suits and ranks."""
    decks = {n: [card_name(c) for c in cards_of(deck_mask(n))] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    return {
        "suits": [(s, SUIT_SYMBOLS[i]) for i, s in enumerate(SUITS)],
        "ranks": [RANK_CHARS[r] for r in range(14, 1, -1)],
        "seats": SEAT_NAMES,
        "methods": [(m, METHOD_WORDS[m]) for m in METHODS],
        "presets": list(PRESETS),
        "scorings": list(SCORING_PRESETS),
        "models": romanian_api.MODELS,
        "players": list(decks),
        "decks": decks,
        "defaults": DEFAULTS,
        "max_samples": MAX_SAMPLES,
        "max_seed": MAX_SEED,
        "example": EXAMPLE,
    }


def create_app(n_jobs: int = 1, max_running: int = MAX_RUNNING) -> Starlette:
    """The web app; ``n_jobs`` joblib workers per computation (-1: all cores), at most
    ``max_running`` computations at once (one more gets an error message saying so).

    Raises:
        ValueError: ``n_jobs`` is 0, or ``max_running`` < 1.
    """
    if n_jobs == 0:
        raise ValueError("jobs must be a worker count ≥ 1, or negative for all cores (-1)")
    if max_running < 1:
        raise ValueError(f"max-running must be at least 1, got {max_running}")
    jobs = Jobs(n_jobs)
    templates = Jinja2Templates(directory=HERE / "templates")
    context = _page_context()

    async def page(request: Request) -> Response:
        return templates.TemplateResponse(request, "index.html", context)

    async def check(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in KINDS:
            return JSONResponse({"error": f"unknown form {kind!r}; known: {', '.join(KINDS)}"}, status_code=404)
        return JSONResponse(KINDS[kind][0](request.query_params).to_dict())

    async def compute(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != websocket.headers.get("host"):
            await websocket.close(code=1008)  # a page of another site: it must not run work on this machine
            return
        await websocket.accept()
        kind = websocket.path_params["kind"]
        if kind not in KINDS:
            await _finish(websocket, {"type": "error", "message": f"unknown form {kind!r}; known: {', '.join(KINDS)}"})
            return
        first = await websocket.receive()
        if first["type"] == "websocket.disconnect":
            return
        try:
            form = json.loads(first.get("text") or "")  # a binary frame has no text
        except (ValueError, RecursionError):  # RecursionError: arrays nested too deep to decode
            form = None
        if not isinstance(form, dict):
            await _finish(websocket, {"type": "error", "message": "send the form as one JSON object of fields"})
            return
        check_form, target = KINDS[kind]
        checked = check_form({k: str(v) for k, v in form.items()})
        if checked.errors:
            await _finish(websocket, {"type": "invalid", "errors": checked.errors})
            return
        if len(jobs.running) >= max_running:
            busy = (f"the server is busy: {len(jobs.running)} computations are running (at most {max_running} at "
                    "once); stop one, or try again when one has finished")  # fmt: skip
            await _finish(websocket, {"type": "error", "message": busy})
            return
        kwargs = {**checked.kwargs, "seed": resolve_seed(checked.kwargs["seed"])}
        process, connection = jobs.start(target, kwargs)
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):  # _relay sees a page that went away
            await websocket.send_json({"type": "started", "seed": kwargs["seed"], "samples": kwargs["samples"]})
        await _relay(websocket, process, connection, jobs)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(forkserver.ensure_running)  # it imports the package while the page is filled in
        yield
        await jobs.stop_all()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/check/{kind}", check),
            WebSocketRoute("/ws/{kind}", compute),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.jobs = jobs
    return app


async def _relay(websocket: WebSocket, process: BaseProcess, connection: Connection, jobs: Jobs) -> None:
    """Pass the job's messages on until its result or error; stop it when the page speaks or goes away."""
    listener = asyncio.create_task(websocket.receive())
    try:
        while True:
            if listener.done():  # a stop message (any frame), or the socket closed (tab closed, reload)
                if listener.exception() is None and listener.result()["type"] != "websocket.disconnect":
                    _signal_group(process, signal.SIGTERM)
                    last = await _last_word(connection, process)  # the result over the deals finished
                    await asyncio.shield(jobs.stop(process))  # "stopped" once it has: a new run may start at once
                    await _finish(websocket, last or {"type": "stopped"})
                return
            if not connection.poll():
                await asyncio.sleep(POLL_S)
                continue
            try:
                message = connection.recv()
            except EOFError:  # the process ended without a last word (killed, or Ctrl-C in the terminal)
                await asyncio.to_thread(process.join)
                message = {"type": "error", "message": f"the computation stopped (exit code {process.exitcode})"}
            if message["type"] in ("result", "error"):
                # the job is out of the running set before the page hears: a new run may start at once
                await asyncio.shield(jobs.stop(process))
                await _finish(websocket, message)
                return
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError, OSError):  # the page went away while we wrote
        return
    finally:
        listener.cancel()
        connection.close()
        await asyncio.shield(jobs.stop(process))  # finishes even when this handler is cancelled


async def _last_word(connection: Connection, process: BaseProcess) -> dict | None:
    """After the stop signal: the job's last word, read while the job sends it (a large one would block the job
    otherwise): its ``stopped`` message (the result over the deals finished), or its ``result`` or ``error`` when
    the run had ended before the signal came; None when the job ends, or is still running after
    ``STOP_GRACE_S``, without one."""
    deadline = time.monotonic() + STOP_GRACE_S
    while time.monotonic() < deadline:
        if connection.poll():
            try:
                message = await asyncio.to_thread(connection.recv)
            except EOFError:
                return None
            if message["type"] != "progress":
                return message
        elif not process.is_alive() and not connection.poll():
            return None
        else:
            await asyncio.sleep(POLL_S)
    return None


async def _finish(websocket: WebSocket, message: dict) -> None:
    """Send the last message and close the socket (quietly if the page has gone)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_json(message)
        await websocket.close()


def serve(host: str, port: int, n_jobs: int, ready: Callable[[str], None], max_running: int = MAX_RUNNING) -> None:
    """Serve the page until interrupted; ``ready(url)`` is called once the port is bound.

    Port 0 picks a free port (the URL given to ``ready`` names it).

    Raises:
        OSError: the address cannot be bound (in use, or not this machine's).
        ValueError: ``n_jobs`` is 0, or ``max_running`` < 1.
    """
    app = create_app(n_jobs, max_running)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family)
    bound = sock.getsockname()[1]
    ready(f"http://{f'[{host}]' if family == socket.AF_INET6 else host}:{bound}/")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
