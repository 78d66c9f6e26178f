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
or one of them at the top level. A global read in a function keeps its alias (the name it shares
storage with), which there names the function's own binding of that name: every alias a
top-level binding makes is a function's alias too.

Names. The walker resolves a name through one import table for the whole module, the last import
of the name winning wherever it stands (a ``try``/``except ImportError`` fallback, a re-import in
a function). Here a name imported more than once may be any of its imports, and a condition holds
if it holds for one of them.

Texts. The text conditions search the bytes read as UTF-8; ``ast`` and libcst read them in the
encoding a ``coding:`` cookie declares (``unicode_escape`` makes `retain\\u005fgraph` text of
`retain_graph`). A module that declares any encoding but UTF-8 meets every text condition.

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
  (a) An edit is a subscript assignment (any store context), an augmented assignment, a
  tensor in-place method (``saves.inplace_methods``), a torch function that is in place (one of
  those names, ``F.…_``, ``inplace=True``, a literal ``True`` where ``saves.inplace_argument``
  takes it), an ``out=`` argument, or a call of something that may hold an in-place module; it
  edits the name ``flow._edit_base`` names. A saved-for-backward record is put on a name by an
  op that may save: a ``*``, ``/``, ``**`` or ``@`` (``+``/``-`` save nothing) or a call of an op
  whose measured entry saves something (matched by its last name) marks its operands, and a
  call of something that may hold a ``torch.nn`` module that saves its input marks its
  argument; a value made by an op or module that may save its output holds one. "May hold a
  module" follows ``self.act = nn.ReLU()`` by the last name (``…act(x)``), through copies, as
  the walker knows modules only from their constructors. Records then follow values as the walker
  computes them, in statement order (``_SavedFlow``): a lookup, a view or an in-place method's
  result keeps its operand's; an operator or any other call makes a new value without; a
  rebinding drops them; views and detached copies remember the name they share storage with
  (as do what the walker computes from them keeping that: a subscript, a unary operator, a
  comprehension's element, an attribute, ``Variable(x)``, ``float(x)``, a branch of ``if``/
  ``or``), and an edit of ``q.real`` edits what ``q`` shares; branches join, loops run to a fixed
  point. ``for``/``with`` targets are read as the statement's expressions (``for p[0] in …``
  edits ``p``). They stay in their scope, except that callers hand
  a module-level function's parameters theirs (a call by its bare name: ``Walker.name_call``).
  Necessary: an edit of a name that may hold a record, or share storage with one that may,
  where the edit is made.
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
_MOVES = frozenset({"to", "cuda", "cpu", "train", "eval", "float", "double", "half", "requires_grad_"})


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
    # The texts are searched in ``text``, the bytes read as UTF-8; ``ast`` and libcst read them
    # in the encoding a ``coding:`` cookie declares, where `retain\u005fgraph` may be
    # `retain_graph`: with any other cookie the text conditions are taken as met.
    other = _other_coding(text)
    if "GL003" in codes and (other or ("requires_grad" in text and _NOGRAD_TEXT.search(text))):
        return True
    if "GL004" in codes and (other or "retain_graph" in text):
        return True
    wanted = codes & {"GL001", "GL002", "GL005"}
    if not wanted:
        return False
    return _Scan(tree).reports(wanted)


_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)


def _other_coding(text: str) -> bool:
    """Whether the first two lines declare an encoding other than UTF-8 (PEP 263, as
    ``tokenize.detect_encoding`` reads it; a second line is taken even where Python would not)."""
    for line in text.split("\n", 2)[:2]:
        match = _CODING.match(line)
        if match:
            name = match.group(1).lower().replace("_", "-")
            return not (name in ("utf-8", "utf8") or name.startswith(("utf-8-", "utf8-")))
    return False


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
def _module_tables() -> dict[str, frozenset]:
    """Last names of the ``torch.nn`` modules that save their input, and their output."""
    from gradlint.analysis import saves

    modules = saves._data()["modules"]
    return {"input": frozenset(q.rsplit(".", 1)[-1] for q, m in modules.items() if m["input"]),
            "output": _output_tables()[2]}


