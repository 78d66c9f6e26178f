"""Fuzzing the static pass: no input raises or hangs, and every finding lies in its file.

Programs: hypothesmith's (valid Python that rarely touches torch, given a torch head and torch
statements), and mutations of every fixture, rule example and shared case program: renamed and
swapped names, lines duplicated, deleted, swapped and joined, blocks wrapped in ``no_grad``,
``.add_(1)``, ``.detach()``, ``.item()``, ``retain_graph=True``, ``requires_grad_()`` and
steps inserted, backslash continuations, odd bytes in comments, tabs, form feeds, CRLF, BOM,
coding cookies, suppressions. Many mutations break the syntax on purpose.

For each program (``_judge``): no exception escapes, under every rule and one rule alone; a
finding of one rule alone is one of every rule's; each finding's span lies within the file's
lines and columns; a syntax error is GL000 exactly when Python's ``ast`` rejects the text, and
then nothing else is reported; the depth guard agrees with a walk of every node. An example that
runs past ``HANG`` seconds is stopped and fails.

The default run judges a hundred programs from a fixed seed; ``pytest -m slow`` 4,000 (some
minutes), from a new seed each run: a failure prints the seed and the shrunk program.
"""
from __future__ import annotations

import ast
import contextlib
import keyword
import re
import signal
import warnings
from datetime import timedelta
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gradlint import engine
from gradlint.analysis.facts import source_lines
from gradlint.rule import BY_CODE, resolve

# hypothesmith compiles what it generates: Python's warnings about that code are no finding
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning:<unknown>")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "cases"

ALL = resolve("ALL")
SINGLE = sorted(code for code in BY_CODE if code not in ("GL000", "GL900"))
HANG = 120  # seconds: a program of a few hundred lines takes well under one even on a loaded machine


def _seeds() -> list[str]:
    files = sorted((ROOT / "fixtures").rglob("*.py"))
    if SHARED.is_dir():  # read in place, never copied: the shared cases are not ours to commit
        files += sorted(SHARED.glob("*.py"))
    found = [p.read_text(encoding="utf-8") for p in files]
    for doc in sorted((ROOT / "rules").glob("GL*.md")):
        found += re.findall(r"^```python[ \t]*\n(.*?)^```[ \t]*$", doc.read_text(encoding="utf-8"),
                            re.DOTALL | re.MULTILINE)
    return found


SEEDS = _seeds()


# ---------------------------------------------------------------------------------------------
# The judgement


class Hang(Exception):
    pass


