"""Prefilter: whether any selected rule could report in a module, decided before libcst parses it.

libcst's parse and the flow walk cost some 50 times Python's own ``ast.parse``, which the engine
runs first anyway (``engine._unreadable``). Most modules cannot hold a finding: this module reads
their ``ast`` and says so, and the engine then skips libcst for them. Each condition below is
*necessary* for its rule, derived from where the flow walker (``analysis/flow.py``) records the
facts the check reads; a condition too broad costs speed, one too narrow would lose findings, so
where in doubt a condition says yes. ``tests/test_prefilter.py`` lints every fixture, rule
example and case with and without the prefilter and asserts the same output.

Scopes. The walker walks the module's top-level code and each function body (comprehensions
inline; nested functions on their own, reading the module's globals, never the enclosing
function's names), and never a class body or a lambda. Values cross from one scope to another
only through the module's globals (a function reads a top-level binding with its cuts, pulls and
rebuilds; saved tensors are dropped) and through the summaries the walker passes along (a
parameter that callers hand a tensor with history, with saved tensors, or a model; functions that
return from under no_grad). So a fact that needs two things in one value needs them in one scope,
or one of them at the top level.

Rule by rule (a *sink* is a ``return <value>`` or a backward call: a call of ``backward``,
``manual_backward``, or a name that resolves through the imports to ``….backward``/``….grad``):

- GL001 reads cuts (``.detach()``, ``.detach_()``, ``.data``: ``Walker.cut``) that reach a sink's
  value. A cut's value reaches a sink of its own scope, or of any scope when the cut is in
  top-level code. Necessary: a cut in a scope that has a sink, or a cut in top-level code.
- GL002 reads rebuilds (a call of ``torch.tensor``/``as_tensor``/``from_numpy``/``Tensor``/
  ``*Tensor``/``Variable``: ``flow.REBUILDERS``) that are made to require grad
  (``requires_grad=True`` on the call, or a later ``requires_grad_()``/``.requires_grad = True``)
  or reach a backward. Necessary: a rebuild call in a scope that mentions ``requires_grad``
  (keyword or attribute) or has a sink, or a rebuild in top-level code.
- GL003 reads requires_grad switches on values computed where history was lost. Switches need the
  text ``requires_grad``; a lost history needs a no_grad region, decorator or function somewhere in
  the module, whose names all contain ``no_grad``, ``inference_mode`` or ``set_grad_enabled``
  (``scan.NOGRAD``, ``scan.SET_GRAD_ENABLED``). Necessary: both texts.
- GL004 needs ``retain_graph=True``. Necessary: the text ``retain_graph``.
- GL005 reads (a) edits of tensors with saved-for-backward records, (b) an optimizer step between
  two backward calls, (c) an in-place module right after one that saves its output in an
  ``nn.Sequential``.
  (a) An edit is a subscript assignment (any store context), an augmented assignment, a call of
  a ``torch.Tensor`` in-place method (``saves.inplace_methods``) or of any ``…_`` function, an
  ``inplace=`` or ``out=`` keyword, a literal ``True`` passed to an activation or dropout that
  takes ``inplace`` positionally (``saves.inplace_argument``), or, in a module that builds an
  in-place module, any call (the module may be called anywhere); it edits the name
  ``flow._edit_base`` names. A saved-for-backward record is made only by a ``*``, ``/``,
  ``**`` or ``@`` (``+``/``-`` save nothing), by a call of an op whose measured entry saves
  something (matched by its last name), or, in a module that builds a ``torch.nn`` module that
  saves its input or output, by any call. It is put on a name that is an operand of that op or
  call, or on the name its result is assigned to; it follows the name through assignments
  (copies, views, detached aliases share it), never into a tuple, ``for`` or comprehension
  target, and stays in its scope, except that callers hand a module-level function's
  parameters theirs (a call by its bare name: ``Walker.name_call``). Necessary: an edit of a name that, so followed within its scope, may hold
  a record (``_Scan._edits_a_saved_name``).
  (b) Necessary: a call of ``….step`` and a backward call in one scope.
  (c) Necessary: a call of ``….Sequential``, one that builds an in-place module and one that
  builds a module that saves its output.
- GL900 judges suppressions against the other rules' findings; where those cannot exist the
  engine judges them against none, without libcst.
- GL000 is ``ast``'s verdict (taken before this filter); a module that ``ast`` reads but libcst
  cannot is not reported when this filter skips it. For the grammar versions libcst knows that
  is only a libcst bug; on a Python newer than libcst's grammar the filter is off (``enabled``).
"""
from __future__ import annotations

