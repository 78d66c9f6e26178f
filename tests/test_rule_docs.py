"""Every rule's document (``rules/GLxxx-name.md``): its sections, and that its examples behave.

The Example block must be reported with the rule's code; the Use instead block must be clean
under every rule (the off-by-default GL900 included: both are linted with every rule selected). Both are linted by the real engine, so a change to a check that breaks a
document's claim fails here, naming the rule.
"""
from __future__ import annotations

import re

import pytest

from gradlint import cli
from gradlint.engine import lint_source
from gradlint.rule import RULES

SECTIONS = [
    "What it finds",
    "Why it is a bug",
    "Example",
    "Use instead",
    "How the dynamic pass decides",
    "References",
]
CODES = [rule.code for rule in RULES]
BY_CODE = {rule.code: rule for rule in RULES}
_FENCE = re.compile(r"^(`{3,}|~{3,})")


def _doc(code: str) -> str:
    rule = BY_CODE[code]
    assert rule.doc_path is not None, f"{code}: rules/{code}-{rule.name}.md is missing"
    return rule.doc()


def _split(doc: str) -> tuple[list[str], dict[str, str]]:
    """The document's lines up to the first ``##`` heading, and each ``##`` section's text.

    Headings inside fenced code blocks are code, not headings."""
    head: list[str] = []
    sections: dict[str, list[str]] = {}
    current = head
    fence = None
    for line in doc.splitlines():
        marker = _FENCE.match(line)
        if marker and fence is None:
            fence = marker.group(1)
        elif marker and _closes(line, fence):
            fence = None
        elif fence is None and line.startswith("## "):
            title = line[3:].strip()
            assert title not in sections, f"section {title!r} appears twice"
            current = sections.setdefault(title, [])
            continue
        current.append(line)
    return head, {title: "\n".join(lines) for title, lines in sections.items()}


def _closes(line: str, fence: str) -> bool:
    """A closing fence: the opening fence's character, at least as many times, and nothing else."""
    bare = line.rstrip()
    return len(bare) >= len(fence) and bare == fence[0] * len(bare)


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python[ \t]*\n(.*?)^```[ \t]*$", text, re.DOTALL | re.MULTILINE)


def _block(code: str, section: str) -> str:
    _, sections = _split(_doc(code))
    blocks = _python_blocks(sections[section])
    assert len(blocks) == 1, (
        f"{code}: '{section}' must hold exactly one ```python block, found {len(blocks)}")
    return blocks[0]


def _shown(findings) -> str:
    return "\n".join(f"  {f.line}:{f.column} {f.code} {f.message}" for f in findings) or "  (none)"


@pytest.mark.parametrize("code", CODES)
def test_document_exists(code):
    rule = BY_CODE[code]
    assert rule.doc_path is not None, f"{code}: rules/{code}-{rule.name}.md is missing"
    assert rule.doc_path.name == f"{code}-{rule.name}.md"


@pytest.mark.parametrize("code", CODES)
def test_title_names_the_rule(code):
    head, _ = _split(_doc(code))
    titles = [line for line in head if line.startswith("# ")]
    assert titles == [f"# {code}: {BY_CODE[code].name}"]


@pytest.mark.parametrize("code", CODES)
def test_has_exactly_the_six_sections_in_order(code):
    _, sections = _split(_doc(code))
    assert list(sections) == SECTIONS
    for title, text in sections.items():
        assert text.strip(), f"{code}: section '{title}' is empty"


# A file past GL010's limits cannot be shown in a page: its document describes one, tested below.
SHOWN = [code for code in CODES if code != "GL010"]


@pytest.mark.parametrize("code", SHOWN)
def test_example_is_reported_with_the_rule(code):
    findings = lint_source(_block(code, "Example"), "example.py", frozenset(BY_CODE))
    assert any(f.code == code for f in findings), (
        f"{code}: the Example is not reported with {code}; gradlint found:\n{_shown(findings)}")


@pytest.mark.parametrize("code", SHOWN)
def test_use_instead_is_clean(code):
    findings = lint_source(_block(code, "Use instead"), "example.py", frozenset(BY_CODE))
    assert findings == [], f"{code}: the Use instead block is reported:\n{_shown(findings)}"


def test_the_parser_limit_example_is_what_gradlint_says_of_the_file_it_describes(tmp_path, monkeypatch, capsys):
    _, sections = _split(_doc("GL010"))
    described, said = re.findall(r"^```text[ \t]*\n(.*?)^```[ \t]*$", sections["Example"], re.DOTALL | re.MULTILINE)
    head, count = re.match(r"(\w+ = \[)0\.1, 0\.2, 0\.3, \.\.\.\]  # ([\d,]+) numbers", described).groups()
    numbers = int(count.replace(",", ""))
    (tmp_path / "weights.py").write_text(head + "0.1, " * numbers + "]\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "--no-cache", "--output-format", "concise", "weights.py"]) == 1
    assert capsys.readouterr().out.splitlines()[0] == said.strip()
    # Use instead: the toml shown, and the file is no longer linted
    [toml] = re.findall(r"^```toml[ \t]*\n(.*?)^```[ \t]*$", sections["Use instead"], re.DOTALL | re.MULTILINE)
    (tmp_path / "pyproject.toml").write_text(toml)
    assert cli.main(["check", "--no-cache", "."]) == 0


@pytest.mark.parametrize("code", CODES)
def test_references_link_somewhere(code):
    _, sections = _split(_doc(code))
    assert re.search(r"https://\S+", sections["References"]), f"{code}: References holds no link"


@pytest.mark.parametrize("code", CODES)
def test_gradlint_rule_renders_the_document(code, capsys):
    assert cli.main(["rule", code]) == 0
    out, err = capsys.readouterr()
    assert f"{code}: {BY_CODE[code].name}" in out
    assert "What it finds" in out
    assert err == ""
