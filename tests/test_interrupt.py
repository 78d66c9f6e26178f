"""Ctrl-C, pressed once or held down, ends a run: exit 130, no hang, no worker left behind,
wherever in the run each SIGINT lands."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

BAD = ("import torch\nbase = torch.ones(3, requires_grad=True)\nu = base * 4\nsq = u ** 2\nu.add_(3)\n"
       "sq.sum().backward()\n")


def _session(leader: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != leader:
            try:
                if os.getsid(int(entry)) == leader:
                    found.append(int(entry))
            except OSError:
                pass
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("gap", [0.0, 0.002, 0.01])
def test_a_storm_of_interrupts_ends_the_run(tmp_path, gap):
    # A second Ctrl-C landing while the first was handled (the pool's workers being ended, the
    # pool shut down) cut that short: the interpreter's exit then waited for the workers' chunks
    # to finish, or the handler deadlocked in itself. Several storms, each after the pool started.
    for i in range(300):
        (tmp_path / f"m{i:03}.py").write_text(BAD * 20)
    for attempt in range(3):
        run = subprocess.Popen([sys.executable, "-m", "gradlint", "check", "-j", "2", "--no-cache", "-q",
                                str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
        deadline = time.monotonic() + 60
        while len(_session(run.pid)) < 2 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert run.poll() is None and len(_session(run.pid)) >= 2, "the pool never started"
        time.sleep(0.1 * attempt)
        os.kill(run.pid, signal.SIGINT)
        for _ in range(40):
            time.sleep(gap)
            try:
                os.killpg(run.pid, signal.SIGINT)
            except ProcessLookupError:
                break
        try:
            run.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
            pytest.fail("the interrupted run hung")
        finally:
            err = run.stderr.read().decode()
            run.stderr.close()
        deadline = time.monotonic() + 10
        while _session(run.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = _session(run.pid)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, "workers outlived the run"
        # 130, or killed by SIGINT where one escaped to the interpreter's own handler: both say
        # "interrupted" to a shell; never a finding's 1 or an internal error's 2.
        assert run.returncode in (130, -signal.SIGINT), err
        assert "internal error" not in err, err


SWALLOWED = """
import sys
from gradlint import cli, runner

checked = []
real_check = runner.check

def check(target, codes, hashed=False):
    checked.append(target.name)
    if len(checked) == 2:
        # Ctrl-C lands where Python swallows it (an at-fork handler, a finalizer): the handler
        # runs, its KeyboardInterrupt goes nowhere.
        try:
            cli._interrupted(2, None)
        except KeyboardInterrupt:
            pass
    return real_check(target, codes, hashed)

runner.check = check
import atexit, os
sys.argv = ["gradlint", "check", "-j", "1", "--no-cache", "-q", sys.argv[1]]
real_exit = os._exit
def exit_(status):
    sys.stderr.write(f"checked {len(checked)}\\n")
    sys.stderr.flush()
    real_exit(status)
os._exit = exit_
cli.run()
"""


def test_a_ctrl_c_that_some_code_swallowed_still_ends_the_run(tmp_path):
    # The storm's single coalesced SIGINT once landed in logging's at-fork handler while the pool
    # forked a worker: Python reported it as unraisable, the run went on to the end and exited
    # 1 ("findings"), as if no Ctrl-C had been pressed.
    for i in range(20):
        (tmp_path / f"m{i:02}.py").write_text(BAD)
    run = subprocess.run([sys.executable, "-c", SWALLOWED, str(tmp_path)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 130, run.stderr
    assert "checked 2\n" in run.stderr, run.stderr  # no file after the one the Ctrl-C landed in


def test_an_error_raised_while_a_ctrl_c_was_handled_is_the_interrupt_not_a_bug():
    # (a Ctrl-C landing inside `threading`'s lock bookkeeping leaves "release unlocked lock"
    # raised while the KeyboardInterrupt was handled: the run was interrupted, no internal error)
    from gradlint import cli

    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("release unlocked lock")
    except RuntimeError as err:
        fallout = err
    assert cli._fallout_of_interrupt(fallout)
    assert not cli._fallout_of_interrupt(RuntimeError("a bug of gradlint's"))