import ast
import os
import re
import sys
from functools import lru_cache

# Tests run every input with and without the filter and compare; nothing else sets this.
DISABLE_ENV = "GRADLINT_NO_PREFILTER"

_NOGRAD_TEXT = re.compile("no_grad|inference_mode|set_grad_enabled")

_BINOPS_THAT_SAVE = (ast.Mult, ast.Div, ast.Pow, ast.MatMult)
_BACKWARDS = frozenset({"backward", "manual_backward", "grad"})
_CUT_METHODS = frozenset({"detach", "detach_"})
_REQUIRES_GRAD = frozenset({"requires_grad", "requires_grad_"})


def enabled(version: tuple[int, int] | None = None) -> bool:
    """Whether the filter may skip modules: not when disabled by ``GRADLINT_NO_PREFILTER=1``
    (for tests), nor on a Python whose grammar the installed libcst does not know (there a module
    ``ast`` reads may be one libcst cannot, which is GL000)."""
    if os.environ.get(DISABLE_ENV):
        return False
    major, minor = version or sys.version_info[:2]
    try:
        from libcst._parser.types.config import KNOWN_PYTHON_VERSION_STRINGS
    except ImportError:  # a libcst that moved it: do not guess
        return False
    return f"{major}.{minor}" in KNOWN_PYTHON_VERSION_STRINGS


def may_report(text: str, tree: ast.Module, codes: frozenset[str]) -> bool:
    """Whether a rule of ``codes`` could report anything in the module ``text``, parsed by
    ``ast`` as ``tree``. False only where no rule can; GL000 and GL900 are not judged here."""
    if "GL003" in codes and "requires_grad" in text and _NOGRAD_TEXT.search(text):
        return True
    if "GL004" in codes and "retain_graph" in text:
        return True
    wanted = codes & {"GL001", "GL002", "GL005"}
    if not wanted:
        return False
    return _Scan(tree).reports(wanted)


@lru_cache(maxsize=1)
def _tables() -> tuple[frozenset, frozenset, frozenset, frozenset, frozenset]:
    """Last names of: rebuilders; ops that save something; torch.nn modules that save their input
    or output; callables taking ``inplace`` positionally; in-place tensor methods."""
    from gradlint.analysis import saves
    from gradlint.analysis.flow import REBUILDERS

    data = saves._data()

    def saves_any(entry: dict) -> bool:
        if entry.get("all", {}).get("inputs") or entry.get("all", {}).get("output"):
            return True
        if any(e.get("inputs") or e.get("output") for e in (entry.get("when") or {}).values()):
            return True
        return any(saves_any(v) for v in entry.get("variants") or ())

    def last(name: str) -> str:
        return name.rsplit(".", 1)[-1]

    rebuilders = frozenset(last(q) for q in REBUILDERS)
    ops = frozenset(last(q) for q, entry in data["ops"].items() if saves_any(entry))
    modules = frozenset(last(q) for q, m in data["modules"].items()
                        if m["input"] or m["output"] or m.get("inplace_output"))
    positional = frozenset(last(q) for q in data.get("inplace_arguments", {}))
    return rebuilders, ops, modules, positional, saves.inplace_methods()


