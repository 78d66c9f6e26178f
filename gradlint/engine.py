"""Lint one module: parse (``ast``, once) → facts (``analysis``) → checks → suppressions.

The engine never imports torch and never executes the code it reads.
"""
from __future__ import annotations

import ast
import contextlib
import contextvars
import dataclasses
import gc
import importlib.util
import re
import sys
from collections.abc import Callable
from typing import NamedTuple
from itertools import accumulate

from gradlint import suppression
from gradlint.finding import Finding
from gradlint.rule import BY_CODE, DEFAULT_CODES


# For a module joined from notebook cells: a 1-based line of the module → (cell, line in the cell).
Locate = Callable[[int], tuple[int, int]]


def lint_source(source: str | bytes, path: str, codes: frozenset[str] | None = None,
                locate: Locate | None = None, *, project=None,
                dependencies: dict[str, str] | None = None) -> list[Finding]:
    """Findings for one module's source, sorted, with ``# noqa`` suppressions applied.

    ``codes`` limits the rules that run (default: every rule but the off-by-default GL900). A
    module that does not parse yields a single GL000 finding instead of raising, and one that
    Python accepts but gradlint does not analyse (past ``MAX_TOKENS``, ``MAX_LINES``,
    ``MAX_STATEMENTS_PER_LINE`` or ``MAX_DEPTH``) a single GL010 finding; GL900 judges nothing
    in either.

    ``locate`` is given for a module joined from a notebook's cells (``gradlint.notebook``):
    the findings then carry their ``cell`` and that cell's own lines, and a message names a line
    of another cell as ``cell 2, line 4`` (suppressions are read from the joined text, whose lines
    are the cells' lines).

    Imports of the project's own files are followed (``analysis.project``): what an imported
    function or class does is read from that file at its call sites here, and the findings stay
    in this file, naming a line of the other as ``helpers.py, line 19``. ``project``: the folder
    the linted paths share (the project root is the nearest folder above it with pyproject.toml,
    setup.py, setup.cfg or .git), a ``project.Project``, None for the folder of ``path``, or False
    to read the file alone (``path`` "-" is always alone). ``dependencies``, when given, is
    filled with the path and content hash of every other file the findings were computed from.
    """
    codes = DEFAULT_CODES if codes is None else codes
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    from gradlint.analysis import project as projects

    if project is None and dependencies is None:
        project, dependencies = _FOLLOWING.get()
    if project is not False and not isinstance(project, projects.Project):
        project = projects.for_file(path, project)
    with _recursion_limit(8 * MAX_DEPTH), _collector_paused():
        found = _lint(source, text, path, codes, locate, project or None, dependencies)
    return sorted(_in_cell(f, locate) for f in found) if locate is not None else found


# What ``following`` sets for the lints run inside it: (project, dependencies).
_FOLLOWING: contextvars.ContextVar = contextvars.ContextVar("gradlint_following", default=(None, None))


@contextlib.contextmanager
def following(project=None, dependencies: dict | None = None):
    """``lint_source``'s ``project`` and ``dependencies`` for the lints run inside the block
    that do not give their own (the runner's: a caller that wraps ``lint_source`` keeps its
    three-argument call)."""
    token = _FOLLOWING.set((project, dependencies))
    try:
        yield
    finally:
        _FOLLOWING.reset(token)


@contextlib.contextmanager
def _recursion_limit(limit: int):
    """The analysis recurses a few frames per level of nesting."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@contextlib.contextmanager
def _collector_paused():
    """The parse and the analysis build hundreds of thousands of objects per module, each of
    which counts toward a cyclic collection that would find next to nothing: the trees and facts
    go by reference counting. Collections resume after the module (a sixth of a corpus run's time
    went to them)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _lint(source: str | bytes, text: str, path: str, codes: frozenset[str], locate: Locate | None,
          project=None, dependencies: dict | None = None) -> list[Finding]:
    # A file of the project that another file's lint imported is linted from the tree read
    # then (only for bytes read from a file: a notebook's joined cells or standard input are
    # no file's). A linted file's tree is not kept for its importers: most files are never
    # imported by one linted after them, and the trees kept would double the memory of a run.
    if project is not None and isinstance(source, bytes):
        from gradlint.analysis import project as projects

        tree, unreadable = projects.parsed(path, source), None
        if tree is None:
            tree, unreadable = _read_ast(source)
    else:
        tree, unreadable = _read_ast(source)
    if unreadable is None and locate is None:  # (a notebook's cells may `await` at the top level)
        unreadable = _compiler_rejects(tree, path)
    if unreadable is not None:
        found = [not_checked(path, unreadable.line, unreadable.column, unreadable.message,
                             code=unreadable.code, hint=unreadable.hint)] if unreadable.code in codes else []
        return suppression.apply(found, text)
    read = _as_python_reads(source, text)
    found = _run_checks(tree, read, path, codes, locate, project, dependencies)
    if suppression.UNUSED in codes:  # judged on the findings before any is suppressed
        found += suppression.unused(found, text, path, codes)
    return sorted(suppression.apply(found, text))


