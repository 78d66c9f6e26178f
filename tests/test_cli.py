"""The ``gradlint`` command: exit codes, options, stdin, errors, ``gradlint rule``.

Findings come from GL000 (a file that does not parse) or from a stubbed ``lint_source``, so these
tests do not depend on what the other rules find.
"""
from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import __version__, cli, engine, lint_paths, lint_source, rule
from gradlint.finding import Finding
from gradlint.rule import BY_CODE, DEFAULT_CODES, UNCHECKED_CODES as UNCHECKED

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
    assert err.splitlines() == ["Found 1 finding in 1 file (1 file checked, 1 not checked)."]


def test_no_findings_exit_0(project, capsys, clean_checks):
    (project / "good.py").write_text(GOOD)
    assert check(capsys) == (0, "", "No findings (1 file checked).\n")


def test_exit_zero(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, _ = check(capsys, "--exit-zero")
    assert code == 0 and "GL000" in out


def test_missing_path_exits_2_and_the_other_paths_are_checked(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "nope.py", "bad.py")
    assert code == 2
    assert out.startswith("bad.py:1:7: GL000")
    assert err.splitlines() == [
        "gradlint: error: nope.py: no such file or directory",
        "Found 1 finding in 1 file (1 file not checked, 1 error).",
    ]


def test_symlink_loop_named_explicitly_says_so(project, capsys):
    (project / "loop.py").symlink_to("loop.py")
    code, _, err = check(capsys, "loop.py")
    assert code == 2
    assert err.splitlines()[0] == "gradlint: error: loop.py: too many levels of symbolic links"


def test_usage_error_is_one_line_and_exits_2(project, capsys):
    code, _, err = check(capsys, "--output-format", "xml")
    assert code == 2
    assert err.startswith("gradlint: error: argument --output-format: invalid choice: 'xml'")
    assert err.count("\n") == 1 and err.endswith("(see 'gradlint check --help')\n")


def test_unknown_option_names_the_commands_help(project, capsys):
    code, _, err = check(capsys, "--bogus")
    assert code == 2
    assert err == "gradlint: error: unrecognized arguments: --bogus (see 'gradlint check --help')\n"


def test_a_crash_exits_2_not_1(tmp_path):
    """An exception gradlint did not expect is a bug: its traceback is shown, and the status must
    not read as "findings"."""
    script = ("import sys; from gradlint import cli\n"
              "def boom(args): raise RuntimeError('boom')\n"
              "cli._check = boom\n"
              "sys.argv = ['gradlint', 'check', '.']\n"
              "cli.run()\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 2
    assert "RuntimeError: boom" in proc.stderr
    assert proc.stderr.splitlines()[-1] == "gradlint: error: internal error; please report it with the traceback above"


def test_no_command_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    assert "usage: gradlint" in capsys.readouterr().err


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"gradlint {__version__}\n"


# --- selection ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, expected", [
    ([], set(DEFAULT_CODES)),  # every rule but the off-by-default GL900
    (["--select", "GL001"], {"GL001", *UNCHECKED}),
    (["--select", "gl001,GL002", "--select", "GL005"], {"GL001", "GL002", "GL005", *UNCHECKED}),
    (["--select", "GL00"], {code for code in BY_CODE if code.startswith("GL00")} | UNCHECKED),
    (["--select", "ALL"], set(BY_CODE)),
    (["--select", "GL900"], {"GL900", *UNCHECKED}),
    (["--select", "unused-suppression,GL001"], {"GL001", "GL900", *UNCHECKED}),
    (["--select", "ALL", "--ignore", "GL001,GL002"], set(BY_CODE) - {"GL001", "GL002"}),
    (["--ignore", "GL00"], {code for code in DEFAULT_CODES if not code.startswith("GL00")}),
    (["--select", "detached-result"], {"GL001", *UNCHECKED}),
    (["--select", "Detached-Result,inplace-on-saved"], {"GL001", "GL005", *UNCHECKED}),
    (["--select", "ALL", "--ignore", "syntax-error"], set(BY_CODE) - {"GL000"}),
    (["--ignore", ""], set(DEFAULT_CODES)),  # clears the config's ignore
])
def test_select_and_ignore(project, capsys, monkeypatch, args, expected):
    seen = []
    monkeypatch.setattr(engine, "lint_source", lambda source, path, codes: seen.append(codes) or [])
    (project / "a.py").write_text(GOOD)
    assert check(capsys, *args)[0] == 0
    assert seen == [frozenset(expected)]


