"""``pytest --gradlint``: the user's own tests drive the dynamic pass (gradlint/dynamic/pytest_plugin.py).

Each test builds a small project and runs pytest on it in a subprocess, with the plugin loaded
from gradlint's ``pytest11`` entry point as a user's pytest would load it.
"""
from __future__ import annotations

import re

import pytest

pytest.importorskip("torch")

pytest_plugins = ["pytester"]

BUGGY_MODEL = """\
import torch

scale_a = torch.tensor(0.5, requires_grad=True)
scale_b = torch.tensor(2.0, requires_grad=True)


def first_stage(x):
    h = scale_a * x
    return h.detach()


def loss_fn(x, y):
    return ((scale_b * first_stage(x) - y) ** 2).mean()
"""

REPAIRED_MODEL = BUGGY_MODEL.replace("return h.detach()", "return h")

TEST_MODEL = """\
import torch

from model import loss_fn, scale_a, scale_b


def test_one_step():
    x = torch.linspace(-1.0, 1.0, 8)
    y = 3 * x
    loss = loss_fn(x, y)
    loss.backward()
    assert scale_b.grad is not None
    print("scale_a.grad:", scale_a.grad)
"""

# What was imported by the time the session starts (after every plugin and conftest loaded).
CONFTEST_REPORTING_IMPORTS = """\
import sys


def pytest_report_header(config):
    loaded = {name: name in sys.modules for name in ("torch", "libcst", "gradlint.dynamic.pytest_plugin")}
    return "imported before collection: " + " ".join(f"{k}={v}" for k, v in loaded.items())
"""

FINDING = re.compile(r"^\S+:\d+:\d+: GL\d{3} .*\[dynamic: [a-z-]+\]$", re.M)
SECTION = "gradlint dynamic pass"


def _section(output: str) -> str:
    """The text of the gradlint section of a pytest run (up to the next ===== line)."""
    match = re.search(rf"^=+ {SECTION} =+$\n(.*?)(?=^=+ |\Z)", output, re.M | re.S)
    assert match, f"no '{SECTION}' section in:\n{output}"
    return match.group(1)


def test_confirms_the_detached_first_stage(pytester):
    pytester.makepyfile(model=BUGGY_MODEL, test_model=TEST_MODEL)
    result = pytester.runpytest_subprocess("--gradlint")

    result.assert_outcomes(passed=1)
    assert result.ret == 0
    section = _section(result.stdout.str())
    lines = section.splitlines()
    found = [i for i, text in enumerate(lines) if FINDING.match(text)]
    assert len(found) == 1, section
    finding = lines[found[0]]
    assert re.match(r"model\.py:9:12: GL001 .*`scale_a`.* \[dynamic: confirmed\]$", finding), finding
    evidence = lines[found[0] + 1]
    assert evidence.startswith("    ") and "`scale_a`" in evidence, section
    assert "no backward reached it" in evidence, section
    assert "1 confirmed" in section.splitlines()[-1]


def test_model_imported_by_conftest_is_instrumented(pytester):
    # conftest.py files are imported before any test module: the hook must already be there.
    pytester.makeconftest("import model\n")
    pytester.makepyfile(model=BUGGY_MODEL, test_model=TEST_MODEL)
    result = pytester.runpytest_subprocess("--gradlint")

    result.assert_outcomes(passed=1)
    assert re.search(r"^model\.py:9:12: GL001 .*\[dynamic: confirmed\]$", _section(result.stdout.str()), re.M)


def test_repaired_model_has_no_findings(pytester):
    pytester.makepyfile(model=REPAIRED_MODEL, test_model=TEST_MODEL)
    result = pytester.runpytest_subprocess("--gradlint")

    result.assert_outcomes(passed=1)
    section = _section(result.stdout.str())
    assert not FINDING.search(section), section
    assert "No findings (2 files checked)." in section


