"""The instrumented run computes and raises exactly what the plain run does.

``gradlint check --dynamic`` runs a flagged program with probes in its code and a
``TorchFunctionMode`` around it; its verdicts are only worth something if the program behaves
exactly as it does without them. So every fixture program is run twice by
``tests/transparency.py`` (one helper process imports torch once and forks each run): plain, as
``python FIXTURE`` would, and through a ``gradlint.dynamic.child.Session`` holding its static
findings. Both runs must print the same stdout, byte for byte, and end the same way: the same
exception type and first line of message, or the same exit status. stderr is not compared
(warnings name a location, which may legitimately differ).

One trap in particular: a ``saved_tensors_hooks`` pair that returns the tensor unchanged
switches off PyTorch's own version check, and a program that should raise "modified by an
inplace operation" computes a wrong gradient instead. ``test_version_check_survives`` tests
that directly; the ``raises:`` fixtures test it in every shape the corpus has.

Cost: forking from one warm helper per core, each run on one intra-op thread, a fixture takes
~0.25 s for its lint and both runs. By default only the fixtures that expect a finding are run
instrumented (``check --dynamic`` runs nothing else: a program with nothing to probe is never
run under a Session); the others run plain, for ``test_fixtures.test_program_runs``. ``pytest -m
slow`` adds their instrumented runs and the shared case programs in ``../shared/cases`` (run
where they lie, never copied).
"""
from __future__ import annotations

import difflib
import importlib.util
import os
from pathlib import Path

import pytest
from conftest import run_harness

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared" / "cases"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")


def _rel(path: Path) -> str:
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def _fixture_params():
    # (a program with no finding is never run instrumented by `check --dynamic`: nothing in it is
    # probed, so its instrumented run is a path no user takes until `gradlint run` (issue 14);
    # `pytest -m slow` still runs them)
    return [pytest.param(_rel(p), id=_rel(p), marks=() if _expects_findings(p) else pytest.mark.slow)
            for p in sorted(FIXTURES.rglob("*.py"))]


def _expects_findings(path: Path) -> bool:
    """The program's docstring names a finding (`expect: GL005 16`), not `expect: none` or nothing."""
    import re

    head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    return re.search(r"^\s*expect:\s*(?!none\b)\S", head, re.M) is not None


def _shared_params():
    if not SHARED.is_dir():
        return [pytest.param("", id="shared-cases", marks=(
            pytest.mark.slow, pytest.mark.skip(reason=f"{SHARED} is not there")))]
    return [pytest.param(_rel(p), id=f"shared/cases/{p.name}", marks=pytest.mark.slow)
            for p in sorted(SHARED.glob("*.py"))]


FIXTURE_PARAMS = _fixture_params()
SHARED_PARAMS = _shared_params()


# ---- running the harness -------------------------------------------------------------------------


def _outcome(run: dict) -> str:
    kind = run.get("kind")
    if kind == "raised":
        return f"raised {run.get('type')}: {run.get('message')}"
    if kind == "exited":
        return f"exited with status {run.get('status')}" + (" (os._exit)" if run.get("how") else "")
    if kind == "killed":
        return f"killed by {run.get('signal')}" + (f" ({run['message']})" if run.get("message") else "")
    return "completed"


def check_transparent(rel: str, entry: dict) -> None:
    assert "error" not in entry, f"the harness could not run {rel}:\n{entry['error']}"
    plain, inst = entry["plain"], entry["instrumented"]
    codes = ", ".join(f"{f['code']} line {f['line']}" for f in entry["findings"]) or "no findings"
    context = (f"\n--- plain stderr (tail) ---\n{plain['stderr'][-1500:]}"
               f"\n--- instrumented stderr (tail) ---\n{inst['stderr'][-1500:]}")
    if inst.get("tracer_errors"):
        context += "\n--- tracer errors ---\n" + "\n".join(inst["tracer_errors"])
    for name, run in (("plain", plain), ("instrumented", inst)):
        assert run.get("kind") != "killed", f"{rel}: the {name} run was {_outcome(run)}{context}"
    problems = []
    if _outcome(plain) != _outcome(inst):
        problems.append(f"plain run {_outcome(plain)}\ninstrumented run {_outcome(inst)}")
        if inst.get("traceback"):
            problems.append(f"instrumented traceback:\n{inst['traceback']}")
    if plain["stdout"] != inst["stdout"]:
        diff = "".join(difflib.unified_diff(plain["stdout"].splitlines(keepends=True),
                                            inst["stdout"].splitlines(keepends=True),
                                            fromfile=f"{rel} (plain)", tofile=f"{rel} (instrumented)"))
        problems.append(f"stdout differs:\n{diff}")
    if problems:
        pytest.fail(f"{rel} ({codes}) is not run transparently:\n" + "\n".join(problems) + context, pytrace=False)


# ---- the checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", FIXTURE_PARAMS + SHARED_PARAMS)
def test_transparent(rel, harness_results):
    entry = harness_results.get(rel) or run_harness([rel])[rel]
    check_transparent(rel, entry)


# ---- the verdicts ---------------------------------------------------------------------------------

_STATUS = {"confirm": "confirmed", "dismiss": "dismissed", "error": "error", "inconclusive": "inconclusive",
           "not-reached": "not-reached"}


