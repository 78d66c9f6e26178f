"""Place probes at the sites of a module's findings, keeping every line where it was.

The dynamic pass needs the runtime objects at each flagged site: the tensor before a
``.detach()``, the tensor an ``.item()`` read, the tensor given ``requires_grad``, the tensor an
in-place edit changes. ``instrument`` re-runs the static analysis on the module to get the
findings' nodes (and the nodes they refer to, such as the ``.item()`` behind a rebuilt tensor),
then rewrites only those expressions:

    h.detach()            →  __gradlint__.a(0, __gradlint__.b(0, h).detach())
    x += residual         →  __gradlint__.s(3, lambda: x); x += residual

``b(fid, value)`` sees a value *before* the flagged operation, ``a(fid, value)`` the result
*after* it, ``s(fid, thunk)`` the edited tensor just before a statement runs; all three return
their value unchanged. Nothing is added on new lines, so tracebacks and the user's line numbers
stay right. libcst does the rewriting; torch is not imported here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

PROBE = "__gradlint__"  # the builtin the child installs; a name no program uses


@dataclass
class Site:
    """What the tracer needs to know about one finding's probes."""

    fid: int
    code: str
    path: str
    line: int
    end_line: int
    label: str  # the flagged code as written, for evidence: "h.detach()"
    tensor: str = ""  # the tensor the finding is about, as written ("h", "self.state")
    placed: bool = False

    def to_json(self) -> dict:
        return self.__dict__.copy()


@dataclass
class Instrumented:
    source: str  # the rewritten module
    sites: dict[int, Site] = field(default_factory=dict)
    unplaced: dict[int, str] = field(default_factory=dict)  # fid -> why no probe could be placed


def instrument(source: str, path: str, wanted: list[dict]) -> Instrumented:
    """Rewrite ``source`` with probes for the findings ``wanted``.

    ``wanted``: dicts with ``fid``, ``code``, ``line``, ``column``, ``end_line``, ``end_column``
    (1-based, ``end_column`` exclusive: a finding as ``gradlint check`` printed it). A finding
    that the analysis of this source no longer produces is returned in ``unplaced``.
    Raises ``libcst.ParserSyntaxError`` if the source does not parse.
    """
    from gradlint.analysis.facts import module_facts
    from gradlint.checks import CHECKS

    module = cst.parse_module(source)
    facts = module_facts(module)
    reports = [r for check in CHECKS for r in check.check(facts)]
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    def where(node):
        rng = positions[node]
        return rng.start.line, rng.start.column + 1, rng.end.line, rng.end.column + 1

    by_place = {(r.rule.code, *where(r.node)): r for r in reports}
    edits = {edit.node: edit for edit in facts.edits}
    wrappers = _variable_wrappers(module)
    plan = _Plan()
    out = Instrumented(source)
    for want in wanted:
        key = (want["code"], want["line"], want["column"], want["end_line"], want["end_column"])
        report = by_place.get(key)
        fid = want["fid"]
        if report is None:
            out.unplaced[fid] = "the static pass no longer reports this site in the file it ran"
            continue
        site = Site(fid, want["code"], path, want["line"], want["end_line"], _code(module, report.node),
                    tensor=str(report.details.get("tensor") or report.details.get("root") or ""))
        try:
            _place(plan, fid, report, edits, wrappers, facts.imports)
        except _CannotProbe as err:
            out.unplaced[fid] = str(err)
            continue
        site.placed = True
        out.sites[fid] = site
    if plan.empty():
        return out
    rewritten = module.visit(_Rewriter(plan)).code
    if rewritten.count("\n") != source.count("\n"):  # a bug here would shift every traceback
        raise AssertionError(f"instrumenting {path} changed its line count")
    out.source = rewritten
    return out


class _CannotProbe(Exception):
    pass


@dataclass
class _Plan:
    before: dict = field(default_factory=dict)  # node -> [fid]: wrap in b(fid, ·)
    after: dict = field(default_factory=dict)  # node -> [fid]: wrap in a(fid, ·)
    statement: dict = field(default_factory=dict)  # small statement -> [(fid, expression text)]

    def empty(self) -> bool:
        return not (self.before or self.after or self.statement)


