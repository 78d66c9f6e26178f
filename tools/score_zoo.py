"""Score gradlint on the bug zoo: every program under ``tests/zoo`` against the answer its
docstring states.

A program is a single file, or a folder holding ``main.py`` and the modules it imports. Its
docstring says what gradlint must report::

    expect: GL001 12             a finding of GL001 whose lines cover line 12 (of main.py)
    expect: GL001 metrics.py:17  in a folder: in that file, or reported at a call in main.py
                                 whose finding names metrics.py line 17 as where the cut is,
                                 or as the statement that switched recording off
    expect: none                 nothing at all
    dynamic: confirm             what ``--dynamic`` must conclude for the expected findings
                                 (confirm | dismiss | error | none); an extra finding must be
                                 dismissed; ``error`` accepts ``confirmed`` too

The scoring is that of ``../shared/tools/score_cases.py`` (a finding matches one expectation at
most; an unmatched finding is an extra), extended to folders. Each program is linted alone, as
its own run and its own project: one program's classes never resolve another's names, and no
file of this repository is read as a caller of a program's functions.

    python tools/score_zoo.py [--dynamic] [--set round11] [-j N] [--json]

prints each miss, extra and wrong verdict, a line per set, and the whole zoo's
``recall= precision= dynamic_accuracy= programs=``.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZOO = ROOT / "tests" / "zoo"
EXPECT_LINE = re.compile(r"^\s*expect:(.*)$", re.M)
ONE = re.compile(r"^\s*(?:none|(GL\d{3})\s+(?:(\S+?):)?(\d+))\s*$")
DYNAMIC = re.compile(r"^\s*dynamic:\s*(confirm|dismiss|error|none)\s*$", re.M)
STATUS = {"confirm": {"confirmed"}, "dismiss": {"dismissed"}, "error": {"error", "confirmed"}}
MAIN = "main.py"


@dataclass
class Program:
    rel: str  # relative to the repository root, as gradlint is handed it
    expected: list[tuple[str, str, int]]  # (code, file within the program, line)
    dynamic: str | None

    @property
    def name(self) -> str:
        return Path(self.rel).relative_to(ZOO.relative_to(ROOT)).as_posix()

    @property
    def folder(self) -> bool:
        return (ROOT / self.rel).is_dir()


@dataclass
class Score:
    """One program's outcome: which expectations were found, which missed, what else was said."""
    program: str
    found: list[tuple[str, str, int]] = field(default_factory=list)
    missed: list[tuple[str, str, int]] = field(default_factory=list)
    extra: list[tuple[str, str, int]] = field(default_factory=list)
    verdicts_right: int = 0
    verdicts: int = 0
    wrong_verdicts: list[str] = field(default_factory=list)
    error: str | None = None


def programs(only: str | None = None) -> list[Program]:
    out = []
    for group in sorted(p for p in ZOO.iterdir() if p.is_dir()):
        if only and group.name != only:
            continue
        for entry in sorted(group.iterdir()):
            main = entry / MAIN if entry.is_dir() else entry
            if entry.name.startswith((".", "_")) or main.suffix != ".py" or not main.is_file():
                continue
            doc = ast.get_docstring(ast.parse(main.read_text(encoding="utf-8"))) or ""
            # an `expect:` line may name several findings, separated by commas
            parts = [part for line in EXPECT_LINE.findall(doc) for part in line.split(",")]
            bad = [part.strip() for part in parts if not ONE.match(part)]
            if bad:
                raise ValueError(f"{main}: an `expect:` line must say `none` or `GLxxx [FILE:]LINE`, not {bad}")
            expected = [(m[1], m[2] or main.name, int(m[3])) for m in map(ONE.match, parts) if m[1]]
            dyn = DYNAMIC.search(doc)
            out.append(Program(entry.relative_to(ROOT).as_posix(), expected, dyn[1] if dyn else None))
    return out


