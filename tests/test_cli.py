"""The ``gradlint`` command: exit codes, options, stdin, errors, ``gradlint rule``.

Findings come from GL000 (a file that does not parse) or from a stubbed ``lint_source``, so these
tests do not depend on what the other rules find.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import __version__, cli, engine, rule
from gradlint.finding import Finding
from gradlint.rule import BY_CODE

BAD = "def f(:\n"
GOOD = "x = 1\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty folder as the current directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def clean_checks(monkeypatch):
    """Parsing modules report nothing, so a run's outcome depends only on the GL000 files."""
    real = engine.lint_source

    def lint_source(source, path, codes=None):
        text = source.decode() if isinstance(source, bytes) else source
        return real(source, path, codes) if text.startswith("def f(:") else []

    monkeypatch.setattr(engine, "lint_source", lint_source)


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def gradlint(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gradlint", *args], cwd=cwd, input=stdin, capture_output=True,
        timeout=60,
    )


# --- exit codes ---------------------------------------------------------------------------------

def test_findings_exit_1_and_print_1_based_positions(project, capsys, clean_checks):
    (project / "bad.py").write_text(BAD)
    (project / "good.py").write_text(GOOD)
    code, out, err = check(capsys)
    assert code == 1
    assert out.startswith("bad.py:1:7: GL000 syntax error")
    assert err.splitlines() == ["Found 1 finding in 1 file (2 files checked)."]


def test_no_findings_exit_0(project, capsys, clean_checks):
    (project / "good.py").write_text(GOOD)
    assert check(capsys) == (0, "", "No findings (1 file checked).\n")


def test_exit_zero(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, _ = check(capsys, "--exit-zero")
    assert code == 0 and "GL000" in out


def test_missing_path_exits_2(project, capsys):
    code, out, err = check(capsys, "nope.py")
    assert code == 2
    assert err == "gradlint: error: nope.py: no such file or directory\n"


def test_usage_error_exits_2(project, capsys):
    code, _, err = check(capsys, "--output-format", "xml")
    assert code == 2 and err.startswith("usage: gradlint check")


def test_no_command_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    assert "usage: gradlint" in capsys.readouterr().err


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"gradlint {__version__}\n"


# --- selection ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, expected", [
    ([], set(BY_CODE)),
    (["--select", "GL001"], {"GL001"}),
    (["--select", "gl001,GL002", "--select", "GL005"], {"GL001", "GL002", "GL005"}),
    (["--select", "GL00"], set(BY_CODE)),
    (["--select", "ALL", "--ignore", "GL001,GL002"], set(BY_CODE) - {"GL001", "GL002"}),
    (["--ignore", "GL00"], set()),
])
def test_select_and_ignore(project, capsys, monkeypatch, args, expected):
    seen = []
    monkeypatch.setattr(engine, "lint_source", lambda source, path, codes: seen.append(codes) or [])
    (project / "a.py").write_text(GOOD)
    assert check(capsys, *args)[0] == 0
    assert seen == [frozenset(expected)]


def test_ignoring_gl000_silences_syntax_errors(project, capsys):
    (project / "bad.py").write_text(BAD)
    assert check(capsys, "--ignore", "GL000")[0] == 0
    assert check(capsys, "--select", "GL001")[0] == 0
    assert check(capsys, "--select", "GL0")[0] == 1


def test_unknown_selector_exits_2(project, capsys):
    code, _, err = check(capsys, "--select", "GL001,GL9")
    assert code == 2
    assert err.startswith("gradlint: error: --select: unknown rule selector 'GL9' (rules are GL000,")


# --- output -------------------------------------------------------------------------------------

def test_output_is_sorted_across_files(project, capsys):
    for name in ("b.py", "a.py", "pkg/c.py"):
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text(BAD)
    _, out, _ = check(capsys, "pkg", ".")
    assert [line.split(":")[0] for line in out.splitlines()] == ["a.py", "b.py", "pkg/c.py"]


def test_json_output_and_statistics_on_stderr(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "--output-format", "json", "--statistics")
    assert code == 1
    [finding] = json.loads(out)
    assert (finding["code"], finding["line"], finding["column"]) == ("GL000", 1, 7)
    assert err == "  1  GL000  syntax-error\n"  # no summary line: stderr is free for statistics


def test_json_output_with_no_findings_is_an_empty_array(project, capsys):
    code, out, _ = check(capsys, "--output-format", "json")
    assert (code, json.loads(out)) == (0, [])


def test_statistics_follow_the_findings(project, capsys):
    (project / "a.py").write_text(BAD)
    (project / "b.py").write_text(BAD)
    _, out, _ = check(capsys, "--statistics")
    assert out.splitlines()[-1] == "  2  GL000  syntax-error"


def test_quiet_drops_the_summary(project, capsys, clean_checks):
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "--quiet")
    assert code == 1 and out and err == ""


def test_full_format_quotes_the_source(project, capsys):
    (project / "bad.py").write_text(BAD)
    _, out, _ = check(capsys, "--output-format", "full")
    assert "  1 | def f(:\n" in out and "  hint: " in out


def test_no_cache_is_accepted(project, capsys):
    (project / "bad.py").write_text(BAD)
    assert check(capsys, "--no-cache")[0] == 1


def test_empty_folder_warns(project, capsys):
    code, _, err = check(capsys)
    assert code == 0
    assert "no Python files found" in err


# --- stdin --------------------------------------------------------------------------------------

def stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_stdin_uses_the_given_name(project, capsys, monkeypatch):
    stdin(monkeypatch, BAD.encode())
    code, out, _ = check(capsys, "-", "--stdin-filename", "pkg/model.py")
    assert code == 1 and out.startswith("pkg/model.py:1:7: GL000")


