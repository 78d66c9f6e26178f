"""The pre-commit hooks (``.pre-commit-hooks.yaml``) under the real ``pre-commit``.

A throwaway git repository points its ``.pre-commit-config.yaml`` at this repository at its
``HEAD`` commit, so pre-commit clones it and installs gradlint into the hook's own virtualenv
from PyPI, as it would for a user. That needs the network and takes some tens of seconds, hence
the ``integration`` marker: ``pytest -m integration``. The environment is built once
per session, in a ``PRE_COMMIT_HOME`` of its own. The dynamic hook's environment gets torch only
from a CPU wheel already on the machine (pip's find-links); without one that test is skipped.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="pre-commit (dev extra) brings PyYAML")

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
BAD = ROOT / "fixtures/GL001/bad_two_param_loop_detached_feature.py"
GOOD = ROOT / "fixtures/GL001/good_two_param_loop_repaired.py"
NOTEBOOK = ROOT / "fixtures/notebooks/bad_training_loop.ipynb"


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          timeout=60).stdout.strip()


def hooks() -> dict[str, dict]:
    return {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text())}


def test_the_manifest_is_valid_for_pre_commit():
    pytest.importorskip("pre_commit", reason="pre-commit is in the dev extra")
    result = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    found = hooks()
    assert set(found) == {"gradlint", "gradlint-dynamic"}
    for hook in found.values():
        assert hook["language"] == "python" and hook["types_or"] == ["python", "jupyter"]
        assert hook["require_serial"] is True and hook.get("pass_filenames", True) is True
        # pre-commit names every file: the project's exclude must still apply.
        assert hook["entry"].startswith("gradlint check --force-exclude")
    assert "--dynamic" not in found["gradlint"]["entry"]
    assert found["gradlint-dynamic"]["entry"].split()[-1] == "--dynamic"
    assert "additional_dependencies: [torch]" in found["gradlint-dynamic"]["description"]


def test_the_readmes_config_names_these_hooks():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Before each commit: pre-commit"):]
    block = re.search(r"```\n(repos:.*?)```", section, re.S)
    assert block, "the README no longer shows a .pre-commit-config.yaml"
    (repo,) = yaml.safe_load(block.group(1))["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == list(hooks())
    assert repo["hooks"][1]["additional_dependencies"] == ["torch"]


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory) -> Path:
    """One PRE_COMMIT_HOME for the session: the hook's virtualenv is built once."""
    pytest.importorskip("pre_commit", reason="pre-commit is in the dev extra")
    try:
        changed = git("status", "--porcelain", "--", MANIFEST.name, cwd=ROOT)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: pre-commit needs a commit of this repository to install")
    if changed:
        pytest.skip(f"{MANIFEST.name} differs from HEAD's; pre-commit installs the hooks of a "
                    "commit, so commit it first")
    return tmp_path_factory.mktemp("pre-commit-home")


def run_hook(project: Path, files: dict[str, bytes], home: Path, config: str = "",
             hook: str = "id: gradlint") -> subprocess.CompletedProcess:
    git("init", "-q", cwd=project)
    hook = hook.replace("\n", "\n    ")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {git('rev-parse', 'HEAD', cwd=ROOT)}\n"
        f"  hooks:\n  - {hook}\n")
    if config:
        (project / "pyproject.toml").write_text(config)
    for name, data in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes(data)
    git("add", ".", cwd=project)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=project,
                          env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.integration
def test_a_bad_file_fails_the_hook_with_its_finding(tmp_path, pre_commit_home):
    result = run_hook(tmp_path, {"train.py": BAD.read_bytes(), "notes.txt": b"not python\n",
                                 "explore.ipynb": NOTEBOOK.read_bytes()}, pre_commit_home)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "train.py:19:12: GL001 the result of `(gain * inputs).detach()`" in result.stdout
    assert "explore.ipynb:cell 3:2:12: GL001 " in result.stdout
    assert "Found 2 findings in 2 files (2 files checked)." in result.stdout  # in one process
    assert "notes.txt" not in result.stdout
    assert "Failed" in result.stdout


@pytest.mark.integration
def test_a_clean_file_passes(tmp_path, pre_commit_home):
    result = run_hook(tmp_path, {"train.py": GOOD.read_bytes()}, pre_commit_home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


@pytest.mark.integration
def test_args_reach_the_command_line(tmp_path, pre_commit_home):
    result = run_hook(tmp_path, {"train.py": BAD.read_bytes()}, pre_commit_home,
                      hook="id: gradlint\nargs: [--ignore, GL001]")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.integration
def test_the_projects_exclude_applies_to_the_files_pre_commit_names(tmp_path, pre_commit_home):
    result = run_hook(tmp_path, {"vendored/train.py": BAD.read_bytes(), "train.py": GOOD.read_bytes()},
                      pre_commit_home, config='[tool.gradlint]\nextend-exclude = ["vendored/"]\n')
    assert result.returncode == 0, result.stdout + result.stderr
    assert "GL001" not in result.stdout


def local_cpu_torch() -> str:
    """A requirement for the CPU build of torch that pip can install without the network (from
    the machine's find-links): the dynamic hook's env must never pull PyPI's multi-GB CUDA build."""
    try:
        version = metadata.version("torch")
    except metadata.PackageNotFoundError:
        pytest.skip("torch is not installed")
    requirement = f"torch=={version}"
    if "+cpu" not in version:
        pytest.skip(f"the installed torch {version} is not a CPU build")
    offline = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index",
                              "--no-deps", "--ignore-installed", "-q", requirement],
                             capture_output=True, text=True, timeout=120)
    if offline.returncode != 0:
        pytest.skip(f"no local wheel for {requirement}: pre-commit would download torch")
    return requirement


@pytest.mark.integration
def test_the_dynamic_hook_runs_the_flagged_file(tmp_path, pre_commit_home):
    torch = local_cpu_torch()
    result = run_hook(tmp_path, {"train.py": BAD.read_bytes()}, pre_commit_home,
                      hook=f"id: gradlint-dynamic\nadditional_dependencies: ['{torch}']")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "train.py:19:12: GL001 " in result.stdout
    assert "[dynamic: confirmed]" in result.stdout and "Dynamic pass: 1 confirmed." in result.stdout
