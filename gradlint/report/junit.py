"""JUnit XML, as CI systems show test reports (GitLab's ``artifacts: reports: junit:``, Jenkins,
Azure Pipelines): each file with findings is a ``<testsuite>``, each finding a failed
``<testcase>``, in the shape ruff writes.

    <testsuites name="gradlint" tests="1" failures="1" errors="0">
      <testsuite name="model.py" tests="1" failures="1" errors="0" skipped="0">
        <testcase name="GL001 detached-result (12:12)" classname="model" file="model.py" line="12" column="12">
          <failure message="the result is detached" type="GL001">model.py:12:12: GL001 the result is detached
    hint: ...</failure>

A run without findings is one passing test case, ``No findings``, so the report says gradlint
ran; each error of the run (a file that could not be read or checked) is a test case in error,
so an unchecked file never passes as clean. The document is written in ASCII (other characters as character references), so it stays
well-formed whatever the output's encoding; characters XML cannot hold (control characters other
than tab and newlines) are replaced by U+FFFD.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from itertools import groupby
from pathlib import PurePosixPath
from typing import TextIO

from gradlint.finding import Finding
from gradlint.report import review

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    out.write(ET.tostring(document(findings, errors), encoding="us-ascii", xml_declaration=True).decode("ascii"))
    out.write("\n")


def document(findings: list[Finding], errors: Sequence[str] = ()) -> ET.Element:
    """The ``<testsuites>`` element of a run; each of its ``errors`` is a test case in error."""
    suites = []
    if errors:
        suite = _suite("gradlint", tests=len(errors), failures=0, errors=len(errors))
        for number, error in enumerate(errors, start=1):
            case = ET.SubElement(suite, "testcase", name=f"run error {number}", classname="gradlint")
            ET.SubElement(case, "error", message=_xml(error)).text = _xml(error)
        suites.append(suite)
    if not findings and not errors:
        suite = _suite("gradlint", tests=1, failures=0)
        ET.SubElement(suite, "testcase", name="No findings", classname="gradlint")
        suites.append(suite)
    for name, group in groupby(findings, key=lambda finding: finding.path):
        group = list(group)
        path = review.path(name)
        suite = _suite(path, tests=len(group), failures=len(group))
        suite.extend(_testcase(finding, path) for finding in group)
        suites.append(suite)
    root = ET.Element("testsuites", name="gradlint", tests=str(max(len(findings) + len(errors), 1)),
                      failures=str(len(findings)), errors=str(len(errors)))
    root.extend(suites)
    ET.indent(root)
    return root


def _suite(name: str, *, tests: int, failures: int, errors: int = 0) -> ET.Element:
    return ET.Element("testsuite", name=_xml(name), tests=str(tests), failures=str(failures),
                      errors=str(errors), skipped="0")


def _testcase(finding: Finding, path: str) -> ET.Element:
    place = f"{finding.line}:{finding.column}"
    attributes = {"file": _xml(path), "line": str(finding.line), "column": str(finding.column)}
    if finding.cell is not None:
        place = f"cell {finding.cell}, {place}"
        attributes["cell"] = str(finding.cell)
    # As ruff and pytest name a test's class: the module's dotted path.
    classname = PurePosixPath(path).with_suffix("").as_posix().lstrip("/").replace("/", ".")
    case = ET.Element("testcase", {"name": _xml(f"{finding.code} {finding.name} ({place})"),
                                   "classname": _xml(classname), **attributes})
    failure = ET.SubElement(case, "failure", message=_xml(finding.message), type=finding.code)
    cell = "" if finding.cell is None else f"cell {finding.cell}:"  # as Finding.location spells it
    failure.text = _xml(f"{path}:{cell}{finding.line}:{finding.column}: {finding.code} {review.text(finding)}")
    return case


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)
