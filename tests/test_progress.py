"""The progress bar (gradlint/progress.py): on a terminal's stderr for runs over many files, and
not one byte of it into a pipe, into stdout, or for a short run."""
from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import progress

MANY = progress.MIN_FILES + 10


def folder_of(path: Path, count: int) -> Path:
    path.mkdir()
    for i in range(count):
        (path / f"m{i:03}.py").write_text(f"import torch\nx{i} = torch.ones(3)\n")
    return path


def run_with_terminal_stderr(args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """gradlint with stderr on a pseudo-terminal and stdout on a pipe: (status, stdout, stderr)."""
    main, child = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-m", "gradlint", *args], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=child)
    os.close(child)
    err = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child side is closed
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read()
    proc.wait(timeout=120)
    os.close(main)
    return proc.returncode, out, err


def test_a_terminal_sees_a_bar_over_many_files(tmp_path):
    folder = folder_of(tmp_path / "src", MANY)
    code, out, err = run_with_terminal_stderr(["check", "--no-cache", "-j", "1", "src"], tmp_path)
    assert code == 0 and out == b""
    assert b"checking" in err and f"{MANY}/{MANY}".encode() in err
    assert err.rstrip().endswith(f"No findings ({MANY} files checked).".encode())
    assert folder.is_dir()


def test_json_stdout_holds_no_progress_even_on_a_terminal(tmp_path):
    folder_of(tmp_path / "src", MANY)
    code, out, err = run_with_terminal_stderr(["check", "--no-cache", "--output-format", "json", "src"], tmp_path)
    assert code == 0 and out == b"[]\n"
    assert b"checking" in err


def test_a_few_files_show_no_bar_on_a_terminal(tmp_path):
    folder_of(tmp_path / "src", progress.MIN_FILES - 1)
    _, _, err = run_with_terminal_stderr(["check", "--no-cache", "src"], tmp_path)
    assert b"checking" not in err and b"\x1b" not in err


def test_a_warm_run_shows_no_bar(tmp_path):
    folder_of(tmp_path / "src", MANY)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    run_with_terminal_stderr(["check", *cache, "src"], tmp_path)
    _, _, err = run_with_terminal_stderr(["check", *cache, "src"], tmp_path)
    assert b"checking" not in err  # nothing to lint


def test_a_pipe_gets_no_progress_bytes(tmp_path):
    folder_of(tmp_path / "src", MANY)
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--no-cache", "src"], cwd=tmp_path,
                          capture_output=True, timeout=120, env=dict(os.environ, TERM="xterm-256color"))
    assert proc.returncode == 0 and proc.stdout == b""
    assert proc.stderr == f"No findings ({MANY} files checked).\n".encode()


@pytest.mark.parametrize("total", [0, progress.MIN_FILES - 1, 10_000])
def test_bar_writes_nothing_to_a_stream_that_is_no_terminal(total):
    stream = io.StringIO()
    with progress.bar(total, stream) as advance:
        advance(total)
    assert stream.getvalue() == ""


def test_bar_draws_on_a_terminal_stream():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    with progress.bar(MANY, stream) as advance:
        for _ in range(MANY):
            advance(1)
    assert "checking" in stream.getvalue()


def test_a_one_file_run_does_not_import_rich(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    script = ("import sys\nfrom gradlint import cli\ncli.main(['check', '-q', '--no-cache', 'a.py'])\n"
              "print('rich' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split()[-1] == "False", proc.stderr
