"""The dynamic pass gathers evidence by the kinds a rule module declares, never by its code.

A rule module names the kinds of evidence its findings need in ``EVIDENCE``
(``gradlint/dynamic/evidence.KINDS``); the tracer reads that. So a new rule that needs only
kinds the tracer already gathers touches nothing in ``gradlint/dynamic/``: the toy rule below,
registered for the test alone, is probed, traced and decided by the code as it is.
"""
from __future__ import annotations

import ast
import os
import re
import types
from pathlib import Path

import pytest

from gradlint import checks
from gradlint.checks import Flag, Rule
from gradlint.dynamic import evidence as evidence_module

DYNAMIC = Path(evidence_module.__file__).resolve().parent
CODE = re.compile(r"GL\d{3}")


def _allowed_lines() -> set[int]:
    """The lines of ``launch.UNPROBED``: the text for the engine's rules that have nothing to
    run, the one place of ``dynamic/`` that names rules by code."""
    tree = ast.parse((DYNAMIC / "launch.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "UNPROBED" for t in node.targets):
            return set(range(node.lineno, node.end_lineno + 1))
    raise AssertionError("launch.UNPROBED not found")


def test_no_rule_code_in_dynamic_outside_unprobed():
    allowed = _allowed_lines()
    found = []
    for path in sorted(DYNAMIC.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CODE.search(line) and not (path.name == "launch.py" and number in allowed):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert not found, "rule codes in gradlint/dynamic/ (declare a kind of evidence instead):\n" + "\n".join(found)


def test_unprobed_names_exactly_the_rules_without_a_module():
    """``UNPROBED`` is the engine's rules (no module in ``checks/``): a rule with a module is
    probed through it, and an engine rule without a text here would be sent to the child."""
    from gradlint import rule
    from gradlint.dynamic.launch import UNPROBED

    assert set(UNPROBED) == {r.code for r in rule.RULES} - set(checks.BY_CODE)


@pytest.mark.parametrize("module", [m for m in checks.MODULES if hasattr(m, "probe")], ids=lambda m: m.RULE.code)
def test_every_probed_rule_declares_kinds_the_tracer_knows(module):
    kinds = getattr(module, "EVIDENCE", None)
    assert isinstance(kinds, frozenset) and kinds, f"{module.__name__} declares no EVIDENCE"
    assert kinds <= set(evidence_module.KINDS), f"unknown kinds: {sorted(kinds - set(evidence_module.KINDS))}"
    # What a probe reads is one or the other (tracer._before).
    assert len(kinds & {"upstream", "edits"}) <= 1
    if kinds & {"pooled", "switched"}:
        assert "upstream" in kinds


# ---- a rule dynamic/ has never heard of ----------------------------------------------------------

GROWING = """\
import torch

w = torch.ones(2, requires_grad=True)
h = torch.zeros(2)
for step in range(3):
    h = h + w * 2
    loss = h.sum()
    loss.backward(retain_graph=True)
"""


def _toy_rule(evidence_kinds: frozenset) -> types.ModuleType:
    """A rule module in the shape of ``checks/``: it flags every ``.backward()`` call and
    decides from the node counts of the flagged call's records."""
    toy = types.ModuleType("toy_backward_sizes")
    toy.RULE = Rule("GL990", "toy-backward-sizes", "Every backward call, with the size of its record.")

    def check(facts):
        for node in ast.walk(facts.module):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward":
                yield Flag(toy.RULE, node, "a backward call")

    def probe(probes, flag):
        """No probe: the tracer knows the call by its lines."""

    def decide(tracer, evidence):
        if not evidence.counts:
            return "not-reached", "no record counted"
        return "confirmed", f"records of {evidence.root}: {evidence.counts} nodes"

    toy.check, toy.probe, toy.decide, toy.EVIDENCE = check, probe, decide, evidence_kinds
    return toy


def _run(tmp_path, monkeypatch, toy) -> tuple[dict, list]:
    """Instrument ``GROWING`` for the toy rule's finding, run it under a tracer, and return the
    verdicts and the node counts the tracer kept."""
    pytest.importorskip("torch")
    from gradlint.dynamic.instrument import PROBE, instrument
    from gradlint.dynamic.tracer import Tracer

    monkeypatch.setattr(checks, "MODULES", (*checks.MODULES, toy))
    monkeypatch.setitem(checks.BY_CODE, toy.RULE.code, toy)
    path = os.path.realpath(tmp_path / "growing.py")
    Path(path).write_text(GROWING, encoding="utf-8")
    call = next(n for n in ast.walk(ast.parse(GROWING)) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute) and n.func.attr == "backward")
    want = {"fid": 0, "code": toy.RULE.code, "line": call.lineno, "column": call.col_offset + 1,
            "end_line": call.end_lineno, "end_column": call.end_col_offset + 1}
    result = instrument(GROWING, path, [want])
    assert not result.unplaced, result.unplaced
    tracer = Tracer({path})
    for fid, finding in result.findings.items():
        tracer.add_finding(fid, finding.to_json())
    with tracer:
        exec(compile(result.source, path, "exec", dont_inherit=True), {"__name__": "growing", PROBE: tracer})
    return tracer.verdicts(), tracer.evidence[0].counts


def test_a_new_rule_needing_an_existing_kind_is_traced_without_touching_dynamic(tmp_path, monkeypatch):
    verdicts, counts = _run(tmp_path, monkeypatch, _toy_rule(frozenset({"backward_site"})))
    assert len(counts) == 3 and counts[0] < counts[1] < counts[2], counts  # h carries every step's record
    assert verdicts == {0: {"status": "confirmed", "evidence": f"records of `loss`: {counts} nodes"}}


def test_a_rule_gets_only_the_evidence_it_declares(tmp_path, monkeypatch):
    verdicts, counts = _run(tmp_path, monkeypatch, _toy_rule(frozenset()))
    assert counts == []
    assert verdicts == {0: {"status": "not-reached", "evidence": "no record counted"}}
