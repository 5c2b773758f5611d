"""``wiezen-sim serve``: the advisors as a local web page (issue 22; needs the web extra)."""

from __future__ import annotations

import argparse

from wiezen_sim.cli.args import UsageError, add_jobs, add_verb, int_range
from wiezen_sim.web import MAX_RUNNING

__all__ = ["add", "run"]


def run(args: argparse.Namespace) -> None:
    """Serve the page until Ctrl-C."""
    try:
        from wiezen_sim.web.server import serve
    except ImportError as exc:
        raise UsageError(f"the web page needs the web extra: pip install -e '.[web]' ({exc})") from None

    def ready(url: str) -> None:
        print(f"wiezen-sim: the web page is at {url} (Ctrl-C stops the server)", flush=True)

    serve(args.host, args.port, args.jobs, ready, args.max_running)


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``serve``."""
    p = add_verb(
        sub,
        "serve",
        "a local web page for advise and the Romanian bid advisor (needs the web extra)",
        "wiezen-sim serve --port 8765    # then open http://127.0.0.1:8765",
    )
    p.add_argument("--port", type=int_range(0, 65535), default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    add_jobs(p, default=1, what="per computation")
    p.add_argument(
        "--max-running", type=int_range(1, 64), default=MAX_RUNNING, metavar="N",
        help=f"computations at once, over all tabs (default {MAX_RUNNING}); one more is told the server is busy",
    )  # fmt: skip
    p.set_defaults(func=run)
