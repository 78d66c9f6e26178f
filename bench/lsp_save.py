"""How long the language server takes to answer a save: didSave → publishDiagnostics.

Starts ``gradlint lsp`` as an editor does (pygls's own client, over stdio), opens FILE, and then,
round after round, changes the document (a comment appended, so no lint is ever of a text seen
before) and saves it at once, timing from the didSave to the diagnostics for that version. The
first rounds warm the server up and are not counted. Needs pygls (``pip install 'gradlint[lsp]'``).

    python bench/lsp_save.py FILE [--rounds N] [--warmup N]

Target (issue 4): median <= 100 ms for a 500-line model file.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

TARGET_MS = 100.0
TIMEOUT = 30.0  # seconds for any one answer; a server that hangs fails the benchmark


async def _measure(path: Path, rounds: int, warmup: int) -> list[float]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("gradlint-bench", "0")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait((time.perf_counter(), params))

    async def answer(version: int) -> float:
        while True:
            arrived, params = await asyncio.wait_for(published.get(), TIMEOUT)
            if params.version == version:
                return arrived

    await client.start_io(sys.executable, "-m", "gradlint", "lsp")
    try:
        await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=path.parent.as_uri())), TIMEOUT)
        client.initialized(types.InitializedParams())
        uri, text = path.as_uri(), path.read_text(encoding="utf-8")
        document = types.VersionedTextDocumentIdentifier(uri=uri, version=1)
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        await answer(1)
        times = []
        for version in range(2, 2 + warmup + rounds):
            document = types.VersionedTextDocumentIdentifier(uri=uri, version=version)
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=document,
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=f"{text}# edit {version}\n")]))
            started = time.perf_counter()
            client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            times.append((await answer(version) - started) * 1000)
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        await asyncio.wait_for(client.stop(), TIMEOUT)
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()
    return times[warmup:]


def measure(path: str | Path, rounds: int = 20, warmup: int = 5) -> float:
    """The median milliseconds from didSave to publishDiagnostics over ``rounds`` saves of
    ``path``, after ``warmup`` saves that are not counted. Raises TimeoutError if the server
    does not answer within 30 s, ImportError without pygls."""
    times = asyncio.run(_measure(Path(path).resolve(), rounds, warmup))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Print the median and whether it meets the target; 0 when it does, 1 when not."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args(argv)
    median = measure(args.file, args.rounds, args.warmup)
    met = median <= TARGET_MS
    print(f"  lsp didSave median {median:.0f} ms (target <= {TARGET_MS:.0f} ms: {'met' if met else 'NOT met'})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
