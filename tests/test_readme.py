"""The README's pasted run must be what gradlint prints today."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_run_on_the_shipped_fixtures_is_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ (gradlint check --output-format full [^\n]+)\n(.*?)```", readme, re.S)
    assert block, "the README no longer shows a run on fixtures/"
    command, shown = block.group(1), block.group(2)
    args = shlex.split(command)[1:]
    proc = subprocess.run([sys.executable, "-m", "gradlint", *args], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout + proc.stderr == shown


def test_readme_dynamic_run_is_current():
    """The pasted --dynamic run (verdicts, evidence and graphs) is what the dynamic pass prints."""
    pytest.importorskip("torch")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ (gradlint check --dynamic [^\n]+)\n(.*?)```", readme, re.S)
    assert block, "the README no longer shows a --dynamic run"
    command, shown = block.group(1), block.group(2)
    proc = subprocess.run([sys.executable, "-m", "gradlint", *shlex.split(command)[1:]], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout + proc.stderr == shown
    assert "confirmed: `gain` influenced" in shown and "✗ gain: not in this record" in shown


WORKFLOW_COMMAND = re.compile(r"^::(warning|error) file=[^,:]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,"
                              r"title=GL\d{3} [a-z-]+::\S.*$")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   check=True, capture_output=True)


def test_readme_github_actions_commands_work_on_a_pull_request(tmp_path):
    """The workflow's gradlint steps, run as GitHub would on a pull request's checkout: only the
    finding the branch adds is annotated, in workflow-command syntax, and SARIF is written."""
    yaml = pytest.importorskip("yaml")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    steps = []
    for block in blocks:
        loaded = yaml.safe_load(block)
        steps += loaded["jobs"]["gradlint"]["steps"] if isinstance(loaded, dict) else loaded
    runs = [step["run"] for step in steps if step.get("run", "").startswith("gradlint ")]
    assert len(runs) == 2, "the README's workflow no longer runs gradlint twice (annotations, SARIF)"

    # origin holds main with an existing finding; the pull request's branch adds a second one.
    bad = (ROOT / "fixtures" / "GL004" / "bad_accumulated_total_loss_retain.py").read_text(encoding="utf-8")
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    subprocess.run(["git", "clone", "-q", str(origin), str(work)], check=True, capture_output=True)
    (work / "old.py").write_text(bad, encoding="utf-8")
    _git(work, "add", "old.py")
    _git(work, "commit", "-q", "-m", "main")
    _git(work, "push", "-q", "origin", "HEAD:main")
    _git(work, "checkout", "-q", "-b", "pr")
    (work / "new.py").write_text(bad, encoding="utf-8")
    _git(work, "add", "new.py")
    _git(work, "commit", "-q", "-m", "pull request")

    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    annotate = subprocess.run(["bash", "-c", runs[0].replace("${{ github.base_ref }}", "main")],
                              cwd=work, capture_output=True, text=True, env=env)
    assert annotate.returncode == 1, annotate.stderr
    lines = annotate.stdout.splitlines()
    assert lines and all(WORKFLOW_COMMAND.match(line) for line in lines), annotate.stdout
    assert {line.split("file=")[1].split(",")[0] for line in lines} == {"new.py"}

    sarif = subprocess.run(["bash", "-c", runs[1]], cwd=work, capture_output=True, text=True, env=env)
    assert sarif.returncode == 0, sarif.stderr
    log = json.loads((work / "gradlint.sarif").read_text(encoding="utf-8"))
    assert log["version"] == "2.1.0"
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"new.py", "old.py"}
