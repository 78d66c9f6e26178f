"""Lint many files: read each, lint it, and keep going when one of them fails.

``lint_file`` lints one file, a Python module or a Jupyter notebook, by its name.
``run`` is the command line's loop: a file that cannot be read, is larger than
``files.MAX_BYTES``, or crashes a check, becomes an entry in ``Run.errors`` and the other files
are still linted. It takes the findings of unchanged files from the cache (``gradlint.cache``)
and lints the others here or, when there are many, in a pool of processes
(``gradlint.parallel``), from the bytes the cache's lookup read. ``lint_paths`` is the library call: it
discovers files as ``gradlint check`` does and lets such errors raise.
"""
from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ContextManager

# The engine (and the analysis with it) is imported by the first file that needs linting, so a run
# that finds every file in the cache never loads it.
from gradlint import files, notebook, suppression
from gradlint.discovery import discover
from gradlint.finding import Finding
from gradlint.rule import resolve

if TYPE_CHECKING:
    from gradlint.cache import Cache

STDIN = "-"
# Bytes of files the cache did not answer that are kept from its lookup for the linter; past
# this the others are read again when linted (the hash stored is still that of what was linted).
# Few: they stay in memory until the run ends, and a worker forked from this process holds them
# too (its resident set counts every page it shares with the parent), so a bound of 64 MB let
# the peak of every process grow with the corpus. Reading a file again costs microseconds.
HELD_BYTES = 4 * 2**20


@dataclass(frozen=True)
class Target:
    """A file to lint: where its bytes come from, and the name findings carry."""

    name: str
    path: Path | None = None  # the regular file the bytes are from; None: stdin or a pipe, never cached
    source: bytes | None = None  # the bytes, when already read (else read from ``path``)
    # The folder the linted paths share: the file's imports of the project's own files are
    # followed in the project found there (``analysis.project.for_file``); None: its own folder's.
    root: str | None = None


@dataclass
class Run:
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one line each, for stderr after "gradlint: "
    # The text each finding's lines count in, by ``Finding.source_key``: a file's text by path,
    # a notebook cell's text by (path, cell). Kept only for files with findings.
    sources: dict[str | tuple[str, int], str] = field(default_factory=dict)
    files_checked: int = 0
    warnings: list[str] = field(default_factory=list)  # for stderr after "gradlint: warning: "


@dataclass
class Outcome:
    """One file's result, as a worker process sends it back: its findings, the texts they count
    in (only when there are findings), or the error line that replaces them."""

    findings: list[Finding] = field(default_factory=list)
    texts: dict = field(default_factory=dict)
    error: str | None = None
    digest: str | None = None  # the hash of the bytes linted, for the cache
    # The other files of the project whose summaries the findings used: path -> hash (the cache
    # keeps them, and reuses the findings only while they are unchanged).
    deps: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # codes of its suppressions naming no rule
    directives: bool = True  # whether its bytes may name a rule in a suppression (for the cache)


@dataclass(frozen=True)
class Job:
    """A file to lint: its place in the run (errors are reported in file order), the codes that
    run on it, and its size in bytes when known (the pool starts the largest chunks first)."""

    index: int
    target: Target
    codes: frozenset[str]
    size: int = 0


# advance(n): n more files are done. Given the number of files to lint, a progress display.
Progress = Callable[[int], ContextManager[Callable[[int], None]]]


