"""The local web page of ``wiezen-sim serve`` (issue 22; DESIGN.md layer 7, beside the CLI).

- :mod:`~wiezen_sim.web.forms`: a form's fields checked with the package's own parsers;
  one message per bad field.
- :mod:`~wiezen_sim.web.worker`: what a job process runs: ``advise`` (Wiezen) or the
  Romanian advisor, with progress messages, the downloads and the charts.
- :mod:`~wiezen_sim.web.server`: the Starlette app: the page, the field check, and one
  WebSocket per computation whose job process is terminated when the socket closes.

Needs the ``web`` extra (``pip install -e ".[web]"``); this module itself does not, so the
CLI can name its defaults without it.
"""

MAX_RUNNING = 4  # computations at once, over all tabs (each has its own n_jobs workers); one more is told "busy"
