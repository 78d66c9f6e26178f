"""``gradlint lsp``: the static pass as a language server, over standard input and output.

Diagnostics are published when a Python document is opened or saved, and 300 ms after the last
change while it is being edited. Each lint reads the document's current text with the project's
settings: the nearest ``[tool.gradlint]`` above the file (select, ignore, per-file-ignores), and
no diagnostics at all for a file that ``gradlint check`` would pass by in a folder search
(excluded, gitignored, in a virtualenv). A config that cannot be used is shown as one diagnostic
at the top of the document, never a crash. A quick fix adds ``# noqa: GLxxx`` to the finding's
line (``gradlint.noqa.line_edit``).

The engine runs in child processes (``_Worker``), never on the thread that answers requests: a
document that takes seconds to lint delays no other request, nor shutdown. A newer version of a
document supersedes its pending or running lint, whose result is dropped (a big one is killed),
so diagnostics are never published over newer ones. A worker that linted a big text is replaced,
since a process keeps the memory it once used; the server itself keeps only the texts of open
documents and their last findings, and forgets both at ``didClose``.

A request whose params do not validate is answered with JSON-RPC's InvalidParams error (pygls
raises from inside its JSON decoder, where the request would go unanswered); every log record is
one line on stderr, the editor's log.

Positions: a ``Finding`` is 1-based with an exclusive end column counted in code points; LSP is
0-based and counts in the position encoding negotiated at initialize (UTF-16 code units unless
the client offers UTF-8 or UTF-32). Documents are synchronised in full, and lines are split at
``\\r\\n``, ``\\r`` and ``\\n`` only, as Python and LSP split them (pygls's incremental sync
splits with ``str.splitlines``, which also breaks at form feeds and U+2028).

Needs pygls (``pip install pygls``); nothing else in gradlint imports this module.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import os
import pickle
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from cattrs.errors import BaseValidationError
from cattrs.v import format_exception, transform_error
from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path

from gradlint import DISTRIBUTION, __version__, config as config_file, noqa
from gradlint.discovery import passed_by
from gradlint.finding import Finding, Severity
from gradlint.rule import BY_CODE

DEBOUNCE = 0.3  # seconds after the last change before a document being edited is linted
SOURCE = "gradlint"
PYTHON_SUFFIXES = (".py", ".pyi")
WORKERS = 2  # lint processes at most: a big document being linted leaves one for the others
# A text longer than this (~3,000 lines) is big: its worker is replaced once it is done, and
# killed if a newer text supersedes it. A smaller lint is left to finish (tens of ms), cheaper
# than starting a process again.
BIG = 100_000

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning}
log = logging.getLogger(__name__)

Key = tuple[str, frozenset[str]]  # a text and the rules to run on it


class GradlintServer(LanguageServer):
    """The server: per-document publishing tasks, the lint running for each document, and the
    findings of the last lint of each."""

    def __init__(self) -> None:
        super().__init__("gradlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full,
                         protocol_cls=_Protocol)
        self.pending: dict[str, asyncio.Task] = {}  # uri → the task that will publish its diagnostics
        self.running: dict[str, _Lint] = {}  # uri → the lint of its latest text, while it runs
        self.last: dict[str, tuple[Key, list[Finding]]] = {}
        self.shown: set[str] = set()  # messages already shown in a popup: each one once
        self.shut_down = False
        self.workers = _Workers()

    # -- linting --------------------------------------------------------------------------------

    def lint_now(self, uri: str) -> None:
        """Lint the document as it is and publish the result, superseding a pending publication
        (a lint of the same text already running is awaited, not started again)."""
        self._schedule(uri, 0)

    def lint_later(self, uri: str) -> None:
        self._schedule(uri, DEBOUNCE)

    def _schedule(self, uri: str, delay: float) -> None:
        self.cancel(uri)
        self.pending[uri] = asyncio.get_running_loop().create_task(self._publish(uri, delay))

    def cancel(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()

    def supersede(self, uri: str) -> None:
        """The document's text changed (or it closed): what was on its way for the old text is
        dropped, and its running lint stopped."""
        self.cancel(uri)
        running = self.running.pop(uri, None)
        if running is not None:
            running.task.cancel()

    async def _publish(self, uri: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            document = self.workspace.text_documents.get(uri)
            if document is None or not _is_python(document):
                return
            version, text = document.version, document.source
            found = await self.findings(uri, text)
            current = self.workspace.text_documents.get(uri)
            if found is None or current is None or (current.version, current.source) != (version, text):
                return  # a newer text's diagnostics are on their way
            lines = split_lines(text)
            diagnostics = [diagnostic(finding, lines, self.workspace.position_encoding) for finding in found]
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=diagnostics))
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def findings(self, uri: str, text: str) -> list[Finding] | None:
        """The findings for ``text``, the current text of ``uri``; None if a newer text
        superseded it meanwhile. A config or internal error is told to the user (a popup, once
        per message) and becomes a finding at the top of the document, so the editor shows why
        nothing else is reported."""
        path = _fs_path(uri)
        try:
            codes = codes_for(path, self._workspace_root(path))
        except config_file.ConfigError as err:
            return [self._trouble(f"gradlint: config error: {err}", "config")]
        except Exception as err:  # a bug must not take the editor's server down
            return [self._internal(f"{type(err).__name__}: {err}")]
        if codes is None:
            return []
        key = (text, codes)
        # A save or a quick fix right after the debounced lint asks about the same text with
        # the same settings: the answer is known, or on its way.
        known = self.last.get(uri)
        if known is not None and known[0] == key:
            return known[1]
        running = self.running.get(uri)
        if running is None or running.key != key:
            if running is not None:
                running.task.cancel()
            running = self._start(uri, key, _name(path))
        # shield: a request that stops waiting must not stop the lint others wait for.
        return await asyncio.shield(running.result)

    def _start(self, uri: str, key: Key, name: str) -> _Lint:
        loop = asyncio.get_running_loop()
        lint = _Lint(key, loop.create_future(), loop.create_task(self.workers.lint(key[0], name, key[1])))
        self.running[uri] = lint

        def done(task: asyncio.Task) -> None:
            if self.running.get(uri) is lint:
                del self.running[uri]
            if task.cancelled():
                found = None
            elif task.exception() is not None:
                error = task.exception()
                found = [self._internal(str(error) if isinstance(error, LintFailed)
                                        else f"{type(error).__name__}: {error}")]
            else:
                found = task.result()
                if uri in self.workspace.text_documents:  # nothing kept for a closed document
                    self.last[uri] = (key, found)
            lint.result.set_result(found)

        lint.task.add_done_callback(done)
        return lint

    def _internal(self, error: str) -> Finding:
        return self._trouble(f"gradlint: internal error: {error} (please report this)", "internal")

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
    href = rule_link(finding.code)
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
def rule_link(code: str) -> str | None:
    """Where the editor links a rule's code: its page in the project's repository when the
    project's URL is a GitHub or GitLab repository, else that URL; None when the installed
    metadata names none. Never the page inside the install: a ``file://`` link into
    site-packages opens a Markdown file the user should not edit, or nothing."""
    rule = BY_CODE.get(code)
    urls = project_urls()
    if rule is None or not urls:
        return None
    page = f"rules/{rule.code}-{rule.name}.md"
    for url in urls:
        parts = urlsplit(url)
        repository = parts.path.strip("/").removesuffix(".git")
        if parts.netloc == "github.com" and repository.count("/") == 1:
            return f"https://github.com/{repository}/blob/HEAD/{page}"
        if parts.netloc == "gitlab.com" and repository.count("/") >= 1:
            return f"https://gitlab.com/{repository}/-/blob/HEAD/{page}"
    return urls[0]


_URL_LABELS = ("homepage", "home", "repository", "source", "source code", "documentation", "docs")


@functools.lru_cache(maxsize=None)
def project_urls() -> tuple[str, ...]:
    """The project's pages from the installed distribution's metadata (``[project.urls]``), in
    their order. The distribution is the one whose ``gradlint`` command runs this package: it
    is autograd-gradlint, was gradlint, and PyPI's gradlint is another project."""
    from importlib import metadata  # here: the server pays for it once, at the first diagnostic

    for name in (DISTRIBUTION, "gradlint"):
        try:
            found = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if not any(point.value.partition(":")[0] == "gradlint.cli" for point in found.entry_points):
            continue
        urls = []
        for entry in found.metadata.get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip().lower() in _URL_LABELS and url.strip().startswith(("https://", "http://")):
                urls.append(url.strip())
        return tuple(urls)
    return ()


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

    @server.feature(types.INITIALIZED)
    def initialized(ls: GradlintServer, params: types.InitializedParams) -> None:
        ls.workers.warm()  # the engine's import (a second or so) is paid before the first open

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: GradlintServer, params: None) -> None:
        ls.shut_down = True
        for uri in [*ls.pending, *ls.running]:
            ls.supersede(uri)
        ls.workers.close()

    @server.feature(types.EXIT)
    def exit_(ls: GradlintServer, params: None) -> None:
        ls.workers.close()  # without a shutdown first, too

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GradlintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.supersede(params.text_document.uri)
        ls.lint_now(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GradlintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.supersede(params.text_document.uri)
        ls.lint_later(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: GradlintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.lint_now(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GradlintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.supersede(params.text_document.uri)
        ls.last.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_action(ls: GradlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
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
        found = await ls.findings(uri, text)
        if found is None:  # the text changed while it was linted: the client will ask again
            return []
        return quick_fixes(uri, text, [f for f in found if f.code in BY_CODE], params.range,
                           params.context.diagnostics, ls.workspace.position_encoding)

    return server


@dataclass
class _Lint:
    """One text's lint: ``result`` gets its findings, or None if it was cancelled."""

    key: Key
    result: asyncio.Future
    task: asyncio.Task


class LintFailed(Exception):
    """The engine raised, or its process ended before it answered."""


# The worker's program. It imports what the server imports (the server's sys.path: not the
# folder the editor started it in), the engine only (not pygls); ignores Ctrl-C (the server's to
# handle), and ends with the server (on Linux, however the server ends; elsewhere at its next
# read). Requests and answers are pickles: (text, name, codes) → ("ok", findings) or ("error", why).
_WORKER_PROGRAM = """\
import json, pickle, signal, sys
sys.path[:] = json.loads(sys.argv[2])
signal.signal(signal.SIGINT, signal.SIG_IGN)
try:
    from gradlint.parallel import _end_with_parent
    _end_with_parent(int(sys.argv[1]))
    from gradlint import engine
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    while True:
        try:
            text, name, codes = pickle.load(requests)
        except EOFError:
            break
        try:
            answer = ("ok", engine.lint_source(text, name, codes))
        except Exception as err:
            answer = ("error", f"{type(err).__name__}: {err}")
        del text
        pickle.dump(answer, answers, pickle.HIGHEST_PROTOCOL)
        answers.flush()
except BrokenPipeError:
    pass
except Exception as err:
    sys.exit(f"gradlint lsp: the lint process failed: {type(err).__name__}: {err}")
"""


class _Worker:
    """A child process that lints the texts it is sent, one at a time. The memory a parse takes
    and any crash of the engine stay there."""

    def __init__(self) -> None:
        # stderr is the server's: the editor's log.
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", _WORKER_PROGRAM, str(os.getpid()), json.dumps(sys.path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def lint(self, text: str, name: str, codes: frozenset[str]) -> list[Finding]:
        """Blocks until the answer comes; raises LintFailed."""
        try:
            pickle.dump((text, name, codes), self.process.stdin, pickle.HIGHEST_PROTOCOL)
            self.process.stdin.flush()
            status, value = pickle.load(self.process.stdout)
        except Exception:  # it ended (killed, crashed) or wrote something else than an answer
            self.kill()
            code = self.process.wait()
            raise LintFailed(f"the lint process ended ({_status(code)}) before it answered") from None
        if status != "ok":
            raise LintFailed(value)
        return value

    def kill(self) -> None:
        # The thread waiting on it, if any, sees the end of its output and reaps it.
        with contextlib.suppress(OSError):
            self.process.kill()


def _status(code: int) -> str:
    return f"signal {-code}" if code < 0 else f"exit status {code}"


class _Workers:
    """At most ``WORKERS`` worker processes, started when needed, one kept warm."""

    def __init__(self) -> None:
        self.idle: list[_Worker] = []
        self.busy: set[_Worker] = set()
        self.slots: asyncio.Semaphore | None = None  # made in the server's event loop
        self.closed = False

    def warm(self) -> None:
        if not self.idle and not self.closed:
            self.idle.append(_Worker())

    async def lint(self, text: str, name: str, codes: frozenset[str]) -> list[Finding]:
        """The findings; raises LintFailed. Cancelled, a big lint's worker is killed."""
        if self.slots is None:
            self.slots = asyncio.Semaphore(WORKERS)
        await self.slots.acquire()  # released when the worker is free again, not before
        if self.closed:
            self.slots.release()
            raise asyncio.CancelledError  # shutting down: nothing is published any more
        try:
            worker = self.idle.pop() if self.idle else _Worker()
        except BaseException:
            self.slots.release()
            raise
        self.busy.add(worker)
        big = len(text) > BIG
        loop = asyncio.get_running_loop()
        answer = loop.create_future()

        def finish(outcome: tuple[bool, object]) -> None:
            self.busy.discard(worker)
            self.slots.release()
            if big or not outcome[0] or self.closed:
                # A process keeps the memory a big parse took: the next lint gets a new one.
                worker.kill()
                self.warm()
            else:
                self.idle.append(worker)
            if not answer.done():
                answer.set_result(outcome)

        def run() -> None:
            try:
                outcome = (True, worker.lint(text, name, codes))
            except Exception as err:
                outcome = (False, err)
            with contextlib.suppress(RuntimeError):  # the server's loop has ended
                loop.call_soon_threadsafe(finish, outcome)

        # A thread of its own, a daemon: a worker being waited for must never hold up the exit.
        threading.Thread(target=run, name="gradlint-lint", daemon=True).start()
        try:
            ok, value = await answer
        except asyncio.CancelledError:
            if big:
                worker.kill()  # else it finishes in the background and is idle again
            raise
        if not ok:
            raise value
        return value

    def close(self) -> None:
        self.closed = True
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.idle.clear()


class _Invalid:
    """A message whose params do not validate: to be answered (a request) or logged."""

    def __init__(self, data: dict, error: str) -> None:
        self.id = data.get("id")
        self.method = data.get("method")
        self.error = error


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, except that a message whose params do not validate is answered as
    JSON-RPC asks: a request gets error -32602 (InvalidParams) with its id, a notification is one
    line in the log. pygls raises from inside its JSON decoder's hook, where the request is lost."""

    def structure_message(self, data: dict):
        method = data.get("method") if "jsonrpc" in data else None
        message_type = self.get_message_type(method) if isinstance(method, str) else None
        if message_type is None:
            return super().structure_message(data)
        try:
            return self._converter.structure(data, message_type)
        except Exception as err:
            return _Invalid(data, _validation_error(err))

    def handle_message(self, message) -> None:
        if not isinstance(message, _Invalid):
            super().handle_message(message)
            return
        request = isinstance(message.id, (int, str)) and not isinstance(message.id, bool)
        log.warning("%s%s: invalid params: %s", message.method,
                    f" (request {message.id})" if request else "", message.error)
        if request:
            self._send_response(message.id, error=types.ResponseError(
                code=types.ErrorCodes.InvalidParams, message=f"Invalid params: {message.error}"))


def _validation_error(err: Exception) -> str:
    """What cattrs found wrong, each problem with the JSON path where it lies."""
    if isinstance(err, BaseValidationError):
        return "; ".join(transform_error(err, path="$", format_exception=_explain))
    return f"{type(err).__name__}: {err}"


def _explain(error: BaseException, type_) -> str:
    if isinstance(error, ValueError) and str(error):
        return str(error)  # lsprotocol's validators say what the allowed range is
    return format_exception(error, type_)


class _OneLine(logging.Formatter):
    """Every record one line on stderr, the editor's log: the error in its own words, never a
    traceback (pygls pastes one into some of its messages: its last line is the error)."""

    def format(self, record: logging.LogRecord) -> str:
        message, _, rest = record.getMessage().partition("\n")
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            message += f": {type(error).__name__}: {error}"
        elif rest.strip():
            message += f": {rest.strip().splitlines()[-1]}"
        return "gradlint lsp: " + " ".join(message.split())


def serve() -> int:
    """Speak LSP on standard input and output until the client says exit (or goes away).

    Returns the exit status LSP asks for: 0 after a shutdown request, 1 without one.
    """
    stdout = sys.stdout.buffer
    # The protocol owns standard output: a stray print anywhere would corrupt it.
    sys.stdout = sys.stderr
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    # The root logger: pygls's records, ours and asyncio's, all one line each.
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    server = build_server()
    # What is loaded by now lives as long as the server: the collector need not walk it again
    # while the server handles each message.
    gc.freeze()
    try:
        server.start_io(sys.stdin.buffer, stdout)
    finally:
        server.workers.close()
    return 0 if server.shut_down else 1
