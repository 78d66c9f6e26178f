"""What the names of one module are bound to by its imports: ``th`` → ``torch``,
``F`` → ``torch.nn.functional``, ``no_grad`` → ``torch.no_grad``.

A per-module table, not a whole-program resolver: gradlint never follows imports into other
files, and libcst's ``QualifiedNameProvider`` costs more than the parse itself.
"""
from __future__ import annotations

import libcst as cst


def dotted(expr: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes; None for anything else."""
    parts: list[str] = []
    while type(expr) is cst.Attribute:
        parts.append(expr.attr.value)
        expr = expr.value
    if type(expr) is not cst.Name:
        return None
    parts.append(expr.value)
    return ".".join(reversed(parts))


class ImportTable:
    """Local name → fully qualified name, from every import statement in the module."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def add(self, node: cst.Import | cst.ImportFrom) -> None:
        if type(node) is cst.Import:
            for alias in node.names:
                full = dotted(alias.name)
                if full is None:
                    continue
                if alias.asname is not None and type(alias.asname.name) is cst.Name:
                    self.names[alias.asname.name.value] = full
                else:  # `import torch.nn` binds `torch`
                    head = full.split(".")[0]
                    self.names.setdefault(head, head)
            return
        if node.relative or node.module is None or type(node.names) is cst.ImportStar:
            return
        module = dotted(node.module)
        if module is None:
            return
        for alias in node.names:
            name = alias.name.value if type(alias.name) is cst.Name else None
            if name is None:
                continue
            local = alias.asname.name.value if alias.asname is not None and type(alias.asname.name) is cst.Name else name
            self.names[local] = f"{module}.{name}"

    def qualname(self, expr: cst.BaseExpression) -> str | None:
        """The qualified name of ``expr`` with its head resolved through the imports
        (``th.no_grad`` → ``torch.no_grad``); unimported heads are kept as written."""
        name = dotted(expr)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        full = self.names.get(head, head)
        return f"{full}.{rest}" if rest else full


def collect_imports(module: cst.Module) -> ImportTable:
    from gradlint.analysis.tree import iter_nodes

    table = ImportTable()
    for node in iter_nodes(module):
        if type(node) in (cst.Import, cst.ImportFrom):
            table.add(node)
    return table