# What a file that Python accepts must stay within to be analysed, and why it was not (GL010):
# docs/design.md, "Costs". A file is read up to 150,000 tokens (the largest file of the corpus
# has 82,124) and 20,000 lines (corpus: 4,922): past them it is generated or data; 1,000
# statements on one line (the analysis costs grow with statements times the line's length
# there; corpus: 2). The analysis recurses once per level, so a module nested deeper than
# MAX_DEPTH is reported instead of read. (Python itself stops at 200 parentheses.)
MAX_TOKENS = 150_000
MAX_LINES = 20_000
MAX_STATEMENTS_PER_LINE = 1_000
MAX_DEPTH = 1000
NOT_CHECKED = "GL010"
# A token as counted here: a run of word characters (any non-ASCII byte counts as one) or any
# other character that is not a space. Words inside strings and comments count too, so this over-
# counts, never under: a file has at most one such token per byte.
_TOKEN = re.compile(rb"[\w\x80-\xff]+|[^\w\s]")


class Unreadable(NamedTuple):
    """Why a file was not checked, and where: GL000 (Python rejects it) or GL010."""

    code: str
    line: int
    column: int
    message: str
    hint: str | None = None  # None: the code's usual one (``not_checked``)


# What to do about a file past the limits.
TOO_COSTLY = "a generated or data file belongs in `extend-exclude`; split a hand-written one"


