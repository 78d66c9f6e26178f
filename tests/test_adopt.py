"""``gradlint check --add-noqa``, end to end through ``gradlint.cli.main`` on copies of files.

Each test compares the bytes written with the bytes expected: the only lines that change are
those that gain a directive, and a file without a finding that could get one is never written.
"""
from __future__ import annotations

import ast
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import adopt, cli, noqa, writer

ROOT = Path(__file__).resolve().parent.parent
# One finding: GL005 on line 6 (``u`` edited in place after ``**`` saved it for backward).
SAVED = (
    "import torch\n"
    "\n"
    "base = torch.tensor([1.0], requires_grad=True)\n"
    "u = base * 4\n"
    "sq = u ** 2\n"
    "{edit}\n"
    "sq.sum().backward()\n"
)
EDIT = "u.add_(3)"
DIRECTIVE = re.compile(r"  # noqa: GL\d{3}(, GL\d{3})*$")


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(["check", "--output-format", "concise", *args])
    out, err = capsys.readouterr()
    return status, out, err


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def saved(edit: str = EDIT, newline: str = "\n") -> bytes:
    return SAVED.format(edit=edit).replace("\n", newline).encode()


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- the shipped fixtures ------------------------------------------------------------------------


def test_fixtures_are_silenced_and_otherwise_byte_identical(project, capsys, fixture_set):
    for folder in ("GL001", "GL002", "GL003", "GL004", "GL005"):
        shutil.copytree(fixture_set / folder, project / folder,
                        ignore=shutil.ignore_patterns("*.expected"))
    before = {p: p.read_bytes() for p in project.rglob("*.py")}
    stamps = {p: p.stat().st_mtime_ns for p in before}
    status, out, _ = run(capsys)
    assert status == 1 and out  # the findings the adoption starts from

    status, out, err = run(capsys, "--add-noqa")
    assert (status, out) == (0, "")

    changed_files, changed_lines = 0, 0
    for path, old in before.items():
        new = path.read_bytes()
        ast.parse(new)
        if new == old:
            assert path.stat().st_mtime_ns == stamps[path], f"{path} rewritten unchanged"
            continue
        changed_files += 1
        old_lines, new_lines = old.decode().split("\n"), new.decode().split("\n")
        assert len(old_lines) == len(new_lines)
        for was, now in zip(old_lines, new_lines):
            if was != now:
                changed_lines += 1
                assert now.startswith(was.rstrip()) and DIRECTIVE.fullmatch(now[len(was.rstrip()):]), (was, now)
    assert changed_files > 100
    assert err.splitlines()[-2:] == [
        f"Added {changed_lines} noqa directives in {changed_files} files.",
        f"No findings ({len(before)} files checked).",
    ]
    assert run(capsys) == (0, "", f"No findings ({len(before)} files checked).\n")


def test_a_file_that_does_not_parse_is_reported_and_left_alone(project, capsys):
    broken = ROOT / "fixtures/GL000/bad_unclosed_call_in_training_loop.py"
    data = write(project / "broken.py", broken.read_bytes()).read_bytes()
    status, out, err = run(capsys, "--add-noqa")
    assert status == 1
    assert out.startswith("broken.py:16:38: GL000 ")
    assert "gradlint: warning: broken.py:16: GL000 not given a noqa: the file does not parse" in err
    assert "Added 0 noqa directives in 0 files." in err
    assert (project / "broken.py").read_bytes() == data


# --- bytes kept ---------------------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_are_kept(project, capsys, newline):
    path = write(project / "m.py", saved(newline=newline))
    assert run(capsys, "--add-noqa")[0] == 0
    assert path.read_bytes() == saved(EDIT + "  # noqa: GL005", newline)


def test_bom_and_a_missing_last_line_break_are_kept(project, capsys):
    data = b"\xef\xbb\xbf" + saved().rstrip(b"\n")
    path = write(project / "m.py", data.replace(b"sq.sum().backward()", b"sq.sum().backward()  # \xc3\xa9t\xc3\xa9"))
    assert run(capsys, "--add-noqa")[0] == 0
    assert path.read_bytes() == (b"\xef\xbb\xbf" + saved(EDIT + "  # noqa: GL005").rstrip(b"\n")).replace(
        b"sq.sum().backward()", b"sq.sum().backward()  # \xc3\xa9t\xc3\xa9")


