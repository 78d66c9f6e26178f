"""The fixture corpus: whole small programs under ``fixtures/``, each with the answer it must get.

Layout::

    fixtures/GL00x/bad_*.py    a program with a GL00x bug; gradlint must report it
    fixtures/GL00x/good_*.py   a look-alike without that bug; gradlint must not report it
    fixtures/GL00x/*.expected  the golden: gradlint's concise output for the file, run from
                               the repository root (empty when there are no findings)
    fixtures/known_gaps/GL00x/ programs gradlint currently gets wrong (a missed bug or a false
                               report); no golden, and their test is an expected failure

Each fixture's module docstring states the true answer, one line per finding it must have::

    expect: GL001 19           code and line of a finding that must be reported
    raises: RuntimeError       running the program must fail with this error
    needs: numpy               the dynamic run is skipped when this module is missing

Four checks use them:

* ``test_golden``: gradlint's output equals the ``.expected`` file, byte for byte
  (``pytest --update-golden`` rewrites the files instead).
* ``test_answer``: the findings, as (code, line) pairs, are exactly the ``expect:`` lines, and
  a ``bad_`` fixture expects its folder's rule while a ``good_`` one does not, so a golden
  cannot silently record a wrong answer.
* ``test_known_gap``: the same comparison for ``fixtures/known_gaps``, marked xfail; an XPASS
  means gradlint now gets it right and the fixture should move to ``fixtures/GL00x``.
* ``test_program_runs``: each fixture is a real program that behaves as its docstring claims:
  run with ``python FIXTURE``, it exits 0 (its own asserts check the missing gradient, the
  growing graph ...), or fails with the error named by ``raises:``.
"""
from __future__ import annotations

import difflib
import importlib.util
import re
from pathlib import Path

import pytest
from conftest import run_harness

from gradlint import cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GAPS = FIXTURES / "known_gaps"
RULE_DIR = re.compile(r"^GL\d{3}$")
FINDING = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>GL\d{3}) ")
EXPECT = re.compile(r"^expect: (GL\d{3}) (\d+)\s*$")
RAISES = re.compile(r"^raises: (\w+)\s*$")
NEEDS = re.compile(r"^needs: ([\w.]+)\s*$")


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _corpus() -> list[Path]:
    return sorted(p for p in FIXTURES.rglob("*.py") if GAPS not in p.parents)


def _gaps() -> list[Path]:
    return sorted(GAPS.rglob("*.py")) if GAPS.is_dir() else []


CORPUS = [_rel(p) for p in _corpus()]
KNOWN_GAPS = [_rel(p) for p in _gaps()]


class Meta:
    """What a fixture's docstring says about it."""

    def __init__(self, rel: str):
        path = ROOT / rel
        self.path = path
        self.rule = path.parent.name  # GL00x
        self.verdict = path.name.split("_", 1)[0]  # "bad" or "good"
        text = path.read_text(encoding="utf-8")
        docstring = _docstring(text)
        lines = docstring.splitlines()
        self.has_docstring = bool(docstring.strip())
        self.expect = {(m[1], int(m[2])) for m in map(EXPECT.match, lines) if m}
        self.raises = next((m[1] for m in map(RAISES.match, lines) if m), None)
        self.needs = [m[1] for m in map(NEEDS.match, lines) if m]


def _docstring(text: str) -> str:
    """The module docstring's text, read without parsing (GL000 fixtures do not parse)."""
    match = re.match(r'\A\s*(?:[rRuU]?)("""|\'\'\')(.*?)\1', text, re.S)
    return match.group(2) if match else ""


