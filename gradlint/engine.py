"""Lint one module: parse (libcst, once) → facts (``analysis``) → checks → suppressions.

The engine never imports torch and never executes the code it reads.
"""
from __future__ import annotations

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
    except cst.ParserSyntaxError as err:
        found = [_syntax_error(path, err.raw_line, err.raw_column + 1, err.message)] if "GL000" in codes else []
        return suppression.apply(found, text)
    except (RecursionError, UnicodeDecodeError, SyntaxError, ValueError) as err:
        found = [_syntax_error(path, 1, 1, str(err) or type(err).__name__)] if "GL000" in codes else []
        return suppression.apply(found, text)
    found = _run_checks(module, path, codes)
    return sorted(suppression.apply(found, text))


def _syntax_error(path: str, line: int, column: int, message: str) -> Finding:
    rule = BY_CODE["GL000"]
    first = message.strip().splitlines()[0] if message.strip() else "invalid syntax"
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
