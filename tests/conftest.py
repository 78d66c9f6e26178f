"""Shared pytest configuration.

``harness_results``: every fixture program that a selected test reads is run once, plain and
instrumented, by ``tests/transparency.py`` (forked from one warm helper per core), and the
entries are shared by ``test_transparency.py`` and ``test_fixtures.py``.

``--update-golden`` makes ``tests/test_fixtures.py`` rewrite each ``fixtures/**/<name>.expected``
from gradlint's current output instead of comparing against it. Review the diff before
committing: the goldens are only as right as the answers they record.
"""
from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "transparency.py"
HARNESS_TIMEOUT = 1800  # seconds for one helper's whole list; each run has its own 60 s limit
# The tests whose "rel" parameter names a program the harness must run, and the one whose
# "folder" parameter names a folder whose program it runs plain.
HARNESS_READERS = ("test_transparent", "test_verdict", "test_program_runs")
FOLDER_READER = "test_folder_program_runs"
PLAIN_ONLY = "plain:"  # a harness argument's prefix: run the program plain only


def run_harness(rels: list[str], workers: int | None = None) -> dict[str, dict]:
    """rel -> the harness's entry for it; the list is shared out among ``workers`` helpers."""
    if not rels:
        return {}
    workers = max(1, min(len(rels), workers or os.cpu_count() or 1))
    chunks = [rels[i::workers] for i in range(workers)]
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")

    def one(chunk: list[str]) -> list[dict]:
        proc = subprocess.run([sys.executable, str(HARNESS), *chunk], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=HARNESS_TIMEOUT, stdin=subprocess.DEVNULL)
        entries = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or len(entries) != len(chunk):
            raise AssertionError(f"the harness failed (exit {proc.returncode}, {len(entries)} of {len(chunk)} "
                                 f"files reported):\n{proc.stderr[-4000:]}")
        return entries

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return {entry["path"]: entry for entries in pool.map(one, chunks) for entry in entries}


@pytest.fixture(scope="session")
def harness_results(request):
    """Run every program a selected test reads once, before the first check reads one."""
    readers = {}
    for item in request.session.items:
        name = getattr(item, "originalname", None)
        if name in HARNESS_READERS and hasattr(item, "callspec") and item.callspec.params.get("rel"):
            readers.setdefault(item.callspec.params["rel"], set()).add(name)
        elif name == FOLDER_READER and hasattr(item, "callspec") and item.callspec.params.get("folder"):
            readers.setdefault(item.callspec.params["folder"], set()).add(name)
    # (a program only `test_program_runs` reads is run plain alone: no lint, no Session; so is
    # a folder's)
    wanted = sorted(rel if names - {"test_program_runs", FOLDER_READER} else PLAIN_ONLY + rel
                    for rel, names in readers.items())
    return once_per_run(request, "harness", lambda: run_harness(wanted))


def once_per_run(request, name: str, compute):
    """``compute()`` once for the whole run. pytest-xdist gives each worker a session of its
    own; the first worker to ask computes (the programs it runs use every core anyway) and the
    others read its pickled result, waiting on a lock meanwhile."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return compute()
    from filelock import FileLock

    shared = request.getfixturevalue("tmp_path_factory").getbasetemp().parent / f"{name}.pickle"
    with FileLock(f"{shared}.lock"):
        if shared.is_file():
            return pickle.loads(shared.read_bytes())
        result = compute()
        shared.write_bytes(pickle.dumps(result))
        return result


SAMPLE_STEP = 6  # every sixth file and folder of each rule's fixtures


def sample_fixtures(dest: Path) -> Path:
    """A varied sixth of the shipped fixtures, copied to ``dest/fixtures``: from each folder
    every ``SAMPLE_STEP``-th entry in name order (bad and good files, folder programs), the
    syntax error and every notebook whole. The checks that compare two ways of running over
    many files (one process and a pool, cold and warm, flake8 and the CLI) read it by default;
    ``-m slow`` runs them over every fixture."""
    source = ROOT / "fixtures"
    for folder in sorted(p for p in source.iterdir() if p.is_dir()):
        entries = sorted(e for e in folder.iterdir() if e.suffix != ".expected")
        if folder.name not in ("GL000", "notebooks"):
            entries = entries[::SAMPLE_STEP]
        (dest / "fixtures" / folder.name).mkdir(parents=True, exist_ok=True)
        for entry in entries:
            target = dest / "fixtures" / folder.name / entry.name
            if entry.is_dir():
                shutil.copytree(entry, target, ignore=shutil.ignore_patterns("*.expected"))
            else:
                shutil.copy(entry, target)
    return dest / "fixtures"


@pytest.fixture(params=["sample", pytest.param("every", marks=pytest.mark.slow)])
def fixture_set(request, tmp_path_factory) -> Path:
    """The ``fixtures`` folder a whole-corpus check reads: a copied sample by default, the
    shipped folder itself under ``-m slow``."""
    if request.param == "every":
        return ROOT / "fixtures"
    return sample_fixtures(tmp_path_factory.mktemp("sample"))


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path_factory, monkeypatch):
    """Each test's ``gradlint check`` runs (in-process or in a child) cache in a folder of their
    own: never a .gradlint_cache in the repository or fixtures/, and never findings cached by an
    earlier test whose engine was patched differently."""
    monkeypatch.setenv("GRADLINT_CACHE_DIR", str(tmp_path_factory.mktemp("gradlint_cache")))


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="regenerate fixtures/**/*.expected from gradlint's current output instead of comparing",
    )