def _lint(rel: str, capsys, monkeypatch) -> tuple[str, int]:
    """gradlint's concise output for one fixture, run from the repository root."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    status = cli.main(["check", "--output-format", "concise", rel])
    captured = capsys.readouterr()
    assert status in (0, 1), f"gradlint failed on {rel} (exit {status}):\n{captured.err}"
    assert "internal error" not in captured.err, captured.err
    return captured.out, status


def _pairs(output: str) -> set[tuple[str, int]]:
    found = set()
    for line in output.splitlines():
        match = FINDING.match(line)
        assert match, f"not a concise finding line: {line!r}"
        found.add((match["code"], int(match["line"])))
    return found


def _show(pairs) -> str:
    return ", ".join(f"{code} line {line}" for code, line in sorted(pairs, key=lambda p: (p[1], p[0]))) or "nothing"


# ---- the corpus ---------------------------------------------------------------------------------


def test_corpus_is_laid_out_as_documented(update_golden):
    assert CORPUS, "no fixtures found"
    for rel in CORPUS + KNOWN_GAPS:
        meta = Meta(rel)
        assert RULE_DIR.match(meta.rule), f"{rel}: fixtures live in a folder named after their rule"
        assert meta.verdict in ("bad", "good"), f"{rel}: name must start with bad_ or good_"
        assert meta.has_docstring, f"{rel}: starts with a docstring saying what it shows"
        own = {line for code, line in meta.expect if code == meta.rule}
        if meta.verdict == "bad":
            assert own, f"{rel}: a bad_ fixture names the line of its {meta.rule} finding (expect: {meta.rule} LINE)"
        else:
            assert not own, f"{rel}: a good_ fixture must not expect {meta.rule}"
    if not update_golden:
        for rel in CORPUS:
            golden = (ROOT / rel).with_suffix(".expected")
            assert golden.is_file(), f"{rel}: no golden {golden.name}"
    stray = [_rel(p) for p in FIXTURES.rglob("*.expected") if not p.with_suffix(".py").is_file() or GAPS in p.parents]
    assert not stray, f"goldens without a fixture (or for a known gap): {stray}"


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.mark.parametrize("rel", CORPUS)
def test_golden(rel, capsys, monkeypatch, update_golden):
    out, _ = _lint(rel, capsys, monkeypatch)
    golden = (ROOT / rel).with_suffix(".expected")
    if update_golden:
        golden.write_text(out, encoding="utf-8")
        return
    assert golden.is_file(), f"no golden for {rel}: run `pytest tests/test_fixtures.py --update-golden`"
    want = golden.read_text(encoding="utf-8")
    if out != want:
        diff = "".join(difflib.unified_diff(
            want.splitlines(keepends=True), out.splitlines(keepends=True),
            fromfile=_rel(golden), tofile=f"gradlint check {rel}",
        ))
        pytest.fail(f"gradlint's output for {rel} differs from its golden:\n{diff}", pytrace=False)


@pytest.mark.parametrize("rel", CORPUS)
def test_answer(rel, capsys, monkeypatch):
    meta = Meta(rel)
    out, status = _lint(rel, capsys, monkeypatch)
    found = _pairs(out)
    if meta.verdict == "bad":
        assert any(code == meta.rule for code, _ in found), (
            f"{rel} has a {meta.rule} bug but gradlint reported {_show(found)}")
    else:
        assert not any(code == meta.rule for code, _ in found), (
            f"{rel} has no {meta.rule} bug but gradlint reported {_show(found)}")
    assert found == meta.expect, (
        f"{rel}: expected {_show(meta.expect)}; gradlint reported {_show(found)}")
    assert status == (1 if found else 0)


@pytest.mark.parametrize("rel", KNOWN_GAPS)
def test_known_gap(rel, capsys, monkeypatch, request):
    meta = Meta(rel)
    out, _ = _lint(rel, capsys, monkeypatch)
    found = _pairs(out)
    request.node.add_marker(pytest.mark.xfail(
        reason=f"known gap: gradlint reports {_show(found)} where the answer is {_show(meta.expect)}",
        strict=False,
    ))
    assert found == meta.expect


# ---- the programs behave as claimed -------------------------------------------------------------

_HAVE_TORCH = importlib.util.find_spec("torch") is not None


def _missing(modules: list[str]) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


@pytest.mark.skipif(not _HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("rel", CORPUS + KNOWN_GAPS)
def test_program_runs(rel, harness_results):
    """The program does what its docstring claims: it raises the error its ``raises:`` line
    names, or runs to the end (its own asserts check the claim: ``.grad is None``, a graph that
    grows). Run by the transparency harness, as ``python FIXTURE`` would run it."""
    meta = Meta(rel)
    missing = _missing(meta.needs)
    if missing:
        pytest.skip(f"{rel} needs {', '.join(missing)}")
    entry = harness_results.get(rel) or run_harness([rel])[rel]
    assert "error" not in entry, f"the harness could not run {rel}:\n{entry['error']}"
    result = entry["plain"]
    ended = (f"{result.get('type')}: {result.get('message')}" if result["kind"] == "raised"
             else f"{result['kind']} {result.get('status') or ''}".strip())
    tail = f"\n--- ended: {ended}\n--- stdout ---\n{result['stdout'][-2000:]}\n--- stderr ---\n{result['stderr'][-2000:]}"
    if meta.raises:
        assert result["kind"] == "raised", f"{rel} should fail with {meta.raises} but {ended}{tail}"
        assert meta.raises in ended, f"{rel} should fail with {meta.raises}{tail}"
    else:
        assert result["kind"] == "completed" or (result["kind"] == "exited" and not result.get("status")), \
            f"{rel} did not run to the end: {ended}{tail}"