@lru_cache(maxsize=1)
def _output_tables() -> tuple[frozenset, tuple, frozenset]:
    """Last names of ops that may save their output; the ``ast`` operators that may; last names
    of ``torch.nn`` modules that may save their output."""
    from gradlint.analysis import saves

    data = saves._data()

    def output(entry: dict) -> bool:
        if entry.get("all", {}).get("output") or any(e.get("output") for e in (entry.get("when") or {}).values()):
            return True
        return any(output(v) for v in entry.get("variants") or ())

    ops = frozenset(q.rsplit(".", 1)[-1] for q, entry in data["ops"].items() if output(entry))
    binops = tuple(op for q, op in (("operator.mul", ast.Mult), ("operator.truediv", ast.Div),
                                    ("operator.pow", ast.Pow), ("operator.matmul", ast.MatMult))
                   if q not in data["ops"] or output(data["ops"][q]))
    modules = frozenset(q.rsplit(".", 1)[-1] for q, m in data["modules"].items()
                        if m["output"] or m.get("inplace_output"))
    return ops, binops, modules


@lru_cache(maxsize=1)
def _keeping_methods() -> frozenset:
    """Methods whose result keeps the receiver's records and storage (``flow.VIEW_METHODS``,
    ``flow.MAY_ALIAS``, ``requires_grad_`` returns the receiver) or its storage (``detach``,
    ``detach_``)."""
    from gradlint.analysis.flow import MAY_ALIAS, VIEW_METHODS

    return frozenset(VIEW_METHODS | MAY_ALIAS | {"detach", "detach_", "requires_grad_"})


@lru_cache(maxsize=1)
def _view_methods() -> frozenset:
    from gradlint.analysis.flow import VIEW_METHODS

    return frozenset(VIEW_METHODS | {"detach"})


class _Facts:
    """What one scope (the top level, a function, a class body) holds, for the conditions above."""

    __slots__ = ("kind", "name", "cut", "sink", "rebuild", "requires_grad", "edit", "save", "call",
                 "step", "backward", "nodes", "params", "body")

    def __init__(self, kind: str, name: str, params: ast.arguments | None = None):
        self.kind = kind  # "module", "function", "method", "class"
        self.name = name
        self.params = params
        self.nodes: list[ast.AST] = []  # every node of the scope, nested scopes' bodies excluded
        self.body: list[ast.stmt] = []
        self.cut = self.sink = self.rebuild = self.requires_grad = self.edit = False
        self.save = self.call = self.step = self.backward = False


