"""What the code-review formats (sarif, rdjson, gitlab, junit) share: a finding's whole text, its
path as a review tool expects it, and a fingerprint that follows the finding when lines move.

Review tools match a finding from one run to the next by its fingerprint, so that a finding that
merely moved (lines inserted above it) is not reported as fixed and new again. The fingerprint is
a hash of the rule code, the path, the finding's source line(s) with whitespace collapsed, and
how many findings before it in the run had that same code, path and text (so two identical lines
get two fingerprints). It survives edits elsewhere in the file, re-indentation and moving the
file's content around; it changes when the flagged line itself changes, or the file is renamed.
"""
from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

from gradlint import DISTRIBUTION
from gradlint.finding import Finding

_NEWLINE = re.compile(r"\r\n|\r|\n")  # what the parser counts as a line break
_SPACE = re.compile(r"\s+")


def text(finding: Finding) -> str:
    """The message, the dynamic verdict with its evidence, and the hint, one per line (as in the
    github format)."""
    lines = [finding.message]
    if finding.verdict is not None:
        lines.append(f"dynamic: {finding.verdict.status}: {finding.verdict.evidence}")
    if finding.hint:
        lines.append(f"hint: {finding.hint}")
    return "\n".join(lines)


def cell_place(finding: Finding) -> str | None:
    """``cell 3, line 4`` for a finding in a notebook (its lines are the cell's own, not the
    .ipynb file's), None elsewhere."""
    return None if finding.cell is None else f"cell {finding.cell}, line {finding.line}"


def path(name: str) -> str:
    """``name`` as a POSIX path relative to the current folder, as review tools want it; an
    absolute POSIX path when it lies outside that folder; ``-`` (standard input) as it is."""
    if name == "-":
        return name
    absolute = Path(os.path.abspath(name))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()


def source_lines(finding: Finding, sources: Mapping) -> list[str]:
    """The finding's lines, ``line`` to ``end_line``, from the run's ``sources``: a file's text
    by its path, a notebook cell's own text by (path, cell); [] when the text is unknown."""
    source = sources.get(finding.source_key)
    if source is None:
        return []
    return _NEWLINE.split(source)[finding.line - 1:max(finding.end_line, finding.line)]


def fingerprints(findings: list[Finding], sources: Mapping[str, str]) -> list[str]:
    """One fingerprint per finding, in order: 32 hex digits, unique within the run, equal across
    runs for the same finding (see the module's docstring). ``findings`` must be in the run's
    sorted order, which numbers repeated findings."""
    seen: Counter[tuple[str, str, str]] = Counter()
    result = []
    for finding in findings:
        lines = source_lines(finding, sources)
        key = (finding.code, path(finding.path), "\n".join(_SPACE.sub(" ", line).strip() for line in lines))
        seen[key] += 1
        data = "\0".join((*key, str(seen[key])))
        # surrogatepass: a file name that is not valid UTF-8 reaches us with lone surrogates.
        result.append(hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:32])
    return result


def home() -> str | None:
    """The project's web page, from the installed package's metadata (``[project.urls]`` in
    pyproject.toml); None while it declares none."""
    try:
        meta = metadata.metadata(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "documentation", "repository", "source"):
            return url.strip() or None
    return meta.get("Home-page") or None
