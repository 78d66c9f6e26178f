"""What the names of one module are bound to by its imports: ``th`` → ``torch``,
``F`` → ``torch.nn.functional``, ``no_grad`` → ``torch.no_grad``.

A per-module table, not a whole-program resolver: gradlint never follows imports into other
files.
"""
from __future__ import annotations

import ast


def dotted(expr: ast.AST | None) -> str | None:
    """``a.b.c`` for a chain of names and attributes; None for anything else."""
    parts: list[str] = []
    while type(expr) is ast.Attribute:
        parts.append(expr.attr)
        expr = expr.value
    if type(expr) is not ast.Name:
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


class ImportTable:
    """Local name → fully qualified name, from every import statement in the module."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if type(node) is ast.Import:
            for alias in node.names:
                if alias.asname is not None:
                    self.names[alias.asname] = alias.name
                else:  # `import torch.nn` binds `torch`
                    head = alias.name.split(".")[0]
                    self.names.setdefault(head, head)
            return
        if node.level or node.module is None:
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            self.names[alias.asname or alias.name] = f"{node.module}.{alias.name}"

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
    from gradlint.analysis.tree import iter_nodes

    table = ImportTable()
    for node in iter_nodes(module):
        if type(node) is ast.Import or type(node) is ast.ImportFrom:
            table.add(node)
    return table