class _Scan:
    def __init__(self, tree: ast.Module):
        # Local name → every qualified name an import binds it to: the walker's table keeps the
        # last import of a name (in the module, wherever it stands), so a name imported more than
        # once (a try/except fallback, a local re-import) may be any of them.
        self.imports: dict[str, set[str]] = {}
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
        top.body = tree.body
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
                    self.imports.setdefault(alias.asname, set()).add(alias.name)
                else:
                    head = alias.name.split(".")[0]
                    self.imports.setdefault(head, set()).add(head)
        elif not node.level and node.module:
            for alias in node.names:
                if alias.name != "*":
                    self.imports.setdefault(alias.asname or alias.name, set()).add(f"{node.module}.{alias.name}")

    def quals(self, name: str) -> set[str]:
        """Every qualified name the dotted ``name`` may resolve to (``ImportTable.qualname``: an
        unimported head as written)."""
        head, _, rest = name.partition(".")
        return {f"{q}.{rest}" if rest else q for q in self.imports.get(head, (head,))}

    def _lasts(self, func: ast.expr) -> set:
        """The last component of a callee's qualified name (through any import of it), if dotted."""
        if type(func) is ast.Attribute:
            return {func.attr}
        if type(func) is ast.Name:
            return {q.rsplit(".", 1)[-1] for q in self.quals(func.id)}
        return {None}

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
                inner.body = node.body
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
        for last in self._lasts(func):
            self._call_as(node, facts, last)

    def _call_as(self, node: ast.Call, facts: _Facts, last: str | None) -> None:
        func = node.func
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

    def global_aliases(self) -> dict[str, frozenset]:
        """What each name bound in top-level code may share storage with, over every binding of
        it there (flow-insensitive, closed under aliasing)."""
        if "_global_aliases" in self.__dict__:
            return self.__dict__["_global_aliases"]
        flow = _SavedFlow(self, _Facts("module", "<aliases>"), False)
        found: dict[str, set] = {}
        for node in self.scopes[0].nodes:
            kind = type(node)
            if kind is ast.Assign:
                pairs = [(t, node.value) for t in node.targets]
            elif (kind is ast.AnnAssign and node.value is not None) or kind is ast.NamedExpr:
                pairs = [(node.target, node.value)]
            elif kind is ast.With or kind is ast.AsyncWith:
                pairs = [(i.optional_vars, i.context_expr) for i in node.items if i.optional_vars is not None]
            else:
                continue
            for target, value in pairs:
                sources: set = set()
                flow._aliases_of(value, sources)
                if sources:
                    for name in _bound_names(target):
                        found.setdefault(name, set()).update(sources)
        grew = True
        while grew:
            grew = False
            for name, sources in found.items():
                more = set().union(*(found.get(n, ()) for n in sources)) - sources
                if more:
                    sources |= more
                    grew = True
        result = self.__dict__["_global_aliases"] = {n: frozenset(v) for n, v in found.items()}
        return result

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
            if may_edit(s) and (may_save(s) or seeded) and s.kind != "class" and (
                    _SavedFlow(self, s, seeded).edits_a_saved_name()):
                return True
        return False

    # ---- GL005 (a), name by name ----

    def calls_module(self, func: ast.expr, what: str) -> bool:
        """Whether calling ``func`` may run a ``torch.nn`` module that saves its ``"input"``, its
        ``"output"``, or is ``"inplace"`` (``Walker.apply_module``): a constructor called at once
        (``nn.ReLU()(x)``), or a name, attribute or item of one whose last name some assignment
        in the module binds to such a constructor's result (``self.act = nn.ReLU()``), or to a
        name that holds one (the walker knows a module only from its constructor)."""
        if not (self.inplace_module if what == "inplace" else self.saving_module):
            return False
        while type(func) is ast.Subscript:
            func = func.value
        # (``scan.module_info`` reads through ``.to(…)``, ``.cuda()``, ``.eval()`` and kin)
        while type(func) is ast.Call and type(func.func) is ast.Attribute and func.func.attr in _MOVES:
            func = func.func.value
        if type(func) is ast.Call:
            return self._builds(func, what)
        name = _dotted(func)
        return name is not None and name.rsplit(".", 1)[-1] in self._holders(what)

    def _builds(self, call: ast.Call, what: str) -> bool:
        """Whether ``call`` constructs a ``torch.nn`` module of the kind (``scan.module_info``
        knows modules only by a name under ``torch.nn.``)."""
        name = _dotted(call.func)
        if name is None:
            return False
        for qual in self.quals(name):
            if not qual.startswith("torch.nn."):
                continue
            last = qual.rsplit(".", 1)[-1]
            if what == "inplace":
                if _true(next((k.value for k in call.keywords if k.arg == "inplace"), None)) or (
                        last in self.positional and any(map(_true, call.args))):
                    return True
            elif last in _module_tables()[what]:
                return True
        return False

    def _holders(self, what: str) -> set[str]:
        """Last names of what may hold a module of the kind (see ``calls_module``)."""
        cache = self.__dict__.setdefault("_holders_by_kind", {})
        if what in cache:
            return cache[what]
        assigns = []
        for facts in self.scopes:
            for node in facts.nodes:
                kind = type(node)
                if kind is ast.Assign:
                    targets = node.targets
                elif kind is ast.AnnAssign or kind is ast.NamedExpr:
                    targets = [node.target]
                else:
                    continue
                if node.value is None:
                    continue
                lasts, builds = set(), False
                for inner in ast.walk(node.value):
                    if type(inner) is ast.Call and self._builds(inner, what):
                        builds = True
                    elif type(inner) is ast.Name:
                        lasts.add(inner.id)
                    elif type(inner) is ast.Attribute:
                        lasts.add(inner.attr)
                names = {n.rsplit(".", 1)[-1] for t in targets for x in ast.walk(t)
                         if type(x) in (ast.Name, ast.Attribute) and (n := _dotted(x))}
                assigns.append((names, lasts, builds))
        holders: set[str] = set()
        grew = True
        while grew:
            grew = False
            for names, lasts, builds in assigns:
                if (builds or not lasts.isdisjoint(holders)) and not holders.issuperset(names):
                    holders |= names
                    grew = True
        cache[what] = holders
        return holders

    def _op_saves(self, func: ast.expr) -> bool:
        """Whether the walker may record saves for a call of ``func`` by the op's name: a tensor
        method or a torch function named like a measured op that saves; a bare name only when it
        is imported from torch (``Walker.torch_call``; other names go to ``Walker.name_call``)."""
        if type(func) is ast.Attribute:
            return func.attr in self.ops
        if type(func) is ast.Name:
            return any(q.startswith("torch") and q.rsplit(".", 1)[-1] in self.ops
                       for q in self.imports.get(func.id, ()))
        return False

    def _saving_call(self, node: ast.Call) -> bool:
        return self._op_saves(node.func) or self.calls_module(node.func, "input")

    def _call_edits(self, node: ast.Call, edits: set) -> None:
        """The names a call edits in place: a tensor method's receiver (``Walker.method_call``);
        the first argument of a torch function that is in place (``Walker.torch_call``), and of a
        call that may run an in-place module (``Walker.apply_module``); an ``out=`` argument."""
        func = node.func
        positional = [a for a in node.args if type(a) is not ast.Starred]
        first = positional[0] if positional else None
        if type(func) is ast.Attribute and func.attr in self.methods:
            edits.add(self._edit_base(func.value))
        keywords = {k.arg: k.value for k in node.keywords}
        if "out" in keywords:
            edits.add(self._edit_base(keywords["out"]))
        if first is None:
            return
        for qual in self._torch_quals(func):
            last = qual.rsplit(".", 1)[-1]
            if (last in self.methods or (qual.startswith("torch.nn.functional.") and last.endswith("_")
                                          and not last.endswith("__"))
                    or _true(keywords.get("inplace"))
                    or (last in self.positional and any(map(_true, positional)))):
                edits.add(self._edit_base(first))
        if self.calls_module(func, "inplace"):
            edits.add(self._edit_base(first))

    def _torch_quals(self, func: ast.expr) -> list[str]:
        """The callee's qualified names under which the walker takes it for a torch function:
        its head is imported and it resolves under ``torch``."""
        name = _dotted(func)
        if name is None or name.partition(".")[0] not in self.imports:
            return []
        return [q for q in self.quals(name) if q.startswith("torch")]

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