def run(targets: Iterable[Target], codes_for: Callable[[str], frozenset[str]], *, jobs: int = 1,
        cache: Cache | None = None, progress: Progress | None = None, root: str | None = None) -> Run:
    """Lint every target with the codes ``codes_for(name)`` allows; errors do not stop the run.

    ``cache``: findings of files whose bytes and codes are unchanged are taken from it, and
    every file linted is stored in it at the end (standard input never is). ``jobs``: the number of
    processes that lint (1: this one); a pool is started only when at least
    ``parallel.POOL_MIN`` files need linting. ``progress`` is entered with the number of files
    to lint. Findings come out sorted and errors in the targets' order, whatever the jobs.
    ``root``: the folder the linted paths share; a file's imports of the project's own files are
    followed in the project found there (``analysis.project``), else in its own folder's.
    """
    result = Run()
    errors: list[tuple[int, str]] = []
    notes: list[tuple[int, str]] = []  # warnings, by the file's place in the run
    todo: list[Job] = []
    held = 0
    if cache is not None:
        from gradlint.analysis.project import root_for
        from gradlint.cache import content_hash

        targets = list(targets)
        cache.expect(target.name for target in targets if target.path is not None)
    for index, target in enumerate(targets):
        codes = codes_for(target.name)
        if root is not None and target.root is None:
            target = Target(target.name, target.path, target.source, root)  # replace() costs 5x this
        if cache is None or target.path is None:
            todo.append(Job(index, target, codes))
            continue
        # A file another's lookup read as a dependency is not read again (nor hashed).
        taken = cache.take(target.name)
        if taken is not None and len(taken[0]) <= files.MAX_BYTES:
            (source, digest), regular = taken, True
        else:
            try:
                source, regular = files.read(target.path)
            except OSError as err:
                errors.append((index, _cannot_read(target, err)))
                continue
            digest = None
        if not regular:
            # A pipe (`<(cat f)`, /dev/stdin) gives its bytes once: these are the ones to lint.
            # Its path names other bytes next time, so it is never cached.
            todo.append(Job(index, Target(target.name, source=source, root=target.root), codes, len(source)))
            continue
        hit = cache.lookup(target.name, codes, digest or content_hash(source),
                           _root_key(root_for(target.name, target.root)))
        if hit is None:
            if held + len(source) <= HELD_BYTES:  # the bytes read once are the bytes linted
                held += len(source)
                target = Target(target.name, target.path, source, target.root)
            todo.append(Job(index, target, codes, len(source)))
        else:
            # A file in the cache is warned about as a linted one is: the run's stderr is the same.
            # The entry says whether its bytes may name a rule in a suppression at all: most
            # hold none, and searching 15 MB for one took a fifth of a warm run.
            found, directives = hit
            if not found and not (directives and suppression.may_name_rules(source)):
                result.files_checked += 1  # (what _collect makes of an outcome with nothing in it)
                continue
            shown = texts(source, target.name)
            _collect(result, errors, index, Outcome(found, shown if found else {},
                                                    warnings=suppression.unknown_rule_warnings(shown)), notes)
    by_index = {job.index: job for job in todo}

    def done(index: int, outcome: Outcome) -> None:
        job = by_index[index]
        if cache is not None and outcome.digest is not None:
            cache.put(job.target.name, job.codes, outcome.digest, outcome.findings, outcome.deps,
                      _root_key(root_for(job.target.name, job.target.root)), outcome.directives)
        _collect(result, errors, index, outcome, notes)

    hashed = cache is not None
    try:
        with (progress or _no_progress)(len(todo)) as advance:
            if jobs > 1 and len(todo) > 1:
                from gradlint import parallel

                if len(todo) >= parallel.POOL_MIN:
                    for index, outcome in parallel.check_all(todo, jobs, hashed):
                        interrupted()
                        done(index, outcome)
                        advance(1)
                    todo = []
            with collecting_per_file() as collect:
                for job in todo:
                    interrupted()
                    done(job.index, check(job.target, job.codes, hashed))
                    collect()
                    advance(1)
    finally:  # an interrupted run keeps what it linted
        warning = cache.save() if cache is not None else None
    if warning is not None:
        result.warnings.append(warning)
    result.errors = [message for _, message in sorted(errors)]
    result.warnings[:0] = [message for _, message in sorted(notes, key=lambda note: note[0])]
    result.findings = _one_per_site(sorted(result.findings))
    return result


def _one_per_site(findings: list[Finding]) -> list[Finding]:
    """The findings without those reported at a call for a site of another file (``origin_path``,
    ``origin_line``) where the run also reports that site itself: one bug, one finding, where its
    fix goes, under the rule the site's own file gives it (a cut there switched back on is
    GL003's). Linted alone, the calling file keeps its own."""
    where = {}
    for f in findings:
        where.setdefault(os.path.abspath(f.path), []).append(f)
    kept = []
    for f in findings:
        origin, line = f.details.get("origin_path"), f.details.get("origin_line")
        if isinstance(origin, str) and f.path != "-":
            other = os.path.abspath(os.path.join(os.path.dirname(f.path), origin))
            if any(g.line <= line <= max(g.end_line, g.line) for g in where.get(other, ())):
                continue
        kept.append(f)
    return kept


def interrupted() -> None:
    """Raise KeyboardInterrupt if the process took a Ctrl-C (``cli``'s handler counts them in
    ``INTERRUPTS``): one that lands where Python swallows exceptions (an at-fork handler while
    the pool starts a worker, a finalizer) raises nowhere, and the run would go on to its end."""
    if INTERRUPTS[0]:
        raise KeyboardInterrupt


INTERRUPTS = [0]


@contextlib.contextmanager
def collecting_per_file():
    """Python's cyclic collector off while files are linted, with a full collection by hand
    every ``FULL_EVERY`` files. A lint leaves no cycles (``tests/test_memory.py``: what it
    allocates goes by reference counting when it ends), so the collector's passes only
    traversed every tree and summary the project's cache keeps, again and again: a tenth of a
    cold run left on, 6% collecting the young generation after each file. The full collection
    is for a cycle some future change would leave."""
    if not gc.isenabled():
        yield lambda: None
        return
    count = 0

    def collect() -> None:
        nonlocal count
        count += 1
        if count % FULL_EVERY == 0:
            gc.collect()

    gc.disable()
    try:
        yield collect
    finally:
        gc.enable()


FULL_EVERY = 500


def _root_key(root) -> str | None:
    return None if root is None else str(root)


