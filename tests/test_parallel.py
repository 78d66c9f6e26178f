"""gradlint check -j N (gradlint/parallel.py): the same output as one process, errors in file order,
a killed worker costs an error line and never hangs the run, and small runs start no pool."""
from __future__ import annotations

import faulthandler
import json

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gradlint import cli, engine, parallel, runner

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path("/tmp/corpus")
BAD = ("import torch\nbase = torch.ones(3, requires_grad=True)\nu = base * 4\nsq = u ** 2\nu.add_(3)\n"
       "sq.sum().backward()\n")


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def pools(monkeypatch):
    """How many pools the run started, and with how many files each."""
    started: list[int] = []
    real = parallel.check_all

    def check_all(jobs, workers, cache):
        started.append(len(jobs))
        yield from real(jobs, workers, cache)

    monkeypatch.setattr(parallel, "check_all", check_all)
    return started


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for i in range(parallel.POOL_MIN + 4):
        (tmp_path / f"m{i:02}.py").write_text(BAD if i % 3 == 0 else "x = 1\n")
    return tmp_path


def test_two_processes_report_what_one_does_over_the_fixtures(capsys, monkeypatch, pools, fixture_set):
    monkeypatch.chdir(fixture_set.parent)
    args = ["--output-format", "json", "--select", "ALL", "--no-cache", "fixtures"]
    one = check(capsys, "-j", "1", *args)
    assert pools == []
    two = check(capsys, "-j", "2", *args)
    files = [p for p in fixture_set.rglob("*") if p.suffix in (".py", ".ipynb")]
    assert pools == [len(files)]  # the notebooks too
    assert one == two and one[1].count('"code"') > 50


def test_errors_come_in_file_order_one_line_each(project, capsys, monkeypatch, pools):
    real = engine.lint_source

    def lint_source(source, path, codes=None, **kwargs):
        if path in ("m05.py", "m11.py", "m17.py"):
            raise KeyError(path)
        return real(source, path, codes, **kwargs)

    monkeypatch.setattr(engine, "lint_source", lint_source)  # the forked workers inherit it
    code, out, err = check(capsys, "-j", "2", "--no-cache")
    assert pools
    assert code == 2 and out.count("GL005") == 7
    assert [line for line in err.splitlines() if "internal error" in line] == [
        f"gradlint: internal error while checking {name}: KeyError: '{name}' (please report this)"
        for name in ("m05.py", "m11.py", "m17.py")]
    assert "(17 files checked, 3 errors)" in err


@pytest.mark.parametrize("death, reason", [
    (lambda: os.kill(os.getpid(), signal.SIGKILL), "was killed by SIGKILL (perhaps for lack of memory)"),
    (os.abort, "was killed by SIGABRT (an abort: perhaps for lack of memory)"),  # F16
    (lambda: os._exit(3), "exited with status 3 before answering"),
])
def test_a_worker_that_dies_costs_only_the_file_it_was_checking(project, capsys, monkeypatch, pools, death, reason):
    real = engine.lint_source

    def lint_source(source, path, codes=None, **kwargs):
        if path == "m07.py":
            faulthandler.disable()  # (pytest's would print the dying worker's stack)
            death()  # as the kernel's out-of-memory killer, or a native abort, would
        return real(source, path, codes, **kwargs)

    monkeypatch.setattr(engine, "lint_source", lint_source)  # the forked workers inherit it
    code, out, err = check(capsys, "-j", "2", "--no-cache")
    assert pools and code == 2
    # every other file keeps its findings (m00, m03, ..., m18: 7 GL005), and the run says which died
    assert out.count("GL005") == 7
    assert [line for line in err.splitlines() if "m07.py" in line] == [
        f"gradlint: error: m07.py: not checked: the process checking it {reason}; the other files were checked"]
    assert "(19 files checked, 1 error)" in err
    assert "Traceback" not in err


def test_two_files_that_crash_cost_two_files(project, capsys, monkeypatch, pools):
    real = engine.lint_source

    def lint_source(source, path, codes=None, **kwargs):
        if path in ("m03.py", "m16.py"):
            faulthandler.disable()
            os.abort()
        return real(source, path, codes, **kwargs)

    monkeypatch.setattr(engine, "lint_source", lint_source)
    code, out, err = check(capsys, "-j", "2", "--no-cache")
    assert code == 2 and out.count("GL005") == 6  # m03 had one
    assert [line.split(":")[2] for line in err.splitlines() if "not checked" in line] == [" m03.py", " m16.py"]