@pytest.mark.parametrize("config, args, expected", [
    ("", ["--extend-select", "GL900"], set(BY_CODE)),
    ("", ["--extend-ignore", "GL001,GL002"], set(DEFAULT_CODES) - {"GL001", "GL002"}),
    ("select = ['GL001']", ["--extend-select", "GL005"], {"GL001", "GL005", *UNCHECKED}),
    ("select = ['GL001']\nextend-select = ['GL002']", ["--extend-select", "GL005"], {"GL001", "GL002", "GL005", *UNCHECKED}),
    # --select replaces the config's whole selection, its extend-select too (ruff's layers)
    ("extend-select = ['GL900']", ["--select", "GL001"], {"GL001", *UNCHECKED}),
    ("extend-select = ['GL900']", ["--select", "GL001", "--extend-select", "GL002"], {"GL001", "GL002", *UNCHECKED}),
    ("ignore = ['GL001']", ["--extend-ignore", "GL002"], set(DEFAULT_CODES) - {"GL001", "GL002"}),
    ("ignore = ['GL001']\nextend-ignore = ['GL002']", [], set(DEFAULT_CODES) - {"GL001", "GL002"}),
    ("extend-ignore = ['GL002']", ["--ignore", "GL001"], set(DEFAULT_CODES) - {"GL001"}),
    ("extend-ignore = ['GL002']", ["--ignore", "", "--extend-ignore", "GL003"], set(DEFAULT_CODES) - {"GL003"}),
    ("select = ['ALL']\nextend-ignore = ['GL9']", [], set(DEFAULT_CODES)),
])
def test_extend_select_and_extend_ignore(project, capsys, monkeypatch, config, args, expected):
    seen = []
    monkeypatch.setattr(engine, "lint_source", lambda source, path, codes: seen.append(codes) or [])
    (project / "pyproject.toml").write_text(f"[tool.gradlint]\n{config}\n")
    (project / "a.py").write_text(GOOD)
    assert check(capsys, "--no-cache", *args)[0] == 0
    assert seen == [frozenset(expected)]


@pytest.mark.parametrize("option", ["--extend-select", "--extend-ignore"])
def test_an_unknown_selector_in_an_extend_option_exits_2(project, capsys, option):
    code, out, err = check(capsys, option, "GL001,detached-rezult")
    assert (code, out) == (2, "")
    assert err.startswith(f"gradlint: error: {option}: unknown rule selector 'detached-rezult' ")


def test_ignoring_gl000_silences_syntax_errors(project, capsys):
    (project / "bad.py").write_text(BAD)
    assert check(capsys, "--ignore", "GL000")[0] == 0
    assert check(capsys, "--select", "GL001", "--ignore", "syntax-error")[0] == 0
    assert check(capsys, "--select", "GL0")[0] == 1


def test_a_file_that_does_not_parse_is_said_under_any_selection(project, capsys):
    # ruff's way: "No findings" of a file nothing read would be false, whatever --select says.
    (project / "bad.py").write_text(BAD)
    code, out, _ = check(capsys, "--select", "GL005")
    assert code == 1 and "GL000" in out


def test_unknown_selector_exits_2(project, capsys):
    code, _, err = check(capsys, "--select", "GL001,GL7")
    assert code == 2
    assert err.startswith("gradlint: error: --select: unknown rule selector 'GL7' (rules are GL000,")


def test_unknown_selector_is_echoed_as_typed(project, capsys):
    code, _, err = check(capsys, "--ignore", "detached-rezult")
    assert code == 2
    assert err.startswith("gradlint: error: --ignore: unknown rule selector 'detached-rezult' ")