@contextlib.contextmanager
def _bounded(seconds: int):
    """A hang fails the example instead of the run (SIGALRM: pytest runs tests on the main thread)."""
    def stop(signum, frame):
        raise Hang(f"no answer after {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _findings(source: bytes, codes: frozenset[str]) -> list[dict]:
    return [f.to_json() for f in engine.lint_source(source, "fuzz.py", codes)]


def _python_rejects(source: bytes) -> bool:
    """As `py_compile` decides: the parser, then the compiler (`return` outside a function)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, "<fuzzed>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return False


def _judge(source: bytes, single: str, depth_limit: int) -> None:
    with _bounded(HANG), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Python's SyntaxWarnings about the fuzzed code
        found = _findings(source, ALL)
        alone = _findings(source, frozenset({single}))
        assert all(f in found for f in alone if f["code"] != "GL900"), "one rule alone finds what all rules do not"
        every = [f["code"] for f in found]
        if _python_rejects(source):
            assert set(every) <= {"GL000"} and len(every) <= 1, every
            if not every:  # only a suppression silences GL000
                assert re.search(rb"noqa|gradlint:", source), "a syntax error Python reports is not GL000"
            return
        assert "GL000" not in every, "GL000 for a file Python accepts"
        lines = source_lines(source.decode("utf-8", errors="replace"))
        for f in found:  # a span in the file, columns in characters of its lines
            assert 1 <= f["line"] <= f["end_line"] <= max(len(lines), 1), f
            assert 1 <= f["column"] <= len(lines[f["line"] - 1]) + 1 if lines else True, f
            assert f["end_column"] <= len(lines[f["end_line"] - 1]) + 1 if lines else True, f
        tree, unreadable = engine._read_ast(source)
        if unreadable is not None:  # GL010 past the limits
            return
        assert engine._depth_exceeds(tree, source, depth_limit) == engine._walk_exceeds(tree, depth_limit)


# A slow example fails past the deadline, a hung one past HANG; no example database in the checkout.
_SETTINGS = dict(database=None, deadline=timedelta(seconds=HANG / 2), print_blob=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much, HealthCheck.large_base_example])


# ---------------------------------------------------------------------------------------------
# Mutations: each takes the text and a Random and returns the new text.

_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_INSERTS = [
    "{v}.add_(1)", "{v} = {v}.detach()", "{v} = {v}.item()", "{v}.backward(retain_graph=True)",
    "{v}.requires_grad_()", "{v} = torch.tensor({v}.item(), requires_grad=True)", "{v}.data.mul_(2)",
    "{v} += 1", "{v}[0] = 0", "opt.step()", "return {v}.detach()", "{v}.requires_grad = True",
    "with torch.no_grad():\n    {v} = {v} * 2", "loss = {v}.sum()\nloss.backward()",
    "{v} = torch.sigmoid({v})", "{v} = {v} ** 2", "F.relu({v}, inplace=True)", "{v} = net({v})",
    "torch.autograd.grad({v}.sum(), {v})", "{v}.detach().requires_grad_()", "yield {v}",
    "global {v}", "del {v}", "for {v} in {v}:\n    pass", "{v} = lambda: {v}.detach()",
    "@torch.no_grad()\ndef _f({v}):\n    return {v}", "import torch as {v}", "from torch import no_grad as {v}",
    "from torch import *", "{v} = torch", "{v}.backward(**{{'retain_graph': True}})", "{v} = getattr({v}, 'detach')()",
    "import torch.nn.functional as {v}", "from torch.autograd import grad as {v}", "{v} = {v}.T.exp()",
    "class _C(nn.Module):\n    def forward(self, {v}):\n        return {v}.data",
]
_SUFFIXES = [".detach()", ".item()", ".data", ".requires_grad_()", ".tolist()", ".clone()", "[0]", ".add_(1)"]
_ODD = ["\x0c", "é", "\u2028", "\u00a0", "🔥", "\\", "'", '"""', "\t", "\r", "ｕ", "\u200b", "\\N{", "{"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _names(text: str) -> list[str]:
    names = sorted({n for n in _NAME.findall(text) if not keyword.iskeyword(n)})
    return names or ["x"]


def _pick_line(lines: list[str], r) -> int:
    return r.randrange(len(lines)) if lines else 0


def m_rename(text, r):
    names = _names(text)
    old = r.choice(names)
    new = r.choice([*names, "x", "loss", "model", "self", "ｕ", "_" + old, old + "2"])
    return re.sub(rf"\b{re.escape(old)}\b", new, text)


def m_swap(text, r):
    lines = _lines(text)
    if len(lines) > 1:
        i = r.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines)


def m_duplicate(text, r):
    lines = _lines(text)
    i = _pick_line(lines, r)
    return "\n".join(lines[: i + 1] + lines[i:])


def m_delete(text, r):
    lines = _lines(text)
    if lines:
        del lines[_pick_line(lines, r)]
    return "\n".join(lines)


def m_join(text, r):
    lines = _lines(text)
    if len(lines) > 1:
        i = r.randrange(len(lines) - 1)
        lines[i: i + 2] = [lines[i] + "; " + lines[i + 1].lstrip()]
    return "\n".join(lines)


def m_no_grad(text, r):
    """Wrap a run of lines of one indentation (and what they hold) in ``with torch.no_grad():``."""
    lines = _lines(text)
    i = _pick_line(lines, r)
    if not lines or not lines[i].strip():
        return text
    ind = _indent_of(lines[i])
    j = i + 1
    while j < len(lines) and r.random() < 0.8 and (not lines[j].strip() or len(_indent_of(lines[j])) >= len(ind)):
        j += 1
    head = r.choice(["with torch.no_grad():", "with torch.inference_mode():", "with torch.set_grad_enabled(False):",
                     "if True:", "for _ in range(2):"])
    return "\n".join(lines[:i] + [ind + head] + ["    " + line for line in lines[i:j]] + lines[j:])