def check(target: Target, codes: frozenset[str], hashed: bool = False) -> Outcome:
    """Read (unless its bytes are given) and lint one target, with the hash of the bytes linted
    when ``hashed`` (for the cache: bytes of a regular file; standard input and pipes are never
    cached) and the files of the project its findings used; never raises."""
    if target.source is not None:
        source, regular = target.source, target.path is not None
    else:
        try:
            source, regular = files.read(target.path)
        except OSError as err:
            return Outcome(error=_cannot_read(target, err))
    deps: dict[str, str] = {}
    try:
        found, shown = lint_file(source, target.name, codes, root=target.root, dependencies=deps)
    except Exception as err:  # a bug in a check must cost one file, not the whole run
        return Outcome(error=f"internal error while checking {target.name}: "
                             f"{type(err).__name__}: {err} (please report this)")
    digest = None
    if hashed and regular:
        from gradlint.cache import content_hash

        digest = content_hash(source)
    return Outcome(found, shown if found else {}, digest=digest, deps=deps,
                   warnings=suppression.unknown_rule_warnings(shown),
                   directives=digest is None or suppression.may_name_rules(source))


def read_stdin() -> bytes:
    """Standard input, at most ``files.MAX_BYTES`` of it: past them (``gradlint check - <
    /dev/zero``) ``files.TooLarge``, an OSError whose ``strerror`` says so."""
    return files.read_stream(sys.stdin.buffer)


def _collect(result: Run, errors: list[tuple[int, str]], index: int, outcome: Outcome,
             notes: list[tuple[int, str]]) -> None:
    if outcome.error is not None:
        errors.append((index, outcome.error))
        return
    notes.extend((index, warning) for warning in outcome.warnings)
    result.files_checked += 1
    if outcome.findings:
        result.findings.extend(outcome.findings)
        result.sources.update(outcome.texts)


def _cannot_read(target: Target, err: OSError) -> str:
    if isinstance(err, files.TooLarge):
        return f"error: {target.name}: not checked: {err.strerror}"
    return f"error: {target.name}: cannot read: {err.strerror or err}"


@contextlib.contextmanager
def _no_progress(total: int):
    yield lambda done: None


def texts(source: bytes, name: str) -> dict[str | tuple[str, int], str]:
    """The texts a file's findings count in, as ``lint_file`` returns them, without linting."""
    if name.endswith(notebook.SUFFIX):
        try:
            return {(name, cell): text for cell, text in notebook.read(source).cells.items()}
        except notebook.NotANotebook:
            pass
    return {name: decode(source)}


def lint_file(source: bytes, name: str, codes: frozenset[str], *, root: str | None = None,
              dependencies: dict | None = None) -> tuple[list[Finding], dict]:
    """One file's findings (sorted) and the texts their lines count in, by ``Finding.source_key``.

    A name ending in ``.ipynb`` is read as a Jupyter notebook (``gradlint.notebook``): its Python
    cells are linted as one module and each finding is placed in its cell. A notebook that is
    not one is GL000 at line 1; a cell that does not parse is GL000 in that cell, and the other
    cells are still checked; a notebook in another language (R, Julia) has no findings.
    ``root`` and ``dependencies``: as for ``engine.lint_source``'s ``project`` and
    ``dependencies`` (imports are followed from the file's folder).
    """
    from gradlint import engine

    with engine.following(root, dependencies):
        return _lint_file(engine, source, name, codes)


def _lint_file(engine, source: bytes, name: str, codes: frozenset[str]) -> tuple[list[Finding], dict]:
    if not name.endswith(notebook.SUFFIX):
        return engine.lint_source(source, name, codes), {name: decode(source)}
    try:
        book = notebook.read(source)
    except notebook.NotANotebook as err:
        found = [engine.not_checked(name, 1, 1, f"the notebook was not checked: {err}")] if "GL000" in codes else []
        return found, {name: decode(source)}
    found = engine.lint_source(book.text, name, codes, locate=book.locate)
    if "GL000" in codes:
        for cell, line, column, message in book.unparsable:
            # The cell was blanked in the joined text, so its own text holds its suppressions.
            found += suppression.apply([engine.not_checked(name, line, column, message, cell=cell)],
                                       book.cells[cell])
    texts = {(name, cell): text for cell, text in book.cells.items()}
    return sorted(found), texts


def lint_paths(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    codes: str | Iterable[str] | None = None,
) -> list[Finding]:
    """Findings for the Python files and notebooks under ``paths`` (default excludes and
    .gitignore honoured).

    ``paths`` is one path or several. ``codes`` selects rules as ``--select`` does: codes,
    prefixes (``GL00``), rule names or ``ALL``, in any case (default: every rule but the
    off-by-default GL900); a selector that matches no rule raises ValueError. Unlike ``gradlint
    check`` this reads no config file, and a path that is missing or cannot be read or listed,
    or a file larger than ``files.MAX_BYTES`` (``files.TooLarge``), raises OSError.
    """
    if isinstance(paths, (str, os.PathLike)):  # a lone path, not an iterable of its characters
        paths = [paths]
    codes = resolve(codes)
    found: list[Finding] = []
    for path in discover(paths):
        found.extend(lint_file(files.read(path).source, str(path), codes)[0])
    return sorted(found)


def decode(source: bytes) -> str:
    # UTF-8, as the engine reads it; a BOM is dropped so line 1 shows as an editor shows it.
    return source.decode("utf-8-sig", errors="replace")