def test_a_coding_cookie_is_honoured(project, capsys):
    data = b"# -*- coding: latin-1 -*-\n" + saved().replace(b"import torch", b"import torch  # caf\xe9")
    path = write(project / "m.py", data)
    status, out, _ = run(capsys, "--add-noqa")
    assert status == 0
    assert path.read_bytes() == data.replace(b"u.add_(3)\n", b"u.add_(3)  # noqa: GL005\n")


def test_a_form_feed_does_not_shift_the_lines(project, capsys):
    # str.splitlines would break at the form feed; Python does not.
    data = saved().replace(b"u = base * 4", b"u = base * 4  # \x0c page")
    path = write(project / "m.py", data)
    assert run(capsys, "--add-noqa")[0] == 0
    assert path.read_bytes() == data.replace(b"u.add_(3)\n", b"u.add_(3)  # noqa: GL005\n")


def test_a_file_without_findings_is_not_written(project, capsys):
    path = write(project / "clean.py", b"x = 1\r\n")
    stamp = path.stat().st_mtime_ns
    assert run(capsys, "--add-noqa") == (0, "", "Added 0 noqa directives in 0 files.\nNo findings (1 file checked).\n")
    assert path.stat().st_mtime_ns == stamp


def test_trailing_whitespace_is_kept_with_crlf(project, capsys):
    path = write(project / "m.py", saved(EDIT + " \t", "\r\n"))
    assert run(capsys, "--add-noqa")[0] == 0
    assert path.read_bytes() == saved(EDIT + "  # noqa: GL005 \t", "\r\n")


# --- where the comment goes ---------------------------------------------------------------------


@pytest.mark.parametrize("line, expected", [
    ("u.add_(3)  # noqa: E501", "u.add_(3)  # noqa: E501, GL005"),
    ("u.add_(3)  # NOQA:E501,W291 long line", "u.add_(3)  # NOQA:E501,W291, GL005 long line"),
    ('u.add_(len("#1"))  # why', 'u.add_(len("#1"))  # why  # noqa: GL005'),
    ('u.add_(len("# noqa: GL005"))', 'u.add_(len("# noqa: GL005"))  # noqa: GL005'),
    ("u.add_(3)  # type: ignore", "u.add_(3)  # type: ignore  # noqa: GL005"),
    # Trailing whitespace (a form feed too) is kept, after the comment: only the comment is new.
    ("u.add_(3)   ", "u.add_(3)  # noqa: GL005   "),
    ("u.add_(3) \t\x0c", "u.add_(3)  # noqa: GL005 \t\x0c"),
    ("u.add_(3)  # why \t", "u.add_(3)  # why  # noqa: GL005 \t"),
])
def test_comment_placement(project, capsys, line, expected):
    path = write(project / "m.py", saved(line))
    status, out, err = run(capsys, "--add-noqa")
    assert (status, out) == (0, ""), err
    assert path.read_bytes() == saved(expected)
    assert "Added 1 noqa directive in 1 file." in err
    assert run(capsys)[0] == 0


def test_a_multiline_finding_gets_its_comment_on_its_first_line_that_ends_in_code(project, capsys):
    path = write(project / "m.py", saved("u.add_(\n    3)"))
    assert run(capsys, "--add-noqa")[0] == 0
    assert path.read_bytes() == saved("u.add_(  # noqa: GL005\n    3)")
    assert run(capsys, "--select", "ALL")[0] == 0  # and the noqa counts as used


@pytest.mark.parametrize("edit", ['v = u.add_(3) + \\\n    1', 'u.add_(3); s = """\nx"""'])
def test_a_line_where_no_comment_can_go_is_reported(project, capsys, edit):
    data = write(project / "m.py", saved(edit)).read_bytes()
    status, out, err = run(capsys, "--add-noqa")
    assert status == 1 and out.startswith("m.py:6:")
    assert ("gradlint: warning: m.py:6: GL005 not given a noqa: line 6 ends inside a string or a "
            "backslash continuation, where a comment cannot go") in err
    assert (project / "m.py").read_bytes() == data