def test_without_the_flag_the_plugin_does_nothing(pytester):
    pytester.makepyfile(model=BUGGY_MODEL, test_model=TEST_MODEL)
    pytester.makeconftest(CONFTEST_REPORTING_IMPORTS)

    plain = pytester.runpytest_subprocess()
    plain.assert_outcomes(passed=1)
    assert plain.ret == 0
    output = plain.stdout.str()
    said = [line for line in output.splitlines() if "gradlint" in line
            and not line.startswith(("plugins:", "imported before collection:"))]
    assert said == [], output
    # The plugin was loaded (so the check below means something) and imported nothing heavy.
    plain.stdout.fnmatch_lines(["imported before collection: torch=False libcst=False "
                                "gradlint.dynamic.pytest_plugin=True"])

    # The same project with the flag: the header shows the instrumentation was in place early.
    flagged = pytester.runpytest_subprocess("--gradlint")
    flagged.assert_outcomes(passed=1)
    flagged.stdout.fnmatch_lines(["imported before collection: torch=True libcst=True "
                                  "gradlint.dynamic.pytest_plugin=True"])
    assert SECTION in flagged.stdout.str()


def test_flagged_module_no_test_imports_is_not_reached(pytester):
    pytester.makepyfile(
        model=BUGGY_MODEL,
        test_other="def test_arithmetic():\n    assert 1 + 1 == 2\n",
    )
    result = pytester.runpytest_subprocess("--gradlint")

    result.assert_outcomes(passed=1)
    section = _section(result.stdout.str())
    lines = section.splitlines()
    found = [i for i, text in enumerate(lines) if FINDING.match(text)]
    assert len(found) == 1, section
    assert re.match(r"model\.py:9:12: GL001 .* \[dynamic: not-reached\]$", lines[found[0]]), section
    assert "no test imported it" in lines[found[0] + 1], section


def test_assertion_rewriting_still_works_and_exit_status_is_pytests(pytester):
    pytester.makepyfile(
        model=BUGGY_MODEL,
        test_model=TEST_MODEL + "\n\ndef test_fails():\n    def f(v):\n        return v + 1\n    assert f(1) == 3\n",
    )
    result = pytester.runpytest_subprocess("--gradlint")

    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    # Only a rewritten assert explains the call that produced the value.
    result.stdout.fnmatch_lines(["E        +  where 2 = *(1)"])
    assert "[dynamic: confirmed]" in _section(result.stdout.str())


def test_honours_tool_gradlint_config_and_gradlint_path(pytester):
    pytester.makepyfile(model=BUGGY_MODEL, test_model=TEST_MODEL)
    pytester.makepyprojecttoml('[tool.gradlint]\nper-file-ignores = { "model.py" = ["GL001"] }\n')
    ignored = pytester.runpytest_subprocess("--gradlint")
    ignored.assert_outcomes(passed=1)
    assert not FINDING.search(_section(ignored.stdout.str()))

    pytester.makepyprojecttoml("[tool.gradlint]\n")
    pytester.mkdir("lib").joinpath("other.py").write_text(BUGGY_MODEL)
    only_lib = pytester.runpytest_subprocess("--gradlint", "--gradlint-path", "lib")
    section = _section(only_lib.stdout.str())
    assert [m.group(0).split(":")[0] for m in FINDING.finditer(section)] == ["lib/other.py"], section


def test_without_torch_is_a_usage_error(pytester, monkeypatch):
    # torch made unimportable in the pytest subprocess, by a finder that sitecustomize installs.
    pytester.makepyfile(model=BUGGY_MODEL, test_model=TEST_MODEL)
    pytester.makeconftest("")
    blocker = pytester.mkdir("blocker")
    blocker.joinpath("sitecustomize.py").write_text(
        "import sys\nclass _NoTorch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'torch' or name.startswith('torch.'):\n"
        "            raise ImportError('no torch here')\n"
        "sys.meta_path.insert(0, _NoTorch())\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(blocker))
    result = pytester.runpytest_subprocess("--gradlint")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "--gradlint needs torch" in err and "pip install torch" in err, err
    assert "passed" not in result.stdout.str()  # nothing ran
