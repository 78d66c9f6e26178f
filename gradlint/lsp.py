"""``gradlint lsp``: the static pass as a language server, over standard input and output.

Diagnostics are published when a Python document is opened or saved, and 300 ms after the last
change while it is being edited (a newer change cancels the pending lint). Each lint reads the
document's current text with the project's settings: the nearest ``[tool.gradlint]`` above the
file (select, ignore, per-file-ignores), and no diagnostics at all for a file that ``gradlint
check`` would pass by in a folder search (excluded, gitignored, in a virtualenv). A config that
cannot be used is shown as one diagnostic at the top of the document, never a crash. A quick fix
adds ``# noqa: GLxxx`` to the finding's line (``gradlint.noqa.line_edit``).

Positions: a ``Finding`` is 1-based with an exclusive end column counted in code points; LSP is
0-based and counts in the position encoding negotiated at initialize (UTF-16 code units unless
the client offers UTF-8 or UTF-32). Documents are synchronised in full, and lines are split at
``\\r\\n``, ``\\r`` and ``\\n`` only, as Python and LSP split them (pygls's incremental sync
splits with ``str.splitlines``, which also breaks at form feeds and U+2028).

Needs pygls (``pip install pygls``); nothing else in gradlint imports this module.
"""
from __future__ import annotations

import asyncio
import functools
import gc
import logging
import re
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from gradlint import __version__, config as config_file, engine, noqa
from gradlint.discovery import passed_by
from gradlint.finding import Finding, Severity
from gradlint.rule import BY_CODE

DEBOUNCE = 0.3  # seconds after the last change before a document being edited is linted
SOURCE = "gradlint"
PYTHON_SUFFIXES = (".py", ".pyi")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning}


class GradlintServer(LanguageServer):
    """The server: per-document pending lints, and the findings last published for each."""

    def __init__(self) -> None:
        super().__init__("gradlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.pending: dict[str, asyncio.Task] = {}
        self.shown: set[str] = set()  # messages already shown in a popup: each one once
        self.shut_down = False
        self.last: dict[str, tuple[tuple[str, frozenset[str] | None], list[Finding]]] = {}

    # -- linting --------------------------------------------------------------------------------

    def lint_now(self, uri: str) -> None:
        """Lint the document as it is and publish the result, superseding a pending lint."""
        self.cancel(uri)
        document = self.workspace.get_text_document(uri)
        if not _is_python(document):
            return
        text = document.source
        lines = split_lines(text)
        diagnostics = [diagnostic(finding, lines, self.workspace.position_encoding)
                       for finding in self.findings(uri, text)]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version, diagnostics=diagnostics))

    def lint_later(self, uri: str) -> None:
        self.cancel(uri)
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_after(uri, DEBOUNCE))

    async def _lint_after(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        del self.pending[uri]  # before linting, so lint_now's cancel() cannot cancel this task
        self.lint_now(uri)

    def cancel(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()

    def findings(self, uri: str, text: str) -> list[Finding]:
        """The findings for ``text``, the current text of ``uri``. A config or internal error is
        told to the user (a popup, once per message) and becomes a finding at the top of the
        document, so the editor shows why nothing else is reported."""
        path = _fs_path(uri)
        try:
            codes = codes_for(path, self._workspace_root(path))
            # A save or a quick fix right after the debounced lint asks about the same text with
            # the same settings: the answer is known.
            known = self.last.get(uri)
            if known is not None and known[0] == (text, codes):
                return known[1]
            found = [] if codes is None else engine.lint_source(text, _name(path), codes)
        except config_file.ConfigError as err:
            return [self._trouble(f"gradlint: config error: {err}", "config")]
        except Exception as err:  # a bug in a check must not take the editor's server down
            return [self._trouble(f"gradlint: internal error: {type(err).__name__}: {err} "
                                  "(please report this)", "internal")]
        self.last[uri] = ((text, codes), found)
        return found

    def _trouble(self, message: str, code: str) -> Finding:
        if message not in self.shown:
            self.shown.add(message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))
        return Finding(path="", line=1, column=1, code=code, end_line=1, end_column=1, name=code,
                       message=message, severity=Severity.ERROR)

    def _workspace_root(self, path: Path | None) -> Path | None:
        """The workspace folder holding ``path`` (the deepest), else the workspace's root."""
        folders = [Path(p) for p in (to_fs_path(f.uri) for f in self.workspace.folders.values()) if p]
        if path is not None:
            holding = [f for f in folders if path.is_relative_to(f)]
            if holding:
                return max(holding, key=lambda f: len(f.parts))
        root = self.workspace.root_path
        return Path(root) if root else None


def codes_for(path: Path | None, workspace_root: Path | None = None) -> frozenset[str] | None:
    """The rules to run on the document at ``path``; None when a folder search would pass the
    file by (excluded, gitignored, in a virtualenv).

    ``path`` None is an unsaved buffer, judged by the settings found from ``workspace_root``
    (else from the current directory). The config is read afresh each time (well under a
    millisecond), so an edited ``pyproject.toml`` applies from the next lint. Raises
    ``config.ConfigError`` for a config that cannot be used.
    """
    folder = path.parent if path is not None else workspace_root
    config = config_file.load(start=folder)
    if path is not None:
        # Without a config, a search would start at the workspace (or the file's own folder).
        root = config.root if config.path is not None else (
            workspace_root if workspace_root is not None and path.is_relative_to(workspace_root)
            else path.parent)
        if passed_by(path, config.exclude, config.extend_exclude, root):
            return None
    return config.codes_for(_name(path), config.codes())


def _name(path: Path | None) -> str:
    return str(path) if path is not None else "-"


def split_lines(text: str) -> list[str]:
    """The document's lines without their breaks, split where Python and LSP split them."""
    return _LINE_BREAK.split(text)


def diagnostic(finding: Finding, lines: list[str], encoding: str | None = None) -> types.Diagnostic:
    """The LSP diagnostic for a finding in a document of these ``lines`` (``split_lines``), its
    columns in ``encoding``'s units."""
    href = _doc_uri(finding.code)
    message = finding.message + (f"\nhint: {finding.hint}" if finding.hint else "")
    return types.Diagnostic(
        range=to_range(finding, lines, encoding),
        message=message,
        severity=_SEVERITY[finding.severity],
        source=SOURCE,
        code=finding.code,
        code_description=types.CodeDescription(href=href) if href is not None else None,
    )


@functools.lru_cache(maxsize=None)
def _doc_uri(code: str) -> str | None:
    """The rule's page shipped with this install (rules/GLxxx-name.md), as a file URI."""
    rule = BY_CODE.get(code)
    doc = rule.doc_path if rule is not None else None
    return doc.as_uri() if doc is not None else None


def to_range(finding: Finding, lines: list[str], encoding: str | None = None) -> types.Range:
    """A finding's range in LSP terms: 0-based lines, columns in the encoding's code units."""
    return types.Range(
        start=_position(lines, finding.line - 1, finding.column - 1, encoding),
        end=_position(lines, finding.end_line - 1, finding.end_column - 1, encoding),
    )


def _position(lines: list[str], line: int, column: int, encoding: str | None) -> types.Position:
    if line >= len(lines):  # past the end (a syntax error at EOF): the end of the last line
        line = len(lines) - 1
        column = len(lines[line])
    line, column = max(line, 0), max(column, 0)
    return types.Position(line=line, character=units(lines[line][:column], encoding))


def units(text: str, encoding: str | None = None) -> int:
    """How many code units ``text`` takes in an LSP position encoding (default UTF-16)."""
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def quick_fixes(uri: str, text: str, findings: list[Finding], wanted: types.Range,
                shown: list[types.Diagnostic], encoding: str | None = None) -> list[types.CodeAction]:
    """An "Add `# noqa: GLxxx`" action for each finding that overlaps ``wanted`` or that the
    client listed among the diagnostics it asks about (``shown``: Neovim sends the cursor line's)."""
    listed = {(d.code, _key(d.range)) for d in shown if d.source == SOURCE}
    lines = split_lines(text)
    actions = []
    for finding in findings:
        where = to_range(finding, lines, encoding)
        if (finding.code, _key(where)) not in listed and not _overlaps(where, wanted):
            continue
        edit = noqa.line_edit(text, finding)
        if edit is None:  # no line of the range ends in code (inside a multi-line string)
            continue
        number, new_line = edit
        old_line = lines[number - 1]
        replaced = types.Range(start=types.Position(line=number - 1, character=0),
                               end=types.Position(line=number - 1, character=units(old_line, encoding)))
        actions.append(types.CodeAction(
            title=f"Add `# noqa: {finding.code}`",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic(finding, lines, encoding)],
            edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=replaced, new_text=new_line)]}),
        ))
    return actions


