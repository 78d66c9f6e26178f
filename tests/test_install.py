"""What a new user is told to install is this project, and the README's set-up runs as written."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import gradlint

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]

# `pip install gradlint`, `pip install 'gradlint[dynamic]'`, `pip install "gradlint @ git+…"`:
# the name on PyPI belongs to another project, so any of these installs it.
PYPI_GRADLINT = re.compile(r"""pip install(?:\s+-\S+)*\s+['"]?gradlint(?![\w-])""")


def _user_facing_texts():
    yield ROOT / "README.md"
    yield ROOT / ".pre-commit-hooks.yaml"
    yield from sorted((ROOT / "rules").glob("*.md"))
    yield from sorted((ROOT / "docs").glob("*.md"))
    yield from sorted((ROOT / "gradlint").rglob("*.py"))


def test_the_pattern_finds_the_installs_of_the_other_project():
    for text in ("pip install gradlint", "pip install 'gradlint[dynamic]'",
                 'pip install "gradlint @ git+https://example.org/x"', "`pip install -q gradlint`"):
        assert PYPI_GRADLINT.search(text), text
    for text in ("pip install autograd-gradlint", "pip install '.[dynamic]'",
                 "pip install '/path/to/gradlint[dynamic]'", "pip install torch  # gradlint",
                 "pip install torch --index-url https://download.pytorch.org/whl/cpu "
                 "(or, in a clone of gradlint: pip install '.[dynamic]')"):
        assert not PYPI_GRADLINT.search(text), text


def test_no_text_tells_a_user_to_install_gradlint_from_pypi():
    hits = []
    for path in _user_facing_texts():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PYPI_GRADLINT.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_distribution_is_ours_and_the_command_stays_gradlint():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == gradlint.DISTRIBUTION != "gradlint"
    assert list(project["scripts"]) == ["gradlint"]


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Set-up"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_ci_runs_exactly_the_readmes_test_command():
    install_and_run, install_and_test = _setup_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == install_and_test
    assert "pytest" in install_and_test and "gradlint check" in install_and_run


def test_the_two_setup_commands_use_two_venvs():
    """The test install (editable, dev extra) must not silently replace the user's install."""
    venvs = [re.match(r"python3 -m venv (\S+) &&", command).group(1) for command in _setup_commands()]
    assert len(set(venvs)) == 2, venvs
    for command, venv in zip(_setup_commands(), venvs):
        used = set(re.findall(r"(\S+?)/bin/", command))
        assert used == {venv}, command


def test_the_dev_install_gets_the_cpu_torch_from_an_index_not_this_machine():
    """A fresh machine has no local wheel folder: the command itself must name where the CPU
    build comes from, before the dev extra's `torch==2.13.0` could pull the CUDA one."""
    install_and_test = _setup_commands()[1]
    torch_step, dev_step = install_and_test.index("torch==2.13.0"), install_and_test.index("'.[dev]'")
    assert torch_step < dev_step
    step = install_and_test[:dev_step].rsplit("&&", 2)[-2]
    assert "--index-url https://download.pytorch.org/whl/cpu" in step, step
    assert "find-links" not in install_and_test and "/opt/" not in install_and_test