def m_insert(text, r):
    lines = _lines(text)
    i = _pick_line(lines, r)
    near = next((line for line in lines[i:] if line.strip()), "")
    ind = _indent_of(near)
    snippet = r.choice(_INSERTS).format(v=r.choice(_names(text)))
    return "\n".join(lines[:i] + [ind + part for part in snippet.split("\n")] + lines[i:])


def m_suffix(text, r):
    """``.detach()``, ``.item()``, ... after some name of the text."""
    spots = [m.end() for m in _NAME.finditer(text)]
    if not spots:
        return text
    at = r.choice(spots)
    return text[:at] + r.choice(_SUFFIXES) + text[at:]


def m_keyword(text, r):
    """``retain_graph=True`` (or another keyword autograd reads) into some call."""
    spots = [m.start() for m in re.finditer(r"\)", text)]
    if not spots:
        return text
    at = r.choice(spots)
    kw = r.choice(["retain_graph=True", "create_graph=True", "inplace=True", "requires_grad=True", "out=x"])
    sep = "" if text[:at].rstrip().endswith("(") else ", "
    return text[:at] + sep + kw + text[at:]


def m_backslash(text, r):
    """A backslash continuation at some space, or a line ending in one before a dedent."""
    if r.random() < 0.3:
        lines = _lines(text)
        i = _pick_line(lines, r)
        return "\n".join(lines[: i + 1] + [_indent_of(lines[i]) + "pass \\" if lines else "\\"] + lines[i + 1:])
    spots = [m.start() for m in re.finditer(r" ", text)]
    if not spots:
        return text
    at = r.choice(spots)
    return text[:at] + " \\\n" + " " * r.randrange(0, 9) + text[at + 1:]


def m_comment(text, r):
    lines = _lines(text)
    i = _pick_line(lines, r)
    odd = "".join(r.choice(_ODD) for _ in range(r.randrange(1, 4)))
    kind = r.choice(["  # " + odd, "  # noqa", "  # noqa: GL001", "  # gradlint: ignore[GL005]", "  #" + odd + " noqa",
                     "\n# gradlint: skip-file", "  # type: ignore", "  # noqa:GL999"])
    if lines:
        lines[i] += kind
    return "\n".join(lines)