def test_no_rules_selected_warns(project, capsys, monkeypatch):
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "--ignore", "ALL")
    assert (code, out) == (0, "")
    assert err.splitlines() == ["gradlint: warning: no rules selected", "No findings (1 file checked)."]


@pytest.mark.parametrize("selection", ["", ",", " "])
def test_an_empty_select_is_an_error(project, capsys, selection):
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "--select", selection)
    assert (code, out) == (2, "")
    assert err == "gradlint: error: --select: no rules given (to run no rule, use --ignore ALL)\n"


def test_an_empty_path_is_an_error_not_the_current_folder(project, capsys):
    # (`gradlint check "$CHANGED_FILES"` with nothing changed must not lint everything)
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "")
    assert (code, out) == (2, "")
    assert err == "gradlint: error: an empty path was given; name a file or folder (`.` for the current one)\n"


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


@pytest.mark.parametrize("output_format", [[], ["--output-format", "concise"], ["--output-format", "full"]])
def test_statistics_print_only_the_counts(project, capsys, output_format):
    # As ruff's --statistics: the table instead of the findings, not after them.
    (project / "a.py").write_text(BAD)
    (project / "b.py").write_text(BAD)
    (project / "c.py").write_text("x = 1  # noqa: GL001\n")
    code, out, err = check(capsys, "--statistics", "--select", "GL000,GL001,GL900", *output_format)
    assert code == 1
    assert out == "  2  GL000  syntax-error\n  1  GL900  unused-suppression\n"
    assert err == "Found 3 findings in 3 files (1 file checked, 2 not checked).\n"


def test_quiet_drops_the_summary(project, capsys, clean_checks):
    (project / "bad.py").write_text(BAD)
    code, out, err = check(capsys, "--quiet")
    assert code == 1 and out and err == ""


def test_output_never_fails_to_encode(project, monkeypatch):
    # A terminal or pipe that is not UTF-8 (PYTHONIOENCODING=ascii) gets '?' for what it lacks.
    (project / "bad.py").write_text("def f(:  # naïve …\n", encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    err = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main(["check", "--output-format", "full", "bad.py"]) == 1
    out.flush()
    assert "  1 | def f(:  # na?ve ?\n" in out.buffer.getvalue().decode("ascii")


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
    assert "Found 1 finding in 1 file (1 file not checked, 1 error)." in err
    assert "Traceback" not in err


def test_unreadable_file_is_reported_and_the_run_continues(project, capsys, monkeypatch):
    from gradlint import files

    (project / "secret.py").write_text(GOOD)
    (project / "other.py").write_text(BAD)
    real = files.read

    def read(path):  # every read of a file the user named goes through files.read
        if Path(path).name == "secret.py":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path)

    monkeypatch.setattr(files, "read", read)
    code, out, err = check(capsys)
    assert code == 2
    assert out.startswith("other.py:1:7: GL000")
    assert "gradlint: error: secret.py: cannot read: Permission denied" in err


def test_dangling_symlink_in_a_folder_is_passed_by(project, capsys):
    (project / ".#train.py").symlink_to("gone.py")  # an editor's lock file
    (project / "train.py").write_text(BAD)
    code, out, err = check(capsys)
    assert code == 1
    assert out.startswith("train.py:1:7: GL000")
    assert err == "Found 1 finding in 1 file (1 file not checked).\n"


def test_folder_that_cannot_be_listed_is_reported_and_the_run_continues(project, capsys, monkeypatch):
    (project / "locked").mkdir()
    (project / "locked" / "inside.py").write_text(BAD)
    (project / "other.py").write_text(BAD)
    locked = Path(os.path.abspath("locked"))
    real_stat, real_scandir = os.stat, os.scandir

    def denied(path):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))

    # What a folder with mode 000 does for a user who is not root: it is there, but may not be
    # listed, and nothing inside it can be looked at.
    def stat(path, *args, **kwargs):
        if Path(os.path.abspath(path)).parent == locked:
            raise denied(path)
        return real_stat(path, *args, **kwargs)

    def scandir(path="."):
        if Path(os.path.abspath(path)) == locked:
            raise denied(path)
        return real_scandir(path)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = check(capsys)
    assert code == 2
    assert out.startswith("other.py:1:7: GL000")
    assert err.splitlines() == [
        "gradlint: error: locked: cannot list: Permission denied",
        "Found 1 finding in 1 file (1 file not checked, 1 error).",
    ]


