"""SARIF 2.1.0, as GitHub code scanning reads it: upload the file with
``github/codeql-action/upload-sarif`` and findings become code scanning alerts.

One run. ``tool.driver.rules`` describes every rule, with or without findings (GitHub shows a
rule's help beside its alerts): the summary, the "What it finds" section of the rule's page as
plain text (cut to GitHub's 1024 characters), the whole page as help, its default level, and
``precision`` / ``problem.severity`` / ``tags``, which GitHub sorts and filters alerts by.

Each result has the finding's text (message, dynamic verdict, hint), its region (lines and
columns 1-based, ``endColumn`` exclusive, columns counted in Unicode code points, as
``columnKind`` says), the path relative to the current folder under ``%SRCROOT%`` (run gradlint
from the repository's root), and ``partialFingerprints.primaryLocationLineHash`` from
``review.fingerprints``, so an alert survives lines being inserted above it. A finding the
dynamic pass confirmed has precision ``very-high``; one it dismissed is a ``note``. A notebook
finding has no region (GitHub would count its lines in the notebook's JSON): ``properties``
holds the cell, line and column, and the message starts with them. The run's errors (a file
that could not be read or checked) make ``invocations[0].executionSuccessful`` false, each an
error notification.
``automationDetails.id`` is ``gradlint/``: the category GitHub keeps gradlint's alerts under.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import TextIO
from urllib.parse import quote

from gradlint import __version__
from gradlint.finding import Finding, Severity
from gradlint.report import review
from gradlint.rule import RULES, Rule

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
CATEGORY = "gradlint/"
FULL_DESCRIPTION_LIMIT = 1024  # characters GitHub keeps of fullDescription.text

# How often a rule's findings are right. GL000 is Python's own verdict on the file, GL010 a
# measure of it (or the parser's own failure), and GL900 a
# plain count of what a comment silenced; the autograd rules report only what their facts show
# reaches a loss, and a dynamic confirmation is proof.
PRECISION = {"GL000": "very-high", "GL010": "very-high", "GL900": "very-high"}
DEFAULT_PRECISION = "high"
CONFIRMED_PRECISION = "very-high"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning"}
_TAGS = {"GL000": ["syntax"], "GL010": ["coverage"], "GL900": ["maintainability"]}
_DEFAULT_TAGS = ["correctness", "pytorch", "autograd"]


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    json.dump(log(findings, sources, errors), out, indent=2)
    out.write("\n")


def log(findings: list[Finding], sources: Mapping[str, str], errors: Sequence[str] = ()) -> dict:
    """The SARIF log of one run as a JSON-ready dict; ``errors`` make its invocation
    unsuccessful, each an error notification, so that a file left unchecked is not a clean run."""
    index = {rule.code: position for position, rule in enumerate(RULES)}
    results = [_result(finding, fingerprint, index)
               for finding, fingerprint in zip(findings, review.fingerprints(findings, sources))]
    driver = {"name": "gradlint", "version": __version__}
    home = review.home()
    if home:
        driver["informationUri"] = home
    driver["rules"] = [descriptor(rule) for rule in RULES]
    root = Path.cwd().as_uri()
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "automationDetails": {"id": CATEGORY},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {SRCROOT: {"uri": root if root.endswith("/") else root + "/"}},
            "results": results,
            "invocations": [{
                "executionSuccessful": not errors,
                "toolExecutionNotifications": [
                    {"level": "error", "message": {"text": error}} for error in errors],
            }],
        }],
    }


def descriptor(rule: Rule) -> dict:
    """The rule's ``reportingDescriptor``, its words taken from the rule's page."""
    try:
        doc = rule.doc()
    except FileNotFoundError:  # an install without the rule pages still writes valid SARIF
        doc = None
    finds = _section(doc, "What it finds") if doc else None
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": plain(rule.summary)},
        "fullDescription": {"text": _clip(plain(finds), FULL_DESCRIPTION_LIMIT) if finds else rule.summary},
        "help": {"text": plain(doc), "markdown": doc} if doc else {"text": rule.summary},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {
            "precision": PRECISION.get(rule.code, DEFAULT_PRECISION),
            "problem.severity": "error" if rule.severity is Severity.ERROR else "warning",
            "tags": _TAGS.get(rule.code, _DEFAULT_TAGS),
        },
    }


def _result(finding: Finding, fingerprint: str, index: Mapping[str, int]) -> dict:
    region = {
        "startLine": max(finding.line, 1),
        "startColumn": max(finding.column, 1),
        "endLine": max(finding.end_line, finding.line, 1),
        "endColumn": max(finding.end_column, 1),
    }
    properties: dict = {"precision": _precision(finding)}
    message = review.text(finding)
    if finding.cell is not None:
        # GitHub would place a region on the lines of the notebook's JSON, which are not the
        # cell's: the alert goes on the file, the message and properties name the cell's line.
        region = None
        properties.update(cell=finding.cell, line=finding.line, column=finding.column)
        message = f"{review.cell_place(finding)}: {message}"
    if finding.verdict is not None:
        properties["dynamic"] = finding.verdict.status
    result = {"ruleId": finding.code}
    if finding.code in index:
        result["ruleIndex"] = index[finding.code]
    result.update({
        "level": _level(finding),
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(finding.path),
                                            **({"region": region} if region else {})}}],
        "partialFingerprints": {"primaryLocationLineHash": fingerprint},
        "properties": properties,
    })
    return result


def _level(finding: Finding) -> str:
    if finding.verdict is not None and finding.verdict.status == "dismissed":
        return "note"  # the autograd record showed the gradient arriving: worth a look, not a warning
    return _LEVEL.get(finding.severity, "warning")


def _precision(finding: Finding) -> str:
    if finding.verdict is not None and finding.verdict.status == "confirmed":
        return CONFIRMED_PRECISION
    return PRECISION.get(finding.code, DEFAULT_PRECISION)


def _artifact(name: str) -> dict:
    relative = review.path(name)
    if PurePath(relative).is_absolute():  # outside the current folder: no base to be relative to
        return {"uri": Path(relative).as_uri()}
    # A URI reference: percent-encoded, so a space, '%', '#' or ':' in a file name stays a path.
    # (a name that is not UTF-8: its bytes, as the file system has them)
    return {"uri": quote(relative.encode("utf-8", "surrogateescape"), safe="/"), "uriBaseId": SRCROOT}


def _section(doc: str, title: str) -> str | None:
    match = re.search(rf"^## {re.escape(title)}[ \t]*\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    return match.group(1).strip() if match else None


def _clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at the last paragraph, or else sentence, that fits."""
    if len(text) <= limit:
        return text
    head = text[:limit - 3]  # room for the mark that says the rest is on the rule's page
    paragraph = head.rfind("\n\n")
    while paragraph > 0 and head[:paragraph].endswith(":"):  # not a lead-in without its list
        paragraph = head.rfind("\n\n", 0, paragraph)
    if paragraph > limit // 3:
        return head[:paragraph] + "\n\n…"
    sentence = head.rfind(". ")
    if sentence > limit // 3:
        return head[:sentence + 1] + " …"
    return head + "…"


def plain(markdown: str) -> str:
    """Markdown as plain text: paragraphs unwrapped, `code` without backticks, links as their
    text, list items as ``- item``, code blocks indented by four spaces."""
    from markdown_it import MarkdownIt

    blocks: list[str] = []
    depth = 0
    marker = False  # the next paragraph opens a list item
    in_list_item = False
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "list_item_open":
            marker = True
        elif token.type == "inline":
            line = _inline(token)
            if depth and marker:
                line = "  " * (depth - 1) + "- " + line
            elif depth:
                line = "  " * depth + line
            # Items of a list stay on consecutive lines; everything else is a paragraph.
            if depth and in_list_item and blocks:
                blocks[-1] += "\n" + line
            else:
                blocks.append(line)
            in_list_item = bool(depth)
            marker = False
        elif token.type in ("fence", "code_block"):
            blocks.append("\n".join("    " + row for row in token.content.rstrip("\n").split("\n")))
            in_list_item = False
    return "\n\n".join(blocks)


def _inline(token) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)