def m_tabs(text, r):
    if r.random() < 0.5:  # every indentation in tabs: the same program
        return "\n".join(re.sub(r"^(    )+", lambda m: "\t" * (len(m.group()) // 4), line) for line in _lines(text))
    lines = _lines(text)
    i = _pick_line(lines, r)
    if lines:
        lines[i] = re.sub(r"^    ", "\t", lines[i])
    return "\n".join(lines)


def m_formfeed(text, r):
    lines = _lines(text)
    i = _pick_line(lines, r)
    if lines:
        lines[i] = "\x0c" + lines[i] if r.random() < 0.5 else _indent_of(lines[i]) + "\x0c" + lines[i].lstrip(" \t")
    return "\n".join(lines)


def m_fold(text, r):
    """One spelling of a name changed to one that NFKC folds back to it (``ª`` for ``a``): the
    same name to ``ast``, another to libcst."""
    spots = [m for m in _NAME.finditer(text) if set(m.group()) & set(_FOLDS)]
    if not spots:
        return text
    m = r.choice(spots)
    i = m.start() + next(k for k, c in enumerate(m.group()) if c in _FOLDS)
    return text[:i] + _FOLDS[text[i]] + text[i + 1:]


_FOLDS = {"a": "ª", "o": "º", "u": "ｕ", "x": "ｘ", "i": "ⁱ", "n": "ⁿ"}


def m_truncate(text, r):
    return text[: r.randrange(len(text) + 1)]


def m_nest(text, r):
    """Parentheses around some name, a few or many levels deep."""
    spots = list(_NAME.finditer(text))
    if not spots:
        return text
    m = r.choice(spots)
    k = r.choice([1, 3, 30, 150, 250])
    return text[: m.start()] + "(" * k + m.group() + ")" * k + text[m.end():]


def m_splice(text, r):
    """A run of lines of another seed program at some line."""
    other = _lines(r.choice(SEEDS))
    a = r.randrange(len(other))
    piece = other[a: a + r.randrange(1, 12)]
    lines = _lines(text)
    i = _pick_line(lines, r)
    return "\n".join(lines[:i] + piece + lines[i:])


MUTATIONS = [m_rename, m_swap, m_duplicate, m_delete, m_join, m_no_grad, m_insert, m_insert, m_suffix, m_keyword,
             m_backslash, m_comment, m_tabs, m_formfeed, m_truncate, m_nest, m_splice, m_insert, m_suffix, m_fold]


def _encode(text: str, r) -> bytes:
    """The text as a file might hold it: UTF-8, CRLF or CR endings, a BOM, a coding cookie (the
    text in that encoding), bytes that are not UTF-8 in a comment, no final newline, a NUL."""
    kind = r.randrange(10)
    if kind == 0:
        text = text.replace("\n", "\r\n")
    elif kind == 1:
        text = text.replace("\n", "\r")
    data = text.encode("utf-8", "surrogatepass")
    kind = r.randrange(14)
    if kind == 0:
        data = b"\xef\xbb\xbf" + data
    elif kind == 1:
        data = b"# -*- coding: latin-1 -*-\n" + text.encode("latin-1", "replace")
    elif kind == 2:  # non-ASCII characters as escapes, and some of a name's underscores
        escaped = re.sub(r"[^\x00-\x7f]", lambda m: f"\\U{ord(m.group()):08x}", text)
        escaped = re.sub(r"(?<=\w)_(?=\w)", lambda m: "\\u005f" if r.random() < 0.3 else "_", escaped)
        data = b"# coding: unicode_escape\n" + escaped.encode("ascii", "replace")
    elif kind == 3:
        data = data.rstrip(b"\r\n")
    elif kind == 4:
        data = data + b"\n# \xff\xfe odd " + bytes([r.randrange(128, 256)]) + b"\n"
    elif kind == 5:
        at = r.randrange(len(data) + 1)
        data = data[:at] + r.choice([b"\x00", b"\xff", b"\r", b"\x0c", b"\x1a"]) + data[at:]
    return data


@st.composite
def mutated_fixtures(draw):
    text = draw(st.sampled_from(SEEDS))
    r = draw(st.randoms(use_true_random=False))
    for mutation in draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=5)):
        text = mutation(text, r)
    return _encode(text, r)


_TORCH_HEAD = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
               "net = nn.Linear(2, 2)\nx = net(torch.ones(2))\n")


_GRAMMAR = st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node())  # (costly to build: once)


@st.composite
def grammar_programs(draw):
    """hypothesmith's programs, given torch and a few torch statements to carry into its code."""
    code = draw(_GRAMMAR)
    r = draw(st.randoms(use_true_random=False))
    if r.random() < 0.7:
        code = _TORCH_HEAD + code
        for mutation in draw(st.lists(st.sampled_from([m_insert, m_suffix, m_keyword, m_no_grad, m_splice, m_rename]),
                                      max_size=4)):
            code = mutation(code, r)
    return _encode(code, r) if r.random() < 0.3 else code.encode("utf-8", "surrogatepass")


_single = st.sampled_from(SINGLE)
_depth = st.integers(3, 60)


# ---------------------------------------------------------------------------------------------
# The tests

def test_the_seeds_are_there():
    assert len(SEEDS) > 250


@settings(max_examples=80, derandomize=True, **_SETTINGS)
@given(mutated_fixtures(), _single, _depth)
def test_mutated_fixtures_read_the_same_through_every_gate(source, single, depth):
    _judge(source, single, depth)


@settings(max_examples=30, derandomize=True, **_SETTINGS)
@given(grammar_programs(), _single, _depth)
def test_grammar_programs_read_the_same_through_every_gate(source, single, depth):
    _judge(source, single, depth)


@pytest.mark.slow
@settings(max_examples=3000, **_SETTINGS)
@given(mutated_fixtures(), _single, _depth)
def test_thousands_of_mutated_fixtures_read_the_same_through_every_gate(source, single, depth):
    _judge(source, single, depth)


@pytest.mark.slow
@settings(max_examples=1000, **_SETTINGS)
@given(grammar_programs(), _single, _depth)
def test_a_thousand_grammar_programs_read_the_same_through_every_gate(source, single, depth):
    _judge(source, single, depth)
