"""Nothing the checked program starts outlives ``gradlint check --dynamic``: daemons that leave
the run's process group (a double fork with ``setsid``, ``start_new_session``, ``setpgid``), and
the run itself when the program kills gradlint's worker process.

Each program writes the pids to watch to files; after gradlint has exited, each pid must be gone
(polled with a generous deadline). A test that fails kills what it found, so a failure leaves
nothing running on the machine either.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_dynamic_isolation import gone

pytest.importorskip("torch")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="a process that leaves its group is found through /proc")

LIMIT = 90  # seconds gradlint may take: a torch import or two on a loaded machine

# A GL001 at line 8 (`return h.detach()`), then what the test appends.
PROGRAM = """\
import os, signal, subprocess, sys, time

import torch

scale_a = torch.tensor(0.5, requires_grad=True)
def first_stage(inputs):
    h = scale_a * inputs
    return h.detach()

loss = torch.nn.functional.mse_loss(first_stage(torch.ones(3)), torch.zeros(3))


def wait_for(path):
    while not (os.path.exists(path) and open(path).read()):
        time.sleep(0.01)


def sleeper(path):  # a shell that writes its pid, then becomes `sleep` under that pid
    return ["sh", "-c", f"echo $$ > {path}.tmp && mv {path}.tmp {path} && exec sleep 1000"]


def double_fork(path):  # the classic daemon: fork, setsid, fork again, the middle one exits
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("sh", sleeper(path))
        os._exit(0)
    os.wait()
    wait_for(path)
"""
FINDING_LINE = 8


def gradlint(program: Path, *args: str) -> dict:
    """The verdict of the program's one finding, checked with --dynamic."""
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--dynamic", "--no-cache",
                           "--output-format", "json", *args, str(program)],
                          capture_output=True, text=True, cwd=program.parent, timeout=LIMIT)
    assert proc.returncode == 1, proc.stderr
    [finding] = json.loads(proc.stdout)
    assert (finding["code"], finding["line"]) == ("GL001", FINDING_LINE), proc.stdout
    return finding["verdict"]


def survivors(tmp_path: Path, names: list[str]) -> list[str]:
    """The watched processes still running; each is killed, so a failing test leaves none."""
    left = []
    for name in names:
        path = tmp_path / name
        assert path.exists(), f"the program never wrote {name}"
        pid = int(path.read_text())
        if not gone(pid):
            left.append(name)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return left


def test_daemons_that_leave_the_process_group_end_with_the_run(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(PROGRAM + (
        "double_fork('setsid')\n"
        "subprocess.Popen(sleeper('session'), start_new_session=True)\n"
        "wait_for('session')\n"
        "if os.fork() == 0:\n"
        "    os.setpgid(0, 0)\n"
        "    os.execvp('sh', sleeper('group'))\n"
        "wait_for('group')\n"
        "loss.backward()\n"))
    try:
        verdict = gradlint(program)
    finally:
        left = survivors(tmp_path, ["setsid", "session", "group"])
    # (no optimizer: a leaf that requires grad and got no gradient counts as meant to train)
    assert verdict["status"] == "confirmed", verdict
    assert not left, f"outlived gradlint: {left}"


def test_a_program_that_kills_the_worker_leaves_nothing_behind(tmp_path):
    # The run is forked by gradlint's warm worker; killing it must not orphan the run (which
    # then spins forever) nor the daemon it started.
    program = tmp_path / "train.py"
    program.write_text(PROGRAM + (
        "double_fork('daemon')\n"
        "open('run', 'w').write(str(os.getpid()))\n"
        "os.kill(os.getppid(), signal.SIGKILL)\n"
        "while True:\n"
        "    pass\n"))
    try:
        verdict = gradlint(program, "--timeout", "10")
    finally:
        left = survivors(tmp_path, ["run", "daemon"])
    assert verdict["status"] == "error", verdict
    assert "worker" in verdict["evidence"], verdict
    assert not left, f"outlived gradlint: {left}"


def test_a_worker_that_stops_answering_is_given_up(tmp_path):
    # The program stops gradlint's worker (SIGSTOP), so nothing enforces its time limit: the wait
    # for the worker's answer has a bound of its own (--timeout + ANSWER_MARGIN, made short here).
    program = tmp_path / "train.py"
    program.write_text(PROGRAM + (
        "open('run', 'w').write(str(os.getpid()))\n"
        "os.kill(os.getppid(), signal.SIGSTOP)\n"
        "while True:\n"
        "    pass\n"))
    driver = (
        "import sys\n"
        "from gradlint import cli\n"
        "from gradlint.dynamic import launch\n"
        "launch.ANSWER_MARGIN = 2\n"
        "sys.exit(cli.main(['check', '--dynamic', '--no-cache', '--timeout', '5', '--output-format', 'json',\n"
        "                   sys.argv[1]]))\n"
    )
    try:
        proc = subprocess.run([sys.executable, "-c", driver, str(program)], capture_output=True, text=True,
                              cwd=tmp_path, timeout=LIMIT)
    finally:
        left = survivors(tmp_path, ["run"])
    assert proc.returncode == 1, proc.stderr
    [finding] = json.loads(proc.stdout)
    assert finding["verdict"]["status"] == "error", finding
    assert "did not answer within 7 s" in finding["verdict"]["evidence"], finding
    assert not left, f"outlived gradlint: {left}"
