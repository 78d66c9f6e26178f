"""``gradlint lsp`` as an editor drives it: pygls's own client starts the server over stdio."""
from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

import gradlint  # noqa: E402
from gradlint import lsp  # noqa: E402
from gradlint.engine import lint_source  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "fixtures" / "GL001" / "bad_two_param_loop_detached_feature.py"
CUT = "(gain * inputs).detach()"
TIMEOUT = 10.0  # seconds for any one answer; a hung server fails the test instead of the suite


class Session:
    """A running server and what it has sent: diagnostics per document, popups."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.published: dict[str, asyncio.Queue] = {}
        self.messages: list[str] = []

    def queue(self, uri: str) -> asyncio.Queue:
        return self.published.setdefault(uri, asyncio.Queue())

    async def diagnostics(self, uri: str, timeout: float = TIMEOUT) -> types.PublishDiagnosticsParams:
        return await asyncio.wait_for(self.queue(uri).get(), timeout)

    def open(self, path: Path, text: str | None = None, language: str = "python") -> str:
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def save(self, uri: str) -> None:
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))

    async def fixes(self, uri: str, rng: types.Range, shown: list[types.Diagnostic] = (),
                    only: list[str] | None = None) -> list[types.CodeAction]:
        return await asyncio.wait_for(self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
            context=types.CodeActionContext(diagnostics=list(shown), only=only))), TIMEOUT)


@contextlib.asynccontextmanager
async def server(root: Path, encodings: list[str] | None = None, cwd: Path | None = None,
                 env: dict[str, str] | None = None):
    client = LanguageClient("gradlint-tests", "0")
    session = Session(client)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        session.queue(params.uri).put_nowait(params)

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def on_message(params: types.ShowMessageParams) -> None:
        session.messages.append(params.message)

    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None)
    await client.start_io(sys.executable, "-m", "gradlint", "lsp", cwd=str(cwd or root), env=env)
    try:
        result = await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=capabilities, root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)])), TIMEOUT)
        session.encoding = result.capabilities.position_encoding
        client.initialized(types.InitializedParams())
        yield session
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        await asyncio.wait_for(client.stop(), TIMEOUT)
        assert client._server.returncode == 0  # LSP: 0 after shutdown then exit
    finally:
        if client._server.returncode is None:
            client._server.kill()
            await client._server.wait()


def run(coroutine, timeout: float = 4 * TIMEOUT) -> None:
    asyncio.run(asyncio.wait_for(coroutine, timeout))


def apply(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    """The text after a one-line edit (whole-line replacements, as the quick fix makes)."""
    (change,) = edit.changes[uri]
    lines = text.split("\n")
    start, end = change.range.start, change.range.end
    assert start.line == end.line and start.character == 0
    assert end.character == lsp.units(lines[start.line], types.PositionEncodingKind.Utf16)
    lines[start.line] = change.new_text
    return "\n".join(lines)


def sliced(text: str, rng: types.Range, encoding: str) -> str:
    """The text a one-line range covers, its columns counted in ``encoding``'s code units."""
    assert rng.start.line == rng.end.line
    line = text.split("\n")[rng.start.line]
    codec, width = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}[encoding]
    data = line.encode(codec)
    return data[rng.start.character * width: rng.end.character * width].decode(codec)