def test_several_findings_on_one_line_share_one_directive(project, capsys):
    source = saved().replace(b"sq = u ** 2\n", b"sq = u ** 2\nrt = u.sqrt()\n").replace(
        b"u.add_(3)", b"u.add_(3); u.mul_(2)")
    path = write(project / "m.py", source)
    status, _, err = run(capsys, "--add-noqa")
    assert status == 0 and "Added 1 noqa directive in 1 file." in err
    assert b"u.add_(3); u.mul_(2)  # noqa: GL005\n" in path.read_bytes()


# --- what is not written ------------------------------------------------------------------------


def test_standard_input_is_not_written(project, capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(saved())))
    status, out, err = run(capsys, "--add-noqa", "-")
    assert status == 1 and out.startswith("-:6:1: GL005 ")
    assert "gradlint: warning: -: standard input is not written; 1 finding reported as usual" in err


def test_a_notebook_is_not_written(project, capsys):
    book = ROOT / "fixtures/notebooks/bad_training_loop.ipynb"
    if not book.is_file():
        pytest.skip("no notebook fixture in this tree")
    data = write(project / "nb.ipynb", book.read_bytes()).read_bytes()
    status, out, err = run(capsys, "--add-noqa", "nb.ipynb")
    assert status == 1 and out.startswith("nb.ipynb:")
    assert "gradlint: warning: nb.ipynb: notebooks are not written (yet)" in err
    assert (project / "nb.ipynb").read_bytes() == data


def test_unused_suppressions_are_not_silenced_but_reported(project, capsys):
    path = write(project / "m.py", saved().replace(b"u = base * 4", b"u = base * 4  # noqa: GL001"))
    status, out, err = run(capsys, "--add-noqa", "--select", "ALL")
    assert status == 1
    assert out.startswith("m.py:4:15: GL900 unused suppression: # noqa: GL001")
    assert "m.py:4: GL900 not given a noqa: an unused suppression is deleted, not silenced" in err
    assert b"u.add_(3)  # noqa: GL005\n" in path.read_bytes()
    assert b"GL900" not in path.read_bytes()


def test_with_the_dynamic_pass_is_a_usage_error(project, capsys):
    write(project / "m.py", saved())
    for option in (["--dynamic"], ["--dynamic-only", "confirmed"], ["--show-graph"]):
        status, _, err = run(capsys, "--add-noqa", *option)
        assert status == 2
        assert err.startswith("gradlint: error: --add-noqa silences the static findings and runs nothing")
    assert (project / "m.py").read_bytes() == saved()


# --- the guarantees: never a file that no longer parses ------------------------------------------


def test_noqa_add_never_returns_text_that_does_not_parse(monkeypatch):
    from gradlint.finding import Finding
    text = SAVED.format(edit=EDIT)
    finding = Finding(path="m.py", line=6, column=1, code="GL005", end_line=6, end_column=10,
                      name="inplace-on-saved", message="")
    assert noqa.add(text, [finding]) == (text.replace(EDIT, EDIT + "  # noqa: GL005"), [])
    monkeypatch.setattr(noqa, "with_codes", lambda line, codes, comment=None: "(" + line)
    assert noqa.add(text, [finding]) == (text, [finding])


def test_adopt_checks_the_bytes_it_writes_parse(project, capsys, monkeypatch):
    path = write(project / "m.py", saved())
    monkeypatch.setattr(noqa, "add", lambda text, findings: (text + "(\n", []))
    status, out, err = run(capsys, "--add-noqa")
    assert status == 1 and out.startswith("m.py:6:1: GL005")
    assert "m.py:6: GL005 not given a noqa: the file would no longer parse" in err
    assert path.read_bytes() == saved()