def lint(program: Program, dynamic: bool) -> tuple[list[dict] | None, str | None]:
    """gradlint's json findings for one program, run in this process from the repository root."""
    from gradlint import cli

    args = ["check", "--output-format", "json", "--no-cache", "-j", "1"]
    if dynamic:
        args.append("--dynamic")
    out, err = io.StringIO(), io.StringIO()
    # A program is a project of its own, as its author wrote it: linted in a copy under a marked
    # folder of its own, at the same relative path, so the project that a cross-file question
    # reads (which other file calls this function?) is the program, not this repository.
    with tempfile.TemporaryDirectory(prefix="gradlint-zoo-") as top:
        copy = Path(top) / program.rel
        (Path(top) / "setup.cfg").touch()
        if program.folder:
            shutil.copytree(ROOT / program.rel, copy, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            copy.parent.mkdir(parents=True)
            shutil.copy2(ROOT / program.rel, copy)
        os.chdir(top)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main([*args, program.rel])
        except BaseException as exc:  # one program's crash must not hide the others'
            return None, f"{type(exc).__name__}: {exc}"
        finally:
            os.chdir(ROOT)
    if status not in (0, 1):
        return None, f"exit {status}: {err.getvalue().strip()[-300:]}"
    try:
        return json.loads(out.getvalue()), None
    except json.JSONDecodeError:
        return None, f"not JSON: {out.getvalue()[:200]!r}"


def _where(program: Program, finding: dict, key: str = "path") -> str:
    path = ROOT / finding[key]
    return path.relative_to(ROOT / program.rel).as_posix() if program.folder else path.name


def _matches(program: Program, finding: dict, code: str, file: str, line: int) -> bool:
    if finding.get("code") != code:
        return False
    start = finding.get("line")
    end = finding.get("end_line") or start
    if _where(program, finding) == file and start is not None and start <= line <= end:
        return True
    details = finding.get("details") or {}
    # A folder's finding at the call in main.py names the other file's line the cut is on
    # (`origin`, or `cut`: the expression a region computed), or the other file's statement that
    # switched recording off (`region`); an in-place edit made by a member's call names the layer
    # built with `inplace=True` (`inplace`), in whichever file it is.
    if details.get("inplace_line") == line and (
            _where(program, details, "inplace_path") if details.get("inplace_path") else _where(program, finding)) == file:
        return True
    return any(details.get(f"{key}_path") and _where(program, details, f"{key}_path") == file
               and details.get(f"{key}_line") == line for key in ("origin", "region", "cut"))


def score(program: Program, dynamic: bool = False) -> Score:
    result = Score(program.name)
    findings, error = lint(program, dynamic)
    if findings is None:
        result.error = error
        result.missed = list(program.expected)
        return result
    matched: set[int] = set()
    for want in program.expected:
        hit = next((i for i, f in enumerate(findings) if i not in matched and _matches(program, f, *want)), None)
        if hit is None:
            result.missed.append(want)
            continue
        matched.add(hit)
        result.found.append(want)
        if dynamic and program.dynamic and program.dynamic != "none":
            result.verdicts += 1
            got = _status(findings[hit])
            if got in STATUS[program.dynamic]:
                result.verdicts_right += 1
            else:
                result.wrong_verdicts.append(f"{want[0]} {want[1]}:{want[2]}: want {program.dynamic}, got {got}")
    for i, f in enumerate(findings):
        if i in matched:
            continue
        result.extra.append((f["code"], _where(program, f), f["line"]))
        if dynamic:
            result.verdicts += 1
            got = _status(f)
            if got == "dismissed":
                result.verdicts_right += 1
            else:
                result.wrong_verdicts.append(f"extra {f['code']} line {f['line']}: want dismissed, got {got}")
    return result


def _status(finding: dict):
    verdict = finding.get("verdict")
    return verdict.get("status") if isinstance(verdict, dict) else verdict


def _score_one(args: tuple[Program, bool]) -> Score:
    return score(*args)


def score_all(selected: list[Program], dynamic: bool = False, jobs: int | None = None) -> list[Score]:
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        return [score(p, dynamic) for p in selected]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_score_one, [(p, dynamic) for p in selected], chunksize=4))


def totals(scores: list[Score]) -> dict:
    found = sum(len(s.found) for s in scores)
    missed = sum(len(s.missed) for s in scores)
    extra = sum(len(s.extra) for s in scores)
    verdicts = sum(s.verdicts for s in scores)
    return {
        "programs": len(scores),
        "found": found, "missed": missed, "extra": extra,
        "recall": found / (found + missed) if found + missed else 1.0,
        "precision": found / (found + extra) if found + extra else 1.0,
        "dynamic_accuracy": sum(s.verdicts_right for s in scores) / verdicts if verdicts else None,
        "errors": sum(1 for s in scores if s.error),
    }


def _line(t: dict) -> str:
    acc = "n/a" if t["dynamic_accuracy"] is None else f"{t['dynamic_accuracy']:.2f}"
    return (f"recall={t['recall']:.3f} ({t['found']}/{t['found'] + t['missed']}) "
            f"precision={t['precision']:.3f} ({t['found']}/{t['found'] + t['extra']}) "
            f"dynamic_accuracy={acc} programs={t['programs']} errors={t['errors']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dynamic", action="store_true", help="run the dynamic pass and score its verdicts")
    ap.add_argument("--set", help="one set of the zoo (a folder name under tests/zoo)")
    ap.add_argument("-j", "--jobs", type=int, help="programs scored at a time (default: the number of CPUs)")
    ap.add_argument("--json", action="store_true", help="print every program's score as json")
    a = ap.parse_args(argv)
    selected = programs(a.set)
    if not selected:
        print(f"no programs under {ZOO}" + (f"/{a.set}" if a.set else ""), file=sys.stderr)
        return 2
    scores = score_all(selected, a.dynamic, a.jobs)
    if a.json:
        print(json.dumps([s.__dict__ for s in scores], indent=1))
        return 0
    by_set: dict[str, list[Score]] = {}
    for s in scores:
        by_set.setdefault(s.program.split("/", 1)[0], []).append(s)
        for code, file, line in s.missed:
            print(f"MISS    {s.program}: {code} {file}:{line}" + (f" ({s.error})" if s.error else ""))
        for code, file, line in s.extra:
            print(f"EXTRA   {s.program}: {code} {file}:{line}")
        for wrong in s.wrong_verdicts:
            print(f"VERDICT {s.program}: {wrong}")
    for name, group in by_set.items():
        print(f"{name:<10} {_line(totals(group))}")
    print(f"{'zoo':<10} {_line(totals(scores))}")
    by_rule = Counter()
    for s in scores:
        for key, items in (("found", s.found), ("missed", s.missed), ("extra", s.extra)):
            for code, _, _ in items:
                by_rule[code, key] += 1
    for code in sorted({c for c, _ in by_rule}):
        print(f"{code}: found {by_rule[code, 'found']}, missed {by_rule[code, 'missed']}, extra {by_rule[code, 'extra']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