def test_open_edit_save_fix_close(tmp_path):
    """The editor's whole round: diagnostics on open, after edits (once, after the pause), on
    save; the quick fix's edit silences the finding; closing clears the document."""
    text = BAD.read_text(encoding="utf-8")
    path = tmp_path / BAD.name
    path.write_text(text, encoding="utf-8")
    (finding,) = lint_source(text, str(path))

    async def scenario():
        async with server(tmp_path) as session:
            uri = session.open(path)
            opened = await session.diagnostics(uri)
            (shown,) = opened.diagnostics
            assert (shown.code, shown.source, shown.severity) == ("GL001", "gradlint", types.DiagnosticSeverity.Warning)
            assert shown.range == types.Range(
                start=types.Position(line=finding.line - 1, character=finding.column - 1),
                end=types.Position(line=finding.end_line - 1, character=finding.end_column - 1))
            assert sliced(text, shown.range, "utf-16") == CUT
            assert shown.message == f"{finding.message}\nhint: {finding.hint}"
            # A link to the project's page, or none: never into the install (test_a_rule_links_...).
            assert shown.code_description is None or shown.code_description.href.startswith("https://")

            # Three quick edits, the last of which repairs the file: one lint, of the last text.
            repaired = text.replace(f"snap = {CUT}", "snap = gain * inputs")
            started = time.monotonic()
            for version, edited in ((2, text + "\n"), (3, text), (4, repaired)):
                session.change(uri, version, edited)
            after_edits = await session.diagnostics(uri)
            assert time.monotonic() - started >= lsp.DEBOUNCE * 0.9
            assert (after_edits.version, list(after_edits.diagnostics)) == (4, [])
            with pytest.raises(asyncio.TimeoutError):  # nothing for versions 2 and 3
                await session.diagnostics(uri, timeout=lsp.DEBOUNCE + 0.2)

            session.change(uri, 5, text)
            session.save(uri)  # a save lints at once, superseding the pending lint
            saved = await session.diagnostics(uri)
            assert saved.version == 5 and [d.code for d in saved.diagnostics] == ["GL001"]
            with pytest.raises(asyncio.TimeoutError):  # the pending lint publishes nothing
                await session.diagnostics(uri, timeout=lsp.DEBOUNCE + 0.2)

            (fix,) = await session.fixes(uri, types.Range(start=shown.range.start, end=shown.range.start))
            assert fix.title == "Add `# noqa: GL001`" and fix.kind == types.CodeActionKind.QuickFix
            assert [d.code for d in fix.diagnostics] == ["GL001"]
            fixed = apply(text, fix.edit, uri)
            assert fixed.splitlines()[finding.line - 1].endswith("  # noqa: GL001")
            assert lint_source(fixed, str(path)) == []
            session.change(uri, 6, fixed)
            assert list((await session.diagnostics(uri)).diagnostics) == []

            # Nothing to fix away from the finding, unless the client lists it (Neovim does,
            # for every diagnostic on the cursor's line).
            elsewhere = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=3))
            session.change(uri, 7, text)
            await session.diagnostics(uri)
            assert list(await session.fixes(uri, elsewhere)) == []
            assert len(await session.fixes(uri, elsewhere, [shown])) == 1
            # A client asking for other kinds of action gets none; one asking for quick fixes does.
            assert list(await session.fixes(uri, shown.range, only=[types.CodeActionKind.Refactor])) == []
            assert len(await session.fixes(uri, shown.range, only=[types.CodeActionKind.QuickFix])) == 1

            session.client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            assert list((await session.diagnostics(uri)).diagnostics) == []

    run(scenario())


@pytest.mark.parametrize("encodings, expected", [
    (None, "utf-16"),  # LSP's default
    (["utf-8", "utf-16"], "utf-8"),  # the client's first choice
])
def test_columns_count_in_the_negotiated_encoding(tmp_path, encodings, expected):
    """A line with a non-ASCII character (two UTF-16 units, four UTF-8 bytes) before the cut."""
    text = BAD.read_text(encoding="utf-8").replace(f"    snap = {CUT}", f"    tag = '😋é'; snap = {CUT}")
    path = tmp_path / "model.py"
    path.write_text(text, encoding="utf-8")

    async def scenario():
        async with server(tmp_path, encodings) as session:
            assert session.encoding == expected
            uri = session.open(path)
            (shown,) = (await session.diagnostics(uri)).diagnostics
            assert sliced(text, shown.range, expected) == CUT
            (fix,) = await session.fixes(uri, shown.range)
            (change,) = fix.edit.changes[uri]
            line = text.split("\n")[change.range.start.line]
            assert sliced(text, change.range, expected) == line
            assert change.new_text == line + "  # noqa: GL001"

    run(scenario())


