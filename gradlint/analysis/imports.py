"""What the names of one module are bound to by its imports: ``th`` → ``torch``,
``F`` → ``torch.nn.functional``, ``no_grad`` → ``torch.no_grad``.

A per-module table. Where each name came from (``sources``, relative imports included) is kept
for ``project.View``, which follows the imports into the project's own files.
"""
from __future__ import annotations

import ast


def dotted(expr: ast.AST | None) -> str | None:
    """``a.b.c`` for a chain of names and attributes; None for anything else."""
    kind = type(expr)
    if kind is ast.Name:
        return expr.id
    if kind is not ast.Attribute:
        return None
    # Kept on the node: the walker and the rules ask it of the same chains many times, and
    # the trees are never changed.
    state = expr.__dict__
    found = state.get("_gradlint_dotted", _UNSET)
    if found is not _UNSET:
        return found
    parts: list[str] = []
    node = expr
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    found = None
    if type(node) is ast.Name:
        parts.append(node.id)
        found = ".".join(reversed(parts))
    state["_gradlint_dotted"] = found
    return found


_UNSET = object()


class ImportTable:
    """Local name → fully qualified name, from every import statement in the module."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        # Local name -> (leading dots, what it was imported as): ``from .blocks import Head``
        # binds ``Head`` to (1, "blocks.Head"); absolute imports have level 0.
        self.sources: dict[str, tuple[int, str]] = {}
        self.modules: set[str] = set()  # `import a.b.c`: the modules imported whole
        # `from .BaseAgent import *`: (leading dots, module) of each star import, in order
        self.stars: list[tuple[int, str]] = []
        self.project = None  # a ``project.View`` when the imports are followed into the project
        self.defined: dict = {}  # the module's own functions, by name

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if type(node) is ast.Import:
            for alias in node.names:
                self.modules.add(alias.name)
                if alias.asname is not None:
                    self.names[alias.asname] = alias.name
                    self.sources[alias.asname] = (0, alias.name)
                else:  # `import torch.nn` binds `torch`
                    head = alias.name.split(".")[0]
                    self.names.setdefault(head, head)
                    self.sources.setdefault(head, (0, head))
            return
        for alias in node.names:
            if alias.name == "*":
                self.stars.append((node.level, node.module or ""))
                continue
            target = f"{node.module}.{alias.name}" if node.module else alias.name
            self.sources[alias.asname or alias.name] = (node.level, target)
            if not node.level and node.module is not None:
                self.names[alias.asname or alias.name] = target

    def target(self, qualname: str) -> tuple[int, str] | None:
        """(leading dots, dotted path) of an imported name as ``qualname`` gives it (after
        ``qualname()`` resolved its head), or None where no import binds its head."""
        head, _, rest = qualname.partition(".")
        source = self.sources.get(head)
        if source is not None and source[0] and head not in self.names:
            level, target = source
            return level, f"{target}.{rest}" if rest else target
        for level, target in self.sources.values():
            if not level and (qualname == target or qualname.startswith(target + ".")):
                return 0, qualname
        return None

    def qualname(self, expr: ast.AST | None) -> str | None:
        """The qualified name of ``expr`` with its head resolved through the imports
        (``th.no_grad`` → ``torch.no_grad``); unimported heads are kept as written."""
        name = dotted(expr)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        full = self.names.get(head, head)
        return f"{full}.{rest}" if rest else full


def collect_imports(module: ast.Module) -> ImportTable:
    from gradlint.analysis.tree import statements

    table = ImportTable()
    # (the module's own functions, by name: a decorator among them may switch recording off)
    table.defined = {s.name: s for s in module.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    for node in statements(module):
        if type(node) is ast.Import or type(node) is ast.ImportFrom:
            table.add(node)
    return table
