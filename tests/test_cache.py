"""The cache (gradlint/cache.py): a warm run reports exactly what a cold one does, parses nothing,
and any change that could change a file's findings makes it linted again."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import cache, cli, engine, runner
from gradlint.rule import DEFAULT_CODES

ROOT = Path(__file__).resolve().parent.parent
BAD = ("import torch\nbase = torch.ones(3, requires_grad=True)\nu = base * 4\nsq = u ** 2\nu.add_(3)\n"
       "sq.sum().backward()\n")
GOOD = "import torch\nx = torch.ones(3)\n"


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "good.py").write_text(GOOD)
    return tmp_path


@pytest.fixture
def linted(monkeypatch):
    """The names engine.lint_source is asked to lint (the files the cache did not answer)."""
    seen: list[str] = []
    real = engine.lint_source

    def lint_source(source, path, codes=None, **kwargs):
        seen.append(path)
        return real(source, path, codes, **kwargs)

    monkeypatch.setattr(engine, "lint_source", lint_source)
    return seen


def packs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*/*.json"))


def entries(folder: Path) -> dict:
    """Every entry of every pack, by key."""
    return {key: entry for pack in packs(folder) for key, entry in json.loads(pack.read_bytes())["entries"].items()}


def test_warm_output_is_the_cold_output_over_the_fixtures(capsys, monkeypatch, tmp_path, fixture_set):
    monkeypatch.chdir(fixture_set.parent)
    args = ["--output-format", "json", "--select", "ALL", "-j", "1", "--cache-dir", str(tmp_path), "fixtures"]
    cold = check(capsys, *args)
    files = [p for p in fixture_set.rglob("*") if p.suffix in (".py", ".ipynb")]
    assert len(entries(tmp_path)) == len(files)  # every fixture (notebooks too) was stored
    warm = check(capsys, *args)
    # (that a cold run prints what `--no-cache` prints is test_determinism's, over the same files)
    assert cold[1].startswith("[") and json.loads(cold[1])
    assert cold == warm


def test_a_warm_run_parses_nothing_and_never_imports_the_analysis(project):
    env = dict(os.environ, GRADLINT_CACHE_DIR=str(project / "cache"))
    script = ("import sys\nfrom gradlint import cli\ncode = cli.main(['check', '-q', '.'])\n"
              "print(code, 'gradlint.analysis.flow' in sys.modules)")
    run = lambda: subprocess.run([sys.executable, "-c", script], cwd=project, env=env,  # noqa: E731
                                 capture_output=True, text=True, timeout=60)
    cold, warm = run(), run()
    assert cold.stdout.split()[-2:] == ["1", "True"], cold.stderr
    assert warm.stdout.split()[-2:] == ["1", "False"], warm.stderr
    findings = lambda run: run.stdout.splitlines()[:-1]  # noqa: E731
    assert findings(cold) == findings(warm) and "bad.py:5:1: GL005" in warm.stdout


def test_findings_are_cached_whole(project, capsys, linted):
    first = check(capsys, "--output-format", "json")
    assert sorted(linted) == ["bad.py", "good.py"]
    linted.clear()
    assert check(capsys, "--output-format", "json") == first
    assert linted == []
    (finding,) = json.loads(first[1])
    assert finding["details"] and finding["hint"] and finding["message"]


def test_an_edited_file_is_linted_again(project, capsys, linted):
    check(capsys)
    linted.clear()
    (project / "good.py").write_text(BAD)
    code, out, _ = check(capsys)
    assert linted == ["good.py"]
    assert code == 1 and "good.py:5:1: GL005" in out


@pytest.mark.parametrize("config", [
    '[tool.gradlint]\nper-file-ignores = { "bad.py" = ["GL005"] }\n',
    '[tool.gradlint]\nselect = ["GL001"]\n',
    '[tool.gradlint]\nselect = ["ALL"]\n',
])
def test_a_config_that_changes_a_files_codes_lints_it_again(project, capsys, linted, config):
    check(capsys)
    linted.clear()
    (project / "pyproject.toml").write_text(config)
    check(capsys)
    assert "bad.py" in linted


def test_a_config_that_changes_no_codes_reuses_the_cache(project, capsys, linted):
    check(capsys)
    linted.clear()
    (project / "pyproject.toml").write_text('[tool.gradlint]\nper-file-ignores = { "good.py" = ["GL005"] }\n')
    assert check(capsys)[0] == 1
    assert linted == ["good.py"]  # its codes changed; bad.py's did not


def test_other_gradlint_code_never_reuses_findings(project, capsys, linted, monkeypatch, tmp_path):
    folder = project / "cache"
    check(capsys, "--cache-dir", str(folder))
    (old,) = [p.name for p in folder.iterdir() if p.is_dir()]
    linted.clear()
    monkeypatch.setattr(cache, "fingerprint", lambda: "f" * 32)
    assert check(capsys, "--cache-dir", str(folder))[0] == 1
    assert sorted(linted) == ["bad.py", "good.py"]
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == sorted([old, "0.1.0-" + "f" * 16])


def test_other_codes_namespaces_but_the_newest_are_deleted(project, capsys, monkeypatch):
    # Two installs (a project's, a pre-commit hook's) may share one cache: the most recently
    # written namespaces stay, older ones can never be read again.
    folder = project / "cache"
    check(capsys, "--cache-dir", str(folder))  # makes the folder gradlint's
    old = [folder / f"0.1.0-{i:016x}" for i in range(6)]
    for age, namespace in enumerate(old):
        namespace.mkdir()
        os.utime(namespace, (1_000_000 + age, 1_000_000 + age))
    monkeypatch.setattr(cache, "fingerprint", lambda: "e" * 32)
    check(capsys, "--cache-dir", str(folder))
    kept = sorted(p.name for p in folder.iterdir() if p.is_dir())
    assert len(kept) == cache.KEEP and "0.1.0-" + "e" * 16 in kept
    assert old[-1].name in kept and old[0].name not in kept


def test_a_folder_that_is_not_a_cache_is_never_written_into(project, capsys):
    # `--cache-dir .`: a .gitignore of `*` in the project would hide every file from the next run.
    (project / "notes").mkdir()
    (project / "notes" / "0.1.0-0123456789abcdef").mkdir()  # named like a namespace, but the user's
    for _ in range(2):
        code, out, err = check(capsys, "--cache-dir", ".", "bad.py", "good.py")
        assert code == 1 and "bad.py:5:1: GL005" in out
        assert err.count("warning") == 1 and "not empty and not a gradlint cache" in err
    assert not (project / ".gitignore").exists() and not (project / "CACHEDIR.TAG").exists()
    assert (project / "notes" / "0.1.0-0123456789abcdef").is_dir()
    assert check(capsys, "--cache-dir", "empty")[0] == 1  # a new or empty folder is taken
    assert (project / "empty" / "CACHEDIR.TAG").exists()


@pytest.mark.parametrize("kind", ["nested", "fifo"])
def test_a_pack_that_cannot_be_read_is_a_miss(project, capsys, linted, kind):
    folder = project / "cache"
    first = check(capsys, "--cache-dir", str(folder))
    for pack in packs(folder):
        pack.unlink()
        if kind == "nested":
            pack.write_text("[" * 100_000 + "]" * 100_000)
        else:
            os.mkfifo(pack)  # opening it to read would block
    linted.clear()
    assert check(capsys, "--cache-dir", str(folder)) == first
    assert sorted(linted) == ["bad.py", "good.py"]


def test_a_pack_that_cannot_be_written_leaves_the_others_written(project, capsys):
    for i in range(60):
        (project / f"m{i}.py").write_text(GOOD)
    folder = project / "cache"
    check(capsys, "--cache-dir", str(folder), "--no-cache")  # nothing written
    namespace = folder / cache.Cache(folder).namespace.name
    namespace.mkdir(parents=True)
    (folder / "CACHEDIR.TAG").write_text(cache.TAG)
    key, _ = cache.Cache._key("bad.py", DEFAULT_CODES)
    blocked = namespace / f"{key[0]}.json"
    blocked.mkdir()  # the pack bad.py's entry goes to cannot be replaced
    code, _, err = check(capsys, "--cache-dir", str(folder))
    assert code == 1 and err.count("warning") == 1 and str(blocked) in err
    assert len(packs(folder)) >= 10  # the other packs were written


def test_the_fingerprint_follows_an_edit_of_gradlints_code(tmp_path):
    package = tmp_path / "gradlint"
    package.mkdir()
    (package / "engine.py").write_text("x = 1\n")
    (package / "data.json").write_text("{}")
    (package / "notes.txt").write_text("not code")
    before = cache.fingerprint(package)
    assert cache.fingerprint(package) == before
    (package / "notes.txt").write_text("still not code")
    assert cache.fingerprint(package) == before
    (package / "engine.py").write_text("x = 22\n")
    assert cache.fingerprint(package) != before
    assert cache.fingerprint() != before  # the installed code by default


@pytest.mark.parametrize("garbage", [b"", b"{", b"\x00\xff garbage", b"[]", b'{"entries": []}', b'{"entries": 1}'])
def test_a_corrupt_or_foreign_pack_is_a_miss_and_is_rewritten(project, capsys, linted, garbage):
    folder = project / "cache"
    first = check(capsys, "--cache-dir", str(folder))
    stored = entries(folder)
    assert len(stored) == 2
    for pack in packs(folder):
        pack.write_bytes(garbage)
    linted.clear()
    assert check(capsys, "--cache-dir", str(folder)) == first
    assert sorted(linted) == ["bad.py", "good.py"]
    assert entries(folder) == stored  # rewritten


@pytest.mark.parametrize("garbage", ["not a dict", "no hash", "same-hash", "foreign-finding", "not a list"])
def test_a_corrupt_or_foreign_entry_is_a_miss_and_is_rewritten(project, capsys, linted, garbage):
    folder = project / "cache"
    first = check(capsys, "--cache-dir", str(folder))
    stored = entries(folder)
    for pack in packs(folder):
        data = json.loads(pack.read_bytes())
        for key, entry in data["entries"].items():
            if garbage == "not a dict":
                data["entries"][key] = [entry]
            elif garbage == "no hash":
                del entry["hash"]
            elif garbage == "same-hash":  # the right file's hash, but findings that are not findings
                entry["findings"] = [{"line": "1"}]
            elif garbage == "foreign-finding":
                entry["findings"] = [{**f, "line": "one"} for f in entry["findings"]] or [{"code": 5}]
            else:
                entry["findings"] = {"0": entry["findings"]}
        pack.write_bytes(json.dumps(data).encode())
    linted.clear()
    assert check(capsys, "--cache-dir", str(folder)) == first
    assert sorted(linted) == ["bad.py", "good.py"]
    assert entries(folder) == stored  # rewritten


def test_a_truncated_pack_is_a_miss(project, capsys, linted):
    folder = project / "cache"
    first = check(capsys, "--cache-dir", str(folder))
    for pack in packs(folder):
        pack.write_bytes(pack.read_bytes()[:-7])
    linted.clear()
    assert check(capsys, "--cache-dir", str(folder)) == first
    assert len(linted) == 2


def test_a_run_writes_each_pack_once_whatever_the_number_of_files(project, capsys, monkeypatch):
    for i in range(60):
        (project / f"m{i}.py").write_text(GOOD)
    writes = []
    real = cache._write
    monkeypatch.setattr(cache, "_write", lambda path, data: writes.append(path.name) or real(path, data))
    assert check(capsys, "--cache-dir", "c", "-j", "2")[0] == 1
    assert len(entries(project / "c")) == 62
    packed = [name for name in writes if name.endswith(".json")]
    assert len(packed) == len(set(packed)) <= len(cache.PACKS)


def test_the_entries_of_deleted_files_go_when_their_pack_is_written(project, capsys):
    for i in range(40):
        (project / f"m{i}.py").write_text(GOOD)
    check(capsys, "--cache-dir", "c")
    for i in range(40):
        (project / f"m{i}.py").unlink()
    (project / "new.py").write_text(GOOD)
    check(capsys, "--cache-dir", "c", "new.py")
    (written,) = [p for p in packs(project / "c") if "new.py" in p.read_text()]
    kept = [Path(entry["path"]) for entry in json.loads(written.read_bytes())["entries"].values()]
    assert all(path.exists() for path in kept) and len(entries(project / "c")) > 1


def test_two_runs_at_once_keep_each_others_entries(project):
    folder = project / "c"
    first, second = cache.Cache(folder), cache.Cache(folder)
    codes = frozenset({"GL005"})
    assert first.get("bad.py", codes, "h1") is None and second.get("good.py", codes, "h2") is None
    first.put("bad.py", codes, "h1", [])
    second.put("good.py", codes, "h2", [])
    assert first.save() is None and second.save() is None  # the second merges into what the first wrote
    fresh = cache.Cache(folder)
    assert fresh.get("bad.py", codes, "h1") == [] and fresh.get("good.py", codes, "h2") == []


def test_an_unwritable_cache_warns_once_and_the_run_goes_on(project, capsys):
    (project / "file").write_text("")
    for name in ("a", "b", "c"):
        (project / f"{name}.py").write_text(BAD)
    code, out, err = check(capsys, "--cache-dir", str(project / "file" / "cache"), "-j", "1")
    assert code == 1 and out.count("GL005") == 4
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert warnings == [f"gradlint: warning: cannot write the cache in {project / 'file' / 'cache'} "
                        "(Not a directory); continuing without it"]


def test_the_cache_folder_is_tagged_and_ignored_by_git(project, capsys, monkeypatch):
    monkeypatch.delenv("GRADLINT_CACHE_DIR")
    check(capsys)
    folder = project / ".gradlint_cache"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=project,
                            capture_output=True, text=True, check=True).stdout
    assert ".gradlint_cache" not in status and "bad.py" in status


def test_the_cache_lives_in_the_folder_of_the_config_file(project, capsys, monkeypatch):
    monkeypatch.delenv("GRADLINT_CACHE_DIR")
    (project / "pyproject.toml").write_text("[tool.gradlint]\n")
    (project / "sub").mkdir()
    (project / "sub" / "x.py").write_text(BAD)
    monkeypatch.chdir(project / "sub")
    assert check(capsys, "x.py")[0] == 1
    assert (project / ".gradlint_cache").is_dir() and not (project / "sub" / ".gradlint_cache").exists()


def test_without_a_config_the_cache_lives_in_the_current_folder(project, capsys, monkeypatch):
    monkeypatch.delenv("GRADLINT_CACHE_DIR")
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    check(capsys, "../bad.py")
    assert (project / "sub" / ".gradlint_cache").is_dir()


def test_cache_dir_beats_the_environment(project, capsys):
    check(capsys, "--cache-dir", "here")
    assert entries(project / "here")
    assert not entries(Path(os.environ["GRADLINT_CACHE_DIR"]))


def test_no_cache_reads_and_writes_nothing(project, capsys, linted):
    check(capsys, "--cache-dir", "c")
    linted.clear()
    check(capsys, "--cache-dir", "c", "--no-cache")
    assert len(linted) == 2
    check(capsys, "--cache-dir", "d", "--no-cache")
    assert not (project / "d").exists()


def test_stdin_is_never_cached(project, capsys, linted, monkeypatch):
    import io

    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
        assert check(capsys, "--cache-dir", "c", "--stdin-filename", "bad.py")[0] == 1
    assert linted == ["bad.py", "bad.py"]
    assert not entries(project / "c")


def test_add_noqa_after_a_warm_run_writes_and_the_next_run_sees_the_new_text(project, capsys, linted):
    check(capsys)
    check(capsys)  # warm: the findings (and the texts add-noqa compares) come from the cache
    code, _, err = check(capsys, "--add-noqa")
    assert code == 0 and "Added 1 noqa directive in 1 file." in err
    assert "# noqa: GL005" in (project / "bad.py").read_text()
    linted.clear()
    assert check(capsys)[0] == 0
    assert linted == ["bad.py"]


def test_a_notebook_is_cached_with_its_cells(capsys, monkeypatch, tmp_path, linted):
    monkeypatch.chdir(ROOT)
    args = ["--output-format", "full", "--cache-dir", str(tmp_path), "fixtures/notebooks"]
    cold = check(capsys, *args)
    linted.clear()
    assert check(capsys, *args) == cold and linted == []
    assert "cell 3" in cold[1]


def test_an_interrupted_run_keeps_what_it_linted(project, capsys, monkeypatch):
    real = runner.check
    seen = []

    def check_then_stop(target, codes, hashed=False):
        if seen:
            raise KeyboardInterrupt
        seen.append(target.name)
        return real(target, codes, hashed)

    monkeypatch.setattr(runner, "check", check_then_stop)
    assert cli.main(["check", "--cache-dir", "c", "-j", "1"]) == 130
    assert [Path(entry["path"]).name for entry in entries(project / "c").values()] == seen


def test_an_empty_cache_dir_is_a_usage_error(project, capsys):
    code, out, err = check(capsys, "--cache-dir", "")
    assert code == 2 and out == ""
    assert err.strip().startswith("gradlint: error: --cache-dir: an empty path") and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("special", ["CACHEDIR.TAG", ".gitignore"])
def test_a_fifo_in_the_cache_folder_is_never_opened_and_the_run_goes_on(project, special):
    os.mkdir("c")
    os.mkfifo(Path("c") / special)
    try:
        proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--cache-dir", "c", "bad.py"],
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("the run waited for a writer on the FIFO")
    assert proc.returncode == 1 and "GL005" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("gradlint: warning:")]
    assert len(warnings) == 1 and "continuing without it" in warnings[0], proc.stderr
    assert not packs(project / "c")


@pytest.mark.parametrize("kind", ["file", "fifo"])
def test_a_cache_dir_that_is_not_a_folder_says_so(project, capsys, kind):
    if kind == "fifo":
        os.mkfifo("c")
    else:
        Path("c").write_text("")
    code, out, err = check(capsys, "--cache-dir", "c", "bad.py")
    assert code == 1 and "GL005" in out
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert warnings == [f"gradlint: warning: cannot write the cache in {project / 'c'} (not a folder); "
                        "continuing without it"]


def test_a_file_read_as_a_dependency_is_handed_over_once_and_the_entry_says_if_it_names_rules(project):
    (project / "dep.py").write_text(GOOD)
    dep = os.path.abspath("dep.py")
    digest = cache.content_hash(GOOD.encode())
    codes = frozenset({"GL005"})
    first = cache.Cache(project / "c")
    first.put("bad.py", codes, "h1", [], deps={dep: digest}, directives=False)
    first.put("dep.py", codes, digest, [])  # not told: a warm run searches its bytes
    assert first.save() is None
    warm = cache.Cache(project / "c")
    warm.expect(["bad.py", "dep.py"])
    assert warm.lookup("bad.py", codes, "h1") == ([], False)
    assert warm.take("dep.py") == (GOOD.encode(), digest)
    assert warm.take("dep.py") is None  # handed over, not kept
    assert warm.lookup("dep.py", codes, digest) == ([], True)
    (project / "dep.py").write_text(GOOD + "y = 1\n")
    assert cache.Cache(project / "c").lookup("bad.py", codes, "h1") is None  # its dependency changed
