"""Isolation of ``gradlint check --dynamic``: whatever the checked program does before its
backward (loop forever, ``os._exit``, segfault, ``sys.exit(3)``, ``KeyboardInterrupt``, a 10 GB
allocation, a child process that never ends), the run ends within the time limit, the static
finding is still reported, and its verdict is ``error`` with evidence naming the reason.

Each test runs the CLI in a subprocess (which runs the program in its own child with torch), so
each costs a torch import or two: ~2 s, or the 5 s time limit for the endless ones. Programs
that end by themselves get the default 60 s limit, so a loaded machine cannot fail them.
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

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 5  # --timeout for the programs that never end
GRACE = 5  # launch._KILL_GRACE: SIGTERM, then SIGKILL this much later
MARGIN = 20  # two torch imports on a loaded machine
QUICK = 30  # seconds a program that ends by itself may take, checked and all

# A GL001 the dynamic pass confirms when the program gets to its backward: `scale_a` is held by
# an optimizer, but `first_stage` hands back a detached result, so no gradient reaches it.
PROGRAM = """\
import os
import sys

import torch

x = torch.linspace(0.5, 2.0, 5)
y = 3.0 * x
scale_a = torch.tensor(0.5, requires_grad=True)
scale_b = torch.tensor(1.5, requires_grad=True)
opt = torch.optim.SGD([scale_a, scale_b], lr=0.05)


def first_stage(inputs):
    h = scale_a * inputs
    return h.detach()


opt.zero_grad()
loss = ((scale_b * first_stage(x) - y) ** 2).mean()
{before}
loss.backward()
opt.step()
{after}
"""
FINDING_LINE = 15  # `return h.detach()`


def write_program(tmp_path: Path, before: str = "", after: str = "") -> Path:
    path = tmp_path / "train.py"
    path.write_text(PROGRAM.format(before=before, after=after))
    return path


def gradlint(*args: str, env: dict | None = None, limit: float = QUICK):
    """Run the CLI; (exit status, stdout, stderr, seconds taken)."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=limit + 30)
    took = time.monotonic() - start
    assert took < limit, f"gradlint took {took:.1f} s\n{proc.stderr}"
    return proc.returncode, proc.stdout, proc.stderr, took


def verdict_of(path: Path, *extra: str, timeout: float | None = None, env: dict | None = None) -> dict:
    """The one GL001 finding of ``path``, checked with --dynamic (and ``--timeout timeout``, if
    given): its verdict."""
    limit = QUICK if timeout is None else timeout + GRACE + MARGIN
    extra = (*extra, "--timeout", str(timeout)) if timeout is not None else extra
    code, out, err, _ = gradlint("--dynamic", "--output-format", "json", *extra, str(path), env=env, limit=limit)
    assert code == 1, err  # findings: the static one survives whatever the program did
    findings = json.loads(out)
    assert [(f["code"], f["line"]) for f in findings] == [("GL001", FINDING_LINE)], out
    return findings[0]["verdict"]


