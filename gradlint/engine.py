"""Lint one module: parse (libcst, once) → facts (``analysis``) → checks → suppressions.

The engine never imports torch and never executes the code it reads.
"""
from __future__ import annotations

import ast
import contextlib
import dataclasses
import gc
import sys
from collections.abc import Callable
from itertools import accumulate

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from gradlint import prefilter, suppression
from gradlint.finding import Finding
from gradlint.rule import BY_CODE, DEFAULT_CODES


# For a module joined from notebook cells: a 1-based line of the module → (cell, line in the cell).
Locate = Callable[[int], tuple[int, int]]


def lint_source(source: str | bytes, path: str, codes: frozenset[str] | None = None,
                locate: Locate | None = None) -> list[Finding]:
    """Findings for one module's source, sorted, with ``# noqa`` suppressions applied.

    ``codes`` limits the rules that run (default: every rule but the off-by-default GL900). A
    module that does not parse, or is nested too deep to analyse safely, yields a single GL000
    finding instead of raising; GL900 judges nothing in it.

    ``locate`` is given for a module joined from a notebook's cells (``gradlint.notebook``):
    the findings then carry their ``cell`` and that cell's own lines, and a message names a line
    of another cell as ``cell 2, line 4`` (suppressions are read from the joined text, whose lines
    are the cells' lines).
    """
    codes = DEFAULT_CODES if codes is None else codes
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    with _recursion_limit(8 * MAX_DEPTH), _collector_paused():
        found = _lint(source, text, path, codes, locate)
    return sorted(_in_cell(f, locate) for f in found) if locate is not None else found


@contextlib.contextmanager
def _recursion_limit(limit: int):
    """The analysis and libcst's code generation recurse a few frames per level of nesting."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@contextlib.contextmanager
def _collector_paused():
    """The parses build hundreds of thousands of objects per module, each of which counts toward
    a cyclic collection that would find next to nothing: the trees and facts go by reference
    counting (the prefilter breaks its one cycle, ``Scan.clear``). Collections resume after the
    module (a sixth of a corpus run's time went to them)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _lint(source: str | bytes, text: str, path: str, codes: frozenset[str], locate: Locate | None) -> list[Finding]:
    tree, unreadable = _read_ast(source)
    module = None
    if unreadable is None and (not prefilter.enabled() or _may_report(text, tree, codes)):
        try:
            module = cst.parse_module(source)
        except (cst.ParserSyntaxError, RecursionError, UnicodeDecodeError, SyntaxError, ValueError) as err:
            # Python accepts it but libcst does not (a syntax libcst does not know yet).
            unreadable = (getattr(err, "raw_line", 1), getattr(err, "raw_column", 0) + 1,
                          "the file was not checked: gradlint's parser (libcst) cannot read it: "
                          + str(err).strip().splitlines()[0])
    if unreadable is not None:
        found = [not_checked(path, *unreadable)] if "GL000" in codes else []
        return suppression.apply(found, text)
    # Without a module no rule can report here (the prefilter said so): GL900 judges against none.
    found = _run_checks(module, path, codes, locate) if module is not None else []
    if suppression.UNUSED in codes:  # judged on the findings before any is suppressed
        found += suppression.unused(found, text, path, codes)
    return sorted(suppression.apply(found, text))


def _may_report(text: str, tree: ast.Module, codes: frozenset[str]) -> bool:
    """The prefilter's answer; yes if it fails: a bug there may cost time, never a finding."""
    try:
        return prefilter.may_report(text, tree, codes)
    except Exception:  # (tests call prefilter.may_report itself, where a failure shows)
        return True


# libcst's native parser crashes the process on expressions nested some thousands deep
# (LibCST issues #619, #1000), and the analysis recurses once per level, so a module nested
# deeper than this is reported instead of read. (Python itself stops at 200 parentheses.)
MAX_DEPTH = 1000


def _read_ast(source: str | bytes) -> tuple[ast.Module | None, tuple[int, int, str] | None]:
    """(the module's ``ast``, None) when it can be read; (None, (line, column, message)) when it
    cannot, in Python's own words. Python's parser goes first: it is an order of magnitude faster
    than libcst, names the error plainly, measures the nesting before libcst could crash on it,
    and its tree is what the prefilter reads."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return None, (err.lineno or 1, err.offset or 1, f"syntax error, the file was not checked: {err.msg}")
    except ValueError as err:  # null bytes, an unknown encoding
        return None, (1, 1, f"syntax error, the file was not checked: {err}")
    except (RecursionError, MemoryError) as err:
        return None, (1, 1, f"the file was not checked: too deeply nested to read ({str(err) or type(err).__name__})")
    if _depth_exceeds(tree, source, MAX_DEPTH):
        return None, _too_deep(tree)
    return tree, None


def _depth_exceeds(tree: ast.Module, source: str | bytes, limit: int) -> bool:
    """Whether some node of the module ``tree``, parsed from ``source``, lies deeper than
    ``limit`` (the module is depth 1). A statement's subtree is at most two levels deeper per
    byte of source its lines span (each level takes a character of its own, but for a few
    wrappers, each over a level that does), so only the statements that span enough bytes are
    looked into, and of those only what is not a statement is walked (``_walk_exceeds``)."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    ends = list(accumulate(len(line) + 2 for line in data.splitlines()))  # (+2: any line ending)
    last = len(ends)
    stack = [(stmt, 2) for stmt in tree.body]
    while stack:
        node, depth = stack.pop()
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        end = min(node.end_lineno or last, last)
        span = ends[end - 1] - (ends[first - 2] if first > 1 else 0) if last else 0
        if depth + 2 * span + 8 <= limit:
            continue
        for field in node._fields:
            value = getattr(node, field, None)
            for item in value if type(value) is list else (value,):
                if isinstance(item, ast.stmt):
                    stack.append((item, depth + 1))
                elif isinstance(item, (ast.excepthandler, ast.match_case)):
                    # a handler or a case is one level down, its body's statements two
                    for inner in ast.iter_child_nodes(item):
                        if isinstance(inner, ast.stmt):
                            stack.append((inner, depth + 2))
                        elif _walk_exceeds(inner, limit - depth - 1):
                            return True
                elif isinstance(item, ast.AST) and _walk_exceeds(item, limit - depth):
                    return True
    return False


def _walk_exceeds(tree: ast.AST, limit: int) -> bool:
    """Whether some node lies deeper than ``limit`` below ``tree`` (``tree`` is depth 1): one
    level at a time, reading node fields directly (``ast.iter_child_nodes`` costs three times
    as much)."""
    level, depth, node_type = [tree], 1, ast.AST
    while level:
        if depth > limit:
            return True
        below: list = []
        add = below.append
        for node in level:
            for name in node._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, node_type):
                            add(item)
                elif isinstance(value, node_type):
                    add(value)
        level, depth = below, depth + 1
    return False


