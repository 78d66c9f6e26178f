"""Findings for a person at a terminal: the header line, the source line with carets under the
finding, then the hint and the dynamic verdict.

    model.py:12:12: GL001 the loss is detached ...
       12 |     return out.detach()
          |            ^^^^^^^^^^^^
      hint: ...

A notebook's finding is headed ``train.ipynb:cell 3:4:5:`` and quotes line 4 of cell 3.

rich colours it on a terminal and writes plain text anywhere else (and under ``NO_COLOR``).
"""
from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

from gradlint.finding import Finding, Severity

_NEWLINE = re.compile(r"\r\n|\r|\n")  # what the parser counts as a line break
_CODE_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow"}
_GUTTER = "blue"
_VERDICT_STYLE = {"confirmed": "bold red", "dismissed": "bold green"}


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    # soft_wrap: a long source line must stay one line, or the carets stop lining up with it.
    console = Console(file=out, highlight=False, markup=False, emoji=False, soft_wrap=True)
    lines_by_key: dict = {}
    for index, finding in enumerate(findings):
        if index:
            console.print()
        console.print(_header(finding))
        key = finding.source_key  # a notebook's finding is quoted from its cell
        if key not in lines_by_key:
            lines_by_key[key] = _NEWLINE.split(sources.get(key, ""))
        for row in _snippet(finding, lines_by_key[key]):
            console.print(row)
        if finding.hint:
            console.print(Text.assemble("  ", ("hint", "bold cyan"), f": {finding.hint}"))
        if finding.verdict is not None:
            verdict = finding.verdict
            console.print(Text.assemble(
                "  ", ("dynamic", "bold magenta"), ": ", (verdict.status, _VERDICT_STYLE.get(verdict.status, "bold")),
                f": {verdict.evidence}",
            ))
            if verdict.graph:
                # Drawn wide, so deep records are not cut at the terminal's edge, then printed
                # row by row without the padding rich adds to make every row one width.
                buffer = io.StringIO()
                Console(file=buffer, width=1000, force_terminal=console.is_terminal,
                        color_system=console.color_system, no_color=console.no_color,
                        highlight=False).print(_graph(verdict.graph))
                for row in buffer.getvalue().splitlines():
                    console.print(Text.from_ansi(row.rstrip()))


def _header(finding: Finding) -> Text:
    return Text.assemble(
        (f"{finding.location}:", "bold"),
        " ",
        (finding.code, _CODE_STYLE.get(finding.severity, "bold")),
        " ",
        finding.message,
    )


def _snippet(finding: Finding, lines: list[str]) -> list[Text]:
    """The finding's first source line and a caret line under its columns; none if unknown."""
    if not 1 <= finding.line <= len(lines) or not lines[finding.line - 1].strip():
        return []
    source = lines[finding.line - 1]
    start = min(finding.column - 1, len(source))
    end = finding.end_column - 1 if finding.end_line == finding.line else len(source)
    # Tabs copied, not turned into spaces: rich expands both lines' tabs to the same stops.
    pad = "".join("\t" if char == "\t" else " " for char in source[:start])
    number = str(finding.line)
    return [
        Text.assemble((f"  {number} | ", _GUTTER), source),
        Text.assemble((f"  {' ' * len(number)} | ", _GUTTER), pad, ("^" * max(end - start, 1), "bold red")),
    ]


def _graph(graph: dict):
    """The autograd record of the root that decided a verdict, as a tree; leaves that should
    have received a gradient but are not in it are listed under the root, marked."""
    from rich.padding import Padding
    from rich.tree import Tree

    def add(parent, node):
        for child in node.get("children", []):
            label = child["label"]
            style = "cyan" if label.startswith("AccumulateGrad") else ""
            add(parent.add(Text(label, style=style)), child)

    from rich.console import Group

    tree = Tree(Text(graph["label"], style="bold"), guide_style="dim")
    add(tree, graph)
    # Listed after the tree, not in it: they are exactly what this record does not reach.
    names = sorted(graph.get("unreachable", []))
    missing = [Text(f"✗ {name}: not in this record, gets no gradient from it", style="bold red")
               for name in (names if len(names) <= 8 else names[:6])]
    if len(names) > 8:
        missing.append(Text(f"✗ … and {len(names) - 6} more leaves not in this record", style="bold red"))
    return Padding(Group(tree, *missing), (0, 0, 0, 4), expand=False)