def _expected_verdict(rel: str):
    """(status, gap): the verdict a program's docstring asks of its findings (``dynamic:
    confirm``; a ``bad_`` fixture's default), and the reason it is a known gap of the dynamic pass
    (``dynamic-gap: ...``), if it is one."""
    import ast
    import re

    try:
        doc = ast.get_docstring(ast.parse((ROOT / rel).read_text(encoding="utf-8"))) or ""
    except SyntaxError:  # GL000's fixtures: nothing to run
        return None, None
    said = re.search(r"^\s*dynamic:\s*(\S+)\s*$", doc, re.M)
    gap = re.search(r"^\s*dynamic-gap:\s*(.+)$", doc, re.M)
    status = _STATUS.get(said.group(1)) if said else ("confirmed" if Path(rel).name.startswith("bad_") else None)
    return status, gap.group(1).strip() if gap else None


def _verdict_params():
    params = []
    for p in sorted(FIXTURES.rglob("bad_*.py")) + (sorted(SHARED.glob("*.py")) if SHARED.is_dir() else []):
        rel = _rel(p)
        status, gap = _expected_verdict(rel)
        if status is None:
            continue
        marks = [pytest.mark.xfail(reason=gap, strict=True)] if gap else []
        if p.parent == SHARED:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(rel, status, id=rel if p.parent != SHARED else f"shared/cases/{p.name}", marks=marks))
    return params


@pytest.mark.parametrize(("rel", "status"), _verdict_params())
def test_verdict(rel, status, harness_results):
    """Each finding of a program with a known answer gets the verdict its docstring gives: every
    ``bad_`` fixture's findings are confirmed unless it says otherwise."""
    import re

    needs = re.findall(r"^needs: ([\w.]+)\s*$", (ROOT / rel).read_text(encoding="utf-8"), re.M)
    missing = [m for m in needs if importlib.util.find_spec(m.split(".")[0]) is None]
    if missing:
        pytest.skip(f"{rel} needs {', '.join(missing)} to run")
    entry = harness_results.get(rel) or run_harness([rel])[rel]
    verdicts = entry["instrumented"].get("verdicts") or {}
    got = [(f["code"], f["line"], verdicts.get(str(f["fid"]), {}).get("status"),
            verdicts.get(str(f["fid"]), {}).get("evidence")) for f in entry["findings"] if f["code"] != "GL000"]
    wrong = [g for g in got if g[2] != status]
    assert not wrong, f"{rel}: want every finding {status}, got " + "; ".join(f"{c} line {n}: {s}: {e}" for c, n, s, e in wrong)


@pytest.fixture(scope="module")
def small_programs(tmp_path_factory) -> dict[str, dict]:
    """The programs below, written out and run by one helper: name -> the harness's entry."""
    folder = tmp_path_factory.mktemp("transparency")
    paths = {}
    for name, text in (("saved_then_edited", SAVED_THEN_EDITED), ("saved_whole_model", SAVED_WHOLE_MODEL)):
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(text, encoding="utf-8")
    entries = run_harness([str(p) for p in paths.values()], workers=1)
    return {name: entries[str(path)] for name, path in paths.items()}


SAVED_THEN_EDITED = """\
import torch

w = torch.ones(3, requires_grad=True)
u = w * 3
v = u ** 2
u.add_(1)
v.sum().backward()
print("no error; w.grad =", w.grad.tolist())
"""


def test_version_check_survives(small_programs):
    """``u ** 2`` saved ``u``; ``u.add_(1)`` moves its version, so backward must raise, under the
    Session exactly as without it. A tracer that registered ``saved_tensors_hooks`` returning the
    tensor unchanged would make it print a wrong gradient (24 instead of an error) instead."""
    entry = small_programs["saved_then_edited"]
    assert [(f["code"], f["line"]) for f in entry["findings"]] == [("GL005", 6)], entry["findings"]
    plain, inst = entry["plain"], entry["instrumented"]
    for name, run in (("plain", plain), ("instrumented", inst)):
        assert run["kind"] == "raised" and run["type"] == "RuntimeError", \
            f"the {name} run should raise RuntimeError but {_outcome(run)}; stdout: {run['stdout']!r}"
        assert "modified by an inplace operation" in run["message"], run["message"]
        assert run["stdout"] == ""
    assert inst["message"] == plain["message"]
    assert inst["tracer_errors"] == []
    verdict = inst["verdicts"][str(entry["findings"][0]["fid"])]
    assert verdict["status"] == "confirmed", verdict


SAVED_WHOLE_MODEL = """\
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Sigmoid(), nn.ReLU(inplace=True), nn.Linear(4, 1))
checkpoint = io.BytesIO()
torch.save(model, checkpoint)
print("saved; pre-hooks:", [len(m._forward_pre_hooks) for m in model])
model(torch.randn(2, 4)).sum().backward()
"""


def test_watched_module_still_pickles(small_programs):
    """The probe of an in-place module (``nn.ReLU(inplace=True)``) watches what it is given.
    A hook registered on the module itself travelled with it: ``torch.save(model)`` raised
    "Can't pickle local object" and the program never reached its real error."""
    entry = small_programs["saved_whole_model"]
    assert [(f["code"], f["line"]) for f in entry["findings"]] == [("GL005", 7)], entry["findings"]
    check_transparent("saved_whole_model.py", entry)
    inst = entry["instrumented"]
    assert inst["kind"] == "raised" and "modified by an inplace operation" in inst["message"], _outcome(inst)
    verdict = inst["verdicts"][str(entry["findings"][0]["fid"])]
    assert verdict["status"] == "confirmed", verdict