def gone(pid: int, wait: float = 10.0) -> bool:
    """Whether ``pid`` has ended (a zombie that nobody has reaped yet counts as ended)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                state = handle.read().rpartition(")")[2].split()[0]
        except FileNotFoundError:
            return True
        except OSError:  # no /proc: ask the kernel
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            state = "R"
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def test_program_that_completes_is_confirmed(tmp_path):
    verdict = verdict_of(write_program(tmp_path))
    assert verdict["status"] == "confirmed", verdict


def test_sys_exit_0_after_backward_is_still_confirmed(tmp_path):
    verdict = verdict_of(write_program(tmp_path, after="sys.exit(0)"))
    assert verdict["status"] == "confirmed", verdict


@pytest.mark.parametrize("before, reason", [
    ("sys.exit(3)", "exited with status 3 (sys.exit)"),
    ("os._exit(0)", "exited with status 0 (os._exit)"),
    ("raise KeyboardInterrupt", "train.py, line 20"),
    ("import ctypes\nctypes.string_at(0)", "crashed (SIGSEGV)"),
], ids=["sys.exit(3)", "os._exit(0)", "KeyboardInterrupt", "segfault"])
def test_program_ending_before_backward_gives_error(tmp_path, before, reason):
    verdict = verdict_of(write_program(tmp_path, before=before))
    assert verdict["status"] == "error", verdict
    assert reason in verdict["evidence"], verdict


def test_endless_loop_is_stopped_at_the_time_limit(tmp_path):
    # SIGTERM is enough for a loop in Python: the child writes what it knows and exits. (10 s: the
    # program must get past its torch import to the loop within the limit, even on a busy machine.)
    verdict = verdict_of(write_program(tmp_path, before="while True:\n    pass"), timeout=10)
    assert verdict["status"] == "error", verdict
    assert "stopped at the 10 s time limit (--timeout)" in verdict["evidence"], verdict
    assert "h.detach()" in verdict["evidence"], verdict


def test_endless_loop_that_ignores_sigterm_is_killed(tmp_path):
    before = "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True:\n    pass"
    verdict = verdict_of(write_program(tmp_path, before=before), timeout=TIMEOUT)
    assert verdict["status"] == "error", verdict
    assert f"killed at the {TIMEOUT} s time limit (--timeout)" in verdict["evidence"], verdict


# The program's own child sleeps forever and ignores SIGTERM: only the SIGKILL to the whole process
# group ends it, whether the program then loops until the time limit or ends by itself.
SLEEPER = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
           "print('ready', flush=True); time.sleep(10**6)")


@pytest.mark.parametrize("then", ["loops", "finishes"])
def test_process_group_is_killed_with_the_grandchild(tmp_path, then):
    pids = tmp_path / "pids"
    before = (
        "import subprocess\n"
        f"sleeper = subprocess.Popen([sys.executable, '-c', {SLEEPER!r}], stdout=subprocess.PIPE)\n"
        "sleeper.stdout.readline()\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{sleeper.pid}}')\n"
        + ("while True:\n    pass" if then == "loops" else "")
    )
    program = write_program(tmp_path, before=before)
    if then == "loops":
        verdict = verdict_of(program, timeout=TIMEOUT)
        assert verdict["status"] == "error", verdict
        assert f"the {TIMEOUT} s time limit" in verdict["evidence"], verdict
    else:
        assert verdict_of(program)["status"] == "confirmed"
    child, grandchild = map(int, pids.read_text().split())
    assert gone(child), "the child survived"
    assert gone(grandchild), "the program's own child survived the process group kill"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA is enforced on Linux")
def test_10_gb_allocation_runs_out_of_memory_instead_of_taking_the_machine(tmp_path):
    # The default cap (8 GB, less on a small machine) makes the allocation fail in the program
    # at once; nothing is ever touched, so the machine is safe even if the cap were missing.
    verdict = verdict_of(write_program(tmp_path, before="big = torch.ones(10 * 1024**3 // 4)"))
    assert verdict["status"] == "error", verdict
    assert "ran out of memory at " in verdict["evidence"] and "train.py, line 20" in verdict["evidence"], verdict
    assert "--memory-limit" in verdict["evidence"], verdict


def test_memory_limit_is_an_option(tmp_path):
    program = write_program(tmp_path, before="big = torch.ones(1024**3 // 4)")  # 1 GB
    verdict = verdict_of(program, "--memory-limit", "800")
    assert verdict["status"] == "error", verdict
    assert "ran out of memory" in verdict["evidence"] and "800 MB" in verdict["evidence"], verdict


def test_ctrl_c_of_gradlint_kills_the_child(tmp_path):
    pids = tmp_path / "pids"
    program = write_program(tmp_path, before=f"open({str(pids)!r}, 'w').write(str(os.getpid()))\n"
                                              "while True:\n    pass")
    proc = subprocess.Popen([sys.executable, "-m", "gradlint", "check", "--dynamic", "--timeout", "60",
                             str(program)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not (pids.exists() and pids.read_text()):
            assert time.monotonic() < deadline and proc.poll() is None, "the program never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
    finally:
        proc.kill()
        proc.communicate()
    assert gone(int(pids.read_text())), "the child outlived an interrupted gradlint"


def test_parent_imports_neither_torch_nor_the_program(tmp_path):
    marker = tmp_path / "ran-in"
    program = write_program(tmp_path, before=f"open({str(marker)!r}, 'w').write(str(os.getpid()))")
    driver = (
        "import json, os, sys\n"
        "from gradlint.cli import main\n"
        "code = main(['check', '--dynamic', '--output-format', 'json', sys.argv[1]])\n"
        "mine = [m for m, mod in list(sys.modules.items()) if getattr(mod, '__file__', '') == sys.argv[1]]\n"
        "print(json.dumps({'code': code, 'pid': os.getpid(), 'torch': 'torch' in sys.modules,\n"
        "                  'modules': mine}), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", driver, str(program)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    parent = json.loads(proc.stderr.strip().splitlines()[-1])
    assert parent["code"] == 1, proc.stderr
    assert json.loads(proc.stdout)[0]["verdict"]["status"] == "confirmed"
    assert not parent["torch"] and not parent["modules"], parent
    assert int(marker.read_text()) != parent["pid"]


def fake_torch(tmp_path: Path, body: str) -> dict:
    """An environment whose PYTHONPATH puts a package ``torch`` running ``body`` first."""
    fake = tmp_path / "fake"
    (fake / "torch").mkdir(parents=True)
    (fake / "torch" / "__init__.py").write_text(body)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake), str(ROOT)])}


def test_torch_that_cannot_be_imported_gives_error_verdicts_and_keeps_the_findings(tmp_path):
    # find_spec("torch") finds this package, so only importing it tells: the worker does, and
    # every finding is still printed, its verdict an error that says why and what to install.
    env = fake_torch(tmp_path, "raise ImportError('no torch here')\n")
    program = str(write_program(tmp_path))
    code, out, err, _ = gradlint("--dynamic", "--output-format", "json", program, env=env, limit=QUICK)
    assert code == 1, err
    [finding] = json.loads(out)
    assert (finding["code"], finding["line"]) == ("GL001", FINDING_LINE), out
    assert finding["verdict"]["status"] == "error", finding
    assert "pip install" in finding["verdict"]["evidence"], finding
    assert "no torch here" in finding["verdict"]["evidence"], finding
    # a gate on confirmed findings fails rather than pass on a run that could not decide
    code, out, err, _ = gradlint("--dynamic-only", "confirmed", program, env=env, limit=QUICK)
    assert code == 2, (out, err)
    assert "could not decide 1 finding" in err and "Traceback" not in err, err


def test_a_torch_py_in_the_working_folder_is_not_imported_by_the_worker(tmp_path):
    # `python -m` puts the working folder first on sys.path: the worker imported this file
    # instead of torch and waited forever. The program still sees the sys.path `python
    # sub/train.py` gives it, and imports its own modules.
    (tmp_path / "torch.py").write_text("import time\ntime.sleep(600)\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    dump = "import json, sys\njson.dump(sys.path, open({!r}, 'w'))\n"
    (sub / "paths.py").write_text(dump.format(str(tmp_path / "plain.json")))
    (sub / "stages.py").write_text("DONE = True\n")
    program = write_program(sub, after="import stages\nassert stages.DONE\n" + dump.format(
        str(tmp_path / "checked.json")))
    subprocess.run([sys.executable, str(sub / "paths.py")], cwd=tmp_path, check=True, timeout=60)
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--dynamic", "--output-format",
                           "json", str(program)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=QUICK + 30)
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)[0]["verdict"]["status"] == "confirmed", proc.stdout
    assert json.loads((tmp_path / "checked.json").read_text()) == json.loads(
        (tmp_path / "plain.json").read_text())


def test_a_worker_that_never_gets_ready_is_given_up(tmp_path):
    # A torch whose import never ends (here on PYTHONPATH): the wait for the worker is bounded,
    # by --timeout once START_LIMIT (the floor kept for slow disks) is out of the way.
    env = fake_torch(tmp_path, "import time\ntime.sleep(600)\n")
    driver = (
        "import sys\n"
        "from gradlint import cli\n"
        "from gradlint.dynamic import launch\n"
        "launch.START_LIMIT = 0\n"
        "sys.exit(cli.main(['check', '--dynamic', '--timeout', '3', '--output-format', 'json', sys.argv[1]]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", driver, str(write_program(tmp_path))], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=QUICK + 30)
    assert proc.returncode == 1, proc.stderr
    [finding] = json.loads(proc.stdout)
    assert finding["verdict"]["status"] == "error", finding
    assert "did not start within 3 s" in finding["verdict"]["evidence"], finding


def test_torch_not_installed_exits_2_with_the_install_command(monkeypatch, capsys, tmp_path):
    from gradlint import cli
    from gradlint.dynamic import launch

    monkeypatch.setattr(launch, "torch_available", lambda *args: False)
    assert cli.main(["check", "--dynamic", str(write_program(tmp_path))]) == 2
    assert "pip install" in capsys.readouterr().err


def test_a_worker_that_prints_at_start_up_still_runs(tmp_path):
    # A sitecustomize (or a .pth file) that prints puts a line before the worker's first answer.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        f"import os\nif os.getppid() != {os.getpid()}:  # the worker, not gradlint itself\n"
        "    print('hello from sitecustomize', flush=True)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    verdict = verdict_of(write_program(tmp_path), env=env)
    assert verdict["status"] == "confirmed", verdict


def test_a_missing_project_import_says_how_to_run_it(tmp_path):
    # A training script of a package that imports its siblings by their package names fails
    # when run from its own folder: the verdict names the error and the way to run it.
    program = write_program(tmp_path, before="import data_provider_of_the_project")
    verdict = verdict_of(program)
    assert verdict["status"] == "error", verdict
    assert "ModuleNotFoundError" in verdict["evidence"], verdict
    assert "--driver" in verdict["evidence"] and "project's root" in verdict["evidence"], verdict


def test_a_missing_module_is_named_with_both_ways_out():
    # "No module named 'click'": a package the environment lacks as likely as one of the
    # project's; the evidence names it and says what to do for each.
    from gradlint.dynamic.launch import _undecided_reason

    reason = _undecided_reason({"kind": "raised", "type": "ModuleNotFoundError", "line": 3,
                                "message": "No module named 'click'"}, 60.0)
    assert "if `click` is a package of your project" in reason and "--driver" in reason
    assert "if it is a third-party package, install it where gradlint runs" in reason
