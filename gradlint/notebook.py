"""Jupyter notebooks: the Python code cells of an ``.ipynb`` file as one module, and the way back.

The notebook's JSON (nbformat 4) is read with the standard library: a notebook is a dict whose
``cells`` each have a ``cell_type`` and a ``source`` (a string, or a list of strings to be
concatenated), which is all the linter needs; nbformat's schema validation would only turn
notebooks Jupyter opens fine into errors. A notebook whose kernel is not Python
(``metadata.kernelspec.language`` or ``metadata.language_info.name``, e.g. R or Julia) has no
module: it is skipped, not reported.

The code cells are joined, one line of the module per line of a cell, in notebook order, so a
line of the module is always one line of one cell (``Notebook.locate``). IPython syntax that is
not Python is masked line for line, so the module parses and keeps every line where it was:

- line magics and shell escapes at the start of a statement (``%matplotlib inline``,
  ``!pip install torch``, ``x = !ls``, ``t = %timeit -o f()``), help (``obj?``, ``??obj``) and
  autocall (``/f x``) become ``pass`` at the line's indentation (a blank line would leave an
  ``if`` without a body); so do ``from __future__`` imports, valid atop each cell but not in the
  middle of one module, and, in a cell that does not parse otherwise, magics written without
  their ``%`` (IPython's automagic: ``pip install torch``, ``cd data``); the lines such a line
  continues with a trailing backslash (``!python run.py \\`` then ``    --epochs 3``) are part
  of it and are blanked;
- a cell magic whose body is Python (``%%time``, ``%%capture`` ...) loses its first line only;
  any other cell magic (``%%bash``, ``%%writefile``, ``%%html``) is not Python: the whole cell is
  blanked.

A cell that still does not parse is blanked too and listed in ``Notebook.unparsable`` (the
caller reports it as GL000 in that cell), so one broken cell costs that cell only.

Cells are numbered as ruff numbers them: by their 1-based position among *all* the notebook's
cells, markdown included, which is the order a user counts them in Jupyter (execution counts,
``[3]``, change with every run and are not used).
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

SUFFIX = ".ipynb"

_NEWLINE = re.compile(r"\r\n|\r|\n")  # what the parser counts as a line break
_INDENT = re.compile(r"[ \t\f]*")
# At the start of a statement: %magic, %%magic, !shell, ?help / ??help, and autocall's
# /f x → f(x), ,f a b → f("a", "b"), ;f a b → f("a b").
_MAGIC_START = re.compile(r"[%!?/,;]")
# ``x = !ls``, ``a, b = %sx ls``, ``self.out = !cmd`` (IPython's assignment forms).
_ASSIGN_MAGIC = re.compile(r"[\w.\[\], ]+=[ \t]*[!%]")
# ``obj?``, ``obj.attr??``, ``np.*load*?``, ``%timeit?``: help at the end of a line.
_HELP_END = re.compile(r"%{0,2}[\w.*]+\?{1,2}")
_FUTURE = re.compile(r"from[ \t]+__future__[ \t]+import[ \t]+[\w, \t]+(#.*)?")
# Line magics IPython runs without their ``%`` (automagic), tried only in a cell that does not
# parse otherwise.
AUTOMAGICS = frozenset({
    "alias", "autoawait", "autocall", "automagic", "autoreload", "bookmark", "cat", "cd", "conda",
    "config", "cp", "debug", "env", "history", "load", "load_ext", "ls", "matplotlib", "mkdir",
    "mv", "pdb", "pip", "precision", "prun", "pwd", "pylab", "reload_ext", "reset", "rm", "rmdir",
    "run", "save", "set_env", "store", "sx", "system", "time", "timeit", "unload_ext", "who",
    "whos", "xmode",
})
# Cell magics that run their body as Python in the kernel: only their first line is IPython.
PYTHON_CELL_MAGICS = frozenset({
    "time", "timeit", "capture", "prun", "debug", "memit", "mprun", "px", "python", "python3",
    "pypy", "snakeviz", "lprun", "scalene", "heat",
})


class NotANotebook(ValueError):
    """The text is not a Jupyter notebook (not JSON, or JSON of another shape); the message
    says why in one line."""


@dataclass
class Notebook:
    """A notebook's Python code cells as one module.

    ``text``: the module (each masked or blanked line keeps its place). ``cells``: each cell's
    own text by cell number, as the user wrote it (for quoting lines in reports). ``unparsable``:
    (cell, line, column, message) for each cell that does not parse, 1-based and cell-relative.
    ``python``: False for a notebook whose kernel is another language; its ``text`` is empty.
    """

    text: str = ""
    cells: dict[int, str] = field(default_factory=dict)
    unparsable: list[tuple[int, int, int, str]] = field(default_factory=list)
    python: bool = True
    _rows: list[tuple[int, int]] = field(default_factory=list, repr=False)  # module line - 1 → (cell, line)

    def locate(self, line: int) -> tuple[int, int]:
        """(cell, line in that cell) for a 1-based line of ``text``; a line past the end (the
        parser's end-of-file position) counts as the last line."""
        if not self._rows:
            return 1, 1
        return self._rows[min(max(line, 1), len(self._rows)) - 1]


def read(source: str | bytes) -> Notebook:
    """The notebook in ``source`` (the ``.ipynb`` file's bytes or text) as one module.

    Raises ``NotANotebook`` for text that is not JSON, or JSON that is not a notebook.
    """
    try:
        data = json.loads(source.decode("utf-8-sig") if isinstance(source, bytes) else source)
    except UnicodeDecodeError as err:
        raise NotANotebook(f"not UTF-8 text: {err.reason} at byte {err.start}") from None
    except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
        raise NotANotebook(f"not valid JSON: {err}") from None
    if isinstance(data, dict) and "worksheets" in data:
        raise NotANotebook("an nbformat 3 notebook; open and save it in Jupyter to upgrade it to nbformat 4")
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotANotebook("not a Jupyter notebook: it has no list of cells")
    notebook = Notebook(python=_is_python(data.get("metadata")))
    if not notebook.python:
        return notebook
    lines: list[str] = []
    for number, cell in enumerate(data["cells"], start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or not _python_cell(cell):
            continue
        text = _source(cell.get("source", ""))
        if text is None:
            raise NotANotebook(f"not a Jupyter notebook: cell {number} has a source that is not text")
        cell_lines = _lines(text)
        if not cell_lines:
            continue
        notebook.cells[number] = text
        masked = mask(cell_lines)
        error = _syntax_error("\n".join(masked) + "\n")
        if error is not None:
            retry = mask(cell_lines, automagic=True)
            if _syntax_error("\n".join(retry) + "\n") is None:
                masked, error = retry, None
        if error is not None and _leading_indent(cell_lines) is not cell_lines:
            # (` x = 1` as a cell's first line: IPython strips that indent from each line that has
            # it and runs the cell; the findings of those lines are that many columns to the left)
            retry = mask(_leading_indent(cell_lines))
            if _syntax_error("\n".join(retry) + "\n") is None:
                masked, error = retry, None
        if error is not None:
            notebook.unparsable.append((number, *error))
            masked = [""] * len(cell_lines)
        lines.extend(masked)
        notebook._rows.extend((number, n) for n in range(1, len(cell_lines) + 1))
    notebook.text = "\n".join(lines) + "\n" if lines else ""
    return notebook


def mask(lines: list[str], automagic: bool = False) -> list[str]:
    """A cell's lines with its IPython syntax masked: the same number of lines, each Python
    line unchanged (see the module docstring for what is masked and how). ``automagic`` also
    masks a statement that starts with a magic's name without its ``%`` (``pip install torch``,
    ``cd ..``) when that line alone is not Python."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = lines[first].lstrip()[2:].split(maxsplit=1)
        if not name or name[0] not in PYTHON_CELL_MAGICS:
            return [""] * len(lines)  # %%bash, %%writefile ...: the body is not Python
        lines = [*lines[:first], "pass", *lines[first + 1:]]
    out = []
    scanner = _Scanner()
    continued = False  # the IPython line before ended with a backslash: this one is part of it
    for line in lines:
        if continued:
            out.append("")  # (`!python run.py \` then `    --epochs 3`: one shell command)
        elif scanner.at_statement_start() and (_is_ipython(line) or automagic and _is_automagic(line)):
            out.append(_INDENT.match(line).group() + "pass")
        else:
            out.append(line)
            scanner.feed(line)
            continue
        continued = line.rstrip("\r\n").endswith("\\")
    return out


def _leading_indent(lines: list[str]) -> list[str]:
    """The cell as IPython runs it when its first line is indented (its ``leading_indent``
    transform): that indent taken off every line that starts with it; else ``lines`` itself."""
    space = lines[0][: len(lines[0]) - len(lines[0].lstrip(" \t"))] if lines[0].strip() else ""
    if not space:
        return lines
    return [line[len(space):] if line.startswith(space) else line for line in lines]


def _is_ipython(line: str) -> bool:
    code = line.strip()
    return bool(code) and bool(
        _MAGIC_START.match(code) or _ASSIGN_MAGIC.match(code) or _HELP_END.fullmatch(code)
        # Valid in a cell, where each cell is compiled alone; not after other code in one module.
        or _FUTURE.fullmatch(code))


def _is_automagic(line: str) -> bool:
    words = line.split(maxsplit=1)
    if not words or words[0] not in AUTOMAGICS:
        return False
    try:
        ast.parse(line.strip())
    except SyntaxError:
        return True
    return False  # ``time = 3``, ``ls``: Python after all


class _Scanner:
    """Where a line starts: at a new statement, or inside brackets, a triple-quoted string or
    after a backslash. Only lines that start a statement can be IPython syntax; a ``!`` or ``%``
    that begins a continuation line (``!= b``, ``% n``) or a line of a docstring is Python."""

    def __init__(self) -> None:
        self.depth = 0  # open brackets
        self.quote: str | None = None  # the open triple quote, if any
        self.continued = False  # the previous line ended with a backslash

    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.continued

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        while i < n:
            if self.quote is not None:
                end = _string_end(line, i, self.quote)
                if end is None:
                    break
                self.quote, i = None, end
                continue
            char = line[i]
            if char == "#":
                n = i  # the comment runs to the end of the line; its backslash continues nothing
                break
            if char in "'\"":
                quote = line[i:i + 3] if line[i:i + 3] in ("'''", '"""') else char
                end = _string_end(line, i + len(quote), quote)
                if end is None:
                    if len(quote) == 3:
                        self.quote = quote
                    break  # a one-line string left open: the line is broken anyway
                i = end
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(self.depth - 1, 0)
            i += 1
        self.continued = self.quote is None and line[:n].rstrip("\r\n").endswith("\\")


def _string_end(line: str, start: int, quote: str) -> int | None:
    """The index just past ``quote`` closing a string at or after ``start``, or None."""
    i = start
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line.startswith(quote, i):
            return i + len(quote)
        i += 1
    return None


def _is_python(metadata) -> bool:
    """False when the notebook says its kernel is another language; no metadata means Python."""
    if not isinstance(metadata, dict):
        return True
    names = [
        (metadata.get("kernelspec") or {}).get("language") if isinstance(metadata.get("kernelspec"), dict) else None,
        (metadata.get("language_info") or {}).get("name") if isinstance(metadata.get("language_info"), dict) else None,
    ]
    return all(not isinstance(name, str) or name.lower().startswith("python") for name in names)


def _python_cell(cell: dict) -> bool:
    # VS Code notebooks can mix languages cell by cell (metadata.vscode.languageId).
    vscode = (cell.get("metadata") or {}).get("vscode") if isinstance(cell.get("metadata"), dict) else None
    language = vscode.get("languageId") if isinstance(vscode, dict) else None
    return not isinstance(language, str) or language.lower() == "python"


def _source(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        return "".join(value)
    return None


def _lines(text: str) -> list[str]:
    """The cell's lines; a final line break ends the last line rather than starting another."""
    if not text.strip():
        return []
    lines = _NEWLINE.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def _syntax_error(text: str) -> tuple[int, int, str] | None:
    try:
        ast.parse(text)
    except SyntaxError as err:
        return err.lineno or 1, err.offset or 1, f"syntax error, the cell was not checked: {err.msg}"
    except (ValueError, RecursionError, MemoryError) as err:  # null bytes, absurd nesting
        return 1, 1, f"the cell was not checked: {err or type(err).__name__}"
    return None
