"""``gradlint check --add-noqa``: write ``# noqa: GLxxx`` on every current finding, as ruff's
``--add-noqa`` does, so that a large codebase can adopt gradlint today and gate only new code.

The comments are placed by ``gradlint.noqa`` and written by ``gradlint.writer`` (whole or not at
all; a file under several names, a symlink or hard links, is written once). A file is written
only when it changed, and otherwise keeps its bytes: its encoding (a BOM, a coding cookie), its
line endings and its last line break; only the lines that gain a directive differ. Its new text
must parse to be written, and is linted again: a finding is counted as silenced only if that
lint no longer reports it. What is never written: a file that does not parse (GL000: no safe place for a
comment is known), GL010 (the file was not checked: excluding it says so, a noqa would not),
GL900 (an unused suppression is deleted, not silenced), notebooks and
standard input; their findings are reported as usual, with a line on stderr saying why.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from gradlint import noqa, runner, writer
from gradlint.finding import Finding

# Findings that are never given a noqa, and why.
_NOT_WRITTEN = {
    "GL000": "the file does not parse, so no place for a comment is known to be safe",
    "GL010": "gradlint did not check the file at all; exclude it (extend-exclude) if that is meant",
    "GL900": "an unused suppression is deleted, not silenced",
}


@dataclass
class Adoption:
    """What ``add_noqa`` did: counts for the summary, one line per finding left as it was
    (``path:line: CODE why``) and errors (each ``error: ...``, for ``gradlint: `` on stderr)."""

    directives: int = 0  # lines that gained or extended a ``# noqa``
    files: int = 0
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return f"Added {_plural(self.directives, 'noqa directive')} in {_plural(self.files, 'file')}."


def add_noqa(result: runner.Run, targets: Iterable[runner.Target],
             codes_for: Callable[[str], frozenset[str]]) -> Adoption:
    """Write a ``# noqa`` for each of ``result.findings`` into its file, and leave in
    ``result.findings`` only those that are still reported (not written, or not silenced);
    ``result.sources`` gets the written files' new text. ``codes_for`` is the run's selection,
    for linting the new text. Raises nothing: a file that cannot be read or written is an entry
    in ``Adoption.errors`` and keeps its findings."""
    adoption = Adoption()
    by_name = {target.name: target for target in targets}
    grouped: dict[str, list[Finding]] = {}
    for finding in result.findings:
        grouped.setdefault(finding.path, []).append(finding)
    remaining: list[Finding] = []
    # One file under several names (a symlink, a hard link) is written once, with the comments
    # all its names need: written name by name, the second name saw a file changed under it.
    files: dict[object, list[tuple[runner.Target, list[Finding]]]] = {}
    for name, found in grouped.items():
        target = by_name.get(name)
        if target is None or target.path is None:
            adoption.notes.append(f"{name}: standard input is not written; "
                                  f"{_plural(len(found), 'finding')} reported as usual")
            remaining += found
        elif name.endswith(".ipynb") or any(f.cell is not None for f in found):
            adoption.notes.append(f"{name}: notebooks are not written (yet); "
                                  f"{_plural(len(found), 'finding')} reported as usual")
            remaining += found
        else:
            files.setdefault(writer.identity(target.path) or name, []).append((target, found))
    for names in files.values():
        remaining += _adopt_file(names, result, codes_for, adoption)
    result.findings = sorted(remaining)
    return adoption


def _adopt_file(names: list[tuple[runner.Target, list[Finding]]], result: runner.Run,
                codes_for: Callable[[str], frozenset[str]], adoption: Adoption) -> list[Finding]:
    """Write one file's comments (the file has one name, or several); the findings it still
    reports, under each of its names."""
    found = [f for _, some in names for f in some]
    kept = [f for f in found if f.code in _NOT_WRITTEN]
    for f in kept:
        adoption.notes.append(f"{f.path}:{f.line}: {f.code} not given a noqa: {_NOT_WRITTEN[f.code]}")
    wanted = [f for f in found if f.code not in _NOT_WRITTEN]
    if not wanted:
        return kept
    name = names[0][0].name
    try:
        source = writer.read(names[0][0].path)
    except writer.Unreadable as err:
        adoption.errors.append(f"error: {name}: {err}")
        return found
    except writer.WriteError as err:  # an encoding that would not be written back as it was
        adoption.notes += [f"{f.path}:{f.line}: {f.code} not given a noqa: {err}" for f in wanted]
        return found
    for other, _ in names:
        if runner.decode(source.raw) != result.sources.get(other.name):
            adoption.errors.append(f"error: {other.name}: changed while it was checked; not written")
            return found
    new, missed = noqa.add(source.text, wanted)
    adoption.notes += [f"{f.path}:{f.line}: {f.code} not given a noqa: {_why_missed(f)}" for f in missed]
    if new == source.text:
        return kept + missed
    try:
        data = writer.write(source, new)
    except writer.WouldNotParse:  # noqa.add promises this cannot happen
        adoption.notes += [f"{f.path}:{f.line}: {f.code} not given a noqa: the file would no longer "
                           f"parse" for f in wanted]
        return found
    except writer.WriteError as err:
        adoption.errors.append(f"error: {name}: {err}")
        return found
    adoption.files += 1
    adoption.directives += sum(old != updated for old, updated in
                               zip(noqa.split_lines(source.text), noqa.split_lines(new)))
    # Written findings still reported by the new text stay reported (noqa.add and the
    # suppressions agree on where a comment counts, so this is a safeguard, not a case).
    relinted: set[Finding] = set()
    for other, _ in names:
        result.sources[other.name] = runner.decode(data)
        relinted.update(runner.lint_file(data, other.name, codes_for(other.name))[0])
    return kept + missed + [f for f in wanted if f not in missed and f in relinted]


def _why_missed(finding: Finding) -> str:
    last = max(finding.end_line, finding.line)
    if last == finding.line:
        return f"line {finding.line} ends inside a string or a backslash continuation, where a comment cannot go"
    return (f"none of lines {finding.line}-{last} ends in code (each ends inside a string or a "
            "backslash continuation), so a comment cannot go there")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