def test_summary_counts():
    assert adopt.Adoption(1, 1).summary() == "Added 1 noqa directive in 1 file."
    assert adopt.Adoption(12, 5).summary() == "Added 12 noqa directives in 5 files."


# --- how a file is written: whole or not at all, as the same file ---------------------------------

# Two GL005 findings: line 6 can take a comment, line 9 ends in a backslash continuation.
TWO = (
    "import torch\n"
    "\n"
    "base = torch.tensor([1.0], requires_grad=True)\n"
    "u = base * 4\n"
    "sq = u ** 2\n"
    "u.add_(3)\n"
    "w = base * 2\n"
    "sw = w ** 2\n"
    "{edit}\n"
    "(sq + sw).sum().backward()\n"
)


def two(edit: str = "v = w.add_(3) + \\\n    1") -> bytes:
    return TWO.format(edit=edit).encode()


def gradlint(*args: str, cwd: Path, fsize: int | None = None, before: str = "") -> subprocess.CompletedProcess:
    """gradlint in a child process, with at most ``fsize`` bytes per file written (as a full disk
    or a quota would stop it), after the Python statements ``before``."""
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    main = f"{before}\nimport sys\nfrom gradlint.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", main, "check", "--no-cache", "--output-format",
                           "concise", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, preexec_fn=None if fsize is None else limit)


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
@pytest.mark.parametrize("linked, before", [
    (False, ""),
    (True, ""),  # written in place: the space is reserved first, and that fails
    (True, "import os\ndel os.posix_fallocate"),  # as on macOS: the write fails, the old bytes go back
], ids=["one-name", "hard-linked", "hard-linked-no-fallocate"])
def test_a_write_that_fails_leaves_the_file_as_it_was(tmp_path, linked, before):
    data = saved()
    path = write(tmp_path / "m.py", data)
    if linked:
        os.link(path, tmp_path / "n.py")
    names = sorted(os.listdir(tmp_path))
    # The new text is 15 bytes longer; the limit lets the write start and stops it part-way.
    done = gradlint("--add-noqa", "m.py", cwd=tmp_path, fsize=len(data) + 5, before=before)
    assert done.returncode == 2, done.stderr
    assert path.read_bytes() == data
    assert sorted(os.listdir(tmp_path)) == names  # no temporary file left behind
    errors = [line for line in done.stderr.splitlines() if line.startswith("gradlint: error")]
    assert len(errors) == 1 and errors[0].startswith("gradlint: error: m.py: cannot write: "), done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.startswith("m.py:6:1: GL005 ")  # still reported
    # Without the limit, the same run writes it.
    assert gradlint("--add-noqa", "m.py", cwd=tmp_path).returncode == 0
    assert path.read_bytes() == saved(EDIT + "  # noqa: GL005")


@pytest.mark.parametrize("args", [["link.py"], ["."], ["link.py", "sub/real.py"]])
def test_a_symlink_stays_a_symlink_and_its_target_gets_the_noqa(project, capsys, args):
    (project / "sub").mkdir()
    target = write(project / "sub" / "real.py", saved())
    (project / "link.py").symlink_to(Path("sub") / "real.py")
    status, out, err = run(capsys, "--add-noqa", *args)
    assert (status, out) == (0, ""), err
    assert "Added 1 noqa directive in 1 file." in err
    assert (project / "link.py").is_symlink() and os.readlink(project / "link.py") == os.path.join("sub", "real.py")
    assert target.read_bytes() == saved(EDIT + "  # noqa: GL005")
    assert sorted(p.name for p in project.rglob("*")) == ["link.py", "real.py", "sub"]


