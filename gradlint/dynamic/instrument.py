"""Place probes at the sites of a module's findings, keeping every line where it was.

The dynamic pass needs the runtime objects at each flagged site: the tensor before a
``.detach()``, the tensor an ``.item()`` read, the tensor given ``requires_grad``, the tensor an
in-place edit changes. ``instrument`` re-runs the static analysis on the module to get the
findings' nodes (and the nodes they refer to, such as the ``.item()`` behind a rebuilt tensor),
then rewrites only those expressions. Where a rule's probes go is its module's ``probe``
(``gradlint/checks/``), which fills in a ``Probes``:

    h.detach()            →  __gradlint__.a(0, __gradlint__.b(0, h).detach())
    x += residual         →  __gradlint__.s(3, lambda: x); x += residual

``b(fid, value)`` sees a value *before* the flagged operation, ``a(fid, value)`` the result
*after* it, ``s(fid, thunk)`` the edited tensor just before a statement runs; all three return
their value unchanged. Nothing is added on new lines, so tracebacks and the user's line numbers
stay right. libcst does the rewriting; torch is not imported here.

The analysis reads ``ast`` nodes and libcst rewrites its own, so each node a probe goes on is
found in libcst's tree by its place in the source and its kind (``_Twins``).
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

PROBE = "__gradlint__"  # the builtin the child installs; a name no program uses


@dataclass
class ProbedFinding:
    """A finding as the child's tracer receives it, once its probes are placed."""

    fid: int
    code: str
    path: str
    line: int
    end_line: int
    label: str  # the flagged code as written, for evidence: "h.detach()"
    tensor: str = ""  # the tensor the finding is about, as written ("h", "self.state")
    placed: bool = False
    # kinds of evidence this finding needs besides its rule's (``Probes.need``)
    kinds: tuple = ()
    # the state the finding says keeps each call's record, as written (``self.running_loss``)
    state: tuple = ()
    where: str = ""  # "utils.py, line 27" where the site is in another file than the finding

    def to_json(self) -> dict:
        return self.__dict__.copy()


@dataclass
class Instrumented:
    source: str  # the rewritten module
    findings: dict[int, ProbedFinding] = field(default_factory=dict)
    unplaced: dict[int, str] = field(default_factory=dict)  # fid -> why no probe could be placed
    # real path of another file of the project -> the probes of findings reported here (at a
    # call) on nodes of that file (the `.detach()` inside the helper called): placed when the
    # run imports it, as ``instrument(…, foreign=…)``
    foreign: dict[str, list] = field(default_factory=dict)


