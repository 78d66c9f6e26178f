"""Reading the user's paths: each file's bytes are read once, at most ``files.MAX_BYTES`` of
them, and what is read is what is hashed, cached and linted; a path that is not a regular file
(a pipe, /dev/stdin, a device) is never cached, and one that gives too much is one error line."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import cache, cli, files, runner
from gradlint.rule import DEFAULT_CODES

BAD = ("import torch\nbase = torch.ones(3, requires_grad=True)\nu = base * 4\nsq = u ** 2\nu.add_(3)\n"
       "sq.sum().backward()\n")
GRADLINT = [sys.executable, "-m", "gradlint"]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/fd and /dev/zero as on Linux")


def _pipe(data: bytes) -> int:
    """The read end of a pipe that holds ``data`` and then ends (as `<(cat f)` gives)."""
    read, write = os.pipe()
    os.write(write, data)  # small enough for the pipe's buffer
    os.close(write)
    return read


@linux
def test_a_pipe_is_read_once_with_the_cache_on(tmp_path):
    fd = _pipe(BAD.encode())
    try:
        name = f"/dev/fd/{fd}"
        result = runner.run([runner.Target(name=name, path=Path(name))], lambda _: DEFAULT_CODES,
                            cache=cache.Cache(tmp_path / "c"))
    finally:
        os.close(fd)
    assert not result.errors
    assert [(f.code, f.line) for f in result.findings] == [("GL005", 5)]
    assert name in result.sources  # the text the finding counts in: the bytes that were linted


@linux
def test_what_is_not_a_regular_file_is_never_cached(tmp_path):
    folder = tmp_path / "c"
    for _ in range(2):
        fd = _pipe(BAD.encode())
        try:
            name = f"/dev/fd/{fd}"
            result = runner.run([runner.Target(name=name, path=Path(name))], lambda _: DEFAULT_CODES,
                                cache=cache.Cache(folder))
        finally:
            os.close(fd)
        assert [f.code for f in result.findings] == ["GL005"]
    assert not list(folder.glob("*/*.json"))


@linux
def test_dev_stdin_from_a_pipe_with_the_cache_on(tmp_path):
    proc = subprocess.run([*GRADLINT, "check", "--cache-dir", str(tmp_path / "c"), "--output-format",
                           "concise", "/dev/stdin"], input=BAD.encode(), capture_output=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert b"/dev/stdin:5:1: GL005" in proc.stdout


@linux
def test_dev_zero_is_one_error_line_not_a_memory_error():
    import resource

    def cap() -> None:  # a reader that is not bounded must fail here, not eat the machine
        resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))

    for extra in (["--no-cache"], []):
        proc = subprocess.run([*GRADLINT, "check", *extra, "/dev/zero"], capture_output=True, text=True,
                              timeout=300, preexec_fn=cap, stdin=subprocess.DEVNULL)
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr
        lines = [line for line in proc.stderr.splitlines() if line.startswith("gradlint:")]
        assert lines == [f"gradlint: error: /dev/zero: not checked: a character device that gave more "
                         f"than {files.limit()}, the most gradlint reads of one file"]


def test_a_file_over_the_limit_is_reported_and_not_read(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(files, "MAX_BYTES", 64)
    Path("big.py").write_text("x = 1\n" * 20)
    Path("bad.py").write_text(BAD[:60])  # the others are still linted
    read = []
    real = files.read

    def spy(path):
        read.append(str(path))
        return real(path)

    monkeypatch.setattr(files, "read", spy)
    for extra in (["--no-cache"], ["--cache-dir", "c"]):
        read.clear()
        code = cli.main(["check", *extra, "big.py", "bad.py"])
        err = capsys.readouterr().err
        assert code == 2
        assert "gradlint: error: big.py: not checked: larger than 64 bytes, the most gradlint reads of " \
               "one file" in err.splitlines()
        assert "2 files checked" not in err and "1 file checked" in err
        assert sorted(read) == ["bad.py", "big.py"]  # each read once


def test_the_reader_reads_at_most_one_byte_over_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_BYTES", 10)
    path = tmp_path / "f.py"
    path.write_bytes(b"x" * 10)
    assert files.read(path) == files.Read(b"x" * 10, regular=True)
    fd = _pipe(b"y" * 11)
    try:
        with pytest.raises(files.TooLarge) as caught:
            files.read(f"/dev/fd/{fd}")
        assert os.read(fd, 100) == b""  # 11 bytes read: the limit and one more, no further
    finally:
        os.close(fd)
    assert isinstance(caught.value, OSError)  # the library's lint_paths raises OSError for what it cannot read


def test_lint_paths_raises_for_a_file_over_the_limit(tmp_path, monkeypatch):
    from gradlint import lint_paths

    monkeypatch.setattr(files, "MAX_BYTES", 10)
    (tmp_path / "big.py").write_text("x = 1\n" * 5)
    with pytest.raises(OSError, match="larger than 10 bytes"):
        lint_paths(tmp_path)


@linux
def test_a_pipe_among_many_files_is_linted_by_the_pool_from_the_bytes_read(tmp_path, monkeypatch):
    from gradlint import parallel

    monkeypatch.chdir(tmp_path)
    for i in range(parallel.POOL_MIN):
        Path(f"m{i:02}.py").write_text("x = 1\n")
    fd = _pipe(BAD.encode())
    try:
        name = f"/dev/fd/{fd}"
        targets = [runner.Target(str(p), p) for p in sorted(Path().glob("*.py"))]
        result = runner.run([*targets, runner.Target(name, Path(name))], lambda _: DEFAULT_CODES,
                            jobs=2, cache=cache.Cache(tmp_path / "c"))
    finally:
        os.close(fd)
    assert not result.errors and result.files_checked == parallel.POOL_MIN + 1
    assert [(f.path, f.code) for f in result.findings] == [(name, "GL005")]


def test_past_the_bytes_held_a_miss_is_read_again_and_cached_as_linted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runner, "HELD_BYTES", 0)
    Path("bad.py").write_text(BAD)
    read = []
    real = files.read
    monkeypatch.setattr(files, "read", lambda path: read.append(str(path)) or real(path))
    folder = tmp_path / "c"
    for _ in range(2):
        result = runner.run([runner.Target("bad.py", Path("bad.py"))], lambda _: DEFAULT_CODES,
                            cache=cache.Cache(folder))
        assert [f.code for f in result.findings] == ["GL005"]
    assert read == ["bad.py", "bad.py", "bad.py"]  # cold: looked up, then linted; warm: looked up
    [pack] = folder.glob("*/*.json")
    assert cache.content_hash(BAD.encode()) in pack.read_text()


@linux
@pytest.mark.parametrize("gitignore", ["fifo", "/dev/zero"])
def test_a_gitignore_that_is_not_a_regular_file_ignores_nothing(tmp_path, gitignore):
    import resource

    (tmp_path / "a.py").write_text(BAD)
    if gitignore == "fifo":
        os.mkfifo(tmp_path / ".gitignore")
    else:
        os.symlink(gitignore, tmp_path / ".gitignore")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))

    try:
        proc = subprocess.run([*GRADLINT, "check", "--no-cache", "--output-format", "concise", "."],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120, preexec_fn=cap,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("discovery waited for a writer on .gitignore")
    assert proc.returncode == 1 and "a.py:5:1: GL005" in proc.stdout, proc.stderr[-2000:]


@linux
@pytest.mark.parametrize("args", [["-"], ["--stdin-filename", "m.py"]])
def test_standard_input_past_the_limit_is_one_error_line(args):
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))

    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([*GRADLINT, "check", "--no-cache", *args], stdin=zero, capture_output=True,
                              text=True, timeout=300, preexec_fn=cap)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    lines = [line for line in proc.stderr.splitlines() if line.startswith("gradlint:")]
    assert lines == [f"gradlint: error: standard input: not checked: more than {files.limit()}, "
                                        f"the most gradlint reads of one file"]


@linux
@pytest.mark.parametrize("output", ["/dev/stdout", "/dev/stderr"])
def test_gradlints_own_output_as_a_path_is_an_error_not_a_wait(output):
    # Both are pipes here, whose writer is gradlint itself: a read would wait for it forever.
    try:
        proc = subprocess.run([*GRADLINT, "check", "--no-cache", output], capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading {output} waited for gradlint's own output to end")
    assert proc.returncode == 2
    assert f"gradlint: error: {output}: cannot read: it is gradlint's own output" in proc.stderr


def test_a_file_that_grew_since_its_size_was_taken_is_read_to_its_end(tmp_path):
    path = tmp_path / "grown.py"
    path.write_bytes(b"x = 1\n" * 30000)
    for size, limit, expected in ((10, None, 180000), (10, 150001, 150001), (180000, 0, 0),
                                  (180000, None, 180000), (200000, None, 180000)):
        handle = os.open(path, os.O_RDONLY)
        try:
            assert len(files._read_sized(handle, size, limit)) == expected, (size, limit)
        finally:
            os.close(handle)
    assert files.read_regular(path, limit=7) == b"x = 1\nx"


@pytest.mark.parametrize("extra", [[], ["--no-cache"], ["--output-format", "sarif"]])
def test_a_file_name_that_is_not_utf8_is_linted_and_cached(tmp_path, monkeypatch, capsys, extra):
    monkeypatch.chdir(tmp_path)
    name = os.fsdecode(b"bad\xff.py")
    Path(name).write_text(BAD)
    Path("good.py").write_text("x = 1\n")
    for _ in range(2):  # cold, then warm from the cache
        code = cli.main(["check", "--cache-dir", "c", *extra, "."] if "--no-cache" not in extra
                        else ["check", *extra, "."])
        out, err = capsys.readouterr()
        assert code == 1, err
        assert "internal error" not in err and "Traceback" not in err
        assert "GL00" in out