@pytest.mark.parametrize("edit, status, expected", [
    ("w.add_(3)", 0, two("w.add_(3)  # noqa: GL005").replace(b"u.add_(3)\n", b"u.add_(3)  # noqa: GL005\n")),
    (None, 1, two().replace(b"u.add_(3)\n", b"u.add_(3)  # noqa: GL005\n")),
], ids=["all-silenced", "one-left"])
def test_hard_links_are_one_file_written_once(project, capsys, edit, status, expected):
    first = write(project / "a.py", two() if edit is None else two(edit))
    os.link(first, project / "b.py")
    inode = first.stat().st_ino
    code, out, err = run(capsys, "--add-noqa", ".")
    assert code == status, err
    assert "error" not in err
    assert ("Added 2 noqa directives in 1 file." if edit else "Added 1 noqa directive in 1 file.") in err
    for name in ("a.py", "b.py"):
        assert (project / name).stat().st_ino == inode  # still one file under two names
        assert (project / name).read_bytes() == expected
    # What could not be silenced is reported under both names, as a check reports it.
    assert [line.split(" ")[0] for line in out.splitlines()] == (["a.py:9:5:", "b.py:9:5:"] if status else [])


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o755, 0o640])
def test_the_mode_is_kept(project, capsys, mode):
    path = write(project / "m.py", saved())
    path.chmod(mode)
    assert run(capsys, "--add-noqa")[0] == 0
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert path.read_bytes() == saved(EDIT + "  # noqa: GL005")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a file away")
def test_the_owner_is_kept(project, capsys):
    path = write(project / "m.py", saved())
    os.chown(path, 4321, 4322)
    assert run(capsys, "--add-noqa")[0] == 0
    assert (path.stat().st_uid, path.stat().st_gid) == (4321, 4322)
    assert path.read_bytes() == saved(EDIT + "  # noqa: GL005")


def _refuse(*args, **kwargs):
    raise PermissionError(13, "Permission denied")


@pytest.mark.parametrize("what", ["owner", "folder"])
def test_a_file_that_cannot_be_replaced_is_written_in_place(project, capsys, monkeypatch, what):
    # A replacement would change the owner (a file of another user we may write), or no file may
    # be made beside it (a folder we may not add to): the file is written where it is.
    path = write(project / "m.py", saved())
    if what == "owner":
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            pytest.skip("needs root to give a file away")
        os.chown(path, 4321, 4322)
        monkeypatch.setattr(os, "fchown", _refuse)
    else:
        monkeypatch.setattr(writer.tempfile, "mkstemp", _refuse)
    stat_before = path.stat()
    assert run(capsys, "--add-noqa")[0] == 0
    assert path.stat().st_ino == stat_before.st_ino
    assert (path.stat().st_uid, path.stat().st_gid) == (stat_before.st_uid, stat_before.st_gid)
    assert path.read_bytes() == saved(EDIT + "  # noqa: GL005")
    assert os.listdir(project) == ["m.py"]


def test_the_writer_never_writes_text_that_does_not_parse(tmp_path):
    path = write(tmp_path / "m.py", b"\xef\xbb\xbfx = 1\r\n")
    source = writer.read(path)
    assert (source.text, source.encoding) == ("x = 1\r\n", "utf-8-sig")
    with pytest.raises(writer.WouldNotParse):
        writer.write(source, "x = (\r\n")
    assert path.read_bytes() == b"\xef\xbb\xbfx = 1\r\n"
    assert writer.write(source, "x = 2\r\n") == b"\xef\xbb\xbfx = 2\r\n"
    assert path.read_bytes() == b"\xef\xbb\xbfx = 2\r\n"


def test_the_writer_does_not_overwrite_a_file_changed_since_it_was_read(tmp_path):
    path = write(tmp_path / "m.py", b"x = 1\n")
    source = writer.read(path)
    path.write_bytes(b"x = 3\n")
    with pytest.raises(writer.WriteError, match="changed since it was read"):
        writer.write(source, "x = 2\n")
    assert path.read_bytes() == b"x = 3\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_the_writer_neither_waits_on_nor_writes_a_fifo(tmp_path):
    import threading
    fifo = tmp_path / "m.py"
    os.mkfifo(fifo)
    raised: list[BaseException] = []

    def read():
        try:
            writer.read(fifo)
        except writer.WriteError as err:
            raised.append(err)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)  # a guard against a hang: opening a FIFO to read waits for a writer
    assert not reader.is_alive(), "writer.read waited on a FIFO"
    assert [str(err) for err in raised] == ["not a regular file, so it is not rewritten"]
