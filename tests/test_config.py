"""``[tool.gradlint]``: where it is found, what it may say, and the errors for what it may not."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import cli, config
from gradlint.rule import BY_CODE, UNCHECKED_CODES as UNCHECKED

BAD = "def f(:\n"  # a GL000 finding, whatever the other rules do


def write_config(folder: Path, body: str) -> Path:
    path = folder / "pyproject.toml"
    path.write_text(f"[project]\nname = 'demo'\n\n[tool.gradlint]\n{body}\n")
    return path


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("body, message", [
    ("selct = ['GL001']",
     "gradlint: error: pyproject.toml: unknown key 'selct' in [tool.gradlint] (did you mean 'select'?)"),
    ("extend_exclude = ['x']",
     "gradlint: error: pyproject.toml: unknown key 'extend_exclude' in [tool.gradlint] (did you mean 'extend-exclude'?)"),
    ("select = 'GL001'",
     "gradlint: error: pyproject.toml: 'select' in [tool.gradlint] must be a list of strings, not str 'GL001'"),
    ("ignore = [1]",
     "gradlint: error: pyproject.toml: 'ignore' in [tool.gradlint] must be a list of strings, not list [1]"),
    ("per-file-ignores = ['GL001']",
     "gradlint: error: pyproject.toml: 'per-file-ignores' in [tool.gradlint] must be a table of pattern = list of codes, not list ['GL001']"),
    ("select = ['GL999']",
     "gradlint: error: pyproject.toml: in 'select': unknown rule selector 'GL999'"),
    ("ignore = ['detached-rezult']",  # echoed as written, not upper-cased
     "gradlint: error: pyproject.toml: in 'ignore': unknown rule selector 'detached-rezult'"),
    ("select = []",
     "gradlint: error: pyproject.toml: 'select' in [tool.gradlint] is empty (to run no rule, use ignore = [\"ALL\"])"),
    ("[tool.gradlint.per-file-ignores]\n'tests/*' = ['GL7']",
     "gradlint: error: pyproject.toml: in 'per-file-ignores 'tests/*'': unknown rule selector 'GL7'"),
    ("select = ['GL001'",
     "gradlint: error: pyproject.toml: invalid TOML: "),
    ("extend-select = 'GL001'",
     "gradlint: error: pyproject.toml: 'extend-select' in [tool.gradlint] must be a list of strings, not str 'GL001'"),
    ("extend-ignore = ['GL7']",
     "gradlint: error: pyproject.toml: in 'extend-ignore': unknown rule selector 'GL7'"),
    ('per-file-ignores = {"x" = "GL005"}',
     "gradlint: error: pyproject.toml: in 'per-file-ignores': 'x' must be a list of codes, not str 'GL005'"),
    ("[tool.gradlint.per-file-ignores]\n'tests/*' = [5]",
     "gradlint: error: pyproject.toml: in 'per-file-ignores': 'tests/*' must be a list of codes, not list [5]"),
])
def test_config_errors_exit_2_with_one_line(tmp_path, monkeypatch, capsys, body, message):
    write_config(tmp_path, body)
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys)
    assert code == 2
    assert err.startswith(message)
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("text, message", [
    ('tool = "gradlint"', "pyproject.toml: 'tool' must be a table, not str 'gradlint'"),
    ("tool = 1", "pyproject.toml: 'tool' must be a table, not int 1"),
    ('tool = ["gradlint"]', "pyproject.toml: 'tool' must be a table, not list ['gradlint']"),
    ("[tool]\ngradlint = 3", "pyproject.toml: [tool.gradlint] must be a table, not int 3"),
    ("[tool]\ngradlint = ['GL001']", "pyproject.toml: [tool.gradlint] must be a table, not list ['GL001']"),
])
def test_a_malformed_tool_entry_is_a_config_error(tmp_path, monkeypatch, capsys, text, message):
    (tmp_path / "pyproject.toml").write_text(f"{text}\n\n[project]\nname = 'demo'\n")
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys)
    assert (code, out, err) == (2, "", f"gradlint: error: {message}\n")


def test_toml_error_names_the_position(tmp_path):
    write_config(tmp_path, "select = ['GL001'\nignore = []")
    with pytest.raises(config.ConfigError, match=r"pyproject.toml: invalid TOML: .*line \d+"):
        config.load(start=tmp_path)


def test_nearest_pyproject_with_the_table_wins(tmp_path):
    write_config(tmp_path, "ignore = ['GL004']")
    sub = tmp_path / "pkg"
    sub.mkdir()
    (sub / "pyproject.toml").write_text("[project]\nname = 'inner'\n")  # no [tool.gradlint]
    loaded = config.load(start=sub)
    assert loaded.path == tmp_path / "pyproject.toml"
    assert loaded.root == tmp_path
    assert loaded.ignore == ["GL004"]


def test_no_config_means_defaults(tmp_path):
    loaded = config.load(start=tmp_path)
    assert loaded.path is None and loaded.select is None and loaded.exclude is None


def test_config_option_names_the_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "elsewhere").mkdir()
    settings = write_config(tmp_path / "elsewhere", "ignore = ['GL000']")
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert check(capsys, "a.py")[0] == 1  # the config elsewhere is not found by walking up
    assert check(capsys, "a.py", "--config", str(settings))[0] == 0
    code, _, err = check(capsys, "--config", "missing.toml")
    assert code == 2 and "missing.toml: no such config file" in err
    code, _, err = check(capsys, "--config", ".")
    assert code == 2 and err.startswith("gradlint: error: .: is a folder; --config names the pyproject.toml")


def test_a_config_that_is_not_utf8_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.gradlint]\nselect = ["GL001"] # caf\xe9\n')
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys, "a.py")
    assert (code, out) == (2, "")
    assert err == "gradlint: error: pyproject.toml: invalid TOML: not UTF-8 (line 2)\n"


def test_config_option_naming_a_file_without_the_table_is_an_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "other.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys, "a.py", "--config", "other.toml")
    assert (code, out) == (2, "")
    assert err == "gradlint: error: other.toml: has no [tool.gradlint] table\n"


def test_rule_names_work_in_select_ignore_and_per_file_ignores(tmp_path, monkeypatch, capsys):
    write_config(tmp_path, "select = ['Syntax-Error', 'detached-result']\n"
                           "[tool.gradlint.per-file-ignores]\n'legacy/*' = ['syntax-error']")
    for name in ("a.py", "legacy/b.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BAD)
    monkeypatch.chdir(tmp_path)
    code, out, _ = check(capsys, "--output-format", "concise")
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["a.py"]
    assert config.load().select == ["Syntax-Error", "detached-result"]
    write_config(tmp_path, "ignore = ['syntax-error']")
    assert check(capsys)[0] == 0


def test_config_select_and_ignore_and_the_command_line_overriding_them(tmp_path, monkeypatch, capsys):
    write_config(tmp_path, "ignore = ['GL000']")
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert check(capsys)[0] == 0
    assert check(capsys, "--ignore", "GL004")[0] == 1  # replaces the config's ignore


def test_per_file_ignores(tmp_path, monkeypatch, capsys):
    write_config(tmp_path, "[tool.gradlint.per-file-ignores]\n'legacy/**' = ['GL0']\n'gen_*.py' = ['ALL']")
    for name in ("a.py", "legacy/old/b.py", "pkg/gen_c.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BAD)
    monkeypatch.chdir(tmp_path / "legacy")  # patterns are relative to the config's folder
    code, out, _ = check(capsys, "..", "--output-format", "concise")
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["../a.py"]


def test_codes_for_resolves_prefixes(tmp_path):
    loaded = config.Config(root=tmp_path, per_file_ignores={"tests/": ["GL00"], "*.py": []})
    every = frozenset(BY_CODE)
    assert loaded.codes_for(tmp_path / "tests" / "t.py", every) == every - {
        "GL000", "GL001", "GL002", "GL003", "GL004", "GL005"}  # GL00 is not a prefix of GL900
    assert loaded.codes_for(tmp_path / "src" / "t.py", every) == every


def test_exclude_and_extend_exclude_reach_discovery(tmp_path, monkeypatch, capsys):
    write_config(tmp_path, "extend-exclude = ['experiments/']")
    for name in ("a.py", "experiments/b.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BAD)
    monkeypatch.chdir(tmp_path)
    _, out, _ = check(capsys, "--output-format", "concise")
    assert [line.split(":")[0] for line in out.splitlines()] == ["a.py"]


@pytest.mark.parametrize("key, pattern", [
    ("exclude", "[z-a]"),
    ("extend-exclude", "[z-a]"),
    ("extend-exclude", "\\"),  # a lone backslash
    ("per-file-ignores", "!"),
    ("per-file-ignores", "src/[z-a].py"),
])
def test_a_pattern_pathspec_rejects_is_a_config_error_naming_key_and_pattern(
        tmp_path, monkeypatch, capsys, key, pattern):
    quoted = pattern.replace("\\", "\\\\")
    body = (f"[tool.gradlint.per-file-ignores]\n\"{quoted}\" = ['GL001']" if key == "per-file-ignores"
            else f"{key} = [\"{quoted}\"]")
    write_config(tmp_path, body)
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    for args in ((), ("a.py",), ("--force-exclude", "a.py")):
        code, out, err = check(capsys, *args)
        assert (code, out) == (2, "")
        assert err.startswith(f"gradlint: error: pyproject.toml: in '{key}': invalid pattern "
                              f"'{pattern}': ")
        assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_pyproject_nested_too_deep_is_one_line(tmp_path, monkeypatch, capsys):
    # Deep in another tool's table: tomllib recurses once per level.
    (tmp_path / "pyproject.toml").write_text(
        "[tool.gradlint]\nselect = ['ALL']\n[other]\nx = " + "[" * 2000 + "]" * 2000 + "\n")
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys, "a.py")
    assert (code, out) == (2, "")
    assert err == "gradlint: error: pyproject.toml: invalid TOML: nested too deeply to read\n"


@pytest.mark.parametrize("typo, meant", [
    ("selct", "select"),
    ("extend_select", "extend-select"),
    ("extend-selct", "extend-select"),
    ("extnd-ignore", "extend-ignore"),
    ("extend_ignore", "extend-ignore"),
    ("ignor", "ignore"),
    ("exclud", "exclude"),
    ("extend_exclude", "extend-exclude"),
    ("per_file_ignores", "per-file-ignores"),
    ("per-file-ignore", "per-file-ignores"),
])
def test_an_unknown_key_suggests_the_closest_real_key(tmp_path, typo, meant):
    write_config(tmp_path, f"{typo} = ['GL001']")
    with pytest.raises(config.ConfigError) as err:
        config.load(start=tmp_path)
    assert str(err.value) == (f"{tmp_path / 'pyproject.toml'}: unknown key '{typo}' in "
                              f"[tool.gradlint] (did you mean '{meant}'?)")


def test_extend_select_and_extend_ignore_add_to_select_and_ignore(tmp_path):
    write_config(tmp_path, "select = ['GL001']\nextend-select = ['GL005', 'unused-suppression']\n"
                           "ignore = ['GL002']\nextend-ignore = ['GL900']")
    loaded = config.load(start=tmp_path)
    assert loaded.extend_select == ["GL005", "unused-suppression"]
    assert loaded.extend_ignore == ["GL900"]
    assert loaded.codes() == {"GL001", "GL005", *UNCHECKED}
    write_config(tmp_path, "extend-select = ['GL900']")  # on top of the default rules
    assert config.load(start=tmp_path).codes() == set(BY_CODE)


def test_a_rule_the_command_line_names_runs_though_the_config_ignores_it(tmp_path):
    # As in ruff, the more specific selector wins: `--select GL005` (or its name) beats the
    # config's `ignore = ["GL005"]`; `--select ALL` or a prefix leaves the config's ignores on.
    write_config(tmp_path, "ignore = ['GL005', 'GL004']")
    loaded = config.load(start=tmp_path)
    assert loaded.codes() == set(BY_CODE) - {"GL005", "GL004", "GL900"}
    assert loaded.codes(select=["GL005"]) == {"GL005", *UNCHECKED}
    assert loaded.codes(select=["inplace-on-saved", "GL001"]) == {"GL005", "GL001", *UNCHECKED}
    assert loaded.codes(select=["ALL"]) == set(BY_CODE) - {"GL005", "GL004"}
    assert loaded.codes(select=["GL00"]) == ({c for c in BY_CODE if c.startswith("GL00")} | UNCHECKED) - {"GL005", "GL004"}
    assert loaded.codes(select=["GL005"], ignore=["GL005"]) == UNCHECKED  # the command line's own ignore


TREE = ("a.py", "tests/t.py", "tests/sub/test_u.py", "pkg/tests/v.py", "pkg/test_w.py", "pkg/x.py")


@pytest.mark.parametrize("pattern", ["tests/", "tests/*", "**/test_*.py", "tests/**", "tests", "/tests"])
def test_per_file_ignores_match_the_files_exclude_leaves_out(tmp_path, monkeypatch, capsys, pattern):
    """A pattern picks the same files in both keys: gitignore's, where a folder's pattern covers
    every file under it."""
    for name in TREE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BAD)
    monkeypatch.chdir(tmp_path)
    reported = {}
    for body in (f"extend-exclude = ['{pattern}']",
                 f"[tool.gradlint.per-file-ignores]\n'{pattern}' = ['GL000']"):
        write_config(tmp_path, body)
        _, out, _ = check(capsys, "--no-cache", "--output-format", "concise")
        reported[body] = sorted(line.split(":")[0] for line in out.splitlines())
    excluded, ignored = reported.values()
    assert excluded == ignored
    assert 0 < len(excluded) < len(TREE)  # the pattern does pick some files


def test_the_editor_runs_the_rules_extend_select_adds(tmp_path):
    pytest.importorskip("pygls")
    from gradlint import lsp

    write_config(tmp_path, "select = ['GL001']\nextend-select = ['GL900']\nextend-ignore = ['GL001']")
    (tmp_path / "a.py").write_text("x = 1\n")
    assert lsp.codes_for(tmp_path / "a.py") == {"GL900", *UNCHECKED}


def test_the_config_of_the_linted_project_applies_from_outside_it(tmp_path, monkeypatch):
    # `gradlint check ../proj` (a pre-commit or CI step run from elsewhere) read the current
    # folder's config, or none: proj's per-file-ignores and exclude silently did not apply.
    project = tmp_path / "proj"
    (project / "tests").mkdir(parents=True)
    (project / "src").mkdir()
    write_config(project, 'per-file-ignores = {"tests/" = ["GL000"]}\nexclude = ["src/"]')
    (project / "tests" / "t.py").write_text(BAD)
    (project / "src" / "s.py").write_text(BAD)
    (project / "m.py").write_text(BAD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for paths, linted in ((["../proj"], {"m.py"}), (["../proj/tests/t.py"], set()),
                          (["../proj/tests", "../proj/m.py"], {"m.py"})):
        proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--no-cache",
                               "--output-format", "json", *paths], capture_output=True, text=True)
        assert {Path(f["path"]).name for f in json.loads(proc.stdout)} == linted, (paths, proc.stderr)
