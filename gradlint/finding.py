"""What a rule reports: a finding at a source range, with an optional dynamic verdict.

Lines and columns are 1-based, as editors and ``path:line:col`` output show them; ``end_column``
is exclusive. In a notebook, ``cell`` is the 1-based position of the code cell among *all* the
notebook's cells, markdown ones included (``cell 3`` is the third cell from the top, as ruff
numbers them; Jupyter's execution counts ``[3]`` change with every run and are not used), and
the lines are the cell's own; elsewhere ``cell`` is None.
Findings sort by (path, cell, line, column, code), so output order never depends on the order in
which rules or files ran.
"""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


STATUSES = ("confirmed", "dismissed", "inconclusive", "not-reached", "error")


@dataclass(frozen=True)
class Verdict:
    """The dynamic pass's conclusion on one finding (filled in by ``--dynamic``)."""

    status: str  # confirmed | dismissed | not-reached | inconclusive | error
    evidence: str  # one sentence naming the tensors and lines that decided it
    # The record of the root that decided it, for --show-graph: {"label", "children": [...],
    # "unreachable": [leaf names]}; None unless asked for.
    graph: dict | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    cell: int | None = field(default=None, kw_only=True)
    line: int
    column: int
    code: str
    end_line: int
    end_column: int
    name: str = field(compare=False)
    message: str = field(compare=False)
    hint: str = field(compare=False, default="")
    severity: Severity = field(compare=False, default=Severity.WARNING)
    verdict: Verdict | None = field(compare=False, default=None)
    # What the dynamic pass needs to probe the site: the names involved, keyed by role
    # (e.g. {"tensor": "h", "cut": ".detach()", "saved_by": "pow", "saved_line": "12"}).
    details: dict = field(compare=False, default_factory=dict, hash=False)

    @property
    def location(self) -> str:
        """``path:line:col``, or ``path:cell N:line:col`` in a notebook (ruff's spelling)."""
        cell = "" if self.cell is None else f"cell {self.cell}:"
        return f"{self.path}:{cell}{self.line}:{self.column}"

    @property
    def source_key(self) -> str | tuple[str, int]:
        """Where the text this finding's lines count in is kept in a run's ``sources``: the
        path for a file, (path, cell) for a notebook's cell."""
        return self.path if self.cell is None else (self.path, self.cell)

    def to_json(self) -> dict:
        data = asdict(self)
        if self.cell is None:
            del data["cell"]
        data["severity"] = self.severity.value
        if self.verdict is not None and self.verdict.graph is None:
            del data["verdict"]["graph"]
        return data
