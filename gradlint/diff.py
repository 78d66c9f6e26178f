"""``--diff-base REV``: which lines changed since a git revision, so that only findings a
reviewer can see in the diff are reported.

A change is what ``git diff REV`` shows for the working tree (committed, staged and unstaged
alike), read from its ``@@ -a,b +c,d @@`` hunk headers with no context lines; a renamed file
counts only its changed lines; a file git does not track yet (and does not ignore) is new in
every line. Each file is judged in its own repository. Text read from standard input under
``--stdin-filename NAME`` is compared with NAME as it was at REV, since the buffer an editor
pipes in is not the file on disk. git itself is run, never reimplemented.

A finding is kept when a line of its range changed, or a line its message cites (the op that
saved a tensor, the cut a value passed through): changing ``y = w + 1`` into
``y = torch.sigmoid(w)`` makes the unchanged ``y += 1`` below it a bug.
"""
from __future__ import annotations

import codecs
import difflib
import os
import re
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from gradlint.finding import Finding

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


class DiffError(Exception):
    """git could not answer (no repository, an unknown revision); the message says which."""


class Changes:
    """The lines changed since ``base``, asked file by file; each repository is diffed once.

    Raises DiffError when ``base`` is not a revision or names no commit in the repository of
    the current folder (else of the first of ``where``, the paths to lint, that is in one), or
    when none of them is in a repository.
    """

    def __init__(self, base: str, where: Iterable[str | os.PathLike] = ()):
        if base.startswith("-"):  # would be read as an option of git's, not a revision
            raise DiffError(f"--diff-base: '{base}' is not a revision")
        self.base = base
        self._tops: dict[Path, Path | None] = {}  # folder → its repository's top
        self._lines: dict[Path, dict[Path, set[int]]] = {}  # top → file → changed lines
        self._new: dict[Path, set[Path]] = {}  # top → untracked files
        # The revision is checked at once, in the first repository among the current folder and
        # the paths given, so that a typo is an error even when there is nothing to report.
        candidates = [Path(os.curdir), *map(Path, where)]
        if not any(self._top_of(_folder(c), required=False) for c in candidates):
            self._top_of(_folder(candidates[0]), required=True)

    def only_changed(self, findings: Iterable[Finding],
                     stdin: Mapping[str, str] | None = None) -> tuple[list[Finding], int]:
        """(the findings on changed lines, how many others there were). ``stdin`` maps the
        name read from standard input to its text. A finding of a file outside any repository
        raises DiffError: nothing says what changed there."""
        stdin = stdin or {}
        kept, hidden = [], 0
        for finding in findings:
            if finding.path in stdin:
                changed = self.text_changes(finding.path, stdin[finding.path])
            else:
                changed = self.file_changes(finding.path)
            if _touches(finding, changed) or self._cites_changed(finding):
                kept.append(finding)
            else:
                hidden += 1
        return kept, hidden

    def _cites_changed(self, finding: Finding) -> bool:
        """Whether a line of another file the finding cites changed: the site inside a helper
        reached through the call it is reported at (``origin_path``), a saving op there. A pull
        request that edits only the helper makes the unchanged call a bug."""
        folder = Path(os.path.abspath(finding.path)).parent
        for key, shown in finding.details.items():
            line = finding.details.get(key[:-5] + "_line") if key.endswith("_path") else None
            if not isinstance(shown, str) or not isinstance(line, int):
                continue
            other = Path(shown) if os.path.isabs(shown) else folder / shown
            try:
                changed = self.file_changes(str(other))
            except DiffError:
                continue  # (outside any repository: nothing says it changed)
            if changed is None or line in changed:
                return True
        return False

    def file_changes(self, name: str) -> set[int] | None:
        """The changed lines of a file on disk; None when all of it is new."""
        path = Path(os.path.abspath(name)).resolve()
        top = self._top_of(path.parent, required=True, name=name)
        if path in self._new[top]:
            return None
        return self._lines[top].get(path, set())

    def text_changes(self, name: str, text: str) -> set[int] | None:
        """The lines of ``text`` that differ from file ``name`` at the base (standard input
        linted under ``--stdin-filename``); None when the file is not in the base at all."""
        if name == "-":
            return None
        path = Path(os.path.abspath(name)).resolve()
        top = self._top_of(_folder(path.parent), required=True, name=name)
        try:
            old = _git(["show", f"{self.base}:{path.relative_to(top).as_posix()}"], top)
        except DiffError:
            return None
        before = old.decode("utf-8-sig", errors="replace").splitlines()
        after = text.splitlines()
        changed: set[int] = set()
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for tag, _, _, start, end in matcher.get_opcodes():
            if tag in ("replace", "insert"):
                changed.update(range(start + 1, end + 1))
        return changed

    def _top_of(self, folder: Path, required: bool, name: str | None = None) -> Path | None:
        if folder not in self._tops:
            try:
                top = Path(_git(["rev-parse", "--show-toplevel"], folder).decode().strip()).resolve()
            except DiffError:
                top = None
            else:
                self._check_base(top)
            self._tops[folder] = top
        if self._tops[folder] is None and required:
            raise DiffError(f"--diff-base: {name or folder} is not in a git repository")
        return self._tops[folder]

    def _check_base(self, top: Path) -> None:
        if top in self._lines:
            return
        try:
            _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{self.base}^{{commit}}"], top)
        except DiffError:
            raise DiffError(f"--diff-base: git knows no commit '{self.base}'"
                            + ("" if top == Path.cwd().resolve() else f" in {top}")) from None
        self._lines[top], self._new[top] = self._diff(top)

    def _diff(self, top: Path) -> tuple[dict[Path, set[int]], set[Path]]:
        lines: dict[Path, set[int]] = {}
        diff = _git(["-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "-M",
                     "--unified=0", self.base, "--"], top)
        current: set[int] | None = None
        for raw in diff.splitlines():
            if raw.startswith(b"+++ "):
                target = raw[4:].removesuffix(b"\t")  # git ends a name that has a space with a tab
                current = None if target == b"/dev/null" else lines.setdefault(
                    (top / _unquote(target)[2:]).resolve(), set())
            elif current is not None and (match := _HUNK.match(raw)):
                start, count = int(match[1]), int(match[2] if match[2] is not None else 1)
                current.update(range(start, start + count))
        untracked = _git(["ls-files", "-z", "--others", "--exclude-standard"], top)
        new = {(top / name.decode("utf-8", "surrogateescape")).resolve()
               for name in untracked.split(b"\0") if name}
        return lines, new


def _folder(path: Path) -> Path:
    """The nearest existing folder at or above ``path`` (git must be run somewhere real)."""
    path = Path(os.path.abspath(path))
    while not path.is_dir() and path != path.parent:
        path = path.parent
    return path


def _touches(finding: Finding, changed: set[int] | None) -> bool:
    """Whether a finding lies on, or cites, a changed line. A notebook's lines are its cells'
    and git's are the JSON file's, and a syntax error (GL000) or a file gradlint's parser did not
    read (GL010) may be caused by any line, so for those a change anywhere in the file counts."""
    if changed is None:
        return True
    if not changed:
        return False
    if finding.cell is not None or finding.code in ("GL000", "GL010"):
        return True
    lines = set(range(finding.line, max(finding.end_line, finding.line) + 1))
    # (a line of another file, `origin_line` beside `origin_path`, is that file's: ``_cites_changed``)
    lines.update(value for key, value in finding.details.items()
                 if key.endswith("_line") and isinstance(value, int) and key[:-5] + "_path" not in finding.details)
    return not lines.isdisjoint(changed)


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