def instrument(source: str, path: str, wanted: list[dict], foreign=()) -> Instrumented:
    """Rewrite ``source`` with probes for the findings ``wanted``.

    ``wanted``: dicts with ``fid``, ``code``, ``line``, ``column``, ``end_line``, ``end_column``
    (1-based, ``end_column`` exclusive: a finding as ``gradlint check`` printed it). A finding
    that the analysis of this source no longer produces is returned in ``unplaced``; one the
    analysis places at a call here for a fact of another file of the project (a cut inside the
    helper called) has its probes on that file's nodes, returned in ``foreign`` by that file.
    ``foreign``: such probes (``Instrumented.foreign``) of findings of other files, placed here.
    Raises ``libcst.ParserSyntaxError`` if the source does not parse.
    """
    from gradlint.analysis import project as projects
    from gradlint.analysis.facts import module_facts
    from gradlint.analysis.settings import programs
    from gradlint.checks import MODULES

    module = cst.parse_module(source)  # first: what libcst cannot read fails as it always did
    tree = ast.parse(source)
    # The project's other files, as the static pass read them: a finding that rests on another
    # file's summary (a member built from another file's class) is found again here.
    found_in = projects.for_file(path) if path and os.path.exists(path) else None
    # As the static pass: the walk with every `if` joined, then one per arm of each setting the
    # file's calls hand both ways (``analysis.settings``), on a copy of the tree with the same
    # positions; the first walk to report a site probes it.
    by_place = {}
    for walked, _, _ in programs(tree, source) if wanted else ():
        facts = module_facts(walked, source, project=found_in, path=path if found_in is not None else None)
        flags = [flag for rule in MODULES for flag in rule.check(facts)]
        view = facts.imports.project
        if view is not None:
            view.close()
        lines = facts.lines
        context = _Module(walked, facts)
        for flag in flags:
            other = projects.origin(flag.node) if found_in is not None else None
            if other is None:
                key = (flag.rule.code, *_span(flag.extent()[0], lines)[:2], *_span(flag.extent()[1], lines)[2:])
                by_place.setdefault(key, (flag, context, None))
                continue
            site = facts.call_sites.get(flag.node)  # (reported at the call here, as the engine places it)
            if site is not None:
                by_place.setdefault((flag.rule.code, *_span(site, lines)), (flag, context, os.path.realpath(other.path)))
    by_code = {rule.RULE.code: rule for rule in MODULES}
    out = Instrumented(source)
    placing = list(foreign)  # (the finding, its probes on ast nodes, the flag's node)
    for want in wanted:
        key = (want["code"], want["line"], want["column"], want["end_line"], want["end_column"])
        flag, context, elsewhere = by_place.get(key, (None, None, None))
        fid = want["fid"]
        if flag is None:
            out.unplaced[fid] = "the static pass no longer reports this site in the file it ran"
            continue
        # (the lines of what is probed: a no_grad region's finding is placed at its `with`, and
        # its evidence speaks of the expression computed there)
        finding = ProbedFinding(fid, want["code"], elsewhere or path, flag.node.lineno, flag.node.end_lineno, "",
                                where=f"{os.path.basename(elsewhere)}, line {flag.node.lineno}" if elsewhere else "",
                                tensor=str(flag.details.get("tensor") or flag.details.get("root") or ""),
                                state=tuple(flag.details.get("carried") or ()) if flag.details.get("kept") else ())
        probes = Probes(fid, context)
        try:
            rule = by_code.get(flag.rule.code)
            if rule is None or not hasattr(rule, "probe"):
                raise CannotProbe(f"{flag.rule.code} has no dynamic check")
            rule.probe(probes, flag)
            if elsewhere is not None:
                # (every probe on a node of that file's tree: a rule may read nodes of this one)
                there = {id(n) for n in ast.walk(projects.origin(flag.node).tree)}
                if any(id(n) not in there for n in probes.plan.nodes()):
                    raise CannotProbe("its probes would go into more than one file")
        except CannotProbe as err:
            out.unplaced[fid] = str(err)
            continue
        finding.kinds = tuple(sorted(probes.kinds))
        if elsewhere is not None:
            out.foreign.setdefault(elsewhere, []).append((finding, probes.plan, flag.node))
            continue
        placing.append((finding, probes.plan, flag.node))
    if not placing:
        return out
    from gradlint.analysis.facts import source_lines

    lines = source_lines(source)
    twins = _Twins(module, lines, [node for _, own, at in placing for node in (*own.nodes(), at)])
    plan = _Plan()
    for finding, own, at in placing:
        labelled = twins.get(at)
        finding.label = _code(module, labelled) if labelled is not None else _ast_code(lines, at)
        try:
            own.map_into(plan, twins)
        except CannotProbe as err:
            out.unplaced[finding.fid] = str(err)
            continue
        finding.placed = True
        out.findings[finding.fid] = finding
    if plan.empty():
        return out
    rewritten = module.visit(_Rewriter(plan)).code
    if rewritten.count("\n") != source.count("\n"):  # a bug here would shift every traceback
        raise AssertionError(f"instrumenting {path} changed its line count")
    out.source = rewritten
    return out


def _span(node: ast.AST, lines: list[str]) -> tuple[int, int, int, int]:
    """A node's 1-based (line, column, end line, end column) in characters, as ``gradlint
    check`` prints a finding (``ast`` counts columns in UTF-8 bytes)."""
    return (node.lineno, _characters(lines, node.lineno, node.col_offset) + 1,
            node.end_lineno, _characters(lines, node.end_lineno, node.end_col_offset) + 1)