def test_a_pool_that_breaks_as_a_chunk_is_handed_out_loses_no_file(project, capsys, monkeypatch, pools):
    # A worker dies between one chunk's end and the next chunk's hand-out: the pool refuses the
    # chunk (a race the two crashes above lose now and then on a loaded machine).
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    real = ProcessPoolExecutor.submit
    calls = []

    def submit(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # the first chunk handed out after the first two
            raise BrokenProcessPool("a child process terminated abruptly")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    code, out, err = check(capsys, "-j", "2", "--no-cache")
    # (every file found as in one process; the refused chunk's files were checked again)
    assert len(calls) == 3 and code == 1 and out.count("GL005") == 7 and "not checked" not in err


def test_few_files_start_no_pool(tmp_path, capsys, monkeypatch, pools):
    monkeypatch.chdir(tmp_path)
    for i in range(parallel.POOL_MIN - 1):
        (tmp_path / f"m{i}.py").write_text(BAD)
    assert check(capsys, "-j", "2", "--no-cache")[0] == 1
    assert pools == []


def test_a_warm_run_starts_no_pool(project, capsys, pools):
    first = check(capsys, "-j", "2")
    assert pools == [len(list(project.glob("*.py")))]
    assert check(capsys, "-j", "2") == first
    assert pools == [len(list(project.glob("*.py")))]  # no second pool: nothing to lint


def test_what_the_workers_find_is_cached(project, capsys, pools, tmp_path):
    check(capsys, "-j", "2", "--cache-dir", "c")
    assert pools
    stored = {key for pack in (project / "c").glob("*/*.json") for key in json.loads(pack.read_bytes())["entries"]}
    assert len(stored) == 20


def test_each_worker_goes_down_a_lane_of_neighbouring_files_of_about_equal_bytes():
    # Two folders of 48 files each, interleaved; the second's files are the larger.
    jobs = [runner.Job(i, runner.Target(f"f{i}", path=Path(f"/p/{'ab'[i % 2]}/f{i:03}.py")), frozenset(),
                       size=1 + (i % 2) * 100) for i in range(96)]
    lanes = parallel._lanes(jobs, 2)
    paths = [sorted(job.target.path for chunk in lane for job in chunk) for lane in lanes]
    assert paths[0] + paths[1] == sorted(job.target.path for job in jobs)  # each once, a range each
    assert max(len(chunk) for lane in lanes for chunk in lane) <= parallel.CHUNK_MAX
    for lane in lanes:  # the largest chunks first
        weights = [sum(job.size for job in chunk) for chunk in lane]
        assert weights == sorted(weights, reverse=True)
    weights = [sum(job.size for chunk in lane for job in chunk) for lane in lanes]
    assert len(lanes) == 2 and max(weights) <= 0.6 * sum(weights)
    # The larger files' folder is a lane of its own; the first lane holds the small ones.
    assert {job.target.path.parent.name for chunk in lanes[0] for job in chunk} >= {"a"}
    assert {job.target.path.parent.name for chunk in lanes[1] for job in chunk} == {"b"}


def test_a_worker_done_with_its_lane_takes_from_the_far_end_of_the_fullest():
    lanes = [[["a1"], ["a2"]], [["b1"], ["b2"], ["b3"]]]
    assert parallel._next_chunk(lanes, 0) == ["a1"]
    assert parallel._next_chunk(lanes, 0) == ["a2"]
    assert parallel._next_chunk(lanes, 0) == ["b3"]  # lane 0 is done: the last of lane 1
    assert parallel._next_chunk(lanes, 1) == ["b1"]
    assert parallel._next_chunk(lanes, 1) == ["b2"]
    assert parallel._next_chunk(lanes, 0) is None and parallel._next_chunk(lanes, 1) is None


@pytest.mark.parametrize("text", ["0", "-2", "two"])
def test_jobs_must_be_a_positive_number(capsys, text):
    code, _, err = check(capsys, "-j", text, "x.py")
    assert code == 2 and "argument -j/--jobs" in err


def test_the_library_api_lints_in_process(tmp_path):
    import gradlint

    (tmp_path / "bad.py").write_text(BAD)
    (found,) = gradlint.lint_paths(tmp_path)
    assert found.code == "GL005"


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus at /tmp/corpus (bash ../shared/tools/make_corpus.sh)")
def test_the_corpus_reads_the_same_cold_warm_and_in_any_number_of_processes(tmp_path):
    def run(*args: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--output-format", "json",
                               *args, str(CORPUS)], capture_output=True, text=True, timeout=1800)
        assert proc.returncode in (0, 1), proc.stderr
        return proc.stdout

    cache = ["--cache-dir", str(tmp_path / "cache")]
    cold = run("-j", "2", *cache)
    assert run("-j", "2", *cache) == cold  # warm
    assert run("-j", "1", "--no-cache") == cold
    assert run("-j", "2", "--no-cache") == cold