def _key(rng: types.Range) -> tuple[int, int, int, int]:
    return rng.start.line, rng.start.character, rng.end.line, rng.end.character


def _overlaps(a: types.Range, b: types.Range) -> bool:
    a_start, a_end = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b_start, b_end = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a_start <= b_end and b_start <= a_end


def _is_python(document) -> bool:
    return document.language_id == "python" or document.uri.endswith(PYTHON_SUFFIXES)


def _fs_path(uri: str) -> Path | None:
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(path) if path else None


def build_server() -> GradlintServer:
    server = GradlintServer()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: GradlintServer, params: None) -> None:
        ls.shut_down = True

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GradlintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.lint_now(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GradlintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.lint_later(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: GradlintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.lint_now(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GradlintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.cancel(params.text_document.uri)
        ls.last.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(ls: GradlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        only = params.context.only
        quick_fix = types.CodeActionKind.QuickFix
        if only and not any(quick_fix == kind or quick_fix.startswith(f"{kind}.") for kind in only):
            return []
        uri = params.text_document.uri
        document = ls.workspace.get_text_document(uri)
        if not _is_python(document):
            return []
        # The current text: it may have changed since the last diagnostics were published.
        text = document.source
        found = [f for f in ls.findings(uri, text) if f.code in BY_CODE]
        return quick_fixes(uri, text, found, params.range, params.context.diagnostics,
                           ls.workspace.position_encoding)

    return server


class _OneLine(logging.Formatter):
    """pygls's complaints (a message it cannot parse) as one line on stderr, the editor's log:
    the error in its own words, not its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message += f": {type(error).__name__}: {error}"
        return f"gradlint lsp: {message}"


def serve() -> int:
    """Speak LSP on standard input and output until the client says exit (or goes away).

    Returns the exit status LSP asks for: 0 after a shutdown request, 1 without one.
    """
    stdout = sys.stdout.buffer
    # The protocol owns standard output: a stray print anywhere would corrupt it.
    sys.stdout = sys.stderr
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    log = logging.getLogger("pygls")
    log.addHandler(handler)
    log.setLevel(logging.WARNING)
    log.propagate = False
    server = build_server()
    # What is loaded by now lives as long as the server: the collector need not walk it again
    # during every lint (a few ms of each one).
    gc.freeze()
    server.start_io(sys.stdin.buffer, stdout)
    return 0 if server.shut_down else 1
