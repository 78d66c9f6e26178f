"""The fixture corpus: whole small programs under ``fixtures/``, each with the answer it must get.

Layout::

    fixtures/GL00x/bad_*.py    a program with a GL00x bug; gradlint must report it
    fixtures/GL00x/good_*.py   a look-alike without that bug; gradlint must not report it
    fixtures/GL00x/*.expected  the golden: gradlint's concise output for the file, run from
                               the repository root (empty when there are no findings)
    fixtures/GL00x/bad_*/      a program of several files, as a folder: ``main.py`` (the program,
    fixtures/GL00x/good_*/     with the docstring) and the modules it imports from beside it
    fixtures/GL00x/bad_*.expected   a folder's golden: gradlint's output for the folder
    fixtures/known_gaps/GL00x/ programs gradlint currently gets wrong (a missed bug or a false
                               report); no golden, and their test is an expected failure

Each fixture's module docstring states the true answer, one line per finding it must have::

    expect: GL001 19           code and line of a finding that must be reported
    expect: GL001 helpers.py:12  in a folder: the file it is in (a bare line means main.py)
    raises: RuntimeError       running the program must fail with this error
    needs: numpy               the dynamic run is skipped when this module is missing

Four checks use them:

* ``test_golden``: gradlint's output equals the ``.expected`` file, byte for byte, and its exit
  status says whether it reported anything (``pytest --update-golden`` rewrites the files instead).
* ``test_answer``: the findings the golden records, as (code, line) pairs, are exactly the
  ``expect:`` lines, and a ``bad_`` fixture expects its folder's rule while a ``good_`` one does
  not, so a golden cannot silently record a wrong answer. With ``test_golden`` (the golden is
  what gradlint says now), gradlint's answer is the docstring's; each fixture is linted once.
* ``test_known_gap``: the same comparison for ``fixtures/known_gaps``, marked xfail; an XPASS
  means gradlint now gets it right and the fixture should move to ``fixtures/GL00x``.
* ``test_program_runs``: each fixture is a real program that behaves as its docstring claims:
  run with ``python FIXTURE``, it exits 0 (its own asserts check the missing gradient, the
  growing graph ...), or fails with the error named by ``raises:``. A folder is linted as a
  folder (``gradlint check fixtures/GL00x/NAME``, from the repository root like the files) and
  its program runs as ``python main.py`` from inside the folder (``test_folder_program_runs``),
  by the same harness.
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
EXPECT = re.compile(r"^expect: (GL\d{3}) (?:(\S+):)?(\d+)\s*$")
RAISES = re.compile(r"^raises: (\w+)\s*$")
NEEDS = re.compile(r"^needs: ([\w.]+)\s*$")


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


MAIN = "main.py"  # a folder fixture's program; the folder is the fixture


def _fixtures_under(top: Path) -> list[Path]:
    """The fixtures under ``top``: single files, and folders holding a ``main.py`` (whose files
    are that fixture's, not fixtures of their own)."""
    folders = {p.parent for p in top.rglob(MAIN) if RULE_DIR.match(p.parent.parent.name)}
    files = [p for p in top.rglob("*.py") if not folders.intersection(p.parents)]
    return sorted(files + list(folders))


def _corpus() -> list[Path]:
    return [p for p in _fixtures_under(FIXTURES) if GAPS not in p.parents]


def _gaps() -> list[Path]:
    return _fixtures_under(GAPS) if GAPS.is_dir() else []


def _golden(rel: str) -> Path:
    path = ROOT / rel
    return path.with_name(path.name + ".expected") if path.is_dir() else path.with_suffix(".expected")


CORPUS = [_rel(p) for p in _corpus()]
KNOWN_GAPS = [_rel(p) for p in _gaps()]
FOLDERS = [rel for rel in CORPUS + KNOWN_GAPS if (ROOT / rel).is_dir()]


class Meta:
    """What a fixture's docstring says about it."""

    def __init__(self, rel: str):
        path = ROOT / rel
        self.path = path
        self.folder = path.is_dir()
        self.main = path / MAIN if self.folder else path
        self.rule = path.parent.name  # GL00x
        self.verdict = path.name.split("_", 1)[0]  # "bad" or "good"
        text = self.main.read_text(encoding="utf-8") if self.main.is_file() else ""
        docstring = _docstring(text)
        lines = docstring.splitlines()
        self.has_docstring = bool(docstring.strip())
        # (code, file, line); file is relative to the folder, or the single file's own name
        self.expect = {(m[1], m[2] or self.main.name, int(m[3])) for m in map(EXPECT.match, lines) if m}
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


def _pairs(output: str, meta: Meta) -> set[tuple[str, str, int]]:
    """(code, file, line) of each finding, the file named as ``expect:`` lines name it."""
    found = set()
    for line in output.splitlines():
        match = FINDING.match(line)
        assert match, f"not a concise finding line: {line!r}"
        where = ROOT / match["path"]
        assert where == meta.path or meta.path in where.parents, f"a finding outside the fixture: {line!r}"
        name = where.relative_to(meta.path).as_posix() if meta.folder else where.name
        found.add((match["code"], name, int(match["line"])))
    return found


def _show(found, meta: Meta) -> str:
    def one(code, name, line):
        return f"{code} {name}:{line}" if meta.folder else f"{code} line {line}"
    return ", ".join(one(*f) for f in sorted(found, key=lambda f: (f[1], f[2], f[0]))) or "nothing"


# ---- the corpus ---------------------------------------------------------------------------------


def test_corpus_is_laid_out_as_documented(update_golden):
    assert CORPUS, "no fixtures found"
    for rel in CORPUS + KNOWN_GAPS:
        meta = Meta(rel)
        assert RULE_DIR.match(meta.rule), f"{rel}: fixtures live in a folder named after their rule"
        assert meta.verdict in ("bad", "good"), f"{rel}: name must start with bad_ or good_"
        if meta.folder:
            assert meta.main.is_file(), f"{rel}: a fixture folder holds its program as {MAIN}"
            assert not list(meta.path.rglob("*.expected")), f"{rel}: its golden lies beside the folder"
        assert meta.has_docstring, f"{rel}: starts with a docstring saying what it shows"
        for _, name, _ in meta.expect:
            assert (meta.path / name).is_file() if meta.folder else name == meta.main.name, (
                f"{rel}: `expect:` names {name}, which is not a file of the fixture")
        own = {line for code, _, line in meta.expect if code == meta.rule}
        if meta.verdict == "bad":
            assert own, f"{rel}: a bad_ fixture names the line of its {meta.rule} finding (expect: {meta.rule} LINE)"
        else:
            assert not own, f"{rel}: a good_ fixture must not expect {meta.rule}"
    if not update_golden:
        for rel in CORPUS:
            golden = _golden(rel)
            assert golden.is_file(), f"{rel}: no golden {golden.name}"
    goldens = {_golden(rel) for rel in CORPUS}
    stray = [_rel(p) for p in FIXTURES.rglob("*.expected") if p not in goldens]
    assert not stray, f"goldens without a fixture (or for a known gap): {stray}"


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.mark.parametrize("rel", CORPUS)
def test_golden(rel, capsys, monkeypatch, update_golden):
    out, status = _lint(rel, capsys, monkeypatch)
    assert status == (1 if out.strip() else 0), f"gradlint exited {status} on {rel}, which it reports:\n{out}"
    golden = _golden(rel)
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
def test_answer(rel, capsys, monkeypatch, update_golden):
    """The answer gradlint gives, as its golden records it (``test_golden`` holds the golden to
    what gradlint says now; a run rewriting the goldens lints afresh)."""
    meta = Meta(rel)
    golden = _golden(rel)
    if update_golden or not golden.is_file():
        out, _ = _lint(rel, capsys, monkeypatch)
    else:
        out = golden.read_text(encoding="utf-8")
    found = _pairs(out, meta)
    if meta.verdict == "bad":
        assert any(code == meta.rule for code, _, _ in found), (
            f"{rel} has a {meta.rule} bug but gradlint reported {_show(found, meta)}")
    else:
        assert not any(code == meta.rule for code, _, _ in found), (
            f"{rel} has no {meta.rule} bug but gradlint reported {_show(found, meta)}")
    assert found == meta.expect, (
        f"{rel}: expected {_show(meta.expect, meta)}; gradlint reported {_show(found, meta)}")


@pytest.mark.parametrize("rel", KNOWN_GAPS)
def test_known_gap(rel, capsys, monkeypatch, request):
    meta = Meta(rel)
    out, _ = _lint(rel, capsys, monkeypatch)
    found = _pairs(out, meta)
    request.node.add_marker(pytest.mark.xfail(
        reason=f"known gap: gradlint reports {_show(found, meta)} where the answer is {_show(meta.expect, meta)}",
        strict=False,
    ))
    assert found == meta.expect


# ---- the programs behave as claimed -------------------------------------------------------------

_HAVE_TORCH = importlib.util.find_spec("torch") is not None


def _missing(modules: list[str]) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


@pytest.mark.skipif(not _HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("rel", [rel for rel in CORPUS + KNOWN_GAPS if rel not in FOLDERS])
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


@pytest.mark.skipif(not _HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("folder", FOLDERS)
def test_folder_program_runs(folder, harness_results):
    """A folder's program behaves as its docstring claims, run as ``python main.py`` from
    inside the folder (so it imports its sibling modules as a user's script would), by the
    transparency harness like the single files."""
    meta = Meta(folder)
    missing = _missing(meta.needs)
    if missing:
        pytest.skip(f"{folder} needs {', '.join(missing)}")
    entry = harness_results.get(folder) or run_harness(["plain:" + folder])[folder]
    assert "error" not in entry, f"the harness could not run {folder}:\n{entry['error']}"
    result = entry["plain"]
    ended = (f"{result.get('type')}: {result.get('message')}" if result["kind"] == "raised"
             else f"{result['kind']} {result.get('status') or ''}".strip())
    tail = f"\n--- ended: {ended}\n--- stdout ---\n{result['stdout'][-2000:]}\n--- stderr ---\n{result['stderr'][-2000:]}"
    if meta.raises:
        assert result["kind"] == "raised" and result.get("type") == meta.raises, (
            f"{folder} should fail with {meta.raises} but {ended}{tail}")
    else:
        assert result["kind"] == "completed" or (result["kind"] == "exited" and not result.get("status")), \
            f"{folder} did not run to the end: {ended}{tail}"