def _characters(lines: list[str], line: int, offset: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return offset if text.isascii() else len(text.encode()[:offset].decode(errors="replace"))


# ast class -> the libcst classes of the same construct. ``True``/``False``/``None`` are names
# to libcst; the other constants are literals of their own class.
_TWIN_CLASSES = {
    ast.Name: (cst.Name,), ast.Attribute: (cst.Attribute,), ast.Call: (cst.Call,),
    ast.Subscript: (cst.Subscript,), ast.Starred: (cst.StarredElement,),
    ast.Constant: (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString,
                   cst.Ellipsis, cst.Name),
    ast.JoinedStr: (cst.FormattedString, cst.ConcatenatedString), ast.BinOp: (cst.BinaryOperation,),
    ast.UnaryOp: (cst.UnaryOperation,), ast.BoolOp: (cst.BooleanOperation,),
    ast.Compare: (cst.Comparison,), ast.IfExp: (cst.IfExp,), ast.Lambda: (cst.Lambda,),
    ast.NamedExpr: (cst.NamedExpr,), ast.Await: (cst.Await,), ast.Yield: (cst.Yield,),
    ast.YieldFrom: (cst.Yield,), ast.Tuple: (cst.Tuple,), ast.List: (cst.List,),
    ast.Set: (cst.Set,), ast.Dict: (cst.Dict,), ast.ListComp: (cst.ListComp,),
    ast.SetComp: (cst.SetComp,), ast.DictComp: (cst.DictComp,),
    ast.GeneratorExp: (cst.GeneratorExp,),
    ast.Assign: (cst.Assign,), ast.AugAssign: (cst.AugAssign,), ast.AnnAssign: (cst.AnnAssign,),
    ast.Expr: (cst.Expr,),
}


class _Twins:
    """The libcst node of the same construct over the same characters as an ``ast`` node.

    libcst's position of a node leaves out its own parentheses, as ``ast``'s does, except that
    ``ast`` counts a parenthesized tuple's parentheses (and a lone generator argument's, the
    call's) as the node's: those are looked up again inside them."""

    def __init__(self, module: cst.Module, lines: list[str], nodes):
        self.lines = lines
        wanted = {twin for node in nodes for twin in _TWIN_CLASSES.get(type(node), ())}
        self.index: dict[tuple, cst.CSTNode] = {}
        if not wanted:
            return
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        for node, rng in positions.items():
            if type(node) in wanted:
                self.index.setdefault((type(node), rng.start.line, rng.start.column, rng.end.line, rng.end.column), node)

    def get(self, node: ast.AST):
        classes = _TWIN_CLASSES.get(type(node))
        if not classes or getattr(node, "end_lineno", None) is None:
            return None
        line, column, end_line, end_column = _span(node, self.lines)
        for place in (line, column - 1, end_line, end_column - 1), self._inside_parentheses(node):
            if place is None:
                continue
            for cls in classes:
                found = self.index.get((cls, *place))
                if found is not None:
                    return found
        return None

    def _inside_parentheses(self, node: ast.AST):
        if type(node) not in (ast.Tuple, ast.GeneratorExp):
            return None
        line, column, end_line, end_column = _span(node, self.lines)
        column, end_column = column - 1, end_column - 1
        first, last = self.lines[line - 1], self.lines[end_line - 1]
        if first[column:column + 1] != "(" or last[end_column - 1:end_column] != ")":
            return None
        column += 1
        end_column -= 1
        # Past the blanks after "(" and before ")" (a newline inside them included).
        while True:
            text = self.lines[line - 1]
            while column < len(text) and text[column] in " \t\f":
                column += 1
            if column < len(text) and text[column] not in "\r\n\\" or line >= end_line:
                break
            line, column = line + 1, 0
        while True:
            text = self.lines[end_line - 1]
            while end_column > 0 and text[end_column - 1] in " \t\f":
                end_column -= 1
            if end_column > 0 or end_line <= line:
                break
            end_line -= 1
            end_column = len(self.lines[end_line - 1].rstrip("\r\n").rstrip("\\"))
        return line, column, end_line, end_column


def _ast_code(lines: list[str], node: ast.AST) -> str:
    from gradlint.analysis.facts import source_segment

    text = " ".join(source_segment(lines, node).replace("\\\n", " ").split())
    return text if len(text) <= 40 else text[:39] + "…"


class CannotProbe(Exception):
    """A rule's ``probe`` found no node to place a probe on; the message says why."""


@dataclass
class _Plan:
    before: dict = field(default_factory=dict)  # node -> [fid]: wrap in b(fid, ·)
    after: dict = field(default_factory=dict)  # node -> [fid]: wrap in a(fid, ·)
    statement: dict = field(default_factory=dict)  # small statement -> [(fid, expression)]

    def empty(self) -> bool:
        return not (self.before or self.after or self.statement)

    def nodes(self):
        """The ``ast`` nodes this plan places probes at, or reads an expression from."""
        yield from self.before
        yield from self.after
        for node, entries in self.statement.items():
            yield node
            yield from (expr for _, expr in entries if isinstance(expr, ast.AST))

    def map_into(self, plan: "_Plan", twins: _Twins) -> None:
        """Add this plan, on ``ast`` nodes, to ``plan`` on their libcst twins; all or nothing."""
        def twin(node):
            found = twins.get(node)
            if found is None:
                raise CannotProbe(f"no libcst node matches the {type(node).__name__} at "
                                   f"{node.lineno}:{node.col_offset + 1}")
            return found

        before = [(twin(node), fids) for node, fids in self.before.items()]
        after = [(twin(node), fids) for node, fids in self.after.items()]
        statement = [(twin(node), [(fid, twin(expr) if isinstance(expr, ast.AST) else expr) for fid, expr in entries])
                     for node, entries in self.statement.items()]
        for into, pairs in ((plan.before, before), (plan.after, after), (plan.statement, statement)):
            for node, items in pairs:
                into.setdefault(node, []).extend(items)


class _Module:
    """What the probes of one module's findings may read: its tree and facts, and facts about
    it worked out when a rule first asks."""

    def __init__(self, tree: ast.Module, facts):
        self.tree = tree
        self.facts = facts
        self._edits = None
        self._wrappers = None

    @property
    def edits(self) -> dict:
        if self._edits is None:
            self._edits = {edit.node: edit for edit in self.facts.edits}
        return self._edits

    @property
    def wrappers(self) -> dict:
        if self._wrappers is None:
            self._wrappers = _variable_wrappers(self.tree)
        return self._wrappers


class Probes:
    """Where one finding's probes go, on ``ast`` nodes: what a rule module's ``probe(probes,
    flag)`` fills in. ``before(node)``: ``b(fid, ·)`` around the node, the value it reads;
    ``after(node)``: ``a(fid, ·)``, its result; ``statement(node, expr)``: ``s(fid, lambda:
    expr)`` just before a small statement; ``need(kind)``: a kind of evidence this finding
    needs besides its rule's. ``facts``, ``edits`` (facts' in-place edits by node)
    and ``wrappers`` (``Variable(h.data)`` calls by their argument) are the module's."""

    def __init__(self, fid: int, module: _Module):
        self.fid = fid
        self.plan = _Plan()
        self._module = module
        self.kinds: set[str] = set()

    def need(self, kind: str) -> None:
        """This finding needs evidence of ``kind`` (``evidence.KINDS``) besides its rule's."""
        self.kinds.add(kind)

    @property
    def facts(self):
        return self._module.facts

    @property
    def edits(self) -> dict:
        return self._module.edits

    @property
    def wrappers(self) -> dict:
        return self._module.wrappers

    def before(self, node) -> None:
        self.plan.before.setdefault(node, []).append(self.fid)

    def after(self, node) -> None:
        self.plan.after.setdefault(node, []).append(self.fid)

    def statement(self, node, expr) -> None:
        self.plan.statement.setdefault(node, []).append((self.fid, expr))


def _variable_wrappers(tree: ast.Module) -> dict:
    """``Variable(h.data)`` -> {``h.data``: the call}: the old ``Variable`` wrapper makes a new
    tensor outside the torch functions the tracer sees, so the cut value is tagged after it."""
    from gradlint.analysis.uses import arguments

    found = {}
    for node in ast.walk(tree):
        if type(node) is ast.Call:
            func = node.func
            name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None
            if name == "Variable" and (node.args or node.keywords):
                keyword, _, value = arguments(node)[0]
                if keyword is None:
                    found[value] = node
    return found


def method(node) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def receiver(node) -> ast.expr:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.value
    if isinstance(node, ast.Attribute):
        return node.value
    raise CannotProbe(f"no receiver in a {type(node).__name__}")


def first_argument(node) -> ast.expr:
    if isinstance(node, ast.Call):
        for arg in node.args:
            if type(arg) is not ast.Starred:
                return arg
    raise CannotProbe("the call has no positional argument to probe")


def _code(module: cst.Module, node) -> str:
    """The node's source on one line; a long call as ``torch.tensor(…)``."""
    text = " ".join(module.code_for_node(node).replace("\\\n", " ").split()).rstrip(";").rstrip()
    if len(text) <= 40:
        return text
    if isinstance(node, cst.Call):
        return " ".join(module.code_for_node(node.func).split()) + "(…)"
    return text[:39] + "…"


def _probe(kind: str, fid: int, value: cst.BaseExpression) -> cst.Call:
    return cst.Call(
        func=cst.Attribute(cst.Name(PROBE), cst.Name(kind)),
        args=[cst.Arg(cst.Integer(str(fid)), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
              cst.Arg(value)],
    )


class _Rewriter(cst.CSTTransformer):
    def __init__(self, plan: _Plan):
        self.plan = plan

    def on_leave(self, original, updated):
        for fid in self.plan.before.get(original, ()):
            updated = _probe("b", fid, updated)
        for fid in self.plan.after.get(original, ()):
            updated = _probe("a", fid, updated)
        if isinstance(updated, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            updated = self._statements(original, updated)
        return updated

    def _statements(self, original, updated):
        body = []
        for before, after in zip(original.body, updated.body):
            for fid, expr in self.plan.statement.get(before, ()):
                thunk = cst.Lambda(params=cst.Parameters(), body=expr)
                probe = _probe("s", fid, thunk)
                body.append(cst.Expr(probe, semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))))
            body.append(after)
        if len(body) == len(updated.body):
            return updated
        return updated.with_changes(body=body)