def _compiler_rejects(tree: ast.Module, path: str) -> Unreadable | None:
    """GL000 for what Python's parser accepts and its compiler rejects, as `py_compile` does: a
    `from __future__` import after other statements, `return` outside a function, `nonlocal` at
    the top level. The compiler's own warnings (`is` with a literal) are the user's business."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(tree, path, "exec", dont_inherit=True)
    except SyntaxError as err:
        return Unreadable("GL000", err.lineno or 1, err.offset or 1,
                          f"syntax error, the file was not checked: {err.msg}")
    except (ValueError, TypeError, RecursionError, MemoryError):
        return None  # (what the parser built and the compiler cannot take is not the user's error)
    return None


def _read_ast(source: str | bytes) -> tuple[ast.Module | None, Unreadable | None]:
    """(the module's ``ast``, None) when it can be read; (None, (code, line, column, message))
    when it cannot: GL000 in Python's own words, GL010 past the limits above. Only the limits
    that need no tree are checked before the parse (a 9 MB file costs ``ast`` 12 s)."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    beyond = _beyond_size(data)
    if beyond is not None:
        return None, beyond
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        message = f"syntax error, the file was not checked: {err.msg}"
        if err.msg.startswith(("Missing parentheses in call to 'print'", "Missing parentheses in call to 'exec'")):
            message += " (this looks like Python 2 code: gradlint reads Python 3; run 2to3 on it, or exclude it)"
        elif re.search(r"\basync\s*=", err.text or ""):
            # `x.cuda(async=True)`, from PyTorch before 0.4: a keyword since Python 3.7
            message += " (`async` is a keyword since Python 3.7: the argument is `non_blocking=True` now)"
        return None, Unreadable("GL000", err.lineno or 1, err.offset or 1, message)
    except ValueError as err:  # null bytes, an unknown encoding
        return None, Unreadable("GL000", 1, 1, f"syntax error, the file was not checked: {err}")
    except (RecursionError, MemoryError) as err:
        return None, Unreadable("GL000", 1, 1, f"the file was not checked: too deeply nested to read ({str(err) or type(err).__name__})")
    crowded = _crowded_line(tree, data)
    if crowded is not None:
        return None, crowded
    if _depth_exceeds(tree, source, MAX_DEPTH):
        return None, _python_rejects(source) or _too_deep(tree)
    return tree, None


# `python -m py_compile` runs at Python's default recursion limit; the lint raises it for the analysis.
PYTHON_RECURSION_LIMIT = 1000


def _python_rejects(source: str | bytes) -> Unreadable | None:
    """GL000 when Python itself, at its own recursion limit, cannot compile a module nested this
    deep (its parser read it above, under the lint's raised limit); None when it can."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(PYTHON_RECURSION_LIMIT)
    try:
        compile(source, "<gradlint>", "exec", dont_inherit=True)
    except (RecursionError, SyntaxError, MemoryError) as err:
        return Unreadable("GL000", 1, 1, f"the file was not checked: Python cannot compile it "
                                         f"({str(err) or type(err).__name__})")
    finally:
        sys.setrecursionlimit(old)
    return None


def _beyond_size(data: bytes) -> Unreadable | None:
    """GL010 for a file of more than ``MAX_LINES`` lines or ``MAX_TOKENS`` tokens. Counting
    tokens costs a pass of a regular expression, so it is done only where there can be that many
    (one per byte at most), in slices, stopping once past the limit."""
    lines = 0
    if len(data) > MAX_LINES:  # (else it cannot have more lines)
        lines = data.count(b"\n") + (not data.endswith((b"\n", b"\r")))
        if b"\r" in data:
            lines += data.count(b"\r") - data.count(b"\r\n")
    if lines > MAX_LINES:
        return Unreadable(NOT_CHECKED, 1, 1, f"the file was not checked: it has {lines:,} lines, more "
                                             f"than the {MAX_LINES:,} gradlint reads in one file", TOO_COSTLY)
    if len(data) > MAX_TOKENS:
        tokens, step = 0, 1 << 20  # (a word cut by a slice's end counts twice: still an over-count)
        for start in range(0, len(data), step):
            tokens += len(_TOKEN.findall(data, start, start + step))
            if tokens > MAX_TOKENS:
                return Unreadable(NOT_CHECKED, 1, 1, f"the file was not checked: it has more than "
                                                     f"{MAX_TOKENS:,} tokens (names, numbers, symbols), "
                                                     f"the most gradlint reads in one file", TOO_COSTLY)
    return None


def _crowded_line(tree: ast.Module, data: bytes) -> Unreadable | None:
    """GL010 at the first line that holds more than ``MAX_STATEMENTS_PER_LINE`` statements. A
    line holds at most two statements more than it has semicolons (``for x in y: a; b``), so only
    files with that many semicolons have their statements counted (only the statements)."""
    if data.count(b";") + 2 <= MAX_STATEMENTS_PER_LINE:
        return None
    per_line: dict[int, int] = {}
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        per_line[node.lineno] = per_line.get(node.lineno, 0) + 1
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend(value)
        for part in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
            stack.extend(part.body)
    crowded = sorted(line for line, count in per_line.items() if count > MAX_STATEMENTS_PER_LINE)
    if not crowded:
        return None
    return Unreadable(NOT_CHECKED, crowded[0], 1, f"the file was not checked: line {crowded[0]} holds "
                                                  f"{per_line[crowded[0]]:,} statements, more than the "
                                                  f"{MAX_STATEMENTS_PER_LINE:,} gradlint reads on one line",
                      TOO_COSTLY)


def _depth_exceeds(tree: ast.Module, source: str | bytes, limit: int) -> bool:
    """Whether some node of the module ``tree``, parsed from ``source``, lies deeper than
    ``limit`` (the module is depth 1). A statement's subtree is at most two levels deeper per
    byte of source its lines span (each level takes a character of its own, but for a few
    wrappers, each over a level that does), so only the statements that span enough bytes are
    looked into, and of those only what is not a statement and spans enough bytes itself is walked
    (``_walk_exceeds``)."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    ends = list(accumulate(len(line) + 2 for line in data.splitlines()))  # (+2: any line ending)
    last = len(ends)
    def short(node, depth: int) -> bool:
        # (the lines it spans, whole: an expression's own columns would do, but lines are enough)
        lineno = getattr(node, "lineno", None)
        if lineno is None or not last:
            return False
        first = min([lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        end = min(node.end_lineno or last, last)
        return depth + 2 * (ends[end - 1] - (ends[first - 2] if first > 1 else 0)) + 8 <= limit

    stack = [(stmt, 2) for stmt in tree.body]
    while stack:
        node, depth = stack.pop()
        if short(node, depth):
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
                        elif not short(inner, depth + 1) and _walk_exceeds(inner, limit - depth - 1):
                            return True
                elif isinstance(item, ast.AST) and not short(item, depth) and _walk_exceeds(item, limit - depth):
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


def _too_deep(tree: ast.AST) -> Unreadable:
    """Where a module nested deeper than ``MAX_DEPTH`` is reported: the first such node in a
    depth-first walk (only run on such modules)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return Unreadable(NOT_CHECKED, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1,
                              f"the file was not checked: nested more than {MAX_DEPTH} levels deep, "
                              f"too deep to analyse", TOO_COSTLY)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    raise AssertionError("no node deeper than MAX_DEPTH")


def not_checked(path: str, line: int, column: int, message: str, cell: int | None = None,
                *, code: str = "GL000", hint: str | None = None) -> Finding:
    """The finding for a file (or a notebook's cell) that could not be checked: GL000 where Python
    rejects it, GL010 where gradlint's parser does not read what Python accepts (``hint``: what
    to do, else fix it)."""
    rule = BY_CODE[code]
    line, column = max(line, 1), max(column, 1)
    where = "file" if cell is None else "cell"
    return Finding(
        path=path, cell=cell, line=line, column=column, code=rule.code, end_line=line,
        end_column=column + 1, name=rule.name, message=message,
        hint=f"{hint or f'fix the {where}'}; gradlint checks the other {where}s regardless",
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


def _run_checks(tree: ast.Module, text: str, path: str, codes: frozenset[str], locate: Locate | None,
                project=None, dependencies: dict | None = None) -> list[Finding]:
    from gradlint.analysis.facts import module_facts
    from gradlint.analysis.settings import programs
    from gradlint.analysis.tree import memoized
    from gradlint.checks import MODULES

    def walk(walked: ast.Module) -> list[Finding]:
        with memoized():
            facts = module_facts(walked, text, project=project, path=path if project is not None else None,
                                 whole_program=locate is not None)
            reports = [r for rule in MODULES if rule.RULE.code in codes for r in rule.check(facts)]
        view = facts.imports.project
        if view is not None:
            if dependencies is not None:
                dependencies.update(view.dependencies())
            view.close()
        return _placed(reports, facts, view, path, locate, project) if reports else []

    # The walk with every `if` joined, then one per arm of each setting the file's own calls hand
    # both ways (``analysis.settings``): a finding of any of them is reported once. Each walk's
    # findings are placed before the next walk starts (a walk may forget other files' trees).
    once, origins = {}, set()
    for walked, said, spans in programs(tree, text):
        found = walk(walked)
        if not said and found:
            found = _on_a_path(found, tree, walk)
        if spans:
            found = _chosen_by_the_setting(found, spans, once)
        for finding in found:
            # (a cut of another file that two walks reach by calls in two functions is one
            # mistake, reported at the first call; cuts on two of its lines, reached by one
            # call, are two)
            origin = (finding.code, finding.details["origin_path"], finding.details["origin_line"]) \
                if "origin_path" in finding.details else None
            key = (*_place(finding), origin)
            if key in once or origin in origins:
                continue
            if origin is not None:
                origins.add(origin)
            once[key] = dataclasses.replace(finding, message=f"{finding.message} (when {said})") if said else finding
    # (one finding of a rule where one expression starts: `z.sub_(m).div_(z.std(0))` edits what
    # two ops saved, and is one line to repair)
    first = {}
    for finding in once.values():
        first.setdefault((finding.path, finding.cell, finding.code, finding.line, finding.column,
                          finding.details.get("origin_path"), finding.details.get("origin_line")), finding)
    return list(first.values())


def _chosen_by_the_setting(found: list[Finding], spans: tuple, once: dict) -> list[Finding]:
    """A setting's walk's own findings (none of an earlier walk's places): where some sit in the
    arms the setting decides (`if self.detach_all_targets: return targets.detach(), …`), the
    others, outside them, only say what that arm leaves (`inputs.detach()` beside it starves the
    encoder too, but only once the arm has cut its other path): the arm is the mistake."""
    def inside(finding) -> bool:
        return any(first <= finding.line <= last for first, last in spans)

    placed = {k[:5] for k in once}
    new = [f for f in found if f.code == "GL001" and _place(f) not in placed]
    if not any(inside(f) for f in new):
        return found
    return [f for f in found if f not in new or inside(f)]


def _place(finding: Finding) -> tuple:
    return finding.code, finding.line, finding.column, finding.end_line, finding.end_column


def _on_a_path(found: list[Finding], tree: ast.Module, walk) -> list[Finding]:
    """The findings of the joined walk that some run can make. Inside an `if` whose test
    another `if` of its function repeats (``settings.correlated``), a finding is kept only when
    a walk taking the same arm at each of them makes it too: the join alone pairs the proposals
    one arm detaches with the other arm's return, a path no run takes."""
    from gradlint.analysis.settings import correlated, pruned

    groups = correlated(tree)
    if not groups:
        return found
    made: dict = {}
    kept = []
    for finding in found:
        inside = [i for i, group in enumerate(groups)
                  if any(stmt.lineno <= finding.line <= stmt.end_lineno for stmt in group)]
        for i in inside:
            for value in (True, False):
                if (i, value) not in made:
                    arms = {stmt: arm == value for stmt, arm in groups[i].items()}
                    made[i, value] = {_place(f) for f in walk(pruned(tree, arms))}
        if all(_place(finding) in made[i, True] | made[i, False] for i in inside):
            kept.append(finding)
    return kept


def _placed(reports, facts, view, path: str, locate: Locate | None, project) -> list[Finding]:
    """The checks' reports as findings: placed, their references named by line."""
    from gradlint.analysis.project import display, origin

    lines = facts.lines
    root = project.root if project is not None else None
    found = []
    for report in reports:
        (node, last), message, details = report.extent(), report.message, dict(report.details)
        # (a region's finding runs from its `with`: the fact itself says which file it is of)
        other = origin(report.node) if view is not None else None
        if other is not None:
            # A fact of another file, reached through a call here: the finding is the call's.
            site = facts.call_sites.get(report.node)
            if site is None:
                continue
            # (a suppression at the site's own line speaks for it, here too: one mistake, and
            # `--add-noqa` writes its comment there when the run reports the site itself)
            span = Finding(path=str(other.path), line=node.lineno, column=1, code=report.rule.code,
                           end_line=last.end_lineno or node.lineno, end_column=1, name=report.rule.name, message="")
            if not suppression.apply([span], "\n".join(line.rstrip("\r\n") for line in other.lines)):
                continue
            shown = display(other.path, path, root)
            if isinstance(site, ast.Call):
                message = f"{message} (at {shown}, line {node.lineno}, inside `{facts.code(site.func)}(…)` called here)"
            else:  # (what a hook of that file keeps in `s_acts.acts`, read here)
                message = f"{message} (at {shown}, line {node.lineno}, kept in `{facts.code(site)}`, read here)"
            details.update(origin_path=shown, origin_line=node.lineno)
            node = last = site
        line, column, _, _ = _span(node, lines)
        _, _, end_line, end_column = _span(last, lines)
        rule = report.rule
        for key, nodes in report.refs.items():
            nodes = nodes if isinstance(nodes, (tuple, list, frozenset, set)) else (nodes,)
            first = min(nodes, key=lambda n: n.lineno)
            ref_line = first.lineno
            where = f"line {ref_line}"
            elsewhere = origin(first) if view is not None else None
            if elsewhere is not None:  # a line of another file of the project
                where = f"{display(elsewhere.path, path, root)}, line {ref_line}"
                details[f"{key}_path"] = display(elsewhere.path, path, root)
            elif locate is not None:  # a notebook: the line within its cell, and the cell if another
                (cell, ref_line), here = locate(ref_line), locate(line)[0]
                where = f"line {ref_line}" if cell == here else f"cell {cell}, line {ref_line}"
                details[f"{key}_cell"] = cell
            message = message.replace("line {" + key + "}", where).replace("{" + key + "}", str(ref_line))
            details[f"{key}_line"] = ref_line
        found.append(Finding(
            path=path, line=line, column=column, code=rule.code,
            end_line=end_line, end_column=end_column, name=rule.name,
            message=message, hint=report.hint, severity=rule.severity, details=details,
        ))
    return found


def _as_python_reads(source: str | bytes, text: str) -> str:
    """The text ``ast`` parsed, whose columns its nodes count: bytes decoded by their coding
    cookie, without a byte order mark."""
    if isinstance(source, str):
        return source
    try:
        return importlib.util.decode_source(source)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return text


def _span(node: ast.AST, lines: list[str]) -> tuple[int, int, int, int]:
    """A node's 1-based (line, column, end line, end column), columns in characters (``ast``
    counts them in UTF-8 bytes)."""
    return (node.lineno, _characters(lines, node.lineno, node.col_offset) + 1,
            node.end_lineno, _characters(lines, node.end_lineno, node.end_col_offset) + 1)


def _characters(lines: list[str], line: int, offset: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return offset if text.isascii() else len(text.encode()[:offset].decode(errors="replace"))