# --- gradlint rule ------------------------------------------------------------------------------

def test_rule_all_lists_the_catalogue(capsys):
    assert cli.main(["rule", "--all"]) == 0
    out = capsys.readouterr().out
    for code in ("GL000", "GL001", "GL002", "GL003", "GL004", "GL005", "GL900"):
        assert code in out
    assert "detached-result" in out and "unused-suppression" in out
    assert "(off by default)" in " ".join(out.split())  # the table wraps the summary


DOC = (
    "# detached-result (GL001)\n\n## What it does\n\nFinds `x.detach()`.\n\n"
    "```python\n" + "loss = model(inputs).detach() + " + "weight * 2 + " * 8 + "bias\n```\n"
)


@pytest.mark.parametrize("query", ["GL001", "gl001", "detached-result"])
def test_rule_renders_its_document_on_a_terminal(capsys, monkeypatch, tmp_path, query):
    (tmp_path / "GL001-detached-result.md").write_text(DOC)
    monkeypatch.setattr(rule, "_doc_folders", lambda: [tmp_path])
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli.main(["rule", query]) == 0
    out = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)  # rich's styles
    assert "detached-result (GL001)" in out and "Finds x.detach()." in out
    assert "## What it does" not in out  # rendered, not raw


def test_rule_prints_raw_markdown_when_not_on_a_terminal(capsys, monkeypatch, tmp_path):
    # ``gradlint rule GL001 | less``: no wrapping of the example code, backticks kept.
    (tmp_path / "GL001-detached-result.md").write_text(DOC)
    monkeypatch.setattr(rule, "_doc_folders", lambda: [tmp_path])
    assert cli.main(["rule", "GL001"]) == 0
    assert capsys.readouterr().out == DOC


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
        f"gradlint: error: unknown rule 'GL999' (rules are {', '.join(BY_CODE)})\n"
    )


def test_rule_needs_a_code_or_all(capsys):
    assert cli.main(["rule"]) == 2


# --- end to end, in a subprocess ----------------------------------------------------------------

def test_end_to_end_exit_codes(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    found = gradlint("check", "bad.py", cwd=tmp_path)
    assert found.returncode == 1
    assert found.stdout.decode().startswith("bad.py:1:7: GL000 ")
    assert found.stderr.decode() == "Found 1 finding in 1 file (1 file not checked).\n"

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
    findings = lint_paths(["."], frozenset({"GL000"}))
    assert [(f.path, f.code) for f in findings] == [("bad.py", "GL000")]
    assert all(isinstance(f, Finding) for f in findings)


@pytest.mark.parametrize("paths", ["bad.py", Path("bad.py"), ["bad.py"]])
def test_lint_paths_takes_one_path_or_several(project, paths):
    (project / "bad.py").write_text(BAD)
    assert [f.code for f in lint_paths(paths)] == ["GL000"]


@pytest.mark.parametrize("codes", [
    None, {"GL000"}, {"GL00"}, {"ALL"}, {"gl000"}, ["syntax-error"], "GL000,GL001", "all",
])
def test_lint_source_takes_selectors(codes):
    assert [f.code for f in lint_source(BAD, "m.py", codes)] == ["GL000"]


@pytest.mark.parametrize("codes", [set(), {"GL001"}, "GL001"])
def test_lint_source_reports_a_syntax_error_under_any_selection(codes):
    assert [f.code for f in lint_source(BAD, "m.py", codes)] == ["GL000"]


@pytest.mark.parametrize("codes", [{"XYZ"}, {"GL999"}, "GL001,nope"])
def test_lint_source_and_lint_paths_reject_unknown_selectors(project, codes):
    (project / "bad.py").write_text(BAD)
    with pytest.raises(ValueError, match="unknown rule selector"):
        lint_source(BAD, "m.py", codes)
    with pytest.raises(ValueError, match="unknown rule selector"):
        lint_paths("bad.py", codes)