def test_the_project_config_decides(tmp_path):
    """[tool.gradlint] from the file's own project: ignore, per-file-ignores, exclude; and a
    broken config is one diagnostic and one popup, not a dead server."""
    text = BAD.read_text(encoding="utf-8")
    for project, table in (("plain", None), ("later", None), ("ignoring", 'ignore = ["GL001"]'),
                           ("per_file", 'per-file-ignores = { "tests/**" = ["detached-result"] }'),
                           ("excluding", 'extend-exclude = ["generated/"]'),
                           ("broken", 'selct = ["GL001"]')):
        folder = tmp_path / project
        for name in ("model.py", "tests/test_model.py", "generated/model.py"):
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        if table is not None:
            (folder / "pyproject.toml").write_text(f"[tool.gradlint]\n{table}\n")

    async def codes(session: Session, relative: str) -> list[str]:
        uri = session.open(tmp_path / relative)
        return [d.code for d in (await session.diagnostics(uri)).diagnostics]

    async def scenario():
        # The workspace is the parent of every project, and the server runs elsewhere: the
        # config must be found from each file's folder, not from the current directory.
        async with server(tmp_path, cwd=ROOT) as session:
            assert await codes(session, "plain/model.py") == ["GL001"]
            assert await codes(session, "plain/generated/model.py") == ["GL001"]
            assert await codes(session, "ignoring/model.py") == []
            assert await codes(session, "per_file/model.py") == ["GL001"]
            assert await codes(session, "per_file/tests/test_model.py") == []
            assert await codes(session, "excluding/model.py") == ["GL001"]
            assert await codes(session, "excluding/generated/model.py") == []
            # The config is read at each lint: one written while the file is open applies at
            # the next save, though the text has not changed.
            uri = session.open(tmp_path / "later" / "model.py")
            assert [d.code for d in (await session.diagnostics(uri)).diagnostics] == ["GL001"]
            (tmp_path / "later" / "pyproject.toml").write_text('[tool.gradlint]\nignore = ["GL001"]\n')
            session.save(uri)
            assert list((await session.diagnostics(uri)).diagnostics) == []

            uri = session.open(tmp_path / "broken" / "model.py")
            (shown,) = (await session.diagnostics(uri)).diagnostics
            assert shown.severity == types.DiagnosticSeverity.Error
            assert "unknown key 'selct'" in shown.message and "did you mean 'select'?" in shown.message
            session.save(uri)
            await session.diagnostics(uri)
            assert len(session.messages) == 1 and "unknown key 'selct'" in session.messages[0]
            # Only Python documents are linted.
            notes = tmp_path / "plain" / "notes.txt"
            notes.write_text(text)
            session.open(notes, language="plaintext")
            with pytest.raises(asyncio.TimeoutError):
                await session.diagnostics(notes.as_uri(), timeout=0.5)

    run(scenario())


def test_without_pygls_the_command_says_how_to_get_it():
    program = ("import sys; sys.modules['pygls'] = None; from gradlint.cli import main; "
               "sys.exit(main(['lsp']))")
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    assert proc.returncode == 2
    assert proc.stderr == f"gradlint: error: gradlint lsp needs pygls: {gradlint.PYGLS_HINT}\n"
    assert proc.stdout == ""


def test_code_units_per_encoding():
    assert [lsp.units("é😋x", e) for e in ("utf-8", "utf-16", "utf-32", None)] == [7, 4, 3, 4]


