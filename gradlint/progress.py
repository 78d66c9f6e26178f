"""A progress bar on stderr for long runs (rich), shown only to a person at a terminal.

Nothing is shown, and rich is not even imported, when stderr is not a terminal (a pipe, a file,
CI's log) or when fewer than ``MIN_FILES`` files need linting: a pre-commit run over one commit's
files, or a run that finds everything in the cache, is over before a bar would mean anything.
The bar is transient (erased when the run ends), so the findings printed after it read as
without it; it never touches stdout, where machine formats write.
"""
from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import TextIO

MIN_FILES = 50
REFRESH = 0.1  # seconds between redraws: redrawing after each of 1,000 fast files costs seconds


@contextlib.contextmanager
def bar(total: int, stream: TextIO | None = None) -> Iterator[Callable[[int], None]]:
    """A context giving ``advance(n)``, to call as files are done (``total`` in all)."""
    stream = sys.stderr if stream is None else stream
    if total < MIN_FILES or not _is_terminal(stream):
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # No refresh thread (auto_refresh=False): a worker pool may fork while the bar is shown.
    with Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(file=stream), transient=True, auto_refresh=False) as progress:
        task = progress.add_task("", total=total)
        last = 0.0

        def advance(done: int) -> None:
            nonlocal last
            progress.advance(task, done)
            now = time.monotonic()
            if now - last >= REFRESH:
                last = now
                progress.refresh()

        progress.refresh()
        yield advance


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