def _too_deep(tree: ast.AST) -> tuple[int, int, str]:
    """Where a module nested deeper than ``MAX_DEPTH`` is reported: the first such node in a
    depth-first walk (only run on such modules)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return (getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1,
                    f"the file was not checked: nested more than {MAX_DEPTH} levels deep, too deep to analyse")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    raise AssertionError("no node deeper than MAX_DEPTH")


def not_checked(path: str, line: int, column: int, message: str, cell: int | None = None) -> Finding:
    """The GL000 finding for a file (or a notebook's cell) that could not be checked."""
    rule = BY_CODE["GL000"]
    line, column = max(line, 1), max(column, 1)
    return Finding(
        path=path, cell=cell, line=line, column=column, code=rule.code, end_line=line,
        end_column=column + 1, name=rule.name, message=message,
        hint=("fix the file; gradlint checks the other files regardless" if cell is None
              else "fix the cell; gradlint checks the other cells regardless"),
        severity=rule.severity,
    )


def _in_cell(finding: Finding, locate: Locate) -> Finding:
    """A finding of a joined notebook module, placed in its cell."""
    cell, line = locate(finding.line)
    end_cell, end_line = locate(finding.end_line)
    end_column = finding.end_column
    if end_cell != cell:  # no statement spans two cells; this only guards a past-the-end position
        end_line, end_column = line, finding.column + 1
    return dataclasses.replace(finding, cell=cell, line=line, end_line=end_line, end_column=end_column)


def _run_checks(module: cst.Module, path: str, codes: frozenset[str], locate: Locate | None) -> list[Finding]:
    from gradlint.analysis.facts import module_facts
    from gradlint.analysis.tree import memoized
    from gradlint.checks import CHECKS

    with memoized():
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
            where = f"line {line}"
            if locate is not None:  # a notebook: the line within its cell, and the cell if another
                (cell, line), here = locate(line), locate(rng.start.line)[0]
                where = f"line {line}" if cell == here else f"cell {cell}, line {line}"
                details[f"{key}_cell"] = cell
            message = message.replace("line {" + key + "}", where).replace("{" + key + "}", str(line))
            details[f"{key}_line"] = line
        found.append(Finding(
            path=path, line=rng.start.line, column=rng.start.column + 1, code=rule.code,
            end_line=rng.end.line, end_column=rng.end.column + 1, name=rule.name,
            message=message, hint=report.hint, severity=rule.severity, details=details,
        ))
    return found
