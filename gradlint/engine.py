"""Lint one module: parse (libcst, once) → facts (``analysis``) → checks → suppressions.

The engine never imports torch and never executes the code it reads.
"""
from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from gradlint import suppression
from gradlint.finding import Finding
from gradlint.rule import BY_CODE


def lint_source(source: str | bytes, path: str, codes: frozenset[str] | None = None) -> list[Finding]:
    """Findings for one module's source, sorted, with ``# noqa`` suppressions applied.

    ``codes`` limits the rules that run (default: all). A module that does not parse yields a
    single GL000 finding at the error's position instead of raising.
    """
    codes = frozenset(BY_CODE) if codes is None else codes
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError, UnicodeDecodeError, SyntaxError, ValueError) as err:
        found = [_syntax_error(path, source, err)] if "GL000" in codes else []
        return suppression.apply(found, text)
    found = _run_checks(module, path, codes)
    return sorted(suppression.apply(found, text))


def _syntax_error(path: str, source: str | bytes, err: Exception) -> Finding:
    """GL000 at the error's position, in Python's own words where Python agrees the file is
    invalid (libcst's messages list every token it expected)."""
    rule = BY_CODE["GL000"]
    try:
        ast.parse(source)
    except SyntaxError as py_err:
        line, column, first = py_err.lineno or 1, py_err.offset or 1, py_err.msg
    except (ValueError, RecursionError, MemoryError) as py_err:
        line, column, first = 1, 1, str(py_err) or type(py_err).__name__
    else:
        line = getattr(err, "raw_line", 1)
        column = getattr(err, "raw_column", 0) + 1
        first = f"gradlint's parser (libcst) cannot read this syntax: {str(err).strip().splitlines()[0]}"
    return Finding(
        path=path, line=max(line, 1), column=max(column, 1), code=rule.code,
        end_line=max(line, 1), end_column=max(column, 1) + 1, name=rule.name,
        message=f"syntax error, the file was not checked: {first}",
        hint="fix the syntax error; gradlint checks the other files regardless",
        severity=rule.severity,
    )


def _run_checks(module: cst.Module, path: str, codes: frozenset[str]) -> list[Finding]:
    from gradlint.analysis.facts import module_facts
    from gradlint.checks import CHECKS

    facts = module_facts(module)
    reports = [r for check in CHECKS if check.RULE.code in codes for r in check.check(facts)]
    if not reports:
        return []
    # Positions cost a whole code-generation pass, so they are computed only for modules that
    # have something to report, on the very tree the facts were read from.
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = []
    for report in reports:
        rng = positions[report.node]
        rule = report.rule
        message, details = report.message, dict(report.details)
        for key, nodes in report.refs.items():
            nodes = nodes if isinstance(nodes, (tuple, list, frozenset, set)) else (nodes,)
            line = min(positions[n].start.line for n in nodes)
            message = message.replace("{" + key + "}", str(line))
            details[f"{key}_line"] = line
        found.append(Finding(
            path=path, line=rng.start.line, column=rng.start.column + 1, code=rule.code,
            end_line=rng.end.line, end_column=rng.end.column + 1, name=rule.name,
            message=message, hint=report.hint, severity=rule.severity, details=details,
        ))
    return found
