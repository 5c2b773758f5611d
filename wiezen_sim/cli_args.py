"""Argument types shared by the ``wiezen-sim`` verbs (DESIGN.md layer 7).

A value out of range is rejected while the command line is parsed, before any work:
argparse reports it on one line naming the option (exit code 2).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def int_range(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a decimal integer from ``low`` to ``high`` (no upper bound when None).

    The returned function raises ``argparse.ArgumentTypeError`` on a non-integer or a
    value out of range.
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value

    return parse