def _place(plan: _Plan, fid: int, report, edits, wrappers, facts_imports) -> None:
    code, node = report.rule.code, report.node
    if code == "GL001":  # h.detach() / h.data: the tensor before the cut, and the cut value
        plan.before.setdefault(_receiver(node), []).append(fid)
        plan.after.setdefault(wrappers.get(node, node), []).append(fid)
    elif code == "GL002":  # torch.tensor(x.item(), requires_grad=True)
        pulls = report.refs.get("pulled", ())
        sources = [_pulled_tensor(p) for p in pulls] or [_first_argument(node)]
        for source in sources:
            plan.before.setdefault(source, []).append(fid)
        plan.after.setdefault(node, []).append(fid)
    elif code == "GL003":
        if isinstance(node, cst.Assign):  # x.requires_grad = True
            plan.statement.setdefault(node, []).append((fid, node.targets[0].target.value))
        elif _method(node) == "requires_grad_":
            plan.before.setdefault(_receiver(node), []).append(fid)
        else:  # Variable(features, requires_grad=True): a new leaf copied from the features
            plan.before.setdefault(_first_argument(node), []).append(fid)
            plan.after.setdefault(node, []).append(fid)
    elif code == "GL004":
        pass  # the tracer recognises the backward call by its line
    elif code == "GL005":
        edit = edits.get(node)
        if edit is not None:
            _place_edit(plan, fid, node, edit, facts_imports)
        elif _method(node) == "step":  # optimizer.step(), or scaler.step(optimizer)
            has_argument = any(a.keyword is None and not a.star for a in node.args)
            plan.before.setdefault(_first_argument(node) if has_argument else _receiver(node), []).append(fid)
        elif isinstance(node, cst.Call):  # nn.ReLU(inplace=True) inside nn.Sequential(...)
            plan.after.setdefault(node, []).append(fid)
        else:
            raise _CannotProbe(f"no probe for a {type(node).__name__} site")
    else:
        raise _CannotProbe(f"{code} has no dynamic check")


def _is_module(expr, imports) -> bool:
    """``torch`` / ``F`` / ``torch.nn.functional`` in ``torch.relu_(g)``: a module, not a tensor."""
    name = imports.qualname(expr)
    return name is not None and (name == "torch" or name.startswith("torch.")) and \
        name.split(".")[-1] in ("torch", "functional", "special", "linalg", "fft", "nn")


def _place_edit(plan: _Plan, fid: int, node, edit, imports) -> None:
    if isinstance(node, (cst.AugAssign, cst.Assign)):  # x += y, x[i] = y
        plan.statement.setdefault(node, []).append((fid, cst.parse_expression(edit.name if not edit.via_data else edit.name + ".data")))
        return
    if not isinstance(node, cst.Call):
        raise _CannotProbe(f"no probe for a {type(node).__name__} edit")
    method = _method(node)
    if method is not None and method.endswith("_") and not _is_module(node.func.value, imports):
        plan.before.setdefault(_receiver(node), []).append(fid)  # x.add_(1), x.data.clamp_(0)
        return
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    if "out" in keywords and "inplace" not in keywords:
        plan.before.setdefault(keywords["out"], []).append(fid)
    else:  # F.relu(x, inplace=True), self.act(x) with an in-place module
        plan.before.setdefault(_first_argument(node), []).append(fid)


def _variable_wrappers(module: cst.Module) -> dict:
    """``Variable(h.data)`` -> {``h.data``: the call}: the old ``Variable`` wrapper makes a new
    tensor outside the torch functions the tracer sees, so the cut value is tagged after it."""
    found = {}

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, node):
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if name == "Variable" and node.args and node.args[0].keyword is None:
                found[node.args[0].value] = node

    module.visit(Visitor())
    return found


def _method(node) -> str | None:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.attr.value
    return None


def _receiver(node) -> cst.BaseExpression:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.value
    if isinstance(node, cst.Attribute):
        return node.value
    raise _CannotProbe(f"no receiver in a {type(node).__name__}")


def _first_argument(node) -> cst.BaseExpression:
    if isinstance(node, cst.Call):
        for arg in node.args:
            if arg.keyword is None and not arg.star:
                return arg.value
    raise _CannotProbe("the call has no positional argument to probe")


def _pulled_tensor(node) -> cst.BaseExpression:
    """The tensor read by ``x.item()`` / ``x.tolist()`` / ``x.numpy()`` / ``float(x)``."""
    if _method(node) is not None:
        return _receiver(node)
    return _first_argument(node)


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