@pytest.fixture
def executors(monkeypatch) -> list:
    """The process pools the run under test makes, as they are made."""
    import concurrent.futures

    made = []

    class Recorded(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recorded)
    return made


def test_workers_end_when_the_run_is_interrupted(project, executors):
    # Ctrl-C arrives while results are being read (a second one would cut short a shutdown
    # that waits): the workers, who ignore SIGINT themselves, must not be left waiting for work.
    jobs = [runner.Job(i, runner.Target(str(p), p), frozenset({"GL005"})) for i, p in enumerate(sorted(project.glob("*.py")))]
    results = parallel.check_all(jobs, 2)
    next(results)
    (pool,) = executors
    workers = [worker.pid for worker in pool._processes.values()]
    assert workers
    with pytest.raises(KeyboardInterrupt):
        results.throw(KeyboardInterrupt)
    # (the pool's own thread reaps them: ask the system, not the Process objects)
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(pid) for pid in workers)


def test_a_second_interrupt_in_the_handler_never_waits_on_busy_workers(project, executors, monkeypatch):
    # Ctrl-C held down: the second one lands while the first is handled, before further ones
    # are ignored. The pool must not then be shut down by waiting for the chunks the workers
    # are in (they ignore SIGINT): under load that wait outlasted the 10 s the process allows
    # itself, and it died of SIGALRM instead of exiting 130.
    landed = []

    def second_interrupt():
        if not landed:
            landed.append(True)
            raise KeyboardInterrupt
        return None

    monkeypatch.setattr(parallel, "ignore_interrupts", second_interrupt)
    jobs = [runner.Job(i, runner.Target(str(p), p), frozenset({"GL005"})) for i, p in enumerate(sorted(project.glob("*.py")))]
    results = parallel.check_all(jobs, 2)
    next(results)
    (pool,) = executors
    workers = [worker.pid for worker in pool._processes.values()]
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)  # busy for as long as the test likes: a wait on them never ends
    raised = []

    def interrupt():
        try:
            results.throw(KeyboardInterrupt)
        except BaseException as err:  # noqa: BLE001 (what escapes is the point)
            raised.append(err)

    thread = threading.Thread(target=interrupt, daemon=True)
    thread.start()
    thread.join(30)
    waited = thread.is_alive()
    for pid in workers:  # (ends the wait, if there was one)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    thread.join(30)
    assert not waited, "the interrupted run waited on workers busy with their chunks"
    assert landed and len(raised) == 1 and isinstance(raised[0], KeyboardInterrupt)


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (Linux's /proc; elsewhere: a signal 0)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["interrupted twice", "killed"])
def test_no_worker_outlives_its_run(tmp_path, how):
    # Ctrl-C twice (`timeout -s INT` signals the process, then its group) cut short the pool's
    # shutdown and left both workers waiting for work forever, holding stdout open.
    import time

    for i in range(300):
        (tmp_path / f"m{i:03}.py").write_text(BAD * 20)
    run = subprocess.Popen([sys.executable, "-m", "gradlint", "check", "-j", "2", "--no-cache", "-q", str(tmp_path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def session() -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    if os.getsid(int(entry)) == run.pid and int(entry) != run.pid:
                        found.append(int(entry))
                except OSError:
                    pass
        return found

    deadline = time.monotonic() + 30
    while len(session()) < 2 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert run.poll() is None and len(session()) >= 2, "the pool never started"
    if how == "killed":
        os.kill(run.pid, signal.SIGKILL)
    else:
        os.kill(run.pid, signal.SIGINT)
        time.sleep(0.05)
        os.killpg(run.pid, signal.SIGINT)
    run.wait(timeout=30)
    deadline = time.monotonic() + 10
    while session() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = session()
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left