@lru_cache(maxsize=1)
def _view_methods() -> frozenset:
    from gradlint.analysis.flow import VIEW_METHODS

    return frozenset(VIEW_METHODS | {"detach"})


class _Facts:
    """What one scope (the top level, a function, a class body) holds, for the conditions above."""

    __slots__ = ("kind", "name", "cut", "sink", "rebuild", "requires_grad", "edit", "save", "call",
                 "step", "backward", "nodes", "params")

    def __init__(self, kind: str, name: str, params: ast.arguments | None = None):
        self.kind = kind  # "module", "function", "method", "class"
        self.name = name
        self.params = params
        self.nodes: list[ast.AST] = []  # every node of the scope, nested scopes' bodies excluded
        self.cut = self.sink = self.rebuild = self.requires_grad = self.edit = False
        self.save = self.call = self.step = self.backward = False


class _Scan:
    def __init__(self, tree: ast.Module):
        self.imports: dict[str, str] = {}
        self.scopes: list[_Facts] = []
        self.inplace_module = False  # some call builds a module with inplace=… or a positional True
        self.saving_module = False  # some call names a torch.nn module that saves input or output
        self.sequential = False  # some call names nn.Sequential
        self.called: set[str] = set()  # names called bare (`helper(x)`): only they hand arguments on
        self.rebuilders, self.ops, self.modules, self.positional, self.methods = _tables()
        self.calls: list[tuple[ast.Call, _Facts]] = []
        top = _Facts("module", "<module>")
        self.toplevel = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.scopes.append(top)
        self._scan(tree.body, top)
        # Calls are judged once every import is known: the walker resolves names through the
        # whole module's import table, wherever an import stands.
        for call, facts in self.calls:
            self._call(call, facts)

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        """Local name → qualified name, as ``analysis.imports.ImportTable`` reads them."""
        if type(node) is ast.Import:
            for alias in node.names:
                if alias.asname:
                    self.imports[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    self.imports.setdefault(head, head)
        elif not node.level and node.module:
            for alias in node.names:
                if alias.name != "*":
                    self.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _last(self, func: ast.expr) -> str | None:
        """The last component of a callee's qualified name (through an import alias), if dotted."""
        if type(func) is ast.Attribute:
            return func.attr
        if type(func) is ast.Name:
            return self.imports.get(func.id, func.id).rsplit(".", 1)[-1]
        return None

    def _scan(self, nodes: list, facts: _Facts) -> None:
        """Record ``nodes`` and everything under them into ``facts``, except nested function and
        class bodies, which become scopes of their own."""
        stack = list(nodes)
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
                if kind is ast.ClassDef:
                    inner = _Facts("class", node.name)
                else:
                    inner = _Facts("method" if facts.kind == "class" else "function", node.name, node.args)
                self.scopes.append(inner)
                self._scan([*node.decorator_list, *getattr(node, "bases", ()), *getattr(node, "keywords", ())], facts)
                if kind is not ast.ClassDef:
                    self._scan([node.args], facts)
                self._scan(node.body, inner)
                continue
            facts.nodes.append(node)
            if kind is ast.Call:
                self.calls.append((node, facts))
            elif kind is ast.Import or kind is ast.ImportFrom:
                self._import(node)
            elif kind is ast.Attribute:
                if node.attr == "data":
                    facts.cut = True
                elif node.attr in _REQUIRES_GRAD:
                    facts.requires_grad = True
            elif kind is ast.BinOp:
                if isinstance(node.op, _BINOPS_THAT_SAVE):
                    facts.save = True
            elif kind is ast.Subscript:
                if type(node.ctx) is ast.Store:
                    facts.edit = True
            elif kind is ast.AugAssign:
                facts.edit = True
            elif kind is ast.Return:
                if node.value is not None:
                    facts.sink = True
            for field in node._fields:
                value = getattr(node, field, None)
                if type(value) is list:
                    stack.extend(v for v in value if isinstance(v, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append(value)

    def _call(self, node: ast.Call, facts: _Facts) -> None:
        facts.call = True
        func = node.func
        if type(func) is ast.Name:
            self.called.add(func.id)
        last = self._last(func)
        method = func.attr if type(func) is ast.Attribute else None
        if method in _CUT_METHODS:
            facts.cut = True
        if last in _BACKWARDS:
            facts.sink = facts.backward = True
        if method == "step":
            facts.step = True
        if last is None:
            return
        if last in self.rebuilders:
            facts.rebuild = True
        if self._op_saves(func):
            facts.save = True
        if last in self.modules:
            self.saving_module = True
        if last == "Sequential":
            self.sequential = True
        if (method in self.methods) or (last.endswith("_") and not last.endswith("__")):
            facts.edit = True
        keywords = {k.arg: k.value for k in node.keywords}
        if "requires_grad" in keywords:
            facts.requires_grad = True
        if "out" in keywords:
            facts.edit = True
        if _true(keywords.get("inplace")) or (last in self.positional and any(map(_true, node.args))):
            facts.edit = True
            self.inplace_module = True

    def reports(self, codes: set[str]) -> bool:
        scopes = self.scopes
        top = scopes[0]
        if "GL001" in codes and (top.cut or any(s.cut and s.sink for s in scopes)):
            return True
        if "GL002" in codes and (top.rebuild or any(s.rebuild and (s.requires_grad or s.backward) for s in scopes)):
            return True
        if "GL005" not in codes:
            return False
        if any(s.step and s.backward for s in scopes):
            return True
        if self.sequential and self.inplace_module and self.saving_module:
            return True

        def may_save(s: _Facts) -> bool:
            return s.save or (self.saving_module and s.call)

        def may_edit(s: _Facts) -> bool:
            return s.edit or (self.inplace_module and s.call)

        anywhere = any(may_save(s) for s in scopes)
        for s in scopes:
            # A module-level function's parameters hold what its callers saved.
            seeded = anywhere and s.kind == "function" and s.name in self.toplevel and s.name in self.called
            if may_edit(s) and (may_save(s) or seeded) and self._edits_a_saved_name(s, seeded):
                return True
        return False

    # ---- GL005 (a), name by name ----

    def _op_saves(self, func: ast.expr) -> bool:
        """Whether the walker may record saves for a call of ``func`` by the op's name: a tensor
        method or a torch function named like a measured op that saves; a bare name only when it
        is imported from torch (``Walker.torch_call``; other names go to ``Walker.name_call``)."""
        if type(func) is ast.Attribute:
            return func.attr in self.ops
        if type(func) is ast.Name:
            qual = self.imports.get(func.id)
            return qual is not None and qual.startswith("torch") and qual.rsplit(".", 1)[-1] in self.ops
        return False

    def _saving_call(self, node: ast.Call) -> bool:
        return self.saving_module or self._op_saves(node.func)

    def _edits_a_saved_name(self, facts: _Facts, seeded: bool) -> bool:
        """Whether an edit in the scope is of a name that may hold a saved-for-backward record.

        A record is put on a name as the walker does (``Walker.mark_saved``, ``Walker.bind``): on
        a name that is itself an operand of a ``*``/``/``/``**``/``@``, or the receiver or a
        positional argument of a call that may save; on the target of an assignment (``=``,
        ``:=``, ``with … as``) whose value holds an op that may save or a name that may hold a
        record (a copy, a view or a detached alias shares it); on the parameters of a function its
        callers may hand records (``seeded``). A tuple target, a ``for`` target, a comprehension
        target and a container's ``append`` hold none. An edit is of the name ``flow._edit_base``
        names (``x`` for ``x[i]``, ``x.view(…)``, ``x.detach()``, ``x.data``)."""
        saved: set[str] = set()
        assigns: list[tuple[list[str], ast.AST]] = []
        edits: set[str] = set()
        for node in facts.nodes:
            kind = type(node)
            if kind is ast.BinOp:
                if isinstance(node.op, _BINOPS_THAT_SAVE):
                    saved.update(n for n in (_dotted(node.left), _dotted(node.right)) if n)
            elif kind is ast.Call:
                self._call_edits(node, edits)
                if self._saving_call(node):
                    operands = [a for a in node.args if type(a) is not ast.Starred]
                    if type(node.func) is ast.Attribute:
                        operands.append(node.func.value)
                    saved.update(n for n in map(_dotted, operands) if n)
            elif kind is ast.Assign:
                assigns.append(([t for t in map(_dotted, node.targets) if t], node.value))
            elif kind is ast.AnnAssign or kind is ast.NamedExpr:
                if node.value is not None and _dotted(node.target):
                    assigns.append(([_dotted(node.target)], node.value))
            elif kind is ast.withitem:
                if node.optional_vars is not None and _dotted(node.optional_vars):
                    assigns.append(([_dotted(node.optional_vars)], node.context_expr))
            elif kind is ast.Subscript:
                if type(node.ctx) is ast.Store:
                    edits.add(self._edit_base(node))
            elif kind is ast.AugAssign:
                edits.add(self._edit_base(node.target))
        edits.discard(None)
        if not edits:
            return False
        if seeded and facts.params is not None:
            args = facts.params
            saved.update(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])
        # What each assigned value reads, and whether it holds an op that may save.
        values = []
        for targets, value in assigns:
            if not targets:
                continue
            names, saves = set(), False
            for node in ast.walk(value):
                kind = type(node)
                if kind is ast.Name or kind is ast.Attribute:
                    name = _dotted(node)
                    if name:
                        names.add(name)
                elif kind is ast.Call:
                    saves = saves or self._saving_call(node)
                elif kind is ast.BinOp:
                    saves = saves or isinstance(node.op, _BINOPS_THAT_SAVE)
            values.append((targets, names, saves))
        grew = True
        while grew:
            grew = False
            for targets, names, saves in values:
                if (saves or names & saved) and not saved.issuperset(targets):
                    saved.update(targets)
                    grew = True
        return not edits.isdisjoint(saved)

    def _call_edits(self, node: ast.Call, edits: set) -> None:
        """The names a call edits in place (``Walker.torch_call``, ``method_call``, ``apply_module``)."""
        func = node.func
        last = self._last(func)
        positional = [a for a in node.args if type(a) is not ast.Starred]
        first = positional[0] if positional else None
        if type(func) is ast.Attribute and func.attr in self.methods:
            edits.add(self._edit_base(func.value))
        keywords = {k.arg: k.value for k in node.keywords}
        if first is not None and (
                (last is not None and last.endswith("_") and not last.endswith("__"))
                or _true(keywords.get("inplace")) or self.inplace_module
                or (last in self.positional and any(map(_true, positional)))):
            edits.add(self._edit_base(first))
        if "out" in keywords:
            edits.add(self._edit_base(keywords["out"]))

    @staticmethod
    def _edit_base(expr: ast.AST) -> str | None:
        """``flow._edit_base`` on an ``ast`` expression, with ``.data`` dropped as ``Walker.edit`` does."""
        views = _view_methods()
        while True:
            if type(expr) is ast.Subscript:
                expr = expr.value
            elif type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in views:
                expr = expr.func.value
            else:
                break
        name = _dotted(expr)
        return name[: -len(".data")] if name and name.endswith(".data") else name


def _true(expr: ast.AST | None) -> bool:
    """A literal ``True`` (``scan.literal_true``)."""
    return type(expr) is ast.Constant and expr.value is True


def _dotted(expr: ast.AST) -> str | None:
    """``a.b.c`` for a chain of names and attributes; None for anything else (``imports.dotted``)."""
    parts = []
    while type(expr) is ast.Attribute:
        parts.append(expr.attr)
        expr = expr.value
    if type(expr) is not ast.Name:
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))