def test_a_message_that_is_not_json_is_one_line_on_stderr():
    """The client hears of it (pygls shows it), the editor's log gets one line, no traceback."""
    proc = subprocess.run([sys.executable, "-m", "gradlint", "lsp"], input=b"Content-Length: 5\r\n\r\n{bad}",
                          capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 1  # no shutdown request before the end of input
    assert b"window/showMessage" in proc.stdout and b"Expecting property name" in proc.stdout
    assert proc.stderr.decode().splitlines() == [
        "gradlint lsp: Unable to handle message: JSONDecodeError: Expecting property name "
        "enclosed in double quotes: line 1 column 2 (char 1)"]


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x1c"])
def test_lines_split_as_python_splits_them(separator):
    """A form feed or U+2028 in a line is not a line break (str.splitlines thinks it is)."""
    text = f"import torch\n# section{separator}one\n" + BAD.read_text(encoding="utf-8").split("import torch\n", 1)[1]
    (finding,) = lint_source(text, "m.py")
    rng = lsp.to_range(finding, lsp.split_lines(text), types.PositionEncodingKind.Utf16)
    assert rng.start.line == finding.line - 1
    assert sliced(text, rng, "utf-16") == CUT


def test_the_save_benchmark_measures_a_round_trip():
    spec = importlib.util.spec_from_file_location("lsp_save", ROOT / "bench" / "lsp_save.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    median = bench.measure(BAD, rounds=2, warmup=0)
    assert 0 < median < 10_000


class Raw:
    """A bare JSON-RPC client on the server's standard input and output, for what pygls's own
    client would refuse to send."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "gradlint", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.received: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send({"id": 0, "method": "initialize", "params": {"processId": None, "rootUri": cwd.as_uri(),
                                                               "capabilities": {}}})
        assert "result" in self.reply(0)
        self.send({"method": "initialized", "params": {}})

    def _read(self) -> None:
        while True:
            length = None
            while (line := self.proc.stdout.readline()).strip():
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:  # end of output
                return
            self.received.put(json.loads(self.proc.stdout.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def reply(self, request_id: int) -> dict:
        """The response to a request, skipping notifications."""
        while True:
            message = self.received.get(timeout=TIMEOUT)
            if "method" not in message and message.get("id") == request_id:
                return message

    def finish(self) -> str:
        """Shut the server down; its standard error."""
        self.send({"id": 99, "method": "shutdown"})
        assert self.reply(99)["result"] is None
        self.send({"method": "exit"})
        _, stderr = self.proc.communicate(timeout=TIMEOUT)
        assert self.proc.returncode == 0
        return stderr.decode()


def _bad_line(request_id: int | None) -> dict:
    """A code action request whose range starts at line -1."""
    message = {"method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": "file:///tmp/model.py"},
        "range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": []}}}
    return message if request_id is None else {"id": request_id, **message}


def test_a_request_with_invalid_params_is_answered_with_an_error(tmp_path):
    """JSON-RPC: a request whose params do not validate gets an error response (-32602) with its
    id, and the server goes on answering."""
    raw = Raw(tmp_path)
    try:
        raw.send(_bad_line(7))
        answer = raw.reply(7)
        assert answer["error"]["code"] == -32602
        assert "Position.line" in answer["error"]["message"] and "-1" in answer["error"]["message"]
        raw.send({"id": 8, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": "file:///tmp/model.py"},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["refactor"]}}})
        assert raw.reply(8)["result"] == []
        raw.finish()
    finally:
        raw.proc.kill()


def test_invalid_messages_are_one_line_each_on_stderr(tmp_path):
    """The editor's log gets one line per bad message, no traceback."""
    raw = Raw(tmp_path)
    try:
        raw.send(_bad_line(7))
        raw.reply(7)
        raw.send(_bad_line(None))  # a notification gets no answer, only the line in the log
        raw.send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///tmp/m.py"}}})
        stderr = raw.finish()
    finally:
        raw.proc.kill()
    lines = stderr.splitlines()
    assert "Traceback" not in stderr
    assert len(lines) == 3 and all(line.startswith("gradlint lsp: ") for line in lines), stderr
    assert "textDocument/codeAction" in lines[0] and "Position.line" in lines[0]
    assert "textDocument/didOpen" in lines[2] and "text" in lines[2]


def _big(lines: int) -> str:
    """The GL001 fixture and ``lines`` more statements: seconds of linting."""
    return BAD.read_text(encoding="utf-8") + "y = torch.ones(3) * 2.0  # padding\n" * lines


def test_a_big_document_blocks_no_request_and_a_newer_version_supersedes_it(tmp_path):
    """While a big document is linted, requests are answered; an edit supersedes the lint, whose
    diagnostics are never published."""
    path = tmp_path / "big.py"
    small = BAD.read_text(encoding="utf-8")

    async def scenario():
        async with server(tmp_path) as session:
            uri = session.open(path, _big(4000))
            anywhere = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
            assert list(await session.fixes(uri, anywhere, only=[types.CodeActionKind.Refactor])) == []
            # The answer came while the lint of version 1 was still running.
            assert session.queue(uri).empty()
            session.change(uri, 2, small)
            shown = await session.diagnostics(uri, timeout=6 * TIMEOUT)
            assert shown.version == 2 and [d.code for d in shown.diagnostics] == ["GL001"]
        assert session.queue(uri).empty()  # nothing for version 1, ever

    run(scenario(), 8 * TIMEOUT)


def test_shutdown_is_answered_while_a_big_document_is_linted(tmp_path):
    async def scenario():
        async with server(tmp_path) as session:
            uri = session.open(tmp_path / "big.py", _big(4000))
        # server() asserted the shutdown's answer and exit status 0; the lint never finished.
        assert session.queue(uri).empty()

    run(scenario(), 8 * TIMEOUT)


def _rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants (an ended one has none)."""
    total, pids = 0, [pid]
    while pids:
        pid = pids.pop()
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            status = Path(f"/proc/{pid}/status").read_text()
            total += sum(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
            for task in Path(f"/proc/{pid}/task").iterdir():
                pids += [int(child) for child in (task / "children").read_text().split()]
    return total / 1024


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_closing_a_big_document_gives_its_memory_back(tmp_path):
    async def scenario():
        async with server(tmp_path) as session:
            pid = session.client._server.pid
            uri = session.open(tmp_path / "small.py", BAD.read_text(encoding="utf-8"))
            await session.diagnostics(uri, timeout=6 * TIMEOUT)
            before = _rss_mb(pid)
            uri = session.open(tmp_path / "big.py", _big(5000))
            assert [d.code for d in (await session.diagnostics(uri, timeout=18 * TIMEOUT)).diagnostics] == ["GL001"]
            session.client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            assert list((await session.diagnostics(uri)).diagnostics) == []
            after = _rss_mb(pid)
            assert after < before + 30, (before, after)

    run(scenario(), 24 * TIMEOUT)


def _distribution(folder: Path, urls: list[str]) -> dict[str, str]:
    """An environment in which the installed distribution's metadata declares ``urls``."""
    info = folder / "autograd_gradlint-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: autograd-gradlint\nVersion: 0.1.0\n"
                                   + "".join(f"Project-URL: {url}\n" for url in urls))
    (info / "entry_points.txt").write_text("[console_scripts]\ngradlint = gradlint.cli:run\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


@pytest.mark.parametrize("urls, expected", [
    ([], None),  # never a file in site-packages
    (["Homepage, https://example.org/gradlint"], "https://example.org/gradlint"),
    (["Changelog, https://example.org/news", "Repository, https://github.com/someone/gradlint"],
     "https://github.com/someone/gradlint/blob/HEAD/rules/GL001-detached-result.md"),
])
def test_a_rule_links_to_the_project_s_page(tmp_path, urls, expected):
    env = _distribution(tmp_path / "site", urls)
    path = tmp_path / "model.py"
    path.write_text(BAD.read_text(encoding="utf-8"), encoding="utf-8")

    async def scenario():
        async with server(tmp_path, env=env) as session:
            (shown,) = (await session.diagnostics(session.open(path))).diagnostics
            assert (shown.code_description.href if shown.code_description else None) == expected

    run(scenario())


def test_a_document_past_check_s_limits_is_one_diagnostic(tmp_path):
    """The same limits as gradlint check (the engine's): a 2 MB document is one GL010 saying
    why, at once, instead of half a minute of linting."""
    text = _big(60_000)
    (expected,) = lint_source(text, str(tmp_path / "big.py"))

    async def scenario():
        async with server(tmp_path) as session:
            (shown,) = (await session.diagnostics(session.open(tmp_path / "big.py", text))).diagnostics
            assert (shown.code, shown.message) == (expected.code, f"{expected.message}\nhint: {expected.hint}")
            assert shown.code == "GL010"

    run(scenario())


def _children(pid: int) -> list[int]:
    return [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_lint_process_that_dies_is_an_internal_error_and_the_server_goes_on(tmp_path):
    """libcst's native parser can abort its process: the server reports it and keeps linting."""
    async def scenario():
        async with server(tmp_path) as session:
            uri = session.open(tmp_path / "big.py", _big(4000))
            workers = []
            while not workers:  # the one warmed up at initialize, now linting
                await asyncio.sleep(0.1)
                workers = _children(session.client._server.pid)
            (worker,) = workers
            os.kill(worker, signal.SIGKILL)
            (shown,) = (await session.diagnostics(uri, timeout=6 * TIMEOUT)).diagnostics
            assert shown.severity == types.DiagnosticSeverity.Error
            assert "internal error: the lint process ended (signal 9)" in shown.message
            session.change(uri, 2, BAD.read_text(encoding="utf-8"))
            shown = await session.diagnostics(uri, timeout=6 * TIMEOUT)
            assert shown.version == 2 and [d.code for d in shown.diagnostics] == ["GL001"]

    run(scenario(), 8 * TIMEOUT)