def test_stdin_without_a_name_is_dash(project, capsys, monkeypatch):
    stdin(monkeypatch, BAD.encode())
    _, out, _ = check(capsys, "-")
    assert out.startswith("-:1:7: GL000")


def test_stdin_name_matches_per_file_ignores(project, capsys, monkeypatch):
    (project / "pyproject.toml").write_text("[tool.gradlint.per-file-ignores]\n'legacy/*' = ['GL000']\n")
    stdin(monkeypatch, BAD.encode())
    assert check(capsys, "-", "--stdin-filename", "legacy/old.py")[0] == 0
    stdin(monkeypatch, BAD.encode())
    assert check(capsys, "--stdin-filename", "src/new.py")[0] == 1  # no PATH: reads stdin


# --- errors in one file do not stop the run -----------------------------------------------------

def test_internal_error_is_reported_and_the_run_continues(project, capsys, monkeypatch):
    real = engine.lint_source

    def lint_source(source, path, codes=None):
        if path == "boom.py":
            raise KeyError("scope")
        return real(source, path, codes)

    monkeypatch.setattr(engine, "lint_source", lint_source)
    (project / "boom.py").write_text(GOOD)
    (project / "other.py").write_text(BAD)
    code, out, err = check(capsys)
    assert code == 2
    assert out.startswith("other.py:1:7: GL000")
    assert "gradlint: internal error while checking boom.py: KeyError: 'scope' (please report this)" in err
    assert "Found 1 finding in 1 file (1 file checked)." in err
    assert "Traceback" not in err


def test_unreadable_file_is_reported_and_the_run_continues(project, capsys):
    (project / "dangling.py").symlink_to(project / "gone.py")
    (project / "other.py").write_text(BAD)
    code, out, err = check(capsys)
    assert code == 2
    assert out.startswith("other.py:1:7: GL000")
    assert "gradlint: error: dangling.py: cannot read: No such file or directory" in err


# --- gradlint rule ------------------------------------------------------------------------------

def test_rule_all_lists_the_catalogue(capsys):
    assert cli.main(["rule", "--all"]) == 0
    out = capsys.readouterr().out
    for code in ("GL000", "GL001", "GL002", "GL003", "GL004", "GL005"):
        assert code in out
    assert "detached-result" in out


@pytest.mark.parametrize("query", ["GL001", "gl001", "detached-result"])
def test_rule_renders_its_document(capsys, monkeypatch, tmp_path, query):
    (tmp_path / "GL001-detached-result.md").write_text("# detached-result (GL001)\n\n## What it does\n\nFinds it.\n")
    monkeypatch.setattr(rule, "_doc_folders", lambda: [tmp_path])
    assert cli.main(["rule", query]) == 0
    out = capsys.readouterr().out
    assert "detached-result (GL001)" in out and "Finds it." in out


def test_rule_without_a_document_exits_2(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(rule, "_doc_folders", lambda: [tmp_path])
    assert cli.main(["rule", "GL001"]) == 2
    assert capsys.readouterr().err == (
        "gradlint: error: no document for GL001 (detached-result): "
        "this install lacks the rule documents (rules/*.md)\n"
    )


def test_unknown_rule_exits_2_with_the_codes(capsys):
    assert cli.main(["rule", "GL999"]) == 2
    assert capsys.readouterr().err == (
        "gradlint: error: unknown rule 'GL999' (rules are GL000, GL001, GL002, GL003, GL004, GL005)\n"
    )


def test_rule_needs_a_code_or_all(capsys):
    assert cli.main(["rule"]) == 2


# --- end to end, in a subprocess ----------------------------------------------------------------

def test_end_to_end_exit_codes(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    found = gradlint("check", "bad.py", cwd=tmp_path)
    assert found.returncode == 1
    assert found.stdout.decode().startswith("bad.py:1:7: GL000 ")
    assert found.stderr.decode() == "Found 1 finding in 1 file (1 file checked).\n"

    (tmp_path / "bad.py").write_text("def f(:  # noqa\n")
    clean = gradlint("check", "bad.py", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, b"")

    missing = gradlint("check", "nope", cwd=tmp_path)
    assert missing.returncode == 2 and b"Traceback" not in missing.stderr


def test_end_to_end_config_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.gradlint]\nselct = ['GL001']\n")
    result = gradlint("check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        "gradlint: error: pyproject.toml: unknown key 'selct' in [tool.gradlint] (did you mean 'select'?)\n"
    )


def test_end_to_end_stdin_and_version(tmp_path):
    result = gradlint("check", "-", "--stdin-filename", "m.py", "--output-format", "json",
                      cwd=tmp_path, stdin=BAD.encode())
    assert result.returncode == 1
    assert [f["path"] for f in json.loads(result.stdout)] == ["m.py"]
    version = gradlint("--version", cwd=tmp_path)
    assert version.stdout.decode() == f"gradlint {__version__}\n"


def test_public_api_is_importable_without_torch():
    code = (
        "import sys, gradlint; "
        "names = [gradlint.lint_source, gradlint.lint_paths, gradlint.Finding, gradlint.Verdict, "
        "gradlint.Severity, gradlint.RULES]; "
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_lint_paths(project):
    (project / "bad.py").write_text(BAD)
    from gradlint import lint_paths

    findings = lint_paths(["."], frozenset({"GL000"}))
    assert [(f.path, f.code) for f in findings] == [("bad.py", "GL000")]
    assert all(isinstance(f, Finding) for f in findings)
