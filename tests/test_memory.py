"""A lint leaves no reference cycles: what it allocates is freed by reference counting when it
ends, so a run needs no cyclic collection between files (``runner.collecting_per_file``). A
nested function that calls itself is the usual culprit: it holds its own cell, and with it
everything it closed over (a module's classes and their trees)."""
from __future__ import annotations

import collections
import gc

from gradlint import engine
from gradlint.analysis import project


def test_linting_the_fixtures_leaves_no_cyclic_garbage(fixture_set):
    paths = sorted(fixture_set.rglob("*.py"))
    assert len(paths) > 100
    project.clear()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in paths:  # imports followed, as a run follows them
            engine.lint_source(path.read_bytes(), str(path))
        project.clear()
        gc.collect()
        left = collections.Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert not left, left.most_common(10)