class _SavedFlow:
    """GL005 (a) in one scope, statement by statement as ``Walker`` goes: which names may hold a
    saved-for-backward record at each edit. Order matters: ``x = self.conv(x)`` marks the old
    ``x`` and binds a new one that holds no record unless the op saves its output, so a later
    ``x += y`` edits nothing saved.

    The state over-approximates the walker's at every point: within a statement, the edits are
    judged after every record the statement makes, both before its bindings (``q = q.add_(1)``
    edits the old ``q``) and after them (a walrus, a subscript target after a name target); an ``if`` joins both branches; a
    loop is run to a fixed point from its entry (the walker runs its body twice, recording on
    the second pass); ``try``/``match`` join as the walker does. A binding drops a name's record
    unless the value may hold one (an op that may save its output, or a name that may hold one:
    a copy, a view); a name keeps, as its aliases, every name its value was computed from (an
    edit of a view or a detached alias checks its base's records). Nothing drops a record
    otherwise (a backward frees them in the walker: ignored), and a ``:=`` never drops one (the
    walker forgets a comprehension's bindings)."""

    _LIMIT = 50  # loop passes before giving up (and saying yes)

    def __init__(self, scan: "_Scan", facts: _Facts, seeded: bool):
        self.scan = scan
        self.body = facts.body
        self.saved: set[str] = set()
        self.aliases: dict[str, frozenset] = {}
        self.out_ops, self.out_binops, _ = _output_tables()
        if facts.kind in ("function", "method"):
            # A function reads a global with its alias (``Walker.lookup``), which then names
            # this scope's binding of that name: a top-level `v = buf[:2]` makes `v.add_()`
            # here an edit of the local `buf`.
            self.aliases = dict(scan.global_aliases())
        if seeded and facts.params is not None:
            args = facts.params
            self.saved.update(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])

    def edits_a_saved_name(self) -> bool:
        try:
            self._block(self.body)
        except _Hit:
            return True
        return False

    # ---- states ----

    def _copy(self) -> tuple[set, dict]:
        return set(self.saved), dict(self.aliases)

    def _set(self, state: tuple[set, dict]) -> None:
        self.saved, self.aliases = set(state[0]), dict(state[1])

    @staticmethod
    def _join(a: tuple[set, dict], b: tuple[set, dict]) -> tuple[set, dict]:
        aliases = dict(a[1])
        for name, names in b[1].items():
            aliases[name] = aliases.get(name, frozenset()) | names
        return a[0] | b[0], aliases

    # ---- statements ----

    def _block(self, statements) -> None:
        for stmt in statements:
            self._statement(stmt)

    def _statement(self, stmt) -> None:
        kind = type(stmt)
        if kind is ast.If:
            self._effects([stmt.test])
            before = self._copy()
            self._block(stmt.body)
            after_body = self._copy()
            self._set(before)
            self._block(stmt.orelse)
            self._set(self._join(after_body, self._copy()))
        elif kind is ast.For or kind is ast.AsyncFor or kind is ast.While:
            self._loop(stmt)
        elif kind is ast.With or kind is ast.AsyncWith:
            # (a target is a root too: `with … as p[0]` edits p, as `Walker.bind` does)
            self._effects([*(i.context_expr for i in stmt.items),
                           *(i.optional_vars for i in stmt.items if i.optional_vars is not None)],
                          [(i.optional_vars, i.context_expr) for i in stmt.items if i.optional_vars is not None])
            self._block(stmt.body)
        elif kind is ast.Try or kind.__name__ == "TryStar":
            before = self._copy()
            self._block(stmt.body)
            self._block(stmt.orelse)
            after = self._copy()
            for handler in stmt.handlers:
                self._set(self._join(before, after))
                self._block(handler.body)
                after = self._join(after, self._copy())
            self._set(after)
            self._block(stmt.finalbody)
        elif kind.__name__ == "Match":
            self._effects([stmt.subject, *(c.guard for c in stmt.cases if c.guard is not None)])
            before, after = self._copy(), self._copy()
            for case in stmt.cases:
                self._set(before)
                self._block(case.body)
                after = self._join(after, self._copy())
            self._set(after)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            pass  # walked on its own; binding its name drops nothing the walker keeps
        elif kind is ast.Assign:
            self._effects([stmt], [(t, stmt.value) for t in stmt.targets])
        elif kind is ast.AnnAssign:
            self._effects([stmt], [(stmt.target, stmt.value)] if stmt.value is not None else [])
        else:
            self._effects([stmt])

    def _loop(self, stmt) -> None:
        entry = self._copy()
        state = entry
        for _ in range(self._LIMIT):
            self._set(state)
            if type(stmt) is ast.While:
                self._effects([stmt.test])
            else:
                self._effects([stmt.iter, stmt.target], [(stmt.target, stmt.iter)], loop_target=True)
            self._block(stmt.body)
            joined = self._join(entry, self._copy())
            if joined[0] == state[0] and joined[1] == state[1]:
                break
            state = joined
        else:
            raise _Hit  # no fixed point in reach: say yes
        self._set(state)
        self._block(stmt.orelse)

    # ---- one statement's expressions ----

    def _effects(self, roots: list, bindings: list = (), loop_target: bool = False) -> None:
        """Records, edits and bindings of the expressions under ``roots`` (nested statement
        bodies excluded), then of ``bindings`` ((target, value) pairs)."""
        scan = self.scan
        nodes = []
        for root in roots:
            stack = [root]
            while stack:
                node = stack.pop()
                nodes.append(node)
                for field in node._fields:
                    if field in ("body", "orelse", "finalbody", "handlers") and isinstance(node, ast.stmt):
                        continue
                    value = getattr(node, field, None)
                    if type(value) is list:
                        stack.extend(v for v in value if isinstance(v, ast.AST))
                    elif isinstance(value, ast.AST):
                        stack.append(value)
        edits: set = set()
        walrus = []
        for node in nodes:
            kind = type(node)
            if kind is ast.BinOp:
                if isinstance(node.op, _BINOPS_THAT_SAVE):
                    self.saved.update(n for n in (_dotted(node.left), _dotted(node.right)) if n)
            elif kind is ast.Call:
                scan._call_edits(node, edits)
                if scan._saving_call(node):
                    operands = [a for a in node.args if type(a) is not ast.Starred]
                    if type(node.func) is ast.Attribute:
                        operands.append(node.func.value)
                    self.saved.update(n for n in map(_dotted, operands) if n)
            elif kind is ast.Subscript:
                if type(node.ctx) is ast.Store:
                    edits.add(scan._edit_base(node))
            elif kind is ast.AugAssign:
                edits.add(scan._edit_base(node.target))
            elif kind is ast.NamedExpr:
                walrus.append(node)
        # The edits are judged against the aliases before the statement's bindings (an edit in
        # the value, `q = q.add_(1)`, is made before `q` is rebound) and after them (a walrus
        # inside, a subscript target after a name target).
        edits.discard(None)
        self._judge(edits)
        bound = []
        for target, value in bindings:
            bound += self._bind(target, value, loop_target)
        for node in walrus:
            self._bind(node.target, node.value, keep=True)
        self._judge(edits)
        # Then what the statement leaves: a rebinding with nothing saved in its value drops.
        for name, keeps in bound:
            if not keeps:
                self.saved.discard(name)

    def _judge(self, edits: set) -> None:
        """Hit if an edited name may hold a record, or it or a prefix of it may share storage
        with a name that may (``Walker.lookup`` of an unbound ``q.real`` is ``q``'s value with
        its records dropped, its alias kept)."""
        saved, aliases = self.saved, self.aliases
        for name in edits:
            if name in saved:
                raise _Hit
            while True:
                if not aliases.get(name, frozenset()).isdisjoint(saved):
                    raise _Hit
                if "." not in name:
                    break
                name = name.rsplit(".", 1)[0]

    def _bind(self, target, value, loop_target: bool = False, keep: bool = False) -> list:
        """Bind ``target`` to ``value``: (name, whether it may hold a record) per name bound."""
        carried, output = set(), [False]
        self._carries(value, carried, output)
        sources: set[str] = set()
        self._aliases_of(value, sources)
        for name in list(sources):
            sources |= self.aliases.get(name, frozenset())
        carries = output[0] or not carried.isdisjoint(self.saved)
        # A tuple or loop target's value holds no record (``Walker.bind``, ``loop_target``).
        single = type(target) in (ast.Name, ast.Attribute) and not loop_target
        found = []
        for name in _bound_names(target):
            keeps = carries and single
            if keep:
                self.aliases[name] = self.aliases.get(name, frozenset()) | sources
                if keeps:
                    self.saved.add(name)
                continue
            self.aliases[name] = frozenset(sources)
            if keeps:
                self.saved.add(name)
            found.append((name, keeps))
        return found

    def _carries(self, expr, names: set, output: list) -> None:
        """The names whose records a value computed by ``expr`` may hold (a lookup, a view or an
        in-place method of one: ``Walker.lookup``, ``method_call``; a branch of ``x if c else y``
        or ``x or y``: ``Value.join``), and whether an op that saves its output makes it. An
        operator or any other call makes a new value: ``Value.__or__`` and ``replace(…,
        saved=EMPTY)`` drop the records of its operands."""
        kind = type(expr)
        if kind is ast.Name or kind is ast.Attribute:
            name = _dotted(expr)
            if name:
                names.add(name)
            elif kind is ast.Attribute:
                self._carries(expr.value, names, output)
        elif kind is ast.Call:
            if self._saves_output(expr):
                output[0] = True
            func = expr.func
            if type(func) is ast.Attribute and (func.attr in _keeping_methods() or func.attr in self.scan.methods):
                self._carries(func.value, names, output)
            elif "Variable" in self.scan._lasts(func) and expr.args:  # `Variable(x)` is x
                self._carries(expr.args[0], names, output)
        elif kind is ast.BinOp:
            if isinstance(expr.op, self.out_binops):
                output[0] = True
        elif kind is ast.IfExp:
            self._carries(expr.body, names, output)
            self._carries(expr.orelse, names, output)
        elif kind is ast.BoolOp:
            for part in expr.values:
                self._carries(part, names, output)
        elif kind is ast.NamedExpr or kind is ast.Await or kind is ast.Starred:
            self._carries(expr.value, names, output)

    def _aliases_of(self, expr, names: set) -> None:
        """The names a value computed by ``expr`` may share storage with (``Value.alias``: set
        by a subscript, a cut, a view; kept by lookups, ``Value.result`` of a unary operator or
        ``.T``, a comprehension's element, an attribute's base): every name, and every prefix of
        a dotted name, at those positions."""
        kind = type(expr)
        if kind is ast.Name:
            names.add(expr.id)
        elif kind is ast.Attribute:
            name = _dotted(expr)
            if name:
                names.add(name)
            self._aliases_of(expr.value, names)
        elif kind is ast.Subscript or kind is ast.NamedExpr or kind is ast.Await or kind is ast.Starred:
            self._aliases_of(expr.value, names)
        elif kind is ast.UnaryOp:  # `-q`: ``Value.result`` keeps the alias
            self._aliases_of(expr.operand, names)
        elif kind is ast.ListComp or kind is ast.SetComp or kind is ast.GeneratorExp:
            # ``Walker.comprehension`` returns its element's value, alias kept
            self._aliases_of(expr.elt, names)
            for comp in expr.generators:
                self._aliases_of(comp.iter, names)
        elif kind is ast.Call:
            func = expr.func
            if type(func) is ast.Attribute and func.attr in _keeping_methods():
                self._aliases_of(func.value, names)
            elif expr.args and ("Variable" in self.scan._lasts(func)
                                or (type(func) is ast.Name and func.id in ("float", "int"))):
                # `Variable(x)` is x; ``name_call`` hands back ``float(x)``'s argument value
                self._aliases_of(expr.args[0], names)
        elif kind is ast.IfExp:
            self._aliases_of(expr.body, names)
            self._aliases_of(expr.orelse, names)
        elif kind is ast.BoolOp:
            for part in expr.values:
                self._aliases_of(part, names)

    def _saves_output(self, node: ast.Call) -> bool:
        func = node.func
        if self.scan.calls_module(func, "output"):
            return True
        if type(func) is ast.Attribute:
            return func.attr in self.out_ops
        if type(func) is ast.Name:
            return any(q.startswith("torch") and q.rsplit(".", 1)[-1] in self.out_ops
                       for q in self.scan.imports.get(func.id, ()))
        return False


class _Hit(Exception):
    """An edit of a name that may hold a record: the scope may report (GL005)."""


def _bound_names(target) -> list[str]:
    """The names a binding of ``target`` rebinds (``Walker.bind``): a name or attribute chain,
    and those of a tuple's or list's elements; a subscript rebinds nothing."""
    kind = type(target)
    if kind is ast.Name or kind is ast.Attribute:
        name = _dotted(target)
        return [name] if name else []
    if kind is ast.Tuple or kind is ast.List:
        return [n for element in target.elts for n in _bound_names(element)]
    if kind is ast.Starred:
        return _bound_names(target.value)
    return []


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
