"""``--diff-base REV``: which lines changed since a git revision, so that only findings a
reviewer can see in the diff are reported.

A change is what ``git diff REV`` shows for the working tree (committed, staged and unstaged
alike), read from its ``@@ -a,b +c,d @@`` hunk headers with no context lines; a renamed file
counts only its changed lines; a file git does not track yet (and does not ignore) is new in
every line. git itself is run, never reimplemented.
"""
from __future__ import annotations

import codecs
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gradlint.finding import Finding

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


class DiffError(Exception):
    """git could not answer (no repository, an unknown revision); the message says which."""


@dataclass
class Changes:
    """Lines changed since the base, by absolute file path; a file in ``new`` changed in full."""

    lines: dict[Path, set[int]] = field(default_factory=dict)
    new: set[Path] = field(default_factory=set)

    def touches(self, finding: Finding) -> bool:
        """Whether the finding lies on a changed line. A notebook's lines are its cells' and
        git's are the JSON file's, and a syntax error (GL000) may be caused by any line, so
        for those a change anywhere in the file counts."""
        path = Path(finding.path).resolve()
        if path in self.new:
            return True
        changed = self.lines.get(path)
        if not changed:
            return False
        if finding.cell is not None or finding.code == "GL000":
            return True
        return any(line in changed for line in range(finding.line, max(finding.end_line, finding.line) + 1))

    def only_changed(self, findings: Iterable[Finding]) -> tuple[list[Finding], int]:
        """(the findings on changed lines, how many others there were); standard input is not
        in the diff, so its findings all stay."""
        kept, hidden = [], 0
        for finding in findings:
            if finding.path == "-" or self.touches(finding):
                kept.append(finding)
            else:
                hidden += 1
        return kept, hidden


def changes_since(base: str, where: Path | None = None) -> Changes:
    """The changes of the working tree at ``where`` (default: the current directory) since the
    revision ``base``. Raises DiffError when git is missing, ``where`` is not in a repository
    or ``base`` names no commit."""
    top = Path(_git(["rev-parse", "--show-toplevel"], where).decode().strip())
    if base.startswith("-"):  # would be read as an option of git's, not a revision
        raise DiffError(f"--diff-base: '{base}' is not a revision")
    try:
        _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{base}^{{commit}}"], top)
    except DiffError:
        raise DiffError(f"--diff-base: git knows no commit '{base}'") from None
    changes = Changes()
    diff = _git(["-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "-M",
                 "--unified=0", base, "--"], top)
    current: set[int] | None = None
    for raw in diff.splitlines():
        if raw.startswith(b"+++ "):
            target = raw[4:].removesuffix(b"\t")  # git ends a name that has a space with a tab
            current = None if target == b"/dev/null" else changes.lines.setdefault(
                (top / _unquote(target)[2:]).resolve(), set())
        elif current is not None and (match := _HUNK.match(raw)):
            start, count = int(match[1]), int(match[2] if match[2] is not None else 1)
            current.update(range(start, start + count))
    untracked = _git(["ls-files", "-z", "--others", "--exclude-standard"], top)
    changes.new = {(top / name.decode("utf-8", "surrogateescape")).resolve()
                   for name in untracked.split(b"\0") if name}
    return changes


def _unquote(path: bytes) -> str:
    # git writes a path with unusual bytes in C-style quotes: "b/caf\303\251 .py"
    if path.startswith(b'"') and path.endswith(b'"'):
        path = codecs.escape_decode(path[1:-1])[0]
    return path.decode("utf-8", "surrogateescape")


def _git(args: list[str], where: Path | None) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=where, capture_output=True, check=False)
    except OSError as err:
        raise DiffError(f"--diff-base needs git, which could not be run: {err.strerror or err}") from None
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        reason = message[-1].removeprefix("fatal: ") if message else f"git {args[0]} failed"
        raise DiffError(f"--diff-base: {reason}")
    return done.stdout
