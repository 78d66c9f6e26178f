"""The bug zoo, scored in the default run: every program under ``tests/zoo`` against the answer
its docstring states (``tools/score_zoo.py`` says how a finding is matched).

* ``test_zoo_program``: gradlint reports exactly what the program expects. A program gradlint
  still gets wrong is listed, with what it gets wrong, in ``tests/zoo/known_gaps.txt``; its test
  is an expected failure as long as the outcome is the listed one. Any other outcome fails: a
  new miss or false alarm (a regression), and also a listed program now right (take its line out,
  so the list stays the record of what is missed).
* ``test_zoo_score``: the whole zoo's recall and precision, as the script prints them, never
  below what ``known_gaps.txt`` allows (it cannot be: the per-program tests say so one by one;
  this one prints the figure a reader wants).
* ``test_zoo_program_runs`` (``pytest -m slow``): each program runs under torch to the end, its
  own asserts proving what its docstring claims.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import score_zoo  # noqa: E402
from conftest import once_per_run  # noqa: E402

GAPS_FILE = ROOT / "tests" / "zoo" / "known_gaps.txt"
PROGRAMS = score_zoo.programs()
BY_NAME = {p.name: p for p in PROGRAMS}


def _outcome(score: score_zoo.Score) -> set[str]:
    """What a program's score gets wrong, as the lines of known_gaps.txt say it."""
    wrong = {f"missed {code} {file}:{line}" for code, file, line in score.missed}
    wrong |= {f"extra {code} {file}:{line}" for code, file, line in score.extra}
    if score.error:
        wrong.add("error")
    return wrong


def _known_gaps() -> dict[str, set[str]]:
    """program -> what it gets wrong; a line: ``PROGRAM  missed|extra CODE FILE:LINE  # why``."""
    gaps: dict[str, set[str]] = {}
    for number, raw in enumerate(GAPS_FILE.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, what = line.partition(" ")
        assert name in BY_NAME, f"known_gaps.txt:{number}: no zoo program {name!r}"
        gaps.setdefault(name, set()).add(" ".join(what.split()))
    return gaps


KNOWN_GAPS = _known_gaps()


@pytest.fixture(scope="session")
def zoo_scores(request) -> dict[str, score_zoo.Score]:
    return once_per_run(request, "zoo", lambda: {s.program: s for s in score_zoo.score_all(PROGRAMS)})


def test_zoo_is_large_and_answered():
    assert len(PROGRAMS) >= 120, f"the zoo holds {len(PROGRAMS)} programs"
    bugs = [p for p in PROGRAMS if p.expected]
    assert len(bugs) >= len(PROGRAMS) / 2, "most programs are bugs; about a third are look-alikes"
    for p in PROGRAMS:
        for code, file, _ in p.expected:
            assert (ROOT / p.rel / file).is_file() if p.folder else file == Path(p.rel).name, (
                f"{p.name}: `expect: {code} {file}:…` names no file of the program")


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_zoo_program(name, zoo_scores):
    got = _outcome(zoo_scores[name])
    listed = KNOWN_GAPS.get(name, set())
    if listed and got == listed:
        pytest.xfail(f"known gap: {', '.join(sorted(listed))}")
    if listed and not got:
        pytest.fail(f"{name} is now right: take its lines out of tests/zoo/known_gaps.txt", pytrace=False)
    assert got == listed, (
        f"{name}: gradlint gets wrong {sorted(got) or 'nothing'}; known_gaps.txt lists {sorted(listed) or 'nothing'}"
        + (f"\n{zoo_scores[name].error}" if zoo_scores[name].error else ""))


def test_zoo_score(zoo_scores, capsys):
    totals = score_zoo.totals(list(zoo_scores.values()))
    with capsys.disabled():
        print(f"\nzoo: {score_zoo._line(totals)}")
    listed_misses = sum(1 for what in KNOWN_GAPS.values() for w in what if w.startswith("missed"))
    listed_extras = sum(1 for what in KNOWN_GAPS.values() for w in what if w.startswith("extra"))
    assert totals["missed"] <= listed_misses and totals["extra"] <= listed_extras


_HAVE_TORCH = importlib.util.find_spec("torch") is not None


@pytest.mark.slow
@pytest.mark.skipif(not _HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_zoo_program_runs(name):
    program = BY_NAME[name]
    path = ROOT / program.rel
    cwd, script = (path, score_zoo.MAIN) if path.is_dir() else (path.parent, path.name)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, script], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{name} did not run to the end:\n{proc.stdout[-1500:]}\n{proc.stderr[-2500:]}"
